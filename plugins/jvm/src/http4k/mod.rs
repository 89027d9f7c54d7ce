//! http4k (`kotlin_http4k`).
//!
//! - Routes: `routes("/ping" bind GET to handler, …)` (also `Method.GET`),
//!   nested `"/api" bind routes(…)`, `GET to handler` directly under a
//!   bound path, and routers defined elsewhere: `"/users" bind userRoutes()`
//!   / `bind userRoutes` where `fun userRoutes() = routes(…)` (or `val x =
//!   routes(…)`, a function returning `routes(…)`, or `class X(…) :
//!   RoutingHttpHandler by routes(…)` bound as `X(…)`) lives in any file;
//!   prefixes compose; a router can also be a single bind (`fun health()
//!   = "/health" bind GET to { … }`, `val api = "/api" bind routes(…)`)
//!   used as `routes(health(), api)`. A router nobody binds is a root. `"/x" bind
//!   handler` with no method binds every method: reported as GET, POST,
//!   PUT, PATCH and DELETE. Constants and templates in paths are resolved;
//!   `{id:\d+}` is reported as `{id}`.
//! - Parameters read by the handler (inline lambda, `::fn`, a `val`
//!   handler, or a class whose body handles the request): lenses declared
//!   anywhere (`val q = Query.string().required("q")`, `Path.of("id")`,
//!   `Header.required("X")`, `FormField…`, `Cookies…`, `Body.auto<T>()
//!   .toLens()` → json fields of `T`) and used by the handler, lenses
//!   written inline, and `req.query("q")` / `queries` (query), `path("id")`
//!   (path), `header("X")` (header), `cookie("c")` (cookie), `form("f")`
//!   (form).
//!
//! - Contracts (OpenAPI): `"/api" bind contract { routes += "/x" /
//!   Path.of("id") meta { queries += Query.int().required("n");
//!   receiving(lens) } bindContract GET to handler }` (also `val api =
//!   contract { … }` bound elsewhere, and `routes += echo()` /
//!   `listOf(a(), b())` adding route specs defined as functions or vals);
//!   path lenses become `{name}` placeholders, the `meta` block's lenses are
//!   parameters.
//!
//! Known gaps: `static(…)` bindings, websockets/SSE, filters and the
//! contract's generated OpenAPI description route are not reported.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::body::{self, str_expr, str_lit};
use crate::jvm::expr::StrExpr;
use crate::jvm::facts::{analyze_with_outline, split_facts};
use crate::jvm::index::Index;
use crate::jvm::outline::Lang;
use crate::jvm::tokens::{close_of, split_commas, Kind, Token};

