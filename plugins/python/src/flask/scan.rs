//! Map step: read one module into a [`FlaskModule`].

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use std::ops::Range;

use super::classful;
use super::facts::{
    CallArg, CallSite, Class, ConfigValue, FlaskModule, Func, Obj, ObjKind, Prefix, Registration,
    Route, SchemaArg, SchemaMeta, Scope, View,
};
use crate::py::call::{
    call_at, list_expr, method_call, methods_list, whole_dotted, Call, ListPart,
};
use crate::py::config;
use crate::py::context;
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::module::{assignment_target, Const, ModuleInfo};
use crate::py::outline::{outline, Def, DefKind};
use crate::py::request::{request_params_with, request_reads_with};
use crate::py::strexpr::{StrExpr, MAX_DEPTH};

/// Functions a `MethodView` dispatches to (Flask's `http_method_funcs`).
pub const HTTP_METHOD_FUNCS: [&str; 8] = [
    "get", "post", "put", "patch", "delete", "head", "options", "trace",
];

/// Route decorator shortcuts (`@app.get`) and their method.
fn shortcut(method: &str) -> Option<&'static str> {
    Some(match method {
        "get" => "GET",
        "post" => "POST",
        "put" => "PUT",
        "patch" => "PATCH",
        "delete" => "DELETE",
        _ => return None,
    })
}

/// A Flask-like framework: the same decorators, blueprints and
/// Werkzeug-style `request`, under other names.
#[derive(Clone, Copy, Debug)]
pub struct Flavor {
    /// The package (`flask`, `quart`, `sanic`).
    pub package: &'static str,
    /// Application constructors.
    pub apps: &'static [&'static str],
    /// Blueprint constructors and the position of `url_prefix` among their
    /// arguments.
    pub blueprints: &'static [&'static str],
    pub url_prefix_position: usize,
    /// The prefix keyword (`url_prefix`; Robyn's `prefix`).
    pub prefix_keyword: &'static str,
    /// What an attribute of `request` reads (Werkzeug's names for Flask).
    pub sources: fn(&str) -> Option<portolan_plugin_sdk::ParamKind>,
    /// The registration method (`register_blueprint`, `blueprint`).
    pub register: &'static str,
    /// Placeholders are written `<name:type>` (Sanic) rather than `<type:name>`.
    pub name_first_placeholders: bool,
    /// The methods argument of `.route(...)`: keyword (`methods`; Bottle's
    /// `method`) and, when it may be passed positionally, its position.
    pub methods_keyword: &'static str,
    pub methods_position: Option<usize>,
    /// Route decorators without a receiver, imported from the package
    /// (Bottle's `@route('/x')` / `@get('/x')` on the default app).
    pub bare_routes: bool,
    /// `recv.<mount>(prefix, child)`: a child app served under a prefix
    /// (Bottle's `mount`).
    pub mount: Option<&'static str>,
    /// Request reads the Werkzeug-style scan does not see (Bottle's
    /// `request.query.name` attributes, `request.get_header('X')`).
    pub extra_reads: Option<ExtraReads>,
}

/// Extra request reads of a framework: (code, handler body, request names,
/// key resolver) → parameters with the offsets of their reads.
pub type ExtraReads = fn(
    &Code<'_>,
    Range<usize>,
    &[String],
    &dyn Fn(&StrExpr) -> Option<String>,
) -> Vec<(usize, Param)>;

pub const FLASK: Flavor = Flavor {
    package: "flask",
    apps: &["Flask", "APIFlask"],
    blueprints: &["Blueprint", "APIBlueprint"],
    url_prefix_position: 5,
    prefix_keyword: "url_prefix",
    sources: crate::py::request::source_kind,
    register: "register_blueprint",
    name_first_placeholders: false,
    methods_keyword: "methods",
    methods_position: None,
    bare_routes: false,
    mount: None,
    extra_reads: None,
};

/// Read one Flask module. Test files must be filtered out by the caller.
pub fn scan(file: &SourceFile) -> FlaskModule {
    scan_with(file, &FLASK)
}

