//! Laminas MVC and Mezzio (`php_laminas`).
//!
//! **Laminas MVC**: the `'router' => ['routes' => [...]]` array of any
//! config file (`module/*/config/module.config.php`, `config/autoload/
//! *.php`): each named route's `type` (`Literal`, `Segment`, `Method`, as
//! `X::class` or `'literal'`/`'segment'`/`'method'`), `options.route`,
//! `options.defaults` (controller and action, inherited by children) and
//! `options.verb` (Method routes), `may_terminate` and `child_routes`
//! nested to any depth (children's routes are appended to the parent's).
//! A parent with children is reported only when `may_terminate` is true.
//! Segment placeholders `:id` become `{id}`; an optional part
//! `/album[/:action[/:id]]` is reported as its base (`/album`) and its full
//! form (`/album/{action}/{id}`). A route that no `Method` child restricts
//! accepts every method: GET POST PUT PATCH DELETE are reported.
//!
//! **Mezzio**: `$app->get/post/put/patch/delete('/x', Handler::class)`,
//! `$app->any(…)` (every method), `$app->route('/y', H::class, ['GET',
//! 'POST'])`; a middleware pipeline `[Auth::class, H::class]` resolves to its
//! last entry. FastRoute patterns are cleaned (`{id:\d+}` → `{id}`).
//!
//! Parameters come from the controller's `<action>Action` method or the
//! handler's `handle`/`process`/`__invoke`: `$this->params()->fromQuery('x')`
//! (query), `fromPost` (form), `fromHeader`, `fromFiles`, and PSR-7
//! `getQueryParams()['x']`, `getParsedBody()['x']` (JSON for Mezzio
//! handlers, form fields for MVC controllers), `getCookieParams()['c']`,
//! `getHeaderLine('X')`.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{value, Chain, Ctx, Val};
use crate::php::frame::{app_tokens, class_facts, class_index, fact_if_any, file_chains};
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::outline::Class;
use crate::php::tokens::{matching, split, Kind, Token};
use crate::slim::link::{clean, text};
use crate::slim::scan::route_vars;

pub struct Laminas;

/// A configured MVC route (children flattened, defaults inherited).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MvcRoute {
    pub route: String,
    pub methods: Vec<String>,
    pub controller: String,
    pub action: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Mvc {
        path: String,
        routes: Vec<MvcRoute>,
    },
    Mezzio {
        path: String,
        chains: Vec<Chain>,
    },
    /// Mezzio routes from configuration (`'routes' => [['path' => …,
    /// 'middleware' => …, 'allowed_methods' => […]], …]`); `controller` is
    /// the handler (the pipeline's last entry).
    MezzioConfig {
        path: String,
        routes: Vec<MvcRoute>,
    },
    Class {
        path: String,
        class: Class,
    },
}

const APP_METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "any", "route"];

