//! The top-level shape of a module: functions (declarations, arrow
//! functions bound to names, `module.exports = (app) => {…}`, `export
//! default function`), classes with their members, and object literals.
//!
//! Names declared inside a top-level function or class are *scoped*:
//! `createRouter#router` for a local of `createRouter`, `UserRoutes#this.path`
//! for a field of `UserRoutes`. Everything else is module-level. Inner
//! functions share the scope of their top-level function.

use portolan_plugin_sdk::Code;
use regex::Regex;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use super::syntax::{depths, ident_at, is_js_ident, next_code_byte};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Function,
    Class,
}

/// A top-level function or class.
#[derive(Clone, Debug)]
pub struct Scope {
    /// `createRouter`, `module.exports`, `exports.list`, `default`, or a class name.
    pub name: String,
    pub kind: ScopeKind,
    /// Parameter names (empty string for a destructured parameter).
    pub params: Vec<String>,
    /// Offset of the declaration (first keyword).
    pub start: usize,
    /// The body (inside the braces, or the expression of an arrow).
    pub body: Range<usize>,
    /// Names declared with `const`/`let`/`var` in the body.
    pub locals: HashSet<String>,
    /// A rest parameter destructured in the body (`...args` with `const
    /// [router] = args`) and the first element it stands for when spread
    /// (`next(...args)`).
    pub rest: Option<(String, String)>,
}

/// A class member function.
#[derive(Clone, Debug)]
pub struct Method {
    pub name: String,
    /// Offset where the member starts (after its decorators).
    pub start: usize,
    /// The parameter list, inside the parentheses.
    pub params: Range<usize>,
    pub body: Range<usize>,
}

pub struct Outline {
    pub scopes: Vec<Scope>,
    pub depth: Vec<u16>,
    /// `reach[i]`: the largest `body.end` of `scopes[..=i]` (scopes are
    /// sorted by start), so [`Outline::scope_at`] is a binary search.
    reach: Vec<usize>,
}

/// The first of `scopes` (sorted by start; `reach` their running maximum
/// end) that contains `offset`: O(log n).
fn first_containing(scopes: &[Scope], reach: &[usize], offset: usize) -> Option<usize> {
    let i = reach.partition_point(|&end| end <= offset);
    // The first scope whose running maximum passes `offset` is the one
    // that raised it, so its own end is past `offset` too.
    scopes.get(i).filter(|s| s.start <= offset).map(|_| i)
}

/// Running maximum of the scopes' ends.
fn reach_of(scopes: &[Scope]) -> Vec<usize> {
    scopes
        .iter()
        .scan(0usize, |m, s| {
            *m = (*m).max(s.body.end);
            Some(*m)
        })
        .collect()
}

use super::pattern::re;

const ID: &str = r"[A-Za-z_$][\w$]*";

