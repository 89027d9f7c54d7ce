//! Map step: one Rust file → its functions (router operations, extractor
//! signatures, header/cookie reads), constants and structs.

use std::ops::Range;

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::framework::Framework;
use crate::rs::expr::{crate_and_module, parse_str, Part};
use crate::rs::items::{self, compact, generic_of, is_ident, FnDecl, StructDecl};

/// What one file contributes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FileFacts {
    pub path: String,
    pub krate: String,
    pub module: String,
    pub consts: Vec<(String, Vec<Part>)>,
    pub structs: Vec<StructDecl>,
    pub fns: Vec<FnFacts>,
    /// `use a::b::routes as b_routes;`: (alias, what it names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<(String, Target)>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FnFacts {
    pub name: String,
    /// Routers built in the body, by variable (`""`: the returned one).
    pub routers: Vec<RouterDef>,
    /// The body's tail expression is this variable (`app` in `… app }`).
    pub returns: Option<String>,
    /// Extractors by type: (`query`/`json`/`form`/`path`, struct name).
    pub bodies: Vec<(String, String)>,
    /// Parameters read directly (headers, cookies, files).
    pub direct: Vec<(String, String)>,
    /// `let v1 = v1::router(cfg).with_state(s);`: local variables bound to
    /// what a call returns (nested or merged later by name).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lets: Vec<(String, Target)>,
    /// The inline modules the function is declared in (`docs` for a
    /// `mod docs { pub fn router() … }` inside `lib.rs`), outermost first.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub inline: String,
    /// `#[utoipa::path(get, path = "/items/{id}")]` on the function: its
    /// methods, path and line, for utoipa-axum's `routes!(handler)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub utoipa: Option<(Vec<String>, String, u32)>,
    /// The type of the `#[OpenApi] impl T { … }` block declaring this
    /// method (poem-openapi); its `#[oai(path, method)]` is in `utoipa`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub impl_of: String,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RouterDef {
    pub name: String,
    pub ops: Vec<Op>,
}

/// A reference to a function (`api::routes`) or a local router variable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    Call {
        qual: Option<String>,
        name: String,
    },
    Local(String),
    /// A method called on a value of unknown type
    /// (`authorizer.new_router()`): every function of that name.
    Method(String),
    /// An inline `Router::new()…` expression.
    Inline(Vec<Op>),
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    Route {
        path: Vec<Part>,
        line: u32,
        /// Query parameters declared by the route itself (Rocket `?<q>`).
        #[serde(default)]
        query: Vec<String>,
        /// Structs whose fields are parameters, declared by the route
        /// itself (Gotham `with_query_string_extractor::<T>()`):
        /// (`query`/`path`, struct name).
        #[serde(default)]
        extract: Vec<(String, String)>,
        /// (method, handler)
        methods: Vec<(String, Option<Target>)>,
    },
    Nest {
        path: Vec<Part>,
        line: u32,
        target: Target,
        service: bool,
    },
    Merge(Target),
    /// utoipa-axum `.routes(routes!(a, b))`: handlers whose own
    /// `#[utoipa::path(…)]` attribute gives their method and path.
    Handlers(Vec<Target>),
    /// poem-openapi `OpenApiService::new(Api, …)` (or `(Api1, Api2)`): the
    /// `#[oai]` methods of those types' `#[OpenApi]` impls.
    ImplRoutes(Vec<String>),
    /// `.layer(middleware::from_fn(f))` (also `from_fn_with_state(s, f)`,
    /// `route_layer`): what `f` reads counts for every route added to the
    /// router before it.
    Layer(Vec<Target>),
}

/// Methods registered by `any(h)` (Axum accepts every method; the five
/// common ones are reported).
pub const ANY: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];
pub(crate) const METHODS: &[&str] = &[
    "get", "post", "put", "delete", "patch", "options", "head", "trace", "connect",
];
pub(crate) const AXUM_OPS: &[&str] = &[
    "route",
    "routes",
    "nest",
    "merge",
    "nest_service",
    "route_service",
    "api_route",
    "api_route_with",
    "nest_api_service",
    "layer",
    "route_layer",
];

/// The framework a scan follows (its builder vocabulary and hooks).
pub type Flavor = &'static Framework;

pub fn scan_file(file: &SourceFile, flavor: Flavor) -> FileFacts {
    let path = file.slash_path();
    let code = file.code(Syntax::RUST);
    let skip = items::test_ranges(&code);
    let (krate, module) = crate_and_module(&path);
    let lets: Vec<usize> = code.find_word("let").collect();
    let scopes = match flavor.scoped_modules {
        Some(f) => f(&code),
        None => Vec::new(),
    };
    let mods = items::inline_modules(&code);
    let api_impls = if flavor.openapi_impls {
        openapi_impls(&code)
    } else {
        Vec::new()
    };
    let fns = items::functions(&code, &skip)
        .iter()
        .map(|f| {
            let mut facts = scan_fn(file, &code, f, flavor, &scopes);
            facts.inline = items::inline_path(&mods, f.kw);
            if let Some((_, ty, prefix)) = api_impls
                .iter()
                .rev()
                .find(|(r, _, _)| r.start < f.kw && f.kw < r.end)
            {
                if let Some((methods, path, line)) = oai_route(file, &code, f) {
                    facts.impl_of = ty.clone();
                    facts.utoipa = Some((methods, format!("{prefix}{path}"), line));
                    oai_params(f, &mut facts);
                }
            }
            let from = lets.partition_point(|&o| o < f.body.start);
            let to = lets.partition_point(|&o| o < f.body.end);
            facts.lets = call_lets(&code, f, &lets[from..to], &facts);
            facts
        })
        .collect();
    FileFacts {
        path,
        krate,
        module,
        consts: {
            let mut c = items::str_consts(&code, &skip);
            c.extend(items::route_table(&code, &skip));
            c
        },
        structs: items::structs(&code, &skip),
        fns,
        aliases: items::use_aliases(&code, &skip)
            .into_iter()
            .map(|(alias, path)| (alias, call_target(&path)))
            .collect(),
    }
}

