//! Bruno's YAML format, OpenCollection (`opencollection: 1.0.0`): a
//! collection directory (`opencollection.yml` at its root, one request per
//! `.yml` file, `folder.yml` per folder, `environments/*.yml`) or a
//! single-file export of the whole collection (`items` nested in folders,
//! environments in `config.environments`).
//!
//! - A request is an item whose `info.type` is `http` (details in `http`)
//!   or `graphql` (details in `graphql`, body → `json` `query` and
//!   `variables`): `method`, `url`, `params` (`type: query` or `path`),
//!   `headers`, `body` (`type` `json` → its `data`'s fields,
//!   `form-urlencoded` → `form`, `multipart-form` → `form`, `file` for
//!   `type: file` entries) and `auth` (bearer, basic, apikey). Entries
//!   with `disabled: true` are skipped. WebSocket and gRPC items are not
//!   read.
//! - Variables and headers follow the `.bru` precedence: the collection's
//!   `request.variables` (and `request.headers`), the first environment,
//!   each enclosing folder's `request`, then the request's
//!   `runtime.variables`. A value written `{type, data}` is its `data`.
//! - Location: the request file's `http`/`graphql` key, or the item in the
//!   export's `items`.

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};

use super::{parent, Body, Fact, Rank, Request};

/// The root of a collection (directory or export).
pub const DETECT_REGEX: &str = r#"(?m)^["']?opencollection["']?\s*:"#;

/// Deepest folder nesting followed in an export.
const MAX_DEPTH: usize = 64;

/// Reads one `.yml`/`.yaml` file of a collection (see the module doc).
pub(super) fn analyze(file: &SourceFile, out: &mut Output) {
    let text = &file.content;
    let path = file.slash_path();
    let dir = parent(&path).to_string();
    let in_environments = dir.rsplit('/').next() == Some("environments");
    let top = |key: &str| text.lines().any(|l| l.starts_with(key));
    // Files that are OpenCollection files for sure (a parse error is worth
    // a warning); other YAML of the tree is only looked at.
    let claims = top("opencollection:") || (top("info:") && (top("http:") || top("graphql:")));
    let candidate = claims || top("info:") || (in_environments && top("variables:"));
    if !candidate {
        return;
    }
    let doc = match load::parse(&file.path, text) {
        Ok(doc) => doc,
        Err(e) if claims => return host::warn(&format!("{}: {e}", file.path)),
        Err(_) => return,
    };
    if doc.get("opencollection").is_some() {
        if let Some(items) = doc.get("items").and_then(Value::as_array) {
            return export(file, &doc, items, out);
        }
        out.fact(&scope(dir, Rank::Collection, &doc));
        return;
    }
    let kind = doc
        .get("info")
        .and_then(|i| i.get("type"))
        .and_then(Value::as_str);
    match kind {
        Some("folder") => out.fact(&scope(dir, Rank::Folder, &doc)),
        Some(kind) => {
            let source = SourceMap::new(text);
            let line = source.line(&[Seg::Key(kind)]).unwrap_or(1);
            if let Some(request) = item_request(&doc, file.path.clone(), line) {
                out.fact(&Fact::Request(request));
            }
        }
        None if in_environments => {
            if let Some(list) = doc.get("variables").filter(|v| v.is_array()) {
                out.fact(&Fact::Vars {
                    dir: parent(&dir).to_string(),
                    rank: Rank::Environment,
                    vars: variables(Some(list)),
                    headers: Vec::new(),
                });
            }
        }
        None => {}
    }
}

/// The variables and headers a collection or folder file's `request`
/// gives the requests below `dir`.
fn scope(dir: String, rank: Rank, doc: &Value) -> Fact {
    let request = doc.get("request");
    Fact::Vars {
        dir,
        rank,
        vars: variables(request.and_then(|r| r.get("variables"))),
        headers: pairs(request.and_then(|r| r.get("headers"))),
    }
}

/// A single-file export: every request with the variables and headers of
/// its collection, first environment and folders resolved in place.
fn export(file: &SourceFile, doc: &Value, items: &[Value], out: &mut Output) {
    let request = doc.get("request");
    let mut vars = variables(request.and_then(|r| r.get("variables")));
    let first_env = doc
        .get("config")
        .and_then(|c| c.get("environments"))
        .and_then(Value::as_array)
        .and_then(|envs| envs.first());
    vars.extend(variables(first_env.and_then(|e| e.get("variables"))));
    let headers = pairs(request.and_then(|r| r.get("headers")));
    let source = SourceMap::new(&file.content);
    let mut path = vec![Seg::Key("items")];
    let scope = Scope { vars, headers };
    walk(file, &source, items, &scope, &mut path, out);
}

/// Variables and inherited headers (innermost first) in an export.
struct Scope {
    vars: Vec<(String, String)>,
    headers: Vec<(String, String)>,
}

