//! Phalcon (`php_phalcon`, Phalcon 3 to 5: MVC router and Micro apps).
//!
//! MVC router: on a `new Router(…)` variable (or `$router` built
//! elsewhere), `add('/x', paths)` (every method: reported as GET, POST,
//! PUT, PATCH and DELETE), `add('/x', paths, ['GET', 'POST'])`,
//! `add(…)->via(['GET', 'POST'])`, `addGet/addPost/addPut/addPatch/
//! addDelete/addOptions/addHead`. Groups: `new Group([...defaults])`
//! variables (also under an alias such as `RouterGroup`) and classes
//! extending `Group` whose `initialize()` calls `$this->setPrefix(…)`,
//! `$this->setPaths([...])` and `$this->add…(…)`; the prefix applies to
//! every route of the group, whichever file mounts it.
//!
//! Micro apps: `new Micro(…)` variables (or `$app` built in another file)
//! with `get/post/put/patch/delete/options/head('/x', handler)` and
//! `map('/x', h)` (every method, or `->via([...])`); `Micro\Collection`
//! variables with `setPrefix(…)`, `setHandler(Class::class | 'Class' | new
//! Class())` and `get('/', 'method')` routes.
//!
//! Paths: literals, `define()`/`const` constants and concatenations;
//! `{id:[0-9]+}` → `{id}`. Handlers: `'Products::show'` and `['controller'
//! => 'products', 'action' => 'show']` (merged with the group's paths,
//! `namespace` honoured) → `ProductsController::showAction`; Micro
//! closures, `[Class, 'method']` and collection methods. Parameters:
//! `$this->request->getQuery('q')` (query), `getPost('x')`/`getPut('x')`
//! (form), `get('x')` (query on GET, form otherwise), `getHeader('X')`,
//! `$this->cookies->get('c')`, `$data = $this->request->getJsonRawBody();
//! $data->field` (json), `getUploadedFiles()` is not attributed.
//!
//! Not reported: annotation routes (`addResource`), `:controller/:action`
//! catch-all module routes (kept as written when declared), routes whose
//! path is not a string we can resolve.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{chains, Ctx, Val};
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::outline::{classes, short, Class};
use crate::php::request::Reads;
use crate::php::tokens::{matching, tokenize, Kind, Token};
use crate::slim::link::clean;
use crate::symfony::scan::is_vendor;
use crate::thinkphp::{consts, studly};

pub struct Phalcon;

