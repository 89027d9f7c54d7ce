//! Map step: what one module declares for Hono.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::scan::{methods_of, paths_of};
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::Outline;
use crate::js::schema::{self, Schema};
use crate::js::strexpr::StrExpr;
use crate::js::syntax::{dotted_before, is_js_ident, matching_back};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HonoModule {
    pub info: ModuleInfo,
    #[serde(default)]
    pub hono: bool,
    /// Names bound to `new Hono()` (with `.basePath(p)`: the prefix).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<(String, Option<StrExpr>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    /// `parent.route(prefix, child)`, `const child = parent.basePath(p)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<(String, StrExpr, Value)>,
    /// Schemas declared here (see [`crate::js::schema`]).
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
    /// Validator schemas named by variables: (where, schema).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<(ParamKind, Schema)>,
}

use crate::js::pattern::re;

/// The receiver of a call chain ending at the `.` at `dot`:
/// `app.get('/a', h).post(` → `app`.
pub fn chain_root(code: &Code<'_>, dot: usize, depth: usize) -> Option<String> {
    if depth > 32 {
        return None;
    }
    if let Some((n, _)) = dotted_before(code, dot) {
        return Some(n);
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
    // Type arguments: `new Hono<{ Variables: V }>()`.
    let mut e = open;
    if e > 0 && bytes[e - 1] == b'>' {
        let mut d = 0i32;
        let mut k = e - 1;
        loop {
            match bytes[k] {
                b'>' => d += 1,
                b'<' => {
                    d -= 1;
                    if d == 0 {
                        break;
                    }
                }
                _ => {}
            }
            if k == 0 || e - k > 2_000 {
                return None;
            }
            k -= 1;
        }
        e = k;
    }
    let mut s = e;
    while s > 0 && is_js_ident(bytes[s - 1]) {
        s -= 1;
    }
    if s == e {
        return None;
    }
    let mut q = s;
    while q > 0 && bytes[q - 1].is_ascii_whitespace() {
        q -= 1;
    }
    if q >= 3 && &bytes[q - 3..q] == b"new" && (q == 3 || !is_js_ident(bytes[q - 4])) {
        // `const app = new Hono()…`: the chain is on the bound object.
        return bound_name_before(code, q - 3);
    }
    if q == 0 || bytes[q - 1] != b'.' {
        return None;
    }
    chain_root(code, q - 1, depth + 1)
}

/// `const NAME = ` (optionally typed) just before `at`.
fn bound_name_before(code: &Code<'_>, at: usize) -> Option<String> {
    let text = code.text();
    let from = text.floor_char_boundary(at.saturating_sub(300));
    let before = text.get(from..at)?;
    static BIND: OnceLock<Regex> = OnceLock::new();
    let bind = re(
        &BIND,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*$",
    );
    bind.captures(before)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string())
}