impl Analyzer for Laminas {
    fn tech(&self) -> Tech {
        Tech::new("php_laminas", "PHP", "Laminas")
            .aliases(["laminas", "mezzio", "php-laminas", "zend"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains([
                "laminas/laminas-mvc",
                "laminas/laminas-router",
                "mezzio/mezzio",
            ]))
            .detect(Detect::files(["*.php"]).contains([
                "Laminas\\Router\\Http\\",
                "Laminas\\Mvc\\Controller\\",
                "Mezzio\\Application",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(toks) = app_tokens(file) else {
            return;
        };
        let text = &file.content;
        let line_of = |o: usize| file.line_of(o);
        if text.contains("'routes'") || text.contains("\"routes\"") {
            let routes = mvc_routes(&toks, &line_of);
            fact_if_any(out, file, routes, |path, routes| Fact::Mvc { path, routes });
            let routes = config_routes(&toks, &line_of);
            fact_if_any(out, file, routes, |path, routes| Fact::MezzioConfig {
                path,
                routes,
            });
        }
        if text.contains("->") {
            let vars = route_vars(&toks, &["Application"], &["app"]);
            let is_start = |t: &[Token], i: usize| {
                t[i].kind == Kind::Var
                    && vars.contains(&t[i].text)
                    && t.get(i + 1).is_some_and(|a| a.is("->"))
                    && t.get(i + 2).is_some_and(|m| {
                        m.kind == Kind::Ident && APP_METHODS.iter().any(|r| m.text == *r)
                    })
                    && t.get(i + 4).is_some_and(|s| s.kind == Kind::Str)
            };
            let found = file_chains(&toks, &line_of, &is_start);
            fact_if_any(out, file, found, |path, chains| Fact::Mezzio {
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
        let index = class_index(&facts, |f| match f {
            Fact::Class { path, class } => Some((path, class)),
            _ => None,
        });
        let mut out = Vec::new();
        for f in &facts {
            match f {
                Fact::Mvc { path, routes } => {
                    for r in routes {
                        let h = index
                            .find(&r.controller)
                            .and_then(|(_, c)| index.handler(c, &format!("{}Action", r.action)));
                        let methods: Vec<&str> = if r.methods.is_empty() {
                            ANY.to_vec()
                        } else {
                            r.methods.iter().filter_map(|m| http_method(m)).collect()
                        };
                        for url in expand(&r.route) {
                            emit(
                                &mut out,
                                &index,
                                &methods,
                                &url,
                                h.as_ref(),
                                path,
                                r.line,
                                BodyKind::Form,
                            );
                        }
                    }
                }
                Fact::Mezzio { path, chains } => {
                    for c in chains {
                        mezzio(&mut out, &index, c, path);
                    }
                }
                Fact::MezzioConfig { path, routes } => {
                    for r in routes {
                        let h = index.find(&r.controller).and_then(|(_, class)| {
                            ["handle", "process", "__invoke"]
                                .iter()
                                .find_map(|m| index.handler(class, m))
                        });
                        let methods: Vec<&str> = if r.methods.is_empty() {
                            ANY.to_vec()
                        } else {
                            r.methods.iter().filter_map(|m| http_method(m)).collect()
                        };
                        let full = clean(&r.route);
                        let base = clean(&without_optional(&r.route));
                        let mut urls = vec![base];
                        if !urls.contains(&full) {
                            urls.push(full);
                        }
                        for url in urls {
                            emit(
                                &mut out,
                                &index,
                                &methods,
                                &url,
                                h.as_ref(),
                                path,
                                r.line,
                                BodyKind::Json,
                            );
                        }
                    }
                }
                Fact::Class { .. } => {}
            }
        }
        Ok(out)
    }
}

#[allow(clippy::too_many_arguments)]
fn emit(
    out: &mut Vec<Endpoint>,
    index: &Index<'_>,
    methods: &[&str],
    url: &str,
    h: Option<&Handler>,
    path: &str,
    line: u32,
    body: BodyKind,
) {
    for m in methods {
        let mut e = Endpoint::new(*m, url).at_path(path, line);
        if let Some(h) = h {
            for p in index.params(h, m, url, body) {
                e.push_param(p);
            }
        }
        out.push(e);
    }
}

fn mezzio(out: &mut Vec<Endpoint>, index: &Index<'_>, c: &Chain, path: &str) {
    let Some(p) = c.parts.first() else { return };
    let Some(route) = p.args.first().and_then(text) else {
        return;
    };
    let methods: Vec<&str> = match p.name.as_str() {
        "any" => ANY.to_vec(),
        "route" => match p.args.get(2) {
            Some(Val::Const(c)) if c == "null" => ANY.to_vec(),
            None => ANY.to_vec(),
            Some(v) => v.strings().iter().filter_map(|m| http_method(m)).collect(),
        },
        verb => http_method(verb).into_iter().collect(),
    };
    let target = match p.args.get(1) {
        Some(Val::Array(items)) => items.last().map(|(_, v)| v),
        other => other,
    };
    let h = match target {
        Some(Val::Class(c)) | Some(Val::Str(c)) => index.find(c).and_then(|(_, class)| {
            ["handle", "process", "__invoke"]
                .iter()
                .find_map(|m| index.handler(class, m))
        }),
        Some(Val::Closure(cl)) => Some(Handler::from_reads(&cl.reads)),
        _ => None,
    };
    let url = clean(&route);
    emit(
        out,
        index,
        &methods,
        &url,
        h.as_ref(),
        path,
        p.line,
        BodyKind::Json,
    );
}

/// `/album[/:action[/:id]]` → `/album` and `/album/{action}/{id}`.
fn expand(route: &str) -> Vec<String> {
    let base: String = {
        let mut depth = 0;
        let mut s = String::new();
        for c in route.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ if depth == 0 => s.push(c),
                _ => {}
            }
        }
        s
    };
    let full: String = route.chars().filter(|c| !matches!(c, '[' | ']')).collect();
    let mut out = vec![segments(&base)];
    let full = segments(&full);
    if !out.contains(&full) {
        out.push(full);
    }
    out
}

/// A FastRoute pattern without its optional parts: `/visits[/{page:\d+}]`
/// → `/visits` (brackets inside a placeholder's regex are kept).
fn without_optional(route: &str) -> String {
    let mut out = String::with_capacity(route.len());
    let (mut braces, mut optional) = (0usize, 0usize);
    for c in route.chars() {
        match c {
            '{' if optional == 0 => {
                braces += 1;
                out.push(c);
            }
            '}' if optional == 0 && braces > 0 => {
                braces -= 1;
                out.push(c);
            }
            '[' if braces == 0 => optional += 1,
            ']' if braces == 0 && optional > 0 => optional -= 1,
            _ if optional == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// `:id` → `{id}`.
fn segments(route: &str) -> String {
    let mut out = String::new();
    let mut chars = route.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' {
            let mut name = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    name.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push('{');
            out.push_str(&name);
            out.push('}');
        } else {
            out.push(c);
        }
    }
    out
}

fn no_chain(_: &[Token], _: usize) -> bool {
    false
}

/// Top-level `key => value` items of the array opening at `open`:
/// `(key token index, value start, value end)`.
fn items(toks: &[Token], open: usize) -> Vec<(usize, usize, usize)> {
    let Some(close) = matching(toks, open) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in split(&toks[open + 1..close], ",") {
        let (a, b) = (open + 1 + r.start, open + 1 + r.end);
        let parts = split(&toks[a..b], "=>");
        if parts.len() == 2 {
            out.push((a + parts[0].start, a + parts[1].start, a + parts[1].end));
        }
    }
    out
}

#[derive(Clone, Default)]
struct Inherit {
    route: String,
    controller: String,
    action: String,
}

fn mvc_routes(toks: &[Token], line_of: &dyn Fn(usize) -> u32) -> Vec<MvcRoute> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if toks[i].kind == Kind::Str
            && toks[i].text == "router"
            && toks.get(i + 1).is_some_and(|a| a.is("=>"))
            && toks.get(i + 2).is_some_and(|b| b.is("["))
        {
            for (k, vs, _) in items(toks, i + 2) {
                if toks[k].kind == Kind::Str && toks[k].text == "routes" && toks[vs].is("[") {
                    route_list(toks, vs, &Inherit::default(), line_of, &mut out, 0);
                }
            }
        }
    }
    out
}

/// Mezzio's configuration-driven routes (what
/// `ApplicationConfigInjectionDelegator` injects): a `'routes'` list of
/// arrays with `'path'`, `'middleware'` (a handler or a pipeline, whose
/// last entry handles the request) and `'allowed_methods'` (strings or
/// `RequestMethodInterface::METHOD_*`; absent or `null`: every method).
/// Entries that are not literal arrays (spread helper calls) are skipped.
fn config_routes(toks: &[Token], line_of: &dyn Fn(usize) -> u32) -> Vec<MvcRoute> {
    let cx = Ctx {
        toks,
        line_of,
        is_chain_start: &no_chain,
    };
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !(toks[i].kind == Kind::Str
            && toks[i].text == "routes"
            && toks.get(i + 1).is_some_and(|a| a.is("=>"))
            && toks.get(i + 2).is_some_and(|b| b.is("[")))
        {
            continue;
        }
        let open = i + 2;
        let Some(close) = matching(toks, open) else {
            continue;
        };
        for r in split(&toks[open + 1..close], ",") {
            let start = open + 1 + r.start;
            if start >= open + 1 + r.end || !toks[start].is("[") {
                continue;
            }
            let mut route = None;
            let mut handler = String::new();
            let mut methods = Vec::new();
            for (key, a, b) in items(toks, start) {
                match toks[key].text.as_str() {
                    "path" => route = text(&value(&cx, a, b)),
                    "middleware" => {
                        let v = value(&cx, a, b);
                        let last = match &v {
                            Val::Array(items) => items.last().map(|(_, v)| v),
                            other => Some(other),
                        };
                        if let Some(Val::Class(c) | Val::Str(c)) = last {
                            handler = c.clone();
                        }
                    }
                    "allowed_methods" => {
                        if let Val::Array(items) = value(&cx, a, b) {
                            for (_, m) in items {
                                match m {
                                    Val::Str(s) => methods.push(s.to_ascii_uppercase()),
                                    Val::ClassConst(_, c) => {
                                        if let Some(m) = c.strip_prefix("METHOD_") {
                                            methods.push(m.to_string());
                                        }
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            if let Some(route) = route {
                out.push(MvcRoute {
                    route,
                    methods,
                    controller: handler,
                    action: String::new(),
                    line: line_of(toks[start].start),
                });
            }
        }
    }
    out
}

fn route_list(
    toks: &[Token],
    open: usize,
    parent: &Inherit,
    line_of: &dyn Fn(usize) -> u32,
    out: &mut Vec<MvcRoute>,
    depth: usize,
) {
    if depth > 12 {
        return;
    }
    let cx = Ctx {
        toks,
        line_of,
        is_chain_start: &no_chain,
    };
    for (k, vs, _) in items(toks, open) {
        if !toks[vs].is("[") {
            continue;
        }
        let line = line_of(toks[k].start);
        let mut ty = String::new();
        let mut opts = Val::Array(Vec::new());
        let mut terminate = false;
        let mut children = None;
        for (key, a, b) in items(toks, vs) {
            match toks[key].text.as_str() {
                "type" => {
                    ty = match value(&cx, a, b) {
                        Val::Class(c) | Val::Str(c) => {
                            c.rsplit('\\').next().unwrap_or(&c).to_ascii_lowercase()
                        }
                        _ => String::new(),
                    }
                }
                "options" => opts = value(&cx, a, b),
                "may_terminate" => terminate = toks[a].is_ident("true"),
                "child_routes" if toks[a].is("[") => children = Some(a),
                _ => {}
            }
        }
        let defaults = opts.get("defaults");
        let pick = |key: &str, inherited: &str| {
            defaults
                .and_then(|d| d.get(key))
                .and_then(|v| match v {
                    Val::Str(s) | Val::Class(s) => Some(s.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| inherited.to_string())
        };
        let route = if ty == "method" {
            String::new()
        } else {
            opts.get("route").and_then(text).unwrap_or_default()
        };
        let here = Inherit {
            route: format!("{}{route}", parent.route),
            controller: pick("controller", &parent.controller),
            action: pick("action", &parent.action),
        };
        let methods: Vec<String> = if ty == "method" {
            opts.get("verb")
                .and_then(text)
                .map(|v| v.split(',').map(|m| m.trim().to_string()).collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        match children {
            Some(c) => {
                if terminate {
                    out.push(MvcRoute {
                        route: here.route.clone(),
                        methods: methods.clone(),
                        controller: here.controller.clone(),
                        action: here.action.clone(),
                        line,
                    });
                }
                route_list(toks, c, &here, line_of, out, depth + 1);
            }
            None => out.push(MvcRoute {
                route: here.route,
                methods,
                controller: here.controller,
                action: if here.action.is_empty() {
                    "index".into()
                } else {
                    here.action
                },
                line,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastroute_optional_parts() {
        assert_eq!(
            without_optional("/links/{code:[a-z]+}/visits[/{page:\\d+}]"),
            "/links/{code:[a-z]+}/visits"
        );
        assert_eq!(without_optional("/a[/b[/c]]"), "/a");
    }

    #[test]
    fn optional_segments() {
        assert_eq!(
            expand("/album[/:action[/:id]]"),
            ["/album", "/album/{action}/{id}"]
        );
        assert_eq!(expand("/tracks/:id"), ["/tracks/{id}"]);
    }
}
