//! Routers of one file, interpreted in the map step (a router's scopes
//! never span files), and the link step shared by Phoenix and Plug:
//! `forward`s into routers of other files, and the parameters of the
//! controller actions routes point at.
//!
//! Phoenix (`use Phoenix.Router` or `use MyAppWeb, :router`):
//! - `scope "/path", Alias, opts do … end` (also `scope path: "/x",
//!   alias: A`), nested; `pipe_through` of a pipeline that
//!   `plug :accepts, ["json"]` makes body params JSON, else form;
//!   other blocks (`live_session :x do … end`, `if … do`) are transparent.
//! - `get/post/put/patch/delete/options/head "/x", Controller, :action`,
//!   `match :verb, …` (`match :*` = GET, POST, PUT, PATCH, DELETE).
//! - `resources "/users", UserController` with `only:`/`except:`
//!   (lists or `~w()a`), `param: "slug"`, `singleton: true`, and nested
//!   resources under `/users/:user_id` (the controller's resource name).
//!   `update` is reported as PATCH and PUT.
//! - `live "/x", XLive, :action` → GET.
//! - `forward "/admin", Admin.Router`: the target router's routes,
//!   prefixed. A forward to Absinthe's GraphQL plugs (`forward "/graphql",
//!   Absinthe.Plug, schema: S`, also `Absinthe.Plug.GraphiQL` and Plug's
//!   `forward "/gql", to: Absinthe.Plug`) is GET and POST at its path with
//!   `query`, `variables`, `operationName`; forwards to other modules the
//!   project does not define are not reported.
//!
//! Plug (`use Plug.Router`): `get "/x" do … end` (params read in the
//! block), `get "/x", to: Plug`, `match "/x", via: [:get, :post] do`,
//! `forward "/api", to: Api.Router`. `match _` catch-alls are skipped. A
//! block calling `WebSockAdapter.upgrade` is a WebSocket endpoint (GET, ws).
//!
//! Paths may be or interpolate string module attributes defined above
//! them in the file (`@api "/api"` … `forward "#{@api}/users", to: …`,
//! `get @health do`); other interpolations stay as written.
//!
//! Servers plug in through [`Server`] hooks listed in [`crate::SERVERS`]:
//! the Plug routers a server serves (Bandit's `{Bandit, plug: X}`) are that
//! server technology's (it links them with [`link_roots`]); `elixir_plug`
//! reports the others, so a tree with both technologies reports each route
//! once.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ex::openapi;
use crate::ex::reads::{self, Read, Source};
use crate::ex::tokens::{inline_attributes, tokenize, Kind, Token};
use crate::ex::tree::{self, split_args, Node};
use crate::ex::{modules, resource_name, uses};

pub const ANY_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const VERBS: [&str; 9] = [
    "get", "post", "put", "patch", "delete", "options", "head", "connect", "trace",
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub method: String,
    pub url: String,
    pub line: u32,
    /// Full controller module and action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<(String, String)>,
    /// Body params are JSON (an `:accepts ["json"]` pipeline).
    #[serde(default)]
    pub json: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
    /// The block upgrades to a WebSocket (`WebSockAdapter.upgrade`).
    #[serde(default)]
    pub ws: bool,
    /// The authentication plug guarding the route (through `pipe_through`
    /// or a `live_session`'s `on_mount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    pub kind: String,
    pub name: String,
    pub line: u32,
}

/// The guard kind of a plug, `on_mount` hook or pipeline step named
/// `name` (`:require_authenticated_user`, `MyAppWeb.Plugs.RequireAuth`,
/// `Guardian.Plug.EnsureAuthenticated`, `:ensure_admin`): `authz_guard`
/// for roles and admins, `auth_guard` otherwise. Plugs that only load or
/// verify a user (`:fetch_current_user`, `Guardian.Plug.VerifyHeader`,
/// `LoadResource`) guard nothing.
pub fn auth_kind(name: &str) -> Option<&'static str> {
    let last = name.rsplit('.').next().unwrap_or(name);
    let l = last.trim_start_matches(':').to_ascii_lowercase();
    if l.starts_with("fetch") || l.contains("verify") || l.contains("load") || l.starts_with("put_")
    {
        return None;
    }
    let guarded = l.contains("require")
        || l.contains("ensure")
        || l.contains("authenticat")
        || l.contains("auth")
        || l.contains("login_required")
        || l.contains("admin_only");
    if !guarded {
        return None;
    }
    if l.contains("admin")
        || l.contains("role")
        || l.contains("permission")
        || l.contains("authoriz")
    {
        Some("authz_guard")
    } else {
        Some("auth_guard")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forward {
    pub url: String,
    pub target: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Router {
    pub module: String,
    pub path: String,
    pub plug: bool,
    pub routes: Vec<Route>,
    pub forwards: Vec<Forward>,
    /// A Plug router parsing JSON bodies (`plug Plug.Parsers, parsers:
    /// [:json]`): routers it forwards to see JSON bodies too.
    #[serde(default)]
    pub json: bool,
}

/// A controller function: its clauses' head patterns and body reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    pub module: String,
    pub name: String,
    pub reads: Vec<Read>,
    /// Functions of other modules it hands `params` to
    /// (`Blog.list_articles(params)` → `("Blog", "list_articles")`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<(String, String)>,
}

/// A public function of a non-controller module taking `params`, and the
/// keys its body reads from it (`params["tag"]`): a context function
/// an action delegates to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Helper {
    pub module: String,
    pub name: String,
    pub reads: Vec<Read>,
}

