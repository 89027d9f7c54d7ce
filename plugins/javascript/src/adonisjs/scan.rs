//! Map step: routes (with group prefixes), controllers, validators and
//! imports of one module.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Code, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::js::outline::{function_parts, methods, object_entries, ScopeKind};
use crate::js::reads::reads;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdonisModule {
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<Controller>,
    /// Validators: (name, fields).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validators: Vec<(String, Vec<String>)>,
    /// (local name, module specifier) of static and lazy imports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<(String, String)>,
}

impl AdonisModule {
    pub fn is_empty(&self) -> bool {
        self.routes.is_empty() && self.controllers.is_empty() && self.validators.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub methods: Vec<String>,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<HandlerRef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
}

/// A controller method: the class (or empty) and the import specifier or
/// magic string path (or empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandlerRef {
    pub class: String,
    pub spec: String,
    pub method: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controller {
    pub class: String,
    pub methods: Vec<(String, Vec<Read>)>,
}

/// One input a handler reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Read {
    /// `request.input` / `only` / `all()`: query or JSON by method.
    Input(String),
    Direct(ParamKind, String),
    /// `request.validateUsing(v)` / `request.validate(V)`.
    Validator(String),
}

use crate::js::pattern::re;

const ROUTER_SPECS: &[&str] = &["@adonisjs/core/services/router", "@ioc:Adonis/Core/Route"];

pub const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