/// Parameters read by inline handlers and validators in `r`, and the
/// validator schemas named by variables (resolved in `link`).
pub fn params_in(
    code: &Code<'_>,
    outline: &Outline,
    r: Range<usize>,
    table: &[(String, Schema)],
) -> (Vec<Param>, Vec<(ParamKind, Schema)>) {
    let mut deferred = Vec::new();
    let text = code.slice(r.clone());
    let mut found: Vec<(usize, Param)> = Vec::new();
    static CALLS: OnceLock<Regex> = OnceLock::new();
    let calls = re(
        &CALLS,
        r#"\.req\.(query|queries|param|header)\(\s*['"`]([^'"`]+)['"`]|\bgetCookie\(\s*[\w$]+\s*,\s*['"`]([^'"`]+)['"`]"#,
    );
    for c in calls.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        if !code.is_code(r.start + all.start()) {
            continue;
        }
        let (kind, name) = match (c.get(1), c.get(2), c.get(3)) {
            (Some(k), Some(n), _) => (
                match k.as_str() {
                    "param" => ParamKind::Path,
                    "header" => ParamKind::Header,
                    _ => ParamKind::Query,
                },
                n.as_str(),
            ),
            (_, _, Some(n)) => (ParamKind::Cookie, n.as_str()),
            _ => continue,
        };
        found.push((all.start(), Param::new(kind, name)));
    }
    // `const { a, b } = await c.req.json()` / `.parseBody()` / `c.req.query()`
    // / `c.req.valid('json')`.
    static DESTR: OnceLock<Regex> = OnceLock::new();
    let destr = re(
        &DESTR,
        r#"\b(?:const|let|var)\s+\{([^}]*)\}\s*=\s*(?:await\s+)?[\w$]+\.req\.(json|parseBody|query|valid)\(\s*(?:['"`](\w+)['"`])?"#,
    );
    for c in destr.captures_iter(text) {
        let (Some(all), Some(names), Some(how)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(r.start + all.start()) {
            continue;
        }
        let kind = match (how.as_str(), c.get(3).map(|x| x.as_str())) {
            ("json", _) | ("valid", Some("json")) => ParamKind::Json,
            ("parseBody", _) | ("valid", Some("form")) => ParamKind::Form,
            ("query", _) | ("valid", Some("query")) => ParamKind::Query,
            _ => continue,
        };
        for part in names.as_str().split(',') {
            let n: String = part
                .trim()
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_' || *ch == '$')
                .collect();
            if !n.is_empty() {
                found.push((all.start(), Param::new(kind, n)));
            }
        }
    }
    // Bound then read: `const body = await c.req.json(); body.title`,
    // `(await c.req.parseBody())['file']`, `const v = c.req.valid('json'); v.x`.
    static BOUND: OnceLock<[Regex; 5]> = OnceLock::new();
    let bound = BOUND.get_or_init(|| {
        let r = |p: &str| crate::js::pattern::regex(p).unwrap_or_else(crate::js::pattern::never);
        [
            r(r"\b[A-Za-z_$][\w$]*\.req\.json\("),
            r(r"\b[A-Za-z_$][\w$]*\.req\.parseBody\("),
            r(r#"\b[A-Za-z_$][\w$]*\.req\.valid\(\s*['"`]json['"`]\s*\)"#),
            r(r#"\b[A-Za-z_$][\w$]*\.req\.valid\(\s*['"`]form['"`]\s*\)"#),
            r(r"\b[A-Za-z_$][\w$]*\.req\.query\(\s*\)"),
        ]
    });
    for (source, kind) in bound.iter().zip([
        ParamKind::Json,
        ParamKind::Form,
        ParamKind::Json,
        ParamKind::Form,
        ParamKind::Query,
    ]) {
        for (at, p) in crate::js::reads::reads(code, r.clone(), source, kind) {
            if !matches!(p.name.as_str(), "then" | "catch" | "finally") {
                found.push((at - r.start, p));
            }
        }
    }
    // Validators: `zValidator('json', z.object({…}))`, `validator('query', …)`.
    static VAL: OnceLock<Regex> = OnceLock::new();
    let val = re(
        &VAL,
        r#"\b(?:zValidator|vValidator|tbValidator|typiaValidator|arktypeValidator)\(\s*['"`](json|query|form|param|header|cookie)['"`]\s*,"#,
    );
    for c in val.captures_iter(text) {
        let (Some(all), Some(target)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let start = r.start + all.start();
        if !code.is_code(start) {
            continue;
        }
        let Some(open) = code.text()[start..].find('(').map(|k| start + k) else {
            continue;
        };
        let Some(schema) = code.args(open).get(1).cloned() else {
            continue;
        };
        let kind = match target.as_str() {
            "json" => ParamKind::Json,
            "query" => ParamKind::Query,
            "form" => ParamKind::Form,
            "param" => ParamKind::Path,
            "header" => ParamKind::Header,
            _ => ParamKind::Cookie,
        };
        let Some(schema) = schema::parse(code, outline, schema) else {
            continue;
        };
        let schema = schema::inline(schema, table, 0);
        if schema.is_local() {
            for k in schema::local_keys(&schema) {
                found.push((all.start(), Param::new(kind, k)));
            }
        } else {
            deferred.push((kind, schema));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Param> = Vec::new();
    for (_, p) in found {
        if !out.iter().any(|o| o.name == p.name && o.kind == p.kind) {
            out.push(p);
        }
    }
    (out, deferred)
}

pub fn scan(file: &SourceFile) -> HonoModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let hono = info.imports.iter().any(|i| i.spec.starts_with("hono"));
    let declared = if schema::may_declare(text) {
        schema::declarations(&code, &outline)
    } else {
        Vec::new()
    };
    let mut out = HonoModule {
        hono,
        ..HonoModule::default()
    };
    // `const app = new Hono()`, `new Hono().basePath('/api')`,
    // `const v1 = app.basePath('/v1')`.
    static NEW: OnceLock<Regex> = OnceLock::new();
    let new = re(
        &NEW,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*(?:new\s+(Hono|OpenAPIHono)\s*(?:<[^>]*>)?\s*\([^)]*\)|([A-Za-z_$][\w$]*))\s*(\.\s*basePath\s*\()?",
    );
    for c in new.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let scoped = outline.scoped(name.as_str(), name.start());
        let base = c.get(4).and_then(|b| {
            let open = b.end() - 1;
            let a = code.args(open).into_iter().next()?;
            StrExpr::parse(&code, a.clone())
                .map(|e| e.map_refs(&mut |n| outline.scoped(n, a.start)))
        });
        match (c.get(2), c.get(3)) {
            (Some(_), _) => out.objects.push((scoped, base)),
            (None, Some(parent)) => {
                if let Some(b) = base {
                    let p = outline.scoped(parent.as_str(), parent.start());
                    out.objects.push((scoped.clone(), None));
                    out.mounts.push((p, b, Value::Name(scoped)));
                }
            }
            _ => {}
        }
    }
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\.\s*(get|post|put|patch|delete|all|options|on|route)\s*\(",
    );
    for c in call.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let Some(receiver) = chain_root(&code, all.start(), 0) else {
            continue;
        };
        let receiver = outline.scoped(&receiver, all.start());
        let args = code.args(all.end() - 1);
        let line = file.line_of(code.skip_ws(all.start() + 1));
        let method = m.as_str();
        match method {
            "route" => {
                let (Some(p), Some(child)) = (args.first(), args.get(1)) else {
                    continue;
                };
                let (Some(prefix), Some(child)) = (
                    StrExpr::parse(&code, p.clone()),
                    module::parse_value(&code, &outline, child.clone()),
                ) else {
                    continue;
                };
                let prefix = prefix.map_refs(&mut |n| outline.scoped(n, p.start));
                out.mounts.push((receiver, prefix, child));
            }
            _ => {
                let (methods, rest) = if method == "on" {
                    let Some(first) = args.first() else { continue };
                    let s = code.skip_ws(first.start);
                    let items = if code.text().as_bytes().get(s) == Some(&b'[') {
                        code.args(s)
                    } else {
                        vec![first.clone()]
                    };
                    let ms: Vec<String> = items
                        .iter()
                        .filter_map(|i| code.string_at(i.start))
                        .map(|l| l.value.to_ascii_uppercase())
                        .collect();
                    (ms, &args[1.min(args.len())..])
                } else {
                    (methods_of(method), &args[..])
                };
                let (Some(path), Some(last)) = (rest.first(), rest.last()) else {
                    continue;
                };
                if rest.len() < 2 || methods.is_empty() {
                    continue;
                }
                let paths = paths_of(&code, &outline, path.clone());
                if paths.is_empty() {
                    continue;
                }
                let span = code.skip_ws(rest[1].start)..last.end;
                let (params, schemas) = params_in(&code, &outline, span, &declared);
                out.routes.push(Route {
                    line,
                    receiver,
                    methods,
                    paths,
                    params,
                    schemas,
                });
            }
        }
    }
    out.schemas = declared;
    out.info = (*info).clone();
    out
}
