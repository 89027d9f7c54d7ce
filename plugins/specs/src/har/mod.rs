//! HTTP Archive 1.x captures (`.har`, or `.json` holding a HAR `log`): one
//! endpoint per distinct captured request.
//!
//! - URL: the path of each entry's `request.url`; scheme, host and query
//!   are dropped like a server URL in OpenAPI (the report lists paths; `-u`
//!   adds a base URL). Every host of the capture is kept (third-party calls
//!   included: a capture is what the client talked to). `ws://`/`wss://`
//!   URLs, Chrome's `_resourceType: websocket` and an `Upgrade: websocket`
//!   header make a WebSocket endpoint (GET, protocol `ws`).
//! - Skipped entries: static assets (Chrome's `_resourceType` image, font,
//!   stylesheet, script, media, manifest, or a path ending in such a file
//!   extension) and non-HTTP URLs (`data:`, `blob:`, browser extensions).
//! - Params, with the captured values: `queryString` (names and values
//!   percent-decoded, as Chrome keeps them encoded; else the URL's query), `cookies` (else the `Cookie` header), headers except HTTP/2
//!   pseudo-headers (`:authority`), hop-by-hop and transport headers
//!   (`Host`, `Connection`, `Content-Length`, `Transfer-Encoding`, …) and
//!   headers every browser adds on its own (`User-Agent`, `Accept-Encoding`,
//!   `Accept-Language`, `Referer`, `Origin`, `Sec-*`, caching validators…),
//!   which describe the client rather than the API; `postData.params` →
//!   `form` (`file` with a `fileName`), else `postData.text` by its
//!   `mimeType` (JSON → `json`, urlencoded → `form`, multipart parts).
//! - The same method and path captured several times is one endpoint: the
//!   first entry's location and the union of the params (first value wins).
//! - Location: the entry's `request` key.

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::request::{body_params, cookie_params, header_params, query_params};
use portolan_plugin_sdk::doc::url::{percent_decode, query_of, url_path};

pub struct Har;

/// A `log` object with an `entries` list, in JSON.
pub const DETECT_REGEX: &str = r#"(?s)"log"\s*:\s*\{.*"entries"\s*:\s*\["#;

/// Headers that are not API inputs (compared lower-case; `sec-*` too).
pub(crate) const NOISE_HEADERS: &[&str] = &[
    "host",
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "content-length",
    "accept-encoding",
    "accept-language",
    "user-agent",
    "referer",
    "origin",
    "cache-control",
    "pragma",
    "dnt",
    "upgrade-insecure-requests",
    "if-none-match",
    "if-modified-since",
    "priority",
    "cookie",
];

/// Static resources (`_resourceType` values of Chrome's exports).
const STATIC_TYPES: &[&str] = &["image", "font", "stylesheet", "script", "media", "manifest"];

/// File extensions of static assets.
pub(crate) const STATIC_EXTENSIONS: &[&str] = &[
    "js", "mjs", "css", "map", "png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico", "bmp",
    "woff", "woff2", "ttf", "otf", "eot", "mp3", "mp4", "webm", "ogg", "wav",
];

