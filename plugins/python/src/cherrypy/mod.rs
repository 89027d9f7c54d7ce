//! CherryPy (`python_cherrypy`): object-tree dispatch.
//!
//! Roots: `cherrypy.quickstart(Root(), '/')`, `cherrypy.tree.mount(Api(),
//! '/api', conf)` (also keywords `root=` / `script_name=`, and a variable
//! holding the instance). From a root object the tree follows attributes
//! holding instances of in-tree classes: class-level `users = Users()`,
//! `self.users = Users()` in `__init__`, and `root.users = Users()` /
//! `root.api.v1 = V1()` on the mounted variable (classes and instances may
//! come from other modules). Without any mount in the tree, classes that no
//! other class holds are taken as mounted at `/`.
//!
//! Handlers (default dispatcher): methods exposed with `@cherrypy.expose`
//! (also `@expose`, aliases `@cherrypy.expose(['a', 'b'])`, and
//! `name.exposed = True`) → `<object path>/<name>` (`index` → the object's
//! path with a trailing `/`, `default` → `<object path>/{path}`); positional
//! arguments without default become path segments (`/show/{user_id}`),
//! arguments with a default and `**kwargs` reads (`kwargs['x']`,
//! `kwargs.get('x')`) become query parameters. CherryPy serves every method
//! to such a handler: like the Django analyzer we report GET plus the
//! methods the body compares `cherrypy.request.method` with (POST when it
//! reads a JSON body), unless `@cherrypy.tools.allow(methods=[…])` says.
//!
//! `MethodDispatcher` classes (exposed classes with `GET` / `POST` / `PUT`
//! / `PATCH` / `DELETE` methods) serve those methods on the object's path;
//! their arguments are query parameters (form for POST / PUT / PATCH).
//!
//! Request reads (`cherrypy.request` or an alias `request`): `headers` →
//! header, `cookie` → cookie, `json` → json, `params` → query,
//! `body.params` → form.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use crate::py::call::{call_at, methods_list, string_list, whole_dotted};
use crate::py::classes::class_info;
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, Def, DefKind};
use crate::py::project::{Binding, Project};
use crate::py::request::{find_word_in, request_params_with};
use crate::py::strexpr::StrExpr;

pub struct CherryPy;

const VERBS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CpModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<CpClass>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<Mount>,
    /// Module-level `root = Root()` and `root.users = Users()`: (target
    /// path, class).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpClass {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    #[serde(default)]
    pub exposed: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<Handler>,
    /// Attributes holding instances: (attribute, class).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    pub name: String,
    pub line: u32,
    /// URL segments it answers (its name, or its aliases).
    pub segments: Vec<String>,
    /// Positional arguments without default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path_args: Vec<String>,
    /// Arguments with default and `**kwargs` reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub query: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    pub methods: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    /// A class (inline `Root()`) or a variable.
    pub object: String,
    pub inline: bool,
    pub script_name: StrExpr,
}

fn sources(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "headers" => ParamKind::Header,
        "cookie" => ParamKind::Cookie,
        "json" => ParamKind::Json,
        "params" => ParamKind::Query,
        _ => return None,
    })
}