/// Read one module of a Flask-like framework.
pub fn scan_with(file: &SourceFile, flavor: &Flavor) -> FlaskModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut request_names = vec!["request".to_string()];
    request_names.extend(
        info.names_for(flavor.package, "request")
            .into_iter()
            .filter(|n| n != "request"),
    );
    let key = |e: &StrExpr| e.resolve(&mut |n| local_const(&info, n, 0));
    let params = |body: Range<usize>| {
        let Some(extra) = flavor.extra_reads else {
            return request_params_with(&code, body, &request_names, &key, &flavor.sources, false);
        };
        let mut found = request_reads_with(
            &code,
            body.clone(),
            &request_names,
            &key,
            &flavor.sources,
            false,
        );
        found.extend(extra(&code, body, &request_names, &key));
        found.sort_by_key(|(at, _)| *at);
        let mut out: Vec<Param> = Vec::new();
        for (_, p) in found {
            if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                out.push(p);
            }
        }
        out
    };
    // Bare route decorators (`@route`, `@get`): local name → decorator.
    let bare: Vec<(String, String)> = if flavor.bare_routes {
        ["route", "get", "post", "put", "patch", "delete"]
            .iter()
            .flat_map(|attr| {
                info.names_for(flavor.package, attr)
                    .into_iter()
                    .map(move |local| (local, attr.to_string()))
            })
            .collect()
    } else {
        Vec::new()
    };

    let mut module = FlaskModule {
        // APIFlask re-exports Flask's objects under its own package.
        flask: info.imports_from(flavor.package)
            || (flavor.package == "flask" && info.imports_from("apiflask")),
        objects: objects(&code, &lines, flavor),
        lists: module_lists(&code, &lines),
        ..FlaskModule::default()
    };
    // flask-classful views (Flask only): classes may be views or their
    // mixins in any module that uses Flask or flask-classful.
    let classy_decorators = classful::Decorators::new(&info);
    let classy_aware = flavor.package == "flask"
        && (module.flask || info.imports_from("flask_classful") || !classy_decorators.is_empty());

    for (i, def) in defs.iter().enumerate() {
        // Computed once per def, not per decorator (stacked decorators).
        let mut view_params = None;
        let mut shared_handler = None;
        let mut webargs: Option<Vec<Param>> = None;
        let mut other_names: Option<Vec<String>> = None;
        let mut schema_list: Option<Vec<SchemaArg>> = None;
        for deco in &def.decorators {
            let Some(call) = &deco.call else { continue };
            let Some(mut route) =
                decorator_route(&code, call, def, &mut view_params, &params, flavor, &bare)
            else {
                continue;
            };
            if let View::Params(list) = &mut route.view {
                for p in webargs
                    .get_or_insert_with(|| webargs_params(&code, def))
                    .iter()
                {
                    if !list.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                        list.push(p.clone());
                    }
                }
            }
            let enclosing = def
                .parent
                .and_then(|p| defs.get(p))
                .filter(|p| p.kind == DefKind::Function);
            let handler = (def.kind == DefKind::Function)
                .then(|| {
                    shared_handler
                        .get_or_insert_with(|| context::handler(file, &code, def))
                        .clone()
                })
                .filter(|h| !h.is_empty());
            let decorators = match route.view {
                View::Params(_) => other_names
                    .get_or_insert_with(|| decorator_names(def))
                    .iter()
                    .filter(|name| **name != deco.name)
                    .cloned()
                    .collect(),
                _ => Vec::new(),
            };
            let schemas = match route.view {
                View::Params(_) => schema_list
                    .get_or_insert_with(|| schema_args(&code, def))
                    .clone(),
                _ => Vec::new(),
            };
            module.routes.push(Route {
                line: file.line_of(deco.at),
                scope: enclosing.and_then(|f| scope_for(&code, f, &route, &module.objects)),
                handler,
                decorators,
                schemas,
                ..route
            });
        }
        match def.kind {
            DefKind::Function => {
                let in_class = def
                    .parent
                    .and_then(|p| defs.get(p))
                    .is_some_and(|p| p.kind == DefKind::Class);
                if !in_class {
                    let params = params(def.body.clone());
                    if !params.is_empty() {
                        module.functions.push(Func {
                            name: def.name.clone(),
                            params,
                            schemas: Vec::new(),
                        });
                    }
                }
            }
            DefKind::Class => {
                let classy = classy_aware
                    .then(|| {
                        classful::classy(file, &code, &lines, &defs, i, &classy_decorators, &params)
                    })
                    .flatten();
                if let Some(class) = class_fact(&code, &lines, &defs, i, &params, classy) {
                    module.classes.push(class);
                }
            }
        }
    }

    if flavor.package == "flask" && code.text().contains("Resource") {
        resource_params(&code, &lines, &defs, &mut module);
    }

    // Sanic's `app.add_route(handler, uri, methods=[…])` (a function or
    // `HTTPMethodView.as_view()`).
    if flavor.package == "sanic" {
        for at in code.find_all(".add_route(") {
            let Some(call) = method_call(&code, at) else {
                continue;
            };
            let Some(route) = sanic_add_route(&code, &call) else {
                continue;
            };
            module.routes.push(Route {
                line: file.line_of(call.start),
                ..route
            });
        }
    }

    for at in code.find_all(".add_url_rule(") {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let Some(route) = add_url_rule(&code, &call) else {
            continue;
        };
        let enclosing = enclosing_def(&defs, call.start).filter(|d| d.kind == DefKind::Function);
        module.routes.push(Route {
            line: file.line_of(call.start),
            scope: enclosing.and_then(|f| scope_for(&code, f, &route, &module.objects)),
            ..route
        });
    }

    // Functions that declare routes from their parameters must be
    // resolvable as call targets in link.
    let scoped: Vec<String> = module
        .routes
        .iter()
        .filter_map(|r| r.scope.as_ref().map(|s| s.function.clone()))
        .collect();
    for function in scoped {
        if !module.functions.iter().any(|f| f.name == function) {
            module.functions.push(Func {
                name: function,
                params: Vec::new(),
                schemas: Vec::new(),
            });
        }
    }
    if module.flask {
        module.calls = call_sites(&code, &lines);
    }

    let register = format!(".{}(", flavor.register);
    for at in code.find_all(&register) {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let Some(receiver) = call.receiver() else {
            continue;
        };
        let Some(bp) = call
            .arg(0, "blueprint")
            .and_then(|r| whole_dotted(&code, r))
        else {
            continue;
        };
        module.registrations.push(Registration {
            receiver: receiver.to_string(),
            blueprint: bp,
            prefix: prefix_arg(&code, call.keyword(flavor.prefix_keyword)),
        });
    }

    if flavor.package == "flask" {
        restful(file, &code, &lines, &info, &mut module);
    }

    if flavor.package == "flask" {
        module.classy = classful::registrations(&code);
        for line in &lines {
            if !line.text(&code).contains(".config[") {
                continue;
            }
            if let Some((key, value)) = config::config_assignment(&code, line.start..line.end) {
                if let Some(value) = config::value_expr(&code, value) {
                    module.config.push(ConfigValue { key, value });
                }
            }
        }
    }

    if let Some(mount) = flavor.mount {
        for at in code.find_all(&format!(".{mount}(")) {
            let Some(call) = method_call(&code, at) else {
                continue;
            };
            let (Some(receiver), Some(child)) = (
                call.receiver(),
                call.arg(1, "app").and_then(|r| whole_dotted(&code, r)),
            ) else {
                continue;
            };
            module.registrations.push(Registration {
                receiver: receiver.to_string(),
                blueprint: child,
                prefix: prefix_arg(&code, call.arg(0, "prefix")),
            });
        }
    }

    if flavor.package == "sanic" {
        module.versions = sanic_versions(file, &code, &lines, flavor);
    }

    // `group = Blueprint.group(a, b, url_prefix=…)`: a and b are
    // registered on the group.
    for line in &lines {
        let Some((name, value)) = assignment_target(&code, line) else {
            continue;
        };
        let Some(call) = call_at(&code, code.skip_ws(value)) else {
            continue;
        };
        if call.method() != "group"
            || !call
                .receiver()
                .is_some_and(|r| flavor.blueprints.contains(&r))
        {
            continue;
        }
        for arg in call.args.iter().filter(|a| a.name.is_none() && !a.star) {
            if let Some(bp) = whole_dotted(&code, arg.value.clone()) {
                module.registrations.push(Registration {
                    receiver: name.clone(),
                    blueprint: bp,
                    prefix: Prefix::Absent,
                });
            }
        }
    }

    module.info = info;
    module
}