fn scan_fn(
    file: &SourceFile,
    code: &Code,
    f: &FnDecl,
    flavor: Flavor,
    scopes: &[(Range<usize>, String)],
) -> FnFacts {
    let mut out = FnFacts {
        name: f.name.clone(),
        ..FnFacts::default()
    };
    extractors(code, f, &mut out);
    if flavor.utoipa {
        out.utoipa = utoipa_path(file, code, f);
        if out.utoipa.is_some() {
            utoipa_params(code, f, &mut out);
        }
    }
    if let Some(reads) = flavor.handler_reads {
        reads(code, f, &mut out);
    }
    if flavor.openapi_impls {
        for at in code.find_all_in("OpenApiService::new", f.body.clone()) {
            let open = code.skip_ws(at + "OpenApiService::new".len());
            if code.text().as_bytes().get(open) != Some(&b'(') {
                continue;
            }
            let Some(first) = code.args(open).into_iter().next() else {
                continue;
            };
            let arg = items::compact(code.slice(first));
            // `(Api1, Api2)`, `Api`, `Api::default()`, `Api::new(db)`.
            let elements = match arg.strip_prefix('(') {
                Some(tuple) => split_top(tuple),
                None => vec![arg.as_str()],
            };
            let types: Vec<String> = elements
                .into_iter()
                .map(|e| {
                    let path = e.split(['(', '{']).next().unwrap_or(e);
                    let ty = match path.rsplit_once("::") {
                        Some((ty, ctor)) if ctor.starts_with(|c: char| c.is_ascii_lowercase()) => {
                            ty
                        }
                        _ => path,
                    };
                    items::type_name(ty)
                })
                .filter(|t| is_ident(t))
                .collect();
            if types.is_empty() {
                continue;
            }
            // `poem_openapi::OpenApiService::new(…)`: the path's start.
            let bytes = code.text().as_bytes();
            let mut start = at;
            while start > 0 && (is_ident_byte(bytes[start - 1]) || bytes[start - 1] == b':') {
                start -= 1;
            }
            let name = binding(code, start).unwrap_or_default();
            let op = Op::ImplRoutes(types);
            match out.routers.iter_mut().find(|r| r.name == name) {
                Some(r) => r.ops.push(op),
                None => out.routers.push(RouterDef {
                    name,
                    ops: vec![op],
                }),
            }
        }
    }
    if let Some(attribute_routes) = flavor.attribute_routes {
        attribute_routes(file, code, f, &mut out, flavor, scopes);
    }
    let ops_names = flavor.chain_ops;
    // Router operations, outermost chain first.
    let text = code.text();
    let bytes = text.as_bytes();
    let mut done: Vec<Range<usize>> = Vec::new();
    let mut offsets: Vec<usize> = Vec::new();
    for op in ops_names {
        let needle = format!(".{op}");
        offsets.extend(code.find_all_in(&needle, f.body.clone()).filter(|&o| {
            let after = o + needle.len();
            !bytes.get(after).copied().is_some_and(is_ident_byte)
                && bytes.get(code.skip_ws(after)) == Some(&b'(')
        }));
    }
    offsets.sort_unstable();
    let mut tail_var = None;
    for o in offsets {
        if items::inside(&done, o) || nested_fn(code, f, o) {
            continue;
        }
        let start = chain_start(code, o);
        let (root, ops, end) = parse_chain(file, code, start, flavor);
        done.push(start..end);
        // Salvo and Loco builders are only recognised from their
        // constructors (`.get(…)`/`.add(…)` are everywhere).
        if flavor.needs_constructor && !matches!(root, Root::New) {
            continue;
        }
        let mut ops = ops;
        let name = match &root {
            // `cfg.service(…)` in a `configure` function: what it returns.
            Root::Var(v)
                if f.params
                    .iter()
                    .any(|p| &p.pattern == v && p.ty.contains("ServiceConfig")) =>
            {
                String::new()
            }
            Root::Var(v) => v.clone(),
            Root::Call(t) => {
                ops.insert(0, Op::Merge(t.clone()));
                binding(code, start).unwrap_or_default()
            }
            Root::New => binding(code, start).unwrap_or_default(),
        };
        // `router.route(…)` as the body's tail expression: returned.
        if matches!(root, Root::Var(_)) && !name.is_empty() && code.skip_ws(end) + 1 == f.body.end {
            tail_var = Some(name.clone());
        }
        match out.routers.iter_mut().find(|r| r.name == name) {
            Some(r) => r.ops.extend(ops),
            None => out.routers.push(RouterDef { name, ops }),
        }
    }
    if let Some((list_macro, list_ops)) = flavor.route_list {
        // `routes![a, b]` outside `.mount(…)`: what the function returns.
        for at in code.find_all_in(list_macro, f.body.clone()) {
            if items::inside(&done, at) || nested_fn(code, f, at) {
                continue;
            }
            let ops = list_ops(code, at);
            match out.routers.iter_mut().find(|r| r.name.is_empty()) {
                Some(r) => r.ops.extend(ops),
                None => out.routers.push(RouterDef {
                    name: String::new(),
                    ops,
                }),
            }
        }
        // `routes.append(&mut accounts::routes())` / `.extend(…)` in a
        // function returning `Vec<Route>`: the other module's routes too.
        if code.slice(f.kw..f.body.start).contains("Route") {
            for m in [".append(", ".extend("] {
                for at in code.find_all_in(m, f.body.clone()) {
                    if items::inside(&done, at) || nested_fn(code, f, at) {
                        continue;
                    }
                    let args = code.args(at + m.len() - 1);
                    let [arg] = args.as_slice() else {
                        continue;
                    };
                    let text = code.slice(arg.clone());
                    let inner = text.trim_start_matches('&').trim_start();
                    let inner = inner.strip_prefix("mut ").unwrap_or(inner);
                    let from = arg.start + (text.len() - inner.trim_start().len());
                    let t = target(file, code, from, flavor);
                    if !matches!(t, Target::Call { .. }) {
                        continue;
                    }
                    match out.routers.iter_mut().find(|r| r.name.is_empty()) {
                        Some(r) => r.ops.push(Op::Merge(t)),
                        None => out.routers.push(RouterDef {
                            name: String::new(),
                            ops: vec![Op::Merge(t)],
                        }),
                    }
                }
            }
        }
    }
    out.returns = tail_ident(code, f.body.clone()).or(tail_var);
    if flavor.utoipa && !out.routers.iter().any(|r| r.name.is_empty()) {
        if let Some(t) = tail_router_call(code, f) {
            out.routers.push(RouterDef {
                name: String::new(),
                ops: vec![Op::Merge(t)],
            });
        }
    }
    out
}

