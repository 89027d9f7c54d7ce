//! Endpoint-builder flow: where `Map…` calls are made and on what.
//!
//! Every chain `x.MapGroup("/a").MapGroup("/b").MapGet("/c", h)` is read
//! with the builder state at each call: the *root* (a parameter of the
//! enclosing method, or anything else: the application) and the group
//! prefixes applied so far. Variables (`var api = app.MapGroup("/api")`)
//! are followed within their method (or the top-level statements).
//!
//! Calls that pass a builder on (`api.MapTodos()`, `TodoApi.Map(group)`,
//! `MapUsers(app)`) are recorded so the link step can give a method's
//! builder parameters the prefixes of every call site in any file.

use portolan_plugin_sdk::{ParamKind, SourceFile};
use serde::{Deserialize, Serialize};

use super::expr::{Expr, Piece};
use super::outline::{params_in, scan_reads, CsFile, Param as CsParam, Read};
use super::tokens::{close_of, split_commas, Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Root {
    /// The application (or an unknown receiver): no prefix.
    Top,
    /// The n-th parameter of the enclosing method.
    Param(usize),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BRef {
    pub root: Root,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Expr>,
    /// `.RequireAuthorization(…)` on a group of the chain (as written,
    /// line); `.AllowAnonymous()` after it clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<(String, u32)>,
}

impl BRef {
    fn top() -> Self {
        BRef {
            root: Root::Top,
            groups: Vec::new(),
            guard: None,
        }
    }
}

/// A method: declaring type, name, parameter count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FnRef {
    pub ty: String,
    pub name: String,
    pub arity: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verb {
    Methods(Vec<String>),
    /// `Map(pattern, handler)`: any method.
    Any,
    /// `MapHub<THub>(pattern)`.
    Hub(String),
    /// `MapControllers()`: the attribute-routed controllers, below the
    /// builder's group prefixes (`app.MapGroup("/api").MapControllers()`).
    Controllers,
    /// A conventional MVC route; `defaults` from `new { controller = … }`.
    Conventional {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        defaults: Vec<(String, String)>,
        /// Declared by `MapHttpRoute` (classic ASP.NET Web API).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        http: bool,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<CsParam>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
    /// A method group (`TodoHandlers.GetAll`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub path: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub func: Option<FnRef>,
    pub at: BRef,
    pub verb: Verb,
    pub pattern: Expr,
    #[serde(default)]
    pub handler: Handler,
    /// `.RequireAuthorization(…)` chained on the route (as written, line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<(String, u32)>,
    /// `.AllowAnonymous()` chained on the route.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anonymous: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub func: Option<FnRef>,
    pub callee: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver: Option<BRef>,
    pub args: Vec<Option<BRef>>,
}

/// Parameter types that are endpoint builders.
const BUILDER_TYPES: [&str; 6] = [
    "WebApplication",
    "IEndpointRouteBuilder",
    "RouteGroupBuilder",
    "IApplicationBuilder",
    "IRouteBuilder",
    "IEndpointConventionBuilder",
];

/// Receivers conventionally naming the application or a route builder.
const BUILDER_NAMES: [&str; 5] = ["app", "endpoints", "routes", "group", "api"];

const VERBS: [(&str, &str); 5] = [
    ("MapGet", "GET"),
    ("MapPost", "POST"),
    ("MapPut", "PUT"),
    ("MapDelete", "DELETE"),
    ("MapPatch", "PATCH"),
];

/// The endpoints `MapIdentityApi<TUser>()` maps (ASP.NET Core Identity
/// API endpoints): method, pattern and the request values each reads.
type IdentityEndpoint = (
    &'static str,
    &'static str,
    &'static [(ParamKind, &'static str)],
);

const IDENTITY_API: [IdentityEndpoint; 10] = [
    (
        "POST",
        "/register",
        &[(ParamKind::Json, "email"), (ParamKind::Json, "password")],
    ),
    (
        "POST",
        "/login",
        &[
            (ParamKind::Json, "email"),
            (ParamKind::Json, "password"),
            (ParamKind::Json, "twoFactorCode"),
            (ParamKind::Json, "twoFactorRecoveryCode"),
            (ParamKind::Query, "useCookies"),
            (ParamKind::Query, "useSessionCookies"),
        ],
    ),
    ("POST", "/refresh", &[(ParamKind::Json, "refreshToken")]),
    (
        "GET",
        "/confirmEmail",
        &[
            (ParamKind::Query, "userId"),
            (ParamKind::Query, "code"),
            (ParamKind::Query, "changedEmail"),
        ],
    ),
    (
        "POST",
        "/resendConfirmationEmail",
        &[(ParamKind::Json, "email")],
    ),
    ("POST", "/forgotPassword", &[(ParamKind::Json, "email")]),
    (
        "POST",
        "/resetPassword",
        &[
            (ParamKind::Json, "email"),
            (ParamKind::Json, "resetCode"),
            (ParamKind::Json, "newPassword"),
        ],
    ),
    (
        "POST",
        "/manage/2fa",
        &[
            (ParamKind::Json, "enable"),
            (ParamKind::Json, "twoFactorCode"),
            (ParamKind::Json, "resetSharedKey"),
            (ParamKind::Json, "resetRecoveryCodes"),
            (ParamKind::Json, "forgetMachine"),
        ],
    ),
    ("GET", "/manage/info", &[]),
    (
        "POST",
        "/manage/info",
        &[
            (ParamKind::Json, "newEmail"),
            (ParamKind::Json, "newPassword"),
            (ParamKind::Json, "oldPassword"),
        ],
    ),
];

/// Prefixes of the framework's fluent configuration methods, which are
/// not calls into the application's own route-mapping methods.
const FLUENT: [&str; 14] = [
    "Require",
    "With",
    "Produces",
    "Accepts",
    "Allow",
    "Cache",
    "Disable",
    "Exclude",
    "Run",
    "Build",
    "Add",
    "ShortCircuit",
    "Has",
    "Configure",
];

struct Scope {
    func: Option<FnRef>,
    params: Vec<CsParam>,
    range: (usize, usize),
}

struct Flow<'a> {
    file: &'a SourceFile,
    t: &'a [Token],
    scopes: Vec<Scope>,
    /// (scope, name, token of the name, start of the value).
    assigns: Vec<(Option<usize>, String, usize, usize)>,
    builders: Vec<String>,
    /// Local functions of top-level statements (`static async
    /// Task<IResult> GetTodo(int id, TodoDb db) { … }`) by name: the
    /// parameter list `(`..`)` and the body range.
    locals: std::collections::HashMap<String, (usize, usize, usize, usize)>,
    /// Names of the methods the file's types declare.
    methods: std::collections::HashSet<String>,
}

