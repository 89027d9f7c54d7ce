//! Map step: read one module into an [`AiohttpModule`].

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use std::ops::Range;

use super::facts::{AiohttpModule, Handler, Include, Route};
use crate::py::call::{call_at, method_call, path_target_calls, whole_dotted, Call};
use crate::py::lines::logical_lines;
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, DefKind};
use crate::py::request::request_params_with;
use crate::py::strexpr::StrExpr;
use crate::starlette::facts::{EndpointClass, Handler as Func};

fn source(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "query" => ParamKind::Query,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "json" => ParamKind::Json,
        "post" => ParamKind::Form,
        _ => return None,
    })
}

fn body_params(code: &Code<'_>, body: Range<usize>, info: &ModuleInfo) -> Vec<Param> {
    let names = ["request".to_string()];
    let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
    request_params_with(code, body, &names, &key, &source, true)
}

/// The method of a route shortcut (`get`, `add_get`, `web.post`).
fn shortcut(name: &str) -> Option<&'static str> {
    Some(match name.strip_prefix("add_").unwrap_or(name) {
        "get" => "GET",
        "post" => "POST",
        "put" => "PUT",
        "patch" => "PATCH",
        "delete" => "DELETE",
        "head" => "HEAD",
        "options" => "OPTIONS",
        "view" => "VIEW",
        _ => return None,
    })
}

/// `web.get(path, handler)` / `web.route(method, path, handler)` /
/// `web.view(path, View)` (also as `router.add_*` arguments after the owner).
fn route_def(code: &Code<'_>, call: &Call, owner: &str, line: u32) -> Option<Route> {
    let name = call.method();
    let (method, first) = if name == "route" || name == "add_route" {
        let m = code.string_at(call.arg(0, "method")?.start)?.value;
        (m.to_ascii_uppercase(), 1)
    } else {
        (shortcut(name)?.to_string(), 0)
    };
    Some(Route {
        owner: owner.to_string(),
        line,
        method,
        path: StrExpr::parse(code, call.arg(first, "path")?)?,
        handler: Handler::Ref(
            call.arg(first + 1, "handler")
                .and_then(|r| whole_dotted(code, r))?,
        ),
    })
}

pub fn scan(file: &SourceFile) -> AiohttpModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = AiohttpModule::default();

    for line in &lines {
        let Some((name, value)) = assignment_target(&code, line) else {
            continue;
        };
        let start = code.skip_ws(value);
        if let Some(call) = call_at(&code, start) {
            match call.method() {
                "Application" => {
                    // Built inside a factory that returns it?
                    if let Some(f) = defs.iter().rev().find(|d| {
                        d.kind == DefKind::Function
                            && d.parent.is_none()
                            && d.body.start <= line.start
                            && line.end <= d.body.end
                    }) {
                        let returns = code
                            .slice(f.body.clone())
                            .contains(&format!("return {name}"));
                        if returns {
                            module.factories.push((f.name.clone(), name.clone()));
                        }
                    }
                    module.apps.push(name)
                }
                "RouteTableDef" => module.tables.push(name),
                // Possibly an application factory (kept small: names
                // that read like one).
                m if m.to_ascii_lowercase().contains("app")
                    || ["create", "make", "build", "init", "setup", "get_"]
                        .iter()
                        .any(|p| m.starts_with(p)) =>
                {
                    module.built.push((name, call.callee.clone()))
                }
                _ => {}
            }
            continue;
        }
        // `routes = [web.get(...), ...]`.
        if code.text().as_bytes().get(start) == Some(&b'[') {
            let defs_in: Vec<Route> = code
                .args(start)
                .into_iter()
                .filter_map(|r| {
                    // Only `web.get(...)` (not any `.get(...)` in a list).
                    let c = call_at(&code, r.start).filter(|c| {
                        c.receiver()
                            .is_some_and(|r| r == "web" || r.ends_with(".web"))
                    })?;
                    route_def(&code, &c, &name, file.line_of(c.start))
                })
                .collect();
            if !defs_in.is_empty() {
                module.tables.push(name);
                module.routes.extend(defs_in);
            }
        }
    }

    for (i, def) in defs.iter().enumerate() {
        for deco in &def.decorators {
            let Some(call) = &deco.call else { continue };
            let Some(owner) = call.receiver() else {
                continue;
            };
            let name = call.method();
            let (method, first) = if name == "route" {
                let Some(m) = call.arg(0, "method").and_then(|r| code.string_at(r.start)) else {
                    continue;
                };
                (m.value.to_ascii_uppercase(), 1)
            } else {
                match shortcut(name) {
                    Some(m) if !name.starts_with("add_") => (m.to_string(), 0),
                    _ => continue,
                }
            };
            let Some(path) = call
                .arg(first, "path")
                .and_then(|r| StrExpr::parse(&code, r))
            else {
                continue;
            };
            let handler = match def.kind {
                DefKind::Class => Handler::Ref(def.name.clone()),
                DefKind::Function => Handler::Inline(body_params(&code, def.body.clone(), &info)),
            };
            module.routes.push(Route {
                owner: owner.to_string(),
                line: file.line_of(deco.at),
                method: if def.kind == DefKind::Class {
                    "VIEW".into()
                } else {
                    method
                },
                path,
                handler,
            });
        }
        match def.kind {
            DefKind::Function if def.parent.is_none() => {
                module.functions.push(Func {
                    name: def.name.clone(),
                    params: body_params(&code, def.body.clone(), &info),
                });
            }
            DefKind::Class if def.open_paren.is_some() => {
                module.classes.extend(EndpointClass::of(&defs, i, |b| {
                    body_params(&code, b, &info)
                }));
            }
            _ => {}
        }
    }

    // `app.router.add_get(...)`, `app.router.add_route(...)`, `app.router.add_view(...)`.
    for at in code.find_all(".router.add_") {
        let Some(call) = method_call(&code, at + ".router".len()) else {
            continue;
        };
        let Some(owner) = call.receiver().and_then(|r| r.strip_suffix(".router")) else {
            continue;
        };
        if let Some(route) = route_def(&code, &call, owner, file.line_of(call.start)) {
            module.routes.push(route);
        }
    }
    for at in code.find_all(".add_routes(") {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let Some(owner) = call.receiver() else {
            continue;
        };
        let Some(arg) = call.positional(0) else {
            continue;
        };
        let open = code.skip_ws(arg.start);
        if code.text().as_bytes().get(open) == Some(&b'[') {
            for r in code.args(open) {
                if let Some(c) = call_at(&code, r.start) {
                    if let Some(route) = route_def(&code, &c, owner, file.line_of(c.start)) {
                        module.routes.push(route);
                    }
                }
            }
        } else if let Some(target) = whole_dotted(&code, arg) {
            module.includes.push(Include {
                owner: owner.to_string(),
                target,
                prefix: StrExpr::lit(""),
            });
        }
    }
    for c in path_target_calls(&code, ".add_subapp(", "prefix", "subapp") {
        module.includes.push(Include {
            owner: c.receiver,
            target: c.target,
            prefix: c.path,
        });
    }
    module.info = info;
    module
}