impl Outline {
    pub fn new(code: &Code<'_>) -> Outline {
        let depth = depths(code);
        let mut scopes: Vec<Scope> = Vec::new();
        let text = code.text();
        static FUNC: OnceLock<Regex> = OnceLock::new();
        static BOUND: OnceLock<Regex> = OnceLock::new();
        static CLASS: OnceLock<Regex> = OnceLock::new();
        let func = re(
            &FUNC,
            &format!(
                r"\b(?:export\s+)?(default\s+)?(?:async\s+)?function\b\s*\*?\s*({ID})?\s*(?:<[^>(]*>)?\s*\("
            ),
        );
        let bound = re(
            &BOUND,
            &format!(
                r"(?:\b(?:export\s+)?(?:const|let|var)\s+({ID})\s*(?::[^=;]+)?|\b(module\.exports(?:\.{ID})?|exports\.{ID}|{ID}\.{ID})\s*|\bexport\s+(default)\s+)=?\s*(?:async\s+)?(function\b[^(]*\(|\(|{ID}\s*=>)"
            ),
        );
        let class = re(
            &CLASS,
            &format!(r"\b(?:export\s+)?(default\s+)?(?:abstract\s+)?class\s+({ID})?"),
        );
        let top = |i: usize| depth.get(i) == Some(&0) && code.is_code(i);
        for m in func.captures_iter(text) {
            let Some(all) = m.get(0) else { continue };
            if !top(all.start()) {
                continue;
            }
            let name = match (m.get(2), m.get(1)) {
                (Some(n), _) => n.as_str().to_string(),
                (None, Some(_)) => "default".to_string(),
                _ => continue,
            };
            let open = all.end() - 1;
            if let Some(s) = function_scope(code, name, all.start(), open) {
                scopes.push(s);
            }
        }
        // Bound functions inside a function found above are not scopes of
        // their own: `functions` and `bound_reach` answer that in O(log n).
        scopes.sort_by_key(|s| s.start);
        let functions = reach_of(&scopes);
        let mut bound_reach = 0usize;
        let n_functions = scopes.len();
        for m in bound.captures_iter(text) {
            let Some(all) = m.get(0) else { continue };
            if !top(all.start()) {
                continue;
            }
            let Some(name) = m.get(1).or(m.get(2)).or(m.get(3)) else {
                continue;
            };
            let name = name.as_str().to_string();
            // `export default` needs no `=`; the others do.
            let between = &text[all.start()..all.end()];
            if m.get(3).is_none() && !between.contains('=') {
                continue;
            }
            let tail = m.get(4).map_or("", |t| t.as_str());
            let s = if tail.starts_with("function") || tail == "(" {
                function_scope(code, name, all.start(), all.end() - 1)
            } else {
                // `x => …`: a single parameter.
                let p = all.end() - tail.len();
                let id = ident_at(code, p).map(|r| code.slice(r).to_string());
                let arrow = text[p..].find("=>").map(|k| p + k + 2);
                match (id, arrow) {
                    (Some(id), Some(arrow)) => {
                        let body = arrow_body(code, arrow);
                        Some(Scope {
                            name,
                            kind: ScopeKind::Function,
                            params: vec![id],
                            start: all.start(),
                            locals: locals(code, body.clone()),
                            rest: None,
                            body,
                        })
                    }
                    _ => None,
                }
            };
            if let Some(s) = s {
                // Matches come in order of start, so an earlier bound
                // scope contains `s` exactly when its end passes `s.start`.
                let inside = s.start < bound_reach
                    || first_containing(&scopes[..n_functions], &functions, s.start).is_some();
                if !inside {
                    bound_reach = bound_reach.max(s.body.end);
                    scopes.push(s);
                }
            }
        }
        for m in class.captures_iter(text) {
            let Some(all) = m.get(0) else { continue };
            if !top(all.start()) {
                continue;
            }
            let name = match (m.get(2), m.get(1)) {
                (Some(n), _) => n.as_str().to_string(),
                (None, Some(_)) => "default".to_string(),
                _ => continue,
            };
            let Some(open) = class_body_open(code, all.end()) else {
                continue;
            };
            let Some(close) = code.matching(open) else {
                continue;
            };
            scopes.push(Scope {
                name,
                kind: ScopeKind::Class,
                params: Vec::new(),
                start: all.start(),
                body: open + 1..close,
                locals: HashSet::new(),
                rest: None,
            });
        }
        scopes.sort_by_key(|s| s.start);
        scopes.dedup_by_key(|s| s.start);
        let reach = reach_of(&scopes);
        Outline {
            scopes,
            depth,
            reach,
        }
    }

    /// The top-level function or class containing `offset` (the first by
    /// start when an arrow body overlaps a later scope).
    pub fn scope_at(&self, offset: usize) -> Option<&Scope> {
        first_containing(&self.scopes, &self.reach, offset).and_then(|i| self.scopes.get(i))
    }

