//! `yaml`: the JSON envelope as a YAML document (serde_yaml): it starts with
//! `---`, block style with 2-space indentation, sequence items not indented
//! under their key, `""` for empty strings and `[]` for empty lists, keys in
//! the JSON order.

use std::sync::OnceLock;

use regex::Regex;

use crate::model::Report;

pub fn render(report: &Report) -> String {
    let value = serde_json::to_value(report).unwrap_or_default();
    let body = serde_yaml::to_string(&value).unwrap_or_default();
    let mut out = String::from("---\n");
    out.push_str(&empty_strings_double_quoted(&body));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// serde_yaml writes an empty string as `''`; Noir (and most YAML users)
/// write `""`. Only a whole scalar after `key: ` or `- ` is rewritten: inside
/// a longer single-quoted scalar a quote is doubled, so `''` at the end of a
/// line after `: ` can only be an empty scalar.
fn empty_strings_double_quoted(yaml: &str) -> String {
    static EMPTY: OnceLock<Regex> = OnceLock::new();
    let re = EMPTY.get_or_init(|| Regex::new(r"(?m)(^|: |- )''$").expect("valid regex"));
    re.replace_all(yaml, "${1}\"\"").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::{example, report};

    #[test]
    fn shape_and_round_trip() {
        let r = report(vec![example()]);
        let text = render(&r);
        assert!(text.starts_with("---\nendpoints:\n- url: /users/{id}\n  method: POST\n  params:\n  - name: page\n    value: \"\"\n    param_type: query\n    tags: []\n"), "{text}");
        assert!(
            text.ends_with("internal: false\npassive_results: []\n"),
            "{text}"
        );
        let back: serde_json::Value = serde_yaml::from_str(&text).unwrap();
        assert_eq!(back, serde_json::to_value(&r).unwrap());
    }

    #[test]
    fn awkward_strings_round_trip() {
        let mut e = example();
        e.params[0].value = "a: ''".into();
        e.params[1].value = "it's".into();
        e.params[2].value = "''".into();
        let r = report(vec![e]);
        let back: serde_json::Value = serde_yaml::from_str(&render(&r)).unwrap();
        assert_eq!(back, serde_json::to_value(&r).unwrap());
    }
}
