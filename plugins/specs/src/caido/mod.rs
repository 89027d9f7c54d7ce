//! Caido exports of requests (HTTP History, Search or Replay → Export →
//! JSON): a list of request objects with `host`, `port`, `is_tls`,
//! `method`, `path`, `query` and the raw request (`raw`, base64, absent
//! when exported without raw data), each with its `response`. The
//! camelCase names of Caido's API (`isTls`, as in the SDK's `Request`
//! type) and a `{"requests": [...]}` wrapper are accepted too; the method
//! and path may come from `raw` alone.
//!
//! CSV exports (the same export as CSV) are read the same way: a header row
//! naming the columns (`method`, `path`, `query`, `is_tls` or `isTls`,
//! `raw`, any order and case, others ignored), one request per row; quoted
//! fields may hold commas, doubled quotes and line breaks.
//!
//! - Path from `path` (else the raw request line), query params from
//!   `query` (else the raw target's query); headers, cookies and body from
//!   the decoded `raw` request (plain text accepted when it is not base64).
//! - The capture rules of HAR apply ([`crate::capture`]): static assets are
//!   skipped, transport and browser-added headers left out, one endpoint
//!   per method and path (first request's location, union of the params).
//! - Location: the request object in the list.

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};

use crate::capture::{self, base64_decode, parse_raw, Captured};

pub struct Caido;

/// The TLS flag every exported request carries.
pub const DETECT_REGEX: &str = r#""(?:is_tls|isTls)"\s*:\s*(?:true|false)"#;

/// The header row of a CSV export: the TLS flag and the method columns.
pub const DETECT_CSV_REGEX: &str =
    r"(?i)\A[^\r\n]*\bis_?tls\b[^\r\n]*\bmethod\b|\A[^\r\n]*\bmethod\b[^\r\n]*\bis_?tls\b";

impl Analyzer for Caido {
    fn tech(&self) -> Tech {
        Tech::new("caido", "Specification", "Caido export")
            .specification()
            .files(["*.json", "*.csv"])
            .detect(Detect::files(["*.json"]).regex([DETECT_REGEX]))
            .detect(Detect::files(["*.csv"]).regex([DETECT_CSV_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if file.path.to_ascii_lowercase().ends_with(".csv") {
            return csv_export(file, out);
        }
        let marked = file.content.contains("\"is_tls\"") || file.content.contains("\"isTls\"");
        if !marked || is_test_document(&file.path) {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let (list, prefix): (&[Value], Option<&str>) = match &doc {
            Value::Array(list) => (list, None),
            Value::Object(map) => match map.get("requests").and_then(Value::as_array) {
                Some(list) => (list, Some("requests")),
                None => return,
            },
            _ => return,
        };
        let source = SourceMap::new(&file.content);
        let mut found = capture::Merged::default();
        for (i, request) in list.iter().enumerate() {
            if !is_request(request) {
                continue;
            }
            let Some(endpoint) = request_endpoint(request) else {
                continue;
            };
            let mut key = Vec::with_capacity(2);
            if let Some(prefix) = prefix {
                key.push(Seg::Key(prefix));
            }
            key.push(Seg::Index(i));
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

/// A CSV export (see the module doc).
fn csv_export(file: &SourceFile, out: &mut Output) {
    if is_test_document(&file.path) {
        return;
    }
    let mut rows = csv_rows(&file.content).into_iter();
    let Some((_, header)) = rows.next() else {
        return;
    };
    let keys: Vec<String> = header.iter().map(|h| column_key(h)).collect();
    if !keys.iter().any(|k| k == "is_tls") || !keys.iter().any(|k| k == "method") {
        return;
    }
    let mut found = capture::Merged::default();
    for (line, fields) in rows {
        let request: serde_json::Map<String, Value> = keys
            .iter()
            .zip(fields)
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.clone(), Value::String(v)))
            .collect();
        let request = Value::Object(request);
        if !is_request(&request) {
            continue;
        }
        if let Some(endpoint) = request_endpoint(&request) {
            found.add(endpoint.at(file, line));
        }
    }
    for endpoint in found.into_endpoints() {
        out.endpoint(endpoint);
    }
}

/// A column name as the JSON export's key: `isTls`, `Is TLS` → `is_tls`;
/// others lower-cased.
fn column_key(name: &str) -> String {
    let squashed: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match squashed.as_str() {
        "istls" | "tls" => "is_tls".to_string(),
        _ => squashed,
    }
}

/// The records of a CSV text (RFC 4180: `,` separators, `"` quoting with
/// `""` for a quote, line breaks inside quotes), each with the 1-based line
/// it starts on. Empty lines are skipped.
fn csv_rows(text: &str) -> Vec<(u32, Vec<String>)> {
    let mut rows = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut line = 1u32;
    let mut start = 1u32;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            line += 1;
        }
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            ',' => fields.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                fields.push(std::mem::take(&mut field));
                if fields.iter().any(|f| !f.is_empty()) {
                    rows.push((start, std::mem::take(&mut fields)));
                }
                fields.clear();
                start = line;
            }
            _ => field.push(c),
        }
    }
    fields.push(field);
    if fields.iter().any(|f| !f.is_empty()) {
        rows.push((start, fields));
    }
    rows
}

fn get<'a>(request: &'a Value, snake: &str, camel: &str) -> Option<&'a Value> {
    request.get(snake).or_else(|| request.get(camel))
}

/// A request object of an export: a method and a path or raw request, and
/// the TLS flag.
fn is_request(request: &Value) -> bool {
    let raw = request.get("raw").is_some_and(Value::is_string);
    get(request, "is_tls", "isTls").is_some()
        && (request.get("method").is_some_and(Value::is_string) || raw)
        && (request.get("path").is_some_and(Value::is_string) || raw)
}

fn request_endpoint(request: &Value) -> Option<Endpoint> {
    let raw = request.get("raw").and_then(Value::as_str).unwrap_or("");
    let decoded = match base64_decode(raw) {
        Some(bytes) if !raw.contains(' ') => String::from_utf8_lossy(&bytes).into_owned(),
        _ => raw.to_string(),
    };
    let parsed = parse_raw(&decoded);
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .or(parsed.as_ref().map(|p| p.method))
        .unwrap_or("GET");
    let path = request.get("path").and_then(Value::as_str);
    let query = request
        .get("query")
        .and_then(scalar_string)
        .unwrap_or_default();
    let url = match path {
        Some(path) if query.is_empty() => path.to_string(),
        Some(path) => format!("{path}?{}", query.trim_start_matches('?')),
        None => parsed.as_ref()?.url.to_string(),
    };
    let target = if url.starts_with('/') || url.contains("://") {
        url
    } else {
        format!("/{url}")
    };
    let captured = Captured {
        method,
        url: &target,
        headers: parsed
            .as_ref()
            .map(|p| p.headers.clone())
            .unwrap_or_default(),
        body: parsed.as_ref().map_or("", |p| p.body),
    };
    capture::endpoint(&captured)
}
