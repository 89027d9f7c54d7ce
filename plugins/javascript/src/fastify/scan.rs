//! Map step: what one module declares for Fastify.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::scan::{handlers, inline_params, methods_of, paths_of, Handler};
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{function_parts, object_entries, param_names, Outline};
use crate::js::strexpr::StrExpr;
use crate::js::syntax::dotted_before;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FastifyModule {
    pub info: ModuleInfo,
    /// The module imports `fastify` or `fastify-plugin`.
    #[serde(default)]
    pub fastify: bool,
    /// Names bound to `fastify()` / `Fastify({…})` instances.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registers: Vec<Register>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<Handler>,
    /// Named object literals that are (parts of) JSON schemas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<NamedSchema>,
    /// Directories loaded by `@fastify/autoload` (`register(AutoLoad, {
    /// dir: path.join(__dirname, 'routes') })`), relative to the scanned
    /// tree like module paths, with the prefix its `options` give.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub autoload: Vec<(String, Option<StrExpr>)>,
    /// The instance parameter of an inline plugin exported as
    /// `module.exports = fp(async (fastify) => …)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exported_param: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub receiver: String,
    pub methods: Vec<String>,
    pub paths: Vec<StrExpr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Schema>,
}

/// `x.register(plugin, { prefix })`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Register {
    pub receiver: String,
    pub child: Child,
    pub prefix: Option<StrExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Child {
    Value(Value),
    /// An inline plugin function: its (scoped) instance parameter.
    Inline(String),
}

/// A route schema: by parts, or a reference to a named object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Schema {
    Parts(Vec<(ParamKind, Props)>),
    Ref(String),
}

/// The properties of one part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Props {
    Names(Vec<String>),
    Ref(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedSchema {
    pub name: String,
    /// `properties` of a JSON schema / keys of `Type.Object({…})`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub props: Vec<String>,
    /// `{ querystring, body, params, headers }`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<(ParamKind, Props)>,
}

use crate::js::pattern::re;

const PLUGIN_WRAPPERS: &[&str] = &["fp", "fastifyPlugin", "plugin"];

pub fn is_wrapper(callee: &Value) -> bool {
    matches!(callee, Value::Name(n) if PLUGIN_WRAPPERS.contains(&n.rsplit(['.', '#']).next().unwrap_or(n)))
        || matches!(callee, Value::Require { spec, .. } if spec == "fastify-plugin")
}

fn part_kind(key: &str) -> Option<ParamKind> {
    Some(match key {
        "querystring" | "query" => ParamKind::Query,
        "body" => ParamKind::Json,
        "params" => ParamKind::Path,
        "headers" => ParamKind::Header,
        _ => return None,
    })
}

/// Property names of a schema value: `{ type: 'object', properties: {…} }`
/// or `Type.Object({…})` (also wrapped: `Type.Partial(Type.Object(…))`).
fn props_of(code: &Code<'_>, outline: &Outline, r: Range<usize>) -> Option<Props> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    match bytes.get(s) {
        Some(b'{') => {
            let es = object_entries(code, s);
            let p = es.iter().find(|e| e.key == "properties")?;
            let ps = code.skip_ws(p.value.start);
            if bytes.get(ps) == Some(&b'{') {
                Some(Props::Names(
                    object_entries(code, ps)
                        .into_iter()
                        .map(|e| e.key)
                        .collect(),
                ))
            } else {
                None
            }
        }
        _ => {
            let t = code.slice(s..r.end);
            if let Some(k) = t.find("Type.Object(") {
                let open = s + k + "Type.Object".len();
                let o = code.skip_ws(open + 1);
                if bytes.get(o) == Some(&b'{') {
                    return Some(Props::Names(
                        object_entries(code, o).into_iter().map(|e| e.key).collect(),
                    ));
                }
                return None;
            }
            match module::parse_value(code, outline, s..r.end)? {
                Value::Name(n) => Some(Props::Ref(n)),
                _ => None,
            }
        }
    }
}

