//! RAML 1.0 and 0.8 API definitions (`*.raml` starting `#%RAML 1.0` or
//! `#%RAML 0.8`; fragments such as `#%RAML 1.0 Library` are not APIs).
//!
//! - URL: the path of `baseUri` (`{version}` filled from `version`, other
//!   `{params}` kept as placeholders) joined with the nested resource keys
//!   (`/users:` → `/{id}:` is `/users/{id}`).
//! - One endpoint per method key (`get:` … `trace:`, `patch:`), plus the
//!   non-optional methods of the resource's `type` (a `resourceTypes`
//!   entry) that the resource does not spell out itself.
//! - Params, in order: `uriParameters` (path; the resource's and its
//!   parents'), `queryParameters` and `queryString` properties (query),
//!   `headers` (header), then the body: `properties` of JSON media types
//!   (json), of `application/x-www-form-urlencoded` (form), of
//!   `multipart/form-data` (form, or file for `type: file`), and 0.8
//!   `formParameters`. A body `type` naming a declared type (`types:`, 0.8
//!   `schemas:`) contributes that type's properties, its parent types'
//!   first; a JSON Schema string contributes its top-level `properties`.
//!   Optional markers (`name?:`) are dropped. Traits (`is: [paged]`, on the
//!   resource, the method or the resource type) add their params too.
//!   Parameters templated with `<<…>>` are skipped.
//! - Location: the method key, or the resource's `type:` key for methods
//!   that come from a resource type.
//!
//! `!include` files are not read (the included value is taken as a plain
//! string), and resource-type / trait parameters are not substituted.

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::url::{expand_template, url_path};

pub struct Raml;

const METHODS: [&str; 9] = [
    "get", "post", "put", "delete", "patch", "options", "head", "trace", "connect",
];

