//! Insomnia exports, format 4 (JSON or YAML; format 3 of Insomnia 5–6 has
//! the same resources), Insomnia 10+/11 collections and design documents,
//! format 5 (YAML, `type: collection.insomnia.rest/5.0` or
//! `spec.insomnia.rest/5.0`, whose `collection` has the same shape), and
//! the git-sync trees of Insomnia Designer (`.insomnia/Request/req_….yml`,
//! one resource per file, `type: Request` or `WebSocketRequest`): one
//! endpoint per request.
//!
//! A git-sync request is read alone, at line 1 of its file: its folders'
//! and environments' variables (other files) are not resolved, so a
//! leading `{{ base_url }}` is dropped as the server and other variables
//! become `{name}` placeholders.
//!
//! Format 5 nests the same request fields in a tree: `collection` lists
//! requests (items with a `url`) and folders (items with `children`, their
//! own variables in `environment`); the variables are `environments.data`
//! overridden by its first `subEnvironments` entry. Requests whose
//! `meta.id` starts with `ws-req_` are WebSocket endpoints; gRPC requests
//! (`greq_`, `protoMethodName`) are left to the gRPC analyzer. Location: the
//! request's item in `collection`.
//!
//! - Resources of `_type: request` are HTTP requests; `websocket_request`
//!   ones are WebSocket endpoints (GET, protocol `ws`). Request groups
//!   (folders) only scope variables; other resources are ignored.
//! - Variables (`{{ _.name }}`, `{{ name }}`, dotted `{{ _.api.host }}`):
//!   the workspace's base environment, overridden by its first
//!   sub-environment (the export does not say which one is active), then
//!   by each enclosing request group's `environment`, inner last. URLs
//!   follow [`portolan_plugin_sdk::doc::vars`]: an unknown leading variable is the server
//!   and dropped, other unknown ones become `{name}` path placeholders.
//!   Template tags (`{% response … %}`) are not evaluated.
//! - Params: enabled `parameters` (and the URL's own query) → `query`,
//!   `pathParameters` → `path`, enabled `headers` (`Cookie` split into
//!   cookies), the body: `params` → `form` (`file` for file parts), else its
//!   `text` by `mimeType` (JSON and GraphQL → `json`, urlencoded → `form`).
//! - Location: the request's resource entry.
//! - Authentication (the request's, else the innermost folder's that sets
//!   one; `none` sets none): bearer → `Authorization: Bearer <token>` (its
//!   `prefix` if set), basic, digest, OAuth, NTLM, Hawk, AWS IAM →
//!   `Authorization`, `apikey` → its key as a header, query param or cookie
//!   (`addTo`). An explicit `Authorization` header wins.
//! - Not read: unit tests, API specs embedded as
//!   text (`api_spec` / `spec.contents`: the OpenAPI analyzers read the
//!   document where it lives in the tree).

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::request::{body_params, header_params, query_params};
use portolan_plugin_sdk::doc::url::query_of;
use portolan_plugin_sdk::doc::vars::{substitute, url_path_of};

pub struct Insomnia;

/// `__export_format: 4` (or 3; JSON or YAML, quoted or not).
pub const DETECT_REGEX: &str = r#"["']?__export_format["']?\s*:\s*["']?[34]"#;

/// `type: collection.insomnia.rest/5.0` or `spec.insomnia.rest/5.0` (format
/// 5, YAML).
pub const DETECT_V5_REGEX: &str =
    r#"(?m)^["']?type["']?\s*:\s*["']?(?:collection|spec)\.insomnia\.rest/5"#;

/// One resource of an Insomnia Designer git-sync tree
/// (`.insomnia/Request/req_….yml`).
pub const DETECT_SYNC_REGEX: &str = r"(?m)^type:\s*(?:Request|WebSocketRequest)\s*$";

/// The `type` prefixes of format 5 documents that carry a `collection`.
const V5_TYPES: [&str; 2] = ["collection.insomnia.rest/5", "spec.insomnia.rest/5"];

/// Deepest `parentId` chain followed.
const MAX_DEPTH: usize = 64;

