//! Azure Functions HTTP triggers, in every programming model:
//!
//! - `function.json` (`bindings[]` of type `httpTrigger`: `route`,
//!   `methods`), the function being its folder;
//! - Node.js v4 (`app.http('name', { route, methods, handler })`, and
//!   `app.get/post/put/patch/deleteRequest('name', …)`) in files importing
//!   `@azure/functions`;
//! - Python v2 (`@app.route(route=…, methods=[…])` on a `func.FunctionApp`
//!   or `func.Blueprint`, name from `@app.function_name` or the `def`);
//! - .NET (`[HttpTrigger(AuthorizationLevel.X, "get", "post", Route = "…")]`
//!   under `[Function("Name")]` / `[FunctionName("Name")]`).
//!
//! URL: `/<routePrefix>/<route>`; the route defaults to the function name;
//! the prefix is `api` unless the nearest `host.json` above sets
//! `extensions.http.routePrefix` (`""` removes it). Route constraints and
//! optional markers are dropped (`{id:int?}` → `{id}`, `{*rest}` →
//! `{rest}`). Methods: those declared, else GET, POST, PUT, PATCH and
//! DELETE. Location: the binding, call, decorator or attribute.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::lex::{Code, Syntax};
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::common::yaml::{self, str_of};
use crate::common::ANY_METHODS;

pub struct AzureFunctions;

const FILES: [&str; 9] = [
    "host.json",
    "function.json",
    "*.js",
    "*.mjs",
    "*.cjs",
    "*.ts",
    "*.mts",
    "*.py",
    "*.cs",
];

#[derive(Serialize, Deserialize)]
enum Fact {
    /// Folder of a `host.json` (with `/`) and its route prefix.
    Prefix(String, String),
    Route(Route),
}

#[derive(Serialize, Deserialize)]
struct Route {
    file: String,
    line: u32,
    route: String,
    methods: Vec<String>,
}

