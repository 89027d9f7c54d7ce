//! Map step: what one module declares for Express.

use portolan_plugin_sdk::{Code, Param, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

use crate::js::flow::{self, Flow, Sink};
use crate::js::guard::{guard_params, validator_params};
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{
    function_parts, methods, object_entries, param_names, Outline, ScopeKind,
};
use crate::js::request::request_params;
use crate::js::strexpr::StrExpr;
use crate::js::syntax::{dotted_before, is_js_ident, next_code_byte};
use crate::nestjs::scan::{guard_kind, Dto, Guard};

/// One scanned module.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExpressModule {
    pub info: ModuleInfo,
    /// The module imports `express`.
    #[serde(default)]
    pub express: bool,
    /// Names bound to `express()` (apps) or `Router()` (routers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<Mount>,
    /// Functions reading request parameters, by scoped name (`list`,
    /// `exports.list`, `UserController.list`, `ctrl.create`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<Handler>,
    /// Functions registering routes from their parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helpers: Vec<super::helpers::Helper>,
    /// Calls that may be calls of such helpers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helper_calls: Vec<super::helpers::HelperCall>,
    /// `table[key](router, name)` registration dispatch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dispatch: Vec<super::dispatch::DispatchCall>,
    /// What functions do with their parameters (see [`crate::js::flow`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sinks: Vec<Sink>,
    /// Classes and interfaces with their fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dtos: Vec<Dto>,
    /// Objects of schemas per request part (see
    /// [`crate::js::guard::part_objects`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<(String, Vec<Param>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub receiver: String,
    pub methods: Vec<String>,
    pub paths: Vec<StrExpr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// Named handlers (scoped dotted names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<String>,
    /// Registered by this route helper (reported only when the helper is
    /// never called as one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub helper: Option<String>,
    /// Request parts inline handlers forward, copy or type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<Flow>,
    /// Authentication/authorization middleware in the route's arguments
    /// or `use`d on its router before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<Guard>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub receiver: String,
    /// `None` when the first argument is not a path.
    pub prefixes: Vec<StrExpr>,
    pub children: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    pub name: String,
    pub params: Vec<Param>,
    /// Request parts forwarded to services, copied or typed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<Flow>,
}

pub const METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "del", "all", "options", "head",
];

/// Route path arguments: a string expression or an array of them.
pub fn paths_of(code: &Code<'_>, outline: &Outline, r: std::ops::Range<usize>) -> Vec<StrExpr> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let scope = |e: StrExpr| e.map_refs(&mut |n| outline.scoped(n, s));
    if bytes.get(s) == Some(&b'[') {
        return code
            .args(s)
            .into_iter()
            .filter_map(|a| StrExpr::parse(code, a))
            .map(scope)
            .collect();
    }
    StrExpr::parse(code, r).map(scope).into_iter().collect()
}

