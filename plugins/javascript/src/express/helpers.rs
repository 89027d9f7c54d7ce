//! Route-registering helpers: local functions that forward their path and
//! method arguments to router methods, such as
//!
//! ```js
//! function page(router, name, ...mw) {
//!   router.get(name, ...mw);
//!   router.get(`/api${name}`, ...mw);   // the JSON twin of a page
//! }
//! helpers.apiRoute = function (...args) {
//!   const [router, verb, path] = args;
//!   router[verb](path, handler);
//! };
//! page(app, '/users', list);
//! apiRoute(router, 'post', '/users', create);
//! ```
//!
//! The helper's routes are recorded with their receiver, method and path
//! expressed through its parameters; calls that pass a router-like first
//! argument and a path string are recorded as [`HelperCall`]s. `link`
//! inlines one level: every call of a helper (matched by name, possibly
//! in another module) becomes the helper's routes with the call's
//! arguments substituted.

use portolan_plugin_sdk::{Code, Param, SourceFile};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use super::scan::{handler_args, methods_of, paths_of, METHODS};
use crate::js::outline::{function_parts, param_names, Outline, ScopeKind};
use crate::js::strexpr::{Piece, StrExpr};
use crate::js::syntax::dotted_before;

/// A function registering routes on one of its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Helper {
    /// Last segment of its name (`setupPageRoute`).
    pub name: String,
    /// Positional parameter names (a rest parameter destructured with
    /// `const [a, b] = rest` contributes `a`, `b`).
    pub params: Vec<String>,
    pub routes: Vec<HelperRoute>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelperRoute {
    /// Index of the parameter the route is registered on.
    pub receiver: usize,
    /// Literal methods (`router.get`), or empty with `method_param`.
    pub methods: Vec<String>,
    /// `router[verb](…)`: the index of `verb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method_param: Option<usize>,
    /// Paths; references to parameters are `#<index>`.
    pub paths: Vec<StrExpr>,
}

/// `f(router, …, '/path', …handlers)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelperCall {
    pub line: u32,
    /// Last segment of the callee's name.
    pub callee: String,
    /// Every argument as a string expression (names scoped), when it is one.
    pub args: Vec<Option<StrExpr>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<String>,
}

/// A candidate helper function: its positional parameters and body.
struct Def {
    name: String,
    params: Vec<String>,
    body: Range<usize>,
}

use crate::js::pattern::re;

