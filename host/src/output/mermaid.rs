//! `mermaid`: a Mermaid `mindmap` of the URL tree.
//!
//! ```text
//! mindmap
//!   root((API))
//!     users
//!       param_id
//!         POST
//!           headers
//!             X_API_Key
//! ```
//!
//! The tree is built from URL paths (origin and query removed), children
//! sorted, two spaces per level. At a node come its methods (in report
//! order; `GET websocket` for WebSocket endpoints), each followed by the
//! groups `headers`, `cookies`, `query`, `body` (json, form and file) and
//! `path`, each with its sorted names (Noir's later, clearer grouping; v0.28
//! lumped query and path names into `body`). Names are sanitised for
//! Mermaid: characters other than `[A-Za-z0-9_]` become `_`, a leading digit
//! gets `path_`, a `{x}` placeholder (any syntax) becomes `param_x`.

use std::collections::BTreeMap;

use crate::model::{Endpoint, ParamType, Report};

#[derive(Default)]
struct Node<'a> {
    endpoints: Vec<&'a Endpoint>,
    children: BTreeMap<String, Node<'a>>,
}

pub fn render(report: &Report) -> String {
    let mut root = Node::default();
    for e in &report.endpoints {
        let path = super::spec::api_path(&e.url, None);
        let mut node = &mut root;
        for seg in path.split('/').filter(|s| !s.is_empty()) {
            node = node.children.entry(segment_name(seg)).or_default();
        }
        node.endpoints.push(e);
    }
    let mut out = String::from("mindmap\n  root((API))\n");
    write_node(&root, 2, &mut out);
    out
}

fn write_node(node: &Node, level: usize, out: &mut String) {
    let pad = |l: usize| "  ".repeat(l);
    for e in &node.endpoints {
        let label = if e.is_websocket() {
            format!("{} websocket", e.method)
        } else {
            e.method.clone()
        };
        out.push_str(&format!(
            "{}{}\n",
            pad(level),
            crate::escape::visible(&label)
        ));
        let groups: [(&str, &[ParamType]); 8] = [
            ("headers", &[ParamType::Header]),
            ("cookies", &[ParamType::Cookie]),
            ("query", &[ParamType::Query]),
            ("body", &[ParamType::Json, ParamType::Form, ParamType::File]),
            ("path", &[ParamType::Path]),
            ("flags", &[ParamType::Flag]),
            ("arguments", &[ParamType::Argument]),
            ("env", &[ParamType::Env]),
        ];
        for (group, types) in groups {
            let mut names: Vec<String> = e
                .params
                .iter()
                .filter(|p| types.contains(&p.param_type))
                .map(|p| sanitize(&p.name))
                .collect();
            names.sort();
            names.dedup();
            if names.is_empty() {
                continue;
            }
            out.push_str(&format!("{}{group}\n", pad(level + 1)));
            for n in names {
                out.push_str(&format!("{}{n}\n", pad(level + 2)));
            }
        }
    }
    for (name, child) in &node.children {
        out.push_str(&format!("{}{name}\n", pad(level)));
        write_node(child, level + 1, out);
    }
}

fn segment_name(seg: &str) -> String {
    match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
        Some(name) if !name.contains(['{', '}']) => format!("param_{}", sanitize_raw(name)),
        _ => sanitize(seg),
    }
}

fn sanitize_raw(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn sanitize(s: &str) -> String {
    let clean = sanitize_raw(s);
    if clean.starts_with(|c: char| c.is_ascii_digit()) || clean.is_empty() {
        format!("path_{clean}")
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::{example, report};

    #[test]
    fn output_md_example_with_groups() {
        let mut e = Endpoint::new("GET", "/users/<int:id>/v2.0");
        e.protocol = "ws".into();
        let r = report(vec![example(), e, Endpoint::new("GET", "/")]);
        assert_eq!(
            render(&r),
            "mindmap\n  root((API))\n    GET\n    users\n      param_id\n        POST\n          headers\n            X_API_Key\n          cookies\n            session\n          query\n            page\n          body\n            name\n          path\n            id\n        v2_0\n          GET websocket\n"
        );
    }
}
