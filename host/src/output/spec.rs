//! What OpenAPI (2 and 3) and Postman output share: an endpoint's URL as an
//! API path, and the report grouped into operations.
//!
//! - The path is the URL without query or fragment, without the `-u` base
//!   URL (or any other origin), with every placeholder syntax written
//!   `{name}` (`:id`, `<int:id>`, `{id:\d+}`, `*rest` → `{id}`, `{rest}`).
//! - Endpoints that land on the same (path, method) form one operation with
//!   the union of their params (by name and type).
//! - An operation's path params are exactly the path's placeholders, in
//!   order: OpenAPI requires one `in: path` parameter per template name.
//! - WebSocket endpoints are not HTTP operations and are left out; so are
//!   endpoints of other protocols (mobile deep links, command-line programs
//!   `cli://…`), with one log line saying how many.

use crate::model::{Endpoint, Param, ParamType, Report};
use crate::optimize;

pub struct Operation<'a> {
    pub path: String,
    pub method: String,
    /// Params in first-seen order, path params last in template order.
    pub params: Vec<Param>,
    pub endpoints: Vec<&'a Endpoint>,
}

impl Operation<'_> {
    pub fn of_type(&self, t: ParamType) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(move |p| p.param_type == t)
    }

    pub fn has(&self, t: ParamType) -> bool {
        self.of_type(t).next().is_some()
    }
}

/// The URL as an API path (see the module doc).
pub fn api_path(url: &str, base_url: Option<&str>) -> String {
    let (path, _) = optimize::split_query(url);
    let mut path = path;
    if let Some(base) = base_url.map(|b| b.trim_end_matches('/')) {
        if !base.is_empty() {
            if let Some(rest) = path.strip_prefix(base) {
                if rest.is_empty() || rest.starts_with('/') {
                    path = rest;
                }
            }
        }
    }
    if let Some(i) = path.find("://") {
        let after = &path[i + 3..];
        path = after.find('/').map_or("", |j| &after[j..]);
    }
    let unified = optimize::unify_placeholders(path);
    if unified.starts_with('/') {
        unified
    } else {
        format!("/{unified}")
    }
}

/// Names of the `{name}` placeholders of an API path, in order.
pub fn template_names(path: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
        rest = &rest[open + close + 1..];
    }
    names
}

/// The report's HTTP endpoints grouped by (API path, method), in report
/// order. WebSocket endpoints and other protocols (mobile deep links,
/// Android components) are left out: an HTTP API document cannot describe
/// them.
pub fn operations<'a>(report: &'a Report, base_url: Option<&str>) -> Vec<Operation<'a>> {
    let mut ops: Vec<Operation<'a>> = Vec::new();
    let other = report
        .endpoints
        .iter()
        .filter(|e| !e.is_websocket() && !e.is_http())
        .count();
    if other > 0 {
        crate::log::info(format!(
            "Left out {other} endpoint(s) that are not HTTP (command-line programs, mobile deep links): an HTTP API document cannot describe them."
        ));
    }
    for e in report
        .endpoints
        .iter()
        .filter(|e| !e.is_websocket() && e.is_http())
    {
        let path = api_path(&e.url, base_url);
        let op = match ops
            .iter()
            .position(|o| o.path == path && o.method == e.method)
        {
            Some(i) => &mut ops[i],
            None => {
                ops.push(Operation {
                    path,
                    method: e.method.clone(),
                    params: Vec::new(),
                    endpoints: Vec::new(),
                });
                let last = ops.len() - 1;
                &mut ops[last]
            }
        };
        op.endpoints.push(e);
        for p in e.params.iter().filter(|p| p.param_type != ParamType::Path) {
            if !op
                .params
                .iter()
                .any(|q| q.name == p.name && q.param_type == p.param_type)
            {
                op.params.push(p.clone());
            }
        }
    }
    for op in &mut ops {
        for name in template_names(&op.path) {
            let value = op
                .endpoints
                .iter()
                .flat_map(|e| e.params.iter())
                .find(|p| p.param_type == ParamType::Path && p.name == name)
                .map(|p| p.value.clone())
                .unwrap_or_default();
            op.params.push(Param {
                value,
                ..Param::new(name, ParamType::Path)
            });
        }
    }
    ops
}

/// The server URL: `-u` without a trailing `/`, else `http://localhost`.
pub fn server_url(base_url: Option<&str>) -> String {
    match base_url.map(|b| b.trim_end_matches('/')) {
        Some(b) if !b.is_empty() => b.to_string(),
        _ => "http://localhost".into(),
    }
}

/// The Path Item key of a method: its lower-case name when the OpenAPI
/// version has a field for it (`allowed`), else an `x-` extension (`x-query`,
/// `x-connect`), which keeps the operation and still validates.
pub fn operation_key(method: &str, allowed: &[&str]) -> String {
    let key = method.to_ascii_lowercase();
    if allowed.contains(&key.as_str()) {
        key
    } else {
        format!("x-{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(api_path("/users/<int:id>?x=1", None), "/users/{id}");
        assert_eq!(api_path("/users/:id/:name?", None), "/users/{id}/{name}");
        assert_eq!(api_path("/u/{id:int}", None), "/u/{id}");
        assert_eq!(
            api_path("http://h:1/api/u/{id}", Some("http://h:1/api/")),
            "/u/{id}"
        );
        assert_eq!(api_path("http://other/x", Some("http://h")), "/x");
        assert_eq!(api_path("http://h", Some("http://h")), "/");
        assert_eq!(template_names("/a/{x}/b/{y}.{z}"), ["x", "y", "z"]);
    }

    #[test]
    fn same_route_spelled_twice_is_one_operation() {
        let mut a = Endpoint::new("GET", "/u/<int:id>");
        a.params.push(Param::new("q", ParamType::Query));
        a.params.push(Param::new("id", ParamType::Path));
        let mut b = Endpoint::new("GET", "/u/{id}");
        b.params.push(Param::new("q", ParamType::Query));
        b.params.push(Param::new("r", ParamType::Query));
        let mut ws = Endpoint::new("GET", "/ws");
        ws.protocol = "ws".into();
        let r = crate::output::testing::report(vec![a, b, ws]);
        let ops = operations(&r, None);
        assert_eq!(ops.len(), 1);
        let names: Vec<_> = ops[0].params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["q", "r", "id"]);
    }
}