fn parts_of(code: &Code<'_>, outline: &Outline, open: usize) -> Vec<(ParamKind, Props)> {
    object_entries(code, open)
        .into_iter()
        .filter_map(|e| Some((part_kind(&e.key)?, props_of(code, outline, e.value)?)))
        .collect()
}

fn schema_of(code: &Code<'_>, outline: &Outline, r: Range<usize>) -> Option<Schema> {
    let s = code.skip_ws(r.start);
    if code.text().as_bytes().get(s) == Some(&b'{') {
        return Some(Schema::Parts(parts_of(code, outline, s)));
    }
    match module::parse_value(code, outline, r)? {
        Value::Name(n) => Some(Schema::Ref(n)),
        _ => None,
    }
}

/// Route options object: `{ method, url, schema, handler, preHandler }`.
struct Options {
    methods: Vec<String>,
    paths: Vec<StrExpr>,
    schema: Option<Schema>,
    handler: Option<Range<usize>>,
}

fn options(code: &Code<'_>, outline: &Outline, open: usize) -> Options {
    let mut o = Options {
        methods: Vec::new(),
        paths: Vec::new(),
        schema: None,
        handler: None,
    };
    let bytes = code.text().as_bytes();
    for e in object_entries(code, open) {
        match e.key.as_str() {
            "method" => {
                let s = code.skip_ws(e.value.start);
                let items = if bytes.get(s) == Some(&b'[') {
                    code.args(s)
                } else {
                    vec![e.value.clone()]
                };
                for i in items {
                    if let Some(l) = code.string_at(i.start) {
                        for m in methods_of(&l.value.to_ascii_lowercase()) {
                            if !o.methods.contains(&m) {
                                o.methods.push(m);
                            }
                        }
                    }
                }
            }
            "url" | "path" => o.paths = paths_of(code, outline, e.value.clone()),
            "schema" => o.schema = schema_of(code, outline, e.value.clone()),
            "handler" => o.handler = Some(e.value.clone()),
            _ => {}
        }
    }
    o
}

/// `register(AutoLoad, { dir: path.join(__dirname, 'routes'), options: {
/// prefix: '/api' } })`: the loaded directory (this module's directory
/// joined with the last string literal of `dir`) and the prefix.
fn autoload_dir(
    code: &Code<'_>,
    outline: &Outline,
    path: &str,
    args: &[Range<usize>],
) -> Option<(String, Option<StrExpr>)> {
    let bytes = code.text().as_bytes();
    let o = code.skip_ws(args.get(1)?.start);
    if bytes.get(o) != Some(&b'{') {
        return None;
    }
    let entries = object_entries(code, o);
    let dir = entries.iter().find(|e| e.key == "dir")?;
    let callee = code.slice(args[0].clone()).trim();
    if !callee.to_ascii_lowercase().contains("autoload") {
        return None;
    }
    // The last literal of `path.join(__dirname, 'src', 'routes')`.
    let mut lit = None;
    let mut i = dir.value.start;
    while i < dir.value.end {
        match code.string_at(i) {
            Some(l) if l.start == i => {
                i = l.end.max(i + 1);
                lit = Some(l.value);
            }
            _ => i += 1,
        }
    }
    let lit = lit?;
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    for seg in lit.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let prefix = entries
        .iter()
        .find(|e| e.key == "options")
        .and_then(|e| {
            let s = code.skip_ws(e.value.start);
            (bytes.get(s) == Some(&b'{')).then_some(s)
        })
        .and_then(|s| {
            object_entries(code, s)
                .into_iter()
                .find(|e| e.key == "prefix")
                .and_then(|e| StrExpr::parse(code, e.value.clone()))
                .map(|x| x.map_refs(&mut |n| outline.scoped(n, s)))
        });
    Some((parts.join("/"), prefix))
}

/// Parameters and named handlers from a handler argument.
fn handler_of(
    code: &Code<'_>,
    outline: &Outline,
    r: Range<usize>,
    params: &mut Vec<Param>,
    names: &mut Vec<String>,
) {
    if let Some(ps) = inline_params(code, r.clone()) {
        for p in ps {
            if !params.contains(&p) {
                params.push(p);
            }
        }
    } else if let Some(Value::Name(n)) = module::parse_value(code, outline, r) {
        names.push(n);
    }
}