/// Parameters a handler body reads.
fn body_params(code: &Code<'_>, body: Range<usize>, info: &ModuleInfo) -> Vec<Param> {
    let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
    let mut out = request_params_with(
        code,
        body.clone(),
        &["request".to_string()],
        &key,
        &sources,
        false,
    );
    // `cherrypy.request.body.params['x']`.
    let text = code.text();
    for occ in code.find_all("request.body.params") {
        if occ < body.start || occ >= body.end {
            continue;
        }
        let p = occ + "request.body.params".len();
        let open = match text.as_bytes().get(p) {
            Some(b'[') => Some(p),
            Some(b'.') if text.get(p..).is_some_and(|t| t.starts_with(".get(")) => Some(p + 4),
            _ => None,
        };
        if let Some(name) = open
            .and_then(|o| code.args(o).into_iter().next())
            .and_then(|r| code.string_at(r.start))
            .map(|l| l.value)
        {
            let p = Param::form(name);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// `**kwargs` reads: `kwargs['x']`, `kwargs.get('x')`.
fn kwargs_reads(code: &Code<'_>, body: Range<usize>, name: &str) -> Vec<String> {
    let text = code.text();
    let mut out = Vec::new();
    for occ in find_word_in(code, name, body) {
        let p = occ + name.len();
        let open = match text.as_bytes().get(p) {
            Some(b'[') => p,
            Some(b'.') if text.get(p..).is_some_and(|t| t.starts_with(".get(")) => p + 4,
            _ => continue,
        };
        if let Some(lit) = code
            .args(open)
            .into_iter()
            .next()
            .and_then(|r| code.string_at(r.start))
        {
            if !out.contains(&lit.value) {
                out.push(lit.value);
            }
        }
    }
    out
}

fn is_expose(name: &str) -> bool {
    name == "cherrypy.expose" || name == "expose"
}

fn handler(code: &Code<'_>, file: &SourceFile, def: &Def, info: &ModuleInfo) -> Handler {
    let mut segments = vec![def.name.clone()];
    let mut allow: Option<Vec<String>> = None;
    for deco in &def.decorators {
        if let Some(call) = &deco.call {
            if is_expose(&call.callee) {
                if let Some(aliases) = call
                    .arg(0, "alias")
                    .and_then(|r| string_list(code, r))
                    .filter(|a| !a.is_empty())
                {
                    segments = aliases;
                }
            } else if call.callee.ends_with("tools.allow") {
                allow = methods_list(code, call.keyword("methods").or(call.positional(0)));
            }
        }
    }
    let mut path_args = Vec::new();
    let mut query = Vec::new();
    let mut kwargs = None;
    if let Some(open) = def.open_paren {
        for (i, r) in code.args(open).into_iter().enumerate() {
            let text = code.slice(r.clone()).trim();
            if i == 0 && text == "self" {
                continue;
            }
            if let Some(k) = text.strip_prefix("**") {
                kwargs = Some(k.trim().to_string());
                continue;
            }
            if text.starts_with('*') || text == "/" {
                continue;
            }
            let name: String = text
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                continue;
            }
            if text.contains('=') {
                query.push(name);
            } else {
                path_args.push(name);
            }
        }
    }
    if let Some(k) = kwargs {
        for q in kwargs_reads(code, def.body.clone(), &k) {
            if !query.contains(&q) {
                query.push(q);
            }
        }
    }
    let params = body_params(code, def.body.clone(), info);
    let methods = allow.unwrap_or_else(|| {
        let mut m = vec!["GET".to_string()];
        for x in crate::django::scan::body_methods(code, def.body.clone(), &params) {
            if !m.contains(&x) {
                m.push(x);
            }
        }
        if params.iter().any(|p| p.kind == ParamKind::Json) && !m.iter().any(|x| x == "POST") {
            m.push("POST".to_string());
        }
        m
    });
    Handler {
        name: def.name.clone(),
        line: file.line_of(def.start),
        segments,
        path_args,
        query,
        params,
        methods,
    }
}

/// The class of an instance expression `Cls(...)`.
fn instance_class(code: &Code<'_>, at: usize, end: usize) -> Option<String> {
    let call = call_at(code, code.skip_ws(at))?;
    if code.skip_ws(call.close + 1) < end {
        return None;
    }
    call.method()
        .starts_with(|c: char| c.is_ascii_uppercase())
        .then(|| call.callee.clone())
}

/// `a.b.c = value` at a line start: the dotted target and the value start.
fn dotted_assignment(code: &Code<'_>, line: &LogicalLine) -> Option<(String, usize)> {
    let (name, range) = crate::py::call::dotted_at(code, line.start)?;
    let eq = code.skip_inline_ws(range.end);
    let bytes = code.text().as_bytes();
    (bytes.get(eq) == Some(&b'=') && bytes.get(eq + 1) != Some(&b'=')).then_some((name, eq + 1))
}

fn scan(file: &SourceFile) -> CpModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = CpModule::default();
    for (ci, class) in defs.iter().enumerate() {
        if class.kind != DefKind::Class {
            continue;
        }
        let mut cp = CpClass {
            name: class.name.clone(),
            bases: class_info(&code, &lines, &defs, ci)
                .map(|c| c.bases)
                .unwrap_or_default(),
            exposed: class.decorators.iter().any(|d| is_expose(&d.name)),
            ..CpClass::default()
        };
        let mut exposed_names: Vec<String> = Vec::new();
        let first = lines.partition_point(|l| l.start < class.body.start);
        for l in lines[first..]
            .iter()
            .take_while(|l| l.end <= class.body.end)
        {
            if let Some((target, value)) = dotted_assignment(&code, l) {
                let rhs = code.slice(code.skip_ws(value)..l.end).trim();
                if target == "exposed" && rhs == "True" {
                    cp.exposed = true;
                } else if let Some(n) = target.strip_suffix(".exposed").filter(|_| rhs == "True") {
                    exposed_names.push(n.to_string());
                } else if let Some(cls) = instance_class(&code, value, l.end) {
                    // `users = Users()` in the class, `self.users = Users()`
                    // in a method.
                    let attr = target.strip_prefix("self.").unwrap_or(&target);
                    if !attr.contains('.') {
                        cp.children.push((attr.to_string(), cls));
                    }
                }
            }
        }
        for def in defs
            .iter()
            .filter(|d| d.is_child_of(ci) && d.kind == DefKind::Function)
        {
            let exposed = def.decorators.iter().any(|d| is_expose(&d.name))
                || exposed_names.contains(&def.name);
            let verb = VERBS.contains(&def.name.as_str());
            if exposed || (verb && cp.exposed) {
                cp.handlers.push(handler(&code, file, def, &info));
            }
        }
        if !cp.handlers.is_empty() || !cp.children.is_empty() || cp.exposed {
            module.classes.push(cp);
        }
    }
    for line in &lines {
        // Outside classes: module level, `main()`, `if __name__ == …`.
        let in_class = defs.iter().any(|d| {
            d.kind == DefKind::Class && d.body.start <= line.start && line.start < d.body.end
        });
        if in_class {
            continue;
        }
        if let Some((target, value)) =
            assignment_target(&code, line).or_else(|| dotted_assignment(&code, line))
        {
            if let Some(cls) = instance_class(&code, value, line.end) {
                module.instances.push((target, cls));
                continue;
            }
        }
        let Some(call) = call_at(&code, line.start) else {
            continue;
        };
        let (obj, script) = match call.callee.as_str() {
            "cherrypy.quickstart"
            | "quickstart"
            | "cherrypy.tree.mount"
            | "tree.mount"
            | "cherrypy.Application" => (call.arg(0, "root"), call.arg(1, "script_name")),
            _ => continue,
        };
        let Some(obj) = obj else { continue };
        let (object, inline) = match whole_dotted(&code, obj.clone()) {
            Some(n) => (n, false),
            None => match instance_class(&code, obj.start, obj.end) {
                Some(c) => (c, true),
                None => continue,
            },
        };
        let script_name = match script {
            Some(r) => match StrExpr::parse(&code, r) {
                Some(e) => e,
                None => continue,
            },
            None => StrExpr::lit(""),
        };
        module.mounts.push(Mount {
            object,
            inline,
            script_name,
        });
    }
    module.info = info;
    module
}

struct Linker<'a> {
    modules: &'a [CpModule],
    project: Project<'a>,
}