    /// Scope a (dotted) name used at `offset`: `this.x` in class `C` is
    /// `C#this.x`; a parameter or local `x` of function `f` is `f#x`.
    pub fn scoped(&self, name: &str, offset: usize) -> String {
        let Some(scope) = self.scope_at(offset) else {
            return name.to_string();
        };
        let first = name.split('.').next().unwrap_or(name);
        match scope.kind {
            ScopeKind::Class if first == "this" => format!("{}#{}", scope.name, name),
            ScopeKind::Function if scope.rest.as_ref().is_some_and(|(r, _)| r == first) => {
                let element = scope.rest.as_ref().map_or(first, |(_, e)| e.as_str());
                format!("{}#{}{}", scope.name, element, &name[first.len()..])
            }
            ScopeKind::Function
                if scope.params.iter().any(|p| p == first) || scope.locals.contains(first) =>
            {
                format!("{}#{}", scope.name, name)
            }
            _ => name.to_string(),
        }
    }

    /// Is `offset` at module level (not inside any bracket)?
    pub fn is_top(&self, offset: usize) -> bool {
        self.depth.get(offset) == Some(&0)
    }
}

/// A function whose parameter list opens at `open`.
fn function_scope(code: &Code<'_>, name: String, start: usize, open: usize) -> Option<Scope> {
    let close = code.matching(open)?;
    let params = param_names(code, open + 1..close);
    let text = code.text();
    let bytes = text.as_bytes();
    // `=> body` for arrows, `{ body }` for functions (a return type may sit between).
    let limit = text.floor_char_boundary(close + 400);
    let brace = next_code_byte(code, close, limit, b'{');
    let arrow = text
        .get(close..limit)
        .and_then(|t| t.find("=>"))
        .map(|k| close + k);
    let body = match (arrow, brace) {
        (Some(a), Some(b)) if a < b => arrow_body(code, a + 2),
        (Some(a), None) => arrow_body(code, a + 2),
        (_, Some(b)) => b + 1..code.matching(b)?,
        (None, None) => return None,
    };
    let _ = bytes;
    let (params, rest) = match rest_destructured(code, open + 1..close, body.clone()) {
        Some((p, r)) => (p, Some(r)),
        None => (params, None),
    };
    Some(Scope {
        name,
        kind: ScopeKind::Function,
        params,
        start,
        locals: locals(code, body.clone()),
        body,
        rest,
    })
}

/// A rest parameter destructured in the body (`function f(...args) {
/// const [router, { db }] = args; }`): the parameters with the rest one
/// replaced by the elements, positionally (empty for nested patterns).
fn rest_destructured(
    code: &Code<'_>,
    params: Range<usize>,
    body: Range<usize>,
) -> Option<(Vec<String>, (String, String))> {
    let last = code.split_top_level(params.start, params.end, b',').pop()?;
    let s = code.skip_ws(last.start);
    let rest = code.slice(s..last.end).strip_prefix("...")?;
    let rest: String = rest
        .bytes()
        .take_while(|b| is_js_ident(*b))
        .map(char::from)
        .collect();
    if rest.is_empty() {
        return None;
    }
    static DECL: OnceLock<Regex> = OnceLock::new();
    let decl = re(&DECL, r"\b(?:const|let|var)\s*\[");
    let text = code.slice(body.clone());
    for m in decl.find_iter(text) {
        let open = body.start + m.end() - 1;
        if !code.is_code(open) {
            continue;
        }
        let Some(close) = code.matching(open) else {
            continue;
        };
        let after = code.skip_ws(close + 1);
        if code.text().as_bytes().get(after) != Some(&b'=') {
            continue;
        }
        let v = code.skip_ws(after + 1);
        let e = v + rest.len();
        if code.ident_at(v) != Some(rest.as_str())
            || matches!(code.text().as_bytes().get(e), Some(b'.' | b'[' | b'?'))
        {
            continue;
        }
        let mut out = param_names(code, params.clone());
        out.pop();
        let elements = param_names(code, open + 1..close);
        let first = elements.first().filter(|e| !e.is_empty())?.clone();
        out.extend(elements);
        return Some((out, (rest, first)));
    }
    None
}

