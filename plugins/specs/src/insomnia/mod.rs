//! Insomnia exports, format 4 (JSON or YAML): one endpoint per request.
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
//! - Not read: Insomnia 5 collections (`type: collection.insomnia.rest/5.0`),
//!   authentication settings.

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::request::{body_params, header_params, query_params};
use portolan_plugin_sdk::doc::url::query_of;
use portolan_plugin_sdk::doc::vars::{substitute, url_path_of};

pub struct Insomnia;

/// `__export_format: 4` (JSON or YAML, quoted or not).
pub const DETECT_REGEX: &str = r#"["']?__export_format["']?\s*:\s*["']?4"#;

/// Deepest `parentId` chain followed.
const MAX_DEPTH: usize = 64;

impl Analyzer for Insomnia {
    fn tech(&self) -> Tech {
        Tech::new("insomnia", "Specification", "Insomnia export")
            .specification()
            .files(["*.json", "*.yaml", "*.yml"])
            .detect(Detect::files(["*.json", "*.yaml", "*.yml"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !file.content.contains("__export_format") {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        if doc.get("_type").and_then(Value::as_str) != Some("export") {
            return;
        }
        let format = doc.get("__export_format").and_then(scalar_string);
        if format.as_deref() != Some("4") {
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
            let endpoint = request(resource, websocket, &vars).at(file, line);
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

fn request(resource: &Value, websocket: bool, vars: &Map<String, Value>) -> Endpoint {
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
