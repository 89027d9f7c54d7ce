//! F#: Giraffe (`fs_giraffe`).
//!
//! Handlers composed with `choose [ … ]` and `>=>`: `GET >=> route "/x" >=>
//! h`, `GET >=> choose [ route "/a" >=> …; routef "/b/%i" h ]`, `subRoute
//! "/api" (choose [ … ])` prefixes, and Endpoint routing (`GET [ route "/"
//! h; routef "/%s" h ]`, `subRoute "/api" [ … ]`). Lists split on `;` or on
//! a new line at the item's column (the offside rule); a `let` binding
//! named inside another list (`apiRoutes`, in any file) is expanded there,
//! and only bindings no other binding uses are roots. `routef` format
//! holes (`%s`, `%i`, …) become `{p1}`, `{p2}`, …; a route without a
//! method filter is reported as GET. A route may name a path constant
//! (`route Urls.login` with `let login = "/login"` in `module Urls`, in any
//! file).
//!
//! Parameters: `bindJson<T>`/`bindForm<T>`/`bindQuery<T>` in the chain
//! (the fields of record `T`, json/form/query), and in the handler named
//! after the route (its `let` block): `TryGetQueryStringValue "q"` /
//! `GetQueryStringValue "q"` query, `TryGetRequestHeader "X"` /
//! `GetRequestHeader "X"` header, `GetCookieValue "c"` cookie,
//! `BindJsonAsync<T>()` / `BindFormAsync<T>()` / `BindQueryString<T>()`
//! record fields.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, indent_block, method_of, reads, Kind, Read};

const FSHARP: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: &[("(*", "*)")],
    nested_block_comments: true,
    quotes: b"\"",
    triple_quotes: true,
    ..common::DART
};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
enum T {
    Str(String),
    Id(String),
    Open,
    Close,
    Compose,
    Semi,
}

/// A token with its line and column.
type Tok = (T, u32, u32);

#[derive(Serialize, Deserialize, Default)]
struct FsFile {
    path: String,
    bindings: Vec<(String, Vec<Tok>)>,
    /// handler name → reads (query/header/cookie) and bound record types (kind, type)
    handlers: Vec<(String, Vec<Param>, Vec<(ParamKind, String)>)>,
    records: Vec<(String, Vec<String>)>,
    /// `let login = "/login"`: string bindings holding a path (route
    /// constants, often in a `module Urls`).
    consts: Vec<(String, String)>,
}

const READS: &[Read] = &[
    ("TryGetQueryStringValue", Kind::Fixed(ParamKind::Query)),
    ("GetQueryStringValue", Kind::Fixed(ParamKind::Query)),
    ("TryGetRequestHeader", Kind::Fixed(ParamKind::Header)),
    ("GetRequestHeader", Kind::Fixed(ParamKind::Header)),
    ("GetCookieValue", Kind::Fixed(ParamKind::Cookie)),
    ("Request.Query.", Kind::Fixed(ParamKind::Query)),
    ("Request.Headers.", Kind::Fixed(ParamKind::Header)),
];

/// `bindJson<User>` / `BindJsonAsync<User>` → (json, User).
fn binds(text: &str) -> Vec<(ParamKind, String)> {
    let mut out = Vec::new();
    for (needle, kind) in [
        ("indJson<", ParamKind::Json),
        ("indJsonAsync<", ParamKind::Json),
        ("indForm<", ParamKind::Form),
        ("indFormAsync<", ParamKind::Form),
        ("indQuery<", ParamKind::Query),
        ("indQueryString<", ParamKind::Query),
        ("indModel<", ParamKind::Json),
    ] {
        for (i, _) in text.match_indices(needle) {
            let rest = &text[i + needle.len()..];
            if let Some(end) = rest.find('>') {
                out.push((kind, rest[..end].trim().to_string()));
            }
        }
    }
    out
}

