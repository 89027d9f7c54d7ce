//! Route-builder flow shared by the Swift server frameworks.
//!
//! Every function (and computed property) body is a *unit*, named
//! `Owner.name` (or `fn:name` outside a type; the top level of a file is
//! `main:<path>`). Inside a unit, builder values are tracked through
//! variables and call chains:
//!
//! - parameters typed as a builder (`RoutesBuilder`, `Application`,
//!   `Router<Context>`, …), `let app = Application(…)`, and the fallback
//!   identifier `app`, are builders with an empty prefix;
//! - `b.grouped("api", "v1")` / `b.group("api")` append path components
//!   (arguments that are not paths, e.g. `User.authenticator()`, are
//!   middleware and change nothing); `b.group("x") { g in … }` binds the
//!   closure parameter;
//! - `b.get("users", ":id") { req in … }`, `b.get(use: h)`, `b.on(.PATCH,
//!   "x", use: h)`, `b.webSocket("chat") { req, ws in … }` are routes;
//! - `b.register(collection: UserController())` mounts the collection's
//!   `boot` unit at `b`'s prefix; `helper(b)` / `Type(…).method(to: b)`
//!   mount that function's unit; `b.addRoutes(T().endpoints, atPath: "x")`
//!   mounts a computed property.
//!
//! Path components are string literals, constants (resolved at link time
//! from `let`/`static let` string constants anywhere in the sources) and
//! `.catchall` (`**`), `.anything` (`*`), `.parameter("id")` (`:id`),
//! `.constant("x")`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::outline::{self, Outline, TYPE_KEYWORDS};
use super::reads::{self, Read};
use super::tokens::{Kind, Toks};

