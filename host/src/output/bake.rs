//! "Baking" an endpoint into request parts: the URL with its query string,
//! the body, headers and cookies (shared by plain and the command formats).

use crate::model::{Endpoint, ParamType};

pub struct Baked {
    /// URL with `?name=value&…` for query params.
    pub url: String,
    /// Compact JSON object of json params, or `a=1&b=2` for form/file params
    /// (json wins when both exist), or `None`.
    pub body: Option<String>,
    /// What `body` is, when there is one.
    pub body_kind: Option<BodyKind>,
    /// (name, value) of header params.
    pub headers: Vec<(String, String)>,
    /// (name, value) of cookie params.
    pub cookies: Vec<(String, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    Form,
}

impl BodyKind {
    pub fn content_type(self) -> &'static str {
        match self {
            BodyKind::Json => "application/json",
            BodyKind::Form => "application/x-www-form-urlencoded",
        }
    }
}

pub fn bake(e: &Endpoint) -> Baked {
    let mut url = e.url.clone();
    for p in e.params.iter().filter(|p| p.param_type == ParamType::Query) {
        let pair = format!("{}={}", p.name, p.value);
        let (_, existing) = url.split_once('?').unwrap_or(("", ""));
        if existing.split('&').any(|kv| kv == pair) {
            continue;
        }
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str(&pair);
    }
    let json: Vec<_> = e
        .params
        .iter()
        .filter(|p| p.param_type == ParamType::Json)
        .collect();
    let form: Vec<_> = e
        .params
        .iter()
        .filter(|p| matches!(p.param_type, ParamType::Form | ParamType::File))
        .collect();
    let body_kind = if !json.is_empty() {
        Some(BodyKind::Json)
    } else if !form.is_empty() {
        Some(BodyKind::Form)
    } else {
        None
    };
    let body = if !json.is_empty() {
        let mut map = serde_json::Map::new();
        for p in json {
            map.insert(p.name.clone(), serde_json::Value::String(p.value.clone()));
        }
        Some(serde_json::Value::Object(map).to_string())
    } else if !form.is_empty() {
        let pairs: Vec<String> = form
            .iter()
            .map(|p| format!("{}={}", p.name, p.value))
            .collect();
        Some(pairs.join("&"))
    } else {
        None
    };
    let pairs = |t: ParamType| -> Vec<(String, String)> {
        e.params
            .iter()
            .filter(|p| p.param_type == t)
            .map(|p| (p.name.clone(), p.value.clone()))
            .collect()
    };
    Baked {
        url,
        body,
        body_kind,
        headers: pairs(ParamType::Header),
        cookies: pairs(ParamType::Cookie),
    }
}
