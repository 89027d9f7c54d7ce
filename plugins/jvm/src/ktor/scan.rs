//! Map step: routing items of each function of a Kotlin file.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::expr::StrExpr;
use crate::jvm::facts::OutlineFact;
use crate::jvm::outline::{self, Lang};
use crate::jvm::tokens::{close_of, split_commas, Kind, Token};

/// The facts of Ktor: file outlines and the routing functions of a file.
pub type Fact = OutlineFact<KtorFile>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KtorFile {
    pub path: String,
    pub funs: Vec<KFun>,
    /// `fun ApplicationCall.x(key: String, …)` helpers reading parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helpers: Vec<Helper>,
}

/// An `ApplicationCall` extension function reading request parameters:
/// `fun ApplicationCall.queryParam(key: String) = request.queryParameters[key]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Helper {
    pub name: String,
    /// Parameter position read by name, and what reads it (`Query`,
    /// `Parameter`, … with an empty name).
    #[serde(default)]
    pub reads: Vec<(usize, KParam)>,
    /// Other helpers called with one of this helper's parameters: (callee,
    /// parameter position passed first).
    #[serde(default)]
    pub passes: Vec<(String, usize)>,
    /// Other helpers called with a literal: (callee, name).
    #[serde(default)]
    pub fixed: Vec<(String, String)>,
    /// Parameters read by literal name (`request.queryParameters["page"]`).
    #[serde(default)]
    pub direct: Vec<KParam>,
    /// `receive<V>()` of a type parameter: the body type is the type of the
    /// argument at this position (`receiveBody(CreateUser.example)`).
    #[serde(default)]
    pub body_from: Option<usize>,
}

