//! Cloudflare Workers configuration (`wrangler.toml`, `wrangler.json`,
//! `wrangler.jsonc`): the routes a Worker is attached to.
//!
//! - `routes` (strings or `{ pattern, zone_name | zone_id | custom_domain }`)
//!   and `route`, at the top level and in every `[env.<name>]`. A pattern is
//!   `host/path`: the host is dropped, a trailing `*` makes a prefix
//!   (`api.example.com/v1/*` → `/v1`); a whole-host pattern
//!   (`example.com/*`) and a `custom_domain` route are `/`.
//! - A Worker with a `main` script and no route at all is served on its
//!   `workers.dev` subdomain: `/`.
//! - Methods: a Worker receives every method (GET, POST, PUT, PATCH,
//!   DELETE); the routes inside its script are the JavaScript analyzers'.
//! - Location: the route's line (the `routes` key for an inline list), or
//!   `main`. JSONC comments and trailing commas are accepted. A file that
//!   does not parse gets a warning naming it.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::toml;
use crate::common::yaml::{self, str_of};
use crate::common::ANY_METHODS;

pub struct CloudflareWrangler;

/// The line of a key path (keys and indexes as text).
type LineOf = Box<dyn Fn(&[&str]) -> u32>;

const FILES: [&str; 3] = ["wrangler.toml", "wrangler.json", "wrangler.jsonc"];

impl Analyzer for CloudflareWrangler {
    fn tech(&self) -> Tech {
        Tech::new("cloudflare_wrangler", "Specification", "Cloudflare Workers")
            .specification()
            .aliases(["wrangler", "cloudflare_workers"])
            .files(FILES)
            .detect(Detect::files(FILES))
            .supports(Supports {
                query: false,
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        // (value, line of a key path) from either syntax.
        let (value, line): (Value, LineOf) = if file.path.ends_with(".toml") {
            match toml::parse(&file.content) {
                Ok(doc) => {
                    let v = doc.value.clone();
                    (v, Box::new(move |p: &[&str]| doc.line(p)))
                }
                Err(e) => return host::warn(&format!("{}: invalid TOML: {e}", file.path)),
            }
        } else {
            let clean = SourceFile::new(file.path.clone(), strip_jsonc(&file.content));
            let Some(doc) = yaml::documents(&clean).into_iter().next() else {
                return;
            };
            let v = doc.value.clone();
            (
                v,
                Box::new(move |p: &[&str]| {
                    let segs: Vec<Seg<'_>> = p
                        .iter()
                        .map(|s| match s.parse::<usize>() {
                            Ok(i) => Seg::Index(i),
                            Err(_) => Seg::Key(s),
                        })
                        .collect();
                    doc.line(&segs)
                }),
            )
        };
        let mut found = false;
        let mut scopes: Vec<(Vec<String>, &Value)> = vec![(Vec::new(), &value)];
        if let Some(envs) = value.get("env").and_then(Value::as_object) {
            for (name, env) in envs {
                scopes.push((vec!["env".into(), name.clone()], env));
            }
        }
        for (prefix, scope) in scopes {
            let mut routes: Vec<(Vec<String>, &Value)> = Vec::new();
            if let Some(list) = scope.get("routes").and_then(Value::as_array) {
                for (i, r) in list.iter().enumerate() {
                    let mut p = prefix.clone();
                    p.extend(["routes".to_string(), i.to_string()]);
                    routes.push((p, r));
                }
            }
            if let Some(r) = scope.get("route") {
                let mut p = prefix.clone();
                p.push("route".into());
                routes.push((p, r));
            }
            for (p, r) in routes {
                let Some(url) = route_url(r) else {
                    continue;
                };
                found = true;
                let keys: Vec<&str> = p.iter().map(String::as_str).collect();
                let at = line(&keys);
                for m in ANY_METHODS {
                    out.endpoint(Endpoint::new(m, url.clone()).at(file, at));
                }
            }
        }
        if !found && value.get("main").is_some() {
            let at = line(&["main"]);
            for m in ANY_METHODS {
                out.endpoint(Endpoint::new(m, "/").at(file, at));
            }
        }
    }
}

/// The path part of a route pattern.
fn route_url(route: &Value) -> Option<String> {
    if route.get("custom_domain").and_then(Value::as_bool) == Some(true) {
        return Some("/".into());
    }
    let pattern = match route {
        Value::String(s) => s.clone(),
        other => other.get("pattern").and_then(str_of)?,
    };
    let pattern = pattern
        .split_once("://")
        .map_or(pattern.as_str(), |(_, r)| r);
    let path = pattern.find('/').map_or("/", |i| &pattern[i..]);
    let path = path.strip_suffix('*').unwrap_or(path);
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    (!path.contains('*')).then(|| path.to_string())
}

/// JSONC to JSON: comments become spaces (lines kept), trailing commas go.
pub fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == b'\\' {
                if let Some(n) = b.get(i + 1) {
                    out.push(*n);
                    i += 1;
                }
            } else if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match (c, b.get(i + 1)) {
            (b'"', _) => {
                in_str = true;
                out.push(c);
                i += 1;
            }
            (b'/', Some(b'/')) => {
                while i < b.len() && b[i] != b'\n' {
                    out.push(b' ');
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                out.extend_from_slice(b"  ");
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
                if i < b.len() {
                    out.extend_from_slice(b"  ");
                    i += 2;
                }
            }
            (b',', _) => {
                // A comma followed only by blanks before `}` / `]` goes.
                let next = b[i + 1..]
                    .iter()
                    .position(|x| !x.is_ascii_whitespace())
                    .map(|k| b[i + 1 + k]);
                out.push(if matches!(next, Some(b'}' | b']')) {
                    b' '
                } else {
                    c
                });
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}
