//! Kubernetes manifests: the objects of one kind in a YAML stream
//! (multi-document files, `kind: List` wrappers, Helm templates tolerated).

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use super::yaml::{self, Doc, Tags};
use portolan_plugin_sdk::doc::locate::Seg;

/// Does the text declare an object of this kind (`kind: Ingress` on a line
/// of its own, at any indentation)? A cheap check before parsing, so other
/// YAML files are neither parsed nor warned about.
pub fn declares_kind(text: &str, kind: &str) -> bool {
    text.lines().any(|line| {
        line.trim_start_matches([' ', '\t', '-'])
            .strip_prefix("kind:")
            .map(|v| {
                v.split('#')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['"', '\''])
            })
            == Some(kind)
    })
}

/// The detection regex for a kind.
pub fn kind_regex(kind: &str) -> String {
    format!(r#"(?m)^[ \t-]*kind:[ \t]*["']?{kind}["']?[ \t]*(?:#.*)?$"#)
}

/// One object of the wanted kind: its document and where it sits in it
/// (empty, or `items`, n for a `List`).
pub struct Object<'d> {
    pub doc: &'d Doc,
    pub value: &'d Value,
    prefix: Vec<Seg<'static>>,
}

impl Object<'_> {
    /// Line of the key at `path` below the object.
    pub fn line(&self, path: &[Seg<'_>]) -> u32 {
        let mut full: Vec<Seg<'_>> = self.prefix.clone();
        full.extend_from_slice(path);
        self.doc.line(&full)
    }
}

/// Parse the file and call `each` for every object of `kind` whose
/// `apiVersion` starts with one of `groups`. Documents that do not parse are
/// reported with a warning naming the file (a debug line for Helm templates,
/// which are not YAML until rendered).
pub fn objects(file: &SourceFile, kind: &str, groups: &[&str], mut each: impl FnMut(&Object<'_>)) {
    if is_test_document(&file.path) || !declares_kind(&file.content, kind) {
        return;
    }
    let template = yaml::is_template(&file.content);
    for doc in yaml::parse_stream(&file.content, Tags::Drop) {
        let doc = match doc {
            Ok(doc) => doc,
            Err(e) => {
                let msg = format!("{}: document at line {}: {}", file.path, e.line, e.message);
                if template {
                    host::debug(&format!("{msg} (Helm template)"));
                } else {
                    host::warn(&msg);
                }
                continue;
            }
        };
        let wanted = |v: &Value| {
            v.get("kind").and_then(Value::as_str) == Some(kind)
                && v.get("apiVersion")
                    .and_then(Value::as_str)
                    .is_some_and(|a| groups.iter().any(|g| a.starts_with(g)))
        };
        if wanted(&doc.value) {
            each(&Object {
                doc: &doc,
                value: &doc.value,
                prefix: Vec::new(),
            });
        } else if doc.value.get("kind").and_then(Value::as_str) == Some("List") {
            if let Some(items) = doc.value.get("items").and_then(Value::as_array) {
                for (n, item) in items.iter().enumerate() {
                    if wanted(item) {
                        let prefix = vec![Seg::Key("items"), Seg::Index(n)];
                        each(&Object {
                            doc: &doc,
                            value: item,
                            prefix,
                        });
                    }
                }
            }
        }
    }
}

/// A path from a manifest, `None` when a template fills it in.
pub fn literal_path(value: Option<&Value>) -> Option<String> {
    let path = match value {
        None | Some(Value::Null) => "/".to_string(),
        Some(v) => yaml::str_of(v)?,
    };
    (!path.contains(yaml::TEMPLATE)).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert!(declares_kind("a: 1\nkind: Ingress # x\n", "Ingress"));
        assert!(declares_kind("items:\n- kind: \"Ingress\"\n", "Ingress"));
        assert!(!declares_kind("kind: IngressClass\n", "Ingress"));
        assert!(!declares_kind("# kind: Ingress\n", "Ingress"));
    }
}
