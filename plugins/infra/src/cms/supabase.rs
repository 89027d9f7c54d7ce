//! Supabase projects (`supabase/` folder of the Supabase CLI): the REST API
//! PostgREST serves for the SQL migrations' tables, views and functions, the
//! Auth (GoTrue) endpoints, and the Edge Functions. Shapes in
//! `docs/schema-apis.md`.
//!
//! - `create table [if not exists] [public.]t (…)` in
//!   `supabase/migrations/*.sql` (and `supabase/seed.sql`,
//!   `supabase/schemas/*.sql`): `GET`, `POST`, `PATCH`, `DELETE`
//!   `/rest/v1/t`. Columns are query params of GET/PATCH/DELETE (PostgREST
//!   filters, `?id=eq.1`) and JSON fields of POST/PATCH; GET also takes
//!   `select`, `order`, `limit`, `offset`. Every request carries the
//!   `apikey` header. Tables in other schemas than `public` (not exposed by
//!   default) and tables dropped later in the migrations are left out.
//! - `create view`: `GET` only. `create function [public.]f(a int, b text)`:
//!   `POST /rest/v1/rpc/f` with the arguments as JSON fields (and `GET` with
//!   them as query params when the function is `stable` or `immutable`);
//!   trigger functions (`returns trigger`) are not callable.
//! - `supabase/config.toml` with auth enabled (the default): the Auth
//!   endpoints under `/auth/v1`.
//! - `supabase/functions/<name>/index.ts`: `/functions/v1/<name>`, any
//!   method (`_shared` and dot folders are not functions).
//! - Location: the `create` statement, the `[auth]` table (else line 1),
//!   the function's entry file.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::toml;
use crate::common::ANY_METHODS;

pub struct Supabase;

const FILES: [&str; 4] = [
    "**/supabase/migrations/*.sql",
    "**/supabase/schemas/*.sql",
    "**/supabase/config.toml",
    "**/supabase/functions/**",
];

/// GoTrue endpoints: method, path, JSON fields, query params.
const AUTH: [(&str, &str, &[&str], &[&str]); 13] = [
    (
        "POST",
        "/auth/v1/signup",
        &["email", "password", "phone", "data"],
        &[],
    ),
    (
        "POST",
        "/auth/v1/token",
        &["email", "password", "phone", "refresh_token"],
        &["grant_type"],
    ),
    ("POST", "/auth/v1/logout", &[], &["scope"]),
    ("GET", "/auth/v1/user", &[], &[]),
    (
        "PUT",
        "/auth/v1/user",
        &["email", "password", "phone", "data"],
        &[],
    ),
    ("POST", "/auth/v1/recover", &["email"], &[]),
    (
        "POST",
        "/auth/v1/otp",
        &["email", "phone", "create_user"],
        &[],
    ),
    (
        "POST",
        "/auth/v1/verify",
        &["type", "token", "email", "phone"],
        &[],
    ),
    (
        "GET",
        "/auth/v1/verify",
        &[],
        &["type", "token", "redirect_to"],
    ),
    ("POST", "/auth/v1/magiclink", &["email"], &[]),
    (
        "GET",
        "/auth/v1/authorize",
        &[],
        &["provider", "redirect_to", "scopes"],
    ),
    ("GET", "/auth/v1/settings", &[], &[]),
    ("POST", "/auth/v1/resend", &["type", "email", "phone"], &[]),
];

#[derive(Serialize, Deserialize, Clone)]
enum Kind {
    Table,
    View,
    Function { args: Vec<String>, read_only: bool },
    Drop,
}

#[derive(Serialize, Deserialize)]
struct Object {
    name: String,
    kind: Kind,
    columns: Vec<String>,
    path: String,
    line: u32,
}

