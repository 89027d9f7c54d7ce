//! The answer the model must give, as a JSON schema sent with every request
//! (OpenAI `response_format` json_schema in strict mode, Ollama `format`),
//! and the validation every answer goes through before anything in it is
//! used.
//!
//! ```json
//! {"endpoints": [{"file": "app/server.lua", "line": 12, "method": "POST",
//!                 "url": "/api/items/{id}",
//!                 "params": [{"name": "id", "param_type": "path"}]}]}
//! ```

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Methods the model may answer with.
pub const METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"];

/// Parameter types the model may answer with.
pub const PARAM_TYPES: &[&str] = &["query", "json", "form", "header", "cookie", "path"];

/// The schema (strict-mode compatible: every object closed, every property
/// required).
pub fn answer_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["endpoints"],
        "properties": {
            "endpoints": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["file", "line", "method", "url", "params"],
                    "properties": {
                        "file": {"type": "string", "minLength": 1},
                        "line": {"type": "integer", "minimum": 1},
                        "method": {"type": "string", "enum": METHODS},
                        "url": {"type": "string", "minLength": 1},
                        "params": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "additionalProperties": false,
                                "required": ["name", "param_type"],
                                "properties": {
                                    "name": {"type": "string", "minLength": 1},
                                    "param_type": {"type": "string", "enum": PARAM_TYPES}
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub endpoints: Vec<AnswerEndpoint>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerEndpoint {
    pub file: String,
    pub line: u32,
    pub method: String,
    pub url: String,
    pub params: Vec<AnswerParam>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerParam {
    pub name: String,
    pub param_type: String,
}

fn validator() -> Option<&'static jsonschema::Validator> {
    static V: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
    V.get_or_init(|| jsonschema::validator_for(&answer_schema()).ok())
        .as_ref()
}

/// Parse and validate an answer. The error says what was wrong (it is sent
/// back to the model on the retry, and shown in the warning).
pub fn validate(text: &str) -> Result<Answer, String> {
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("the answer is not JSON ({e})"))?;
    let Some(v) = validator() else {
        return Err("internal error: the answer schema does not compile".into());
    };
    let problems: Vec<String> = v
        .iter_errors(&value)
        .take(3)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{at}: {e}")
            }
        })
        .collect();
    if !problems.is_empty() {
        return Err(format!(
            "the answer does not match the schema: {}",
            problems.join("; ")
        ));
    }
    serde_json::from_value(value).map_err(|e| format!("the answer does not match the schema: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_answers_parse() {
        let a = validate(
            r#"{"endpoints":[{"file":"a.lua","line":3,"method":"GET","url":"/x","params":[{"name":"q","param_type":"query"}]}]}"#,
        )
        .unwrap();
        assert_eq!(a.endpoints[0].params[0].name, "q");
        assert_eq!(validate(r#"{"endpoints":[]}"#).unwrap().endpoints, vec![]);
    }

    #[test]
    fn malformed_answers_are_refused_with_a_reason() {
        for (bad, why) in [
            ("not json", "not JSON"),
            (r#"{"routes":[]}"#, "endpoints"),
            (
                r#"{"endpoints":[{"file":"a","line":0,"method":"GET","url":"/","params":[]}]}"#,
                "/endpoints/0/line",
            ),
            (
                r#"{"endpoints":[{"file":"a","line":1,"method":"FETCH","url":"/","params":[]}]}"#,
                "/endpoints/0/method",
            ),
            (
                r#"{"endpoints":[{"file":"a","line":1,"method":"GET","url":"/","params":[{"name":"x","param_type":"body"}]}]}"#,
                "param_type",
            ),
            (
                r#"{"endpoints":[{"file":"a","line":1,"method":"GET","url":"/","params":[],"extra":1}]}"#,
                "extra",
            ),
        ] {
            let err = validate(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
