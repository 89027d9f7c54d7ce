//! Appwrite projects (`appwrite.json` of the Appwrite CLI): the REST routes
//! Appwrite serves for each collection's documents, each function's
//! executions, each storage bucket's files, and the Account API. Shapes in
//! `docs/schema-apis.md`.
//!
//! - `collections[]` (`$id`, `databaseId`, `attributes[].key`):
//!   `GET`, `POST /v1/databases/<db>/collections/<id>/documents` and `GET`,
//!   `PATCH`, `DELETE …/documents/{documentId}`; list reads take
//!   `queries`, creates `documentId`, `data` (the attributes as
//!   `data.<key>`) and `permissions`. Disabled collections
//!   (`enabled: false`) are left out.
//! - `functions[]`: `POST /v1/functions/<id>/executions` (`body`, `path`,
//!   `method`, `headers`, `async`) when `execute` grants someone.
//! - `buckets[]`: `GET`, `POST /v1/storage/buckets/<id>/files` (`fileId`,
//!   `file` form upload) and `GET`, `DELETE …/files/{fileId}`,
//!   `GET …/files/{fileId}/view`.
//! - Account: `POST /v1/account`, `POST /v1/account/sessions/email`,
//!   `GET /v1/account`, `DELETE /v1/account/sessions/current`,
//!   `POST /v1/account/recovery`.
//! - Every route carries the `X-Appwrite-Project` header. Location: the
//!   collection/function/bucket item; the Account API at `projectId`.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, str_of};

pub struct Appwrite;

const ACCOUNT: [(&str, &str, &[&str]); 5] = [
    (
        "POST",
        "/v1/account",
        &["userId", "email", "password", "name"],
    ),
    ("POST", "/v1/account/sessions/email", &["email", "password"]),
    ("GET", "/v1/account", &[]),
    ("DELETE", "/v1/account/sessions/current", &[]),
    ("POST", "/v1/account/recovery", &["email", "url"]),
];

impl Analyzer for Appwrite {
    fn tech(&self) -> Tech {
        Tech::new("appwrite", "Specification", "Appwrite")
            .specification()
            .files(["appwrite.json", "appwrite.config.json"])
            .detect(Detect::files(["appwrite.json", "appwrite.config.json"]))
            .supports(Supports {
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let Some(doc) = yaml::documents(file).into_iter().next() else {
            return;
        };
        let v = &doc.value;
        let project = || Param::header("X-Appwrite-Project");
        let mut emit = |m: &str, url: String, params: Vec<Param>, line: u32| {
            out.endpoint(
                Endpoint::new(m, url)
                    .param(project())
                    .params(params)
                    .at(file, line),
            );
        };
        for (i, c) in v
            .get("collections")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let (Some(id), Some(db)) = (
                c.get("$id").and_then(str_of),
                c.get("databaseId").and_then(str_of),
            ) else {
                continue;
            };
            if c.get("enabled").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            let line = doc.line(&[Seg::Key("collections"), Seg::Index(i)]);
            let attrs: Vec<Param> = c
                .get("attributes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|a| a.get("key").and_then(str_of))
                .map(|k| Param::json(format!("data.{k}")))
                .collect();
            let base = format!("/v1/databases/{db}/collections/{id}/documents");
            let one = format!("{base}/{{documentId}}");
            emit("GET", base.clone(), vec![Param::query("queries")], line);
            let mut create = vec![Param::json("documentId")];
            create.extend(attrs.clone());
            create.push(Param::json("permissions"));
            emit("POST", base, create, line);
            emit("GET", one.clone(), vec![Param::query("queries")], line);
            let mut update = attrs;
            update.push(Param::json("permissions"));
            emit("PATCH", one.clone(), update, line);
            emit("DELETE", one, Vec::new(), line);
        }
        for (i, f) in v
            .get("functions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(id) = f.get("$id").and_then(str_of) else {
                continue;
            };
            let executable = f
                .get("execute")
                .and_then(Value::as_array)
                .is_some_and(|e| !e.is_empty());
            if !executable {
                continue;
            }
            let line = doc.line(&[Seg::Key("functions"), Seg::Index(i)]);
            let params = ["body", "path", "method", "headers", "async"]
                .map(Param::json)
                .to_vec();
            emit(
                "POST",
                format!("/v1/functions/{id}/executions"),
                params,
                line,
            );
        }
        for (i, b) in v
            .get("buckets")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(id) = b.get("$id").and_then(str_of) else {
                continue;
            };
            if b.get("enabled").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            let line = doc.line(&[Seg::Key("buckets"), Seg::Index(i)]);
            let base = format!("/v1/storage/buckets/{id}/files");
            let one = format!("{base}/{{fileId}}");
            emit("GET", base.clone(), vec![Param::query("queries")], line);
            emit(
                "POST",
                base,
                vec![Param::form("fileId"), Param::file("file")],
                line,
            );
            emit("GET", one.clone(), Vec::new(), line);
            emit("DELETE", one.clone(), Vec::new(), line);
            emit("GET", format!("{one}/view"), Vec::new(), line);
        }
        if v.get("projectId").is_some() {
            let line = doc.line(&[Seg::Key("projectId")]);
            for (m, url, body) in ACCOUNT {
                emit(
                    m,
                    url.to_string(),
                    body.iter().map(|b| Param::json(*b)).collect(),
                    line,
                );
            }
        }
    }
}
