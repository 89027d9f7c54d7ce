//! mitmproxy flow dumps (`mitmdump -w FILE`, mitmproxy's `w` key): the
//! native format, a sequence of tnetstring-serialized flows.
//!
//! - Each HTTP flow (`type: http`) is one request: `request.method`,
//!   `request.path` (origin form, with its query), `request.headers` (a
//!   list of `[name, value]` pairs) and `request.content`. WebSocket flows
//!   (a `websocket` entry that is not null, or an `Upgrade: websocket`
//!   header) are WebSocket endpoints. TCP, UDP and DNS flows are skipped.
//! - The capture rules of HAR apply ([`crate::capture`]): static assets are
//!   skipped, transport and browser-added headers left out, one endpoint per
//!   method and path (the first flow's location, the union of the params).
//! - Location: the line where the flow's `request` starts (flow files have
//!   few newlines, so usually line 1).
//! - The host reads files as UTF-8 text: a flow whose captured bodies are
//!   binary (images, compressed responses) no longer has exact byte
//!   lengths once invalid bytes are replaced, so it does not parse; reading
//!   resumes at the next flow (a `}` followed by two lengths) and one
//!   warning counts the flows skipped. The host skips files that look
//!   binary altogether (many control bytes in the first 8 KiB). For such
//!   captures, export HAR instead (`mitmdump -nr FILE --set
//!   hardump=out.har`), which the `har` analyzer reads.

use portolan_plugin_sdk::prelude::*;

use portolan_plugin_sdk::doc::is_test_document;

use crate::capture::{self, Captured};

pub struct Mitmproxy;

/// A tnetstring flow: its `request` dict and connection entries.
pub const DETECT_REGEX: &str = r"7:request;\d+:\d+:";

/// Deepest tnetstring nesting read.
const MAX_DEPTH: usize = 32;

impl Analyzer for Mitmproxy {
    fn tech(&self) -> Tech {
        Tech::new("mitmproxy", "Specification", "mitmproxy flows")
            .specification()
            .aliases(["mitmdump"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !file.content.contains("7:request;") || is_test_document(&file.path) {
            return;
        }
        let bytes = file.content.as_bytes();
        let mut pos = 0;
        let mut found = capture::Merged::default();
        let mut skipped = 0;
        while pos < bytes.len() {
            if bytes[pos].is_ascii_whitespace() {
                pos += 1;
                continue;
            }
            let parsed = parse(bytes, pos, 0).filter(|(flow, _)| matches!(flow, T::Dict(..)));
            let Some((flow, next)) = parsed else {
                skipped += 1;
                match next_flow_start(bytes, pos) {
                    Some(start) => {
                        pos = start;
                        continue;
                    }
                    None => break,
                }
            };
            if let Some((endpoint, offset)) = flow_endpoint(&flow) {
                found.add(endpoint.at(file, file.line_of(offset)));
            }
            pos = next;
        }
        if skipped > 0 {
            host::warn(&format!(
                "{}: {skipped} flow(s) are not valid tnetstrings (binary content read as text?) and were skipped",
                file.path
            ));
        }
        for endpoint in found.into_endpoints() {
            out.endpoint(endpoint);
        }
    }
}

/// The start of the next top-level flow at or after `from`: a `}` closing
/// the previous flow followed by `LEN:` and the first key's `LEN:` (inside
/// a flow, a `}` is followed by a key, `7:request;`, never by two lengths).
fn next_flow_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i < bytes.len() {
        let close = i + bytes.get(i..)?.iter().position(|&b| b == b'}')?;
        let start = close + 1;
        let digits = |at: usize| {
            bytes
                .get(at..)
                .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count())
        };
        let first = digits(start);
        if first > 0 && bytes.get(start + first) == Some(&b':') {
            let second = digits(start + first + 1);
            if second > 0 && bytes.get(start + first + 1 + second) == Some(&b':') {
                return Some(start);
            }
        }
        i = start;
    }
    None
}

/// File names mitmproxy dumps are usually given (`-w` takes any name).
const FILES: [&str; 6] = [
    "*.flow",
    "*.flows",
    "*.mitm",
    "*.dump",
    "flows",
    "*.mitmdump",
];