/// `#[OpenApi] impl Api { … }` blocks (poem-openapi): body range, type
/// name and the `#[OpenApi(prefix_path = "/v1")]` prefix.
fn openapi_impls(code: &Code) -> Vec<(Range<usize>, String, String)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_word("impl") {
        let attrs = items::attrs_before(code, at);
        let Some(attr) = attrs
            .iter()
            .find(|a| *a == "OpenApi" || a.starts_with("OpenApi("))
        else {
            continue;
        };
        let Some(open) = text[at..].find('{').map(|o| at + o) else {
            continue;
        };
        let Some(close) = code.matching(open) else {
            continue;
        };
        let head = &text[at + "impl".len()..open];
        let head = head.rsplit(" for ").next().unwrap_or(head);
        let ty = items::type_name(head.trim());
        if !is_ident(&ty) || bytes.get(open) != Some(&b'{') {
            continue;
        }
        let prefix = attr
            .split("prefix_path=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_string();
        out.push((open..close, ty, prefix));
    }
    out
}

/// `#[oai(path = "/users/:id", method = "get")]` (several `method = …`
/// allowed): methods, path and the attribute's line.
fn oai_route(file: &SourceFile, code: &Code, f: &FnDecl) -> Option<(Vec<String>, String, u32)> {
    let attr = items::attrs_before(code, f.kw)
        .into_iter()
        .find(|a| a.starts_with("oai("))?;
    let path = attr.split("path=\"").nth(1)?.split('"').next()?.to_string();
    let methods: Vec<String> = attr
        .split("method=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next())
        .filter(|m| METHODS.contains(&m.to_ascii_lowercase().as_str()))
        .map(|m| m.to_ascii_uppercase())
        .collect();
    if methods.is_empty() {
        return None;
    }
    let line = code.text()[..f.kw]
        .rfind("oai(")
        .map_or_else(|| file.line_of(f.kw), |at| file.line_of(at));
    Some((methods, path, line))
}

/// poem-openapi parameters: `name: Query<T>`, `id: Path<T>`,
/// `token: Header<T>`, `session: Cookie<T>` are named by the variable
/// (`#[oai(name = "x")]` on the parameter wins); `Json<T>`/`Form<T>`
/// bodies are found by the shared extractor scan.
fn oai_params(f: &FnDecl, out: &mut FnFacts) {
    for p in &f.params {
        let ty = items::compact(&p.ty);
        let head = ty.split('<').next().unwrap_or("");
        let kind = match head.rsplit("::").next().unwrap_or("") {
            "Query" => "query",
            "Path" => "path",
            "Header" => "header",
            "Cookie" | "CookiePrivate" | "CookieSigned" => "cookie",
            _ => continue,
        };
        let var = p.pattern.trim_start_matches("mut ").trim();
        let renamed = p
            .attrs
            .split("name=\"")
            .nth(1)
            .and_then(|r| r.split('"').next());
        let name = renamed.unwrap_or(var);
        if !is_ident(var) && renamed.is_none() {
            continue;
        }
        // A `Query<T>` of a struct (plain poem) is handled as fields.
        out.bodies
            .retain(|(k, t)| !(k == kind && ty.contains(&format!("<{t}"))));
        let entry = (kind.to_string(), name.to_string());
        if !out.direct.contains(&entry) {
            out.direct.push(entry);
        }
    }
}

/// `#[utoipa::path(get, path = "/x")]` (also `#[path(…)]` with the macro
/// imported, `method(get, head)` for several methods): methods, path and
/// the attribute's line.
fn utoipa_path(file: &SourceFile, code: &Code, f: &FnDecl) -> Option<(Vec<String>, String, u32)> {
    for attr in items::attrs_before(code, f.kw) {
        let Some(open) = attr.find('(') else { continue };
        let name = &attr[..open];
        if name != "utoipa::path" && name != "path" {
            continue;
        }
        let args = attr.get(open + 1..attr.len().saturating_sub(1))?;
        let path_at = args.find("path=\"")?;
        if path_at > 0 && !matches!(args.as_bytes()[path_at - 1], b',' | b'(') {
            continue;
        }
        let path = args[path_at + "path=\"".len()..]
            .split('"')
            .next()?
            .to_string();
        let mut methods = Vec::new();
        for part in args.split(',') {
            let part = part.trim_start_matches("method(").trim_end_matches(')');
            if METHODS.contains(&part) {
                methods.push(part.to_ascii_uppercase());
            }
            if part.contains('=') || part.contains('(') {
                break;
            }
        }
        if methods.is_empty() {
            continue;
        }
        let text = code.text();
        let line = text[..f.kw]
            .rfind("path(")
            .map_or_else(|| file.line_of(f.kw), |at| file.line_of(at));
        return Some((methods, path, line));
    }
    None
}

/// The `params(…)` of a `#[utoipa::path]`: `params(ListQuery)` (the
/// fields of an `IntoParams` struct, in the place its
/// `#[into_params(parameter_in = …)]` names; query when it names none)
/// and `params(("id" = u64, Path, description = "…"))`.
fn utoipa_params(code: &Code, f: &FnDecl, out: &mut FnFacts) {
    let Some(attr) = items::attrs_before(code, f.kw)
        .into_iter()
        .find(|a| a.starts_with("utoipa::path(") || a.starts_with("path("))
    else {
        return;
    };
    let Some(at) = attr.find(",params(") else {
        return;
    };
    let inner = &attr[at + ",params(".len()..];
    for item in split_top(inner) {
        if let Some(tuple) = item.strip_prefix('(') {
            let parts = split_top(tuple);
            let Some(name) = parts.first().and_then(|p| p.split('"').nth(1)) else {
                continue;
            };
            let kind =
                parts
                    .iter()
                    .skip(1)
                    .find_map(|p| match p.rsplit("::").next().unwrap_or("") {
                        "Path" => Some("path"),
                        "Query" => Some("query"),
                        "Header" => Some("header"),
                        "Cookie" => Some("cookie"),
                        _ => None,
                    });
            if let Some(kind) = kind {
                let entry = (kind.to_string(), name.to_string());
                if !out.direct.contains(&entry) {
                    out.direct.push(entry);
                }
            }
        } else if item.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let ty = items::type_name(item);
            if is_ident(&ty) {
                out.bodies.push(("params".to_string(), ty));
            }
        }
    }
}

