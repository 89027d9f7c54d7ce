//! Hyperf (`php_hyperf`).
//!
//! **Route files** (`config/routes.php` and any PHP file calling the
//! `Hyperf\HttpServer\Router\Router` facade): `Router::get/post/put/patch/
//! delete/head/options('/x', handler)`, `Router::addRoute(['GET', 'POST'],
//! '/y', handler)` (a method string `'GET'` too), `Router::addGroup('/api',
//! function () { … }, ['middleware' => […]])` nested to any depth, and
//! `Router::addServer('name', function () { … })` (routes of another
//! server, no prefix). Handlers: `'App\Controller\C@m'`, `'C::m'`,
//! `[C::class, 'm']` or a closure. FastRoute patterns are cleaned
//! (`{id:\d+}` → `{id}`); an optional tail `[/{x}]` is reported in its full
//! form.
//!
//! **Annotations / attributes** on controller classes (PHP 8 `#[…]` or
//! docblock `@…(…)`): `Controller(prefix: "/user")` with `GetMapping`,
//! `PostMapping`, `PutMapping`, `PatchMapping`, `DeleteMapping`,
//! `RequestMapping(path: "x", methods: ["GET", "POST"])` (methods also as
//! `"GET,POST"`; default GET and POST) on methods. As in Hyperf, a
//! mapping path starting with `/` ignores the prefix, no path is the
//! snake-cased method name (`userInfo` → `/user/user_info`), an empty path
//! (`path: ""`) is the prefix itself, and an empty prefix is derived from the class name
//! (`App\Controller\Admin\ReportController` → `/admin/report`).
//! `AutoController(prefix: "/x")` exposes every public method as
//! `/x/<method>` with GET and POST (Hyperf also adds HEAD, which the host
//! would fold into GET), and `index` also as `/x`.
//!
//! Parameters come from the handler (through `$this->helper()` calls and
//! parent classes): `$request->input('x')` / `$this->request->input('x')`
//! (query on GET/HEAD, JSON body otherwise — Hyperf parses JSON bodies into
//! the same bag), `query`, `post` (form), `header`, `cookie`, `file`.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{Chain, Val};
use crate::php::frame::{app_tokens, class_facts, class_index, fact_if_any, file_chains};
use crate::php::handler::{http_method, BodyKind, Handler, Index};
use crate::php::inflect::lower_words;
use crate::php::outline::{Attr, Class};
use crate::php::tokens::{Kind, Token};
use crate::slim::link::{clean, text};

pub struct Hyperf;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Routes { path: String, chains: Vec<Chain> },
    Class { path: String, class: Class },
}

const ROUTER_METHODS: &[&str] = &[
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "head",
    "options",
    "addRoute",
    "addGroup",
    "addServer",
];

const MAPPINGS: &[(&str, &str)] = &[
    ("GetMapping", "GET"),
    ("PostMapping", "POST"),
    ("PutMapping", "PUT"),
    ("PatchMapping", "PATCH"),
    ("DeleteMapping", "DELETE"),
];

impl Analyzer for Hyperf {
    fn tech(&self) -> Tech {
        Tech::new("php_hyperf", "PHP", "Hyperf")
            .aliases(["hyperf", "php-hyperf"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains([
                "hyperf/http-server",
                "hyperf/framework",
                "hyperf/hyperf-skeleton",
            ]))
            .detect(Detect::files(["*.php"]).contains([
                "Hyperf\\HttpServer\\Router\\Router",
                "Hyperf\\HttpServer\\Annotation\\",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(toks) = app_tokens(file) else {
            return;
        };
        let text = &file.content;
        let line_of = |o: usize| file.line_of(o);
        if text.contains("Router::") {
            let is_start = |t: &[Token], i: usize| {
                t[i].kind == Kind::Ident
                    && (t[i].text == "Router" || t[i].text.ends_with("\\Router"))
                    && t.get(i + 1).is_some_and(|a| a.is("::"))
                    && t.get(i + 2).is_some_and(|m| {
                        m.kind == Kind::Ident && ROUTER_METHODS.iter().any(|r| m.text == *r)
                    })
            };
            let found = file_chains(&toks, &line_of, &is_start);
            fact_if_any(out, file, found, |path, chains| Fact::Routes {
                path,
                chains,
            });
        }
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
                        l.chain(c, "", path, 0);
                    }
                }
                Fact::Class { path, class } => l.controller(class, path),
            }
        }
        Ok(l.out)
    }
}

struct Linker<'a> {
    index: Index<'a>,
    out: Vec<Endpoint>,
}

/// `Str::snake` of one path segment: `UserInfo` → `user_info`.
fn snake(s: &str) -> String {
    lower_words(s, '_')
}

/// Hyperf's prefix for a controller without one: the namespace after
/// `\Controller\`, the class name without `Controller`, snake-cased.
fn default_prefix(class: &Class) -> String {
    let fq = class.fqcn();
    let rest = match fq.find("\\Controller\\") {
        Some(i) => &fq[i + "\\Controller\\".len()..],
        None => class.name.as_str(),
    };
    let rest = rest.replacen("Controller", "", 1);
    let segs: Vec<String> = rest
        .split('\\')
        .filter(|s| !s.is_empty())
        .map(snake)
        .collect();
    format!("/{}", segs.join("/"))
}

