//! iOS: custom URL schemes (`Info.plist`) and universal links
//! (`*.entitlements`), both XML property lists.
//!
//! - `Info.plist`: each string of `CFBundleURLTypes[].CFBundleURLSchemes`
//!   → `GET <scheme>://` (protocol the scheme). Build variables
//!   (`$(PRODUCT_BUNDLE_IDENTIFIER)`) are skipped: not a scheme until
//!   Xcode resolves them.
//! - `*.entitlements`: each `applinks:<domain>` of
//!   `com.apple.developer.associated-domains` → `GET https://<domain>/`
//!   (protocol `https`; `?mode=developer` dropped; `*.example.com` kept).
//!   `webcredentials:`, `activitycontinuation:` and `appclips:` entries are
//!   not links and are skipped. The paths an app handles are in the site's
//!   `apple-app-site-association` ([`super::well_known_applinks`]).
//! - Location: the `<string>` element.
//! - Binary plists are not read (Xcode projects keep them as XML).

use portolan_plugin_sdk::prelude::*;
use roxmltree::{Document, Node, ParsingOptions};

use portolan_plugin_sdk::doc::is_test_document;

use super::scheme;

pub struct Ios;

const URL_TYPES: &str = "CFBundleURLTypes";
const DOMAINS: &str = "com.apple.developer.associated-domains";

impl Analyzer for Ios {
    fn tech(&self) -> Tech {
        Tech::new("ios", "Mobile", "iOS URL schemes and universal links")
            .specification()
            .files(["*.plist", "*.entitlements"])
            .detect(Detect::files(["*.plist", "*.entitlements"]).contains([URL_TYPES, DOMAINS]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let has_types = file.content.contains(URL_TYPES);
        let has_domains = file.content.contains(DOMAINS);
        if !(has_types || has_domains) || is_test_document(&file.path) {
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
        if !root.has_tag_name("plist") {
            return;
        }
        let Some(dict) = root.children().find(|n| n.has_tag_name("dict")) else {
            return;
        };
        if let Some(types) = value_of(dict, URL_TYPES) {
            for url_type in children(types, "dict") {
                let Some(schemes) = value_of(url_type, "CFBundleURLSchemes") else {
                    continue;
                };
                for s in children(schemes, "string") {
                    let Some(name) = s.text().and_then(scheme) else {
                        continue;
                    };
                    let mut e = Endpoint::new("GET", format!("{name}://"));
                    e.protocol = name.to_ascii_lowercase();
                    out.endpoint(e.at(file, file.line_of(s.range().start)));
                }
            }
        }
        if let Some(domains) = value_of(dict, DOMAINS) {
            for s in children(domains, "string") {
                let Some(domain) = s
                    .text()
                    .map(str::trim)
                    .and_then(|t| t.strip_prefix("applinks:"))
                else {
                    continue;
                };
                let domain = domain.split('?').next().unwrap_or("").trim();
                if domain.is_empty() {
                    continue;
                }
                let mut e = Endpoint::new("GET", format!("https://{domain}/"));
                e.protocol = "https".into();
                out.endpoint(e.at(file, file.line_of(s.range().start)));
            }
        }
    }
}

/// The value element following `<key>name</key>` in a plist `<dict>`.
fn value_of<'a, 'i>(dict: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    let mut elements = dict.children().filter(Node::is_element);
    while let Some(n) = elements.next() {
        if n.has_tag_name("key") && n.text().map(str::trim) == Some(name) {
            return elements.next();
        }
    }
    None
}

fn children<'a, 'i>(node: Node<'a, 'i>, tag: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(move |n| n.has_tag_name(tag))
}
