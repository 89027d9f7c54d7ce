//! Hapi (`js_hapi`).
//!
//! Routes: route configuration objects `{ method, path, handler, options
//! | config }` (method a string, an array, or `'*'` — reported as GET,
//! POST, PUT, PATCH and DELETE) wherever they are written: passed to
//! `server.route(…)`, in exported arrays, in plugins. Optional and
//! multi-segment parameters (`{id?}`, `{path*}`) become `{id}`/`{path}`.
//!
//! Prefixes: `server.register({ plugin, routes: { prefix } })` and
//! `server.register(plugin, { routes: { prefix } })` (also arrays) give
//! the plugin's module the prefix; modules whose routes a module passes
//! to `server.route(imported)` share its prefix; nested registrations
//! compose.
//!
//! Parameters: `validate.query/payload/params/headers/state` with
//! `Joi.object({…})` or plain objects, and what the handler reads from
//! `request.query/payload/params/headers/state`. Test files are skipped.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param, ParamKind, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::link::path_value;
use crate::express::scan::{inline_params, paths_of};
use crate::express::{is_generated, JS_FILES};
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{function_parts, object_entries, param_names, Outline};
use crate::js::project::{Project, Target};
use crate::js::strexpr::StrExpr;
use crate::js::syntax::dotted_before;

pub struct Hapi;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HapiModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    /// Plugins registered here, with their prefix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registers: Vec<(Value, Option<StrExpr>)>,
    /// Values passed to `server.route(…)` that are not inline objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub route_refs: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub methods: Vec<String>,
    pub paths: Vec<StrExpr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
}

use crate::js::pattern::re;

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

fn keys_of(code: &Code<'_>, r: Range<usize>) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    if bytes.get(s) == Some(&b'{') {
        return object_entries(code, s).into_iter().map(|e| e.key).collect();
    }
    let t = code.slice(s..r.end);
    if let Some(k) = t.find(".object(") {
        let o = code.skip_ws(s + k + ".object(".len());
        if bytes.get(o) == Some(&b'{') {
            return object_entries(code, o).into_iter().map(|e| e.key).collect();
        }
    }
    Vec::new()
}