struct Step {
    name: String,
    at: usize,
    generic: Option<(usize, usize)>,
    args: Option<(usize, usize)>,
    state: BRef,
    state_builder: bool,
}

pub fn scan(file: &SourceFile, outline: &CsFile, t: &[Token]) -> (Vec<Route>, Vec<Call>) {
    let mut scopes = Vec::new();
    for ty in &outline.types {
        for m in &ty.methods {
            if let Some(range) = m.body {
                scopes.push(Scope {
                    func: Some(FnRef {
                        ty: ty.name.clone(),
                        name: m.name.clone(),
                        arity: m.params.len(),
                    }),
                    params: m.params.clone(),
                    range,
                });
            }
        }
    }
    let mut f = Flow {
        file,
        t,
        scopes,
        assigns: Vec::new(),
        builders: BUILDER_NAMES.iter().map(|s| s.to_string()).collect(),
        locals: std::collections::HashMap::new(),
        methods: outline
            .types
            .iter()
            .flat_map(|ty| ty.methods.iter().map(|m| m.name.clone()))
            .collect(),
    };
    if file.content.contains(".Map") {
        f.locals = local_functions(t, outline);
    }
    for i in 1..t.len() {
        if t[i].kind == Kind::Ident
            && t.get(i + 1).is_some_and(|x| x.is('.'))
            && t.get(i + 2).is_some_and(|x| x.text.starts_with("Map"))
            && t[i]
                .text
                .starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && !f.builders.contains(&t[i].text)
        {
            f.builders.push(t[i].text.clone());
        }
        if t[i].kind == Kind::Ident
            && t.get(i + 1).is_some_and(|x| x.is('='))
            && !t.get(i + 2).is_some_and(|x| x.is('=') || x.is('>'))
            && !t[i - 1].is('.')
        {
            let scope = f.scope_of(i);
            f.assigns.push((scope, t[i].text.clone(), i, i + 2));
        }
    }
    for s in &f.scopes {
        for p in &s.params {
            if BUILDER_TYPES.contains(&super::index::simple(&p.ty)) && !f.builders.contains(&p.name)
            {
                f.builders.push(p.name.clone());
            }
        }
    }
    let mut routes = Vec::new();
    let mut calls = Vec::new();
    for i in 0..t.len() {
        if t[i].kind != Kind::Ident || i > 0 && (t[i - 1].is('.') || t[i - 1].is_ident("new")) {
            continue;
        }
        let scope = f.scope_of(i);
        let func = scope.and_then(|s| f.scopes[s].func.clone());
        let (_, steps) = f.chain(i, scope, 0);
        for (k, s) in steps.iter().enumerate() {
            let before = routes.len();
            f.event(s, scope, &func, &mut routes, &mut calls);
            // `.RequireAuthorization()` / `.AllowAnonymous()` chained
            // after the route (the last one wins).
            if routes.len() > before {
                let last = steps[k + 1..]
                    .iter()
                    .rev()
                    .find(|x| x.name == "RequireAuthorization" || x.name == "AllowAnonymous");
                for r in &mut routes[before..] {
                    match last {
                        Some(x) if x.name == "AllowAnonymous" => r.anonymous = true,
                        Some(x) => r.guard = Some(f.guard_text(x)),
                        None => {}
                    }
                }
            }
        }
    }
    (routes, calls)
}