pub struct KotlinHttp4k;

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const VERBS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct KFile {
    path: String,
    /// Routers: `(name, items)`; `None` for an anonymous one.
    routers: Vec<(Option<String>, Vec<Item>)>,
    /// Handler bodies (functions, `val` lambdas, classes): `(name, reads)`.
    bodies: Vec<(String, Vec<Read>)>,
    /// Lenses: `(val name, read)`.
    lenses: Vec<(String, Read)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Item {
    Route {
        methods: Vec<String>,
        path: StrExpr,
        line: u32,
        reads: Vec<Read>,
        handler: Option<String>,
    },
    Nest {
        path: StrExpr,
        line: u32,
        items: Vec<Item>,
    },
    /// `"/x" bind name` / `name()`: a router defined elsewhere, or a handler
    /// for every method.
    Ref {
        path: StrExpr,
        line: u32,
        name: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Read {
    Param(ParamKind, String),
    Body(String),
    /// An identifier used by the handler (a lens, if one has that name).
    Use(String),
}

impl Analyzer for KotlinHttp4k {
    fn tech(&self) -> Tech {
        Tech::new("kotlin_http4k", "Kotlin", "http4k")
            .aliases(["http4k"])
            .files(["*.kt"])
            .detect(Detect::files(["*.kt"]).contains(["org.http4k"]))
            .detect(
                Detect::files(["build.gradle.kts", "build.gradle", "pom.xml"]).contains(["http4k"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_with_outline(file, Lang::Kotlin, out, |file| {
            let k = scan(file);
            (!k.routers.is_empty() || !k.bodies.is_empty() || !k.lenses.is_empty()).then_some(k)
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let (files, scans) = split_facts::<KFile>(facts.all());
        Ok(link(&Index::new(&files), &scans))
    }
}

fn scan(file: &SourceFile) -> KFile {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let src = file.content.as_str();
    let classes = body::classes(t);
    let methods = body::methods(t, &classes);
    let mut out = KFile {
        path: file.path.clone(),
        ..KFile::default()
    };
    // Lenses and `val` handlers.
    for i in 1..t.len().saturating_sub(1) {
        if !(t[i - 1].is_ident("val") && t[i].kind == Kind::Ident) {
            continue;
        }
        let Some(eq) = (i + 1..t.len().min(i + 12)).find(|&k| t[k].is('=')) else {
            continue;
        };
        let end = body::expr_end(t, eq + 1);
        if let Some(read) = lens(t, eq + 1, end) {
            out.lenses.push((t[i].text.clone(), read));
        } else if (eq + 1..end).any(|k| t[k].is('{')) {
            let r = reads(t, eq + 1..end);
            if !r.is_empty() {
                out.bodies.push((t[i].text.clone(), r));
            }
        }
    }
    let lenses = out.lenses.clone();
    let sc = Scanner {
        t,
        src,
        file,
        lenses: &lenses,
    };
    // Routers defined as a bind expression: `fun ping() = "/ping" bind GET
    // to { … }`, `val api = "/api" bind routes(…)`.
    let mut bind_defs: Vec<std::ops::Range<usize>> = Vec::new();
    let mut defs: Vec<(String, std::ops::Range<usize>)> = methods
        .iter()
        .filter(|m| m.body.start > 0 && t[m.body.start - 1].is('='))
        .map(|m| (m.name.clone(), m.body.clone()))
        .collect();
    for i in 1..t.len() {
        if (t[i - 1].is_ident("val") || t[i - 1].is_ident("var")) && t[i].kind == Kind::Ident {
            if let Some(eq) = (i + 1..t.len().min(i + 12)).find(|&k| t[k].is('=')) {
                defs.push((t[i].text.clone(), eq + 1..body::expr_end(t, eq + 1)));
            }
        }
    }
    for (name, r) in defs {
        if r.is_empty() || is_routes_call(t, r.start) {
            continue;
        }
        if let Some(close) = contract_block(t, r.start) {
            // `val api = contract { … }`.
            out.routers
                .push((Some(name), sc.contract_items(r.start + 1, close)));
        } else if let Some(b) = top_level(t, r.clone(), "bindContract") {
            // `fun echo(): ContractRoute = "/echo" meta { … } bindContract GET to …`.
            if let Some(item) = sc.contract_route(b) {
                out.routers.push((Some(name), vec![item]));
            }
        } else if top_level(t, r.clone(), "bind").is_some() {
            out.routers.push((Some(name), sc.items(r.start, r.end)));
        } else {
            continue;
        }
        bind_defs.push(r);
    }
    // Top-level `routes(` calls (not nested in another one).
    let mut covered = 0usize;
    for i in 0..t.len() {
        if i < covered || !is_routes_call(t, i) || bind_defs.iter().any(|r| r.contains(&i)) {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        covered = close;
        let name = def_name(t, i).or_else(|| {
            methods
                .iter()
                .filter(|m| m.body.start <= i && i < m.body.end)
                .min_by_key(|m| m.body.len())
                .map(|m| m.name.clone())
        });
        out.routers.push((name, sc.items(i + 2, close)));
    }
    // Handler bodies.
    for m in &methods {
        let r = reads(t, m.body.clone());
        if !r.is_empty() {
            out.bodies.push((m.name.clone(), r));
        }
    }
    for c in &classes {
        let r = reads(t, c.open + 1..c.close);
        if !r.is_empty() {
            out.bodies.push((c.name.clone(), r));
        }
    }
    out
}

fn is_routes_call(t: &[Token], i: usize) -> bool {
    t[i].is_ident("routes")
        && t.get(i + 1).is_some_and(|x| x.is('('))
        && !(i > 0 && (t[i - 1].is_ident("fun") || t[i - 1].is('.')))
}

/// `val name[: T] = routes(` → `name`.
fn def_name(t: &[Token], i: usize) -> Option<String> {
    // `class NotesApi(…) : RoutingHttpHandler by routes(…)`: the class.
    if i >= 1 && t[i - 1].is_ident("by") {
        return (0..i - 1)
            .rev()
            .find(|&k| t[k].is_ident("class") || t[k].is_ident("object"))
            .and_then(|k| t.get(k + 1))
            .filter(|x| x.kind == Kind::Ident)
            .map(|x| x.text.clone());
    }
    if i < 2 || !t[i - 1].is('=') {
        return None;
    }
    // Back over `name: Type<Args>?` to the `val`.
    let mut k = i - 2;
    while k > 0
        && (t[k].kind == Kind::Ident
            || t[k].is(':')
            || t[k].is('.')
            || t[k].is('<')
            || t[k].is('>')
            || t[k].is('?')
            || t[k].is(','))
        && !t[k].is_ident("val")
        && !t[k].is_ident("var")
        && !t[k].is_ident("fun")
    {
        k -= 1;
    }
    (t[k].is_ident("val") || t[k].is_ident("var"))
        .then(|| t.get(k + 1))
        .flatten()
        .filter(|x| x.kind == Kind::Ident)
        .map(|x| x.text.clone())
}

struct Scanner<'a> {
    t: &'a [Token],
    src: &'a str,
    file: &'a SourceFile,
    /// Lenses declared in the file (path lenses name placeholders).
    lenses: &'a [(String, Read)],
}

impl Scanner<'_> {
    fn items(&self, start: usize, end: usize) -> Vec<Item> {
        let t = self.t;
        let mut out = Vec::new();
        for r in split_commas(t, start, end) {
            let line = self.file.line_of(t[r.start].start);
            let bind = top_level(t, r.clone(), "bind");
            let (path, right) = match bind {
                Some(k) => match str_expr(t, r.start..k, self.src, true) {
                    Some(p) => (p, k + 1..r.end),
                    None => continue,
                },
                None => (StrExpr::lit(""), r.clone()),
            };
            if right.is_empty() {
                continue;
            }
            if let Some(m) = top_level(t, right.clone(), "to") {
                let method = t[right.start..m]
                    .iter()
                    .rev()
                    .find(|x| x.kind == Kind::Ident)
                    .map(|x| x.text.clone())
                    .unwrap_or_default();
                if !VERBS.contains(&method.as_str()) {
                    continue;
                }
                let h = m + 1..right.end;
                if h.is_empty() {
                    continue;
                }
                let (reads, handler) = handler(t, h);
                out.push(Item::Route {
                    methods: vec![method],
                    path,
                    line,
                    reads,
                    handler,
                });
                continue;
            }
            let first = &t[right.start];
            if let Some(close) = contract_block(t, right.start) {
                out.push(Item::Nest {
                    path,
                    line,
                    items: self.contract_items(right.start + 1, close),
                });
                continue;
            }
            if is_routes_call(t, right.start) {
                let close = close_of(t, right.start + 1).unwrap_or(right.end);
                out.push(Item::Nest {
                    path,
                    line,
                    items: self.items(right.start + 2, close),
                });
                continue;
            }
            if first.kind != Kind::Ident
                || matches!(
                    first.text.as_str(),
                    "static" | "websockets" | "sse" | "singlePageApp"
                )
            {
                continue;
            }
            let simple = right.len() == 1
                || (t[right.start + 1].is('(')
                    && close_of(t, right.start + 1) == Some(right.end - 1));
            if simple {
                out.push(Item::Ref {
                    path,
                    line,
                    name: first.text.clone(),
                });
            } else if bind.is_some() {
                let (reads, handler) = handler(t, right);
                out.push(Item::Route {
                    methods: ANY.iter().map(|s| s.to_string()).collect(),
                    path,
                    line,
                    reads,
                    handler,
                });
            }
        }
        out
    }
}

impl Scanner<'_> {
    /// The routes of a `contract { … }` block (`{` at `open`, `}` at
    /// `close`): its `bindContract` specs, and `routes += name()` /
    /// `routes += listOf(a(), b())` references to routes defined elsewhere.
    fn contract_items(&self, open: usize, close: usize) -> Vec<Item> {
        let t = self.t;
        let mut out = Vec::new();
        let mut k = open + 1;
        while k < close.min(t.len()) {
            if t[k].is_ident("bindContract") {
                if let Some(item) = self.contract_route(k) {
                    out.push(item);
                }
            }
            let plus_eq = t[k].is('+') && t.get(k + 1).is_some_and(|x| x.is('='));
            let end = body::expr_end(t, k + 2).min(close);
            if plus_eq
                && k > 0
                && t[k - 1].is_ident("routes")
                && top_level(t, k + 2..end, "bindContract").is_none()
            {
                {
                    let line = self.file.line_of(t[k].start);
                    for j in k + 2..end {
                        let callee = t[j].kind == Kind::Ident
                            && t.get(j + 1).is_some_and(|x| x.is('('))
                            && !matches!(t[j].text.as_str(), "listOf" | "arrayOf" | "setOf");
                        let bare = t[j].kind == Kind::Ident
                            && t.get(j + 1).is_some_and(|x| x.is(',') || x.is(')'))
                            && (t[j - 1].is(',') || t[j - 1].is('(') || t[j - 1].is('='));
                        if callee || bare {
                            out.push(Item::Ref {
                                path: StrExpr::lit(""),
                                line,
                                name: t[j].text.clone(),
                            });
                        }
                    }
                }
                k = end;
                continue;
            }
            k += 1;
        }
        out
    }

    /// The contract route whose `bindContract` is at `b`: `"/x" / Path.of("id")
    /// meta { queries += …; receiving(lens) } bindContract GET to handler`.
    fn contract_route(&self, b: usize) -> Option<Item> {
        let t = self.t;
        // Back to the start of the spec.
        let mut depth = 0i32;
        let mut start = b;
        while start > 0 {
            let x = &t[start - 1];
            if x.is(')') || x.is('}') || x.is(']') {
                depth += 1;
            } else if x.is('(') || x.is('{') || x.is('[') {
                depth -= 1;
                if depth < 0 {
                    break;
                }
            } else if depth == 0 && (x.is('=') || x.is(',') || x.is_ident("return")) {
                break;
            }
            start -= 1;
        }
        if start >= b {
            return None;
        }
        let meta = top_level(t, start..b, "meta");
        let path_end = meta.unwrap_or(b);
        let mut reads = Vec::new();
        if let Some(m) = meta {
            let open = (m + 1..b).find(|&k| t[k].is('{'))?;
            let close = close_of(t, open).unwrap_or(b).min(b);
            reads.extend(self::reads(t, open + 1..close));
        }
        // Path segments split at top-level `/`.
        let mut url = String::new();
        let mut piece = start;
        let mut d = 0i32;
        for k in start..=path_end {
            let at_end = k == path_end;
            if !at_end {
                let x = &t[k];
                if x.is('(') || x.is('{') || x.is('[') {
                    d += 1;
                } else if x.is(')') || x.is('}') || x.is(']') {
                    d -= 1;
                }
                if !(d == 0 && x.is('/')) {
                    continue;
                }
            }
            if piece < k {
                let seg = match (str_lit(t, &(piece..k)), lens(t, piece, k)) {
                    (Some(lit), _) => lit,
                    (None, Some(Read::Param(_, name))) => format!("{{{name}}}"),
                    _ if k == piece + 1 && t[piece].kind == Kind::Ident => {
                        let var = &t[piece].text;
                        let name = self
                            .lenses
                            .iter()
                            .find_map(|(n, r)| match r {
                                Read::Param(ParamKind::Path, p) if n == var => Some(p.as_str()),
                                _ => None,
                            })
                            .unwrap_or(var);
                        format!("{{{name}}}")
                    }
                    _ => return None,
                };
                url = join_path(&[url.as_str(), seg.as_str()]);
            }
            piece = k + 1;
        }
        let to = top_level(t, b + 1..t.len(), "to")?;
        let method = t[b + 1..to]
            .iter()
            .rev()
            .find(|x| x.kind == Kind::Ident)
            .map(|x| x.text.clone())?;
        if !VERBS.contains(&method.as_str()) {
            return None;
        }
        let end = body::expr_end(t, to + 1);
        if end <= to + 1 {
            return None;
        }
        let (hr, handler) = handler(t, to + 1..end);
        reads.extend(hr);
        Some(Item::Route {
            methods: vec![method],
            path: StrExpr::lit(url),
            line: self.file.line_of(t[start].start),
            reads,
            handler,
        })
    }
}

/// `contract {` at `i`: the index of the closing `}`.
fn contract_block(t: &[Token], i: usize) -> Option<usize> {
    (t.get(i)?.is_ident("contract") && t.get(i + 1)?.is('{'))
        .then(|| close_of(t, i + 1))
        .flatten()
}

/// The first `word` at depth 0 in `t[r]`.
fn top_level(t: &[Token], r: std::ops::Range<usize>, word: &str) -> Option<usize> {
    let mut depth = 0i32;
    for k in r {
        let x = &t[k];
        if x.is('(') || x.is('{') || x.is('[') {
            depth += 1;
        } else if x.is(')') || x.is('}') || x.is(']') {
            depth -= 1;
        } else if depth == 0 && x.is_ident(word) {
            return Some(k);
        }
    }
    None
}

/// Inline reads and the referenced handler of a handler expression.
fn handler(t: &[Token], r: std::ops::Range<usize>) -> (Vec<Read>, Option<String>) {
    if t[r.start].is('{') {
        return (reads(t, r), None);
    }
    // `::name`, `Obj::name`, `name`, `Name(deps)`.
    if let Some(k) =
        (r.start..r.end).find(|&k| t[k].is(':') && t.get(k + 1).is_some_and(|x| x.is(':')))
    {
        return (Vec::new(), t.get(k + 2).map(|x| x.text.clone()));
    }
    let first = &t[r.start];
    if first.kind == Kind::Ident {
        return (reads(t, r.clone()), Some(first.text.clone()));
    }
    (reads(t, r), None)
}

/// A lens expression `Query.int().required("page")` in `t[start..end]`.
fn lens(t: &[Token], start: usize, end: usize) -> Option<Read> {
    let first = t.get(start)?;
    let kind = match first.text.as_str() {
        "Query" => ParamKind::Query,
        "Path" => ParamKind::Path,
        "Header" => ParamKind::Header,
        "FormField" => ParamKind::Form,
        "Cookies" => ParamKind::Cookie,
        "Body" => {
            // `Body.auto<T>().toLens()`.
            let k = (start..end).find(|&k| t[k].is_ident("auto"))?;
            let ty = t
                .get(k + 2)
                .filter(|_| t.get(k + 1).is_some_and(|x| x.is('<')))?;
            return Some(Read::Body(ty.text.clone()));
        }
        _ => return None,
    };
    if !t.get(start + 1).is_some_and(|x| x.is('.')) {
        return None;
    }
    let k = (start..end).find(|&k| {
        matches!(
            t[k].text.as_str(),
            "required" | "optional" | "defaulted" | "of" | "multi"
        ) && t.get(k + 1).is_some_and(|x| x.is('('))
            && t.get(k + 2).is_some_and(|x| x.kind == Kind::Str)
    })?;
    Some(Read::Param(kind, t[k + 2].text.clone()))
}

fn reads(t: &[Token], r: std::ops::Range<usize>) -> Vec<Read> {
    let mut out = Vec::new();
    let end = r.end.min(t.len());
    let mut push = |x: Read| {
        if !out.contains(&x) {
            out.push(x);
        }
    };
    let mut k = r.start;
    while k < end {
        let x = &t[k];
        if x.kind == Kind::Ident
            && matches!(
                x.text.as_str(),
                "Query" | "Path" | "Header" | "FormField" | "Cookies" | "Body"
            )
            && !(k > 0 && t[k - 1].is('.'))
        {
            let stop = body::expr_end(t, k).min(end);
            if let Some(read) = lens(t, k, stop) {
                push(read);
                k = stop;
                continue;
            }
        }
        if k > 0
            && t[k - 1].is('.')
            && x.kind == Kind::Ident
            && t.get(k + 1).is_some_and(|y| y.is('('))
        {
            let close = close_of(t, k + 1).unwrap_or(end);
            let args = split_commas(t, k + 2, close);
            if args.len() == 1 {
                if let Some(name) = str_lit(t, &args[0]) {
                    let kind = match x.text.as_str() {
                        "query" | "queries" => Some(ParamKind::Query),
                        "path" => Some(ParamKind::Path),
                        "header" | "headerValues" => Some(ParamKind::Header),
                        "cookie" => Some(ParamKind::Cookie),
                        "form" | "forms" => Some(ParamKind::Form),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        push(Read::Param(kind, name));
                    }
                }
            }
        }
        if x.kind == Kind::Ident && !(k > 0 && t[k - 1].is('.')) {
            push(Read::Use(x.text.clone()));
        }
        k += 1;
    }
    out
}

fn link(idx: &Index, scans: &[KFile]) -> Vec<Endpoint> {
    let referenced: Vec<&String> = scans
        .iter()
        .flat_map(|s| &s.routers)
        .flat_map(|(_, items)| refs(items))
        .collect();
    let mut out = Vec::new();
    for s in scans {
        for (name, items) in &s.routers {
            if name.as_ref().is_some_and(|n| referenced.contains(&n)) {
                continue;
            }
            expand(idx, scans, &s.path, items, "", 0, &mut out);
        }
    }
    out
}

fn refs(items: &[Item]) -> Vec<&String> {
    let mut out = Vec::new();
    for i in items {
        match i {
            Item::Ref { name, .. } => out.push(name),
            Item::Nest { items, .. } => out.extend(refs(items)),
            Item::Route { .. } => {}
        }
    }
    out
}

fn expand(
    idx: &Index,
    scans: &[KFile],
    path: &str,
    items: &[Item],
    prefix: &str,
    depth: usize,
    out: &mut Vec<Endpoint>,
) {
    if depth > 8 {
        return;
    }
    for item in items {
        match item {
            Item::Route {
                methods,
                path: p,
                line,
                reads,
                handler,
            } => {
                let Some(v) = body::eval(idx, path, *line, p) else {
                    continue;
                };
                let url = clean(&join_path(&[prefix, v.as_str()]));
                let mut rd = reads.clone();
                if let Some(h) = handler {
                    for (n, r) in scans.iter().flat_map(|s| &s.bodies) {
                        if n == h {
                            for x in r {
                                if !rd.contains(x) {
                                    rd.push(x.clone());
                                }
                            }
                        }
                    }
                }
                let params = params(idx, scans, path, &rd);
                for m in methods {
                    out.push(
                        Endpoint::new(m, url.clone())
                            .at_path(path.to_string(), *line)
                            .params(params.clone()),
                    );
                }
            }
            Item::Nest {
                path: p,
                line,
                items,
            } => {
                let Some(v) = body::eval(idx, path, *line, p) else {
                    continue;
                };
                let inner = join_path(&[prefix, v.as_str()]);
                expand(idx, scans, path, items, &inner, depth + 1, out);
            }
            Item::Ref {
                path: p,
                line,
                name,
            } => {
                let Some(v) = body::eval(idx, path, *line, p) else {
                    continue;
                };
                let inner = join_path(&[prefix, v.as_str()]);
                let mut found = false;
                for s in scans {
                    for (n, items) in &s.routers {
                        if n.as_deref() == Some(name.as_str()) {
                            found = true;
                            expand(idx, scans, &s.path, items, &inner, depth + 1, out);
                        }
                    }
                }
                if !found && !matches!(p.literal().as_deref(), Some("") | Some("/")) {
                    let route = Item::Route {
                        methods: ANY.iter().map(|s| s.to_string()).collect(),
                        path: p.clone(),
                        line: *line,
                        reads: Vec::new(),
                        handler: Some(name.clone()),
                    };
                    expand(idx, scans, path, &[route], prefix, depth + 1, out);
                }
            }
        }
    }
}

/// `{id:\d+}` → `{id}`.
fn clean(url: &str) -> String {
    url.split('/')
        .map(|seg| match (seg.strip_prefix('{'), seg.find(':')) {
            (Some(_), Some(c)) if seg.ends_with('}') => format!("{}}}", &seg[..c]),
            _ => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn params(idx: &Index, scans: &[KFile], path: &str, reads: &[Read]) -> Vec<Param> {
    let fi = idx.files.iter().position(|x| x.path == path).unwrap_or(0);
    let mut out: Vec<Param> = Vec::new();
    let mut add = |p: Param| {
        if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
            out.push(p);
        }
    };
    let body = |cls: &str, add: &mut dyn FnMut(Param)| {
        for f in idx.dto_fields(fi, cls).unwrap_or_default() {
            add(Param::json(f));
        }
    };
    for r in reads {
        let resolved: Vec<Read> = match r {
            Read::Use(name) => scans
                .iter()
                .flat_map(|s| &s.lenses)
                .filter(|(n, _)| n == name)
                .map(|(_, l)| l.clone())
                .take(1)
                .collect(),
            other => vec![other.clone()],
        };
        for x in resolved {
            match x {
                Read::Param(k, n) => add(Param::new(k, n)),
                Read::Body(cls) => body(&cls, &mut add),
                Read::Use(_) => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Token> {
        crate::jvm::tokens::tokenize(&portolan_plugin_sdk::Code::new(src, Syntax::C_LIKE))
    }

    #[test]
    fn lenses_and_regex_placeholders() {
        let t = toks("Query.int().defaulted(\"page\", 1)");
        assert_eq!(
            lens(&t, 0, t.len()),
            Some(Read::Param(ParamKind::Query, "page".into()))
        );
        let t = toks("Body.auto<NewNote>().toLens()");
        assert_eq!(lens(&t, 0, t.len()), Some(Read::Body("NewNote".into())));
        let t = toks("Other.required(\"x\")");
        assert_eq!(lens(&t, 0, t.len()), None);
        assert_eq!(clean("/a/{id:\\d+}/{b}"), "/a/{id}/{b}");
    }

    #[test]
    fn router_names() {
        let t = toks("val x = 1\nfun api(): RoutingHttpHandler = routes(a)");
        let i = t.iter().position(|x| x.is_ident("routes")).unwrap_or(0);
        assert_eq!(def_name(&t, i), None);
        let t = toks("val app: HttpHandler = routes(a)");
        let i = t.iter().position(|x| x.is_ident("routes")).unwrap_or(0);
        assert_eq!(def_name(&t, i).as_deref(), Some("app"));
    }
}
