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
//!
//! React Router 7 framework mode: an `app/routes.ts` route config
//! (`index(file)`, `route(path, file, [children])`, `layout(file,
//! [children])`, `...prefix(path, [children])`) places the modules it
//! names (anywhere below `app/`); modules it does not name are not routes,
//! unless it calls `flatRoutes()` (then the file conventions apply to
//! them). The placement happens in `link`, where the config is known.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param};
use serde::{Deserialize, Serialize};

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
                    .regex([r#""@(?:remix-run/(?:node|react|cloudflare|deno|serve)|react-router/(?:dev|node|serve|cloudflare|express|fs-routes))"\s*:"#]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_test_path(&path) || is_generated(file) {
            return;
        }
        let code = file.code(Syntax::JAVASCRIPT);
        if let Some(app) = config_dir(&path).map(str::to_string) {
            let mut entries = Vec::new();
            // `export default flatRoutes()`, `[...(await flatRoutes()), …]`.
            let mut flat = code
                .text()
                .match_indices("flatRoutes(")
                .any(|(i, _)| code.is_code(i));
            if let Some(open) = config_array(&code) {
                config_entries(&code, open, "", 0, &mut entries, &mut flat);
            }
            if !entries.is_empty() || flat {
                out.fact(&RemixModule {
                    path,
                    config: Some(RouteConfig { app, entries, flat }),
                    endpoints: Vec::new(),
                });
            }
            return;
        }
        let text = code.text();
        if !text.contains("loader") && !text.contains("action") {
            return;
        }
        let outline = Outline::new(&code);
        let mut endpoints = Vec::new();
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
            endpoints.push(ModuleEndpoint {
                methods,
                params,
                line: file.line_of(e.at),
            });
        }
        if !endpoints.is_empty() {
            out.fact(&RemixModule {
                path,
                config: None,
                endpoints,
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<RemixModule> = facts.all();
        Ok(link(&modules))
    }
}

/// What one module contributes: a route config (`app/routes.ts`) or the
/// endpoints its `loader`/`action` exports serve.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RemixModule {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<RouteConfig>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<ModuleEndpoint>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RouteConfig {
    /// The app directory (`app`, `src/app`), module files are relative to it.
    pub app: String,
    /// (URL, module file relative to `app`).
    pub entries: Vec<(String, String)>,
    /// `flatRoutes()`: the file conventions apply too.
    pub flat: bool,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ModuleEndpoint {
    pub methods: Vec<String>,
    pub params: Vec<Param>,
    pub line: u32,
}

/// The app directory of a React Router route config (`app/routes.ts`).
fn config_dir(path: &str) -> Option<&str> {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, ext) = file.rsplit_once('.')?;
    if stem != "routes" || !is_script(ext) {
        return None;
    }
    let last = dir.rsplit('/').next().unwrap_or(dir);
    (last == "app").then_some(dir)
}

/// The array the config exports (`export default [ … ] satisfies
/// RouteConfig`).
fn config_array(code: &Code<'_>) -> Option<usize> {
    let text = code.text();
    let at = text
        .match_indices("export default")
        .map(|(i, _)| i)
        .find(|&i| code.is_code(i))?;
    let s = code.skip_ws(at + "export default".len());
    (text.as_bytes().get(s) == Some(&b'[')).then_some(s)
}

/// Entries of a route array: `index(file)`, `route(path, file, [children])`,
/// `layout(file, [children])`, `...prefix(path, [children])`.
fn config_entries(
    code: &Code<'_>,
    open: usize,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, String)>,
    flat: &mut bool,
) {
    if depth > 16 {
        return;
    }
    let bytes = code.text().as_bytes();
    for item in code.args(open) {
        let mut s = code.skip_ws(item.start);
        if code.slice(s..item.end).starts_with("...") {
            s = code.skip_ws(s + 3);
        }
        let Some(name) = code.ident_at(s) else {
            continue;
        };
        let p = code.skip_ws(s + name.len());
        if bytes.get(p) != Some(&b'(') {
            continue;
        }
        let args = code.args(p);
        let lit = |i: usize| {
            args.get(i)
                .and_then(|a| code.string_at(a.start))
                .filter(|l| !l.interpolated)
                .map(|l| l.value)
        };
        let children = |i: usize| {
            args.get(i)
                .map(|a| code.skip_ws(a.start))
                .filter(|&o| bytes.get(o) == Some(&b'['))
        };
        match name {
            "index" => {
                if let Some(f) = lit(0) {
                    out.push((config_url(prefix, ""), f));
                }
            }
            "route" => {
                let Some(path) = lit(0) else { continue };
                let url = config_url(prefix, &path);
                if let Some(f) = lit(1) {
                    out.push((url.clone(), f));
                }
                let kids = children(2).or_else(|| children(1));
                if let Some(o) = kids {
                    config_entries(code, o, &url, depth + 1, out, flat);
                }
            }
            "layout" => {
                if let Some(o) = children(1) {
                    config_entries(code, o, prefix, depth + 1, out, flat);
                }
            }
            "prefix" => {
                let Some(path) = lit(0) else { continue };
                if let Some(o) = children(1) {
                    config_entries(code, o, &config_url(prefix, &path), depth + 1, out, flat);
                }
            }
            "flatRoutes" => *flat = true,
            _ => {}
        }
    }
}

/// A config path under `prefix`: `:id` → `{id}`, `*` → `{splat}`, optional
/// segments (`:lang?`, `en?`) dropped.
fn config_url(prefix: &str, path: &str) -> String {
    let mut segs: Vec<String> = prefix
        .split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    for seg in path.split('/') {
        if seg.is_empty() || seg.ends_with('?') {
            continue;
        }
        segs.push(if seg == "*" {
            "{splat}".to_string()
        } else if let Some(n) = seg.strip_prefix(':') {
            format!("{{{n}}}")
        } else {
            seg.to_string()
        });
    }
    url_of(&segs)
}

/// Route modules are placed by the route config of their app directory
/// when there is one (and by the file conventions when it calls
/// `flatRoutes()`), else by the file conventions below `app/routes`.
fn link(modules: &[RemixModule]) -> Vec<Endpoint> {
    let configs: Vec<&RouteConfig> = modules.iter().filter_map(|m| m.config.as_ref()).collect();
    let mut out = Vec::new();
    for m in modules {
        if m.endpoints.is_empty() {
            continue;
        }
        let config = configs.iter().find(|c| {
            c.app.is_empty()
                || m.path
                    .strip_prefix(c.app.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        let urls: Vec<String> = match config {
            Some(c) => {
                let rel = m.path[c.app.len()..].trim_start_matches('/');
                let rel_stem = rel.rsplit_once('.').map_or(rel, |(s, _)| s);
                let mut urls: Vec<String> = c
                    .entries
                    .iter()
                    .filter(|(_, f)| {
                        let f = f.trim_start_matches("./");
                        f == rel || f.rsplit_once('.').map_or(f, |(s, _)| s) == rel_stem
                    })
                    .map(|(u, _)| u.clone())
                    .collect();
                if urls.is_empty() && c.flat {
                    urls.extend(route_of(&m.path));
                }
                urls
            }
            None => route_of(&m.path).into_iter().collect(),
        };
        for url in urls {
            for e in &m.endpoints {
                for method in &e.methods {
                    out.push(
                        Endpoint::new(method, url.clone())
                            .params(e.params.clone())
                            .at_path(m.path.clone(), e.line),
                    );
                }
            }
        }
    }
    out
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
