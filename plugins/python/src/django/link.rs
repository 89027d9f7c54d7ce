//! Reduce step: follow `urlpatterns` from the root URLconfs through
//! `include()` chains, DRF routers and views across modules.
//!
//! Roots: every module with a `urlpatterns` list that no other module
//! includes (normally the project's `urls.py`, the one `ROOT_URLCONF`
//! names). Nothing reachable only through `ROOT_URLCONF` is missed this
//! way, and a second project in the same tree gets its own root.
//!
//! Routes are joined as Django does (plain concatenation of the pieces);
//! `re_path` / `url` regexes lose their `^` / `$` anchors, named groups
//! `(?P<id>…)` become `{id}` and simple escapes are undone; path
//! converters `<int:pk>` become `{pk}` (the form OpenAPI generators use).
//!
//! Methods:
//! - function views: the decorator's (`@require_http_methods`,
//!   `@require_POST`, `@api_view([...])`), else GET plus every method the
//!   body compares `request.method` with (and POST when it reads
//!   `request.POST` / `request.FILES`): Django itself serves every method,
//!   but a view that never looks at the method is a read view;
//! - class-based views: the handler methods defined in the class and its
//!   in-tree ancestors, plus those implied by Django / DRF generic views
//!   (`CreateView` → GET POST, `RetrieveUpdateDestroyAPIView` → GET PUT
//!   PATCH DELETE, …), limited by `http_method_names`; GET when none;
//! - DRF routers: the standard list (`GET`/`POST` on `prefix/`) and detail
//!   (`GET`/`PUT`/`PATCH`/`DELETE` on `prefix/{lookup}/`) operations the
//!   viewset supports (`ModelViewSet`, `ReadOnlyModelViewSet`, mixins,
//!   defined `list`/`create`/… methods) and its `@action`s.
//!
//! Body parameters of POST/PUT/PATCH come from the view's
//! `serializer_class` / `form_class` (declared fields and `Meta.fields`):
//! json for DRF views, form for Django views.

use std::collections::HashSet;

use portolan_plugin_sdk::{guard, ContextEntry, Endpoint, Param};

use super::facts::{DjangoModule, Target, UrlEntry, ViewClass};
use crate::py::config;
use crate::py::context::Fact;
use crate::py::project::{Binding, Project};
use crate::py::strexpr::{Piece, StrExpr};

/// Methods implied by generic views / viewsets outside the tree.
fn implied_methods(base: &str) -> &'static [&'static str] {
    match base {
        "TemplateView" | "DetailView" | "ListView" | "RedirectView" | "ArchiveIndexView"
        | "YearArchiveView" | "MonthArchiveView" | "DayArchiveView" | "DateDetailView"
        | "ListAPIView" | "RetrieveAPIView" => &["GET"],
        "FormView"
        | "CreateView"
        | "UpdateView"
        | "LoginView"
        | "PasswordChangeView"
        | "PasswordResetView"
        | "PasswordResetConfirmView" => &["GET", "POST"],
        "DeleteView" => &["GET", "POST"],
        "LogoutView" => &["POST"],
        "CreateAPIView" => &["POST"],
        "DestroyAPIView" => &["DELETE"],
        "UpdateAPIView" => &["PUT", "PATCH"],
        "ListCreateAPIView" => &["GET", "POST"],
        "RetrieveUpdateAPIView" => &["GET", "PUT", "PATCH"],
        "RetrieveDestroyAPIView" => &["GET", "DELETE"],
        "RetrieveUpdateDestroyAPIView" => &["GET", "PUT", "PATCH", "DELETE"],
        _ => &[],
    }
}

/// Viewset actions implied by DRF bases.
fn implied_actions(base: &str) -> &'static [&'static str] {
    match base {
        "ModelViewSet" => &[
            "list",
            "create",
            "retrieve",
            "update",
            "partial_update",
            "destroy",
        ],
        "ReadOnlyModelViewSet" => &["list", "retrieve"],
        "ListModelMixin" => &["list"],
        "CreateModelMixin" => &["create"],
        "RetrieveModelMixin" => &["retrieve"],
        "UpdateModelMixin" => &["update", "partial_update"],
        "DestroyModelMixin" => &["destroy"],
        _ => &[],
    }
}

/// Bases that make a view a DRF view (JSON bodies).
fn is_drf_base(base: &str) -> bool {
    base.ends_with("APIView")
        || base.ends_with("ViewSet")
        || base.ends_with("ModelMixin")
        || base == "ViewSetMixin"
}