/// Functions of the module that could be helpers: top-level functions and
/// `obj.name = function (…) {…}` / `obj.name = (…) => {…}` assignments.
fn defs(code: &Code<'_>, outline: &Outline) -> Vec<Def> {
    let mut out: Vec<Def> = Vec::new();
    for s in &outline.scopes {
        if s.kind == ScopeKind::Function {
            let last = s.name.rsplit('.').next().unwrap_or(&s.name).to_string();
            out.push(Def {
                name: last,
                params: s.params.clone(),
                body: s.body.clone(),
            });
        }
    }
    static ASSIGN: OnceLock<Regex> = OnceLock::new();
    let assign = re(
        &ASSIGN,
        r"(?m)^[ \t]*(?:[A-Za-z_$][\w$]*\.)+([A-Za-z_$][\w$]*)[ \t]*=[ \t]*((?:async\s+)?(?:function\b|\())",
    );
    let text = code.text();
    for c in assign.captures_iter(text) {
        let (Some(all), Some(name), Some(rhs)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        let start = all.start() + all.as_str().len() - all.as_str().trim_start().len();
        if !outline.is_top(start) || !code.is_code(start) {
            continue;
        }
        let Some((params, body)) = function_parts(code, rhs.start()..text.len()) else {
            continue;
        };
        out.push(Def {
            name: name.as_str().to_string(),
            params: param_names(code, params),
            body,
        });
    }
    // A rest parameter destructured in the body: `const [router, name] = args`.
    static DESTRUCT: OnceLock<Regex> = OnceLock::new();
    let destruct = re(
        &DESTRUCT,
        r"\b(?:const|let|var)\s*\[([\w$\s,]*)\]\s*=\s*([A-Za-z_$][\w$]*)\s*;?",
    );
    for d in &mut out {
        let Some(last) = d.params.last().cloned() else {
            continue;
        };
        let Some(body) = text.get(d.body.clone()) else {
            continue;
        };
        if let Some(c) = destruct
            .captures_iter(body)
            .find(|c| c.get(2).is_some_and(|m| m.as_str() == last))
        {
            let names: Vec<String> = c
                .get(1)
                .map_or("", |m| m.as_str())
                .split(',')
                .map(|n| n.trim().to_string())
                .collect();
            d.params.pop();
            d.params.extend(names);
        }
    }
    out.sort_by_key(|d| d.body.start);
    out
}

/// The innermost-starting candidate whose body holds `offset`.
fn def_at(defs: &[Def], offset: usize) -> Option<&Def> {
    let i = defs.partition_point(|d| d.body.start <= offset);
    defs[..i].iter().rev().find(|d| offset < d.body.end)
}

/// The unscoped last segment of a (scoped) name: `f#router` → `router`.
fn local(name: &str) -> &str {
    name.rsplit('#').next().unwrap_or(name)
}

/// Rewrite references to the def's parameters as `#<index>`; `None` when
/// no piece refers to a parameter.
fn parametrize(def: &Def, e: &StrExpr) -> Option<StrExpr> {
    let mut hit = false;
    let pieces =
        e.0.iter()
            .map(|p| match p {
                Piece::Ref(n) => match def.params.iter().position(|x| x == local(n)) {
                    Some(i) => {
                        hit = true;
                        Piece::Ref(format!("#{i}"))
                    }
                    None => p.clone(),
                },
                l => l.clone(),
            })
            .collect();
    hit.then_some(StrExpr(pieces))
}

/// Map step: the helpers defined in the module and the candidate calls.
/// `is_route` tells the main scan which route calls belong to a helper
/// (their receiver and path come from its parameters), with the helper's
/// name: they are reported as they are only when no call of the helper is
/// found (a function called through a table or with names only).
pub fn scan(
    file: &SourceFile,
    code: &Code<'_>,
    outline: &Outline,
) -> (Vec<Helper>, Vec<HelperCall>, Vec<(usize, String)>) {
    let defs = defs(code, outline);
    let text = code.text();
    let mut helpers: Vec<Helper> = Vec::new();
    let mut consumed = Vec::new();
    static ROUTE: OnceLock<Regex> = OnceLock::new();
    let route = re(
        &ROUTE,
        r"(?:\.\s*(get|post|put|patch|delete|del|all|options|head)|\[\s*([A-Za-z_$][\w$]*)\s*\])\s*\(",
    );
    if !defs.is_empty() {
        for c in route.captures_iter(text) {
            let Some(all) = c.get(0) else { continue };
            let at = all.start();
            if !code.is_code(at) {
                continue;
            }
            let Some(def) = def_at(&defs, at) else {
                continue;
            };
            let Some((receiver, _)) = dotted_before(code, at) else {
                continue;
            };
            let Some(ri) = def.params.iter().position(|p| p == local(&receiver)) else {
                continue;
            };
            let (methods, method_param) = match (c.get(1), c.get(2)) {
                (Some(m), _) => (methods_of(m.as_str()), None),
                (None, Some(v)) => match def.params.iter().position(|p| p == v.as_str()) {
                    Some(i) => (Vec::new(), Some(i)),
                    None => continue,
                },
                _ => continue,
            };
            let args = code.args(all.end() - 1);
            let Some(first) = args.first() else { continue };
            let paths = paths_of(code, outline, first.clone());
            let params: Vec<StrExpr> = paths.iter().filter_map(|p| parametrize(def, p)).collect();
            if params.is_empty() && method_param.is_none() {
                continue;
            }
            let paths = if params.len() == paths.len() {
                params
            } else {
                paths
            };
            consumed.push((at, def.name.clone()));
            let hr = HelperRoute {
                receiver: ri,
                methods,
                method_param,
                paths,
            };
            match helpers.iter_mut().find(|h| h.name == def.name) {
                Some(h) => h.routes.push(hr),
                None => helpers.push(Helper {
                    name: def.name.clone(),
                    params: def.params.clone(),
                    routes: vec![hr],
                }),
            }
        }
    }
    (helpers, calls(file, code, outline), consumed)
}

/// Calls `f(x, …)` whose first argument is a name and one of the others a
/// string (the path, or a piece of it, handed to a helper).
fn calls(file: &SourceFile, code: &Code<'_>, outline: &Outline) -> Vec<HelperCall> {
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"([A-Za-z_$][\w$]*)\s*\(\s*(?:this\.)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*,",
    );
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let callee = name.as_str();
        if !code.is_code(all.start())
            || METHODS.contains(&callee)
            || matches!(
                callee,
                "use" | "route" | "require" | "function" | "if" | "while" | "for" | "switch"
            )
        {
            continue;
        }
        let Some(open) = (all.start()..all.end()).find(|&i| bytes[i] == b'(') else {
            continue;
        };
        let args = code.args(open);
        let exprs: Vec<Option<StrExpr>> = args
            .iter()
            .map(|a| {
                StrExpr::parse(code, a.clone())
                    .map(|e| e.map_refs(&mut |n| outline.scoped(n, a.start)))
            })
            .collect();
        // The path (or the last literal before the handlers).
        let Some(pi) = exprs.iter().skip(1).rposition(|e| {
            e.as_ref()
                .is_some_and(|e| matches!(e.0.first(), Some(Piece::Lit(_))))
        }) else {
            continue;
        };
        let (params, handlers, _) = handler_args(code, outline, &args[pi + 2..]);
        out.push(HelperCall {
            line: file.line_of(all.start()),
            callee: callee.to_string(),
            args: exprs,
            params,
            handlers,
        });
    }
    out
}