/// The router a call chain ending at the `.` at `dot` is made on, when the
/// chain starts with a `Router()` / `express.Router()` call: a name for
/// that router (`Router()@offset`), which the chain's binding (`const api
/// = …`) or the module's default export (`export default …`) now stands
/// for.
fn router_chain(code: &Code<'_>, dot: usize, info: &mut module::ModuleInfo) -> Option<String> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut p = dot;
    for _ in 0..64 {
        // Whitespace and comments (`// .use(legacy)` between chained calls).
        while p > 0 && (bytes[p - 1].is_ascii_whitespace() || !code.is_code(p - 1)) {
            p -= 1;
        }
        if p == 0 || bytes[p - 1] != b')' {
            return None;
        }
        let open = crate::js::syntax::matching_back(code, p - 1)?;
        let mut e = open;
        while e > 0 && bytes[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        let mut s = e;
        while s > 0 && is_js_ident(bytes[s - 1]) {
            s -= 1;
        }
        if s == e {
            return None;
        }
        let ident = &text[s..e];
        let mut q = s;
        while q > 0 && bytes[q - 1].is_ascii_whitespace() {
            q -= 1;
        }
        let start = if ident == "Router" {
            // `Router()` or `express.Router()`: the chain's root.
            dotted_before(code, open)?.1
        } else if q > 0 && bytes[q - 1] == b'.' && code.is_code(q - 1) {
            // `….use(a).use(`: keep walking.
            p = q - 1;
            continue;
        } else {
            return None;
        };
        let synthetic = format!("Router()@{start}");
        let before = text.get(..start)?.trim_end();
        if before.ends_with("export default") {
            match info.exports.iter_mut().find(|e| e.name == "default") {
                Some(e) => e.value = Value::Name(synthetic.clone()),
                None => info.exports.push(module::Export {
                    name: "default".into(),
                    value: Value::Name(synthetic.clone()),
                }),
            }
            return Some(synthetic);
        }
        let before = before.strip_suffix('=')?.trim_end();
        if before.ends_with(['=', '!', '<', '>']) {
            return None;
        }
        let var: String = before
            .bytes()
            .rev()
            .take_while(|b| is_js_ident(*b))
            .map(char::from)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let decl = before[..before.len() - var.len()].trim_end();
        if var.is_empty() || !["const", "let", "var"].iter().any(|k| decl.ends_with(k)) {
            return None;
        }
        match info.bindings.iter_mut().find(|b| b.name == var) {
            Some(b) => b.value = Value::Name(synthetic.clone()),
            None => info.bindings.push(module::Binding {
                name: var,
                value: Value::Name(synthetic.clone()),
            }),
        }
        return Some(synthetic);
    }
    None
}

/// Parameters of an inline handler (`(req, res) => …`, `function (req) {…}`).
pub fn inline_params(code: &Code<'_>, r: std::ops::Range<usize>) -> Option<Vec<Param>> {
    inline_params_with(code, r, request_params)
}

/// What a handler body reads, given the name of its first parameter.
pub type Reader = fn(&Code<'_>, std::ops::Range<usize>, &str) -> Vec<Param>;

/// [`inline_params`] with another way of reading the request.
pub fn inline_params_with(
    code: &Code<'_>,
    r: std::ops::Range<usize>,
    read: Reader,
) -> Option<Vec<Param>> {
    let (params, body) = function_parts(code, r)?;
    let names = param_names(code, params);
    let req = names.first().cloned().unwrap_or_default();
    Some(read(code, body, &req))
}

pub fn scan(file: &SourceFile) -> ExpressModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let mut info = (*module::scanned(file, &code, &outline)).clone();
    let express = info.imports.iter().any(|i| i.spec == "express")
        || code.text().contains("require('express')")
        || code.text().contains("require(\"express\")");
    let mut out = ExpressModule {
        express,
        ..ExpressModule::default()
    };
    let express_locals: Vec<&str> = info
        .imports
        .iter()
        .filter(|i| i.spec == "express")
        .map(|i| i.local.as_str())
        .collect();
    for b in &info.bindings {
        if is_express_ctor(&b.value, &express_locals) {
            out.objects.push(b.name.clone());
        }
    }
    let (helpers, helper_calls, consumed) = super::helpers::scan(file, &code, &outline);
    out.helpers = helpers;
    out.helper_calls = helper_calls;
    out.dispatch = super::dispatch::scan(&code, &outline);
    let text = code.text();
    let bytes = text.as_bytes();
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = CALL.get_or_init(|| {
        crate::js::pattern::regex(
            r"\.\s*(get|post|put|patch|delete|del|all|options|head|route|use)\s*\(",
        )
        .unwrap_or_else(crate::js::pattern::never)
    });
    let loops = array_loops(&code);
    let mut router_guards: Vec<(String, usize, Guard)> = Vec::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let helper = consumed
            .binary_search_by_key(&all.start(), |(at, _)| *at)
            .ok()
            .and_then(|i| consumed.get(i))
            .map(|(_, h)| h.clone());
        let receiver = match dotted_before(&code, all.start()) {
            Some((r, _)) => outline.scoped(&r, all.start()),
            // `const api = Router().use(a).use(b)`, `export default
            // Router().use('/api', api)`: a chain on a new router.
            None => match router_chain(&code, all.start(), &mut info) {
                Some(r) => {
                    if !out.objects.contains(&r) {
                        out.objects.push(r.clone());
                    }
                    r
                }
                None => continue,
            },
        };
        let open = all.end() - 1;
        let args = code.args(open);
        let method = m.as_str();
        match method {
            "use" => {
                let Some(first) = args.first() else { continue };
                if let Some(ms) =
                    table_mounts(&code, &outline, &loops, all.start(), &receiver, &args)
                {
                    out.mounts.extend(ms);
                    continue;
                }
                // `api.use(tagsRouter)`: a lone argument is middleware, not
                // a path.
                let prefixes = if args.len() == 1 && code.string_at(first.start).is_none() {
                    Vec::new()
                } else {
                    paths_of(&code, &outline, first.clone())
                };
                let rest = if prefixes.is_empty() {
                    &args[..]
                } else {
                    &args[1..]
                };
                if prefixes.is_empty() {
                    for g in middleware_guards(&code, rest, file.line_of(all.start())) {
                        router_guards.push((receiver.clone(), all.start(), g));
                    }
                }
                let mut children = Vec::new();
                for a in rest {
                    let s = code.skip_ws(a.start);
                    if bytes.get(s) == Some(&b'[') {
                        for x in code.args(s) {
                            children.extend(module::parse_value(&code, &outline, x));
                        }
                    } else {
                        children.extend(module::parse_value(&code, &outline, a.clone()));
                    }
                }
                if !children.is_empty() {
                    out.mounts.push(Mount {
                        receiver,
                        prefixes,
                        children,
                    });
                }
            }
            "route" => {
                let Some(first) = args.first() else { continue };
                let paths = paths_of(&code, &outline, first.clone());
                if paths.is_empty() {
                    continue;
                }
                let Some(mut close) = code.matching(open) else {
                    continue;
                };
                // `.get(h).post(h2)…`
                loop {
                    let d = code.skip_ws(close + 1);
                    if bytes.get(d) != Some(&b'.') {
                        break;
                    }
                    let name_start = code.skip_ws(d + 1);
                    let Some(name) = code.ident_at(name_start) else {
                        break;
                    };
                    let name = name.to_string();
                    let Some(p) = next_code_byte(
                        &code,
                        name_start + name.len(),
                        name_start + name.len() + 1,
                        b'(',
                    ) else {
                        break;
                    };
                    let Some(c2) = code.matching(p) else { break };
                    if METHODS.contains(&name.as_str()) {
                        let (params, handlers, flows) =
                            handler_args(&code, &outline, &code.args(p));
                        out.routes.push(Route {
                            line: file.line_of(name_start),
                            receiver: receiver.clone(),
                            methods: methods_of(&name),
                            paths: paths.clone(),
                            params,
                            handlers,
                            helper: helper.clone(),
                            flows,
                            guards: Vec::new(),
                        });
                    }
                    close = c2;
                }
            }
            _ => {
                if args.len() < 2 {
                    continue;
                }
                let paths = paths_of(&code, &outline, args[0].clone());
                if paths.is_empty() {
                    continue;
                }
                let (params, handlers, flows) = handler_args(&code, &outline, &args[1..]);
                let line = file.line_of(code.skip_ws(all.start() + 1));
                let guards = middleware_guards(&code, &args[1..args.len() - 1], line);
                out.routes.push(Route {
                    line: file.line_of(code.skip_ws(all.start() + 1)),
                    receiver,
                    methods: methods_of(method),
                    paths,
                    params,
                    handlers,
                    helper: helper.clone(),
                    flows,
                    guards,
                });
            }
        }
    }
    // `router.use(requireAuth)`: every later route of that router.
    for (receiver, at, g) in &router_guards {
        let line = file.line_of(*at);
        for r in out
            .routes
            .iter_mut()
            .filter(|r| &r.receiver == receiver && r.line > line)
        {
            if !r.guards.iter().any(|o| o.name == g.name) {
                r.guards.push(g.clone());
            }
        }
    }
    handlers(&code, &outline, &mut out.handlers);
    out.sinks = flow::sinks(&code, &outline);
    out.dtos = crate::nestjs::scan::dtos(&code, &outline);
    out.parts = crate::js::guard::part_objects(&code, &outline);
    out.info = info;
    out
}

