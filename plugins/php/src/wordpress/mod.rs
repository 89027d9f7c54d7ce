//! WordPress REST API (`php_wordpress`).
//!
//! Routes: `register_rest_route('ns/v1', '/route', [...])` → `/wp-json/ns/v1/route`,
//! one endpoint per method of the options (`'methods' => 'GET'`, `'GET, POST'`,
//! `['GET', 'POST']`, or the `WP_REST_Server` constants: `READABLE` = GET,
//! `CREATABLE` = POST, `EDITABLE` = POST PUT PATCH, `DELETABLE` = DELETE,
//! `ALLMETHODS` = GET POST PUT PATCH DELETE; none = GET), also for a list of
//! option arrays (one per method group). Namespace and route may be
//! literals, concatenations, or strings assigned in the same file to a
//! variable, a property (`protected $namespace = 'x'`, `$this->rest_base =
//! 'x'`) or a constant (`self::NS`). Regex groups become placeholders:
//! `(?P<id>[\d]+)` → `{id}`.
//!
//! Parameters: the keys of `'args' => [...]` (query on GET/DELETE, JSON
//! otherwise; `$this->get_collection_params()` not overridden in the file
//! gives `WP_REST_Controller`'s `context`, `page`, `per_page`, `search`), and what the callback reads (`[$this, 'm']`, `'function'`,
//! or a closure in the same file): `$request->get_param('x')` /
//! `$request['x']` (query on GET, JSON otherwise), `get_query_params()`,
//! `get_json_params()`, `get_body_params()`, `get_header('x')`,
//! `get_file_params()`.

use portolan_plugin_sdk::prelude::*;

use crate::php::expr::{value, Ctx, Val};
use crate::php::handler::{http_method, BodyKind, Handler, Index};
use crate::php::outline::classes;
use crate::php::request::reads;
use crate::php::tokens::{matching, split, tokenize, Kind, Token};
use crate::symfony::scan::is_vendor;

pub struct WordPress;

impl Analyzer for WordPress {
    fn tech(&self) -> Tech {
        Tech::new("php_wordpress", "PHP", "WordPress")
            .aliases(["wordpress", "wp", "php-wordpress"])
            .files(["*.php"])
            .detect(Detect::files(["*.php"]).contains(["register_rest_route"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_test_path(&file.path)
            || is_vendor(&path)
            || !file.content.contains("register_rest_route")
        {
            return;
        }
        for e in scan(file) {
            out.endpoint(e);
        }
    }
}

/// The query parameters of `WP_REST_Controller::get_collection_params()`.
const COLLECTION_PARAMS: [&str; 4] = ["context", "page", "per_page", "search"];

/// `$this->get_collection_params()`.
fn is_collection_params(v: &Val) -> bool {
    match v {
        Val::Call(name, args) => name.ends_with("get_collection_params") && args.is_empty(),
        Val::Expr(e) => e.replace(' ', "").ends_with("->get_collection_params()"),
        _ => false,
    }
}

fn no_chain(_: &[Token], _: usize) -> bool {
    false
}

/// `$x = 'v';`, `$this->x = 'v';`, `protected $x = 'v';`, `const X = 'v';`.
fn strings(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let lit = |k: usize| {
            toks.get(k)
                .filter(|s| s.kind == Kind::Str && !s.interpolated)
                .filter(|_| toks.get(k + 1).is_some_and(|e| e.is(";")))
                .map(|s| s.text.clone())
        };
        if t.kind == Kind::Var && toks.get(i + 1).is_some_and(|e| e.is("=")) {
            if let Some(v) = lit(i + 2) {
                out.push((t.text.clone(), v));
            }
        }
        if t.kind == Kind::Var
            && t.text == "this"
            && toks.get(i + 1).is_some_and(|a| a.is("->"))
            && toks.get(i + 3).is_some_and(|e| e.is("="))
        {
            if let Some(v) = lit(i + 4) {
                out.push((toks[i + 2].text.clone(), v));
            }
        }
        if t.is_ident("const") && toks.get(i + 2).is_some_and(|e| e.is("=")) {
            if let Some(v) = lit(i + 3) {
                out.push((toks[i + 1].text.clone(), v));
            }
        }
    }
    out
}

fn text(v: &Val, vars: &[(String, String)]) -> Option<String> {
    let var = |n: &str| {
        vars.iter()
            .rev()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.clone())
    };
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Var(n) => var(n),
        Val::ClassConst(_, n) => var(n),
        Val::Const(n) => var(n),
        Val::Expr(e) => e.strip_prefix("this -> ").and_then(var),
        Val::Concat(parts) => parts.iter().map(|p| text(p, vars)).collect(),
        _ => None,
    }
}

/// `(?P<id>\d+)` / `(?<id>…)` → `{id}`; other regex groups dropped.
fn clean(route: &str) -> String {
    let mut out = String::new();
    let mut rest = route;
    while let Some(open) = rest.find('(') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let mut depth = 0;
        let mut close = after.len();
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let group = &after[..close.min(after.len())];
        let name = group
            .strip_prefix("(?P<")
            .or_else(|| group.strip_prefix("(?<"))
            .and_then(|g| g.split_once('>'))
            .map(|(n, _)| n);
        if let Some(n) = name {
            out.push_str(&format!("{{{n}}}"));
        }
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out.trim_end_matches(['$', '?']).replace("\\/", "/")
}

