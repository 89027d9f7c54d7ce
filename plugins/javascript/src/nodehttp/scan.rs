//! Map step for plain Node.js servers: the servers' handlers, and, for
//! every function of the module, the routes its URL/method branches
//! declare and the functions it hands the request to.

use std::ops::Range;
use std::sync::OnceLock;

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, StringLit, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{function_parts, object_entries, param_names, Outline, ScopeKind};
use crate::js::reads::{ordered, reads, web_params};
use crate::js::request::request_params;
use crate::js::syntax::{dotted_at, dotted_before, matching_back};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HttpModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<Server>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funcs: Vec<Func>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Server {
    /// An inline handler: the key of its [`Func`].
    Inline(String),
    /// A named handler.
    Named(Value),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Func {
    /// The function's name, or `@<offset>` for an inline handler.
    pub key: String,
    pub routes: Vec<Route>,
    /// Scoped names of functions called with the request.
    pub delegates: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub method: String,
    pub path: String,
    pub params: Vec<Param>,
}

use crate::js::pattern::re;

const SPECS: &[&str] = &[
    "http",
    "https",
    "http2",
    "node:http",
    "node:https",
    "node:http2",
];

pub fn scan(file: &SourceFile) -> HttpModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let mut out = HttpModule::default();
    let locals: Vec<&str> = info
        .imports
        .iter()
        .filter(|i| SPECS.contains(&i.spec.as_str()))
        .map(|i| i.local.as_str())
        .collect();
    let tables = tables(file, &code, &outline);
    // Every function's branches come from this one list (by offset).
    let strings = code.strings();
    // Servers: `X.createServer(…)` / `createServer(…)` / `s.on('request', h)`.
    let mut handler_args: Vec<Range<usize>> = Vec::new();
    for at in code.find_all("createServer") {
        let open = code.skip_ws(at + "createServer".len());
        if text.as_bytes().get(open) != Some(&b'(') {
            continue;
        }
        let lead = text[..at].trim_end();
        let ok = match lead.strip_suffix('.') {
            Some(r) => dotted_before(&code, r.len())
                .is_some_and(|(recv, _)| locals.contains(&recv.as_str())),
            None => locals.contains(&"createServer"),
        };
        if !ok {
            continue;
        }
        if let Some(last) = code.args(open).last() {
            handler_args.push(last.clone());
        }
    }
    static ON: OnceLock<Regex> = OnceLock::new();
    let on = re(&ON, r#"\.\s*on\(\s*['"]request['"]\s*,"#);
    for m in on.find_iter(text) {
        if !code.is_code(m.start()) || locals.is_empty() {
            continue;
        }
        let open = m.start() + text[m.start()..].find('(').unwrap_or(0);
        if let Some(last) = code.args(open).get(1) {
            handler_args.push(last.clone());
        }
    }
    for arg in handler_args {
        if let Some((params, body)) = function_parts(&code, arg.clone()) {
            let key = format!("@{}", arg.start);
            let req = param_names(&code, params)
                .into_iter()
                .next()
                .unwrap_or_default();
            out.funcs.push(analyze_body(
                file, &code, &outline, &tables, &strings, &key, &req, body,
            ));
            out.servers.push(Server::Inline(key));
        } else if let Some(v) = module::parse_value(&code, &outline, arg) {
            if matches!(v, Value::Name(_) | Value::Require { .. }) {
                out.servers.push(Server::Named(v));
            }
        }
    }
    // Every top-level function may be a handler reached from a server.
    for scope in &outline.scopes {
        if scope.kind != ScopeKind::Function {
            continue;
        }
        let Some(req) = scope.params.first().filter(|p| !p.is_empty()) else {
            continue;
        };
        let f = analyze_body(
            file,
            &code,
            &outline,
            &tables,
            &strings,
            &scope.name,
            req,
            scope.body.clone(),
        );
        if !f.routes.is_empty() || !f.delegates.is_empty() {
            out.funcs.push(f);
        }
    }
    out.info = (*info).clone();
    out
}

#[derive(Clone, Debug)]
struct Branch {
    value: String,
    line: u32,
    /// The `if` condition or the `case` label.
    cond: Range<usize>,
    body: Range<usize>,
}

fn is_pathish(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    matches!(
        last.as_str(),
        "url" | "pathname" | "path" | "route" | "urlpath"
    )
}

fn is_methodish(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    matches!(last.as_str(), "method" | "verb" | "httpmethod")
}

#[allow(clippy::too_many_arguments)]
fn analyze_body(
    file: &SourceFile,
    code: &Code<'_>,
    outline: &Outline,
    tables: &[(String, Vec<Route>)],
    strings: &[StringLit],
    key: &str,
    req: &str,
    body: Range<usize>,
) -> Func {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut paths: Vec<Branch> = Vec::new();
    let mut methods: Vec<Branch> = Vec::new();
    let mut guards: Vec<(String, usize)> = Vec::new();
    // The body's literals: a slice of the file's, found by binary search.
    let first = strings.partition_point(|l| l.start < body.start);
    let last = strings.partition_point(|l| l.start < body.end);
    for lit in strings.get(first..last).unwrap_or_default() {
        if lit.end > body.end || lit.interpolated {
            continue;
        }
        let before = text[body.start..lit.start].trim_end();
        let after = text[lit.end..body.end].trim_start();
        let subject = if before.ends_with("==")
            && !before.ends_with("!==")
            && !before.ends_with("!=")
        {
            let op_start = body.start + before.trim_end_matches('=').len();
            dotted_before(code, op_start).map(|(n, _)| n)
        } else if (after.starts_with("==") && !after.starts_with("==>")) && !before.ends_with('!') {
            let op = lit.end + (text[lit.end..].len() - text[lit.end..].trim_start().len());
            let rhs = code.skip_ws(op + if after.starts_with("===") { 3 } else { 2 });
            dotted_at(code, rhs).map(|(n, _)| n)
        } else if before.ends_with("case") {
            switch_subject(code, lit.start)
        } else {
            None
        };
        // `if (req.method !== 'POST') return …`: a guard for what follows.
        if subject.is_none() && (before.ends_with("!==") || before.ends_with("!=")) {
            let op_start = body.start + before.trim_end_matches('=').trim_end_matches('!').len();
            let guarded = dotted_before(code, op_start).is_some_and(|(n, _)| is_methodish(&n));
            if guarded {
                if let Some((_, gb)) = branch_of(code, lit.start, false, &body) {
                    let g = &text[gb.clone()];
                    if g.contains("return") || g.contains("throw") {
                        guards.push((lit.value.to_ascii_uppercase(), gb.end));
                    }
                }
            }
            continue;
        }
        let Some(subject) = subject else { continue };
        let Some((cond, branch_body)) = branch_of(code, lit.start, before.ends_with("case"), &body)
        else {
            continue;
        };
        let b = Branch {
            value: lit.value.clone(),
            line: file.line_of(lit.start),
            cond,
            body: branch_body,
        };
        if is_methodish(&subject) {
            methods.push(b);
        } else if is_pathish(&subject) && lit.value.starts_with('/') {
            paths.push(b);
        }
    }
    let mut routes = Vec::new();
    for p in &paths {
        let inner: Vec<&Branch> = methods
            .iter()
            .filter(|m| p.body.contains(&m.cond.start) && m.cond != p.cond)
            .collect();
        if !inner.is_empty() {
            for m in inner {
                routes.push(Route {
                    line: p.line,
                    method: m.value.to_ascii_uppercase(),
                    path: p.value.clone(),
                    params: params_in(code, m.body.clone(), req),
                });
            }
            continue;
        }
        let mut ms: Vec<String> = methods
            .iter()
            .filter(|m| m.cond == p.cond || (m.body.contains(&p.cond.start) && m.cond != p.cond))
            .map(|m| m.value.to_ascii_uppercase())
            .collect();
        if ms.is_empty() {
            ms = guards
                .iter()
                .filter(|(_, end)| *end <= p.cond.start)
                .map(|(m, _)| m.clone())
                .collect();
        }
        ms.dedup();
        if ms.is_empty() {
            ms.push("GET".to_string());
        }
        let params = params_in(code, p.body.clone(), req);
        for m in ms {
            routes.push(Route {
                line: p.line,
                method: m,
                path: p.value.clone(),
                params: params.clone(),
            });
        }
    }
    // Functions handed the request: `f(req, …)`.
    let mut delegates = Vec::new();
    if !req.is_empty() {
        static CALL: OnceLock<Regex> = OnceLock::new();
        let call = re(
            &CALL,
            r"([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*)\s*[,)]",
        );
        for c in call.captures_iter(&text[body.clone()]) {
            let (Some(all), Some(name), Some(arg)) = (c.get(0), c.get(1), c.get(2)) else {
                continue;
            };
            let at = body.start + all.start();
            if !code.is_code(at) || arg.as_str() != req {
                continue;
            }
            if at > 0 && bytes[at - 1] == b'.' {
                continue;
            }
            let n = name.as_str();
            if matches!(
                n,
                "if" | "switch" | "while" | "for" | "return" | "await" | "function"
            ) {
                continue;
            }
            let scoped = outline.scoped(n, at);
            if !delegates.contains(&scoped) {
                delegates.push(scoped);
            }
        }
    }
    // Route tables indexed in the body: `routes[pathname]`.
    for (name, entries) in tables {
        let used = code.find_word_in(name, body.clone()).any(|at| {
            let rest = text[at + name.len()..].trim_start();
            rest.starts_with('[') || rest.starts_with("?.[")
        });
        if used {
            for r in entries {
                if !routes.contains(r) {
                    routes.push(r.clone());
                }
            }
        }
    }
    Func {
        key: key.to_string(),
        routes,
        delegates,
    }
}

/// Top-level object literals whose keys are routes: `{ '/': home, 'POST
/// /users': createUser }`, each with what its handler (inline, or a
/// function of the module) reads.
fn tables(file: &SourceFile, code: &Code<'_>, outline: &Outline) -> Vec<(String, Vec<Route>)> {
    static TABLE: OnceLock<Regex> = OnceLock::new();
    let table = re(
        &TABLE,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*\{",
    );
    let text = code.text();
    let mut out = Vec::new();
    for c in table.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) || !outline.is_top(all.start()) {
            continue;
        }
        let mut routes = Vec::new();
        for e in object_entries(code, all.end() - 1) {
            let (method, path) = match e.key.split_once(' ') {
                Some((m, p)) if m.bytes().all(|b| b.is_ascii_uppercase()) => {
                    (m.to_string(), p.trim())
                }
                _ => ("GET".to_string(), e.key.as_str()),
            };
            if !path.starts_with('/') {
                continue;
            }
            let params = match &e.function {
                Some((ps, body)) => {
                    let req = param_names(code, ps.clone())
                        .into_iter()
                        .next()
                        .unwrap_or_default();
                    params_in(code, body.clone(), &req)
                }
                None => {
                    let v = code.slice(e.value.clone()).trim();
                    outline
                        .scopes
                        .iter()
                        .find(|s| s.kind == ScopeKind::Function && s.name == v)
                        .map(|s| {
                            let req = s.params.first().cloned().unwrap_or_default();
                            params_in(code, s.body.clone(), &req)
                        })
                        .unwrap_or_default()
                }
            };
            routes.push(Route {
                line: file.line_of(e.value.start.min(text.len())),
                method,
                path: path.to_string(),
                params,
            });
        }
        if !routes.is_empty() {
            out.push((name.as_str().to_string(), routes));
        }
    }
    out
}