impl Analyzer for Har {
    fn tech(&self) -> Tech {
        Tech::new("har", "Specification", "HTTP Archive")
            .specification()
            .aliases(["http_archive"])
            .files(["*.har", "*.json"])
            .detect(Detect::files(["*.har"]))
            .detect(Detect::files(["*.json"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let is_har_file = file.path.to_ascii_lowercase().ends_with(".har");
        let claims = file.content.contains("\"log\"") && file.content.contains("\"entries\"");
        if !is_har_file && !claims {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let entries = match har_entries(&doc) {
            Ok(entries) => entries,
            Err(e) => {
                if is_har_file {
                    host::warn(&format!("{}: {e}", file.path));
                }
                return;
            }
        };
        let source = SourceMap::new(&file.content);
        let mut found = crate::capture::Merged::default();
        for (i, entry) in entries.iter().enumerate() {
            let Some(endpoint) = entry_endpoint(entry) else {
                continue;
            };
            let key = [
                Seg::Key("log"),
                Seg::Key("entries"),
                Seg::Index(i),
                Seg::Key("request"),
            ];
            let line = source
                .line(&key)
                .unwrap_or_else(|| source.nearest_line(&key));
            found.add(endpoint.at(file, line));
        }
        for endpoint in found.into_endpoints() {
            out.endpoint(endpoint);
        }
    }
}

/// `log.entries` of a HAR 1.x document (a missing `log.version` is
/// accepted).
fn har_entries(doc: &Value) -> Result<&Vec<Value>, String> {
    let log = doc.get("log");
    let entries = log
        .and_then(|l| l.get("entries"))
        .and_then(Value::as_array)
        .ok_or("not an HTTP Archive (no `log.entries` list)")?;
    match log.and_then(|l| l.get("version")).and_then(scalar_string) {
        Some(v) if !v.trim().starts_with("1.") && v.trim() != "1" => {
            Err(format!("HAR version {v} is not supported (1.x is)"))
        }
        _ => Ok(entries),
    }
}

fn entry_endpoint(entry: &Value) -> Option<Endpoint> {
    let request = entry.get("request")?;
    let url = request.get("url")?.as_str()?.trim();
    let lower = url.to_ascii_lowercase();
    let scheme_ok = ["http://", "https://", "ws://", "wss://", "/"]
        .iter()
        .any(|s| lower.starts_with(s));
    if !scheme_ok {
        return None;
    }
    let resource_type = entry
        .get("_resourceType")
        .and_then(Value::as_str)
        .unwrap_or("");
    if STATIC_TYPES.contains(&resource_type) {
        return None;
    }
    let path = url_path(url);
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path
    };
    if crate::capture::is_static(&path) {
        return None;
    }
    let headers: Vec<(String, String)> = list(request.get("headers"))
        .filter_map(|h| {
            let name = h.get("name")?.as_str()?;
            let value = h.get("value").and_then(scalar_string).unwrap_or_default();
            Some((name.to_string(), value))
        })
        .collect();
    let websocket = lower.starts_with("ws://")
        || lower.starts_with("wss://")
        || resource_type == "websocket"
        || headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("upgrade") && v.trim().eq_ignore_ascii_case("websocket")
        });
    let mut endpoint = if websocket {
        Endpoint::websocket(path)
    } else {
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("GET");
        Endpoint::new(method.to_ascii_uppercase(), path)
    };
    // Query.
    match request.get("queryString").and_then(Value::as_array) {
        Some(query) if !query.is_empty() => {
            for q in query {
                if let Some(name) = q.get("name").and_then(Value::as_str) {
                    // Chrome writes names and values as they are in the URL
                    // (percent-encoded), Firefox decoded: decode both.
                    let value = q.get("value").and_then(scalar_string).unwrap_or_default();
                    endpoint.push_param(
                        Param::query(percent_decode(name)).value(percent_decode(&value)),
                    );
                }
            }
        }
        _ => {
            for p in query_params(query_of(url)) {
                endpoint.push_param(p);
            }
        }
    }
    // Headers and cookies.
    for (name, value) in &headers {
        let lower = name.to_ascii_lowercase();
        if lower.starts_with(':')
            || lower.starts_with("sec-")
            || NOISE_HEADERS.contains(&lower.as_str())
        {
            continue;
        }
        for p in header_params(name, value) {
            endpoint.push_param(p);
        }
    }
    let cookies: Vec<Param> = list(request.get("cookies"))
        .filter_map(|c| {
            let name = c.get("name")?.as_str()?;
            let value = c.get("value").and_then(scalar_string).unwrap_or_default();
            Some(Param::cookie(name).value(value))
        })
        .collect();
    let cookies = if cookies.is_empty() {
        headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("cookie"))
            .flat_map(|(_, v)| cookie_params(v))
            .collect()
    } else {
        cookies
    };
    for p in cookies {
        endpoint.push_param(p);
    }
    // Body.
    if let Some(post) = request.get("postData") {
        let mime = post.get("mimeType").and_then(Value::as_str);
        let params: Vec<Param> = list(post.get("params"))
            .filter_map(|p| {
                let name = p.get("name")?.as_str()?;
                if p.get("fileName").is_some_and(|f| !f.is_null()) {
                    return Some(Param::file(name));
                }
                let value = p.get("value").and_then(scalar_string).unwrap_or_default();
                Some(Param::form(name).value(value))
            })
            .collect();
        let params = if params.is_empty() {
            let text = post.get("text").and_then(Value::as_str).unwrap_or("");
            body_params(mime, text)
        } else {
            params
        };
        for p in params {
            endpoint.push_param(p);
        }
    }
    Some(endpoint)
}

fn list(value: Option<&Value>) -> impl Iterator<Item = &Value> {
    value.and_then(Value::as_array).into_iter().flatten()
}

#[cfg(test)]
mod tests;
