//! Envoy proxy configuration (bootstrap `envoy.yaml` with static listeners,
//! RDS `RouteConfiguration` resources, in YAML or JSON): every
//! `virtual_hosts[].routes[]` entry is a route, wherever the route
//! configuration sits (an HTTP connection manager's `route_config`, an RDS
//! resource list, a plain `RouteConfiguration` document).
//!
//! - URL: `match.path` (exact) and `match.prefix` /
//!   `match.path_separated_prefix` as written; `match.safe_regex.regex` (and
//!   the old `regex`) read by [`crate::common::regex_path`].
//! - Methods: a `:method` header matcher (`exact`, `string_match.exact`, or
//!   a `safe_regex` of literal alternatives); without one, GET, POST, PUT,
//!   PATCH and DELETE.
//! - Params: other `headers` matchers (header) and `query_parameters`
//!   (query), with the exact value when there is one; pseudo-headers
//!   (`:authority`, `:path`) are left out.
//! - Left out: routes that only answer with a 4xx `direct_response`.
//! - Location: the route's `match` key. A file that does not parse gets a
//!   warning naming it.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, segs, str_of, Doc, Step};
use crate::common::{literal_methods, regex_path, ANY_METHODS};

pub struct Envoy;

const FILES: [&str; 4] = ["*.yaml", "*.yml", "*envoy*.json", "*rds*.json"];

impl Analyzer for Envoy {
    fn tech(&self) -> Tech {
        Tech::new("envoy", "Specification", "Envoy proxy")
            .specification()
            .files(FILES)
            .detect(Detect::files(FILES).regex([r#""?virtual_hosts"?\s*:"#]))
            .supports(Supports {
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) || !file.content.contains("virtual_hosts") {
            return;
        }
        for doc in yaml::documents(file) {
            let mut at = Vec::new();
            walk(file, &doc, &doc.value, &mut at, 0, out);
        }
    }
}

/// Find every `virtual_hosts` list below `value`.
fn walk(
    file: &SourceFile,
    doc: &Doc,
    value: &Value,
    at: &mut Vec<Step>,
    depth: usize,
    out: &mut Output,
) {
    if depth > 32 {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                at.push(Step::Key(key.clone()));
                if key == "virtual_hosts" {
                    if let Some(hosts) = child.as_array() {
                        for (i, host) in hosts.iter().enumerate() {
                            at.push(Step::Index(i));
                            virtual_host(file, doc, host, at, out);
                            at.pop();
                        }
                    }
                } else {
                    walk(file, doc, child, at, depth + 1, out);
                }
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push(Step::Index(i));
                walk(file, doc, child, at, depth + 1, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn virtual_host(file: &SourceFile, doc: &Doc, host: &Value, at: &mut Vec<Step>, out: &mut Output) {
    let Some(routes) = host.get("routes").and_then(Value::as_array) else {
        return;
    };
    for (i, route) in routes.iter().enumerate() {
        let Some(m) = route.get("match") else {
            continue;
        };
        let denied = route
            .pointer("/direct_response/status")
            .and_then(Value::as_u64)
            .is_some_and(|s| (400..500).contains(&s));
        if denied {
            continue;
        }
        let text = |k: &str| m.get(k).and_then(str_of);
        let urls = if let Some(p) = text("path").or_else(|| text("prefix")) {
            vec![p]
        } else if let Some(p) = text("path_separated_prefix") {
            vec![p]
        } else if let Some(re) = m
            .pointer("/safe_regex/regex")
            .and_then(str_of)
            .or_else(|| text("regex"))
        {
            regex_path::routes(&re).unwrap_or_default()
        } else {
            continue;
        };
        let mut methods = None;
        let mut params = Vec::new();
        for h in m
            .get("headers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(name) = h.get("name").and_then(str_of) else {
                continue;
            };
            let exact = h
                .get("exact_match")
                .or_else(|| h.pointer("/string_match/exact"))
                .and_then(str_of);
            if name == ":method" {
                let regex = h
                    .pointer("/safe_regex_match/regex")
                    .or_else(|| h.pointer("/string_match/safe_regex/regex"))
                    .and_then(str_of);
                methods = match (exact, regex) {
                    (Some(m), _) => Some(vec![m.to_ascii_uppercase()]),
                    (None, Some(re)) => literal_methods(&re),
                    _ => None,
                };
            } else if !name.starts_with(':') {
                params.push(Param::header(name).value(exact.unwrap_or_default()));
            }
        }
        for q in m
            .get("query_parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(name) = q.get("name").and_then(str_of) else {
                continue;
            };
            let exact = q.pointer("/string_match/exact").and_then(str_of);
            params.push(Param::query(name).value(exact.unwrap_or_default()));
        }
        let methods =
            methods.unwrap_or_else(|| ANY_METHODS.iter().map(|m| m.to_string()).collect());
        at.push(Step::Key("routes".into()));
        at.push(Step::Index(i));
        at.push(Step::Key("match".into()));
        let line = doc.line(&segs(at));
        at.truncate(at.len() - 3);
        for url in &urls {
            for method in &methods {
                out.endpoint(
                    Endpoint::new(method, url.clone())
                        .params(params.clone())
                        .at(file, line),
                );
            }
        }
    }
}
