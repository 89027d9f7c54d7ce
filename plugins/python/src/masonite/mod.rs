//! Masonite (`python_masonite`).
//!
//! Routes are declared in route lists (`routes/web.py`, `routes/api.py`,
//! any `ROUTES = [...]`): `Route.get/post/put/patch/delete/options(url,
//! 'Controller@method')`, `Route.match(['GET', 'POST'], url, …)`,
//! `Route.any(url, …)` (GET, POST, PUT, PATCH, DELETE), `Route.view(url,
//! template)` (GET), `Route.resource('users', 'UserController')` /
//! `Route.api(…)` (the standard index / create / store / show / edit /
//! update / destroy routes; `api` without `create` / `edit`), and
//! Masonite 2/3's `Get(url, …)`, `Post`, `Put`, `Patch`, `Delete`,
//! `Options`, `Match`. `Route.group([...], prefix=…)` / `RouteGroup([...],
//! prefix=…)` nest (also `Route.group(ADMIN_ROUTES, prefix=…)` with the
//! list in another module). `routes/api.py` is served under `/api`
//! (Masonite 4's kernel), or the prefix the project's kernel gives to the
//! `routes.api.location` group. URL parameters `@id`, `@id:int` and `?id`
//! are reported as `{id}`; paths may use constants.
//!
//! Parameters come from the controller method (`'UserController@show'`,
//! any class of that name in the tree): `request.input('x')` /
//! `request.only('a', 'b')` → query for GET / HEAD / DELETE / OPTIONS,
//! else form (json for routes of `routes/api.py`), `request.header('X')`
//! → header, `request.cookie('x')` → cookie; the request is the argument
//! annotated `Request` (or named `request`), or `self.request`.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use crate::py::call::{call_at, methods_list, whole_dotted, Call};
use crate::py::lines::logical_lines;
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, DefKind};
use crate::py::project::{Binding, Project};
use crate::py::request::find_word_in;
use crate::py::strexpr::StrExpr;

pub struct Masonite;

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MasoniteModule {
    pub info: ModuleInfo,
    #[serde(default)]
    pub api_file: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<MRoute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_refs: Vec<GroupRef>,
    /// Module-level route lists.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<Controller>,
    /// The kernel's prefix for `routes/api.py`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_prefix: Option<StrExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MRoute {
    pub line: u32,
    pub methods: Vec<String>,
    pub url: StrExpr,
    /// Prefixes of the enclosing groups, outermost first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<StrExpr>,
    /// The module-level list the route is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
}