impl Flow<'_> {
    fn scope_of(&self, i: usize) -> Option<usize> {
        self.scopes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.range.0 <= i && i < s.range.1)
            .min_by_key(|(_, s)| s.range.1 - s.range.0)
            .map(|(k, _)| k)
    }

    fn is(&self, i: usize, c: char) -> bool {
        self.t.get(i).is_some_and(|t| t.is(c))
    }

    /// The builder a variable holds at token `pos`.
    fn resolve(&self, name: &str, pos: usize, scope: Option<usize>, depth: usize) -> (BRef, bool) {
        let builder = self.builders.iter().any(|b| b == name);
        if depth > 8 {
            return (BRef::top(), builder);
        }
        if let Some((_, _, at, value)) = self
            .assigns
            .iter()
            .filter(|(s, n, at, _)| *s == scope && n == name && *at < pos)
            .max_by_key(|(_, _, at, _)| *at)
        {
            if self.t.get(*value).is_some_and(|t| t.kind == Kind::Ident) && *value != *at {
                let (state, steps) = self.chain(*value, scope, depth + 1);
                let via_group = steps.iter().any(|s| s.name == "MapGroup");
                let b = builder || via_group || state.root != Root::Top || !state.groups.is_empty();
                return (state, b);
            }
            return (BRef::top(), builder);
        }
        if let Some(s) = scope {
            if let Some(k) = self.scopes[s].params.iter().position(|p| p.name == name) {
                return (
                    BRef {
                        root: Root::Param(k),
                        groups: Vec::new(),
                        guard: None,
                    },
                    true,
                );
            }
        }
        (BRef::top(), builder)
    }

    /// Walk the chain starting at identifier `i`.
    fn chain(&self, i: usize, scope: Option<usize>, depth: usize) -> (BRef, Vec<Step>) {
        let t = self.t;
        let mut steps = Vec::new();
        let (mut state, mut builder, mut k) = if self.is(i + 1, '(') {
            // `MapUsers(app)`: a call without receiver.
            let close = close_of(t, i + 1).unwrap_or(t.len());
            steps.push(Step {
                name: t[i].text.clone(),
                at: i,
                generic: None,
                args: Some((i + 1, close)),
                state: BRef::top(),
                state_builder: false,
            });
            (BRef::top(), false, close + 1)
        } else {
            let (s, b) = self.resolve(&t[i].text, i, scope, depth);
            (s, b, i + 1)
        };
        while self.is(k, '.') || self.is(k, '?') && self.is(k + 1, '.') {
            if self.is(k, '?') {
                k += 1;
            }
            let Some(name_tok) = t.get(k + 1).filter(|x| x.kind == Kind::Ident) else {
                break;
            };
            let at = k + 1;
            k += 2;
            let mut generic = None;
            if self.is(k, '<') {
                if let Some(c) = close_of(t, k) {
                    generic = Some((k, c));
                    k = c + 1;
                }
            }
            let mut args = None;
            if self.is(k, '(') {
                let c = close_of(t, k).unwrap_or(t.len());
                args = Some((k, c));
                k = c + 1;
            }
            let step = Step {
                name: name_tok.text.clone(),
                at,
                generic,
                args,
                state: state.clone(),
                state_builder: builder,
            };
            if step.name == "MapGroup" {
                if let Some(e) = self.arg_exprs(&step).into_iter().next().flatten() {
                    state.groups.push(e);
                    builder = true;
                }
            }
            if !state.groups.is_empty() {
                match step.name.as_str() {
                    "RequireAuthorization" => state.guard = Some(self.guard_text(&step)),
                    "AllowAnonymous" => state.guard = None,
                    _ => {}
                }
            }
            steps.push(step);
        }
        (state, steps)
    }

    /// `RequireAuthorization("Admin")` as written, and its line.
    fn guard_text(&self, s: &Step) -> (String, u32) {
        let args: Vec<String> = self
            .arg_exprs(s)
            .into_iter()
            .flatten()
            .filter_map(|e| e.literal())
            .map(|a| format!("\"{a}\""))
            .collect();
        let line = self.file.line_of(self.t[s.at].start);
        (format!("{}({})", s.name, args.join(", ")), line)
    }

    fn args(&self, s: &Step) -> Vec<std::ops::Range<usize>> {
        match s.args {
            Some((o, c)) => split_commas(self.t, o + 1, c),
            None => Vec::new(),
        }
    }

    /// Each argument as a string expression (`pattern: "/x"` accepted);
    /// local string variables of the method are filled in (`var basePath
    /// = "/functional";` then `$"{basePath}/directors"`).
    fn arg_exprs(&self, s: &Step) -> Vec<Option<Expr>> {
        let scope = self.scope_of(s.at);
        self.args(s)
            .into_iter()
            .map(|r| {
                let mut st = r.start;
                if self.t.get(st).is_some_and(|x| x.kind == Kind::Ident) && self.is(st + 1, ':') {
                    st += 2;
                }
                let mut e = crate::cs::expr::parse(self.t.get(st..r.end).unwrap_or(&[]))?;
                let local = |n: &str| self.local_string(n, scope, s.at);
                for p in &mut e.parts {
                    match p {
                        Piece::Ref(n) => {
                            if let Some(v) = local(n) {
                                *p = Piece::Lit(v);
                            }
                        }
                        Piece::Interp(raw) => *raw = fill_holes(raw, &local),
                        Piece::Lit(_) => {}
                    }
                }
                Some(e)
            })
            .collect()
    }

    /// The value of a local variable holding one plain string literal
    /// (its last assignment before `pos` in the same method).
    fn local_string(&self, name: &str, scope: Option<usize>, pos: usize) -> Option<String> {
        let (_, _, _, value) = self
            .assigns
            .iter()
            .filter(|(s, n, at, _)| *s == scope && n == name && *at < pos)
            .max_by_key(|(_, _, at, _)| *at)?;
        let v = self.t.get(*value)?;
        (v.kind == Kind::Str && !v.interp && self.is(value + 1, ';')).then(|| v.text.clone())
    }

    fn event(
        &self,
        s: &Step,
        scope: Option<usize>,
        func: &Option<FnRef>,
        routes: &mut Vec<Route>,
        calls: &mut Vec<Call>,
    ) {
        let line = self.file.line_of(self.t[s.at].start);
        let args = self.args(s);
        let exprs = self.arg_exprs(s);
        let route = |verb: Verb, pattern: Expr, handler: Handler| Route {
            path: self.file.path.clone(),
            line,
            func: func.clone(),
            at: s.state.clone(),
            verb,
            pattern,
            handler,
            guard: None,
            anonymous: false,
        };
        let first = exprs.first().cloned().flatten();
        if let Some((_, m)) = VERBS.iter().find(|(n, _)| *n == s.name) {
            // A handler-first overload of the project's own
            // (`group.MapGet(GetTodo, "{id}")`, the pattern defaulting to
            // ""): the first argument names a method, not a constant.
            let handler_first = args.first().filter(|r| {
                r.len() == 1
                    && args.len() <= 2
                    && self.t[r.start].kind == Kind::Ident
                    && (self.methods.contains(&self.t[r.start].text)
                        || self.locals.contains_key(&self.t[r.start].text))
            });
            if let Some(h) = handler_first {
                let pattern = match exprs.get(1) {
                    None => Some(Expr::lit("")),
                    Some(e) => e.clone(),
                };
                if let Some(p) = pattern {
                    routes.push(route(
                        Verb::Methods(vec![m.to_string()]),
                        p,
                        self.handler(h.clone()),
                    ));
                }
                return;
            }
            if let Some(p) = first {
                let h = args
                    .last()
                    .filter(|_| args.len() > 1)
                    .map(|r| self.handler(r.clone()));
                routes.push(route(
                    Verb::Methods(vec![m.to_string()]),
                    p,
                    h.unwrap_or_default(),
                ));
            }
            return;
        }
        match s.name.as_str() {
            "Map" if first.is_some() && args.len() >= 2 => {
                let h = args
                    .last()
                    .map(|r| self.handler(r.clone()))
                    .unwrap_or_default();
                if let Some(p) = first {
                    routes.push(route(Verb::Any, p, h));
                }
                return;
            }
            "MapMethods" => {
                if let (Some(p), Some(r)) = (first, args.get(1)) {
                    let methods: Vec<String> = self.t[r.clone()]
                        .iter()
                        .filter(|x| {
                            x.kind == Kind::Str
                                || x.kind == Kind::Ident
                                    && !matches!(
                                        x.text.as_str(),
                                        "new" | "HttpMethods" | "HttpMethod" | "Method" | "string"
                                    )
                        })
                        .map(|x| x.text.to_ascii_uppercase())
                        .collect();
                    let h = args
                        .get(2)
                        .map(|r| self.handler(r.clone()))
                        .unwrap_or_default();
                    routes.push(route(Verb::Methods(methods), p, h));
                }
                return;
            }
            "MapHub" | "MapConnectionHandler" => {
                let hub = s
                    .generic
                    .and_then(|(o, c)| self.t.get(o + 1..c))
                    .and_then(|g| g.iter().rev().find(|x| x.kind == Kind::Ident))
                    .map(|x| x.text.clone())
                    .unwrap_or_default();
                if let Some(p) = first {
                    routes.push(route(Verb::Hub(hub), p, Handler::default()));
                }
                return;
            }
            "MapControllerRoute" | "MapAreaControllerRoute" | "MapRoute" | "MapHttpRoute" => {
                self.conventional(s, &args, route, routes);
                return;
            }
            "MapDefaultControllerRoute" | "UseMvcWithDefaultRoute" => {
                routes.push(route(
                    Verb::Conventional {
                        defaults: Vec::new(),
                        http: false,
                    },
                    Expr::lit("{controller=Home}/{action=Index}/{id?}"),
                    Handler::default(),
                ));
                return;
            }
            "MapGroup" => return,
            "MapIdentityApi" => {
                for (method, pattern, reads) in IDENTITY_API {
                    let reads = reads
                        .iter()
                        .map(|(kind, name)| Read {
                            kind: *kind,
                            name: name.to_string(),
                            ty: None,
                        })
                        .collect();
                    routes.push(route(
                        Verb::Methods(vec![method.to_string()]),
                        Expr::lit(pattern),
                        Handler {
                            reads,
                            ..Handler::default()
                        },
                    ));
                }
                return;
            }
            "MapControllers" => {
                routes.push(route(Verb::Controllers, Expr::lit(""), Handler::default()));
                return;
            }
            _ => {}
        }
        // A call passing a builder on (endpoint conventions excluded).
        if FLUENT.iter().any(|p| s.name.starts_with(p)) {
            return;
        }
        let mut any = false;
        let receiver = if s.name == "Map" || s.state_builder || s.state.root != Root::Top {
            any |= s.state_builder || s.state.root != Root::Top || !s.state.groups.is_empty();
            Some(s.state.clone())
        } else {
            // `Type.Method(…)`: a static call, not an extension call.
            None
        };
        let is_static_call = self.t.get(s.at.wrapping_sub(2)).is_some_and(|x| {
            x.text.starts_with(|c: char| c.is_ascii_uppercase()) && !self.builders.contains(&x.text)
        });
        let receiver = if is_static_call && s.state.groups.is_empty() && s.state.root == Root::Top {
            None
        } else {
            receiver
        };
        let mut bargs = Vec::new();
        for r in &args {
            let b = if self.t.get(r.start).is_some_and(|x| x.kind == Kind::Ident)
                && (r.end == r.start + 1 || self.is(r.start + 1, '.'))
            {
                let (state, steps) = self.chain(r.start, scope, 1);
                let (_, named_builder) = if r.end == r.start + 1 {
                    self.resolve(&self.t[r.start].text, r.start, scope, 1)
                } else {
                    (BRef::top(), false)
                };
                let via_group = steps.iter().any(|x| x.name == "MapGroup");
                (named_builder || via_group || state.root != Root::Top).then_some(state)
            } else {
                None
            };
            any |= b.is_some();
            bargs.push(b);
        }
        if any && s.args.is_some() {
            calls.push(Call {
                path: self.file.path.clone(),
                func: func.clone(),
                callee: s.name.clone(),
                receiver,
                args: bargs,
            });
        }
    }

    fn conventional(
        &self,
        s: &Step,
        args: &[std::ops::Range<usize>],
        route: impl Fn(Verb, Expr, Handler) -> Route,
        routes: &mut Vec<Route>,
    ) {
        let mut pattern = None;
        let mut defaults = Vec::new();
        let mut positional = 0;
        let pattern_pos = if s.name == "MapAreaControllerRoute" {
            2
        } else {
            1
        };
        for r in args {
            let mut st = r.start;
            let name =
                if self.t.get(st).is_some_and(|x| x.kind == Kind::Ident) && self.is(st + 1, ':') {
                    st += 2;
                    Some(self.t[r.start].text.as_str())
                } else {
                    None
                };
            let toks = self.t.get(st..r.end).unwrap_or(&[]);
            let pos = positional;
            if name.is_none() {
                positional += 1;
            }
            match name {
                Some("pattern" | "template" | "url" | "routeTemplate") => {
                    pattern = crate::cs::expr::parse(toks)
                }
                Some("areaName") => {
                    if let Some(v) = crate::cs::expr::parse(toks).and_then(|e| e.literal()) {
                        defaults.push(("area".to_string(), v));
                    }
                }
                Some("defaults") => defaults.extend(anonymous_object(toks)),
                Some(_) => {}
                None if pos == pattern_pos => pattern = crate::cs::expr::parse(toks),
                None if pos == 1 && s.name == "MapAreaControllerRoute" => {
                    if let Some(v) = crate::cs::expr::parse(toks).and_then(|e| e.literal()) {
                        defaults.push(("area".to_string(), v));
                    }
                }
                None if pos == pattern_pos + 1 => defaults.extend(anonymous_object(toks)),
                None => {}
            }
        }
        if let Some(p) = pattern {
            routes.push(route(
                Verb::Conventional {
                    defaults,
                    http: s.name == "MapHttpRoute",
                },
                p,
                Handler::default(),
            ));
        }
    }

    /// A handler argument: a lambda (its parameters and the request values
    /// its body reads) or a method group.
    fn handler(&self, r: std::ops::Range<usize>) -> Handler {
        let t = self.t;
        let mut k = r.start;
        while k < r.end && (t[k].is_ident("async") || t[k].is_ident("static")) {
            k += 1;
        }
        while self.is(k, '[') {
            k = close_of(t, k).map_or(r.end, |c| c + 1);
        }
        let arrow = |i: usize| self.is(i, '=') && self.is(i + 1, '>');
        if self.is(k, '(') {
            let close = close_of(t, k).unwrap_or(r.end);
            if arrow(close + 1) {
                let params = params_in(self.file, t, k + 1, close);
                let reads = scan_reads(t, close + 3, r.end);
                return Handler {
                    params,
                    reads,
                    method: None,
                };
            }
        }
        if t.get(k).is_some_and(|x| x.kind == Kind::Ident) && arrow(k + 1) {
            return Handler {
                params: Vec::new(),
                reads: scan_reads(t, k + 3, r.end),
                method: None,
            };
        }
        let mut name = String::new();
        let mut j = k;
        while j < r.end && (t[j].kind == Kind::Ident || t[j].is('.')) {
            name.push_str(&t[j].text);
            j += 1;
        }
        if j == r.end && !name.is_empty() {
            // A local function of the top-level statements: its own
            // parameters and reads (a class method of that name, if any,
            // still wins in the link step).
            if let Some(&(open, close, a, b)) = self.locals.get(&name) {
                return Handler {
                    params: params_in(self.file, t, open + 1, close),
                    reads: scan_reads(t, a, b),
                    method: Some(name),
                };
            }
            return Handler {
                method: Some(name),
                ..Handler::default()
            };
        }
        Handler::default()
    }
}

