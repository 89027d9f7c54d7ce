//! Bruno collections (`.bru` files): one endpoint per request file. The
//! YAML format of Bruno 3 (OpenCollection) is read by [`yaml`] into the
//! same requests and scopes.
//!
//! - A request file has a method block (`get {`, `post {`, …) with `url:`,
//!   `body:` (which body block is sent) and `auth:`; `params:query`,
//!   `params:path`, `headers`, `auth:bearer|basic|apikey`, `body:json`,
//!   `body:form-urlencoded`, `body:multipart-form` (`@file(…)` parts are
//!   `file`s), `body:graphql` (→ `json` `query` and `variables`) and
//!   `vars:pre-request` blocks. Entries prefixed with `~` are disabled and
//!   skipped. XML and text bodies have no named fields.
//! - Variables (`{{baseUrl}}`), from the lowest precedence: the
//!   `vars:pre-request` of `collection.bru`, the collection's first
//!   environment (`environments/*.bru`, `vars {…}`, in path order), the
//!   `vars:pre-request` of each enclosing `folder.bru`, the request's own.
//!   Files are linked across the tree (map/reduce facts); URLs follow
//!   [`portolan_plugin_sdk::doc::vars`]: an unknown leading variable is the server and
//!   dropped, other unknown ones become `{name}` path placeholders; `:id`
//!   path segments stay as written, with the `params:path` value.
//! - Headers: the request's, then those of enclosing `folder.bru` files and
//!   `collection.bru` (`headers {…}`), innermost first.
//! - Location: the method block's line.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use portolan_plugin_sdk::doc::request::{header_params, json_params, query_params};
use portolan_plugin_sdk::doc::url::query_of;
use portolan_plugin_sdk::doc::vars::{substitute, url_path_of};

mod yaml;

pub struct Bruno;

/// Method blocks.
const METHODS: [&str; 9] = [
    "get", "post", "put", "delete", "patch", "options", "head", "connect", "trace",
];

/// A request file: a method block at the start of a line.
pub const DETECT_REGEX: &str =
    r"(?m)^(?:get|post|put|delete|patch|options|head|connect|trace)[ \t]*\{";

