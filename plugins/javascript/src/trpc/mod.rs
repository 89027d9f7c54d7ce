//! tRPC (`ts_trpc`): procedures of the root router as HTTP endpoints.
//!
//! Routers: `router({…})`, `t.router({…})`, `createTRPCRouter({…})`
//! bound to names, with entries that are procedures
//! (`publicProcedure.input(z.object({…})).query(…)`), sub-routers by name
//! (also imported from other modules) or inline, and
//! `mergeRouters(a, b)`. The roots are the routers no other router
//! includes. Each procedure is `<endpoint>/<dotted.path>`: queries are
//! GET with the `input` query parameter (tRPC's URL-encoded JSON), and
//! mutations POST with the keys of the input schema as JSON fields
//! (schemas inline or module constants); subscriptions are not reported.
//!
//! The endpoint: `fetchRequestHandler({ endpoint })`, the mount path of
//! `x.use('/trpc', createExpressMiddleware(…))`, the `prefix` of
//! `register(fastifyTRPCPlugin, { prefix })`, `pages/api/trpc/[trpc]` for
//! `createNextApiHandler`; `/trpc` when none is visible. Test files are
//! skipped.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::{is_generated, JS_FILES};
use crate::js::module::{self, ImportKind, ModuleInfo, Value};
use crate::js::outline::{object_entries, Outline};
use crate::js::project::{Project, Target};

pub struct Trpc;

use crate::js::pattern::re;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    Proc {
        method: String,
        line: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        params: Vec<Param>,
    },
    /// A router by name (`""` key: merged in).
    Ref(Value),
    Inline(Vec<(String, Item)>),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrpcModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routers: Vec<(String, Vec<(String, Item)>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<String>,
}

/// Keys of `z.object({…})` (any validator's `.object(`) at `r`, or of such
/// a schema bound to a name in this module.
fn schema_keys(code: &Code<'_>, r: Range<usize>, depth: usize) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let t = code.slice(s..r.end.max(s));
    for open in [".object(", ".Object(", "object("] {
        if let Some(k) = t.find(open) {
            let o = code.skip_ws(s + k + open.len());
            if bytes.get(o) == Some(&b'{') {
                return object_entries(code, o).into_iter().map(|e| e.key).collect();
            }
        }
    }
    let name = t.trim();
    if depth < 4
        && !name.is_empty()
        && name
            .bytes()
            .all(|b| crate::js::syntax::is_js_ident(b) || b == b'.')
    {
        let last = name.rsplit('.').next().unwrap_or(name);
        if let Some(v) = module::declared_value(code, last, false, usize::MAX) {
            let end = module::statement_end(code, v);
            return schema_keys(code, v..end, depth + 1);
        }
    }
    Vec::new()
}

fn entries(
    file: &SourceFile,
    code: &Code<'_>,
    outline: &Outline,
    open: usize,
    depth: usize,
) -> Vec<(String, Item)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for e in object_entries(code, open) {
        let v = e.value.clone();
        let vt = code.slice(v.clone());
        // An inline router.
        static INLINE: OnceLock<Regex> = OnceLock::new();
        let inline = re(
            &INLINE,
            r"^(?:[\w$]+\.)?(?:router|createTRPCRouter|createRouter)\s*\(\s*\{",
        );
        if let Some(m) = inline.find(vt) {
            if depth < 8 {
                let o = v.start + m.end() - 1;
                if bytes.get(o) == Some(&b'{') {
                    out.push((
                        e.key.clone(),
                        Item::Inline(entries(file, code, outline, o, depth + 1)),
                    ));
                }
            }
            continue;
        }
        static KIND: OnceLock<Regex> = OnceLock::new();
        let kind = re(&KIND, r"\.\s*(query|mutation|subscription)\s*\(");
        let last_kind = kind
            .captures_iter(vt)
            .filter(|c| c.get(0).is_some_and(|m| code.is_code(v.start + m.start())))
            .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
            .last();
        if let Some(k) = last_kind {
            let method = match k.as_str() {
                "query" => "GET",
                "mutation" => "POST",
                _ => continue,
            };
            let mut params = Vec::new();
            if method == "GET" {
                if vt.contains(".input(") {
                    params.push(Param::query("input"));
                }
            } else if let Some(k) = vt.find(".input(") {
                let open = v.start + k + ".input".len();
                if let Some(a) = code.args(open).into_iter().next() {
                    params = schema_keys(code, a, 0)
                        .into_iter()
                        .map(Param::json)
                        .collect();
                }
            }
            let key_at = text[..v.start].rfind(e.key.as_str()).unwrap_or(v.start);
            out.push((
                e.key.clone(),
                Item::Proc {
                    method: method.into(),
                    line: file.line_of(key_at),
                    params,
                },
            ));
            continue;
        }
        if let Some(val) = module::parse_value(code, outline, v) {
            if matches!(val, Value::Name(_)) {
                out.push((e.key.clone(), Item::Ref(val)));
            }
        }
    }
    out
}