/// `Route.group(NAME, prefix=…)`: the list `NAME` is served under these
/// prefixes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupRef {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<StrExpr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controller {
    pub name: String,
    /// (method, reads): reads are `input` params (kind decided per route
    /// method), headers and cookies.
    pub methods: Vec<(String, Vec<Read>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Read {
    Input(String),
    Header(String),
    Cookie(String),
}

/// Reads through `names` in `body`.
fn reads(code: &Code<'_>, body: Range<usize>, names: &[String]) -> Vec<Read> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut found: Vec<(usize, Read)> = Vec::new();
    for name in names {
        for occ in find_word_in(code, name, body.clone()) {
            if occ > 0 && bytes[occ - 1] == b'.' && !text[..occ].ends_with("self.") {
                continue;
            }
            let p = occ + name.len();
            if bytes.get(p) != Some(&b'.') {
                continue;
            }
            let method: String = text
                .get(p + 1..)
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let open = p + 1 + method.len();
            if bytes.get(open) != Some(&b'(') {
                continue;
            }
            let args: Vec<String> = code
                .args(open)
                .into_iter()
                .filter_map(|r| code.string_at(r.start))
                .filter(|l| !l.interpolated)
                .map(|l| l.value)
                .collect();
            let make: fn(String) -> Read = match method.as_str() {
                "input" | "query" => Read::Input,
                "only" => {
                    for a in args {
                        found.push((occ, Read::Input(a)));
                    }
                    continue;
                }
                "header" => Read::Header,
                "cookie" | "get_cookie" => Read::Cookie,
                _ => continue,
            };
            if let Some(a) = args.into_iter().next() {
                found.push((occ, make(a)));
            }
        }
    }
    found.sort_by_key(|(o, _)| *o);
    let mut out: Vec<Read> = Vec::new();
    for (_, r) in found {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// Methods of a route call, and the positions of its url and controller.
fn route_shape(call: &Call, code: &Code<'_>) -> Option<(Vec<String>, usize)> {
    let method = call.method();
    let receiver = call.receiver();
    let verb = |m: &str| Some((vec![m.to_ascii_uppercase()], 0));
    match (receiver, method) {
        (Some("Route"), m @ ("get" | "post" | "put" | "patch" | "delete" | "options")) => verb(m),
        (Some("Route"), "view") => verb("get"),
        (Some("Route"), "any") => Some((ANY.iter().map(|s| s.to_string()).collect(), 0)),
        (Some("Route"), "match") | (None, "Match") => {
            Some((methods_list(code, call.positional(0))?, 1))
        }
        (None, m @ ("Get" | "Post" | "Put" | "Patch" | "Delete" | "Options")) => verb(m),
        _ => None,
    }
}

fn scan(file: &SourceFile) -> MasoniteModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let slash = file.slash_path();
    let mut module = MasoniteModule {
        api_file: slash.ends_with("routes/api.py"),
        ..MasoniteModule::default()
    };
    // Module-level lists: (name, value range).
    let mut lists: Vec<(String, Range<usize>)> = Vec::new();
    for line in lines.iter().filter(|l| l.indent == 0) {
        let text = line.text(&code);
        let value = match assignment_target(&code, line) {
            Some((name, v)) => Some((name, v)),
            None => text.find("+=").and_then(|i| {
                let name = text[..i].trim();
                (!name.is_empty() && name.bytes().all(portolan_plugin_sdk::lex::is_ident_byte))
                    .then(|| (name.to_string(), line.start + i + 2))
            }),
        };
        let value = value.filter(|(_, v)| {
            code.text()
                .as_bytes()
                .get(code.skip_ws(*v))
                .is_some_and(|b| *b == b'[' || *b == b'(')
        });
        if let Some((name, v)) = value {
            lists.push((name.clone(), v..line.end));
            if !module.lists.contains(&name) {
                module.lists.push(name);
            }
        }
    }
    let list_of = |o: usize| {
        lists
            .iter()
            .find(|(_, r)| r.start <= o && o < r.end)
            .map(|(n, _)| n.clone())
    };
    // Groups: (range of the routes argument, prefix).
    let mut groups: Vec<(Range<usize>, Option<StrExpr>, usize)> = Vec::new();
    let mut calls: Vec<Call> = Vec::new();
    for at in code
        .find_all("Route.")
        .chain(code.find_all("RouteGroup("))
        .chain(
            [
                "Get(", "Post(", "Put(", "Patch(", "Delete(", "Options(", "Match(",
            ]
            .iter()
            .flat_map(|w| code.find_all(w)),
        )
    {
        let bytes = code.text().as_bytes();
        if at > 0
            && (portolan_plugin_sdk::lex::is_ident_byte(bytes[at - 1]) || bytes[at - 1] == b'.')
        {
            continue;
        }
        if let Some(call) = call_at(&code, at) {
            calls.push(call);
        }
    }
    calls.sort_by_key(|c| c.start);
    calls.dedup_by_key(|c| c.start);
    for call in &calls {
        let is_group = call.callee == "Route.group" || call.callee == "RouteGroup";
        if !is_group {
            continue;
        }
        let Some(arg) = call.arg(0, "routes") else {
            continue;
        };
        let prefix = call
            .keyword("prefix")
            .and_then(|r| StrExpr::parse(&code, r));
        // `Route.group(load(…"routes.api.location"…), prefix="/api")` in the kernel.
        if code.slice(arg.clone()).contains("routes.api.location") {
            module.api_prefix = prefix.clone();
            continue;
        }
        groups.push((arg, prefix, call.start));
    }
    let enclosing = |o: usize| -> Vec<StrExpr> {
        let mut gs: Vec<&(Range<usize>, Option<StrExpr>, usize)> = groups
            .iter()
            .filter(|(r, _, _)| r.start <= o && o < r.end)
            .collect();
        gs.sort_by_key(|(r, _, _)| r.start);
        gs.into_iter().filter_map(|(_, p, _)| p.clone()).collect()
    };
    for (arg, prefix, start) in &groups {
        if let Some(name) = whole_dotted(&code, arg.clone()) {
            let mut gs = enclosing(*start);
            gs.extend(prefix.clone());
            module.group_refs.push(GroupRef {
                name,
                groups: gs,
                list: list_of(*start),
            });
        }
    }
    for call in &calls {
        let resource = call.callee == "Route.resource" || call.callee == "Route.api";
        let line = file.line_of(call.start);
        let groups_here = enclosing(call.start);
        let list = list_of(call.start);
        let controller_at = |pos: usize| {
            call.arg(pos, "controller").and_then(|r| {
                code.string_at(r.start)
                    .map(|l| l.value)
                    .or_else(|| whole_dotted(&code, r))
            })
        };
        if resource {
            let (Some(base), Some(ctrl)) = (
                call.arg(0, "base_url")
                    .and_then(|r| StrExpr::parse(&code, r)),
                controller_at(1),
            ) else {
                continue;
            };
            let base = {
                let mut b = base;
                if !b.literal().is_some_and(|s| s.starts_with('/')) {
                    b.0.insert(0, crate::py::strexpr::Piece::Lit("/".into()));
                }
                b
            };
            let mut actions: Vec<(&str, &str, &str)> = vec![
                ("GET", "", "index"),
                ("GET", "/create", "create"),
                ("POST", "", "store"),
                ("GET", "/@id", "show"),
                ("GET", "/@id/edit", "edit"),
                ("PUT", "/@id", "update"),
                ("PATCH", "/@id", "update"),
                ("DELETE", "/@id", "destroy"),
            ];
            if call.callee == "Route.api" {
                actions.retain(|(_, _, a)| *a != "create" && *a != "edit");
            }
            let ctrl_class = ctrl.split('@').next().unwrap_or(&ctrl).to_string();
            for (method, suffix, action) in actions {
                let mut url = base.clone();
                url.0
                    .push(crate::py::strexpr::Piece::Lit(suffix.to_string()));
                module.routes.push(MRoute {
                    line,
                    methods: vec![method.to_string()],
                    url,
                    groups: groups_here.clone(),
                    list: list.clone(),
                    controller: Some(format!("{ctrl_class}@{action}")),
                });
            }
            continue;
        }
        let Some((methods, url_pos)) = route_shape(call, &code) else {
            continue;
        };
        let Some(url) = call
            .arg(url_pos, "url")
            .and_then(|r| StrExpr::parse(&code, r))
        else {
            continue;
        };
        let controller = if call.method() == "view" {
            None
        } else {
            controller_at(url_pos + 1)
        };
        module.routes.push(MRoute {
            line,
            methods,
            url,
            groups: groups_here,
            list,
            controller,
        });
    }
    // Chained `.route(…)` calls (`Get().route('/x', 'C@m')`).
    for at in code.find_all(".route(") {
        let text = code.text();
        let Some(before) = text.get(..at) else {
            continue;
        };
        let verb = [
            "Get()",
            "Post()",
            "Put()",
            "Patch()",
            "Delete()",
            "Options()",
        ]
        .into_iter()
        .find(|v| before.ends_with(v));
        let Some(verb) = verb else { continue };
        let Some(call) = call_at(&code, at + 1) else {
            continue;
        };
        let Some(url) = call.arg(0, "url").and_then(|r| StrExpr::parse(&code, r)) else {
            continue;
        };
        let start = at - verb.len();
        module.routes.push(MRoute {
            line: file.line_of(start),
            methods: vec![verb.trim_end_matches("()").to_ascii_uppercase()],
            url,
            groups: enclosing(start),
            list: list_of(start),
            controller: call
                .arg(1, "controller")
                .and_then(|r| code.string_at(r.start))
                .map(|l| l.value),
        });
    }
    // Controllers: every class with methods reading the request.
    for (ci, class) in defs.iter().enumerate() {
        if class.kind != DefKind::Class {
            continue;
        }
        let mut methods = Vec::new();
        for def in defs
            .iter()
            .filter(|d| d.is_child_of(ci) && d.kind == DefKind::Function)
        {
            let mut names = vec!["request".to_string()];
            if let Some(open) = def.open_paren {
                for r in code.args(open) {
                    let t = code.slice(r);
                    if let Some((n, ty)) = t.split_once(':') {
                        if ty
                            .trim()
                            .split('=')
                            .next()
                            .is_some_and(|x| x.trim() == "Request")
                        {
                            names.push(n.trim().to_string());
                        }
                    }
                }
            }
            methods.push((def.name.clone(), reads(&code, def.body.clone(), &names)));
        }
        if !methods.is_empty() {
            module.controllers.push(Controller {
                name: class.name.clone(),
                methods,
            });
        }
    }
    module.info = info;
    module
}

/// `@id`, `@id:int`, `?id` → `{id}`.
fn placeholders(url: &str) -> String {
    url.split('/')
        .map(|seg| {
            let name = seg
                .strip_prefix('@')
                .or_else(|| seg.strip_prefix('?'))
                .map(|s| s.split(':').next().unwrap_or(s));
            match name {
                Some(n) if !n.is_empty() => format!("{{{n}}}"),
                _ => seg.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn join(prefix: &str, url: &str) -> String {
    if prefix.is_empty() {
        return url.to_string();
    }
    if url.trim_matches('/').is_empty() {
        return prefix.to_string();
    }
    format!(
        "{}/{}",
        prefix.trim_end_matches('/'),
        url.trim_start_matches('/')
    )
}

struct Linker<'a> {
    modules: &'a [MasoniteModule],
    project: Project<'a>,
    api_prefix: String,
}

impl Linker<'_> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m, n| {
            self.modules
                .get(m)
                .is_some_and(|md| md.lists.iter().any(|l| l == n))
        }
    }

    fn eval(&self, m: usize, e: &StrExpr) -> Option<String> {
        self.project.eval(m, e, &self.is_local())
    }

    fn chain(&self, m: usize, groups: &[StrExpr]) -> String {
        groups
            .iter()
            .filter_map(|g| self.eval(m, g))
            .fold(String::new(), |acc, p| join(&acc, &p))
    }

    /// Prefixes a list is served under.
    fn prefixes(&self, m: usize, list: Option<&str>, depth: usize) -> Vec<String> {
        let root = || {
            let api = self.modules.get(m).is_some_and(|md| md.api_file);
            vec![if api {
                self.api_prefix.clone()
            } else {
                String::new()
            }]
        };
        let Some(list) = list else {
            return root();
        };
        if depth > 12 {
            return root();
        }
        let mut out = Vec::new();
        for (rm, module) in self.modules.iter().enumerate() {
            for r in &module.group_refs {
                let hit = match self.project.resolve(rm, &r.name, &self.is_local()) {
                    Some(Binding::Local { module, name }) => module == m && name == list,
                    _ => false,
                };
                if !hit {
                    continue;
                }
                for outer in self.prefixes(rm, r.list.as_deref(), depth + 1) {
                    let p = join(&outer, &self.chain(rm, &r.groups));
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        if out.is_empty() {
            root()
        } else {
            out
        }
    }

    fn controller(&self, spec: &str) -> Option<&[Read]> {
        let (class, method) = spec.split_once('@').or_else(|| spec.rsplit_once('.'))?;
        let class = class.rsplit('.').next().unwrap_or(class);
        self.modules
            .iter()
            .flat_map(|m| m.controllers.iter())
            .filter(|c| c.name == class)
            .find_map(|c| c.methods.iter().find(|(n, _)| n == method))
            .map(|(_, r)| r.as_slice())
    }
}

fn link(modules: &[MasoniteModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        project,
        api_prefix: "/api".to_string(),
    };
    if let Some(p) = modules
        .iter()
        .enumerate()
        .find_map(|(m, md)| md.api_prefix.as_ref().and_then(|e| linker.eval(m, e)))
    {
        linker.api_prefix = p;
    }
    let mut out = Vec::new();
    for (m, module) in modules.iter().enumerate() {
        for route in &module.routes {
            let Some(url) = linker.eval(m, &route.url) else {
                continue;
            };
            let inner = join(&linker.chain(m, &route.groups), &url);
            let reads = route
                .controller
                .as_deref()
                .and_then(|c| linker.controller(c))
                .unwrap_or(&[]);
            for prefix in linker.prefixes(m, route.list.as_deref(), 0) {
                let full = placeholders(&join(&prefix, &inner));
                let full = if full.starts_with('/') {
                    full
                } else {
                    format!("/{full}")
                };
                for method in &route.methods {
                    let body = if module.api_file {
                        ParamKind::Json
                    } else {
                        ParamKind::Form
                    };
                    let input = if matches!(method.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS")
                    {
                        ParamKind::Query
                    } else {
                        body
                    };
                    let params = reads.iter().map(|r| match r {
                        Read::Input(n) => Param::new(input, n.clone()),
                        Read::Header(n) => Param::header(n.clone()),
                        Read::Cookie(n) => Param::cookie(n.clone()),
                    });
                    out.push(
                        Endpoint::new(method, full.clone())
                            .at_path(module.info.path.clone(), route.line)
                            .params(params),
                    );
                }
            }
        }
    }
    out
}

impl Analyzer for Masonite {
    fn tech(&self) -> Tech {
        crate::py::tech::package_tech("masonite", "Masonite")
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        crate::py::tech::record(file, out, scan, |m| {
            !m.routes.is_empty()
                || !m.group_refs.is_empty()
                || !m.controllers.is_empty()
                || m.api_prefix.is_some()
                || !m.info.consts.is_empty()
                || !m.lists.is_empty()
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<MasoniteModule> = facts.all();
        Ok(link(&modules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Masonite, crate::test_support::COMPACT);

    #[test]
    fn placeholders_and_joins() {
        assert_eq!(placeholders("/users/@id:int/?slug"), "/users/{id}/{slug}");
        assert_eq!(join("/api", "/"), "/api");
        assert_eq!(join("/api/", "/users"), "/api/users");
        assert_eq!(join("", "/users"), "/users");
    }

    #[test]
    fn groups_lists_and_controllers() {
        let web = "from masonite.routes import Route\nfrom routes.admin import ADMIN_ROUTES\n\nROUTES = [\n    Route.get('/', 'WelcomeController@show'),\n    Route.group([\n        Route.post('/users/@id', 'UserController@update'),\n        Route.match(['GET', 'POST'], '/search', 'UserController@search'),\n    ], prefix='/app', middleware=['auth']),\n    Route.group(ADMIN_ROUTES, prefix='/admin'),\n]\n";
        let admin = "from masonite.routes import Route\n\nADMIN_ROUTES = [\n    Route.get('/stats', 'AdminController@stats'),\n]\n";
        let api = "from masonite.routes import Route\n\nROUTES = [Route.api('posts', 'PostController')]\n";
        let ctrl = "from masonite.controllers import Controller\nfrom masonite.request import Request\n\nclass UserController(Controller):\n    def update(self, req: Request):\n        name = req.input('name')\n        t = req.header('X-Token')\n\n    def search(self, request: Request):\n        return request.input('q')\n";
        assert_eq!(
            run(&[
                ("routes/web.py", web),
                ("routes/admin.py", admin),
                ("routes/api.py", api),
                ("app/controllers/UserController.py", ctrl),
            ]),
            vec![
                "DELETE /api/posts/{id} []",
                "GET / []",
                "GET /admin/stats []",
                "GET /api/posts []",
                "GET /api/posts/{id} []",
                "GET /app/search [query:q]",
                "PATCH /api/posts/{id} []",
                "POST /api/posts []",
                "POST /app/search [form:q]",
                "POST /app/users/{id} [form:name,header:X-Token]",
                "PUT /api/posts/{id} []",
            ]
        );
    }
}
