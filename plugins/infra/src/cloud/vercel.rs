//! Vercel projects: `vercel.json` and the serverless functions of the
//! `api/` folder next to it.
//!
//! - `rewrites[]` (`source`, path-to-regexp: `:id` → `{id}`, `:path*` and
//!   `(.*)` tails make a prefix) and the legacy `routes[]` (`src` regex, read
//!   by [`crate::common::regex_path`], with `methods`). Rewrites that only
//!   catch everything (`/(.*)` → `/index.html`, the SPA fallback) are not
//!   routes; `redirects` and `headers` are not either. `has` conditions give
//!   params (query, header, cookie) with their value.
//! - `api/**` functions (JavaScript/TypeScript, Python, Go, Ruby) of a
//!   folder holding a `vercel.json`: `api/users/[id].ts` →
//!   `/api/users/{id}`, `[...slug]` → `{slug}`, `index` is the folder.
//!   Files and folders starting with `_` or `.` are not functions (Vercel
//!   skips them), nor type declarations and tests. Methods: the exported
//!   Web handlers (`export function GET`, `export const POST = …`), the
//!   `do_GET`/`do_POST` methods of a Python `handler` class; otherwise any
//!   method (GET, POST, PUT, PATCH, DELETE).
//! - Location: the rewrite/route item; for a function, its first method
//!   handler, else its default handler (`export default`, `module.exports`,
//!   `class handler`, `func Handler`), else line 1.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{colon_path, file_segment};
use crate::common::yaml::{self, str_of};
use crate::common::{regex_path, ANY_METHODS};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct Vercel;

const FILES: [&str; 2] = ["vercel.json", "**/api/**"];

const EXTENSIONS: [&str; 9] = ["js", "mjs", "cjs", "ts", "mts", "cts", "py", "go", "rb"];

#[derive(Serialize, Deserialize)]
enum Fact {
    /// A folder with a `vercel.json` (with its trailing `/`, or empty).
    Root(String),
    /// A candidate function file: path, methods, line.
    Function(String, Vec<String>, u32),
}

impl Analyzer for Vercel {
    fn tech(&self) -> Tech {
        Tech::new("vercel", "Specification", "Vercel")
            .specification()
            .files(FILES)
            .detect(Detect::files(["vercel.json"]))
            .supports(Supports {
                body: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) {
            return;
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        if name == "vercel.json" {
            let root = &path[..path.len() - name.len()];
            out.fact(&Fact::Root(root.to_string()));
            config(file, out);
            return;
        }
        let Some((_, ext)) = name.rsplit_once('.') else {
            return;
        };
        if !EXTENSIONS.contains(&ext) || name.ends_with(".d.ts") || is_test_path(&path) {
            return;
        }
        let (methods, line) = handler_methods(&file.content, ext);
        out.fact(&Fact::Function(path.clone(), methods, line));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut roots = Vec::new();
        let mut functions = BTreeMap::new();
        for f in facts.iter::<Fact>() {
            match f {
                Fact::Root(r) => roots.push(r),
                Fact::Function(p, m, l) => {
                    functions.insert(p, (m, l));
                }
            }
        }
        let mut out = Vec::new();
        for (path, (methods, line)) in functions {
            let Some(rest) = roots.iter().find_map(|r| {
                path.strip_prefix(r.as_str())
                    .and_then(|p| p.strip_prefix("api/"))
            }) else {
                continue;
            };
            let Some(url) = function_url(rest) else {
                continue;
            };
            let methods: Vec<String> = if methods.is_empty() {
                ANY_METHODS.iter().map(|m| m.to_string()).collect()
            } else {
                methods
            };
            for m in &methods {
                out.push(Endpoint::new(m, url.clone()).at_path(path.clone(), line));
            }
        }
        Ok(out)
    }
}

/// `users/[id].ts` → `/api/users/{id}`; `None` for skipped files.
fn function_url(rest: &str) -> Option<String> {
    let mut segs = vec!["api".to_string()];
    let parts: Vec<&str> = rest.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        if part.starts_with(['_', '.']) || part.is_empty() {
            return None;
        }
        let part = if i + 1 == parts.len() {
            part.rsplit_once('.').map_or(*part, |(stem, _)| stem)
        } else {
            part
        };
        if let Some(seg) = file_segment(part) {
            segs.push(seg);
        }
    }
    Some(format!("/{}", segs.join("/")))
}

/// Methods a function file declares, and the line of the first.
fn handler_methods(text: &str, ext: &str) -> (Vec<String>, u32) {
    let mut methods = Vec::new();
    let mut first = 0;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let found = if ext == "py" {
            t.strip_prefix("def do_")
                .map(|r| r.split('(').next().unwrap_or(""))
        } else {
            t.strip_prefix("export ")
                .map(|r| r.trim_start_matches("async "))
                .and_then(|r| {
                    r.strip_prefix("function ")
                        .or_else(|| r.strip_prefix("const "))
                        .or_else(|| r.strip_prefix("let "))
                })
                .map(|r| {
                    r.trim_start()
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .next()
                        .unwrap_or("")
                })
        };
        if let Some(m) = found.filter(|m| {
            matches!(
                *m,
                "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS"
            )
        }) {
            if !methods.iter().any(|x| x == m) {
                methods.push(m.to_string());
            }
            if first == 0 {
                first = n as u32 + 1;
            }
        }
    }
    if first == 0 {
        // The default handler: `export default`, `module.exports`, a Python
        // `handler` class, a Go `Handler` func.
        first = text
            .lines()
            .position(|l| {
                let t = l.trim_start();
                [
                    "export default",
                    "module.exports",
                    "class handler",
                    "func Handler",
                ]
                .iter()
                .any(|p| t.starts_with(p))
            })
            .map_or(1, |n| n as u32 + 1);
    }
    (methods, first)
}

