//! Reduce step: resolve receivers, blueprint registrations and prefixes,
//! view classes and constants across modules, and build the endpoints.
//!
//! Prefix semantics follow Flask (`sansio/blueprints.py`):
//! - a registration's `url_prefix` overrides the blueprint's own;
//! - a nested blueprint's prefix is `parent.rstrip('/') + '/' + child.lstrip('/')`
//!   when both exist, else whichever exists;
//! - a rule under a prefix is `prefix.rstrip('/') + '/' + rule.lstrip('/')`,
//!   or the prefix itself for an empty rule (so `@bp.route('/')` under
//!   `/users` is `/users/`).
//!
//! A blueprint never registered (or registered in a way we cannot follow,
//! e.g. in a loop) keeps its own prefix.

use std::collections::HashMap;

use portolan_plugin_sdk::{Endpoint, Param};

use super::classful::{self, RuleBuilder};
use super::facts::{AttrValue, ClassyReg};
use super::facts::{CallSite, Class, FlaskModule, ObjKind, Prefix, Route, SchemaArg, Scope, View};
use super::scan::{Flavor, FLASK, HTTP_METHOD_FUNCS};
use crate::py::call::ListPart;
use crate::py::config;
use crate::py::project::{Binding, Project};
use crate::py::strexpr::{StrExpr, MAX_DEPTH};

/// Blueprint id: (module index, object index).
type BpId = (usize, usize);

/// What a receiver or view name refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    App,
    Blueprint(BpId),
    AsView {
        module: usize,
        class: String,
    },
    Class {
        module: usize,
        index: usize,
    },
    Func {
        module: usize,
        index: usize,
    },
    /// An instance of some other class: not Flask's.
    Foreign,
    /// Outside the tree or not understood.
    Unknown,
}

struct Linker<'a> {
    modules: &'a [FlaskModule],
    flavor: &'a Flavor,
    project: Project<'a>,
    /// (child, parent or None for the app, registration prefix).
    registrations: Vec<(BpId, Option<BpId>, Option<String>)>,
    mounts: HashMap<BpId, Vec<Option<String>>>,
    /// Some module declares a Sanic `version=`.
    versioned: bool,
}

/// The arguments of one call of a function that declares routes from its
/// parameters: parameter name → argument, evaluated in the caller's module.
struct Env {
    module: usize,
    args: HashMap<String, StrExpr>,
}

impl Env {
    fn bind(module: usize, scope: &Scope, site: &CallSite) -> Env {
        let mut args = HashMap::new();
        let mut positional = scope.params.iter();
        for arg in &site.args {
            let param = match &arg.keyword {
                Some(k) => scope.params.iter().find(|p| *p == k),
                None => positional.next(),
            };
            if let (Some(param), Some(value)) = (param, &arg.value) {
                args.insert(param.clone(), value.clone());
            }
        }
        Env { module, args }
    }
}

pub fn link(modules: &[FlaskModule]) -> Vec<Endpoint> {
    link_with(modules, &FLASK)
}

/// Link the modules of a Flask-like framework.
pub fn link_with(modules: &[FlaskModule], flavor: &Flavor) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        flavor,
        project,
        registrations: Vec::new(),
        mounts: HashMap::new(),
        versioned: modules.iter().any(|m| !m.versions.is_empty()),
    };
    linker.collect_registrations();
    let mut out = Vec::new();
    for (m, module) in modules.iter().enumerate() {
        for route in &module.routes {
            linker.route_endpoints(m, route, &mut out);
        }
        for reg in &module.classy {
            linker.classy_endpoints(m, reg, &mut out);
        }
    }
    out
}