/// A top-level function and the routing items in its body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KFun {
    pub name: String,
    pub receiver: Option<String>,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Endpoint {
        method: String,
        prefix: Vec<StrExpr>,
        path: StrExpr,
        line: u32,
        params: Vec<KParam>,
        /// Type-safe routing (`get<Articles.Id> { }`): the `@Resource`
        /// class giving the path (then `path` is empty).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
        /// The innermost `authenticate(…) { }` block around it (as
        /// written, line).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<(String, u32)>,
    },
    /// A call of a (possibly routing) function inside routing blocks.
    Mount {
        name: String,
        prefix: Vec<StrExpr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<(String, u32)>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KParam {
    /// `call.parameters[name]`: path or query, decided with the URL.
    Parameter(String),
    Query(String),
    Form(String),
    Header(String),
    Cookie(String),
    /// A file part of a multipart body (`is PartData.FileItem` with
    /// `part.name == "font"`).
    File(String),
    /// `call.receive<T>()`.
    Body(String),
    /// A call of a possible [`Helper`] inside a handler: its name, its
    /// first argument when a string literal, and the type named by its
    /// first argument (`X.example`, `X::class`).
    Call {
        name: String,
        lit: Option<String>,
        ty: Option<String>,
    },
}

const VERBS: [&str; 7] = ["get", "post", "put", "delete", "patch", "head", "options"];

pub fn analyze(file: &SourceFile, out: &mut Output) {
    if is_test_path(&file.path) || !file.path.ends_with(".kt") {
        return;
    }
    let outline = outline::parse(file, Lang::Kotlin);
    let funs = scan(file);
    let helpers = helpers(file);
    // Files with routes keep their outline too: their imports resolve the
    // constants and DTOs they use.
    if !outline.types.is_empty() || !outline.consts.is_empty() || !funs.is_empty() {
        out.fact(&Fact::File(outline));
    }
    if !funs.is_empty() || !helpers.is_empty() {
        out.fact(&Fact::Scan(KtorFile {
            path: file.path.clone(),
            funs,
            helpers,
        }));
    }
}

enum Frame {
    Route(StrExpr),
    Handler(usize),
    /// `authenticate("jwt") { }`: as written, line.
    Auth(String, u32),
    Other,
}

pub fn scan(file: &SourceFile) -> Vec<KFun> {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let src = file.content.as_str();
    let expr = crate::jvm::expr::range_parser(t, src, true);
    let mut funs: Vec<KFun> = Vec::new();
    let mut fun_end = 0usize;
    let mut stack: Vec<(usize, Frame)> = Vec::new();
    let mut form_vars: Vec<String> = Vec::new();
    let mut part_kind: Option<bool> = None;
    let mut i = 0;
    while i < t.len() {
        while stack.last().is_some_and(|(close, _)| *close < i) {
            stack.pop();
        }
        let prev_dot = i > 0 && (t[i - 1].is('.') || t[i - 1].is(':'));
        let word = (t[i].kind == Kind::Ident).then_some(t[i].text.as_str());
        // A new top-level function.
        if word == Some("fun") && i >= fun_end {
            if let Some((name, receiver, open)) = fun_header(t, i) {
                fun_end = close_of(t, open).unwrap_or(t.len());
                funs.push(KFun {
                    name,
                    receiver,
                    items: Vec::new(),
                });
                stack.clear();
                form_vars.clear();
                part_kind = None;
                i = open + 1;
                continue;
            }
        }
        if i >= fun_end || funs.is_empty() {
            i += 1;
            continue;
        }
        let in_handler = stack.iter().rev().find_map(|(_, f)| match f {
            Frame::Handler(ix) => Some(*ix),
            _ => None,
        });
        let guard = || {
            stack.iter().rev().find_map(|(_, f)| match f {
                Frame::Auth(n, l) => Some((n.clone(), *l)),
                _ => None,
            })
        };
        let prefix = || -> Vec<StrExpr> {
            stack
                .iter()
                .filter_map(|(_, f)| match f {
                    Frame::Route(e) => Some(e.clone()),
                    _ => None,
                })
                .collect()
        };
        if let (Some(ix), Some("call")) = (in_handler, word) {
            if let Some((p, next)) = call_param(t, i, &expr) {
                if let Some(Item::Endpoint { params, .. }) =
                    funs.last_mut().and_then(|f| f.items.get_mut(ix))
                {
                    if !params.contains(&p) {
                        params.push(p);
                    }
                }
                i = next;
                continue;
            }
        }
        if let (Some(ix), Some(name)) = (in_handler, word) {
            // `queryParam("id")`, `call.receiveBody(CreateUser.example)`,
            // `pagination<Sort>()`: a possible helper call.
            let after_call = i >= 2 && t[i - 1].is('.') && t[i - 2].text == "call";
            let open = if t.get(i + 1).is_some_and(|x| x.is('<')) {
                close_of(t, i + 1).map(|c| c + 1)
            } else {
                Some(i + 1)
            };
            if (!prev_dot || after_call)
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && !VERBS.contains(&name)
                && name != "call"
            {
                if let Some(open) = open.filter(|&o| t.get(o).is_some_and(|x| x.is('('))) {
                    let first = t.get(open + 1);
                    let lit = first
                        .filter(|x| x.kind == Kind::Str)
                        .filter(|_| t.get(open + 2).is_some_and(|x| x.is(',') || x.is(')')))
                        .map(|x| x.text.clone());
                    let ty = first
                        .filter(|x| {
                            x.kind == Kind::Ident
                                && x.text.starts_with(|c: char| c.is_ascii_uppercase())
                        })
                        .filter(|_| t.get(open + 2).is_some_and(|x| x.is('.') || x.is(':')))
                        .map(|x| x.text.clone());
                    let bare = t.get(open + 1).is_some_and(|x| x.is(')'))
                        && (open > i + 1 || after_call || !prev_dot);
                    // `readUpload(multipart, …)`: a helper given a local
                    // value (what it reads by literal name counts).
                    let var = first.is_some_and(|x| {
                        x.kind == Kind::Ident
                            && x.text.starts_with(|c: char| c.is_ascii_lowercase())
                    }) && t.get(open + 2).is_some_and(|x| x.is(',') || x.is(')'));
                    if lit.is_some() || ty.is_some() || bare || var {
                        if let Some(Item::Endpoint { params, .. }) =
                            funs.last_mut().and_then(|f| f.items.get_mut(ix))
                        {
                            let p = KParam::Call {
                                name: name.to_string(),
                                lit,
                                ty,
                            };
                            if !params.contains(&p) {
                                params.push(p);
                            }
                        }
                    }
                }
            }
        }
        if let Some(ix) = in_handler {
            if let Some(p) = multipart_part(t, i, &mut part_kind) {
                if let Some(Item::Endpoint { params, .. }) =
                    funs.last_mut().and_then(|f| f.items.get_mut(ix))
                {
                    if !params.contains(&p) {
                        params.push(p);
                    }
                }
            }
        }
        if let (Some(ix), Some(var)) = (in_handler, word) {
            // `val form = call.receiveParameters()`
            if t.get(i + 1).is_some_and(|x| x.is('='))
                && seq(t, i + 2, &["call", ".", "receiveParameters"])
            {
                form_vars.push(var.to_string());
            } else if form_vars.iter().any(|v| v == var)
                && !prev_dot
                && t.get(i + 1).is_some_and(|x| x.is('['))
            {
                if let Some(name) = t.get(i + 2).filter(|x| x.kind == Kind::Str) {
                    if let Some(Item::Endpoint { params, .. }) =
                        funs.last_mut().and_then(|f| f.items.get_mut(ix))
                    {
                        let p = KParam::Form(name.text.clone());
                        if !params.contains(&p) {
                            params.push(p);
                        }
                    }
                }
            }
        }
        if t[i].is('{') {
            let close = close_of(t, i).unwrap_or(t.len());
            stack.push((close, Frame::Other));
            i += 1;
            continue;
        }
        let Some(w) = word else {
            i += 1;
            continue;
        };
        if prev_dot || in_handler.is_some() {
            i += 1;
            continue;
        }
        let mut k = i + 1;
        let mut resource = None;
        if t.get(k).is_some_and(|x| x.is('<')) {
            let c = close_of(t, k);
            if let Some(c) = c {
                let ty: String = t[k + 1..c].iter().map(|x| x.text.as_str()).collect();
                resource = Some(ty);
            }
            k = c.map_or(k, |c| c + 1);
        }
        let mut args = Vec::new();
        if t.get(k).is_some_and(|x| x.is('(')) {
            let close = close_of(t, k).unwrap_or(t.len());
            args = split_commas(t, k + 1, close);
            k = close + 1;
        }
        let lambda = t.get(k).is_some_and(|x| x.is('{'));
        let is_verb = VERBS.contains(&w);
        if lambda && w == "authenticate" {
            let close = close_of(t, k).unwrap_or(t.len());
            let written: String = args
                .iter()
                .map(|r| {
                    t[r.clone()]
                        .iter()
                        .map(|x| match x.kind {
                            Kind::Str => format!("\"{}\"", x.text),
                            _ => x.text.clone(),
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join(", ");
            let line = file.line_of(t[i].start);
            // `optional = true` lets anonymous calls through.
            let frame = if written.contains("optional=true") {
                Frame::Other
            } else {
                Frame::Auth(format!("authenticate({written})"), line)
            };
            stack.push((close, frame));
            i = k + 1;
            continue;
        }
        if lambda && (is_verb || w == "route" || w == "handle") {
            let close = close_of(t, k).unwrap_or(t.len());
            let first = args.first().and_then(|r| expr(r.clone()));
            let method_arg = args
                .get(1)
                .map(|r| {
                    t[r.clone()]
                        .iter()
                        .map(|x| x.text.as_str())
                        .collect::<String>()
                })
                .and_then(|s| s.strip_prefix("HttpMethod.").map(str::to_ascii_uppercase));
            let line = file.line_of(t[i].start);
            let endpoint = |method: String, path: StrExpr| Item::Endpoint {
                method,
                prefix: prefix(),
                path,
                line,
                params: Vec::new(),
                resource: None,
                guard: guard(),
            };
            let frame = if is_verb {
                let Some(f) = funs.last_mut() else { break };
                let mut e = endpoint(
                    w.to_ascii_uppercase(),
                    first.unwrap_or_else(|| StrExpr::lit("")),
                );
                if let Item::Endpoint { resource: r, .. } = &mut e {
                    *r = resource
                        .take()
                        .filter(|ty| ty.starts_with(|c: char| c.is_ascii_uppercase()));
                }
                f.items.push(e);
                Frame::Handler(f.items.len() - 1)
            } else if w == "route" {
                match (first, method_arg) {
                    (Some(path), Some(m)) => {
                        let Some(f) = funs.last_mut() else { break };
                        f.items.push(endpoint(m, path));
                        Frame::Handler(f.items.len() - 1)
                    }
                    (Some(path), None) => Frame::Route(path),
                    (None, _) => Frame::Other,
                }
            } else {
                Frame::Other
            };
            stack.push((close, frame));
            i = k + 1;
            continue;
        }
        if !lambda
            && t.get(i + 1).is_some_and(|x| x.is('('))
            && w.starts_with(|c: char| c.is_ascii_lowercase())
            && !stack.is_empty()
        {
            if let Some(f) = funs.last_mut() {
                let m = Item::Mount {
                    name: w.to_string(),
                    prefix: prefix(),
                    guard: guard(),
                };
                if !f.items.contains(&m) {
                    f.items.push(m);
                }
            }
        }
        i += 1;
    }
    funs.retain(|f| !f.items.is_empty());
    funs
}

/// `fun [<T>] ApplicationCall.name(key: String, …)` helpers: what each
/// reads by the name it is given. A body runs to the next `fun`.
pub fn helpers(file: &SourceFile) -> Vec<Helper> {
    if !file.content.contains("Parameters[")
        && !file.content.contains("Param")
        && !file.content.contains("receive")
        && !file.content.contains("PartData")
    {
        return Vec::new();
    }
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let funs: Vec<usize> = (0..t.len())
        .filter(|&i| t[i].kind == Kind::Ident && t[i].text == "fun")
        .collect();
    let mut out = Vec::new();
    for (n, &i) in funs.iter().enumerate() {
        let end = funs.get(n + 1).copied().unwrap_or(t.len());
        let mut k = i + 1;
        let mut type_params: Vec<String> = Vec::new();
        if t.get(k).is_some_and(|x| x.is('<')) {
            let Some(c) = close_of(t, k) else { continue };
            for r in split_commas(t, k + 1, c) {
                if let Some(x) = t[r]
                    .iter()
                    .find(|x| x.kind == Kind::Ident && x.text != "reified")
                {
                    type_params.push(x.text.clone());
                }
            }
            k = c + 1;
        }
        let Some((dotted, next)) = crate::jvm::tokens::dotted(t, k) else {
            continue;
        };
        // An extension of the call or of a scope around it
        // (`ApplicationCall.x`, `RoutingContext.x`, `MyScope.x`).
        let Some((receiver, name)) = dotted.rsplit_once('.') else {
            continue;
        };
        if !receiver.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        if !t.get(next).is_some_and(|x| x.is('(')) {
            continue;
        }
        let Some(close) = close_of(t, next) else {
            continue;
        };
        // Parameter names and their declared types.
        let mut params: Vec<(String, String)> = Vec::new();
        for r in split_commas(t, next + 1, close) {
            let toks = &t[r];
            let Some(colon) = toks.iter().position(|x| x.is(':')) else {
                continue;
            };
            let pname = toks[..colon]
                .iter()
                .rev()
                .find(|x| x.kind == Kind::Ident)
                .map(|x| x.text.clone())
                .unwrap_or_default();
            let ty = toks
                .get(colon + 1)
                .map(|x| x.text.clone())
                .unwrap_or_default();
            params.push((pname, ty));
        }
        let pos = |w: &str| params.iter().position(|(p, _)| p == w);
        let mut h = Helper {
            name: name.to_string(),
            ..Helper::default()
        };
        let mut j = close + 1;
        let mut part_kind: Option<bool> = None;
        while j < end.min(t.len()) {
            if let Some(p) = multipart_part(t, j, &mut part_kind) {
                if !h.direct.contains(&p) {
                    h.direct.push(p);
                }
            }
            let w = t[j].text.as_str();
            let ident = t[j].kind == Kind::Ident;
            let prev_dot = j > 0 && t[j - 1].is('.');
            if ident
                && (w == "queryParameters" || w == "parameters")
                && t.get(j + 1).is_some_and(|x| x.is('['))
            {
                let query = w == "queryParameters";
                let arg = t.get(j + 2);
                if let Some(p) = arg
                    .filter(|x| x.kind == Kind::Ident)
                    .and_then(|x| pos(&x.text))
                {
                    let kind = if query {
                        KParam::Query(String::new())
                    } else {
                        KParam::Parameter(String::new())
                    };
                    h.reads.push((p, kind));
                } else if let Some(lit) = arg.filter(|x| x.kind == Kind::Str) {
                    let n = lit.text.clone();
                    h.direct.push(if query {
                        KParam::Query(n)
                    } else {
                        KParam::Parameter(n)
                    });
                }
            } else if ident
                && matches!(w, "receive" | "receiveNullable")
                && t.get(j + 1).is_some_and(|x| x.is('<'))
            {
                let ty = t.get(j + 2).map(|x| x.text.as_str()).unwrap_or("");
                if type_params.iter().any(|p| p == ty) {
                    h.body_from = params.iter().position(|(_, pt)| pt == ty);
                }
            } else if ident
                && !prev_dot
                && w.starts_with(|c: char| c.is_ascii_lowercase())
                && t.get(j + 1).is_some_and(|x| x.is('('))
            {
                if let Some(a) = t.get(j + 2) {
                    let single = t.get(j + 3).is_some_and(|x| x.is(',') || x.is(')'));
                    if a.kind == Kind::Str && single {
                        h.fixed.push((w.to_string(), a.text.clone()));
                    } else if a.kind == Kind::Ident && single {
                        if let Some(p) = pos(&a.text) {
                            h.passes.push((w.to_string(), p));
                        }
                    }
                }
            }
            j += 1;
        }
        if !h.reads.is_empty()
            || !h.passes.is_empty()
            || !h.fixed.is_empty()
            || !h.direct.is_empty()
            || h.body_from.is_some()
        {
            out.push(h);
        }
    }
    out
}

/// Multipart parts read by name: after `is PartData.FormItem` /
/// `is PartData.FileItem` (tracked in `kind`: `Some(true)` for files),
/// `part.name == "x"` at `i` names a form field or a file.
fn multipart_part(t: &[Token], i: usize, kind: &mut Option<bool>) -> Option<KParam> {
    let x = t.get(i)?;
    if x.kind != Kind::Ident || i < 2 || !t[i - 1].is('.') {
        return None;
    }
    match x.text.as_str() {
        "FormItem" | "FileItem" if t[i - 2].text == "PartData" => {
            *kind = Some(x.text == "FileItem");
            None
        }
        "name" => {
            let eq = t.get(i + 1)?.is('=') && t.get(i + 2)?.is('=');
            let lit = t.get(i + 3).filter(|y| y.kind == Kind::Str)?;
            if !eq {
                return None;
            }
            match (*kind)? {
                true => Some(KParam::File(lit.text.clone())),
                false => Some(KParam::Form(lit.text.clone())),
            }
        }
        _ => None,
    }
}

fn seq(t: &[Token], i: usize, words: &[&str]) -> bool {
    words.iter().enumerate().all(|(k, w)| {
        t.get(i + k)
            .is_some_and(|x| x.text == *w && x.kind != Kind::Str)
    })
}

/// `fun [<T>] [Receiver.]name(…)[: T] {` → (name, receiver, index of `{`).
fn fun_header(t: &[Token], i: usize) -> Option<(String, Option<String>, usize)> {
    let mut k = i + 1;
    if t.get(k)?.is('<') {
        k = close_of(t, k)? + 1;
    }
    let (dotted, mut k) = crate::jvm::tokens::dotted(t, k)?;
    if !t.get(k)?.is('(') {
        return None;
    }
    k = close_of(t, k)? + 1;
    while k < t.len() && !t[k].is('{') && !t[k].is('=') && !t[k].is('}') {
        k += 1;
    }
    if !t.get(k)?.is('{') {
        return None;
    }
    let (receiver, name) = match dotted.rsplit_once('.') {
        Some((r, n)) => (Some(r.to_string()), n.to_string()),
        None => (None, dotted),
    };
    Some((name, receiver, k))
}

/// Builds a [`KParam`] from a name.
type MakeParam = fn(String) -> KParam;

/// A `call.…` parameter read at `i`; returns it and the index after.
fn call_param(
    t: &[Token],
    i: usize,
    expr: &dyn Fn(std::ops::Range<usize>) -> Option<StrExpr>,
) -> Option<(KParam, usize)> {
    let sources: [(&[&str], MakeParam); 6] = [
        (&["call", ".", "parameters"], KParam::Parameter),
        (
            &["call", ".", "request", ".", "queryParameters"],
            KParam::Query,
        ),
        (&["call", ".", "request", ".", "headers"], KParam::Header),
        (&["call", ".", "request", ".", "cookies"], KParam::Cookie),
        (&["call", ".", "request", ".", "header"], KParam::Header),
        (&["call", ".", "receiveParameters", "(", ")"], KParam::Form),
    ];
    for (words, make) in sources {
        if !seq(t, i, words) {
            continue;
        }
        let mut k = i + words.len();
        if words.last() == Some(&"header") {
            // call.request.header("X")
            if t.get(k)?.is('(') {
                let name = t.get(k + 1).filter(|x| x.kind == Kind::Str)?;
                return Some((make(name.text.clone()), k + 2));
            }
            return None;
        }
        if t.get(k)?.is('[') {
            let close = close_of(t, k)?;
            let name = expr(k + 1..close)?.literal()?;
            return Some((make(name), close + 1));
        }
        if t.get(k)?.is('.')
            && matches!(t.get(k + 1)?.text.as_str(), "get" | "getOrFail" | "getAll")
        {
            k += 2;
            if t.get(k)?.is('<') {
                k = close_of(t, k)? + 1;
            }
            if t.get(k)?.is('(') {
                let name = t.get(k + 1).filter(|x| x.kind == Kind::Str)?;
                return Some((make(name.text.clone()), k + 2));
            }
        }
        return None;
    }
    // call.receive<T>() / call.receiveNullable<T>() / call.receive(T::class)
    if seq(t, i, &["call", "."])
        && matches!(
            t.get(i + 2)?.text.as_str(),
            "receive" | "receiveNullable" | "receiveOrNull"
        )
    {
        let k = i + 3;
        if t.get(k)?.is('<') {
            let close = close_of(t, k)?;
            let ty: String = t[k + 1..close].iter().map(|x| x.text.as_str()).collect();
            return Some((KParam::Body(ty), close + 1));
        }
        if t.get(k)?.is('(') && t.get(k + 2).is_some_and(|x| x.is(':')) {
            return Some((KParam::Body(t.get(k + 1)?.text.clone()), k + 3));
        }
        // `val body: Dto = call.receive()`: the declared type.
        if t.get(k)?.is('(') && t.get(k + 1)?.is(')') && i >= 3 {
            let ty = &t[i - 2];
            if t[i - 1].is('=')
                && t[i - 3].is(':')
                && ty.kind == Kind::Ident
                && ty.text.starts_with(|c: char| c.is_ascii_uppercase())
            {
                return Some((KParam::Body(ty.text.clone()), k + 2));
            }
        }
    }
    None
}