/// Sanic's `version=` (`/v1` before every other prefix): on
/// `Blueprint(…)` and `Blueprint.group(…)` assignments (by name) and on
/// route decorators (by the decorator's line, `@<line>`).
fn sanic_versions(
    file: &SourceFile,
    code: &Code<'_>,
    lines: &[LogicalLine],
    flavor: &Flavor,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let version = |call: &Call| -> Option<String> {
        let r = call.keyword("version")?;
        let text = code.slice(r).trim();
        let text = code
            .string_at(code.skip_ws(call.keyword("version")?.start))
            .map(|l| l.value)
            .unwrap_or_else(|| text.to_string());
        let v = text.trim_matches('/').trim_start_matches('v').to_string();
        (!v.is_empty() && v != "None" && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'))
            .then_some(v)
    };
    for line in lines {
        let text = line.text(code);
        if !text.contains("version") {
            continue;
        }
        let start = code.skip_ws(line.start);
        if code.text().as_bytes().get(start) == Some(&b'@') {
            if let Some(v) = call_at(code, start + 1).as_ref().and_then(version) {
                out.push((format!("@{}", file.line_of(start)), v));
            }
            continue;
        }
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let Some(call) = call_at(code, code.skip_ws(value)) else {
            continue;
        };
        let blueprint = flavor.blueprints.contains(&call.method())
            || (call.method() == "group"
                && call
                    .receiver()
                    .is_some_and(|r| flavor.blueprints.contains(&r)));
        if let Some(v) = version(&call).filter(|_| blueprint) {
            out.push((name, v));
        }
    }
    out
}

/// Packages whose `Api` routes `Resource` classes (`add_resource`,
/// `@api.route` / `@ns.route` on a class).
const RESTFUL_PACKAGES: [&str; 3] = ["flask_restful", "flask_restx", "flask_restplus"];

/// Flask-RESTful / Flask-RESTX / Flask-RESTPlus.
///
/// An `Api(app_or_blueprint, prefix=…)` is a blueprint registered on its
/// first argument (or later through `api.init_app(app)`); a RESTX
/// `Namespace('name', path=…)` / `api.namespace('name', path=…)` is a
/// blueprint whose prefix is `path`, else `/name`, registered on the `Api`
/// by `api.add_namespace(ns, path=…)` (whose `path` wins) or by
/// `api.namespace(...)` itself. `x.add_resource(Class, url, url…)` is one
/// route per URL to the class (its `get`/`post`/… functions); `@x.route`
/// on a class is already a class route.
fn restful(
    file: &SourceFile,
    code: &Code<'_>,
    lines: &[LogicalLine],
    info: &ModuleInfo,
    module: &mut FlaskModule,
) {
    let restish = RESTFUL_PACKAGES.iter().any(|p| info.imports_from(p));
    for line in lines {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let Some(call) = call_at(code, code.skip_ws(value)) else {
            continue;
        };
        if code.skip_ws(call.close + 1) < line.end {
            continue;
        }
        let method = call.method();
        let receiver = call.receiver();
        let (prefix, parent) = match (method, receiver) {
            ("Api", None) if restish => (
                prefix_arg(code, call.keyword("prefix")),
                call.arg(0, "app").and_then(|r| whole_dotted(code, r)),
            ),
            ("Namespace", None) if restish => (namespace_path(code, &call), None),
            ("namespace", Some(api)) if call.arg(0, "name").is_some() => {
                (namespace_path(code, &call), Some(api.to_string()))
            }
            _ => continue,
        };
        module.objects.retain(|o| o.name != name);
        module.objects.push(Obj {
            name: name.clone(),
            kind: ObjKind::Blueprint(prefix),
        });
        if let Some(parent) = parent.filter(|p| p != "None") {
            module.registrations.push(Registration {
                receiver: parent,
                blueprint: name,
                prefix: Prefix::Absent,
            });
        }
    }
    for (needle, keyword) in [(".init_app(", None), (".add_namespace(", Some("path"))] {
        for at in code.find_all(needle) {
            let Some(call) = method_call(code, at) else {
                continue;
            };
            let (Some(receiver), Some(arg)) = (call.receiver(), call.positional(0)) else {
                continue;
            };
            let Some(arg) = whole_dotted(code, arg) else {
                continue;
            };
            // `api.init_app(app)` registers the Api on the app;
            // `api.add_namespace(ns)` the namespace on the Api.
            let (receiver, blueprint, prefix) = match keyword {
                None => (arg, receiver.to_string(), Prefix::Absent),
                Some(k) => (receiver.to_string(), arg, prefix_arg(code, call.arg(1, k))),
            };
            if keyword.is_none() && !module.objects.iter().any(|o| o.name == blueprint) {
                // Some other extension's `init_app`.
                continue;
            }
            module.registrations.push(Registration {
                receiver,
                blueprint,
                prefix,
            });
        }
    }
    for at in code.find_all(".add_resource(") {
        let Some(call) = method_call(code, at) else {
            continue;
        };
        let Some(receiver) = call.receiver() else {
            continue;
        };
        let Some(class) = call.arg(0, "resource").and_then(|r| whole_dotted(code, r)) else {
            continue;
        };
        for arg in call
            .args
            .iter()
            .skip(1)
            .filter(|a| a.name.is_none() && !a.star)
        {
            let Some(rule) = StrExpr::parse(code, arg.value.clone()) else {
                continue;
            };
            module.routes.push(Route {
                line: file.line_of(call.start),
                receiver: receiver.to_string(),
                rule,
                methods: None,
                view: View::Class(class.clone()),
                shortcut: false,
                scope: None,
                handler: None,
                decorators: Vec::new(),
                schemas: Vec::new(),
            });
        }
    }
}

/// Where a reqparse argument is read (`location=`); `None` = the default
/// (`json` + `values`), settled per method.
fn reqparse_kind(location: &str) -> Option<ParamKind> {
    Some(match location {
        "args" | "values" | "query" => ParamKind::Query,
        "json" => ParamKind::Json,
        "form" => ParamKind::Form,
        "files" => ParamKind::File,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        _ => return None,
    })
}

/// Parameters of Flask-RESTful / RESTX `Resource` method functions:
/// `parser.parse_args()` of a module-level `reqparse.RequestParser` (its
/// `add_argument(name, location=…)` calls; `parser.copy()` keeps them), and
/// `@ns.expect(parser_or_model)` where a model is `api.model('N', {...})`
/// (`api.inherit('N', parent, {...})`), whose keys are JSON fields. An
/// argument without a location is a query parameter of `get` / `delete`
/// and a JSON field of the writing methods (reqparse's default reads both).
fn resource_params(code: &Code<'_>, lines: &[LogicalLine], defs: &[Def], module: &mut FlaskModule) {
    type Args = Vec<(String, Option<ParamKind>)>;
    let mut parsers: Vec<(String, Args)> = Vec::new();
    let mut models: Vec<(String, Vec<String>)> = Vec::new();
    let key_list = |r: Range<usize>| -> Vec<String> {
        let open = code.skip_ws(r.start);
        if code.text().as_bytes().get(open) != Some(&b'{') {
            return Vec::new();
        }
        // `'id': fields.Integer(readonly=True)`: output only, never sent.
        code.args(open)
            .into_iter()
            .filter(|a| {
                let t = code.slice(a.clone());
                !(t.contains("readonly=True") || t.contains("readOnly=True"))
            })
            .filter_map(|a| code.string_at(code.skip_ws(a.start)))
            .filter(|l| !l.interpolated && !l.value.is_empty())
            .map(|l| l.value)
            .collect()
    };
    for line in lines {
        if let Some((name, value)) = assignment_target(code, line) {
            if let Some(call) = call_at(code, code.skip_ws(value)) {
                match call.method() {
                    "RequestParser" => parsers.push((name, Vec::new())),
                    "copy" => {
                        let copied = call
                            .receiver()
                            .and_then(|r| parsers.iter().find(|(n, _)| n == r))
                            .map(|(_, a)| a.clone());
                        if let Some(args) = copied {
                            parsers.push((name, args));
                        }
                    }
                    "model" | "schema_model" if call.receiver().is_some() => {
                        let keys = call.arg(1, "model").map(key_list).unwrap_or_default();
                        models.push((name, keys));
                    }
                    "inherit" if call.receiver().is_some() => {
                        let mut keys: Vec<String> = call
                            .positional(1)
                            .and_then(|r| whole_dotted(code, r))
                            .and_then(|p| models.iter().find(|(n, _)| *n == p))
                            .map(|(_, k)| k.clone())
                            .unwrap_or_default();
                        for k in call.positional(2).map(key_list).unwrap_or_default() {
                            if !keys.contains(&k) {
                                keys.push(k);
                            }
                        }
                        models.push((name, keys));
                    }
                    _ => {}
                }
                continue;
            }
        }
        let text = line.text(code);
        let Some(dot) = text.find(".add_argument(") else {
            continue;
        };
        let Some(call) = method_call(code, line.start + dot) else {
            continue;
        };
        let Some(receiver) = call.receiver() else {
            continue;
        };
        let Some(arg) = call
            .arg(0, "name")
            .and_then(|r| code.string_at(code.skip_ws(r.start)))
            .filter(|l| !l.interpolated && !l.value.is_empty())
        else {
            continue;
        };
        let location = call.keyword("location").and_then(|r| {
            let open = code.skip_ws(r.start);
            match code.string_at(open) {
                Some(l) => Some(l.value),
                None => crate::py::call::string_list(code, r).and_then(|v| v.into_iter().next()),
            }
        });
        let kind = location.as_deref().and_then(reqparse_kind);
        // `dest=` renames the result, not the request key.
        if let Some((_, args)) = parsers.iter_mut().find(|(n, _)| n == receiver) {
            if !args.iter().any(|(n, _)| *n == arg.value) {
                args.push((arg.value, kind));
            }
        }
    }
    if parsers.is_empty() && models.is_empty() {
        return;
    }
    for def in defs {
        if def.kind != DefKind::Function || !HTTP_METHOD_FUNCS.contains(&def.name.as_str()) {
            continue;
        }
        let Some(class) = def.parent.and_then(|p| defs.get(p)) else {
            continue;
        };
        let reading = !matches!(def.name.as_str(), "get" | "delete" | "head" | "options");
        let default = if reading {
            ParamKind::Json
        } else {
            ParamKind::Query
        };
        let mut found: Vec<Param> = Vec::new();
        let mut add = |p: Param| {
            if !found.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                found.push(p);
            }
        };
        let use_name = |name: &str, add: &mut dyn FnMut(Param)| {
            let name = name.strip_prefix("self.").unwrap_or(name);
            if let Some((_, args)) = parsers.iter().find(|(n, _)| n == name) {
                for (arg, kind) in args {
                    add(Param::new(kind.unwrap_or(default), arg.clone()));
                }
            } else if let Some((_, keys)) = models.iter().find(|(n, _)| n == name) {
                for k in keys {
                    add(Param::json(k.clone()));
                }
            }
        };
        for deco in &def.decorators {
            let is_expect = deco.name.rsplit('.').next() == Some("expect");
            let Some(call) = deco.call.as_ref().filter(|_| is_expect) else {
                continue;
            };
            for arg in call.args.iter().filter(|a| a.name.is_none() && !a.star) {
                let target = match code.text().as_bytes().get(code.skip_ws(arg.value.start)) {
                    // `@ns.expect([model])`: a list of the model.
                    Some(b'[') => code
                        .args(code.skip_ws(arg.value.start))
                        .into_iter()
                        .next()
                        .and_then(|r| whole_dotted(code, r)),
                    _ => whole_dotted(code, arg.value.clone()),
                };
                if let Some(t) = target {
                    use_name(&t, &mut add);
                }
            }
        }
        if let Some(body) = code.text().get(def.body.clone()) {
            for (i, _) in body.match_indices(".parse_args(") {
                let at = def.body.start + i;
                if !code.is_code(at) {
                    continue;
                }
                if let Some((name, _)) = crate::py::call::dotted_before(code, at) {
                    use_name(&name, &mut add);
                }
            }
        }
        if found.is_empty() {
            continue;
        }
        let Some(c) = module.classes.iter_mut().find(|c| c.name == class.name) else {
            continue;
        };
        match c.funcs.iter_mut().find(|f| f.name == def.name) {
            Some(f) => {
                for p in found {
                    if !f
                        .params
                        .iter()
                        .any(|q| q.name == p.name && q.kind == p.kind)
                    {
                        f.params.push(p);
                    }
                }
            }
            None => c.funcs.push(Func {
                name: def.name.clone(),
                params: found,
                schemas: Vec::new(),
            }),
        }
    }
}

