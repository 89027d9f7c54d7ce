//! Map step: Elysia instances, routes, groups and plugin uses of a module.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::scan::{methods_of, paths_of};
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{function_parts, object_entries, param_names};
use crate::js::reads::ordered;
use crate::js::strexpr::StrExpr;
use crate::js::syntax::{dotted_before, is_js_ident, matching_back};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ElysiaModule {
    pub info: ModuleInfo,
    /// Instances (`new Elysia(…)`) by name, with their `prefix` option.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<(String, Option<StrExpr>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    /// `parent.use(child)` inside groups with these prefixes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<(String, Vec<StrExpr>, Value)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub receiver: String,
    /// Prefixes of the enclosing groups, outermost first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<StrExpr>,
    pub methods: Vec<String>,
    pub paths: Vec<StrExpr>,
    #[serde(default)]
    pub ws: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
}

use crate::js::pattern::re;

/// The root of a call chain ending at the `.` at `dot`: a name, or the
/// offset of a `new Elysia(…)`.
enum Root {
    Name(String),
    New(usize),
}

fn chain_root(code: &Code<'_>, dot: usize, depth: usize) -> Option<Root> {
    if depth > 64 {
        return None;
    }
    if let Some((n, _)) = dotted_before(code, dot) {
        if n != "Elysia" {
            return Some(Root::Name(n));
        }
    }
    let bytes = code.text().as_bytes();
    let mut p = dot;
    while p > 0 && bytes[p - 1].is_ascii_whitespace() {
        p -= 1;
    }
    if p == 0 || bytes[p - 1] != b')' {
        return None;
    }
    let open = matching_back(code, p - 1)?;
    let mut q = open;
    while q > 0 && bytes[q - 1].is_ascii_whitespace() {
        q -= 1;
    }
    // Type arguments: `new Elysia<…>(`.
    if q > 0 && bytes[q - 1] == b'>' {
        q = code.text()[..q].rfind('<')?;
    }
    let mut s = q;
    while s > 0 && is_js_ident(bytes[s - 1]) {
        s -= 1;
    }
    if s == q {
        return None;
    }
    let callee = &code.text()[s..q];
    let mut b = s;
    while b > 0 && bytes[b - 1].is_ascii_whitespace() {
        b -= 1;
    }
    if callee == "Elysia" && code.text()[..b].ends_with("new") {
        return Some(Root::New(b - 3));
    }
    if b == 0 || bytes[b - 1] != b'.' {
        return None;
    }
    chain_root(code, b - 1, depth + 1)
}

/// Keys of `t.Object({…})` / `z.object({…})` / `{…}` at `r`, or of such a
/// schema bound to a name of this module.
fn schema_keys(code: &Code<'_>, r: Range<usize>, depth: usize) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let t = code.slice(s..r.end.max(s));
    for open in [".Object(", ".object("] {
        if let Some(k) = t.find(open) {
            let o = code.skip_ws(s + k + open.len());
            if bytes.get(o) == Some(&b'{') {
                return object_entries(code, o).into_iter().map(|e| e.key).collect();
            }
        }
    }
    if bytes.get(s) == Some(&b'{') {
        return object_entries(code, s).into_iter().map(|e| e.key).collect();
    }
    let name = t.trim();
    if depth < 4 && !name.is_empty() && name.bytes().all(|b| is_js_ident(b) || b == b'.') {
        let last = name.rsplit('.').next().unwrap_or(name);
        if let Some(v) = module::declared_value(code, last, true, s) {
            let end = module::statement_end(code, v);
            return schema_keys(code, v..end, depth + 1);
        }
    }
    Vec::new()
}

fn kind_of(part: &str) -> Option<ParamKind> {
    Some(match part {
        "query" => ParamKind::Query,
        "body" => ParamKind::Json,
        "headers" => ParamKind::Header,
        "cookie" => ParamKind::Cookie,
        _ => return None,
    })
}

