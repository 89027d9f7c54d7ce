//! Reduce step: resolve routers, `include_router` / `mount` chains,
//! prefixes (also class attributes of settings objects), dependencies and
//! models across modules, and build the endpoints.
//!
//! Prefix semantics follow FastAPI (`routing.py`): a route of a router is
//! served at `router.prefix + path`; `parent.include_router(r, prefix=p)`
//! adds `p` in front of that, recursively up to the app; `app.mount(p,
//! sub)` adds `p` in front of everything `sub` serves. Concatenation is
//! plain (FastAPI asserts that prefixes start and do not end with `/`).
//! The `root_path` of an app that is not mounted anywhere is prepended too:
//! it is the prefix clients use behind the proxy it declares.
//!
//! A router never included keeps its own prefix. A prefix that cannot be
//! evaluated (a call, a config lookup we cannot follow) counts as empty.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::{Endpoint, Param};

use super::facts::{FastApiModule, Handler, ObjKind, Route};
use crate::py::classes::ClassInfo;
use crate::py::project::{Binding, Project};
use crate::py::signature::{MarkerKind, SigParam};
use crate::py::strexpr::{StrExpr, MAX_DEPTH};

/// An app or router: (module index, object index).
type Node = (usize, usize);

/// A dependency to expand: (module it is named in, dotted name).
type Dep = (usize, String);

/// One way a node is reachable: its URL prefix and the dependencies
/// declared on the way (`include_router(dependencies=…)`, `APIRouter(dependencies=…)`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reach {
    prefix: String,
    deps: Vec<Dep>,
}

/// Types FastAPI injects itself: never client parameters.
const INJECTED: [&str; 11] = [
    "Request",
    "WebSocket",
    "Response",
    "BackgroundTasks",
    "HTTPConnection",
    "SecurityScopes",
    "JSONResponse",
    "StreamingResponse",
    "HTMLResponse",
    "Session",
    "HttpRequest",
];

/// Types read as plain values (query parameters when undecorated).
const SCALARS: [&str; 24] = [
    "str",
    "int",
    "float",
    "bool",
    "bytes",
    "UUID",
    "UUID4",
    "datetime",
    "date",
    "time",
    "timedelta",
    "Decimal",
    "EmailStr",
    "HttpUrl",
    "AnyUrl",
    "Any",
    "conint",
    "constr",
    "confloat",
    "condecimal",
    "PositiveInt",
    "NonNegativeInt",
    "SecretStr",
    "Json",
];

/// Bases that make a class a request model (fields = body keys).
const MODEL_BASES: [&str; 8] = [
    "BaseModel",
    "SQLModel",
    "GenericModel",
    "RootModel",
    "Schema",
    "ModelSchema",
    "Struct",
    "TypedDict",
];

pub fn link(modules: &[FastApiModule]) -> Vec<Endpoint> {
    link_with(modules, &[])
}

/// Link, with URL prefixes where apps are served by another framework:
/// (module index, app object name, prefix), e.g. a Ninja API mounted by
/// Django's `path('api/', api.urls)`. Such an app's own `root_path` is not
/// used.
pub fn link_with(
    modules: &[FastApiModule],
    served_at: &[(usize, String, String)],
) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        served_at,
        project,
        reach: HashMap::new(),
        edges: Vec::new(),
        injected: modules
            .iter()
            .flat_map(|m| m.injected.iter().map(String::as_str))
            .collect(),
    };
    linker.collect_edges();
    let mut out = Vec::new();
    for (m, module) in modules.iter().enumerate() {
        for route in &module.routes {
            linker.route_endpoints(m, route, &mut out);
        }
    }
    out
}