impl Analyzer for Insomnia {
    fn tech(&self) -> Tech {
        Tech::new("insomnia", "Specification", "Insomnia export")
            .specification()
            .files(["*.json", "*.yaml", "*.yml"])
            .detect(Detect::files(["*.json", "*.yaml", "*.yml"]).regex([
                DETECT_REGEX,
                DETECT_V5_REGEX,
                DETECT_SYNC_REGEX,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let v5 = V5_TYPES.iter().any(|t| file.content.contains(t));
        let sync = is_sync_resource(file);
        if !file.content.contains("__export_format") && !v5 && !sync {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        if v5
            && doc
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| V5_TYPES.iter().any(|v| t.starts_with(v)))
        {
            return collection_v5(file, &doc, out);
        }
        if sync {
            return sync_resource(file, &doc, out);
        }
        if doc.get("_type").and_then(Value::as_str) != Some("export") {
            return;
        }
        let format = doc.get("__export_format").and_then(scalar_string);
        if !matches!(format.as_deref(), Some("3" | "4")) {
            return;
        }
        let Some(resources) = doc.get("resources").and_then(Value::as_array) else {
            return host::warn(&format!("{}: no `resources` list", file.path));
        };
        let source = SourceMap::new(&file.content);
        let export = Export { resources };
        for (i, resource) in resources.iter().enumerate() {
            let kind = resource.get("_type").and_then(Value::as_str);
            let websocket = match kind {
                Some("request") => false,
                Some("websocket_request") => true,
                _ => continue,
            };
            let key = [Seg::Key("resources"), Seg::Index(i)];
            let line = source
                .line(&key)
                .unwrap_or_else(|| source.nearest_line(&key));
            let vars = export.variables(resource);
            let inherited = export.group_auth(resource);
            let endpoint = request(resource, websocket, &vars, inherited).at(file, line);
            out.endpoint(endpoint);
        }
    }
}

struct Export<'a> {
    resources: &'a [Value],
}

impl<'a> Export<'a> {
    fn by_id(&self, id: &str) -> Option<&'a Value> {
        self.resources
            .iter()
            .find(|r| r.get("_id").and_then(Value::as_str) == Some(id))
    }

    fn parent_id(resource: &Value) -> Option<&str> {
        resource.get("parentId").and_then(Value::as_str)
    }

    /// The `authentication` of the innermost enclosing group that sets one.
    fn group_auth(&self, request: &Value) -> Option<&'a Value> {
        let mut current = Self::parent_id(request);
        for _ in 0..MAX_DEPTH {
            let parent = current.and_then(|id| self.by_id(id))?;
            if let Some(auth) = parent.get("authentication").filter(|a| has_auth_type(a)) {
                return Some(auth);
            }
            current = Self::parent_id(parent);
        }
        None
    }

    /// The variables in scope for a request (see the module doc).
    fn variables(&self, request: &Value) -> Map<String, Value> {
        // Enclosing groups, innermost first, and the workspace.
        let mut groups = Vec::new();
        let mut workspace = None;
        let mut current = Self::parent_id(request);
        for _ in 0..MAX_DEPTH {
            let Some(parent) = current.and_then(|id| self.by_id(id)) else {
                break;
            };
            match parent.get("_type").and_then(Value::as_str) {
                Some("request_group") => groups.push(parent),
                Some("workspace") => {
                    workspace = parent.get("_id").and_then(Value::as_str);
                    break;
                }
                _ => {}
            }
            current = Self::parent_id(parent);
        }
        let mut vars = Map::new();
        let environment = |parent: Option<&str>| -> Option<&'a Value> {
            let parent = parent?;
            self.resources.iter().find(|r| {
                r.get("_type").and_then(Value::as_str) == Some("environment")
                    && Self::parent_id(r) == Some(parent)
            })
        };
        if let Some(base) = environment(workspace) {
            merge(&mut vars, base.get("data"));
            let base_id = base.get("_id").and_then(Value::as_str);
            if let Some(sub) = environment(base_id) {
                merge(&mut vars, sub.get("data"));
            }
        }
        for group in groups.iter().rev() {
            merge(&mut vars, group.get("environment"));
        }
        vars
    }
}