/// Parameters from a route's handler and hook arguments.
fn route_params(
    code: &Code<'_>,
    handler: Option<&Range<usize>>,
    hook: Option<&Range<usize>>,
) -> Vec<Param> {
    let mut found: Vec<(usize, Param)> = Vec::new();
    if let Some(h) = hook {
        let o = code.skip_ws(h.start);
        if code.text().as_bytes().get(o) == Some(&b'{') {
            for e in object_entries(code, o) {
                let Some(kind) = kind_of(&e.key) else {
                    continue;
                };
                for k in schema_keys(code, e.value.clone(), 0) {
                    found.push((e.value.start, Param::new(kind, k)));
                }
            }
        }
    }
    if let Some(h) = handler {
        if let Some((params, body)) = function_parts(code, h.clone()) {
            let text = code.text();
            // `({ query: { q }, body: { a } })`
            static DESTR: OnceLock<Regex> = OnceLock::new();
            let destr = re(&DESTR, r"\b(query|body|headers|cookie)\s*:\s*\{");
            if let Some(pt) = text.get(params.clone()) {
                for c in destr.captures_iter(pt) {
                    let (Some(all), Some(k)) = (c.get(0), c.get(1)) else {
                        continue;
                    };
                    let Some(kind) = kind_of(k.as_str()) else {
                        continue;
                    };
                    let open = params.start + all.end() - 1;
                    if let Some(close) = code.matching(open) {
                        for n in crate::js::request::destructured(code, close) {
                            found.push((open, Param::new(kind, n)));
                        }
                    }
                }
            }
            // `query.x`, `ctx.body.x`, `headers['x']`, `cookie.x.value`.
            let names = param_names(code, params.clone());
            let ctx = names.first().filter(|n| !n.is_empty()).cloned();
            static READ: OnceLock<Regex> = OnceLock::new();
            let read = re(
                &READ,
                r#"(?:\b([A-Za-z_$][\w$]*)\s*\.\s*)?\b(query|body|headers|cookie)\s*(?:\??\.\s*([A-Za-z_$][\w$]*)|\??\.?\[\s*['"`]([^'"`]+)['"`]\s*\])"#,
            );
            let whole = params.start..body.end;
            if let Some(bt) = text.get(whole.clone()) {
                for c in read.captures_iter(bt) {
                    let (Some(all), Some(k)) = (c.get(0), c.get(2)) else {
                        continue;
                    };
                    let at = whole.start + all.start();
                    if !code.is_code(at) || (at > 0 && text.as_bytes()[at - 1] == b'.') {
                        continue;
                    }
                    if let Some(obj) = c.get(1) {
                        if ctx.as_deref() != Some(obj.as_str()) {
                            continue;
                        }
                    }
                    let Some(kind) = kind_of(k.as_str()) else {
                        continue;
                    };
                    let Some(name) = c.get(3).or(c.get(4)) else {
                        continue;
                    };
                    found.push((at, Param::new(kind, name.as_str())));
                }
            }
        }
    }
    ordered(found)
}

struct Group {
    body: Range<usize>,
    param: String,
    receiver: String,
    prefixes: Vec<StrExpr>,
    /// What the hooks of this group and the enclosing ones validate
    /// (`.guard({ body: t.Object({…}) }, app => …)`).
    params: Vec<Param>,
}

