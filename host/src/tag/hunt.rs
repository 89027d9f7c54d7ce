//! `hunt`: parameters whose names suggest a vulnerability class worth
//! testing (server-side template injection, SSRF, SQL injection, IDOR, file
//! inclusion, debug switches, command injection). Tags go on the parameter.

use super::{tag_param, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "hunt",
    label: "Hunt",
    summary: "Tags parameters whose names suggest SSTI, SSRF, SQLi, IDOR, file inclusion, debug or command injection.",
    always: false,
    apply,
};

/// (tag name, description, exact lower-case parameter names).
const CLASSES: &[(&str, &str, &[&str])] = &[
    (
        "ssti",
        "A parameter name often rendered by templates: test for server-side template injection.",
        &["template", "preview", "id", "view", "activity", "name", "content", "redirect"],
    ),
    (
        "ssrf",
        "A parameter name often holding a URL or host: test for server-side request forgery.",
        &[
            "dest", "redirect", "uri", "path", "continue", "url", "window", "next", "data",
            "reference", "site", "html", "val", "validate", "domain", "callback", "return",
            "page", "feed", "host", "port", "to", "out", "view", "dir", "show", "navigation",
            "open",
        ],
    ),
    (
        "sqli",
        "A parameter name often used in database queries: test for SQL injection.",
        &[
            "id", "select", "report", "role", "update", "query", "user", "name", "sort",
            "where", "search", "params", "process", "row", "view", "table", "from", "sel",
            "results", "sleep", "fetch", "order", "keyword", "column", "field", "delete",
            "string", "number", "filter",
        ],
    ),
    (
        "idor",
        "A parameter name often holding an object reference: test for insecure direct object references.",
        &[
            "id", "user", "account", "number", "order", "no", "doc", "key", "email", "group",
            "profile", "edit", "report",
        ],
    ),
    (
        "file-inclusion",
        "A parameter name often holding a file path: test for local or remote file inclusion.",
        &[
            "file", "document", "folder", "root", "path", "pg", "style", "pdf", "template",
            "php_path", "doc", "page", "name", "cat", "dir", "action", "board", "date",
            "detail", "download", "prefix", "include", "inc", "locate", "show", "site",
            "type", "view", "content", "layout", "mod", "conf",
        ],
    ),
    (
        "debug",
        "A parameter name often switching on debug or admin behaviour.",
        &[
            "access", "admin", "dbg", "debug", "edit", "grant", "test", "alter", "clone",
            "create", "delete", "disable", "enable", "exec", "execute", "load", "make",
            "modify", "rename", "reset", "shell", "toggle", "adm", "root", "cfg", "config",
        ],
    ),
    (
        "command-injection",
        "A parameter name often passed to a shell: test for command injection.",
        &[
            "daemon", "upload", "dir", "execute", "download", "log", "ip", "cli", "cmd",
            "exec", "command", "func", "code", "update", "shell", "eval",
        ],
    ),
];

fn apply(e: &mut Endpoint, _: Scope) {
    for p in &mut e.params {
        let name = p.name.to_ascii_lowercase();
        for (tag, description, words) in CLASSES {
            if words.contains(&name.as_str()) {
                tag_param(p, &TAGGER, tag, description);
            }
        }
    }
}