impl Linker<'_> {
    fn class(&self, m: usize, name: &str) -> Option<(usize, &CpClass)> {
        let is_local = |t: usize, n: &str| {
            self.modules
                .get(t)
                .is_some_and(|md| md.classes.iter().any(|c| c.name == n))
        };
        match self.project.resolve(m, name, &is_local)? {
            Binding::Local { module, name } => self
                .modules
                .get(module)?
                .classes
                .iter()
                .find(|c| c.name == name)
                .map(|c| (module, c)),
            _ => None,
        }
    }

    /// The class with its in-tree ancestors, nearest first.
    fn chain(&self, m: usize, class: &CpClass) -> Vec<(usize, CpClass)> {
        let mut out: Vec<(usize, CpClass)> = vec![(m, class.clone())];
        let mut i = 0;
        while i < out.len() && out.len() < 16 {
            let (cm, c) = out[i].clone();
            for b in &c.bases {
                if let Some((bm, bc)) = self.class(cm, b) {
                    if !out.iter().any(|(x, y)| *x == bm && y.name == bc.name) {
                        out.push((bm, bc.clone()));
                    }
                }
            }
            i += 1;
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        m: usize,
        class: &CpClass,
        base: &str,
        extra: &[(String, usize, String)],
        depth: usize,
        out: &mut Vec<Endpoint>,
    ) {
        if depth > 12 {
            return;
        }
        let chain = self.chain(m, class);
        let method_dispatch = chain.iter().any(|(_, c)| c.exposed)
            && chain
                .iter()
                .any(|(_, c)| c.handlers.iter().any(|h| VERBS.contains(&h.name.as_str())));
        let mut seen: Vec<String> = Vec::new();
        for (cm, c) in &chain {
            let Some(path) = self.modules.get(*cm).map(|md| md.info.path.clone()) else {
                continue;
            };
            for h in &c.handlers {
                if seen.contains(&h.name) {
                    continue;
                }
                seen.push(h.name.clone());
                if method_dispatch && VERBS.contains(&h.name.as_str()) {
                    let kind = if matches!(h.name.as_str(), "POST" | "PUT" | "PATCH") {
                        ParamKind::Form
                    } else {
                        ParamKind::Query
                    };
                    let url = if base.is_empty() {
                        "/".to_string()
                    } else {
                        base.to_string()
                    };
                    out.push(
                        Endpoint::new(&h.name, url)
                            .at_path(path.clone(), h.line)
                            .params(
                                h.path_args
                                    .iter()
                                    .chain(&h.query)
                                    .map(|a| Param::new(kind, a.clone())),
                            )
                            .params(h.params.clone()),
                    );
                    continue;
                }
                for seg in &h.segments {
                    let mut url = match seg.as_str() {
                        "index" => format!("{base}/"),
                        "default" => format!("{base}/{{path}}"),
                        s => format!("{base}/{s}"),
                    };
                    for a in &h.path_args {
                        url = format!("{}/{{{a}}}", url.trim_end_matches('/'));
                    }
                    for method in &h.methods {
                        out.push(
                            Endpoint::new(method, url.clone())
                                .at_path(path.clone(), h.line)
                                .params(h.query.iter().map(|q| Param::query(q.clone())))
                                .params(h.params.clone()),
                        );
                    }
                }
            }
        }
        // Children: class attributes, then assignments on the instance.
        let mut children: Vec<(String, usize, String)> = chain
            .iter()
            .flat_map(|(cm, c)| {
                c.children
                    .iter()
                    .map(move |(a, cls)| (a.clone(), *cm, cls.clone()))
            })
            .collect();
        for (a, em, cls) in extra {
            if !a.contains('.') {
                children.retain(|(x, _, _)| x != a);
                children.push((a.clone(), *em, cls.clone()));
            }
        }
        for (attr, cm, cls) in children {
            let Some((km, k)) = self.class(cm, &cls) else {
                continue;
            };
            let nested: Vec<(String, usize, String)> = extra
                .iter()
                .filter_map(|(a, em, c)| {
                    a.strip_prefix(&format!("{attr}."))
                        .map(|rest| (rest.to_string(), *em, c.clone()))
                })
                .collect();
            self.walk(km, k, &format!("{base}/{attr}"), &nested, depth + 1, out);
        }
    }
}

