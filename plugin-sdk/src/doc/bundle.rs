//! `$ref`s to other files (`./schemas/user.yaml#/User`, `common.json`).
//!
//! [`bundle`] loads every document reachable through relative file
//! references (read with the caller's `read`, usually
//! [`crate::host::read_file`], and resolved by [`super::files::relative_to`])
//! and grafts them into the main document under [`KEY`], rewriting every
//! reference into a local one (`#/x-portolan-external/0/User`). The rest of
//! the analysis — [`super::refs::Resolver`], schema walking — then only ever
//! sees local references, and references inside a loaded document (local
//! ones, or to yet another file, or back to the main document) keep their
//! meaning. URLs (`https://…`) are not fetched.

use serde_json::Value;

use super::files::relative_to;
use super::load;
use super::url::percent_decode;

/// Where loaded documents are grafted, in load order.
pub const KEY: &str = "x-portolan-external";

/// Most documents loaded for one main document.
pub const MAX_DOCUMENTS: usize = 64;

/// A document loaded by [`bundle`]: its display path and text (to locate
/// keys in it), grafted at `#/x-portolan-external/<index>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub path: String,
    pub text: String,
}

/// The main document with the others grafted in, and their sources
/// (`sources[i]` is at `#/x-portolan-external/i`; an empty text for one
/// that could not be loaded).
#[derive(Debug)]
pub struct Bundle {
    pub root: Value,
    pub sources: Vec<Source>,
}

impl Bundle {
    /// The loaded document a local pointer leads into, and the pointer's
    /// tokens within it: `#/x-portolan-external/1/a/b~1c` → (source 1,
    /// `["a", "b/c"]`). `None` for pointers into the main document.
    pub fn source_of(&self, pointer: &str) -> Option<(&Source, Vec<String>)> {
        let rest = pointer
            .strip_prefix("#/")?
            .strip_prefix(KEY)?
            .strip_prefix('/')?;
        let mut tokens = rest.split('/');
        let index: usize = tokens.next()?.parse().ok()?;
        let source = self.sources.get(index)?;
        let tokens = tokens
            .map(|t| percent_decode(t).replace("~1", "/").replace("~0", "~"))
            .collect();
        Some((source, tokens))
    }
}

struct Doc {
    path: String,
    text: String,
    /// `None` while its references are being rewritten, or when it could
    /// not be loaded.
    value: Option<Value>,
}

/// Does a `$ref` anywhere in `value` name another file?
pub fn has_external_refs(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get("$ref")
                .and_then(Value::as_str)
                .is_some_and(|r| !r.starts_with('#'))
                || map.values().any(has_external_refs)
        }
        Value::Array(items) => items.iter().any(has_external_refs),
        _ => false,
    }
}

/// Load the documents `doc` (read from display path `path`) references and
/// make every reference local. `read` reads a display path; `warn` gets one
/// message per reference that cannot be followed, naming the file that
/// holds it (`app/openapi.yaml: $ref `x.yaml#/A`: …`).
pub fn bundle(
    path: &str,
    doc: Value,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
    warn: &mut dyn FnMut(String),
) -> Bundle {
    if !has_external_refs(&doc) {
        return Bundle {
            root: doc,
            sources: Vec::new(),
        };
    }
    let mut docs = vec![Doc {
        path: path.to_string(),
        text: String::new(),
        value: Some(doc),
    }];
    let mut i = 0;
    while i < docs.len() {
        let Some(mut value) = docs[i].value.take() else {
            i += 1;
            continue;
        };
        let from = docs[i].path.clone();
        let mut follow = |reference: &str| -> Option<String> {
            let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
            let target = if file.is_empty() {
                i
            } else if file.contains("://") {
                return None;
            } else {
                let Some(target_path) = relative_to(&from, &percent_decode(file)) else {
                    warn(format!(
                        "{from}: $ref `{reference}`: outside the scanned tree"
                    ));
                    return None;
                };
                match docs.iter().position(|d| d.path == target_path) {
                    Some(j) => j,
                    None if docs.len() >= MAX_DOCUMENTS => {
                        warn(format!(
                            "{from}: $ref `{reference}`: more than {MAX_DOCUMENTS} documents"
                        ));
                        return None;
                    }
                    None => {
                        let loaded = read(&target_path).and_then(|text| {
                            load::parse(&target_path, &text).map(|value| (text, value))
                        });
                        let (text, value) = match loaded {
                            Ok((text, value)) => (text, Some(value)),
                            Err(e) => {
                                warn(format!("{from}: $ref `{reference}`: {target_path}: {e}"));
                                (String::new(), None)
                            }
                        };
                        let failed = value.is_none();
                        docs.push(Doc {
                            path: target_path,
                            text,
                            value,
                        });
                        if failed {
                            return None;
                        }
                        docs.len() - 1
                    }
                }
            };
            if !(fragment.is_empty() || fragment.starts_with('/')) {
                return None;
            }
            Some(if target == 0 {
                format!("#{fragment}")
            } else {
                format!("#/{KEY}/{}{fragment}", target - 1)
            })
        };
        rewrite(&mut value, &mut follow);
        docs[i].value = Some(value);
        i += 1;
    }
    let mut docs = docs.into_iter();
    let mut root = docs.next().and_then(|d| d.value).unwrap_or(Value::Null);
    let mut externals = Vec::new();
    let mut sources = Vec::new();
    for doc in docs {
        externals.push(doc.value.unwrap_or(Value::Null));
        sources.push(Source {
            path: doc.path,
            text: doc.text,
        });
    }
    if let (Value::Object(map), false) = (&mut root, externals.is_empty()) {
        map.insert(KEY.to_string(), Value::Array(externals));
    }
    Bundle { root, sources }
}

