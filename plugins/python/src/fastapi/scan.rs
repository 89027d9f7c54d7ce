//! Map step: read one module into a [`FastApiModule`].

use portolan_plugin_sdk::{Code, SourceFile};
use std::ops::Range;

use super::facts::{FastApiModule, Func, Handler, Include, Mount, Obj, ObjKind, Route};
use crate::py::call::{call_at, method_call, methods_list, whole_dotted, Call};
use crate::py::classes::class_info;
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, DefKind};
use crate::py::signature::{annotation_parts, signature, Marker, MarkerKind, SigParam};
use crate::py::strexpr::StrExpr;

/// The methods of a route decorator (`@app.get`) or `None` when the
/// decorator is not one. `api_route` / `route` default to GET; websockets
/// have no methods.
fn decorator_methods(code: &Code<'_>, call: &Call) -> Option<(Vec<String>, bool)> {
    let method = call.method();
    Some(match method {
        "get" | "post" | "put" | "patch" | "delete" | "options" | "head" | "trace" => {
            (vec![method.to_ascii_uppercase()], false)
        }
        "api_route" | "route" => (
            methods_list(code, call.keyword("methods")).unwrap_or_else(|| vec!["GET".into()]),
            false,
        ),
        "websocket" | "websocket_route" => (Vec::new(), true),
        _ => return None,
    })
}

/// Read one module. Test files must be filtered out by the caller.
pub fn scan(file: &SourceFile) -> FastApiModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = FastApiModule {
        fastapi: info.imports_from("fastapi"),
        objects: objects(&code, &lines),
        ..FastApiModule::default()
    };

    for (i, def) in defs.iter().enumerate() {
        match def.kind {
            DefKind::Function => {
                let params: Vec<SigParam> = signature(&code, def)
                    .into_iter()
                    .filter(|p| p.name != "self" && p.name != "cls")
                    .collect();
                for deco in &def.decorators {
                    let Some(call) = &deco.call else { continue };
                    let Some(receiver) = call.receiver() else {
                        continue;
                    };
                    let Some((methods, websocket)) = decorator_methods(&code, call) else {
                        continue;
                    };
                    let Some(path) = call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r))
                    else {
                        continue;
                    };
                    module.routes.push(Route {
                        line: file.line_of(deco.at),
                        receiver: receiver.to_string(),
                        path,
                        methods,
                        websocket,
                        handler: Handler::Sig(params.clone()),
                        deps: deps_arg(&code, call.keyword("dependencies")),
                    });
                }
                if def.parent.is_none() && !params.is_empty() {
                    module.functions.push(Func {
                        name: def.name.clone(),
                        params,
                    });
                }
            }
            DefKind::Class => {
                if let Some(class) = class_info(&code, &lines, &defs, i) {
                    if !class.bases.is_empty()
                        || !class.fields.is_empty()
                        || !class.attrs.is_empty()
                        || class.init.is_some()
                    {
                        module.classes.push(class);
                    }
                }
            }
        }
    }

    for (needle, websocket) in [
        (".add_api_route(", false),
        (".add_api_websocket_route(", true),
        (".add_websocket_route(", true),
    ] {
        for at in code.find_all(needle) {
            let Some(call) = method_call(&code, at) else {
                continue;
            };
            let Some(receiver) = call.receiver() else {
                continue;
            };
            let Some(path) = call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r)) else {
                continue;
            };
            let handler = call
                .arg(1, "endpoint")
                .and_then(|r| whole_dotted(&code, r))
                .map_or(Handler::None, Handler::Ref);
            let methods = if websocket {
                Vec::new()
            } else {
                methods_list(&code, call.keyword("methods")).unwrap_or_else(|| vec!["GET".into()])
            };
            module.routes.push(Route {
                line: file.line_of(call.start),
                receiver: receiver.to_string(),
                path,
                methods,
                websocket,
                handler,
                deps: deps_arg(&code, call.keyword("dependencies")),
            });
        }
    }

    for at in code.find_all(".include_router(") {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let (Some(receiver), Some(router)) = (
            call.receiver(),
            call.arg(0, "router").and_then(|r| whole_dotted(&code, r)),
        ) else {
            continue;
        };
        module.includes.push(Include {
            receiver: receiver.to_string(),
            router,
            prefix: call
                .keyword("prefix")
                .and_then(|r| StrExpr::parse(&code, r)),
            deps: deps_arg(&code, call.keyword("dependencies")),
        });
    }

    for at in code.find_all(".mount(") {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let (Some(receiver), Some(path), Some(app)) = (
            call.receiver(),
            call.arg(0, "path").and_then(|r| StrExpr::parse(&code, r)),
            call.arg(1, "app").and_then(|r| whole_dotted(&code, r)),
        ) else {
            continue;
        };
        module.mounts.push(Mount {
            receiver: receiver.to_string(),
            path,
            app,
        });
    }

    module.info = info;
    module
}