/// Authentication middleware among route arguments: `requireAuth`,
/// `passport.authenticate('jwt')`, `auth.verifyToken`, `checkRole('admin')`.
fn middleware_guards(code: &Code<'_>, args: &[std::ops::Range<usize>], line: u32) -> Vec<Guard> {
    let mut out: Vec<Guard> = Vec::new();
    for a in args {
        let t = code.slice(a.clone()).trim();
        if t.starts_with(['(', '[', '{', '\'', '"', '`'])
            || t.starts_with("async")
            || t.starts_with("function")
        {
            continue;
        }
        let callee = t.split('(').next().unwrap_or(t).trim();
        if callee.is_empty() || !callee.bytes().all(|b| is_js_ident(b) || b == b'.') {
            continue;
        }
        let Some(kind) = guard_kind(callee) else {
            continue;
        };
        let name: String = t.chars().take(80).collect();
        if !out.iter().any(|g| g.name == name) {
            out.push(Guard {
                kind: kind.to_string(),
                name,
                line,
            });
        }
    }
    out
}

/// Loops over a named array: `routes.forEach((route) => …)`, `for (const
/// route of routes) …`: (variable, array name, the loop's range).
fn array_loops(code: &Code<'_>) -> Vec<(String, String, std::ops::Range<usize>)> {
    static LOOP: OnceLock<Regex> = OnceLock::new();
    let lp = LOOP.get_or_init(|| {
        crate::js::pattern::regex(
            r"\b([A-Za-z_$][\w$]*)\s*\.\s*forEach\s*\(\s*(?:\(\s*)?([A-Za-z_$][\w$]*)|\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+([A-Za-z_$][\w$]*)\s*\)",
        ).unwrap_or_else(crate::js::pattern::never)
    });
    let text = code.text();
    if !text.contains("forEach") && !text.contains(" of ") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in lp.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        if !code.is_code(all.start()) {
            continue;
        }
        let (var, arr, range) = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
            (Some(a), Some(v), _, _) => {
                let Some(open) = text[a.end()..].find('(').map(|k| a.end() + k) else {
                    continue;
                };
                let Some(close) = code.matching(open) else {
                    continue;
                };
                (v, a, open..close)
            }
            (_, _, Some(v), Some(a)) => {
                let end = crate::js::module::statement_end(code, all.end());
                let b = code.skip_ws(all.end());
                let end = if text.as_bytes().get(b) == Some(&b'{') {
                    code.matching(b).unwrap_or(end)
                } else {
                    end
                };
                (v, a, all.end()..end)
            }
            _ => continue,
        };
        out.push((var.as_str().to_string(), arr.as_str().to_string(), range));
    }
    out
}

