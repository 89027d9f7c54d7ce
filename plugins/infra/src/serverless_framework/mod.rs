//! Serverless Framework services (`serverless.yml` / `serverless.yaml`):
//! the HTTP events of every function.
//!
//! - `http` (API Gateway REST) and `httpApi` (HTTP API) events, in the
//!   object form (`path`, `method`) and the string shorthand
//!   (`GET users/{id}`); `alb` events (`conditions.path`, `.method`,
//!   `.query`, `.header`).
//! - Methods: `any` and `*` stand for API Gateway's ANY (DELETE, GET, HEAD,
//!   OPTIONS, PATCH, POST, PUT); an `alb` event without a method condition
//!   too. The HTTP API catch-all `httpApi: '*'` is no route and is skipped.
//! - Params: `request.parameters.querystrings` / `headers` / `paths`
//!   (query, header, path); greedy `{proxy+}` is a path param too.
//! - Variables: `${self:a.b}` is replaced with that value of the file when it
//!   is a plain string, `${opt:x, 'dflt'}` / `${env:X, 'dflt'}` and the like
//!   with their default; other variables are left as written.
//!   `custom.customDomain.basePath` (serverless-domain-manager) prefixes
//!   every `http`/`httpApi` path.
//! - Location: the event's `http:` / `httpApi:` / `alb:` key. A file that
//!   does not parse gets a warning naming it.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::aws;
use crate::common::yaml::{self, str_of, Tags};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct ServerlessFramework;

const FILES: [&str; 2] = ["serverless.yml", "serverless.yaml"];

impl Analyzer for ServerlessFramework {
    fn tech(&self) -> Tech {
        Tech::new(
            "serverless_framework",
            "Specification",
            "Serverless Framework",
        )
        .specification()
        .aliases(["serverless", "sls"])
        .files(FILES)
        .detect(
            Detect::files(FILES).regex([r"(?ms)^provider:.*^functions:|^functions:.*^provider:"]),
        )
        .supports(Supports {
            body: false,
            cookie: false,
            ..Supports::HTTP
        })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let Some(doc) = yaml::parse_stream(&file.content, Tags::Drop)
            .into_iter()
            .next()
        else {
            return;
        };
        let doc = match doc {
            Ok(doc) => doc,
            Err(e) => {
                return host::warn(&format!("{}: {}", file.path, e.message));
            }
        };
        let root = &doc.value;
        let Some(functions) = root.get("functions").and_then(Value::as_object) else {
            return;
        };
        let vars = Vars { root };
        let base = root
            .pointer("/custom/customDomain/basePath")
            .and_then(str_of)
            .map(|b| vars.resolve(&b))
            .filter(|b| !b.contains("${"))
            .unwrap_or_default();
        for (name, function) in functions {
            let Some(events) = function.get("events").and_then(Value::as_array) else {
                continue;
            };
            for (i, event) in events.iter().enumerate() {
                let Some((kind, spec)) = event.as_object().and_then(|o| o.iter().next()) else {
                    continue;
                };
                let line = doc.line(&[
                    Seg::Key("functions"),
                    Seg::Key(name),
                    Seg::Key("events"),
                    Seg::Index(i),
                    Seg::Key(kind),
                ]);
                let routes = match kind.as_str() {
                    "http" | "httpApi" => api_event(spec, &vars, &base),
                    "alb" => alb_event(spec, &vars),
                    _ => continue,
                };
                for (methods, path, params) in routes {
                    for method in methods {
                        let mut e = Endpoint::new(method, path.clone()).params(params.clone());
                        aws::greedy_path_params(&mut e);
                        out.endpoint(e.at(file, line));
                    }
                }
            }
        }
    }
}

type Route = (Vec<String>, String, Vec<Param>);

fn api_event(spec: &Value, vars: &Vars<'_>, base: &str) -> Vec<Route> {
    let (method, path, params) = match spec {
        Value::String(s) => {
            let s = vars.resolve(s);
            match s.trim().split_once(char::is_whitespace) {
                Some((m, p)) => (m.to_string(), p.trim().to_string(), Vec::new()),
                None => return Vec::new(),
            }
        }
        Value::Object(o) => {
            let method = o
                .get("method")
                .and_then(str_of)
                .unwrap_or_else(|| "any".into());
            let Some(path) = o.get("path").and_then(str_of) else {
                return Vec::new();
            };
            let params = spec
                .pointer("/request/parameters")
                .map(request_parameters)
                .unwrap_or_default();
            (vars.resolve(&method), vars.resolve(&path), params)
        }
        _ => return Vec::new(),
    };
    if path == "*" {
        return Vec::new();
    }
    let path = join(base, &path);
    vec![(aws::methods(&method), path, params)]
}

