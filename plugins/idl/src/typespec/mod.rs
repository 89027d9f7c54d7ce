//! TypeSpec HTTP services (`.tsp`, `@typespec/http`): operations with
//! their routes, verbs and parameters.
//!
//! - Route: the path of the service's `@server("https://host/base", …)`
//!   (a leading `{endpoint}` parameter is the host), then the
//!   `@route("…")` of every enclosing namespace (file-level
//!   `namespace A;` and blocks, dotted names `namespace A.B` nesting A then
//!   B, across files), interface and the operation, joined in order. A
//!   `@path` parameter missing from the route is appended as `/{name}`, as
//!   the HTTP library does.
//! - Verb: `@get`, `@post`, `@put`, `@patch`, `@delete`, `@head`; without
//!   one, `POST` when the operation has a body and `GET` otherwise.
//! - Params: `@path` → `path`, `@query` → `query`, `@header` → `header`
//!   (the decorator's name, else the parameter name in kebab-case:
//!   `contentType` → `content-type`), `@cookie` → `cookie`, `@body` /
//!   `@bodyRoot` of a model type → that model's properties as `json` (a
//!   scalar body names no field), undecorated parameters → `json` body
//!   fields; spreads `...Model` bring the model's properties with their own
//!   decorators (`model` `extends` and `is` followed across files).
//!   `@statusCode`, `@header` on responses and return types are not inputs.
//! - Operations in `interface` blocks (with or without `op`) count;
//!   templated operations and interfaces (`op x<T>`), and `op x is
//!   Template<…>` aliases (their parameters live in the template), are not
//!   endpoints.
//! - Location: the operation's name.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::url::url_path;

use crate::tokens::{lex, Parser, Tok};

pub struct TypeSpec;

/// TypeSpec sources: an HTTP-library import or decorator.
pub const DETECT_REGEX: &str = r#"@typespec/http|@route\s*\(|\bop\s+\w+\s*\("#;

/// Deepest model spread/extends chain followed.
const MAX_DEPTH: usize = 8;

impl Analyzer for TypeSpec {
    fn tech(&self) -> Tech {
        Tech::new("typespec", "Specification", "TypeSpec")
            .specification()
            .aliases(["tsp", "cadl"])
            .files(["*.tsp"])
            .detect(Detect::files(["*.tsp"]).regex([DETECT_REGEX]))
            .supports(Supports {
                method: true,
                query: true,
                path: true,
                body: true,
                header: true,
                cookie: true,
                websocket: false,
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let tokens = lex(&file.content, b"$.");
        out.fact(&parse(&tokens, file));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let units: Vec<Unit> = facts.all();
        let mut routes: HashMap<&str, String> = HashMap::new();
        let mut models: HashMap<&str, &Model> = HashMap::new();
        for unit in &units {
            for (ns, route) in &unit.namespace_routes {
                let joined = join_route(routes.get(ns.as_str()).map_or("", String::as_str), route);
                routes.insert(ns.as_str(), joined);
            }
            for m in &unit.models {
                models.entry(m.name.as_str()).or_insert(m);
            }
        }
        let mut out = Vec::new();
        for op in units.iter().flat_map(|u| u.operations.iter()) {
            out.push(op.endpoint(&routes, &models));
        }
        Ok(out)
    }
}

#[derive(Serialize, Deserialize, Default)]
struct Unit {
    /// Fully qualified namespace → its `@route`.
    namespace_routes: Vec<(String, String)>,
    models: Vec<Model>,
    operations: Vec<Operation>,
}

#[derive(Serialize, Deserialize, Clone, Default)]
struct Model {
    name: String,
    props: Vec<Prop>,
    /// `extends`, `is` and `...` spreads.
    bases: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone, Default)]
struct Prop {
    name: String,
    /// The HTTP decorator (`path`, `query`, …, `body`) and its name
    /// argument.
    binding: Option<(String, String)>,
    /// The type's first name (`Pet` for `Pet[]`, `Pet | null`).
    ty: String,
    /// `...Model`: this entry stands for the model's properties.
    spread: bool,
}

#[derive(Serialize, Deserialize)]
struct Operation {
    namespace: String,
    /// `@route`s of the interface and the operation.
    routes: Vec<String>,
    verb: Option<String>,
    params: Vec<Prop>,
    path: String,
    line: u32,
}

const HTTP_BINDINGS: [&str; 7] = [
    "path",
    "query",
    "header",
    "cookie",
    "body",
    "bodyRoot",
    "multipartBody",
];
const VERBS: [&str; 6] = ["get", "post", "put", "patch", "delete", "head"];

fn join_route(base: &str, part: &str) -> String {
    let part = part.trim();
    if part.is_empty() {
        return base.to_string();
    }
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        part.trim_start_matches('/')
    )
}

