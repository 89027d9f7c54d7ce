//! Kong declarative configuration (`kong.yml` / `kong.yaml` / `kong.json`,
//! decK state files): every route with `paths` is a route.
//!
//! - Routes nested under `services[].routes[]` and top-level `routes[]`
//!   (pointing at a service by name) alike. Kong matches `paths` by prefix;
//!   each path is reported as written. Regex paths (`~/users/(?<id>\d+)$`,
//!   Kong 3.x) are read by [`crate::common::regex_path`]; named groups become
//!   path params. A route without `paths` (host-only routing) is `/`.
//! - Methods: the route's `methods`; without them, GET, POST, PUT, PATCH and
//!   DELETE. A route whose `protocols` are only `grpc`/`grpcs`/`tcp`/`tls`/
//!   `udp` is no HTTP route and is skipped.
//! - Params: `headers` (header name → accepted values; a single value is
//!   kept as the example).
//! - Detection: a YAML/JSON document with `_format_version` and `services`
//!   or `routes`. A document that does not parse gets a warning naming the
//!   file.
//! - Location: the route item.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, segs, str_of, Doc, Step};
use crate::common::{regex_path, ANY_METHODS};

pub struct Kong;

const FILES: [&str; 4] = ["*.yml", "*.yaml", "kong.json", "*kong*.json"];

impl Analyzer for Kong {
    fn tech(&self) -> Tech {
        Tech::new("kong", "Specification", "Kong Gateway")
            .specification()
            .aliases(["kong_declarative", "deck"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([r#"(?m)^\s*"?_format_version"?\s*:"#]))
            .supports(Supports {
                query: false,
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) || !file.content.contains("_format_version") {
            return;
        }
        for doc in yaml::documents(file) {
            if doc.value.get("_format_version").is_none() {
                continue;
            }
            if let Some(services) = doc.value.get("services").and_then(Value::as_array) {
                for (i, service) in services.iter().enumerate() {
                    let Some(routes) = service.get("routes").and_then(Value::as_array) else {
                        continue;
                    };
                    for (j, route) in routes.iter().enumerate() {
                        let at = [
                            Step::Key("services".into()),
                            Step::Index(i),
                            Step::Key("routes".into()),
                            Step::Index(j),
                        ];
                        emit(file, &doc, route, &at, out);
                    }
                }
            }
            if let Some(routes) = doc.value.get("routes").and_then(Value::as_array) {
                for (j, route) in routes.iter().enumerate() {
                    let at = [Step::Key("routes".into()), Step::Index(j)];
                    emit(file, &doc, route, &at, out);
                }
            }
        }
    }
}

fn emit(file: &SourceFile, doc: &Doc, route: &Value, at: &[Step], out: &mut Output) {
    if let Some(protocols) = route.get("protocols").and_then(Value::as_array) {
        let http = protocols
            .iter()
            .filter_map(Value::as_str)
            .any(|p| p.eq_ignore_ascii_case("http") || p.eq_ignore_ascii_case("https"));
        if !http {
            return;
        }
    }
    let paths: Vec<String> = match route.get("paths").and_then(Value::as_array) {
        Some(list) if !list.is_empty() => list.iter().filter_map(str_of).collect(),
        _ => vec!["/".to_string()],
    };
    let methods: Vec<String> = match route.get("methods").and_then(Value::as_array) {
        Some(list) if !list.is_empty() => list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_ascii_uppercase)
            .collect(),
        _ => ANY_METHODS.iter().map(|m| m.to_string()).collect(),
    };
    let mut headers = Vec::new();
    if let Some(map) = route.get("headers").and_then(Value::as_object) {
        for (name, values) in map {
            let value = match values {
                Value::Array(v) if v.len() == 1 => v.first().and_then(str_of),
                Value::String(s) => Some(s.clone()),
                _ => None,
            };
            headers.push(Param::header(name.clone()).value(value.unwrap_or_default()));
        }
    }
    let line = doc.line(&segs(at));
    for path in paths {
        let urls = match path.strip_prefix('~') {
            Some(re) => regex_path::routes(re).unwrap_or_default(),
            None => vec![path],
        };
        for url in urls {
            for method in &methods {
                out.endpoint(
                    Endpoint::new(method, url.clone())
                        .params(headers.clone())
                        .at(file, line),
                );
            }
        }
    }
}
