//! Request bodies written out as text (API-client exports, captures):
//! their field names and example values.

use serde_json::Value;

use super::load::scalar_string;

/// Top-level fields of a JSON object body, in document order, with scalar
/// values as strings (objects, arrays and `null` give `""`). Template
/// placeholders left unquoted (`"age": {{age}}`) are read as `null`. A body
/// that is not a JSON object (an array, a scalar, invalid text) has no
/// fields.
pub fn json_fields(text: &str) -> Vec<(String, String)> {
    let text = text.trim().trim_start_matches('\u{feff}');
    if !text.starts_with('{') {
        return Vec::new();
    }
    let parsed = serde_json::from_str::<Value>(text)
        .or_else(|_| serde_json::from_str::<Value>(&unquoted_placeholders_to_null(text)));
    match parsed {
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(name, value)| {
                let value = scalar_string(&value).unwrap_or_default();
                (name, value)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Replace `{{…}}` / `{%…%}` outside JSON strings by `null`.
fn unquoted_placeholders_to_null(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let close = if rest.starts_with("{{") {
            rest.find("}}")
        } else if rest.starts_with("{%") {
            rest.find("%}")
        } else {
            None
        };
        if let Some(close) = close {
            out.push_str("null");
            rest = &rest[close + 2..];
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Does the text look like a JSON object or array?
pub fn looks_like_json(text: &str) -> bool {
    let t = text.trim_start().trim_start_matches('\u{feff}');
    t.starts_with('{') || t.starts_with('[')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<String> {
        json_fields(text)
            .into_iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect()
    }

    #[test]
    fn json_bodies() {
        assert_eq!(
            fields(
                r#"{"name": "Ann", "age": 3, "ok": true, "tags": ["a"], "o": {"x": 1}, "n": null}"#
            ),
            ["name=Ann", "age=3", "ok=true", "tags=", "o=", "n="]
        );
        assert_eq!(
            fields("{\n  \"id\": {{userId}},\n  \"note\": \"{{x}} }}\",\n  \"t\": {% now %}\n}"),
            ["id=", "note={{x}} }}", "t="]
        );
        assert!(fields("[1, 2]").is_empty());
        assert!(fields("{broken").is_empty());
        assert!(fields("plain text").is_empty());
        assert!(looks_like_json("  [1]"));
        assert!(!looks_like_json("a=1"));
    }
}
