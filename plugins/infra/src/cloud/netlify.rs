//! Netlify sites: `netlify.toml`, `_redirects` files and the functions of
//! the functions folder.
//!
//! - Functions (`netlify/functions/`, or `[functions] directory` /
//!   `[build] functions` of `netlify.toml`): `hello.ts`, `hello/hello.ts` or
//!   `hello/index.ts` is served at `/.netlify/functions/hello`, any method.
//!   A function with `export const config = { path: … }` (functions v2) is
//!   served at those paths instead (`:id` → `{id}`, a trailing `*` makes a
//!   prefix), with `config.method` as its methods. Scheduled functions
//!   (`config.schedule`) are not called over HTTP and are skipped. Edge
//!   functions (`netlify/edge-functions/`) count when their `config.path`
//!   or a `[[edge_functions]]` entry gives a path.
//! - Redirect rules (`[[redirects]]` and `_redirects` lines) that serve
//!   content — status 200 (rewrites and proxies, including to
//!   `/.netlify/functions/…`) — are routes at their `from` path; `3xx`
//!   redirects, `4xx` rules and catch-alls (`/*  /index.html  200`, the SPA
//!   fallback) are not. `query` conditions give query params.
//! - Location: the `[[redirects]]` / `[[edge_functions]]` table, the
//!   `_redirects` line, the function's `config` or default export.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::colon_path;
use crate::common::toml;
use crate::common::yaml::str_of;
use crate::common::ANY_METHODS;

pub struct Netlify;

const FILES: [&str; 4] = [
    "netlify.toml",
    "_redirects",
    "**/netlify/functions/**",
    "**/netlify/edge-functions/**",
];

const DEFAULT_DIR: &str = "netlify/functions";

const EXTENSIONS: [&str; 6] = ["js", "mjs", "cjs", "ts", "mts", "cts"];

#[derive(Serialize, Deserialize)]
enum Fact {
    /// Folder of a `netlify.toml` (with `/`) and its functions directory.
    Root(String, String),
    Function(FunctionFile),
}

#[derive(Serialize, Deserialize)]
struct FunctionFile {
    path: String,
    edge: bool,
    paths: Vec<String>,
    methods: Vec<String>,
    line: u32,
}