/// `querystrings`, `headers`, `paths`: `{name: required}`.
fn request_parameters(p: &Value) -> Vec<Param> {
    let mut out = Vec::new();
    for (key, make) in [
        ("querystrings", Param::query as fn(String) -> Param),
        ("headers", Param::header as fn(String) -> Param),
        ("paths", Param::path as fn(String) -> Param),
    ] {
        if let Some(map) = p.get(key).and_then(Value::as_object) {
            out.extend(map.keys().map(|k| make(k.clone())));
        }
    }
    out
}

fn alb_event(spec: &Value, vars: &Vars<'_>) -> Vec<Route> {
    let Some(cond) = spec.get("conditions") else {
        return Vec::new();
    };
    let list = |key: &str| -> Vec<String> {
        match cond.get(key) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(str_of)
                .map(|s| vars.resolve(&s))
                .collect(),
            Some(v) => str_of(v).map(|s| vars.resolve(&s)).into_iter().collect(),
            None => Vec::new(),
        }
    };
    let mut methods: Vec<String> = list("method")
        .iter()
        .map(|m| m.to_ascii_uppercase())
        .collect();
    if methods.is_empty() {
        methods = aws::methods("any");
    }
    let mut params = Vec::new();
    if let Some(q) = cond.get("query").and_then(Value::as_object) {
        for (k, v) in q {
            params.push(Param::query(k.clone()).value(str_of(v).unwrap_or_default()));
        }
    }
    if let Some(h) = cond.get("header").and_then(Value::as_object) {
        if let Some(name) = h.get("name").and_then(str_of) {
            params.push(Param::header(name));
        }
    }
    list("path")
        .into_iter()
        .map(|p| (methods.clone(), p, params.clone()))
        .collect()
}

fn join(base: &str, path: &str) -> String {
    let base = base.trim_matches('/');
    let path = path.trim_start_matches('/');
    if base.is_empty() {
        format!("/{path}")
    } else {
        format!("/{base}/{path}")
    }
}

/// Serverless variables that can be resolved from the file alone.
struct Vars<'a> {
    root: &'a Value,
}

impl Vars<'_> {
    fn resolve(&self, s: &str) -> String {
        let mut out = s.to_string();
        for _ in 0..5 {
            let next = self.step(&out);
            if next == out {
                break;
            }
            out = next;
        }
        out
    }

    /// Replace the innermost `${…}` references once.
    fn step(&self, s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(open) = rest.find("${") {
            let body_start = open + 2;
            let Some(close) = rest[body_start..].find('}') else {
                break;
            };
            let body = &rest[body_start..body_start + close];
            out.push_str(&rest[..open]);
            match (!body.contains("${")).then(|| self.value(body)).flatten() {
                Some(v) => out.push_str(&v),
                None => out.push_str(&rest[open..body_start + close + 1]),
            }
            rest = &rest[body_start + close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// `self:a.b`, or the quoted default of `source:x, 'default'`.
    fn value(&self, body: &str) -> Option<String> {
        let (reference, default) = match body.split_once(',') {
            Some((r, d)) => (r.trim(), Some(d.trim())),
            None => (body.trim(), None),
        };
        if let Some(path) = reference.strip_prefix("self:") {
            let mut v = self.root;
            for key in path.split('.').filter(|k| !k.is_empty()) {
                v = v.get(key)?;
            }
            return match v {
                Value::String(_) | Value::Number(_) | Value::Bool(_) => str_of(v),
                _ => None,
            };
        }
        let d = default?;
        let unquoted = d
            .strip_prefix('\'')
            .and_then(|x| x.strip_suffix('\''))
            .or_else(|| d.strip_prefix('"').and_then(|x| x.strip_suffix('"')))?;
        Some(unquoted.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn variables() {
        let root = json!({"custom": {"v": "v2", "nested": {"x": 1}}, "provider": {"stage": "${opt:stage, 'dev'}"}});
        let vars = Vars { root: &root };
        assert_eq!(vars.resolve("/${self:custom.v}/users"), "/v2/users");
        assert_eq!(vars.resolve("${self:provider.stage}"), "dev");
        assert_eq!(vars.resolve("${opt:region, \"eu-west-1\"}"), "eu-west-1");
        assert_eq!(vars.resolve("/${sls:stage}/x"), "/${sls:stage}/x");
        assert_eq!(
            vars.resolve("${self:custom.nested}"),
            "${self:custom.nested}"
        );
        assert_eq!(
            vars.resolve("${self:custom.missing}/${"),
            "${self:custom.missing}/${"
        );
    }
}