/// The body of an arrow function whose `=>` ends at `after`.
fn arrow_body(code: &Code<'_>, after: usize) -> Range<usize> {
    let text = code.text();
    let bytes = text.as_bytes();
    let s = code.skip_ws(after);
    if bytes.get(s) == Some(&b'{') {
        if let Some(c) = code.matching(s) {
            return s + 1..c;
        }
    }
    // Expression body: up to the end of the statement.
    let mut depth = 0i32;
    let mut i = s;
    while i < bytes.len() {
        if code.is_code(i) {
            match bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                b';' | b',' if depth == 0 => break,
                _ => {}
            }
        }
        i += 1;
    }
    s..i
}

/// Parameter names of a parameter list (`req: Request, { a }, ...rest`).
/// The `{` opening a class body after its name at `from`: the first one
/// outside type arguments (`class Repo<T extends { id: string }> extends
/// Base<T> {`); `None` at a `;` first or after 4000 bytes.
fn class_body_open(code: &Code<'_>, from: usize) -> Option<usize> {
    let bytes = code.text().as_bytes();
    let mut angle = 0usize;
    let end = (from + 4000).min(bytes.len());
    let mut i = from;
    while i < end {
        let b = bytes[i];
        if code.is_code(i) {
            match b {
                b'<' => angle += 1,
                b'>' if i > 0 && bytes[i - 1] == b'=' => {}
                b'>' => angle = angle.saturating_sub(1),
                b'{' if angle == 0 => return Some(i),
                b'{' => {
                    // An object type inside type arguments.
                    i = code.matching(i)?;
                }
                b';' => return None,
                _ => {}
            }
        }
        i += 1;
    }
    None
}

pub fn param_names(code: &Code<'_>, range: Range<usize>) -> Vec<String> {
    code.split_top_level(range.start, range.end, b',')
        .into_iter()
        .flat_map(|r| {
            // A rest parameter destructured as an array (`...[router, ctx]:
            // Args`) stands for its elements, positionally.
            let s = code.skip_ws(r.start);
            if code.slice(s..r.end).starts_with("...[") {
                if let Some(close) = code.matching(s + 3).filter(|c| *c < r.end) {
                    return param_names(code, s + 4..close);
                }
            }
            vec![param_name(code, r)]
        })
        .collect()
}

/// The name of one parameter (empty for a destructuring pattern).
fn param_name(code: &Code<'_>, r: Range<usize>) -> String {
    let mut s = code.skip_ws(r.start);
    while s < r.end && code.text().as_bytes()[s] == b'.' {
        s += 1;
    }
    // Decorators and TS modifiers (`@Req() req`, `private app`).
    let text = code.slice(s..r.end);
    let mut rest = text;
    loop {
        let t = rest.trim_start();
        if t.starts_with('@') {
            // Skip the decorator call.
            let off = r.end - t.len();
            let mut e = off + 1;
            while e < r.end && is_js_ident(code.text().as_bytes()[e]) {
                e += 1;
            }
            if code.text().as_bytes().get(e) == Some(&b'(') {
                e = code.matching(e).map_or(r.end, |c| c + 1);
            }
            rest = code.slice(e.min(r.end)..r.end);
            continue;
        }
        let mut skipped = false;
        for kw in ["private ", "public ", "protected ", "readonly "] {
            if let Some(x) = t.strip_prefix(kw) {
                rest = x;
                skipped = true;
            }
        }
        if !skipped {
            rest = t;
            break;
        }
    }
    rest.bytes()
        .take_while(|b| is_js_ident(*b))
        .map(char::from)
        .collect::<String>()
}

fn locals(code: &Code<'_>, body: Range<usize>) -> HashSet<String> {
    static LOCAL: OnceLock<Regex> = OnceLock::new();
    let local = re(&LOCAL, &format!(r"\b(?:const|let|var)\s+({ID})"));
    let text = code.slice(body.clone());
    local
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .filter(|m| code.is_code(body.start + m.start()))
        .map(|m| m.as_str().to_string())
        .collect()
}

