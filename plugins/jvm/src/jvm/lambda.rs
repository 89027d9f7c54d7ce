//! Lambda-style route DSLs of Java micro-frameworks (Javalin, Spark):
//! `app.get("/x", ctx -> …)`, static `get("/x", (req, res) -> …)` inside
//! `path("/api", () -> { … })` scopes, with the request reads of each
//! handler (inline lambdas, or methods / `Handler` fields referenced as
//! `Controller::method`, `this::method`, `Controller.field`).
//!
//! The map step records the routes and the reads of every method body of
//! a file; the link step resolves constants in paths, handler references
//! across files, and request-body classes to their fields.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::body::JAVA_KEYWORDS;
use super::config::module_root;
use super::expr::StrExpr;
use super::facts::{analyze_with_outline, split_facts, OutlineFact};
use super::index::Index;
use super::outline::Lang;
use super::tokens::{close_of, dotted, split_commas, Kind, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dialect {
    Javalin,
    Spark,
    /// Vert.x Web: routes and mounts are scanned by [`crate::vertx`]; this
    /// module contributes the handler bodies and the link step.
    Vertx,
}

/// The facts of the lambda DSLs: file outlines and [`DslFile`] scans.
pub type Fact = OutlineFact<DslFile>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DslFile {
    pub path: String,
    pub routes: Vec<Route>,
    /// Reads of each method / handler field: `(class, member, reads)`.
    pub bodies: Vec<(String, String, Vec<Read>)>,
    /// Sub-routers mounted under a prefix (Vert.x).
    #[serde(default)]
    pub mounts: Vec<Mount>,
    /// The variable a method returns: `(class, method, var)`; a mount of
    /// the method's result attaches that router only.
    #[serde(default)]
    pub returns: Vec<(String, String, String)>,
    /// Javalin's `contextPath = "/api"` settings (`config.contextPath`,
    /// `config.router.contextPath`, Javalin 2's `app.contextPath("/api")`);
    /// `None` for a value known only at run time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_paths: Vec<Option<StrExpr>>,
}

/// A router object: the variable `var` of method `method` of `class`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterKey {
    pub class: String,
    pub method: String,
    pub var: String,
}

/// What a mount attaches: the router built by a method (`owner` is a
/// class name, a variable, or `None` for the mounting class), or a local
/// router variable of the mounting method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MountTarget {
    Call(Option<String>, String),
    Var(String),
}

/// `router.mountSubRouter("/api", sub)` / `router.route("/api/*").subRouter(sub)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub from: RouterKey,
    pub prefix: StrExpr,
    pub target: MountTarget,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub method: String,
    /// Enclosing `path(…)` prefixes, outermost first, then the pattern.
    pub parts: Vec<StrExpr>,
    pub line: u32,
    pub websocket: bool,
    pub reads: Vec<Read>,
    /// `(class or receiver, member)` of a referenced handler.
    pub handler: Option<(Option<String>, String)>,
    /// The router object the route is declared on (Vert.x).
    #[serde(default)]
    pub router: Option<RouterKey>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Read {
    Param(ParamKind, String),
    /// The request body read as this class.
    Body(String),
    /// The request body documented as a multipart or URL-encoded form of
    /// this class (springdoc `mediaType(MULTIPART_FORM_DATA_VALUE)`).
    Form(String),
    /// A parameter of the path when the route has this placeholder, of
    /// the query otherwise (Vert.x `request().getParam("x")`).
    PathOrQuery(String),
}

const VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

pub fn analyze(file: &SourceFile, out: &mut Output, dialect: Dialect) {
    let lang = if file.path.ends_with(".kt") {
        Lang::Kotlin
    } else {
        Lang::Java
    };
    analyze_with_outline(file, lang, out, |file| {
        let dsl = scan(file, dialect);
        (!dsl.routes.is_empty() || !dsl.bodies.is_empty() || !dsl.context_paths.is_empty())
            .then_some(dsl)
    });
}

