//! Map step: read one module into a [`FastApiModule`].

use portolan_plugin_sdk::{Code, SourceFile};
use std::ops::Range;

use super::facts::{FastApiModule, Func, Handler, Include, Mount, Obj, ObjKind, Route};
use crate::py::alchemy::filter_params;
use crate::py::call::{call_at, method_call, methods_list, path_target_calls, whole_dotted, Call};
use crate::py::classes::class_info;
use crate::py::context;
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::loops::{self, LoopItems};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, DefKind};
use crate::py::signature::{annotation_parts, signature, Marker, MarkerKind, SigParam};
use crate::py::strexpr::StrExpr;

/// A FastAPI-like framework (signature-driven parameters, routers with
/// prefixes): FastAPI itself and Django Ninja.
#[derive(Clone, Copy, Debug)]
pub struct ApiFlavor {
    pub package: &'static str,
    /// Application constructors (`FastAPI`, `NinjaAPI`).
    pub apps: &'static [&'static str],
    /// `include_router(router, prefix=…)` / `add_router(prefix, router)`.
    pub include: &'static str,
    /// Position of the router argument of `include`; the prefix is then
    /// keyword-only (FastAPI) or at position 0 (Ninja).
    pub include_router_position: usize,
    /// Ninja: `api_operation(methods, path)`, `Query[Model]` annotations,
    /// and a leading `request` parameter.
    pub ninja: bool,
}

pub const FASTAPI: ApiFlavor = ApiFlavor {
    package: "fastapi",
    apps: &["FastAPI"],
    include: "include_router",
    include_router_position: 0,
    ninja: false,
};

/// The methods and path of a route decorator (`@app.get(path)`) or `None`
/// when the decorator is not one. `api_route` / `route` default to GET;
/// websockets have no methods.
fn decorator_route(
    code: &Code<'_>,
    call: &Call,
    flavor: &ApiFlavor,
) -> Option<(Vec<String>, bool, StrExpr)> {
    let method = call.method();
    let path = |i: usize| call.arg(i, "path").and_then(|r| StrExpr::parse(code, r));
    Some(match method {
        "get" | "post" | "put" | "patch" | "delete" | "options" | "head" | "trace" => {
            (vec![method.to_ascii_uppercase()], false, path(0)?)
        }
        "api_route" | "route" if !flavor.ninja => (
            methods_list(code, call.keyword("methods")).unwrap_or_else(|| vec!["GET".into()]),
            false,
            path(0)?,
        ),
        "api_operation" if flavor.ninja => {
            (methods_list(code, call.arg(0, "methods"))?, false, path(1)?)
        }
        "websocket" | "websocket_route" if !flavor.ninja => (Vec::new(), true, path(0)?),
        _ => return None,
    })
}

/// Read one FastAPI module. Test files must be filtered out by the caller.
pub fn scan(file: &SourceFile) -> FastApiModule {
    scan_with(file, &FASTAPI)
}

