//! Pyramid (`python_pyramid`).
//!
//! URL dispatch links a route *name* to a pattern and to views, often in
//! different files:
//! - `config.add_route('user', '/users/{id}')` declares the pattern (an
//!   optional `request_method=` predicate limits its methods);
//! - `@view_config(route_name='user', request_method='POST')` on a
//!   function, or on the methods of a class (with `@view_defaults(
//!   route_name=…, request_method=…)` on the class), and
//!   `config.add_view(view, route_name=…, request_method=…, attr=…)` attach
//!   views (several per route: one endpoint per view and method).
//!
//! Prefixes: `config.include('.api', route_prefix='/api')` (a dotted module
//! — its `includeme` — or function, relative or absolute, or a name) runs
//! the included function under the prefix, nested includes compose, `with
//! config.route_prefix_context('/v1'):` prefixes what it wraps, and a plain
//! call `add_routes(config)` shares the caller's prefix. Patterns may use
//! constants; `{id:\d+}` is reported as `{id}`.
//!
//! Methods: the view's (or route's) `request_method` — a string or a
//! list. Pyramid serves every method to a view without one; like the
//! Django analyzer we report GET plus the methods the body compares
//! `request.method` with, plus POST when it reads a body (`POST`,
//! `json_body`). A route without any view in the tree is reported as GET
//! at its `add_route` line.
//!
//! Cornice services are understood too: `svc = Service(name=…,
//! path='/x/{id}')` with `@svc.get()` / `@svc.post()` … decorators, and
//! `@resource(collection_path=…, path=…)` classes (`collection_get`,
//! `collection_post`, `get`, `put`, `patch`, `delete`).
//!
//! Parameters read from the request (the view's `request` argument or
//! `self.request`): `params` / `GET` → query, `POST` → form, `json_body` /
//! `json` → json, `headers` → header, `cookies` → cookie.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ops::Range;

use crate::py::call::{call_at, method_call, methods_list, whole_dotted, Call};
use crate::py::lines::{block_body, logical_lines, LogicalLine};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, Def, DefKind};
use crate::py::project::{Binding, Project};
use crate::py::request::request_params_with;
use crate::py::strexpr::StrExpr;

pub struct Pyramid;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PyramidModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<RouteDecl>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<ViewDecl>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub includes: Vec<Include>,
    /// Top-level function names (include / call targets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
    /// Handlers `add_view` may name: `func` or `Class.method`, with the
    /// parameters and body methods.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<Handler>,
    /// Cornice endpoints (complete but for constants in the path).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceView>,
}

