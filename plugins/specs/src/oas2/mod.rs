//! Swagger 2.0 (JSON and YAML): one endpoint per operation.
//!
//! - URL: `basePath` joined with the `paths` key as written. `host` and
//!   `schemes` are dropped, like the server URL's scheme and host in
//!   OpenAPI 3 (the report lists paths; `-u` adds a base URL).
//! - Params: path-level then operation-level `parameters` (the operation's
//!   replace the path's with the same `name` and `in`), `$ref`s to
//!   `#/parameters/…` and to other files followed. `query`, `header`,
//!   `path` as such; `formData` → `form` (`type: file` → `file`); `in: body`
//!   → the top-level properties of its schema (`$ref` to `definitions`,
//!   `allOf`), `json` when the operation consumes JSON (or declares nothing,
//!   the common case), `form` when it consumes only forms; a body consumed
//!   only as XML or text has no named fields. Values: `x-example`,
//!   `example`, then `default` (schema examples for body fields).
//! - `consumes`: the operation's, else the document's.
//! - Location: the operation's method key (in the referenced file for a
//!   path item that is a `$ref` to another file), else the path key.

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use crate::oas3::{follow_external_refs, join_url, operation_location, path_item};
use portolan_plugin_sdk::doc::bundle::Bundle;
use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::SourceMap;
use portolan_plugin_sdk::doc::refs::Resolver;
use portolan_plugin_sdk::doc::schema::{self, BodyKind};
use portolan_plugin_sdk::doc::url::url_path;

pub struct Oas2;

/// Operation keys of a path item, as in the specification.
const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

/// Top-level `swagger: "2.0"` in YAML, or `"swagger": "2.0"` after `{` or
/// `,` (JSON, flow YAML). The parsed document decides.
pub const DETECT_REGEX: &str =
    r#"(?m)(?:^\x{FEFF}?["']?swagger["']?[ \t]*:|[{,]\s*["']?swagger["']?\s*:)\s*["']?2\.\d"#;

