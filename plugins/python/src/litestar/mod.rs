//! Litestar (`python_litestar`), mapped onto FastAPI's model
//! ([`crate::fastapi`]) so prefixes and signature parameters are resolved
//! the same way:
//!
//! - handlers: functions and controller methods decorated with `@get`,
//!   `@post`, `@put`, `@patch`, `@delete`, `@head`, `@route(path,
//!   http_method=[…])` (path positional, `path=`, or a list of paths; `/`
//!   when omitted), `@websocket(path)`;
//! - a `Controller` subclass is a router whose prefix is its `path`
//!   attribute; a standalone handler is a router of its own;
//! - `Router(path=…, route_handlers=[…])` and `Litestar(route_handlers=[…])`
//!   include their handlers, controllers and routers (across files);
//! - parameters: path names, models (`data: UserIn`, dataclasses,
//!   `msgspec.Struct`) as json fields, scalars as query,
//!   `Parameter(header='X')` / `Parameter(cookie='c')` /
//!   `Parameter(query='q')`, `Body(media_type=RequestEncodingType.URL_ENCODED
//!   | MULTI_PART)` as form;
//! - dependency injection by name: a handler parameter named like a key of
//!   any `dependencies={"name": Provide(…)}` of the tree (or the `key=` of
//!   advanced-alchemy's `create_service_dependencies`) is not a client
//!   parameter; a `filters` parameter under a controller's or decorator's
//!   `dependencies=create_service_dependencies(…, filters={…})` /
//!   `create_filter_dependencies({…})` carries the filter configuration's
//!   query parameters ([`crate::py::alchemy`]).

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;

use std::collections::HashMap;
use std::ops::Range;

use crate::fastapi::facts::{FastApiModule, Handler, Include, Obj, ObjKind, Route};
use crate::py::alchemy::{filter_params, FILTER_KEYS};
use crate::py::call::{call_at, methods_list, string_list, whole_dotted, Call};
use crate::py::classes::class_info;
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, DefKind};
use crate::py::signature::{signature, Marker, MarkerKind, SigParam};
use crate::py::strexpr::StrExpr;

pub struct Litestar;

/// Route decorators and their method.
fn decorator_method(name: &str) -> Option<&'static str> {
    Some(match name {
        "get" => "GET",
        "post" => "POST",
        "put" => "PUT",
        "patch" => "PATCH",
        "delete" => "DELETE",
        "head" => "HEAD",
        "route" => "ROUTE",
        "websocket" | "websocket_listener" => "WS",
        _ => return None,
    })
}

/// The paths of a handler decorator (the owner's path when none is
/// given). Litestar drops trailing slashes, so `"/"` adds nothing.
fn paths(code: &Code<'_>, call: &Call) -> Vec<StrExpr> {
    let Some(arg) = call.arg(0, "path") else {
        return vec![StrExpr::lit("")];
    };
    let trim = |s: String| {
        if s == "/" {
            String::new()
        } else {
            s
        }
    };
    if let Some(list) = string_list(code, arg.clone()) {
        return list.into_iter().map(|s| StrExpr::lit(trim(s))).collect();
    }
    StrExpr::parse(code, arg)
        .map(|e| match e.literal() {
            Some(l) => StrExpr::lit(trim(l)),
            None => e,
        })
        .into_iter()
        .collect()
}