/// A RESTX namespace's prefix: `path=…`, else `/` + its name.
fn namespace_path(code: &Code<'_>, call: &Call) -> Prefix {
    if let Some(path) = call.arg(2, "path") {
        return prefix_arg(code, Some(path));
    }
    match call.arg(0, "name").and_then(|r| StrExpr::parse(code, r)) {
        Some(name) => match name.literal() {
            Some(lit) => Prefix::Expr(StrExpr::lit(format!("/{lit}"))),
            None => {
                let StrExpr(mut pieces) = name;
                pieces.insert(0, crate::py::strexpr::Piece::Lit("/".into()));
                Prefix::Expr(StrExpr(pieces))
            }
        },
        None => Prefix::Unknown,
    }
}

/// A constant of this module only (for parameter names in the map step).
fn local_const(info: &ModuleInfo, name: &str, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    info.constant(name)?
        .value
        .resolve(&mut |n| local_const(info, n, depth + 1))
}

/// A `url_prefix=` value.
fn prefix_arg(code: &Code<'_>, value: Option<Range<usize>>) -> Prefix {
    match value {
        None => Prefix::Absent,
        Some(r) if code.slice(r.clone()) == "None" => Prefix::Absent,
        Some(r) => match StrExpr::parse(code, r.clone()) {
            Some(e) => Prefix::Expr(e),
            None => match config::lookup(code, r) {
                Some(l) => Prefix::Config {
                    key: l.key,
                    default: l.default,
                },
                None => Prefix::Unknown,
            },
        },
    }
}