impl Analyzer for Netlify {
    fn tech(&self) -> Tech {
        Tech::new("netlify", "Specification", "Netlify")
            .specification()
            .files(FILES)
            .detect(Detect::files([
                "netlify.toml",
                "**/netlify/functions/**",
                "**/netlify/edge-functions/**",
            ]))
            .supports(Supports {
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) {
            return;
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        match name {
            "netlify.toml" => return config(file, &path[..path.len() - name.len()], out),
            "_redirects" => return redirects_file(file, out),
            _ => {}
        }
        let Some((_, ext)) = name.rsplit_once('.') else {
            return;
        };
        if !EXTENSIONS.contains(&ext) || name.ends_with(".d.ts") || is_test_path(&path) {
            return;
        }
        let (paths, methods, scheduled, config_line) = function_config(&file.content);
        if scheduled {
            return;
        }
        let line = config_line.unwrap_or_else(|| default_export_line(&file.content));
        out.fact(&Fact::Function(FunctionFile {
            edge: path.contains("/edge-functions/") || path.starts_with("netlify/edge-functions/"),
            path,
            paths,
            methods,
            line,
        }));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut dirs: BTreeMap<String, String> = BTreeMap::new();
        let mut functions = Vec::new();
        for f in facts.iter::<Fact>() {
            match f {
                Fact::Root(root, dir) => {
                    dirs.insert(root, dir);
                }
                Fact::Function(f) => functions.push(f),
            }
        }
        let mut out = Vec::new();
        for f in functions {
            let methods: Vec<String> = if f.methods.is_empty() {
                ANY_METHODS.iter().map(|m| m.to_string()).collect()
            } else {
                f.methods.clone()
            };
            let urls: Vec<String> = if !f.paths.is_empty() {
                f.paths.iter().filter_map(|p| route_path(p)).collect()
            } else if f.edge {
                continue;
            } else {
                match function_name(&f.path, &dirs) {
                    Some(name) => vec![format!("/.netlify/functions/{name}")],
                    None => continue,
                }
            };
            for url in &urls {
                for m in &methods {
                    out.push(Endpoint::new(m, url.clone()).at_path(f.path.clone(), f.line));
                }
            }
        }
        Ok(out)
    }
}

/// A function path: `:id` → `{id}`; `/*` tail → prefix; `/` kept.
fn route_path(p: &str) -> Option<String> {
    if p == "/" || p == "/*" {
        return Some("/".into());
    }
    colon_path(p)
}

/// The function a file is the entry of, under its site's functions folder.
fn function_name(path: &str, dirs: &BTreeMap<String, String>) -> Option<String> {
    let rest = dirs
        .iter()
        .find_map(|(root, dir)| path.strip_prefix(&format!("{root}{}/", dir.trim_matches('/'))))
        .or_else(|| {
            // No netlify.toml: the default folder, wherever the site is.
            let at = path.find(&format!("{DEFAULT_DIR}/"))?;
            (at == 0 || path[..at].ends_with('/')).then(|| &path[at + DEFAULT_DIR.len() + 1..])
        })?;
    let parts: Vec<&str> = rest.split('/').collect();
    let stem = |f: &str| f.rsplit_once('.').map_or(f, |(s, _)| s).to_string();
    match parts.as_slice() {
        [file] => Some(stem(file)),
        [dir, file] if stem(file) == *dir || stem(file) == "index" => Some(dir.to_string()),
        _ => None,
    }
    .filter(|n| !n.starts_with(['_', '.']))
}

fn default_export_line(text: &str) -> u32 {
    text.lines()
        .position(|l| {
            let t = l.trim_start();
            t.starts_with("export default")
                || t.starts_with("exports.handler")
                || t.starts_with("module.exports")
                || t.starts_with("export const handler")
                || t.starts_with("export async function handler")
                || t.starts_with("export function handler")
        })
        .map_or(1, |n| n as u32 + 1)
}

/// `export const config = { path: …, method: …, schedule: … }`: paths,
/// methods, whether it is scheduled, and the line of `config`.
fn function_config(text: &str) -> (Vec<String>, Vec<String>, bool, Option<u32>) {
    let Some(at) = text.find("export const config") else {
        return (Vec::new(), Vec::new(), false, None);
    };
    let line = text[..at].matches('\n').count() as u32 + 1;
    let rest = &text[at..];
    let Some(open) = rest.find('{') else {
        return (Vec::new(), Vec::new(), false, Some(line));
    };
    let body = balanced(&rest[open..]);
    let paths = js_strings(body, "path");
    let methods = js_strings(body, "method")
        .into_iter()
        .map(|m| m.to_ascii_uppercase())
        .collect();
    let scheduled = has_key(body, "schedule");
    (paths, methods, scheduled, Some(line))
}

/// The text of a `{…}` block (strings not considered; config objects are
/// small literals).
fn balanced(s: &str) -> &str {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &s[..=i];
                }
            }
            _ => {}
        }
    }
    s
}

fn key_value<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = body[from..].find(key) {
        let at = from + i;
        from = at + key.len();
        let before = body[..at].trim_end();
        let after = body[from..].trim_start();
        if (before.ends_with('{') || before.ends_with(',')) && after.starts_with(':') {
            return Some(after[1..].trim_start());
        }
    }
    None
}

fn has_key(body: &str, key: &str) -> bool {
    key_value(body, key).is_some()
}

