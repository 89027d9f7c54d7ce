//! CakePHP (`php_cakephp`, 3 to 5).
//!
//! Routes: every route-builder chain in a PHP file (`config/routes.php`,
//! plugins' `config/routes.php`), on `$routes`/`$builder`/`$r` or any
//! variable typed `RouteBuilder`, and static `Router::…` (CakePHP 3):
//! `connect('/x', ['controller' => 'A', 'action' => 'b'])` or
//! `connect('/x', 'A::b')` (every method, GET POST PUT PATCH DELETE,
//! unless `'_method' => …` in the defaults or a chained `->setMethods([...])`),
//! `get/post/put/patch/delete/options/head('/x', target)`, `redirect`
//! (GET), `resources('Articles', [options], fn)` (index/view/add/edit/delete;
//! `only` by map key: index, view, create, update, delete), `path`, `map` extra actions, `prefix`; nested resources under
//! `/articles/{article_id}`), and the nesting calls `scope('/api',
//! [defaults], fn)`, `prefix('Admin', ['path' => …], fn)` (path `/admin`,
//! controllers in `Controller\Admin`) and `plugin('Blog', ['path' => …],
//! fn)`, to any depth. Legacy `:id` placeholders become `{id}`; greedy
//! `/*` and `/**` tails are dropped; `fallbacks()` (`/{controller}/…`) is not
//! a concrete route and is not reported.
//!
//! Parameters come from the controller action (`App\Controller\<Prefix>\
//! <Name>Controller::<action>`, through `$this->helper()` calls and parent
//! classes): `$this->request->getQuery('x')` (query), `getData('x')` (body:
//! JSON under `/api`, form fields elsewhere), `getHeaderLine('X')`,
//! `getCookie('c')`, `getUploadedFile('f')`.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{Chain, Part, Val};
use crate::php::frame::{app_tokens, class_facts, class_index, fact_if_any, file_chains};
use crate::php::handler::{http_method, BodyKind, Index, ANY};
use crate::php::inflect::singularize;
use crate::php::outline::Class;
use crate::php::tokens::{Kind, Token};
use crate::slim::link::text;
use crate::slim::scan::route_vars;

pub struct CakePhp;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Routes { path: String, chains: Vec<Chain> },
    Class { path: String, class: Class },
}

const ROUTE_METHODS: &[&str] = &[
    "connect",
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "options",
    "head",
    "redirect",
    "resources",
    "scope",
    "prefix",
    "plugin",
];

impl Analyzer for CakePhp {
    fn tech(&self) -> Tech {
        Tech::new("php_cakephp", "PHP", "CakePHP")
            .aliases(["cakephp", "cake", "php-cakephp"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["\"cakephp/cakephp\""]))
            .detect(Detect::files(["*.php"]).contains([
                "Cake\\Routing\\RouteBuilder",
                "Cake\\Routing\\Router",
                "Cake\\Controller\\Controller",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(toks) = app_tokens(file) else {
            return;
        };
        let line_of = |o: usize| file.line_of(o);
        let vars = route_vars(&toks, &["RouteBuilder"], &["routes", "builder", "r"]);
        let is_start = |t: &[Token], i: usize| {
            let head = (t[i].kind == Kind::Var
                && vars.contains(&t[i].text)
                && t.get(i + 1).is_some_and(|a| a.is("->")))
                || (t[i].kind == Kind::Ident
                    && t[i].text.rsplit('\\').next() == Some("Router")
                    && t.get(i + 1).is_some_and(|a| a.is("::")));
            head && t
                .get(i + 2)
                .is_some_and(|m| m.kind == Kind::Ident && ROUTE_METHODS.contains(&m.text.as_str()))
        };
        let found = file_chains(&toks, &line_of, &is_start);
        fact_if_any(out, file, found, |path, chains| Fact::Routes {
            path,
            chains,
        });
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
            if let Fact::Routes { path, chains } = f {
                let s = Scope {
                    path: String::new(),
                    prefix: String::new(),
                    file: path.clone(),
                    depth: 0,
                };
                for c in chains {
                    l.chain(c, &s);
                }
            }
        }
        Ok(l.out)
    }
}

#[derive(Clone)]
struct Scope {
    path: String,
    /// Controller namespace prefix (`Admin`, `Admin\Api`).
    prefix: String,
    file: String,
    depth: usize,
}

struct Linker<'a> {
    index: Index<'a>,
    out: Vec<Endpoint>,
}

/// `MyAdmin` → `my-admin`.
fn dasherize(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c == '_' {
            out.push('-');
        } else {
            out.push(c);
        }
    }
    out
}

