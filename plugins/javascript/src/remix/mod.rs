//! Remix (`js_remix`, also React Router framework mode): route modules
//! below `app/routes`.
//!
//! Names: flat routes split on `.` (`api.users.$id.ts` →
//! `/api/users/{id}`), folder routes (`api.users.$id/route.ts`), and
//! nested directories (v1: `api/users/$id.ts`). `_index`/`index` add
//! nothing; `_layout` segments (pathless layouts) are dropped; a trailing
//! `_` is removed (`users_.$id`); `$id` → `{id}`; a lone `$` (splat) →
//! `{splat}`; optional segments `($lang)`/`(en)` are dropped (the route
//! is reported at its shortest URL); `[.]` escapes are unwrapped.
//!
//! Each exported `loader` is a GET endpoint and each exported `action` a
//! POST endpoint (or the methods the action compares with
//! `request.method`), at the function's line, for resource routes and UI
//! routes alike. Parameters come from the Fetch API (see
//! [`crate::js::reads::web_params`]). Test files are skipped.

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};
use crate::js::fsroute::{compared_methods, exported_functions, is_script, url_of};
use crate::js::outline::Outline;
use crate::js::reads::web_params;

pub struct Remix;

/// The URL of a route module below `app/routes`.
pub fn route_of(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split('/').collect();
    let (file, dirs) = segs.split_last()?;
    let root = (1..dirs.len())
        .rev()
        .find(|&i| dirs[i] == "routes" && dirs[i - 1] == "app")?;
    let (stem, ext) = file.rsplit_once('.')?;
    if !is_script(ext) {
        return None;
    }
    let mut names: Vec<&str> = dirs[root + 1..].to_vec();
    if !matches!(stem, "route" | "index") || names.is_empty() {
        names.push(stem);
    }
    let mut out = Vec::new();
    for name in names {
        for seg in split_dots(name) {
            if let Some(s) = segment(&seg) {
                out.push(s);
            }
        }
    }
    Some(url_of(&out))
}

/// Split on `.` outside `[…]` escapes.
fn split_dots(name: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in name.chars() {
        match c {
            '[' => escaped = true,
            ']' => escaped = false,
            '.' if !escaped => out.push(String::new()),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    out
}

fn segment(seg: &str) -> Option<String> {
    if seg.is_empty() || seg == "_index" || seg == "index" || seg.starts_with('_') {
        return None;
    }
    if seg.starts_with('(') && seg.ends_with(')') {
        return None;
    }
    let seg = seg.strip_suffix('_').unwrap_or(seg);
    if seg == "$" {
        return Some("{splat}".into());
    }
    if let Some(name) = seg.strip_prefix('$') {
        return Some(format!("{{{name}}}"));
    }
    Some(seg.to_string())
}

impl Analyzer for Remix {
    fn tech(&self) -> Tech {
        Tech::new("js_remix", "JavaScript", "Remix")
            .aliases(["remix", "js-remix", "remix-run"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([r#"\bfrom\s+['"]@remix-run/[\w-]+['"]"#]))
            .detect(
                Detect::files(["package.json"])
                    .regex([r#""@remix-run/(?:node|react|cloudflare|deno|serve)"\s*:"#]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let Some(url) = route_of(&file.path) else {
            return;
        };
        let code = file.code(Syntax::JAVASCRIPT);
        let outline = Outline::new(&code);
        for e in exported_functions(&code, &outline) {
            let methods = match e.name.as_str() {
                "loader" => vec!["GET".to_string()],
                "action" => {
                    let ms = e
                        .body
                        .clone()
                        .map(|b| compared_methods(&code, b))
                        .unwrap_or_default();
                    let ms: Vec<String> = ms.into_iter().filter(|m| m != "GET").collect();
                    if ms.is_empty() {
                        vec!["POST".to_string()]
                    } else {
                        ms
                    }
                }
                _ => continue,
            };
            let params = e
                .body
                .clone()
                .map(|b| web_params(&code, b))
                .unwrap_or_default();
            for m in methods {
                out.endpoint(
                    Endpoint::new(&m, &url)
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
        let r = |p: &str| route_of(p);
        assert_eq!(
            r("app/routes/api.users.$id.ts").as_deref(),
            Some("/api/users/{id}")
        );
        assert_eq!(r("app/routes/_index.tsx").as_deref(), Some("/"));
        assert_eq!(
            r("app/routes/($lang).blog._index.tsx").as_deref(),
            Some("/blog")
        );
        assert_eq!(r("app/routes/_auth.login.tsx").as_deref(), Some("/login"));
        assert_eq!(
            r("app/routes/users_.$id.edit.tsx").as_deref(),
            Some("/users/{id}/edit")
        );
        assert_eq!(
            r("app/routes/files.$.ts").as_deref(),
            Some("/files/{splat}")
        );
        assert_eq!(
            r("app/routes/sitemap[.]xml.ts").as_deref(),
            Some("/sitemap.xml")
        );
        assert_eq!(
            r("app/routes/api.posts/route.ts").as_deref(),
            Some("/api/posts")
        );
        assert_eq!(
            r("app/routes/api/v1/$id.ts").as_deref(),
            Some("/api/v1/{id}")
        );
        assert_eq!(r("app/lib/routes.ts"), None);
    }
}