/// The reads of a token range.
pub fn reads(t: &[Token], start: usize, end: usize) -> Vec<Read> {
    let mut out: Vec<Read> = Vec::new();
    let end = end.min(t.len());
    let json_vars = json_vars(t, start, end);
    for i in start..end {
        if !(i > 0 && t[i - 1].is('.') && t[i].kind == Kind::Ident) {
            continue;
        }
        // Kotlin's reified `ctx.bodyAsClass<BookForm>()`.
        if t.get(i + 1).is_some_and(|x| x.is('<'))
            && t.get(i + 3).is_some_and(|x| x.is('>'))
            && t.get(i + 4).is_some_and(|x| x.is('('))
            && matches!(t[i].text.as_str(), "bodyAsClass" | "bodyValidator")
        {
            if let Some(cls) = t.get(i + 2).filter(|x| x.kind == Kind::Ident) {
                let r = Read::Body(cls.text.clone());
                if !out.contains(&r) {
                    out.push(r);
                }
            }
            continue;
        }
        if !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let args = split_commas(t, i + 2, close);
        let first_str = args
            .first()
            .filter(|r| r.len() == 1 && t[r.start].kind == Kind::Str)
            .map(|r| t[r.start].text.clone());
        let name = t[i].text.as_str();
        let kind = match name {
            "queryParam"
            | "queryParamAsClass"
            | "queryParams"
            | "queryParamOrDefault"
            | "queryParamsValues" => Some(ParamKind::Query),
            "queryMap" if args.len() == 1 => Some(ParamKind::Query),
            "formParam" | "formParamAsClass" | "formParams" => Some(ParamKind::Form),
            "pathParam" | "pathParamAsClass" | "params" => Some(ParamKind::Path),
            "header" | "headers" if args.len() == 1 => Some(ParamKind::Header),
            "headerAsClass" => Some(ParamKind::Header),
            "cookie" if args.len() == 1 => Some(ParamKind::Cookie),
            "uploadedFile" | "uploadedFiles" => Some(ParamKind::File),
            // Vert.x `HttpServerRequest`.
            "getHeader" if args.len() == 1 => Some(ParamKind::Header),
            "getCookie" if args.len() == 1 => Some(ParamKind::Cookie),
            "getFormAttribute" => Some(ParamKind::Form),
            // A multimap read: `queryParams().get("q")`,
            // `request().headers().get("X")`, `formAttributes().getAll("f")`.
            "get" | "getAll" | "getFirst"
                if i >= 4 && t[i - 2].is(')') && t[i - 3].is('(') && args.len() == 1 =>
            {
                match t[i - 4].text.as_str() {
                    "queryParams" | "getQueryParams" | "getParameters" => Some(ParamKind::Query),
                    "headers" | "getHeaders" => Some(ParamKind::Header),
                    "formAttributes" => Some(ParamKind::Form),
                    "pathParams" => Some(ParamKind::Path),
                    _ => None,
                }
            }
            _ => None,
        };
        if let (Some(v), true) = (&first_str, is_json_getter(name)) {
            if json_receiver(t, i, &json_vars) {
                let r = Read::Param(ParamKind::Json, v.clone());
                if !out.contains(&r) {
                    out.push(r);
                }
                continue;
            }
        }
        if let (Some(v), "getParam" | "getParams" | "getAllParams") = (&first_str, name) {
            let r = Read::PathOrQuery(v.clone());
            if !out.contains(&r) {
                out.push(r);
            }
            continue;
        }
        if let (Some(kind), Some(v)) = (kind, first_str) {
            let v = v.trim_start_matches(':').to_string();
            if !v.is_empty() {
                let r = Read::Param(kind, v);
                if !out.contains(&r) {
                    out.push(r);
                }
            }
            continue;
        }
        let body_call = matches!(
            name,
            "bodyAsClass" | "bodyValidator" | "bodyStreamAsClass" | "bodyAsType" | "asPojo"
        ) || (matches!(name, "fromJson" | "readValue" | "decodeValue")
            && (i + 2..close).any(|k| {
                t[k].is_ident("body")
                    || t[k].is_ident("getBodyAsString")
                    || t[k].is_ident("asString")
            }))
            || (name == "mapTo" && json_receiver(t, i, &json_vars));
        if body_call {
            if let Some(cls) = class_literal(t, i + 2, close) {
                let r = Read::Body(cls);
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
    }
    out
}

/// Methods of a request body parsed as JSON (Vert.x `asJsonObject()`,
/// `getBodyAsJson()`, `bodyAsJson`).
const JSON_SOURCES: [&str; 4] = [
    "asJsonObject",
    "getBodyAsJson",
    "bodyAsJson",
    "toJsonObject",
];

fn is_json_getter(name: &str) -> bool {
    matches!(
        name,
        "getString"
            | "getInteger"
            | "getLong"
            | "getDouble"
            | "getFloat"
            | "getBoolean"
            | "getNumber"
            | "getJsonObject"
            | "getJsonArray"
            | "getValue"
            | "getInstant"
            | "getBinary"
    )
}

/// Variables assigned a JSON request body in `t[start..end]`
/// (`JsonObject body = ctx.body().asJsonObject();`).
fn json_vars(t: &[Token], start: usize, end: usize) -> Vec<String> {
    let mut out = Vec::new();
    for k in start.max(1)..end {
        if !(t[k].is('=') && t[k - 1].kind == Kind::Ident)
            || t.get(k + 1).is_some_and(|x| x.is('='))
        {
            continue;
        }
        let mut depth = 0i32;
        let mut j = k + 1;
        let mut json = false;
        while j < end {
            let x = &t[j];
            if x.is('(') || x.is('{') || x.is('[') {
                depth += 1;
            } else if x.is(')') || x.is('}') || x.is(']') {
                depth -= 1;
            }
            if depth < 0 || (depth == 0 && (x.is(';') || x.is(','))) {
                break;
            }
            if x.is('-') && t.get(j + 1).is_some_and(|y| y.is('>')) {
                json = false;
                break;
            }
            if x.kind == Kind::Ident && JSON_SOURCES.contains(&x.text.as_str()) {
                json = true;
            }
            j += 1;
        }
        if json {
            out.push(t[k - 1].text.clone());
        }
    }
    out
}

/// Is the receiver of the call at `i` (`<recv>.name(`) a JSON request body:
/// a JSON variable or a chain through `asJsonObject()`/`getBodyAsJson()`?
fn json_receiver(t: &[Token], i: usize, vars: &[String]) -> bool {
    if i < 2 {
        return false;
    }
    let r = &t[i - 2];
    if r.kind == Kind::Ident {
        return vars.contains(&r.text) || JSON_SOURCES.contains(&r.text.as_str());
    }
    // `….asJsonObject().getString(` — walk back over the chain.
    let mut k = i - 2;
    loop {
        if !t[k].is(')') {
            return false;
        }
        let Some(open) = (0..k).rev().find(|&o| close_of(t, o) == Some(k)) else {
            return false;
        };
        let Some(name) = open.checked_sub(1).map(|n| &t[n]) else {
            return false;
        };
        if name.kind != Kind::Ident {
            return false;
        }
        if JSON_SOURCES.contains(&name.text.as_str()) {
            return true;
        }
        if open < 3 || !t[open - 2].is('.') {
            return false;
        }
        k = open - 3;
        if t[k].kind == Kind::Ident {
            return vars.contains(&t[k].text);
        }
    }
}

/// `X.class` (Kotlin: `X::class`) in `t[start..end]`.
fn class_literal(t: &[Token], start: usize, end: usize) -> Option<String> {
    (start..end.saturating_sub(2)).find_map(|k| {
        let java = t[k + 1].is('.') && t[k + 2].is_ident("class");
        let kotlin = t[k + 1].is(':')
            && t[k + 2].is(':')
            && t.get(k + 3).is_some_and(|x| x.is_ident("class"));
        (t[k].kind == Kind::Ident && (java || kotlin)).then(|| t[k].text.clone())
    })
}

/// Routes and method-body reads of one file.
pub fn scan(file: &SourceFile, dialect: Dialect) -> DslFile {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let src = file.content.as_str();
    let expr = crate::jvm::expr::range_parser(t, src, false);
    let kotlin = file.path.ends_with(".kt") || file.path.ends_with(".kts");
    // Kotlin's trailing lambda after `)`: `path("x") { … }`.
    let trailing = |close: usize| {
        (kotlin && t.get(close + 1).is_some_and(|x| x.is('{')))
            .then(|| close_of(t, close + 1).map(|e| close + 1..e + 1))
            .flatten()
    };
    let classes = class_bodies(t);
    let class_at = |i: usize| {
        classes
            .iter()
            .filter(|(o, c, _)| *o < i && i < *c)
            .max_by_key(|(o, _, _)| *o)
            .map(|(_, _, n)| n.clone())
            .unwrap_or_default()
    };
    let mut out = DslFile {
        path: file.path.clone(),
        routes: Vec::new(),
        bodies: Vec::new(),
        mounts: Vec::new(),
        returns: Vec::new(),
        context_paths: Vec::new(),
    };
    // Method bodies and handler fields.
    for i in 1..t.len() {
        if t[i].kind != Kind::Ident || JAVA_KEYWORDS.contains(&t[i].text.as_str()) {
            continue;
        }
        let prev = &t[i - 1];
        let typed = (prev.kind == Kind::Ident && !JAVA_KEYWORDS.contains(&prev.text.as_str()))
            || prev.is('>')
            || prev.is(']');
        if !typed || prev.is_ident("new") {
            continue;
        }
        if t.get(i + 1).is_some_and(|x| x.is('(')) {
            let Some(close) = close_of(t, i + 1) else {
                continue;
            };
            let mut k = close + 1;
            // Kotlin: `fun get(ctx: Context): Context = …` / `…: Unit {`.
            if kotlin && t.get(k).is_some_and(|x| x.is(':')) {
                k += 1;
                while k < t.len() && !t[k].is('{') && !t[k].is('=') && !t[k].nl {
                    k += 1;
                }
            }
            if kotlin && t.get(k).is_some_and(|x| x.is('=')) {
                let end = (k + 1..t.len()).find(|&e| t[e].nl).unwrap_or(t.len());
                let r = reads(t, k + 1, end);
                if !r.is_empty() {
                    out.bodies.push((class_at(i), t[i].text.clone(), r));
                }
                continue;
            }
            if t.get(k).is_some_and(|x| x.is_ident("throws")) {
                k += 1;
                while k < t.len() && !t[k].is('{') && !t[k].is(';') {
                    k += 1;
                }
            }
            if t.get(k).is_some_and(|x| x.is('{')) {
                let end = close_of(t, k).unwrap_or(t.len());
                let r = reads(t, k, end);
                if !r.is_empty() {
                    out.bodies.push((class_at(i), t[i].text.clone(), r));
                }
            }
        } else if t.get(i + 1).is_some_and(|x| x.is('='))
            && !t.get(i + 2).is_some_and(|x| x.is('='))
        {
            let end = (i + 2..t.len())
                .scan(0i32, |d, k| {
                    let x = &t[k];
                    if x.is('(') || x.is('{') || x.is('[') {
                        *d += 1;
                    } else if x.is(')') || x.is('}') || x.is(']') {
                        *d -= 1;
                    }
                    Some((k, *d))
                })
                .find(|(k, d)| *d < 0 || (*d == 0 && t[*k].is(';')))
                .map_or(t.len(), |(k, _)| k);
            if (i + 2..end).any(|k| t[k].is('-') && t.get(k + 1).is_some_and(|x| x.is('>'))) {
                let r = reads(t, i + 2, end);
                if !r.is_empty() {
                    out.bodies.push((class_at(i), t[i].text.clone(), r));
                }
            }
        }
    }
    if dialect == Dialect::Vertx {
        return out;
    }
    if dialect == Dialect::Javalin {
        out.context_paths = context_paths(t, &expr);
    }
    // Known receivers of route calls: `Javalin app`, `x = Javalin.create(…)`,
    // `Service http = Service.ignite()`.
    let framework_type = match dialect {
        Dialect::Javalin => "Javalin",
        Dialect::Spark | Dialect::Vertx => "Service",
    };
    let mut receivers: Vec<String> = vec!["Spark".to_string()];
    for i in 0..t.len().saturating_sub(1) {
        if t[i].is_ident(framework_type) && t[i + 1].kind == Kind::Ident {
            receivers.push(t[i + 1].text.clone());
        }
        if t[i].is('=')
            && t.get(i + 1).is_some_and(|x| x.is_ident(framework_type))
            && i > 0
            && t[i - 1].kind == Kind::Ident
        {
            receivers.push(t[i - 1].text.clone());
        }
    }
    // `path("/x", () -> { … })` scopes.
    let mut scopes: Vec<(usize, usize, StrExpr)> = Vec::new();
    for i in 0..t.len() {
        if t[i].is_ident("path") && t.get(i + 1).is_some_and(|x| x.is('(')) {
            let close = close_of(t, i + 1).unwrap_or(t.len());
            let args = split_commas(t, i + 2, close);
            if args.len() == 2 && is_handler(t, args[1].clone()) {
                if let Some(p) = expr(args[0].clone()) {
                    scopes.push((i, close, p));
                }
            } else if let (1, Some(block)) = (args.len(), trailing(close)) {
                if let Some(p) = expr(args[0].clone()) {
                    scopes.push((i, block.end, p));
                }
            }
        }
    }
    let prefix_at = |i: usize| -> Vec<StrExpr> {
        scopes
            .iter()
            .filter(|(s, e, _)| *s < i && i < *e)
            .map(|(_, _, p)| p.clone())
            .collect()
    };
    for i in 0..t.len() {
        let word = t[i].text.as_str();
        let verb = VERBS.contains(&word) || word == "ws" || word == "crud";
        if t[i].kind != Kind::Ident || !verb || !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        // Receiver: none (static import / ApiBuilder), a known variable, or
        // a chain starting at `Javalin.create(…)`.
        if i > 0 && t[i - 1].is('.') {
            let recv_ok = t
                .get(i.wrapping_sub(2))
                .is_some_and(|r| r.kind == Kind::Ident && receivers.contains(&r.text))
                || (t[i - 2].is(')') && chain_from_create(t, i - 2));
            if !recv_ok {
                continue;
            }
        } else if i > 0 && (t[i - 1].kind == Kind::Ident || t[i - 1].is(':')) {
            // A declaration (`void get(`) or a method reference.
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let mut args = split_commas(t, i + 2, close);
        // Kotlin: `get("/x") { ctx -> … }` (the trailing lambda is the
        // handler); Javalin's roles after the handler (`get(h, Role.X)`,
        // `post("x", h, Role.Y)`) are dropped.
        if let Some(block) = trailing(close) {
            args.push(block);
        } else if let Some(h) = args
            .iter()
            .position(|r| handler_of(t, r.clone()).0 || method_ref(t, r.clone()))
        {
            if h <= 1 {
                args.truncate(h + 1);
            }
        }
        let Some(last) = args.last().cloned() else {
            continue;
        };
        if !is_handler(t, last.clone()) && !t[last.start].is('{') {
            continue;
        }
        let mut parts = prefix_at(i);
        if args.len() >= 2 {
            match expr(args[0].clone()) {
                Some(p) => parts.push(p),
                None => continue,
            }
        } else if parts.is_empty() {
            continue;
        }
        let line = file.line_of(t[i].start);
        let (inline, handler) = handler_of(t, last.clone());
        let inline = inline || t[last.start].is('{');
        let rd = if inline {
            reads(t, last.start, last.end)
        } else {
            Vec::new()
        };
        if word == "crud" {
            let cls = (t[last.start].is_ident("new"))
                .then(|| dotted(t, last.start + 1).map(|d| d.0))
                .flatten();
            // `users/{id}`: the collection is the path without its last
            // segment.
            let mut coll = parts.clone();
            if let Some(last_part) = coll.pop() {
                let full = last_part.literal().unwrap_or_default();
                let base = full
                    .trim_end_matches('/')
                    .rsplit_once('/')
                    .map_or(String::new(), |(b, _)| b.to_string());
                coll.push(StrExpr::lit(base));
            }
            for (m, member, one) in [
                ("GET", "getAll", false),
                ("POST", "create", false),
                ("GET", "getOne", true),
                ("PATCH", "update", true),
                ("DELETE", "delete", true),
            ] {
                out.routes.push(Route {
                    method: m.to_string(),
                    parts: if one { parts.clone() } else { coll.clone() },
                    line,
                    websocket: false,
                    reads: Vec::new(),
                    handler: Some((cls.clone(), member.to_string())),
                    router: None,
                });
            }
            continue;
        }
        out.routes.push(Route {
            method: if word == "ws" {
                "GET".to_string()
            } else {
                word.to_ascii_uppercase()
            },
            parts,
            line,
            websocket: word == "ws",
            reads: rd,
            handler,
            router: None,
        });
    }
    out
}

/// Class bodies of a token stream: `(open, close, name)` of every
/// `class`/`enum`/`record`/`interface` with a body.
pub(crate) fn class_bodies(t: &[Token]) -> Vec<(usize, usize, String)> {
    let mut classes: Vec<(usize, usize, String)> = Vec::new();
    for i in 0..t.len() {
        if matches!(
            t[i].text.as_str(),
            "class" | "enum" | "record" | "interface"
        ) && t[i].kind == Kind::Ident
            && !(i > 0 && t[i - 1].is('.'))
        {
            if let Some(name) = t.get(i + 1).filter(|x| x.kind == Kind::Ident) {
                if let Some(open) = (i + 2..t.len()).find(|&k| t[k].is('{') || t[k].is(';')) {
                    if t[open].is('{') {
                        let close = close_of(t, open).unwrap_or(t.len());
                        classes.push((open, close, name.text.clone()));
                    }
                }
            }
        }
    }
    classes
}

/// Javalin's context path settings: `contextPath = <expr>` (a field of
/// the config, also inside Kotlin's `config.apply { … }`) and
/// `contextPath(<expr>)` (Javalin 2); not reads such as
/// `ctx.contextPath()` or comparisons.
fn context_paths(
    t: &[Token],
    expr: &dyn Fn(std::ops::Range<usize>) -> Option<StrExpr>,
) -> Vec<Option<StrExpr>> {
    let mut out = Vec::new();
    for i in 0..t.len() {
        if !t[i].is_ident("contextPath") {
            continue;
        }
        let prev_ok = i == 0 || t[i].nl || t[i - 1].is('.') || t[i - 1].is('{') || t[i - 1].is(';');
        if !prev_ok {
            continue;
        }
        match t.get(i + 1) {
            Some(x) if x.is('=') && !t.get(i + 2).is_some_and(|y| y.is('=')) => {
                let end = (i + 2..t.len())
                    .find(|&k| t[k].is(';') || t[k].is('}') || t[k].is(')') || t[k].nl)
                    .unwrap_or(t.len());
                if end > i + 2 {
                    out.push(expr(i + 2..end));
                }
            }
            Some(x) if x.is('(') => {
                let close = close_of(t, i + 1).unwrap_or(t.len());
                if close > i + 2 {
                    out.push(expr(i + 2..close));
                }
            }
            _ => {}
        }
    }
    out
}

/// Does `t[r]` look like a handler: a lambda, a method reference, `new X(…)`
/// or a (dotted) name?
fn is_handler(t: &[Token], r: std::ops::Range<usize>) -> bool {
    let Some(first) = t.get(r.start) else {
        return false;
    };
    if first.kind == Kind::Str {
        return false;
    }
    (r.start..r.end).any(|k| {
        (t[k].is('-') && t.get(k + 1).is_some_and(|x| x.is('>')))
            || (t[k].is(':') && t.get(k + 1).is_some_and(|x| x.is(':')))
    }) || first.is_ident("new")
        || (first.kind == Kind::Ident && dotted(t, r.start).is_some_and(|d| d.1 == r.end))
}

/// Is `t[r]` a method reference (`Controller::method`)?
fn method_ref(t: &[Token], r: std::ops::Range<usize>) -> bool {
    (r.start..r.end).any(|k| t[k].is(':') && t.get(k + 1).is_some_and(|x| x.is(':')))
}

/// Whether the handler is an inline lambda, and the member it references.
pub(crate) fn handler_of(
    t: &[Token],
    r: std::ops::Range<usize>,
) -> (bool, Option<(Option<String>, String)>) {
    if let Some(k) =
        (r.start..r.end).find(|&k| t[k].is(':') && t.get(k + 1).is_some_and(|x| x.is(':')))
    {
        let member = t.get(k + 2).map(|x| x.text.clone()).unwrap_or_default();
        let owner = (k > r.start)
            .then(|| t[k - 1].text.clone())
            .filter(|o| o != "this");
        return (false, Some((owner, member)));
    }
    if (r.start..r.end).any(|k| t[k].is('-') && t.get(k + 1).is_some_and(|x| x.is('>'))) {
        return (true, None);
    }
    if let Some((name, end)) = dotted(t, r.start) {
        if end == r.end {
            return match name.rsplit_once('.') {
                Some((o, m)) => (false, Some((Some(o.to_string()), m.to_string()))),
                None => (false, Some((None, name))),
            };
        }
    }
    (false, None)
}

/// Is the `)` at `close` the end of a chain starting with
/// `Javalin.create(…)`?
fn chain_from_create(t: &[Token], close: usize) -> bool {
    let Some(open) = (0..close).rev().find(|&o| close_of(t, o) == Some(close)) else {
        return false;
    };
    open >= 3
        && t[open - 1].is_ident("create")
        && t[open - 2].is('.')
        && t[open - 3].is_ident("Javalin")
}

/// The endpoints of every route of `files`.
pub fn link(facts: Vec<Fact>, prefix: &dyn Fn(&str) -> String) -> Vec<Endpoint> {
    let (files, dsl) = split_facts(facts);
    let idx = Index::new(&files);
    let file_idx = |path: &str| files.iter().position(|f| f.path == path);
    // Javalin context paths by module: the first setting of the module;
    // one known only at run time is a `{contextPath}` placeholder.
    let mut context: Vec<(String, String)> = Vec::new();
    for d in &dsl {
        let root = module_root(&d.path);
        if d.context_paths.is_empty() || context.iter().any(|(r, _)| *r == root) {
            continue;
        }
        let f = file_idx(&d.path);
        let ctx = f.and_then(|f| (!files[f].types.is_empty()).then_some((f, 0usize)));
        let v = d.context_paths.first().and_then(|e| {
            let e = e.as_ref()?;
            e.literal().or_else(|| idx.eval(f?, ctx, e))
        });
        context.push((root, v.unwrap_or_else(|| "{contextPath}".to_string())));
    }
    let mut out = Vec::new();
    for d in &dsl {
        let f = file_idx(&d.path);
        let ctx = f.and_then(|f| (!files[f].types.is_empty()).then_some((f, 0usize)));
        let root = (!context.is_empty()).then(|| module_root(&d.path));
        let context_path = context
            .iter()
            .find(|(r, _)| Some(r) == root.as_ref())
            .map(|(_, v)| v.clone());
        for r in &d.routes {
            let mut segs = vec![prefix(&d.path)];
            segs.extend(context_path.clone());
            let mut ok = true;
            for p in &r.parts {
                let v = match (p.literal(), f) {
                    (Some(v), _) => Some(v),
                    (None, Some(f)) => idx.eval(f, ctx, p),
                    (None, None) => None,
                };
                match v {
                    Some(v) => segs.push(v),
                    None => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let url = join_path(&segs).replace('<', "{").replace('>', "}");
            let urls: Vec<String> = match &r.router {
                Some(key) => mount_prefixes(&dsl, &idx, &file_idx, key, &d.path, 0)
                    .iter()
                    .map(|p| join_path(&[p.as_str(), url.as_str()]))
                    .collect(),
                None => vec![url],
            };
            let mut rd = r.reads.clone();
            if let Some((owner, member)) = &r.handler {
                // `books::list` on a field `books: BookController` of the
                // route's file: that class's method only.
                let field_ty = owner
                    .as_deref()
                    .filter(|o| !o.starts_with(char::is_uppercase))
                    .and_then(|o| {
                        let types = f.map(|f| files[f].types.as_slice()).unwrap_or(&[]);
                        types
                            .iter()
                            .flat_map(|ty| &ty.fields)
                            .find(|x| x.name == o)
                            .map(|x| x.ty.rsplit('.').next().unwrap_or(&x.ty).to_string())
                    });
                for other in &dsl {
                    for (cls, m, reads) in &other.bodies {
                        let same_file = other.path == d.path;
                        let owner_ok = match (owner, &field_ty) {
                            (Some(_), Some(ty)) => ty == cls,
                            (Some(o), None) => {
                                o == cls || same_file || !o.starts_with(char::is_uppercase)
                            }
                            (None, _) => same_file,
                        };
                        if m == member && owner_ok {
                            rd.extend(reads.iter().cloned());
                        }
                    }
                }
            }
            let mut params: Vec<Param> = Vec::new();
            let pathy: Vec<String> = rd
                .iter()
                .filter_map(|x| match x {
                    Read::PathOrQuery(n) => Some(n.clone()),
                    _ => None,
                })
                .collect();
            for x in rd {
                let new: Vec<Param> = match x {
                    Read::Param(kind, name) => vec![Param::new(kind, name)],
                    Read::PathOrQuery(name) => vec![Param::query(name)],
                    Read::Body(cls) => {
                        let fi = f.unwrap_or(0);
                        idx.dto_fields(fi, &cls)
                            .unwrap_or_default()
                            .into_iter()
                            .map(Param::json)
                            .collect()
                    }
                    Read::Form(cls) => idx
                        .form_fields(f.unwrap_or(0), &cls)
                        .unwrap_or_default()
                        .into_iter()
                        .map(Param::form)
                        .collect(),
                };
                for p in new {
                    if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                        params.push(p);
                    }
                }
            }
            for url in urls {
                let params: Vec<Param> = params
                    .iter()
                    .map(|p| {
                        let placeholder = url.contains(&format!("{{{}}}", p.name))
                            || url.split('/').any(|s| s.strip_prefix(':') == Some(&p.name));
                        if p.kind == ParamKind::Query && placeholder && pathy.contains(&p.name) {
                            Param::path(p.name.clone())
                        } else {
                            p.clone()
                        }
                    })
                    .collect();
                let e = if r.websocket {
                    Endpoint::websocket(url)
                } else {
                    Endpoint::new(&r.method, url)
                };
                out.push(e.at_path(d.path.clone(), r.line).params(params));
            }
        }
    }
    out
}

/// The prefixes under which the router `key` (declared in file `path`)
/// is mounted, composed through the mounts of the mounting routers; `[""]`
/// for a router that is not mounted.
fn mount_prefixes(
    dsl: &[DslFile],
    idx: &Index,
    file_idx: &dyn Fn(&str) -> Option<usize>,
    key: &RouterKey,
    path: &str,
    depth: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    if depth > 8 {
        return vec![String::new()];
    }
    for d in dsl {
        for m in &d.mounts {
            let hit = match &m.target {
                MountTarget::Var(v) => {
                    d.path == path
                        && *v == key.var
                        && m.from.class == key.class
                        && m.from.method == key.method
                }
                MountTarget::Call(owner, method) => {
                    let returned = dsl
                        .iter()
                        .flat_map(|x| &x.returns)
                        .find(|(c, m, _)| *c == key.class && *m == key.method);
                    *method == key.method
                        && returned.is_none_or(|(_, _, v)| *v == key.var)
                        && match owner {
                            None => m.from.class == key.class,
                            Some(o) if o.starts_with(char::is_uppercase) => *o == key.class,
                            Some(_) => true,
                        }
                }
            };
            if !hit {
                continue;
            }
            let f = file_idx(&d.path);
            let ctx = f.and_then(|f| idx.file((f, 0)).types.first().map(|_| (f, 0usize)));
            let prefix = match (m.prefix.literal(), f) {
                (Some(v), _) => Some(v),
                (None, Some(f)) => idx.eval(f, ctx, &m.prefix),
                (None, None) => None,
            };
            let Some(prefix) = prefix else { continue };
            let prefix = prefix.trim_end_matches('*').to_string();
            for outer in mount_prefixes(dsl, idx, file_idx, &m.from, &d.path, depth + 1) {
                let p = join_path(&[outer.as_str(), prefix.as_str()]);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}