/// A tnetstring value; dicts keep their offset in the file.
enum T<'a> {
    Bytes(&'a [u8]),
    Scalar,
    Null,
    Dict(Vec<(&'a [u8], T<'a>)>, usize),
    List(Vec<T<'a>>),
}

impl<'a> T<'a> {
    fn get(&self, key: &str) -> Option<&T<'a>> {
        match self {
            T::Dict(entries, _) => entries
                .iter()
                .find(|(k, _)| *k == key.as_bytes())
                .map(|(_, v)| v),
            _ => None,
        }
    }

    fn text(&self) -> Option<&'a str> {
        match self {
            T::Bytes(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }
}

/// One tnetstring at `pos`: `LEN:DATA` and a type byte. Returns the value
/// and the position after it.
fn parse(bytes: &[u8], pos: usize, depth: usize) -> Option<(T<'_>, usize)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let colon = pos + bytes.get(pos..)?.iter().take(12).position(|&b| b == b':')?;
    let len: usize = std::str::from_utf8(bytes.get(pos..colon)?)
        .ok()?
        .parse()
        .ok()?;
    let start = colon + 1;
    let end = start.checked_add(len)?;
    let data = bytes.get(start..end)?;
    let kind = *bytes.get(end)?;
    let value = match kind {
        b',' | b';' => T::Bytes(data),
        b'#' | b'^' | b'!' => T::Scalar,
        b'~' => T::Null,
        b'}' => {
            let mut entries = Vec::new();
            let mut at = start;
            while at < end {
                let (key, next) = parse(bytes, at, depth + 1)?;
                let (value, after) = parse(bytes, next, depth + 1)?;
                let T::Bytes(key) = key else {
                    return None;
                };
                entries.push((key, value));
                at = after;
            }
            T::Dict(entries, pos)
        }
        b']' => {
            let mut items = Vec::new();
            let mut at = start;
            while at < end {
                let (item, next) = parse(bytes, at, depth + 1)?;
                items.push(item);
                at = next;
            }
            T::List(items)
        }
        _ => return None,
    };
    Some((value, end + 1))
}

/// The endpoint of an HTTP flow and the offset of its request.
fn flow_endpoint(flow: &T<'_>) -> Option<(Endpoint, usize)> {
    if flow
        .get("type")
        .and_then(T::text)
        .is_some_and(|t| t != "http")
    {
        return None;
    }
    let request = flow.get("request")?;
    let T::Dict(_, offset) = request else {
        return None;
    };
    let method = request.get("method").and_then(T::text).unwrap_or("GET");
    let path = request.get("path").and_then(T::text).unwrap_or("/");
    let mut headers = Vec::new();
    if let Some(T::List(pairs)) = request.get("headers") {
        for pair in pairs {
            if let T::List(kv) = pair {
                if let (Some(name), Some(value)) =
                    (kv.first().and_then(T::text), kv.get(1).and_then(T::text))
                {
                    headers.push((name.to_string(), value.to_string()));
                }
            }
        }
    }
    let body = request.get("content").and_then(T::text).unwrap_or("");
    let websocket = matches!(flow.get("websocket"), Some(T::Dict(..)));
    if websocket
        && !headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("upgrade"))
    {
        headers.push(("Upgrade".to_string(), "websocket".to_string()));
    }
    let captured = Captured {
        method,
        url: path,
        headers,
        body,
    };
    let endpoint = capture::endpoint(&captured)?;
    Some((endpoint, *offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_tnetstrings() {
        let text = "40:7:request;26:6:method;3:GET,4:path;1:/,}}";
        let (flow, next) = parse(text.as_bytes(), 0, 0).expect("flow");
        assert_eq!(next, text.len());
        let (e, _) = flow_endpoint(&flow).expect("endpoint");
        assert_eq!((e.method.as_str(), e.url.as_str()), ("GET", "/"));
        assert!(parse(b"99:3:abc,}", 0, 0).is_none());
        assert!(parse("5:é,".as_bytes(), 0, 0).is_none());
    }

    #[test]
    fn resync_after_a_broken_flow() {
        let good = "40:7:request;26:6:method;3:GET,4:path;1:/,}}";
        let text = format!("45:7:request;26:6:method;3:GET,4:path;1:/,}}}}{good}");
        assert_eq!(
            next_flow_start(text.as_bytes(), 1),
            Some(text.len() - good.len())
        );
        assert_eq!(next_flow_start(good.as_bytes(), 1), None);
    }
}