/// Read one module of a FastAPI-like framework.
pub fn scan_with(file: &SourceFile, flavor: &ApiFlavor) -> FastApiModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = FastApiModule {
        fastapi: info.imports_from(flavor.package),
        objects: objects(&code, &lines, flavor),
        ..FastApiModule::default()
    };

    for (i, def) in defs.iter().enumerate() {
        match def.kind {
            DefKind::Function => {
                let mut params: Vec<SigParam> = signature(&code, def)
                    .into_iter()
                    .filter(|p| p.name != "self" && p.name != "cls")
                    .collect();
                if flavor.ninja {
                    ninja_params(&mut params);
                }
                let mut shared = None;
                let mut reads = None;
                for deco in &def.decorators {
                    let Some(call) = &deco.call else { continue };
                    let Some(receiver) = call.receiver() else {
                        continue;
                    };
                    let Some((methods, websocket, path)) = decorator_route(&code, call, flavor)
                    else {
                        continue;
                    };
                    // `def create_app(health_path: str = "/health"):
                    // @app.get(health_path)`: the parameter's default.
                    let path = def
                        .parent
                        .and_then(|p| defs.get(p))
                        .filter(|p| p.kind == DefKind::Function)
                        .and_then(|f| {
                            let name = path.as_name()?;
                            param_default(&code, f, name)
                        })
                        .unwrap_or(path);
                    // Once per def, not per decorator (stacked decorators).
                    let mut context = shared
                        .get_or_insert_with(|| context::handler(file, &code, def))
                        .clone();
                    if let Some(deps) = call.keyword("dependencies") {
                        context::dependencies(file, &code, deps, &mut context);
                    }
                    module.routes.push(Route {
                        line: file.line_of(deco.at),
                        receiver: receiver.to_string(),
                        path,
                        methods,
                        websocket,
                        handler: Handler::Sig(params.clone()),
                        deps: deps_arg(&code, call.keyword("dependencies")),
                        reads: reads
                            .get_or_insert_with(|| {
                                let mut r = request_reads(&code, def, &params, &info);
                                // `filters: Annotated[list[FilterTypes],
                                // Depends(provide_filters({...}))]`.
                                let sig = def.open_paren.and_then(|o| Some(o..code.matching(o)?));
                                if let Some(names) =
                                    sig.and_then(|sig| filter_params(&code, &lines, sig))
                                {
                                    r.extend(
                                        names.into_iter().map(portolan_plugin_sdk::Param::query),
                                    );
                                }
                                r
                            })
                            .clone(),
                        context: (!context.is_empty()).then_some(context),
                    });
                }
                if def.parent.is_none() && !params.is_empty() {
                    module.functions.push(Func {
                        name: def.name.clone(),
                        params,
                    });
                } else if def.parent.is_none() {
                    if let Some(inner) = depends_factory(&code, &defs, i) {
                        module.factories.push(Func {
                            name: def.name.clone(),
                            params: inner,
                        });
                    }
                }
            }
            DefKind::Class => {
                if let Some(class) = class_info(&code, &lines, &defs, i) {
                    if !class.bases.is_empty()
                        || !class.fields.is_empty()
                        || !class.attrs.is_empty()
                        || class.init.is_some()
                        || class.call.is_some()
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
                reads: Vec::new(),
                context: None,
            });
        }
    }

    let include = format!(".{}(", flavor.include);
    for at in code.find_all(&include) {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let (Some(receiver), Some(router)) = (
            call.receiver(),
            call.arg(flavor.include_router_position, "router")
                .and_then(|r| whole_dotted(&code, r)),
        ) else {
            continue;
        };
        let prefix = if flavor.include_router_position == 0 {
            call.keyword("prefix")
        } else {
            call.arg(0, "prefix")
        };
        let prefix = prefix.and_then(|r| StrExpr::parse(&code, r));
        let deps = call
            .keyword("dependencies")
            .map(|v| deps_value(&code, v, call.start))
            .unwrap_or_default();
        // `for router in ROUTERS: app.include_router(router)`.
        let routers = match loops::loop_items(&code, &lines, call.start, &router) {
            Some(LoopItems::Names(names)) => names.into_iter().map(|n| (n, false)).collect(),
            Some(LoopItems::Ref(seq)) => vec![(seq, true)],
            None => vec![(router, false)],
        };
        for (router, each) in routers {
            module.includes.push(Include {
                receiver: receiver.to_string(),
                router,
                prefix: prefix.clone(),
                deps: deps.clone(),
                each,
            });
        }
    }

    for c in path_target_calls(&code, ".mount(", "path", "app") {
        module.mounts.push(Mount {
            receiver: c.receiver,
            path: c.path,
            app: c.target,
        });
    }

    module.sequences = loops::sequences(&code, &lines);
    module.info = info;
    module
}

/// A function without parameters that defines a function and returns
/// `Depends(it)` (`def LimitBody(): def get_limit(limit: int = Body(None)):
/// …; return Depends(get_limit)`): the inner function's parameters.
fn depends_factory(
    code: &Code<'_>,
    defs: &[crate::py::outline::Def],
    index: usize,
) -> Option<Vec<SigParam>> {
    let outer = defs.get(index)?;
    let text = code.text().get(outer.body.clone())?;
    if !text.contains("Depends(") && !text.contains("Security(") {
        return None;
    }
    for (k, _) in text.match_indices("return ") {
        let at = code.skip_ws(outer.body.start + k + "return ".len());
        if !code.is_code(at) {
            continue;
        }
        let Some(call) = call_at(code, at) else {
            continue;
        };
        let Some(dep) = Marker::from_call(code, &call)
            .filter(|m| m.kind == MarkerKind::Depends)
            .and_then(|m| m.dep)
        else {
            continue;
        };
        if let Some(inner) = defs
            .iter()
            .find(|d| d.parent == Some(index) && d.kind == DefKind::Function && d.name == dep)
        {
            return Some(
                signature(code, inner)
                    .into_iter()
                    .filter(|p| p.name != "self" && p.name != "cls")
                    .collect(),
            );
        }
    }
    None
}

