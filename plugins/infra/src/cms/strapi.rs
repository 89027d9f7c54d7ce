//! Strapi (v4 and v5) applications: the REST routes Strapi's core router
//! serves for every content type, the custom routes files, and the
//! Users & Permissions auth endpoints. Shapes in `docs/schema-apis.md`.
//!
//! - `src/api/<api>/content-types/<type>/schema.json`: a `collectionType`
//!   gets `GET`/`POST /api/<pluralName>` and `GET`/`PUT`/`DELETE
//!   /api/<pluralName>/{id}`; a `singleType` gets `GET`/`PUT`/`DELETE
//!   /api/<singularName>`. The attributes are the JSON fields of POST and
//!   PUT (Strapi reads them inside `data`); list routes take the `filters`,
//!   `sort`, `pagination`, `populate`, `fields` and `locale` query params,
//!   single-item reads `populate` and `fields` (and `locale` for a single
//!   type).
//!   Attributes that are relations of the private kind (`private: true`) are
//!   not writable through the API and are left out.
//! - `src/api/<api>/routes/<name>.{js,ts}`: `createCoreRouter('api::x.y',
//!   { only: […] | except: […] })` narrows the core routes of that type;
//!   custom routes files (`routes: [{ method, path, handler }]`) add
//!   `/api<path>` (`:id` → `{id}`). A route's `config.prefix` (which
//!   replaces `/api`) is not read.
//! - `package.json` depending on `@strapi/plugin-users-permissions` (the
//!   default install): `/api/auth/local`, `/api/auth/local/register`, the
//!   password and email-confirmation routes and `/api/users/me`.
//! - Location: the schema's `kind`, the route object, the dependency line.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::lex::{is_ident_byte, Code, Syntax};
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::common::yaml::{self, str_of};

pub struct Strapi;

const FILES: [&str; 4] = [
    "**/src/api/*/content-types/*/schema.json",
    "**/src/api/*/routes/*.js",
    "**/src/api/*/routes/*.ts",
    "package.json",
];

const CORE: [&str; 5] = ["find", "findOne", "create", "update", "delete"];

const AUTH: [(&str, &str, &[&str], &[&str]); 8] = [
    ("POST", "/api/auth/local", &["identifier", "password"], &[]),
    (
        "POST",
        "/api/auth/local/register",
        &["username", "email", "password"],
        &[],
    ),
    ("POST", "/api/auth/forgot-password", &["email"], &[]),
    (
        "POST",
        "/api/auth/reset-password",
        &["code", "password", "passwordConfirmation"],
        &[],
    ),
    (
        "POST",
        "/api/auth/change-password",
        &["currentPassword", "password", "passwordConfirmation"],
        &[],
    ),
    (
        "GET",
        "/api/auth/email-confirmation",
        &[],
        &["confirmation"],
    ),
    ("POST", "/api/auth/send-email-confirmation", &["email"], &[]),
    ("GET", "/api/users/me", &[], &[]),
];

#[derive(Serialize, Deserialize)]
enum Fact {
    Type {
        /// `api::<api>.<singularName>`
        uid: String,
        single: bool,
        plural: String,
        singular: String,
        fields: Vec<String>,
        path: String,
        line: u32,
    },
    /// A core router's restriction of the actions of a type.
    Core {
        uid: String,
        only: Option<Vec<String>>,
        except: Vec<String>,
    },
}