/// Top-level comma-separated items of `s` up to the `)` closing it.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut in_str = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => in_str = !in_str,
            _ if in_str => {}
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' if depth > 0 => depth -= 1,
            ')' => {
                out.push(&s[start..i]);
                return out.into_iter().filter(|p| !p.is_empty()).collect();
            }
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out.into_iter().filter(|p| !p.is_empty()).collect()
}

/// A function returning a `Router` built by another function:
/// `fn new_router(&self) -> Router<S> { crate::api::new_v1_router() }`.
fn tail_router_call(code: &Code, f: &FnDecl) -> Option<Target> {
    let sig = code.slice(f.kw..f.body.start);
    let ret = &sig[sig.rfind("->")?..];
    if !ret.contains("Router") {
        return None;
    }
    let inner_end = f.body.end.checked_sub(1)?;
    let inner = code.slice(f.body.start + 1..inner_end);
    let stmt = inner.rfind([';', '}', '{']).map_or(0, |i| i + 1);
    let start = code.skip_ws(f.body.start + 1 + stmt);
    let (seg, end) = primary(code, start)?;
    if seg.args.is_none() || is_router_new(&seg.path) || code.skip_ws(end) != inner_end {
        return None;
    }
    match call_target(&seg.path) {
        t @ Target::Call { .. } => Some(t),
        _ => None,
    }
}

/// `let [mut] name[: T] = path::call(…)…;` statements of `f` binding a
/// variable that is not a router built here.
fn call_lets(code: &Code, f: &FnDecl, lets: &[usize], facts: &FnFacts) -> Vec<(String, Target)> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for &at in lets {
        let mut i = code.skip_ws(at + 3);
        if code.text()[i..].starts_with("mut ") {
            i = code.skip_ws(i + 3);
        }
        let s = i;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        let name = &code.text()[s..i];
        if !is_ident(name) || facts.routers.iter().any(|r| r.name == name) {
            continue;
        }
        // Skip a type annotation up to `=` on the same statement.
        let mut j = i;
        while j < bytes.len() && j < f.body.end && !matches!(bytes[j], b'=' | b';' | b'{') {
            j += 1;
        }
        if bytes.get(j) != Some(&b'=') || bytes.get(j + 1) == Some(&b'=') {
            continue;
        }
        let Some((seg, _)) = primary(code, j + 1) else {
            continue;
        };
        if seg.args.is_none() || is_router_new(&seg.path) {
            continue;
        }
        if let t @ Target::Call { .. } = call_target(&seg.path) {
            out.push((name.to_string(), t));
        }
    }
    out
}

/// Is `o` inside a nested `fn` of `f` (scanned on its own)?
pub(crate) fn nested_fn(code: &Code, f: &FnDecl, o: usize) -> bool {
    code.find_word("fn")
        .filter(|&at| f.body.start < at && at < o)
        .any(|at| {
            code.text()[at..]
                .find('{')
                .and_then(|b| code.matching(at + b))
                .is_some_and(|c| o < c)
        })
}

pub(crate) fn tail_ident(code: &Code, body: Range<usize>) -> Option<String> {
    let inner = code
        .slice(body.start + 1..body.end.saturating_sub(1))
        .trim_end();
    let start = inner
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(0);
    let ident = &inner[start..];
    let before = inner[..start].trim_end();
    (is_ident(ident) && (before.ends_with(';') || before.ends_with('}') || before.is_empty()))
        .then(|| ident.to_string())
}

/// `let app = <chain>` / `app = <chain>`: the variable.
pub(crate) fn binding(code: &Code, start: usize) -> Option<String> {
    let text = code.text();
    let before = text[..start].trim_end();
    let eq = before.strip_suffix('=')?;
    if eq.ends_with(['=', '!', '<', '>']) {
        return None;
    }
    let stmt_start = eq.rfind([';', '{', '}']).map(|i| i + 1).unwrap_or(0);
    let stmt = eq[stmt_start..].trim();
    let stmt = stmt.strip_prefix("let ").unwrap_or(stmt).trim_start();
    let stmt = stmt.strip_prefix("mut ").unwrap_or(stmt).trim_start();
    let name: String = stmt
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    is_ident(&name).then_some(name)
}

