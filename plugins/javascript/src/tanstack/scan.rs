//! Map step for TanStack Router/Start: file routes, code routes, server
//! routes, and object-schema constants (for `validateSearch`).

use std::ops::Range;
use std::sync::OnceLock;

use portolan_plugin_sdk::{Code, Param, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::url_of_id;
use crate::js::module::{self, ModuleInfo};
use crate::js::outline::{function_parts, object_entries, Outline};
use crate::js::reads::web_params;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TanModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<Page>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apis: Vec<Api>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_routes: Vec<CodeRoute>,
    /// `const searchSchema = z.object({ a, b })` → (`searchSchema`, keys).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<(String, Vec<String>)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Search {
    None,
    Keys(Vec<String>),
    /// A schema constant's (scoped) name.
    Ref(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub line: u32,
    /// `None` for the root route and pathless layouts.
    pub url: Option<String>,
    pub search: Search,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Api {
    pub line: u32,
    pub method: String,
    pub url: String,
    pub params: Vec<Param>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeRoute {
    pub name: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// `None` for the root and for pathless (`id`-only) routes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub search: Search,
}

use crate::js::pattern::re;

const HTTP: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The URL of a file route id; `None` for the root and pathless layouts.
fn page_url(id: &str) -> Option<String> {
    let last = id.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    if id.ends_with('/') || !last.starts_with('_') {
        Some(url_of_id(id))
    } else {
        None
    }
}

/// The route id a file's place below `routes/` gives.
fn id_from_path(path: &str) -> Option<String> {
    let p = path.replace('\\', "/");
    let i = p
        .rfind("/routes/")
        .map(|i| i + "/routes/".len())
        .or_else(|| p.strip_prefix("routes/").map(|_| "routes/".len()))?;
    let rel = &p[i..];
    let rel = rel.rsplit_once('.').map_or(rel, |(a, _)| a);
    let mut segs: Vec<String> = Vec::new();
    for dir_or_file in rel.split('/') {
        if dir_or_file.starts_with('-') {
            return None;
        }
        let escaped = dir_or_file.replace("[.]", "\u{0}");
        for s in escaped.split('.') {
            segs.push(s.replace('\u{0}', "."));
        }
    }
    match segs.last().map(String::as_str) {
        Some("route") | Some("lazy") => {
            segs.pop();
        }
        Some("index") => {
            segs.pop();
            return Some(format!("/{}/", segs.join("/")).replace("//", "/"));
        }
        _ => {}
    }
    if segs.last().map(String::as_str) == Some("__root") {
        return None;
    }
    Some(format!("/{}", segs.join("/")))
}

/// Keys of the first object literal at or inside `range`.
fn first_object_keys(code: &Code<'_>, range: Range<usize>) -> Option<Vec<String>> {
    let bytes = code.text().as_bytes();
    let open =
        (range.start..range.end.min(bytes.len())).find(|&i| bytes[i] == b'{' && code.is_code(i))?;
    Some(
        object_entries(code, open)
            .into_iter()
            .map(|e| e.key)
            .collect(),
    )
}

/// A `validateSearch` value.
fn search_of(code: &Code<'_>, outline: &Outline, value: Range<usize>) -> Search {
    let text = code.slice(value.clone()).trim();
    if let Some((_, body)) = function_parts(code, value.clone()) {
        return first_object_keys(code, body).map_or(Search::None, Search::Keys);
    }
    if text.contains('{') {
        return first_object_keys(code, value).map_or(Search::None, Search::Keys);
    }
    // `schema` or `zodValidator(schema)` / `fallback(schema)`.
    let inner = text.rsplit_once('(').map_or(text, |(_, r)| {
        r.trim_end_matches(|c: char| c == ')' || c.is_whitespace())
    });
    let name: String = inner
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
        .collect();
    if name.is_empty() {
        Search::None
    } else {
        Search::Ref(outline.scoped(&name, value.start))
    }
}

pub fn scan(file: &SourceFile) -> TanModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = TanModule::default();
    // File routes and server routes.
    static FILE: OnceLock<Regex> = OnceLock::new();
    let file_re = re(
        &FILE,
        r"\b(createFileRoute|createLazyFileRoute|createAPIFileRoute|createServerFileRoute)\s*(?:<[^>]*>)?\s*\(",
    );
    for c in file_re.captures_iter(text) {
        let (Some(all), Some(kind)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let open = all.end() - 1;
        let Some(close) = code.matching(open) else {
            continue;
        };
        let id = code
            .args(open)
            .first()
            .and_then(|a| code.string_at(a.start))
            .map(|l| l.value)
            .or_else(|| id_from_path(&file.slash_path()));
        let Some(id) = id else { continue };
        let line = file.line_of(all.start());
        // The options: `(…)({…})` or `.methods({…})`.
        let next = code.skip_ws(close + 1);
        let options = if bytes.get(next) == Some(&b'(') {
            code.args(next).first().cloned()
        } else if text[next..].starts_with(".methods") {
            let o = code.skip_ws(next + ".methods".len());
            (bytes.get(o) == Some(&b'('))
                .then(|| code.args(o).first().cloned())
                .flatten()
        } else {
            None
        };
        let entries = options
            .as_ref()
            .map(|o| code.skip_ws(o.start))
            .filter(|&s| bytes.get(s) == Some(&b'{'))
            .map(|s| object_entries(&code, s))
            .unwrap_or_default();
        let url = url_of_id(&id);
        match kind.as_str() {
            "createAPIFileRoute" | "createServerFileRoute" => {
                handlers(file, &code, &entries, &url, &mut out.apis);
            }
            _ => {
                // TanStack Start ≥ 1.13x: `server: { handlers: { GET, … } }`.
                if let Some(server) = entries.iter().find(|e| e.key == "server") {
                    let s = code.skip_ws(server.value.start);
                    if bytes.get(s) == Some(&b'{') {
                        if let Some(h) = object_entries(&code, s)
                            .into_iter()
                            .find(|e| e.key == "handlers")
                        {
                            let hs = code.skip_ws(h.value.start);
                            if bytes.get(hs) == Some(&b'{') {
                                handlers(
                                    file,
                                    &code,
                                    &object_entries(&code, hs),
                                    &url,
                                    &mut out.apis,
                                );
                            }
                        }
                    }
                    if !entries.iter().any(|e| e.key == "component") {
                        // A server-only route: no page.
                        continue;
                    }
                }
                let search = entries
                    .iter()
                    .find(|e| e.key == "validateSearch")
                    .map_or(Search::None, |e| {
                        search_of(&code, &outline, e.value.clone())
                    });
                out.pages.push(Page {
                    line,
                    url: page_url(&id),
                    search,
                });
            }
        }
    }
    // Code routes: `const x = createRoute({ getParentRoute: () => p, path })`.
    static CODE: OnceLock<Regex> = OnceLock::new();
    let code_re = re(
        &CODE,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*(createRoute|createRootRoute|createRootRouteWithContext\s*<[^>]*>\s*\(\s*\))\s*\(",
    );
    for c in code_re.captures_iter(text) {
        let (Some(all), Some(name), Some(kind)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let root = kind.as_str() != "createRoute";
        let open = all.end() - 1;
        let entries = code
            .args(open)
            .first()
            .map(|a| code.skip_ws(a.start))
            .filter(|&s| bytes.get(s) == Some(&b'{'))
            .map(|s| object_entries(&code, s))
            .unwrap_or_default();
        let parent = entries
            .iter()
            .find(|e| e.key == "getParentRoute")
            .and_then(|e| {
                let (_, body) = function_parts(&code, e.value.clone())?;
                let t = code
                    .slice(body.clone())
                    .trim()
                    .trim_start_matches('(')
                    .trim_end_matches(')')
                    .trim();
                let n: String = t
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
                    .collect();
                (!n.is_empty()).then(|| outline.scoped(&n, body.start))
            });
        let path = entries
            .iter()
            .find(|e| e.key == "path")
            .and_then(|e| code.string_at(e.value.start))
            .map(|l| l.value);
        let search = entries
            .iter()
            .find(|e| e.key == "validateSearch")
            .map_or(Search::None, |e| {
                search_of(&code, &outline, e.value.clone())
            });
        out.code_routes.push(CodeRoute {
            name: outline.scoped(name.as_str(), name.start()),
            line: file.line_of(all.start()),
            parent: if root { None } else { parent },
            path: if root { None } else { path },
            search,
        });
    }
    // Object-schema constants.
    static SCHEMA: OnceLock<Regex> = OnceLock::new();
    let schema = re(
        &SCHEMA,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*(?:[A-Za-z_$][\w$]*\.)?(?:object|strictObject|looseObject|type)\s*\(\s*\{",
    );
    for c in schema.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let keys = object_entries(&code, all.end() - 1)
            .into_iter()
            .map(|e| e.key)
            .collect();
        out.schemas
            .push((outline.scoped(name.as_str(), name.start()), keys));
    }
    if !out.pages.is_empty()
        || !out.apis.is_empty()
        || !out.code_routes.is_empty()
        || !out.schemas.is_empty()
    {
        out.info = module::scan(&file.path, &code, &outline);
    }
    out
}

/// `{ GET: handler, POST: handler }` entries as endpoints.
fn handlers(
    file: &SourceFile,
    code: &Code<'_>,
    entries: &[crate::js::outline::Entry],
    url: &str,
    out: &mut Vec<Api>,
) {
    for e in entries {
        let method = e.key.to_ascii_uppercase();
        if !HTTP.contains(&method.as_str()) && method != "ALL" {
            continue;
        }
        let params = match &e.function {
            Some((_, body)) => web_params(code, body.clone()),
            None => function_parts(code, e.value.clone())
                .map(|(_, b)| web_params(code, b))
                .unwrap_or_default(),
        };
        let methods: Vec<&str> = if method == "ALL" {
            vec!["GET", "POST", "PUT", "PATCH", "DELETE"]
        } else {
            vec![method.as_str()]
        };
        for m in methods {
            out.push(Api {
                line: file.line_of(e.value.start),
                method: m.to_string(),
                url: url.to_string(),
                params: params.clone(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_file_paths() {
        let id = |p: &str| id_from_path(p);
        assert_eq!(
            id("app/src/routes/posts.$postId.edit.tsx").as_deref(),
            Some("/posts/$postId/edit")
        );
        assert_eq!(
            id("app/src/routes/posts/index.tsx").as_deref(),
            Some("/posts/")
        );
        assert_eq!(id("app/src/routes/index.tsx").as_deref(), Some("/"));
        assert_eq!(
            id("app/src/routes/blog/route.tsx").as_deref(),
            Some("/blog")
        );
        assert_eq!(
            id("app/src/routes/about.lazy.tsx").as_deref(),
            Some("/about")
        );
        assert_eq!(
            id("app/src/routes/file[.]json.ts").as_deref(),
            Some("/file.json")
        );
        assert_eq!(id("app/src/routes/-lib/card.tsx"), None);
        assert_eq!(id("app/src/routes/__root.tsx"), None);
        assert_eq!(id("app/src/lib/x.ts"), None);
        assert_eq!(page_url("/_auth"), None);
        assert_eq!(page_url("/_auth/").as_deref(), Some("/"));
    }

    #[test]
    fn a_route_without_id_takes_its_file_path() {
        let src = "import { createFileRoute } from '@tanstack/react-router'\nexport const Route = createFileRoute()({\n  validateSearch: (s) => ({ q: String(s.q ?? '') }),\n})\n";
        let m = scan(&SourceFile::new("app/src/routes/search.$kind.tsx", src));
        assert_eq!(m.pages.len(), 1);
        assert_eq!(m.pages[0].url.as_deref(), Some("/search/:kind"));
        assert_eq!(m.pages[0].search, Search::Keys(vec!["q".to_string()]));
        assert_eq!(m.pages[0].line, 2);
    }
}
