//! Apache APISIX routes in standalone mode (`apisix.yaml` / `apisix.json`,
//! the file the data plane reads, ending with `#END`): every `routes[]`
//! item is a route.
//!
//! - URL: `uri`, or each of `uris`. APISIX's radixtree router reads
//!   `:name` segments as parameters (`/users/:id` → `/users/{id}`), a
//!   trailing `*` as "any rest" (`/api/*` → `/api/`) and `*name` as a
//!   named rest (`/files/*path` → `/files/{path}`). A route without `uri`
//!   is `/`.
//! - Methods: `methods`; without them, GET, POST, PUT, PATCH and DELETE.
//!   Routes switched off with `status: 0` are skipped.
//! - Params: the `vars` conditions on request variables: `arg_x` (query),
//!   `http_x` (header `X`, underscores as dashes), `cookie_x` (cookie); a
//!   `==` condition gives the value.
//! - Location: the route item. A file that does not parse gets a warning
//!   naming it.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, str_of};
use crate::common::{header_name, ANY_METHODS};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct Apisix;

const FILES: [&str; 3] = ["apisix.yaml", "apisix.yml", "apisix.json"];

impl Analyzer for Apisix {
    fn tech(&self) -> Tech {
        Tech::new("apisix", "Specification", "Apache APISIX")
            .specification()
            .files(FILES)
            .detect(Detect::files(FILES).contains(["routes"]))
            .supports(Supports {
                body: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        for doc in yaml::documents(file) {
            let Some(routes) = doc.value.get("routes").and_then(Value::as_array) else {
                continue;
            };
            for (i, route) in routes.iter().enumerate() {
                if route.get("status").and_then(Value::as_i64) == Some(0) {
                    continue;
                }
                let mut uris: Vec<String> = route.get("uri").and_then(str_of).into_iter().collect();
                if let Some(list) = route.get("uris").and_then(Value::as_array) {
                    uris.extend(list.iter().filter_map(str_of));
                }
                if uris.is_empty() {
                    uris.push("/".into());
                }
                let methods: Vec<String> = match route.get("methods").and_then(Value::as_array) {
                    Some(list) if !list.is_empty() => list
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_ascii_uppercase)
                        .collect(),
                    _ => ANY_METHODS.iter().map(|m| m.to_string()).collect(),
                };
                let params = vars(route.get("vars"));
                let line = doc.line(&[Seg::Key("routes"), Seg::Index(i)]);
                for uri in &uris {
                    let url = radix_path(uri);
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
}

/// `/users/:id` → `/users/{id}`, `/api/*` → `/api/`, `/f/*path` →
/// `/f/{path}`.
fn radix_path(uri: &str) -> String {
    let segs: Vec<String> = uri
        .split('/')
        .map(|s| {
            if let Some(name) = s.strip_prefix(':').filter(|n| !n.is_empty()) {
                format!("{{{name}}}")
            } else if let Some(name) = s.strip_prefix('*') {
                if name.is_empty() {
                    String::new()
                } else {
                    format!("{{{name}}}")
                }
            } else {
                s.strip_suffix('*').unwrap_or(s).to_string()
            }
        })
        .collect();
    let url = segs.join("/");
    if url.is_empty() {
        "/".into()
    } else {
        url
    }
}

/// `[["arg_name", "==", "json"], ["http_x_api_version", "~~", "v[12]"]]`.
fn vars(v: Option<&Value>) -> Vec<Param> {
    let mut out = Vec::new();
    let Some(list) = v.and_then(Value::as_array) else {
        return out;
    };
    for cond in list {
        let Some(items) = cond.as_array() else {
            continue;
        };
        let Some(var) = items.first().and_then(Value::as_str) else {
            continue;
        };
        let value = match (items.get(1).and_then(Value::as_str), items.get(2)) {
            (Some("==" | "eq"), Some(v)) => str_of(v).unwrap_or_default(),
            _ => String::new(),
        };
        let param = if let Some(n) = var.strip_prefix("arg_") {
            Param::query(n)
        } else if let Some(n) = var.strip_prefix("http_") {
            Param::header(header_name(n))
        } else if let Some(n) = var.strip_prefix("cookie_") {
            Param::cookie(n)
        } else {
            continue;
        };
        out.push(param.value(value));
    }
    out
}
