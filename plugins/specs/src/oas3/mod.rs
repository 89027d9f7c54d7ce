//! OpenAPI 3.x (JSON and YAML): one endpoint per operation.
//!
//! - URL: the path of the first `servers[].url` (variables expanded with
//!   their defaults; operation- and path-level `servers` win over the
//!   document's) joined with the `paths` key as written.
//! - Params: path-level then operation-level `parameters` (the operation's
//!   replace the path's with the same `name` and `in`), `$ref`s followed; the
//!   value is an example or default when it is a scalar.
//! - Body: the top-level properties of `requestBody` schemas — `json` for
//!   JSON media types, `form` for urlencoded and multipart forms, `file` for
//!   binary multipart parts.
//! - Location: the operation's method key (in the referenced file for a
//!   path item that is a `$ref` to another file), else the path key.
//! - `$ref`s to other files (`./schemas/user.yaml#/User`, a whole path item
//!   in `paths/users.yaml`) are followed through the host's `read-file`
//!   ([`portolan_plugin_sdk::doc::bundle`]); one that cannot be read is a
//!   warning naming the referring file, and the rest of the document is
//!   still analysed.
//! - OpenAPI 3.1: `type` arrays (`[string, "null"]`, `[array, "null"]`),
//!   schema `examples` lists and `const`, `$ref` with siblings (a path
//!   item's own operations win over the referenced item's), `webhooks`
//!   ignored (they are requests the API *sends*), documents without `paths`.
//! - OpenAPI 3.2: the `query` operation and `additionalOperations`
//!   (other methods by name, `COPY:`), located at their own key. The
//!   report knows the methods of `portolan_plugin_sdk::METHODS`; the host
//!   reports others as `GET` (so `COPY /doc` merges into `GET /doc`).

use std::borrow::Cow;

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use portolan_plugin_sdk::doc::bundle::{self, Bundle};
use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::refs::Resolver;
use portolan_plugin_sdk::doc::schema::{self, BodyKind};
use portolan_plugin_sdk::doc::url::{expand_template, url_path};

pub struct Oas3;

/// Operation keys of a path item, as in the specification.
const METHODS: [&str; 9] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// Top-level `openapi: 3.x` in YAML (unindented, optionally quoted key) or
/// `"openapi": "3.x"` after `{` or `,` in JSON or flow YAML (any layout).
/// A regex cannot tell nesting in JSON, so a nested `"openapi": "3.x"` key
/// matches too; `analyze` checks the parsed document. Kept in step with
/// [`declares_openapi_3`] (a test checks both on the same samples).
pub const DETECT_REGEX: &str =
    r#"(?m)(?:^\x{FEFF}?["']?openapi["']?[ \t]*:|[{,]\s*["']?openapi["']?\s*:)\s*["']?3\.\d"#;

