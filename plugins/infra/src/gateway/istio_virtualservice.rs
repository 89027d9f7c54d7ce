//! Istio `VirtualService` resources (`networking.istio.io/v1`, `v1beta1`,
//! `v1alpha3`): each `spec.http[].match[]` entry is a route.
//!
//! - URL: `uri.exact` and `uri.prefix` as written; `uri.regex` read by
//!   [`crate::common::regex_path`]. An `http` route without `match` is a
//!   catch-all, reported as `/`.
//! - Methods: `method.exact` (or `method.regex` of literal alternatives,
//!   `GET|HEAD`); without one, GET, POST, PUT, PATCH and DELETE.
//! - Params: `headers` (header) and `queryParams` (query) matches, with the
//!   value they must have when it is `exact`. Istio's own pseudo-headers
//!   (`:authority`) are left out.
//! - Multi-document files, `kind: List` and Helm templates are read as for
//!   [`crate::k8s_ingress`]; a document that does not parse gets a warning
//!   naming the file.
//! - Location: the match entry (or the `http` route when it has none).

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::k8s::{self, Object};
use crate::common::yaml::{str_of, TEMPLATE};
use crate::common::{literal_methods, regex_path, ANY_METHODS};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct IstioVirtualService;

const GROUPS: [&str; 1] = ["networking.istio.io/"];

impl Analyzer for IstioVirtualService {
    fn tech(&self) -> Tech {
        Tech::new(
            "istio_virtualservice",
            "Specification",
            "Istio VirtualService",
        )
        .specification()
        .aliases(["istio", "virtualservice"])
        .files(["*.yaml", "*.yml"])
        .detect(Detect::files(["*.yaml", "*.yml"]).regex([k8s::kind_regex("VirtualService")]))
        .supports(Supports {
            body: false,
            cookie: false,
            ..Supports::HTTP
        })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        k8s::objects(file, "VirtualService", &GROUPS, |obj| {
            virtual_service(file, obj, out)
        });
    }
}

fn virtual_service(file: &SourceFile, obj: &Object<'_>, out: &mut Output) {
    let Some(routes) = obj.value.pointer("/spec/http").and_then(Value::as_array) else {
        return;
    };
    for (i, route) in routes.iter().enumerate() {
        let matches = route
            .get("match")
            .and_then(Value::as_array)
            .filter(|m| !m.is_empty());
        let Some(matches) = matches else {
            let line = obj.line(&[Seg::Key("spec"), Seg::Key("http"), Seg::Index(i)]);
            for method in ANY_METHODS {
                out.endpoint(Endpoint::new(method, "/").at(file, line));
            }
            continue;
        };
        for (k, m) in matches.iter().enumerate() {
            let urls = match m.get("uri") {
                None => vec!["/".to_string()],
                Some(uri) => uri_routes(uri),
            };
            let methods = m.get("method").map_or_else(any_methods, methods_of);
            let mut params = matchers(m.get("headers"), Param::header);
            params.extend(matchers(m.get("queryParams"), Param::query));
            let line = obj.line(&[
                Seg::Key("spec"),
                Seg::Key("http"),
                Seg::Index(i),
                Seg::Key("match"),
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

fn any_methods() -> Vec<String> {
    ANY_METHODS.iter().map(|m| m.to_string()).collect()
}

/// `{exact|prefix|regex: …}` of a URI match.
fn uri_routes(uri: &Value) -> Vec<String> {
    let text = |k: &str| {
        uri.get(k)
            .and_then(str_of)
            .filter(|s| !s.contains(TEMPLATE))
    };
    if let Some(v) = text("exact").or_else(|| text("prefix")) {
        return vec![v];
    }
    text("regex")
        .and_then(|r| regex_path::routes(&r))
        .unwrap_or_default()
}

/// `{exact: GET}`, `{regex: "GET|HEAD"}`; anything else is any method.
fn methods_of(m: &Value) -> Vec<String> {
    if let Some(v) = m.get("exact").and_then(Value::as_str) {
        return vec![v.to_ascii_uppercase()];
    }
    if let Some(alts) = m
        .get("regex")
        .and_then(Value::as_str)
        .and_then(literal_methods)
    {
        return alts;
    }
    any_methods()
}

/// `{name: {exact: v}}` header or query matches as params.
fn matchers(map: Option<&Value>, make: fn(String) -> Param) -> Vec<Param> {
    let Some(map) = map.and_then(Value::as_object) else {
        return Vec::new();
    };
    map.iter()
        .filter(|(name, _)| !name.starts_with(':'))
        .map(|(name, cond)| {
            let value = cond.get("exact").and_then(str_of).unwrap_or_default();
            make(name.clone()).value(value)
        })
        .collect()
}