impl Analyzer for Strapi {
    fn tech(&self) -> Tech {
        Tech::new("strapi", "Specification", "Strapi")
            .specification()
            .files(FILES)
            .detect(Detect::files(["**/src/api/*/content-types/*/schema.json"]))
            .supports(Supports {
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) {
            return;
        }
        if path.ends_with("package.json") {
            return auth(file, out);
        }
        if path.ends_with("schema.json") {
            return schema(file, &path, out);
        }
        routes_file(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut types = Vec::new();
        let mut cores: BTreeMap<String, (Option<Vec<String>>, Vec<String>)> = BTreeMap::new();
        for f in facts.iter::<Fact>() {
            match f {
                Fact::Core { uid, only, except } => {
                    cores.insert(uid, (only, except));
                }
                t @ Fact::Type { .. } => types.push(t),
            }
        }
        let mut out = Vec::new();
        for t in types {
            let Fact::Type {
                uid,
                single,
                plural,
                singular,
                fields,
                path,
                line,
            } = t
            else {
                continue;
            };
            let enabled = |action: &str| match cores.get(&uid) {
                Some((Some(only), _)) => only.iter().any(|a| a == action),
                Some((None, except)) => !except.iter().any(|a| a == action),
                None => true,
            };
            let body: Vec<Param> = fields.iter().map(Param::json).collect();
            let list_query = [
                "filters",
                "sort",
                "pagination",
                "populate",
                "fields",
                "locale",
            ];
            let routes: Vec<(&str, &str, String)> = if single {
                let base = format!("/api/{singular}");
                vec![
                    ("find", "GET", base.clone()),
                    ("update", "PUT", base.clone()),
                    ("delete", "DELETE", base),
                ]
            } else {
                let base = format!("/api/{plural}");
                let one = format!("{base}/{{id}}");
                vec![
                    ("find", "GET", base.clone()),
                    ("create", "POST", base),
                    ("findOne", "GET", one.clone()),
                    ("update", "PUT", one.clone()),
                    ("delete", "DELETE", one),
                ]
            };
            for (action, method, url) in routes {
                if !enabled(action) {
                    continue;
                }
                let mut e = Endpoint::new(method, url);
                match action {
                    "find" if single => {
                        e = e.params(["populate", "fields", "locale"].map(Param::query))
                    }
                    "find" => e = e.params(list_query.map(Param::query)),
                    "findOne" => e = e.params(["populate", "fields"].map(Param::query)),
                    "create" | "update" => e = e.params(body.clone()),
                    _ => {}
                }
                out.push(e.at_path(path.clone(), line));
            }
        }
        Ok(out)
    }
}

fn schema(file: &SourceFile, path: &str, out: &mut Output) {
    // src/api/<api>/content-types/<type>/schema.json
    let parts: Vec<&str> = path.split('/').collect();
    let n = parts.len();
    if n < 5 || parts[n - 3] != "content-types" {
        return;
    }
    let api = parts[n - 4];
    let Some(doc) = yaml::documents(file).into_iter().next() else {
        return;
    };
    let v = &doc.value;
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("collectionType");
    let info = v.get("info");
    let singular = info
        .and_then(|i| i.get("singularName"))
        .and_then(str_of)
        .unwrap_or_else(|| parts[n - 2].to_string());
    let plural = info
        .and_then(|i| i.get("pluralName"))
        .and_then(str_of)
        .or_else(|| v.get("collectionName").and_then(str_of))
        .unwrap_or_else(|| format!("{singular}s"));
    let fields = v
        .get("attributes")
        .and_then(Value::as_object)
        .map(|a| {
            a.iter()
                .filter(|(_, attr)| attr.get("private").and_then(Value::as_bool) != Some(true))
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default();
    out.fact(&Fact::Type {
        uid: format!("api::{api}.{singular}"),
        single: kind == "singleType",
        plural,
        singular,
        fields,
        path: path.to_string(),
        line: doc.line(&[Seg::Key("kind")]),
    });
}

fn routes_file(file: &SourceFile, out: &mut Output) {
    let code = Code::new(&file.content, Syntax::JAVASCRIPT);
    for at in code.find_all("createCoreRouter(") {
        let open = at + "createCoreRouter".len();
        let args = code.args(open);
        let Some(uid) = args.first().and_then(|r| code.string_at(r.start)) else {
            continue;
        };
        let mut only = None;
        let mut except = Vec::new();
        if let Some(cfg) = args
            .get(1)
            .filter(|r| code.slice((*r).clone()).starts_with('{'))
        {
            for prop in code.args(cfg.start) {
                let Some((key, value)) = code.keyword_arg(prop) else {
                    continue;
                };
                let list: Vec<String> = code
                    .strings()
                    .into_iter()
                    .filter(|s| s.start >= value.start && s.end <= value.end)
                    .map(|s| s.value)
                    .filter(|s| CORE.contains(&s.as_str()))
                    .collect();
                match key {
                    "only" => only = Some(list),
                    "except" => except = list,
                    _ => {}
                }
            }
        }
        out.fact(&Fact::Core {
            uid: uid.value,
            only,
            except,
        });
    }
    // Custom routes: objects with `method`, `path` and `handler`.
    for at in code.find_all("routes") {
        let text = code.text();
        if at > 0
            && text
                .as_bytes()
                .get(at - 1)
                .is_some_and(|b| is_ident_byte(*b))
        {
            continue;
        }
        let after = text.get(at + "routes".len()..).unwrap_or("");
        let Some(rest) = after.trim_start().strip_prefix(':') else {
            continue;
        };
        if !rest.trim_start().starts_with('[') {
            continue;
        }
        let open = text.len() - rest.trim_start().len();
        for item in code.args(open) {
            if !code.slice(item.clone()).starts_with('{') {
                continue;
            }
            let mut method = None;
            let mut route = None;
            for prop in code.args(item.start) {
                match code.keyword_arg(prop) {
                    Some(("method", v)) => method = code.string_at(v.start).map(|s| s.value),
                    Some(("path", v)) => route = code.string_at(v.start).map(|s| s.value),
                    _ => {}
                }
            }
            let (Some(method), Some(route)) = (method, route) else {
                continue;
            };
            let url = format!("/api{}", colon_params(&route));
            out.endpoint(
                Endpoint::new(method.to_ascii_uppercase(), url).at(file, file.line_of(item.start)),
            );
        }
    }
}

/// `/articles/:id/like` → `/articles/{id}/like`.
fn colon_params(route: &str) -> String {
    route
        .split('/')
        .map(|s| match s.strip_prefix(':') {
            Some(n) => format!("{{{n}}}"),
            None => s.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn auth(file: &SourceFile, out: &mut Output) {
    let Some(line) = file
        .content
        .lines()
        .position(|l| l.contains("\"@strapi/plugin-users-permissions\""))
        .map(|n| n as u32 + 1)
    else {
        return;
    };
    for (method, url, body, query) in AUTH {
        out.endpoint(
            Endpoint::new(method, url)
                .params(body.iter().map(|b| Param::json(*b)))
                .params(query.iter().map(|q| Param::query(*q)))
                .at(file, line),
        );
    }
}