pub fn scan(file: &SourceFile) -> FastifyModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let bytes = text.as_bytes();
    let fastify = info
        .imports
        .iter()
        .any(|i| i.spec == "fastify" || i.spec == "fastify-plugin")
        || text.contains("require('fastify')")
        || text.contains("require(\"fastify\")");
    let mut out = FastifyModule {
        fastify,
        ..FastifyModule::default()
    };
    let locals: Vec<&str> = info
        .imports
        .iter()
        .filter(|i| i.spec == "fastify")
        .map(|i| i.local.as_str())
        .collect();
    for b in &info.bindings {
        let Value::Call { callee, .. } = &b.value else {
            continue;
        };
        let is_ctor = match callee.as_ref() {
            Value::Name(n) => locals.contains(&n.as_str()) || n == "fastify" || n == "Fastify",
            Value::Require { spec, .. } => spec == "fastify",
            _ => false,
        };
        if is_ctor {
            out.objects.push(b.name.clone());
        }
    }
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\.\s*(get|post|put|patch|delete|all|options|head|route|register)\s*\(",
    );
    // Inline plugins (`x.register(async (fastify) => {…}, { prefix })`):
    // their instance parameter usually shadows the outer one, so calls on
    // it inside the body get a node of their own (`scope#fastify@offset`).
    let mut inline: Vec<(std::ops::Range<usize>, String, String)> = Vec::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if m.as_str() != "register" || !code.is_code(all.start()) {
            continue;
        }
        let Some(first) = code.args(all.end() - 1).into_iter().next() else {
            continue;
        };
        if let Some((params, body)) = function_parts(&code, first.clone()) {
            if let Some(p) = param_names(&code, params).into_iter().next() {
                if !p.is_empty() {
                    let node = format!("{}@{}", outline.scoped(&p, first.start), body.start);
                    inline.push((body, p, node));
                }
            }
        }
    }
    let node_at = |raw: &str, at: usize| -> Option<String> {
        inline
            .iter()
            .filter(|(b, p, _)| b.contains(&at) && p == raw)
            .min_by_key(|(b, _, _)| b.end - b.start)
            .map(|(_, _, n)| n.clone())
    };
    for c in call.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let Some((receiver, _)) = dotted_before(&code, all.start()) else {
            continue;
        };
        let receiver = node_at(&receiver, all.start())
            .unwrap_or_else(|| outline.scoped(&receiver, all.start()));
        let open = all.end() - 1;
        let args = code.args(open);
        let line = file.line_of(code.skip_ws(all.start() + 1));
        match m.as_str() {
            "register" => {
                let Some(first) = args.first() else { continue };
                if let Some(a) = autoload_dir(&code, &outline, &file.path, &args) {
                    out.autoload.push(a);
                    continue;
                }
                let prefix = args.get(1).and_then(|o| {
                    let s = code.skip_ws(o.start);
                    if bytes.get(s) != Some(&b'{') {
                        return None;
                    }
                    object_entries(&code, s)
                        .into_iter()
                        .find(|e| e.key == "prefix")
                        .and_then(|e| StrExpr::parse(&code, e.value.clone()))
                        .map(|x| x.map_refs(&mut |n| outline.scoped(n, s)))
                });
                let child = match function_parts(&code, first.clone()) {
                    Some((params, _)) => {
                        let p = param_names(&code, params).into_iter().next();
                        let Some(p) = p.filter(|p| !p.is_empty()) else {
                            continue;
                        };
                        match function_parts(&code, first.clone()) {
                            Some((_, body)) => Child::Inline(format!(
                                "{}@{}",
                                outline.scoped(&p, first.start),
                                body.start
                            )),
                            None => continue,
                        }
                    }
                    None => match module::parse_value(&code, &outline, first.clone()) {
                        Some(v) => Child::Value(v),
                        None => continue,
                    },
                };
                out.registers.push(Register {
                    receiver,
                    child,
                    prefix,
                });
            }
            "route" => {
                let Some(first) = args.first() else { continue };
                let s = code.skip_ws(first.start);
                if bytes.get(s) != Some(&b'{') {
                    continue;
                }
                let o = options(&code, &outline, s);
                if o.paths.is_empty() || o.methods.is_empty() {
                    continue;
                }
                let mut params = Vec::new();
                let mut names = Vec::new();
                if let Some(h) = o.handler {
                    handler_of(&code, &outline, h, &mut params, &mut names);
                }
                out.routes.push(Route {
                    line,
                    receiver,
                    methods: o.methods,
                    paths: o.paths,
                    params,
                    handlers: names,
                    schema: o.schema,
                });
            }
            method => {
                let Some(first) = args.first() else { continue };
                if args.len() < 2 {
                    continue;
                }
                let paths = paths_of(&code, &outline, first.clone());
                if paths.is_empty() {
                    continue;
                }
                let mut params = Vec::new();
                let mut names = Vec::new();
                let mut schema = None;
                for a in &args[1..] {
                    let s = code.skip_ws(a.start);
                    if bytes.get(s) == Some(&b'{') {
                        let o = options(&code, &outline, s);
                        schema = o.schema.or(schema);
                        if let Some(h) = o.handler {
                            handler_of(&code, &outline, h, &mut params, &mut names);
                        }
                    } else {
                        // `fastify.post('/x', opts, handler)` with `const opts =
                        // { schema: {…} }`: the first named argument may be
                        // the options (an unknown name resolves to nothing).
                        if schema.is_none() && a.start != args[args.len() - 1].start {
                            if let Some(Value::Name(n)) =
                                module::parse_value(&code, &outline, a.clone())
                            {
                                schema = Some(Schema::Ref(n));
                            }
                        }
                        handler_of(&code, &outline, a.clone(), &mut params, &mut names);
                    }
                }
                out.routes.push(Route {
                    line,
                    receiver,
                    methods: methods_of(method),
                    paths,
                    params,
                    handlers: names,
                    schema,
                });
            }
        }
    }
    // Named schema objects: `const listSchema = { querystring: {…} }`,
    // `const Body = Type.Object({…})`, `export const userBody = {…}`.
    static DECL: OnceLock<Regex> = OnceLock::new();
    let decl = re(
        &DECL,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*",
    );
    for c in decl.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let v = all.end();
        let end = module::statement_end(&code, v);
        let scoped = outline.scoped(name.as_str(), name.start());
        let props = match props_of(&code, &outline, v..end) {
            Some(Props::Names(n)) => n,
            _ => Vec::new(),
        };
        let mut parts = if bytes.get(v) == Some(&b'{') {
            parts_of(&code, &outline, v)
        } else {
            Vec::new()
        };
        // Route options: `const opts = { schema: { body: {…} } }`.
        if parts.is_empty() && bytes.get(v) == Some(&b'{') {
            if let Some(e) = object_entries(&code, v)
                .into_iter()
                .find(|e| e.key == "schema")
            {
                let o = code.skip_ws(e.value.start);
                if bytes.get(o) == Some(&b'{') {
                    parts = parts_of(&code, &outline, o);
                }
            }
        }
        if !props.is_empty() || !parts.is_empty() {
            out.schemas.push(NamedSchema {
                name: scoped,
                props,
                parts,
            });
        }
    }
    // `module.exports = fp(async function (fastify, opts) {…})`.
    static EXP: OnceLock<Regex> = OnceLock::new();
    let exp = re(
        &EXP,
        r"(?:\bmodule\.exports\s*=|\bexport\s+default)\s*(?:fp|fastifyPlugin)\s*\(",
    );
    if let Some(c) = exp.find_iter(text).find(|c| code.is_code(c.start())) {
        if let Some(first) = code.args(c.end() - 1).first() {
            if let Some((params, _)) = function_parts(&code, first.clone()) {
                out.exported_param = param_names(&code, params)
                    .into_iter()
                    .next()
                    .filter(|p| !p.is_empty())
                    .map(|p| outline.scoped(&p, first.start));
            }
        }
    }
    handlers(&code, &outline, &mut out.handlers);
    out.info = (*info).clone();
    out
}
