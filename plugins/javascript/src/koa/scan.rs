//! Map step: what one module declares for Koa routers.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

use crate::express::scan::{
    handlers_with, inline_params_with, methods_of, paths_of, Handler, Reader,
};
use crate::js::guard::{guard_params, guard_refs};
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{object_entries, Outline, ScopeKind};
use crate::js::request::request_params;
use crate::js::schema::{self, Schema};
use crate::js::strexpr::{Piece, StrExpr};
use crate::js::syntax::dotted_before;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KoaModule {
    pub info: ModuleInfo,
    /// The module imports `koa`, `@koa/router` or `koa-router`.
    #[serde(default)]
    pub koa: bool,
    /// Names bound to `new Router(…)` / `new Koa()`, with the router's own
    /// `prefix` (empty when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<(String, Option<StrExpr>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<Mount>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<Handler>,
    /// Router subclasses (`class CrudRouter extends Router`) with the prefix
    /// their constructor hands `super({ prefix })`; their `this.get(…)`
    /// routes are registered on every instance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subclasses: Vec<(String, Option<StrExpr>)>,
    /// `const r = new CrudRouter(…)` of a class not known here (scoped
    /// name, class): `link` matches the class against subclasses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<(String, String)>,
    /// Schemas declared here (`export const createGuard = z.object(…)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<(String, Schema)>,
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
    /// Guard schemas to resolve in `link` (`koaGuard({ body: X })`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<(ParamKind, Schema)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub receiver: String,
    pub prefixes: Vec<StrExpr>,
    pub children: Vec<Value>,
}

use crate::js::pattern::re;

pub const SPECS: &[&str] = &["koa", "@koa/router", "koa-router"];

/// `r.routes()` / `r.middleware()` / `require('./x').routes()` → the router.
fn router_of(v: Value) -> Value {
    match v {
        Value::Call { callee, args } => match *callee {
            Value::Name(n) => match n
                .strip_suffix(".routes")
                .or_else(|| n.strip_suffix(".middleware"))
                .or_else(|| n.strip_suffix(".allowedMethods"))
            {
                Some(r) => Value::Name(r.to_string()),
                None => Value::Call {
                    callee: Box::new(Value::Name(n)),
                    args,
                },
            },
            Value::Require { spec, member } => match member.as_deref() {
                Some("routes") | Some("middleware") => Value::Require { spec, member: None },
                _ => Value::Call {
                    callee: Box::new(Value::Require { spec, member }),
                    args,
                },
            },
            c => Value::Call {
                callee: Box::new(c),
                args,
            },
        },
        v => v,
    }
}

/// A framework with Koa-style routers: which imports name it, which
/// `require`s, and how handlers read the request.
pub struct Flavor {
    pub spec: fn(&str) -> bool,
    pub require: &'static [&'static str],
    pub read: Reader,
}

pub const KOA: Flavor = Flavor {
    spec: |s| SPECS.contains(&s),
    require: SPECS,
    read: request_params,
};