impl Analyzer for Phalcon {
    fn tech(&self) -> Tech {
        Tech::new("php_phalcon", "PHP", "Phalcon")
            .aliases(["phalcon", "php-phalcon"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["\"phalcon/"]))
            .detect(
                Detect::files(["*.php"]).contains(["Phalcon\\Mvc\\Router", "Phalcon\\Mvc\\Micro"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        for f in scan(file) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        Ok(link(&facts))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjKind {
    Router,
    Group,
    Micro,
    Collection,
}

/// How a route is handled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    Reads(Reads),
    /// (class, method, namespace).
    Method(String, String, String),
    None,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    /// Empty: every method.
    pub methods: Vec<String>,
    pub prefix: Option<Val>,
    pub path: Val,
    pub target: Target,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Routes { path: String, routes: Vec<Route> },
    Class { path: String, class: Class },
    Consts(Vec<(String, String)>),
}

const ROUTER_CALLS: &[&str] = &[
    "add",
    "addGet",
    "addPost",
    "addPut",
    "addPatch",
    "addDelete",
    "addOptions",
    "addHead",
    "setPrefix",
    "setPaths",
    "setDefaultNamespace",
];
const MICRO_CALLS: &[&str] = &[
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "options",
    "head",
    "map",
    "setPrefix",
    "setHandler",
];

fn kind_of_class(name: &str) -> Option<ObjKind> {
    let s = short(name);
    if s == "Router" {
        Some(ObjKind::Router)
    } else if s == "Micro" {
        Some(ObjKind::Micro)
    } else if s.ends_with("Collection") {
        Some(ObjKind::Collection)
    } else if s.ends_with("Group") {
        Some(ObjKind::Group)
    } else {
        None
    }
}

/// `$v = new X(…)` variables holding routers, groups, apps, collections,
/// with the constructor's token range.
/// `(variable, kind, constructor argument tokens)`.
type NewObj = (String, ObjKind, Option<(usize, usize)>);

fn objects(toks: &[Token]) -> Vec<NewObj> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if toks[i].kind == Kind::Var
            && toks.get(i + 1).is_some_and(|e| e.is("="))
            && toks.get(i + 2).is_some_and(|n| n.is_ident("new"))
        {
            let Some(class) = toks.get(i + 3).filter(|c| c.kind == Kind::Ident) else {
                continue;
            };
            let Some(kind) = kind_of_class(&class.text) else {
                continue;
            };
            let args = toks
                .get(i + 4)
                .filter(|p| p.is("("))
                .and_then(|_| matching(toks, i + 4))
                .map(|close| (i + 5, close));
            out.push((toks[i].text.clone(), kind, args));
        }
    }
    out
}

#[derive(Default)]
struct Obj {
    prefix: Option<Val>,
    defaults: Option<Val>,
    namespace: Option<String>,
    handler: Option<String>,
    routes: Vec<(Vec<String>, Val, Option<Val>, u32)>,
}

/// A class name from `Foo::class`, `'Foo'`, `new Foo()`.
fn class_name(v: &Val) -> Option<String> {
    match v {
        Val::Class(c) | Val::Str(c) => Some(c.clone()),
        Val::Expr(e) => e
            .strip_prefix("new ")
            .and_then(|r| r.split_whitespace().next())
            .map(str::to_string),
        _ => None,
    }
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let path = file.slash_path();
    if is_vendor(&path) || !path.ends_with(".php") {
        return Vec::new();
    }
    let text = &file.content;
    let toks = tokenize(text);
    let mut out = Vec::new();
    let c = consts(&toks);
    if !c.is_empty() {
        out.push(Fact::Consts(c));
    }
    let line_of = |o: usize| file.line_of(o);
    let file_classes = if text.contains("class ") {
        classes(text, &toks, &line_of)
    } else {
        Vec::new()
    };
    let group_class = file_classes
        .iter()
        .any(|c| kind_of_class(&c.parent) == Some(ObjKind::Group));
    let uses = use_names(&toks);
    let mut kinds: BTreeMap<String, ObjKind> = BTreeMap::new();
    let found = objects(&toks);
    for (v, k, _) in &found {
        kinds.insert(v.clone(), *k);
    }
    if group_class {
        kinds.insert("this".into(), ObjKind::Group);
    }
    // Built in another file: the conventional names.
    kinds.entry("app".into()).or_insert(ObjKind::Micro);
    kinds.entry("router".into()).or_insert(ObjKind::Router);
    let is_start = |t: &[Token], i: usize| {
        t[i].kind == Kind::Var
            && t.get(i + 1).is_some_and(|a| a.is("->"))
            && kinds.get(&t[i].text).is_some_and(|k| {
                let calls = match k {
                    ObjKind::Router | ObjKind::Group => ROUTER_CALLS,
                    _ => MICRO_CALLS,
                };
                t.get(i + 2)
                    .is_some_and(|m| m.kind == Kind::Ident && calls.contains(&m.text.as_str()))
            })
    };
    let cx = Ctx {
        toks: &toks,
        line_of: &line_of,
        is_chain_start: &is_start,
    };
    let mut objs: BTreeMap<String, Obj> = BTreeMap::new();
    // Constructor defaults: `new Group(['controller' => 'x'])`.
    for (v, _, args) in &found {
        if let Some((a, b)) = args {
            let val = crate::php::expr::value(&cx, *a, *b);
            if matches!(val, Val::Array(_)) {
                objs.entry(v.clone()).or_default().defaults = Some(val);
            }
        }
    }
    for c in chains(&cx, 0, toks.len()) {
        let var = c.base.trim_start_matches('$').to_string();
        let Some(p) = c.parts.first() else { continue };
        let via: Option<Vec<String>> = c.parts[1..]
            .iter()
            .find(|x| x.name == "via")
            .and_then(|x| x.args.first())
            .map(Val::strings);
        let obj = objs.entry(var).or_default();
        let args = &p.args;
        match p.name.as_str() {
            "setPrefix" => obj.prefix = args.first().cloned(),
            "setPaths" => obj.defaults = args.first().cloned(),
            "setDefaultNamespace" => obj.namespace = lit(args.first()),
            "setHandler" => {
                obj.handler = args
                    .first()
                    .and_then(class_name)
                    .map(|c| resolve_use(&uses, &c))
            }
            name => {
                let Some(path) = args.first().cloned() else {
                    continue;
                };
                let methods: Vec<String> = if let Some(v) = via {
                    v
                } else if name == "add" {
                    args.get(2).map(Val::strings).unwrap_or_default()
                } else if name == "map" {
                    Vec::new()
                } else {
                    let verb = name.strip_prefix("add").unwrap_or(name);
                    match http_method(verb) {
                        Some(m) => vec![m.to_string()],
                        None => continue,
                    }
                };
                obj.routes
                    .push((methods, path, args.get(1).cloned(), c.line));
            }
        }
    }
    // The router's default namespace applies to its groups in the file.
    let default_ns = objs.values().find_map(|o| o.namespace.clone());
    let mut routes = Vec::new();
    for (var, obj) in objs {
        let kind = kinds.get(&var).copied().unwrap_or(ObjKind::Router);
        for (methods, path, handler, line) in obj.routes {
            let target = match kind {
                ObjKind::Router | ObjKind::Group => {
                    let ns = obj.namespace.clone().or_else(|| default_ns.clone());
                    mvc_target(handler.as_ref(), obj.defaults.as_ref(), ns)
                }
                ObjKind::Micro | ObjKind::Collection => {
                    micro_target(handler.as_ref(), obj.handler.as_deref(), &uses)
                }
            };
            routes.push(Route {
                methods,
                prefix: obj.prefix.clone(),
                path,
                target,
                line,
            });
        }
    }
    if !routes.is_empty() {
        out.push(Fact::Routes {
            path: file.path.clone(),
            routes,
        });
    }
    for class in file_classes {
        out.push(Fact::Class {
            path: file.path.clone(),
            class,
        });
    }
    out
}

/// `use A\B\C;` / `use A\B\C as D;` → (short or alias, full name).
fn use_names(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !t.is_ident("use") || toks.get(i + 1).is_none_or(|n| n.kind != Kind::Ident) {
            continue;
        }
        let full = toks[i + 1].text.trim_start_matches('\\').to_string();
        match toks.get(i + 2) {
            Some(s) if s.is(";") => out.push((short(&full).to_string(), full)),
            Some(a) if a.is_ident("as") => {
                if let Some(alias) = toks.get(i + 3).filter(|x| x.kind == Kind::Ident) {
                    out.push((alias.text.clone(), full));
                }
            }
            _ => {}
        }
    }
    out
}

fn resolve_use(uses: &[(String, String)], class: &str) -> String {
    uses.iter()
        .find(|(s, _)| s == class)
        .map(|(_, f)| f.clone())
        .unwrap_or_else(|| class.to_string())
}

fn lit(v: Option<&Val>) -> Option<String> {
    match v? {
        Val::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// `'Products::show'`, `['controller' => 'products', 'action' => 'show']`.
fn mvc_target(paths: Option<&Val>, defaults: Option<&Val>, ns: Option<String>) -> Target {
    let get = |k: &str| {
        paths
            .and_then(|p| p.get(k))
            .or_else(|| defaults.and_then(|d| d.get(k)))
    };
    let ns = lit(get("namespace")).or(ns).unwrap_or_default();
    let (controller, action) = match paths {
        Some(Val::Str(s)) => match s.split_once("::") {
            Some((c, a)) => (Some(c.to_string()), Some(a.to_string())),
            None => (Some(s.clone()), None),
        },
        _ => (lit(get("controller")), lit(get("action"))),
    };
    let Some(controller) = controller else {
        return Target::None;
    };
    let (cns, cname) = match controller.rsplit_once('\\') {
        Some((n, c)) => (n.to_string(), c.to_string()),
        None => (ns, controller),
    };
    let camel = |s: &str| studly(&s.replace('-', "_"));
    let action = action.unwrap_or_else(|| "index".into());
    let mut action = camel(&action);
    if let Some(f) = action.get(..1) {
        action = f.to_ascii_lowercase() + action.get(1..).unwrap_or("");
    }
    Target::Method(
        format!("{}Controller", camel(&cname)),
        format!("{action}Action"),
        cns,
    )
}

fn micro_target(
    handler: Option<&Val>,
    collection: Option<&str>,
    uses: &[(String, String)],
) -> Target {
    match handler {
        Some(Val::Closure(cl)) => Target::Reads(cl.reads.clone()),
        Some(Val::Array(items)) if items.len() == 2 => {
            match (class_name(&items[0].1), items[1].1.str()) {
                (Some(c), Some(m)) => {
                    Target::Method(resolve_use(uses, &c), m.to_string(), String::new())
                }
                _ => Target::None,
            }
        }
        Some(Val::Str(m)) => match collection {
            Some(c) => Target::Method(c.to_string(), m.clone(), String::new()),
            None => Target::None,
        },
        _ => Target::None,
    }
}

pub fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let mut consts: BTreeMap<&str, &str> = BTreeMap::new();
    let mut index = Index::default();
    for f in facts {
        match f {
            Fact::Consts(c) => {
                for (k, v) in c {
                    consts.entry(k.as_str()).or_insert(v.as_str());
                }
            }
            Fact::Class { path, class } => index.push(path, class),
            Fact::Routes { .. } => {}
        }
    }
    let text = |v: &Val| -> Option<String> { text(v, &consts) };
    let mut out = Vec::new();
    for f in facts {
        let Fact::Routes { path: file, routes } = f else {
            continue;
        };
        for r in routes {
            let prefix = match &r.prefix {
                Some(p) => match text(p) {
                    Some(p) => p,
                    None => continue,
                },
                None => String::new(),
            };
            let Some(p) = text(&r.path) else { continue };
            let url = clean(&format!("{prefix}{p}"));
            let url = if url.is_empty() { "/".to_string() } else { url };
            let handler = match &r.target {
                Target::Reads(reads) => Some(Handler::from_reads(reads)),
                Target::Method(c, m, ns) => {
                    let full = if ns.is_empty() {
                        c.clone()
                    } else {
                        format!("{ns}\\{c}")
                    };
                    index.handler_of(&format!("{full}::{m}"))
                }
                Target::None => None,
            };
            let methods: Vec<&str> = if r.methods.is_empty() {
                ANY.to_vec()
            } else {
                r.methods.iter().filter_map(|m| http_method(m)).collect()
            };
            for m in methods {
                let mut e = Endpoint::new(m, &url).at_path(file, r.line);
                if let Some(h) = &handler {
                    for p in index.params(h, m, &url, BodyKind::Form) {
                        e.push_param(p);
                    }
                }
                out.push(e);
            }
        }
    }
    out
}

fn text(v: &Val, consts: &BTreeMap<&str, &str>) -> Option<String> {
    match v {
        Val::Str(s) | Val::Int(s) => Some(s.clone()),
        Val::Const(c) | Val::ClassConst(_, c) => consts.get(c.as_str()).map(|s| s.to_string()),
        Val::Concat(parts) => parts.iter().map(|p| text(p, consts)).collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mvc_paths() {
        assert_eq!(
            mvc_target(Some(&Val::Str("Products::show".into())), None, None),
            Target::Method(
                "ProductsController".into(),
                "showAction".into(),
                String::new()
            )
        );
        let defaults = Val::Array(vec![
            (
                Some(Val::Str("namespace".into())),
                Val::Str("App\\Admin".into()),
            ),
            (
                Some(Val::Str("controller".into())),
                Val::Str("user-profile".into()),
            ),
        ]);
        assert_eq!(
            mvc_target(None, Some(&defaults), None),
            Target::Method(
                "UserProfileController".into(),
                "indexAction".into(),
                "App\\Admin".into()
            )
        );
    }
}
