//! Burp Suite "Save items" exports (XML: `<items burpVersion=…>` with one
//! `<item>` per request, from Proxy history, Target site map or Repeater).
//!
//! - Each `<item>`'s raw `<request>` (base64 when `base64="true"`, else the
//!   text) is read as an HTTP request: method, headers, cookies and body
//!   params (JSON, urlencoded, multipart). The path comes from the item's
//!   `<url>` (else `<path>`, else the request line); scheme, host and query
//!   are dropped, query params kept.
//! - The capture rules of HAR apply ([`crate::capture`]): static assets are
//!   skipped, transport and browser-added headers left out, and the same
//!   method and path captured several times is one endpoint (the first
//!   item's line, the union of the params).
//! - Location: the item's `<item>` line.

use portolan_plugin_sdk::prelude::*;
use roxmltree::{Document, Node, ParsingOptions};

use portolan_plugin_sdk::doc::is_test_document;

use crate::capture::{self, base64_decode, parse_raw, Captured};

pub struct Burp;

/// The root element of a Burp items export.
pub const DETECT_REGEX: &str = r"<items\s[^>]*burpVersion\s*=";

impl Analyzer for Burp {
    fn tech(&self) -> Tech {
        Tech::new("burp", "Specification", "Burp Suite saved items")
            .specification()
            .aliases(["burp_suite", "burpsuite"])
            .files(["*.xml", "*.burp.xml", "*.items"])
            .detect(Detect::files(["*.xml", "*.items"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !file.content.contains("burpVersion") || is_test_document(&file.path) {
            return;
        }
        let options = ParsingOptions {
            allow_dtd: true,
            ..ParsingOptions::default()
        };
        let doc = match Document::parse_with_options(&file.content, options) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: invalid XML: {e}", file.path)),
        };
        let root = doc.root_element();
        if root.tag_name().name() != "items" || root.attribute("burpVersion").is_none() {
            return;
        }
        let mut found = capture::Merged::default();
        for item in root.children().filter(|n| n.has_tag_name("item")) {
            let Some(endpoint) = item_endpoint(item) else {
                continue;
            };
            let line = file.line_of(item.range().start);
            found.add(endpoint.at(file, line));
        }
        for endpoint in found.into_endpoints() {
            out.endpoint(endpoint);
        }
    }
}

fn child_text<'a>(item: Node<'a, '_>, name: &str) -> Option<&'a str> {
    item.children()
        .find(|n| n.has_tag_name(name))
        .and_then(|n| n.text())
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "null")
}

fn item_endpoint(item: Node<'_, '_>) -> Option<Endpoint> {
    let raw = item.children().find(|n| n.has_tag_name("request"));
    let raw_text = raw.and_then(|n| n.text()).unwrap_or("");
    let raw_text = if raw.and_then(|n| n.attribute("base64")) == Some("true") {
        String::from_utf8_lossy(&base64_decode(raw_text)?).into_owned()
    } else {
        raw_text.to_string()
    };
    let parsed = parse_raw(&raw_text);
    let method = child_text(item, "method")
        .or(parsed.as_ref().map(|p| p.method))
        .unwrap_or("GET");
    let url = child_text(item, "url")
        .or_else(|| child_text(item, "path"))
        .or(parsed.as_ref().map(|p| p.url))?;
    let request = Captured {
        method,
        url,
        headers: parsed
            .as_ref()
            .map(|p| p.headers.clone())
            .unwrap_or_default(),
        body: parsed.as_ref().map_or("", |p| p.body),
    };
    capture::endpoint(&request)
}
