//! Postman collections v2.0 and v2.1 (JSON): one endpoint per request. The
//! Postman API's form (`{"collection": {...}}`, as `GET /collections/{id}`
//! returns it and sync tools commit it) is read the same way.
//!
//! - Requests are found in `item` lists at any depth (folders nest `item`
//!   in `item`); saved example responses are not requests.
//! - Variables: the collection's `variable` list, then each enclosing
//!   folder's (inner wins), substituted into URLs, query values, headers
//!   and bodies ([`portolan_plugin_sdk::doc::vars`]: an unknown leading `{{baseUrl}}` is
//!   the server and dropped, other unknown variables in the path become
//!   `{name}` placeholders). Environment files are not read.
//! - URL: `url` as a string (v2.0) or an object: its `raw`, else built from
//!   `host` and `path`; scheme and host dropped, path variables `:id` kept
//!   as written (the report adds the `path` param; a value given in
//!   `url.variable` is kept).
//! - Params: `url.query` (or the raw URL's query), enabled headers
//!   (`Cookie` split into cookies), body modes `raw` (JSON by
//!   `options.raw.language`, the `Content-Type` header or the text itself)
//!   → `json`, `urlencoded` → `form`, `formdata` → `form` / `file`,
//!   `graphql` → `json` `query` and `variables`. Disabled entries are
//!   skipped.
//! - Auth (`auth` of the request, else of the innermost folder or the
//!   collection that sets one; `noauth` sets none): bearer → `Authorization:
//!   Bearer <token>`, basic, digest, OAuth 1, Hawk, AWS, NTLM →
//!   `Authorization`, `apikey` → its key as a header or query param (`in`),
//!   OAuth 2 → `Authorization` (or `access_token` in the query). An
//!   explicit `Authorization` header wins.
//! - Location: the request's `request` key (the item itself when the
//!   request is missing).

use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::doc::request::{body_params, content_type, header_params, query_params};
use portolan_plugin_sdk::doc::url::query_of;
use portolan_plugin_sdk::doc::vars::{substitute, url_path_of};

pub struct Postman;

/// Markers of a collection: the schema URL (`info.schema`) and the id.
pub const MARKERS: [&str; 3] = ["schema.getpostman.com", "schema.postman.com", "_postman_id"];

/// Deepest folder nesting followed.
const MAX_DEPTH: usize = 64;

impl Analyzer for Postman {
    fn tech(&self) -> Tech {
        Tech::new("postman", "Specification", "Postman collection")
            .specification()
            .aliases(["postman_collection"])
            .files(["*.json"])
            .detect(Detect::files(["*.json"]).contains(MARKERS))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !MARKERS.iter().any(|m| file.content.contains(m)) {
            return;
        }
        let doc = match load::parse(&file.path, &file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {e}", file.path)),
        };
        // The Postman API (`GET /collections/{id}`) wraps the collection.
        let (doc, wrapped) = match doc.get("collection") {
            Some(inner) if !is_collection(&doc) && is_collection(inner) => (inner, true),
            _ if is_collection(&doc) => (&doc, false),
            _ => return,
        };
        let mut walker = Walker {
            file,
            source: SourceMap::new(&file.content),
            wrapped,
            vars: Vec::new(),
            auth: doc.get("auth").into_iter().collect(),
            out: Vec::new(),
        };
        walker.push_vars(doc.get("variable"));
        let mut path = Vec::new();
        walker.items(doc.get("item"), &mut path);
        for endpoint in walker.out {
            out.endpoint(endpoint);
        }
    }
}

/// A collection: `info` naming a Postman schema (or carrying a
/// `_postman_id`) and an `item` list.
pub fn is_collection(doc: &Value) -> bool {
    let Some(info) = doc.get("info").and_then(Value::as_object) else {
        return false;
    };
    let schema = info.get("schema").and_then(Value::as_str).unwrap_or("");
    let marked = schema.contains("getpostman.com")
        || schema.contains("postman.com")
        || info.contains_key("_postman_id");
    marked && doc.get("item").is_some_and(Value::is_array)
}

/// A step of the lookup path to the current item.
#[derive(Clone, Copy)]
enum Step {
    Item,
    Index(usize),
}

struct Walker<'a> {
    file: &'a SourceFile,
    source: SourceMap,
    /// The collection is the `collection` member of the document.
    wrapped: bool,
    /// (name, value), outer scopes first.
    vars: Vec<(String, String)>,
    /// `auth` of the collection and enclosing folders, outer first.
    auth: Vec<&'a Value>,
    out: Vec<Endpoint>,
}

impl<'a> Walker<'a> {
    fn push_vars(&mut self, list: Option<&Value>) -> usize {
        let before = self.vars.len();
        for var in list.and_then(Value::as_array).into_iter().flatten() {
            if var.get("disabled").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let name = var
                .get("key")
                .or_else(|| var.get("id"))
                .and_then(Value::as_str);
            let value = var.get("value").and_then(scalar_string);
            if let (Some(name), Some(value)) = (name, value) {
                self.vars.push((name.to_string(), value));
            }
        }
        before
    }