pub fn scan(file: &SourceFile) -> TrpcModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let mut out = TrpcModule::default();
    static DEF: OnceLock<Regex> = OnceLock::new();
    let def = re(
        &DEF,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*(?:[\w$]+\.)?(router|createTRPCRouter|createRouter|mergeRouters)\s*\(",
    );
    for c in def.captures_iter(text) {
        let (Some(all), Some(name), Some(f)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let name = outline.scoped(name.as_str(), name.start());
        let open = all.end() - 1;
        if f.as_str() == "mergeRouters" {
            let items = code
                .args(open)
                .into_iter()
                .filter_map(|a| module::parse_value(&code, &outline, a))
                .map(|v| (String::new(), Item::Ref(v)))
                .collect();
            out.routers.push((name, items));
            continue;
        }
        let o = code.skip_ws(open + 1);
        if text.as_bytes().get(o) != Some(&b'{') {
            continue;
        }
        out.routers
            .push((name, entries(file, &code, &outline, o, 0)));
    }
    // Where the handler is served.
    static SERVE: OnceLock<Regex> = OnceLock::new();
    let serve = re(
        &SERVE,
        r"\b(fetchRequestHandler|createExpressMiddleware|createNextApiHandler|fastifyTRPCPlugin|createHTTPServer|createHTTPHandler)\b",
    );
    for c in serve.captures_iter(text) {
        let (Some(all), Some(f)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let after = code.skip_ws(all.end());
        let is_call = text.as_bytes().get(after) == Some(&b'(');
        let endpoint = match f.as_str() {
            "fetchRequestHandler" if is_call => crate::apollo::option(&code, after, "endpoint"),
            "createExpressMiddleware" | "createHTTPHandler" if is_call => {
                crate::apollo::mount_path(&code, all.start())
            }
            "fastifyTRPCPlugin" if !is_call => text[..all.start()]
                .rfind("register(")
                .and_then(|k| crate::apollo::option(&code, k + "register".len(), "prefix")),
            "createNextApiHandler" if is_call => next_api_path(&file.path),
            "createHTTPServer" if is_call => Some("/".into()),
            _ => None,
        };
        if let Some(e) = endpoint {
            if !out.endpoints.contains(&e) {
                out.endpoints.push(e);
            }
        }
    }
    out.info = (*info).clone();
    out
}

/// `pages/api/trpc/[trpc].ts` → `/api/trpc`.
fn next_api_path(path: &str) -> Option<String> {
    let i = path.find("pages/api/")?;
    let rest = &path[i + "pages".len()..];
    let dir = rest.rsplit_once('/')?.0;
    Some(dir.to_string())
}

fn walk(
    project: &Project<'_>,
    modules: &[TrpcModule],
    m: usize,
    items: &[(String, Item)],
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, String, usize, u32, Vec<Param>)>,
) {
    if depth > 12 {
        return;
    }
    for (key, item) in items {
        let path = match (prefix.is_empty(), key.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => key.clone(),
            (false, false) => format!("{prefix}.{key}"),
        };
        match item {
            Item::Proc {
                method,
                line,
                params,
            } => out.push((path, method.clone(), m, *line, params.clone())),
            Item::Inline(inner) => walk(project, modules, m, inner, &path, depth + 1, out),
            Item::Ref(v) => {
                if let Some((rm, r)) = router_of(project, modules, m, v) {
                    walk(project, modules, rm, r, &path, depth + 1, out);
                }
            }
        }
    }
}

fn router_of<'a>(
    project: &Project<'_>,
    modules: &'a [TrpcModule],
    m: usize,
    v: &Value,
) -> Option<(usize, &'a [(String, Item)])> {
    let (rm, name) = router_target(project, modules, m, v)?;
    let r = modules.get(rm)?.routers.iter().find(|(n, _)| *n == name)?;
    Some((rm, &r.1))
}