/// `:id` → `{id}`; a greedy `/*` or `/**` tail dropped.
fn clean(path: &str) -> String {
    let p = path
        .strip_suffix("/**")
        .or_else(|| path.strip_suffix("/*"))
        .unwrap_or(path);
    p.split('/')
        .map(|seg| match seg.strip_prefix(':') {
            Some(name) if !name.is_empty() => format!("{{{name}}}"),
            _ => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn str_opt<'v>(opts: Option<&'v Val>, key: &str) -> Option<&'v str> {
    opts?.get(key)?.str()
}

fn closure_of(args: &[Val]) -> Option<&[Chain]> {
    args.iter().find_map(|a| match a {
        Val::Closure(c) => Some(c.chains.as_slice()),
        _ => None,
    })
}

impl<'a> Linker<'a> {
    fn chain(&mut self, c: &Chain, s: &Scope) {
        let Some(p) = c.parts.first() else { return };
        if s.depth > 16 {
            return;
        }
        let args = &p.args;
        let opts = args.get(1).filter(|v| matches!(v, Val::Array(_)));
        match p.name.as_str() {
            "scope" => {
                let Some(path) = args.first().and_then(text) else {
                    return;
                };
                let mut inner = s.clone();
                inner.path = join_path(&[s.path.as_str(), path.as_str()]);
                if let Some(pre) = str_opt(opts, "prefix") {
                    inner.prefix = self.sub_prefix(&s.prefix, pre);
                }
                inner.depth += 1;
                self.nested(args, &inner);
            }
            "prefix" | "plugin" => {
                let Some(name) = args.first().and_then(text) else {
                    return;
                };
                let seg = str_opt(opts, "path")
                    .map(str::to_string)
                    .unwrap_or_else(|| dasherize(&name));
                let mut inner = s.clone();
                inner.path = join_path(&[s.path.as_str(), seg.as_str()]);
                if p.name == "prefix" {
                    inner.prefix = self.sub_prefix(&s.prefix, &name);
                }
                inner.depth += 1;
                self.nested(args, &inner);
            }
            "resources" => {
                let Some(name) = args.first().and_then(text) else {
                    return;
                };
                self.resources(&name, opts, args, s, p.line);
            }
            "connect" | "redirect" => {
                let Some(path) = args.first().and_then(text) else {
                    return;
                };
                let target = args.get(1);
                let mut methods: Vec<&str> = target
                    .and_then(|t| t.get("_method"))
                    .map(|m| m.strings().iter().filter_map(|x| http_method(x)).collect())
                    .unwrap_or_default();
                if let Some(set) = c.parts.iter().skip(1).find(|x| x.name == "setMethods") {
                    methods = methods_of(set);
                }
                if p.name == "redirect" {
                    methods = vec!["GET"];
                }
                if methods.is_empty() {
                    methods = ANY.to_vec();
                }
                let url = join_path(&[s.path.as_str(), clean(&path).as_str()]);
                let handler = if p.name == "redirect" { None } else { target };
                self.emit(&methods, &url, handler, s, p.line);
            }
            verb => {
                let Some(m) = http_method(verb) else { return };
                let Some(path) = args.first().and_then(text) else {
                    return;
                };
                let url = join_path(&[s.path.as_str(), clean(&path).as_str()]);
                self.emit(&[m], &url, args.get(1), s, p.line);
            }
        }
    }

    fn nested(&mut self, args: &[Val], s: &Scope) {
        if let Some(chains) = closure_of(args) {
            for c in chains {
                self.chain(c, s);
            }
        }
    }

    fn sub_prefix(&self, outer: &str, name: &str) -> String {
        let name = name.replace('/', "\\");
        let name = name
            .split('\\')
            .map(|w| {
                let mut c = w.chars();
                match c.next() {
                    Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                    None => String::new(),
                }
            })
            .collect::<Vec<_>>()
            .join("\\");
        if outer.is_empty() {
            name
        } else {
            format!("{outer}\\{name}")
        }
    }

    /// Controller class and action of a route target.
    fn action_of(&self, target: Option<&Val>, s: &Scope) -> Option<(String, String)> {
        let (controller, action, prefix) = match target? {
            Val::Str(t) => {
                let (c, a) = t.split_once("::")?;
                let (pre, c) = match c.rsplit_once('/') {
                    Some((pre, c)) => (self.sub_prefix(&s.prefix, pre), c),
                    None => (s.prefix.clone(), c),
                };
                (c.to_string(), a.to_string(), pre)
            }
            v @ Val::Array(_) => {
                let c = v.get("controller")?.str()?.to_string();
                let a = v
                    .get("action")
                    .and_then(Val::str)
                    .unwrap_or("index")
                    .to_string();
                let pre = match v.get("prefix").and_then(Val::str) {
                    Some(p) => self.sub_prefix("", p),
                    None => s.prefix.clone(),
                };
                (c, a, pre)
            }
            _ => return None,
        };
        let ns = if prefix.is_empty() {
            "App\\Controller".to_string()
        } else {
            format!("App\\Controller\\{prefix}")
        };
        Some((format!("{ns}\\{controller}Controller"), action))
    }

    fn emit(&mut self, methods: &[&str], url: &str, target: Option<&Val>, s: &Scope, line: u32) {
        let h = self
            .action_of(target, s)
            .and_then(|(c, a)| self.index.handler_of(&format!("{c}::{a}")));
        let body = if url.starts_with("/api") {
            BodyKind::Json
        } else {
            BodyKind::Form
        };
        for m in methods {
            let mut e = Endpoint::new(*m, url).at_path(&s.file, line);
            if let Some(h) = &h {
                for p in self.index.params(h, m, url, body) {
                    e.push_param(p);
                }
            }
            self.out.push(e);
        }
    }

    fn resources(&mut self, name: &str, opts: Option<&Val>, args: &[Val], s: &Scope, line: u32) {
        let seg = str_opt(opts, "path")
            .map(str::to_string)
            .unwrap_or_else(|| portolan_plugin_sdk::text::camel_to_snake(name));
        let base = join_path(&[s.path.as_str(), seg.as_str()]);
        let only: Option<Vec<String>> = opts.and_then(|o| o.get("only")).map(Val::strings);
        let mut inner = s.clone();
        if let Some(pre) = str_opt(opts, "prefix") {
            inner.prefix = self.sub_prefix(&s.prefix, pre);
        }
        // (method, url, key for `only`, action)
        let mut routes: Vec<(&str, String, &str, String)> = vec![
            ("GET", base.clone(), "index", "index".into()),
            ("GET", format!("{base}/{{id}}"), "view", "view".into()),
            ("POST", base.clone(), "create", "add".into()),
            ("PUT", format!("{base}/{{id}}"), "update", "edit".into()),
            ("PATCH", format!("{base}/{{id}}"), "update", "edit".into()),
            (
                "DELETE",
                format!("{base}/{{id}}"),
                "delete",
                "delete".into(),
            ),
        ];
        routes.retain(|(_, _, k, _)| only.as_ref().is_none_or(|o| o.iter().any(|x| x == k)));
        // `'map' => ['publish' => ['action' => 'publish', 'method' => 'PUT', 'path' => '{id}/publish']]`
        if let Some(Val::Array(map)) = opts.and_then(|o| o.get("map")) {
            for (k, v) in map {
                let Some(key) = k.as_ref().and_then(Val::str) else {
                    continue;
                };
                let action = v.get("action").and_then(Val::str).unwrap_or(key);
                let path = v.get("path").and_then(Val::str).unwrap_or(key);
                let methods: Vec<&'static str> = v
                    .get("method")
                    .map(|m| m.strings().iter().filter_map(|x| http_method(x)).collect())
                    .unwrap_or_else(|| vec!["GET"]);
                for m in methods {
                    routes.push((
                        m,
                        join_path(&[base.as_str(), path]),
                        key,
                        action.to_string(),
                    ));
                }
            }
        }
        for (m, url, _, action) in routes {
            let target = Val::Array(vec![
                (
                    Some(Val::Str("controller".into())),
                    Val::Str(name.to_string()),
                ),
                (Some(Val::Str("action".into())), Val::Str(action)),
            ]);
            self.emit(&[m], &url, Some(&target), &inner, line);
        }
        // Nested resources: `/articles/{article_id}/comments`.
        if let Some(chains) = closure_of(args) {
            let mut nested = inner.clone();
            let id = format!(
                "{{{}_id}}",
                singularize(&portolan_plugin_sdk::text::camel_to_snake(name))
            );
            nested.path = join_path(&[base.as_str(), id.as_str()]);
            nested.depth += 1;
            for c in chains {
                self.chain(c, &nested);
            }
        }
    }
}

fn methods_of(p: &Part) -> Vec<&'static str> {
    p.args
        .first()
        .map(|v| v.strings().iter().filter_map(|x| http_method(x)).collect())
        .unwrap_or_default()
}