impl Analyzer for Oas3 {
    fn tech(&self) -> Tech {
        Tech::new("oas3", "Specification", "OpenAPI 3")
            .specification()
            .aliases(["openapi", "openapi3"])
            .files(["*.json", "*.yaml", "*.yml"])
            .detect(Detect::files(["*.json", "*.yaml", "*.yml"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !declares_openapi_3(&file.content) {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        if !is_openapi_3(&doc) {
            return;
        }
        let bundled = follow_external_refs(file, doc);
        for endpoint in endpoints(file, &bundled) {
            out.endpoint(endpoint);
        }
    }
}

/// [`bundle::bundle`] with the host's `read-file`, warnings to the host.
pub(crate) fn follow_external_refs(file: &SourceFile, doc: Value) -> Bundle {
    let mut read = host::read_file;
    bundle::bundle(&file.path, doc, &mut read, &mut |w| host::warn(&w))
}

/// Cheap pre-check on the raw text, before parsing: an `openapi` key whose
/// value starts with `3.` at the start of a line (YAML top level, or JSON)
/// or after `{` / `,` (JSON). The parsed document decides.
pub fn declares_openapi_3(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices("openapi").any(|(at, _)| {
        // The opening quote, if any.
        let mut start = at;
        if start > 0 && matches!(bytes[start - 1], b'"' | b'\'') {
            start -= 1;
        }
        let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
        let before = text[line_start..start].trim_start_matches('\u{feff}');
        let placed = before.is_empty() || text[..start].trim_end().ends_with(['{', ',']);
        if !placed {
            return false;
        }
        let rest = &text[at + "openapi".len()..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let Some(value) = rest.trim_start_matches([' ', '\t']).strip_prefix(':') else {
            return false;
        };
        let value = value.trim_start();
        let value = value.strip_prefix(['"', '\'']).unwrap_or(value);
        value.len() > 2 && value.starts_with("3.") && value.as_bytes()[2].is_ascii_digit()
    })
}

/// Is the top-level `openapi` a 3.x version (a string, or a number when
/// left unquoted in YAML)?
pub fn is_openapi_3(doc: &Value) -> bool {
    match doc.get("openapi") {
        Some(Value::String(v)) => v.trim().starts_with("3."),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|v| (3.0..4.0).contains(&v)),
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
    let source = SourceMap::with_max_depth(&file.content, 4);
    let doc_base = base_path(&resolver, doc.get("servers")).unwrap_or_default();
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
        let item_base =
            base_path(&resolver, item.get("servers")).unwrap_or_else(|| doc_base.clone());
        // OpenAPI 3.2: `additionalOperations` holds other methods by name
        // (`COPY:`, `PURGE:`), next to the fixed keys (`query:` included).
        let additional = item
            .get("additionalOperations")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(m, o)| (m, o, true));
        let fixed = item
            .iter()
            .filter(|(m, _)| METHODS.contains(&m.to_ascii_lowercase().as_str()))
            .map(|(m, o)| (m, o, false));
        for (method, operation, is_additional) in fixed.chain(additional) {
            let lower = method.to_ascii_lowercase();
            let operation = match operation {
                Value::Object(operation) => operation,
                // `get:` with nothing under it yet: still an operation.
                Value::Null => &empty,
                _ => {
                    warn(&format!("operation `{method} {path}` is not a mapping"));
                    continue;
                }
            };
            let base =
                base_path(&resolver, operation.get("servers")).unwrap_or_else(|| item_base.clone());
            let (at, line) = if is_additional {
                let key = [
                    Seg::Key("paths"),
                    Seg::Key(path),
                    Seg::Key("additionalOperations"),
                    Seg::Key(method),
                ];
                let line = source
                    .line(&key)
                    .unwrap_or_else(|| source.nearest_line(&key));
                (file.path.clone(), line)
            } else {
                operation_location(file, &source, bundled, path, written, method)
            };
            let endpoint = Endpoint::new(&lower, join_url(&base, path))
                .params(parameters(&resolver, item, operation))
                .params(body_params(&resolver, operation))
                .at_path(at, line);
            out.push(endpoint);
        }
    }
    out
}

/// Where an operation is written: its method key in the document, or — for
/// a path item that is a `$ref` into another file and does not declare the
/// method itself — the method key in that file; else the nearest key found
/// (the path key).
pub(crate) fn operation_location(
    file: &SourceFile,
    source: &SourceMap,
    bundled: &Bundle,
    path: &str,
    written: &Value,
    method: &str,
) -> (String, u32) {
    let own = written.get(method).is_some();
    let external = written
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| bundled.source_of(r));
    if let (false, Some((other, tokens))) = (own, external) {
        let map = SourceMap::new(&other.text);
        let mut key: Vec<Seg<'_>> = tokens.iter().map(|t| Seg::Key(t)).collect();
        key.push(Seg::Key(method));
        let line = map.line(&key).unwrap_or_else(|| map.nearest_line(&key));
        return (other.path.clone(), line);
    }
    let key = [Seg::Key("paths"), Seg::Key(path), Seg::Key(method)];
    let line = source
        .line(&key)
        .unwrap_or_else(|| source.nearest_line(&key));
    (file.path.clone(), line)
}

/// A `$ref` object with sibling keys (OpenAPI 3.1 path items): the target's
/// keys, then the siblings (which win). `None` for anything else.
pub(crate) fn with_ref_siblings(
    resolver: &Resolver<'_>,
    value: &Value,
) -> Option<Map<String, Value>> {
    let map = value.as_object()?;
    if !map.contains_key("$ref") || map.len() < 2 {
        return None;
    }
    let mut merged = match resolver.deref(value) {
        Some(Value::Object(target)) => target.clone(),
        _ => Map::new(),
    };
    for (key, v) in map {
        if key != "$ref" {
            merged.insert(key.clone(), v.clone());
        }
    }
    Some(merged)
}

/// A path item as its operations are read: a `$ref` with siblings merged
/// ([`with_ref_siblings`]), else the `$ref` followed. `Ok(None)` for an
/// empty item, `Err` when it is not a mapping.
pub(crate) fn path_item<'a>(
    resolver: &Resolver<'a>,
    item: &'a Value,
) -> Result<Option<Cow<'a, Map<String, Value>>>, ()> {
    if let Some(merged) = with_ref_siblings(resolver, item) {
        return Ok(Some(Cow::Owned(merged)));
    }
    match resolver.resolve(item) {
        Value::Object(map) => Ok(Some(Cow::Borrowed(map))),
        Value::Null => Ok(None),
        _ => Err(()),
    }
}

/// `base` + `path` as written, with one `/` between them: the specification
/// appends the path to the server URL (`/v1/` + `/pets` is `/v1/pets`,
/// `/v1` + `/` is `/v1/`).
pub(crate) fn join_url(base: &str, path: &str) -> String {
    let base = base.trim_end_matches('/');
    let url = if path.starts_with('/') {
        format!("{base}{path}")
    } else {
        format!("{base}/{path}")
    };
    if url.is_empty() {
        "/".to_string()
    } else {
        url
    }
}

