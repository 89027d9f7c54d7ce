//! OpenRPC documents (JSON or YAML, `openrpc: 1.x`): JSON-RPC 2.0 methods.
//!
//! JSON-RPC has one HTTP endpoint per server: every call is a `POST` of
//! `{"jsonrpc": "2.0", "method": "<name>", "params": …, "id": …}` to the
//! server URL. So each method is reported as
//!
//! - `POST <path of the first servers[].url>` (`/` without servers; a
//!   method's own `servers` win; `${var}`/`{var}` server variables expanded
//!   with their defaults, as the specification allows),
//! - with `json` params `jsonrpc` (`2.0`), `method` (the method name) and
//!   one `json` param per entry of the method's `params` (content
//!   descriptors, `$ref`s to `components/contentDescriptors` followed),
//!   valued with an example or default when the schema gives one — the
//!   names sent by-name (`"params": {"address": …}`).
//! - Location: the method's entry in `methods` (its `$ref` target's line is
//!   not used: the entry is where the method is listed).
//!
//! Methods sharing a server share the URL, so the report merges them into
//! one endpoint listing every method's line and the union of their params
//! (the first method's name as the `method` value). `rpc.discover` is
//! added by servers, not documented: it is not invented here.

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::refs::Resolver;
use portolan_plugin_sdk::doc::schema::example_value;
use portolan_plugin_sdk::doc::url::{expand_template, url_path};

pub struct OpenRpc;

/// Top-level `openrpc: 1.x` (YAML) or `"openrpc": "1.x"` (JSON).
pub const DETECT_REGEX: &str =
    r#"(?m)(?:^\x{FEFF}?["']?openrpc["']?[ \t]*:|[{,]\s*["']?openrpc["']?\s*:)\s*["']?1\.\d"#;

impl Analyzer for OpenRpc {
    fn tech(&self) -> Tech {
        Tech::new("openrpc", "Specification", "OpenRPC (JSON-RPC)")
            .specification()
            .files(["*.json", "*.yaml", "*.yml"])
            .detect(Detect::files(["*.json", "*.yaml", "*.yml"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !file.content.contains("openrpc") || is_test_document(&file.path) {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        let version = doc.get("openrpc").and_then(scalar_string);
        if !version.is_some_and(|v| v.starts_with("1.")) {
            return;
        }
        let Some(methods) = doc.get("methods").and_then(Value::as_array) else {
            return host::warn(&format!("{}: no `methods` list", file.path));
        };
        let resolver = Resolver::new(&doc);
        let source = SourceMap::new(&file.content);
        let default_path = server_path(doc.get("servers"));
        for (i, method) in methods.iter().enumerate() {
            let method = resolver.resolve(method);
            let Some(name) = method.get("name").and_then(Value::as_str) else {
                continue;
            };
            let path = method
                .get("servers")
                .and_then(|s| server_path(Some(s)))
                .or_else(|| default_path.clone())
                .unwrap_or_else(|| "/".to_string());
            let key = [Seg::Key("methods"), Seg::Index(i)];
            let line = source
                .line(&key)
                .unwrap_or_else(|| source.nearest_line(&key));
            let mut endpoint = Endpoint::new("POST", path)
                .param(Param::json("jsonrpc").value("2.0"))
                .param(Param::json("method").value(name));
            for param in method
                .get("params")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let param = resolver.resolve(param);
                let Some(param_name) = param.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let value = param
                    .get("schema")
                    .and_then(|s| example_value(&resolver, s))
                    .unwrap_or_default();
                endpoint.push_param(Param::json(param_name).value(value));
            }
            out.endpoint(endpoint.at(file, line));
        }
    }
}

/// The path of the first server URL, variables expanded with their
/// defaults (`${var}` as in OpenRPC examples, or `{var}`; unknown ones
/// are empty).
fn server_path(servers: Option<&Value>) -> Option<String> {
    let server = servers?.as_array()?.first()?;
    let url = server.get("url")?.as_str()?;
    let variables = server.get("variables");
    let default_of = |name: &str| -> Option<String> {
        variables?.get(name)?.get("default").and_then(scalar_string)
    };
    let expanded = expand_template(&url.replace("${", "{"), default_of);
    let path = url_path(&expanded);
    Some(if path.is_empty() {
        "/".to_string()
    } else {
        path
    })
}

#[cfg(test)]
mod tests;