/// The module and name of the router a value denotes: a router of the
/// module, or one imported by name or as the default export.
fn router_target(
    project: &Project<'_>,
    modules: &[TrpcModule],
    m: usize,
    v: &Value,
) -> Option<(usize, String)> {
    let Value::Name(n) = v else { return None };
    let module = modules.get(m)?;
    if module.routers.iter().any(|(r, _)| r == n) {
        return Some((m, n.clone()));
    }
    if let Some(Target::Node(rm, name)) = project.resolve(m, v) {
        if modules.get(rm)?.routers.iter().any(|(r, _)| *r == name) {
            return Some((rm, name));
        }
    }
    let import = module.info.imports.iter().find(|i| i.local == *n)?;
    let target = project.resolve_spec(m, &import.spec)?;
    let name = match &import.kind {
        ImportKind::Named(x) => x.clone(),
        _ => {
            let e = modules
                .get(target)?
                .info
                .exports
                .iter()
                .find(|e| e.name == "default")?;
            match &e.value {
                Value::Name(x) => x.clone(),
                _ => return None,
            }
        }
    };
    modules
        .get(target)?
        .routers
        .iter()
        .any(|(r, _)| *r == name)
        .then_some((target, name))
}

pub fn link(modules: &[TrpcModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    // Routers included by others are not roots.
    let mut included: Vec<(usize, String)> = Vec::new();
    fn refs(items: &[(String, Item)], out: &mut Vec<Value>) {
        for (_, i) in items {
            match i {
                Item::Ref(v) => out.push(v.clone()),
                Item::Inline(inner) => refs(inner, out),
                Item::Proc { .. } => {}
            }
        }
    }
    for (mi, m) in modules.iter().enumerate() {
        for (_, items) in &m.routers {
            let mut vs = Vec::new();
            refs(items, &mut vs);
            for v in vs {
                if let Some(t) = router_target(&project, modules, mi, &v) {
                    included.push(t);
                }
            }
        }
    }
    let mut endpoints: Vec<String> = modules.iter().flat_map(|m| m.endpoints.clone()).collect();
    endpoints.dedup();
    if endpoints.is_empty() {
        endpoints.push("/trpc".into());
    }
    let mut procs = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for (name, items) in &m.routers {
            if included.iter().any(|(rm, n)| *rm == mi && n == name) {
                continue;
            }
            walk(&project, modules, mi, items, "", 0, &mut procs);
        }
    }
    let mut out = Vec::new();
    for e in &endpoints {
        for (path, method, m, line, params) in &procs {
            let Some(module) = modules.get(*m) else {
                continue;
            };
            out.push(
                Endpoint::new(method, join(&[e.as_str(), path.as_str()]))
                    .params(params.clone())
                    .at_path(module.info.path.clone(), *line),
            );
        }
    }
    out
}

impl Analyzer for Trpc {
    fn tech(&self) -> Tech {
        Tech::new("ts_trpc", "TypeScript", "tRPC")
            .aliases(["trpc", "ts-trpc"])
            .files(JS_FILES)
            .detect(
                Detect::files(JS_FILES).regex([r#"\bfrom\s+['"]@trpc/server(?:/[\w/-]+)?['"]"#]),
            )
            .detect(Detect::files(["package.json"]).regex([r#""@trpc/server"\s*:"#]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan(file);
        if !module.info.is_empty() || !module.routers.is_empty() || !module.endpoints.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<TrpcModule> = facts.all();
        Ok(link(&modules))
    }
}