/// Where a configuration statement runs: the enclosing top-level function
/// (empty at module level) and the `route_prefix_context` blocks around it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ctx {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scope: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefixes: Vec<StrExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteDecl {
    pub line: u32,
    pub name: String,
    pub pattern: StrExpr,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<String>>,
    pub ctx: Ctx,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ViewRef {
    /// Parameters and body methods known at scan time (decorated views).
    Known(Handler),
    /// `add_view(name_or_dotted_string, attr=…)`.
    Name {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attr: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewDecl {
    pub line: u32,
    pub route_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<String>>,
    pub view: ViewRef,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// Methods implied by the body (GET always first).
    pub methods: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IncludeTarget {
    /// `'.api'`, `'myapp.api'`, `'myapp.api.setup'`.
    Dotted(String),
    /// A name or dotted name (`api`, `api.includeme`, `setup_routes`).
    Name(String),
}

/// `config.include(target, route_prefix=…)`, or a plain call passing the
/// configurator (`route_prefix` absent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Include {
    pub target: IncludeTarget,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<StrExpr>,
    pub ctx: Ctx,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceView {
    pub line: u32,
    pub method: String,
    pub path: StrExpr,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
}

fn sources(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "params" | "GET" => ParamKind::Query,
        "POST" => ParamKind::Form,
        "json_body" | "json" => ParamKind::Json,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        _ => return None,
    })
}

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// A string literal argument (or a constant of this module).
fn literal(code: &Code<'_>, info: &ModuleInfo, range: Option<Range<usize>>) -> Option<String> {
    let expr = StrExpr::parse(code, range?)?;
    expr.resolve(&mut |n| info.constant(n)?.value.literal())
}

fn request_methods(code: &Code<'_>, call: &Call) -> Option<Vec<String>> {
    methods_list(code, call.keyword("request_method")).map(|ms| {
        let mut out: Vec<String> = Vec::new();
        for m in ms {
            let add: Vec<String> = if m == "ANY" || m == "*" {
                ANY.iter().map(|s| s.to_string()).collect()
            } else {
                vec![m]
            };
            for a in add {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        out
    })
}

struct Scanner<'a> {
    code: Code<'a>,
    lines: Vec<LogicalLine>,
    defs: Vec<Def>,
    info: ModuleInfo,
    /// `with config.route_prefix_context(p):` bodies.
    contexts: Vec<(Range<usize>, StrExpr)>,
}

impl Scanner<'_> {
    fn ctx(&self, offset: usize) -> Ctx {
        let scope = self
            .defs
            .iter()
            .find(|d| {
                d.kind == DefKind::Function
                    && d.parent.is_none()
                    && d.body.start <= offset
                    && offset < d.body.end
            })
            .map(|d| d.name.clone())
            .unwrap_or_default();
        let prefixes = self
            .contexts
            .iter()
            .filter(|(r, _)| r.start <= offset && offset < r.end)
            .map(|(_, p)| p.clone())
            .collect();
        Ctx { scope, prefixes }
    }

    /// Parameters and implied methods of a function or method body.
    fn handler(&self, def: &Def, name: String, in_class: bool) -> Handler {
        let mut names = vec!["request".to_string()];
        if !in_class {
            let args: Vec<String> = def
                .open_paren
                .map(|o| {
                    self.code
                        .args(o)
                        .into_iter()
                        .filter_map(|r| self.code.ident_at(r.start).map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            // `view(request)` or `view(context, request)`.
            if let Some(first) = args.last().filter(|a| *a != "request" && args.len() <= 2) {
                names.push(first.clone());
            }
        }
        let info = &self.info;
        let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
        let params = request_params_with(
            &self.code,
            def.body.clone(),
            &names,
            &key,
            &sources,
            in_class,
        );
        let mut methods = vec!["GET".to_string()];
        for m in crate::django::scan::body_methods(&self.code, def.body.clone(), &params) {
            if !methods.contains(&m) {
                methods.push(m);
            }
        }
        if params.iter().any(|p| p.kind == ParamKind::Json) && !methods.iter().any(|m| m == "POST")
        {
            methods.push("POST".to_string());
        }
        Handler {
            name,
            params,
            methods,
        }
    }
}

fn scan(file: &SourceFile) -> PyramidModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut contexts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let text = line.text(&code);
        let Some(rest) = text.strip_prefix("with ") else {
            continue;
        };
        let Some(rel) = rest.find(".route_prefix_context(") else {
            continue;
        };
        let dot = line.start + 5 + rel;
        if let Some(p) = method_call(&code, dot)
            .and_then(|c| c.arg(0, "route_prefix"))
            .and_then(|r| StrExpr::parse(&code, r))
        {
            contexts.push((block_body(&code, &lines, i), p));
        }
    }
    let s = Scanner {
        code,
        lines,
        defs,
        info,
        contexts,
    };
    let code = &s.code;
    let mut module = PyramidModule::default();

    for at in code.find_all(".add_route(") {
        let Some(call) = method_call(code, at) else {
            continue;
        };
        let (Some(name), Some(pattern)) = (
            literal(code, &s.info, call.arg(0, "name")),
            call.arg(1, "pattern")
                .or_else(|| call.keyword("path"))
                .and_then(|r| StrExpr::parse(code, r)),
        ) else {
            continue;
        };
        module.routes.push(RouteDecl {
            line: file.line_of(call.start),
            name,
            pattern,
            methods: request_methods(code, &call),
            ctx: s.ctx(call.start),
        });
    }

    for at in code.find_all(".include(") {
        let Some(call) = method_call(code, at) else {
            continue;
        };
        let Some(arg) = call.arg(0, "callable") else {
            continue;
        };
        let target = match code.string_at(code.skip_ws(arg.start)) {
            Some(lit) if !lit.interpolated => IncludeTarget::Dotted(lit.value),
            _ => match whole_dotted(code, arg) {
                Some(n) => IncludeTarget::Name(n),
                None => continue,
            },
        };
        module.includes.push(Include {
            target,
            prefix: call
                .keyword("route_prefix")
                .and_then(|r| StrExpr::parse(code, r)),
            ctx: s.ctx(call.start),
        });
    }

    // Plain calls passing the configurator: `add_routes(config)`.
    for line in &s.lines {
        let Some(call) = call_at(code, line.start) else {
            continue;
        };
        if code.skip_ws(call.close + 1) < line.end || call.receiver().is_some_and(|r| r == "config")
        {
            continue;
        }
        let passes_config = call.args.iter().any(|a| {
            a.name.is_none()
                && matches!(
                    code.slice(a.value.clone()).trim(),
                    "config" | "configurator"
                )
        });
        if passes_config {
            module.includes.push(Include {
                target: IncludeTarget::Name(call.callee.clone()),
                prefix: None,
                ctx: s.ctx(call.start),
            });
        }
    }

    for at in code.find_all(".add_view(") {
        let Some(call) = method_call(code, at) else {
            continue;
        };
        let Some(route_name) = literal(code, &s.info, call.keyword("route_name")) else {
            continue;
        };
        let Some(arg) = call.arg(0, "view") else {
            continue;
        };
        let name = match code.string_at(code.skip_ws(arg.start)) {
            Some(lit) if !lit.interpolated => lit.value,
            _ => match whole_dotted(code, arg) {
                Some(n) => n,
                None => continue,
            },
        };
        module.views.push(ViewDecl {
            line: file.line_of(call.start),
            route_name,
            methods: request_methods(code, &call),
            view: ViewRef::Name {
                name,
                attr: literal(code, &s.info, call.keyword("attr")),
            },
        });
    }

    // Cornice services: `name = Service(name=…, path=…)`.
    let mut services: HashMap<String, StrExpr> = HashMap::new();
    for line in &s.lines {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let Some(call) = call_at(code, code.skip_ws(value)) else {
            continue;
        };
        if call.method() == "Service" {
            if let Some(p) = call.keyword("path").and_then(|r| StrExpr::parse(code, r)) {
                services.insert(name, p);
            }
        }
    }

    for (i, def) in s.defs.iter().enumerate() {
        let parent = def.parent.and_then(|p| s.defs.get(p));
        match def.kind {
            DefKind::Function if parent.is_none() => {
                module.functions.push(def.name.clone());
                let handler = s.handler(def, def.name.clone(), false);
                for deco in &def.decorators {
                    let Some(call) = &deco.call else { continue };
                    match (call.method(), call.receiver()) {
                        ("view_config", _) => {
                            let Some(route_name) =
                                literal(code, &s.info, call.keyword("route_name"))
                            else {
                                continue;
                            };
                            module.views.push(ViewDecl {
                                line: file.line_of(deco.at),
                                route_name,
                                methods: request_methods(code, call),
                                view: ViewRef::Known(handler.clone()),
                            });
                        }
                        (m, Some(recv)) if services.contains_key(recv) => {
                            let method = m.to_ascii_uppercase();
                            if !ANY.contains(&method.as_str()) && !matches!(m, "head" | "options") {
                                continue;
                            }
                            if let Some(path) = services.get(recv) {
                                module.services.push(ServiceView {
                                    line: file.line_of(deco.at),
                                    method,
                                    path: path.clone(),
                                    params: handler.params.clone(),
                                });
                            }
                        }
                        _ => {}
                    }
                }
                if !handler.params.is_empty() || handler.methods.len() > 1 {
                    module.handlers.push(handler);
                }
            }
            DefKind::Class => class_views(&s, file, i, &mut module),
            _ => {}
        }
    }
    module.info = s.info;
    module
}

/// `@view_defaults` / `@view_config` classes, Cornice `@resource` classes,
/// and methods `add_view(Class, attr=…)` may name.
fn class_views(s: &Scanner<'_>, file: &SourceFile, index: usize, module: &mut PyramidModule) {
    let code = &s.code;
    let Some(class) = s.defs.get(index) else {
        return;
    };
    let mut default_route: Option<String> = None;
    let mut default_methods: Option<Vec<String>> = None;
    let mut resource: Option<(Option<StrExpr>, Option<StrExpr>)> = None;
    for deco in &class.decorators {
        let Some(call) = &deco.call else { continue };
        match call.method() {
            "view_defaults" => {
                default_route = literal(code, &s.info, call.keyword("route_name"));
                default_methods = request_methods(code, call);
            }
            "resource" => {
                resource = Some((
                    call.keyword("collection_path")
                        .and_then(|r| StrExpr::parse(code, r)),
                    call.keyword("path").and_then(|r| StrExpr::parse(code, r)),
                ));
            }
            _ => {}
        }
    }
    for def in s
        .defs
        .iter()
        .filter(|d| d.is_child_of(index) && d.kind == DefKind::Function)
    {
        let handler = s.handler(def, format!("{}.{}", class.name, def.name), true);
        if let Some((collection, item)) = &resource {
            let (path, method) = match def.name.strip_prefix("collection_") {
                Some(m) => (collection, m),
                None => (item, def.name.as_str()),
            };
            let method = method.to_ascii_uppercase();
            if let Some(path) = path.as_ref().filter(|_| ANY.contains(&method.as_str())) {
                module.services.push(ServiceView {
                    line: file.line_of(def.start),
                    method,
                    path: path.clone(),
                    params: handler.params.clone(),
                });
            }
        }
        for deco in &def.decorators {
            let Some(call) = deco.call.as_ref().filter(|c| c.method() == "view_config") else {
                continue;
            };
            let Some(route_name) =
                literal(code, &s.info, call.keyword("route_name")).or(default_route.clone())
            else {
                continue;
            };
            module.views.push(ViewDecl {
                line: file.line_of(deco.at),
                route_name,
                methods: request_methods(code, call).or(default_methods.clone()),
                view: ViewRef::Known(handler.clone()),
            });
        }
        module.handlers.push(handler);
    }
}

/// Pyramid's prefix composition (`Configurator.include`): slashes between
/// the parts, none around the result.
fn join_prefix(old: &str, new: &str) -> String {
    format!(
        "{}/{}",
        old.trim_end_matches('/'),
        new.trim_start_matches('/')
    )
    .trim_matches('/')
    .to_string()
}

struct Linker<'a> {
    modules: &'a [PyramidModule],
    project: Project<'a>,
    /// Scope (module, function) → the includes that run it:
    /// (including module, include).
    callers: HashMap<(usize, String), Vec<(usize, &'a Include)>>,
}

impl Linker<'_> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m, n| {
            self.modules
                .get(m)
                .is_some_and(|md| md.functions.iter().any(|f| f == n))
        }
    }

    fn eval(&self, m: usize, e: &StrExpr) -> Option<String> {
        self.project.eval(m, e, &self.is_local())
    }

    /// The function an include target runs.
    fn target(&self, m: usize, target: &IncludeTarget) -> Option<(usize, String)> {
        match target {
            IncludeTarget::Name(n) => match self.project.resolve(m, n, &self.is_local())? {
                Binding::Module(t) => Some((t, "includeme".to_string())),
                Binding::Local { module, name } => Some((module, name)),
                _ => None,
            },
            IncludeTarget::Dotted(d) => {
                let level = d.len() - d.trim_start_matches('.').len();
                let rest: Vec<String> = d
                    .trim_start_matches('.')
                    .split('.')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                let find = |segs: &[String]| -> Option<usize> {
                    if level > 0 {
                        let mut base = self.project.module(m)?.relative_base(level)?;
                        base.extend(segs.iter().cloned());
                        self.project.module_at(&base)
                    } else {
                        self.project.find_module(m, &segs.join("."))
                    }
                };
                if let Some(t) = find(&rest) {
                    return Some((t, "includeme".to_string()));
                }
                let (func, module) = rest.split_last()?;
                find(module).map(|t| (t, func.clone()))
            }
        }
    }

    /// Every route prefix a scope runs under (`None` = no prefix).
    fn prefixes(&self, m: usize, ctx: &Ctx, depth: usize) -> Vec<Option<String>> {
        let outer: Vec<Option<String>> = match self.callers.get(&(m, ctx.scope.clone())) {
            Some(calls) if !ctx.scope.is_empty() && depth < 16 => {
                let mut out = Vec::new();
                for (cm, inc) in calls {
                    for p in self.prefixes(*cm, &inc.ctx, depth + 1) {
                        let p = match inc.prefix.as_ref().and_then(|e| self.eval(*cm, e)) {
                            Some(new) => Some(join_prefix(p.as_deref().unwrap_or(""), &new)),
                            None => p,
                        };
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
                out
            }
            _ => vec![None],
        };
        outer
            .into_iter()
            .map(|p| {
                ctx.prefixes.iter().fold(p, |acc, e| match self.eval(m, e) {
                    Some(new) => Some(join_prefix(acc.as_deref().unwrap_or(""), &new)),
                    None => acc,
                })
            })
            .map(|p| p.filter(|s| !s.is_empty()))
            .collect()
    }

    /// The handler `add_view` names.
    fn handler(&self, m: usize, name: &str, attr: Option<&str>) -> Option<&Handler> {
        let find = |t: usize, n: &str| self.modules.get(t)?.handlers.iter().find(|h| h.name == n);
        let with_attr = |n: String| match attr {
            Some(a) => format!("{n}.{a}"),
            None => n,
        };
        // Dotted string `pkg.views.home` or a name.
        if let Some((module, last)) = name.rsplit_once('.') {
            if let Some(t) = self.project.find_module(m, module) {
                if let Some(h) = find(t, &with_attr(last.to_string())) {
                    return Some(h);
                }
            }
        }
        let is_handler = |t: usize, n: &str| {
            self.modules.get(t).is_some_and(|md| {
                md.handlers
                    .iter()
                    .any(|h| h.name == n || h.name.starts_with(&format!("{n}.")))
            })
        };
        match self.project.resolve(m, name, &is_handler) {
            Some(Binding::Local { module, name }) => find(module, &with_attr(name)),
            _ => find(m, &with_attr(name.to_string())),
        }
    }
}

fn link(modules: &[PyramidModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        project,
        callers: HashMap::new(),
    };
    let mut callers: HashMap<(usize, String), Vec<(usize, &Include)>> = HashMap::new();
    for (m, module) in modules.iter().enumerate() {
        for inc in &module.includes {
            if let Some(t) = linker.target(m, &inc.target) {
                callers.entry(t).or_default().push((m, inc));
            }
        }
    }
    linker.callers = callers;

    // route name → views (module, view).
    let mut views: HashMap<&str, Vec<(usize, &ViewDecl)>> = HashMap::new();
    for (m, module) in modules.iter().enumerate() {
        for v in &module.views {
            views.entry(v.route_name.as_str()).or_default().push((m, v));
        }
    }

    let mut out = Vec::new();
    for (m, module) in modules.iter().enumerate() {
        for route in &module.routes {
            let Some(pattern) = linker.eval(m, &route.pattern) else {
                continue;
            };
            let pattern = crate::fastapi::link::normalize_placeholders(&pattern);
            for prefix in linker.prefixes(m, &route.ctx, 0) {
                let url = match &prefix {
                    Some(p) => format!(
                        "{}/{}",
                        p.trim_end_matches('/'),
                        pattern.trim_start_matches('/')
                    ),
                    None => pattern.clone(),
                };
                let url = if url.starts_with('/') {
                    url
                } else {
                    format!("/{url}")
                };
                let attached = views.get(route.name.as_str()).map_or(&[][..], |v| &v[..]);
                if attached.is_empty() {
                    let methods = route.methods.clone().unwrap_or_else(|| vec!["GET".into()]);
                    for method in methods {
                        out.push(
                            Endpoint::new(method, url.clone())
                                .at_path(module.info.path.clone(), route.line),
                        );
                    }
                    continue;
                }
                for (vm, view) in attached {
                    let handler = match &view.view {
                        ViewRef::Known(h) => Some(h),
                        ViewRef::Name { name, attr } => linker.handler(*vm, name, attr.as_deref()),
                    };
                    let methods = view
                        .methods
                        .clone()
                        .or_else(|| route.methods.clone())
                        .or_else(|| handler.map(|h| h.methods.clone()))
                        .unwrap_or_else(|| vec!["GET".into()]);
                    let Some(path) = modules.get(*vm).map(|md| md.info.path.clone()) else {
                        continue;
                    };
                    for method in methods {
                        out.push(
                            Endpoint::new(method, url.clone())
                                .at_path(path.clone(), view.line)
                                .params(handler.map(|h| h.params.clone()).unwrap_or_default()),
                        );
                    }
                }
            }
        }
        for svc in &module.services {
            let Some(path) = linker.eval(m, &svc.path) else {
                continue;
            };
            out.push(
                Endpoint::new(
                    &svc.method,
                    crate::fastapi::link::normalize_placeholders(&path),
                )
                .at_path(module.info.path.clone(), svc.line)
                .params(svc.params.clone()),
            );
        }
    }
    out
}

impl Analyzer for Pyramid {
    fn tech(&self) -> Tech {
        Tech::new("python_pyramid", "Python", "Pyramid")
            .aliases(["pyramid", "python-pyramid"])
            .files(["*.py"])
            .detect(Detect::files(["*.py"]).regex([
                r"^\s*(from\s+(pyramid|cornice)\b.*\bimport\b|import\s+(pyramid|cornice)\b)",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let module = scan(file);
        let empty = module.routes.is_empty()
            && module.views.is_empty()
            && module.includes.is_empty()
            && module.services.is_empty()
            && module.handlers.is_empty()
            && module.functions.is_empty()
            && module.info.consts.is_empty();
        if !empty {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<PyramidModule> = facts.all();
        Ok(link(&modules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Pyramid, crate::test_support::COMPACT);

    #[test]
    fn routes_views_includes_and_prefixes() {
        let init = "from pyramid.config import Configurator\n\ndef main(global_config, **settings):\n    with Configurator(settings=settings) as config:\n        config.add_route('home', '/')\n        config.include('.api', route_prefix='/api')\n        config.scan()\n    return config.make_wsgi_app()\n";
        let api = "from .users import add_user_routes\n\ndef includeme(config):\n    with config.route_prefix_context('/v1'):\n        config.add_route('user', '/users/{id:\\d+}')\n        add_user_routes(config)\n    config.add_view('myapp.views.ping', route_name='ping')\n    config.add_route('ping', '/ping')\n";
        let users = "def add_user_routes(config):\n    config.add_route('users', '/users', request_method='GET')\n";
        let views = "from pyramid.view import view_config, view_defaults\n\n@view_config(route_name='home', renderer='json')\ndef home(request):\n    q = request.params.get('q')\n    return {}\n\ndef ping(request):\n    if request.method == 'POST':\n        return {}\n\n@view_defaults(route_name='user', renderer='json')\nclass UserViews:\n    def __init__(self, request):\n        self.request = request\n\n    @view_config(request_method='GET')\n    def get(self):\n        return self.request.matchdict['id']\n\n    @view_config(request_method=('PUT', 'PATCH'))\n    def update(self):\n        name = self.request.json_body['name']\n        token = self.request.headers.get('X-Token')\n";
        assert_eq!(
            run(&[
                ("myapp/__init__.py", init),
                ("myapp/api.py", api),
                ("myapp/users.py", users),
                ("myapp/views.py", views),
            ]),
            vec![
                "GET / [query:q]",
                "GET /api/ping []",
                "GET /api/v1/users []",
                "GET /api/v1/users/{id} []",
                "PATCH /api/v1/users/{id} [json:name,header:X-Token]",
                "POST /api/ping []",
                "PUT /api/v1/users/{id} [json:name,header:X-Token]",
            ]
        );
    }
}
