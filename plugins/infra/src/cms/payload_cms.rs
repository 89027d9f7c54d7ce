//! Payload CMS collections and globals (`CollectionConfig` /
//! `GlobalConfig` objects in TypeScript/JavaScript): the REST API Payload
//! serves for each of them under `/api`. Shapes in `docs/schema-apis.md`.
//!
//! - A collection `{ slug, fields, auth?, upload?, endpoints? }`:
//!   `GET`, `POST`, `PATCH`, `DELETE /api/<slug>` and `GET`, `PATCH`,
//!   `DELETE /api/<slug>/{id}`. The fields (`name`s of `fields[]`, through
//!   unnamed `row`/`collapsible` layouts and unnamed tabs) are JSON fields
//!   of POST/PATCH; an `upload` collection takes the `file` form field on
//!   POST. Reads take `depth`, `locale`, `draft`; list reads also `where`,
//!   `limit`, `page`, `sort`; bulk PATCH/DELETE take `where`.
//! - `auth` (true or an object): the `email` and `password` fields Payload
//!   adds, and `POST /api/<slug>/login`, `logout`,
//!   `refresh-token`, `forgot-password`, `reset-password`, `unlock`, and
//!   `GET /api/<slug>/me`.
//! - Custom `endpoints: [{ path, method }]` of a collection:
//!   `/api/<slug><path>` (`:id` → `{id}`); of a global:
//!   `/api/globals/<slug><path>`.
//! - A global `{ slug, fields }`: `GET` and `POST /api/globals/<slug>`.
//! - Location: the `slug` property.
//!
//! The objects are those typed `: CollectionConfig` / `: GlobalConfig` (or
//! `satisfies …`) in files that import Payload; a custom `routes.api` prefix
//! in `payload.config` is not read.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::lex::{Code, Syntax};
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;

pub struct PayloadCms;

const FILES: [&str; 4] = ["*.ts", "*.js", "*.mts", "*.tsx"];

const AUTH: [(&str, &str, &[&str]); 7] = [
    ("POST", "login", &["email", "password"]),
    ("POST", "logout", &[]),
    ("POST", "refresh-token", &[]),
    ("POST", "forgot-password", &["email"]),
    ("POST", "reset-password", &["token", "password"]),
    ("POST", "unlock", &["email"]),
    ("GET", "me", &[]),
];