impl Analyzer for AzureFunctions {
    fn tech(&self) -> Tech {
        Tech::new("azure_functions", "Specification", "Azure Functions")
            .specification()
            .aliases(["azure_function", "azfunc"])
            .files(FILES)
            .requires_any([
                "httpTrigger",
                "routePrefix",
                "@azure/functions",
                "azure.functions",
                "HttpTrigger",
            ])
            .detect(Detect::files(FILES).contains([
                "\"httpTrigger\"",
                "@azure/functions",
                "azure.functions",
                "[HttpTrigger(",
                "HttpTrigger(AuthorizationLevel",
            ]))
            .supports(Supports {
                query: false,
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) || is_test_path(&path) {
            return;
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        let dir = &path[..path.len() - name.len()];
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        match (name, ext) {
            ("host.json", _) => host_json(file, dir, out),
            ("function.json", _) => function_json(file, &path, dir, out),
            (_, "py") if file.content.contains("azure.functions") => python(file, &path, out),
            (_, "cs") if file.content.contains("HttpTrigger") => csharp(file, &path, out),
            (_, "py" | "cs") => {}
            _ if file.content.contains("@azure/functions") => node(file, &path, out),
            _ => {}
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut prefixes: Vec<(String, String)> = Vec::new();
        let mut routes = Vec::new();
        for f in facts.iter::<Fact>() {
            match f {
                Fact::Prefix(d, p) => prefixes.push((d, p)),
                Fact::Route(r) => routes.push(r),
            }
        }
        let mut out = Vec::new();
        for r in routes {
            // The nearest host.json above the file.
            let prefix = prefixes
                .iter()
                .filter(|(d, _)| r.file.starts_with(d.as_str()))
                .max_by_key(|(d, _)| d.len())
                .map_or("api", |(_, p)| p.as_str());
            let url = url(prefix, &r.route);
            let methods: Vec<String> = if r.methods.is_empty() {
                ANY_METHODS.iter().map(|m| m.to_string()).collect()
            } else {
                r.methods.clone()
            };
            for m in &methods {
                out.push(Endpoint::new(m, url.clone()).at_path(r.file.clone(), r.line));
            }
        }
        Ok(out)
    }
}

/// `/<prefix>/<route>` with constraints dropped.
fn url(prefix: &str, route: &str) -> String {
    let mut segs: Vec<String> = Vec::new();
    for part in prefix.split('/').chain(route.split('/')) {
        if part.is_empty() {
            continue;
        }
        if let Some(inner) = part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
            let name = inner
                .trim_start_matches('*')
                .split(':')
                .next()
                .unwrap_or("")
                .trim_end_matches('?');
            segs.push(format!("{{{name}}}"));
        } else {
            segs.push(part.to_string());
        }
    }
    format!("/{}", segs.join("/"))
}

fn methods_of(list: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in list {
        let m = m
            .rsplit('.')
            .next()
            .unwrap_or(&m)
            .trim()
            .to_ascii_uppercase();
        if !m.is_empty() && !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

fn host_json(file: &SourceFile, dir: &str, out: &mut Output) {
    let Some(doc) = yaml::documents(file).into_iter().next() else {
        return;
    };
    let prefix = doc
        .value
        .pointer("/extensions/http/routePrefix")
        .or_else(|| doc.value.pointer("/http/routePrefix"))
        .and_then(str_of);
    if let Some(prefix) = prefix {
        out.fact(&Fact::Prefix(dir.to_string(), prefix));
    }
}

fn function_json(file: &SourceFile, path: &str, dir: &str, out: &mut Output) {
    let Some(doc) = yaml::documents(file).into_iter().next() else {
        return;
    };
    if doc.value.get("disabled").and_then(Value::as_bool) == Some(true) {
        return;
    }
    let function = dir
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_string();
    let bindings = doc.value.get("bindings").and_then(Value::as_array);
    for (i, b) in bindings.into_iter().flatten().enumerate() {
        if b.get("type").and_then(Value::as_str) != Some("httpTrigger") {
            continue;
        }
        let route = b
            .get("route")
            .and_then(str_of)
            .unwrap_or_else(|| function.clone());
        let methods = methods_of(
            b.get("methods")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(str_of),
        );
        let line = doc.line(&[Seg::Key("bindings"), Seg::Index(i)]);
        out.fact(&Fact::Route(Route {
            file: path.to_string(),
            line,
            route,
            methods,
        }));
    }
}

/// Strings of a `[…]` argument range (or a single string).
fn strings_in(code: &Code<'_>, range: std::ops::Range<usize>) -> Vec<String> {
    let text = code.slice(range.clone());
    if !text.trim_start().starts_with('[') {
        return code
            .string_at(range.start)
            .map(|s| vec![s.value])
            .unwrap_or_else(|| {
                // `func.HttpMethod.GET`, `HttpMethod.Post`
                vec![text.trim().to_string()]
            });
    }
    let open = range.start + text.find('[').unwrap_or(0);
    code.args(open)
        .into_iter()
        .map(|r| {
            code.string_at(r.start)
                .map(|s| s.value)
                .unwrap_or_else(|| code.slice(r).trim().to_string())
        })
        .collect()
}

const NODE_CALLS: [(&str, &str); 6] = [
    ("http", ""),
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("deleteRequest", "DELETE"),
];

fn node(file: &SourceFile, path: &str, out: &mut Output) {
    let code = Code::new(&file.content, Syntax::JAVASCRIPT);
    for (call, method) in NODE_CALLS {
        let needle = format!("app.{call}(");
        for at in code.find_all(&needle) {
            if at > 0
                && code
                    .text()
                    .as_bytes()
                    .get(at - 1)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.')
            {
                continue;
            }
            let open = at + needle.len() - 1;
            let args = code.args(open);
            let Some(name) = args.first().and_then(|r| code.string_at(r.start)) else {
                continue;
            };
            let mut route = name.value.clone();
            let mut methods: Vec<String> = if method.is_empty() {
                Vec::new()
            } else {
                vec![method.to_string()]
            };
            if let Some(opts) = args
                .get(1)
                .filter(|r| code.slice((*r).clone()).starts_with('{'))
            {
                for prop in code.args(opts.start) {
                    let Some((key, value)) = code.keyword_arg(prop) else {
                        continue;
                    };
                    match key {
                        "route" => {
                            if let Some(s) = code.string_at(value.start) {
                                route = s.value;
                            }
                        }
                        "methods" => methods = methods_of(strings_in(&code, value)),
                        _ => {}
                    }
                }
            }
            out.fact(&Fact::Route(Route {
                file: path.to_string(),
                line: file.line_of(at),
                route,
                methods,
            }));
        }
    }
}

fn python(file: &SourceFile, path: &str, out: &mut Output) {
    let code = Code::new(&file.content, Syntax::PYTHON);
    let text = code.text();
    for at in code.find_all(".route(") {
        // `@app.route(` / `@bp.route(`: a decorator.
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let head = text[line_start..at].trim();
        if !head.starts_with('@') || head.contains(['(', ' ']) {
            continue;
        }
        let open = at + ".route".len();
        let Some(close) = code.matching(open) else {
            continue;
        };
        let mut route = None;
        let mut methods = Vec::new();
        for arg in code.args(open) {
            match code.keyword_arg(arg.clone()) {
                Some(("route", v)) => route = code.string_at(v.start).map(|s| s.value),
                Some(("methods", v)) => methods = methods_of(strings_in(&code, v)),
                None if route.is_none() => route = code.string_at(arg.start).map(|s| s.value),
                _ => {}
            }
        }
        // The function: `@x.function_name(name="…")` among the decorators,
        // else the `def` that follows.
        let rest_start = close + 1;
        let Some(def) = code.find_all_in("def ", rest_start..text.len()).next() else {
            continue;
        };
        let between = &text[rest_start..def];
        let named = between.find("function_name(").and_then(|i| {
            let s = code.string_at(code.skip_ws(rest_start + i + "function_name(".len()))?;
            Some(s.value)
        });
        let named = named.or_else(|| {
            between.find("name=").and_then(|i| {
                code.string_at(rest_start + i + "name=".len())
                    .map(|s| s.value)
            })
        });
        let def_name = code.ident_at(def + 4).map(str::to_string);
        let Some(route) = route.or(named).or(def_name) else {
            continue;
        };
        out.fact(&Fact::Route(Route {
            file: path.to_string(),
            line: file.line_of(at),
            route,
            methods,
        }));
    }
}

fn csharp(file: &SourceFile, path: &str, out: &mut Output) {
    let code = Code::new(&file.content, Syntax::CSHARP);
    let text = code.text();
    let mut last_name: Option<(usize, String)> = None;
    let mut names: Vec<(usize, String)> = Vec::new();
    for needle in ["[Function(", "[FunctionName("] {
        for at in code.find_all(needle) {
            if let Some(s) = code.string_at(at + needle.len()) {
                names.push((at, s.value));
            }
        }
    }
    names.sort();
    for at in code.find_all("HttpTrigger(") {
        if text[..at].ends_with(|c: char| c.is_ascii_alphanumeric()) {
            continue;
        }
        for (pos, n) in &names {
            if *pos < at {
                last_name = Some((*pos, n.clone()));
            }
        }
        let open = at + "HttpTrigger".len();
        let mut route = None;
        let mut methods = Vec::new();
        for arg in code.args(open) {
            let slice = code.slice(arg.clone());
            if let Some(rest) = slice.strip_prefix("Route") {
                let rest = rest.trim_start();
                if let Some(v) = rest.strip_prefix('=') {
                    let off = arg.start + slice.len() - v.len();
                    route = code.string_at(off).map(|s| s.value);
                }
            } else if let Some(s) = code.string_at(arg.start).filter(|s| s.end >= arg.end) {
                methods.push(s.value);
            }
        }
        let Some(route) = route.or_else(|| last_name.as_ref().map(|(_, n)| n.clone())) else {
            continue;
        };
        out.fact(&Fact::Route(Route {
            file: path.to_string(),
            line: file.line_of(at),
            route,
            methods: methods_of(methods),
        }));
    }
}
