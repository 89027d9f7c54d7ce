//! Files a web site serves under `/.well-known/` to link its URLs to apps.
//!
//! - `apple-app-site-association` (JSON, with or without `.json`): each
//!   path pattern an app claims → `GET <pattern>` (protocol `https`, the
//!   site's own URLs): `applinks.details[].paths` strings (legacy format;
//!   `NOT /x` exclusions skipped) and `applinks.details[].components[]`
//!   (iOS 14+: `"/"` the path pattern, `"?"` an object of query keys →
//!   `query` params valued with their pattern, or a `k=v&…` string; `"#"`
//!   fragments are not sent to the server and are ignored;
//!   `"exclude": true` entries skipped). Patterns are kept as written
//!   (`/buy/*`), except that a run of `?` (one character each) becomes
//!   `*` (`/orders/???` → `/orders/*`) so it is not read as a query;
//!   `*` alone means the whole site → `/`.
//!   Location: the pattern's string.
//! - `assetlinks.json` (Android Digital Asset Links): a statement whose
//!   `relation` has `delegate_permission/common.handle_all_urls` and whose
//!   target is an `android_app` links every URL of the site to that app;
//!   the file lists no paths, so it is one `GET /` (protocol `https`) at the
//!   statement. Other relations (`get_login_creds`) are not links.
//! - Both only under the names the platforms fetch; files below test
//!   directories are ignored.

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};

pub struct WellKnownApplinks;

const AASA: &str = "apple-app-site-association";
const ASSETLINKS: &str = "assetlinks.json";
const HANDLE_ALL: &str = "delegate_permission/common.handle_all_urls";

impl Analyzer for WellKnownApplinks {
    fn tech(&self) -> Tech {
        Tech::new(
            "well_known_applinks",
            "Mobile",
            "App links site association",
        )
        .specification()
        .aliases(["apple_app_site_association", "assetlinks"])
        .files([AASA, "apple-app-site-association.json", ASSETLINKS])
        .detect(Detect::files([
            AASA,
            "apple-app-site-association.json",
            ASSETLINKS,
        ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let name = file.path.rsplit(['/', '\\']).next().unwrap_or("");
        let apple = name == AASA || name == "apple-app-site-association.json";
        if !(apple || name == ASSETLINKS) || is_test_document(&file.path) {
            return;
        }
        let doc: Value = match serde_json::from_str(&file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: invalid JSON: {e}", file.path)),
        };
        let source = SourceMap::new(&file.content);
        if apple {
            apple_paths(file, &doc, &source, out);
        } else {
            asset_links(file, &doc, &source, out);
        }
    }
}

fn https(url: String) -> Endpoint {
    let mut e = Endpoint::new("GET", url);
    e.protocol = "https".into();
    e
}

/// `*` (every path) → `/`; others get a leading `/`. A run of `?`
/// (one character each) becomes one `*`, so it is not read as a query.
fn pattern_url(pattern: &str) -> Option<String> {
    let p = pattern.trim();
    if p.is_empty() {
        return None;
    }
    if matches!(p, "*" | "/*") {
        return Some("/".to_string());
    }
    let mut url = String::with_capacity(p.len() + 1);
    if !p.starts_with('/') {
        url.push('/');
    }
    for c in p.chars() {
        if c == '?' {
            if !url.ends_with('*') {
                url.push('*');
            }
        } else {
            url.push(c);
        }
    }
    Some(url)
}

fn apple_paths(file: &SourceFile, doc: &Value, source: &SourceMap, out: &mut Output) {
    let Some(details) = doc
        .get("applinks")
        .and_then(|a| a.get("details"))
        .and_then(Value::as_array)
    else {
        return;
    };
    for (i, detail) in details.iter().enumerate() {
        let base = [Seg::Key("applinks"), Seg::Key("details"), Seg::Index(i)];
        let line_of = |extra: &[Seg<'_>]| {
            let mut key = base.to_vec();
            key.extend_from_slice(extra);
            source
                .line(&key)
                .unwrap_or_else(|| source.nearest_line(&key))
        };
        for (j, p) in detail
            .get("paths")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(p) = p.as_str() else { continue };
            if p.trim_start().starts_with("NOT ") {
                continue;
            }
            let Some(url) = pattern_url(p) else { continue };
            let line = line_of(&[Seg::Key("paths"), Seg::Index(j)]);
            out.endpoint(https(url).at(file, line));
        }
        for (j, c) in detail
            .get("components")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if c.get("exclude").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let path = c.get("/").and_then(Value::as_str).unwrap_or("*");
            let Some(url) = pattern_url(path) else {
                continue;
            };
            let key_seg = if c.get("/").is_some() {
                vec![Seg::Key("components"), Seg::Index(j), Seg::Key("/")]
            } else {
                vec![Seg::Key("components"), Seg::Index(j)]
            };
            let mut e = https(url);
            match c.get("?") {
                Some(Value::Object(query)) => {
                    for (k, v) in query {
                        let value = v.as_str().unwrap_or("");
                        e.push_param(Param::query(k.as_str()).value(value));
                    }
                }
                Some(Value::String(query)) => {
                    for pair in query.trim_start_matches('?').split('&') {
                        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                        if !k.is_empty() && k != "*" {
                            e.push_param(Param::query(k).value(v));
                        }
                    }
                }
                _ => {}
            }
            out.endpoint(e.at(file, line_of(&key_seg)));
        }
    }
}

fn asset_links(file: &SourceFile, doc: &Value, source: &SourceMap, out: &mut Output) {
    let Some(statements) = doc.as_array() else {
        return;
    };
    for (i, st) in statements.iter().enumerate() {
        let handles_all = st
            .get("relation")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|v| v.as_str() == Some(HANDLE_ALL)));
        let android = st
            .get("target")
            .and_then(|t| t.get("namespace"))
            .and_then(Value::as_str)
            == Some("android_app");
        if !(handles_all && android) {
            continue;
        }
        let key = [Seg::Index(i)];
        let line = source
            .line(&key)
            .unwrap_or_else(|| source.nearest_line(&key));
        out.endpoint(https("/".to_string()).at(file, line));
    }
}