/// The calls a framework uses.
pub struct Dialect {
    /// Route registration methods and their HTTP methods.
    pub verbs: &'static [(&'static str, &'static [&'static str])],
    /// `on(.PATCH, …)` / `on("x", method: .PATCH)`.
    pub on: &'static [&'static str],
    /// Prefix builders: `grouped`, `group`, `route`.
    pub groups: &'static [&'static str],
    pub websockets: &'static [&'static str],
    /// Substrings of a parameter type that make it a builder.
    pub builder_types: &'static [&'static str],
    /// Initializers that create a root builder.
    pub root_inits: &'static [&'static str],
    /// Handler argument labels (`use:`, `handler:`).
    pub handler_labels: &'static [&'static str],
    /// Identifiers (and `self.` properties) taken as a root builder when no
    /// local declaration says otherwise (`app`, Kitura's `router`).
    pub roots: &'static [&'static str],
    /// Members of a builder that are the same builder (`app.router`).
    pub passthrough: &'static [&'static str],
    /// A route call with one of these labels registers middleware, not an
    /// endpoint (`router.all(middleware: BodyParser())`).
    pub middleware_labels: &'static [&'static str],
    /// Handler functions take decoded Codable values (Kitura).
    pub codable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seg {
    Lit(String),
    Const(String),
    /// Concatenation or interpolation: `Routes.posts + "/:id"`,
    /// `"\(Routes.posts)/:id"`.
    Join(Vec<Seg>),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Handler {
    None,
    Inline(Vec<Read>),
    Ref { owner: Option<String>, name: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub path: String,
    pub line: u32,
    pub unit: String,
    pub segs: Vec<Seg>,
    pub methods: Vec<String>,
    pub websocket: bool,
    pub handler: Handler,
    /// Kitura Codable routing: the handler's parameters of known types are
    /// the request (query for GET/DELETE/HEAD, json otherwise).
    pub codable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub unit: String,
    pub segs: Vec<Seg>,
    /// Candidate unit names, the first existing one wins.
    pub targets: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Func {
    pub owner: Option<String>,
    pub name: String,
    pub reads: Vec<Read>,
    /// The leading type name of each parameter (`UserQuery`, `User`).
    pub param_types: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFlow {
    pub routes: Vec<Route>,
    pub mounts: Vec<Mount>,
    /// Every unit defined in the file.
    pub units: Vec<String>,
    pub funcs: Vec<Func>,
    /// String literals bound to local names (`let base = "items"`), used
    /// for path constants after the file- and type-level ones.
    pub locals: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
enum Val {
    Builder(Vec<Seg>),
    Inst(String),
    Member(String, String),
}

#[derive(Clone)]
struct Scope {
    vars: HashMap<String, Val>,
    unit: String,
    owner: Option<String>,
}

struct Ctx<'a> {
    t: &'a Toks,
    d: &'a Dialect,
    path: &'a str,
    out: FileFlow,
    /// Nesting of `eval` (call arguments, closures): bounded by
    /// [`MAX_DEPTH`] so nested calls cannot overflow the stack.
    depth: usize,
}

/// Deepest call-argument / closure nesting followed; deeper code is skipped
/// (real route builders nest a handful of levels).
const MAX_DEPTH: usize = 48;

pub fn unit_name(owner: Option<&str>, name: &str) -> String {
    match owner {
        Some(o) => format!("{o}.{name}"),
        None => format!("fn:{name}"),
    }
}

pub fn scan(path: &str, t: &Toks, o: &Outline, d: &Dialect) -> FileFlow {
    let mut cx = Ctx {
        t,
        d,
        path,
        out: FileFlow::default(),
        depth: 0,
    };
    for f in &o.funcs {
        let unit = unit_name(f.owner.as_deref(), &f.name);
        let mut vars = HashMap::new();
        for p in &f.params {
            if d.builder_types.iter().any(|b| p.ty.contains(b)) {
                vars.insert(p.name.clone(), Val::Builder(Vec::new()));
            }
        }
        cx.out.units.push(unit.clone());
        cx.out.funcs.push(Func {
            owner: f.owner.clone(),
            name: f.name.clone(),
            reads: reads::scan(t, f.body.0, f.body.1),
            param_types: f
                .params
                .iter()
                .map(|p| {
                    // A completion closure (`([Book]?, RequestError?) ->
                    // Void`) carries the response, not the request.
                    if p.ty.contains("->") {
                        return String::new();
                    }
                    p.ty.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .find(|w| !w.is_empty() && *w != "some" && *w != "any")
                        .unwrap_or("")
                        .to_string()
                })
                .collect(),
        });
        let scope = Scope {
            vars,
            unit,
            owner: f.owner.clone(),
        };
        block(&mut cx, f.body.0 + 1, f.body.1, scope);
    }
    let main = format!("main:{path}");
    cx.out.units.push(main.clone());
    block(
        &mut cx,
        0,
        t.len(),
        Scope {
            vars: HashMap::new(),
            unit: main,
            owner: None,
        },
    );
    cx.out
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "if" | "guard"
            | "while"
            | "for"
            | "switch"
            | "return"
            | "try"
            | "await"
            | "in"
            | "let"
            | "var"
            | "case"
            | "else"
            | "catch"
            | "do"
            | "defer"
            | "throw"
            | "func"
            | "init"
            | "super"
    )
}

fn block(cx: &mut Ctx, start: usize, end: usize, mut scope: Scope) {
    let t = cx.t;
    let mut k = start;
    while k < end {
        let Some(word) = t.ident(k) else {
            if is_dollar0(t, k) && scope.vars.contains_key("$0") {
                let (_, next) = eval(cx, k, end, &scope);
                k = next.max(k + 1);
            } else {
                k += 1;
            }
            continue;
        };
        let declares = word == "func"
            || (TYPE_KEYWORDS.contains(&word)
                && t.ident(k + 1)
                    .is_some_and(|n| !["func", "var", "let"].contains(&n)));
        if declares {
            // Nested declarations are units of their own.
            match outline::body_open(t, k + 1, end).and_then(|o| t.close(o)) {
                Some(c) => k = c + 1,
                None => k += 1,
            }
            continue;
        }
        if (word == "let" || word == "var") && t.ident(k + 1).is_some() {
            let name = t.ident(k + 1).unwrap_or("").to_string();
            let mut j = k + 2;
            if t.punct(j, ":") {
                while j < end && !t.punct(j, "=") && t.line(j) == t.line(k) {
                    j += 1;
                }
            }
            if t.punct(j, "=") {
                if let Some(lit) = t.string(j + 1) {
                    if !lit.interp && !t.punct(j + 2, "+") && !t.punct(j + 2, ".") {
                        cx.out.locals.push((name, lit.text.clone()));
                        k = j + 2;
                        continue;
                    }
                }
                let (val, next) = eval(cx, j + 1, end, &scope);
                if let Some(v) = val {
                    scope.vars.insert(name, v);
                }
                k = next.max(j + 1);
                continue;
            }
            k += 2;
            continue;
        }
        if k > start && t.punct(k - 1, ".") {
            k += 1;
            continue;
        }
        let (_, next) = eval(cx, k, end, &scope);
        k = next.max(k + 1);
    }
}

/// Skip `try`, `try?`, `await`.
fn skip_prefixes(t: &Toks, mut k: usize) -> usize {
    loop {
        if t.word(k, "try") {
            k += 1;
            if t.punct(k, "?") || t.punct(k, "!") {
                k += 1;
            }
        } else if t.word(k, "await") {
            k += 1;
        } else {
            return k;
        }
    }
}

fn eval(cx: &mut Ctx, k: usize, end: usize, scope: &Scope) -> (Option<Val>, usize) {
    if cx.depth >= MAX_DEPTH {
        return (None, k + 1);
    }
    cx.depth += 1;
    let out = eval_chain(cx, k, end, scope);
    cx.depth -= 1;
    out
}

fn eval_chain(cx: &mut Ctx, k: usize, end: usize, scope: &Scope) -> (Option<Val>, usize) {
    let t = cx.t;
    let k = skip_prefixes(t, k);
    // `$0`: a closure's anonymous first parameter (see [`closure`]).
    let (first, mut k2) = if is_dollar0(t, k) {
        ("$0", k + 2)
    } else {
        let Some(first) = t.ident(k) else {
            return (None, k + 1);
        };
        (first, k + 1)
    };
    if first.starts_with(char::is_uppercase) && t.punct(k2, "<") {
        // Generic arguments: `UserController<AppContext>()`.
        if let Some(gt) = generic_end(t, k2, end) {
            k2 = gt + 1;
        }
    }
    let mut cur: Option<Val>;
    if t.punct(k2, "(") && !is_keyword(first) {
        let close = t.close(k2).unwrap_or(k2);
        if first.starts_with(char::is_uppercase) {
            cur = Some(if cx.d.root_inits.contains(&first) {
                Val::Builder(Vec::new())
            } else {
                Val::Inst(first.to_string())
            });
        } else {
            // A free function (or a method on self) taking builders.
            let targets = match &scope.owner {
                Some(o) => vec![format!("{o}.{first}"), format!("fn:{first}")],
                None => vec![format!("fn:{first}")],
            };
            call_mounts(cx, k2, scope, targets);
            cur = None;
        }
        k2 = close + 1;
    } else if first == "self" {
        cur = scope.owner.clone().map(Val::Inst);
    } else if let Some(v) = scope.vars.get(first) {
        cur = Some(v.clone());
    } else if cx.d.roots.contains(&first) {
        cur = Some(Val::Builder(Vec::new()));
    } else if first.starts_with(char::is_uppercase) && t.punct(k2, ".") {
        // `Application.make(…)` / `UserController.shared`.
        if cx.d.root_inits.contains(&first) && t.word(k2 + 1, "make") {
            let open = k2 + 2;
            let close = t.close(open).unwrap_or(open);
            return (Some(Val::Builder(Vec::new())), close + 1);
        }
        cur = Some(Val::Inst(first.to_string()));
    } else {
        return (None, k + 1);
    }
    loop {
        while t.punct(k2, "?") || t.punct(k2, "!") {
            k2 += 1;
        }
        if k2 >= end || !t.punct(k2, ".") {
            break;
        }
        let Some(member) = t.ident(k2 + 1) else { break };
        let name_at = k2 + 1;
        let open = k2 + 2;
        let has_call = t.punct(open, "(");
        let after_call = if has_call {
            t.close(open).map_or(open + 1, |c| c + 1)
        } else {
            open
        };
        match cur.clone() {
            Some(Val::Builder(prefix)) => {
                let is_route = cx.d.verbs.iter().any(|(v, _)| *v == member)
                    || cx.d.websockets.contains(&member);
                if !has_call && cx.d.passthrough.contains(&member) {
                    k2 = open;
                    continue;
                }
                if !has_call && (!is_route || !t.punct(open, "{")) {
                    cur = None;
                    k2 = open;
                    continue;
                }
                let trailing = t.punct(after_call, "{").then_some(after_call);
                if cx.d.groups.contains(&member) {
                    let mut p = prefix.clone();
                    p.extend(path_args(t, open, false));
                    if let Some(b) = trailing {
                        closure(cx, b, scope, Some(Val::Builder(p)));
                        return (None, t.close(b).map_or(b + 1, |c| c + 1));
                    }
                    cur = Some(Val::Builder(p));
                    k2 = after_call;
                    continue;
                }
                let verb = cx.d.verbs.iter().find(|(v, _)| *v == member);
                let is_on = cx.d.on.contains(&member);
                let is_ws = cx.d.websockets.contains(&member);
                let middleware = has_call
                    && t.args(open).iter().any(|a| {
                        t.labeled(a)
                            .is_some_and(|(l, _)| cx.d.middleware_labels.contains(&l))
                    });
                if (verb.is_some() || is_on || is_ws) && !middleware {
                    let methods: Vec<String> = match verb {
                        Some((_, m)) => m.iter().map(|s| s.to_string()).collect(),
                        None if is_on => on_method(t, open).into_iter().collect(),
                        None => vec!["GET".into()],
                    };
                    let mut segs = prefix.clone();
                    segs.extend(path_args(t, open, is_on));
                    let mut handler = handler_arg(cx, open, scope);
                    let mut next = after_call;
                    if let Some(b) = trailing {
                        let close = t.close(b).unwrap_or(b);
                        if matches!(handler, Handler::None) {
                            let mut rs = reads::scan(t, b, close);
                            if cx.d.codable {
                                // Kitura Codable closure: `{ (book: Book,
                                // completion: …) in`.
                                let body_less = methods
                                    .iter()
                                    .all(|m| matches!(m.as_str(), "GET" | "DELETE" | "HEAD"));
                                let src = if body_less {
                                    reads::Src::Query
                                } else {
                                    reads::Src::Json
                                };
                                for ty in closure_param_types(t, b) {
                                    rs.push(Read::Decode(src, ty));
                                }
                            }
                            handler = Handler::Inline(rs);
                        }
                        next = close + 1;
                    }
                    if !methods.is_empty() {
                        cx.out.routes.push(Route {
                            path: cx.path.to_string(),
                            line: t.line(name_at),
                            unit: scope.unit.clone(),
                            segs,
                            methods,
                            websocket: is_ws,
                            handler,
                            codable: cx.d.codable,
                        });
                    }
                    // Hummingbird and Kitura routers chain; Vapor's Route
                    // has no route methods, so keeping the builder is safe.
                    cur = Some(Val::Builder(prefix));
                    k2 = next;
                    continue;
                }
                if member == "register" {
                    for a in t.args(open) {
                        if let Some(("collection", v)) = t.labeled(&a) {
                            let (val, _) = eval(cx, v.start, v.end, scope);
                            if let Some(Val::Inst(ty)) = val {
                                cx.out.mounts.push(Mount {
                                    unit: scope.unit.clone(),
                                    segs: prefix.clone(),
                                    targets: vec![format!("{ty}.boot")],
                                });
                            }
                        }
                    }
                    return (None, after_call);
                }
                if member == "addRoutes" {
                    let mut segs = prefix.clone();
                    let mut target = None;
                    for a in t.args(open) {
                        if let Some(("atPath", v)) = t.labeled(&a) {
                            segs.extend(path_args_in(t, v.start, v.end));
                        } else if target.is_none() {
                            let (val, _) = eval(cx, a.start, a.end, scope);
                            if let Some(Val::Member(ty, m)) = val {
                                target = Some(format!("{ty}.{m}"));
                            }
                        }
                    }
                    if let Some(tg) = target {
                        cx.out.mounts.push(Mount {
                            unit: scope.unit.clone(),
                            segs,
                            targets: vec![tg],
                        });
                    }
                    return (None, after_call);
                }
                cur = None;
                k2 = after_call;
            }
            Some(Val::Inst(ty)) => {
                if !has_call && first == "self" && cx.d.roots.contains(&member) {
                    cur = Some(Val::Builder(Vec::new()));
                    k2 = open;
                } else if has_call {
                    call_mounts(cx, open, scope, vec![format!("{ty}.{member}")]);
                    cur = None;
                    k2 = after_call;
                } else {
                    cur = Some(Val::Member(ty, member.to_string()));
                    k2 = open;
                }
            }
            _ => {
                k2 = after_call;
                cur = None;
            }
        }
    }
    (cur, k2)
}

/// The `>` closing the generic argument list opened at `lt` (same line).
fn generic_end(t: &Toks, lt: usize, end: usize) -> Option<usize> {
    let mut depth = 0;
    let mut k = lt;
    while k < end && t.line(k) == t.line(lt) {
        let ok =
            t.ident(k).is_some() || ["<", ">", ".", ",", "?", ":"].iter().any(|p| t.punct(k, p));
        if !ok {
            return None;
        }
        if t.punct(k, "<") {
            depth += 1;
        } else if t.punct(k, ">") {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
        k += 1;
    }
    None
}

/// Arguments of the call at `open` that are builders mount `targets`.
fn call_mounts(cx: &mut Ctx, open: usize, scope: &Scope, targets: Vec<String>) {
    let t = cx.t;
    for a in t.args(open) {
        let v = t.labeled(&a).map_or(a.clone(), |(_, v)| v);
        if let (Some(Val::Builder(segs)), _) = eval(cx, v.start, v.end, scope) {
            cx.out.mounts.push(Mount {
                unit: scope.unit.clone(),
                segs,
                targets: targets.clone(),
            });
        }
    }
}

/// Scan a closure body opened at `open`, binding its first parameter.
fn closure(cx: &mut Ctx, open: usize, scope: &Scope, param: Option<Val>) {
    let t = cx.t;
    let Some(close) = t.close(open) else { return };
    let mut inner = scope.clone();
    let mut k = open + 1;
    if t.punct(k, "(") {
        k += 1;
    }
    if let Some(v) = param {
        let mut j = k + 1;
        while j < close && !t.word(j, "in") && j < k + 12 {
            j += 1;
        }
        match t.ident(k) {
            Some(name) if t.word(j, "in") => {
                inner.vars.insert(name.to_string(), v);
            }
            // No `name in`: the builder is `$0` (`app.group(Auth()) {
            // $0.get("x", use: h) }`).
            _ => {
                inner.vars.insert("$0".to_string(), v);
            }
        }
    }
    block(cx, open + 1, close, inner);
}

/// `$0` at `k` (the `$` glued to the number `0`).
fn is_dollar0(t: &Toks, k: usize) -> bool {
    t.punct(k, "$")
        && t.get(k + 1).is_some_and(|n| {
            n.kind == Kind::Num && n.text == "0" && t.get(k).is_some_and(|d| d.start + 1 == n.start)
        })
}

/// `.PATCH` / `method: .PATCH` / `.init(rawValue: "X")` in the call at `open`.
fn on_method(t: &Toks, open: usize) -> Option<String> {
    for a in t.args(open) {
        let v = match t.labeled(&a) {
            Some(("method", v)) => v,
            Some(_) => continue,
            None => a,
        };
        if t.punct(v.start, ".") {
            let m = t.ident(v.start + 1)?;
            if m == "init" {
                return t.args(v.start + 2).first().and_then(|r| {
                    let r = t.labeled(r).map_or(r.clone(), |(_, v)| v);
                    t.string(r.start).map(|s| s.text.to_uppercase())
                });
            }
            return Some(m.to_uppercase());
        }
    }
    None
}

/// Path components among the unlabelled arguments of the call at `open`
/// (the first one is the method when `skip_method`).
fn path_args(t: &Toks, open: usize, skip_method: bool) -> Vec<Seg> {
    let mut out = Vec::new();
    for (i, a) in t.args(open).into_iter().enumerate() {
        if t.labeled(&a).is_some() {
            continue;
        }
        if skip_method && i == 0 && t.punct(a.start, ".") {
            continue;
        }
        out.extend(path_args_in(t, a.start, a.end));
    }
    out
}

/// Segments of an interpolated literal's raw text: `\(name)` and
/// `\(Type.name)` are constants; any other expression makes it unknown.
fn interpolation(raw: &str) -> Option<Seg> {
    let mut parts = Vec::new();
    let mut rest = raw;
    while let Some(i) = rest.find("\\(") {
        if i > 0 {
            parts.push(Seg::Lit(rest[..i].to_string()));
        }
        let after = &rest[i + 2..];
        let close = after.find(')')?;
        let expr = after[..close].trim();
        let ok = !expr.is_empty()
            && expr
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
        if !ok {
            return None;
        }
        parts.push(Seg::Const(
            expr.rsplit('.').next().unwrap_or(expr).to_string(),
        ));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Seg::Lit(rest.to_string()));
    }
    Some(Seg::Join(parts))
}

/// One path argument: a literal, a constant, a concatenation of those, or
/// a `PathComponent` case.
fn path_args_in(t: &Toks, start: usize, end: usize) -> Vec<Seg> {
    let pieces: Vec<usize> = {
        let mut v = vec![start];
        let mut k = start;
        while k < end {
            if t.punct(k, "+") {
                v.push(k + 1);
            }
            k += 1;
        }
        v
    };
    if pieces.len() > 1 {
        let mut parts = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            let e = pieces.get(i + 1).map_or(end, |n| n - 1);
            match path_args_in(t, *p, e).as_slice() {
                [one] => parts.push(one.clone()),
                _ => return Vec::new(),
            }
        }
        return vec![Seg::Join(parts)];
    }
    if let Some(s) = t.string(start) {
        if start + 1 != end {
            return Vec::new();
        }
        if s.interp {
            return interpolation(&s.text).into_iter().collect();
        }
        return vec![Seg::Lit(s.text.clone())];
    }
    // `PathComponent(stringLiteral: x)`, `.constant(x)`, `.parameter(x)`.
    let wrapped = |open: usize| -> Option<Seg> {
        let a = t.args(open).into_iter().next()?;
        let a = t.labeled(&a).map_or(a, |(_, v)| v);
        match path_args_in(t, a.start, a.end).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    };
    if t.word(start, "PathComponent") && t.punct(start + 1, "(") {
        return wrapped(start + 1).into_iter().collect();
    }
    if t.punct(start, ".") {
        let case = t.ident(start + 1).unwrap_or("");
        return match case {
            "catchall" => vec![Seg::Lit("**".into())],
            "anything" => vec![Seg::Lit("*".into())],
            "parameter" => wrapped(start + 2)
                .map(|p| Seg::Join(vec![Seg::Lit(":".into()), p]))
                .into_iter()
                .collect(),
            "constant" => wrapped(start + 2).into_iter().collect(),
            _ => Vec::new(),
        };
    }
    // Vapor 3: `BlogPost.parameter` / `Int.parameter` is a parameter named
    // by the type's routing slug (its name in lower case).
    if end == start + 3 && t.punct(start + 1, ".") && t.word(start + 2, "parameter") {
        if let Some(ty) = t
            .ident(start)
            .filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
        {
            return vec![Seg::Lit(format!(":{}", ty.to_lowercase()))];
        }
    }
    // `users` / `Paths.users`: a constant unless it is called.
    let mut k = start;
    let mut last = None;
    while k < end {
        match t.get(k) {
            Some(tok) if tok.kind == Kind::Ident => last = Some(tok.text.clone()),
            Some(tok) if tok.kind == Kind::Punct && tok.text == "." => {}
            _ => return Vec::new(),
        }
        k += 1;
    }
    last.map(|c| vec![Seg::Const(c)]).unwrap_or_default()
}

/// The named types of a closure's parenthesised parameters (`{ (book:
/// Book, completion: @escaping (Book?) -> Void) in` → `Book`); closure
/// and lower-case types are skipped.
fn closure_param_types(t: &Toks, open: usize) -> Vec<String> {
    let mut out = Vec::new();
    let k = open + 1;
    if !t.punct(k, "(") {
        return out;
    }
    let Some(close) = t.close(k) else { return out };
    let mut j = k + 1;
    while j + 2 < close {
        if t.ident(j).is_some() && t.punct(j + 1, ":") {
            if let Some(ty) = t.ident(j + 2).filter(|s| s.starts_with(char::is_uppercase)) {
                out.push(ty.to_string());
            }
        }
        j += 1;
    }
    out
}

fn handler_arg(cx: &mut Ctx, open: usize, scope: &Scope) -> Handler {
    let t = cx.t;
    for a in t.args(open) {
        let Some((label, v)) = t.labeled(&a) else {
            continue;
        };
        if !cx.d.handler_labels.contains(&label) {
            continue;
        }
        if t.punct(v.start, "{") {
            let close = t.close(v.start).unwrap_or(v.start);
            return Handler::Inline(reads::scan(t, v.start, close));
        }
        // `index`, `self.index`, `controller.index`, `Ctrl().index`.
        let idents: Vec<usize> = (v.start..v.end).filter(|k| t.ident(*k).is_some()).collect();
        let Some(&last) = idents.last() else {
            return Handler::None;
        };
        let name = t.ident(last).unwrap_or("").to_string();
        if last == v.start {
            return Handler::Ref {
                owner: scope.owner.clone(),
                name,
            };
        }
        let owner = match eval(cx, v.start, last - 1, scope).0 {
            Some(Val::Inst(ty)) => Some(ty),
            _ => t
                .ident(v.start)
                .filter(|s| s.starts_with(char::is_uppercase))
                .map(str::to_string),
        };
        return Handler::Ref { owner, name };
    }
    Handler::None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vapor::DIALECT;

    fn flow(src: &str) -> FileFlow {
        super::more_tests::flow(src, &DIALECT)
    }

    fn lit(s: &str) -> Seg {
        Seg::Lit(s.into())
    }

    #[test]
    fn groups_routes_and_mounts() {
        let f = flow(
            r#"
func routes(_ app: Application) throws {
    let api = app.grouped("api", "v1")
    let protected = api.grouped(User.authenticator())
    protected.get("me") { req in req.headers["X-Trace"] }
    // app.get("old")
    api.group("todos") { todos in
        todos.on(.PATCH, ":id", body: .collect, use: patch)
    }
    try api.grouped("users").register(collection: UserController())
    registerAdmin(on: app.grouped(Paths.admin))
    app.webSocket("chat") { req, ws in }
}
"#,
        );
        let r: Vec<_> = f
            .routes
            .iter()
            .map(|r| (r.segs.clone(), r.methods.clone(), r.line, r.websocket))
            .collect();
        assert_eq!(
            r,
            [
                (
                    vec![lit("api"), lit("v1"), lit("me")],
                    vec!["GET".to_string()],
                    5,
                    false
                ),
                (
                    vec![lit("api"), lit("v1"), lit("todos"), lit(":id")],
                    vec!["PATCH".to_string()],
                    8,
                    false
                ),
                (vec![lit("chat")], vec!["GET".to_string()], 12, true),
            ]
        );
        assert_eq!(
            f.routes[0].handler,
            Handler::Inline(vec![Read::Param(reads::Src::Header, "X-Trace".into())])
        );
        assert_eq!(
            f.routes[1].handler,
            Handler::Ref {
                owner: None,
                name: "patch".into()
            }
        );
        assert_eq!(
            f.mounts,
            [
                Mount {
                    unit: "fn:routes".into(),
                    segs: vec![lit("api"), lit("v1"), lit("users")],
                    targets: vec!["UserController.boot".into()],
                },
                Mount {
                    unit: "fn:routes".into(),
                    segs: vec![Seg::Const("admin".into())],
                    targets: vec!["fn:registerAdmin".into()],
                },
            ]
        );
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;

    /// The flow of one file named `a.swift`.
    pub(super) fn flow(src: &str, d: &Dialect) -> FileFlow {
        let t = Toks::from_source(src);
        let o = outline::parse(&t);
        scan("a.swift", &t, &o, d)
    }

    #[test]
    fn interpolation_concatenation_and_middleware_calls() {
        let f = flow(
            r#"
class App {
    let router = Router()
    init() {
        router.all(middleware: BodyParser())
        self.router.get("\(Paths.base)/:id", handler: show)
        router.post(Paths.base + "/new") { request, response, next in next() }
        router.get("\(base())/x") { _, _, next in next() }
    }
}
"#,
            &crate::kitura::DIALECT,
        );
        let segs: Vec<_> = f.routes.iter().map(|r| r.segs.clone()).collect();
        assert_eq!(
            segs,
            [
                vec![Seg::Join(vec![
                    Seg::Const("base".into()),
                    Seg::Lit("/:id".into())
                ])],
                vec![Seg::Join(vec![
                    Seg::Const("base".into()),
                    Seg::Lit("/new".into())
                ])],
                vec![],
            ]
        );
        assert_eq!(f.routes[0].unit, "App.init");
        assert_eq!(
            f.routes[0].handler,
            Handler::Ref {
                owner: Some("App".into()),
                name: "show".into()
            }
        );
    }

    #[test]
    fn hummingbird_chains_and_controllers() {
        let f = flow(
            r#"
func buildRouter() -> Router<Ctx> {
    let router = Router(context: Ctx.self)
    Todos(repo: repo).addRoutes(to: router.group("todos"))
    router.addRoutes(Users<Ctx>().endpoints, atPath: "/users")
    router.group("a").get("b", use: b).post(use: c)
    return router
}
"#,
            &crate::hummingbird::DIALECT,
        );
        let r: Vec<_> = f
            .routes
            .iter()
            .map(|r| (r.segs.clone(), r.methods[0].clone()))
            .collect();
        let lit = |s: &str| Seg::Lit(s.into());
        assert_eq!(
            r,
            [
                (vec![lit("a"), lit("b")], "GET".to_string()),
                (vec![lit("a")], "POST".to_string()),
            ]
        );
        let m: Vec<_> = f
            .mounts
            .iter()
            .map(|m| (m.segs.clone(), m.targets.clone()))
            .collect();
        assert_eq!(
            m,
            [
                (vec![lit("todos")], vec!["Todos.addRoutes".to_string()]),
                (vec![lit("/users")], vec!["Users.endpoints".to_string()]),
            ]
        );
    }
}

#[cfg(test)]
mod receiver_tests {
    use super::more_tests::flow;
    use super::*;

    #[test]
    fn handler_receivers_and_collection_variables() {
        let f = flow(
            r#"
func routes(_ app: Application) throws {
    let todos = TodoController()
    app.get("todos", use: todos.index)
    app.get("todos", ":id", use: TodoController().show)
    try app.grouped("v1").register(collection: todos)
}
"#,
            &crate::vapor::DIALECT,
        );
        let h: Vec<_> = f.routes.iter().map(|r| r.handler.clone()).collect();
        let r = |o: &str, n: &str| Handler::Ref {
            owner: Some(o.into()),
            name: n.into(),
        };
        assert_eq!(
            h,
            [r("TodoController", "index"), r("TodoController", "show")]
        );
        assert_eq!(f.mounts[0].targets, ["TodoController.boot"]);
        assert_eq!(f.mounts[0].segs, [Seg::Lit("v1".into())]);
    }

    #[test]
    fn hummingbird_1_app_router() {
        let f = flow(
            r#"
func configure(_ app: HBApplication) {
    app.router.get("hello") { request -> String in
        request.uri.queryParameters.get("name") ?? "world"
    }
    let todos = app.router.group("todos")
    todos.put(":id", use: update)
}
"#,
            &crate::hummingbird::DIALECT,
        );
        let r: Vec<_> = f
            .routes
            .iter()
            .map(|r| (r.segs.clone(), r.methods[0].clone(), r.line))
            .collect();
        let lit = |s: &str| Seg::Lit(s.into());
        assert_eq!(
            r,
            [
                (vec![lit("hello")], "GET".to_string(), 3),
                (vec![lit("todos"), lit(":id")], "PUT".to_string(), 7),
            ]
        );
        assert_eq!(
            f.routes[0].handler,
            Handler::Inline(vec![Read::Param(reads::Src::Query, "name".into())])
        );
    }
}