/// The string default of parameter `name` of the function `f`.
fn param_default(code: &Code<'_>, f: &crate::py::outline::Def, name: &str) -> Option<StrExpr> {
    let open = f.open_paren?;
    code.args(open).into_iter().find_map(|r| {
        let start = code.skip_ws(r.start);
        if code.ident_at(start)? != name {
            return None;
        }
        let parts = code.split_top_level(start, r.end, b'=');
        let value = parts.get(1)?;
        let lit = code.string_at(code.skip_ws(value.start))?;
        (!lit.interpolated && code.skip_ws(lit.end) >= value.end).then(|| StrExpr::lit(lit.value))
    })
}

/// Ninja conventions: the leading `request` is the `HttpRequest`, and
/// `Query[Model]` / `Form[Model]` / `File[UploadedFile]` annotations are
/// markers.
fn ninja_params(params: &mut Vec<SigParam>) {
    if params.first().is_some_and(|p| p.name == "request") {
        params.remove(0);
    }
    for p in params.iter_mut() {
        if p.marker.is_some() {
            continue;
        }
        let Some(kind) = p.types.first().and_then(|t| MarkerKind::from_callee(t)) else {
            continue;
        };
        if kind == MarkerKind::Depends {
            continue;
        }
        p.types.remove(0);
        p.marker = Some(Marker {
            kind,
            alias: None,
            alias_ref: None,
            keep_underscores: false,
            embed: false,
            dep: None,
        });
    }
}

/// Reads of the handler's `Request` parameter inside its body (Starlette's
/// request API), for handlers that take one.
fn request_reads(
    code: &Code<'_>,
    def: &crate::py::outline::Def,
    params: &[SigParam],
    info: &ModuleInfo,
) -> Vec<portolan_plugin_sdk::Param> {
    let Some(name) = params.iter().find_map(|p| {
        p.types
            .iter()
            .any(|t| t.rsplit('.').next() == Some("Request"))
            .then(|| p.name.clone())
    }) else {
        return Vec::new();
    };
    let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
    crate::py::request::request_params_with(
        code,
        def.body.clone(),
        &[name],
        &key,
        &crate::starlette::scan::source,
        false,
    )
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

/// `dependencies=` given as a literal list or as a name the file builds
/// before `before`: `deps = [Depends(a)]`, `deps += [Depends(b)]`,
/// `deps.append(Depends(c))`, `deps.extend([Depends(d)])` (every branch
/// counts: `if deps is None: deps = […] else: deps.append(…)`).
fn deps_value(code: &Code<'_>, value: Range<usize>, before: usize) -> Vec<String> {
    let Some(name) = whole_dotted(code, value.clone()) else {
        return deps_arg(code, Some(value));
    };
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    for at in code.find_word(&name).take_while(|&at| at < before) {
        if at > 0 && bytes.get(at - 1) == Some(&b'.') {
            continue;
        }
        let after = code.skip_inline_ws(at + name.len());
        let rest = text.get(after..).unwrap_or("");
        let found = if let Some(r) = rest.strip_prefix("+=") {
            deps_arg(code, Some(after + rest.len() - r.len()..after + rest.len()))
        } else if rest.starts_with('=') && !rest.starts_with("==") {
            deps_arg(code, Some(after + 1..after + rest.len()))
        } else if rest.starts_with(".extend(") {
            deps_arg(code, Some(after + ".extend(".len()..after + rest.len()))
        } else if rest.starts_with(".append(") {
            let open = after + ".append".len();
            deps_arg(code, Some(open..open))
        } else {
            Vec::new()
        };
        for d in found {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// `name = FastAPI(...)`, `name = APIRouter(...)`, `name = Other(...)`
/// anywhere in the file, and module-level `Name = Annotated[T, Depends(d)]`
/// aliases.
fn objects(code: &Code<'_>, lines: &[LogicalLine], flavor: &ApiFlavor) -> Vec<Obj> {
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
            m if flavor.apps.contains(&m) => ObjKind::App {
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
