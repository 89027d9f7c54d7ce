//! App-link association files a website serves so that its URLs open a
//! mobile app: Apple's `apple-app-site-association` (universal links) and
//! Android's `assetlinks.json` (Digital Asset Links).
//!
//! Endpoint shapes (all `GET`, protocol `http`: these are web URLs a
//! browser or the OS fetches):
//!
//! - the association file itself, `GET /.well-known/apple-app-site-association`
//!   / `GET /.well-known/assetlinks.json` (what the OS downloads to verify
//!   the app);
//! - each universal-link path of `applinks.details[]`: the iOS 13+
//!   `components[]` (`"/"` path pattern, `"?"` query keys as query params)
//!   and the older `paths[]`. A trailing `*` makes a prefix
//!   (`/orders/*` → `/orders/`), a `*` or `?` inside a segment makes a
//!   placeholder (`/u/*/posts` → `/u/{param1}/posts`); excluded patterns
//!   (`"exclude": true`, `NOT /x`) and the catch-all `*` / `/*` are not
//!   listed. Android app-link paths live in the app's manifest, not in
//!   `assetlinks.json`.
//!
//! Location: the component / path item; the file's first line for the file
//! itself.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, str_of};

pub struct WellKnownApplinks;

const FILES: [&str; 2] = ["apple-app-site-association", "assetlinks.json"];

impl Analyzer for WellKnownApplinks {
    fn tech(&self) -> Tech {
        Tech::new(
            "well_known_applinks",
            "Specification",
            "App links (.well-known)",
        )
        .specification()
        .aliases(["aasa", "assetlinks", "universal_links"])
        .files(FILES)
        .detect(Detect::files(FILES))
        .supports(Supports {
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
        let name = file.path.rsplit(['/', '\\']).next().unwrap_or(&file.path);
        let Some(doc) = yaml::documents(file).into_iter().next() else {
            return;
        };
        let v = &doc.value;
        if name == "assetlinks.json" {
            let handles_urls = v.as_array().into_iter().flatten().any(|s| {
                s.get("relation")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .any(|r| r.ends_with("handle_all_urls"))
            });
            if handles_urls {
                out.endpoint(Endpoint::new("GET", "/.well-known/assetlinks.json").at(file, 1));
            }
            return;
        }
        let Some(details) = v.pointer("/applinks/details").and_then(Value::as_array) else {
            return;
        };
        out.endpoint(Endpoint::new("GET", "/.well-known/apple-app-site-association").at(file, 1));
        for (i, d) in details.iter().enumerate() {
            let at = |key: &'static str, k: usize| {
                doc.line(&[
                    Seg::Key("applinks"),
                    Seg::Key("details"),
                    Seg::Index(i),
                    Seg::Key(key),
                    Seg::Index(k),
                ])
            };
            for (k, c) in d
                .get("components")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                if c.get("exclude").and_then(Value::as_bool) == Some(true) {
                    continue;
                }
                let Some(url) = c.get("/").and_then(str_of).and_then(|p| pattern_url(&p)) else {
                    continue;
                };
                let params: Vec<Param> = c
                    .get("?")
                    .and_then(Value::as_object)
                    .map(|q| q.keys().map(Param::query).collect())
                    .unwrap_or_default();
                out.endpoint(
                    Endpoint::new("GET", url)
                        .params(params)
                        .at(file, at("components", k)),
                );
            }
            for (k, p) in d
                .get("paths")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let Some(p) = p.as_str() else {
                    continue;
                };
                if p.trim_start().starts_with("NOT ") {
                    continue;
                }
                let Some(url) = pattern_url(p.trim()) else {
                    continue;
                };
                out.endpoint(Endpoint::new("GET", url).at(file, at("paths", k)));
            }
        }
    }
}

/// An AASA path pattern as a URL; `None` for the catch-all.
fn pattern_url(p: &str) -> Option<String> {
    let p = p.split(['?', '#']).next().unwrap_or(p);
    if !p.starts_with('/') {
        return None;
    }
    let mut n = 0;
    let segs: Vec<&str> = p.split('/').skip(1).collect();
    let last = segs.len().saturating_sub(1);
    let mut out = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        let head = s.strip_suffix('*');
        if i == last && head.is_some_and(|h| !h.contains(['*', '?'])) {
            out.push(s.trim_end_matches('*').to_string());
            break;
        }
        if s.contains(['*', '?']) {
            n += 1;
            out.push(format!("{{param{n}}}"));
        } else {
            out.push(s.to_string());
        }
    }
    let url = format!("/{}", out.join("/"));
    (url != "/" || p == "/").then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert_eq!(pattern_url("/orders/*").as_deref(), Some("/orders/"));
        assert_eq!(
            pattern_url("/u/*/posts").as_deref(),
            Some("/u/{param1}/posts")
        );
        assert_eq!(pattern_url("/help").as_deref(), Some("/help"));
        assert_eq!(pattern_url("/item-*").as_deref(), Some("/item-"));
        assert_eq!(pattern_url("*"), None);
        assert_eq!(pattern_url("/*"), None);
    }
}
