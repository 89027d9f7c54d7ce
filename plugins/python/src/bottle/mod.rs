//! Bottle (`python_bottle`), analysed with Flask's code paths
//! ([`crate::flask`]).
//!
//! Routes: `@app.route(path, method=…)` (the method also second
//! positional, a string or a list; `'ANY'` is reported as GET, POST, PUT,
//! PATCH and DELETE) and `@app.get/post/put/patch/delete` on any
//! `Bottle()` app, the same decorators bare (`from bottle import route,
//! get` — the default app) or through the module (`@bottle.route`), and the
//! call form `app.route('/x', 'POST', callback=handler)`. Apps mounted with
//! `parent.mount('/api', child)` (across files, nested) get the prefix;
//! `parent.merge(child)` adds the child's routes unprefixed. Paths may be
//! built from constants; `<id:int>` / `<name:re:…>` wildcards are reported
//! as `<id>`, old-style `:id` as is. The default method is GET.
//!
//! Parameters read from `request`: `query` / `GET` / `params` → query
//! (`.get('x')`, `['x']`, `.getall('x')`, and attribute access
//! `request.query.x`), `forms` / `POST` → form, `json` → json, `headers` and
//! `get_header('X')` → header, `cookies` and `get_cookie('x')` → cookie,
//! `files` → file.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;
use std::ops::Range;

use crate::flask::facts::{FlaskModule, Route, View};
use crate::flask::link::link_with;
use crate::flask::scan::{scan_with, Flavor};
use crate::py::call::{call_at, methods_list, whole_dotted};
use crate::py::lines::logical_lines;
use crate::py::request::find_word_in;
use crate::py::strexpr::StrExpr;

fn sources(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "query" | "GET" | "params" => ParamKind::Query,
        "forms" | "POST" => ParamKind::Form,
        "json" => ParamKind::Json,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "files" => ParamKind::File,
        _ => return None,
    })
}

/// Methods of Bottle's `FormsDict` / `HeaderDict`: `request.query.get` is
/// not a parameter named `get`.
const DICT_METHODS: [&str; 20] = [
    "get",
    "getall",
    "getone",
    "getunicode",
    "getlist",
    "decode",
    "keys",
    "values",
    "items",
    "allitems",
    "iterallitems",
    "dict",
    "copy",
    "pop",
    "update",
    "append",
    "replace",
    "setdefault",
    "raw",
    "recode_unicode",
];

/// `request.query.x` attribute reads and `request.get_header('X')` /
/// `request.get_cookie('x')` calls.
fn extra_reads(
    code: &Code<'_>,
    body: Range<usize>,
    request_names: &[String],
    key: &dyn Fn(&StrExpr) -> Option<String>,
) -> Vec<(usize, Param)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let ident = |from: usize| -> &str {
        let end = (from..bytes.len())
            .find(|&i| !is_ident_byte(bytes[i]))
            .unwrap_or(bytes.len());
        text.get(from..end).unwrap_or("")
    };
    let mut found: Vec<(usize, Param)> = Vec::new();
    for name in request_names {
        for occ in find_word_in(code, name, body.clone()) {
            if occ > 0 && bytes[occ - 1] == b'.' {
                continue;
            }
            let mut p = occ + name.len();
            if bytes.get(p) != Some(&b'.') {
                continue;
            }
            let attr = ident(p + 1);
            p += 1 + attr.len();
            match attr {
                "get_header" | "get_cookie" if bytes.get(p) == Some(&b'(') => {
                    let kind = if attr == "get_header" {
                        ParamKind::Header
                    } else {
                        ParamKind::Cookie
                    };
                    if let Some(k) = code
                        .args(p)
                        .into_iter()
                        .next()
                        .and_then(|r| StrExpr::parse(code, r))
                        .and_then(|e| key(&e))
                    {
                        found.push((occ, Param::new(kind, k)));
                    }
                }
                _ => {
                    let Some(kind) = sources(attr) else { continue };
                    if kind == ParamKind::Json || bytes.get(p) != Some(&b'.') {
                        continue;
                    }
                    let field = ident(p + 1);
                    let after = p + 1 + field.len();
                    if field.is_empty()
                        || field.starts_with("__")
                        || DICT_METHODS.contains(&field)
                        || bytes.get(after) == Some(&b'(')
                    {
                        continue;
                    }
                    found.push((occ, Param::new(kind, field)));
                }
            }
        }
    }
    found
}