    fn lookup(&self) -> impl Fn(&str) -> Option<String> + '_ {
        |name: &str| {
            self.vars
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        }
    }

    fn items(&mut self, list: Option<&'a Value>, path: &mut Vec<Step>) {
        if path.len() > MAX_DEPTH * 2 {
            return;
        }
        let Some(list) = list.and_then(Value::as_array) else {
            return;
        };
        for (i, item) in list.iter().enumerate() {
            path.push(Step::Item);
            path.push(Step::Index(i));
            if let Some(children) = item.get("item") {
                let before = self.push_vars(item.get("variable"));
                let auths = self.auth.len();
                self.auth.extend(item.get("auth"));
                self.items(Some(children), path);
                self.auth.truncate(auths);
                self.vars.truncate(before);
            } else if let Some(request) = item.get("request") {
                let before = self.push_vars(item.get("variable"));
                if let Some(endpoint) = self.request(request, path) {
                    self.out.push(endpoint);
                }
                self.vars.truncate(before);
            }
            path.pop();
            path.pop();
        }
    }

    fn line(&self, path: &[Step]) -> u32 {
        let root = self.wrapped.then_some(Seg::Key("collection"));
        let mut key: Vec<Seg<'_>> = root
            .into_iter()
            .chain(path.iter().map(|s| match s {
                Step::Item => Seg::Key("item"),
                Step::Index(i) => Seg::Index(*i),
            }))
            .collect();
        key.push(Seg::Key("request"));
        self.source
            .line(&key)
            .unwrap_or_else(|| self.source.nearest_line(&key))
    }

    fn request(&self, request: &Value, path: &[Step]) -> Option<Endpoint> {
        let line = self.line(path);
        let lookup = self.lookup();
        let sub = |s: &str| substitute(s, &lookup);
        let empty = Map::new();
        let (method, url, request) = match request {
            // v2.0: a request may be just its URL.
            Value::String(url) => ("GET".to_string(), Value::String(url.clone()), &empty),
            Value::Object(r) => {
                let method = r.get("method").and_then(Value::as_str).unwrap_or("GET");
                let url = r.get("url").cloned().unwrap_or(Value::Null);
                (method.to_ascii_uppercase(), url, r)
            }
            _ => return None,
        };
        let (raw, url_obj) = match &url {
            Value::String(raw) => (raw.clone(), None),
            Value::Object(u) => (url_text(u), Some(u)),
            _ => return None,
        };
        let path_url = url_path_of(&raw, &lookup);
        let path_url = if path_url.is_empty() {
            "/".to_string()
        } else {
            path_url
        };
        let mut params = Vec::new();
        match url_obj
            .and_then(|u| u.get("query"))
            .and_then(Value::as_array)
        {
            Some(query) => {
                for q in query.iter().filter(|q| enabled(q)) {
                    if let Some(name) = q.get("key").and_then(Value::as_str) {
                        let value = q.get("value").and_then(scalar_string).unwrap_or_default();
                        params.push(Param::query(sub(name)).value(sub(&value)));
                    }
                }
            }
            None => params.extend(query_params(&sub(query_of(&raw)))),
        }
        for v in url_obj
            .and_then(|u| u.get("variable"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(name) = v.get("key").or_else(|| v.get("id")).and_then(Value::as_str) {
                let value = v.get("value").and_then(scalar_string).unwrap_or_default();
                params.push(Param::path(name).value(sub(&value)));
            }
        }
        let headers = headers(request.get("header"), &sub);
        for (name, value) in &headers {
            params.extend(header_params(name, value));
        }
        let auth = request.get("auth").or(self.auth.last().copied());
        if !headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("authorization"))
        {
            params.extend(auth.map(|a| auth_params(a, &sub)).unwrap_or_default());
        }
        let content_type = content_type(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        if let Some(body) = request.get("body") {
            params.extend(body_fields(body, content_type, &sub));
        }
        Some(
            Endpoint::new(&method, path_url)
                .params(params)
                .at(self.file, line),
        )
    }
}

