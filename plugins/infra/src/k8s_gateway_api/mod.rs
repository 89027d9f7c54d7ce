//! Kubernetes Gateway API `HTTPRoute` resources
//! (`gateway.networking.k8s.io/v1`, `v1beta1`, `v1alpha2`): each
//! `spec.rules[].matches[]` entry is a route.
//!
//! - URL: `path.value` (`PathPrefix`, the default, and `Exact` as written;
//!   `RegularExpression` read by [`crate::common::regex_path`]); a rule
//!   without matches, or a match without a path, is `/`.
//! - Methods: the match's `method`; without one, GET, POST, PUT, PATCH and
//!   DELETE.
//! - Params: `headers[]` (header) and `queryParams[]` (query) matches, with
//!   the value they must have when the match type is `Exact` (the default).
//! - Multi-document files, `kind: List` and Helm templates are read as for
//!   [`crate::k8s_ingress`]; a document that does not parse gets a warning
//!   naming the file.
//! - Location: the match entry (or the rule when it has no matches).

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::k8s::{self, Object};
use crate::common::yaml::str_of;
use crate::common::{regex_path, ANY_METHODS};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct K8sGatewayApi;

const GROUPS: [&str; 1] = ["gateway.networking.k8s.io/"];

impl Analyzer for K8sGatewayApi {
    fn tech(&self) -> Tech {
        Tech::new("k8s_gateway_api", "Specification", "Kubernetes Gateway API")
            .specification()
            .aliases(["gateway_api", "httproute"])
            .files(["*.yaml", "*.yml"])
            .detect(Detect::files(["*.yaml", "*.yml"]).regex([k8s::kind_regex("HTTPRoute")]))
            .supports(Supports {
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        k8s::objects(file, "HTTPRoute", &GROUPS, |obj| route(file, obj, out));
    }
}

fn route(file: &SourceFile, obj: &Object<'_>, out: &mut Output) {
    let Some(rules) = obj.value.pointer("/spec/rules").and_then(Value::as_array) else {
        return;
    };
    let empty = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let matches = rule
            .get("matches")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        if matches.is_empty() {
            let line = obj.line(&[Seg::Key("spec"), Seg::Key("rules"), Seg::Index(i)]);
            for method in ANY_METHODS {
                out.endpoint(Endpoint::new(method, "/").at(file, line));
            }
            continue;
        }
        for (k, m) in matches.iter().enumerate() {
            let path = m.get("path");
            let Some(value) = k8s::literal_path(path.and_then(|p| p.get("value"))) else {
                continue;
            };
            let kind = path
                .and_then(|p| p.get("type"))
                .and_then(Value::as_str)
                .unwrap_or("PathPrefix");
            let urls = if kind == "RegularExpression" {
                regex_path::routes(&value).unwrap_or_default()
            } else {
                vec![value]
            };
            let methods: Vec<String> = match m.get("method").and_then(Value::as_str) {
                Some(method) => vec![method.to_ascii_uppercase()],
                None => ANY_METHODS.iter().map(|m| m.to_string()).collect(),
            };
            let mut params = matchers(m.get("headers"), Param::header);
            params.extend(matchers(m.get("queryParams"), Param::query));
            let line = obj.line(&[
                Seg::Key("spec"),
                Seg::Key("rules"),
                Seg::Index(i),
                Seg::Key("matches"),
                Seg::Index(k),
            ]);
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
}

/// `[{name, value, type}]` header or query matches as params.
fn matchers(list: Option<&Value>, make: fn(String) -> Param) -> Vec<Param> {
    let Some(list) = list.and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|h| {
            let name = h.get("name").and_then(str_of)?;
            let exact = h.get("type").and_then(Value::as_str).unwrap_or("Exact") == "Exact";
            let value = h
                .get("value")
                .and_then(str_of)
                .filter(|_| exact)
                .unwrap_or_default();
            Some(make(name).value(value))
        })
        .collect()
}