fn methods_of(v: Option<&Val>) -> Vec<&'static str> {
    let mut out = Vec::new();
    let Some(v) = v else { return vec!["GET"] };
    let mut add = |m: &'static str| {
        if !out.contains(&m) {
            out.push(m);
        }
    };
    let names: Vec<String> = match v {
        Val::ClassConst(_, c) | Val::Const(c) => vec![c.clone()],
        Val::Array(items) => items
            .iter()
            .filter_map(|(_, x)| match x {
                Val::Str(s) => Some(s.clone()),
                Val::ClassConst(_, c) => Some(c.clone()),
                _ => None,
            })
            .collect(),
        Val::Str(s) => s.split(',').map(str::to_string).collect(),
        _ => Vec::new(),
    };
    for n in names {
        match n.trim() {
            "READABLE" => add("GET"),
            "CREATABLE" => add("POST"),
            "EDITABLE" => ["POST", "PUT", "PATCH"].into_iter().for_each(&mut add),
            "DELETABLE" => add("DELETE"),
            "ALLMETHODS" => ["GET", "POST", "PUT", "PATCH", "DELETE"]
                .into_iter()
                .for_each(&mut add),
            other => {
                if let Some(m) = http_method(other) {
                    add(m);
                }
            }
        }
    }
    if out.is_empty() {
        out.push("GET");
    }
    out
}

fn scan(file: &SourceFile) -> Vec<Endpoint> {
    let toks = tokenize(&file.content);
    let vars = strings(&toks);
    let line_of = |o: usize| file.line_of(o);
    let cx = Ctx {
        toks: &toks,
        line_of: &line_of,
        is_chain_start: &no_chain,
    };
    let cls = classes(&file.content, &toks, &line_of);
    let mut index = Index::default();
    for c in &cls {
        index.push(&file.path, c);
    }
    // Functions at file level: name → body token range.
    let mut functions: Vec<(String, usize, usize)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.is_ident("function")
            && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident)
            && toks.get(i + 2).is_some_and(|p| p.is("("))
        {
            let pclose = matching(&toks, i + 2).unwrap_or(i + 2);
            if let Some(open) = (pclose..toks.len()).find(|&k| toks[k].is("{") || toks[k].is(";")) {
                if toks[open].is("{") {
                    let close = matching(&toks, open).unwrap_or(toks.len());
                    functions.push((toks[i + 1].text.clone(), open + 1, close));
                }
            }
        }
    }
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !(t.is_ident("register_rest_route") && toks.get(i + 1).is_some_and(|p| p.is("("))) {
            continue;
        }
        if i > 0 && (toks[i - 1].is_ident("function") || toks[i - 1].is("->")) {
            continue;
        }
        let Some(close) = matching(&toks, i + 1) else {
            continue;
        };
        let args: Vec<Val> = split(&toks[i + 2..close], ",")
            .into_iter()
            .map(|r| value(&cx, i + 2 + r.start, i + 2 + r.end))
            .collect();
        let (Some(ns), Some(route)) = (
            args.first().and_then(|v| text(v, &vars)),
            args.get(1).and_then(|v| text(v, &vars)),
        ) else {
            continue;
        };
        let url = format!(
            "/wp-json/{}/{}",
            ns.trim_matches('/'),
            clean(route.trim_start_matches('/'))
        );
        let url = url.trim_end_matches('/').to_string();
        let line = file.line_of(t.start);
        // One options array, or a list of them.
        let groups: Vec<&Val> = match args.get(2) {
            Some(Val::Array(items))
                if items
                    .iter()
                    .all(|(k, v)| k.is_none() && matches!(v, Val::Array(_)))
                    && !items.is_empty() =>
            {
                items.iter().map(|(_, v)| v).collect()
            }
            Some(v @ Val::Array(_)) => vec![v],
            _ => Vec::new(),
        };
        if groups.is_empty() {
            out.push(Endpoint::new("GET", url.clone()).at(file, line));
            continue;
        }
        for g in groups {
            let methods = methods_of(g.get("methods"));
            let arg_names: Vec<String> = match g.get("args") {
                Some(Val::Array(items)) => items
                    .iter()
                    .filter_map(|(k, _)| k.as_ref().and_then(Val::str).map(str::to_string))
                    .collect(),
                // `WP_REST_Controller::get_collection_params()` when the
                // controller does not override it.
                Some(v)
                    if is_collection_params(v)
                        && !cls.iter().any(|c| {
                            c.methods.iter().any(|x| x.name == "get_collection_params")
                        }) =>
                {
                    COLLECTION_PARAMS.iter().map(|s| s.to_string()).collect()
                }
                _ => Vec::new(),
            };
            let handler = match g.get("callback") {
                Some(Val::Closure(c)) => Some(Handler::from_reads(&c.reads)),
                Some(Val::Array(items)) if items.len() == 2 => {
                    let m = items[1].1.str().unwrap_or_default();
                    match &items[0].1 {
                        Val::Var(v) if v == "this" => cls
                            .iter()
                            .find(|c| c.methods.iter().any(|x| x.name == m))
                            .and_then(|c| index.handler(c, m)),
                        Val::Class(c) | Val::Str(c) => index.handler_of(&format!("{c}::{m}")),
                        _ => None,
                    }
                }
                Some(Val::Str(f)) => functions
                    .iter()
                    .find(|(n, _, _)| n == f)
                    .map(|(_, a, b)| Handler::from_reads(&reads(&toks[*a..*b]))),
                _ => None,
            };
            for m in &methods {
                let mut e = Endpoint::new(*m, url.clone()).at(file, line);
                let query_like = matches!(*m, "GET" | "DELETE" | "HEAD");
                for a in &arg_names {
                    if url.contains(&format!("{{{a}}}")) {
                        continue;
                    }
                    e.push_param(if query_like {
                        Param::query(a)
                    } else {
                        Param::json(a)
                    });
                }
                if let Some(h) = &handler {
                    for p in index.params(h, m, &url, BodyKind::Json) {
                        e.push_param(p);
                    }
                }
                out.push(e);
            }
        }
    }
    out
}