impl Analyzer for Bruno {
    fn tech(&self) -> Tech {
        Tech::new("bruno", "Specification", "Bruno collection")
            .specification()
            .files(["*.bru", "*.yml", "*.yaml"])
            .detect(
                Detect::files(["*.bru", "*.yml", "*.yaml"])
                    .regex([DETECT_REGEX, yaml::DETECT_REGEX]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !file.path.ends_with(".bru") {
            return yaml::analyze(file, out);
        }
        let blocks = match parse(&file.content) {
            Ok(blocks) => blocks,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let path = file.slash_path();
        let dir = parent(&path).to_string();
        let name = path.rsplit('/').next().unwrap_or("");
        let pre_request = |blocks: &[Block]| dict(blocks, "vars:pre-request");
        if name == "collection.bru" {
            out.fact(&Fact::Vars {
                dir,
                rank: Rank::Collection,
                vars: pre_request(&blocks),
                headers: dict(&blocks, "headers"),
            });
            return;
        }
        if name == "folder.bru" {
            out.fact(&Fact::Vars {
                dir,
                rank: Rank::Folder,
                vars: pre_request(&blocks),
                headers: dict(&blocks, "headers"),
            });
            return;
        }
        if dir.rsplit('/').next() == Some("environments") {
            let root = parent(&dir).to_string();
            out.fact(&Fact::Vars {
                dir: root,
                rank: Rank::Environment,
                vars: dict(&blocks, "vars"),
                headers: Vec::new(),
            });
            return;
        }
        let Some(method) = blocks.iter().find(|b| METHODS.contains(&b.name.as_str())) else {
            return;
        };
        let settings = method.pairs();
        let setting = |key: &str| {
            settings
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let body_mode = setting("body");
        let auth_mode = setting("auth");
        let mut request = Request {
            path: file.path.clone(),
            line: method.line,
            method: method.name.to_ascii_uppercase(),
            url: setting("url"),
            query: dict(&blocks, "params:query"),
            path_params: dict(&blocks, "params:path"),
            headers: dict(&blocks, "headers"),
            body: Body::None,
            vars: pre_request(&blocks),
        };
        match auth_mode.as_str() {
            "bearer" => {
                let token = dict(&blocks, "auth:bearer")
                    .into_iter()
                    .find(|(k, _)| k == "token");
                let value = token
                    .map(|(_, t)| format!("Bearer {t}"))
                    .unwrap_or_default();
                request.headers.push(("Authorization".into(), value));
            }
            "basic" => request
                .headers
                .push(("Authorization".into(), String::new())),
            "apikey" => {
                let auth = dict(&blocks, "auth:apikey");
                let get = |k: &str| auth.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
                if let Some(key) = get("key").filter(|k| !k.is_empty()) {
                    let value = get("value").unwrap_or_default();
                    if get("placement").as_deref() == Some("queryparams") {
                        request.query.push((key, value));
                    } else {
                        request.headers.push((key, value));
                    }
                }
            }
            _ => {}
        }
        let body_block = |name: &str| blocks.iter().find(|b| b.name == name);
        let pick = |mode: &str| match mode {
            "json" => body_block("body:json").map(|b| Body::Json(b.text())),
            "formUrlEncoded" => Some(Body::Form(dict(&blocks, "body:form-urlencoded"))),
            "multipartForm" => Some(Body::Multipart(dict(&blocks, "body:multipart-form"))),
            "graphql" => Some(Body::Graphql),
            _ => None,
        };
        request.body = match body_mode.as_str() {
            "" => ["json", "formUrlEncoded", "multipartForm"]
                .iter()
                .filter(|m| {
                    let block = match **m {
                        "json" => "body:json",
                        "formUrlEncoded" => "body:form-urlencoded",
                        _ => "body:multipart-form",
                    };
                    body_block(block).is_some()
                })
                .find_map(|m| pick(m))
                .unwrap_or(Body::None),
            mode => pick(mode).unwrap_or(Body::None),
        };
        out.fact(&Fact::Request(request));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let mut scopes = Vec::new();
        let mut requests = Vec::new();
        for fact in facts {
            match fact {
                Fact::Vars {
                    dir,
                    rank,
                    vars,
                    headers,
                } => scopes.push(Scope {
                    dir,
                    rank,
                    vars,
                    headers,
                }),
                Fact::Request(r) => requests.push(r),
            }
        }
        Ok(requests.iter().map(|r| endpoint(r, &scopes)).collect())
    }
}

/// The directory of a `/`-separated path (`""` at the top).
fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
enum Rank {
    Collection,
    Environment,
    Folder,
}

#[derive(Debug, Serialize, Deserialize)]
enum Body {
    None,
    Json(String),
    Form(Vec<(String, String)>),
    Multipart(Vec<(String, String)>),
    Graphql,
}

#[derive(Debug, Serialize, Deserialize)]
struct Request {
    path: String,
    line: u32,
    method: String,
    url: String,
    query: Vec<(String, String)>,
    path_params: Vec<(String, String)>,
    headers: Vec<(String, String)>,
    body: Body,
    vars: Vec<(String, String)>,
}

#[derive(Debug, Serialize, Deserialize)]
enum Fact {
    /// Variables (and headers sent with every request) for requests below
    /// `dir`.
    Vars {
        dir: String,
        rank: Rank,
        vars: Vec<(String, String)>,
        headers: Vec<(String, String)>,
    },
    Request(Request),
}

/// Is `dir` the directory `ancestor` or below it?
fn within(path: &str, ancestor: &str) -> bool {
    ancestor.is_empty() || path == ancestor || path.starts_with(&format!("{ancestor}/"))
}

/// Variables and headers that apply below a directory.
struct Scope {
    dir: String,
    rank: Rank,
    vars: Vec<(String, String)>,
    headers: Vec<(String, String)>,
}

fn endpoint(r: &Request, scopes: &[Scope]) -> Endpoint {
    let dir = parent(&r.path.replace('\\', "/")).to_string();
    // Lowest precedence first: collection vars, the first environment,
    // folder vars from the outermost, then the request's.
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut applicable: Vec<&Scope> = scopes.iter().filter(|s| within(&dir, &s.dir)).collect();
    let first_env = applicable.iter().position(|s| s.rank == Rank::Environment);
    let mut index = 0;
    applicable.retain(|s| {
        let keep = s.rank != Rank::Environment || Some(index) == first_env;
        index += 1;
        keep
    });
    applicable.sort_by_key(|s| (s.rank, s.dir.len()));
    for scope in &applicable {
        vars.extend(scope.vars.iter().cloned());
    }
    vars.extend(r.vars.iter().cloned());
    let lookup = |name: &str| {
        vars.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let sub = |s: &str| substitute(s, &lookup);
    let path = url_path_of(&r.url, &lookup);
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path
    };
    let mut e = Endpoint::new(&r.method, path).at_path(r.path.clone(), r.line);
    for p in query_params(&sub(query_of(&r.url))) {
        e.push_param(p);
    }
    for (name, value) in &r.query {
        e.push_param(Param::query(sub(name)).value(sub(value)));
    }
    for (name, value) in &r.path_params {
        e.push_param(Param::path(name).value(sub(value)));
    }
    // The request's headers, then its folders' and the collection's
    // (innermost first; a name already sent is not repeated).
    let inherited = applicable.iter().rev().flat_map(|s| s.headers.iter());
    for (name, value) in r.headers.iter().chain(inherited) {
        for p in header_params(&sub(name), &sub(value)) {
            e.push_param(p);
        }
    }
    let body: Vec<Param> = match &r.body {
        Body::None => Vec::new(),
        Body::Json(text) => json_params(&sub(text)),
        Body::Form(pairs) => pairs
            .iter()
            .map(|(n, v)| Param::form(sub(n)).value(sub(v)))
            .collect(),
        Body::Multipart(pairs) => pairs
            .iter()
            .map(|(n, v)| {
                if v.trim_start().starts_with("@file(") {
                    Param::file(sub(n))
                } else {
                    Param::form(sub(n)).value(sub(v))
                }
            })
            .collect(),
        Body::Graphql => vec![Param::json("query"), Param::json("variables")],
    };
    for p in body {
        e.push_param(p);
    }
    e
}

/// One top-level block: `name {` … `}` (or `name [` … `]` for lists).
#[derive(Debug)]
struct Block {
    name: String,
    /// 1-based line of the block's opening line.
    line: u32,
    /// The lines between the opening and closing lines, as written.
    body: Vec<String>,
}

impl Block {
    /// `key: value` entries, enabled ones only (`~key: v` is disabled).
    /// Keys may be quoted (`"key with spaces": v`, `"a:b": v`, `\"`
    /// escapes), as Bruno writes names with spaces, colons or braces;
    /// multi-line values are written between `'''` lines.
    fn pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut lines = self.body.iter();
        while let Some(line) = lines.next() {
            let line = line.trim();
            let (disabled, entry) = match line.strip_prefix('~') {
                Some(rest) => (true, rest),
                None => (false, line),
            };
            let Some((key, value)) = split_entry(entry) else {
                continue;
            };
            let mut value = value.trim().to_string();
            if value == "'''" {
                // A multi-line value: `key: '''`, indented lines, `'''`.
                let mut parts = Vec::new();
                for next in lines.by_ref() {
                    if next.trim() == "'''" {
                        break;
                    }
                    parts.push(next.trim());
                }
                value = parts.join("\n");
            }
            if !key.is_empty() && !disabled {
                out.push((key, value));
            }
        }
        out
    }

    /// The body as text, its common indentation removed.
    fn text(&self) -> String {
        let indent = self
            .body
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        self.body
            .iter()
            .map(|l| l.get(indent..).unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `key: value` → (key, value); a `"…"` key is unquoted and may hold `:`.
fn split_entry(line: &str) -> Option<(String, &str)> {
    let Some(quoted) = line.strip_prefix('"') else {
        let (key, value) = line.split_once(':')?;
        return Some((key.trim().to_string(), value));
    };
    let mut key = String::new();
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    key.push(escaped);
                }
            }
            '"' => {
                let rest = quoted.get(i + 1..)?.trim_start();
                return Some((key, rest.strip_prefix(':')?));
            }
            _ => key.push(c),
        }
    }
    None
}

/// The enabled entries of the block named `name`, if any.
fn dict(blocks: &[Block], name: &str) -> Vec<(String, String)> {
    blocks
        .iter()
        .find(|b| b.name == name)
        .map(Block::pairs)
        .unwrap_or_default()
}

/// Split a `.bru` file into its top-level blocks. A block opens with
/// `name {` (or `name [`) at the start of a line and closes with a `}` (or
/// `]`) alone at the start of a line; an unclosed block is an error.
fn parse(text: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut current: Option<(Block, char)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = raw.trim_end_matches('\r');
        if let Some((block, close)) = current.as_mut() {
            if line.trim_end() == close.to_string() && !line.starts_with([' ', '\t']) {
                if let Some((block, _)) = current.take() {
                    blocks.push(block);
                }
            } else {
                block.body.push(line.to_string());
            }
            continue;
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() || line.starts_with([' ', '\t']) {
            continue;
        }
        let (name, close) = if let Some(name) = trimmed.strip_suffix('{') {
            (name, '}')
        } else if let Some(name) = trimmed.strip_suffix('[') {
            (name, ']')
        } else {
            return Err(format!(
                "line {line_no}: expected `name {{`, found `{trimmed}`"
            ));
        };
        current = Some((
            Block {
                name: name.trim().to_string(),
                line: line_no,
                body: Vec::new(),
            },
            close,
        ));
    }
    match current {
        Some((block, _)) => Err(format!(
            "line {}: block `{}` is never closed",
            block.line, block.name
        )),
        None => Ok(blocks),
    }
}

#[cfg(test)]
mod tests;