/// `Parameter(header=…)` / `Body(media_type=…URL_ENCODED)` as FastAPI markers.
fn litestar_marker(code: &Code<'_>, value: std::ops::Range<usize>) -> Option<Marker> {
    let call = call_at(code, code.skip_ws(value.start))?;
    let lit = |k: &str| {
        call.keyword(k)
            .and_then(|r| code.string_at(r.start))
            .map(|l| l.value)
    };
    let marker = |kind, alias| Marker {
        kind,
        alias,
        alias_ref: None,
        keep_underscores: true,
        embed: false,
        dep: None,
    };
    match call.method() {
        "Parameter" => Some(if let Some(h) = lit("header") {
            marker(MarkerKind::Header, Some(h))
        } else if let Some(c) = lit("cookie") {
            marker(MarkerKind::Cookie, Some(c))
        } else {
            marker(MarkerKind::Query, lit("query"))
        }),
        "Body" => {
            let media = call
                .keyword("media_type")
                .map(|r| code.slice(r))
                .unwrap_or("");
            let kind = if media.contains("URL_ENCODED") || media.contains("MULTI_PART") {
                MarkerKind::Form
            } else {
                MarkerKind::Body
            };
            Some(marker(kind, None))
        }
        _ => None,
    }
}

/// Signature parameters with Litestar's markers (as default or inside
/// `Annotated[…]`).
fn params(code: &Code<'_>, def: &crate::py::outline::Def) -> Vec<SigParam> {
    let Some(open) = def.open_paren else {
        return Vec::new();
    };
    let ranges = code.args(open);
    signature(code, def)
        .into_iter()
        .zip(ranges)
        .filter(|(p, _)| p.name != "self" && p.name != "cls")
        .map(|(mut p, r)| {
            if p.marker.as_ref().is_none_or(|m| m.kind == MarkerKind::Body) {
                // The first `Parameter(`/`Body(` call in the parameter text.
                let text = code.slice(r.clone());
                for needle in ["Parameter(", "Body("] {
                    if let Some(pos) = text.find(needle) {
                        let at = r.start + pos;
                        if let Some(m) = litestar_marker(code, at..r.end) {
                            p.marker = Some(m);
                            break;
                        }
                    }
                }
            }
            p
        })
        .collect()
}

