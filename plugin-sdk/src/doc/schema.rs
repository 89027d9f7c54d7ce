//! JSON Schema (as used by OpenAPI) → the field names of a request body.

use serde_json::Value;

use super::load::scalar_string;
use super::refs::{ref_of, Resolver};

/// Deepest schema nesting followed through `$ref`/`allOf`/`oneOf`/`anyOf`.
const MAX_DEPTH: usize = 32;

/// A top-level property of an object schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Field<'a> {
    pub name: String,
    /// The property's schema as written (may be a `$ref`).
    pub schema: &'a Value,
}

/// The top-level properties of an object schema, in document order: those
/// of a `$ref` target first, then `properties`, then every `allOf`, `oneOf`
/// and `anyOf` branch (the union: any of them may be sent). References are
/// followed recursively and cycle-safely. An array schema has no fields (the
/// body is a list).
pub fn object_fields<'a>(resolver: &Resolver<'a>, schema: &'a Value) -> Vec<Field<'a>> {
    let mut out = Vec::new();
    let mut stack = Vec::new();
    collect(resolver, schema, &mut stack, 0, &mut out);
    out
}

fn collect<'a>(
    resolver: &Resolver<'a>,
    schema: &'a Value,
    refs: &mut Vec<&'a str>,
    depth: usize,
    out: &mut Vec<Field<'a>>,
) {
    if depth > MAX_DEPTH || !schema.is_object() || is_array(schema) {
        return;
    }
    if let Some(reference) = ref_of(schema) {
        if !refs.contains(&reference) {
            if let Some(target) = resolver.target(reference) {
                refs.push(reference);
                collect(resolver, target, refs, depth + 1, out);
                refs.pop();
            }
        }
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            if !out.iter().any(|f| f.name == *name) {
                out.push(Field {
                    name: name.clone(),
                    schema: property,
                });
            }
        }
    }
    for combinator in ["allOf", "oneOf", "anyOf"] {
        if let Some(branches) = schema.get(combinator).and_then(Value::as_array) {
            for branch in branches {
                collect(resolver, branch, refs, depth + 1, out);
            }
        }
    }
}

/// Does the schema describe an array (`type: array`, or `[array, null]`)?
pub fn is_array(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(types)) => {
            types.iter().any(|t| t == "array") && !types.iter().any(|t| t == "object")
        }
        _ => false,
    }
}

/// An example value for a schema, as a string: `example`, the first of
/// `examples` (JSON Schema style list), `const`, then `default` — whichever is a
/// scalar first, looking at the schema as written, then at its `$ref` target.
pub fn example_value(resolver: &Resolver<'_>, schema: &Value) -> Option<String> {
    let own = |s: &Value| {
        s.get("example")
            .and_then(scalar_string)
            .or_else(|| {
                s.get("examples")
                    .and_then(Value::as_array)
                    .and_then(|list| list.first())
                    .and_then(scalar_string)
            })
            .or_else(|| s.get("const").and_then(scalar_string))
            .or_else(|| s.get("default").and_then(scalar_string))
    };
    own(schema).or_else(|| resolver.deref(schema).and_then(own))
}

/// Does the schema describe file content (`format: binary`/`base64`, a
/// `contentMediaType`/`contentEncoding`, or an array of those)?
pub fn is_binary(resolver: &Resolver<'_>, schema: &Value) -> bool {
    is_binary_at(resolver, schema, 0)
}

fn is_binary_at(resolver: &Resolver<'_>, schema: &Value, depth: usize) -> bool {
    let Some(schema) = resolver.deref(schema) else {
        return false;
    };
    if depth > 4 {
        return false;
    }
    let format = schema.get("format").and_then(Value::as_str);
    if matches!(format, Some("binary" | "base64"))
        || schema.get("contentMediaType").is_some()
        || schema.get("contentEncoding").is_some()
    {
        return true;
    }
    is_array(schema)
        && schema
            .get("items")
            .is_some_and(|items| is_binary_at(resolver, items, depth + 1))
}

