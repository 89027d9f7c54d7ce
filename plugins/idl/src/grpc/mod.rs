//! Protocol Buffers service definitions (`.proto`, proto2 and proto3).
//!
//! - Each `rpc M(Req) returns (Resp)` of `service S` in `package a.b` is
//!   `POST /a.b.S/M` — the HTTP/2 request path gRPC uses (`/S/M` without a
//!   package). Streaming rpcs are included (same path). Protocol `http`:
//!   gRPC is plain HTTP/2 POST, and the `grpc` protocol of Noir's HEAD would
//!   make command and OpenAPI outputs skip the endpoint.
//! - Params: the fields of the request message as json params (the names
//!   as declared: protobuf's JSON mapping accepts them, and `oneof` members
//!   and `map` fields count as fields). The request type is resolved like
//!   protoc does — relative names from the innermost package scope outwards,
//!   `.a.b.T` absolute — among the messages of every `.proto` file of the
//!   tree, nested ones included (`Outer.Inner`); hence the map/reduce:
//!   `analyze` records messages and rpcs as facts, `link` resolves them.
//!   Imports need no reading: files outside the tree (well-known types such
//!   as `google.protobuf.Empty`) simply contribute no fields.
//! - `option (google.api.http) = { get: "/v1/{name=items/*}" body: "*" }`
//!   (gRPC transcoding, grpc-gateway, Envoy) adds the REST route too, with
//!   `additional_bindings` and `custom` kinds: template variables become
//!   `{name}` path params, the `body` field(s) json params, and the other
//!   request fields query params.
//! - Location: the line of the `rpc` keyword. Comments are ignored, and so
//!   are files under test directories.

mod parse;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use portolan_plugin_sdk::doc::is_test_document;

pub struct Grpc;

/// A `service` block (the brace may sit on the next line).
const DETECT_REGEX: &str = r"(?m)^[ \t]*service[ \t]+[A-Za-z_][A-Za-z0-9_]*\s*\{";

#[derive(Debug, Serialize, Deserialize)]
enum Fact {
    Message {
        name: String,
        fields: Vec<String>,
    },
    Rpc {
        path: String,
        line: u32,
        package: String,
        service: String,
        method: String,
        request: String,
        /// (method, path template, body)
        http: Vec<(String, String, Option<String>)>,
    },
}