/// `router.use(route.path, route.route)` inside a loop over an array of
/// object literals declared in this module (`const routes = [{ path:
/// '/users', route: userRoute }, …]`): one mount per element.
fn table_mounts(
    code: &Code<'_>,
    outline: &Outline,
    loops: &[(String, String, std::ops::Range<usize>)],
    at: usize,
    receiver: &str,
    args: &[std::ops::Range<usize>],
) -> Option<Vec<Mount>> {
    if loops.is_empty() || args.len() < 2 {
        return None;
    }
    let member = |r: &std::ops::Range<usize>| -> Option<(String, String)> {
        let t = code.slice(r.clone()).trim();
        let (v, k) = t.split_once('.')?;
        (v.bytes().all(is_js_ident) && k.bytes().all(is_js_ident))
            .then(|| (v.to_string(), k.to_string()))
    };
    let (var, path_key) = member(&args[0])?;
    let (var2, child_key) = member(args.last()?)?;
    if var != var2 {
        return None;
    }
    let (_, arr, _) = loops
        .iter()
        .find(|(v, _, r)| *v == var && r.contains(&at))?;
    let v = module::declared_value(code, arr, false, usize::MAX)?;
    let v = code.skip_ws(v);
    if code.text().as_bytes().get(v) != Some(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    for el in code.args(v) {
        let o = code.skip_ws(el.start);
        if code.text().as_bytes().get(o) != Some(&b'{') {
            continue;
        }
        let entries = object_entries(code, o);
        let (Some(p), Some(c)) = (
            entries.iter().find(|e| e.key == path_key),
            entries.iter().find(|e| e.key == child_key),
        ) else {
            continue;
        };
        let prefixes = paths_of(code, outline, p.value.clone());
        let Some(child) = module::parse_value(code, outline, c.value.clone()) else {
            continue;
        };
        if prefixes.is_empty() {
            continue;
        }
        out.push(Mount {
            receiver: receiver.to_string(),
            prefixes,
            children: vec![child],
        });
    }
    Some(out)
}

/// `express()`, `express.Router()`, `Router()` (imported from express),
/// `require('express').Router()`.
fn is_express_ctor(v: &Value, locals: &[&str]) -> bool {
    let Value::Call { callee, .. } = v else {
        return false;
    };
    match callee.as_ref() {
        Value::Name(n) => {
            let last = n.rsplit('.').next().unwrap_or(n);
            let head = n.split('.').next().unwrap_or(n);
            locals.contains(&n.as_str())
                || (last == "Router" && (locals.contains(&head) || n == "Router"))
        }
        Value::Require { spec, member } => {
            spec == "express" && matches!(member.as_deref(), None | Some("Router"))
        }
        _ => false,
    }
}

pub fn methods_of(name: &str) -> Vec<String> {
    match name {
        "all" => ["GET", "POST", "PUT", "PATCH", "DELETE"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        "del" => vec!["DELETE".into()],
        m => vec![m.to_ascii_uppercase()],
    }
}

/// Parameters of inline handlers, names of the others, and the request
/// parts inline handlers pass on.
pub fn handler_args(
    code: &Code<'_>,
    outline: &Outline,
    args: &[std::ops::Range<usize>],
) -> (Vec<Param>, Vec<String>, Vec<Flow>) {
    let mut params: Vec<Param> = Vec::new();
    let mut names = Vec::new();
    let mut flows: Vec<Flow> = Vec::new();
    for a in args {
        if let Some((ps, body)) = function_parts(code, a.clone()) {
            let req = param_names(code, ps).first().cloned().unwrap_or_default();
            let (ps, fl) = flow::request_flows(code, outline, body, &req);
            params.extend(ps);
            flows.extend(fl);
        }
        let ps = inline_params(code, a.clone())
            .or_else(|| validator_params(code, a.clone()))
            .or_else(|| guard_params(code, a.clone()));
        if let Some(ps) = ps {
            for p in ps {
                if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                    params.push(p);
                }
            }
        } else if let Some(Value::Name(n)) = module::parse_value(code, outline, a.clone()) {
            names.push(n);
        } else if let Some(Value::Call { callee, .. }) =
            module::parse_value(code, outline, a.clone())
        {
            // `asyncHandler(controller.list)` wraps: look inside.
            let _ = callee;
            let s = code.skip_ws(a.start);
            if let Some(open) = next_code_byte(code, s, a.end, b'(') {
                let inner = code.args(open);
                let (p2, n2, f2) = handler_args(code, outline, &inner);
                flows.extend(f2);
                for p in p2 {
                    if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                        params.push(p);
                    }
                }
                names.extend(n2);
            }
        }
    }
    let mut seen = Vec::new();
    params.retain(|p| {
        let new = !seen
            .iter()
            .any(|o: &Param| o.name == p.name && o.kind == p.kind);
        if new {
            seen.push(p.clone());
        }
        new
    });
    (params, names, flows)
}

