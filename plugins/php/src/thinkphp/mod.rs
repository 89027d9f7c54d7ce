//! ThinkPHP (`php_thinkphp`, ThinkPHP 6 and 8).
//!
//! Route definitions are read from the route directories ThinkPHP loads:
//! `route/*.php` of a single application, and `app/<name>/route/*.php` of a
//! multi-application project, whose URLs start with `/<name>` (the default
//! application-name entry; domain binding and `app_map` renames are not
//! followed). Files elsewhere are not route files, whatever they call.
//!
//! Routes: `Route::get/post/put/patch/delete/options/head('rule', action)`,
//! `Route::any` and `Route::rule('rule', action)` without a method (ThinkPHP
//! matches every method: reported as GET, POST, PUT, PATCH and DELETE),
//! `Route::rule('rule', action, 'GET|POST')`, `Route::view` and
//! `Route::redirect` (GET). Groups `Route::group('blog', function () { … })`
//! nest to any depth and join their name to the rules with a `/` (a group
//! without a name adds nothing); the chained `->prefix('blog/')` is the
//! *action* prefix (`'read'` → `blog/read`), not a URL prefix. Resources
//! `Route::resource('blog', 'Blog')` expand to ThinkPHP's REST table
//! (index, create, save, read, edit, update, delete; `->only([...])` and
//! `->except([...])` honoured; `blog.comment` nests under `blog/:blog_id`).
//! Rules: string literals, `const`/`define()` string constants and `.`
//! concatenations; `[:name]` optional variables and `<name>` variables
//! become `:name`, a trailing `$` (full-match flag) is dropped.
//!
//! Parameters come from the action: `'index/hello'`, `'Blog/read'`,
//! `'app\controller\Blog@read'`, `[Blog::class, 'read']` (controller
//! looked up by class name, same application first) or a closure:
//! `$request->param('x')` / `Request::param('x')` / `input('x')` (query on
//! GET, form otherwise), `input('get.x')` (query), `input('post.x')`
//! (form), `input('cookie.x')`, `input('header.x')`, `$request->get('x')`,
//! `->header('X')`, `->cookie('c')`, `->file('f')`.
//!
//! Not reported: ThinkPHP's automatic `/controller/action` URLs (routes
//! that were never declared), `Route::miss` fallbacks.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{chains, Chain, Ctx, Val};
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::outline::{classes, Class};
use crate::php::tokens::{tokenize, Kind, Token};
use crate::symfony::scan::is_vendor;

pub struct ThinkPhp;

