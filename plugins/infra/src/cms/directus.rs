//! Directus schema snapshots (`directus schema snapshot` output, YAML or
//! JSON: top-level `directus`, `collections`, `fields`): the Items API
//! Directus serves for every user collection, and its auth endpoints.
//! Shapes in `docs/schema-apis.md`.
//!
//! - A collection with a table (`schema` not null; folders have none) and
//!   not a system one (`directus_*`): `GET`, `POST`, `PATCH`, `DELETE
//!   /items/<collection>` and `GET`, `PATCH`, `DELETE
//!   /items/<collection>/{id}`; a singleton (`meta.singleton: true`) only
//!   `GET` and `PATCH /items/<collection>`.
//! - Params: the collection's fields (from `fields[]`) as JSON fields of
//!   POST/PATCH; the global query params `fields`,
//!   `filter`, `search`, `sort`, `limit`, `offset`, `page`, `deep` on list
//!   reads, `fields` and `deep` on single reads.
//! - Auth: `POST /auth/login`, `/auth/refresh`, `/auth/logout`,
//!   `/auth/password/request`, `/auth/password/reset`, `GET /users/me`.
//! - Location: the collection item; auth at the `directus` key.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, str_of};

pub struct Directus;

const FILES: [&str; 4] = ["*.yaml", "*.yml", "*snapshot*.json", "*schema*.json"];

const AUTH: [(&str, &str, &[&str]); 6] = [
    ("POST", "/auth/login", &["email", "password", "otp", "mode"]),
    ("POST", "/auth/refresh", &["refresh_token", "mode"]),
    ("POST", "/auth/logout", &["refresh_token", "mode"]),
    ("POST", "/auth/password/request", &["email", "reset_url"]),
    ("POST", "/auth/password/reset", &["token", "password"]),
    ("GET", "/users/me", &[]),
];

impl Analyzer for Directus {
    fn tech(&self) -> Tech {
        Tech::new("directus", "Specification", "Directus")
            .specification()
            .files(FILES)
            .detect(Detect::files(FILES).regex([r#"(?m)^\s*"?directus"?\s*:"#]))
            .supports(Supports {
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) || !file.content.contains("directus") {
            return;
        }
        for doc in yaml::documents(file) {
            let v = &doc.value;
            if v.get("directus").is_none() {
                continue;
            }
            let Some(collections) = v.get("collections").and_then(Value::as_array) else {
                continue;
            };
            let mut fields: BTreeMap<String, Vec<Param>> = BTreeMap::new();
            for f in v
                .get("fields")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (Some(c), Some(name)) = (
                    f.get("collection").and_then(str_of),
                    f.get("field").and_then(str_of),
                ) else {
                    continue;
                };
                fields.entry(c).or_default().push(Param::json(name));
            }
            let read_many = [
                "fields", "filter", "search", "sort", "limit", "offset", "page", "deep",
            ];
            for (i, c) in collections.iter().enumerate() {
                let Some(name) = c.get("collection").and_then(str_of) else {
                    continue;
                };
                if name.starts_with("directus_") || c.get("schema").is_none_or(Value::is_null) {
                    continue;
                }
                let line = doc.line(&[Seg::Key("collections"), Seg::Index(i)]);
                let body = fields.get(&name).cloned().unwrap_or_default();
                let base = format!("/items/{name}");
                let singleton = c.pointer("/meta/singleton").and_then(Value::as_bool) == Some(true);
                let mut emit = |method: &str, url: &str, params: Vec<Param>| {
                    out.endpoint(Endpoint::new(method, url).params(params).at(file, line));
                };
                if singleton {
                    emit("GET", &base, ["fields", "deep"].map(Param::query).to_vec());
                    emit("PATCH", &base, body);
                    continue;
                }
                let one = format!("{base}/{{id}}");
                emit("GET", &base, read_many.map(Param::query).to_vec());
                emit("POST", &base, body.clone());
                emit("PATCH", &base, body.clone());
                emit("DELETE", &base, Vec::new());
                emit("GET", &one, ["fields", "deep"].map(Param::query).to_vec());
                emit("PATCH", &one, body);
                emit("DELETE", &one, Vec::new());
            }
            let line = doc.line(&[Seg::Key("directus")]);
            for (method, url, body) in AUTH {
                out.endpoint(
                    Endpoint::new(method, url)
                        .params(body.iter().map(|b| Param::json(*b)))
                        .at(file, line),
                );
            }
        }
    }
}