impl Linker<'_> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m: usize, name: &str| {
            self.modules
                .get(m)
                .is_some_and(|module| module.defines(name))
        }
    }

    fn eval(&self, module: usize, prefix: &Prefix) -> Option<String> {
        match prefix {
            Prefix::Expr(e) => self.project.eval(module, e, &self.is_local()),
            Prefix::Config { key, default } => Some(
                self.config_value(key)
                    .or_else(|| {
                        let d = default.as_ref()?;
                        self.project.eval(module, d, &self.is_local())
                    })
                    .unwrap_or_else(|| config::placeholder(key)),
            ),
            Prefix::Absent | Prefix::Unknown => None,
        }
    }

    /// The first value the tree assigns to `app.config[key]`.
    fn config_value(&self, key: &str) -> Option<String> {
        self.modules.iter().enumerate().find_map(|(m, module)| {
            module
                .config
                .iter()
                .filter(|c| c.key == key)
                .find_map(|c| self.project.eval(m, &c.value, &self.is_local()))
        })
    }

    fn resolve(&self, module: usize, name: &str) -> Target {
        if name == "current_app" && self.modules.get(module).is_some_and(|m| m.flask) {
            return Target::App;
        }
        match self.project.resolve(module, name, &self.is_local()) {
            Some(Binding::Local { module, name }) => self.local(module, &name),
            Some(Binding::External(path))
                if path.strip_suffix(".current_app") == Some(self.flavor.package) =>
            {
                Target::App
            }
            _ => Target::Unknown,
        }
    }

    fn local(&self, m: usize, name: &str) -> Target {
        let Some(module) = self.modules.get(m) else {
            return Target::Unknown;
        };
        // Prefer Flask objects when a name is bound several times (an app
        // made in a factory and wrapped elsewhere).
        let objs = || {
            module
                .objects
                .iter()
                .enumerate()
                .filter(|(_, o)| o.name == name)
        };
        if let Some((i, _)) = objs().find(|(_, o)| matches!(o.kind, ObjKind::Blueprint(_))) {
            return Target::Blueprint((m, i));
        }
        if objs().any(|(_, o)| o.kind == ObjKind::App) {
            return Target::App;
        }
        if let Some((_, o)) = objs().find(|(_, o)| matches!(o.kind, ObjKind::AsView(_))) {
            if let ObjKind::AsView(class) = &o.kind {
                return Target::AsView {
                    module: m,
                    class: class.clone(),
                };
            }
        }
        if let Some(index) = module.classes.iter().position(|c| c.name == name) {
            return Target::Class { module: m, index };
        }
        if let Some(index) = module.functions.iter().position(|f| f.name == name) {
            return Target::Func { module: m, index };
        }
        if objs().next().is_some() {
            return Target::Foreign;
        }
        Target::Unknown
    }

    fn collect_registrations(&mut self) {
        let mut regs = Vec::new();
        for (m, module) in self.modules.iter().enumerate() {
            for reg in &module.registrations {
                let Target::Blueprint(child) = self.resolve(m, &reg.blueprint) else {
                    continue;
                };
                let parent = match self.resolve(m, &reg.receiver) {
                    Target::Blueprint(p) => Some(p),
                    _ => None,
                };
                regs.push((child, parent, self.eval(m, &reg.prefix)));
            }
        }
        self.registrations = regs;
    }

    /// Sanic's API version of a route: its decorator's `version=`, else
    /// that of its blueprint, else of the groups it is registered on.
    fn version(&self, m: usize, route: &Route, env: Option<&Env>) -> Option<String> {
        if !self.versioned {
            return None;
        }
        let module = self.modules.get(m)?;
        let key = format!("@{}", route.line);
        if let Some((_, v)) = module.versions.iter().find(|(k, _)| *k == key) {
            return Some(v.clone());
        }
        let Target::Blueprint(mut bp) = self.resolve_in(m, &route.receiver, env) else {
            return None;
        };
        for _ in 0..8 {
            let md = self.modules.get(bp.0)?;
            let name = &md.objects.get(bp.1)?.name;
            if let Some((_, v)) = md.versions.iter().find(|(k, _)| k == name) {
                return Some(v.clone());
            }
            bp = self
                .registrations
                .iter()
                .find(|r| r.0 == bp)
                .and_then(|r| r.1)?;
        }
        None
    }

    fn own_prefix(&self, bp: BpId) -> Option<String> {
        let obj = self.modules.get(bp.0)?.objects.get(bp.1)?;
        match &obj.kind {
            ObjKind::Blueprint(prefix) => self.eval(bp.0, prefix),
            _ => None,
        }
    }

    /// Every effective URL prefix of a blueprint (`None` = no prefix).
    fn mounts(&mut self, bp: BpId, visiting: &mut Vec<BpId>) -> Vec<Option<String>> {
        if let Some(m) = self.mounts.get(&bp) {
            return m.clone();
        }
        if visiting.contains(&bp) || visiting.len() > 32 {
            return Vec::new();
        }
        visiting.push(bp);
        let own = self.own_prefix(bp);
        let regs: Vec<_> = self
            .registrations
            .iter()
            .filter(|r| r.0 == bp)
            .cloned()
            .collect();
        let mut out: Vec<Option<String>> = Vec::new();
        for (_, parent, reg_prefix) in &regs {
            let prefix = reg_prefix.clone().or_else(|| own.clone());
            match parent {
                None => push_unique(&mut out, prefix),
                Some(p) => {
                    for parent_prefix in self.mounts(*p, visiting) {
                        push_unique(&mut out, nest(parent_prefix.as_deref(), prefix.as_deref()));
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(own);
        }
        visiting.pop();
        self.mounts.insert(bp, out.clone());
        out
    }

    /// Calls of the function `function` of module `m`, anywhere.
    fn call_sites(&self, m: usize, function: &str) -> Vec<(usize, &CallSite)> {
        let mut out = Vec::new();
        for (cm, module) in self.modules.iter().enumerate() {
            for site in &module.calls {
                if let Target::Func { module, index } = self.resolve(cm, &site.callee) {
                    let name = self
                        .modules
                        .get(module)
                        .and_then(|md| md.functions.get(index))
                        .map(|f| f.name.as_str());
                    if module == m && name == Some(function) {
                        out.push((cm, site));
                    }
                }
            }
        }
        out
    }

    fn route_endpoints(&mut self, m: usize, route: &Route, out: &mut Vec<Endpoint>) {
        if let Some(scope) = &route.scope {
            let envs: Vec<Env> = self
                .call_sites(m, &scope.function)
                .into_iter()
                .map(|(cm, site)| Env::bind(cm, scope, site))
                .collect();
            if !envs.is_empty() {
                for env in &envs {
                    self.instantiate(m, route, Some(env), out);
                }
                return;
            }
        }
        self.instantiate(m, route, None, out);
    }

    /// Resolve `name` in module `m`, or through a call's arguments when its
    /// first segment is a parameter bound by `env`.
    fn resolve_in(&self, m: usize, name: &str, env: Option<&Env>) -> Target {
        if let Some(env) = env {
            let (first, rest) = name
                .split_once('.')
                .map_or((name, None), |(f, r)| (f, Some(r)));
            if let Some(arg) = env.args.get(first) {
                let Some(arg_name) = arg.as_name() else {
                    return Target::Unknown;
                };
                let full = rest.map_or_else(|| arg_name.to_string(), |r| format!("{arg_name}.{r}"));
                return self.resolve(env.module, &full);
            }
        }
        self.resolve(m, name)
    }

    fn eval_in(&self, m: usize, expr: &StrExpr, env: Option<&Env>) -> Option<String> {
        let is_local = self.is_local();
        expr.resolve(&mut |name| {
            if let Some((module, arg)) = env.and_then(|e| e.args.get(name).map(|a| (e.module, a))) {
                return self.project.eval(module, arg, &is_local);
            }
            self.project.const_value(m, name, &is_local)
        })
    }

    fn instantiate(&mut self, m: usize, route: &Route, env: Option<&Env>, out: &mut Vec<Endpoint>) {
        let Some(module) = self.modules.get(m) else {
            return;
        };
        let mounts = match self.resolve_in(m, &route.receiver, env) {
            Target::App => vec![None],
            Target::Blueprint(bp) => self.mounts(bp, &mut Vec::new()),
            Target::Unknown if module.flask || looks_like_flask_object(&route.receiver, route) => {
                vec![None]
            }
            _ => return,
        };
        let Some(rule) = self.eval_in(m, &route.rule, env) else {
            return;
        };
        let handlers = self.handlers(m, route, env);
        let version = self.version(m, route, env);
        for mount in mounts {
            let url = apply_prefix(mount.as_deref(), &rule);
            let url = match &version {
                Some(v) => format!("/v{v}/{}", url.trim_start_matches('/')),
                None => url,
            };
            let url = if self.flavor.name_first_placeholders {
                name_first(&url)
            } else {
                url
            };
            let context = match (&route.view, &route.handler) {
                (View::Params(_), Some(h)) => h.ai_context(&module.info.path),
                _ => None,
            };
            for (method, params) in &handlers {
                let mut e = Endpoint::new(method, url.clone())
                    .at_path(module.info.path.clone(), route.line)
                    .params(params.iter().cloned());
                e.ai_context = context.clone();
                out.push(e);
            }
        }
    }

    /// (method, params) for each method the route serves.
    fn handlers(&self, m: usize, route: &Route, env: Option<&Env>) -> Vec<(String, Vec<Param>)> {
        let explicit = route.methods.as_deref();
        let simple = |params: &[Param]| -> Vec<(String, Vec<Param>)> {
            let methods = explicit.map_or_else(|| vec!["GET".to_string()], <[String]>::to_vec);
            methods
                .into_iter()
                .map(|method| (method, params.to_vec()))
                .collect()
        };
        match &route.view {
            View::Params(params) => {
                // Request reads in the bodies of the view's decorators
                // (`@token_required` reading `request.args['token']`) and
                // of the functions of the tree its body calls
                // (`error = check_admin_secret()` reading a header).
                let mut all = params.clone();
                let callees = route
                    .handler
                    .iter()
                    .flat_map(|h| h.callees.iter().map(|c| &c.name));
                for name in route.decorators.iter().chain(callees) {
                    let Target::Func { module, index } = self.resolve_in(m, name, env) else {
                        continue;
                    };
                    let Some(f) = self
                        .modules
                        .get(module)
                        .and_then(|md| md.functions.get(index))
                    else {
                        continue;
                    };
                    for p in &f.params {
                        if !all.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                            all.push(p.clone());
                        }
                    }
                }
                for p in self.schema_params(m, &route.schemas) {
                    if !all.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                        all.push(p);
                    }
                }
                simple(&all)
            }
            View::None => simple(&[]),
            View::Class(name) => match self.resolve_in(m, name, env) {
                Target::Class { module, index } => self.class_handlers(module, index, explicit),
                _ => simple(&[]),
            },
            View::Ref(name) => match self.resolve_in(m, name, env) {
                Target::Func { module, index } => {
                    let f = self
                        .modules
                        .get(module)
                        .and_then(|md| md.functions.get(index));
                    let mut params = f.map(|f| f.params.clone()).unwrap_or_default();
                    for p in f
                        .map(|f| self.schema_params(module, &f.schemas))
                        .unwrap_or_default()
                    {
                        if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                            params.push(p);
                        }
                    }
                    simple(&params)
                }
                Target::AsView { module, class } => {
                    match self.resolve_in(module, &class, env.filter(|_| module == m)) {
                        Target::Class { module, index } => {
                            self.class_handlers(module, index, explicit)
                        }
                        _ => simple(&[]),
                    }
                }
                _ => simple(&[]),
            },
        }
    }

    /// The class and its ancestors, nearest first, plus whether a
    /// `MethodView` / plain `View` base was seen outside the tree.
    fn ancestry(&self, module: usize, index: usize) -> (Vec<&Class>, ViewFlavor) {
        let mut chain: Vec<&Class> = Vec::new();
        let mut seen: Vec<(usize, usize)> = Vec::new();
        let mut flavor = ViewFlavor::Unknown;
        let mut stack = vec![(module, index)];
        while let Some((m, i)) = stack.pop() {
            if seen.contains(&(m, i)) || seen.len() > 32 {
                continue;
            }
            seen.push((m, i));
            let Some(class) = self.modules.get(m).and_then(|md| md.classes.get(i)) else {
                continue;
            };
            chain.push(class);
            let mut parents = Vec::new();
            for base in &class.bases {
                match self.resolve(m, base) {
                    Target::Class { module, index } => parents.push((module, index)),
                    _ => {
                        let last = base.rsplit('.').next().unwrap_or(base);
                        if last == "MethodView" {
                            flavor = ViewFlavor::MethodView;
                        } else if last == "View" && flavor == ViewFlavor::Unknown {
                            flavor = ViewFlavor::View;
                        }
                    }
                }
            }
            // Depth-first, left base first.
            stack.extend(parents.into_iter().rev());
        }
        (chain, flavor)
    }

    fn class_handlers(
        &self,
        module: usize,
        index: usize,
        explicit: Option<&[String]>,
    ) -> Vec<(String, Vec<Param>)> {
        let (chain, flavor) = self.ancestry(module, index);
        let func = |name: &str| {
            chain
                .iter()
                .find_map(|c| c.funcs.iter().find(|f| f.name == name))
        };
        let attr = chain.iter().find_map(|c| c.methods.clone());
        let dispatching = flavor != ViewFlavor::View;
        let methods: Vec<String> = match (explicit, attr) {
            (Some(e), _) => e.to_vec(),
            (None, Some(a)) => a,
            (None, None) if dispatching => HTTP_METHOD_FUNCS
                .iter()
                .filter(|f| func(f).is_some())
                .map(|f| f.to_ascii_uppercase())
                .collect(),
            (None, None) => Vec::new(),
        };
        let methods = if methods.is_empty() {
            vec!["GET".to_string()]
        } else {
            methods
        };
        methods
            .into_iter()
            .map(|method| {
                let lower = method.to_ascii_lowercase();
                let f = if dispatching {
                    func(&lower)
                        .or_else(|| (lower == "head").then(|| func("get")).flatten())
                        .or_else(|| func("dispatch_request"))
                } else {
                    func("dispatch_request")
                };
                let mut params = f.map(|f| f.params.clone()).unwrap_or_default();
                for p in f
                    .map(|f| self.schema_params(module, &f.schemas))
                    .unwrap_or_default()
                {
                    if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                        params.push(p);
                    }
                }
                (method, params)
            })
            .collect()
    }

    /// The fields of the schemas a view's decorators load, each in its
    /// location.
    fn schema_params(&self, m: usize, schemas: &[SchemaArg]) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        for s in schemas {
            for f in self.schema_body(m, &s.schema) {
                let p = Param::new(s.kind, f);
                if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                    out.push(p);
                }
            }
        }
        out
    }
}