impl Analyzer for ThinkPhp {
    fn tech(&self) -> Tech {
        Tech::new("php_thinkphp", "PHP", "ThinkPHP")
            .aliases(["thinkphp", "think"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["\"topthink/framework\""]))
            .detect(Detect::files(["*.php"]).contains(["think\\facade\\Route"]))
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// A route file; `app` is the application of a multi-app project.
    Routes {
        path: String,
        app_dir: String,
        app: String,
        chains: Vec<Chain>,
    },
    Class {
        path: String,
        app: String,
        class: Class,
    },
    /// String constants (`const X = '…'`, `define('X', '…')`).
    Consts(Vec<(String, String)>),
}

/// A route file's candidate application: `route/x.php` → `("", "")`,
/// `app/admin/route/x.php` → `("app/admin/", "admin")` (confirmed at link
/// time by controllers under `app/admin/controller/`).
fn route_file(path: &str) -> Option<(String, String)> {
    let segs: Vec<&str> = path.split('/').collect();
    let dir = segs.len().checked_sub(2)?;
    if segs[dir] != "route" {
        return None;
    }
    if dir >= 2 && segs[dir - 2] == "app" {
        return Some((
            format!("{}/", segs[..dir].join("/")),
            segs[dir - 1].to_string(),
        ));
    }
    Some((String::new(), String::new()))
}

/// The application a class file belongs to (`app/admin/controller/X.php`).
fn class_app(path: &str) -> String {
    let segs: Vec<&str> = path.split('/').collect();
    for w in segs.windows(3) {
        if w[0] == "app" && w[2] == "controller" {
            return w[1].to_string();
        }
    }
    String::new()
}

fn is_start(t: &[Token], i: usize) -> bool {
    let tok = &t[i];
    tok.kind == Kind::Ident
        && tok.text.rsplit('\\').next() == Some("Route")
        && t.get(i + 1).is_some_and(|p| p.is("::"))
        && !(i > 0 && (t[i - 1].is("->") || t[i - 1].is("::") || t[i - 1].is_ident("new")))
}

pub(crate) fn consts(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let lit = |k: usize| {
            toks.get(k)
                .filter(|x| x.kind == Kind::Str && !x.interpolated)
                .map(|x| x.text.clone())
        };
        if t.is_ident("const")
            && toks.get(i + 2).is_some_and(|e| e.is("="))
            && toks.get(i + 4).is_some_and(|e| e.is(";"))
        {
            if let (Some(name), Some(v)) = (toks.get(i + 1), lit(i + 3)) {
                out.push((name.text.clone(), v));
            }
        }
        if t.is_ident("define")
            && toks.get(i + 1).is_some_and(|p| p.is("("))
            && toks.get(i + 3).is_some_and(|c| c.is(","))
            && toks.get(i + 5).is_some_and(|c| c.is(")"))
        {
            if let (Some(name), Some(v)) = (lit(i + 2), lit(i + 4)) {
                out.push((name, v));
            }
        }
    }
    out
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let path = file.slash_path();
    if is_vendor(&path) || !path.ends_with(".php") {
        return Vec::new();
    }
    let text = &file.content;
    let app = route_file(&path);
    let wants_classes = text.contains("class ");
    if app.is_none() && !wants_classes && !text.contains("const") && !text.contains("define") {
        return Vec::new();
    }
    let toks = tokenize(text);
    let mut out = Vec::new();
    let c = consts(&toks);
    if !c.is_empty() {
        out.push(Fact::Consts(c));
    }
    let line_of = |o: usize| file.line_of(o);
    if let Some((app_dir, app)) = app {
        let cx = Ctx {
            toks: &toks,
            line_of: &line_of,
            is_chain_start: &is_start,
        };
        let found = chains(&cx, 0, toks.len());
        if !found.is_empty() {
            out.push(Fact::Routes {
                path: file.path.clone(),
                app_dir,
                app,
                chains: found,
            });
        }
    }
    if wants_classes {
        for class in classes(text, &toks, &line_of) {
            out.push(Fact::Class {
                path: file.path.clone(),
                app: class_app(&path),
                class,
            });
        }
    }
    out
}

/// ThinkPHP's resource routes: (action, method, suffix).
const RESOURCE: [(&str, &str, &str); 7] = [
    ("index", "GET", ""),
    ("create", "GET", "/create"),
    ("save", "POST", ""),
    ("read", "GET", "/:id"),
    ("edit", "GET", "/:id/edit"),
    ("update", "PUT", "/:id"),
    ("delete", "DELETE", "/:id"),
];

#[derive(Clone, Default)]
struct Group {
    rule: String,
    action_prefix: String,
    depth: usize,
}

struct Linker<'a> {
    consts: BTreeMap<&'a str, &'a str>,
    classes: Vec<(&'a str, &'a Class)>,
    index: Index<'a>,
    out: Vec<Endpoint>,
}

pub fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let mut l = Linker {
        consts: BTreeMap::new(),
        classes: Vec::new(),
        index: Index::default(),
        out: Vec::new(),
    };
    for f in facts {
        match f {
            Fact::Consts(c) => {
                for (k, v) in c {
                    l.consts.entry(k.as_str()).or_insert(v.as_str());
                }
            }
            Fact::Class { app, class, path } => {
                l.classes.push((app.as_str(), class));
                l.index.push(path, class);
            }
            Fact::Routes { .. } => {}
        }
    }
    for f in facts {
        if let Fact::Routes {
            path,
            app_dir,
            app,
            chains,
        } = f
        {
            // A multi-app application has its own controllers.
            let controllers = format!("{app_dir}controller/");
            let app = if !app.is_empty()
                && facts.iter().any(
                    |f| matches!(f, Fact::Class { path, .. } if path.starts_with(&controllers)),
                ) {
                app.as_str()
            } else {
                ""
            };
            for c in chains {
                l.chain(c, &Group::default(), path, app);
            }
        }
    }
    l.out
}

