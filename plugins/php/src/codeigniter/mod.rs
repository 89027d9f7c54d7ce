//! CodeIgniter (`php_codeigniter`, versions 3 and 4).
//!
//! **CodeIgniter 4**: every `$routes->…` call in a PHP file (`app/Config/
//! Routes.php`, extra route files listed in `Config\Routing::$routeFiles`,
//! modules' `Config/Routes.php`), on `$routes`/`$route`/`$router` or any
//! variable typed `RouteCollection(Interface)`: `get/post/put/patch/delete/
//! options/head('from', 'Controller::method/$1', [options])`,
//! `match(['get', 'post'], …)`, `add` and `map`-less `cli` (ignored),
//! `view('x', 'tpl')` and `addRedirect('from', 'to')` (GET), `group('api',
//! [options], static function ($routes) { … })` nested to any depth,
//! `environment('development', fn)`, and `resource('photos', ['controller'
//! => …, 'only'/'except' => …, 'placeholder' => …])` / `presenter(…)`,
//! expanded to the framework's standard routes. `add` accepts every method:
//! GET POST PUT PATCH DELETE are reported.
//!
//! **CodeIgniter 3**: `$route['products/(:num)'] = 'catalog/lookup/$1';` in
//! `application/config/routes.php` (every method: GET POST PUT PATCH
//! DELETE), and the verb form `$route['products']['post'] = …`
//! (`default_controller`, `404_override`, `translate_uri_dashes` are
//! settings, not routes). A target's first segment is the controller
//! (`Catalog`), or a sub-directory when no such controller exists.
//!
//! Placeholders `(:num)`, `(:segment)`, `(:any)`, `(:alpha)`, `(:alphanum)`,
//! `(:hash)` and regex groups become `{name}`, named after the controller
//! method's parameter that receives them (`$1` in the target, or position),
//! else after the placeholder kind (`{num}`, `{segment}`; `{num2}` for a
//! second one). Resource routes use the `show` method's parameter name
//! (`{id}`).
//!
//! Parameters come from the controller method (through `$this->helper()`
//! calls and parent classes) or the closure: CI4 `$this->request->getGet
//! /getPost/getVar/getGetPost/getJSON/getJsonVar/getHeaderLine/getCookie/
//! getFile`, `$this->validate([...])` keys; CI3 `$this->input->get/post/
//! get_post/cookie/get_request_header`. Reads whose place the method decides
//! (`getVar`) are query parameters on GET and form fields otherwise.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{Chain, Val};
use crate::php::frame::{app_tokens, class_facts, class_index, fact_if_any, file_chains};
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::outline::Class;
use crate::php::tokens::{Kind, Token};
use crate::slim::link::text;
use crate::slim::scan::route_vars;

pub struct CodeIgniter;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ci3Route {
    pub from: String,
    pub verb: Option<String>,
    pub to: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Routes { path: String, chains: Vec<Chain> },
    Ci3 { path: String, routes: Vec<Ci3Route> },
    Class { path: String, class: Class },
}

const ROUTE_METHODS: &[&str] = &[
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "options",
    "head",
    "match",
    "add",
    "view",
    "addRedirect",
    "group",
    "environment",
    "resource",
    "presenter",
];