/// What a handler reads from its request.
fn handler_params(code: &Code<'_>, r: Range<usize>) -> Vec<Param> {
    let mut out = inline_params(code, r.clone()).unwrap_or_default();
    let Some((params, body)) = function_parts(code, r) else {
        return out;
    };
    let Some(req) = param_names(code, params)
        .into_iter()
        .next()
        .filter(|p| !p.is_empty())
    else {
        return out;
    };
    let text = code.slice(body.clone());
    let q = regex::escape(&req);
    let pats = [
        format!(r"\b{q}\.(payload|state)\.([A-Za-z_$][\w$]*)"),
        format!(r"\b(?:const|let|var)\s+\{{([^}}]*)\}}\s*=\s*{q}\.(payload|state)\b"),
    ];
    let mut found: Vec<(usize, Param)> = Vec::new();
    for (i, p) in pats.iter().enumerate() {
        let Some(rx) = crate::js::pattern::regex(p) else {
            continue;
        };
        for c in rx.captures_iter(text) {
            let Some(all) = c.get(0) else { continue };
            if !code.is_code(body.start + all.start()) {
                continue;
            }
            let (what, names) = if i == 0 {
                (c.get(1), c.get(2).map(|n| vec![n.as_str().to_string()]))
            } else {
                (
                    c.get(2),
                    c.get(1).map(|d| {
                        d.as_str()
                            .split(',')
                            .map(|x| {
                                x.trim()
                                    .chars()
                                    .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                                    .collect::<String>()
                            })
                            .filter(|x| !x.is_empty())
                            .collect()
                    }),
                )
            };
            let (Some(what), Some(names)) = (what, names) else {
                continue;
            };
            let kind = if what.as_str() == "payload" {
                ParamKind::Json
            } else {
                ParamKind::Cookie
            };
            for n in names {
                found.push((all.start(), Param::new(kind, n)));
            }
        }
    }
    found.sort_by_key(|(a, _)| *a);
    for (_, p) in found {
        if !out.iter().any(|o| o.name == p.name && o.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

fn route_object(
    file: &SourceFile,
    code: &Code<'_>,
    outline: &Outline,
    open: usize,
) -> Option<Route> {
    let es = object_entries(code, open);
    let method = es.iter().find(|e| e.key == "method")?;
    let path = es.iter().find(|e| e.key == "path")?;
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(method.value.start);
    let items = if bytes.get(s) == Some(&b'[') {
        code.args(s)
    } else {
        vec![method.value.clone()]
    };
    let mut methods: Vec<String> = Vec::new();
    for i in items {
        let lit = code.string_at(i.start)?;
        let m = lit.value.to_ascii_uppercase();
        if m == "*" {
            methods.extend(ANY.iter().map(|x| x.to_string()));
        } else {
            methods.push(m);
        }
    }
    let paths: Vec<StrExpr> = paths_of(code, outline, path.value.clone());
    if paths.is_empty() || methods.is_empty() {
        return None;
    }
    let mut params: Vec<Param> = Vec::new();
    let mut add = |p: Param| {
        if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
            params.push(p);
        }
    };
    for e in &es {
        if e.key == "options" || e.key == "config" {
            let o = code.skip_ws(e.value.start);
            if bytes.get(o) != Some(&b'{') {
                continue;
            }
            for x in object_entries(code, o) {
                if x.key == "validate" {
                    let v = code.skip_ws(x.value.start);
                    if bytes.get(v) != Some(&b'{') {
                        continue;
                    }
                    for part in object_entries(code, v) {
                        let kind = match part.key.as_str() {
                            "query" => ParamKind::Query,
                            "payload" => ParamKind::Json,
                            "params" => ParamKind::Path,
                            "headers" => ParamKind::Header,
                            "state" => ParamKind::Cookie,
                            _ => continue,
                        };
                        for k in keys_of(code, part.value.clone()) {
                            add(Param::new(kind, k));
                        }
                    }
                } else if x.key == "handler" {
                    for p in handler_params(code, x.value.clone()) {
                        add(p);
                    }
                }
            }
        } else if e.key == "handler" {
            for p in handler_params(code, e.value.clone()) {
                add(p);
            }
        }
    }
    Some(Route {
        line: file.line_of(open),
        methods,
        paths,
        params,
    })
}

pub fn scan(file: &SourceFile) -> HapiModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = HapiModule::default();
    // Route objects: the object around each `method:` key with a `path`.
    static METHOD: OnceLock<Regex> = OnceLock::new();
    let method = re(&METHOD, r#"\bmethod\s*:\s*['"\[]"#);
    for m in method.find_iter(text) {
        if !code.is_code(m.start()) {
            continue;
        }
        let Some(&d) = outline.depth.get(m.start()) else {
            continue;
        };
        let Some(open) = (0..m.start()).rev().find(|&i| {
            bytes[i] == b'{'
                && code.is_code(i)
                && outline.depth.get(i) == Some(&(d.saturating_sub(1)))
        }) else {
            continue;
        };
        if let Some(r) = route_object(file, &code, &outline, open) {
            out.routes.push(r);
        }
    }
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(&CALL, r"\.\s*(register|route)\s*\(");
    for c in call.captures_iter(text) {
        let (Some(all), Some(what)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) || dotted_before(&code, all.start()).is_none() {
            continue;
        }
        let args = code.args(all.end() - 1);
        let Some(first) = args.first() else { continue };
        let s = code.skip_ws(first.start);
        let items = if bytes.get(s) == Some(&b'[') {
            code.args(s)
        } else {
            vec![first.clone()]
        };
        let prefix_in = |r: &Range<usize>| -> Option<StrExpr> {
            let o = code.skip_ws(r.start);
            if bytes.get(o) != Some(&b'{') {
                return None;
            }
            let routes = object_entries(&code, o)
                .into_iter()
                .find(|e| e.key == "routes")?;
            let ro = code.skip_ws(routes.value.start);
            if bytes.get(ro) != Some(&b'{') {
                return None;
            }
            let p = object_entries(&code, ro)
                .into_iter()
                .find(|e| e.key == "prefix")?;
            StrExpr::parse(&code, p.value.clone())
                .map(|x| x.map_refs(&mut |n| outline.scoped(n, ro)))
        };
        for item in items {
            let i = code.skip_ws(item.start);
            if what.as_str() == "route" {
                if bytes.get(i) != Some(&b'{') {
                    if let Some(v) = module::parse_value(&code, &outline, item.clone()) {
                        out.route_refs.push(v);
                    }
                }
                continue;
            }
            if bytes.get(i) == Some(&b'{') {
                let es = object_entries(&code, i);
                let Some(p) = es.iter().find(|e| e.key == "plugin") else {
                    continue;
                };
                if let Some(v) = module::parse_value(&code, &outline, p.value.clone()) {
                    out.registers.push((v, prefix_in(&item)));
                }
            } else if let Some(v) = module::parse_value(&code, &outline, item.clone()) {
                out.registers.push((v, args.get(1).and_then(prefix_in)));
            }
        }
    }
    out.info = (*info).clone();
    out
}

/// The module a value denotes or comes from.
fn module_of(project: &Project<'_>, m: usize, v: &Value) -> Option<usize> {
    let base = match v {
        Value::Name(n) => Value::Name(n.split('.').next().unwrap_or(n).to_string()),
        Value::Require { spec, .. } => Value::Require {
            spec: spec.clone(),
            member: None,
        },
        other => other.clone(),
    };
    match &base {
        Value::Require { spec, .. } => return project.resolve_spec(m, spec),
        Value::Name(n) => {
            if let Some(i) = project
                .modules
                .get(m)?
                .imports
                .iter()
                .find(|i| &i.local == n)
            {
                return project.resolve_spec(m, &i.spec);
            }
        }
        _ => {}
    }
    match project.resolve(m, &base)? {
        Target::Node(fm, _)
        | Target::Func(fm, _)
        | Target::Class(fm, _)
        | Target::Module(fm)
        | Target::Returned(fm, _)
        | Target::Instance(fm, _) => Some(fm),
        Target::External(_) => None,
    }
}

/// `{id?}` / `{path*}` / `{files*2}` → `{id}` / `{path}` / `{files}`.
fn clean(url: &str) -> String {
    static P: OnceLock<Regex> = OnceLock::new();
    re(&P, r"\{([A-Za-z_$][\w$]*)(?:\?|\*\d*)\}")
        .replace_all(url, "{$1}")
        .into_owned()
}

pub fn link(modules: &[HapiModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    // Edges: (parent module, child module, prefix).
    let mut edges: Vec<(usize, usize, String)> = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for (v, p) in &m.registers {
            if let Some(c) = module_of(&project, mi, v).filter(|c| *c != mi) {
                let p = p
                    .as_ref()
                    .map(|p| path_value(&project, mi, p))
                    .unwrap_or_default();
                edges.push((mi, c, p));
            }
        }
        for v in &m.route_refs {
            if let Some(c) = module_of(&project, mi, v).filter(|c| *c != mi) {
                edges.push((mi, c, String::new()));
            }
        }
    }
    let mut memo: Vec<Option<Vec<String>>> = vec![None; modules.len()];
    fn prefixes(
        m: usize,
        edges: &[(usize, usize, String)],
        memo: &mut Vec<Option<Vec<String>>>,
        depth: usize,
    ) -> Vec<String> {
        if let Some(Some(p)) = memo.get(m) {
            return p.clone();
        }
        let parents: Vec<&(usize, usize, String)> = edges.iter().filter(|e| e.1 == m).collect();
        let out = if parents.is_empty() || depth > 12 {
            vec![String::new()]
        } else {
            let mut out = Vec::new();
            for (p, _, pre) in parents {
                for pp in prefixes(*p, edges, memo, depth + 1) {
                    let j = join(&[pp.as_str(), pre.as_str()]);
                    if !out.contains(&j) {
                        out.push(j);
                    }
                }
            }
            out
        };
        if let Some(slot) = memo.get_mut(m) {
            *slot = Some(out.clone());
        }
        out
    }
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        if m.routes.is_empty() {
            continue;
        }
        for prefix in prefixes(mi, &edges, &mut memo, 0) {
            for r in &m.routes {
                for path in &r.paths {
                    let url = clean(&join(&[prefix.as_str(), &path_value(&project, mi, path)]));
                    for method in &r.methods {
                        out.push(
                            Endpoint::new(method, url.clone())
                                .params(r.params.clone())
                                .at_path(m.info.path.clone(), r.line),
                        );
                    }
                }
            }
        }
    }
    out
}

impl Analyzer for Hapi {
    fn tech(&self) -> Tech {
        Tech::new("js_hapi", "JavaScript", "Hapi")
            .aliases(["hapi", "js-hapi"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"require\(\s*['"]@hapi/hapi['"]\s*\)"#,
                r#"\bfrom\s+['"]@hapi/hapi['"]"#,
                r#"require\(\s*['"]hapi['"]\s*\)"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan(file);
        if !module.info.is_empty() || !module.routes.is_empty() || !module.registers.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<HapiModule> = facts.all();
        Ok(link(&modules))
    }
}

#[cfg(test)]
mod tests;