/// Join rule segments with `/`.
fn join(a: &str, b: &str) -> String {
    let a = a.trim_matches('/');
    let b = b.trim_matches('/');
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

/// `blog/[:id]` → `blog/:id`, `<name?>` → `:name`, `list$` → `list`.
pub fn clean(rule: &str) -> String {
    let rule = rule.trim_end_matches('$');
    let mut out = String::with_capacity(rule.len());
    let mut chars = rule.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' | ']' => {}
            '<' => {
                out.push(':');
                for d in chars.by_ref() {
                    if d == '>' {
                        break;
                    }
                    if d != '?' {
                        out.push(d);
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// `user_info` → `UserInfo`.
pub(crate) fn studly(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

impl<'a> Linker<'a> {
    fn text(&self, v: &Val) -> Option<String> {
        match v {
            Val::Str(s) | Val::Int(s) => Some(s.clone()),
            Val::Const(c) | Val::ClassConst(_, c) => {
                self.consts.get(c.as_str()).map(|s| s.to_string())
            }
            Val::Concat(parts) => parts.iter().map(|p| self.text(p)).collect(),
            _ => None,
        }
    }

    fn chain(&mut self, c: &Chain, g: &Group, file: &str, app: &str) {
        if c.base != "Route" || g.depth > 16 {
            return;
        }
        let Some(p) = c.parts.first() else { return };
        let name = p.name.to_ascii_lowercase();
        let args = &p.args;
        // Chained modifiers.
        let modifier = |m: &str| {
            c.parts[1..]
                .iter()
                .find(|x| x.name.eq_ignore_ascii_case(m))
                .and_then(|x| x.args.first())
        };
        match name.as_str() {
            "group" | "domain" => {
                let (rule, body) = match (args.first(), args.get(1)) {
                    (Some(Val::Closure(cl)), _) => (String::new(), Some(cl)),
                    (Some(r), Some(Val::Closure(cl))) if name == "group" => {
                        let Some(r) = self.text(r) else { return };
                        (r, Some(cl))
                    }
                    (Some(_), Some(Val::Closure(cl))) => (String::new(), Some(cl)),
                    _ => (String::new(), None),
                };
                let Some(cl) = body else { return };
                let prefix = modifier("prefix").and_then(|v| self.text(v));
                let inner = Group {
                    rule: join(&g.rule, &rule),
                    action_prefix: format!("{}{}", g.action_prefix, prefix.unwrap_or_default()),
                    depth: g.depth + 1,
                };
                for c in &cl.chains {
                    self.chain(c, &inner, file, app);
                }
            }
            "resource" => {
                let (Some(rule), Some(ctrl)) =
                    (args.first().and_then(|v| self.text(v)), args.get(1))
                else {
                    return;
                };
                let Some(ctrl) = self.text(ctrl).or_else(|| match ctrl {
                    Val::Class(c) => Some(c.clone()),
                    _ => None,
                }) else {
                    return;
                };
                let only = modifier("only").map(Val::strings);
                let except = modifier("except").map(Val::strings).unwrap_or_default();
                // `blog.comment` → `blog/:blog_id/comment`.
                let mut segs: Vec<&str> = rule.split('.').collect();
                let last = segs.pop().unwrap_or_default();
                let mut base = String::new();
                for s in segs {
                    base = join(&base, &format!("{s}/:{s}_id"));
                }
                let base = join(&g.rule, &join(&base, last));
                let ctrl = format!("{}{}", g.action_prefix, ctrl);
                for (action, method, suffix) in RESOURCE {
                    if only
                        .as_ref()
                        .is_some_and(|o| !o.iter().any(|x| x == action))
                        || except.iter().any(|x| x == action)
                    {
                        continue;
                    }
                    let h = self.action(&Val::Str(format!("{ctrl}/{action}")), "", app);
                    self.push(&[method], &format!("{base}{suffix}"), h, app, file, c.line);
                }
            }
            "rule" | "any" | "view" | "redirect" => {
                let Some(rule) = args.first().and_then(|v| self.text(v)) else {
                    return;
                };
                let methods: Vec<&str> = match name.as_str() {
                    "view" | "redirect" => vec!["GET"],
                    "any" => ANY.to_vec(),
                    _ => match args.get(2).and_then(|v| self.text(v)) {
                        Some(m) if m != "*" => m.split('|').filter_map(http_method).collect(),
                        _ => ANY.to_vec(),
                    },
                };
                let h = match name.as_str() {
                    "rule" | "any" => args
                        .get(1)
                        .and_then(|v| self.action(v, &g.action_prefix, app)),
                    _ => None,
                };
                self.push(&methods, &join(&g.rule, &rule), h, app, file, c.line);
            }
            verb => {
                let Some(m) = http_method(verb) else { return };
                let Some(rule) = args.first().and_then(|v| self.text(v)) else {
                    return;
                };
                let h = args
                    .get(1)
                    .and_then(|v| self.action(v, &g.action_prefix, app));
                self.push(&[m], &join(&g.rule, &rule), h, app, file, c.line);
            }
        }
    }

    fn push(
        &mut self,
        methods: &[&str],
        rule: &str,
        h: Option<Handler>,
        app: &str,
        file: &str,
        line: u32,
    ) {
        let url = format!("/{}", join(app, &clean(rule)));
        for m in methods {
            let mut e = Endpoint::new(*m, &url).at_path(file, line);
            if let Some(h) = &h {
                for p in self.index.params(h, m, &url, BodyKind::Form) {
                    e.push_param(p);
                }
            }
            self.out.push(e);
        }
    }

    /// A route action: `'index/hello'`, `'blog.Blog/read'`,
    /// `'app\controller\Blog@read'`, `[Blog::class, 'read']`, a closure.
    fn action(&self, v: &Val, prefix: &str, app: &str) -> Option<Handler> {
        match v {
            Val::Closure(cl) => Some(Handler::from_reads(&cl.reads)),
            Val::Array(items) if items.len() == 2 => {
                let class = match &items[0].1 {
                    Val::Class(c) | Val::Str(c) => c.clone(),
                    _ => return None,
                };
                let m = items[1].1.str()?;
                self.controller(&class, m, app)
            }
            other => {
                let s = format!("{prefix}{}", self.text(other)?);
                if let Some((class, m)) = s.split_once('@').or_else(|| s.split_once("::")) {
                    return self.controller(class, m, app);
                }
                let (class, m) = s.rsplit_once('/')?;
                // `blog.Blog` → class `Blog` in `controller/blog/`.
                let class = class.rsplit(['.', '/']).next().unwrap_or(class);
                self.controller(&studly(class), m, app)
            }
        }
    }

    fn controller(&self, class: &str, method: &str, app: &str) -> Option<Handler> {
        let short = class.trim_start_matches('\\').rsplit('\\').next()?;
        let found = self
            .classes
            .iter()
            .filter(|(_, c)| c.name.eq_ignore_ascii_case(short))
            .max_by_key(|(a, _)| *a == app)?;
        self.index.handler(found.1, method)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_route_files() {
        assert_eq!(clean("blog/[:id]$"), "blog/:id");
        assert_eq!(clean("hello/<name?>"), "hello/:name");
        assert_eq!(join("blog", ":id"), "blog/:id");
        assert_eq!(join("", "/"), "");
        assert_eq!(
            route_file("route/app.php"),
            Some((String::new(), String::new()))
        );
        assert_eq!(
            route_file("svc/app/admin/route/app.php"),
            Some(("svc/app/admin/".to_string(), "admin".to_string()))
        );
        assert_eq!(route_file("app/controller/Index.php"), None);
        assert_eq!(studly("user_info"), "UserInfo");
    }
}
