//! Helidon SE (`java_helidon_se`): the functional routing API of Helidon
//! 2/3 (`Routing.builder()`, `Service#update(Routing.Rules)`) and 4
//! (`HttpRouting.builder()`, `HttpService#routing(HttpRules)`).
//!
//! - Routes: `.get("/x", handler)` (also `post put delete patch head
//!   options`, `any` = GET POST PUT PATCH DELETE) and `.route(Method.GET,
//!   "/x", handler)` inside routing code: a method taking `HttpRules` /
//!   `Routing.Rules` (the routes of that service class), a method taking
//!   `HttpRouting.Builder` / `Routing.Builder`, a `.routing(r -> …)` lambda
//!   or a `HttpRouting.builder()` / `Routing.builder()` chain (root routes).
//! - Composition: `.register("/greet", new GreetService())` (also a field or
//!   variable of a service type, `X.create()`, a supplier `X::new` /
//!   `() -> new X()`, several services, or no
//!   prefix) mounts the routes of the service classes under the prefix, in
//!   any file and nested through services that register services. A
//!   service never registered is reported without a prefix. Constants in
//!   paths are resolved.
//! - Parameters read by the handler (inline lambda or `this::m` /
//!   `Handlers::m` method reference): `req.query().get("q")` /
//!   `queryParams().first("q")` (query, also through a variable holding
//!   `req.query()`), `req.path().pathParameters().get("id")` /
//!   `req.path().param("id")` (path), `req.headers().first("X")` /
//!   `value(HeaderNames.create("X"))` (header), `headers().cookies()
//!   .first("c")` (cookie), `req.content().as(X.class)` (json fields of `X`).
//!
//! - `rules.get(handler)` without a path is a route at the service root;
//!   `any(handler)` without a path is a filter and is not reported.
//!
//! Known gaps:
//! routes registered through `HttpRoute.builder()` and WebSocket routing
//! are not read.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::body::{self, class_literal, member_call, str_expr, str_lit};
use crate::jvm::expr::StrExpr;
use crate::jvm::facts::{analyze_with_outline, split_facts};
use crate::jvm::index::Index;
use crate::jvm::outline::Lang;
use crate::jvm::tokens::{close_of, Kind, Token};

pub struct JavaHelidonSe;

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct SeFile {
    path: String,
    routes: Vec<Route>,
    mounts: Vec<Mount>,
    bodies: Vec<(String, String, Vec<Read>)>,
}