fn attr_str<'v>(a: &'v Attr, name: &str, pos: usize) -> Option<&'v Val> {
    a.named(name).or_else(|| a.positional(pos))
}

impl<'a> Linker<'a> {
    fn emit(&mut self, methods: &[&str], url: &str, h: Option<&Handler>, path: &str, line: u32) {
        for m in methods {
            let mut e = Endpoint::new(*m, url).at_path(path, line);
            if let Some(h) = h {
                for p in self.index.params(h, m, url, BodyKind::Json) {
                    e.push_param(p);
                }
            }
            self.out.push(e);
        }
    }

    fn handler(&self, v: Option<&Val>) -> Option<Handler> {
        match v? {
            Val::Str(s) => self.index.handler_of(s),
            Val::Array(items) if items.len() == 2 => {
                let class = match &items[0].1 {
                    Val::Class(c) | Val::Str(c) => c.clone(),
                    _ => return None,
                };
                let method = items[1].1.str()?;
                let (_, c) = self.index.find(&class)?;
                self.index.handler(c, method)
            }
            Val::Closure(cl) => Some(Handler::from_reads(&cl.reads)),
            _ => None,
        }
    }

    fn chain(&mut self, c: &Chain, prefix: &str, path: &str, depth: usize) {
        if depth > 16 {
            return;
        }
        let Some(p) = c.parts.first() else { return };
        let args = &p.args;
        match p.name.as_str() {
            "addGroup" | "addServer" => {
                let inner = if p.name == "addGroup" {
                    match args.first().and_then(text) {
                        Some(g) => format!("{prefix}{g}"),
                        None => return,
                    }
                } else {
                    prefix.to_string()
                };
                for a in args.iter().skip(1) {
                    if let Val::Closure(cl) = a {
                        for ch in &cl.chains {
                            self.chain(ch, &inner, path, depth + 1);
                        }
                    }
                }
            }
            "addRoute" => {
                let methods: Vec<&str> = match args.first() {
                    Some(Val::Str(s)) => s.split(',').filter_map(http_method).collect(),
                    Some(v) => v.strings().iter().filter_map(|m| http_method(m)).collect(),
                    None => return,
                };
                let Some(route) = args.get(1).and_then(text) else {
                    return;
                };
                let url = clean(&format!("{prefix}{route}"));
                let h = self.handler(args.get(2));
                self.emit(&methods, &url, h.as_ref(), path, p.line);
            }
            verb => {
                let Some(m) = http_method(verb) else { return };
                let Some(route) = args.first().and_then(text) else {
                    return;
                };
                let url = clean(&format!("{prefix}{route}"));
                let h = self.handler(args.get(1));
                self.emit(&[m], &url, h.as_ref(), path, p.line);
            }
        }
    }

    fn controller(&mut self, class: &'a Class, path: &str) {
        let index = &self.index;
        let find = |n: &str| class.attrs.iter().find(|a| a.name == n);
        if let Some(auto) = find("AutoController") {
            let prefix = attr_str(auto, "prefix", 0)
                .and_then(text)
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| default_prefix(class));
            let prefix = format!("/{}", prefix.trim_matches('/'));
            let mut found = Vec::new();
            for m in &class.methods {
                if m.hidden || m.name.starts_with("__") {
                    continue;
                }
                let h = index.handler(class, &m.name);
                found.push((format!("{prefix}/{}", m.name), h.clone(), m.line));
                if m.name == "index" {
                    found.push((prefix.clone(), h, m.line));
                }
            }
            for (url, h, line) in found {
                self.emit(&["GET", "POST"], &url, h.as_ref(), path, line);
            }
            return;
        }
        let Some(ctrl) = find("Controller") else {
            return;
        };
        let prefix = attr_str(ctrl, "prefix", 0)
            .and_then(text)
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| default_prefix(class));
        let prefix = format!("/{}", prefix.trim_matches('/'));
        let mut found = Vec::new();
        for m in &class.methods {
            for a in &m.attrs {
                let methods: Vec<&str> =
                    if let Some((_, verb)) = MAPPINGS.iter().find(|(n, _)| *n == a.name) {
                        vec![*verb]
                    } else if a.name == "RequestMapping" {
                        match a.named("methods").or_else(|| a.positional(1)) {
                            Some(Val::Str(s)) => s.split(',').filter_map(http_method).collect(),
                            Some(v) => v.strings().iter().filter_map(|x| http_method(x)).collect(),
                            None => vec!["GET", "POST"],
                        }
                    } else {
                        continue;
                    };
                // No path: the snake-cased method name; an empty one: the
                // prefix itself (Hyperf's DispatcherFactory).
                let url = match attr_str(a, "path", 0).and_then(text) {
                    None => format!("{prefix}/{}", snake(&m.name)),
                    Some(route) if route.is_empty() => prefix.clone(),
                    Some(route) if route.starts_with('/') => route,
                    Some(route) => format!("{prefix}/{route}"),
                };
                let url = clean(&url.replace("//", "/"));
                found.push((methods, url, index.handler(class, &m.name), a.line));
            }
        }
        for (methods, url, h, line) in found {
            self.emit(&methods, &url, h.as_ref(), path, line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_prefixes() {
        let c = Class {
            namespace: "App\\Controller\\Admin".into(),
            name: "UserInfoController".into(),
            ..Class::default()
        };
        assert_eq!(default_prefix(&c), "/admin/user_info");
    }
}
