//! Map step: read one module into a [`StarletteModule`].

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use std::ops::Range;

use super::facts::{EndpointClass, Entry, EntryKind, Handler, StarletteModule};
use crate::py::call::{call_at, method_call, methods_list, path_target_calls, whole_dotted};
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, Def, DefKind};
use crate::py::request::request_params_with;
use crate::py::strexpr::StrExpr;

/// What an attribute of Starlette's `request` reads.
pub fn source(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "query_params" => ParamKind::Query,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "json" => ParamKind::Json,
        "form" => ParamKind::Form,
        _ => return None,
    })
}

/// Parameters a function body reads from its `request`.
pub fn body_params(code: &Code<'_>, body: Range<usize>, info: &ModuleInfo) -> Vec<Param> {
    let names = ["request".to_string()];
    let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
    request_params_with(code, body, &names, &key, &source, true)
}

pub fn scan(file: &SourceFile) -> StarletteModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = StarletteModule::default();

    for line in &lines {
        route_list_line(&code, file, line, &mut module);
    }
    for (i, def) in defs.iter().enumerate() {
        match def.kind {
            DefKind::Function => {
                for deco in &def.decorators {
                    let Some(call) = &deco.call else { continue };
                    let (Some(receiver), "route") = (call.receiver(), call.method()) else {
                        continue;
                    };
                    let Some(path) = call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r))
                    else {
                        continue;
                    };
                    module.entries.push(Entry {
                        list: receiver.to_string(),
                        line: file.line_of(deco.at),
                        path,
                        kind: EntryKind::Inline {
                            methods: methods_list(&code, call.keyword("methods"))
                                .unwrap_or_else(|| vec!["GET".into()]),
                            params: body_params(&code, def.body.clone(), &info),
                        },
                    });
                }
                if def.parent.is_none()
                    && matches!(
                        first_param(&code, def).as_deref(),
                        Some("request" | "req" | "websocket")
                    )
                {
                    module.functions.push(Handler {
                        name: def.name.clone(),
                        params: body_params(&code, def.body.clone(), &info),
                    });
                }
            }
            DefKind::Class if def.open_paren.is_some() => {
                module.classes.extend(EndpointClass::of(&defs, i, |b| {
                    body_params(&code, b, &info)
                }));
            }
            _ => {}
        }
    }
    for (needle, ws) in [(".add_route(", false), (".add_websocket_route(", true)] {
        for at in code.find_all(needle) {
            let Some(call) = method_call(&code, at) else {
                continue;
            };
            let (Some(list), Some(path), Some(endpoint)) = (
                call.receiver(),
                call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r)),
                call.arg(1, "route").and_then(|r| whole_dotted(&code, r)),
            ) else {
                continue;
            };
            let kind = if ws {
                EntryKind::WebSocket { endpoint }
            } else {
                EntryKind::Route {
                    endpoint,
                    methods: methods_list(&code, call.keyword("methods")),
                }
            };
            module.entries.push(Entry {
                list: list.to_string(),
                line: file.line_of(call.start),
                path,
                kind,
            });
        }
    }
    for c in path_target_calls(&code, ".mount(", "path", "app") {
        module.entries.push(Entry {
            list: c.receiver,
            line: file.line_of(c.start),
            path: c.path,
            kind: EntryKind::MountName(c.target),
        });
    }
    module.info = info;
    module
}

fn first_param(code: &Code<'_>, def: &Def) -> Option<String> {
    let open = def.open_paren?;
    let first = code.args(open).into_iter().next()?;
    code.ident_at(first.start).map(str::to_string)
}

/// `routes = [Route(...), Mount(...)]`, `app = Starlette(routes=[...])`,
/// `app = Starlette(routes=routes)`, `router = Router([...])`.
fn route_list_line(
    code: &Code<'_>,
    file: &SourceFile,
    line: &LogicalLine,
    module: &mut StarletteModule,
) {
    let Some((name, value)) = assignment_target(code, line) else {
        return;
    };
    let start = code.skip_ws(value);
    match code.text().as_bytes().get(start) {
        Some(b'[') if code.is_code(start) => items(code, file, &name, start, &mut module.entries),
        _ => {
            let Some(call) = call_at(code, start) else {
                return;
            };
            let is_app = call.method() == "Starlette";
            if !is_app && call.method() != "Router" {
                return;
            }
            if is_app {
                module.apps.push(name.clone());
            }
            let Some(routes) = call.arg(if is_app { 1 } else { 0 }, "routes") else {
                return;
            };
            let open = code.skip_ws(routes.start);
            if code.text().as_bytes().get(open) == Some(&b'[') {
                items(code, file, &name, open, &mut module.entries);
            } else if let Some(list) = whole_dotted(code, routes) {
                module.entries.push(Entry {
                    list: name.clone(),
                    line: file.line_of(call.start),
                    path: StrExpr::lit(""),
                    kind: EntryKind::MountName(list),
                });
            }
        }
    }
}

/// The route entries of the list literal opened at `open`.
fn items(code: &Code<'_>, file: &SourceFile, list: &str, open: usize, out: &mut Vec<Entry>) {
    for item in code.args(open) {
        if let Some(e) = entry(code, file, list, item, 0) {
            out.push(e);
        }
    }
}

fn entry(
    code: &Code<'_>,
    file: &SourceFile,
    list: &str,
    range: Range<usize>,
    depth: usize,
) -> Option<Entry> {
    if depth > 8 {
        return None;
    }
    let call = call_at(code, code.skip_ws(range.start))?;
    let path = StrExpr::parse(code, call.arg(0, "path")?)?;
    let kind = match call.method() {
        "Route" => EntryKind::Route {
            endpoint: call
                .arg(1, "endpoint")
                .and_then(|r| whole_dotted(code, r))?,
            methods: methods_list(code, call.keyword("methods")),
        },
        "WebSocketRoute" => EntryKind::WebSocket {
            endpoint: call
                .arg(1, "endpoint")
                .and_then(|r| whole_dotted(code, r))?,
        },
        "Mount" => {
            if let Some(routes) = call.keyword("routes") {
                let open = code.skip_ws(routes.start);
                if code.text().as_bytes().get(open) == Some(&b'[') {
                    let inner = code
                        .args(open)
                        .into_iter()
                        .filter_map(|r| entry(code, file, "", r, depth + 1))
                        .collect();
                    EntryKind::MountInline(inner)
                } else {
                    EntryKind::MountName(whole_dotted(code, routes)?)
                }
            } else {
                EntryKind::MountName(call.arg(1, "app").and_then(|r| whole_dotted(code, r))?)
            }
        }
        _ => return None,
    };
    Some(Entry {
        list: list.to_string(),
        line: file.line_of(call.start),
        path,
        kind,
    })
}