pub fn scan(file: &SourceFile) -> ElysiaModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let mut out = ElysiaModule::default();
    // Instances and the names they are bound to.
    let mut news: Vec<(usize, String)> = Vec::new();
    static NEW: OnceLock<Regex> = OnceLock::new();
    let new = re(&NEW, r"\bnew\s+Elysia\s*(?:<[^>]*>)?\s*\(");
    static BIND: OnceLock<Regex> = OnceLock::new();
    let bind = re(
        &BIND,
        r"(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=|\bexport\s+(default)|\b(return))\s*$",
    );
    for m in new.find_iter(text) {
        if !code.is_code(m.start()) {
            continue;
        }
        let mut from = m.start().saturating_sub(200);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let before_full = &text[from..m.start()];
        let name = bind
            .captures(before_full)
            .and_then(|c| {
                c.get(1)
                    .map(|n| outline.scoped(n.as_str(), m.start()))
                    .or(c.get(2).map(|_| "default".to_string()))
                    .or(c.get(3).and_then(|_| {
                        outline
                            .scope_at(m.start())
                            .map(|s| format!("{}#@return", s.name))
                    }))
            })
            .unwrap_or_else(|| format!("@elysia{}", m.start()));
        let prefix = code.args(m.end() - 1).first().and_then(|a| {
            let o = code.skip_ws(a.start);
            if text.as_bytes().get(o) != Some(&b'{') {
                return None;
            }
            object_entries(&code, o)
                .into_iter()
                .find(|e| e.key == "prefix")
                .and_then(|e| StrExpr::parse(&code, e.value.clone()))
                .map(|x| x.map_refs(&mut |n| outline.scoped(n, o)))
        });
        news.push((m.start(), name.clone()));
        out.objects.push((name, prefix));
    }
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\.\s*(get|post|put|patch|delete|options|head|all|ws|route|group|guard|use)\s*\(",
    );
    let mut groups: Vec<Group> = Vec::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let Some(root) = chain_root(&code, all.start(), 0) else {
            continue;
        };
        let (receiver, prefixes, hooked) = match root {
            Root::New(at) => match news.iter().find(|(s, _)| *s == at) {
                Some((_, n)) => (n.clone(), Vec::new(), Vec::new()),
                None => continue,
            },
            Root::Name(n) => {
                let first = n.split('.').next().unwrap_or(&n).to_string();
                match groups
                    .iter()
                    .rev()
                    .find(|g| g.body.contains(&all.start()) && g.param == first)
                {
                    Some(g) => (g.receiver.clone(), g.prefixes.clone(), g.params.clone()),
                    None => (outline.scoped(&n, all.start()), Vec::new(), Vec::new()),
                }
            }
        };
        let args = code.args(all.end() - 1);
        let line = file.line_of(code.skip_ws(all.start() + 1));
        match m.as_str() {
            "group" | "guard" => {
                let Some(cb) = args.last() else { continue };
                let Some((ps, body)) = function_parts(&code, cb.clone()) else {
                    continue;
                };
                let Some(param) = param_names(&code, ps).into_iter().next() else {
                    continue;
                };
                let mut prefixes = prefixes;
                // The hook: `guard(hook, cb)`, `group(prefix, hook, cb)`.
                let hook = match (m.as_str(), args.len()) {
                    ("guard", 2) => args.first(),
                    ("group", 3) => args.get(1),
                    _ => None,
                };
                let mut params = hooked;
                for p in route_params(&code, None, hook) {
                    if !params.contains(&p) {
                        params.push(p);
                    }
                }
                if m.as_str() == "group" {
                    let Some(p) = args
                        .first()
                        .and_then(|a| StrExpr::parse(&code, a.clone()))
                        .map(|x| x.map_refs(&mut |n| outline.scoped(n, all.start())))
                    else {
                        continue;
                    };
                    prefixes.push(p);
                }
                groups.push(Group {
                    body,
                    param,
                    receiver,
                    prefixes,
                    params,
                });
            }
            "use" => {
                let Some(a) = args.first() else { continue };
                if let Some(v) = module::parse_value(&code, &outline, a.clone()) {
                    out.mounts.push((receiver, prefixes, v));
                }
            }
            method => {
                let (methods, rest) = if method == "route" {
                    let Some(first) = args
                        .first()
                        .and_then(|a| code.string_at(code.skip_ws(a.start)))
                    else {
                        continue;
                    };
                    (
                        vec![first.value.to_ascii_uppercase()],
                        &args[1.min(args.len())..],
                    )
                } else if method == "ws" {
                    (vec!["GET".to_string()], &args[..])
                } else {
                    (methods_of(method), &args[..])
                };
                let Some(path) = rest.first() else { continue };
                if rest.len() < 2 {
                    continue;
                }
                let paths = paths_of(&code, &outline, path.clone());
                if paths.is_empty() {
                    continue;
                }
                let params = if method == "ws" {
                    Vec::new()
                } else {
                    let mut ps = route_params(&code, rest.get(1), rest.get(2));
                    for p in hooked {
                        if !ps.contains(&p) {
                            ps.push(p);
                        }
                    }
                    ps
                };
                out.routes.push(Route {
                    line,
                    receiver,
                    groups: prefixes,
                    methods,
                    paths,
                    ws: method == "ws",
                    params,
                });
            }
        }
    }
    out.info = (*info).clone();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_after_multibyte_text() {
        let src = format!(
            "// {}\nexport const api = new Elysia({{ prefix: '/v1' }}).get('/x', ({{ query }}) => query.q);\n",
            "é".repeat(150)
        );
        let m = scan(&SourceFile::new("src/api.ts", src));
        assert_eq!(m.objects.len(), 1);
        assert_eq!(m.objects[0].0, "api");
        assert_eq!(m.routes.len(), 1);
        assert_eq!(m.routes[0].receiver, "api");
        assert_eq!(m.routes[0].params, vec![Param::query("q")]);
    }
}
