//! JDK built-in HTTP server (`java_httpserver`, `com.sun.net.httpserver`).
//!
//! - Endpoints: `server.createContext("/path", handler)` on an `HttpServer`
//!   / `HttpsServer`; the handler is `new UsersHandler(…)` (a class in any
//!   file), a variable or field of a handler type, a lambda, or a method
//!   reference (`this::handle`, `Handlers::users`). Constants and `+` in
//!   paths are resolved. A context matches its path as a prefix; the path is
//!   reported as written.
//! - Methods: the HTTP methods the handler compares
//!   `exchange.getRequestMethod()` with (`"GET".equals(…)`,
//!   `….equalsIgnoreCase("POST")`, `switch (…) { case "PUT" … }`), in the
//!   handler class, its superclasses (a base class that dispatches), the
//!   referenced method or the lambda. When the handler does not look at the
//!   method (or is not visible), the context is reported as GET and POST,
//!   the two methods a plain handler usually serves.
//! - Parameters: `getRequestHeaders().getFirst("X")` / `.get("X")` (also
//!   through a `Headers` variable) (header); `.get("q")` /
//!   `getOrDefault("q", …)` on a map built from `getRequestURI().getQuery()`
//!   (query) or from `getRequestBody()` (form); a body read as a class with
//!   `mapper.readValue(…getRequestBody()…, X.class)` / `gson.fromJson(…)`
//!   (json fields of `X`). Body parameters are not attached to GET.
//!
//! Known gaps: `HttpContext.setHandler(…)` on a context created without a
//! handler, and filters, are not read.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::body::{self, class_literal, member_call, str_expr, str_lit};
use crate::jvm::expr::StrExpr;
use crate::jvm::facts::{analyze_with_outline, split_facts};
use crate::jvm::index::Index;
use crate::jvm::outline::Lang;
use crate::jvm::tokens::{close_of, dotted, split_commas, Kind, Token};