impl Analyzer for Grpc {
    fn tech(&self) -> Tech {
        Tech::new("grpc", "Specification", "gRPC (Protocol Buffers)")
            .specification()
            .aliases(["protobuf", "proto", "grpc-proto"])
            .files(["*.proto"])
            .detect(Detect::files(["*.proto"]).regex([DETECT_REGEX]))
            .supports(Supports {
                method: true,
                query: true,
                path: true,
                body: true,
                header: false,
                cookie: false,
                websocket: false,
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let proto = parse::parse(&file.content);
        for (at, message) in &proto.errors {
            host::warn(&format!(
                "{}:{}: invalid protobuf definition: {message}",
                file.path,
                file.line_of(*at)
            ));
        }
        for m in proto.messages {
            out.fact(&Fact::Message {
                name: m.name,
                fields: m.fields.into_iter().map(|(name, _)| name).collect(),
            });
        }
        for rpc in proto.rpcs {
            out.fact(&Fact::Rpc {
                path: file.path.clone(),
                line: file.line_of(rpc.at),
                package: proto.package.clone(),
                service: rpc.service,
                method: rpc.name,
                request: rpc.request,
                http: rpc
                    .http
                    .into_iter()
                    .map(|h| (h.method, h.path, h.body))
                    .collect(),
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let messages: Vec<(&str, &[String])> = facts
            .iter()
            .filter_map(|f| match f {
                Fact::Message { name, fields } => Some((name.as_str(), fields.as_slice())),
                Fact::Rpc { .. } => None,
            })
            .collect();
        let mut endpoints = Vec::new();
        for fact in &facts {
            let Fact::Rpc {
                path,
                line,
                package,
                service,
                method,
                request,
                http,
            } = fact
            else {
                continue;
            };
            let fields: &[String] = resolve(&messages, package, request).unwrap_or(&[]);
            let url = if package.is_empty() {
                format!("/{service}/{method}")
            } else {
                format!("/{package}.{service}/{method}")
            };
            endpoints.push(
                Endpoint::new("POST", url)
                    .params(fields.iter().map(Param::json))
                    .at_path(path.clone(), *line),
            );
            for (verb, template, body) in http {
                let (route, variables) = http_template(template);
                if route.is_empty() {
                    continue;
                }
                let mut endpoint = Endpoint::new(verb, route);
                for field in fields {
                    let top = |v: &String| v.split('.').next() == Some(field.as_str());
                    if variables.iter().any(top) {
                        continue;
                    }
                    let param = match body.as_deref() {
                        Some("*") => Param::json(field),
                        Some(b) if b == field => Param::json(field),
                        _ => Param::query(field),
                    };
                    endpoint.push_param(param);
                }
                endpoints.push(endpoint.at_path(path.clone(), *line));
            }
        }
        Ok(endpoints)
    }
}

/// The fields of the message `name` as referenced from `package`.
fn resolve<'a>(
    messages: &[(&str, &'a [String])],
    package: &str,
    name: &str,
) -> Option<&'a [String]> {
    let find = |full: &str| messages.iter().find(|(n, _)| *n == full).map(|(_, f)| *f);
    if let Some(absolute) = name.strip_prefix('.') {
        return find(absolute);
    }
    let mut scope = package;
    loop {
        let full = if scope.is_empty() {
            name.to_string()
        } else {
            format!("{scope}.{name}")
        };
        if let Some(fields) = find(&full) {
            return Some(fields);
        }
        if scope.is_empty() {
            return None;
        }
        scope = scope.rfind('.').map_or("", |i| &scope[..i]);
    }
}

/// A `google.api.http` path template as a route with `{var}` placeholders
/// (`/v1/{name=shelves/*/books/*}` → `/v1/{name}`; a `:verb` suffix is
/// kept), and the variables' field paths.
fn http_template(template: &str) -> (String, Vec<String>) {
    let mut route = String::new();
    let mut variables = Vec::new();
    let mut rest = template.trim();
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        route.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + close];
        let field = inner.split('=').next().unwrap_or("").trim();
        route.push('{');
        route.push_str(field);
        route.push('}');
        variables.push(field.to_string());
        rest = &rest[open + close + 1..];
    }
    route.push_str(rest);
    (route, variables)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_and_absolute_names() {
        let a = ["a".to_string()];
        let b = ["b".to_string()];
        let c = ["c".to_string()];
        let messages: Vec<(&str, &[String])> = vec![("x.y.Req", &a), ("x.Req", &b), ("Top", &c)];
        assert_eq!(resolve(&messages, "x.y", "Req"), Some(&a[..]));
        assert_eq!(resolve(&messages, "x.z", "Req"), Some(&b[..]));
        assert_eq!(resolve(&messages, "x.y", ".x.Req"), Some(&b[..]));
        assert_eq!(resolve(&messages, "x.y", "Top"), Some(&c[..]));
        assert_eq!(resolve(&messages, "x.y", "y.Req"), Some(&a[..]));
        assert_eq!(resolve(&messages, "", "google.protobuf.Empty"), None);
    }

    #[test]
    fn templates() {
        assert_eq!(
            http_template("/v1/{name=shelves/*/books/*}:publish"),
            ("/v1/{name}:publish".to_string(), vec!["name".to_string()])
        );
        assert_eq!(
            http_template("/v1/users/{user.id}/x/{open"),
            (
                "/v1/users/{user.id}/x/{open".to_string(),
                vec!["user.id".to_string()]
            )
        );
    }
}