/// Is the file one resource of a git-sync tree: `<dir>/.insomnia/<Type>/…`
/// (YAML) with a top-level `type:` line?
fn is_sync_resource(file: &SourceFile) -> bool {
    let path = file.slash_path();
    let in_tree =
        path.contains(".insomnia/Request/") || path.contains(".insomnia/WebSocketRequest/");
    in_tree && (path.ends_with(".yml") || path.ends_with(".yaml"))
}

/// A request of a git-sync tree: one per file, its variables not resolved
/// (the environments live in other files; an unknown leading variable is
/// the server).
fn sync_resource(file: &SourceFile, doc: &Value, out: &mut Output) {
    let websocket = match doc.get("type").and_then(Value::as_str) {
        Some("Request") => false,
        Some("WebSocketRequest") => true,
        _ => return,
    };
    if !doc.get("url").is_some_and(Value::is_string) {
        return;
    }
    out.endpoint(request(doc, websocket, &Map::new(), None).at(file, 1));
}

/// A format 5 collection (see the module doc).
fn collection_v5(file: &SourceFile, doc: &Value, out: &mut Output) {
    let Some(items) = doc.get("collection").and_then(Value::as_array) else {
        return host::warn(&format!("{}: no `collection` list", file.path));
    };
    let mut vars = Map::new();
    if let Some(base) = doc.get("environments") {
        merge(&mut vars, base.get("data"));
        let first_sub = base
            .get("subEnvironments")
            .and_then(Value::as_array)
            .and_then(|subs| subs.first());
        if let Some(sub) = first_sub {
            merge(&mut vars, sub.get("data"));
        }
    }
    let source = SourceMap::new(&file.content);
    let mut path = vec![Seg::Key("collection")];
    walk_v5(file, &source, items, &vars, None, &mut path, out);
}

fn walk_v5<'a>(
    file: &SourceFile,
    source: &SourceMap,
    items: &'a [Value],
    vars: &Map<String, Value>,
    auth: Option<&'a Value>,
    path: &mut Vec<Seg<'a>>,
    out: &mut Output,
) {
    if path.len() > MAX_DEPTH * 2 {
        return;
    }
    for (i, item) in items.iter().enumerate() {
        path.push(Seg::Index(i));
        if let Some(children) = item.get("children").and_then(Value::as_array) {
            let mut scoped = vars.clone();
            merge(&mut scoped, item.get("environment"));
            path.push(Seg::Key("children"));
            let auth = item
                .get("authentication")
                .filter(|a| has_auth_type(a))
                .or(auth);
            walk_v5(file, source, children, &scoped, auth, path, out);
            path.pop();
        } else if item.get("url").is_some_and(Value::is_string) {
            let id = item
                .get("meta")
                .and_then(|m| m.get("id"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let grpc = id.starts_with("greq_") || item.get("protoMethodName").is_some();
            if !grpc {
                let websocket = id.starts_with("ws-req_");
                let line = source
                    .line(path)
                    .unwrap_or_else(|| source.nearest_line(path));
                out.endpoint(request(item, websocket, vars, auth).at(file, line));
            }
        }
        path.pop();
    }
}

fn merge(into: &mut Map<String, Value>, data: Option<&Value>) {
    if let Some(Value::Object(data)) = data {
        for (k, v) in data {
            into.insert(k.clone(), v.clone());
        }
    }
}

/// A dotted name (`api.host`) in the variables, as a string.
fn lookup_in<'a>(vars: &'a Map<String, Value>) -> impl Fn(&str) -> Option<String> + 'a {
    move |name: &str| {
        let mut parts = name.split('.');
        let mut value = vars.get(parts.next()?)?;
        for part in parts {
            value = value.get(part)?;
        }
        scalar_string(value)
    }
}

fn enabled_pairs(list: Option<&Value>) -> impl Iterator<Item = (&str, String, &Value)> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("disabled").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| {
            let name = p.get("name")?.as_str()?;
            let value = p.get("value").and_then(scalar_string).unwrap_or_default();
            Some((name, value, p))
        })
}

/// An `authentication` object that sets a scheme (`{}` inherits).
fn has_auth_type(auth: &Value) -> bool {
    auth.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| !t.is_empty() && t != "inherit")
}