fn link(modules: &[CpModule]) -> Vec<Endpoint> {
    let linker = Linker {
        modules,
        project: Project::new(modules.iter().map(|m| &m.info).collect()),
    };
    let mut out = Vec::new();
    let mut mounted = false;
    for (m, module) in modules.iter().enumerate() {
        for mount in &module.mounts {
            let Some(script) = linker.project.eval(m, &mount.script_name, &|_, _| false) else {
                continue;
            };
            let base = script.trim_end_matches('/').to_string();
            // The instance's class and attribute assignments on it.
            let (class, extra) = if mount.inline {
                (Some(mount.object.clone()), Vec::new())
            } else {
                let class = module
                    .instances
                    .iter()
                    .rev()
                    .find(|(t, _)| *t == mount.object)
                    .map(|(_, c)| c.clone());
                let extra: Vec<(String, usize, String)> = module
                    .instances
                    .iter()
                    .filter_map(|(t, c)| {
                        t.strip_prefix(&format!("{}.", mount.object))
                            .map(|a| (a.to_string(), m, c.clone()))
                    })
                    .collect();
                (class.or_else(|| Some(mount.object.clone())), extra)
            };
            let Some((cm, c)) = class.and_then(|c| linker.class(m, &c)) else {
                continue;
            };
            mounted = true;
            linker.walk(cm, c, &base, &extra, 0, &mut out);
        }
    }
    if !mounted {
        // Classes nothing holds, at the root.
        let held: Vec<String> = modules
            .iter()
            .flat_map(|md| md.classes.iter().flat_map(|c| c.children.iter()))
            .map(|(_, cls)| cls.rsplit('.').next().unwrap_or(cls).to_string())
            .collect();
        for (m, module) in modules.iter().enumerate() {
            for c in &module.classes {
                if !held.contains(&c.name) && !c.handlers.is_empty() {
                    linker.walk(m, c, "", &[], 0, &mut out);
                }
            }
        }
    }
    out
}