/// A class: (module index, class index).
type ClassId = (usize, usize);

/// A flask-classful route before mounting: (module of the method, methods,
/// rule, line, parameters).
type ClassyRoute = (usize, Vec<String>, String, u32, Vec<Param>);

impl Linker<'_> {
    fn class(&self, id: ClassId) -> Option<&Class> {
        self.modules.get(id.0)?.classes.get(id.1)
    }

    /// The in-tree bases of a class, left to right.
    fn parents(&self, id: ClassId) -> Vec<ClassId> {
        let Some(class) = self.class(id) else {
            return Vec::new();
        };
        class
            .bases
            .iter()
            .filter_map(|b| match self.resolve(id.0, b) {
                Target::Class { module, index } => Some((module, index)),
                _ => None,
            })
            .collect()
    }

    /// The method resolution order of a class (C3 over the classes of the
    /// tree; bases outside it are left out). An inconsistent hierarchy
    /// falls back to depth-first order.
    fn mro(
        &self,
        id: ClassId,
        memo: &mut HashMap<ClassId, Vec<ClassId>>,
        depth: usize,
    ) -> Vec<ClassId> {
        if let Some(m) = memo.get(&id) {
            return m.clone();
        }
        if depth > 32 {
            return vec![id];
        }
        // Guards cycles (`class A(B)` / `class B(A)` across modules).
        memo.insert(id, vec![id]);
        let parents = self.parents(id);
        let mut seqs: Vec<Vec<ClassId>> = parents
            .iter()
            .map(|p| self.mro(*p, memo, depth + 1))
            .collect();
        seqs.push(parents);
        let mut out = vec![id];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                break;
            }
            let head = seqs
                .iter()
                .map(|s| s[0])
                .find(|c| !seqs.iter().any(|s| s[1..].contains(c)));
            match head {
                Some(c) => {
                    if !out.contains(&c) {
                        out.push(c);
                    }
                    for s in seqs.iter_mut() {
                        if s.first() == Some(&c) {
                            s.remove(0);
                        }
                    }
                }
                None => {
                    for c in seqs.iter().flatten() {
                        if !out.contains(c) {
                            out.push(*c);
                        }
                    }
                    break;
                }
            }
        }
        memo.insert(id, out.clone());
        out
    }

    /// A string expression whose names may also be string attributes of
    /// classes of the tree (`Settings.settings_id`, inherited too).
    fn eval_with_classes(&self, m: usize, e: &StrExpr) -> Option<String> {
        e.resolve(&mut |name| {
            if let Some(v) = self.project.const_value(m, name, &self.is_local()) {
                return Some(v);
            }
            let (head, attr) = name.rsplit_once('.')?;
            let Target::Class { module, index } = self.resolve(m, head) else {
                return None;
            };
            self.mro((module, index), &mut HashMap::new(), 0)
                .into_iter()
                .find_map(|id| {
                    let c = self
                        .class(id)?
                        .strings
                        .iter()
                        .rev()
                        .find(|c| c.name == attr)?;
                    c.value.literal()
                })
        })
    }

    /// The loadable fields of the schema class `name` seen from module
    /// `m`: declared fields and `Meta.fields` names along its MRO.
    fn schema_body(&self, m: usize, name: &str) -> Vec<String> {
        let Target::Class { module, index } = self.resolve(m, name) else {
            return Vec::new();
        };
        let mro = self.mro((module, index), &mut HashMap::new(), 0);
        let declared: Vec<&String> = mro
            .iter()
            .filter_map(|id| self.class(*id))
            .flat_map(|c| c.declared.iter())
            .collect();
        let mut names: Vec<String> = Vec::new();
        for id in &mro {
            let Some(class) = self.class(*id) else {
                continue;
            };
            let mut own = class.schema_fields.clone();
            for f in self.list_value(id.0, &class.schema_fields_ref, 0) {
                if !declared.contains(&&f) && !f.starts_with('_') {
                    own.push(f);
                }
            }
            for f in own {
                if !names.contains(&f) {
                    names.push(f);
                }
            }
        }
        // marshmallow-sqlalchemy auto schemas (`SQLAlchemyAutoSchema`, a
        // project `AutoSchema` built on its metaclass) without
        // `Meta.fields`: the columns of `Meta.model` are fields too.
        let classes: Vec<&Class> = mro.iter().filter_map(|id| self.class(*id)).collect();
        let auto = classes.iter().any(|c| {
            c.name.ends_with("AutoSchema")
                || c.bases.iter().any(|b| {
                    let last = b.rsplit('.').next().unwrap_or(b);
                    last.ends_with("AutoSchema") || last == "ModelSchema"
                })
        });
        if auto && !classes.iter().any(|c| c.meta.fields) {
            let model = mro.iter().find_map(|id| {
                let c = self.class(*id)?;
                c.meta.model.as_ref().map(|mdl| (id.0, mdl))
            });
            let excluded: Vec<&String> =
                classes.iter().flat_map(|c| c.meta.exclude.iter()).collect();
            if let Some((mm, model)) = model {
                if let Target::Class { module, index } = self.resolve(mm, model) {
                    for id in self.mro((module, index), &mut HashMap::new(), 0) {
                        for col in self.class(id).map(|c| c.columns.as_slice()).unwrap_or(&[]) {
                            if !declared.contains(&col)
                                && !excluded.contains(&col)
                                && !names.contains(col)
                            {
                                names.push(col.clone());
                            }
                        }
                    }
                }
            }
        }
        names
    }

    /// The strings of a sequence expression of module `m`, following
    /// names to module-level sequences of the tree.
    fn list_value(&self, m: usize, parts: &[ListPart], depth: usize) -> Vec<String> {
        let mut out = Vec::new();
        if depth > MAX_DEPTH {
            return out;
        }
        for part in parts {
            match part {
                ListPart::Lit(l) => out.extend(l.iter().cloned()),
                ListPart::Ref(name) => {
                    if let Some(Binding::Local { module, name }) =
                        self.project.resolve(m, name, &self.is_local())
                    {
                        if let Some((_, inner)) = self
                            .modules
                            .get(module)
                            .and_then(|md| md.lists.iter().rev().find(|(n, _)| *n == name))
                        {
                            out.extend(self.list_value(module, inner, depth + 1));
                        }
                    }
                }
            }
        }
        out
    }

    /// Endpoints of a flask-classful `View.register(app_or_bp, …)`.
    fn classy_endpoints(&mut self, m: usize, reg: &ClassyReg, out: &mut Vec<Endpoint>) {
        let Target::Class { module, index } = self.resolve(m, &reg.class) else {
            return;
        };
        let mro = self.mro((module, index), &mut HashMap::new(), 0);
        let classes: Vec<(ClassId, &Class)> = mro
            .iter()
            .filter_map(|id| self.class(*id).map(|c| (*id, c)))
            .collect();
        let is_view = classes.iter().any(|((cm, _), c)| {
            c.bases.iter().any(|b| {
                b.rsplit('.').next() == Some("FlaskView")
                    && !matches!(self.resolve(*cm, b), Target::Class { .. })
            })
        });
        let Some(((_, _), leaf)) = classes.first().filter(|_| is_view) else {
            return;
        };
        // Attribute: register keyword, else the nearest class defining it.
        let attr = |name: &str| -> Option<(usize, AttrValue)> {
            if let Some((_, v)) = reg.options.iter().find(|(n, _)| n == name) {
                return Some((m, v.clone()));
            }
            classes.iter().find_map(|((cm, _), c)| {
                let classy = c.classy.as_ref()?;
                let (_, v) = classy.attrs.iter().find(|(n, _)| n == name)?;
                Some((*cm, v.clone()))
            })
        };
        let string = |name: &str| -> Option<Option<String>> {
            match attr(name) {
                None | Some((_, AttrValue::None)) => Some(None),
                Some((am, AttrValue::Str(e))) => Some(self.eval_with_classes(am, &e)),
                Some(_) => None,
            }
        };
        let flag = |name: &str, default: bool| match attr(name) {
            Some((_, AttrValue::Bool(b))) => b,
            _ => default,
        };
        let list = |name: &str| match attr(name) {
            Some((_, AttrValue::List(l))) => Some(l),
            _ => None,
        };
        // `route_base` (None → from the class name; unknown → placeholder).
        let route_base = match string("route_base") {
            Some(Some(b)) => format!("/{}", b.trim_start_matches('/')),
            Some(None) => classful::default_route_base(&leaf.name),
            None => config::placeholder("route_base"),
        };
        let prefix = match string("route_prefix") {
            Some(p) => p.filter(|p| !p.is_empty()),
            None => Some(config::placeholder("route_prefix")),
        };
        let mut ignored = vec!["self".to_string()];
        ignored.extend(list("base_args").unwrap_or_default());
        ignored.extend(classful::rule_arguments(&route_base));
        let builder = RuleBuilder {
            prefix,
            base: route_base.trim_matches('/').to_string(),
            ignored,
            trailing_slash: flag("trailing_slash", true),
            method_dashified: flag("method_dashified", false),
            default_methods: list("default_methods")
                .map(|l| l.iter().map(|s| s.to_ascii_uppercase()).collect()),
            inspect_args: flag("inspect_args", true),
        };
        let excluded = list("excluded_methods").unwrap_or_default();
        // A generic view's `schema_class`: the JSON body of what it creates
        // and updates; a dict of schemas the view picks from per request
        // (`schema_class_dict = {'a': A, 'b': B}`): every one of them.
        let schemas: Vec<(usize, String)> = match attr("schema_class") {
            Some((sm, AttrValue::Str(e))) => e
                .as_name()
                .map(|n| vec![(sm, n.to_string())])
                .unwrap_or_default(),
            _ => match attr("schema_class_dict") {
                Some((sm, AttrValue::Names(names))) => names.into_iter().map(|n| (sm, n)).collect(),
                _ => Vec::new(),
            },
        };
        let mut body: Vec<Param> = Vec::new();
        for (sm, name) in &schemas {
            for f in self.schema_body(*sm, name) {
                if !body.iter().any(|p| p.name == f) {
                    body.push(Param::json(f));
                }
            }
        }
        // Members along the MRO, the nearest definition winning.
        let mut seen: Vec<&str> = Vec::new();
        let mut routes: Vec<ClassyRoute> = Vec::new();
        for ((cm, _), class) in &classes {
            let Some(classy) = &class.classy else {
                continue;
            };
            for member in &classy.members {
                if seen.contains(&member.name.as_str()) {
                    continue;
                }
                seen.push(&member.name);
                if classful::FLASKVIEW_MEMBERS.contains(&member.name.as_str())
                    || excluded.contains(&member.name)
                {
                    continue;
                }
                for (methods, rule, line) in builder.member_routes(member) {
                    let mut params = member.params.clone();
                    let writes = methods
                        .iter()
                        .any(|m| matches!(m.as_str(), "POST" | "PUT" | "PATCH"));
                    if writes && classful::special_method(&member.name).is_some() {
                        for p in &body {
                            if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                                params.push(p.clone());
                            }
                        }
                    }
                    routes.push((*cm, methods, rule, line, params));
                }
            }
        }
        let mounts = match self.resolve(m, &reg.receiver) {
            Target::Blueprint(bp) => self.mounts(bp, &mut Vec::new()),
            _ => vec![None],
        };
        for mount in mounts {
            for (cm, methods, rule, line, params) in &routes {
                let Some(path) = self.modules.get(*cm).map(|md| md.info.path.clone()) else {
                    continue;
                };
                let url = apply_prefix(mount.as_deref(), rule);
                for method in methods {
                    out.push(
                        Endpoint::new(method, url.clone())
                            .at_path(path.clone(), *line)
                            .params(params.iter().cloned()),
                    );
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ViewFlavor {
    /// Dispatches to `get`, `post`, … (`MethodView`).
    MethodView,
    /// Calls `dispatch_request` for every method (`View`).
    View,
    Unknown,
}

fn push_unique(out: &mut Vec<Option<String>>, prefix: Option<String>) {
    if !out.contains(&prefix) {
        out.push(prefix);
    }
}

/// Nested blueprint prefix (Flask's `Blueprint.register`).
fn nest(parent: Option<&str>, child: Option<&str>) -> Option<String> {
    match (parent, child) {
        (Some(p), Some(c)) => Some(format!(
            "{}/{}",
            p.trim_end_matches('/'),
            c.trim_start_matches('/')
        )),
        (None, Some(c)) => Some(c.to_string()),
        (Some(p), None) => Some(p.to_string()),
        (None, None) => None,
    }
}

/// `<id:int>` → `<id>` (Sanic writes the name first).
fn name_first(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + close];
        out.push('<');
        out.push_str(inner.split(':').next().unwrap_or(inner));
        out.push('>');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// A rule under a prefix (Flask's `BlueprintSetupState.add_url_rule`).
pub fn apply_prefix(prefix: Option<&str>, rule: &str) -> String {
    let url = match prefix {
        Some(p) if !rule.is_empty() => format!(
            "{}/{}",
            p.trim_end_matches('/'),
            rule.trim_start_matches('/')
        ),
        Some(p) => p.to_string(),
        None => rule.to_string(),
    };
    if url.starts_with('/') {
        url
    } else {
        format!("/{url}")
    }
}

/// An unresolved receiver in a module that does not import flask (routes
/// registered by `def init_routes(app): @app.route(...)`): accepted for
/// `.route` / `add_url_rule` (not the `@x.get` shortcuts, which other
/// frameworks share) when the name reads like a Flask object.
fn looks_like_flask_object(receiver: &str, route: &Route) -> bool {
    let last = receiver.rsplit('.').next().unwrap_or(receiver);
    !route.shortcut
        && (matches!(last, "app" | "application" | "bp" | "blueprint" | "blp")
            || last.ends_with("_bp")
            || last.ends_with("_blueprint")
            || last.ends_with("_app"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flask_prefix_rules() {
        assert_eq!(apply_prefix(Some("/users"), "/"), "/users/");
        assert_eq!(
            apply_prefix(Some("/users/"), "/<int:id>"),
            "/users/<int:id>"
        );
        assert_eq!(apply_prefix(Some("/users"), ""), "/users");
        assert_eq!(apply_prefix(None, "/x"), "/x");
        assert_eq!(apply_prefix(Some(""), "x"), "/x");
        assert_eq!(apply_prefix(None, ""), "/");
        assert_eq!(nest(Some("/api/"), Some("/v1")), Some("/api/v1".into()));
        assert_eq!(nest(None, Some("/v1")), Some("/v1".into()));
        assert_eq!(nest(Some("/api"), None), Some("/api".into()));
        assert_eq!(nest(None, None), None);
        assert_eq!(name_first("/u/<id:int>/<name>"), "/u/<id>/<name>");
        assert_eq!(name_first("/u/<bad"), "/u/<bad");
    }
}