pub struct JavaHttpServer;

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct HsFile {
    path: String,
    contexts: Vec<Context>,
    /// Per class: `(class, methods, reads)`.
    classes: Vec<(String, Info)>,
    /// Per method: `(class, method, info)`.
    methods: Vec<(String, String, Info)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Info {
    methods: Vec<String>,
    reads: Vec<Read>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Context {
    path: StrExpr,
    line: u32,
    class: String,
    handler: Handler,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Handler {
    Class(String),
    Method(Option<String>, String),
    Inline(Info),
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Read {
    Param(ParamKind, String),
    Body(String),
}

impl Analyzer for JavaHttpServer {
    fn tech(&self) -> Tech {
        Tech::new("java_httpserver", "Java", "JDK HttpServer")
            .aliases(["httpserver", "jdk-httpserver", "com.sun.net.httpserver"])
            .files(["*.java"])
            .detect(Detect::files(["*.java"]).contains(["com.sun.net.httpserver"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_with_outline(file, Lang::Java, out, |file| {
            let hs = scan(file);
            (!hs.contexts.is_empty() || !hs.classes.is_empty() || !hs.methods.is_empty())
                .then_some(hs)
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let (files, scans) = split_facts::<HsFile>(facts.all());
        Ok(link(&Index::new(&files), &scans))
    }
}

fn scan(file: &SourceFile) -> HsFile {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let src = file.content.as_str();
    let classes = body::classes(t);
    let mut out = HsFile {
        path: file.path.clone(),
        ..HsFile::default()
    };
    for c in &classes {
        let info = info(t, c.open + 1..c.close);
        if info != Info::default() {
            out.classes.push((c.name.clone(), info));
        }
    }
    for m in body::methods(t, &classes) {
        let info = info(t, m.body.clone());
        if info != Info::default() {
            out.methods.push((m.class.clone(), m.name.clone(), info));
        }
    }
    let decls = body::declared_types(t, 0..t.len());
    for i in 0..t.len() {
        if !member_call(t, i, &["createContext"]) {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let args = split_commas(t, i + 2, close);
        let Some(path) = args
            .first()
            .and_then(|r| str_expr(t, r.clone(), src, false))
        else {
            continue;
        };
        let handler = match args.get(1) {
            None => Handler::Unknown,
            Some(h) => handler(t, h.clone(), &decls),
        };
        out.contexts.push(Context {
            path,
            line: file.line_of(t[i].start),
            class: body::class_at(&classes, i),
            handler,
        });
    }
    out
}

fn handler(t: &[Token], r: std::ops::Range<usize>, decls: &[(String, String)]) -> Handler {
    let (inline, refd) = crate::jvm::lambda::handler_of(t, r.clone());
    if inline {
        return Handler::Inline(info(t, r));
    }
    if t[r.start].is_ident("new") {
        return match dotted(t, r.start + 1) {
            Some((n, _)) => Handler::Class(n.rsplit('.').next().unwrap_or("").to_string()),
            None => Handler::Unknown,
        };
    }
    let is_ref = (r.start..r.end).any(|k| t[k].is(':'));
    match refd {
        Some((owner, member)) if is_ref => Handler::Method(owner, member),
        Some((None, var)) => match decls.iter().find(|(n, _)| *n == var) {
            Some((_, ty)) => Handler::Class(ty.clone()),
            None => Handler::Unknown,
        },
        Some((Some(_), field)) => match decls.iter().find(|(n, _)| *n == field) {
            Some((_, ty)) => Handler::Class(ty.clone()),
            None => Handler::Unknown,
        },
        None => Handler::Unknown,
    }
}

/// Methods compared with and request reads of `t[r]`.
fn info(t: &[Token], r: std::ops::Range<usize>) -> Info {
    let end = r.end.min(t.len());
    let mut out = Info::default();
    let looks_at_method = (r.start..end).any(|k| t[k].is_ident("getRequestMethod"));
    if looks_at_method {
        for k in r.start..end {
            if t[k].kind != Kind::Str {
                continue;
            }
            let m = t[k].text.to_ascii_uppercase();
            if !METHODS.contains(&m.as_str()) {
                continue;
            }
            let compared = (k > 0 && t[k - 1].is_ident("case"))
                || member_call(t, k + 2, &["equals", "equalsIgnoreCase"])
                || (k >= 2
                    && t[k - 1].is('(')
                    && (t[k - 2].is_ident("equals") || t[k - 2].is_ident("equalsIgnoreCase")));
            if compared && !out.methods.contains(&m) {
                out.methods.push(m);
            }
        }
    }
    // Variables: headers, query maps, body maps / streams.
    let mut vars: Vec<(String, u8)> = Vec::new();
    for k in r.start.max(1)..end {
        if t[k].is('=') && t[k - 1].kind == Kind::Ident && !t.get(k + 1).is_some_and(|x| x.is('='))
        {
            let stop = (k + 1..end).find(|&j| t[j].is(';')).unwrap_or(end);
            let has = |w: &str| (k + 1..stop).any(|j| t[j].is_ident(w));
            let kind = if has("getRequestHeaders") && !has("getFirst") && !has("get") {
                Some(b'h')
            } else if has("getQuery") || has("getRawQuery") {
                Some(b'q')
            } else if has("getRequestBody") {
                Some(b'b')
            } else {
                None
            };
            if let Some(kind) = kind {
                vars.push((t[k - 1].text.clone(), kind));
            }
        }
    }
    let var_of = |x: &Token| {
        (x.kind == Kind::Ident)
            .then(|| vars.iter().find(|(v, _)| *v == x.text).map(|(_, k)| *k))
            .flatten()
    };
    let mut push = |rd: Read| {
        if !out.reads.contains(&rd) {
            out.reads.push(rd);
        }
    };
    for i in r.start.max(2)..end {
        if member_call(t, i, &["getFirst", "get", "getOrDefault", "containsKey"]) {
            let close = close_of(t, i + 1).unwrap_or(end);
            let args = split_commas(t, i + 2, close);
            let Some(name) = args.first().and_then(|a| str_lit(t, a)) else {
                continue;
            };
            let recv = &t[i - 2];
            let kind = if recv.is(')') && i >= 4 && t[i - 4].is_ident("getRequestHeaders") {
                Some(b'h')
            } else {
                var_of(recv)
            };
            match kind {
                Some(b'h') => push(Read::Param(ParamKind::Header, name)),
                Some(b'q') => push(Read::Param(ParamKind::Query, name)),
                Some(b'b') => push(Read::Param(ParamKind::Form, name)),
                _ => {}
            }
        }
        if member_call(t, i, &["readValue", "fromJson"]) {
            let close = close_of(t, i + 1).unwrap_or(end);
            let from_body = (i + 2..close)
                .any(|k| t[k].is_ident("getRequestBody") || var_of(&t[k]) == Some(b'b'));
            if let (true, Some(cls)) = (from_body, class_literal(t, i + 2..close)) {
                push(Read::Body(cls));
            }
        }
    }
    out
}

fn link(idx: &Index, scans: &[HsFile]) -> Vec<Endpoint> {
    let mut out = Vec::new();
    let class_info = |name: &str, acc: &mut Info| {
        for s in scans {
            for (c, i) in &s.classes {
                if c == name {
                    merge(acc, i);
                }
            }
        }
    };
    for s in scans {
        let fi = idx.files.iter().position(|x| x.path == s.path);
        for c in &s.contexts {
            let Some(path) = body::eval(idx, &s.path, c.line, &c.path) else {
                continue;
            };
            let mut info = Info::default();
            match &c.handler {
                Handler::Inline(i) => merge(&mut info, i),
                Handler::Class(name) => {
                    class_info(name, &mut info);
                    // Superclasses that dispatch on the method.
                    if let Some(id) = fi.and_then(|f| idx.resolve_type(f, name)) {
                        for sup in idx.lineage(id).into_iter().skip(1) {
                            class_info(&idx.ty(sup).name, &mut info);
                        }
                    }
                }
                Handler::Method(owner, member) => {
                    let class = owner.clone().unwrap_or_else(|| c.class.clone());
                    for s2 in scans {
                        for (cl, m, i) in &s2.methods {
                            if *m == *member
                                && (*cl == class || owner.is_none() && s2.path == s.path)
                            {
                                merge(&mut info, i);
                            }
                        }
                    }
                }
                Handler::Unknown => {}
            }
            let mut params: Vec<Param> = Vec::new();
            for rd in &info.reads {
                let new = match rd {
                    Read::Param(k, n) => vec![Param::new(*k, n.clone())],
                    Read::Body(cls) => idx
                        .dto_fields(fi.unwrap_or(0), cls)
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
            let methods = if info.methods.is_empty() {
                vec!["GET".to_string(), "POST".to_string()]
            } else {
                info.methods.clone()
            };
            for m in methods {
                let ps: Vec<Param> = params
                    .iter()
                    .filter(|p| {
                        !(m == "GET" && matches!(p.kind, ParamKind::Form | ParamKind::Json))
                    })
                    .cloned()
                    .collect();
                out.push(
                    Endpoint::new(&m, path.clone())
                        .at_path(s.path.clone(), c.line)
                        .params(ps),
                );
            }
        }
    }
    out
}

fn merge(acc: &mut Info, other: &Info) {
    for m in &other.methods {
        if !acc.methods.contains(m) {
            acc.methods.push(m.clone());
        }
    }
    for r in &other.reads {
        if !acc.reads.contains(r) {
            acc.reads.push(r.clone());
        }
    }
}