impl Analyzer for CodeIgniter {
    fn tech(&self) -> Tech {
        Tech::new("php_codeigniter", "PHP", "CodeIgniter")
            .aliases(["codeigniter", "php-codeigniter", "ci4"])
            .files(["*.php"])
            .detect(
                Detect::files(["composer.json"])
                    .contains(["codeigniter4/framework", "codeigniter/framework"]),
            )
            .detect(Detect::files(["*.php"]).contains([
                "CodeIgniter\\Router\\RouteCollection",
                "CodeIgniter\\Controller",
                "extends CI_Controller",
                "$routes->setDefaultController",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(toks) = app_tokens(file) else {
            return;
        };
        let line_of = |o: usize| file.line_of(o);
        let vars = route_vars(
            &toks,
            &["RouteCollection", "RouteCollectionInterface"],
            &["routes", "route", "router"],
        );
        let is_start = |t: &[Token], i: usize| {
            t[i].kind == Kind::Var
                && vars.contains(&t[i].text)
                && t.get(i + 1).is_some_and(|a| a.is("->"))
                && t.get(i + 2).is_some_and(|m| {
                    m.kind == Kind::Ident && ROUTE_METHODS.iter().any(|r| m.text == *r)
                })
        };
        let found = file_chains(&toks, &line_of, &is_start);
        fact_if_any(out, file, found, |path, chains| Fact::Routes {
            path,
            chains,
        });
        let ci3 = ci3_routes(&toks, &line_of);
        fact_if_any(out, file, ci3, |path, routes| Fact::Ci3 { path, routes });
        class_facts(out, file, &toks, &line_of, |path, class| Fact::Class {
            path,
            class,
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let mut l = Linker {
            index: class_index(&facts, |f| match f {
                Fact::Class { path, class } => Some((path, class)),
                _ => None,
            }),
            out: Vec::new(),
        };
        for f in &facts {
            match f {
                Fact::Routes { path, chains } => {
                    for c in chains {
                        l.chain(c, "", DEFAULT_NS, path, 0);
                    }
                }
                Fact::Ci3 { path, routes } => {
                    for r in routes {
                        l.ci3(r, path);
                    }
                }
                Fact::Class { .. } => {}
            }
        }
        Ok(l.out)
    }
}

/// `$route['from'] = 'to';` and `$route['from']['post'] = 'to';`.
fn ci3_routes(toks: &[Token], line_of: &dyn Fn(usize) -> u32) -> Vec<Ci3Route> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let t = &toks[i];
        if !(t.kind == Kind::Var && t.text == "route") {
            continue;
        }
        let str_at = |k: usize| {
            toks.get(k)
                .filter(|s| s.kind == Kind::Str && !s.interpolated)
        };
        if !(toks.get(i + 1).is_some_and(|b| b.is("["))
            && toks.get(i + 3).is_some_and(|b| b.is("]")))
        {
            continue;
        }
        let Some(from) = str_at(i + 2) else { continue };
        let (verb, eq) = if toks.get(i + 4).is_some_and(|b| b.is("["))
            && toks.get(i + 6).is_some_and(|b| b.is("]"))
        {
            (str_at(i + 5).map(|v| v.text.clone()), i + 7)
        } else {
            (None, i + 4)
        };
        if !toks.get(eq).is_some_and(|e| e.is("=")) {
            continue;
        }
        let Some(to) = str_at(eq + 1) else { continue };
        if matches!(
            from.text.as_str(),
            "default_controller" | "404_override" | "translate_uri_dashes"
        ) {
            continue;
        }
        out.push(Ci3Route {
            from: from.text.clone(),
            verb,
            to: to.text.clone(),
            line: line_of(t.start),
        });
    }
    out
}

/// CodeIgniter 4's default controller namespace.
const DEFAULT_NS: &str = "App\\Controllers";

struct Linker<'a> {
    index: Index<'a>,
    out: Vec<Endpoint>,
}

/// A route target: the controller class, its method, and the `$n`
/// references passed as arguments.
#[derive(Default)]
struct Target {
    class: String,
    method: String,
    refs: Vec<usize>,
    closure: Option<Handler>,
}

fn refs_of(args: &str) -> Vec<usize> {
    args.split('/')
        .map(|a| {
            a.strip_prefix('$')
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0)
        })
        .collect()
}

/// The placeholder kinds of `from`, in order, and the path with `{}` slots.
fn placeholders(from: &str) -> (Vec<String>, Vec<String>) {
    let mut kinds = Vec::new();
    let mut pieces = vec![String::new()];
    let mut chars = from.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '(' {
            let mut depth = 1;
            let mut inner = String::new();
            for d in chars.by_ref() {
                match d {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                inner.push(d);
            }
            let kind = inner
                .strip_prefix(':')
                .filter(|k| k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or("param")
                .to_string();
            kinds.push(kind);
            pieces.push(String::new());
        } else if let Some(last) = pieces.last_mut() {
            last.push(c);
        }
    }
    (kinds, pieces)
}

impl<'a> Linker<'a> {
    fn method_args(&self, class: &str, method: &str) -> Vec<String> {
        self.index
            .find(class)
            .and_then(|(_, c)| c.methods.iter().find(|m| m.name == method))
            .map(|m| m.args.iter().map(|a| a.var.clone()).collect())
            .unwrap_or_default()
    }

    /// `from` with named placeholders.
    fn url(&self, prefix: &str, from: &str, target: &Target) -> String {
        let (kinds, pieces) = placeholders(from);
        let args = self.method_args(&target.class, &target.method);
        let mut used: Vec<String> = Vec::new();
        let mut out = pieces[0].clone();
        for (n, kind) in kinds.iter().enumerate() {
            let by_ref = if target.refs.is_empty() {
                args.get(n).cloned()
            } else {
                target
                    .refs
                    .iter()
                    .position(|r| *r == n + 1)
                    .and_then(|j| args.get(j).cloned())
            };
            let mut name = by_ref.unwrap_or_else(|| kind.clone());
            if used.contains(&name) {
                let mut k = 2;
                while used.contains(&format!("{name}{k}")) {
                    k += 1;
                }
                name = format!("{name}{k}");
            }
            used.push(name.clone());
            out.push('{');
            out.push_str(&name);
            out.push('}');
            out.push_str(&pieces[n + 1]);
        }
        join_path(&[prefix, out.as_str()])
    }

    fn target(&self, v: Option<&Val>, ns: &str) -> Target {
        match v {
            Some(Val::Str(s)) => {
                let (cm, args) = s.split_once('/').unwrap_or((s, ""));
                let (class, method) = cm.split_once("::").unwrap_or((cm, "index"));
                Target {
                    class: qualify(class, ns),
                    method: method.to_string(),
                    refs: refs_of(args),
                    closure: None,
                }
            }
            Some(Val::Array(items)) if items.len() == 2 => {
                let class = match &items[0].1 {
                    Val::Class(c) | Val::Str(c) => c.clone(),
                    _ => return Target::default(),
                };
                Target {
                    class,
                    method: items[1].1.str().unwrap_or("index").to_string(),
                    ..Target::default()
                }
            }
            Some(Val::Closure(cl)) => Target {
                closure: Some(Handler::from_reads(&cl.reads)),
                ..Target::default()
            },
            _ => Target::default(),
        }
    }

    fn emit(&mut self, methods: &[&str], url: &str, t: &Target, path: &str, line: u32) {
        let h = match &t.closure {
            Some(h) => Some(h.clone()),
            None if !t.class.is_empty() => self
                .index
                .find(&t.class)
                .and_then(|(_, c)| self.index.handler(c, &t.method)),
            None => None,
        };
        for m in methods {
            let mut e = Endpoint::new(*m, url).at_path(path, line);
            if let Some(h) = &h {
                let body = if h
                    .reads
                    .items
                    .iter()
                    .any(|(w, _)| matches!(w, crate::php::request::Where::Json))
                {
                    BodyKind::Json
                } else {
                    BodyKind::Form
                };
                for p in self.index.params(h, m, url, body) {
                    e.push_param(p);
                }
            }
            self.out.push(e);
        }
    }

    fn chain(&mut self, c: &Chain, prefix: &str, ns: &str, path: &str, depth: usize) {
        let Some(p) = c.parts.first() else { return };
        let args = &p.args;
        let line = p.line;
        match p.name.as_str() {
            "group" => {
                if depth > 16 {
                    return;
                }
                let Some(name) = args.first().and_then(text) else {
                    return;
                };
                let inner = join_path(&[prefix, name.as_str()]);
                let inner_ns = args
                    .get(1)
                    .and_then(|o| o.get("namespace"))
                    .and_then(Val::str)
                    .map(|n| n.trim_start_matches('\\').to_string())
                    .unwrap_or_else(|| ns.to_string());
                for a in args.iter().skip(1) {
                    if let Val::Closure(cl) = a {
                        for ch in &cl.chains {
                            self.chain(ch, &inner, &inner_ns, path, depth + 1);
                        }
                    }
                }
            }
            "environment" => {
                for a in args.iter().skip(1) {
                    if let Val::Closure(cl) = a {
                        for ch in &cl.chains {
                            self.chain(ch, prefix, ns, path, depth + 1);
                        }
                    }
                }
            }
            "resource" | "presenter" => {
                let Some(name) = args.first().and_then(text) else {
                    return;
                };
                self.resource(
                    p.name == "presenter",
                    &name,
                    args.get(1),
                    prefix,
                    ns,
                    path,
                    line,
                );
            }
            "match" => {
                let methods: Vec<&str> = args
                    .first()
                    .map(Val::strings)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|m| http_method(m))
                    .collect();
                let Some(from) = args.get(1).and_then(text) else {
                    return;
                };
                let t = self.target(args.get(2), ns);
                let url = self.url(prefix, &from, &t);
                self.emit(&methods, &url, &t, path, line);
            }
            "add" => {
                let Some(from) = args.first().and_then(text) else {
                    return;
                };
                let t = self.target(args.get(1), ns);
                let url = self.url(prefix, &from, &t);
                self.emit(&ANY, &url, &t, path, line);
            }
            "view" | "addRedirect" => {
                let Some(from) = args.first().and_then(text) else {
                    return;
                };
                let url = self.url(prefix, &from, &Target::default());
                self.emit(&["GET"], &url, &Target::default(), path, line);
            }
            verb => {
                let Some(m) = http_method(verb) else { return };
                let Some(from) = args.first().and_then(text) else {
                    return;
                };
                let t = self.target(args.get(1), ns);
                let url = self.url(prefix, &from, &t);
                self.emit(&[m], &url, &t, path, line);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn resource(
        &mut self,
        presenter: bool,
        name: &str,
        opts: Option<&Val>,
        prefix: &str,
        ns: &str,
        path: &str,
        line: u32,
    ) {
        let list = |key: &str| -> Option<Vec<String>> {
            let v = opts?.get(key)?;
            Some(match v {
                Val::Str(s) => s.split(',').map(|x| x.trim().to_string()).collect(),
                other => other.strings(),
            })
        };
        let only = list("only");
        let except = list("except").unwrap_or_default();
        let controller = opts
            .and_then(|o| o.get("controller"))
            .and_then(|v| match v {
                Val::Str(s) => Some(qualify(s, ns)),
                Val::Class(s) => Some(s.trim_start_matches('\\').to_string()),
                _ => None,
            })
            .unwrap_or_else(|| qualify(&ucfirst(name.rsplit('/').next().unwrap_or(name)), ns));
        let id = self
            .method_args(&controller, "show")
            .into_iter()
            .next()
            .unwrap_or_else(|| "id".to_string());
        let id = format!("{{{id}}}");
        let base = join_path(&[prefix, name]);
        let routes: Vec<(&str, String, &str)> = if presenter {
            vec![
                ("GET", base.clone(), "index"),
                ("GET", format!("{base}/show/{id}"), "show"),
                ("GET", format!("{base}/{id}"), "show"),
                ("GET", format!("{base}/new"), "new"),
                ("POST", format!("{base}/create"), "create"),
                ("POST", base.clone(), "create"),
                ("GET", format!("{base}/edit/{id}"), "edit"),
                ("POST", format!("{base}/update/{id}"), "update"),
                ("GET", format!("{base}/remove/{id}"), "remove"),
                ("POST", format!("{base}/delete/{id}"), "delete"),
            ]
        } else {
            vec![
                ("GET", base.clone(), "index"),
                ("GET", format!("{base}/new"), "new"),
                ("POST", base.clone(), "create"),
                ("GET", format!("{base}/{id}"), "show"),
                ("GET", format!("{base}/{id}/edit"), "edit"),
                ("PUT", format!("{base}/{id}"), "update"),
                ("PATCH", format!("{base}/{id}"), "update"),
                ("DELETE", format!("{base}/{id}"), "delete"),
            ]
        };
        for (m, url, action) in routes {
            if only
                .as_ref()
                .is_some_and(|o| !o.iter().any(|x| x == action))
                || except.iter().any(|x| x == action)
            {
                continue;
            }
            let t = Target {
                class: controller.clone(),
                method: action.to_string(),
                ..Target::default()
            };
            self.emit(&[m], &url, &t, path, line);
        }
    }

    fn ci3(&mut self, r: &Ci3Route, path: &str) {
        let (target, args) = match r.to.find("/$") {
            Some(i) => (&r.to[..i], &r.to[i + 1..]),
            None => (r.to.as_str(), ""),
        };
        let segs: Vec<&str> = target.split('/').filter(|s| !s.is_empty()).collect();
        // `dir/controller/method`: the first segment naming a controller.
        let mut t = Target::default();
        for (k, seg) in segs.iter().enumerate() {
            let class = ucfirst(seg);
            if self.index.find(&class).is_some() || k + 1 == segs.len() || k == segs.len() - 2 {
                t.class = class;
                t.method = segs.get(k + 1).unwrap_or(&"index").to_string();
                break;
            }
        }
        t.refs = refs_of(args);
        let url = self.url("", &r.from, &t);
        let methods: Vec<&str> = match &r.verb {
            Some(v) => http_method(v).into_iter().collect(),
            None => ANY.to_vec(),
        };
        self.emit(&methods, &url, &t, path, r.line);
    }
}

/// A controller name relative to the route namespace (`\\X` is absolute).
fn qualify(class: &str, ns: &str) -> String {
    match class.strip_prefix('\\') {
        Some(abs) => abs.to_string(),
        None if ns.is_empty() => class.to_string(),
        None => format!("{ns}\\{class}"),
    }
}

fn ucfirst(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}