/// The base path of the first server of a `servers` list; `None` when the
/// list is absent or empty (the caller falls back to the outer level).
fn base_path(resolver: &Resolver<'_>, servers: Option<&Value>) -> Option<String> {
    let server = resolver.resolve(servers?.as_array()?.first()?);
    let raw = server.get("url").and_then(Value::as_str).unwrap_or("");
    let variables = server.get("variables");
    let expanded = expand_template(raw, |name| {
        let variable = resolver.resolve(variables?.get(name)?);
        scalar_string(variable.get("default")?)
    });
    // `/{missing}/v1` must not turn into a protocol-relative `//v1`.
    let expanded = if expanded.starts_with("//") && !raw.starts_with("//") {
        format!("/{}", expanded.trim_start_matches('/'))
    } else {
        expanded
    };
    Some(url_path(&expanded))
}

/// Path-level parameters not overridden by the operation, then the
/// operation's.
fn parameters(
    resolver: &Resolver<'_>,
    item: &Map<String, Value>,
    operation: &Map<String, Value>,
) -> Vec<Param> {
    let list = |v: Option<&Value>| -> Vec<(String, String, Param)> {
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
                let kind = match location {
                    "query" => ParamKind::Query,
                    "header" => ParamKind::Header,
                    "cookie" => ParamKind::Cookie,
                    "path" => ParamKind::Path,
                    _ => return None,
                };
                let value = parameter_value(resolver, p).unwrap_or_default();
                let param = Param::new(kind, name).value(value);
                Some((name.to_string(), location.to_string(), param))
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
        .map(|(_, _, param)| param)
        .collect();
    params.extend(own.into_iter().map(|(_, _, param)| param));
    params
}

/// `example`, the first of `examples`, then the schema's example or default
/// (the schema of the first `content` entry if there is no `schema`).
fn parameter_value(resolver: &Resolver<'_>, param: &Value) -> Option<String> {
    if let Some(v) = param.get("example").and_then(scalar_string) {
        return Some(v);
    }
    if let Some(v) = first_example(resolver, param.get("examples")).and_then(scalar_string) {
        return Some(v);
    }
    let schema = param.get("schema").or_else(|| {
        let content = param.get("content")?.as_object()?;
        content.values().next()?.get("schema")
    })?;
    schema::example_value(resolver, schema)
}

/// The `value` of the first entry of an OpenAPI `examples` map.
fn first_example<'a>(resolver: &Resolver<'a>, examples: Option<&'a Value>) -> Option<&'a Value> {
    let example = examples?.as_object()?.values().next()?;
    resolver.resolve(example).get("value")
}

/// Fields of the request body, for every media type that has named fields.
fn body_params(resolver: &Resolver<'_>, operation: &Map<String, Value>) -> Vec<Param> {
    let Some(body) = operation.get("requestBody") else {
        return Vec::new();
    };
    let body = resolver.resolve(body);
    let Some(content) = body.get("content").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut params = Vec::new();
    for (media_type, media) in content {
        let Some(kind) = schema::body_kind(media_type) else {
            continue;
        };
        let Some(body_schema) = media.get("schema") else {
            continue;
        };
        let sample = media
            .get("example")
            .or_else(|| first_example(resolver, media.get("examples")))
            .map(|e| resolver.resolve(e));
        for field in schema::object_fields(resolver, body_schema) {
            let param_kind = match kind {
                BodyKind::Json => ParamKind::Json,
                BodyKind::Form => ParamKind::Form,
                BodyKind::Multipart if is_file_part(resolver, media, &field) => ParamKind::File,
                BodyKind::Multipart => ParamKind::Form,
            };
            let value = schema::example_value(resolver, field.schema)
                .or_else(|| sample?.get(&field.name).and_then(scalar_string))
                .unwrap_or_default();
            params.push(Param::new(param_kind, field.name).value(value));
        }
    }
    params
}

/// A multipart part is a file when its schema is binary or its `encoding`
/// gives a content type that is neither text nor JSON.
fn is_file_part(resolver: &Resolver<'_>, media: &Value, field: &schema::Field<'_>) -> bool {
    if schema::is_binary(resolver, field.schema) {
        return true;
    }
    let content_type = media
        .get("encoding")
        .and_then(|e| e.get(&field.name))
        .and_then(|e| e.get("contentType"))
        .and_then(Value::as_str);
    content_type.is_some_and(|ct| {
        let ct = ct.trim().to_ascii_lowercase();
        !(ct.starts_with("text/") || schema::body_kind(&ct).is_some())
    })
}

#[cfg(test)]
mod tests;