/// `methods=[...]`, upper-cased and deduplicated; `None` when absent or
/// not a literal list.
fn methods_arg(code: &Code<'_>, value: Option<Range<usize>>) -> Option<Vec<String>> {
    methods_list(code, value)
}

/// Assignments `name = Callee(...)` anywhere in the file that make Flask
/// apps, blueprints, `as_view` results, or instances of other classes.
fn objects(code: &Code<'_>, lines: &[LogicalLine], flavor: &Flavor) -> Vec<Obj> {
    let mut out = Vec::new();
    for line in lines {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let Some(call) = call_at(code, value) else {
            continue;
        };
        if code.skip_ws(call.close + 1) < line.end {
            // `x = Flask(__name__).something` or `x = f(...) or g`.
            continue;
        }
        let method = call.method();
        let kind = match method {
            m if flavor.apps.contains(&m) => ObjKind::App,
            // Sanic's `Blueprint.group(a, b, url_prefix=…)`: a blueprint
            // the grouped ones are registered on (see `scan_with`).
            "group"
                if call
                    .receiver()
                    .is_some_and(|r| flavor.blueprints.contains(&r)) =>
            {
                ObjKind::Blueprint(prefix_arg(code, call.keyword(flavor.prefix_keyword)))
            }
            m if flavor.blueprints.contains(&m) => ObjKind::Blueprint(prefix_arg(
                code,
                call.arg(flavor.url_prefix_position, flavor.prefix_keyword),
            )),
            "as_view" => match call.receiver() {
                Some(class) => ObjKind::AsView(class.to_string()),
                None => continue,
            },
            m if m.starts_with(|c: char| c.is_ascii_uppercase()) => ObjKind::Foreign,
            _ => continue,
        };
        out.push(Obj { name, kind });
    }
    out
}