fn scan(file: &SourceFile) -> FastApiModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = FastApiModule {
        fastapi: info.imports_from("litestar"),
        ..FastApiModule::default()
    };
    let mut owners: Vec<(String, Option<StrExpr>)> = Vec::new();
    // Per class: the filter parameters of its `dependencies` attribute.
    let mut class_filters: HashMap<usize, Option<Vec<String>>> = HashMap::new();

    for (i, def) in defs.iter().enumerate() {
        match def.kind {
            DefKind::Function => {
                let parent = def.parent.and_then(|p| defs.get(p));
                for deco in &def.decorators {
                    let Some(call) = &deco.call else { continue };
                    if call.receiver().is_some_and(|r| r != "litestar") {
                        continue;
                    }
                    let Some(method) = decorator_method(call.method()) else {
                        continue;
                    };
                    let owner = match parent {
                        Some(p) if p.kind == DefKind::Class => p.name.clone(),
                        Some(_) => continue,
                        None => {
                            if !owners.iter().any(|(o, _)| *o == def.name) {
                                owners.push((def.name.clone(), None));
                            }
                            def.name.clone()
                        }
                    };
                    let methods = match method {
                        "ROUTE" => methods_list(&code, call.keyword("http_method"))
                            .unwrap_or_else(|| vec!["GET".into()]),
                        "WS" => Vec::new(),
                        m => vec![m.to_string()],
                    };
                    let sig = params(&code, def);
                    let mut reads = Vec::new();
                    if sig.iter().any(|p| p.name == "filters") {
                        let own = call
                            .keyword("dependencies")
                            .and_then(|r| filter_params(&code, &lines, r));
                        let names = own.or_else(|| {
                            let p = def.parent?;
                            class_filters
                                .entry(p)
                                .or_insert_with(|| {
                                    let r = class_dependencies(&code, &lines, defs.get(p)?)?;
                                    filter_params(&code, &lines, r)
                                })
                                .clone()
                        });
                        reads = names
                            .unwrap_or_default()
                            .into_iter()
                            .map(Param::query)
                            .collect();
                    }
                    for path in paths(&code, call) {
                        module.routes.push(Route {
                            line: file.line_of(deco.at),
                            receiver: owner.clone(),
                            path,
                            methods: methods.clone(),
                            websocket: method == "WS",
                            handler: Handler::Sig(sig.clone()),
                            deps: Vec::new(),
                            reads: reads.clone(),
                            context: None,
                        });
                    }
                }
                if def.parent.is_none() {
                    let p = params(&code, def);
                    if !p.is_empty() {
                        module.functions.push(crate::fastapi::facts::Func {
                            name: def.name.clone(),
                            params: p,
                        });
                    }
                }
            }
            DefKind::Class => {
                let Some(class) = class_info(&code, &lines, &defs, i) else {
                    continue;
                };
                let has_routes = module.routes.iter().any(|r| r.receiver == def.name)
                    || defs.iter().any(|d| {
                        d.is_child_of(i)
                            && d.decorators
                                .iter()
                                .any(|x| x.call.is_some() && decorator_method(&x.name).is_some())
                    });
                if has_routes {
                    let prefix = class
                        .attrs
                        .iter()
                        .rev()
                        .find(|a| a.name == "path")
                        .map(|a| a.value.clone());
                    owners.push((def.name.clone(), prefix));
                }
                module.classes.push(class);
            }
        }
    }
    for (name, prefix) in owners {
        module.objects.push(Obj {
            name,
            kind: ObjKind::Router { prefix },
            deps: Vec::new(),
        });
    }
    // `Router(path=…, route_handlers=[…])`, `Litestar(route_handlers=[…])`.
    for line in &lines {
        let Some((name, value)) = assignment_target(&code, line) else {
            continue;
        };
        let Some(call) = call_at(&code, code.skip_ws(value)) else {
            continue;
        };
        let (kind, handlers) = match call.method() {
            "Litestar" => (
                ObjKind::App { root_path: None },
                call.arg(0, "route_handlers"),
            ),
            "Router" => (
                ObjKind::Router {
                    prefix: call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r)),
                },
                call.arg(1, "route_handlers"),
            ),
            _ => continue,
        };
        module.objects.push(Obj {
            name: name.clone(),
            kind,
            deps: Vec::new(),
        });
        let Some(handlers) = handlers else { continue };
        let open = code.skip_ws(handlers.start);
        if !matches!(code.text().as_bytes().get(open), Some(b'[' | b'(')) {
            continue;
        }
        for item in code.args(open) {
            if let Some(router) = whole_dotted(&code, item) {
                module.includes.push(Include {
                    receiver: name.clone(),
                    router,
                    prefix: None,
                    deps: Vec::new(),
                    each: false,
                });
            }
        }
    }
    module.injected = injected_names(&code);
    module.info = info;
    module
}

/// The value of a class's own `dependencies = …` attribute.
fn class_dependencies(
    code: &Code<'_>,
    lines: &[LogicalLine],
    class: &crate::py::outline::Def,
) -> Option<Range<usize>> {
    let first = lines.get(class.line + 1)?;
    if first.indent <= class.indent {
        return None;
    }
    lines
        .iter()
        .skip(class.line + 1)
        .take_while(|l| l.start < class.body.end)
        .filter(|l| l.indent == first.indent)
        .find_map(|l| match assignment_target(code, l) {
            Some((name, at)) if name == "dependencies" => Some(at..l.end),
            _ => None,
        })
}