/// Walk back from the `.` of a chained call to the start of the chain.
fn chain_start(code: &Code, dot: usize) -> usize {
    let bytes = code.text().as_bytes();
    let mut i = dot;
    loop {
        let mut j = i;
        while j > 0 && bytes[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        // A primary: path segments, generics, call parens.
        let mut k = j;
        loop {
            if k > 0 && bytes[k - 1] == b')' {
                match open_of(code, k - 1) {
                    Some(o) => k = o,
                    None => break,
                }
            } else if k > 0 && bytes[k - 1] == b'>' {
                match angle_open(bytes, k - 1) {
                    Some(o) => k = o,
                    None => break,
                }
            } else if k > 0 && is_ident_byte(bytes[k - 1]) {
                while k > 0 && is_ident_byte(bytes[k - 1]) {
                    k -= 1;
                }
            } else if k > 1 && bytes[k - 1] == b':' && bytes[k - 2] == b':' {
                k -= 2;
            } else if k > 0 && bytes[k - 1] == b'?' {
                k -= 1;
            } else {
                break;
            }
        }
        if k == j {
            return i;
        }
        let mut m = k;
        while m > 0 && bytes[m - 1].is_ascii_whitespace() {
            m -= 1;
        }
        if m > 0 && bytes[m - 1] == b'.' {
            i = m - 1;
            continue;
        }
        return k;
    }
}

fn open_of(code: &Code, close: usize) -> Option<usize> {
    let bytes = code.text().as_bytes();
    let mut depth = 0i32;
    for i in (0..=close).rev() {
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn angle_open(bytes: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0i32;
    for i in (0..=close).rev() {
        match bytes[i] {
            b'>' => depth += 1,
            b'<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

pub enum Root {
    New,
    Var(String),
    Call(Target),
}

/// One `.name(args)` link or the primary of a chain.
pub struct Seg {
    /// Path text without generics, e.g. `Router::new`, `route`.
    pub path: String,
    pub at: usize,
    pub args: Option<Range<usize>>,
}

/// Parse a primary (`a::b::<T>::c(args)`) at `i`.
pub(crate) fn primary(code: &Code, i: usize) -> Option<(Seg, usize)> {
    let bytes = code.text().as_bytes();
    let at = code.skip_ws(i);
    let mut k = at;
    let mut path = String::new();
    loop {
        let s = k;
        while k < bytes.len() && is_ident_byte(bytes[k]) {
            k += 1;
        }
        if k == s {
            return None;
        }
        path.push_str(&code.text()[s..k]);
        let mut n = k;
        if bytes.get(n) == Some(&b':') && bytes.get(n + 1) == Some(&b':') {
            n += 2;
            if bytes.get(n) == Some(&b'<') {
                n = items::angle_end(bytes, n)? + 1;
                if bytes.get(n) == Some(&b':') && bytes.get(n + 1) == Some(&b':') {
                    n += 2;
                } else {
                    k = n;
                    break;
                }
            }
            path.push_str("::");
            k = n;
            continue;
        }
        break;
    }
    let mut args = None;
    let p = code.skip_ws(k);
    if bytes.get(p) == Some(&b'(') {
        let close = code.matching(p)?;
        args = Some(p..close);
        k = close + 1;
    }
    Some((Seg { path, at, args }, k))
}

/// Parse the chain at `start`: its root and operations; returns the end.
pub(crate) fn parse_chain(
    file: &SourceFile,
    code: &Code,
    start: usize,
    flavor: Flavor,
) -> (Root, Vec<Op>, usize) {
    let bytes = code.text().as_bytes();
    let Some((first, mut end)) = primary(code, start) else {
        return (Root::New, Vec::new(), start + 1);
    };
    if let Some(scope_root) = flavor.scope_root {
        if let Some(r) = scope_root(file, code, &first, end) {
            return r;
        }
    }
    let root = if is_router_new(&first.path) {
        Root::New
    } else if first.args.is_none() {
        Root::Var(first.path.rsplit("::").next().unwrap_or("").to_string())
    } else {
        Root::Call(call_target(&first.path))
    };
    let mut ops = Vec::new();
    let mut segs = Vec::new();
    loop {
        let mut p = code.skip_ws(end);
        while bytes.get(p) == Some(&b'?') {
            p = code.skip_ws(p + 1);
        }
        if bytes.get(p) != Some(&b'.') {
            break;
        }
        let Some((seg, e)) = primary(code, p + 1) else {
            break;
        };
        end = e;
        let args = seg
            .args
            .clone()
            .map(|a| code.args(a.start))
            .unwrap_or_default();
        let line = file.line_of(seg.at);
        let path_of = |i: usize| args.get(i).and_then(|r| parse_str(code, r.clone()));
        if flavor.chain_segments.is_some() {
            segs.push((seg, args, line));
            continue;
        }
        if let Some(chain_op) = flavor.chain_op {
            if let Some(op) = chain_op(file, code, &seg, &args, line) {
                ops.push(op);
            }
            continue;
        }
        match seg.path.as_str() {
            "route" | "route_service" | "at" | "api_route" | "api_route_with" => {
                let Some(path) = path_of(0) else { continue };
                let methods = if seg.path != "route_service" {
                    args.get(1)
                        .map(|r| method_router(code, r.clone()))
                        .unwrap_or_default()
                } else {
                    vec![("GET".to_string(), None)]
                };
                // Poem `.at("/x", handler)`: an endpoint taking every method.
                let methods = match (methods.is_empty(), seg.path.as_str(), args.get(1)) {
                    (true, "at", Some(r)) => {
                        let h = target(file, code, r.start, flavor);
                        if matches!(h, Target::Local(_) | Target::Call { .. }) {
                            ANY.iter()
                                .map(|m| (m.to_string(), Some(h.clone())))
                                .collect()
                        } else {
                            methods
                        }
                    }
                    _ => methods,
                };
                ops.push(Op::Route {
                    path,
                    line,
                    query: Vec::new(),
                    extract: Vec::new(),
                    methods,
                });
            }
            "nest" | "nest_service" | "nest_no_strip" | "nest_api_service" => {
                let Some(path) = path_of(0) else { continue };
                let target = args
                    .get(1)
                    .map(|r| target(file, code, r.start, flavor))
                    .unwrap_or(Target::Other);
                ops.push(Op::Nest {
                    path,
                    line,
                    target,
                    service: seg.path == "nest_service",
                });
            }
            "merge" => {
                if let Some(r) = args.first() {
                    ops.push(Op::Merge(target(file, code, r.start, flavor)));
                }
            }
            "routes" => {
                // `routes!(a::get_item, update_item)`.
                let Some(r) = args.first() else { continue };
                let text = code.slice(r.clone());
                let Some(bang) = text.find('!') else { continue };
                if text[..bang].trim().rsplit("::").next() != Some("routes") {
                    continue;
                }
                let open = code.skip_ws(r.start + bang + 1);
                if !matches!(bytes.get(open), Some(b'(') | Some(b'[') | Some(b'{')) {
                    continue;
                }
                let handlers: Vec<Target> = code
                    .args(open)
                    .iter()
                    .map(|a| target(file, code, a.start, flavor))
                    .filter(|t| matches!(t, Target::Call { .. } | Target::Local(_)))
                    .collect();
                if !handlers.is_empty() {
                    ops.push(Op::Handlers(handlers));
                }
            }
            "layer" | "route_layer" => {
                let layers = middleware_fns(file, code, &args, flavor);
                if !layers.is_empty() {
                    ops.push(Op::Layer(layers));
                }
            }
            _ => {}
        }
    }
    if let Some(chain_segments) = flavor.chain_segments {
        ops = chain_segments(file, code, &first, &segs);
    }
    (root, ops, end)
}

/// The functions `from_fn(f)` / `from_fn_with_state(state, f)` calls in a
/// `.layer(…)` argument wrap (also inside `option_layer(Some(…))` or a
/// `ServiceBuilder`).
fn middleware_fns(
    file: &SourceFile,
    code: &Code,
    args: &[Range<usize>],
    flavor: Flavor,
) -> Vec<Target> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for a in args {
        for at in code
            .find_word_in("from_fn", a.clone())
            .chain(code.find_word_in("from_fn_with_state", a.clone()))
        {
            let name_end = at + code.ident_at(at).map_or(0, str::len);
            let open = code.skip_ws(name_end);
            if bytes.get(open) != Some(&b'(') {
                continue;
            }
            let Some(last) = code.args(open).into_iter().last() else {
                continue;
            };
            let t = target(file, code, code.skip_ws(last.start), flavor);
            if matches!(t, Target::Call { .. } | Target::Local(_)) && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

fn is_router_new(path: &str) -> bool {
    let mut segs = path.rsplit("::");
    let last = segs.next().unwrap_or("");
    let prev = segs.next();
    (matches!(last, "new" | "default")
        && matches!(
            prev,
            Some("Router")
                | Some("App")
                | Some("Route")
                | Some("ApiRouter")
                | Some("OpenApiRouter")
        ))
        || (last == "with_openapi" && prev == Some("OpenApiRouter"))
        || (matches!(last, "build" | "custom") && matches!(prev, Some("rocket") | Some("Rocket")))
        || (matches!(last, "new" | "with_state") && prev == Some("tide"))
        || (matches!(last, "with_path" | "with_hoop" | "with_filter") && prev == Some("Router"))
        || (last == "new" && prev == Some("Routes"))
        || (matches!(last, "with_default_routes" | "empty") && prev == Some("AppRoutes"))
}

pub(crate) fn call_target(path: &str) -> Target {
    let segs: Vec<&str> = path
        .split("::")
        .filter(|s| !matches!(*s, "crate" | "self" | "super"))
        .collect();
    let name = segs.last().copied().unwrap_or("").to_string();
    // The whole module path (`routes::profiles`): the linker prefers the
    // module ending with all of it over one ending with its last segment.
    let qual = (segs.len() > 1).then(|| segs[..segs.len() - 1].join("::"));
    Target::Call { qual, name }
}

/// A router or handler expression: `api::routes()`, `routes(state.clone())`,
/// `users`, `Router::new().route(…)`, `h.with_state(s)`.
pub(crate) fn target(file: &SourceFile, code: &Code, at: usize, flavor: Flavor) -> Target {
    let at = code.skip_ws(at);
    let at = if code.text().as_bytes().get(at) == Some(&b'&') {
        at + 1
    } else {
        at
    };
    let Some((seg, _)) = primary(code, at) else {
        return Target::Other;
    };
    let last = seg.path.rsplit("::").next().unwrap_or("");
    if is_router_new(&seg.path) || flavor.scope_constructors.contains(&last) {
        let (_, ops, _) = parse_chain(file, code, at, flavor);
        return Target::Inline(ops);
    }
    match seg.args {
        Some(_) => call_target(&seg.path),
        None if seg.path.contains("::") => call_target(&seg.path),
        None => match method_on_value(code, at) {
            Some(m) if flavor.utoipa => Target::Method(m),
            _ => Target::Local(seg.path),
        },
    }
}

/// Methods that hand back the router they are called on.
const SAME_ROUTER: &[&str] = &[
    "clone",
    "into",
    "with_state",
    "layer",
    "route_layer",
    "boxed",
    "to_owned",
    "finish_api",
    "finish_api_with",
];

/// `value.field.method(…)`: the first method called on a value, unless it
/// hands the same router back (`router.clone()`, `api.with_state(s)`).
fn method_on_value(code: &Code, at: usize) -> Option<String> {
    let bytes = code.text().as_bytes();
    let mut i = at;
    loop {
        let s = i;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        if i == s {
            return None;
        }
        let name = &code.text()[s..i];
        let p = code.skip_ws(i);
        match bytes.get(p) {
            Some(b'(') if s > at => {
                return (!SAME_ROUTER.contains(&name)).then(|| name.to_string());
            }
            Some(b'.') => i = code.skip_ws(p + 1),
            _ => return None,
        }
    }
}

/// `get(h).post(h2)`, `routing::get(h)`, `on(MethodFilter::GET | …, h)`,
/// `any(h)`, `get_service(svc)`, `…layer(…)`.
pub(crate) fn method_router(code: &Code, range: Range<usize>) -> Vec<(String, Option<Target>)> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    let mut i = range.start;
    let file = SourceFile::new("", "");
    while i < range.end {
        let Some((seg, end)) = primary(code, i) else {
            break;
        };
        let name = seg.path.rsplit("::").next().unwrap_or("");
        let base = name.strip_suffix("_service").unwrap_or(name);
        // aide's documented method routers: `get_with(h, docs)`.
        let base = base.strip_suffix("_with").unwrap_or(base);
        let args = seg
            .args
            .clone()
            .map(|a| code.args(a.start))
            .unwrap_or_default();
        let handler = |idx: usize| {
            args.get(idx)
                .map(|r| target(&file, code, r.start, &crate::axum::FRAMEWORK))
        };
        if METHODS.contains(&base) {
            out.push((base.to_ascii_uppercase(), handler(0)));
        } else if base == "any" {
            let h = handler(0);
            out.extend(ANY.iter().map(|m| (m.to_string(), h.clone())));
        } else if base == "on" {
            let filter = args
                .first()
                .map(|r| compact(code.slice(r.clone())))
                .unwrap_or_default();
            let h = handler(1);
            for m in filter.split('|') {
                let m = m.rsplit("::").next().unwrap_or("").to_ascii_uppercase();
                if METHODS.contains(&m.to_ascii_lowercase().as_str()) {
                    out.push((m, h.clone()));
                }
            }
        }
        let p = code.skip_ws(end);
        if bytes.get(p) != Some(&b'.') || p >= range.end {
            break;
        }
        i = p + 1;
    }
    out
}

/// A handler's parameters with tuple extractors spread (`(form, state):
/// (Json<T>, Data<S>)`, Actix's older style): (pattern, type) pairs.
fn spread_params(f: &FnDecl) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in &f.params {
        let (Some(pats), Some(tys)) = (p.pattern.strip_prefix('('), p.ty.strip_prefix('(')) else {
            out.push((p.pattern.clone(), p.ty.clone()));
            continue;
        };
        let pats = split_top(pats);
        for (i, ty) in split_top(tys).into_iter().enumerate() {
            let pat = pats.get(i).map_or("", |s| s.trim());
            out.push((pat.to_string(), ty.to_string()));
        }
    }
    out
}

/// Extractors in the signature and what the body reads from `HeaderMap`,
/// `CookieJar` and `Multipart` parameters.
fn extractors(code: &Code, f: &FnDecl, out: &mut FnFacts) {
    for (pattern, ty) in spread_params(f) {
        let ty = ty.as_str();
        for (outer, kind) in [
            ("Query", "query"),
            ("Json", "json"),
            ("Form", "form"),
            ("Path", "path"),
        ] {
            if let Some(inner) = generic_of(ty, outer).or_else(|| wrapper_of(ty, outer)) {
                out.bodies.push((kind.to_string(), items::type_name(inner)));
            }
        }
        if let Some(inner) = generic_of(ty, "TypedHeader") {
            let name = items::type_name(inner);
            out.direct.push(("header".into(), header_name(&name)));
        }
        let var = pattern.trim_start_matches("mut ").trim();
        let named = items::type_name(ty);
        let last = named.strip_prefix("mut").unwrap_or(&named);
        match last {
            "HeaderMap" if is_ident(var) => {
                for name in reads(
                    code,
                    f.body.clone(),
                    var,
                    &["get", "get_all", "contains_key"],
                ) {
                    out.direct.push(("header".into(), name));
                }
                // `headers.get(X_TENANT_HEADER)`: the application's own
                // constant, resolved in the link step.
                for name in const_reads(
                    code,
                    f.body.clone(),
                    var,
                    &["get", "get_all", "contains_key"],
                ) {
                    out.direct.retain(|(k, n)| {
                        k != "header" || *n != name.to_ascii_lowercase().replace('_', "-")
                    });
                    out.direct
                        .push(("header".into(), format!("{CONST_NAME}{name}")));
                }
            }
            "CookieJar" | "PrivateCookieJar" | "SignedCookieJar" if is_ident(var) => {
                for name in reads(
                    code,
                    f.body.clone(),
                    var,
                    &["get", "get_private", "get_pending"],
                ) {
                    out.direct.push(("cookie".into(), name));
                }
            }
            "Multipart" => out.direct.push(("file".into(), "file".into())),
            "Request" if is_ident(var) => {
                for name in reads(code, f.body.clone(), var, &["header"]) {
                    out.direct.push(("header".into(), name));
                }
                for name in reads(code, f.body.clone(), var, &["cookie"]) {
                    out.direct.push(("cookie".into(), name));
                }
                for (method, kind) in [
                    ("query", "query"),
                    ("body_json", "json"),
                    ("body_form", "form"),
                ] {
                    for ty in typed_reads(code, f.body.clone(), var, method) {
                        out.bodies.push((kind.into(), ty));
                    }
                }
            }
            "HttpRequest" if is_ident(var) => {
                let headers = format!("{var}.headers()");
                for name in reads(code, f.body.clone(), &headers, &["get", "contains_key"]) {
                    out.direct.push(("header".into(), name));
                }
                for name in reads(code, f.body.clone(), var, &["cookie"]) {
                    out.direct.push(("cookie".into(), name));
                }
            }
            _ => {}
        }
    }
}

/// The generic argument of an application's own extractor wrapping a
/// standard one, named after it (`ValidatedJson<T>`, `ValidatedQuery<T>`).
fn wrapper_of<'t>(ty: &'t str, outer: &str) -> Option<&'t str> {
    let open = ty.find('<')?;
    let head = ty[..open].rsplit("::").next()?;
    let prefix = head.strip_suffix(outer)?;
    if !prefix.starts_with(|c: char| c.is_ascii_uppercase())
        || !prefix.ends_with(|c: char| c.is_ascii_lowercase())
    {
        return None;
    }
    ty[open + 1..].strip_suffix('>')
}

/// Marks a parameter name that is a constant's name (resolved at link).
pub(crate) const CONST_NAME: &str = "\u{1}const:";

/// `var.method(NAME)` / `var.method(crate::x::NAME)` first arguments that
/// are the application's constants (not `header::NAME` / `http::header::NAME`).
fn const_reads(code: &Code, body: Range<usize>, var: &str, methods: &[&str]) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for at in code.find_word_in(var, body) {
        let dot = code.skip_ws(at + var.len());
        if bytes.get(dot) != Some(&b'.') {
            continue;
        }
        let Some(m) = code.ident_at(dot + 1) else {
            continue;
        };
        let open = code.skip_ws(code.skip_ws(dot + 1) + m.len());
        if !methods.contains(&m) || bytes.get(open) != Some(&b'(') {
            continue;
        }
        let Some(arg) = code.args(open).into_iter().next() else {
            continue;
        };
        let text = compact(code.slice(arg));
        let mut segs = text.rsplit("::");
        let name = segs.next().unwrap_or("");
        if segs.next() == Some("header") {
            continue;
        }
        if !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            && !out.iter().any(|n| n == name)
        {
            out.push(name.to_string());
        }
    }
    out
}

/// First arguments of `var.method("name")` / `var.method(header::NAME)`.
pub(crate) fn reads(code: &Code, body: Range<usize>, var: &str, methods: &[&str]) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for at in code.find_word_in(var, body.clone()) {
        let dot = code.skip_ws(at + var.len());
        if bytes.get(dot) != Some(&b'.') {
            continue;
        }
        let Some(m) = code.ident_at(dot + 1) else {
            continue;
        };
        if !methods.contains(&m) {
            continue;
        }
        let open = code.skip_ws(code.skip_ws(dot + 1) + m.len());
        if bytes.get(open) != Some(&b'(') {
            continue;
        }
        let Some(arg) = code.args(open).into_iter().next() else {
            continue;
        };
        if let Some(lit) = code.string_at(arg.start) {
            out.push(lit.value);
        } else {
            let text = compact(code.slice(arg));
            let name = text.rsplit("::").next().unwrap_or("");
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
                out.push(name.to_ascii_lowercase().replace('_', "-"));
            }
        }
    }
    out
}

/// Types read with `var.method::<T>()` or `let x: T = var.method()`.
pub(crate) fn typed_reads(code: &Code, body: Range<usize>, var: &str, method: &str) -> Vec<String> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_word_in(var, body.clone()) {
        let dot = code.skip_ws(at + var.len());
        if bytes.get(dot) != Some(&b'.') || code.ident_at(dot + 1) != Some(method) {
            continue;
        }
        let after = code.skip_ws(code.skip_ws(dot + 1) + method.len());
        if text[after..].starts_with("::<") {
            if let Some(close) = items::angle_end(bytes, after + 2) {
                out.push(items::type_name(&text[after + 3..close]));
            }
            continue;
        }
        // `let name: T = var.method()`
        let before = text[body.start..at].trim_end();
        let Some(stmt) = before.strip_suffix('=') else {
            continue;
        };
        let from = stmt.rfind([';', '{', '}']).map(|i| i + 1).unwrap_or(0);
        let stmt = stmt[from..].trim();
        if let Some((_, ty)) = stmt.strip_prefix("let ").and_then(|s| s.split_once(':')) {
            out.push(items::type_name(ty));
        }
    }
    out
}