/// How a request body of some media type carries its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// `application/json`, `*/*+json`.
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`: form fields and file parts.
    Multipart,
}

/// Classify a media type (parameters such as `; charset=utf-8` ignored).
/// Other types (XML, plain text, octet streams, wildcards) carry no named
/// fields: `None`.
pub fn body_kind(media_type: &str) -> Option<BodyKind> {
    let essence = media_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "application/json" | "text/json" => Some(BodyKind::Json),
        "application/x-www-form-urlencoded" => Some(BodyKind::Form),
        "multipart/form-data" => Some(BodyKind::Multipart),
        s if s.ends_with("+json") && s.contains('/') && !s.contains('*') => Some(BodyKind::Json),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(doc: &Value, schema: &Value) -> Vec<String> {
        object_fields(&Resolver::new(doc), schema)
            .into_iter()
            .map(|f| f.name)
            .collect()
    }

    #[test]
    fn refs_all_of_and_unions() {
        let doc = json!({"components": {"schemas": {
            "Base": {"type": "object", "properties": {"id": {}, "name": {}}},
            "Pet": {"allOf": [{"$ref": "#/components/schemas/Base"},
                              {"properties": {"tag": {}, "name": {}}}]},
            "Cat": {"properties": {"indoor": {}}},
            "Dog": {"properties": {"barks": {}}},
            "Any": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                    "anyOf": [{"properties": {"x": {}}}]},
            "Loop": {"properties": {"a": {}}, "allOf": [{"$ref": "#/components/schemas/Loop"}]},
            "A": {"allOf": [{"$ref": "#/components/schemas/B"}], "properties": {"a": {}}},
            "B": {"allOf": [{"$ref": "#/components/schemas/A"}], "properties": {"b": {}}},
            "List": {"type": "array", "items": {"$ref": "#/components/schemas/Base"}},
            "Sib": {"$ref": "#/components/schemas/Cat", "properties": {"own": {}}}
        }}});
        let s = |n: &str| json!({"$ref": format!("#/components/schemas/{n}")});
        assert_eq!(names(&doc, &s("Pet")), ["id", "name", "tag"]);
        assert_eq!(names(&doc, &s("Any")), ["indoor", "barks", "x"]);
        assert_eq!(names(&doc, &s("Loop")), ["a"]);
        assert_eq!(names(&doc, &s("A")), ["a", "b"]);
        assert!(names(&doc, &s("List")).is_empty());
        assert!(names(&doc, &s("Missing")).is_empty());
        assert_eq!(names(&doc, &s("Sib")), ["indoor", "own"]);
        assert!(names(&doc, &json!("string")).is_empty());
    }

    #[test]
    fn examples_and_binaries() {
        let doc = json!({"S": {"type": "integer", "default": 3}, "F": {"type": "string", "format": "binary"}});
        let r = Resolver::new(&doc);
        assert_eq!(
            example_value(&r, &json!({"example": "a", "default": "b"})).as_deref(),
            Some("a")
        );
        assert_eq!(
            example_value(&r, &json!({"examples": [7], "default": "b"})).as_deref(),
            Some("7")
        );
        assert_eq!(
            example_value(&r, &json!({"example": {"o": 1}, "default": true})).as_deref(),
            Some("true")
        );
        assert_eq!(
            example_value(&r, &json!({"$ref": "#/S"})).as_deref(),
            Some("3")
        );
        assert_eq!(example_value(&r, &json!({"type": "string"})), None);
        assert!(is_binary(&r, &json!({"$ref": "#/F"})));
        assert!(is_binary(
            &r,
            &json!({"type": "array", "items": {"$ref": "#/F"}})
        ));
        assert!(is_binary(&r, &json!({"contentMediaType": "image/png"})));
        assert!(!is_binary(&r, &json!({"type": "string", "format": "byte"})));
    }

    #[test]
    fn media_types() {
        assert_eq!(
            body_kind("application/json; charset=utf-8"),
            Some(BodyKind::Json)
        );
        assert_eq!(body_kind("application/vnd.api+json"), Some(BodyKind::Json));
        assert_eq!(
            body_kind("Application/X-WWW-Form-Urlencoded"),
            Some(BodyKind::Form)
        );
        assert_eq!(body_kind("multipart/form-data"), Some(BodyKind::Multipart));
        assert_eq!(body_kind("application/xml"), None);
        assert_eq!(body_kind("*/*"), None);
    }
}
