//! OWASP ZAP sites-tree exports (YAML, the `sitestree` format of ZAP's
//! export job): one endpoint per requested node.
//!
//! - The document is a list whose root node is `Sites`; nodes nest in
//!   `children` at any depth. A node with a `url` and a `method` is a
//!   request ZAP saw; site nodes (`https://host`, no path) and folder nodes
//!   without a `url` are not endpoints. Node names such as
//!   `GET:search(q)` or `POST:login()(password,username)` are ZAP's
//!   summaries of the same request.
//! - URL: the path of `url`; scheme, host and query dropped (the report
//!   lists paths; `-u` adds a base URL).
//! - Params: the URL's query → `query` (else the names in the first `(…)`
//!   of a GET node name); `data` → `form` pairs, or `json` fields when it is
//!   a JSON object (else the names in the node name's second `(…)`).
//! - Location: the node's list item.
//!
//! ZAP's message export (a text file of raw requests and responses) is
//! read by [`messages`].

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::request::{form_params, json_params, query_params};
use portolan_plugin_sdk::doc::url::{query_of, url_path};

pub mod messages;

pub struct ZapSitesTree;

/// The root node: `- node: Sites` at the start of a line.
pub const DETECT_REGEX: &str = r#"(?m)^-[ \t]+["']?node["']?[ \t]*:[ \t]*["']?Sites["']?[ \t]*$"#;

/// Deepest node nesting followed.
const MAX_DEPTH: usize = 128;

impl Analyzer for ZapSitesTree {
    fn tech(&self) -> Tech {
        Tech::new("zap_sites_tree", "Specification", "OWASP ZAP sites tree")
            .specification()
            .aliases(["zap"])
            .files(["*.yaml", "*.yml", "*.txt"])
            .detect(Detect::files(["*.yaml", "*.yml"]).regex([DETECT_REGEX]))
            .detect(Detect::files(["*.txt"]).regex([messages::DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if file.path.ends_with(".txt") {
            return messages::analyze(file, out);
        }
        if !file.content.contains("Sites") {
            return;
        }
        let claims = declares_sites_root(&file.content);
        if !claims {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let Some(roots) = doc.as_array() else {
            return host::warn(&format!(
                "{}: not a ZAP sites tree (no list of nodes)",
                file.path
            ));
        };
        let source = SourceMap::new(&file.content);
        let mut walker = Walker {
            file,
            source,
            found: Vec::new(),
        };
        let mut path = Vec::new();
        walker.nodes(roots, &mut path);
        for e in walker.found {
            out.endpoint(e);
        }
    }
}

/// The text pre-check matching [`DETECT_REGEX`]: a line `- node: Sites`.
fn declares_sites_root(text: &str) -> bool {
    text.lines().any(|line| {
        let Some(rest) = line.strip_prefix('-') else {
            return false;
        };
        if !rest.starts_with([' ', '\t']) {
            return false;
        }
        let rest = rest.trim_start();
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let Some(rest) = rest.strip_prefix("node") else {
            return false;
        };
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let Some(value) = rest.trim_start().strip_prefix(':') else {
            return false;
        };
        value.trim().trim_matches(['"', '\'']) == "Sites"
    })
}

struct Walker<'a> {
    file: &'a SourceFile,
    source: SourceMap,
    found: Vec<Endpoint>,
}

/// A step of the lookup path: `children` then an index, below the root
/// list's index.
#[derive(Clone, Copy)]
enum Step {
    Children,
    Index(usize),
}

impl Walker<'_> {
    fn nodes(&mut self, list: &[Value], path: &mut Vec<Step>) {
        if path.len() > MAX_DEPTH * 2 {
            return;
        }
        for (i, node) in list.iter().enumerate() {
            path.push(Step::Index(i));
            if let Some(endpoint) = self.node(node, path) {
                self.found.push(endpoint);
            }
            if let Some(children) = node.get("children").and_then(Value::as_array) {
                path.push(Step::Children);
                self.nodes(children, path);
                path.pop();
            }
            path.pop();
        }
    }

    fn node(&self, node: &Value, path: &[Step]) -> Option<Endpoint> {
        let url = node.get("url").and_then(Value::as_str)?;
        let method = node.get("method").and_then(Value::as_str)?;
        let url_path = url_path(url);
        if url_path.is_empty() {
            return None;
        }
        let key: Vec<Seg<'_>> = path
            .iter()
            .map(|s| match s {
                Step::Children => Seg::Key("children"),
                Step::Index(i) => Seg::Index(*i),
            })
            .collect();
        let line = self
            .source
            .line(&key)
            .unwrap_or_else(|| self.source.nearest_line(&key));
        let mut e = Endpoint::new(method.to_ascii_uppercase(), url_path).at(self.file, line);
        let name = node.get("node").and_then(Value::as_str).unwrap_or("");
        let groups = paren_groups(name);
        let query = query_of(url);
        if !query.is_empty() {
            for p in query_params(query) {
                e.push_param(p);
            }
        } else if let Some(names) = groups.first() {
            for n in names {
                e.push_param(Param::query(n.clone()));
            }
        }
        let data = node.get("data").and_then(scalar_string).unwrap_or_default();
        let data = data.trim();
        if data.starts_with('{') {
            for p in json_params(data) {
                e.push_param(p);
            }
        } else if !data.is_empty() {
            for p in form_params(data) {
                e.push_param(p);
            }
        } else if let Some(names) = groups.get(1) {
            for n in names {
                e.push_param(Param::form(n.clone()));
            }
        }
        Some(e)
    }
}

/// The comma-separated names of each `(…)` group after the method and
/// path of a node name: `POST:login()(password,username)` →
/// `[[], [password, username]]`.
fn paren_groups(name: &str) -> Vec<Vec<String>> {
    let Some(open) = name.find('(') else {
        return Vec::new();
    };
    let mut groups = Vec::new();
    let mut rest = &name[open..];
    while let Some(inner) = rest.strip_prefix('(') {
        let Some(close) = inner.find(')') else {
            break;
        };
        groups.push(
            inner[..close]
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect(),
        );
        rest = &inner[close + 1..];
    }
    groups
}

#[cfg(test)]
mod tests;