impl Analyzer for CherryPy {
    fn tech(&self) -> Tech {
        crate::py::tech::package_tech("cherrypy", "CherryPy")
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        crate::py::tech::record(file, out, scan, |m| {
            !m.classes.is_empty()
                || !m.mounts.is_empty()
                || !m.instances.is_empty()
                || !m.info.consts.is_empty()
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<CpModule> = facts.all();
        Ok(link(&modules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(CherryPy, crate::test_support::COMPACT);

    #[test]
    fn object_tree() {
        let main = "import cherrypy\nfrom users import Users\nfrom api import Items\n\nclass Root:\n    def __init__(self):\n        self.users = Users()\n\n    @cherrypy.expose\n    def index(self, q=None):\n        return 'hi'\n\n    @cherrypy.expose(['signin', 'login'])\n    @cherrypy.tools.allow(methods=['POST'])\n    def do_login(self, username, password=None, **kw):\n        token = cherrypy.request.headers.get('X-Token')\n        return kw.get('next')\n\n    def helper(self):\n        pass\n\nroot = Root()\nroot.api = Items()\ncherrypy.quickstart(root, '/', {})\n";
        let users = "import cherrypy\n\nclass Users(object):\n    @cherrypy.expose\n    def show(self, user_id, fmt='json'):\n        if cherrypy.request.method == 'DELETE':\n            pass\n        return user_id\n\n    def hidden(self):\n        pass\n    hidden.exposed = False\n";
        let api = "import cherrypy\n\n@cherrypy.expose\nclass Items:\n    def GET(self, id=None):\n        return ''\n\n    @cherrypy.tools.json_in()\n    def POST(self):\n        name = cherrypy.request.json['name']\n";
        assert_eq!(
            run(&[("main.py", main), ("users.py", users), ("api.py", api)]),
            vec![
                "DELETE /users/show/{user_id} [query:fmt]",
                "GET / [query:q]",
                "GET /api [query:id]",
                "GET /users/show/{user_id} [query:fmt]",
                "POST /api [json:name]",
                "POST /login/{username} [query:password,query:next,header:X-Token]",
                "POST /signin/{username} [query:password,query:next,header:X-Token]",
            ]
        );
    }
}