/// Methods Bottle's `method='ANY'` (and `'*'`) stands for: any method is
/// accepted, reported as the usual five.
pub const ANY_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// `ANY` / `*` in a methods list → [`ANY_METHODS`].
fn expand_any(methods: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in methods {
        let add: Vec<String> = if m == "ANY" || m == "*" {
            ANY_METHODS.iter().map(|s| s.to_string()).collect()
        } else {
            vec![m]
        };
        for a in add {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// webargs decorators on a view with a literal schema dict:
/// `@use_kwargs({"page": fields.Int(), …}, location="query")` and
/// `@use_args(…)`; the location defaults to the JSON body (webargs ≥ 6).
/// The distinct decorator names of `def`, at most [`MAX_DECORATOR_NAMES`]:
/// computed once per function and bounded, so a function under thousands of
/// stacked decorators costs linear work, not one list per decorator.
fn decorator_names(def: &Def) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for deco in &def.decorators {
        if names.len() >= MAX_DECORATOR_NAMES {
            break;
        }
        if !names.contains(&deco.name) {
            names.push(deco.name.clone());
        }
    }
    names
}

/// Enough for any real view (route, auth, rate limit, caching, …).
const MAX_DECORATOR_NAMES: usize = 32;

fn webargs_params(code: &Code<'_>, def: &Def) -> Vec<Param> {
    let mut out = Vec::new();
    for deco in &def.decorators {
        let Some(call) = &deco.call else { continue };
        let last = deco.name.rsplit('.').next().unwrap_or(&deco.name);
        if !matches!(last, "use_kwargs" | "use_args") {
            continue;
        }
        let Some(schema) = call.arg(0, "argmap") else {
            continue;
        };
        let open = code.skip_ws(schema.start);
        if code.text().as_bytes().get(open) != Some(&b'{') {
            continue;
        }
        let location = call
            .arg(1, "location")
            .and_then(|r| code.string_at(r.start))
            .map(|l| l.value)
            .unwrap_or_else(|| "json".to_string());
        let make: fn(String) -> Param = match location.as_str() {
            "query" | "querystring" => Param::query,
            "form" => Param::form,
            "headers" => Param::header,
            "cookies" => Param::cookie,
            "json" | "json_or_form" => Param::json,
            _ => continue,
        };
        for entry in code.args(open) {
            let Some(key) = code.string_at(entry.start).filter(|l| !l.interpolated) else {
                continue;
            };
            if code.skip_ws(key.end) < entry.end
                && code.text().as_bytes().get(code.skip_ws(key.end)) == Some(&b':')
            {
                out.push(make(key.value));
            }
        }
    }
    out
}

/// Schemas `def`'s decorators load the request with:
/// `@blp.arguments(PetSchema, location="query")` (flask-smorest),
/// `@app.input(PetIn, location="headers")` (APIFlask),
/// `@use_args(PetSchema(), location="form")` / `@use_kwargs(...)` (webargs;
/// dict argmaps are read by [`webargs_params`]). The default location is
/// the JSON body.
fn schema_args(code: &Code<'_>, def: &Def) -> Vec<SchemaArg> {
    let mut out = Vec::new();
    for deco in &def.decorators {
        let Some(call) = &deco.call else { continue };
        let last = deco.name.rsplit('.').next().unwrap_or(&deco.name);
        let (schema_kw, location_pos) = match last {
            "arguments" | "input" if deco.name.contains('.') => ("schema", None),
            "use_args" | "use_kwargs" => ("argmap", Some(1)),
            _ => continue,
        };
        let Some(arg) = call.arg(0, schema_kw) else {
            continue;
        };
        let at = code.skip_ws(arg.start);
        // `PetSchema` or `PetSchema(many=True)`.
        let schema = match whole_dotted(code, arg.clone()) {
            Some(name) => name,
            None => match call_at(code, at) {
                Some(c) if code.skip_ws(c.close + 1) >= arg.end => c.callee.clone(),
                _ => continue,
            },
        };
        if !schema
            .rsplit('.')
            .next()
            .unwrap_or("")
            .starts_with(|c: char| c.is_ascii_uppercase())
        {
            continue;
        }
        let location = match location_pos {
            Some(pos) => call.arg(pos, "location"),
            None => call.keyword("location"),
        }
        .and_then(|r| code.string_at(code.skip_ws(r.start)))
        .map(|l| l.value);
        let kind = match location.as_deref().unwrap_or("json") {
            "query" | "querystring" => ParamKind::Query,
            "json" | "json_or_form" => ParamKind::Json,
            "form" => ParamKind::Form,
            "files" => ParamKind::File,
            "headers" => ParamKind::Header,
            "cookies" => ParamKind::Cookie,
            "path" | "view_args" => ParamKind::Path,
            _ => continue,
        };
        out.push(SchemaArg { schema, kind });
    }
    out
}

/// A route from a decorator call on `def`, line unset.
fn decorator_route(
    code: &Code<'_>,
    call: &Call,
    def: &Def,
    view_params: &mut Option<Vec<Param>>,
    params: &dyn Fn(Range<usize>) -> Vec<Param>,
    flavor: &Flavor,
    bare: &[(String, String)],
) -> Option<Route> {
    let (receiver, method) = match call.receiver() {
        Some(r) => (r, call.method()),
        None => {
            let (_, attr) = bare.iter().find(|(local, _)| *local == call.callee)?;
            (flavor.package, attr.as_str())
        }
    };
    let methods = if method == "route" {
        let value = match flavor.methods_position {
            Some(pos) => call.arg(pos, flavor.methods_keyword),
            None => call.keyword(flavor.methods_keyword),
        };
        methods_arg(code, value).map(expand_any)
    } else {
        Some(vec![shortcut(method)?.to_string()])
    };
    // Bottle names the argument `path`.
    let rule = StrExpr::parse(code, call.arg(0, "rule").or_else(|| call.keyword("path"))?)?;
    let view = match def.kind {
        DefKind::Function => View::Params(
            view_params
                .get_or_insert_with(|| params(def.body.clone()))
                .clone(),
        ),
        DefKind::Class => View::Class(def.name.clone()),
    };
    Some(Route {
        line: 0,
        receiver: receiver.to_string(),
        rule,
        methods,
        view,
        shortcut: method != "route",
        scope: None,
        handler: None,
        decorators: Vec::new(),
        schemas: Vec::new(),
    })
}

/// Sanic's `recv.add_route(handler, uri, methods=None, …)`.
fn sanic_add_route(code: &Code<'_>, call: &Call) -> Option<Route> {
    let receiver = call.receiver()?;
    let rule = StrExpr::parse(code, call.arg(1, "uri")?)?;
    let handler = call.arg(0, "handler")?;
    let view = match whole_dotted(code, handler.clone()) {
        Some(name) => View::Ref(name),
        None => match call_at(code, code.skip_ws(handler.start)) {
            Some(c) if c.method() == "as_view" && code.skip_ws(c.close + 1) >= handler.end => {
                View::Class(c.receiver()?.to_string())
            }
            _ => return None,
        },
    };
    Some(Route {
        line: 0,
        receiver: receiver.to_string(),
        rule,
        methods: methods_arg(code, call.keyword("methods")),
        view,
        shortcut: false,
        scope: None,
        handler: None,
        decorators: Vec::new(),
        schemas: Vec::new(),
    })
}

/// `recv.add_url_rule(rule, endpoint=None, view_func=None, **options)`.
fn add_url_rule(code: &Code<'_>, call: &Call) -> Option<Route> {
    let receiver = call.receiver()?;
    let rule = StrExpr::parse(code, call.arg(0, "rule")?)?;
    let view = match call.arg(2, "view_func") {
        None => View::None,
        Some(r) => match whole_dotted(code, r.clone()) {
            Some(name) => View::Ref(name),
            None => match call_at(code, r.start) {
                Some(c) if c.method() == "as_view" && code.skip_ws(c.close + 1) >= r.end => {
                    match c.receiver() {
                        Some(class) => View::Class(class.to_string()),
                        None => View::None,
                    }
                }
                _ => View::None,
            },
        },
    };
    Some(Route {
        line: 0,
        receiver: receiver.to_string(),
        rule,
        methods: methods_arg(code, call.keyword("methods")),
        view,
        shortcut: false,
        scope: None,
        handler: None,
        decorators: Vec::new(),
        schemas: Vec::new(),
    })
}

/// Module-level sequences of strings: `NAME = ('a', 'b')`, `NAME = BASE +
/// ['c']` (not plain strings, which are constants).
fn module_lists(code: &Code<'_>, lines: &[LogicalLine]) -> Vec<(String, Vec<ListPart>)> {
    lines
        .iter()
        .filter(|l| l.indent == 0)
        .filter_map(|l| {
            let (name, value) = assignment_target(code, l)?;
            if StrExpr::parse(code, value..l.end).is_some() {
                return None;
            }
            let parts = list_expr(code, value..l.end)?;
            parts
                .iter()
                .any(|p| matches!(p, ListPart::Lit(_)))
                .then_some((name, parts))
        })
        .collect()
}

/// A class that could be a view or a view's base.
fn class_fact(
    code: &Code<'_>,
    lines: &[LogicalLine],
    defs: &[Def],
    index: usize,
    params: &dyn Fn(Range<usize>) -> Vec<Param>,
    classy: Option<super::facts::Classy>,
) -> Option<Class> {
    let class = defs.get(index)?;
    let bases: Vec<String> = class
        .open_paren
        .map(|open| {
            crate::py::call::split_args(code, open)
                .into_iter()
                .filter(|a| a.name.is_none() && !a.star)
                .filter_map(|a| whole_dotted(code, a.value))
                .filter(|b| b != "object")
                .collect()
        })
        .unwrap_or_default();
    let funcs: Vec<Func> = defs
        .iter()
        .filter(|d| d.is_child_of(index) && d.kind == DefKind::Function)
        .filter(|d| HTTP_METHOD_FUNCS.contains(&d.name.as_str()) || d.name == "dispatch_request")
        .map(|d| Func {
            name: d.name.clone(),
            params: params(d.body.clone()),
            schemas: schema_args(code, d),
        })
        .collect();
    // `methods = [...]` directly in the class body.
    let first = lines.partition_point(|l| l.start < class.body.start);
    let body_lines: Vec<&LogicalLine> = lines[first..]
        .iter()
        .take_while(|l| l.end <= class.body.end)
        .filter(|l| l.indent > class.indent)
        .collect();
    let body_indent = body_lines.iter().map(|l| l.indent).min();
    let methods = body_lines
        .iter()
        .filter(|l| Some(l.indent) == body_indent)
        .filter_map(|l| {
            let (name, value) = assignment_target(code, l)?;
            (name == "methods").then(|| methods_arg(code, Some(value..l.end)))?
        })
        .next_back();
    let strings: Vec<Const> = body_lines
        .iter()
        .filter(|l| Some(l.indent) == body_indent)
        .filter_map(|l| {
            let (name, value) = assignment_target(code, l)?;
            let value = StrExpr::parse(code, value..l.end)?;
            value.literal().map(|_| Const { name, value })
        })
        .collect();
    let mut declared: Vec<String> = Vec::new();
    let mut schema_fields: Vec<String> = body_lines
        .iter()
        .filter(|l| Some(l.indent) == body_indent)
        .filter_map(|l| {
            let (name, value) = assignment_target(code, l)?;
            let call = call_at(code, code.skip_ws(value))?;
            let receiver = call.receiver().unwrap_or("");
            // Also marshmallow fields imported by name (`from
            // apiflask.fields import Integer`).
            let field_like = receiver == "fields"
                || receiver.ends_with(".fields")
                || call.method().ends_with("Field")
                || (call.receiver().is_none() && MARSHMALLOW_FIELDS.contains(&call.method()));
            let dump_only = call
                .keyword("dump_only")
                .is_some_and(|r| code.slice(r).trim() == "True");
            if field_like {
                declared.push(name.clone());
            }
            // marshmallow's `data_key`: the key the JSON document carries.
            let name = call
                .keyword("data_key")
                .and_then(|r| code.string_at(code.skip_ws(r.start)))
                .filter(|l| !l.interpolated && !l.value.is_empty())
                .map_or(name, |l| l.value);
            (field_like && !dump_only).then_some(name)
        })
        .collect();
    let mut schema_fields_ref: Vec<ListPart> = Vec::new();
    // SQLAlchemy columns (`x = Column(...)`, `db.Column`, `mapped_column`,
    // project wrappers named `*Column`), foreign keys left out as
    // marshmallow-sqlalchemy's auto schemas do by default.
    let columns: Vec<String> = body_lines
        .iter()
        .filter(|l| Some(l.indent) == body_indent)
        .filter_map(|l| {
            let (name, value) = assignment_target(code, l)?;
            let call = call_at(code, code.skip_ws(value))?;
            let method = call.method();
            let column = method.ends_with("Column") || method == "mapped_column";
            let fk = code
                .text()
                .get(call.open..call.close)
                .is_some_and(|t| t.contains("ForeignKey("));
            (column && !fk && !name.starts_with('_')).then_some(name)
        })
        .collect();
    let mut meta = SchemaMeta::default();
    // A marshmallow schema's `class Meta: fields = (...)`: the names it
    // lists that the class does not declare are model columns, loaded as
    // given (declared ones keep their own `dump_only`).
    let mut in_meta = false;
    for l in &body_lines {
        if Some(l.indent) == body_indent {
            let text = l.text(code);
            in_meta = text.starts_with("class Meta")
                && (!declared.is_empty() || bases_look_like_schema(&bases));
            continue;
        }
        if !in_meta {
            continue;
        }
        let Some((name, value)) = assignment_target(code, l) else {
            continue;
        };
        match name.as_str() {
            "model" => {
                meta.model = whole_dotted(code, code.skip_ws(value)..l.end);
                continue;
            }
            "exclude" => {
                meta.exclude = crate::py::call::string_list(code, value..l.end).unwrap_or_default();
                continue;
            }
            "fields" => meta.fields = true,
            _ => continue,
        }
        match crate::py::call::string_list(code, value..l.end) {
            Some(list) => {
                for f in list {
                    if !declared.contains(&f) && !schema_fields.contains(&f) && !f.starts_with('_')
                    {
                        schema_fields.push(f);
                    }
                }
            }
            // `fields = SCHEMA_FIELDS` (a tuple of another module, maybe
            // `BASE + (...)`): resolved in the link step.
            None => {
                if let Some(parts) = list_expr(code, value..l.end) {
                    schema_fields_ref = parts;
                }
            }
        }
    }
    if bases.is_empty()
        && funcs.is_empty()
        && methods.is_none()
        && classy.is_none()
        && strings.is_empty()
        && schema_fields.is_empty()
        && schema_fields_ref.is_empty()
        && columns.is_empty()
    {
        return None;
    }
    Some(Class {
        name: class.name.clone(),
        bases,
        methods,
        funcs,
        classy,
        strings,
        schema_fields,
        declared,
        schema_fields_ref,
        columns,
        meta,
    })
}

/// marshmallow field classes, called by their bare name when imported from
/// `marshmallow.fields` (or a re-export such as `apiflask.fields`).
const MARSHMALLOW_FIELDS: [&str; 26] = [
    "String",
    "Str",
    "Integer",
    "Int",
    "Float",
    "Boolean",
    "Bool",
    "DateTime",
    "NaiveDateTime",
    "AwareDateTime",
    "Date",
    "Time",
    "TimeDelta",
    "Email",
    "URL",
    "Url",
    "UUID",
    "Decimal",
    "Number",
    "List",
    "Dict",
    "Nested",
    "Raw",
    "Enum",
    "File",
    "IP",
];

/// Bases naming a marshmallow-style schema (`Schema`, `ma.SQLAlchemyAutoSchema`,
/// `AutoSchema`, `BaseSchema`).
fn bases_look_like_schema(bases: &[String]) -> bool {
    bases
        .iter()
        .any(|b| b.rsplit('.').next().is_some_and(|l| l.ends_with("Schema")))
}

/// The innermost def or class whose body contains `offset`.
fn enclosing_def(defs: &[Def], offset: usize) -> Option<&Def> {
    defs.iter()
        .rev()
        .find(|d| d.body.start <= offset && offset < d.body.end)
}

/// Parameter names of a function, in order (`*args`, `**kw` without stars;
/// the bare `*` and `/` markers skipped).
pub fn function_params(code: &Code<'_>, def: &Def) -> Vec<String> {
    let Some(open) = def.open_paren else {
        return Vec::new();
    };
    code.args(open)
        .into_iter()
        .filter_map(|r| {
            let text = code.slice(r).trim_start_matches('*');
            let end = text
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(text.len());
            let name = &text[..end];
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// The route's scope when it uses parameters of the function `f` it is
/// declared in: as receiver, in the rule, or as the view (class).
fn scope_for(code: &Code<'_>, f: &Def, route: &Route, objects: &[Obj]) -> Option<Scope> {
    let params = function_params(code, f);
    let first = |name: &str| name.split('.').next().unwrap_or(name).to_string();
    let is_param = |name: &str| params.contains(&first(name));
    let view_uses = match &route.view {
        View::Class(c) => is_param(c),
        View::Ref(r) => {
            is_param(r)
                || objects.iter().any(|o| {
                    o.name == *r && matches!(&o.kind, ObjKind::AsView(class) if is_param(class))
                })
        }
        View::Params(_) | View::None => false,
    };
    let rule_uses = route.rule.0.iter().any(|p| match p {
        crate::py::strexpr::Piece::Ref(name) => is_param(name),
        crate::py::strexpr::Piece::Lit(_) => false,
    });
    (is_param(&route.receiver) || rule_uses || view_uses).then(|| Scope {
        function: f.name.clone(),
        params,
    })
}

/// Statement-level calls that pass at least one name positionally
/// (`register_api(app, "tags")`, `init_routes(bp)`).
fn call_sites(code: &Code<'_>, lines: &[LogicalLine]) -> Vec<CallSite> {
    let mut out = Vec::new();
    for line in lines {
        let Some(call) = call_at(code, line.start) else {
            continue;
        };
        if code.skip_ws(call.close + 1) < line.end
            || matches!(
                call.method(),
                "add_url_rule" | "register_blueprint" | "blueprint" | "route"
            )
        {
            continue;
        }
        let args: Vec<CallArg> = call
            .args
            .iter()
            .filter(|a| !a.star)
            .map(|a| CallArg {
                keyword: a.name.clone(),
                value: StrExpr::parse(code, a.value.clone()),
            })
            .collect();
        let passes_name = args
            .iter()
            .any(|a| a.keyword.is_none() && a.value.as_ref().and_then(StrExpr::as_name).is_some());
        if passes_name {
            out.push(CallSite {
                callee: call.callee.clone(),
                args,
            });
        }
    }
    out
}