const ROUTER_ACTIONS: [(&str, &str, bool); 6] = [
    ("list", "GET", false),
    ("create", "POST", false),
    ("retrieve", "GET", true),
    ("update", "PUT", true),
    ("partial_update", "PATCH", true),
    ("destroy", "DELETE", true),
];

pub fn link(modules: &[DjangoModule]) -> Vec<Endpoint> {
    walk(modules).0
}

/// Where the URLconf tree serves the `.urls` of other frameworks' apps
/// (`path('api/', api.urls)` with `api = NinjaAPI()`): (module index,
/// object name, URL prefix without the leading `/`).
pub fn served_apps(modules: &[DjangoModule]) -> Vec<(usize, String, String)> {
    walk(modules).1
}

fn walk(modules: &[DjangoModule]) -> (Vec<Endpoint>, Vec<(usize, String, String)>) {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        defined: modules.iter().map(DjangoModule::defined).collect(),
        project,
        out: Vec::new(),
        served: Vec::new(),
        emitted_routers: HashSet::new(),
        default_permissions: modules.iter().find_map(|m| {
            m.default_permissions
                .as_ref()
                .map(|p| entries(p, "settings", &m.info.path))
        }),
    };
    let included = linker.included_modules();
    for (m, module) in modules.iter().enumerate() {
        if included.contains(&m) || !module.entries.iter().any(|e| e.list == "urlpatterns") {
            continue;
        }
        linker.walk_list(m, "urlpatterns", "", &mut Vec::new());
    }
    // Routers never included anywhere we could follow: served at the root.
    for (m, module) in modules.iter().enumerate() {
        for r in &module.routers {
            if !linker.emitted_routers.contains(&(m, r.name.clone())) {
                linker.router_endpoints(m, &r.name.clone(), "");
            }
        }
    }
    (linker.out, linker.served)
}

/// A class of the tree with its module.
type ClassRef<'a> = (usize, &'a ViewClass);

/// An `@action` route: (url, line, file, methods, params, its own
/// `permission_classes`, handler name, the serializer its body validates
/// with and the module of the class).
type ActionRoute<'f> = (
    String,
    u32,
    String,
    Vec<String>,
    Vec<Param>,
    Option<&'f Vec<Fact>>,
    String,
    Option<(usize, String)>,
);

struct Linker<'a> {
    modules: &'a [DjangoModule],
    /// Per module, the names it defines ([`DjangoModule::defined`]).
    defined: Vec<HashSet<&'a str>>,
    project: Project<'a>,
    out: Vec<Endpoint>,
    served: Vec<(usize, String, String)>,
    emitted_routers: HashSet<(usize, String)>,
    /// `DEFAULT_PERMISSION_CLASSES` of the settings, as guard entries.
    default_permissions: Option<Vec<ContextEntry>>,
}

/// Guard facts located in `path`.
fn entries(facts: &[Fact], source: &str, path: &str) -> Vec<ContextEntry> {
    facts
        .iter()
        .map(|f| guard::entry(&f.kind, &f.name, source, path, f.line))
        .collect()
}

/// The guards of a view: those of every method, and those of one method
/// (a handler's own decorators).
#[derive(Default)]
struct Guards {
    common: Vec<ContextEntry>,
    by_method: Vec<(String, Vec<ContextEntry>)>,
}

impl Guards {
    /// The `ai_context` of `method`: DRF's `…OrReadOnly` permissions do
    /// not guard the safe methods.
    fn context(&self, method: &str) -> Option<portolan_plugin_sdk::AiContext> {
        let safe = matches!(method, "GET" | "HEAD" | "OPTIONS");
        let mut out: Vec<ContextEntry> = Vec::new();
        let own = self
            .by_method
            .iter()
            .filter(|(m, _)| m == method)
            .flat_map(|(_, g)| g.iter());
        for g in self.common.iter().chain(own) {
            if safe && (g.name.ends_with("OrReadOnly") || g.name.ends_with("OrAnonReadOnly")) {
                continue;
            }
            if !out.iter().any(|x| x.kind == g.kind && x.name == g.name) {
                out.push(g.clone());
            }
        }
        guard::context(out)
    }
}