fn config(file: &SourceFile, out: &mut Output) {
    let Some(doc) = yaml::documents(file).into_iter().next() else {
        return;
    };
    let any: Vec<String> = ANY_METHODS.iter().map(|m| m.to_string()).collect();
    if let Some(list) = doc.value.get("rewrites").and_then(Value::as_array) {
        for (i, r) in list.iter().enumerate() {
            let Some(url) = r
                .get("source")
                .and_then(str_of)
                .and_then(|s| colon_path(&s))
            else {
                continue;
            };
            let line = doc.line(&[Seg::Key("rewrites"), Seg::Index(i)]);
            let params = has(r.get("has"));
            for m in &any {
                out.endpoint(
                    Endpoint::new(m, url.clone())
                        .params(params.clone())
                        .at(file, line),
                );
            }
        }
    }
    if let Some(list) = doc.value.get("routes").and_then(Value::as_array) {
        for (i, r) in list.iter().enumerate() {
            let Some(src) = r.get("src").and_then(str_of) else {
                continue;
            };
            let denied = r
                .get("status")
                .and_then(Value::as_u64)
                .is_some_and(|s| (400..500).contains(&s));
            if denied {
                continue;
            }
            let anchored = if src.starts_with('^') {
                src.clone()
            } else {
                format!("^{src}")
            };
            let urls: Vec<String> = regex_path::routes(&anchored)
                .unwrap_or_default()
                .into_iter()
                .filter(|u| u != "/")
                .collect();
            let methods: Vec<String> = match r.get("methods").and_then(Value::as_array) {
                Some(l) if !l.is_empty() => l
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_ascii_uppercase)
                    .collect(),
                _ => any.clone(),
            };
            let line = doc.line(&[Seg::Key("routes"), Seg::Index(i)]);
            let params = has(r.get("has"));
            for url in &urls {
                for m in &methods {
                    out.endpoint(
                        Endpoint::new(m, url.clone())
                            .params(params.clone())
                            .at(file, line),
                    );
                }
            }
        }
    }
}

/// `has: [{type: "query", key: "v", value: "2"}]`.
fn has(v: Option<&Value>) -> Vec<Param> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let key = c.get("key").and_then(str_of)?;
            let value = c.get("value").and_then(str_of).unwrap_or_default();
            let p = match c.get("type").and_then(Value::as_str)? {
                "query" => Param::query(key),
                "header" => Param::header(key),
                "cookie" => Param::cookie(key),
                _ => return None,
            };
            Some(p.value(value))
        })
        .collect()
}