/// `key: "x"` or `key: ["a", "b"]`.
fn js_strings(body: &str, key: &str) -> Vec<String> {
    let Some(v) = key_value(body, key) else {
        return Vec::new();
    };
    let v = if v.starts_with('[') {
        &v[..v.find(']').map_or(v.len(), |i| i + 1)]
    } else {
        let end = v.find([',', '}', '\n']).unwrap_or(v.len());
        &v[..end]
    };
    let mut out = Vec::new();
    let mut rest = v;
    while let Some(q) = rest.find(['"', '\'', '`']) {
        let quote = rest[q..].chars().next().unwrap_or('"');
        let inner = &rest[q + 1..];
        let Some(end) = inner.find(quote) else {
            break;
        };
        out.push(inner[..end].to_string());
        rest = &inner[end + 1..];
    }
    out
}

fn config(file: &SourceFile, root: &str, out: &mut Output) {
    let doc = match toml::parse(&file.content) {
        Ok(doc) => doc,
        Err(e) => return host::warn(&format!("{}: invalid TOML: {e}", file.path)),
    };
    let dir = doc
        .value
        .pointer("/functions/directory")
        .or_else(|| doc.value.pointer("/build/functions"))
        .and_then(str_of)
        .unwrap_or_else(|| DEFAULT_DIR.to_string());
    let base = doc
        .value
        .pointer("/build/base")
        .and_then(str_of)
        .map(|b| format!("{}/", b.trim_matches('/')))
        .filter(|b| b != "/")
        .unwrap_or_default();
    out.fact(&Fact::Root(format!("{root}{base}"), dir));
    let any: Vec<String> = ANY_METHODS.iter().map(|m| m.to_string()).collect();
    if let Some(list) = doc.value.get("redirects").and_then(Value::as_array) {
        for (i, r) in list.iter().enumerate() {
            let status = r.get("status").and_then(Value::as_u64).unwrap_or(301);
            if status != 200 {
                continue;
            }
            let Some(url) = r.get("from").and_then(str_of).and_then(|f| colon_path(&f)) else {
                continue;
            };
            let params: Vec<Param> = r
                .get("query")
                .and_then(Value::as_object)
                .map(|q| q.keys().map(Param::query).collect())
                .unwrap_or_default();
            let idx = i.to_string();
            let line = doc.line(&["redirects", &idx]);
            for m in &any {
                out.endpoint(
                    Endpoint::new(m, url.clone())
                        .params(params.clone())
                        .at(file, line),
                );
            }
        }
    }
    if let Some(list) = doc.value.get("edge_functions").and_then(Value::as_array) {
        for (i, e) in list.iter().enumerate() {
            let Some(url) = e.get("path").and_then(str_of).and_then(|p| route_path(&p)) else {
                continue;
            };
            let idx = i.to_string();
            let line = doc.line(&["edge_functions", &idx]);
            for m in &any {
                out.endpoint(Endpoint::new(m, url.clone()).at(file, line));
            }
        }
    }
}

/// `_redirects`: `from [k=v …] to [status][!] [conditions]` per line.
fn redirects_file(file: &SourceFile, out: &mut Output) {
    for (n, line) in file.content.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        let Some(from) = words.first().filter(|w| w.starts_with('/')) else {
            continue;
        };
        let mut params = Vec::new();
        let mut i = 1;
        while let Some(w) = words
            .get(i)
            .filter(|w| w.contains('=') && !w.starts_with('/'))
        {
            if let Some((k, _)) = w.split_once('=') {
                params.push(Param::query(k));
            }
            i += 1;
        }
        // `to`, then the status.
        let status = words
            .get(i + 1)
            .map(|s| s.trim_end_matches('!'))
            .and_then(|s| s.parse::<u16>().ok())
            .unwrap_or(301);
        if status != 200 {
            continue;
        }
        let Some(url) = colon_path(from) else {
            continue;
        };
        for m in ANY_METHODS {
            out.endpoint(
                Endpoint::new(m, url.clone())
                    .params(params.clone())
                    .at(file, n as u32 + 1),
            );
        }
    }
}