/// Functions, class methods and object-literal methods that read the
/// request, keyed by their scoped name.
pub fn handlers(code: &Code<'_>, outline: &Outline, out: &mut Vec<Handler>) {
    handlers_with(code, outline, out, request_params)
}

/// [`handlers`] with another way of reading the request.
pub fn handlers_with(code: &Code<'_>, outline: &Outline, out: &mut Vec<Handler>, read: Reader) {
    let request_params = |code: &Code<'_>, body: std::ops::Range<usize>, req: &str| {
        let mut ps = read(code, body.clone(), req);
        let (more, flows) = flow::request_flows(code, outline, body, req);
        for p in more {
            if !ps.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                ps.push(p);
            }
        }
        (ps, flows)
    };
    let mut push = |name: String, (params, flows): (Vec<Param>, Vec<Flow>)| {
        if !params.is_empty() || !flows.is_empty() {
            out.push(Handler {
                name,
                params,
                flows,
            });
        }
    };
    for s in &outline.scopes {
        match s.kind {
            ScopeKind::Function => {
                let req = s.params.first().cloned().unwrap_or_default();
                push(s.name.clone(), request_params(code, s.body.clone(), &req));
            }
            ScopeKind::Class => {
                for m in methods(code, outline, s.body.clone()) {
                    let req = param_names(code, m.params.clone())
                        .first()
                        .cloned()
                        .unwrap_or_default();
                    let ps = request_params(code, m.body.clone(), &req);
                    push(format!("{}#this.{}", s.name, m.name), ps.clone());
                    push(format!("{}.{}", s.name, m.name), ps);
                }
            }
        }
    }
    // Object literals: `module.exports = { list(req, res) {…} }`,
    // `const ctrl = { create: async (req, res) => {…} }`.
    static OBJ: OnceLock<Regex> = OnceLock::new();
    let obj = OBJ.get_or_init(|| {
        crate::js::pattern::regex(
            r"(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)|\bmodule\.(exports))\s*=\s*\{",
        )
        .unwrap_or_else(crate::js::pattern::never)
    });
    for c in obj.captures_iter(code.text()) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1).or(c.get(2))) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let name = outline.scoped(name.as_str(), all.start());
        for e in object_entries(code, all.end() - 1) {
            if let Some((params, body)) = e.function {
                let req = param_names(code, params)
                    .first()
                    .cloned()
                    .unwrap_or_default();
                push(
                    format!("{name}.{}", e.key),
                    request_params(code, body, &req),
                );
            }
        }
    }
}