impl Analyzer for Oas2 {
    fn tech(&self) -> Tech {
        Tech::new("oas2", "Specification", "Swagger 2.0")
            .specification()
            .aliases(["swagger", "openapi2", "swagger2"])
            .files(["*.json", "*.yaml", "*.yml"])
            .detect(Detect::files(["*.json", "*.yaml", "*.yml"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !declares_swagger_2(&file.content) {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        if !is_swagger_2(&doc) {
            return;
        }
        let bundled = follow_external_refs(file, doc);
        for endpoint in endpoints(file, &bundled) {
            out.endpoint(endpoint);
        }
    }
}

/// A `swagger` key with a `2.` value at the start of a line or after `{` /
/// `,` (the same shape as [`DETECT_REGEX`]).
pub fn declares_swagger_2(text: &str) -> bool {
    text.match_indices("swagger").any(|(at, _)| {
        let bytes = text.as_bytes();
        let mut start = at;
        if start > 0 && matches!(bytes[start - 1], b'"' | b'\'') {
            start -= 1;
        }
        let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
        let before = text[line_start..start].trim_start_matches('\u{feff}');
        if !(before.is_empty() || text[..start].trim_end().ends_with(['{', ','])) {
            return false;
        }
        let rest = &text[at + "swagger".len()..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let Some(value) = rest.trim_start_matches([' ', '\t']).strip_prefix(':') else {
            return false;
        };
        let value = value.trim_start();
        let value = value.strip_prefix(['"', '\'']).unwrap_or(value);
        value.starts_with("2.")
    })
}

/// Is the top-level `swagger` a 2.x version (a string such as `2.0`, or a
/// number when left unquoted in YAML)?
pub fn is_swagger_2(doc: &Value) -> bool {
    match doc.get("swagger") {
        Some(Value::String(v)) => v.trim().strip_prefix("2.").is_some_and(|minor| {
            !minor.is_empty() && minor.chars().all(|c| c.is_ascii_digit() || c == '.')
        }),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|v| (2.0..3.0).contains(&v)),
        _ => false,
    }
}

fn endpoints(file: &SourceFile, bundled: &Bundle) -> Vec<Endpoint> {
    let doc = &bundled.root;
    let warn = |what: &str| host::warn(&format!("{}: {what}", file.path));
    let resolver = Resolver::new(doc);
    let paths = match doc.get("paths") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(paths)) => paths,
        Some(_) => {
            warn("`paths` is not a mapping");
            return Vec::new();
        }
    };
    let base = match doc.get("basePath") {
        Some(Value::String(b)) => url_path(b),
        _ => String::new(),
    };
    let doc_consumes = media_types(doc.get("consumes"));
    let source = SourceMap::with_max_depth(&file.content, 3);
    let empty = Map::new();
    let mut out = Vec::new();
    for (path, item) in paths {
        if path.starts_with("x-") {
            continue;
        }
        let written = item;
        let resolved = match path_item(&resolver, item) {
            Ok(Some(item)) => item,
            // `/draft:` with nothing under it yet.
            Ok(None) => continue,
            Err(()) => {
                warn(&format!("path `{path}` is not a mapping"));
                continue;
            }
        };
        let item: &Map<String, Value> = &resolved;
        for (method, operation) in item {
            let lower = method.to_ascii_lowercase();
            if !METHODS.contains(&lower.as_str()) {
                continue;
            }
            let operation = match operation {
                Value::Object(operation) => operation,
                Value::Null => &empty,
                _ => {
                    warn(&format!("operation `{method} {path}` is not a mapping"));
                    continue;
                }
            };
            let consumes = match operation.get("consumes") {
                Some(list) => media_types(Some(list)),
                None => doc_consumes.clone(),
            };
            let (at, line) = operation_location(file, &source, bundled, path, written, method);
            let endpoint = Endpoint::new(&lower, join_url(&base, path))
                .params(parameters(&resolver, item, operation, &consumes))
                .at_path(at, line);
            out.push(endpoint);
        }
    }
    out
}

fn media_types(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// How an `in: body` schema's fields travel, given `consumes`.
fn body_param_kind(consumes: &[String]) -> Option<ParamKind> {
    if consumes.is_empty() {
        return Some(ParamKind::Json);
    }
    let kinds: Vec<Option<BodyKind>> = consumes.iter().map(|c| schema::body_kind(c)).collect();
    if kinds.contains(&Some(BodyKind::Json)) {
        Some(ParamKind::Json)
    } else if kinds
        .iter()
        .any(|k| matches!(k, Some(BodyKind::Form | BodyKind::Multipart)))
    {
        Some(ParamKind::Form)
    } else {
        None
    }
}

/// Path-level parameters not overridden by the operation, then the
/// operation's; each `in: body` expanded into its fields.
fn parameters(
    resolver: &Resolver<'_>,
    item: &Map<String, Value>,
    operation: &Map<String, Value>,
    consumes: &[String],
) -> Vec<Param> {
    let list = |v: Option<&Value>| -> Vec<(String, String, Vec<Param>)> {
        let items = v
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        items
            .iter()
            .filter_map(|p| {
                let p = resolver.resolve(p);
                let name = p.get("name")?.as_str()?;
                let location = p.get("in")?.as_str()?;
                let params = match location {
                    "query" | "header" | "path" | "formData" => {
                        let kind = match location {
                            "query" => ParamKind::Query,
                            "header" => ParamKind::Header,
                            "path" => ParamKind::Path,
                            _ if p.get("type").and_then(Value::as_str) == Some("file") => {
                                ParamKind::File
                            }
                            _ => ParamKind::Form,
                        };
                        let value = parameter_value(p).unwrap_or_default();
                        vec![Param::new(kind, name).value(value)]
                    }
                    "body" => body_fields(resolver, p, consumes),
                    _ => return None,
                };
                Some((name.to_string(), location.to_string(), params))
            })
            .collect()
    };
    let shared = list(item.get("parameters"));
    let own = list(operation.get("parameters"));
    let overridden =
        |name: &str, location: &str| own.iter().any(|(n, l, _)| n == name && l == location);
    let mut params: Vec<Param> = shared
        .into_iter()
        .filter(|(name, location, _)| !overridden(name, location))
        .flat_map(|(_, _, params)| params)
        .collect();
    params.extend(own.into_iter().flat_map(|(_, _, params)| params));
    params
}

/// `x-example`, `example`, then `default`, whichever is a scalar.
fn parameter_value(param: &Value) -> Option<String> {
    ["x-example", "example", "default"]
        .iter()
        .find_map(|key| param.get(*key).and_then(scalar_string))
}

/// The top-level properties of a body parameter's schema.
fn body_fields(resolver: &Resolver<'_>, param: &Value, consumes: &[String]) -> Vec<Param> {
    let (Some(kind), Some(body_schema)) = (body_param_kind(consumes), param.get("schema")) else {
        return Vec::new();
    };
    let sample = resolver
        .deref(body_schema)
        .and_then(|s| s.get("example"))
        .or_else(|| param.get("x-example"));
    schema::object_fields(resolver, body_schema)
        .into_iter()
        .map(|field| {
            let value = schema::example_value(resolver, field.schema)
                .or_else(|| sample?.get(&field.name).and_then(scalar_string))
                .unwrap_or_default();
            Param::new(kind, field.name).value(value)
        })
        .collect()
}

#[cfg(test)]
mod tests;
