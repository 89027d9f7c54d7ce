//! Captured HTTP requests of proxy tools (Burp, Caido, mitmproxy): the raw
//! request text or its parts → one endpoint, with the same rules as HAR
//! captures ([`crate::har`]): scheme, host and query dropped from the URL,
//! static assets skipped, transport and browser-added headers left out,
//! cookies and bodies split into params, and one endpoint per method and
//! path (the first capture's location, the union of the params).

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;

use portolan_plugin_sdk::doc::request::{body_params, content_type, header_params, query_params};
use portolan_plugin_sdk::doc::url::{query_of, url_path};

use crate::har::{NOISE_HEADERS, STATIC_EXTENSIONS};

/// One captured request.
pub struct Captured<'a> {
    pub method: &'a str,
    /// Absolute URL or origin-form target (`/a?b=1`).
    pub url: &'a str,
    pub headers: Vec<(String, String)>,
    pub body: &'a str,
}

/// A raw HTTP/1.x request (`GET /a HTTP/1.1`, headers, blank line, body),
/// as Burp and Caido store them. `None` when the first line is not a
/// request line.
pub fn parse_raw(text: &str) -> Option<Captured<'_>> {
    let (head, body) = match text.find("\r\n\r\n") {
        Some(i) => (&text[..i], &text[i + 4..]),
        None => match text.find("\n\n") {
            Some(i) => (&text[..i], &text[i + 2..]),
            None => (text, ""),
        },
    };
    let mut lines = head.lines();
    let first = lines.next()?.trim();
    let mut parts = first.split_whitespace();
    let method = parts.next()?;
    let url = parts.next()?;
    let version = parts.next().unwrap_or("HTTP/1.1");
    let token = !method.is_empty() && method.bytes().all(|b| b.is_ascii_alphabetic());
    if !token || !version.starts_with("HTTP/") {
        return None;
    }
    let headers = lines
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some((name.trim().to_string(), value.trim().to_string()))
        })
        .collect();
    Some(Captured {
        method,
        url,
        headers,
        body,
    })
}

/// The endpoint of a captured request; `None` for static assets and
/// non-HTTP URLs.
pub fn endpoint(request: &Captured<'_>) -> Option<Endpoint> {
    let url = request.url.trim();
    let lower = url.to_ascii_lowercase();
    let scheme_ok = ["http://", "https://", "ws://", "wss://", "/"]
        .iter()
        .any(|s| lower.starts_with(s));
    if !scheme_ok {
        return None;
    }
    let path = url_path(url);
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path
    };
    if is_static(&path) {
        return None;
    }
    let websocket = lower.starts_with("ws://")
        || lower.starts_with("wss://")
        || request.headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("upgrade") && v.trim().eq_ignore_ascii_case("websocket")
        });
    let mut endpoint = if websocket {
        Endpoint::websocket(path)
    } else {
        Endpoint::new(request.method.to_ascii_uppercase(), path)
    };
    for p in query_params(query_of(url)) {
        endpoint.push_param(p);
    }
    for (name, value) in &request.headers {
        let lower = name.to_ascii_lowercase();
        let noise = lower.starts_with(':')
            || lower.starts_with("sec-")
            || NOISE_HEADERS.contains(&lower.as_str());
        if noise && lower != "cookie" {
            continue;
        }
        for p in header_params(name, value) {
            endpoint.push_param(p);
        }
    }
    let mime = content_type(
        request
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str())),
    );
    for p in body_params(mime, request.body) {
        endpoint.push_param(p);
    }
    Some(endpoint)
}

/// A path ending in a static asset's file extension.
pub fn is_static(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .and_then(|last| last.rsplit_once('.'))
        .is_some_and(|(_, e)| STATIC_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Captured endpoints, one per method, path and protocol: the first
/// capture's location, the union of the params (first value wins).
#[derive(Default)]
pub struct Merged {
    found: Vec<Endpoint>,
    index: HashMap<(String, String, String), usize>,
}

impl Merged {
    pub fn add(&mut self, endpoint: Endpoint) {
        let key = (
            endpoint.method.clone(),
            endpoint.url.clone(),
            endpoint.protocol.clone(),
        );
        match self.index.get(&key) {
            Some(&i) => {
                let Some(first) = self.found.get_mut(i) else {
                    return;
                };
                for p in endpoint.params {
                    if !first
                        .params
                        .iter()
                        .any(|q| q.name == p.name && q.kind == p.kind)
                    {
                        first.params.push(p);
                    }
                }
            }
            None => {
                self.index.insert(key, self.found.len());
                self.found.push(endpoint);
            }
        }
    }

    pub fn into_endpoints(self) -> Vec<Endpoint> {
        self.found
    }
}

/// Standard base64 (RFC 4648, `+/`, padding optional, whitespace ignored).
/// `None` on any other character.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut buffer: u32 = 0;
    let mut bits = 0u32;
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((buffer >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        assert_eq!(
            base64_decode("R0VUIC8gSFRUUC8xLjE=").as_deref(),
            Some(&b"GET / HTTP/1.1"[..])
        );
        assert_eq!(base64_decode("YQ").as_deref(), Some(&b"a"[..]));
        assert!(base64_decode("a*b").is_none());
    }

    #[test]
    fn raw_requests() {
        let raw = "POST /api/items?x=1 HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nCookie: s=1\r\n\r\n{\"name\":\"a\"}";
        let c = parse_raw(raw).expect("request");
        let e = endpoint(&c).expect("endpoint");
        assert_eq!((e.method.as_str(), e.url.as_str()), ("POST", "/api/items"));
        let names: Vec<&str> = e.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["x", "Content-Type", "s", "name"]);
        assert!(parse_raw("HTTP/1.1 200 OK\r\n\r\n").is_none());
        assert!(parse_raw("héllo wörld").is_none());
    }
}
