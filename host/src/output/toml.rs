//! `toml`: the JSON envelope as TOML (toml_edit). Top-level values first,
//! then each object of a top-level array as `[[endpoints]]` (a blank line
//! before each) with `key = value` lines in JSON key order; nested arrays
//! and objects inline (`[…]`, `{ k = v, … }`). TOML has no null: a null
//! becomes `""`. An empty top-level array stays `key = []`.

use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

use crate::model::Report;

pub fn render(report: &Report) -> String {
    let json = serde_json::to_value(report).unwrap_or_default();
    let mut doc = DocumentMut::new();
    if let serde_json::Value::Object(map) = &json {
        for (key, v) in map {
            match v {
                serde_json::Value::Array(items)
                    if !items.is_empty() && items.iter().all(|i| i.is_object()) =>
                {
                    let mut tables = ArrayOfTables::new();
                    for item in items {
                        let mut table = Table::new();
                        if let serde_json::Value::Object(fields) = item {
                            for (k, f) in fields {
                                table.insert(k, Item::Value(value(f)));
                            }
                        }
                        table.decor_mut().set_prefix("\n");
                        tables.push(table);
                    }
                    doc.insert(key, Item::ArrayOfTables(tables));
                }
                other => {
                    doc.insert(key, Item::Value(value(other)));
                }
            }
        }
    }
    let mut out = doc.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::from(""),
        serde_json::Value::Bool(b) => Value::from(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => Value::from(n.as_f64().unwrap_or(0.0)),
        },
        serde_json::Value::String(s) => Value::from(s.as_str()),
        serde_json::Value::Array(items) => {
            let mut a = Array::new();
            for i in items {
                a.push(value(i));
            }
            Value::Array(a)
        }
        serde_json::Value::Object(map) => {
            let mut t = InlineTable::new();
            for (k, f) in map {
                t.insert(k, value(f));
            }
            t.fmt();
            Value::InlineTable(t)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::{example, report};

    #[test]
    fn shape_matches_output_md() {
        let text = render(&report(vec![example()]));
        let expected = r#"passive_results = []

[[endpoints]]
url = "/users/{id}"
method = "POST"
params = [{ name = "page", value = "", param_type = "query", tags = [] }, { name = "name", value = "", param_type = "json", tags = [] }, { name = "X-API-Key", value = "", param_type = "header", tags = [] }, { name = "session", value = "", param_type = "cookie", tags = [] }, { name = "id", value = "", param_type = "path", tags = [] }]
details = { code_paths = [{ path = "app/main.py", line = 12 }], technology = "python_flask" }
protocol = "http"
tags = []
internal = false
"#;
        assert_eq!(text, expected);
    }

    #[test]
    fn round_trips_awkward_strings() {
        let mut e = example();
        e.params[0].value = "a\"b\\c\n'd'\u{7f}".into();
        let r = report(vec![e]);
        let back: toml::Value = toml::from_str(&render(&r)).unwrap();
        let back = serde_json::to_value(back).unwrap();
        assert_eq!(
            back["endpoints"][0]["params"][0]["value"],
            "a\"b\\c\n'd'\u{7f}"
        );
        assert_eq!(
            render(&report(vec![])),
            "endpoints = []\npassive_results = []\n"
        );
    }
}