fn walk<'a>(
    file: &SourceFile,
    source: &SourceMap,
    items: &'a [Value],
    scope: &Scope,
    path: &mut Vec<Seg<'a>>,
    out: &mut Output,
) {
    if path.len() > MAX_DEPTH * 2 {
        return;
    }
    for (i, item) in items.iter().enumerate() {
        path.push(Seg::Index(i));
        let kind = item
            .get("info")
            .and_then(|i| i.get("type"))
            .and_then(Value::as_str);
        if let Some(children) = item.get("items").and_then(Value::as_array) {
            let request = item.get("request");
            let mut vars = scope.vars.clone();
            vars.extend(variables(request.and_then(|r| r.get("variables"))));
            let mut headers = pairs(request.and_then(|r| r.get("headers")));
            headers.extend(scope.headers.iter().cloned());
            path.push(Seg::Key("items"));
            walk(file, source, children, &Scope { vars, headers }, path, out);
            path.pop();
        } else if kind != Some("folder") {
            let line = source
                .line(path)
                .unwrap_or_else(|| source.nearest_line(path));
            if let Some(mut request) = item_request(item, file.path.clone(), line) {
                let own = std::mem::take(&mut request.vars);
                request.vars = scope.vars.clone();
                request.vars.extend(own);
                request.headers.extend(scope.headers.iter().cloned());
                out.fact(&Fact::Request(request));
            }
        }
        path.pop();
    }
}

/// The request of an `http` or `graphql` item.
fn item_request(item: &Value, path: String, line: u32) -> Option<Request> {
    let kind = item.get("info")?.get("type")?.as_str()?;
    let (details, default_method) = match kind {
        "http" => (item.get("http")?, "GET"),
        "graphql" => (item.get("graphql")?, "POST"),
        _ => return None,
    };
    let text = |v: Option<&Value>| v.and_then(scalar_string).unwrap_or_default();
    let method = details
        .get("method")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
        .unwrap_or(default_method)
        .to_ascii_uppercase();
    let mut query = Vec::new();
    let mut path_params = Vec::new();
    for p in enabled(details.get("params")) {
        let pair = (text(p.get("name")), text(p.get("value")));
        match p.get("type").and_then(Value::as_str) {
            Some("path") => path_params.push(pair),
            _ => query.push(pair),
        }
    }
    let mut headers = pairs(details.get("headers"));
    let explicit = headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("authorization"));
    let auth = details.get("auth");
    match auth.and_then(|a| a.get("type")).and_then(Value::as_str) {
        Some("bearer") if !explicit => {
            let token = text(auth.and_then(|a| a.get("token")));
            headers.push(("Authorization".into(), format!("Bearer {token}")));
        }
        Some("basic" | "digest" | "ntlm" | "awsv4" | "wsse") if !explicit => {
            headers.push(("Authorization".into(), String::new()));
        }
        Some("apikey") => {
            let key = text(auth.and_then(|a| a.get("key")));
            let value = text(auth.and_then(|a| a.get("value")));
            let placement = auth
                .and_then(|a| a.get("placement"))
                .and_then(Value::as_str);
            if !key.is_empty() {
                if matches!(placement, Some("query" | "queryparams")) {
                    query.push((key, value));
                } else {
                    headers.push((key, value));
                }
            }
        }
        _ => {}
    }
    let body = details.get("body");
    let body = if kind == "graphql" {
        Body::Graphql
    } else {
        match body.and_then(|b| b.get("type")).and_then(Value::as_str) {
            Some("json") => Body::Json(text(body.and_then(|b| b.get("data")))),
            Some("form-urlencoded") => Body::Form(pairs(body.and_then(|b| b.get("data")))),
            Some("multipart-form") => Body::Multipart(
                enabled(body.and_then(|b| b.get("data")))
                    .map(|p| {
                        let value = if p.get("type").and_then(Value::as_str) == Some("file") {
                            // The `.bru` spelling of a file part.
                            "@file()".to_string()
                        } else {
                            text(p.get("value"))
                        };
                        (text(p.get("name")), value)
                    })
                    .collect(),
            ),
            _ => Body::None,
        }
    };
    Some(Request {
        path,
        line,
        method,
        url: text(details.get("url")),
        query,
        path_params,
        headers,
        body,
        vars: variables(item.get("runtime").and_then(|r| r.get("variables"))),
    })
}

/// The entries of a list that are not disabled.
fn enabled(list: Option<&Value>) -> impl Iterator<Item = &Value> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| {
            p.get("disabled").and_then(Value::as_bool) != Some(true)
                && p.get("enabled").and_then(Value::as_bool) != Some(false)
        })
}

/// `[{name, value}]` entries as pairs.
fn pairs(list: Option<&Value>) -> Vec<(String, String)> {
    enabled(list)
        .filter_map(|p| {
            let name = p.get("name").and_then(scalar_string)?;
            let value = p.get("value").and_then(scalar_string).unwrap_or_default();
            Some((name, value))
        })
        .collect()
}

/// Variables: `[{name, value}]`, a value written `{type, data}` is its
/// `data`.
fn variables(list: Option<&Value>) -> Vec<(String, String)> {
    enabled(list)
        .filter_map(|p| {
            let name = p.get("name").and_then(scalar_string)?;
            let value = p.get("value");
            let value = value
                .and_then(|v| v.get("data"))
                .or(value)
                .and_then(scalar_string)
                .unwrap_or_default();
            Some((name, value))
        })
        .collect()
}