/// The params an `authentication` adds: bearer → `Authorization: <prefix or
/// Bearer> <token>`, basic, digest, OAuth, NTLM, Hawk, AWS IAM →
/// `Authorization`, `apikey` → its key as a header, query param or cookie
/// (`addTo`). `none` and disabled ones: nothing.
fn auth_params(auth: &Value, sub: &dyn Fn(&str) -> String) -> Vec<Param> {
    if auth.get("disabled").and_then(Value::as_bool) == Some(true) {
        return Vec::new();
    }
    let field = |name: &str| auth.get(name).and_then(scalar_string).map(|v| sub(&v));
    match auth.get("type").and_then(Value::as_str).unwrap_or("") {
        "" | "none" | "inherit" | "netrc" => Vec::new(),
        "bearer" => {
            let prefix = field("prefix").filter(|p| !p.is_empty());
            let token = field("token").unwrap_or_default();
            let value = format!("{} {token}", prefix.as_deref().unwrap_or("Bearer"));
            vec![Param::header("Authorization").value(value.trim_end())]
        }
        "basic" => vec![Param::header("Authorization").value("Basic")],
        "apikey" => {
            let Some(key) = field("key").filter(|k| !k.is_empty()) else {
                return Vec::new();
            };
            let value = field("value").unwrap_or_default();
            match field("addTo").as_deref() {
                Some("queryParams") => vec![Param::query(key).value(value)],
                Some("cookie") => vec![Param::cookie(key).value(value)],
                _ => vec![Param::header(key).value(value)],
            }
        }
        _ => vec![Param::header("Authorization")],
    }
}

fn request(
    resource: &Value,
    websocket: bool,
    vars: &Map<String, Value>,
    inherited: Option<&Value>,
) -> Endpoint {
    let lookup = lookup_in(vars);
    let sub = |s: &str| substitute(s, &lookup);
    let url = resource.get("url").and_then(Value::as_str).unwrap_or("");
    let path = url_path_of(url, &lookup);
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path
    };
    let mut endpoint = if websocket {
        Endpoint::websocket(path)
    } else {
        let method = resource
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("GET");
        Endpoint::new(method.to_ascii_uppercase(), path)
    };
    for p in query_params(&sub(query_of(url))) {
        endpoint.push_param(p);
    }
    for (name, value, _) in enabled_pairs(resource.get("parameters")) {
        endpoint.push_param(Param::query(sub(name)).value(sub(&value)));
    }
    for (name, value, _) in enabled_pairs(resource.get("pathParameters")) {
        endpoint.push_param(Param::path(name).value(sub(&value)));
    }
    let own = resource.get("authentication").filter(|a| has_auth_type(a));
    let explicit = enabled_pairs(resource.get("headers"))
        .any(|(name, _, _)| name.eq_ignore_ascii_case("authorization"));
    if let (Some(auth), false) = (own.or(inherited), explicit) {
        for p in auth_params(auth, &sub) {
            endpoint.push_param(p);
        }
    }
    let mut content_type = None;
    for (name, value, _) in enabled_pairs(resource.get("headers")) {
        let value = sub(&value);
        if name.eq_ignore_ascii_case("content-type") {
            content_type = Some(value.clone());
        }
        for p in header_params(name, &value) {
            endpoint.push_param(p);
        }
    }
    if let Some(body) = resource.get("body") {
        let mime = body
            .get("mimeType")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or(content_type);
        let params: Vec<Param> = enabled_pairs(body.get("params"))
            .map(|(name, value, p)| {
                let is_file = p.get("type").and_then(Value::as_str) == Some("file")
                    || p.get("fileName")
                        .is_some_and(|f| f.as_str().is_some_and(|s| !s.is_empty()));
                if is_file {
                    Param::file(sub(name))
                } else {
                    Param::form(sub(name)).value(sub(&value))
                }
            })
            .collect();
        let params = if params.is_empty() {
            let text = body.get("text").and_then(Value::as_str).unwrap_or("");
            body_params(mime.as_deref(), &sub(text))
        } else {
            params
        };
        for p in params {
            endpoint.push_param(p);
        }
    }
    endpoint
}