impl Analyzer for Raml {
    fn tech(&self) -> Tech {
        Tech::new("raml", "Specification", "RAML")
            .specification()
            .aliases(["raml1", "raml08"])
            .files(["*.raml"])
            .detect(Detect::files(["*.raml"]).contains(["#%RAML"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !is_api_document(&file.content) || is_test_document(&file.path) {
            return;
        }
        let doc = match load::parse_yaml(file.content.trim_start_matches('\u{feff}')) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let Some(root) = doc.as_object() else {
            return host::warn(&format!("{}: the document is not a mapping", file.path));
        };
        let ctx = Ctx {
            file,
            root,
            source: SourceMap::new(&file.content),
        };
        let base = ctx.base_path();
        let mut keys = Vec::new();
        ctx.resources(root, &base, &mut keys, &[], out);
    }
}

/// `#%RAML 1.0` or `#%RAML 0.8` alone on the first line.
fn is_api_document(text: &str) -> bool {
    let first = text
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or("");
    let mut words = first.split_whitespace();
    words.next() == Some("#%RAML")
        && matches!(words.next(), Some("1.0" | "0.8"))
        && words.next().is_none()
}

struct Ctx<'a> {
    file: &'a SourceFile,
    root: &'a Map<String, Value>,
    source: SourceMap,
}

/// A mapping key without RAML's optional marker (`name?`).
fn plain(name: &str) -> &str {
    name.strip_suffix('?').unwrap_or(name)
}

fn usable(name: &str) -> bool {
    !name.is_empty() && !name.contains("<<") && !name.starts_with('/')
}

impl<'a> Ctx<'a> {
    fn base_path(&self) -> String {
        let Some(uri) = self.root.get("baseUri").and_then(Value::as_str) else {
            return String::new();
        };
        let expanded = expand_template(uri, |name| {
            if name == "version" {
                if let Some(v) = self.root.get("version").and_then(scalar_string) {
                    return Some(v);
                }
            }
            Some(format!("{{{name}}}"))
        });
        url_path(&expanded)
    }

    /// Every `/resource` key of `node`, recursively.
    fn resources(
        &self,
        node: &'a Map<String, Value>,
        url: &str,
        keys: &mut Vec<String>,
        uri_params: &[String],
        out: &mut Output,
    ) {
        for (key, resource) in node {
            if !key.starts_with('/') {
                continue;
            }
            let url = format!("{}{}", url.trim_end_matches('/'), key);
            keys.push(key.clone());
            let empty = Map::new();
            let resource_map = resource.as_object().unwrap_or(&empty);
            let mut path_params = uri_params.to_vec();
            path_params.extend(names(resource_map.get("uriParameters")));
            self.methods(resource_map, &url, keys, &path_params, out);
            self.resources(resource_map, &url, keys, &path_params, out);
            keys.pop();
        }
    }

    fn methods(
        &self,
        resource: &'a Map<String, Value>,
        url: &str,
        keys: &[String],
        path_params: &[String],
        out: &mut Output,
    ) {
        let resource_traits = trait_names(resource.get("is"));
        let resource_type = self.resource_type(resource.get("type"));
        let mut seen = Vec::new();
        for (key, method) in resource {
            let lower = key.to_ascii_lowercase();
            if !METHODS.contains(&lower.as_str()) {
                continue;
            }
            seen.push(lower.clone());
            let mut parts: Vec<&Value> = vec![method];
            // The resource type's declaration of the method, optional or not.
            if let Some(rt) = resource_type {
                for (k, v) in rt {
                    if plain(k).eq_ignore_ascii_case(&lower) {
                        parts.push(v);
                    }
                }
            }
            let path: Vec<Seg<'_>> = keys
                .iter()
                .map(|k| Seg::Key(k))
                .chain([Seg::Key(key)])
                .collect();
            let line = self.line(&path);
            out.endpoint(self.endpoint(&lower, url, path_params, &parts, &resource_traits, line));
        }
        // Methods only the resource type declares.
        let Some(rt) = resource_type else {
            return;
        };
        for (key, method) in rt {
            let lower = key.to_ascii_lowercase();
            if key.ends_with('?') || !METHODS.contains(&lower.as_str()) || seen.contains(&lower) {
                continue;
            }
            let path: Vec<Seg<'_>> = keys
                .iter()
                .map(|k| Seg::Key(k))
                .chain([Seg::Key("type")])
                .collect();
            let line = self.line(&path);
            out.endpoint(self.endpoint(
                &lower,
                url,
                path_params,
                &[method],
                &resource_traits,
                line,
            ));
        }
    }

    fn line(&self, path: &[Seg<'_>]) -> u32 {
        self.source
            .line(path)
            .unwrap_or_else(|| self.source.nearest_line(path))
    }

    fn endpoint(
        &self,
        method: &str,
        url: &str,
        path_params: &[String],
        parts: &[&'a Value],
        resource_traits: &[String],
        line: u32,
    ) -> Endpoint {
        let mut endpoint = Endpoint::new(method, url);
        for name in path_params {
            endpoint.push_param(Param::path(name.as_str()));
        }
        let mut sources: Vec<&Value> = parts.to_vec();
        let mut traits: Vec<String> = resource_traits.to_vec();
        for part in parts {
            traits.extend(trait_names(part.get("is")));
        }
        for name in &traits {
            if let Some(t) = self.named("traits", name) {
                sources.push(t);
            }
        }
        for source in &sources {
            for name in names(source.get("queryParameters")) {
                endpoint.push_param(Param::query(name));
            }
            if let Some(qs) = source.get("queryString") {
                for name in self.type_fields(qs, 0) {
                    endpoint.push_param(Param::query(name));
                }
            }
            for name in names(source.get("headers")) {
                endpoint.push_param(Param::header(name));
            }
        }
        for source in &sources {
            if let Some(body) = source.get("body") {
                for param in self.body_params(body) {
                    endpoint.push_param(param);
                }
            }
        }
        endpoint.at(self.file, line)
    }

    /// The resource type a resource's `type:` names (`collection`, or
    /// `{collection: {…params}}`).
    fn resource_type(&self, reference: Option<&Value>) -> Option<&'a Map<String, Value>> {
        let name = match reference? {
            Value::String(s) => s.as_str(),
            Value::Object(m) => m.keys().next()?.as_str(),
            _ => return None,
        };
        self.named("resourceTypes", name)?.as_object()
    }

    /// An entry of a declarations section: a mapping (1.0) or a list of
    /// one-key mappings (0.8).
    fn named(&self, section: &str, name: &str) -> Option<&'a Value> {
        match self.root.get(section)? {
            Value::Object(m) => m.get(name),
            Value::Array(list) => list.iter().find_map(|item| item.get(name)),
            _ => None,
        }
    }

    fn body_params(&self, body: &'a Value) -> Vec<Param> {
        let Some(map) = body.as_object() else {
            return Vec::new();
        };
        let by_media: Vec<(&str, &Value)> = if map.keys().any(|k| k.contains('/')) {
            map.iter()
                .filter(|(k, _)| k.contains('/'))
                .map(|(k, v)| (k.as_str(), v))
                .collect()
        } else {
            // A body without media types: the default (JSON).
            vec![("application/json", body)]
        };
        let mut out = Vec::new();
        for (media, decl) in by_media {
            let media = media.to_ascii_lowercase();
            let kind = if media.contains("json") {
                ParamKind::Json
            } else if media == "application/x-www-form-urlencoded" || media == "multipart/form-data"
            {
                ParamKind::Form
            } else {
                continue;
            };
            let multipart = media == "multipart/form-data";
            for (name, is_file) in self.declared_fields(decl, 0) {
                let kind = if multipart && is_file {
                    ParamKind::File
                } else {
                    kind
                };
                out.push(Param::new(kind, name));
            }
            if let Some(form) = decl.get("formParameters") {
                for (name, p) in entries(Some(form)) {
                    let is_file = p.get("type").and_then(Value::as_str) == Some("file");
                    let kind = if multipart && is_file {
                        ParamKind::File
                    } else {
                        ParamKind::Form
                    };
                    out.push(Param::new(kind, name));
                }
            }
        }
        out
    }

    fn type_fields(&self, decl: &'a Value, depth: usize) -> Vec<String> {
        self.declared_fields(decl, depth)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    /// (property name, is a file) of a type declaration: its parent type's
    /// first, then its own `properties`; a JSON Schema string's top-level
    /// `properties`.
    fn declared_fields(&self, decl: &'a Value, depth: usize) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        if depth > 16 {
            return out;
        }
        match decl {
            Value::String(s) => {
                let s = s.trim();
                if s.starts_with('{') {
                    if let Ok(Value::Object(schema)) = serde_json::from_str::<Value>(s) {
                        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                            out.extend(props.keys().map(|k| (k.clone(), false)));
                        }
                    }
                } else if let Some(t) = self.named("types", s).or_else(|| self.named("schemas", s))
                {
                    out.extend(self.declared_fields(t, depth + 1));
                }
            }
            Value::Object(map) => {
                for key in ["type", "schema"] {
                    if let Some(parent) = map.get(key) {
                        out.extend(self.declared_fields(parent, depth + 1));
                    }
                }
                for (name, prop) in entries(map.get("properties")) {
                    let is_file = match prop {
                        Value::String(t) => t == "file",
                        _ => prop.get("type").and_then(Value::as_str) == Some("file"),
                    };
                    out.retain(|(n, _)| *n != name);
                    out.push((name, is_file));
                }
            }
            _ => {}
        }
        out
    }
}

/// The usable keys of a parameters mapping, optional markers dropped.
fn names(section: Option<&Value>) -> Vec<String> {
    entries(section).into_iter().map(|(n, _)| n).collect()
}

fn entries(section: Option<&Value>) -> Vec<(String, &Value)> {
    let Some(map) = section.and_then(Value::as_object) else {
        return Vec::new();
    };
    map.iter()
        .filter(|(k, _)| usable(k))
        .map(|(k, v)| (plain(k).to_string(), v))
        .collect()
}

/// `is: [a, {b: {…}}]` or `is: a` → `[a, b]`.
fn trait_names(is: Option<&Value>) -> Vec<String> {
    let items: Vec<&Value> = match is {
        Some(Value::Array(list)) => list.iter().collect(),
        Some(other) => vec![other],
        None => Vec::new(),
    };
    items
        .into_iter()
        .filter_map(|item| match item {
            Value::String(s) => Some(s.clone()),
            Value::Object(m) => m.keys().next().cloned(),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_documents_only() {
        assert!(is_api_document("#%RAML 1.0\ntitle: x\n"));
        assert!(is_api_document("\u{feff}#%RAML 0.8 \n"));
        assert!(!is_api_document("#%RAML 1.0 Library\n"));
        assert!(!is_api_document("title: x\n#%RAML 1.0\n"));
    }

    #[test]
    fn traits_and_markers() {
        assert_eq!(
            trait_names(Some(&serde_json::json!(["a", {"b": {"x": 1}}]))),
            ["a", "b"]
        );
        assert_eq!(trait_names(Some(&serde_json::json!("a"))), ["a"]);
        let params = serde_json::json!({"q?": {}, "<<p>>": {}, "/^x-/": {}, "page": null});
        assert_eq!(names(Some(&params)), ["q", "page"]);
    }
}