/// `Alias.fun(…, params, …)` calls in `t[r]`: (alias, function).
fn params_calls(t: &[Token], r: std::ops::Range<usize>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let end = r.end.min(t.len());
    let mut k = r.start;
    while k + 3 < end {
        if t[k].kind == Kind::Alias
            && t[k + 1].is(".")
            && t[k + 2].kind == Kind::Ident
            && t[k + 3].is("(")
        {
            let mut depth = 0i32;
            let mut j = k + 3;
            let mut passes = false;
            while j < end {
                let x = &t[j];
                if x.is("(") || x.is("[") || x.is("{") {
                    depth += 1;
                } else if x.is(")") || x.is("]") || x.is("}") {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                } else if depth == 1
                    && x.is_ident("params")
                    && (t[j - 1].is("(") || t[j - 1].is(","))
                    && t.get(j + 1).is_some_and(|y| y.is(",") || y.is(")"))
                {
                    passes = true;
                }
                j += 1;
            }
            if passes {
                let c = (t[k].text.clone(), t[k + 2].text.clone());
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            k += 4;
            continue;
        }
        k += 1;
    }
    out
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Router(Router),
    Action(Action),
    Helper(Helper),
    /// A plug served by a [`Server`] (`{Bandit, plug: MyApp.Router}`).
    Served(String),
    /// A bare `Plug` module dispatching in `call/2` clause heads.
    Bare(Router),
    /// An `open_api_spex` `operation(:action, …)` of a controller.
    Operation(Operation),
    /// An `open_api_spex` schema module's top-level properties.
    Schema {
        module: String,
        props: Vec<String>,
    },
}

/// A controller action's `open_api_spex` operation: declared parameters
/// and the request body schema (alias as written, JSON or form).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operation {
    pub module: String,
    pub action: String,
    pub reads: Vec<Read>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<(String, Source)>,
}

/// A server that serves Plug modules, plugged into the shared map step.
pub struct Server {
    /// The modules the file's server child specs serve.
    pub served: fn(&[Token]) -> Vec<String>,
    /// A module dispatching by itself (a bare `Plug`), read as a router.
    pub bare: fn(&SourceFile, &[Token], &str, &Node) -> Option<Router>,
}