pub const BOTTLE: Flavor = Flavor {
    package: "bottle",
    // Every `Bottle()` may be mounted under a prefix: they are all treated
    // as blueprints (an app never mounted is served at the root).
    apps: &[],
    blueprints: &["Bottle"],
    url_prefix_position: usize::MAX,
    prefix_keyword: "url_prefix",
    sources,
    register: "merge",
    name_first_placeholders: true,
    methods_keyword: "method",
    methods_position: Some(1),
    bare_routes: true,
    mount: Some("mount"),
    extra_reads: Some(extra_reads),
};

/// Statement-level `app.route('/x', 'POST', handler)` /
/// `app.get('/x', callback=handler)` calls.
fn call_routes(file: &SourceFile, module: &mut FlaskModule) {
    let code = file.python();
    for line in logical_lines(&code) {
        let Some(call) = call_at(&code, line.start) else {
            continue;
        };
        if code.skip_ws(call.close + 1) < line.end {
            continue;
        }
        let (receiver, method) = match call.receiver() {
            Some(r) => (r.to_string(), call.method()),
            None => {
                let Some(attr) = ["route", "get", "post", "put", "patch", "delete"]
                    .into_iter()
                    .find(|a| module.info.names_for("bottle", a).contains(&call.callee))
                else {
                    continue;
                };
                ("bottle".to_string(), attr)
            }
        };
        // Only Bottle objects (not `requests.get(url, headers)`).
        let last = receiver.rsplit('.').next().unwrap_or(&receiver);
        if !(receiver == "bottle"
            || module.objects.iter().any(|o| o.name == receiver)
            || last == "app"
            || last.ends_with("_app"))
        {
            continue;
        }
        let (methods, callback) = match method {
            "route" => (
                methods_list(&code, call.arg(1, "method")),
                call.arg(2, "callback"),
            ),
            "get" | "post" | "put" | "patch" | "delete" => (
                Some(vec![method.to_ascii_uppercase()]),
                call.arg(1, "callback"),
            ),
            _ => continue,
        };
        let Some(view) = callback.and_then(|r| whole_dotted(&code, r)) else {
            continue;
        };
        let Some(rule) = call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r)) else {
            continue;
        };
        module.routes.push(Route {
            line: file.line_of(call.start),
            receiver,
            rule,
            methods,
            view: View::Ref(view),
            shortcut: method != "route",
            scope: None,
            handler: None,
            decorators: Vec::new(),
            schemas: Vec::new(),
        });
    }
}

pub struct Bottle;

impl Analyzer for Bottle {
    fn tech(&self) -> Tech {
        crate::py::tech::package_tech("bottle", "Bottle")
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let scan = |f: &SourceFile| {
            let mut module = scan_with(f, &BOTTLE);
            call_routes(f, &mut module);
            module
        };
        crate::py::tech::record(file, out, scan, |m| !m.is_empty());
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<FlaskModule> = facts.all();
        Ok(link_with(&modules, &BOTTLE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Bottle, crate::test_support::COMPACT);

    #[test]
    fn bare_decorators_mounts_and_attribute_reads() {
        let main = "import bottle\nfrom bottle import Bottle, route, post as p, request\nfrom api import api\n\n@route('/hello/<name>')\ndef hello(name):\n    lang = request.query.lang\n    return name\n\n@p('/login')\ndef login():\n    u = request.forms.get('user')\n    t = request.get_header('X-Token')\n\n@bottle.route('/any', method='ANY')\ndef anything():\n    s = request.get_cookie('sid', secret='k')\n\nroot = bottle.default_app()\nroot.mount('/api/', api)\n";
        let api = "from bottle import Bottle, request\n\napi = Bottle()\n\n@api.route('/items/<id:int>', ['GET', 'PUT'])\ndef item(id):\n    fields = request.query.getall('fields')\n    n = request.json['name']\n    q = request.query.get('x')\n\ndef create():\n    return request.forms.title\n\napi.route('/items', 'POST', create)\n";
        assert_eq!(
            run(&[("main.py", main), ("api.py", api)]),
            vec![
                "DELETE /any [cookie:sid]",
                "GET /any [cookie:sid]",
                "GET /api/items/<id> [query:fields,json:name,query:x]",
                "GET /hello/<name> [query:lang]",
                "PATCH /any [cookie:sid]",
                "POST /any [cookie:sid]",
                "POST /api/items [form:title]",
                "POST /login [form:user,header:X-Token]",
                "PUT /any [cookie:sid]",
                "PUT /api/items/<id> [query:fields,json:name,query:x]",
            ]
        );
    }
}
