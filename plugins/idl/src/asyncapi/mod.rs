//! AsyncAPI 2.x and 3.x documents (YAML and JSON).
//!
//! Each operation — 2.x `publish`/`subscribe` under a channel, 3.x an entry
//! of `operations` with its `channel` — is an endpoint on each kind of
//! server that carries the channel (the channel's `servers`, else all):
//!
//! - `ws`/`wss` servers: a WebSocket endpoint (`GET`, protocol `ws`) at the
//!   server's path joined with the channel (2.x: its name; 3.x: its
//!   `address`, as a relative path per the specification). The channel's
//!   `bindings.ws` `query` and `headers` schemas give query and header
//!   params of the handshake.
//! - `http`/`https` servers: an HTTP endpoint; the method is the
//!   operation's `bindings.http.method`, else `POST` for what clients send
//!   (2.x `publish`, 3.x `action: receive`) and `GET` for what they receive
//!   (2.x `subscribe`, 3.x `action: send`). `bindings.http.query` gives
//!   query params.
//! - Other protocols (Kafka, AMQP, MQTT, …) are no HTTP surface: skipped. A
//!   document without servers is taken as WebSocket, or HTTP when the
//!   operation has an HTTP binding.
//! - Params: for operations clients send, the top-level properties of the
//!   message payload schemas (every message of a `oneOf` or of the
//!   operation's `messages`, `$ref`s followed) as json params and of their
//!   `headers` schemas as header params; what clients only receive is no
//!   input. Channel parameters (`{room}`) become path params from the URL.
//! - Location: the operation's key (`publish:` / `subscribe:`, or the
//!   3.x operation name).
//!
//! A channel published and subscribed on WebSocket is one endpoint in the
//! report (the two operations merge, both lines listed).

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::refs::Resolver;
use portolan_plugin_sdk::doc::schema::object_fields;
use portolan_plugin_sdk::doc::url::{expand_template, url_path};

pub struct AsyncApi;

const FILES: [&str; 3] = ["*.json", "*.yaml", "*.yml"];

/// A top-level `asyncapi: 2.x|3.x` key (YAML), or `"asyncapi": "2.x"` after
/// `{` or `,` (JSON).
const DETECT_REGEX: &str =
    r#"(?m)(?:^\x{FEFF}?["']?asyncapi["']?[ \t]*:|[{,]\s*["']?asyncapi["']?\s*:)\s*["']?[23]\.\d"#;