impl Analyzer for PayloadCms {
    fn tech(&self) -> Tech {
        Tech::new("payload_cms", "Specification", "Payload CMS")
            .specification()
            .aliases(["payload", "payloadcms"])
            .files(FILES)
            .requires_any(["CollectionConfig", "GlobalConfig"])
            .detect(Detect::files(["package.json"]).regex([r#""payload"\s*:"#]))
            .supports(Supports {
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) || is_test_path(&path) || !file.content.contains("payload") {
            return;
        }
        let code = Code::new(&file.content, Syntax::JAVASCRIPT);
        for (ty, global) in [("CollectionConfig", false), ("GlobalConfig", true)] {
            for at in code.find_all(ty) {
                let Some(open) = object_for(&code, at, ty.len()) else {
                    continue;
                };
                config(file, &code, open, global, out);
            }
        }
    }
}

/// The `{` of the object a type annotation applies to: `X: T = {` (after
/// the type) or `{ … } satisfies T` (before it).
fn object_for(code: &Code<'_>, at: usize, len: usize) -> Option<usize> {
    let text = code.text();
    let after = text.get(at + len..)?;
    let trimmed = after.trim_start();
    if let Some(rest) = trimmed.strip_prefix('=') {
        let rest_trim = rest.trim_start();
        if rest_trim.starts_with('{') {
            return Some(text.len() - rest_trim.len());
        }
        return None;
    }
    let before = text.get(..at)?.trim_end();
    let before = before.strip_suffix("satisfies")?.trim_end();
    if !before.ends_with('}') {
        return None;
    }
    // The `{` matching that `}`: scan back over code.
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = before.len();
    while i > 0 {
        i -= 1;
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b'}' | b']' | b')' => depth += 1,
            b'{' | b'[' | b'(' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn config(file: &SourceFile, code: &Code<'_>, open: usize, global: bool, out: &mut Output) {
    let mut slug = None;
    let mut auth = false;
    let mut upload = false;
    let mut fields = Vec::new();
    let mut endpoints = Vec::new();
    for prop in code.args(open) {
        let Some((key, value)) = code.keyword_arg(prop.clone()) else {
            continue;
        };
        let v = code.slice(value.clone()).trim();
        match key {
            "slug" => slug = code.string_at(value.start).map(|s| (s.value, prop.start)),
            "auth" => auth = v != "false",
            "upload" => upload = v != "false",
            "fields" if v.starts_with('[') => field_names(code, value.start, &mut fields, 0),
            "endpoints" if v.starts_with('[') => {
                for item in code.args(value.start) {
                    if !code.slice(item.clone()).starts_with('{') {
                        continue;
                    }
                    let mut path = None;
                    let mut method = None;
                    for p in code.args(item.start) {
                        match code.keyword_arg(p) {
                            Some(("path", v)) => path = code.string_at(v.start).map(|s| s.value),
                            Some(("method", v)) => {
                                method = code.string_at(v.start).map(|s| s.value)
                            }
                            _ => {}
                        }
                    }
                    if let (Some(p), Some(m)) = (path, method) {
                        endpoints.push((m.to_ascii_uppercase(), p, item.start));
                    }
                }
            }
            _ => {}
        }
    }
    let Some((slug, slug_at)) = slug else {
        return;
    };
    let line = file.line_of(slug_at);
    // Auth collections get Payload's own `email` and `password` fields.
    if auth && !global {
        for f in ["password", "email"] {
            if !fields.iter().any(|x| x == f) {
                fields.insert(0, f.to_string());
            }
        }
    }
    let body: Vec<Param> = fields.iter().map(Param::json).collect();
    let base = if global {
        format!("/api/globals/{slug}")
    } else {
        format!("/api/{slug}")
    };
    let reads = ["depth", "locale", "draft"];
    let mut emit = |m: &str, url: &str, params: Vec<Param>| {
        out.endpoint(Endpoint::new(m, url).params(params).at(file, line));
    };
    if global {
        emit("GET", &base, reads.map(Param::query).to_vec());
        emit("POST", &base, body.clone());
    } else {
        let mut list: Vec<Param> = ["where", "limit", "page", "sort"]
            .map(Param::query)
            .to_vec();
        list.extend(reads.map(Param::query));
        emit("GET", &base, list);
        let mut create = body.clone();
        if upload {
            create.push(Param::form("file"));
        }
        emit("POST", &base, create);
        let mut bulk = vec![Param::query("where")];
        bulk.extend(body.clone());
        emit("PATCH", &base, bulk);
        emit("DELETE", &base, vec![Param::query("where")]);
        let one = format!("{base}/{{id}}");
        emit("GET", &one, reads.map(Param::query).to_vec());
        emit("PATCH", &one, body.clone());
        emit("DELETE", &one, Vec::new());
        if auth {
            for (m, action, fields) in AUTH {
                emit(
                    m,
                    &format!("{base}/{action}"),
                    fields.iter().map(|f| Param::json(*f)).collect(),
                );
            }
        }
    }
    for (m, p, at) in endpoints {
        let url = format!("{base}{}", colon(&p));
        out.endpoint(Endpoint::new(m, url).at(file, file.line_of(at)));
    }
}

/// `/:id/tracking` → `/{id}/tracking`.
fn colon(p: &str) -> String {
    let p = if p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
    };
    p.split('/')
        .map(|s| match s.strip_prefix(':') {
            Some(n) => format!("{{{n}}}"),
            None => s.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Names of a `fields: [...]` array; unnamed layout fields (`row`,
/// `collapsible`, unnamed `tabs`) pass their own fields through.
fn field_names(code: &Code<'_>, open: usize, out: &mut Vec<String>, depth: usize) {
    if depth > 8 {
        return;
    }
    for item in code.args(open) {
        if !code.slice(item.clone()).starts_with('{') {
            continue;
        }
        let mut name = None;
        let mut nested = Vec::new();
        for p in code.args(item.start) {
            match code.keyword_arg(p) {
                Some(("name", v)) => name = code.string_at(v.start).map(|s| s.value),
                Some(("fields" | "tabs", v)) if code.slice(v.clone()).starts_with('[') => {
                    nested.push(v.start)
                }
                _ => {}
            }
        }
        match name {
            Some(n) => {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            None => {
                for n in nested {
                    field_names(code, n, out, depth + 1);
                }
            }
        }
    }
}