fn tokenize(code: &Code, file: &SourceFile, r: std::ops::Range<usize>) -> Vec<Tok> {
    let text = code.text();
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = r.start;
    while i < r.end {
        let c = b[i];
        let col = |i: usize| (i - portolan_plugin_sdk::text::line_start_of(text, i)) as u32;
        if c == b'"' {
            if let Some(l) = code.string_at(i) {
                out.push((T::Str(l.value), file.line_of(i), col(i)));
                i = l.end.max(i + 1);
                continue;
            }
        }
        if !code.is_code(i) || c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b[i..].starts_with(b">=>") {
            out.push((T::Compose, file.line_of(i), col(i)));
            i += 3;
        } else if matches!(c, b'[' | b'(') {
            out.push((T::Open, file.line_of(i), col(i)));
            i += 1;
        } else if matches!(c, b']' | b')') {
            out.push((T::Close, file.line_of(i), col(i)));
            i += 1;
        } else if c == b';' {
            out.push((T::Semi, file.line_of(i), col(i)));
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < r.end && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'\''))
            {
                i += 1;
            }
            // Skip generic arguments `<User>` after a bind.
            out.push((T::Id(text[s..i].to_string()), file.line_of(s), col(s)));
        } else {
            i += 1;
        }
    }
    out
}

fn scan(file: &SourceFile) -> FsFile {
    let code = file.code(FSHARP);
    let text = code.text();
    let mut f = FsFile {
        path: file.path.clone(),
        ..FsFile::default()
    };
    for at in code.find_word("let") {
        let p = code.skip_ws(at + 3);
        let Some(mut name) = code.ident_at(p) else {
            continue;
        };
        let mut np = p;
        if name == "rec" || name == "private" || name == "inline" || name == "mutable" {
            np = code.skip_ws(p + name.len());
            match code.ident_at(np) {
                Some(n) => name = n,
                None => continue,
            }
        }
        let block = indent_block(text, at);
        let Some(eq) = text[np..block.end].find('=') else {
            continue;
        };
        let rhs = np + eq + 1..block.end;
        let body = &text[rhs.clone()];
        if let Some(lit) = code.string_at(rhs.start) {
            if code.skip_ws(lit.end) >= rhs.end && lit.value.starts_with('/') {
                f.consts.push((name.to_string(), lit.value));
            }
        }
        if body.contains("route") || body.contains("choose") || body.contains("subRoute") {
            f.bindings
                .push((name.to_string(), tokenize(&code, file, rhs.clone())));
        }
        let rs = reads(&code, rhs.clone(), READS, "GET");
        let bs = binds(body);
        if !rs.is_empty() || !bs.is_empty() {
            f.handlers.push((name.to_string(), rs, bs));
        }
    }
    // Records: type User = { Name: string; Email: string }
    for at in code.find_word("type") {
        let Some(name) = code.ident_at(at + 4) else {
            continue;
        };
        let block = indent_block(text, at);
        let Some(open) = text[at..block.end].find('{').map(|i| at + i) else {
            continue;
        };
        let close = code.matching(open).unwrap_or(block.end);
        let fields = text[open + 1..close]
            .split([';', '\n'])
            .filter_map(|l| l.split(':').next())
            .map(|s| s.trim().trim_start_matches("mutable ").trim())
            .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect();
        f.records.push((name.to_string(), fields));
    }
    f
}

struct Ctx<'a> {
    bindings: HashMap<&'a str, (&'a str, &'a [Tok])>,
    handlers: HashMap<&'a str, (&'a Vec<Param>, &'a Vec<(ParamKind, String)>)>,
    records: HashMap<&'a str, &'a Vec<String>>,
    consts: HashMap<&'a str, &'a str>,
    out: Vec<Endpoint>,
    stack: Vec<&'a str>,
}

#[derive(Clone)]
struct State {
    methods: Vec<&'static str>,
    prefix: String,
}

fn format_url(s: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if let Some(&k) = chars.peek() {
                if k.is_ascii_alphabetic() {
                    chars.next();
                    n += 1;
                    out.push_str(&format!("{{p{n}}}"));
                    continue;
                }
                if k == '%' {
                    chars.next();
                }
            }
        }
        out.push(c);
    }
    out
}