pub fn analyze(file: &SourceFile, out: &mut Output) {
    if is_test_path(&file.path) {
        return;
    }
    let mut t = tokenize(&file.content);
    if file.content.contains('@') {
        inline_attributes(&mut t);
    }
    let tree = tree::parse(&t);
    let mut mods = Vec::new();
    modules(&t, &tree, "", &mut mods);
    for server in crate::SERVERS {
        for served in (server.served)(&t) {
            out.fact(&Fact::Served(served));
        }
    }
    for (name, node) in mods {
        if let Some(r) = crate::SERVERS
            .iter()
            .find_map(|server| (server.bare)(file, &t, &name, node))
        {
            out.fact(&Fact::Bare(r));
            continue;
        }
        let used = uses(&t, node);
        let phoenix = used.iter().any(|u| u == "Phoenix.Router" || u == "router");
        let plug = used.iter().any(|u| u == "Plug.Router");
        if phoenix || plug {
            let mut r = Router {
                module: name.clone(),
                path: file.path.clone(),
                plug: plug && !phoenix,
                routes: Vec::new(),
                forwards: Vec::new(),
                json: false,
            };
            let mut i = Interp {
                file,
                t: &t,
                pipelines: json_pipelines(&t, &node.children),
                auth: Vec::new(),
            };
            i.auth = i.auth_pipelines(&node.children);
            // A Plug router parsing JSON bodies (`plug Plug.Parsers,
            // parsers: [:json]`).
            let json = node.children.iter().any(|c| {
                c.name == "plug"
                    && t.get(c.args.start)
                        .is_some_and(|x| x.text == "Plug.Parsers")
                    && t[c.args.clone()]
                        .iter()
                        .any(|x| x.kind == Kind::Atom && x.text == "json")
            });
            r.json = json && r.plug;
            let scope = Scope {
                json,
                ..Scope::default()
            };
            i.block(&node.children, &scope, &mut r);
            out.fact(&Fact::Router(r));
            continue;
        }
        let openapi = file.content.contains("OpenApiSpex");
        let body = node.body.clone().unwrap_or(0..0);
        let schema_call = || {
            t.get(body.clone()).is_some_and(|b| {
                b.windows(2)
                    .any(|w| w[0].text.ends_with("schema") && w[1].is("("))
            })
        };
        if openapi && schema_call() {
            if let Some(props) = openapi::schema_properties(&t, body.clone()) {
                out.fact(&Fact::Schema {
                    module: name.clone(),
                    props,
                });
            }
        }
        if name.ends_with("Controller") || used.iter().any(|u| u == "controller") {
            for f in &node.children {
                if f.name == "operation" && openapi {
                    if let Some(op) = openapi::operation(&t, f.args.clone()) {
                        out.fact(&Fact::Operation(Operation {
                            module: name.clone(),
                            action: op.action,
                            reads: op.params,
                            body: op.body,
                        }));
                    }
                    continue;
                }
                if f.name != "def" {
                    continue;
                }
                let Some(fname) = t.get(f.args.start).filter(|x| x.kind == Kind::Ident) else {
                    continue;
                };
                let mut rs = reads::scan(&t, f.args.clone(), true);
                if let Some(b) = &f.body {
                    rs.extend(reads::scan(&t, b.clone(), false));
                } else {
                    // `def show(conn, p), do: …` is all arguments.
                }
                let calls = f
                    .body
                    .clone()
                    .map(|b| params_calls(&t, b))
                    .unwrap_or_default();
                out.fact(&Fact::Action(Action {
                    module: name.clone(),
                    name: fname.text.clone(),
                    reads: rs,
                    calls,
                }));
            }
        } else if file.content.contains("params[") {
            for f in &node.children {
                let Some(b) = f.body.clone().filter(|_| f.name == "def") else {
                    continue;
                };
                let Some(fname) = t.get(f.args.start).filter(|x| x.kind == Kind::Ident) else {
                    continue;
                };
                let takes = t
                    .get(f.args.clone())
                    .is_some_and(|a| a.iter().any(|x| x.is_ident("params")));
                if !takes {
                    continue;
                }
                let rs: Vec<Read> = reads::scan(&t, b, false)
                    .into_iter()
                    .filter(|r| r.source == Source::Params)
                    .collect();
                if !rs.is_empty() {
                    out.fact(&Fact::Helper(Helper {
                        module: name.clone(),
                        name: fname.text.clone(),
                        reads: rs,
                    }));
                }
            }
        }
    }
}

/// Pipelines that accept JSON.
fn json_pipelines(t: &[Token], nodes: &[Node]) -> Vec<String> {
    let mut out = Vec::new();
    for n in nodes {
        if n.name == "pipeline" {
            let json = n.children.iter().any(|c| {
                c.name == "plug"
                    && t.get(c.args.start)
                        .is_some_and(|x| x.kind == Kind::Atom && x.text == "accepts")
                    && t[c.args.clone()].iter().any(|x| {
                        matches!(x.kind, Kind::Str | Kind::Words) && x.text.contains("json")
                    })
            });
            if let Some(name) = t.get(n.args.start).filter(|x| x.kind == Kind::Atom) {
                if json {
                    out.push(name.text.clone());
                }
            }
        } else if !n.children.is_empty() {
            out.extend(json_pipelines(t, &n.children));
        }
    }
    out
}

#[derive(Clone, Default)]
struct Scope {
    path: Vec<String>,
    alias: Vec<String>,
    json: bool,
    guard: Option<Guard>,
    /// Variables bound to a string by an enclosing `for v <- ["/a", "/b"]`.
    vars: Vec<(String, String)>,
}

struct Interp<'a> {
    file: &'a SourceFile,
    t: &'a [Token],
    pipelines: Vec<String>,
    /// Pipelines with an authentication plug, and that plug.
    auth: Vec<(String, Guard)>,
}

/// One argument: the string, alias, atom, atom list, or keyword.
struct Args<'a> {
    strs: Vec<&'a str>,
    aliases: Vec<&'a str>,
    atoms: Vec<&'a str>,
    /// keyword → token range of the value
    kw: Vec<(&'a str, std::ops::Range<usize>)>,
}

impl<'a> Interp<'a> {
    fn line(&self, tok: usize) -> u32 {
        self.file.line_of(self.t.get(tok).map_or(0, |x| x.start))
    }