impl Analyzer for AsyncApi {
    fn tech(&self) -> Tech {
        Tech::new("asyncapi", "Specification", "AsyncAPI")
            .specification()
            .aliases(["async-api", "asyncapi2", "asyncapi3"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([DETECT_REGEX]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !declares_asyncapi(&file.content) || is_test_document(&file.path) {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let version = doc
            .get("asyncapi")
            .and_then(scalar_string)
            .unwrap_or_default();
        let v3 = if version.starts_with("3.") {
            true
        } else if version.starts_with("2.") {
            false
        } else {
            return;
        };
        let source = SourceMap::with_max_depth(&file.content, 3);
        let ctx = Ctx {
            file,
            doc: &doc,
            resolver: Resolver::new(&doc),
            source,
            v3,
        };
        for endpoint in ctx.endpoints() {
            out.endpoint(endpoint);
        }
    }
}

/// Cheap pre-check on the raw text: an `asyncapi` key at the start of a
/// line (YAML, pretty JSON) or after `{` (minified JSON).
fn declares_asyncapi(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start_matches('\u{feff}');
        let trimmed = line.trim_start();
        let key = trimmed.trim_start_matches('{').trim_start();
        (line.starts_with("asyncapi")
            || key.starts_with("\"asyncapi\"")
            || key.starts_with("'asyncapi'"))
            && key.contains(':')
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ws,
    Http,
}

struct Ctx<'a> {
    file: &'a SourceFile,
    doc: &'a Value,
    resolver: Resolver<'a>,
    source: SourceMap,
    v3: bool,
}

/// One operation, version-independent.
struct Op<'a> {
    /// The channel's path (2.x name, 3.x address).
    path: String,
    channel: &'a Value,
    /// Clients send it (2.x publish, 3.x receive).
    inbound: bool,
    operation: &'a Value,
    messages: Vec<&'a Value>,
    /// Names of the servers it is on; empty = all.
    servers: Vec<String>,
    line: u32,
}

impl<'a> Ctx<'a> {
    fn warn(&self, what: &str) {
        host::warn(&format!("{}: {what}", self.file.path));
    }

    fn line(&self, path: &[Seg<'_>]) -> u32 {
        self.source
            .line(path)
            .unwrap_or_else(|| self.source.nearest_line(path))
    }

    fn object(&self, value: Option<&'a Value>) -> Option<&'a Map<String, Value>> {
        self.resolver.resolve(value?).as_object()
    }

    fn endpoints(&self) -> Vec<Endpoint> {
        let ops = if self.v3 {
            self.ops_v3()
        } else {
            self.ops_v2()
        };
        let servers = self.object(self.doc.get("servers"));
        let mut out = Vec::new();
        for op in ops {
            // (kind, base path) of the servers carrying the channel.
            let mut targets: Vec<(Kind, String)> = Vec::new();
            let http_binding = self.http_binding(&op);
            match servers.filter(|s| !s.is_empty()) {
                None => {
                    let kind = if http_binding.is_some() {
                        Kind::Http
                    } else {
                        Kind::Ws
                    };
                    targets.push((kind, String::new()));
                }
                Some(servers) => {
                    for (name, server) in servers {
                        if !op.servers.is_empty() && !op.servers.contains(name) {
                            continue;
                        }
                        let server = self.resolver.resolve(server);
                        let protocol = server
                            .get("protocol")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_ascii_lowercase();
                        let kind = match protocol.as_str() {
                            "ws" | "wss" => Kind::Ws,
                            "http" | "https" => Kind::Http,
                            _ => continue,
                        };
                        if !targets.iter().any(|(k, _)| *k == kind) {
                            targets.push((kind, self.server_path(server)));
                        }
                    }
                }
            }
            for (kind, base) in targets {
                let url = join(&base, &op.path);
                let endpoint = match kind {
                    Kind::Ws => {
                        let ws = self
                            .object(op.channel.get("bindings"))
                            .and_then(|b| b.get("ws"));
                        let mut e = Endpoint::websocket(url);
                        if let Some(ws) = ws {
                            e = e
                                .params(self.fields(ws.get("query")).into_iter().map(Param::query))
                                .params(
                                    self.fields(ws.get("headers"))
                                        .into_iter()
                                        .map(Param::header),
                                );
                        }
                        e
                    }
                    Kind::Http => {
                        let method = http_binding
                            .and_then(|b| b.get("method"))
                            .and_then(Value::as_str)
                            .unwrap_or(if op.inbound { "POST" } else { "GET" });
                        let query = http_binding
                            .map(|b| self.fields(b.get("query")))
                            .unwrap_or_default();
                        Endpoint::new(method, url).params(query.into_iter().map(Param::query))
                    }
                };
                let mut endpoint = endpoint;
                if op.inbound {
                    for message in &op.messages {
                        endpoint = endpoint
                            .params(
                                self.fields(message.get("payload"))
                                    .into_iter()
                                    .map(Param::json),
                            )
                            .params(
                                self.fields(message.get("headers"))
                                    .into_iter()
                                    .map(Param::header),
                            );
                    }
                }
                out.push(endpoint.at(self.file, op.line));
            }
        }
        out
    }

    /// The operation's `bindings.http`.
    fn http_binding(&self, op: &Op<'a>) -> Option<&'a Value> {
        self.object(op.operation.get("bindings"))?.get("http")
    }

    /// The top-level property names of a schema.
    fn fields(&self, schema: Option<&'a Value>) -> Vec<String> {
        schema
            .map(|s| {
                object_fields(&self.resolver, s)
                    .into_iter()
                    .map(|f| f.name)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The path of a server: 2.x `url` (the scheme is optional there), 3.x
    /// `pathname`; `{variables}` expanded with their defaults.
    fn server_path(&self, server: &Value) -> String {
        let raw = if self.v3 {
            server.get("pathname").and_then(Value::as_str).unwrap_or("")
        } else {
            server.get("url").and_then(Value::as_str).unwrap_or("")
        };
        let expanded = expand_template(raw, |name| {
            let variable = self.resolver.resolve(server.get("variables")?.get(name)?);
            scalar_string(variable.get("default")?)
        });
        if self.v3 || expanded.contains("://") || expanded.starts_with('/') {
            url_path(&expanded)
        } else {
            // `api.example.com:8080/ws`: a host, then the path.
            expanded
                .find('/')
                .map_or(String::new(), |i| url_path(&expanded[i..]))
        }
    }

    fn ops_v2(&self) -> Vec<Op<'a>> {
        let Some(channels) = self.doc.get("channels") else {
            return Vec::new();
        };
        let Some(channels) = channels.as_object() else {
            self.warn("`channels` is not a mapping");
            return Vec::new();
        };
        let mut ops = Vec::new();
        for (name, channel) in channels {
            let channel = self.resolver.resolve(channel);
            let servers: Vec<String> = channel
                .get("servers")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            for (key, inbound) in [("publish", true), ("subscribe", false)] {
                let Some(operation) = channel.get(key) else {
                    continue;
                };
                let operation = self.resolver.resolve(operation);
                let messages = match operation.get("message").map(|m| self.resolver.resolve(m)) {
                    Some(m) => match m.get("oneOf").and_then(Value::as_array) {
                        Some(list) => list.iter().map(|m| self.resolver.resolve(m)).collect(),
                        None => vec![m],
                    },
                    None => Vec::new(),
                };
                ops.push(Op {
                    path: name.clone(),
                    channel,
                    inbound,
                    operation,
                    messages,
                    servers: servers.clone(),
                    line: self.line(&[Seg::Key("channels"), Seg::Key(name), Seg::Key(key)]),
                });
            }
        }
        ops
    }

    fn ops_v3(&self) -> Vec<Op<'a>> {
        let Some(operations) = self.doc.get("operations") else {
            return Vec::new();
        };
        let Some(operations) = operations.as_object() else {
            self.warn("`operations` is not a mapping");
            return Vec::new();
        };
        let mut ops = Vec::new();
        for (name, operation) in operations {
            let operation = self.resolver.resolve(operation);
            let line = self.line(&[Seg::Key("operations"), Seg::Key(name)]);
            let Some(channel) = operation
                .get("channel")
                .and_then(|c| self.resolver.deref(c))
            else {
                self.warn(&format!("operation `{name}` has no resolvable `channel`"));
                continue;
            };
            let path = channel.get("address").and_then(Value::as_str).unwrap_or("");
            let inbound = operation.get("action").and_then(Value::as_str) == Some("receive");
            let messages: Vec<&Value> = match operation.get("messages").and_then(Value::as_array) {
                Some(list) => list.iter().map(|m| self.resolver.resolve(m)).collect(),
                None => self
                    .object(channel.get("messages"))
                    .map(|m| m.values().map(|m| self.resolver.resolve(m)).collect())
                    .unwrap_or_default(),
            };
            // `servers: [{$ref: '#/servers/prod'}]` → `prod`.
            let servers = channel
                .get("servers")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(|s| s.get("$ref")?.as_str()?.strip_prefix("#/servers/"))
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            ops.push(Op {
                path: path.to_string(),
                channel,
                inbound,
                operation,
                messages,
                servers,
                line,
            });
        }
        ops
    }
}

/// Server path + channel path with one `/` between them.
fn join(base: &str, path: &str) -> String {
    let base = base.trim_end_matches('/');
    let path = path.trim().trim_start_matches('/');
    if path.is_empty() {
        return if base.is_empty() {
            "/".into()
        } else {
            base.into()
        };
    }
    format!("{base}/{path}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pre_check() {
        assert!(declares_asyncapi("asyncapi: '2.6.0'\n"));
        assert!(declares_asyncapi("{\n  \"asyncapi\": \"3.0.0\"}"));
        assert!(declares_asyncapi("{\"asyncapi\":\"3.0.0\"}"));
        assert!(!declares_asyncapi(
            "openapi: 3.0.0\ninfo:\n  description: asyncapi: no\n"
        ));
    }

    #[test]
    fn joins() {
        assert_eq!(join("/ws/", "/chat/{room}"), "/ws/chat/{room}");
        assert_eq!(join("", "user.signup"), "/user.signup");
        assert_eq!(join("/ws", ""), "/ws");
        assert_eq!(join("", ""), "/");
    }
}