/// `None`: the root routing; `Some(class)`: the rules of a service class.
type Owner = Option<String>;

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Route {
    owner: Owner,
    class: String,
    methods: Vec<String>,
    path: StrExpr,
    line: u32,
    reads: Vec<Read>,
    handler: Option<(Option<String>, String)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Mount {
    owner: Owner,
    prefix: StrExpr,
    targets: Vec<String>,
    line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Read {
    Param(ParamKind, String),
    Body(String),
}

impl Analyzer for JavaHelidonSe {
    fn tech(&self) -> Tech {
        Tech::new("java_helidon_se", "Java", "Helidon SE")
            .aliases(["helidon_se", "helidon-se"])
            .files(["*.java"])
            .detect(Detect::files(["*.java"]).contains([
                "io.helidon.webserver.http.HttpRules",
                "io.helidon.webserver.http.HttpRouting",
                "io.helidon.webserver.http.HttpService",
                "io.helidon.webserver.Routing",
                "io.helidon.webserver.Service",
                "io.helidon.webserver.http.*",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_with_outline(file, Lang::Java, out, |file| {
            let se = scan(file);
            (!se.routes.is_empty() || !se.mounts.is_empty() || !se.bodies.is_empty()).then_some(se)
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let (files, se) = split_facts::<SeFile>(facts.all());
        Ok(link(&Index::new(&files), &se))
    }
}

fn scan(file: &SourceFile) -> SeFile {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let src = file.content.as_str();
    let classes = body::classes(t);
    let methods = body::methods(t, &classes);
    let mut out = SeFile {
        path: file.path.clone(),
        ..SeFile::default()
    };
    // Routing regions: (start, end, owner).
    let mut regions: Vec<(usize, usize, Owner)> = Vec::new();
    for m in &methods {
        let p = &t[m.params.clone()];
        let rules = p.iter().any(|x| x.is_ident("HttpRules"))
            || p.windows(3)
                .any(|w| w[0].is_ident("Routing") && w[1].is('.') && w[2].is_ident("Rules"));
        let builder = p.windows(3).any(|w| {
            (w[0].is_ident("HttpRouting") || w[0].is_ident("Routing"))
                && w[1].is('.')
                && w[2].is_ident("Builder")
        });
        if rules {
            regions.push((m.body.start, m.body.end, Some(m.class.clone())));
        } else if builder {
            regions.push((m.body.start, m.body.end, None));
        }
        let reads = reads(t, m.body.clone());
        if !reads.is_empty() {
            out.bodies.push((m.class.clone(), m.name.clone(), reads));
        }
    }
    for i in 0..t.len() {
        if member_call(t, i, &["routing"]) {
            let close = close_of(t, i + 1).unwrap_or(t.len());
            regions.push((i + 1, close, None));
        }
        let builder = (t[i].is_ident("HttpRouting") || t[i].is_ident("Routing"))
            && t.get(i + 1).is_some_and(|x| x.is('.'))
            && t.get(i + 2).is_some_and(|x| x.is_ident("builder"));
        if builder {
            let mut depth = 0i32;
            let mut end = t.len();
            for (k, x) in t.iter().enumerate().skip(i) {
                if x.is('(') || x.is('{') {
                    depth += 1;
                } else if x.is(')') || x.is('}') {
                    depth -= 1;
                    if depth < 0 {
                        end = k;
                        break;
                    }
                } else if depth == 0 && x.is(';') {
                    end = k;
                    break;
                }
            }
            regions.push((i, end, None));
        }
    }
    let decls = body::declared_types(t, 0..t.len());
    let mut seen = vec![false; t.len()];
    for (start, end, owner) in &regions {
        for i in *start..(*end).min(t.len()) {
            if seen[i] {
                continue;
            }
            const VERBS: [&str; 10] = [
                "get", "post", "put", "delete", "patch", "head", "options", "any", "route",
                "register",
            ];
            if !member_call(t, i, &VERBS) {
                continue;
            }
            // The innermost region decides the owner.
            let owner = regions
                .iter()
                .filter(|(s, e, _)| *s <= i && i < *e)
                .min_by_key(|(s, e, _)| e - s)
                .map_or(owner.clone(), |r| r.2.clone());
            seen[i] = true;
            let (args, _) = body::call_args(t, i + 1);
            let line = file.line_of(t[i].start);
            let word = t[i].text.as_str();
            if word == "register" {
                let (prefix, services) = match args.first().and_then(|r| {
                    str_expr(t, r.clone(), src, false)
                        .filter(|_| t[r.start].kind == Kind::Str || is_const(t, r))
                }) {
                    Some(p) => (p, &args[1..]),
                    None => (StrExpr::lit(""), &args[..]),
                };
                let targets: Vec<String> = services
                    .iter()
                    .filter_map(|r| service_type(t, r.clone(), &decls))
                    .collect();
                if !targets.is_empty() {
                    out.mounts.push(Mount {
                        owner,
                        prefix,
                        targets,
                        line,
                    });
                }
                continue;
            }
            let (methods, rest) = if word == "route" {
                let Some(m) = args.first().and_then(|r| {
                    let last = &t[r.end.saturating_sub(1)];
                    (last.kind == Kind::Ident && last.text.chars().all(|c| c.is_ascii_uppercase()))
                        .then(|| last.text.clone())
                }) else {
                    continue;
                };
                (vec![m], &args[1..])
            } else if word == "any" {
                (ANY.iter().map(|s| s.to_string()).collect(), &args[..])
            } else {
                (vec![word.to_ascii_uppercase()], &args[..])
            };
            // `rules.get(this::list)`: the service root (not `any(filter)`).
            let path = match rest.len() {
                1 if word != "any" && is_handler_ref(t, &rest[0]) => StrExpr::lit(""),
                0 | 1 => continue,
                _ => match str_expr(t, rest[0].clone(), src, false) {
                    Some(p) => p,
                    None => continue,
                },
            };
            let h = rest[rest.len() - 1].clone();
            if str_lit(t, &h).is_some() {
                continue;
            }
            let (inline, handler) = crate::jvm::lambda::handler_of(t, h.clone());
            out.routes.push(Route {
                owner,
                class: body::class_at(&classes, i),
                methods,
                path,
                line,
                reads: if inline { reads(t, h) } else { Vec::new() },
                handler,
            });
        }
    }
    out
}

/// A method reference or a lambda.
fn is_handler_ref(t: &[Token], r: &std::ops::Range<usize>) -> bool {
    (r.start..r.end).any(|k| {
        (t[k].is(':') && t.get(k + 1).is_some_and(|x| x.is(':')))
            || (t[k].is('-') && t.get(k + 1).is_some_and(|x| x.is('>')))
    })
}

fn is_const(t: &[Token], r: &std::ops::Range<usize>) -> bool {
    t[r.clone()]
        .iter()
        .filter(|x| x.kind == Kind::Ident)
        .all(|x| {
            x.text
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                || x.text.starts_with(char::is_uppercase)
        })
        && !t[r.clone()].iter().any(|x| x.is('(') || x.is_ident("new"))
}

/// The service class of a `register` argument.
fn service_type(
    t: &[Token],
    r: std::ops::Range<usize>,
    decls: &[(String, String)],
) -> Option<String> {
    let first = t.get(r.start)?;
    // A supplier: `() -> new X()`.
    if let Some(k) =
        (r.start..r.end).find(|&k| t[k].is('-') && t.get(k + 1).is_some_and(|x| x.is('>')))
    {
        return (k + 2..r.end)
            .find(|&j| t[j].is_ident("new"))
            .and_then(|j| service_type(t, j..r.end, decls));
    }
    if first.is_ident("new") {
        return crate::jvm::tokens::dotted(t, r.start + 1)
            .map(|(n, _)| n.rsplit('.').next().unwrap_or("").to_string());
    }
    if first.kind != Kind::Ident {
        return None;
    }
    if first.text.starts_with(char::is_uppercase) {
        return Some(first.text.clone());
    }
    let name = if first.is_ident("this") {
        t.get(r.start + 2)?.text.clone()
    } else {
        first.text.clone()
    };
    decls
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, ty)| ty.clone())
}

/// Request reads of `t[r]`.
fn reads(t: &[Token], r: std::ops::Range<usize>) -> Vec<Read> {
    let mut out = Vec::new();
    let end = r.end.min(t.len());
    // Variables holding `req.query()` / `req.path().pathParameters()` /
    // `req.headers()`.
    let mut vars: Vec<(String, ParamKind)> = Vec::new();
    for k in r.start.max(1)..end {
        if t[k].is('=') && t[k - 1].kind == Kind::Ident {
            let stop = (k + 1..end).find(|&j| t[j].is(';')).unwrap_or(end);
            if stop >= k + 4 && t[stop - 1].is(')') && t[stop - 2].is('(') {
                if let Some(kind) = source_kind(&t[stop - 3].text) {
                    vars.push((t[k - 1].text.clone(), kind));
                }
            }
        }
    }
    for i in r.start.max(2)..end {
        let getter = member_call(
            t,
            i,
            &[
                "get", "first", "all", "contains", "value", "getRaw", "param", "optional",
            ],
        );
        if getter {
            let close = close_of(t, i + 1).unwrap_or(end);
            let name = (i + 2..close)
                .find(|&k| t[k].kind == Kind::Str)
                .map(|k| t[k].text.clone());
            let recv = &t[i - 2];
            let kind = if recv.is(')') && i >= 4 && t[i - 3].is('(') {
                let src = &t[i - 4].text;
                match src.as_str() {
                    "path" if t[i].is_ident("param") => Some(ParamKind::Path),
                    _ => source_kind(src),
                }
            } else if recv.kind == Kind::Ident {
                vars.iter().find(|(v, _)| *v == recv.text).map(|(_, k)| *k)
            } else {
                None
            };
            if let (Some(kind), Some(name)) = (kind, name) {
                push(&mut out, Read::Param(kind, name));
            }
        }
        if member_call(t, i, &["as"]) && t[i - 2].is(')') && i >= 4 && t[i - 4].is_ident("content")
        {
            let close = close_of(t, i + 1).unwrap_or(end);
            if let Some(cls) = class_literal(t, i + 2..close) {
                push(&mut out, Read::Body(cls));
            }
        }
    }
    out
}

fn source_kind(name: &str) -> Option<ParamKind> {
    match name {
        "query" | "queryParams" => Some(ParamKind::Query),
        "pathParameters" => Some(ParamKind::Path),
        "headers" => Some(ParamKind::Header),
        "cookies" => Some(ParamKind::Cookie),
        _ => None,
    }
}

fn push(out: &mut Vec<Read>, r: Read) {
    if !out.contains(&r) {
        out.push(r);
    }
}

fn link(idx: &Index, files: &[SeFile]) -> Vec<Endpoint> {
    let mut out = Vec::new();
    for f in files {
        for r in &f.routes {
            let Some(path) = body::eval(idx, &f.path, r.line, &r.path) else {
                continue;
            };
            let mut reads = r.reads.clone();
            if let Some((owner, member)) = &r.handler {
                let class = match owner {
                    None => Some(r.class.clone()),
                    Some(o) if o.starts_with(char::is_uppercase) => Some(o.clone()),
                    Some(_) => None,
                };
                for g in files {
                    for (c, m, rd) in &g.bodies {
                        let hit = m == member
                            && match &class {
                                Some(c2) => c == c2,
                                None => g.path == f.path,
                            };
                        if hit {
                            for x in rd {
                                push(&mut reads, x.clone());
                            }
                        }
                    }
                }
            }
            let fi = idx.files.iter().position(|x| x.path == f.path).unwrap_or(0);
            let mut params: Vec<Param> = Vec::new();
            for x in reads {
                let new = match x {
                    Read::Param(k, n) => vec![Param::new(k, n)],
                    Read::Body(cls) => idx
                        .dto_fields(fi, &cls)
                        .unwrap_or_default()
                        .into_iter()
                        .map(Param::json)
                        .collect(),
                };
                for p in new {
                    if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                        params.push(p);
                    }
                }
            }
            for prefix in prefixes(idx, files, &r.owner, 0) {
                let url = join_path(&[prefix.as_str(), path.as_str()]);
                for m in &r.methods {
                    out.push(
                        Endpoint::new(m, url.clone())
                            .at_path(f.path.clone(), r.line)
                            .params(params.clone()),
                    );
                }
            }
        }
    }
    out
}

/// The prefixes the routes of `owner` are mounted under.
fn prefixes(idx: &Index, files: &[SeFile], owner: &Owner, depth: usize) -> Vec<String> {
    let Some(class) = owner else {
        return vec![String::new()];
    };
    let mut out = Vec::new();
    if depth > 8 {
        return vec![String::new()];
    }
    for f in files {
        for m in &f.mounts {
            if !m.targets.contains(class) || m.owner.as_ref() == Some(class) {
                continue;
            }
            let Some(p) = body::eval(idx, &f.path, m.line, &m.prefix) else {
                continue;
            };
            for outer in prefixes(idx, files, &m.owner, depth + 1) {
                let full = join_path(&[outer.as_str(), p.as_str()]);
                if !out.contains(&full) {
                    out.push(full);
                }
            }
        }
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}