    fn args(&self, n: &Node) -> Args<'a> {
        let t: &'a [Token] = self.t;
        let mut a = Args {
            strs: Vec::new(),
            aliases: Vec::new(),
            atoms: Vec::new(),
            kw: Vec::new(),
        };
        let pieces = split_args(t, n.args.clone());
        for (pi, r) in pieces.iter().enumerate() {
            let first = &t[r.start];
            if first.kind == Kind::Key {
                // `only: [...], as: :x` may share one piece with the
                // following keywords: split again at keys.
                let mut k = r.start;
                while k < r.end {
                    let key = &t[k];
                    let mut e = k + 1;
                    let mut depth = 0i32;
                    while e < r.end {
                        let x = &t[e];
                        if x.is("[") || x.is("(") || x.is("{") {
                            depth += 1;
                        } else if x.is("]") || x.is(")") || x.is("}") {
                            depth -= 1;
                        } else if x.kind == Kind::Key && depth == 0 && t[e - 1].is(",") {
                            break;
                        }
                        e += 1;
                    }
                    a.kw.push((key.text.as_str(), k + 1..e));
                    k = e;
                }
                // Following pieces are keywords too (split by commas).
                for r2 in pieces.iter().skip(pi + 1) {
                    if t[r2.start].kind == Kind::Key {
                        a.kw.push((t[r2.start].text.as_str(), r2.start + 1..r2.end));
                    }
                }
                break;
            }
            if r.end - r.start == 1 {
                match first.kind {
                    Kind::Str => a.strs.push(&first.text),
                    Kind::Alias => a.aliases.push(&first.text),
                    Kind::Atom => a.atoms.push(&first.text),
                    _ => {}
                }
            } else if first.is("[") {
                // [:get, :post]
                for x in &t[r.clone()] {
                    if x.kind == Kind::Atom {
                        a.atoms.push(&x.text);
                    }
                }
            }
        }
        a
    }

    fn kw_atoms(&self, r: &std::ops::Range<usize>) -> Vec<String> {
        let mut out = Vec::new();
        for x in &self.t[r.clone()] {
            match x.kind {
                Kind::Atom | Kind::Str => out.push(x.text.clone()),
                Kind::Words => out.extend(x.text.split_whitespace().map(str::to_string)),
                _ => {}
            }
        }
        out
    }

    /// The string a variable at token `k` is bound to by an enclosing
    /// `for` (innermost first).
    fn bound(&self, scope: &Scope, k: usize) -> Option<String> {
        let name = self.t.get(k).filter(|x| x.kind == Kind::Ident)?;
        scope
            .vars
            .iter()
            .rev()
            .find(|(v, _)| *v == name.text)
            .map(|(_, s)| s.clone())
    }

    /// `for var <- ["a", "b"]` (string literals only): the variable and
    /// the values.
    fn for_strings(&self, n: &Node) -> Option<(&'a str, Vec<String>)> {
        let t: &'a [Token] = self.t;
        let a = n.args.clone();
        let var = t.get(a.start).filter(|x| x.kind == Kind::Ident)?;
        if !t.get(a.start + 1)?.is("<-") || !t.get(a.start + 2)?.is("[") {
            return None;
        }
        let mut values = Vec::new();
        let mut k = a.start + 3;
        while k < a.end {
            let x = &t[k];
            match x.kind {
                Kind::Str => values.push(x.text.clone()),
                Kind::Punct if x.is(",") => {}
                Kind::Punct if x.is("]") && k + 1 == a.end => {
                    return (!values.is_empty()).then_some((var.text.as_str(), values));
                }
                _ => return None,
            }
            k += 1;
        }
        None
    }

    fn kw_str(&self, r: &std::ops::Range<usize>) -> Option<String> {
        self.t
            .get(r.start)
            .filter(|x| x.kind == Kind::Str)
            .map(|x| x.text.clone())
    }

    fn kw_alias(&self, r: &std::ops::Range<usize>) -> Option<String> {
        self.t
            .get(r.start)
            .filter(|x| x.kind == Kind::Alias)
            .map(|x| x.text.clone())
    }

    fn url(&self, s: &Scope, p: &str) -> String {
        let mut parts = s.path.clone();
        parts.push(p.to_string());
        join_path(&parts)
    }

    /// Pipelines (anywhere in the router) with an authentication plug
    /// (see [`auth_kind`]).
    fn auth_pipelines(&self, nodes: &[Node]) -> Vec<(String, Guard)> {
        let mut out: Vec<(String, Guard)> = Vec::new();
        let mut stack: Vec<&Node> = nodes.iter().collect();
        while let Some(n) = stack.pop() {
            if n.name != "pipeline" {
                stack.extend(n.children.iter());
                continue;
            }
            let Some(name) = self.t.get(n.args.start).filter(|x| x.kind == Kind::Atom) else {
                continue;
            };
            let guard = n
                .children
                .iter()
                .filter(|c| c.name == "plug")
                .find_map(|c| {
                    let first = self.t.get(c.args.start)?;
                    let kind = auth_kind(&first.text)?;
                    let shown = if first.kind == Kind::Atom {
                        format!("plug :{}", first.text)
                    } else {
                        format!("plug {}", first.text)
                    };
                    Some(Guard {
                        kind: kind.to_string(),
                        name: shown,
                        line: self.line(c.head),
                    })
                });
            if let Some(g) = guard {
                out.push((name.text.clone(), g));
            }
        }
        out
    }

    fn module(&self, s: &Scope, alias: &str) -> String {
        let mut parts = s.alias.clone();
        parts.push(alias.to_string());
        parts.join(".")
    }

    fn block(&mut self, nodes: &[Node], scope: &Scope, r: &mut Router) {
        let mut scope = scope.clone();
        for n in nodes {
            let line = self.line(n.head);
            match n.name.as_str() {
                "pipeline" | "def" | "defp" | "defmacro" | "plug" | "socket" => {}
                "pipe_through" => {
                    let piped: Vec<&str> = self.t[n.args.clone()]
                        .iter()
                        .filter(|x| x.kind == Kind::Atom)
                        .map(|x| x.text.as_str())
                        .collect();
                    if piped.iter().any(|p| self.pipelines.iter().any(|j| j == p)) {
                        scope.json = true;
                    }
                    for p in &piped {
                        if let Some((_, g)) = self.auth.iter().find(|(name, _)| name == p) {
                            scope.guard = Some(g.clone());
                        } else if let Some(kind) = auth_kind(p) {
                            // A function plug piped directly.
                            scope.guard = Some(Guard {
                                kind: kind.to_string(),
                                name: format!("pipe_through :{p}"),
                                line,
                            });
                        }
                    }
                }
                "scope" => {
                    let a = self.args(n);
                    let mut inner = scope.clone();
                    let path = a
                        .strs
                        .first()
                        .map(|s| s.to_string())
                        .or_else(|| {
                            a.kw.iter()
                                .find(|(k, _)| *k == "path")
                                .and_then(|(_, v)| self.kw_str(v))
                        })
                        .or_else(|| self.bound(&scope, n.args.start));
                    if let Some(p) = path {
                        inner.path.push(p);
                    }
                    let alias = a.aliases.first().map(|s| s.to_string()).or_else(|| {
                        a.kw.iter()
                            .find(|(k, _)| *k == "alias")
                            .and_then(|(_, v)| self.kw_alias(v))
                    });
                    if let Some(al) = alias {
                        inner.alias.push(al);
                    }
                    self.block(&n.children, &inner, r);
                }
                "for" => match self.for_strings(n) {
                    // `for prefix <- ["/", "/repos/:repository"] do scope
                    // prefix do … end end`: the block once per value.
                    Some((var, values)) => {
                        for v in values {
                            let mut inner = scope.clone();
                            inner.vars.push((var.to_string(), v));
                            self.block(&n.children, &inner, r);
                        }
                    }
                    None => self.block(&n.children, &scope, r),
                },
                "resources" => self.resources(n, &scope, r),
                "live" => {
                    let a = self.args(n);
                    if let Some(p) = a.strs.first() {
                        r.routes.push(Route {
                            method: "GET".into(),
                            url: self.url(&scope, p),
                            line,
                            action: None,
                            json: false,
                            reads: Vec::new(),
                            ws: false,
                            guard: scope.guard.clone(),
                        });
                    }
                }
                "forward" => {
                    let a = self.args(n);
                    let target = a.aliases.first().map(|s| s.to_string()).or_else(|| {
                        a.kw.iter()
                            .find(|(k, _)| *k == "to")
                            .and_then(|(_, v)| self.kw_alias(v))
                    });
                    if let (Some(p), Some(target)) = (a.strs.first(), target) {
                        // Phoenix scopes alias the target; Plug does not.
                        let full = if r.plug {
                            target
                        } else {
                            self.module(&scope, &target)
                        };
                        r.forwards.push(Forward {
                            url: self.url(&scope, p),
                            target: full,
                            line,
                        });
                    }
                }
                "match" => {
                    let a = self.args(n);
                    let Some(p) = a.strs.first() else { continue };
                    let via: Vec<String> = a
                        .kw
                        .iter()
                        .find(|(k, _)| *k == "via")
                        .map(|(_, v)| self.kw_atoms(v))
                        .unwrap_or_else(|| a.atoms.iter().take(1).map(|s| s.to_string()).collect());
                    let methods: Vec<String> = if via.is_empty() || via.iter().any(|v| v == "*") {
                        ANY_METHODS.iter().map(|s| s.to_string()).collect()
                    } else {
                        via.iter().map(|v| v.to_ascii_uppercase()).collect()
                    };
                    for m in methods {
                        self.verb(n, &m, p, &a, &scope, r);
                    }
                }
                v if VERBS.contains(&v) => {
                    let a = self.args(n);
                    if let Some(p) = a.strs.first() {
                        self.verb(n, &v.to_ascii_uppercase(), p, &a, &scope, r);
                    }
                }
                "live_session" => {
                    // `on_mount: [{MyAppWeb.UserAuth, :ensure_authenticated}]`
                    let mut inner = scope.clone();
                    if let Some((kind, name)) = self.t[n.args.clone()]
                        .iter()
                        .filter(|x| x.kind == Kind::Atom)
                        .find_map(|x| auth_kind(&x.text).map(|k| (k, x.text.clone())))
                    {
                        inner.guard = Some(Guard {
                            kind: kind.to_string(),
                            name: format!("on_mount :{name}"),
                            line,
                        });
                    }
                    self.block(&n.children, &inner, r);
                }
                _ => {
                    if !n.children.is_empty() {
                        self.block(&n.children, &scope, r);
                    }
                }
            }
        }
    }

    fn verb(&self, n: &Node, method: &str, p: &str, a: &Args, scope: &Scope, r: &mut Router) {
        // Phoenix: `get "/x", Ctrl, :action` (a `match` has the verb atom first).
        let action = match (a.aliases.first(), a.atoms.last()) {
            (Some(c), Some(act)) if !r.plug => Some((self.module(scope, c), act.to_string())),
            _ => None,
        };
        let reads = n
            .body
            .clone()
            .map(|b| reads::scan(self.t, b, false))
            .unwrap_or_default();
        r.routes.push(Route {
            method: method.to_string(),
            url: self.url(scope, p),
            line: self.line(n.head),
            action,
            json: scope.json,
            ws: n.body.clone().is_some_and(|b| upgrades(self.t, b)),
            reads,
            guard: scope.guard.clone(),
        });
    }

    fn resources(&mut self, n: &Node, scope: &Scope, r: &mut Router) {
        let a = self.args(n);
        let (Some(p), Some(ctrl)) = (a.strs.first(), a.aliases.first()) else {
            return;
        };
        let line = self.line(n.head);
        let kw = |k: &str| a.kw.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        let only = kw("only").map(|v| self.kw_atoms(&v));
        let except = kw("except").map(|v| self.kw_atoms(&v)).unwrap_or_default();
        let param = kw("param")
            .and_then(|v| self.kw_str(&v))
            .unwrap_or_else(|| "id".into());
        let singleton = kw("singleton")
            .is_some_and(|v| self.t.get(v.start).is_some_and(|x| x.is_ident("true")));
        let name = kw("name")
            .and_then(|v| self.kw_str(&v))
            .unwrap_or_else(|| resource_name(ctrl));
        let module = self.module(scope, ctrl);
        let base = self.url(scope, p);
        let member = if singleton {
            base.clone()
        } else {
            join_path(&[base.as_str(), &format!(":{param}")])
        };
        let mut actions: Vec<(&str, &str, String)> = Vec::new();
        if !singleton {
            actions.push(("index", "GET", base.clone()));
        }
        actions.push(("new", "GET", join_path(&[base.as_str(), "new"])));
        actions.push(("create", "POST", base.clone()));
        actions.push(("show", "GET", member.clone()));
        actions.push(("edit", "GET", join_path(&[member.as_str(), "edit"])));
        actions.push(("update", "PATCH", member.clone()));
        actions.push(("update", "PUT", member.clone()));
        actions.push(("delete", "DELETE", member.clone()));
        for (act, method, url) in actions {
            if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == act))
                || except.iter().any(|x| x == act)
            {
                continue;
            }
            r.routes.push(Route {
                method: method.to_string(),
                url,
                line,
                action: Some((module.clone(), act.to_string())),
                json: scope.json,
                reads: Vec::new(),
                ws: false,
                guard: scope.guard.clone(),
            });
        }
        if !n.children.is_empty() {
            let mut inner = scope.clone();
            let nested = if singleton {
                String::new()
            } else {
                format!(":{name}_{param}")
            };
            inner.path.push(p.to_string());
            inner.path.push(nested);
            self.block(&n.children, &inner, r);
        }
    }
}

