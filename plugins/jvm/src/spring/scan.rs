//! Map step: outline of each source file, configuration documents, and
//! WebFlux functional routes.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::builder::{self, Builder};
use crate::jvm::config::{self, ConfigDoc};
use crate::jvm::expr::{Part, StrExpr};
use crate::jvm::lambda::{self, Read};
use crate::jvm::outline::{self, JFile, Lang};
use crate::jvm::tokens::{close_of, split_commas, Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    File(JFile),
    Config(ConfigDoc),
    Router(RouterRoute),
    /// A framework named by a build file (`pom.xml`, `build.gradle`) of a
    /// module: `(module root, framework)`.
    Build(String, String),
    /// A router registry nesting each registered router under a prefix
    /// computed at run time from a value the router's class provides:
    /// `nest(path("/apis/" + gv), …)` over a `Map<GroupVersion, …>`.
    Nest(DynamicNest),
    /// A method of a class returning a value built from strings:
    /// `GroupVersion groupVersion() { return GroupVersion.parse("a/v1"); }`,
    /// `return new GroupVersion("a", "v1");` (parts joined with `/`).
    Provide(Provider),
    /// A method documenting springdoc parameters on the builder it is
    /// given (`static void buildParameters(Builder b) { b.parameter(…) }`).
    DocHelper(DocHelper),
    /// A static helper building a value from the annotation of the class
    /// it is given (see [`super::builder`]).
    Builder(Builder),
    /// What a functional-endpoint handler method (a method taking a
    /// `ServerRequest`) reads, for routes declared in other files.
    Handler(HandlerReads),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandlerReads {
    pub path: String,
    /// Declaring class (simple name) and method.
    pub class: String,
    pub method: String,
    pub reads: Vec<Read>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocHelper {
    /// Declaring class (simple name) and method.
    pub class: String,
    pub method: String,
    pub reads: Vec<Read>,
    /// Helpers it calls in turn: (class, method).
    pub calls: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DynamicNest {
    /// The known part before the run-time value (`/apis/`).
    pub literal: String,
    /// Key types of maps declared in the registry's file: the types of
    /// the values that may fill the prefix.
    pub types: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provider {
    pub path: String,
    /// Declaring class or interface (simple name).
    pub class: String,
    /// Return type (simple name).
    pub ty: String,
    pub parts: Vec<StrExpr>,
    /// `return Helper.method(new X());` / `Helper.method(X.class)`: the
    /// helper class, method and the class referenced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<(String, String, String)>,
}

/// A functional route: `GET("/x")` with the `nest`/`path` prefixes around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterRoute {
    pub path: String,
    pub lang: Lang,
    pub method: String,
    /// Prefixes (outermost first), then the pattern.
    pub parts: Vec<StrExpr>,
    pub line: u32,
    /// What the route documents (springdoc `parameter(…)`, `requestBody(…)`)
    /// and its handler reads (`request.queryParam("q")`, `bodyToMono(T.class)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
    /// Documentation helpers its builder arguments call:
    /// `PostQuery.buildParameters(builder)` → (class, method).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc_calls: Vec<(String, String)>,
    /// The handler it references, `(receiver, method)`: `books::list`
    /// → `("books", "list")`, `this::list` → `("this", "list")`, and
    /// `{ req -> books.list(req) }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<(String, String)>,
    /// The class declaring the route (for `this::` handlers).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
}

pub fn analyze(file: &SourceFile, out: &mut Output) {
    if is_test_path(&file.path) {
        return;
    }
    if config::is_config_path(&file.path) {
        for doc in config::parse(&file.path, &file.content) {
            out.fact(&Fact::Config(doc));
        }
        return;
    }
    let Some(lang) = Lang::of_path(&file.path) else {
        return;
    };
    let outline = outline::parse(file, lang);
    if !outline.types.is_empty() || !outline.consts.is_empty() {
        out.fact(&Fact::File(outline));
    }
    let c = &file.content;
    if c.contains("parameterBuilder") || c.contains("buildParameters") {
        doc_helpers(file, out);
    }
    if c.contains("RouterFunction")
        || c.contains("RequestPredicates")
        || c.contains("router {")
        || c.contains("coRouter {")
    {
        for r in routes(file, lang) {
            out.fact(&Fact::Router(r));
        }
        registry(file, lang, out);
    }
    if REQUEST_TYPES.iter().any(|x| c.contains(x)) {
        for h in handlers(file) {
            out.fact(&Fact::Handler(h));
        }
    }
    if lang == Lang::Java && c.contains("static ") && c.contains("return new ") {
        let toks = crate::jvm::tokens::of_file(file);
        let t: &[Token] = &toks.0;
        if let Some(class) = top_class(t) {
            for b in builder::builders(t, &class) {
                out.fact(&Fact::Builder(b));
            }
        }
    }
}

/// The name of the first top-level class of a file.
fn top_class(t: &[Token]) -> Option<String> {
    let mut depth = 0usize;
    for (i, x) in t.iter().enumerate() {
        if x.is('{') {
            depth += 1;
        } else if x.is('}') {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && x.is_ident("class") {
            return t
                .get(i + 1)
                .filter(|n| n.kind == Kind::Ident)
                .map(|n| n.text.clone());
        }
    }
    None
}

/// [`Fact::Nest`] and [`Fact::Provide`] facts of a router file.
fn registry(file: &SourceFile, lang: Lang, out: &mut Output) {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let kotlin = lang == Lang::Kotlin;
    let expr = crate::jvm::expr::range_parser(t, &file.content, kotlin);
    let mut types: Vec<String> = Vec::new();
    let mut nests: Vec<String> = Vec::new();
    // The top-level type, and the return type of the member method being
    // read (brace depth 1).
    let mut class = String::new();
    let mut depth = 0usize;
    let mut ret: Option<String> = None;
    for i in 0..t.len() {
        let x = &t[i];
        if x.is('{') {
            depth += 1;
        } else if x.is('}') {
            depth = depth.saturating_sub(1);
        }
        if depth == 1
            && x.kind == Kind::Ident
            && i > 0
            && t[i - 1].kind == Kind::Ident
            && t.get(i + 1).is_some_and(|n| n.is('('))
        {
            ret = Some(t[i - 1].text.clone());
        }
        // `Map<GroupVersion, List<RouterFunction<…>>>`: a registry key type.
        if (x.is_ident("Map") || x.text.ends_with("Map"))
            && t.get(i + 1).is_some_and(|n| n.is('<'))
            && t.get(i + 3).is_some_and(|n| n.is(','))
        {
            if let Some(k) = t.get(i + 2).filter(|k| k.kind == Kind::Ident) {
                types.push(k.text.clone());
            }
        }
        if depth == 0
            && class.is_empty()
            && matches!(x.text.as_str(), "class" | "interface")
            && x.kind == Kind::Ident
        {
            if let Some(n) = t.get(i + 1).filter(|n| n.kind == Kind::Ident) {
                class = n.text.clone();
            }
        }
        // `nest(path("/apis/" + gv), …)`: a prefix with a run-time part.
        if x.is_ident("nest") && t.get(i + 1).is_some_and(|n| n.is('(')) {
            let close = close_of(t, i + 1).unwrap_or(t.len());
            if let Some(first) = split_commas(t, i + 2, close).into_iter().next() {
                if let Some(p) = path_call(t, first, &expr) {
                    if let [Part::Lit(lit), Part::Ref(var)] = p.parts.as_slice() {
                        if var.starts_with(|c: char| c.is_ascii_lowercase()) && !var.contains('.') {
                            nests.push(lit.clone());
                        }
                    }
                }
            }
        }
        // `Type name() { return Type.parse("a/v1"); }` / `return new Type("a", "v1");`
        if x.is_ident("return") && !class.is_empty() {
            // The method's declared type names the value; an expression
            // not made of strings leaves it unknown (a placeholder).
            let declared = ret
                .clone()
                .filter(|r| r.starts_with(|c: char| c.is_ascii_uppercase()) && r != "String");
            let unknown = |out: &mut Output| {
                if let Some(ty) = &declared {
                    out.fact(&Fact::Provide(Provider {
                        path: file.path.clone(),
                        class: class.clone(),
                        ty: ty.clone(),
                        parts: Vec::new(),
                        via: None,
                    }));
                }
            };
            // `return Helper.of(new X());`: a helper reading X's annotation.
            // (A short statement: the search is bounded.)
            let end = (i + 1..(i + 16).min(t.len())).find(|&k| t[k].is(';'));
            let via = end.and_then(|e| builder::class_ref_call(t, i + 1..e));
            if let (Some(ty), Some(via)) = (&declared, via) {
                out.fact(&Fact::Provide(Provider {
                    path: file.path.clone(),
                    class: class.clone(),
                    ty: ty.clone(),
                    parts: Vec::new(),
                    via: Some(via),
                }));
                continue;
            }
            let mut k = i + 1;
            let is_new = t.get(k).is_some_and(|n| n.is_ident("new"));
            if is_new {
                k += 1;
            }
            let Some(ty) = t.get(k).filter(|n| {
                n.kind == Kind::Ident && n.text.starts_with(|c: char| c.is_ascii_uppercase())
            }) else {
                unknown(out);
                continue;
            };
            let mut open = k + 1;
            if !is_new {
                // `Type.parseAPIVersion(…)`
                if !(t.get(k + 1).is_some_and(|n| n.is('.'))
                    && t.get(k + 2).is_some_and(|n| n.kind == Kind::Ident))
                {
                    unknown(out);
                    continue;
                }
                open = k + 3;
            }
            if !t.get(open).is_some_and(|n| n.is('(')) {
                unknown(out);
                continue;
            }
            let close = close_of(t, open).unwrap_or(t.len());
            if !t.get(close + 1).is_some_and(|n| n.is(';')) {
                unknown(out);
                continue;
            }
            let parts: Option<Vec<StrExpr>> = split_commas(t, open + 1, close)
                .into_iter()
                .map(&expr)
                .collect();
            match parts.filter(|p| !p.is_empty() && p.len() <= 3) {
                Some(parts) => out.fact(&Fact::Provide(Provider {
                    path: file.path.clone(),
                    class: class.clone(),
                    ty: declared.clone().unwrap_or_else(|| ty.text.clone()),
                    parts,
                    via: None,
                })),
                None => unknown(out),
            }
        }
    }
    types.sort();
    types.dedup();
    nests.dedup();
    for literal in nests {
        out.fact(&Fact::Nest(DynamicNest {
            literal,
            types: types.clone(),
        }));
    }
}

const VERBS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// WebFlux functional routes of a file.
pub fn routes(file: &SourceFile, lang: Lang) -> Vec<RouterRoute> {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let kotlin = lang == Lang::Kotlin;
    let expr = crate::jvm::expr::range_parser(t, &file.content, kotlin);
    // Prefix scopes: (token range, prefix).
    let mut scopes: Vec<(usize, usize, StrExpr)> = Vec::new();
    let decls = method_decls(t);
    let enclosing = enclosing_parens(t);
    let classes = crate::jvm::body::classes(t);
    for i in 0..t.len() {
        // `nest(path("/x"), …)` / `.nest(RequestPredicates.path("/x"), …)`
        if t[i].is_ident("nest") && t.get(i + 1).is_some_and(|x| x.is('(')) {
            let close = close_of(t, i + 1).unwrap_or(t.len());
            let args = split_commas(t, i + 2, close);
            if let Some(first) = args.first() {
                if let Some(p) = path_call(t, first.clone(), &expr) {
                    // `nest(path("/x"), scopedRoutes())`: the routes of a
                    // method of this file.
                    if let Some(body) = args.get(1).and_then(|a| method_body(t, a.clone(), &decls))
                    {
                        scopes.push((body.0, body.1, p.clone()));
                    }
                    scopes.push((i, close, p));
                }
            }
        }
        // `.path("/x", builder -> …)`
        if t[i].is_ident("path")
            && i > 0
            && t[i - 1].is('.')
            && t.get(i + 1).is_some_and(|x| x.is('('))
        {
            let close = close_of(t, i + 1).unwrap_or(t.len());
            let args = split_commas(t, i + 2, close);
            if args.len() >= 2 {
                if let Some(p) = expr(args[0].clone()) {
                    scopes.push((i, close, p));
                }
            }
        }
        // Kotlin: `"/x".nest {` and `path("/x").nest {`
        if kotlin
            && t[i].is_ident("nest")
            && i >= 2
            && t[i - 1].is('.')
            && t.get(i + 1).is_some_and(|x| x.is('{'))
        {
            let close = close_of(t, i + 1).unwrap_or(t.len());
            let prefix = if t[i - 2].kind == Kind::Str {
                expr(i - 2..i - 1)
            } else if t[i - 2].is(')') {
                let open = enclosing[i - 2];
                open.and_then(|o| {
                    if o > 0 && t[o - 1].is_ident("path") {
                        expr(o + 1..i - 2)
                    } else if t.get(o + 1).is_some_and(|x| x.kind == Kind::Str) {
                        // `("/x" and accept(APPLICATION_JSON)).nest {`
                        expr(o + 1..o + 2)
                    } else {
                        // `(path("/x") and accept(…)).nest {`
                        path_call(t, o + 1..i - 2, &expr)
                    }
                })
            } else {
                None
            };
            if let Some(p) = prefix {
                scopes.push((i, close, p));
            }
        }
    }
    let mut out = Vec::new();
    let bodies = method_bodies(t);
    for i in 0..t.len() {
        let Some(verb) = VERBS.iter().find(|v| t[i].is_ident(v)) else {
            continue;
        };
        if !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        if i > 0 && t[i - 1].is('.') && i > 1 && t[i - 2].is_ident("HttpMethod") {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let Some(first) = split_commas(t, i + 2, close).into_iter().next() else {
            continue;
        };
        let mut parts: Vec<StrExpr> = scopes
            .iter()
            .filter(|(s, e, _)| *s < i && i < *e)
            .map(|(_, _, p)| p.clone())
            .collect();
        match expr(first.clone()).or_else(|| path_call(t, first.clone(), &expr)) {
            Some(pattern) => parts.push(pattern),
            // `nest(path("/posts"), () -> route().GET(this::list, docs))`,
            // `.GET(accept(APPLICATION_JSON), books::list)`: a builder verb
            // without a pattern serves the nest's own path.
            None if !parts.is_empty()
                && i > 0
                && t[i - 1].is('.')
                && is_handler(t, i + 2..close) => {}
            None => continue,
        }
        // Kotlin DSL handlers may follow as a trailing lambda:
        // `DELETE("/{id}") { req -> handler.delete(req) }`.
        let end = match t.get(close + 1) {
            Some(x) if kotlin && x.is('{') => close_of(t, close + 1).unwrap_or(close),
            _ => close,
        };
        let reads = route_reads(t, i + 2, end, &bodies);
        let doc_calls = qualified_calls(t, i + 2, close, None);
        let handler = handler_ref(t, i + 2..end).or_else(|| {
            // `route(GET("/x").and(accept(…)), handler::x)`: the handler is
            // the next argument of the call the predicate is given to.
            let open = enclosing[i]?;
            let call_close = close_of(t, open)?;
            let args = split_commas(t, open + 1, call_close);
            let at = args.iter().position(|a| a.contains(&i))?;
            handler_ref(t, args.get(at + 1)?.clone())
        });
        out.push(RouterRoute {
            path: file.path.clone(),
            lang,
            method: verb.to_string(),
            parts,
            line: file.line_of(t[i].start),
            reads,
            doc_calls,
            handler,
            class: crate::jvm::body::class_at(&classes, i),
        });
    }
    out
}

/// For each token, the index of the innermost `(` around it (one pass);
/// for a `)`, its own `(`.
fn enclosing_parens(t: &[Token]) -> Vec<Option<usize>> {
    let mut out = Vec::with_capacity(t.len());
    let mut stack: Vec<usize> = Vec::new();
    for (k, x) in t.iter().enumerate() {
        if x.is(')') {
            out.push(stack.pop());
            continue;
        }
        out.push(stack.last().copied());
        if x.is('(') {
            stack.push(k);
        }
    }
    out
}

/// The handler a route argument references: `books::list`, `this::list`,
/// or a lambda calling a method with the request
/// (`req -> books.list(req)`, `{ books.list(it) }`).
fn handler_ref(t: &[Token], r: std::ops::Range<usize>) -> Option<(String, String)> {
    let end = r.end.min(t.len());
    let mut call = None;
    for k in r.start..end {
        if k + 3 < end
            && t[k].kind == Kind::Ident
            && t[k + 1].is(':')
            && t[k + 2].is(':')
            && t[k + 3].kind == Kind::Ident
            && t[k + 3].text != "class"
        {
            return Some((t[k].text.clone(), t[k + 3].text.clone()));
        }
        if call.is_none()
            && k + 5 < end
            && t[k].kind == Kind::Ident
            && t[k + 1].is('.')
            && t[k + 2].kind == Kind::Ident
            && t[k + 3].is('(')
            && t[k + 4].kind == Kind::Ident
            && t[k + 5].is(')')
            && (k == 0 || !t[k - 1].is('.'))
        {
            call = Some((t[k].text.clone(), t[k + 2].text.clone()));
        }
    }
    call
}

/// Request objects a handler reads parameters from: functional endpoint
/// handlers (`ServerRequest`) and controller methods taking the servlet
/// or reactive request.
const REQUEST_TYPES: [&str; 11] = [
    "ServerRequest",
    // Vert.x / Quarkus reactive routes.
    "RoutingContext",
    "RoutingExchange",
    // Micronaut.
    "HttpRequest",
    "HttpServletRequest",
    "ServerHttpRequest",
    "ServerWebExchange",
    "WebRequest",
    // JAX-RS `@Context` objects.
    "HttpHeaders",
    "UriInfo",
    "ContainerRequestContext",
];

/// Methods taking a request object ([`REQUEST_TYPES`]: WebFlux / WebMvc.fn
/// handlers, controller methods) and what they read.
fn handlers(file: &SourceFile) -> Vec<HandlerReads> {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let classes = crate::jvm::body::classes(t);
    let mut out = Vec::new();
    for m in crate::jvm::body::methods(t, &classes) {
        if m.class.is_empty()
            || !t[m.params.clone()]
                .iter()
                .any(|x| REQUEST_TYPES.contains(&x.text.as_str()))
        {
            continue;
        }
        let reads = request_reads(t, m.body.start, m.body.end);
        if !reads.is_empty() {
            out.push(HandlerReads {
                path: file.path.clone(),
                class: m.class,
                method: m.name,
                reads,
            });
        }
    }
    out
}

/// Bodies of the methods declared in a file, by name (the first of
/// overloads): `name(…) {` or `name(…) throws X {` → the body's braces.
fn method_bodies(t: &[Token]) -> std::collections::HashMap<&str, (usize, usize)> {
    let mut out = std::collections::HashMap::new();
    for d in 1..t.len().saturating_sub(2) {
        if t[d].kind != Kind::Ident
            || !t[d + 1].is('(')
            || !(t[d - 1].kind == Kind::Ident || t[d - 1].is('>'))
            || matches!(t[d - 1].text.as_str(), "new" | "return" | "throw" | "else")
        {
            continue;
        }
        let Some(close) = close_of(t, d + 1) else {
            continue;
        };
        let mut k = close + 1;
        if t.get(k).is_some_and(|x| x.is_ident("throws")) {
            while k < t.len() && !t[k].is('{') && !t[k].is(';') {
                k += 1;
            }
        }
        if t.get(k).is_some_and(|x| x.is('{')) {
            if let Some(end) = close_of(t, k) {
                out.entry(t[d].text.as_str()).or_insert((k, end));
            }
        }
    }
    out
}

/// The parameters a functional route documents in its builder arguments
/// (`parameter(parameterBuilder().name("q").in(ParameterIn.QUERY))`,
/// `requestBody(requestBodyBuilder().implementation(T.class))`) and its
/// handler reads (an inline lambda, or `this::name` / `handler::name` of a
/// method of this file).
fn route_reads(
    t: &[Token],
    start: usize,
    end: usize,
    bodies: &std::collections::HashMap<&str, (usize, usize)>,
) -> Vec<Read> {
    let mut out = Vec::new();
    let push = |r: Read, out: &mut Vec<Read>| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    let mut ranges = vec![(start, end)];
    for k in start..end.saturating_sub(2) {
        if t[k].is(':') && t[k + 1].is(':') && t[k + 2].kind == Kind::Ident {
            if let Some(&(open, close)) = bodies.get(t[k + 2].text.as_str()) {
                // A handler of this file: its own body, not a route list.
                if !(open..close).contains(&start) {
                    ranges.push((open, close));
                }
            }
        }
    }
    for (a, b) in ranges {
        for r in request_reads(t, a, b) {
            push(r, &mut out);
        }
    }
    out
}

/// What a handler reads from its `ServerRequest` in `t[a..b]`, and the
/// springdoc builder documentation there.
fn request_reads(t: &[Token], a: usize, b: usize) -> Vec<Read> {
    let mut out = Vec::new();
    let push = |r: Read, out: &mut Vec<Read>| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    {
        for r in lambda::reads(t, a, b) {
            push(r, &mut out);
        }
        for k in a..b.min(t.len()) {
            // Kotlin `awaitBody<Book>()`, `bodyToMono<Book>()`.
            if k > 0
                && t[k - 1].is('.')
                && matches!(
                    t[k].text.as_str(),
                    "awaitBody" | "awaitBodyOrNull" | "bodyToMono" | "bodyToFlux" | "body"
                )
                && t.get(k + 1).is_some_and(|x| x.is('<'))
                && t.get(k + 3).is_some_and(|x| x.is('>'))
                && (t[k].text != "body" || k >= 2 && t[k - 2].kind == Kind::Ident)
            {
                if let Some(ty) = t.get(k + 2).filter(|x| x.kind == Kind::Ident) {
                    push(Read::Body(ty.text.clone()), &mut out);
                }
            }
            if !(k > 0 && t[k - 1].is('.') && t.get(k + 1).is_some_and(|x| x.is('('))) {
                continue;
            }
            let close = close_of(t, k + 1).unwrap_or(b);
            let first_str = (t.get(k + 2).is_some_and(|x| x.kind == Kind::Str)
                && t.get(k + 3).is_some_and(|x| x.is(')')))
            .then(|| t[k + 2].text.clone());
            match t[k].text.as_str() {
                "pathVariable" => {
                    if let Some(v) = first_str {
                        push(Read::Param(ParamKind::Path, v), &mut out);
                    }
                }
                "firstHeader" => {
                    if let Some(v) = first_str {
                        push(Read::Param(ParamKind::Header, v), &mut out);
                    }
                }
                // JAX-RS `HttpHeaders` / `ContainerRequestContext`.
                "getHeaderString" | "getRequestHeader" => {
                    if let Some(v) = first_str {
                        push(Read::Param(ParamKind::Header, v), &mut out);
                    }
                }
                // JAX-RS `getCookies().get("c")`, Micronaut
                // `getHeaders().get("X")`, `getParameters().get("q")`.
                "get" if k >= 4 && t[k - 2].is(')') && t[k - 3].is('(') => {
                    let kind = match t[k - 4].text.as_str() {
                        "getCookies" => Some(ParamKind::Cookie),
                        "getHeaders" => Some(ParamKind::Header),
                        "getParameters" => Some(ParamKind::Query),
                        _ => None,
                    };
                    if let (Some(kind), Some(v)) = (kind, first_str) {
                        push(Read::Param(kind, v), &mut out);
                    }
                }
                "queryParamOrNull" | "param" | "getParameter" | "getParameterValues" => {
                    if let Some(v) = first_str {
                        push(Read::Param(ParamKind::Query, v), &mut out);
                    }
                }
                // `cookies().getFirst("x")`, `queryParams().getFirst("x")`.
                "getFirst" if k >= 4 && t[k - 2].is(')') && t[k - 3].is('(') => {
                    let kind = match t[k - 4].text.as_str() {
                        "cookies" | "getCookies" => Some(ParamKind::Cookie),
                        "queryParams" | "getQueryParams" | "getQueryParameters" => {
                            Some(ParamKind::Query)
                        }
                        "getPathParameters" => Some(ParamKind::Path),
                        "headers" | "getHeaders" | "getRequestHeaders" => Some(ParamKind::Header),
                        _ => None,
                    };
                    if let (Some(kind), Some(v)) = (kind, first_str) {
                        push(Read::Param(kind, v), &mut out);
                    }
                }
                // WebMvc.fn `request.body(Book.class)`.
                "body" if t[k - 2].kind == Kind::Ident => {
                    if let Some(cls) = crate::jvm::body::class_literal(t, k + 2..close) {
                        push(Read::Body(cls), &mut out);
                    }
                }
                "bodyToMono" | "bodyToFlux" | "implementation"
                    if t[k].text != "implementation"
                        || in_request_body(t, k, a)
                        || form_media(t, k, a) =>
                {
                    if let Some(cls) = crate::jvm::body::class_literal(t, k + 2..close) {
                        // `content(contentBuilder().mediaType(MULTIPART_FORM_DATA_VALUE)
                        // .schema(schemaBuilder().implementation(T.class)))`: a form.
                        let form = t[k].text == "implementation" && form_media(t, k, a);
                        push(
                            if form {
                                Read::Form(cls)
                            } else {
                                Read::Body(cls)
                            },
                            &mut out,
                        );
                    }
                }
                _ => {}
            }
        }
        for r in doc_params(t, a, b) {
            push(r, &mut out);
        }
    }
    out
}

/// `parameterBuilder().name("q").in(ParameterIn.QUERY)…` chains in
/// `start..end` (links in any order).
fn doc_params(t: &[Token], start: usize, end: usize) -> Vec<Read> {
    let mut out = Vec::new();
    let end = end.min(t.len());
    for k in start..end {
        if !(t[k].is_ident("parameterBuilder")
            && t.get(k + 1).is_some_and(|x| x.is('('))
            && t.get(k + 2).is_some_and(|x| x.is(')')))
        {
            continue;
        }
        let mut j = k + 3;
        let (mut name, mut kind) = (None, None);
        while j + 2 < end && t[j].is('.') && t[j + 2].is('(') {
            let c = close_of(t, j + 2).unwrap_or(end);
            match t[j + 1].text.as_str() {
                "name" => {
                    name = t
                        .get(j + 3)
                        .filter(|x| x.kind == Kind::Str && j + 4 == c)
                        .map(|x| x.text.clone());
                }
                "in" => {
                    kind = (j + 3..c).rev().find_map(|x| match t[x].text.as_str() {
                        "QUERY" => Some(ParamKind::Query),
                        "PATH" => Some(ParamKind::Path),
                        "HEADER" => Some(ParamKind::Header),
                        "COOKIE" => Some(ParamKind::Cookie),
                        _ => None,
                    });
                }
                _ => {}
            }
            j = c + 1;
        }
        if let (Some(n), Some(kd)) = (name, kind) {
            let r = Read::Param(kd, n);
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

/// `Type.method(…)` / `Outer.Type.method(…)` calls in `start..end` as
/// (Type, method); with `own`, also unqualified `method(…)` calls as
/// (own, method).
fn qualified_calls(
    t: &[Token],
    start: usize,
    end: usize,
    own: Option<&str>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let end = end.min(t.len());
    for k in start..end {
        if t[k].kind != Kind::Ident || !t.get(k + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let call = if k >= 2 && t[k - 1].is('.') {
            let q = &t[k - 2];
            (q.kind == Kind::Ident && q.text.starts_with(|c: char| c.is_ascii_uppercase()))
                .then(|| (q.text.clone(), t[k].text.clone()))
        } else if k >= 1 && (t[k - 1].is('.') || t[k - 1].is_ident("new")) {
            None
        } else {
            own.map(|o| (o.to_string(), t[k].text.clone()))
        };
        if let Some(c) = call {
            if c.1 != "parameterBuilder" && !out.contains(&c) && out.len() < 32 {
                out.push(c);
            }
        }
    }
    out
}

/// [`Fact::DocHelper`] facts: methods of the file documenting parameters,
/// with the class declaring each.
fn doc_helpers(file: &SourceFile, out: &mut Output) {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    // Type bodies: (name, `{`, `}`).
    let mut types: Vec<(String, usize, usize)> = Vec::new();
    for k in 0..t.len().saturating_sub(2) {
        if matches!(
            t[k].text.as_str(),
            "class" | "interface" | "record" | "enum"
        ) && t[k].kind == Kind::Ident
            && t[k + 1].kind == Kind::Ident
        {
            let mut j = k + 2;
            while j < t.len() && !t[j].is('{') && !t[j].is(';') {
                j += 1;
            }
            if t.get(j).is_some_and(|x| x.is('{')) {
                if let Some(c) = close_of(t, j) {
                    types.push((t[k + 1].text.clone(), j, c));
                }
            }
        }
    }
    for (name, (open, close)) in method_bodies(t) {
        let Some(class) = types
            .iter()
            .filter(|(_, a, b)| *a < open && close <= *b)
            .min_by_key(|(_, a, b)| b - a)
            .map(|(n, _, _)| n.clone())
        else {
            continue;
        };
        let reads = doc_params(t, open, close);
        let calls: Vec<(String, String)> = qualified_calls(t, open, close, Some(&class))
            .into_iter()
            .filter(|(c, m)| !(c == &class && m == name))
            .collect();
        if reads.is_empty() && !calls.iter().any(|(_, m)| m.contains("arameter")) {
            continue;
        }
        out.fact(&Fact::DocHelper(DocHelper {
            class,
            method: name.to_string(),
            reads,
            calls,
        }));
    }
}

/// Is the call at `k` part of a chain started by `start()` (`start().a().b()`)?
fn builder_chain(t: &[Token], k: usize, start: &str) -> bool {
    let mut j = k;
    // Walk back over `.x(…)` links.
    while j >= 2 && t[j - 1].is('.') {
        let prev = j - 2;
        if t[prev].is(')') {
            let Some(open) = (0..prev).rev().find(|&o| close_of(t, o) == Some(prev)) else {
                return false;
            };
            if open == 0 {
                return false;
            }
            j = open - 1;
            if t[j].is_ident(start) {
                return true;
            }
        } else {
            return t[prev].is_ident(start);
        }
    }
    false
}

/// Is the `implementation(…)` at `k` documented under a form media type
/// (`mediaType(MediaType.MULTIPART_FORM_DATA_VALUE)` in the same
/// `requestBody(…)` argument)?
fn form_media(t: &[Token], k: usize, floor: usize) -> bool {
    // The enclosing `requestBody(` call: the nearest one before `k`.
    let Some(open) = (floor..k)
        .rev()
        .take(256)
        .find(|&o| t[o].is_ident("requestBody") && t.get(o + 1).is_some_and(|x| x.is('(')))
    else {
        return false;
    };
    let close = close_of(t, open + 1).unwrap_or(k);
    close > k
        && (open..close.min(t.len())).any(|x| {
            let s = t[x].text.as_str();
            s.starts_with("MULTIPART_FORM_DATA")
                || s.starts_with("APPLICATION_FORM_URLENCODED")
                || s == "multipart/form-data"
                || s == "application/x-www-form-urlencoded"
        })
}

/// `requestBody(requestBodyBuilder()….implementation(T.class))`.
fn in_request_body(t: &[Token], k: usize, floor: usize) -> bool {
    builder_chain(t, k, "requestBodyBuilder") && k > floor
}

/// A handler argument: `this::list`, `handler::list`, `Handlers::list`,
/// `request -> …`, `(request) -> …`.
fn is_handler(t: &[Token], r: std::ops::Range<usize>) -> bool {
    (r.start..r.end.min(t.len()).saturating_sub(1))
        .any(|k| (t[k].is(':') && t[k + 1].is(':')) || (t[k].is('-') && t[k + 1].is('>')))
}

/// Argument-less method declarations of a file: `Type name() {` → the
/// body's `{` and `}`.
fn method_decls(t: &[Token]) -> std::collections::HashMap<&str, (usize, usize)> {
    let mut out = std::collections::HashMap::new();
    for d in 1..t.len().saturating_sub(3) {
        if t[d].kind == Kind::Ident
            && t[d + 1].is('(')
            && t[d + 2].is(')')
            && t[d + 3].is('{')
            && (t[d - 1].kind == Kind::Ident || t[d - 1].is('>'))
            && !t[d - 1].is_ident("new")
            && !t[d - 1].is_ident("return")
        {
            if let Some(close) = close_of(t, d + 3) {
                out.entry(t[d].text.as_str()).or_insert((d + 3, close));
            }
        }
    }
    out
}

/// The body of the method of this file that `r` calls without arguments
/// (`scoped()`, `this.scoped()`).
fn method_body(
    t: &[Token],
    r: std::ops::Range<usize>,
    decls: &std::collections::HashMap<&str, (usize, usize)>,
) -> Option<(usize, usize)> {
    let mut k = r.start;
    if t.get(k)?.is_ident("this") && t.get(k + 1)?.is('.') {
        k += 2;
    }
    let name = t.get(k).filter(|x| x.kind == Kind::Ident)?;
    if !(t.get(k + 1)?.is('(') && t.get(k + 2)?.is(')') && k + 3 == r.end) {
        return None;
    }
    decls.get(name.text.as_str()).copied()
}

/// `path("/x")` or `RequestPredicates.path("/x")` (optionally followed by
/// `.and(…)`) in `r`: the prefix.
fn path_call(
    t: &[Token],
    r: std::ops::Range<usize>,
    expr: &dyn Fn(std::ops::Range<usize>) -> Option<StrExpr>,
) -> Option<StrExpr> {
    let mut k = r.start;
    if t.get(k).is_some_and(|x| x.is_ident("RequestPredicates")) && t.get(k + 1)?.is('.') {
        k += 2;
    }
    if !t.get(k)?.is_ident("path") || !t.get(k + 1)?.is('(') {
        return None;
    }
    let close = close_of(t, k + 1)?;
    expr(k + 2..close)
}