/// Reduce step: every call of a helper (by name; a helper of the calling
/// module wins over same-named ones elsewhere) as the routes it registers,
/// per module.
pub fn expand(
    project: &crate::js::project::Project<'_>,
    modules: &[super::scan::ExpressModule],
) -> Vec<Vec<super::scan::Route>> {
    use std::collections::HashMap;
    let mut by_name: HashMap<&str, Vec<(usize, &Helper)>> = HashMap::new();
    for (mi, m) in modules.iter().enumerate() {
        for h in &m.helpers {
            by_name.entry(h.name.as_str()).or_default().push((mi, h));
        }
    }
    let mut out = vec![Vec::new(); modules.len()];
    if by_name.is_empty() {
        return out;
    }
    for (mi, m) in modules.iter().enumerate() {
        for call in &m.helper_calls {
            let Some(cands) = by_name.get(call.callee.as_str()) else {
                continue;
            };
            let local: Vec<&(usize, &Helper)> = cands.iter().filter(|(hm, _)| *hm == mi).collect();
            let chosen: Vec<&(usize, &Helper)> = if local.is_empty() {
                cands.iter().collect()
            } else {
                local
            };
            for (hm, h) in chosen {
                for hr in &h.routes {
                    if let Some(r) = inline(project, mi, *hm, call, hr) {
                        out[mi].push(r);
                    }
                }
            }
        }
    }
    out
}

fn inline(
    project: &crate::js::project::Project<'_>,
    mi: usize,
    hm: usize,
    call: &HelperCall,
    hr: &HelperRoute,
) -> Option<super::scan::Route> {
    let arg = |i: usize| call.args.get(i).and_then(|a| a.as_ref());
    let receiver = arg(hr.receiver)?.as_name()?.to_string();
    let methods = match hr.method_param {
        Some(i) => {
            let m = arg(i)?.literal()?.to_ascii_lowercase();
            if !METHODS.contains(&m.as_str()) {
                return None;
            }
            methods_of(&m)
        }
        None => hr.methods.clone(),
    };
    let mut paths = Vec::new();
    // The caller's arguments stay symbolic (resolved in the caller's module
    // at link, where dispatch keys may bind them); the helper's own names
    // are resolved in its module now.
    let _ = mi;
    for p in &hr.paths {
        let mut pieces: Vec<Piece> = Vec::new();
        for piece in &p.0 {
            match piece {
                Piece::Lit(l) => pieces.push(Piece::Lit(l.clone())),
                Piece::Ref(n) => match n.strip_prefix('#').and_then(|i| i.parse().ok()) {
                    Some(i) => pieces.extend(arg(i)?.0.iter().cloned()),
                    None => pieces.push(Piece::Lit(super::link::path_value(
                        project,
                        hm,
                        &StrExpr(vec![piece.clone()]),
                    ))),
                },
            }
        }
        paths.push(StrExpr(pieces));
    }
    Some(super::scan::Route {
        line: call.line,
        receiver,
        methods,
        paths,
        params: call.params.clone(),
        handlers: call.handlers.clone(),
        helper: None,
        flows: Vec::new(),
        guards: Vec::new(),
    })
}