/// The path of a `@server` URL; a leading `{endpoint}` parameter is the
/// host and dropped.
fn server_path(url: &str) -> String {
    let url = url.trim();
    let rest = match url.strip_prefix('{') {
        Some(after) => after.find('}').map_or("", |i| &after[i + 1..]),
        None => url,
    };
    let path = url_path(rest);
    path.trim_end_matches('/').to_string()
}

fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The properties of a model with its bases and spreads, flattened.
fn flatten<'a>(
    props: &'a [Prop],
    models: &HashMap<&str, &'a Model>,
    depth: usize,
    out: &mut Vec<&'a Prop>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for p in props {
        if p.spread {
            if let Some(m) = models.get(p.ty.as_str()) {
                model_props(m, models, depth + 1, out);
            }
        } else {
            out.push(p);
        }
    }
}

fn model_props<'a>(
    m: &'a Model,
    models: &HashMap<&str, &'a Model>,
    depth: usize,
    out: &mut Vec<&'a Prop>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for base in &m.bases {
        if let Some(b) = models.get(base.as_str()) {
            model_props(b, models, depth + 1, out);
        }
    }
    flatten(&m.props, models, depth, out);
}

impl Operation {
    fn endpoint(&self, routes: &HashMap<&str, String>, models: &HashMap<&str, &Model>) -> Endpoint {
        let mut route = String::new();
        let mut qualified = String::new();
        for part in self.namespace.split('.').filter(|s| !s.is_empty()) {
            if !qualified.is_empty() {
                qualified.push('.');
            }
            qualified.push_str(part);
            if let Some(r) = routes.get(qualified.as_str()) {
                route = join_route(&route, r);
            }
        }
        for r in &self.routes {
            route = join_route(&route, r);
        }
        let mut params = Vec::new();
        flatten(&self.params, models, 0, &mut params);
        let mut out_params = Vec::new();
        let mut has_body = false;
        for p in params {
            let (kind, arg) = match &p.binding {
                Some((k, a)) => (k.as_str(), a.as_str()),
                None => ("", ""),
            };
            let name = if arg.is_empty() { p.name.as_str() } else { arg };
            match kind {
                "path" => {
                    if !route.contains(&format!("{{{name}}}")) {
                        route = join_route(&route, &format!("{{{name}}}"));
                    }
                    out_params.push(Param::path(name));
                }
                "query" => out_params.push(Param::query(name)),
                "header" => {
                    let header = if arg.is_empty() {
                        kebab(&p.name)
                    } else {
                        arg.to_string()
                    };
                    out_params.push(Param::header(header));
                }
                "cookie" => out_params.push(Param::cookie(name)),
                "body" | "bodyRoot" | "multipartBody" => {
                    has_body = true;
                    if let Some(m) = models.get(p.ty.as_str()) {
                        let mut fields = Vec::new();
                        model_props(m, models, 1, &mut fields);
                        for f in fields {
                            out_params.push(if kind == "multipartBody" {
                                Param::form(&f.name)
                            } else {
                                Param::json(&f.name)
                            });
                        }
                    }
                }
                "statusCode" => {}
                _ => {
                    has_body = true;
                    out_params.push(Param::json(&p.name));
                }
            }
        }
        let verb = self
            .verb
            .clone()
            .unwrap_or_else(|| if has_body { "post" } else { "get" }.to_string());
        let path = if route.is_empty() {
            "/".to_string()
        } else {
            route
        };
        Endpoint::new(verb.to_ascii_uppercase(), path)
            .params(out_params)
            .at_path(&self.path, self.line)
    }
}

/// `@name(args)` decorators: (last name segment, first string argument).
fn decorators(p: &mut Parser<'_>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while p.punct('@') {
        p.pos += 1;
        let Some(Tok::Ident(name)) = p.next() else {
            break;
        };
        let args = if p.punct('(') {
            p.balanced()
        } else {
            Vec::new()
        };
        let first = args.into_iter().find_map(|t| match t {
            Tok::Str(s) => Some(s),
            _ => None,
        });
        let short = name.rsplit('.').next().unwrap_or(&name).to_string();
        out.push((short, first.unwrap_or_default()));
    }
    out
}