impl<'a> Ctx<'a> {
    /// Process a list's tokens (inside brackets): items split by `;` or the
    /// offside rule.
    fn list(&mut self, path: &str, toks: &'a [Tok], state: &State, depth: usize) {
        if depth > 48 {
            return;
        }
        let mut items: Vec<&'a [Tok]> = Vec::new();
        let mut start = 0;
        let mut i = 0;
        let mut level = 0i32;
        let mut col = toks.first().map_or(0, |t| t.2);
        while i < toks.len() {
            match toks[i].0 {
                T::Open => level += 1,
                T::Close => level -= 1,
                T::Semi if level == 0 => {
                    items.push(&toks[start..i]);
                    start = i + 1;
                    col = toks.get(start).map_or(0, |t| t.2);
                }
                _ => {}
            }
            if level == 0 && i > start {
                let prev = &toks[i - 1];
                let t = &toks[i];
                if t.1 > prev.1
                    && t.2 <= col
                    && prev.0 != T::Compose
                    && t.0 != T::Compose
                    && t.0 != T::Close
                {
                    items.push(&toks[start..i]);
                    start = i;
                    col = t.2;
                }
            }
            i += 1;
        }
        if start < toks.len() {
            items.push(&toks[start..]);
        }
        for item in items {
            self.item(path, item, state.clone(), depth);
        }
    }