/// The member functions of a class whose body is `body` (methods,
/// `name = (…) => {…}` properties), with decorators skipped.
pub fn methods(code: &Code<'_>, outline: &Outline, body: Range<usize>) -> Vec<Method> {
    static METHOD: OnceLock<Regex> = OnceLock::new();
    let method = re(
        &METHOD,
        &format!(
            r"(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*({ID})\s*(?:<[^>(]*>)?\s*(\(|=\s*(?:async\s+)?\()"
        ),
    );
    let Some(&base) = outline.depth.get(body.start) else {
        return Vec::new();
    };
    let text = code.slice(body.clone());
    let mut out = Vec::new();
    let mut last_end = body.start;
    for m in method.captures_iter(text) {
        let (Some(all), Some(name), Some(open)) = (m.get(0), m.get(1), m.get(2)) else {
            continue;
        };
        let start = body.start + all.start();
        if start < last_end || outline.depth.get(start) != Some(&base) || !code.is_code(start) {
            continue;
        }
        // A member starts a line or follows `;`/`}` (not `x.call(` in an initializer).
        let before = code.text()[..start].trim_end();
        if !(before.ends_with(['{', '}', ';', ')']) || before.ends_with('\n'))
            && start != body.start
        {
            let line_start = code.text()[..start].rfind('\n').map_or(0, |p| p + 1);
            if !code.text()[line_start..start].trim().is_empty() {
                continue;
            }
        }
        let name = name.as_str();
        if matches!(
            name,
            "if" | "for" | "while" | "switch" | "catch" | "return" | "function"
        ) {
            continue;
        }
        let paren = body.start + open.end() - 1;
        let Some(close) = code.matching(paren) else {
            continue;
        };
        let limit = (close + 400).min(body.end);
        let Some(brace) = next_code_byte(code, close, limit, b'{') else {
            continue;
        };
        let Some(end) = code.matching(brace) else {
            continue;
        };
        last_end = end;
        out.push(Method {
            name: name.to_string(),
            start,
            params: paren + 1..close,
            body: brace + 1..end,
        });
    }
    out
}

/// One entry of an object literal.
#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    /// The value (for a method, the whole `name(…) {…}`); for a shorthand
    /// `{ a }`, the key itself.
    pub value: Range<usize>,
    /// For methods and function values: parameter list and body.
    pub function: Option<(Range<usize>, Range<usize>)>,
}

/// The entries of the object literal whose `{` is at `open`.
pub fn object_entries(code: &Code<'_>, open: usize) -> Vec<Entry> {
    let Some(close) = code.matching(open) else {
        return Vec::new();
    };
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for r in code.split_top_level(open + 1, close, b',') {
        let mut s = r.start;
        if code.slice(r.clone()).starts_with("...") {
            continue;
        }
        for kw in ["async ", "get ", "set ", "static "] {
            if code.slice(s..r.end).starts_with(kw) {
                s = code.skip_ws(s + kw.len());
            }
        }
        let (key, after) = if let Some(lit) = code.string_at(s).filter(|l| l.start == s) {
            (lit.value, lit.end)
        } else if let Some(id) = ident_at(code, s) {
            (code.slice(id.clone()).to_string(), id.end)
        } else {
            continue;
        };
        let k = code.skip_ws(after);
        match bytes.get(k) {
            Some(b':') => {
                let v = code.skip_ws(k + 1);
                let function = function_parts(code, v..r.end);
                out.push(Entry {
                    key,
                    value: v..r.end,
                    function,
                });
            }
            Some(b'(') => {
                let Some(pc) = code.matching(k) else { continue };
                let Some(b) = next_code_byte(code, pc, r.end, b'{') else {
                    continue;
                };
                let Some(be) = code.matching(b) else { continue };
                out.push(Entry {
                    key,
                    value: s..r.end,
                    function: Some((k + 1..pc, b + 1..be)),
                });
            }
            _ if k >= r.end => out.push(Entry {
                key,
                value: s..after,
                function: None,
            }),
            _ => {}
        }
    }
    out
}