/// Skip a type expression; returns its first name.
fn type_expr(p: &mut Parser<'_>) -> String {
    let mut first = String::new();
    loop {
        match p.next() {
            Some(Tok::Ident(name)) => {
                if first.is_empty() {
                    first = name.rsplit('.').next().unwrap_or(&name).to_string();
                }
            }
            Some(Tok::Str(_)) => {}
            Some(Tok::Punct('{' | '(')) => {
                p.pos -= 1;
                p.balanced();
            }
            _ => return first,
        }
        // Continuations: `[]`, `<…>`, `| X`, `& X`.
        loop {
            if p.punct('[') {
                p.balanced();
            } else if p.punct('<') {
                skip_angles(p);
            } else {
                break;
            }
        }
        if p.punct('|') || p.punct('&') {
            p.pos += 1;
            continue;
        }
        return first;
    }
}

/// Skip `<…>` (template parameters or arguments) when the parser is at `<`.
fn skip_angles(p: &mut Parser<'_>) {
    if !p.punct('<') {
        return;
    }
    let mut depth = 0usize;
    while let Some(t) = p.next() {
        match t {
            Tok::Punct('<') => depth += 1,
            Tok::Punct('>') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            Tok::Punct(';' | '{' | '}') => {
                p.pos -= 1;
                break;
            }
            _ => {}
        }
    }
}

/// Properties or parameters up to the closing `}` / `)` (the parser is
/// after the opener).
fn props(p: &mut Parser<'_>, close: char) -> Vec<Prop> {
    let mut out = Vec::new();
    while let Some(t) = p.peek().cloned() {
        if t == Tok::Punct(close) {
            p.pos += 1;
            break;
        }
        let decorators = decorators(p);
        match p.next() {
            Some(Tok::Ident(name)) => {
                if let Some(spread) = name.strip_prefix("...") {
                    out.push(Prop {
                        ty: spread.rsplit('.').next().unwrap_or(spread).to_string(),
                        spread: true,
                        ..Prop::default()
                    });
                    continue;
                }
                if p.punct('?') {
                    p.pos += 1;
                }
                if !p.punct(':') {
                    continue;
                }
                p.pos += 1;
                let ty = type_expr(p);
                if p.punct('=') {
                    p.pos += 1;
                    let _ = type_expr(p);
                }
                let binding = decorators
                    .into_iter()
                    .find(|(d, _)| HTTP_BINDINGS.contains(&d.as_str()) || d == "statusCode");
                out.push(Prop {
                    name,
                    binding,
                    ty,
                    spread: false,
                });
            }
            Some(Tok::Punct(c)) if c == close => break,
            Some(Tok::Punct('{' | '(' | '[')) => {
                p.pos -= 1;
                p.balanced();
            }
            Some(_) => {}
            None => break,
        }
    }
    out
}

/// A block namespace: its qualified name and the brace depth inside it.
struct Scope {
    namespace: String,
    depth: usize,
}