/// Link: routes of the root routers (those no `forward` targets) of the
/// wanted kind, forwarded routers expanded under their prefix.
pub fn link(facts: &Facts, plug: bool) -> Vec<Endpoint> {
    link_roots(facts, &|r, served| r.plug == plug && !(plug && served))
}

/// Link the bare Plug modules' dispatch clauses (see [`Server::bare`]).
pub fn link_bare(facts: &Facts, out: &mut Vec<Endpoint>) {
    for f in facts.iter::<Fact>() {
        if let Fact::Bare(r) = f {
            expand(&r, "", &[], &[], 0, false, out);
        }
    }
}

/// Routes of the root routers (not `forward` targets) that `keep(router,
/// served by a server)` accepts, forwarded routers expanded.
pub fn link_roots(facts: &Facts, keep: &dyn Fn(&Router, bool) -> bool) -> Vec<Endpoint> {
    let mut routers = Vec::new();
    let mut actions = Vec::new();
    let mut served = Vec::new();
    let mut ops: Vec<Operation> = Vec::new();
    let mut helpers: Vec<Helper> = Vec::new();
    let mut schemas: Vec<(String, Vec<String>)> = Vec::new();
    for f in facts.iter::<Fact>() {
        match f {
            Fact::Router(r) => routers.push(r),
            Fact::Action(a) => actions.push(a),
            Fact::Helper(h) => helpers.push(h),
            Fact::Served(m) => served.push(m),
            Fact::Bare(_) => {}
            Fact::Operation(o) => ops.push(o),
            Fact::Schema { module, props } => schemas.push((module, props)),
        }
    }
    // What the context functions an action hands `params` to read
    // (`Blog.list_articles(params)` reading `params["tag"]`).
    if !helpers.is_empty() {
        for a in &mut actions {
            for (alias, fun) in &a.calls {
                let last = alias.rsplit('.').next().unwrap_or(alias);
                for h in &helpers {
                    if &h.name == fun
                        && (&h.module == alias || h.module.rsplit('.').next() == Some(last))
                    {
                        for r in &h.reads {
                            if !a.reads.contains(r) {
                                a.reads.push(r.clone());
                            }
                        }
                    }
                }
            }
        }
    }
    // An operation's declared parameters and body fields count as reads
    // of its action.
    for o in ops {
        let mut reads = o.reads;
        if let Some((alias, source)) = &o.body {
            let suffix = format!(".{alias}");
            let found = schemas
                .iter()
                .find(|(m, _)| m == alias || m.ends_with(&suffix));
            for p in found.map(|(_, p)| p.as_slice()).unwrap_or(&[]) {
                reads.push(Read {
                    source: *source,
                    name: p.clone(),
                });
            }
        }
        actions.push(Action {
            module: o.module,
            name: o.action,
            reads,
            calls: Vec::new(),
        });
    }
    let targets: Vec<&str> = routers
        .iter()
        .flat_map(|r| r.forwards.iter().map(|f| f.target.as_str()))
        .collect();
    let mut out = Vec::new();
    for r in &routers {
        let is_served = served.iter().any(|m| m == &r.module);
        if !keep(r, is_served) || targets.contains(&r.module.as_str()) {
            continue;
        }
        expand(r, "", &routers, &actions, 0, false, &mut out);
    }
    out
}