/// Names the module registers for dependency injection: string keys of
/// `dependencies={…}` dicts and of `"key": Provide(…)` entries, the
/// `key=` of `create_service_dependencies(…)`, and the filter providers'
/// names.
fn injected_names(code: &Code<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let bytes = code.text().as_bytes();
    let mut push = |name: String| {
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    };
    for at in code.find_word("dependencies") {
        let eq = code.skip_ws(at + "dependencies".len());
        if !matches!(bytes.get(eq), Some(b'=')) || bytes.get(eq + 1) == Some(&b'=') {
            continue;
        }
        let open = code.skip_ws(eq + 1);
        if bytes.get(open) != Some(&b'{') {
            continue;
        }
        for item in code.args(open) {
            if let Some(key) = code.split_top_level(item.start, item.end, b':').first() {
                if let Some(s) = code.string_at(key.start) {
                    push(s.value);
                }
            }
        }
    }
    for at in code.find_word("Provide") {
        // `"name": Provide(…)`: back over `:` to the key's closing quote.
        let mut i = at;
        while i > 0 && bytes[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        if i == 0 || bytes[i - 1] != b':' {
            continue;
        }
        i -= 1;
        while i > 0 && bytes[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        let Some(&quote) = bytes
            .get(i.wrapping_sub(1))
            .filter(|b| matches!(b, b'"' | b'\''))
        else {
            continue;
        };
        let Some(open) = code
            .text()
            .get(..i - 1)
            .and_then(|t| t.rfind(quote as char))
        else {
            continue;
        };
        if let Some(s) = code.string_at(open).filter(|s| s.end == i) {
            push(s.value);
        }
    }
    for callee in ["create_service_dependencies", "create_filter_dependencies"] {
        for at in code.find_word(callee) {
            let Some(call) = call_at(code, at) else {
                continue;
            };
            if callee == "create_service_dependencies" {
                if let Some(s) = call.arg(1, "key").and_then(|r| code.string_at(r.start)) {
                    push(s.value);
                }
                if call.keyword("filters").is_none() {
                    continue;
                }
            }
            FILTER_KEYS.iter().for_each(|k| push(k.to_string()));
        }
    }
    out
}

impl Analyzer for Litestar {
    fn tech(&self) -> Tech {
        crate::py::tech::python_tech(
            "python_litestar",
            "Litestar",
            &["litestar", "python-litestar", "starlite"],
            "litestar",
        )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        crate::py::tech::record(file, out, scan, |m| !m.is_empty());
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<FastApiModule> = facts.all();
        Ok(crate::fastapi::link::link(&modules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(
        Litestar,
        crate::test_support::Style {
            ws: true,
            ..crate::test_support::SPACED
        }
    );

    #[test]
    fn controllers_routers_and_handlers() {
        let app = "from litestar import Litestar, Router, get\nfrom users import UserController\n\n@get('/health')\nasync def health() -> dict:\n    return {}\n\napi = Router(path='/api/v1', route_handlers=[UserController])\napp = Litestar(route_handlers=[api, health])\n";
        let users = "from dataclasses import dataclass\nfrom typing import Annotated\nfrom litestar import Controller, get, post, route, websocket\nfrom litestar.params import Parameter, Body\nfrom litestar.enums import RequestEncodingType\n\n@dataclass\nclass UserIn:\n    name: str\n    email: str\n\nclass UserController(Controller):\n    path = '/users'\n\n    @get()\n    async def list_users(self, limit: int = 10, token: Annotated[str, Parameter(header='X-Token')] = '') -> list:\n        return []\n\n    @post()\n    async def create(self, data: UserIn) -> dict:\n        return {}\n\n    @route('/{user_id:int}', http_method=['PUT', 'PATCH'])\n    async def update(self, user_id: int, data: UserIn = Body(media_type=RequestEncodingType.URL_ENCODED)) -> None:\n        pass\n\n    @get(['/me', '/self'])\n    async def me(self, request: Request) -> dict:\n        return {}\n";
        assert_eq!(
            run(&[("app.py", app), ("users.py", users)]),
            vec![
                "GET /api/v1/users [query:limit, header:X-Token]",
                "GET /api/v1/users/me []",
                "GET /api/v1/users/self []",
                "GET /health []",
                "PATCH /api/v1/users/{user_id} [form:name, form:email]",
                "POST /api/v1/users [json:name, json:email]",
                "PUT /api/v1/users/{user_id} [form:name, form:email]",
            ]
        );
    }
}
