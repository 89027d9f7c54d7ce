//! Which files are worth a question.
//!
//! A file is a candidate when all of these hold:
//! - no analyzer claimed it (decided in `mod.rs`: an analyzer that ran
//!   wants the file and either reported an endpoint in it or the file
//!   matches one of that technology's detection rules);
//! - it is source code: its extension is in [`SOURCE_EXTENSIONS`] (never
//!   configuration, documents or `.env` files: they may hold secrets and
//!   serve no routes), it is not test code
//!   ([`portolan_plugin_sdk::paths::is_test_path`]), not minified, and at
//!   most [`MAX_FILE_BYTES`];
//! - it looks like server code: it contains a route-like string literal
//!   (`"/users/:id"`) and at least two of these cheap signals: a call named
//!   like an HTTP verb or a router method (`.get(`, `post!(`, `HandleFunc(`),
//!   an upper-case HTTP method word, a listen/serve call, a route-like
//!   decorator or annotation (`@Get`, `#[route`), web vocabulary (`router`,
//!   `handler`, `request`, `ctx`…). The number of signals is the file's
//!   score; `--ai-max-files` keeps the highest scores.

use std::sync::OnceLock;

use regex::Regex;

/// Extensions of files that may be sent (lower case).
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "rb", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "go", "java", "kt", "kts",
    "scala", "groovy", "cs", "fs", "vb", "php", "rs", "swift", "ex", "exs", "erl", "cr", "lua",
    "pl", "pm", "dart", "hs", "ml", "clj", "cljs", "nim", "zig", "v", "jl", "r", "cfc", "cfm", "d",
    "hx", "c", "cc", "cpp", "cxx", "h", "hpp", "m", "mm", "coffee", "gleam", "tcl", "raku", "rkt",
    "elm", "vala", "pas", "cob", "adb",
];

/// Larger files are never sent (generated code, bundles).
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// Whether the path names source code that may be sent.
pub fn is_source_path(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    let lower = name.to_ascii_lowercase();
    if lower.contains(".min.") || portolan_plugin_sdk::paths::is_test_path(relative) {
        return false;
    }
    match lower.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => SOURCE_EXTENSIONS.contains(&ext),
        _ => false,
    }
}

struct Signals {
    route_literal: Regex,
    others: Vec<Regex>,
}

fn signals() -> Option<&'static Signals> {
    static S: OnceLock<Option<Signals>> = OnceLock::new();
    S.get_or_init(|| {
        let route_literal = Regex::new(r#"["'`]/[A-Za-z0-9_\-.:{}<>*$/]*["'`]"#).ok()?;
        let others = [
            // verb- or router-named calls and macros
            r"(?i)\b(get|post|put|delete|del|patch|options|head|any|all|route|routes|handle|handlefunc|handler|map(get|post|put|delete|patch)?|mount|group|resource|resources|scope)\s*[(!]",
            // upper-case HTTP method words
            r"\b(GET|POST|PUT|DELETE|PATCH|OPTIONS|HEAD)\b",
            // starting a server
            r"(?i)\b(listen|listenandserve|serve|serve_forever|run_server|start_server|createserver|httpserver|bind|run)\s*\(",
            // route-like decorators and annotations
            r"(?im)^\s*(@|#\[|\[)\w*(route|get|post|put|delete|patch|mapping|path|endpoint|http)",
            // web vocabulary
            r"(?i)\b(router|routes|endpoint|handler|middleware|request|response|req|res|ctx|http)\b",
        ]
        .iter()
        .map(|p| Regex::new(p).ok())
        .collect::<Option<Vec<_>>>()?;
        Some(Signals {
            route_literal,
            others,
        })
    })
    .as_ref()
}

/// How much the content looks like server code: 0 = not at all, else the
/// number of signals found (2..=5).
pub fn server_score(content: &str) -> u32 {
    let Some(s) = signals() else {
        return 0;
    };
    if content.len() > MAX_FILE_BYTES || !s.route_literal.is_match(content) {
        return 0;
    }
    let n = s.others.iter().filter(|r| r.is_match(content)).count() as u32;
    if n >= 2 {
        n
    } else {
        0
    }
}

/// Whether a file no analyzer wanted should be kept by the walk for AI
/// analysis.
pub fn worth_keeping(relative: &str, content: &str) -> bool {
    is_source_path(relative) && server_score(content) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_source_code_is_sent() {
        assert!(is_source_path("app/server.lua"));
        assert!(is_source_path("src/Main.JAVA"));
        for p in [
            ".env",
            "config/settings.yaml",
            "README.md",
            "static/app.min.js",
            "tests/test_api.py",
            "src/user.spec.ts",
            "Makefile",
            "data.json",
        ] {
            assert!(!is_source_path(p), "{p}");
        }
    }

    #[test]
    fn server_code_is_told_from_other_code() {
        let lua = r#"
local router = require("lapis.router")
app:match("/users/:id", function(self) return { json = self.params } end)
app:get("/health", function() return "ok" end)
server.listen(8080)
"#;
        assert!(server_score(lua) >= 3);
        let util = "def add(a, b):\n    return a + b\n\nPATH = '/usr/lib'\n";
        assert_eq!(server_score(util), 0);
        let no_literal = "router.get(handler)\nserver.listen(port)\n";
        assert_eq!(server_score(no_literal), 0);
        let annotated = "@Get(\"/items\")\npublic Response list(Request request) {}\n";
        assert!(server_score(annotated) >= 2);
    }
}
