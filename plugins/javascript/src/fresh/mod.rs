//! Fresh (`js_fresh`, Deno): route modules below `routes/`.
//!
//! A module routes when it exports a `handler`: an object of method
//! functions (`export const handler: Handlers = { GET(req, ctx) {…},
//! async POST(req) {…} }`, Fresh 2's `define.handlers({ … })`), one
//! endpoint per method at its line; or a single function (`export const
//! handler = (req, ctx) => …`, `export function handler`), which serves
//! every method: the methods it compares with `req.method` are reported,
//! else GET. Pages without a handler are not reported. URLs: `index`
//! dropped, `(group)` directories dropped, `[id]` → `{id}`, `[...path]`
//! and `[[opt]]` → `{path}` / `{opt}`; files starting with `_`
//! (`_app`, `_layout`, `_middleware`, `_404`) are not routes. Parameters
//! come from the Fetch API (see [`crate::js::reads::web_params`]). Test
//! files are skipped.

use portolan_plugin_sdk::prelude::*;
use regex::Regex;
use std::sync::OnceLock;

use crate::express::is_generated;
use crate::js::fsroute::{compared_methods, url_of};
use crate::js::outline::{function_parts, object_entries};
use crate::js::reads::web_params;

pub struct Fresh;

const FILES: [&str; 4] = ["*.ts", "*.tsx", "*.js", "*.jsx"];
const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The URL of a route module below `routes/`.
pub fn route_of(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split('/').collect();
    let (file, dirs) = segs.split_last()?;
    let root = dirs.iter().rposition(|d| *d == "routes")?;
    let (stem, ext) = file.rsplit_once('.')?;
    if !matches!(ext, "ts" | "tsx" | "js" | "jsx") || stem.starts_with('_') {
        return None;
    }
    let mut out = Vec::new();
    for d in dirs[root + 1..].iter().copied().chain([stem]) {
        if d == "index" || (d.starts_with('(') && d.ends_with(')')) {
            continue;
        }
        if d.starts_with('_') {
            return None;
        }
        let mut s = String::new();
        let mut rest = d;
        while let Some(open) = rest.find('[') {
            s.push_str(&rest[..open]);
            let after = rest[open..].trim_start_matches('[');
            let close = after.find(']')?;
            s.push('{');
            s.push_str(after[..close].trim_start_matches("..."));
            s.push('}');
            rest = after[close..].trim_start_matches(']');
        }
        s.push_str(rest);
        out.push(s);
    }
    Some(url_of(&out))
}

impl Analyzer for Fresh {
    fn tech(&self) -> Tech {
        Tech::new("js_fresh", "JavaScript", "Fresh")
            .aliases(["fresh", "js-fresh", "deno-fresh"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([
                r#"\bfrom\s+['"](?:\$fresh/server\.ts|fresh|jsr:@fresh/core[@\w.^~-]*)['"]"#,
            ]))
            .detect(
                Detect::files(["deno.json", "deno.jsonc"])
                    .regex([r#""(?:\$fresh/|fresh"|@fresh/core)"#]),
            )
            .detect(Detect::files(["fresh.gen.ts"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let Some(url) = route_of(&file.path) else {
            return;
        };
        let code = file.code(Syntax::JAVASCRIPT);
        let text = code.text();
        static HANDLER: OnceLock<Regex> = OnceLock::new();
        let handler = HANDLER.get_or_init(|| {
            crate::js::pattern::regex(r"\bexport\s+(?:(?:const|let|var)\s+handler\b[^=]*=|(?:async\s+)?function\s+handler\b)").unwrap_or_else(crate::js::pattern::never)
        });
        let Some(m) = handler.find_iter(text).find(|m| code.is_code(m.start())) else {
            return;
        };
        let line = file.line_of(m.start());
        let mut v = code.skip_ws(m.end());
        if text[m.start()..m.end()].contains("function") {
            v = m.end() - "function handler".len();
            v = text[v..].find("function").map_or(v, |k| v + k);
        }
        // `define.handlers({ … })`, `defineHandlers({ … })`.
        if let Some(k) = text[v..].find('(') {
            let head = text[v..v + k].trim();
            if head.ends_with("handlers") || head.ends_with("Handlers") {
                v = code.skip_ws(v + k + 1);
            }
        }
        if text.as_bytes().get(v) == Some(&b'{') {
            for e in object_entries(&code, v) {
                let Some(method) = METHODS.iter().find(|x| **x == e.key) else {
                    continue;
                };
                let params = e
                    .function
                    .map(|(_, body)| web_params(&code, body))
                    .unwrap_or_default();
                out.endpoint(
                    Endpoint::new(method, &url)
                        .params(params)
                        .at(file, file.line_of(e.value.start)),
                );
            }
            return;
        }
        let end = crate::js::module::statement_end(&code, v);
        let Some((_, body)) = function_parts(&code, v..end.max(v)) else {
            return;
        };
        let params = web_params(&code, body.clone());
        let mut methods = compared_methods(&code, body);
        if methods.is_empty() {
            methods.push("GET".into());
        }
        for method in methods {
            out.endpoint(
                Endpoint::new(&method, &url)
                    .params(params.clone())
                    .at(file, line),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(
            route_of("routes/api/users/[id].ts").as_deref(),
            Some("/api/users/{id}")
        );
        assert_eq!(route_of("routes/index.tsx").as_deref(), Some("/"));
        assert_eq!(
            route_of("routes/(marketing)/about.tsx").as_deref(),
            Some("/about")
        );
        assert_eq!(
            route_of("routes/files/[...path].ts").as_deref(),
            Some("/files/{path}")
        );
        assert_eq!(route_of("routes/_app.tsx"), None);
        assert_eq!(route_of("routes/api/_middleware.ts"), None);
    }
}