/// Does `t[r]` call `WebSockAdapter.upgrade`?
pub fn upgrades(t: &[Token], r: std::ops::Range<usize>) -> bool {
    let toks = &t[r.start.min(t.len())..r.end.min(t.len())];
    toks.iter().any(|x| x.text.starts_with("WebSockAdapter"))
        && toks
            .iter()
            .any(|x| x.is_ident("upgrade") || x.text.ends_with(".upgrade"))
}

fn expand(
    r: &Router,
    prefix: &str,
    routers: &[Router],
    actions: &[Action],
    depth: usize,
    parent_json: bool,
    out: &mut Vec<Endpoint>,
) {
    // A forwarded router sees the bodies its parent already parsed.
    let router_json = parent_json || r.json;
    for route in &r.routes {
        let url = join_path(&[prefix, route.url.as_str()]);
        let e = if route.ws {
            Endpoint::websocket(url.clone())
        } else {
            Endpoint::new(&route.method, url.clone())
        };
        let mut e = e.at_path(r.path.clone(), route.line);
        if let Some(g) = &route.guard {
            e.push_guard(&g.kind, &g.name, "pipeline", &r.path, g.line);
        }
        let placeholders: Vec<&str> = url
            .split('/')
            .filter_map(|s| s.strip_prefix(':').or_else(|| s.strip_prefix('*')))
            .collect();
        let mut rs = route.reads.clone();
        if let Some((m, a)) = &route.action {
            let last = m.rsplit('.').next().unwrap_or(m);
            let found = actions.iter().filter(|x| &x.name == a && &x.module == m);
            let found: Vec<&Action> = if found.clone().count() > 0 {
                found.collect()
            } else {
                actions
                    .iter()
                    .filter(|x| &x.name == a && x.module.rsplit('.').next() == Some(last))
                    .collect()
            };
            for x in found {
                rs.extend(x.reads.iter().cloned());
            }
        }
        let body_kind = if route.json || parent_json {
            ParamKind::Json
        } else {
            ParamKind::Form
        };
        let reads_body = !matches!(route.method.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS");
        for read in rs {
            let kind = match read.source {
                Source::Path => ParamKind::Path,
                Source::Query => ParamKind::Query,
                Source::Body => body_kind,
                Source::Header => ParamKind::Header,
                Source::Cookie => ParamKind::Cookie,
                Source::File => ParamKind::File,
                Source::Json => ParamKind::Json,
                Source::Form => ParamKind::Form,
                Source::Params if placeholders.contains(&read.name.as_str()) => ParamKind::Path,
                Source::Params if reads_body => body_kind,
                Source::Params => ParamKind::Query,
            };
            e.push_param(Param::new(kind, read.name));
        }
        out.push(e);
    }
    if depth > 8 {
        return;
    }
    for f in &r.forwards {
        let url = join_path(&[prefix, f.url.as_str()]);
        let target = routers.iter().find(|x| x.module == f.target).or_else(|| {
            routers
                .iter()
                .find(|x| x.module.rsplit('.').next() == f.target.rsplit('.').next())
        });
        if let Some(t) = target {
            expand(t, &url, routers, actions, depth + 1, router_json, out);
        } else if let Some((_, methods, reads)) = EXTERNAL_PLUGS
            .iter()
            .find(|(name, _, _)| is_module(&f.target, name))
        {
            for m in *methods {
                let mut e = Endpoint::new(m, url.clone()).at_path(r.path.clone(), f.line);
                let kind = if *m == "GET" {
                    ParamKind::Query
                } else {
                    ParamKind::Json
                };
                for name in *reads {
                    e.push_param(Param::new(kind, *name));
                }
                out.push(e);
            }
        }
    }
}

/// Plugs of libraries a router forwards to that serve requests themselves:
/// module, methods, the parameters they read (query for GET, JSON
/// otherwise). Absinthe's GraphQL endpoint and GraphiQL page take the
/// query as `?query=` on GET and as a JSON body on POST.
const EXTERNAL_PLUGS: &[(&str, &[&str], &[&str])] = &[
    (
        "Absinthe.Plug",
        &["GET", "POST"],
        &["query", "variables", "operationName"],
    ),
    (
        "Absinthe.Plug.GraphiQL",
        &["GET", "POST"],
        &["query", "variables", "operationName"],
    ),
];

/// `module` is `name`, or `name` under a scope's alias (`MyWeb.Absinthe.Plug`).
fn is_module(module: &str, name: &str) -> bool {
    module == name
        || module
            .strip_suffix(name)
            .is_some_and(|head| head.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(files: &[(&str, &str)], plug: bool) -> Vec<String> {
        let mut facts = Facts::new(Vec::new());
        for (p, s) in files {
            let mut out = Output::new();
            analyze(&SourceFile::new(*p, *s), &mut out);
            facts.extend(out.into_parts().1);
        }
        link(&facts, plug)
            .iter()
            .map(|e| {
                let ps: Vec<String> = e
                    .params
                    .iter()
                    .map(|p| format!("{:?}:{}", p.kind, p.name))
                    .collect();
                format!("{} {} {}", e.method, e.url, ps.join(","))
            })
            .collect()
    }

    #[test]
    fn nested_resources_singleton_and_forward_chain() {
        let router = "defmodule W.Router do\n  use Phoenix.Router\n  scope \"/a\", W do\n    resources \"/orgs\", OrgController, only: [:show] do\n      resources \"/profile\", ProfileController, singleton: true, only: [:show]\n    end\n  end\n  forward \"/ops\", Ops.Router\nend\n";
        let ops = "defmodule Ops.Router do\n  use Plug.Router\n  forward \"/jobs\", to: Ops.Jobs\nend\ndefmodule Ops.Jobs do\n  use Plug.Router\n  delete \"/:id\" do\n    send_resp(conn, 204, \"\")\n  end\nend\n";
        let ctrl = "defmodule W.OrgController do\n  use W, :controller\n  def show(conn, %{\"id\" => id}), do: json(conn, id)\nend\n";
        let got = run(
            &[
                ("lib/router.ex", router),
                ("lib/ops.ex", ops),
                ("lib/org_controller.ex", ctrl),
            ],
            false,
        );
        assert_eq!(
            got,
            [
                "GET /a/orgs/:id Path:id",
                "GET /a/orgs/:org_id/profile ",
                "DELETE /ops/jobs/:id ",
            ]
        );
        // The Plug routers are forwarded to: not roots of their own.
        assert!(run(&[("lib/router.ex", router), ("lib/ops.ex", ops)], true).is_empty());
    }
}