    fn item(&mut self, path: &str, toks: &'a [Tok], mut st: State, depth: usize) {
        let mut i = 0;
        while i < toks.len() {
            match &toks[i].0 {
                T::Open => {
                    let mut level = 0;
                    let mut j = i;
                    while j < toks.len() {
                        match toks[j].0 {
                            T::Open => level += 1,
                            T::Close => {
                                level -= 1;
                                if level == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    self.list(path, &toks[i + 1..j.min(toks.len())], &st, depth + 1);
                    i = j + 1;
                    continue;
                }
                T::Id(id) => {
                    let word = id.rsplit('.').next().unwrap_or(id);
                    if let Some(m) =
                        method_of(word).filter(|_| word.chars().all(|c| c.is_ascii_uppercase()))
                    {
                        st.methods = vec![m];
                    } else if matches!(
                        word,
                        "route" | "routeCi" | "routex" | "routef" | "routeCif" | "routeStartsWith"
                    ) {
                        // A literal, or a path constant (`route Urls.login`).
                        let arg = match toks.get(i + 1) {
                            Some((T::Str(s), line, _)) => Some((s.as_str(), line)),
                            Some((T::Id(c), line, _)) => self
                                .consts
                                .get(c.rsplit('.').next().unwrap_or(c))
                                .map(|v| (*v, line)),
                            _ => None,
                        };
                        if let Some((s, line)) = arg {
                            let url = if word.starts_with("routef") || word == "routeCif" {
                                format_url(s)
                            } else {
                                s.to_string()
                            };
                            let url = common::join_url(&[&st.prefix, &url]);
                            let url = if s.ends_with('/') && s.len() > 1 {
                                format!("{url}/")
                            } else {
                                url
                            };
                            // Params: binds and the handler named after the route.
                            let mut params = Vec::new();
                            let rest = &toks[(i + 2).min(toks.len())..];
                            for (k, (t, _, _)) in rest.iter().enumerate() {
                                if let T::Id(h) = t {
                                    let h = h.rsplit('.').next().unwrap_or(h);
                                    let bound = match h {
                                        "bindJson" | "bindModel" | "tryBindJson" => {
                                            Some(ParamKind::Json)
                                        }
                                        "bindForm" | "tryBindForm" => Some(ParamKind::Form),
                                        "bindQuery" | "tryBindQuery" => Some(ParamKind::Query),
                                        _ => None,
                                    };
                                    if let (Some(kind), Some((T::Id(ty), _, _))) =
                                        (bound, rest.get(k + 1))
                                    {
                                        for fld in self
                                            .records
                                            .get(ty.as_str())
                                            .map(|v| v.as_slice())
                                            .unwrap_or(&[])
                                        {
                                            params.push(Param::new(kind, fld));
                                        }
                                    }
                                    if let Some((rs, bs)) = self.handlers.get(h) {
                                        params.extend(rs.iter().cloned());
                                        for (k, ty) in bs.iter() {
                                            for fld in self
                                                .records
                                                .get(ty.as_str())
                                                .map(|v| v.as_slice())
                                                .unwrap_or(&[])
                                            {
                                                params.push(Param::new(*k, fld));
                                            }
                                        }
                                    }
                                }
                            }
                            let methods = if st.methods.is_empty() {
                                vec!["GET"]
                            } else {
                                st.methods.clone()
                            };
                            for m in methods {
                                let mut e = Endpoint::new(m, &url).at_path(path, *line);
                                for p in &params {
                                    let body = matches!(p.kind, ParamKind::Json | ParamKind::Form);
                                    if !(e.params.contains(p) || body && m == "GET") {
                                        e.push_param(p.clone());
                                    }
                                }
                                self.out.push(e);
                            }
                            return;
                        }
                    } else if matches!(word, "subRoute" | "subRouteCi" | "subRoutef") {
                        if let Some((T::Str(s), _, _)) = toks.get(i + 1) {
                            st.prefix = common::join_url(&[&st.prefix, s]);
                            i += 2;
                            continue;
                        }
                    } else if let Some(&(bpath, btoks)) = self.bindings.get(word) {
                        if !self.stack.contains(&word) && self.stack.len() < 16 {
                            let key: &'a str = self
                                .bindings
                                .get_key_value(word)
                                .map(|(k, _)| *k)
                                .unwrap_or("");
                            self.stack.push(key);
                            self.list(bpath, btoks, &st, depth + 1);
                            self.stack.pop();
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

pub struct Giraffe;

impl Analyzer for Giraffe {
    fn tech(&self) -> Tech {
        Tech::new("fs_giraffe", "F#", "Giraffe")
            .aliases(["giraffe", "fs-giraffe", "fsharp-giraffe"])
            .files(["*.fs"])
            .detect(
                Detect::files(["*.fsproj", "paket.dependencies", "paket.references"])
                    .contains(["Giraffe"]),
            )
            .detect(Detect::files(["*.fs"]).contains(["open Giraffe"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        out.fact(&scan(file));
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FsFile> = facts.all();
        let mut ctx = Ctx {
            bindings: HashMap::new(),
            handlers: HashMap::new(),
            records: HashMap::new(),
            consts: HashMap::new(),
            out: Vec::new(),
            stack: Vec::new(),
        };
        for f in &files {
            for (n, t) in &f.bindings {
                ctx.bindings
                    .insert(n.as_str(), (f.path.as_str(), t.as_slice()));
            }
            for (n, r, b) in &f.handlers {
                ctx.handlers.insert(n.as_str(), (r, b));
            }
            for (n, fl) in &f.records {
                ctx.records.insert(n.as_str(), fl);
            }
            for (n, v) in &f.consts {
                ctx.consts.entry(n.as_str()).or_insert(v.as_str());
            }
        }
        let mut used: HashSet<&str> = HashSet::new();
        for f in &files {
            for (n, toks) in &f.bindings {
                for (t, _, _) in toks {
                    if let T::Id(id) = t {
                        let id = id.rsplit('.').next().unwrap_or(id);
                        if id != n && ctx.bindings.contains_key(id) {
                            used.insert(id);
                        }
                    }
                }
            }
        }
        for f in &files {
            for (n, toks) in &f.bindings {
                if used.contains(n.as_str()) {
                    continue;
                }
                ctx.stack.push(n.as_str());
                ctx.list(
                    &f.path,
                    toks,
                    &State {
                        methods: Vec::new(),
                        prefix: String::new(),
                    },
                    0,
                );
                ctx.stack.pop();
            }
        }
        Ok(ctx.out)
    }
}