/// `dependencies=[Depends(a), Security(b, scopes=[…])]` → `["a", "b"]`.
fn deps_arg(code: &Code<'_>, value: Option<Range<usize>>) -> Vec<String> {
    let Some(value) = value else {
        return Vec::new();
    };
    let open = code.skip_ws(value.start);
    if !matches!(code.text().as_bytes().get(open), Some(b'[' | b'(')) {
        return Vec::new();
    }
    code.args(open)
        .into_iter()
        .filter_map(|r| call_at(code, r.start))
        .filter_map(|c| Marker::from_call(code, &c))
        .filter(|m| m.kind == MarkerKind::Depends)
        .filter_map(|m| m.dep)
        .collect()
}

/// `name = FastAPI(...)`, `name = APIRouter(...)`, `name = Other(...)`
/// anywhere in the file, and module-level `Name = Annotated[T, Depends(d)]`
/// aliases.
fn objects(code: &Code<'_>, lines: &[LogicalLine]) -> Vec<Obj> {
    let mut out = Vec::new();
    for line in lines {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let value = code.skip_ws(value);
        if let Some(alias) = annotated_alias(code, value..line.end) {
            if line.indent == 0 {
                out.push(Obj {
                    name,
                    kind: alias,
                    deps: Vec::new(),
                });
            }
            continue;
        }
        let Some(call) = call_at(code, value) else {
            continue;
        };
        if code.skip_ws(call.close + 1) < line.end {
            continue;
        }
        let expr = |k: &str| call.keyword(k).and_then(|r| StrExpr::parse(code, r));
        let kind = match call.method() {
            "FastAPI" => ObjKind::App {
                root_path: expr("root_path"),
            },
            // `APIRouter` and its subclasses (`InferringRouter`,
            // `VersionedAPIRouter`, …), which take the same `prefix=`.
            m if m.ends_with("Router") && m != "DefaultRouter" && m != "SimpleRouter" => {
                ObjKind::Router {
                    prefix: expr("prefix"),
                }
            }
            m if m.starts_with(|c: char| c.is_ascii_uppercase()) => ObjKind::Instance {
                class: call.callee.clone(),
                name: call
                    .keyword("name")
                    .and_then(|r| code.string_at(r.start))
                    .filter(|l| !l.interpolated)
                    .map(|l| l.value),
            },
            _ => continue,
        };
        out.push(Obj {
            name,
            kind,
            deps: deps_arg(code, call.keyword("dependencies")),
        });
    }
    out
}

/// `Annotated[Session, Depends(get_db)]` as a value: a reusable parameter type.
fn annotated_alias(code: &Code<'_>, value: Range<usize>) -> Option<ObjKind> {
    let text = code.slice(value.clone());
    if !(text.starts_with("Annotated[") || text.starts_with("typing.Annotated[")) {
        return None;
    }
    let (types, marker) = annotation_parts(code, value);
    Some(ObjKind::Alias { types, marker })
}