/// Functions declared outside any type's methods (C# top-level statements'
/// local functions): `[static] [async] Type Name(…) { … }` or `=> expr;`.
/// Replace the `{name}` holes of an interpolated string's raw value whose
/// name `value` knows by that value (braces in it doubled); other holes
/// and `{{`/`}}` stay as written.
fn fill_holes(raw: &str, value: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        if after.starts_with("{{") || after.starts_with("}}") || after.starts_with('}') {
            let n = if after.starts_with("{{") || after.starts_with("}}") {
                2
            } else {
                1
            };
            out.push_str(&after[..n]);
            rest = &after[n..];
            continue;
        }
        let Some(close) = after.find('}') else {
            out.push_str(after);
            return out;
        };
        let hole = &after[..=close];
        let name = hole[1..hole.len() - 1].trim();
        let ident = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        match value(name).filter(|_| ident) {
            Some(v) => out.push_str(&v.replace('{', "{{").replace('}', "}}")),
            None => out.push_str(hole),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

fn local_functions(
    t: &[Token],
    outline: &CsFile,
) -> std::collections::HashMap<String, (usize, usize, usize, usize)> {
    let mut out = std::collections::HashMap::new();
    let known: std::collections::HashSet<&str> = outline
        .types
        .iter()
        .flat_map(|ty| ty.methods.iter().map(|m| m.name.as_str()))
        .collect();
    for i in 1..t.len() {
        if t[i].kind != Kind::Ident
            || !t[i].text.starts_with(|c: char| c.is_ascii_uppercase())
            || !t.get(i + 1).is_some_and(|x| x.is('('))
        {
            continue;
        }
        let prev = &t[i - 1];
        let typed = (prev.kind == Kind::Ident
            && !matches!(
                prev.text.as_str(),
                "new" | "return" | "await" | "throw" | "nameof" | "typeof" | "else" | "in" | "is"
            ))
            || prev.is('>')
            || prev.is('?')
            || prev.is(']');
        if !typed {
            continue;
        }
        let Some(close) = close_of(t, i + 1) else {
            continue;
        };
        let body = match t.get(close + 1) {
            Some(x) if x.is('{') => close_of(t, close + 1).map(|e| (close + 2, e)),
            Some(x) if x.is('=') && t.get(close + 2).is_some_and(|y| y.is('>')) => {
                let end = (close + 3..t.len())
                    .find(|&k| t[k].is(';'))
                    .unwrap_or(t.len());
                Some((close + 3, end))
            }
            _ => None,
        };
        let Some((a, b)) = body else { continue };
        if !known.contains(t[i].text.as_str()) {
            out.entry(t[i].text.clone()).or_insert((i + 1, close, a, b));
        }
    }
    out
}

/// `new { controller = "Home", action = "Index" }` → pairs.
fn anonymous_object(toks: &[Token]) -> Vec<(String, String)> {
    let Some(open) = toks.iter().position(|x| x.is('{')) else {
        return Vec::new();
    };
    let close = close_of(toks, open).unwrap_or(toks.len());
    split_commas(toks, open + 1, close)
        .into_iter()
        .filter_map(|r| {
            let k = toks.get(r.start)?;
            if !toks.get(r.start + 1)?.is('=') {
                return None;
            }
            let v = toks.get(r.start + 2)?;
            if v.kind == Kind::Str {
                return Some((k.text.clone(), v.text.clone()));
            }
            // `id = UrlParameter.Optional` (classic MVC / Web API): an
            // optional segment without a value.
            let optional = matches!(v.text.as_str(), "UrlParameter" | "RouteParameter")
                && toks
                    .get(r.start + 4)
                    .is_some_and(|x| x.is_ident("Optional"));
            optional.then(|| (k.text.clone(), String::new()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::outline::parse;

    fn run(src: &str) -> (Vec<Route>, Vec<Call>) {
        let file = SourceFile::new("Program.cs", src);
        let (outline, toks) = parse(&file);
        scan(&file, &outline, &toks)
    }

    #[test]
    fn groups_variables_and_calls() {
        let src = r#"var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();
var api = app.MapGroup("/api").RequireAuthorization();
var v1 = api.MapGroup("v1");
v1.MapGet("/items/{id}", async (int id, [FromHeader(Name = "X-Trace")] string trace, ItemDb db) => await db.Items.FindAsync(id));
// app.MapGet("/old", () => 1);
app.MapGroup("/todos").MapTodosApi();
TodoEndpoints.Map(v1);
app.MapHub<ChatHub>("/hubs/chat");
app.MapControllerRoute(name: "default", pattern: "{controller=Home}/{action=Index}/{id?}");
app.Run();

public static class TodoEndpoints
{
    public static RouteGroupBuilder MapTodosApi(this RouteGroupBuilder group)
    {
        group.MapPost("/", Create);
        return group;
    }
}
"#;
        let (routes, calls) = run(src);
        let got: Vec<_> = routes
            .iter()
            .map(|r| {
                (
                    r.line,
                    r.at.groups.len(),
                    r.at.root.clone(),
                    format!("{:?}", r.verb),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (5, 2, Root::Top, "Methods([\"GET\"])".to_string()),
                (9, 0, Root::Top, "Hub(\"ChatHub\")".to_string()),
                (
                    10,
                    0,
                    Root::Top,
                    "Conventional { defaults: [], http: false }".to_string()
                ),
                (17, 0, Root::Param(0), "Methods([\"POST\"])".to_string()),
            ]
        );
        assert_eq!(routes[0].handler.params.len(), 3);
        assert_eq!(routes[3].handler.method.as_deref(), Some("Create"));
        let got: Vec<_> = calls
            .iter()
            .map(|c| {
                (
                    c.callee.as_str(),
                    c.receiver.as_ref().map(|r| r.groups.len()),
                    c.args.len(),
                )
            })
            .collect();
        assert_eq!(got, [("MapTodosApi", Some(1), 0), ("Map", None, 1)]);
        assert_eq!(calls[1].args[0].as_ref().map(|b| b.groups.len()), Some(2));
    }
}