fn rewrite(value: &mut Value, follow: &mut dyn FnMut(&str) -> Option<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                if let Some(local) = follow(reference) {
                    map.insert("$ref".to_string(), Value::String(local));
                }
            }
            for (key, child) in map.iter_mut() {
                if key != "$ref" {
                    rewrite(child, follow);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite(item, follow);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::refs::Resolver;
    use serde_json::json;

    fn files(path: &str) -> Result<String, String> {
        match path {
            "app/schemas/user.yaml" => Ok("User:\n  properties:\n    name: {}\n    address: {$ref: '#/Address'}\n  allOf: [{$ref: 'common.yaml#/Base'}]\nAddress: {properties: {city: {}}}\n".into()),
            "app/schemas/common.yaml" => Ok("Base: {properties: {id: {}, owner: {$ref: '../api.yaml#/components/schemas/Owner'}}}\n".into()),
            "app/schemas/broken.yaml" => Ok("a: [1\n".into()),
            "app/whole.json" => Ok("{\"properties\": {\"w\": {}}}".into()),
            _ => Err("no such file".into()),
        }
    }

    #[test]
    fn external_documents_become_local() {
        let doc = json!({
            "components": {"schemas": {"Owner": {"properties": {"o": {}}}}},
            "a": {"$ref": "schemas/user.yaml#/User"},
            "b": {"$ref": "./whole.json"},
            "c": {"$ref": "schemas/missing.yaml#/X"},
            "d": {"$ref": "schemas/broken.yaml#/a"},
            "e": {"$ref": "../../up.yaml"},
            "f": {"$ref": "https://example.com/x.yaml#/A"},
            "g": {"$ref": "#/components/schemas/Owner"}
        });
        let mut warnings = Vec::new();
        let bundled = bundle("app/api.yaml", doc, &mut files, &mut |w| warnings.push(w));
        let (source, tokens) = bundled
            .source_of("#/x-portolan-external/4/Base/a~1b")
            .expect("a loaded source");
        assert_eq!(source.path, "app/schemas/common.yaml");
        assert!(source.text.starts_with("Base:"));
        assert_eq!(tokens, ["Base", "a/b"]);
        assert_eq!(bundled.sources[2].text, "");
        assert!(bundled.source_of("#/components/x").is_none());
        let root = bundled.root;
        assert_eq!(root["a"]["$ref"], "#/x-portolan-external/0/User");
        assert_eq!(root["b"]["$ref"], "#/x-portolan-external/1");
        assert_eq!(root["c"]["$ref"], "schemas/missing.yaml#/X");
        assert_eq!(root["f"]["$ref"], "https://example.com/x.yaml#/A");
        assert_eq!(root["g"]["$ref"], "#/components/schemas/Owner");
        let user = &root[KEY][0]["User"];
        assert_eq!(
            user["properties"]["address"]["$ref"],
            "#/x-portolan-external/0/Address"
        );
        assert_eq!(user["allOf"][0]["$ref"], "#/x-portolan-external/4/Base");
        assert_eq!(
            root[KEY][4]["Base"]["properties"]["owner"]["$ref"],
            "#/components/schemas/Owner"
        );
        let r = Resolver::new(&root);
        let names: Vec<String> = crate::doc::schema::object_fields(&r, &root["a"])
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["name", "address", "id", "owner"]);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].starts_with(
            "app/api.yaml: $ref `schemas/missing.yaml#/X`: app/schemas/missing.yaml: no such file"
        ));
        assert!(warnings[1].starts_with(
            "app/api.yaml: $ref `schemas/broken.yaml#/a`: app/schemas/broken.yaml: invalid YAML"
        ));
        assert_eq!(
            warnings[2],
            "app/api.yaml: $ref `../../up.yaml`: outside the scanned tree"
        );
    }

    #[test]
    fn local_only_documents_are_untouched() {
        let doc = json!({"a": {"$ref": "#/b"}, "b": 1});
        let mut read = |_: &str| -> Result<String, String> { panic!("no read expected") };
        let bundled = bundle("x.yaml", doc.clone(), &mut read, &mut |_| {});
        assert_eq!(bundled.root, doc);
        assert!(bundled.sources.is_empty());
    }
}