/// Loop variables over lists of routers: `for (const r of [a, b])`,
/// `for (const r of createRouters(x))` where the local function returns an
/// array literal. Each (scoped) variable with the values it stands for.
fn for_of_routers(code: &Code<'_>, outline: &Outline) -> Vec<(String, Vec<Value>)> {
    static FOR: OnceLock<Regex> = OnceLock::new();
    let fo = re(
        &FOR,
        r"\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+",
    );
    let text = code.text();
    let bytes = text.as_bytes();
    let elements = |open: usize| -> Vec<Value> {
        code.args(open)
            .into_iter()
            .filter_map(|a| module::parse_value(code, outline, a))
            .map(router_of)
            .collect()
    };
    let mut out = Vec::new();
    for c in fo.captures_iter(text) {
        let (Some(all), Some(var)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let s = all.end();
        let values = if bytes.get(s) == Some(&b'[') {
            elements(s)
        } else {
            let Some(callee) = code.ident_at(s) else {
                continue;
            };
            let Some(f) = outline
                .scopes
                .iter()
                .find(|x| x.kind == ScopeKind::Function && x.name == callee)
            else {
                continue;
            };
            // The last `return [` of its body.
            let body = code.slice(f.body.clone());
            let Some(k) = body.rfind("return [") else {
                continue;
            };
            let open = f.body.start + k + "return ".len();
            elements(open)
        };
        if !values.is_empty() {
            out.push((outline.scoped(var.as_str(), var.start()), values));
        }
    }
    out
}

/// `class X extends Router { constructor(…) { super({ prefix: … }) } }`
/// (the router class imported here, or named `Router`/`KoaRouter`). A
/// prefix built by a call (`'/' + toPath(schema.table)`) is only known at
/// run time: a placeholder segment named after its last property.
fn subclasses(
    code: &Code<'_>,
    outline: &Outline,
    locals: &[&str],
) -> Vec<(String, Option<StrExpr>)> {
    static EXTENDS: OnceLock<Regex> = OnceLock::new();
    let extends = re(&EXTENDS, r"\bextends\s+([A-Za-z_$][\w$]*)");
    static SUPER: OnceLock<Regex> = OnceLock::new();
    let sup = re(&SUPER, r"\bsuper\s*\(");
    static WORD: OnceLock<Regex> = OnceLock::new();
    let word = re(&WORD, r"[A-Za-z_$][\w$]*");
    let mut out = Vec::new();
    for scope in outline.scopes.iter().filter(|s| s.kind == ScopeKind::Class) {
        // The header between `class` and the body: `class X<T> extends Router<S> `.
        let header = code.slice(scope.start..scope.body.start.saturating_sub(1));
        // The `extends` outside type parameters (`<K extends string>`).
        let outside = |at: usize| {
            let before = header.get(..at).unwrap_or("");
            before.matches('<').count()
                <= before.matches('>').count() - before.matches("=>").count()
        };
        let Some(base) = extends
            .captures_iter(header)
            .find(|c| c.get(0).is_some_and(|m| outside(m.start())))
            .and_then(|c| c.get(1))
            .map(|m| m.as_str())
        else {
            continue;
        };
        if !(locals.contains(&base) || matches!(base, "Router" | "KoaRouter")) {
            continue;
        }
        let body = scope.body.clone();
        let mut prefix = None;
        for m in sup.find_iter(code.slice(body.clone())) {
            let at = body.start + m.start();
            if !code.is_code(at) {
                continue;
            }
            let Some(first) = code.args(body.start + m.end() - 1).into_iter().next() else {
                break;
            };
            let s = code.skip_ws(first.start);
            if code.text().as_bytes().get(s) != Some(&b'{') {
                break;
            }
            if let Some(e) = object_entries(code, s)
                .into_iter()
                .find(|e| e.key == "prefix")
            {
                prefix = StrExpr::parse(code, e.value.clone()).or_else(|| {
                    // The last property or name not called: `schema.table`.
                    let v = code.slice(e.value.clone());
                    let last = word
                        .find_iter(v)
                        .filter(|w| !v[w.end()..].trim_start().starts_with('('))
                        .last()?;
                    Some(StrExpr(vec![Piece::Lit(format!("/{{{}}}", last.as_str()))]))
                });
            }
            break;
        }
        out.push((scope.name.clone(), prefix));
    }
    out
}

pub fn scan(file: &SourceFile) -> KoaModule {
    scan_with(file, &KOA)
}

pub fn scan_with(file: &SourceFile, flavor: &Flavor) -> KoaModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let bytes = text.as_bytes();
    let koa = info.imports.iter().any(|i| (flavor.spec)(&i.spec))
        || flavor.require.iter().any(|s| {
            text.contains(&format!("require('{s}')")) || text.contains(&format!("require(\"{s}\")"))
        });
    let mut out = KoaModule {
        koa,
        ..KoaModule::default()
    };
    let locals: Vec<&str> = info
        .imports
        .iter()
        .filter(|i| (flavor.spec)(&i.spec))
        .map(|i| i.local.as_str())
        .collect();
    // `const router = new Router({ prefix: '/x' })`.
    static NEW: OnceLock<Regex> = OnceLock::new();
    let new = re(
        &NEW,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*new\s+([A-Za-z_$][\w$.]*)\s*(?:<[^;{()]*>\s*)?\(",
    );
    for c in new.captures_iter(text) {
        let (Some(all), Some(name), Some(class)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let class = class.as_str();
        if !(locals.contains(&class) || matches!(class, "Router" | "KoaRouter" | "Koa")) {
            if class.ends_with("Router") {
                out.instances.push((
                    outline.scoped(name.as_str(), name.start()),
                    class.to_string(),
                ));
            }
            continue;
        }
        let prefix = code.args(all.end() - 1).first().and_then(|a| {
            let s = code.skip_ws(a.start);
            if bytes.get(s) != Some(&b'{') {
                return None;
            }
            object_entries(&code, s)
                .into_iter()
                .find(|e| e.key == "prefix")
                .and_then(|e| StrExpr::parse(&code, e.value.clone()))
                .map(|x| x.map_refs(&mut |n| outline.scoped(n, s)))
        });
        out.objects
            .push((outline.scoped(name.as_str(), name.start()), prefix));
    }
    // `const sub = router.use(mw)` / `const sub = (router as Router<S, C>).use(mw)`:
    // `use` returns the router itself, so `sub` is `router`.
    static ALIAS: OnceLock<Regex> = OnceLock::new();
    let alias = re(
        &ALIAS,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*",
    );
    for c in alias.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let mut s = code.skip_ws(all.end());
        let paren = bytes.get(s) == Some(&b'(');
        if paren {
            s = code.skip_ws(s + 1);
        }
        let Some(base) = code.ident_at(s) else {
            continue;
        };
        let mut after = s + base.len();
        if paren {
            let rest = code.slice(code.skip_ws(after)..text.len());
            if !rest.starts_with("as ") {
                continue;
            }
            let Some(close) = code.matching(code.skip_ws(all.end())) else {
                continue;
            };
            after = close + 1;
        }
        let u = code.skip_ws(after);
        if !code.slice(u..text.len()).starts_with(".use(") {
            continue;
        }
        out.mounts.push(Mount {
            receiver: outline.scoped(base, s),
            prefixes: Vec::new(),
            children: vec![Value::Name(outline.scoped(name.as_str(), name.start()))],
        });
    }
    out.subclasses = subclasses(&code, &outline, &locals);
    let loops = for_of_routers(&code, &outline);
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\.\s*(get|post|put|patch|delete|del|all|options|head|use|prefix)\s*\(",
    );
    for c in call.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        // `users.get('/', a).post('/', b)`: a chained call adds to the
        // chain's router.
        let receiver = match dotted_before(&code, all.start()) {
            Some((r, _)) => r,
            None if (out.koa || !out.objects.is_empty())
                && !matches!(m.as_str(), "use" | "prefix") =>
            {
                match crate::hono::scan::chain_root(&code, all.start(), 0) {
                    Some(r) => r,
                    None => continue,
                }
            }
            None => continue,
        };
        let receiver = outline.scoped(&receiver, all.start());
        let args = code.args(all.end() - 1);
        let Some(first) = args.first() else { continue };
        match m.as_str() {
            "prefix" => {
                if let Some(p) = StrExpr::parse(&code, first.clone()) {
                    let p = p.map_refs(&mut |n| outline.scoped(n, first.start));
                    match out.objects.iter_mut().find(|(n, _)| *n == receiver) {
                        Some(o) => o.1 = Some(p),
                        None => out.objects.push((receiver, Some(p))),
                    }
                }
            }
            "use" => {
                let prefixes = paths_of(&code, &outline, first.clone());
                let rest = if prefixes.is_empty() {
                    &args[..]
                } else {
                    &args[1..]
                };
                let mut children: Vec<Value> = Vec::new();
                for a in rest {
                    // `koa-mount`: `app.use(mount('/api', apiApp))`.
                    let s = code.skip_ws(a.start);
                    if code.slice(s..a.end).starts_with("mount(") {
                        let margs = code.args(s + "mount".len());
                        if let (Some(p), Some(c)) = (margs.first(), margs.get(1)) {
                            let prefix = StrExpr::parse(&code, p.clone())
                                .map(|x| x.map_refs(&mut |n| outline.scoped(n, p.start)));
                            let child = module::parse_value(&code, &outline, c.clone());
                            if let (Some(prefix), Some(child)) = (prefix, child) {
                                out.mounts.push(Mount {
                                    receiver: receiver.clone(),
                                    prefixes: vec![prefix],
                                    children: vec![router_of(child)],
                                });
                            }
                        }
                        continue;
                    }
                    let Some(v) = module::parse_value(&code, &outline, a.clone()) else {
                        continue;
                    };
                    match router_of(v) {
                        // `for (const r of routers) app.use(r.routes())`.
                        Value::Name(n) if loops.iter().any(|(l, _)| *l == n) => {
                            for (_, vs) in loops.iter().filter(|(l, _)| *l == n) {
                                children.extend(vs.iter().cloned());
                            }
                        }
                        v => children.push(v),
                    }
                }
                if !children.is_empty() {
                    out.mounts.push(Mount {
                        receiver,
                        prefixes,
                        children,
                    });
                }
            }
            method => {
                // `router.get('name', '/path', …)`: a named route.
                let mut rest = &args[1..];
                let mut path_arg = first.clone();
                if let Some(second) = args.get(1) {
                    if code.string_at(first.start).is_some()
                        && code.string_at(second.start).is_some()
                    {
                        path_arg = second.clone();
                        rest = &args[2..];
                    }
                }
                if rest.is_empty() {
                    continue;
                }
                let paths = paths_of(&code, &outline, path_arg);
                if paths.is_empty() {
                    continue;
                }
                let mut params: Vec<Param> = Vec::new();
                let mut names = Vec::new();
                let mut schemas = Vec::new();
                for a in rest {
                    schemas.extend(guard_refs(&code, &outline, a.clone()));
                    let ps = inline_params_with(&code, a.clone(), flavor.read)
                        .or_else(|| guard_params(&code, a.clone()));
                    if let Some(ps) = ps {
                        for p in ps {
                            if !params.contains(&p) {
                                params.push(p);
                            }
                        }
                    } else if let Some(Value::Name(n)) =
                        module::parse_value(&code, &outline, a.clone())
                    {
                        names.push(n);
                    }
                }
                out.routes.push(Route {
                    line: file.line_of(code.skip_ws(all.start() + 1)),
                    receiver,
                    methods: methods_of(method),
                    paths,
                    params,
                    handlers: names,
                    schemas,
                });
            }
        }
    }
    handlers_with(&code, &outline, &mut out.handlers, flavor.read);
    if schema::may_declare(code.text()) {
        out.schemas = schema::declarations(&code, &outline);
    }
    out.info = (*info).clone();
    out
}
