//! Astro (`js_astro`): endpoint modules below `src/pages`.
//!
//! Script files (`.js`/`.ts`, not `.astro` pages) exporting
//! `GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS` (also Astro 2's lower-case
//! `get/post/del`) are one endpoint per export; `ALL`/`all` serves every
//! method and is reported as GET, POST, PUT, PATCH and DELETE, less the
//! methods the module exports on their own. URLs:
//! `index` dropped, the rest of the file name kept (`feed.xml.ts` →
//! `/feed.xml`), `[id]` → `{id}`, `[...slug]` → `{slug}`; files and
//! directories starting with `_` are not routed. Parameters come from the
//! Fetch API (see [`crate::js::reads::web_params`]). Test files are
//! skipped.

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};
use crate::js::fsroute::{exported_functions, url_of, ANY};
use crate::js::reads::web_params;

pub struct Astro;

/// The URL of an endpoint module below `src/pages`.
pub fn route_of(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split('/').collect();
    let (file, dirs) = segs.split_last()?;
    let root = (1..dirs.len())
        .rev()
        .find(|&i| dirs[i] == "pages" && dirs[i - 1] == "src")?;
    let (stem, ext) = file.rsplit_once('.')?;
    if !matches!(ext, "js" | "ts" | "mjs" | "mts") {
        return None;
    }
    let mut out = Vec::new();
    for d in dirs[root + 1..].iter().copied().chain([stem]) {
        if d.starts_with('_') {
            return None;
        }
        if d == "index" {
            continue;
        }
        out.push(segment(d));
    }
    Some(url_of(&out))
}

fn segment(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push('[');
            out.push_str(after);
            return out;
        };
        out.push('{');
        out.push_str(after[..close].trim_start_matches("..."));
        out.push('}');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

fn methods_of(export: &str) -> Vec<&'static str> {
    match export {
        "GET" | "get" => vec!["GET"],
        "POST" | "post" => vec!["POST"],
        "PUT" | "put" => vec!["PUT"],
        "PATCH" | "patch" => vec!["PATCH"],
        "DELETE" | "del" => vec!["DELETE"],
        "HEAD" | "head" => vec!["HEAD"],
        "OPTIONS" | "options" => vec!["OPTIONS"],
        "ALL" | "all" => ANY.to_vec(),
        _ => Vec::new(),
    }
}

impl Analyzer for Astro {
    fn tech(&self) -> Tech {
        Tech::new("js_astro", "JavaScript", "Astro")
            .aliases(["astro", "js-astro"])
            .files(JS_FILES)
            .detect(
                Detect::files(JS_FILES).regex([r#"\bfrom\s+['"]astro(?::[\w-]+|/[\w/-]+)?['"]"#]),
            )
            .detect(Detect::files(["package.json"]).regex([r#""astro"\s*:"#]))
            .detect(Detect::files([
                "astro.config.mjs",
                "astro.config.ts",
                "astro.config.js",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let Some(url) = route_of(&file.path) else {
            return;
        };
        let code = file.code(Syntax::JAVASCRIPT);
        let outline = crate::js::module::outline(file, &code);
        let exports = exported_functions(&code, &outline);
        // `ALL` serves the methods without their own export.
        let explicit: Vec<&str> = exports
            .iter()
            .filter(|e| !matches!(e.name.as_str(), "ALL" | "all"))
            .flat_map(|e| methods_of(&e.name))
            .collect();
        for e in &exports {
            let all = matches!(e.name.as_str(), "ALL" | "all");
            let params = e
                .body
                .clone()
                .map(|b| web_params(&code, b))
                .unwrap_or_default();
            for m in methods_of(&e.name) {
                if all && explicit.contains(&m) {
                    continue;
                }
                out.endpoint(
                    Endpoint::new(m, &url)
                        .params(params.clone())
                        .at(file, file.line_of(e.at)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(
            route_of("src/pages/api/users/[id].ts").as_deref(),
            Some("/api/users/{id}")
        );
        assert_eq!(
            route_of("src/pages/rss.xml.js").as_deref(),
            Some("/rss.xml")
        );
        assert_eq!(route_of("src/pages/api/index.ts").as_deref(), Some("/api"));
        assert_eq!(
            route_of("src/pages/files/[...path].ts").as_deref(),
            Some("/files/{path}")
        );
        assert_eq!(route_of("src/pages/_helpers/db.ts"), None);
        assert_eq!(route_of("src/pages/index.astro"), None);
    }
}