impl Analyzer for Supabase {
    fn tech(&self) -> Tech {
        Tech::new("supabase", "Specification", "Supabase")
            .specification()
            .aliases(["postgrest"])
            .files(FILES)
            .detect(Detect::files([
                "**/supabase/config.toml",
                "**/supabase/migrations/*.sql",
            ]))
            .supports(Supports {
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) {
            return;
        }
        if path.ends_with(".sql") {
            for o in sql_objects(&file.content, &path) {
                out.fact(&o);
            }
        } else if path.ends_with("supabase/config.toml") {
            auth(file, out);
        } else if let Some(rest) = path.split("supabase/functions/").nth(1) {
            let parts: Vec<&str> = rest.split('/').collect();
            if let [name, entry] = parts.as_slice() {
                let is_entry = entry
                    .rsplit_once('.')
                    .is_some_and(|(stem, ext)| stem == "index" && matches!(ext, "ts" | "js"));
                if is_entry && !name.starts_with(['_', '.']) {
                    let url = format!("/functions/v1/{name}");
                    let line = file
                        .content
                        .lines()
                        .position(|l| l.contains("serve(") || l.contains("Deno.serve"))
                        .map_or(1, |n| n as u32 + 1);
                    for m in ANY_METHODS {
                        out.endpoint(Endpoint::new(m, url.clone()).at(file, line));
                    }
                }
            }
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        // Later migrations win: files come in path order (timestamped names).
        let mut objects: Vec<Object> = facts.iter::<Object>().collect();
        objects.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
        let mut live: BTreeMap<String, Object> = BTreeMap::new();
        for o in objects {
            if matches!(o.kind, Kind::Drop) {
                live.remove(&o.name);
            } else {
                live.insert(o.name.clone(), o);
            }
        }
        let mut out = Vec::new();
        for o in live.values() {
            let at = |e: Endpoint| {
                e.param(Param::header("apikey"))
                    .at_path(o.path.clone(), o.line)
            };
            match &o.kind {
                Kind::Table | Kind::View => {
                    let url = format!("/rest/v1/{}", o.name);
                    let filters: Vec<Param> = o.columns.iter().map(Param::query).collect();
                    let body: Vec<Param> = o.columns.iter().map(Param::json).collect();
                    let mut get = Endpoint::new("GET", url.clone())
                        .params(["select", "order", "limit", "offset"].map(Param::query));
                    get = get.params(filters.clone());
                    out.push(at(get));
                    if matches!(o.kind, Kind::View) {
                        continue;
                    }
                    out.push(at(Endpoint::new("POST", url.clone()).params(body.clone())));
                    out.push(at(Endpoint::new("PATCH", url.clone())
                        .params(filters.clone())
                        .params(body)));
                    out.push(at(Endpoint::new("DELETE", url).params(filters)));
                }
                Kind::Function { args, read_only } => {
                    let url = format!("/rest/v1/rpc/{}", o.name);
                    out.push(at(
                        Endpoint::new("POST", url.clone()).params(args.iter().map(Param::json))
                    ));
                    if *read_only {
                        out.push(at(
                            Endpoint::new("GET", url).params(args.iter().map(Param::query))
                        ));
                    }
                }
                Kind::Drop => {}
            }
        }
        Ok(out)
    }
}

fn auth(file: &SourceFile, out: &mut Output) {
    let doc = match toml::parse(&file.content) {
        Ok(d) => d,
        Err(e) => return host::warn(&format!("{}: invalid TOML: {e}", file.path)),
    };
    let enabled = doc
        .value
        .pointer("/auth/enabled")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(true);
    if !enabled {
        return;
    }
    let line = doc.line(&["auth"]);
    for (method, url, body, query) in AUTH {
        out.endpoint(
            Endpoint::new(method, url)
                .param(Param::header("apikey"))
                .params(body.iter().map(|b| Param::json(*b)))
                .params(query.iter().map(|q| Param::query(*q)))
                .at(file, line),
        );
    }
}

/// SQL with `--` and `/* */` comments and `$$ … $$` bodies blanked
/// (offsets and lines kept).
fn blank_comments(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if c == b'\'' || c == b'"' {
            quote = Some(c);
            out.push(c);
            i += 1;
        } else if c == b'-' && b.get(i + 1) == Some(&b'-') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            if i < b.len() {
                out.extend_from_slice(b"  ");
                i += 2;
            }
        } else if c == b'$' && b.get(i + 1) == Some(&b'$') {
            // A `$$ … $$` function body: kept out of statement scanning.
            out.extend_from_slice(b"  ");
            i += 2;
            while i < b.len() && !(b[i] == b'$' && b.get(i + 1) == Some(&b'$')) {
                out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            if i < b.len() {
                out.extend_from_slice(b"  ");
                i += 2;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// `schema.name` / `"name"` → the name when it is in `public`.
fn public_name(raw: &str) -> Option<String> {
    let raw = raw.trim().trim_end_matches(['(', ';']);
    let (schema, name) = match raw.rsplit_once('.') {
        Some((s, n)) => (s.trim_matches('"'), n),
        None => ("public", raw),
    };
    let name = name.trim_matches('"');
    (schema.eq_ignore_ascii_case("public")
        && !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then(|| name.to_string())
}

fn sql_objects(sql: &str, path: &str) -> Vec<Object> {
    let text = blank_comments(sql);
    let lower = text.to_ascii_lowercase();
    let line_of = |off: usize| sql.get(..off).unwrap_or(sql).matches('\n').count() as u32 + 1;
    let mut out = Vec::new();
    for (stmt_start, stmt) in statements(&lower) {
        let words: Vec<&str> = stmt.split_whitespace().collect();
        let mut w = words.iter().copied().peekable();
        let first = w.next().unwrap_or("");
        if first == "drop" {
            let kind = w.next().unwrap_or("");
            if kind == "table" || kind == "view" {
                let mut name = w.next().unwrap_or("");
                if name == "if" {
                    w.next();
                    name = w.next().unwrap_or("");
                }
                let orig = original(&text, stmt_start, stmt, name);
                if let Some(n) = public_name(&orig) {
                    out.push(Object {
                        name: n,
                        kind: Kind::Drop,
                        columns: Vec::new(),
                        path: path.to_string(),
                        line: line_of(stmt_start),
                    });
                }
            }
            continue;
        }
        if first != "create" {
            continue;
        }
        // create [or replace] [temp|unlogged|materialized] table|view|function
        let mut kind = "";
        for word in w.by_ref() {
            match word {
                "or" | "replace" | "temp" | "temporary" | "unlogged" | "materialized"
                | "recursive" => {}
                other => {
                    kind = other;
                    break;
                }
            }
        }
        if !matches!(kind, "table" | "view" | "function") {
            continue;
        }
        let mut name = w.next().unwrap_or("");
        if name == "if" {
            w.next();
            w.next();
            name = w.next().unwrap_or("");
        }
        let name_only = name.split('(').next().unwrap_or("");
        let orig = original(&text, stmt_start, stmt, name_only);
        let Some(n) = public_name(&orig) else {
            continue;
        };
        let line = line_of(stmt_start);
        let paren = stmt.find('(');
        let obj = match kind {
            "table" => {
                if stmt.contains(" partition of ") {
                    continue;
                }
                let columns = paren
                    .map(|p| columns(&text[stmt_start + p..stmt_start + stmt.len()]))
                    .unwrap_or_default();
                Object {
                    name: n,
                    kind: Kind::Table,
                    columns,
                    path: path.to_string(),
                    line,
                }
            }
            "view" => Object {
                name: n,
                kind: Kind::View,
                columns: Vec::new(),
                path: path.to_string(),
                line,
            },
            _ => {
                let returns_trigger = words
                    .windows(2)
                    .any(|w| w[0] == "returns" && matches!(w[1], "trigger" | "event_trigger"));
                if returns_trigger {
                    continue;
                }
                let args = paren
                    .map(|p| arguments(&text[stmt_start + p..stmt_start + stmt.len()]))
                    .unwrap_or_default();
                let read_only = words.iter().any(|w| matches!(*w, "stable" | "immutable"));
                Object {
                    name: n,
                    kind: Kind::Function { args, read_only },
                    columns: Vec::new(),
                    path: path.to_string(),
                    line,
                }
            }
        };
        out.push(obj);
    }
    out
}

/// The original-case text of a word of a lowercased statement.
fn original(text: &str, stmt_start: usize, stmt: &str, word: &str) -> String {
    stmt.find(word)
        .and_then(|i| text.get(stmt_start + i..stmt_start + i + word.len()))
        .unwrap_or(word)
        .to_string()
}

/// `(offset, text)` of each `;`-terminated statement (quotes respected).
fn statements(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quote: Option<u8> = None;
    for (i, b) in text.bytes().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' => quote = Some(b),
            None if b == b';' => {
                let s = &text[start..i];
                let lead = s.len() - s.trim_start().len();
                out.push((start + lead, s.trim()));
                start = i + 1;
            }
            None => {}
        }
    }
    let s = &text[start..];
    if !s.trim().is_empty() {
        let lead = s.len() - s.trim_start().len();
        out.push((start + lead, s.trim()));
    }
    out
}

/// The parenthesised list starting at `(`, split at top-level commas.
fn items(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 1;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    out.push(&s[start..i]);
                    return out;
                }
            }
            b',' if depth == 1 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

const CONSTRAINTS: [&str; 6] = [
    "constraint",
    "primary",
    "unique",
    "foreign",
    "check",
    "exclude",
];

fn columns(s: &str) -> Vec<String> {
    items(s)
        .into_iter()
        .filter_map(|item| {
            let word = item.split_whitespace().next()?.trim_matches('"');
            if CONSTRAINTS.contains(&word.to_ascii_lowercase().as_str()) || word.starts_with("like")
            {
                return None;
            }
            Some(word.to_string())
        })
        .collect()
}

fn arguments(s: &str) -> Vec<String> {
    items(s)
        .into_iter()
        .filter_map(|item| {
            let mut words = item.split_whitespace();
            let mut first = words.next()?;
            if matches!(
                first.to_ascii_lowercase().as_str(),
                "in" | "inout" | "variadic"
            ) {
                first = words.next()?;
            }
            if first.eq_ignore_ascii_case("out") {
                return None;
            }
            // An unnamed argument is just a type.
            words.next()?;
            Some(first.trim_matches('"').to_string())
        })
        .collect()
}