/// Parameters and body of a function expression at `range`
/// (`async (req, res) => {…}`, `function (req) {…}`, `req => …`).
pub fn function_parts(
    code: &Code<'_>,
    range: Range<usize>,
) -> Option<(Range<usize>, Range<usize>)> {
    let text = code.text();
    let mut s = code.skip_ws(range.start);
    if code.slice(s..range.end).starts_with("async") {
        s = code.skip_ws(s + 5);
    }
    if code.slice(s..range.end).starts_with("function") {
        let open = next_code_byte(code, s, range.end, b'(')?;
        let close = code.matching(open)?;
        let b = next_code_byte(code, close, range.end, b'{')?;
        return Some((open + 1..close, b + 1..code.matching(b)?));
    }
    let (params, after) = if text.as_bytes().get(s) == Some(&b'(') {
        let close = code.matching(s)?;
        (s + 1..close, close + 1)
    } else {
        let id = ident_at(code, s)?;
        (id.clone(), id.end)
    };
    let limit = (after + 300).min(range.end);
    let arrow = text.get(after..limit)?.find("=>")? + after;
    if !code.is_code(arrow) {
        return None;
    }
    let body = arrow_body(code, arrow + 2);
    Some((params, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn scopes_and_names() {
        let src = "const express = require('express');\n\
            module.exports = function (app, db) {\n  const router = express.Router();\n  app.use('/x', router);\n};\n\
            export default async function routes(fastify: FastifyInstance, opts) { fastify.get('/a', h) }\n\
            const make = (r) => { r.get('/b', h); return r; };\n\
            class UserRoutes {\n  public path = '/users';\n  public router = Router();\n  constructor() { this.init(); }\n  private init() { this.router.get(`${this.path}`, this.list); }\n  list = async (req: Request, res) => { res.json(req.query.page) }\n}\n";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let o = Outline::new(&code);
        let names: Vec<_> = o
            .scopes
            .iter()
            .map(|s| (s.name.as_str(), s.params.clone()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("module.exports", vec!["app".to_string(), "db".into()]),
                ("routes", vec!["fastify".into(), "opts".into()]),
                ("make", vec!["r".into()]),
                ("UserRoutes", vec![]),
            ]
        );
        let at = src.find("app.use").unwrap();
        assert_eq!(o.scoped("app", at), "module.exports#app");
        assert_eq!(o.scoped("router", at), "module.exports#router");
        assert_eq!(o.scoped("express", at), "express");
        let at = src.find("this.router.get").unwrap();
        assert_eq!(o.scoped("this.router", at), "UserRoutes#this.router");
        let class = &o.scopes[3];
        let ms: Vec<_> = methods(&code, &o, class.body.clone())
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(ms, vec!["constructor", "init", "list"]);
    }

    #[test]
    fn object_literals() {
        let src = "x = { a: '/a', 'b-c': B, d, async list(req, res) { }, create: (req) => req.body, ...rest }";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let es = object_entries(&code, src.find('{').unwrap());
        let keys: Vec<_> = es
            .iter()
            .map(|e| (e.key.as_str(), e.function.is_some()))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("a", false),
                ("b-c", false),
                ("d", false),
                ("list", true),
                ("create", true)
            ]
        );
    }

    #[test]
    fn multibyte_after_parameter_list() {
        // The 400-byte look-ahead for `=>` must not cut an emoji in half.
        for pad in 0..8 {
            let src = format!(
                "function f(a) {}{{ return 1; }}",
                " ".repeat(396 + pad) + "\u{1F600}\u{1F600}"
            );
            let code = Code::new(&src, Syntax::JAVASCRIPT);
            let _ = Outline::new(&code);
        }
    }
}