fn parse(tokens: &[(Tok, usize)], file: &SourceFile) -> Unit {
    let mut p = Parser { tokens, pos: 0 };
    let mut unit = Unit::default();
    let mut stack: Vec<Scope> = Vec::new();
    let mut file_namespace = String::new();
    let mut depth = 0usize;
    let current = |stack: &[Scope], file_namespace: &str| -> String {
        stack
            .last()
            .map_or_else(|| file_namespace.to_string(), |s| s.namespace.clone())
    };
    while p.pos < tokens.len() {
        let decos = decorators(&mut p);
        let route = decos
            .iter()
            .find(|(d, _)| d == "route")
            .map(|(_, r)| r.clone());
        let Some((tok, _)) = tokens.get(p.pos).cloned() else {
            break;
        };
        p.pos += 1;
        match tok {
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                while stack.last().is_some_and(|s| s.depth > depth) {
                    stack.pop();
                }
            }
            Tok::Punct('{') => depth += 1,
            Tok::Ident(keyword) => match keyword.as_str() {
                "import" | "using" | "alias" | "scalar" => {
                    while let Some(t) = p.next() {
                        if t == Tok::Punct(';') {
                            break;
                        }
                        if matches!(t, Tok::Punct('{')) {
                            p.pos -= 1;
                            p.balanced();
                        }
                    }
                }
                "namespace" => {
                    let Some(Tok::Ident(name)) = p.next() else {
                        continue;
                    };
                    let parent = current(&stack, &file_namespace);
                    let qualified = if parent.is_empty() {
                        name
                    } else {
                        format!("{parent}.{name}")
                    };
                    let server = decos
                        .iter()
                        .find(|(d, _)| d == "server")
                        .map(|(_, url)| server_path(url))
                        .filter(|p| !p.is_empty());
                    for prefix in server.into_iter().chain(route) {
                        unit.namespace_routes.push((qualified.clone(), prefix));
                    }
                    if p.punct(';') {
                        p.pos += 1;
                        file_namespace = qualified;
                    } else if p.punct('{') {
                        p.pos += 1;
                        depth += 1;
                        stack.push(Scope {
                            namespace: qualified,
                            depth,
                        });
                    }
                }
                "model" => {
                    let Some(Tok::Ident(name)) = p.next() else {
                        continue;
                    };
                    let mut bases = Vec::new();
                    // A templated model's `<T>` parameters are skipped.
                    skip_angles(&mut p);
                    while let Some(Tok::Ident(k)) = p.peek().cloned() {
                        if k == "extends" || k == "is" {
                            p.pos += 1;
                            bases.push(type_expr(&mut p));
                        } else {
                            break;
                        }
                    }
                    let mut fields = Vec::new();
                    if p.punct('{') {
                        p.pos += 1;
                        fields = props(&mut p, '}');
                    }
                    let short = name.rsplit('.').next().unwrap_or(&name).to_string();
                    unit.models.push(Model {
                        name: short,
                        props: fields,
                        bases,
                    });
                }
                "enum" | "union" => {
                    while let Some(t) = p.peek() {
                        if *t == Tok::Punct('{') {
                            p.balanced();
                            break;
                        }
                        p.pos += 1;
                    }
                }
                "interface" => {
                    let Some(Tok::Ident(_name)) = p.next() else {
                        continue;
                    };
                    let templated = p.punct('<');
                    while p.peek().is_some_and(|t| *t != Tok::Punct('{')) {
                        p.pos += 1;
                    }
                    if !p.punct('{') {
                        continue;
                    }
                    p.pos += 1;
                    let namespace = current(&stack, &file_namespace);
                    let base_routes: Vec<String> = route.into_iter().collect();
                    // Operations until the interface's `}`.
                    while let Some(t) = p.peek().cloned() {
                        if t == Tok::Punct('}') {
                            p.pos += 1;
                            break;
                        }
                        let decos = decorators(&mut p);
                        if p.peek() == Some(&Tok::Ident("op".into())) {
                            p.pos += 1;
                        }
                        let Some((Tok::Ident(_), at)) = tokens.get(p.pos).cloned() else {
                            p.pos += 1;
                            continue;
                        };
                        p.pos += 1;
                        if let Some(op) =
                            operation(&mut p, &namespace, &base_routes, &decos, file, at)
                        {
                            if !templated {
                                unit.operations.push(op);
                            }
                        }
                    }
                }
                "op" => {
                    let Some((Tok::Ident(_), at)) = tokens.get(p.pos).cloned() else {
                        continue;
                    };
                    p.pos += 1;
                    let namespace = current(&stack, &file_namespace);
                    if let Some(op) = operation(&mut p, &namespace, &[], &decos, file, at) {
                        unit.operations.push(op);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    unit
}

/// An operation after its name: `(params): Return;`. `None` for templates
/// and `is` aliases.
fn operation(
    p: &mut Parser<'_>,
    namespace: &str,
    base_routes: &[String],
    decos: &[(String, String)],
    file: &SourceFile,
    at: usize,
) -> Option<Operation> {
    let templated = p.punct('<');
    skip_angles(p);
    if p.peek() == Some(&Tok::Ident("is".into())) {
        while let Some(t) = p.next() {
            if t == Tok::Punct(';') {
                break;
            }
        }
        return None;
    }
    if !p.punct('(') {
        return None;
    }
    p.pos += 1;
    let params = props(p, ')');
    if p.punct(':') {
        p.pos += 1;
        let _ = type_expr(p);
    }
    if p.punct(';') {
        p.pos += 1;
    }
    if templated {
        return None;
    }
    let mut routes = base_routes.to_vec();
    routes.extend(
        decos
            .iter()
            .filter(|(d, _)| d == "route")
            .map(|(_, r)| r.clone()),
    );
    Some(Operation {
        namespace: namespace.to_string(),
        routes,
        verb: decos
            .iter()
            .find(|(d, _)| VERBS.contains(&d.as_str()))
            .map(|(d, _)| d.clone()),
        params,
        path: file.path.clone(),
        line: file.line_of(at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_paths() {
        assert_eq!(server_path("https://h.test/api/v1/"), "/api/v1");
        assert_eq!(server_path("{endpoint}/widgets"), "/widgets");
        assert_eq!(server_path("https://h.test"), "");
    }

    #[test]
    fn kebab_headers() {
        assert_eq!(kebab("contentType"), "content-type");
        assert_eq!(kebab("ifMatch"), "if-match");
    }

    #[test]
    fn odd_text_does_not_panic() {
        for text in [
            "op (",
            "model X<",
            "namespace",
            "@route(\"é",
            "interface I { a(",
            "}}}{{",
        ] {
            let tokens = lex(text, b"$.");
            let _ = parse(&tokens, &SourceFile::new("a.tsp", text));
        }
    }
}