impl<'a> Linker<'a> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m: usize, name: &str| self.defined.get(m).is_some_and(|d| d.contains(name))
    }

    fn resolve(&self, m: usize, name: &str) -> Option<Binding> {
        self.project.resolve(m, name, &self.is_local())
    }

    fn eval(&self, m: usize, e: &StrExpr) -> Option<String> {
        self.project.eval(m, e, &self.is_local())
    }

    fn class(&self, m: usize, name: &str) -> Option<ClassRef<'a>> {
        let modules = self.modules;
        match self.resolve(m, name)? {
            Binding::Local { module, name } => modules
                .get(module)?
                .classes
                .iter()
                .rev()
                .find(|c| c.name == name)
                .map(|c| (module, c)),
            _ => None,
        }
    }

    /// Modules some `include()` points at.
    fn included_modules(&self) -> HashSet<usize> {
        let mut out = HashSet::new();
        for (m, module) in self.modules.iter().enumerate() {
            let mut stack: Vec<&UrlEntry> = module.entries.iter().collect();
            while let Some(e) = stack.pop() {
                match &e.target {
                    Target::IncludeModule(expr) => {
                        if let Some(t) = self
                            .eval(m, expr)
                            .and_then(|d| self.project.find_module(m, &d))
                        {
                            if t != m {
                                out.insert(t);
                            }
                        }
                    }
                    Target::IncludeName(name) => {
                        // A module, or a list of another module
                        // (`include((app.rest.urls, 'app'))`): that module
                        // is not a root URLconf.
                        match self.resolve(m, name) {
                            Some(Binding::Module(t)) | Some(Binding::Local { module: t, .. })
                                if t != m =>
                            {
                                out.insert(t);
                            }
                            _ => {}
                        }
                    }
                    Target::IncludeInline(inner) => stack.extend(inner.iter()),
                    _ => {}
                }
            }
        }
        out
    }

    fn walk_list(&mut self, m: usize, list: &str, prefix: &str, stack: &mut Vec<(usize, String)>) {
        let key = (m, list.to_string());
        if stack.contains(&key) || stack.len() > 24 {
            return;
        }
        stack.push(key);
        let modules = self.modules;
        if let Some(module) = modules.get(m) {
            for e in module.entries.iter().filter(|e| e.list == list) {
                self.walk_entry(m, e, prefix, stack);
            }
        }
        stack.pop();
    }

    fn walk_entry(
        &mut self,
        m: usize,
        e: &UrlEntry,
        prefix: &str,
        stack: &mut Vec<(usize, String)>,
    ) {
        let route = match self.eval(m, &e.route) {
            Some(r) => r,
            None => self.route_with_placeholders(m, &e.route),
        };
        let url = format!("{prefix}{}", clean_route(&route, e.regex));
        let path = self
            .modules
            .get(m)
            .map(|md| md.info.path.clone())
            .unwrap_or_default();
        match &e.target {
            Target::View(name) => {
                let (handlers, guards) = self.view_handlers(m, name);
                self.emit(&url, &path, e.line, handlers, &guards);
            }
            Target::AsView { class, actions } => {
                let (handlers, guards) = match self.class(m, class) {
                    Some(c) => self.class_handlers(c, actions.as_deref()),
                    None => (external_view(class, actions.as_deref()), Guards::default()),
                };
                self.emit(&url, &path, e.line, handlers, &guards);
            }
            Target::IncludeModule(expr) => {
                if let Some(t) = self
                    .eval(m, expr)
                    .and_then(|d| self.project.find_module(m, &d))
                {
                    self.walk_list(t, "urlpatterns", &url, stack);
                }
            }
            Target::IncludeName(name) => {
                if let Some(head) = name.strip_suffix(".urls") {
                    if let Some(Binding::Local { module, name }) = self.resolve(m, head) {
                        if self
                            .modules
                            .get(module)
                            .is_some_and(|md| md.apps.contains(&name))
                        {
                            let entry = (module, name, url.clone());
                            if !self.served.contains(&entry) {
                                self.served.push(entry);
                            }
                            return;
                        }
                        if self
                            .modules
                            .get(module)
                            .is_some_and(|md| md.routers.iter().any(|r| r.name == name))
                        {
                            self.router_endpoints(module, &name, &url);
                            return;
                        }
                    }
                }
                match self.resolve(m, name) {
                    Some(Binding::Module(t)) => self.walk_list(t, "urlpatterns", &url, stack),
                    Some(Binding::Local { module, name }) => {
                        if self
                            .modules
                            .get(module)
                            .is_some_and(|md| md.routers.iter().any(|r| r.name == name))
                        {
                            self.router_endpoints(module, &name, &url);
                        } else {
                            self.walk_list(module, &name, &url, stack);
                        }
                    }
                    _ => {}
                }
            }
            Target::IncludeInline(inner) => {
                for i in inner {
                    self.walk_entry(m, i, &url, stack);
                }
            }
            Target::None => {}
        }
    }

    /// A route whose names are not all known in the tree
    /// (`path(settings.BASE_PATH, include(patterns))` with the setting read
    /// from a deployment file): each unknown name becomes a placeholder
    /// segment named after its last part (`{BASE_PATH}/`), so the routes
    /// under it are kept, with their prefix, rather than dropped.
    fn route_with_placeholders(&self, m: usize, route: &StrExpr) -> String {
        let mut out = String::new();
        let pieces = &route.0;
        for (i, p) in pieces.iter().enumerate() {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Ref(name) => {
                    let known = self
                        .eval(m, &StrExpr(vec![Piece::Ref(name.clone())]))
                        .or_else(|| self.setting(name));
                    match known {
                        Some(v) => out.push_str(&v),
                        None => {
                            let key = name.rsplit('.').next().unwrap_or(name);
                            out.push_str(&config::placeholder(key));
                            let next_slash = match pieces.get(i + 1) {
                                Some(Piece::Lit(s)) => s.starts_with('/'),
                                _ => false,
                            };
                            if !next_slash {
                                out.push('/');
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// `settings.NAME` (`from django.conf import settings`): the string
    /// constant `NAME` of the tree's settings module (`settings.py`, or a
    /// module of a `settings/` package).
    fn setting(&self, name: &str) -> Option<String> {
        let key = name.strip_prefix("settings.")?;
        self.modules.iter().enumerate().find_map(|(sm, md)| {
            let path = md.info.path.as_str();
            let is_settings = path.ends_with("/settings.py")
                || path == "settings.py"
                || path.contains("/settings/")
                || path.starts_with("settings/");
            if !is_settings {
                return None;
            }
            md.info.constant(key)?;
            self.project.const_value(sm, key, &self.is_local())
        })
    }

    fn emit(
        &mut self,
        url: &str,
        path: &str,
        line: u32,
        handlers: Vec<(String, Vec<Param>)>,
        guards: &Guards,
    ) {
        let url = format!("/{}", url.trim_start_matches('/'));
        for (method, params) in handlers {
            let mut e = Endpoint::new(&method, url.clone())
                .at_path(path.to_string(), line)
                .params(params);
            e.ai_context = guards.context(&e.method);
            self.out.push(e);
        }
    }

    /// Guard entries of a class chain (nearest first): every class's
    /// mixins and decorators, the nearest `permission_classes` (else the
    /// settings' default for DRF views), and per method its handler's
    /// decorators (`names`: (METHOD, handler function)).
    fn class_guards(
        &self,
        chain: &[ClassRef<'a>],
        drf: bool,
        names: &[(String, String)],
    ) -> Guards {
        let path = |m: usize| {
            self.modules
                .get(m)
                .map(|md| md.info.path.as_str())
                .unwrap_or("")
        };
        let mut g = Guards::default();
        for (m, c) in chain {
            g.common.extend(entries(&c.guards, "class", path(*m)));
        }
        match chain
            .iter()
            .find_map(|(m, c)| c.permissions.as_ref().map(|p| (*m, p)))
        {
            Some((m, p)) => g.common.extend(entries(p, "class", path(m))),
            None if drf => g
                .common
                .extend(self.default_permissions.iter().flatten().cloned()),
            None => {}
        }
        for (method, func) in names {
            if let Some((m, f)) = chain
                .iter()
                .find_map(|(m, c)| c.funcs.iter().find(|f| &f.name == func).map(|f| (*m, f)))
            {
                g.by_method
                    .push((method.clone(), entries(&f.guards, "decorator", path(m))));
            }
        }
        g
    }

    /// A function view (or a class passed without `as_view`, or unknown: GET).
    fn view_handlers(&self, m: usize, name: &str) -> (Vec<(String, Vec<Param>)>, Guards) {
        if let Some(Binding::Local { module, name }) = self.resolve(m, name) {
            if let Some(f) = self
                .modules
                .get(module)
                .and_then(|md| md.functions.iter().rev().find(|f| f.name == name))
            {
                let path = self
                    .modules
                    .get(module)
                    .map(|md| md.info.path.as_str())
                    .unwrap_or("");
                let mut guards = Guards {
                    common: entries(&f.guards, "decorator", path),
                    ..Guards::default()
                };
                match &f.permissions {
                    Some(p) => guards.common.extend(entries(p, "decorator", path)),
                    None if f.drf => guards
                        .common
                        .extend(self.default_permissions.iter().flatten().cloned()),
                    None => {}
                }
                let methods = f.methods.clone().unwrap_or_else(|| {
                    let mut v = vec!["GET".to_string()];
                    for b in &f.body_methods {
                        if !v.contains(b) {
                            v.push(b.clone());
                        }
                    }
                    v
                });
                // `XSerializer(data=request.data)` / `XForm(request.POST)`
                // in the body: its fields are the body of the writing methods.
                let body = f
                    .serializer
                    .as_ref()
                    .map(|s| self.serializer_fields(module, s, true))
                    .unwrap_or_default();
                let handlers = methods
                    .into_iter()
                    .map(|mt| {
                        let mut p = f.params.clone();
                        if matches!(mt.as_str(), "POST" | "PUT" | "PATCH") {
                            for q in &body {
                                if !p.iter().any(|x| x.name == q.name) {
                                    p.push(q.clone());
                                }
                            }
                        }
                        (mt, p)
                    })
                    .collect();
                return (handlers, guards);
            }
        }
        (vec![("GET".to_string(), Vec::new())], Guards::default())
    }

    /// The class and its in-tree ancestors (nearest first) and the names
    /// of the bases outside the tree.
    fn ancestry(&self, c: ClassRef<'a>) -> (Vec<ClassRef<'a>>, Vec<String>) {
        let mut chain: Vec<ClassRef<'a>> = Vec::new();
        let mut external = Vec::new();
        let mut stack = vec![c];
        while let Some((m, class)) = stack.pop() {
            if chain.iter().any(|(_, x)| std::ptr::eq(*x, class)) || chain.len() > 32 {
                continue;
            }
            chain.push((m, class));
            let mut parents = Vec::new();
            for base in &class.bases {
                match self.class(m, base) {
                    Some(p) => parents.push(p),
                    None => external.push(base.rsplit('.').next().unwrap_or(base).to_string()),
                }
            }
            stack.extend(parents.into_iter().rev());
        }
        (chain, external)
    }

    /// Body fields of the view's serializer / form.
    fn body_fields(&self, chain: &[ClassRef<'a>], drf: bool) -> Vec<Param> {
        let Some((m, name)) = chain
            .iter()
            .find_map(|(m, c)| c.serializer.as_ref().map(|s| (*m, s)))
        else {
            return Vec::new();
        };
        self.serializer_fields(m, name, drf)
    }

    /// The writable fields of serializer (or form) `name` seen from `m`.
    fn serializer_fields(&self, m: usize, name: &str, drf: bool) -> Vec<Param> {
        let Some(ser) = self.class(m, name) else {
            return Vec::new();
        };
        let (ser_chain, external) = self.ancestry(ser);
        // A Django form's fields are posted as a form whatever the view.
        let drf = drf && !external.iter().any(|b| b == "Form" || b == "ModelForm");
        let mut out: Vec<Param> = Vec::new();
        for (_, c) in ser_chain.iter().rev() {
            for f in &c.fields {
                let p = if drf {
                    Param::json(f.clone())
                } else {
                    Param::form(f.clone())
                };
                if !out.iter().any(|q| q.name == p.name) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Query parameters of a list: `filterset_fields`, `search` /
    /// `ordering`, and the filters of its `filterset_class`.
    fn query_params(&self, chain: &[ClassRef<'a>]) -> Vec<Param> {
        let mut out: Vec<Param> = chain
            .iter()
            .flat_map(|(_, c)| c.query.iter().map(|q| Param::query(q.clone())))
            .collect();
        let filterset = chain
            .iter()
            .find_map(|(m, c)| c.filterset.as_ref().map(|f| (*m, f)));
        if let Some(fs) = filterset.and_then(|(m, f)| self.class(m, f)) {
            let (fs_chain, _) = self.ancestry(fs);
            for (_, c) in fs_chain.iter().rev() {
                for f in c.filters.iter().chain(&c.fields) {
                    if !out.iter().any(|p| p.name == *f) {
                        out.push(Param::query(f.clone()));
                    }
                }
            }
        }
        out
    }

    /// Parameters read by `get_queryset` and friends (GET requests).
    fn hook_params(chain: &[ClassRef<'a>]) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        for hook in super::scan::QUERYSET_HOOKS {
            if let Some(f) = Self::func(chain, hook) {
                for p in &f.params {
                    if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                        out.push(p.clone());
                    }
                }
            }
        }
        out
    }

    fn func<'c>(chain: &'c [ClassRef<'a>], name: &str) -> Option<&'a super::facts::ViewFunc> {
        chain
            .iter()
            .find_map(|(_, c)| c.funcs.iter().find(|f| f.name == name))
    }

    fn class_handlers(
        &self,
        c: ClassRef<'a>,
        actions: Option<&[(String, String)]>,
    ) -> (Vec<(String, Vec<Param>)>, Guards) {
        let (chain, external) = self.ancestry(c);
        let form_body = chain.iter().any(|(_, c)| c.form_body);
        let drf = external.iter().any(|b| is_drf_base(b)) && !form_body;
        let body = self.body_fields(&chain, drf);
        let query = self.query_params(&chain);
        let hooks = Self::hook_params(&chain);
        let params_for = |method: &str, func: &str| -> Vec<Param> {
            let mut p: Vec<Param> = Self::func(&chain, func)
                .map(|f| f.params.clone())
                .unwrap_or_default();
            // `XSerializer(data=request.data)` in the handler.
            let validated = chain.iter().find_map(|(m, c)| {
                let f = c.funcs.iter().find(|f| f.name == func)?;
                f.serializer.as_ref().map(|s| (*m, s))
            });
            if let Some((m, name)) = validated {
                for q in self.serializer_fields(m, name, !form_body) {
                    if !p.iter().any(|x| x.name == q.name && x.kind == q.kind) {
                        p.push(q);
                    }
                }
            }
            if matches!(method, "POST" | "PUT" | "PATCH") {
                p.extend(body.iter().cloned());
            } else if method == "GET" {
                p.extend(query.iter().cloned());
                p.extend(hooks.iter().cloned());
            }
            p
        };
        let drf_view = external.iter().any(|b| is_drf_base(b));
        if let Some(actions) = actions {
            let guards = self.class_guards(&chain, drf_view, actions);
            let handlers = actions
                .iter()
                .map(|(method, action)| (method.clone(), params_for(method, action)))
                .collect();
            return (handlers, guards);
        }
        let mut methods: Vec<String> = Vec::new();
        for h in [
            "get", "post", "put", "patch", "delete", "head", "options", "trace",
        ] {
            if Self::func(&chain, h).is_some() {
                methods.push(h.to_ascii_uppercase());
            }
        }
        for b in &external {
            for mt in implied_methods(b) {
                if !methods.iter().any(|x| x == mt) {
                    methods.push(mt.to_string());
                }
            }
        }
        if let Some(allowed) = chain.iter().find_map(|(_, c)| c.http_method_names.as_ref()) {
            methods.retain(|mt| allowed.contains(mt));
        }
        if methods.is_empty() {
            methods.push("GET".into());
        }
        let names: Vec<(String, String)> = methods
            .iter()
            .map(|mt| (mt.clone(), mt.to_ascii_lowercase()))
            .collect();
        let guards = self.class_guards(&chain, drf_view, &names);
        let handlers = methods
            .into_iter()
            .map(|mt| {
                let lower = mt.to_ascii_lowercase();
                let p = params_for(&mt, &lower);
                (mt, p)
            })
            .collect();
        (handlers, guards)
    }

    fn router_endpoints(&mut self, m: usize, router: &str, prefix: &str) {
        self.emitted_routers.insert((m, router.to_string()));
        let modules = self.modules;
        let trailing = modules
            .get(m)
            .and_then(|md| md.routers.iter().find(|r| r.name == router))
            .is_none_or(|r| r.trailing_slash);
        let slash = if trailing { "/" } else { "" };
        for (rm, module) in modules.iter().enumerate() {
            for reg in &module.registers {
                let same = matches!(
                    self.resolve(rm, &reg.router),
                    Some(Binding::Local { module, ref name }) if module == m && name == router
                );
                if !same {
                    continue;
                }
                // A prefix only known at run time (`router.register(tag,
                // …)` with `tag` computed in a helper): a placeholder
                // segment named after it.
                let Some(p) = self.eval(rm, &reg.prefix).or_else(|| {
                    let name = reg.prefix.as_name()?;
                    Some(crate::py::config::placeholder(
                        name.rsplit('.').next().unwrap_or(name),
                    ))
                }) else {
                    continue;
                };
                let Some(vs) = self.class(rm, &reg.viewset) else {
                    continue;
                };
                let nested = self.nested_prefix(m, router, 0);
                let base = format!("{prefix}{nested}{}", clean_route(&p, true));
                self.viewset_endpoints(vs, &base, slash, &module.info.path, reg.line);
            }
        }
    }

    /// `parent_prefix/{lookup_pk}/` for each level of drf-nested-routers.
    fn nested_prefix(&self, m: usize, router: &str, depth: usize) -> String {
        if depth > 8 {
            return String::new();
        }
        let Some(parent) = self
            .modules
            .get(m)
            .and_then(|md| md.routers.iter().find(|r| r.name == router))
            .and_then(|r| r.parent.as_ref())
        else {
            return String::new();
        };
        let above = match self.resolve(m, &parent.router) {
            Some(Binding::Local { module, name }) => self.nested_prefix(module, &name, depth + 1),
            _ => String::new(),
        };
        let prefix = self
            .eval(m, &parent.prefix)
            .map(|p| clean_route(&p, true))
            .unwrap_or_default();
        format!("{above}{prefix}/{{{}_pk}}/", parent.lookup)
    }

    fn viewset_endpoints(
        &mut self,
        vs: ClassRef<'a>,
        base: &str,
        slash: &str,
        path: &str,
        line: u32,
    ) {
        let (chain, external) = self.ancestry(vs);
        let body = self.body_fields(&chain, true);
        let query = self.query_params(&chain);
        let lookup = chain
            .iter()
            .find_map(|(_, c)| c.lookup.clone())
            .unwrap_or_else(|| "pk".to_string());
        let allowed = chain.iter().find_map(|(_, c)| c.http_method_names.clone());
        let hooks = Self::hook_params(&chain);
        let supported = |action: &str| {
            Self::func(&chain, action).is_some()
                || external
                    .iter()
                    .any(|b| implied_actions(b).contains(&action))
        };
        let list_url = format!("{base}{slash}");
        let detail_url = format!("{base}/{{{lookup}}}{slash}");
        let mut handlers: Vec<(String, String, Vec<Param>)> = Vec::new();
        let mut names: Vec<(String, String)> = Vec::new();
        for (action, method, detail) in ROUTER_ACTIONS {
            if !supported(action)
                || allowed
                    .as_ref()
                    .is_some_and(|a| !a.iter().any(|x| x == method))
            {
                continue;
            }
            let mut params: Vec<Param> = Self::func(&chain, action)
                .map(|f| f.params.clone())
                .unwrap_or_default();
            match action {
                "create" | "update" | "partial_update" => params.extend(body.iter().cloned()),
                "list" => {
                    params.extend(query.iter().cloned());
                    params.extend(hooks.iter().cloned());
                }
                "retrieve" => params.extend(hooks.iter().cloned()),
                _ => {}
            }
            let url = if detail { &detail_url } else { &list_url };
            handlers.push((url.clone(), method.to_string(), params));
            names.push((method.to_string(), action.to_string()));
        }
        for ((url, method, params), name) in handlers.into_iter().zip(&names) {
            let guards = self.class_guards(&chain, true, std::slice::from_ref(name));
            self.emit(&url, path, line, vec![(method, params)], &guards);
        }
        // `@action`s, declared in the viewset or its ancestors.
        let actions: Vec<ActionRoute<'a>> = chain
            .iter()
            .flat_map(|(am, c)| {
                let path = self
                    .modules
                    .get(*am)
                    .map(|md| md.info.path.clone())
                    .unwrap_or_default();
                let lookup = lookup.clone();
                c.actions.iter().map(move |a| {
                    let seg = a
                        .url_path
                        .as_deref()
                        .map_or_else(|| a.name.clone(), |p| clean_route(p, true));
                    let url = if a.detail {
                        format!("{base}/{{{lookup}}}/{seg}{slash}")
                    } else {
                        format!("{base}/{seg}{slash}")
                    };
                    (
                        url,
                        a.line,
                        path.clone(),
                        a.methods.clone(),
                        a.params.clone(),
                        a.permissions.as_ref(),
                        a.name.clone(),
                        a.serializer.clone().map(|s| (*am, s)),
                    )
                })
            })
            .collect();
        for (url, line, path, methods, mut params, permissions, name, serializer) in actions {
            // `PasswordSerializer(data=request.data)` in the action (the
            // DRF guide's `set_password`): the serializer's fields.
            if let Some((m, s)) = serializer {
                for q in self.serializer_fields(m, &s, true) {
                    if !params.iter().any(|x| x.name == q.name && x.kind == q.kind) {
                        params.push(q);
                    }
                }
            }
            let names: Vec<(String, String)> =
                methods.iter().map(|m| (m.clone(), name.clone())).collect();
            let mut guards = self.class_guards(&chain, true, &names);
            // `@action(permission_classes=[...])` replaces the viewset's.
            if let Some(p) = permissions {
                guards.common.clear();
                for (m, c) in &chain {
                    let cpath = self.modules.get(*m).map_or("", |md| md.info.path.as_str());
                    guards.common.extend(entries(&c.guards, "class", cpath));
                }
                guards.common.extend(entries(p, "decorator", &path));
            }
            let handlers = methods.into_iter().map(|m| (m, params.clone())).collect();
            self.emit(&url, &path, line, handlers, &guards);
        }
    }
}

/// A view class from outside the tree (`auth_views.LoginView.as_view()`).
fn external_view(class: &str, actions: Option<&[(String, String)]>) -> Vec<(String, Vec<Param>)> {
    if let Some(actions) = actions {
        return actions
            .iter()
            .map(|(m, _)| (m.clone(), Vec::new()))
            .collect();
    }
    let last = class.rsplit('.').next().unwrap_or(class);
    let implied = implied_methods(last);
    if implied.is_empty() {
        return vec![("GET".to_string(), Vec::new())];
    }
    implied
        .iter()
        .map(|m| (m.to_string(), Vec::new()))
        .collect()
}

/// A route piece as a URL: regex anchors and escapes removed, named
/// groups and path converters as `{name}`.
pub fn clean_route(route: &str, regex: bool) -> String {
    if !regex {
        let mut out = String::with_capacity(route.len());
        let mut rest = route;
        while let Some(open) = rest.find('<') {
            let Some(close) = rest[open..].find('>') else {
                break;
            };
            out.push_str(&rest[..open]);
            let inner = &rest[open + 1..open + close];
            out.push('{');
            out.push_str(inner.rsplit(':').next().unwrap_or(inner));
            out.push('}');
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        return out;
    }
    let r = route.strip_prefix('^').unwrap_or(route);
    let r = r
        .strip_suffix("\\Z")
        .or_else(|| r.strip_suffix('$'))
        .unwrap_or(r);
    let chars: Vec<char> = r.chars().collect();
    let mut out = String::with_capacity(r.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '('
            && chars.get(i + 1) == Some(&'?')
            && chars.get(i + 2) == Some(&'P')
            && chars.get(i + 3) == Some(&'<')
        {
            // `(?P<name>...)` → `{name}`, skipping the nested pattern.
            let name_start = i + 4;
            let Some(name_len) = chars[name_start..].iter().position(|c| *c == '>') else {
                out.extend(&chars[i..]);
                break;
            };
            let name: String = chars[name_start..name_start + name_len].iter().collect();
            let mut depth = 0usize;
            let mut j = i;
            while j < chars.len() {
                match chars[j] {
                    '\\' => j += 1,
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push('{');
            out.push_str(&name);
            out.push('}');
            i = j + 1;
            continue;
        }
        if c == '\\' {
            if let Some(n) = chars.get(i + 1) {
                if matches!(n, '.' | '-' | '/' | '_' | '~') {
                    out.push(*n);
                    i += 2;
                    continue;
                }
            }
        }
        if c == '?' && out.ends_with('/') {
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clean_route;

    #[test]
    fn routes_become_urls() {
        assert_eq!(clean_route("users/<int:pk>/", false), "users/{pk}/");
        assert_eq!(clean_route("<slug>/x", false), "{slug}/x");
        assert_eq!(
            clean_route(r"^articles/(?P<year>[0-9]{4})/(?P<slug>[\w-]+)/$", true),
            "articles/{year}/{slug}/"
        );
        assert_eq!(clean_route(r"^api/v1\.0/users/?$", true), "api/v1.0/users/");
        assert_eq!(clean_route("^", true), "");
        assert_eq!(clean_route("users", true), "users");
        assert_eq!(clean_route(r"^(?P<bad", true), "(?P<bad");
    }
}