/// `UserAgent` → `User-Agent`, `Authorization` → `Authorization`.
pub fn header_name(ty: &str) -> String {
    let mut out = String::new();
    for (i, c) in ty.chars().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            out.push('-');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(src: &str, flavor: Flavor) -> FileFacts {
        scan_file(&SourceFile::new("svc/src/routes/api.rs", src), flavor)
    }

    #[test]
    fn router_variables_returns_and_nesting() {
        let f = scan(
            "fn app() -> Router {\n let api = Router::new().route(\"/a\", get(a).post(b));\n let mut app = Router::new().nest(\"/api\", api);\n app = app.merge(other::routes());\n app\n}",
            &crate::axum::FRAMEWORK,
        );
        assert_eq!(
            (f.krate.as_str(), f.module.as_str()),
            ("svc", "routes::api")
        );
        let app = &f.fns[0];
        assert_eq!(app.returns.as_deref(), Some("app"));
        let names: Vec<_> = app.routers.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["api", "app"]);
        match &app.routers[0].ops[0] {
            Op::Route { methods, line, .. } => {
                assert_eq!(*line, 2);
                let ms: Vec<_> = methods.iter().map(|(m, _)| m.as_str()).collect();
                assert_eq!(ms, ["GET", "POST"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            app.routers[1].ops[1],
            Op::Merge(Target::Call {
                qual: Some("other".into()),
                name: "routes".into()
            })
        );
    }

    #[test]
    fn tail_chain_on_a_parameter_is_returned() {
        let f = scan(
            "fn users(router: Router) -> Router {\n router.route(\"/u\", get(u))\n}",
            &crate::axum::FRAMEWORK,
        );
        assert_eq!(f.fns[0].returns.as_deref(), Some("router"));
        let f = scan(
            "fn users(router: Router) -> Router {\n router.route(\"/u\", get(u));\n Router::new()\n}",
            &crate::axum::FRAMEWORK,
        );
        assert_eq!(f.fns[0].returns, None);
    }

    #[test]
    fn non_ascii_tails_and_broken_code_do_not_panic() {
        let f = scan(
            "fn a() -> String {\n let s = \"é\"; s + \"ü\" }\nfn b() { x.route(",
            &crate::axum::FRAMEWORK,
        );
        assert_eq!(f.fns[0].returns, None);
        let f = scan("fn d() { a → }", &crate::axum::FRAMEWORK);
        assert_eq!(f.fns[0].returns, None);
        let f = scan(
            "fn café() { let straße = 1; straße }",
            &crate::axum::FRAMEWORK,
        );
        assert_eq!(f.fns[0].returns.as_deref(), Some("straße"));
        for flavor in [
            &crate::axum::FRAMEWORK,
            &crate::actix_web::FRAMEWORK,
            &crate::rocket::FRAMEWORK,
            &crate::poem::FRAMEWORK,
        ] {
            scan(
                "#[get(]\nfn h() { Router::new().route(\"/x\", get(h)).nest( }",
                flavor,
            );
        }
    }

    #[test]
    fn method_filters_and_commented_routes() {
        let f = scan(
            "fn r() -> Router {\n Router::new()\n // .route(\"/gone\", get(x))\n .route(\"/m\", on(MethodFilter::PUT | MethodFilter::DELETE, h))\n}",
            &crate::axum::FRAMEWORK,
        );
        let ops = &f.fns[0].routers[0].ops;
        assert_eq!(ops.len(), 1);
        let Op::Route { methods, .. } = &ops[0] else {
            panic!()
        };
        let ms: Vec<_> = methods.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(ms, ["PUT", "DELETE"]);
    }

    #[test]
    fn extractor_reads() {
        let f = scan(
            "async fn h(Query(q): Query<P>, headers: HeaderMap, jar: CookieJar, TypedHeader(ua): TypedHeader<UserAgent>) { headers.get(\"x-a\"); headers.get(header::CONTENT_TYPE); jar.get(\"sid\"); }",
            &crate::axum::FRAMEWORK,
        );
        let h = &f.fns[0];
        assert_eq!(h.bodies, [("query".to_string(), "P".to_string())]);
        let direct: Vec<_> = h.direct.iter().map(|(k, n)| format!("{k}:{n}")).collect();
        assert_eq!(
            direct,
            [
                "header:x-a",
                "header:content-type",
                "cookie:sid",
                "header:User-Agent"
            ]
        );
    }
}