/// The subject of the `switch` whose `case` label is at `at`.
fn switch_subject(code: &Code<'_>, at: usize) -> Option<String> {
    let open = enclosing(code, at, b'{')?;
    let text = code.text();
    let before = text[..open].trim_end();
    if !before.ends_with(')') {
        return None;
    }
    let close = before.len() - 1;
    let popen = matching_back(code, close)?;
    if !text[..popen].trim_end().ends_with("switch") {
        return None;
    }
    let s = code.skip_ws(popen + 1);
    dotted_at(code, s).map(|(n, _)| n)
}

/// The innermost unclosed `open` bracket before `at`.
fn enclosing(code: &Code<'_>, at: usize, open: u8) -> Option<usize> {
    let bytes = code.text().as_bytes();
    let mut depth = 0i32;
    let mut i = at;
    while i > 0 {
        i -= 1;
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    return (bytes[i] == open).then_some(i);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

/// The condition and the body of the `if` (or `case`) the literal at `at`
/// belongs to.
fn branch_of(
    code: &Code<'_>,
    at: usize,
    case: bool,
    limit: &Range<usize>,
) -> Option<(Range<usize>, Range<usize>)> {
    let text = code.text();
    let bytes = text.as_bytes();
    if case {
        let colon = (at..limit.end).find(|&i| bytes[i] == b':' && code.is_code(i))?;
        let open = enclosing(code, at, b'{')?;
        let close = code.matching(open)?.min(limit.end);
        // Until the next `case`/`default` at the same depth.
        let mut depth = 0i32;
        let mut end = close;
        let mut i = colon + 1;
        while i < close {
            if code.is_code(i) {
                match bytes[i] {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    _ if depth == 0
                        && (bytes[i..].starts_with(b"case ")
                            || bytes[i..].starts_with(b"case'")
                            || bytes[i..].starts_with(b"case\"")
                            || bytes[i..].starts_with(b"default"))
                        && !crate::js::syntax::is_js_ident(bytes[i - 1]) =>
                    {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        // Fall-through labels (`case '/a': case '/b': …`) share the body.
        let mut body_start = colon + 1;
        loop {
            let s = code.skip_ws(body_start);
            if bytes[s.min(bytes.len())..].starts_with(b"case") && s < close {
                let c = (s..close).find(|&i| bytes[i] == b':' && code.is_code(i))?;
                body_start = c + 1;
                let mut depth = 0i32;
                end = close;
                let mut k = body_start;
                while k < close {
                    if code.is_code(k) {
                        match bytes[k] {
                            b'(' | b'[' | b'{' => depth += 1,
                            b')' | b']' | b'}' => depth -= 1,
                            _ if depth == 0
                                && (bytes[k..].starts_with(b"case")
                                    || bytes[k..].starts_with(b"default"))
                                && !crate::js::syntax::is_js_ident(bytes[k - 1]) =>
                            {
                                end = k;
                                break;
                            }
                            _ => {}
                        }
                    }
                    k += 1;
                }
            } else {
                break;
            }
        }
        return Some((at..colon, body_start..end));
    }
    // The outermost parenthesis of the condition: walk out while the
    // parenthesis is not an `if (`.
    let mut p = enclosing(code, at, b'(')?;
    loop {
        if text[..p].trim_end().ends_with("if") {
            break;
        }
        p = enclosing(code, p, b'(')?;
        if p < limit.start {
            return None;
        }
    }
    let close = code.matching(p)?;
    let s = code.skip_ws(close + 1);
    if bytes.get(s) == Some(&b'{') {
        let e = code.matching(s)?;
        Some((p..close, s..e))
    } else {
        let e = crate::js::module::statement_end(code, s).min(limit.end);
        Some((p..close, s..e))
    }
}

/// Parameters read in a branch body.
fn params_in(code: &Code<'_>, body: Range<usize>, req: &str) -> Vec<Param> {
    let mut out: Vec<Param> = Vec::new();
    let mut push = |p: Param| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for p in web_params(code, body.clone()) {
        push(p);
    }
    static JSON: OnceLock<Regex> = OnceLock::new();
    let json = re(
        &JSON,
        r"\bJSON\.parse\(|\b(?:readJson|readJSON|parseJson|parseJSON|readBody|parseBody|getBody|jsonBody|getJsonBody)\(",
    );
    for p in ordered(reads(code, body.clone(), json, ParamKind::Json)) {
        push(p);
    }
    for p in request_params(code, body, req) {
        // Only headers and cookies exist on a plain `IncomingMessage`.
        if matches!(p.kind, ParamKind::Header | ParamKind::Cookie) {
            push(p);
        }
    }
    out
}
