//! Hasura GraphQL Engine projects (the CLI's `metadata/` folder, config v3,
//! and the v2 single `metadata/tables.yaml`). Shapes in
//! `docs/schema-apis.md`.
//!
//! - Every tracked table (a metadata file with `table: {name, schema}`, or
//!   an item of a `tables.yaml` list) is served through the GraphQL endpoint:
//!   `POST /v1/graphql` (JSON `query`, `variables`, `operationName`), one
//!   endpoint whose code locations are the tables' files.
//! - RESTified endpoints (`rest_endpoints.yaml`: `url`, `methods`):
//!   `/api/rest/<url>` (`:id` → `{id}`).
//! - The engine's own APIs, guarded by the `x-hasura-admin-secret` header,
//!   once per project (at `version.yaml`): `POST /v1/metadata`,
//!   `POST /v2/query`, `GET /v1/version`, `GET /healthz`.
//! - Location: the `table` key, the REST endpoint item, `version`.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, str_of};

pub struct Hasura;

const FILES: [&str; 2] = ["**/metadata/*.yaml", "**/metadata/**/*.yaml"];

impl Analyzer for Hasura {
    fn tech(&self) -> Tech {
        Tech::new("hasura", "Specification", "Hasura GraphQL Engine")
            .specification()
            .files(FILES)
            .detect(Detect::files([
                "**/metadata/version.yaml",
                "**/metadata/databases/databases.yaml",
                "**/metadata/tables.yaml",
            ]))
            .supports(Supports {
                query: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) || !path.contains("metadata/") {
            return;
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        for doc in yaml::documents(file) {
            let v = &doc.value;
            if name == "version.yaml" && v.get("version").is_some() {
                let line = doc.line(&[Seg::Key("version")]);
                for (m, url, body) in [
                    ("POST", "/v1/metadata", true),
                    ("POST", "/v2/query", true),
                    ("GET", "/v1/version", false),
                    ("GET", "/healthz", false),
                ] {
                    let mut e = Endpoint::new(m, url);
                    if body {
                        e = e
                            .param(Param::header("x-hasura-admin-secret"))
                            .params(["type", "args"].map(Param::json));
                    }
                    out.endpoint(e.at(file, line));
                }
                continue;
            }
            if name == "rest_endpoints.yaml" {
                for (i, ep) in v.as_array().into_iter().flatten().enumerate() {
                    let Some(url) = ep.get("url").and_then(str_of) else {
                        continue;
                    };
                    let url = format!("/api/rest/{}", colon(url.trim_start_matches('/')));
                    let line = doc.line(&[Seg::Index(i)]);
                    for m in ep
                        .get("methods")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        out.endpoint(
                            Endpoint::new(m.to_ascii_uppercase(), url.clone()).at(file, line),
                        );
                    }
                }
                continue;
            }
            // A table file, or a v2 list of tables.
            let mut lines = Vec::new();
            if table_name(v).is_some() {
                lines.push(doc.line(&[Seg::Key("table")]));
            } else if let Some(items) = v.as_array() {
                for (i, item) in items.iter().enumerate() {
                    if table_name(item).is_some() {
                        lines.push(doc.line(&[Seg::Index(i), Seg::Key("table")]));
                    }
                }
            }
            for line in lines {
                out.endpoint(
                    Endpoint::new("POST", "/v1/graphql")
                        .params(["query", "variables", "operationName"].map(Param::json))
                        .at(file, line),
                );
            }
        }
    }
}

/// `table: {name, schema}` (v2 also accepts a bare `table: name`).
fn table_name(v: &Value) -> Option<String> {
    match v.get("table")? {
        Value::String(s) => Some(s.clone()),
        t => t.get("name").and_then(str_of),
    }
}

/// `users/:id` → `users/{id}`.
fn colon(url: &str) -> String {
    url.split('/')
        .map(|s| match s.strip_prefix(':') {
            Some(n) => format!("{{{n}}}"),
            None => s.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}