pub fn scan(file: &SourceFile) -> AdonisModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = crate::js::module::outline(file, &code);
    let text = code.text();
    let mut out = AdonisModule {
        path: file.path.clone(),
        ..AdonisModule::default()
    };
    // Imports.
    static IMP: OnceLock<Regex> = OnceLock::new();
    let imp = re(
        &IMP,
        r#"\bimport\s+([A-Za-z_$][\w$]*)\s+from\s+['"]([^'"]+)['"]|\b(?:const|let)\s+([A-Za-z_$][\w$]*)\s*=\s*\(\s*\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)"#,
    );
    for c in imp.captures_iter(text) {
        let (Some(all), Some(local), Some(spec)) =
            (c.get(0), c.get(1).or(c.get(3)), c.get(2).or(c.get(4)))
        else {
            continue;
        };
        if code.is_code(all.start()) {
            out.imports
                .push((local.as_str().to_string(), spec.as_str().to_string()));
        }
    }
    let mut receivers: Vec<String> = out
        .imports
        .iter()
        .filter(|(_, s)| ROUTER_SPECS.contains(&s.as_str()))
        .map(|(l, _)| l.clone())
        .collect();
    let adonis = text.contains("@adonisjs/") || text.contains("@ioc:Adonis/");
    if receivers.is_empty() && adonis {
        receivers = vec!["router".into(), "Route".into()];
    }
    if !receivers.is_empty() {
        routes(file, &code, &receivers, &mut out.routes);
    }
    // Controllers: classes whose methods read the request.
    for s in outline.scopes.iter().filter(|s| s.kind == ScopeKind::Class) {
        let mut ms = Vec::new();
        for m in methods(&code, &outline, s.body.clone()) {
            let r = request_reads(&code, m.body.clone());
            if !r.is_empty() {
                ms.push((m.name.clone(), r));
            }
        }
        if !ms.is_empty() {
            out.controllers.push(Controller {
                class: s.name.clone(),
                methods: ms,
            });
        }
        // v5 validator classes: `public schema = schema.create({ … })`.
        if let Some(k) = code.slice(s.body.clone()).find("schema.create(") {
            let open = s.body.start + k + "schema.create".len();
            if code.is_code(open) {
                if let Some(fields) = object_keys_in_call(&code, open) {
                    out.validators.push((s.name.clone(), fields));
                }
            }
        }
    }
    // VineJS validators.
    static VINE: OnceLock<Regex> = OnceLock::new();
    let vine = re(
        &VINE,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*vine\s*\.\s*(compile|create)\s*\(",
    );
    for c in vine.captures_iter(text) {
        let (Some(all), Some(name), Some(kind)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let open = all.end() - 1;
        let fields = if kind.as_str() == "create" {
            object_keys_in_call(&code, open)
        } else {
            // `vine.compile(vine.object({ … }))`.
            code.args(open).first().and_then(|a| {
                let inner = code.slice(a.clone());
                let k = inner.find("vine.object(")?;
                object_keys_in_call(&code, a.start + k + "vine.object".len())
            })
        };
        if let Some(f) = fields {
            out.validators.push((name.as_str().to_string(), f));
        }
    }
    out
}

/// Keys of the object literal first argument of the call whose `(` is at
/// `open`.
fn object_keys_in_call(code: &Code<'_>, open: usize) -> Option<Vec<String>> {
    let a = code.args(open).into_iter().next()?;
    let s = code.skip_ws(a.start);
    if code.text().as_bytes().get(s) != Some(&b'{') {
        return None;
    }
    Some(object_entries(code, s).into_iter().map(|e| e.key).collect())
}

/// A group: its callback body and prefix.
struct Group {
    body: Range<usize>,
    prefix: String,
}

/// The calls chained after `close` (a `)`): (name, args) in order.
fn chain(code: &Code<'_>, close: usize) -> Vec<(String, Vec<Range<usize>>)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = code.skip_ws(close + 1);
    while bytes.get(i) == Some(&b'.') {
        let s = code.skip_ws(i + 1);
        let mut e = s;
        while e < bytes.len() && (bytes[e].is_ascii_alphanumeric() || bytes[e] == b'_') {
            e += 1;
        }
        let o = code.skip_ws(e);
        if e == s || bytes.get(o) != Some(&b'(') {
            break;
        }
        let Some(c) = code.matching(o) else { break };
        out.push((text[s..e].to_string(), code.args(o)));
        i = code.skip_ws(c + 1);
    }
    out
}

fn literal(code: &Code<'_>, r: &Range<usize>) -> Option<String> {
    let lit = code.string_at(code.skip_ws(r.start))?;
    (!lit.interpolated).then_some(lit.value)
}

fn string_list(code: &Code<'_>, r: &Range<usize>) -> Vec<String> {
    let s = code.skip_ws(r.start);
    if code.text().as_bytes().get(s) != Some(&b'[') {
        return literal(code, r).into_iter().collect();
    }
    code.args(s)
        .iter()
        .filter_map(|x| literal(code, x))
        .collect()
}

/// `:id?` → `:id`.
fn clean(path: &str) -> String {
    path.split('/')
        .map(|s| {
            if s.starts_with(':') {
                s.trim_end_matches('?')
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn singular(s: &str) -> String {
    if let Some(x) = s.strip_suffix("ies") {
        format!("{x}y")
    } else if let Some(x) = s.strip_suffix('s') {
        x.to_string()
    } else {
        s.to_string()
    }
}

const ACTIONS: &[(&str, &[&str], &str)] = &[
    ("index", &["GET"], ""),
    ("create", &["GET"], "create"),
    ("store", &["POST"], ""),
    ("show", &["GET"], ":id"),
    ("edit", &["GET"], ":id/edit"),
    ("update", &["PUT", "PATCH"], ":id"),
    ("destroy", &["DELETE"], ":id"),
];

fn routes(file: &SourceFile, code: &Code<'_>, receivers: &[String], out: &mut Vec<Route>) {
    let text = code.text();
    let bytes = text.as_bytes();
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\b([A-Za-z_$][\w$]*)\s*\.\s*(get|post|put|patch|delete|any|route|on|resource|shallowResource|group)\s*\(",
    );
    let calls: Vec<(usize, String, usize)> = call
        .captures_iter(text)
        .filter_map(|c| {
            let (all, recv, m) = (c.get(0)?, c.get(1)?, c.get(2)?);
            let ok = code.is_code(all.start())
                && receivers.iter().any(|r| r == recv.as_str())
                && (all.start() == 0 || bytes[all.start() - 1] != b'.');
            ok.then(|| (all.start(), m.as_str().to_string(), all.end() - 1))
        })
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    for (_, m, open) in &calls {
        if m != "group" {
            continue;
        }
        let args = code.args(*open);
        let Some((_, body)) = args.first().and_then(|a| function_parts(code, a.clone())) else {
            continue;
        };
        let Some(close) = code.matching(*open) else {
            continue;
        };
        let mut prefix = String::new();
        for (name, a) in chain(code, close) {
            if name == "prefix" {
                if let Some(p) = a.first().and_then(|a| literal(code, a)) {
                    prefix = join(&[prefix.as_str(), p.as_str()]);
                }
            }
        }
        groups.push(Group { body, prefix });
    }
    for (at, m, open) in calls {
        if m == "group" {
            continue;
        }
        let mut prefixes: Vec<&Group> = groups.iter().filter(|g| g.body.contains(&at)).collect();
        prefixes.sort_by_key(|g| g.body.start);
        let prefix = join(
            &prefixes
                .iter()
                .map(|g| g.prefix.as_str())
                .collect::<Vec<_>>(),
        );
        let args = code.args(open);
        let Some(path) = args.first().and_then(|a| literal(code, a)) else {
            continue;
        };
        let line = file.line_of(at);
        let close = code.matching(open).unwrap_or(open);
        if m == "resource" || m == "shallowResource" {
            let handler = args.get(1).and_then(|a| class_ref(code, a));
            let mut keep: Vec<&str> = ACTIONS.iter().map(|a| a.0).collect();
            for (name, a) in chain(code, close) {
                match name.as_str() {
                    "apiOnly" => keep.retain(|x| !matches!(*x, "create" | "edit")),
                    "only" => {
                        let l = a.first().map(|a| string_list(code, a)).unwrap_or_default();
                        keep.retain(|x| l.iter().any(|y| y == x));
                    }
                    "except" => {
                        let l = a.first().map(|a| string_list(code, a)).unwrap_or_default();
                        keep.retain(|x| !l.iter().any(|y| y == x));
                    }
                    _ => {}
                }
            }
            // `posts.comments` → /posts/:post_id/comments.
            let parts: Vec<&str> = path.split('.').filter(|s| !s.is_empty()).collect();
            let Some((last, parents)) = parts.split_last() else {
                continue;
            };
            let mut base = prefix.clone();
            for p in parents {
                base = join(&[base.as_str(), p, &format!(":{}_id", singular(p))]);
            }
            let coll = join(&[base.as_str(), last]);
            for (action, verbs, suffix) in ACTIONS {
                if !keep.contains(action) {
                    continue;
                }
                // Shallow resources drop the parents on member routes.
                let root = if m == "shallowResource" && suffix.starts_with(':') {
                    join(&[prefix.as_str(), last])
                } else {
                    coll.clone()
                };
                out.push(Route {
                    line,
                    methods: verbs.iter().map(|v| v.to_string()).collect(),
                    url: join(&[root.as_str(), suffix]),
                    handler: handler.clone().map(|(class, spec)| HandlerRef {
                        class,
                        spec,
                        method: action.to_string(),
                    }),
                    reads: Vec::new(),
                });
            }
            continue;
        }
        let (methods, handler_arg): (Vec<String>, Option<&Range<usize>>) = match m.as_str() {
            "any" => (ANY.iter().map(|s| s.to_string()).collect(), args.get(1)),
            "on" => (vec!["GET".into()], None),
            "route" => (
                args.get(1)
                    .map(|a| string_list(code, a))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|s| s.to_ascii_uppercase())
                    .collect(),
                args.get(2),
            ),
            verb => (vec![verb.to_ascii_uppercase()], args.get(1)),
        };
        if methods.is_empty() || (m != "on" && handler_arg.is_none()) {
            continue;
        }
        let mut route = Route {
            line,
            methods,
            url: clean(&join(&[prefix.as_str(), path.as_str()])),
            handler: None,
            reads: Vec::new(),
        };
        if let Some(a) = handler_arg {
            if let Some((_, body)) = function_parts(code, a.clone()) {
                route.reads = request_reads(code, body);
            } else {
                route.handler = handler_ref(code, a);
            }
        }
        out.push(route);
    }
}

/// A controller class named by an identifier or a v5 string.
fn class_ref(code: &Code<'_>, r: &Range<usize>) -> Option<(String, String)> {
    if let Some(s) = literal(code, r) {
        return Some(split_class(&s));
    }
    let t = code.slice(r.clone()).trim();
    (!t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$'))
    .then(|| (t.to_string(), String::new()))
}

/// `Admin/UsersController` → class; `#controllers/users_controller` → spec.
fn split_class(s: &str) -> (String, String) {
    if s.starts_with('#') || s.contains('_') && s.contains('/') {
        (String::new(), s.to_string())
    } else {
        (s.rsplit('/').next().unwrap_or(s).to_string(), String::new())
    }
}

fn handler_ref(code: &Code<'_>, r: &Range<usize>) -> Option<HandlerRef> {
    let s = code.skip_ws(r.start);
    if code.text().as_bytes().get(s) == Some(&b'[') {
        let items = code.args(s);
        let (class, spec) = class_ref(code, items.first()?)?;
        let method = items
            .get(1)
            .and_then(|a| literal(code, a))
            .unwrap_or_else(|| "handle".into());
        return Some(HandlerRef {
            class,
            spec,
            method,
        });
    }
    let lit = literal(code, r)?;
    let (target, method) = lit.rsplit_once('.')?;
    let (class, spec) = split_class(target);
    Some(HandlerRef {
        class,
        spec,
        method: method.to_string(),
    })
}

/// What a handler body reads from `request`.
pub fn request_reads(code: &Code<'_>, body: Range<usize>) -> Vec<Read> {
    let text = code.text();
    let mut found: Vec<(usize, Read)> = Vec::new();
    let Some(slice) = text.get(body.clone()) else {
        return Vec::new();
    };
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\brequest\s*\.\s*(input|only|header|cookie|encryptedCookie|plainCookie|file|files|validateUsing|validate)\s*\(",
    );
    for c in call.captures_iter(slice) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let at = body.start + all.start();
        if !code.is_code(at) {
            continue;
        }
        let open = body.start + all.end() - 1;
        let Some(first) = code.args(open).into_iter().next() else {
            continue;
        };
        match m.as_str() {
            "input" => {
                if let Some(n) = literal(code, &first) {
                    found.push((at, Read::Input(n)));
                }
            }
            "only" => {
                for n in string_list(code, &first) {
                    found.push((at, Read::Input(n)));
                }
            }
            "header" => {
                if let Some(n) = literal(code, &first) {
                    found.push((at, Read::Direct(ParamKind::Header, n)));
                }
            }
            "cookie" | "encryptedCookie" | "plainCookie" => {
                if let Some(n) = literal(code, &first) {
                    found.push((at, Read::Direct(ParamKind::Cookie, n)));
                }
            }
            "file" | "files" => {
                if let Some(n) = literal(code, &first) {
                    found.push((at, Read::Direct(ParamKind::File, n)));
                }
            }
            _ => {
                let v = code.slice(first).trim().to_string();
                if !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                    found.push((at, Read::Validator(v)));
                }
            }
        }
    }
    static QS: OnceLock<Regex> = OnceLock::new();
    static BODY: OnceLock<Regex> = OnceLock::new();
    static ALL: OnceLock<Regex> = OnceLock::new();
    // The match starts at the receiver of `request` (`ctx.request.body()`)
    // so that `const body = ctx.request.body()` binds `body`.
    let qs = re(&QS, r"\b(?:[A-Za-z_$][\w$]*\s*\.\s*)?request\s*\.\s*qs\(");
    let bd = re(
        &BODY,
        r"\b(?:[A-Za-z_$][\w$]*\s*\.\s*)?request\s*\.\s*body\(",
    );
    let al = re(&ALL, r"\b(?:[A-Za-z_$][\w$]*\s*\.\s*)?request\s*\.\s*all\(");
    for (at, p) in reads(code, body.clone(), qs, ParamKind::Query) {
        found.push((at, Read::Direct(ParamKind::Query, p.name)));
    }
    for (at, p) in reads(code, body.clone(), bd, ParamKind::Json) {
        found.push((at, Read::Direct(ParamKind::Json, p.name)));
    }
    for (at, p) in reads(code, body, al, ParamKind::Json) {
        found.push((at, Read::Input(p.name)));
    }
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Read> = Vec::new();
    for (_, r) in found {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}