/// The params an `auth` object adds to the request: `Authorization` for
/// bearer, basic, digest, OAuth and the signature schemes, the key of an
/// `apikey` auth as a header or query param (its `in`). `noauth`: none.
/// Options are a `[{key, value}]` list (v2.1) or an object (v2.0).
fn auth_params(auth: &Value, sub: &dyn Fn(&str) -> String) -> Vec<Param> {
    let Some(kind) = auth.get("type").and_then(Value::as_str) else {
        return Vec::new();
    };
    let option = |name: &str| -> Option<String> {
        let options = auth.get(kind)?;
        let value = match options {
            Value::Array(list) => list
                .iter()
                .find(|o| o.get("key").and_then(Value::as_str) == Some(name))?
                .get("value")?,
            Value::Object(map) => map.get(name)?,
            _ => return None,
        };
        scalar_string(value).map(|v| sub(&v))
    };
    match kind {
        "noauth" | "" => Vec::new(),
        "bearer" => {
            let token = option("token").unwrap_or_default();
            vec![Param::header("Authorization").value(format!("Bearer {token}"))]
        }
        "basic" => vec![Param::header("Authorization").value("Basic")],
        "apikey" => {
            let name = option("key").unwrap_or_else(|| "X-API-Key".to_string());
            let value = option("value").unwrap_or_default();
            if option("in").as_deref() == Some("query") {
                vec![Param::query(name).value(value)]
            } else {
                vec![Param::header(name).value(value)]
            }
        }
        "oauth2" => match option("addTokenTo").as_deref() {
            Some("queryParams") => vec![Param::query("access_token")],
            _ => vec![Param::header("Authorization").value("Bearer")],
        },
        _ => vec![Param::header("Authorization")],
    }
}

fn enabled(entry: &Value) -> bool {
    entry.get("disabled").and_then(Value::as_bool) != Some(true)
}

/// A URL object as text: `raw`, else `protocol://host/path`.
fn url_text(url: &Map<String, Value>) -> String {
    if let Some(raw) = url.get("raw").and_then(Value::as_str) {
        return raw.to_string();
    }
    let join = |v: Option<&Value>, sep: &str| match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| scalar_string(p).or_else(|| p.get("value").and_then(scalar_string)))
            .collect::<Vec<_>>()
            .join(sep),
        _ => String::new(),
    };
    let host = join(url.get("host"), ".");
    let path = join(url.get("path"), "/");
    let path = path.trim_start_matches('/');
    match url.get("protocol").and_then(Value::as_str) {
        Some(protocol) => format!("{protocol}://{host}/{path}"),
        None if host.is_empty() => format!("/{path}"),
        None => format!("{host}/{path}"),
    }
}

/// Enabled headers, substituted: a list of `{key, value}` (v2.1) or a
/// `Name: value` string, one per line (v2.0).
fn headers(list: Option<&Value>, sub: &dyn Fn(&str) -> String) -> Vec<(String, String)> {
    match list {
        Some(Value::Array(list)) => list
            .iter()
            .filter(|h| enabled(h))
            .filter_map(|h| {
                let name = h.get("key").and_then(Value::as_str)?;
                let value = h.get("value").and_then(scalar_string).unwrap_or_default();
                Some((sub(name), sub(&value)))
            })
            .collect(),
        Some(Value::String(text)) => text
            .lines()
            .filter_map(|line| {
                let (name, value) = line.split_once(':')?;
                Some((sub(name.trim()), sub(value.trim())))
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn body_fields(
    body: &Value,
    content_type: Option<&str>,
    sub: &dyn Fn(&str) -> String,
) -> Vec<Param> {
    if body.get("disabled").and_then(Value::as_bool) == Some(true) {
        return Vec::new();
    }
    let mode = body.get("mode").and_then(Value::as_str).unwrap_or("");
    let pairs = |key: &str| -> Vec<(String, String, bool)> {
        body.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|p| enabled(p))
            .filter_map(|p| {
                let name = p.get("key").and_then(Value::as_str)?;
                let is_file = p.get("type").and_then(Value::as_str) == Some("file");
                let value = if is_file {
                    String::new()
                } else {
                    p.get("value").and_then(scalar_string).unwrap_or_default()
                };
                Some((sub(name), sub(&value), is_file))
            })
            .collect()
    };
    match mode {
        "raw" => {
            let text = body.get("raw").and_then(Value::as_str).unwrap_or("");
            let language = body
                .get("options")
                .and_then(|o| o.get("raw"))
                .and_then(|r| r.get("language"))
                .and_then(Value::as_str);
            let content_type = match language {
                Some("json") => Some("application/json"),
                Some("xml" | "html" | "text" | "javascript") => Some("text/plain"),
                _ => content_type,
            };
            body_params(content_type, &sub(text))
        }
        "urlencoded" => pairs("urlencoded")
            .into_iter()
            .map(|(name, value, _)| Param::form(name).value(value))
            .collect(),
        "formdata" => pairs("formdata")
            .into_iter()
            .map(|(name, value, is_file)| {
                if is_file {
                    Param::file(name)
                } else {
                    Param::form(name).value(value)
                }
            })
            .collect(),
        "graphql" => vec![Param::json("query"), Param::json("variables")],
        // `file` bodies and unknown modes carry no named fields; a raw body
        // without a mode is still read.
        "" => body
            .get("raw")
            .and_then(Value::as_str)
            .map(|text| body_params(content_type, &sub(text)))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
