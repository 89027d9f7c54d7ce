//! Loading JSON and YAML documents into a [`serde_json::Value`].
//!
//! Every spec format is read into the same tree, whatever its syntax, so
//! analyzers walk one kind of value. YAML specifics are folded in: mapping
//! keys of any scalar type become strings (`200:` response codes), merge keys
//! (`<<: *base`) are applied, tags are dropped, and only the first document
//! of a multi-document stream is read.

use serde::Deserialize;
use serde_json::{Map, Number, Value};

/// The concrete syntax of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Yaml,
}

impl Syntax {
    /// Guess from the file name, then from the first significant character
    /// (`{` or `[` is JSON).
    pub fn guess(path: &str, text: &str) -> Syntax {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".yaml") || lower.ends_with(".yml") {
            return Syntax::Yaml;
        }
        if lower.ends_with(".json") {
            return Syntax::Json;
        }
        match text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .as_bytes()
            .first()
        {
            Some(b'{' | b'[') => Syntax::Json,
            _ => Syntax::Yaml,
        }
    }
}

/// Parse `text` (JSON or YAML, as guessed from `path`). The error says what
/// is wrong and where, without the path.
pub fn parse(path: &str, text: &str) -> Result<Value, String> {
    let text = text.trim_start_matches('\u{feff}');
    match Syntax::guess(path, text) {
        Syntax::Json => serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}")),
        Syntax::Yaml => parse_yaml(text),
    }
}

/// Parse the first document of a YAML stream (JSON is YAML too).
pub fn parse_yaml(text: &str) -> Result<Value, String> {
    parse_yaml_tagged(text, &|_, value| value)
}

/// [`parse_yaml`], with every tagged value (`!Ref Name`) handed to `on_tag`
/// as its tag (`!Ref`) and its converted value, to be replaced by what
/// `on_tag` returns ([`parse_yaml`] keeps the value, dropping the tag).
pub fn parse_yaml_tagged(
    text: &str,
    on_tag: &dyn Fn(&str, Value) -> Value,
) -> Result<Value, String> {
    let Some(doc) = serde_yaml::Deserializer::from_str(text).next() else {
        return Ok(Value::Null);
    };
    let mut value =
        serde_yaml::Value::deserialize(doc).map_err(|e| format!("invalid YAML: {e}"))?;
    value
        .apply_merge()
        .map_err(|e| format!("invalid YAML merge key: {e}"))?;
    Ok(from_yaml_tagged(value, on_tag))
}

/// Convert a YAML value to JSON: scalar keys become strings, tags are
/// dropped, non-finite floats become `null`, complex keys are skipped.
pub fn from_yaml(value: serde_yaml::Value) -> Value {
    from_yaml_tagged(value, &|_, value| value)
}

/// [`from_yaml`], with tagged values given to `on_tag` (see
/// [`parse_yaml_tagged`]); tags on mapping keys are always dropped.
pub fn from_yaml_tagged(value: serde_yaml::Value, on_tag: &dyn Fn(&str, Value) -> Value) -> Value {
    use serde_yaml::Value as Y;
    match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => yaml_number(&n),
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(
            items
                .into_iter()
                .map(|v| from_yaml_tagged(v, on_tag))
                .collect(),
        ),
        Y::Mapping(mapping) => {
            let mut map = Map::with_capacity(mapping.len());
            for (k, v) in mapping {
                if let Some(key) = key_string(k) {
                    map.insert(key, from_yaml_tagged(v, on_tag));
                }
            }
            Value::Object(map)
        }
        Y::Tagged(tagged) => {
            let inner = from_yaml_tagged(tagged.value, on_tag);
            on_tag(&tagged.tag.to_string(), inner)
        }
    }
}

fn yaml_number(n: &serde_yaml::Number) -> Value {
    if let Some(u) = n.as_u64() {
        Value::Number(u.into())
    } else if let Some(i) = n.as_i64() {
        Value::Number(i.into())
    } else {
        n.as_f64()
            .and_then(Number::from_f64)
            .map_or(Value::Null, Value::Number)
    }
}

fn key_string(key: serde_yaml::Value) -> Option<String> {
    use serde_yaml::Value as Y;
    match key {
        Y::String(s) => Some(s),
        Y::Number(n) => Some(n.to_string()),
        Y::Bool(b) => Some(b.to_string()),
        Y::Null => Some("null".to_string()),
        Y::Tagged(tagged) => key_string(tagged.value),
        Y::Sequence(_) | Y::Mapping(_) => None,
    }
}

/// A scalar as the string a user would type: strings as they are, numbers
/// and booleans printed; `None` for null, arrays and objects.
pub fn scalar_string(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_keys_become_strings_and_merges_apply() {
        let v = parse_yaml(
            "base: &b {x: 1}\nresponses:\n  200: ok\n  true: yes\nm:\n  <<: *b\n  y: !!str 2\n",
        )
        .unwrap();
        assert_eq!(v["responses"]["200"], json!("ok"));
        assert_eq!(v["responses"]["true"], json!("yes"));
        assert_eq!(v["m"], json!({"y": "2", "x": 1}));
    }

    #[test]
    fn first_document_only_and_empty_stream() {
        assert_eq!(parse_yaml("a: 1\n---\nb: 2\n").unwrap(), json!({"a": 1}));
        assert_eq!(parse_yaml("").unwrap(), Value::Null);
        assert_eq!(parse_yaml("# only a comment\n").unwrap(), Value::Null);
    }

    #[test]
    fn syntax_errors_are_messages() {
        let e = parse("a.yaml", "a: [1, 2\nb: 3\n").unwrap_err();
        assert!(e.starts_with("invalid YAML: "), "{e}");
        let e = parse("a.json", "{\"a\": }").unwrap_err();
        assert!(e.starts_with("invalid JSON: "), "{e}");
    }

    #[test]
    fn guesses_syntax() {
        assert_eq!(Syntax::guess("x.JSON", "a: 1"), Syntax::Json);
        assert_eq!(Syntax::guess("x.yml", "{}"), Syntax::Yaml);
        assert_eq!(Syntax::guess("x", "\u{feff} {}"), Syntax::Json);
        assert_eq!(
            parse("a.json", "\u{feff}{\"a\": 1}").unwrap(),
            json!({"a": 1})
        );
    }

    #[test]
    fn tags_are_dropped_or_handed_over() {
        let text = "a: !Ref X\nb: !Sub [s, {k: !Ref Y}]\n!k c: 1\n";
        assert_eq!(
            parse_yaml(text).unwrap(),
            json!({"a": "X", "b": ["s", {"k": "Y"}], "c": 1})
        );
        let wrap = |tag: &str, value: Value| json!({ tag: value });
        assert_eq!(
            parse_yaml_tagged(text, &wrap).unwrap(),
            json!({"a": {"!Ref": "X"}, "b": {"!Sub": ["s", {"k": {"!Ref": "Y"}}]}, "c": 1})
        );
    }

    #[test]
    fn scalars() {
        assert_eq!(scalar_string(&json!(1.5)).as_deref(), Some("1.5"));
        assert_eq!(scalar_string(&json!(false)).as_deref(), Some("false"));
        assert_eq!(scalar_string(&json!(null)), None);
        assert_eq!(scalar_string(&json!([1])), None);
    }
}