/// What a dotted name refers to.
enum Target<'a> {
    Node(Node),
    Func(usize, &'a [SigParam]),
    Class(usize, &'a ClassInfo),
    Alias(usize, &'a ObjKind),
    Instance(usize, &'a str, Option<&'a str>),
    Unknown,
}

/// `child` is served under `parent` with `prefix` (mount or include).
struct Edge {
    child: Node,
    /// `None`: the receiver is not resolvable (a parameter `app: FastAPI`);
    /// taken as the root.
    parent: Option<Node>,
    prefix: Option<String>,
    deps: Vec<Dep>,
}

struct Linker<'a> {
    modules: &'a [FastApiModule],
    served_at: &'a [(usize, String, String)],
    project: Project<'a>,
    reach: HashMap<Node, Vec<Reach>>,
    edges: Vec<Edge>,
    /// Parameter names provided by dependency injection anywhere in the
    /// tree ([`FastApiModule::injected`]).
    injected: HashSet<&'a str>,
}

impl<'a> Linker<'a> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m: usize, name: &str| self.modules.get(m).is_some_and(|md| md.defines(name))
    }

    fn resolve(&self, m: usize, name: &str) -> Target<'a> {
        let modules = self.modules;
        let Some(Binding::Local { module, name }) = self.project.resolve(m, name, &self.is_local())
        else {
            return Target::Unknown;
        };
        let Some(md) = modules.get(module) else {
            return Target::Unknown;
        };
        let objs = || {
            md.objects
                .iter()
                .enumerate()
                .filter(|(_, o)| o.name == name)
        };
        if let Some((i, _)) =
            objs().find(|(_, o)| matches!(o.kind, ObjKind::App { .. } | ObjKind::Router { .. }))
        {
            return Target::Node((module, i));
        }
        if let Some(c) = md.classes.iter().rev().find(|c| c.name == name) {
            return Target::Class(module, c);
        }
        if let Some(f) = md.functions.iter().rev().find(|f| f.name == name) {
            return Target::Func(module, &f.params);
        }
        match objs().map(|(_, o)| &o.kind).next_back() {
            Some(kind @ ObjKind::Alias { .. }) => Target::Alias(module, kind),
            Some(ObjKind::Instance { class, name }) => {
                Target::Instance(module, class, name.as_deref())
            }
            _ => Target::Unknown,
        }
    }

    /// Evaluate a string expression; names may be module constants
    /// (anywhere in the tree) or string attributes of classes and of
    /// instances (`settings.API_V1_STR` with `settings = Settings()`).
    fn eval(&self, m: usize, expr: &StrExpr) -> Option<String> {
        self.eval_depth(m, expr, 0)
    }

    fn eval_depth(&self, m: usize, expr: &StrExpr, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        expr.resolve(&mut |name| {
            if let Some(v) = self.project.const_value(m, name, &self.is_local()) {
                return Some(v);
            }
            let (head, attr) = name.rsplit_once('.')?;
            let class = match self.resolve(m, head) {
                Target::Class(cm, c) => Some((cm, c)),
                Target::Instance(im, class, _) => match self.resolve(im, class) {
                    Target::Class(cm, c) => Some((cm, c)),
                    _ => None,
                },
                _ => None,
            };
            match class {
                Some((cm, class)) => {
                    let value = self.class_attr(cm, class, attr, 0)?;
                    self.eval_depth(value.0, &value.1, depth + 1)
                }
                None => self.unique_attr(attr, depth),
            }
        })
    }

    /// `settings.API_PREFIX` where `settings` comes from a call we cannot
    /// follow (`settings = get_settings()`): the value of the class
    /// attribute `API_PREFIX` when every class of the tree that declares
    /// one agrees on it.
    fn unique_attr(&self, attr: &str, depth: usize) -> Option<String> {
        let mut found: Option<String> = None;
        for (cm, module) in self.modules.iter().enumerate() {
            for class in &module.classes {
                for c in class.attrs.iter().filter(|c| c.name == attr) {
                    let v = self.eval_depth(cm, &c.value, depth + 1)?;
                    match &found {
                        Some(f) if *f != v => return None,
                        _ => found = Some(v),
                    }
                }
            }
        }
        found
    }

    /// A string class attribute, also inherited.
    fn class_attr(
        &self,
        m: usize,
        class: &ClassInfo,
        attr: &str,
        depth: usize,
    ) -> Option<(usize, StrExpr)> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(c) = class.attrs.iter().rev().find(|c| c.name == attr) {
            return Some((m, c.value.clone()));
        }
        class.bases.iter().find_map(|b| match self.resolve(m, b) {
            Target::Class(bm, bc) => self.class_attr(bm, bc, attr, depth + 1),
            _ => None,
        })
    }

    /// The elements of a sequence constant (`ROUTERS = (a.router, …)`),
    /// each with the module it is written in.
    fn sequence(&self, m: usize, name: &str) -> Vec<(usize, String)> {
        let Some(Binding::Local { module, name }) = self.project.resolve(m, name, &self.is_local())
        else {
            return Vec::new();
        };
        self.modules
            .get(module)
            .and_then(|md| md.sequences.iter().rev().find(|s| s.name == name))
            .map(|s| s.items.iter().map(|i| (module, i.clone())).collect())
            .unwrap_or_default()
    }

    fn node_kind(&self, node: Node) -> Option<&'a ObjKind> {
        let modules = self.modules;
        modules.get(node.0)?.objects.get(node.1).map(|o| &o.kind)
    }

    fn node_deps(&self, node: Node) -> Vec<Dep> {
        self.modules
            .get(node.0)
            .and_then(|md| md.objects.get(node.1))
            .map(|o| o.deps.iter().map(|d| (node.0, d.clone())).collect())
            .unwrap_or_default()
    }

    fn collect_edges(&mut self) {
        let mut edges = Vec::new();
        for (m, module) in self.modules.iter().enumerate() {
            for inc in &module.includes {
                let children: Vec<Node> = if inc.each {
                    self.sequence(m, &inc.router)
                        .into_iter()
                        .filter_map(|(sm, item)| match self.resolve(sm, &item) {
                            Target::Node(n) => Some(n),
                            _ => None,
                        })
                        .collect()
                } else {
                    match self.resolve(m, &inc.router) {
                        Target::Node(n) => vec![n],
                        _ => Vec::new(),
                    }
                };
                let parent = match self.resolve(m, &inc.receiver) {
                    Target::Node(p) => Some(p),
                    _ => None,
                };
                for child in children {
                    edges.push(Edge {
                        child,
                        parent,
                        prefix: inc.prefix.as_ref().and_then(|p| self.eval(m, p)),
                        deps: inc.deps.iter().map(|d| (m, d.clone())).collect(),
                    });
                }
            }
            for mount in &module.mounts {
                let Target::Node(child) = self.resolve(m, &mount.app) else {
                    continue;
                };
                let parent = match self.resolve(m, &mount.receiver) {
                    Target::Node(p) => Some(p),
                    _ => None,
                };
                edges.push(Edge {
                    child,
                    parent,
                    prefix: self.eval(m, &mount.path),
                    deps: Vec::new(),
                });
            }
        }
        self.edges = edges;
    }

    /// Every way `node` is served: prefix and inherited dependencies.
    fn reach(&mut self, node: Node, visiting: &mut Vec<Node>) -> Vec<Reach> {
        if let Some(r) = self.reach.get(&node) {
            return r.clone();
        }
        if visiting.contains(&node) || visiting.len() > 32 {
            return Vec::new();
        }
        visiting.push(node);
        let (own, is_app) = match self.node_kind(node) {
            Some(ObjKind::App { root_path }) => {
                (root_path.as_ref().and_then(|p| self.eval(node.0, p)), true)
            }
            Some(ObjKind::Router { prefix }) => {
                (prefix.as_ref().and_then(|p| self.eval(node.0, p)), false)
            }
            _ => (None, false),
        };
        let own_deps = self.node_deps(node);
        let incoming: Vec<(Option<Node>, Option<String>, Vec<Dep>)> = self
            .edges
            .iter()
            .filter(|e| e.child == node)
            .map(|e| (e.parent, e.prefix.clone(), e.deps.clone()))
            .collect();
        let mut out: Vec<Reach> = Vec::new();
        for (parent, edge_prefix, edge_deps) in incoming {
            let parents = match parent {
                Some(p) => self.reach(p, visiting),
                None => vec![Reach {
                    prefix: String::new(),
                    deps: Vec::new(),
                }],
            };
            for p in parents {
                // A mounted app's root_path is not part of its URLs.
                let own_part = if is_app {
                    ""
                } else {
                    own.as_deref().unwrap_or("")
                };
                let mut deps = p.deps.clone();
                deps.extend(edge_deps.iter().cloned());
                deps.extend(own_deps.iter().cloned());
                let r = Reach {
                    prefix: format!(
                        "{}{}{}",
                        p.prefix,
                        edge_prefix.as_deref().unwrap_or(""),
                        own_part
                    ),
                    deps,
                };
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        if out.is_empty() && is_app {
            let name = self
                .modules
                .get(node.0)
                .and_then(|md| md.objects.get(node.1))
                .map(|o| o.name.as_str());
            for (m, app, prefix) in self.served_at {
                if *m == node.0 && Some(app.as_str()) == name {
                    let r = Reach {
                        prefix: format!("/{}", prefix.trim_start_matches('/'))
                            .trim_end_matches('/')
                            .to_string(),
                        deps: own_deps.clone(),
                    };
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(Reach {
                prefix: own.unwrap_or_default(),
                deps: own_deps,
            });
        }
        visiting.pop();
        self.reach.insert(node, out.clone());
        out
    }

    fn route_endpoints(&mut self, m: usize, route: &Route, out: &mut Vec<Endpoint>) {
        let Some(module) = self.modules.get(m) else {
            return;
        };
        let reaches = match self.resolve(m, &route.receiver) {
            Target::Node(node) => self.reach(node, &mut Vec::new()),
            // `def setup(app: FastAPI): @app.get(...)`: a plain name in a
            // FastAPI module (not `pytest.mark.get`).
            Target::Unknown if module.fastapi && !route.receiver.contains('.') => vec![Reach {
                prefix: String::new(),
                deps: Vec::new(),
            }],
            _ => return,
        };
        let Some(path) = self.eval(m, &route.path) else {
            return;
        };
        let sig: (usize, &[SigParam]) = match &route.handler {
            Handler::Sig(params) => (m, params),
            Handler::Ref(name) => match self.resolve(m, name) {
                Target::Func(fm, params) => (fm, params),
                _ => (m, &[]),
            },
            Handler::None => (m, &[]),
        };
        for reach in reaches {
            let url = normalize_placeholders(&format!("{}{}", reach.prefix, path));
            let path_names = placeholders(&url);
            let mut params = Vec::new();
            self.signature_params(sig.0, sig.1, &path_names, &mut params, 0);
            for p in &route.reads {
                if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                    params.push(p.clone());
                }
            }
            let deps = reach
                .deps
                .iter()
                .cloned()
                .chain(route.deps.iter().map(|d| (m, d.clone())));
            for (dm, dep) in deps {
                self.dependency_params(dm, &dep, &path_names, &mut params, 1);
            }
            let url = if url.is_empty() { "/".to_string() } else { url };
            // Router-level dependencies (`include_router(…, dependencies=…)`,
            // `APIRouter(dependencies=…)`) guard the route too.
            let mut context = route.context.clone().unwrap_or_default();
            for (_, dep) in &reach.deps {
                if let Some(kind) = crate::py::context::guard_kind(dep) {
                    context.guard(kind, &format!("Depends({dep})"), route.line);
                }
            }
            // `current_user: CurrentUser` with `CurrentUser =
            // Annotated[User, Depends(get_current_user)]`: the alias's
            // dependency guards the route.
            for p in sig.1.iter().filter(|p| p.marker.is_none()) {
                let (_, u) = self.unalias(sig.0, p);
                let dep = u
                    .marker
                    .as_ref()
                    .filter(|mk| mk.kind == MarkerKind::Depends)
                    .and_then(|mk| mk.dep.as_deref());
                if let Some((dep, kind)) =
                    dep.and_then(|d| crate::py::context::guard_kind(d).map(|k| (d, k)))
                {
                    context.guard(kind, &format!("Depends({dep})"), route.line);
                }
            }
            let context = context.ai_context(&module.info.path);
            if route.websocket {
                let mut e = Endpoint::websocket(url.clone())
                    .at_path(module.info.path.clone(), route.line)
                    .params(params.iter().cloned());
                e.ai_context = context;
                out.push(e);
                continue;
            }
            for method in &route.methods {
                let mut e = Endpoint::new(method, url.clone())
                    .at_path(module.info.path.clone(), route.line)
                    .params(params.iter().cloned());
                e.ai_context = context.clone();
                out.push(e);
            }
        }
    }

    /// The parameters a function's signature asks the client for.
    fn signature_params(
        &self,
        m: usize,
        sig: &[SigParam],
        path_names: &[String],
        out: &mut Vec<Param>,
        depth: usize,
    ) {
        if depth > 4 {
            return;
        }
        // Resolve `Annotated` aliases first.
        // An alias's names resolve in the module that declares it.
        let params: Vec<(usize, SigParam)> = sig
            .iter()
            .filter(|p| !p.star && p.name != "self" && p.name != "cls")
            .map(|p| self.unalias(m, p))
            .collect();
        let body_count = params
            .iter()
            .filter(|(pm, p)| match &p.marker {
                Some(mk) => mk.kind == MarkerKind::Body,
                None => {
                    !path_names.contains(&p.name)
                        && !self.injected.contains(p.name.as_str())
                        && self.model_of(*pm, &p.types).is_some()
                }
            })
            .count();
        for (pm, p) in &params {
            self.param(*pm, p, path_names, body_count, out, depth);
        }
    }

    /// A parameter typed with an `Annotated[…]` alias takes its marker and type.
    fn unalias(&self, m: usize, p: &SigParam) -> (usize, SigParam) {
        if p.marker.is_none() && p.types.len() == 1 {
            if let Target::Alias(am, ObjKind::Alias { types, marker }) =
                self.resolve(m, &p.types[0])
            {
                return (
                    am,
                    SigParam {
                        name: p.name.clone(),
                        types: types.clone(),
                        marker: marker.clone(),
                        star: false,
                        factory: None,
                    },
                );
            }
        }
        (m, p.clone())
    }

    fn param(
        &self,
        m: usize,
        p: &SigParam,
        path_names: &[String],
        body_count: usize,
        out: &mut Vec<Param>,
        depth: usize,
    ) {
        let push = |out: &mut Vec<Param>, param: Param| {
            if !out
                .iter()
                .any(|q| q.name == param.name && q.kind == param.kind)
            {
                out.push(param);
            }
        };
        // `alias=` as a literal, else a constant of the tree.
        let alias = p.marker.as_ref().and_then(|mk| {
            mk.alias.clone().or_else(|| {
                mk.alias_ref
                    .as_ref()
                    .and_then(|e| self.eval(m, e))
                    .filter(|a| !a.is_empty())
            })
        });
        let wire = alias.clone().unwrap_or_else(|| p.name.clone());
        let model = || self.model_of(m, &p.types);
        let fields_or = |out: &mut Vec<Param>, make: fn(String) -> Param| match model() {
            Some(fields) => fields.into_iter().for_each(|f| push(out, make(f))),
            None => push(out, make(wire.clone())),
        };
        let Some(marker) = &p.marker else {
            if path_names.contains(&p.name) || self.injected.contains(p.name.as_str()) {
                return;
            }
            // `limit: int = deps.LimitBody()` where `LimitBody` returns
            // `Depends(inner)`: `inner`'s parameters.
            if let Some((fm, params)) = p.factory.as_deref().and_then(|f| self.factory(m, f)) {
                self.signature_params(fm, params, path_names, out, depth + 1);
                return;
            }
            let last = |t: &String| t.rsplit('.').next().unwrap_or(t).to_string();
            if p.types
                .iter()
                .any(|t| matches!(last(t).as_str(), "UploadFile" | "UploadedFile"))
            {
                push(out, Param::file(wire));
                return;
            }
            if p.types.iter().any(|t| INJECTED.contains(&last(t).as_str())) {
                return;
            }
            if let Some(fields) = model() {
                if body_count > 1 {
                    push(out, Param::json(wire));
                } else {
                    fields.into_iter().for_each(|f| push(out, Param::json(f)));
                }
                return;
            }
            let scalar = p.types.iter().all(|t| {
                SCALARS.contains(&last(t).as_str())
                    || matches!(self.resolve(m, t), Target::Class(..))
            });
            if scalar {
                push(out, Param::query(wire));
            }
            return;
        };
        match marker.kind {
            MarkerKind::Path => {}
            MarkerKind::Query => fields_or(out, Param::query),
            MarkerKind::Cookie => fields_or(out, Param::cookie),
            MarkerKind::Form => fields_or(out, Param::form),
            MarkerKind::File => push(out, Param::file(wire)),
            MarkerKind::Header => match model() {
                Some(fields) => fields
                    .into_iter()
                    .for_each(|f| push(out, Param::header(f.replace('_', "-")))),
                None => {
                    let name = match &alias {
                        Some(a) => a.clone(),
                        None if marker.keep_underscores => p.name.clone(),
                        None => p.name.replace('_', "-"),
                    };
                    push(out, Param::header(name));
                }
            },
            MarkerKind::Body => match model() {
                Some(fields) if !marker.embed && body_count <= 1 => {
                    fields.into_iter().for_each(|f| push(out, Param::json(f)))
                }
                _ => push(out, Param::json(wire)),
            },
            MarkerKind::Depends => {
                let target = marker.dep.clone().or_else(|| p.types.first().cloned());
                if let Some(dep) = target {
                    self.dependency_params(m, &dep, path_names, out, depth + 1);
                }
            }
        }
    }

    /// A function of the tree that returns `Depends(inner)`: `inner`'s
    /// signature.
    fn factory(&self, m: usize, name: &str) -> Option<(usize, &'a [SigParam])> {
        let modules = self.modules;
        let Some(Binding::Local { module, name }) = self.project.resolve(m, name, &self.is_local())
        else {
            return None;
        };
        modules
            .get(module)?
            .factories
            .iter()
            .rev()
            .find(|f| f.name == name)
            .map(|f| (module, f.params.as_slice()))
    }

    /// The parameters of a dependency (function or class), one level of
    /// nesting per call.
    fn dependency_params(
        &self,
        m: usize,
        dep: &str,
        path_names: &[String],
        out: &mut Vec<Param>,
        depth: usize,
    ) {
        if depth > 4 {
            return;
        }
        let push = |out: &mut Vec<Param>, p: Param| {
            if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                out.push(p);
            }
        };
        let last = dep.rsplit('.').next().unwrap_or(dep);
        if let Some(fields) = known_form(last) {
            fields.iter().for_each(|f| push(out, Param::form(*f)));
            return;
        }
        match self.resolve(m, dep) {
            Target::Func(fm, params) => self.signature_params(fm, params, path_names, out, depth),
            Target::Instance(im, class, name) => {
                if let Some(p) = security_param(class, name) {
                    push(out, p);
                } else if let Target::Class(cm, c) = self.resolve(im, class) {
                    // `checker = Checker(…)`; `Depends(checker)` calls
                    // `Checker.__call__`.
                    if let Some(call) = &c.call {
                        self.signature_params(cm, call, path_names, out, depth);
                    }
                }
            }
            Target::Class(cm, class) => {
                if let Some(init) = &class.init {
                    self.signature_params(cm, init, path_names, out, depth);
                } else if let Some(fields) = self.model_fields(cm, class) {
                    for f in fields {
                        if !path_names.contains(&f) && !out.iter().any(|q| q.name == f) {
                            out.push(Param::query(f));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The body keys of the first type naming a model class.
    fn model_of(&self, m: usize, types: &[String]) -> Option<Vec<String>> {
        types.iter().find_map(|t| match self.resolve(m, t) {
            Target::Class(cm, class) => self.model_fields(cm, class),
            _ => None,
        })
    }

    /// A model's fields (inherited first), or `None` when the class is not
    /// a model.
    fn model_fields(&self, m: usize, class: &ClassInfo) -> Option<Vec<String>> {
        let mut chain: Vec<&ClassInfo> = Vec::new();
        let mut is_model = class.dataclass;
        let mut stack = vec![(m, class)];
        while let Some((cm, c)) = stack.pop() {
            if chain.iter().any(|x| std::ptr::eq(*x, c)) || chain.len() > 32 {
                continue;
            }
            chain.push(c);
            is_model |= c.dataclass;
            let mut parents = Vec::new();
            for base in &c.bases {
                match self.resolve(cm, base) {
                    Target::Class(bm, bc) => parents.push((bm, bc)),
                    _ => {
                        let last = base.rsplit('.').next().unwrap_or(base);
                        is_model |= MODEL_BASES.contains(&last);
                    }
                }
            }
            stack.extend(parents.into_iter().rev());
        }
        if !is_model {
            return None;
        }
        let mut out: Vec<String> = Vec::new();
        for c in chain.iter().rev() {
            for f in &c.fields {
                let name = f.wire_name().to_string();
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        Some(out)
    }
}

/// Form classes of FastAPI used as `Depends()`: their fields.
fn known_form(class: &str) -> Option<&'static [&'static str]> {
    match class {
        "OAuth2PasswordRequestForm" | "OAuth2PasswordRequestFormStrict" => Some(&[
            "grant_type",
            "username",
            "password",
            "scope",
            "client_id",
            "client_secret",
        ]),
        _ => None,
    }
}

/// What a `fastapi.security` scheme instance used as a dependency reads.
fn security_param(class: &str, name: Option<&str>) -> Option<Param> {
    let last = class.rsplit('.').next().unwrap_or(class);
    Some(match last {
        "OAuth2PasswordBearer"
        | "OAuth2AuthorizationCodeBearer"
        | "OAuth2"
        | "HTTPBearer"
        | "HTTPBasic"
        | "HTTPDigest"
        | "OpenIdConnect" => Param::header("Authorization"),
        "APIKeyHeader" => Param::header(name?),
        "APIKeyCookie" => Param::cookie(name?),
        "APIKeyQuery" => Param::query(name?),
        _ => return None,
    })
}

/// `{path:path}` → `{path}` (the converter is not part of the name).
pub(crate) fn normalize_placeholders(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &rest[open + 1..open + close];
        out.push('{');
        out.push_str(inner.split(':').next().unwrap_or(inner).trim());
        out.push('}');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Names of `{name}` placeholders.
fn placeholders(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push(rest[open + 1..open + close].to_string());
        rest = &rest[open + close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_helpers() {
        assert_eq!(
            normalize_placeholders("/files/{file_path:path}/{id}"),
            "/files/{file_path}/{id}"
        );
        assert_eq!(normalize_placeholders("/x/{bad"), "/x/{bad");
        assert_eq!(placeholders("/a/{b}/c/{d}"), vec!["b", "d"]);
    }
}
