//! What one JavaScript/TypeScript module exposes to others: imports
//! (`import`/`require`), exports (`module.exports`, `exports.x`, `export
//! default`, named and re-exports), string constants (also object-literal
//! and enum members, class fields), name bindings (`const r = require(…)`,
//! `new C()`, `f()`), functions with their parameters and what they return,
//! and calls passing names to functions (`require('./routes')(app)`).
//! Serialisable, so analyzers record it as a fact and resolve names across
//! files in `link` with [`super::project::Project`].

use portolan_plugin_sdk::{Code, SourceFile};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;
use std::sync::OnceLock;

use super::outline::{object_entries, Outline, ScopeKind};
use super::strexpr::{Piece, StrExpr};
use super::syntax::{dotted_at, is_js_ident, next_code_byte, trim_expr};

/// An expression that may denote an object defined somewhere in the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Value {
    /// A (scoped, possibly dotted) name.
    Name(String),
    /// `require('./x')`, `require('./x').y`, `import('./x')`.
    Require {
        spec: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        member: Option<String>,
    },
    /// `f(a, b)`; arguments that are not values are `None`.
    Call {
        callee: Box<Value>,
        args: Vec<Option<Value>>,
    },
    /// `new C(…)`, `new C(…).member`.
    New {
        class: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        member: Option<String>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImportKind {
    /// `import x from` (also `import x = require()` in TS: see `Whole`).
    Default,
    /// `import { a }`, `const { a } = require()`.
    Named(String),
    /// `import * as ns`.
    Namespace,
    /// `const x = require('m')`: the module's `module.exports`.
    Whole,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    pub local: String,
    pub spec: String,
    pub kind: ImportKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Export {
    /// `default`, a name, `=` for `module.exports = …`, `*` for `export *`.
    pub name: String,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Const {
    pub name: String,
    pub value: StrExpr,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    pub name: String,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Func {
    pub name: String,
    /// Scoped parameter names (`f#app`).
    pub params: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleInfo {
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<Import>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exports: Vec<Export>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Const>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<Binding>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<Func>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    /// Calls passing at least one name to a function (a [`Value::Call`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Value>,
}

impl ModuleInfo {
    pub fn is_empty(&self) -> bool {
        self.imports.is_empty()
            && self.exports.is_empty()
            && self.consts.is_empty()
            && self.bindings.is_empty()
            && self.functions.is_empty()
            && self.classes.is_empty()
    }
}

use super::pattern::re;

const ID: &str = r"[A-Za-z_$][\w$]*";

/// Parse an expression into a [`Value`] (names scoped at `range.start`).
pub fn parse_value(code: &Code<'_>, outline: &Outline, range: Range<usize>) -> Option<Value> {
    let r = trim_expr(code, range);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut s = code.skip_ws(r.start);
    // A spread argument (`f(...args)`) stands for its first element: the
    // router a registration function forwards to the next one.
    if code.slice(s..r.end).starts_with("...") {
        s = code.skip_ws(s + 3);
    }
    if code.slice(s..r.end).starts_with("await ") {
        s = code.skip_ws(s + 6);
    }
    if s >= r.end {
        return None;
    }
    let (mut value, mut i) = if code.slice(s..r.end).starts_with("new ") {
        let (class, cr) = dotted_at(code, s + 4)?;
        let mut i = cr.end;
        let mut p = code.skip_ws(i);
        // Type arguments: `new Store<User, Key>(…)`.
        if bytes.get(p) == Some(&b'<') {
            p = type_args_end(bytes, p).map_or(p, |e| code.skip_ws(e));
        }
        if bytes.get(p) == Some(&b'(') {
            i = code.matching(p)? + 1;
        }
        (
            Value::New {
                class: outline.scoped(&class, s),
                member: None,
            },
            i,
        )
    } else {
        let (name, nr) = dotted_at(code, s)?;
        let p = code.skip_ws(nr.end);
        if (name == "require" || name == "import") && bytes.get(p) == Some(&b'(') {
            let lit = code.string_at(p + 1)?;
            let close = code.matching(p)?;
            (
                Value::Require {
                    spec: lit.value,
                    member: None,
                },
                close + 1,
            )
        } else {
            (Value::Name(outline.scoped(&name, s)), nr.end)
        }
    };
    // Postfix: `.member`, `(args)`.
    loop {
        let p = code.skip_ws(i);
        if p >= r.end {
            return Some(value);
        }
        match bytes[p] {
            b'.' => {
                let (m, mr) = dotted_at(code, p + 1)?;
                value = match value {
                    Value::Require { spec, member: None } => Value::Require {
                        spec,
                        member: Some(m),
                    },
                    Value::New {
                        class,
                        member: None,
                    } => Value::New {
                        class,
                        member: Some(m),
                    },
                    Value::Name(n) => Value::Name(format!("{n}.{m}")),
                    Value::Call { callee, args } => {
                        // `x.routes()` style: keep the callee's object.
                        if matches!(m.as_str(), "routes" | "middleware" | "allowedMethods") {
                            Value::Call { callee, args }
                        } else {
                            return None;
                        }
                    }
                    _ => return None,
                };
                i = mr.end;
            }
            b'(' => {
                let close = code.matching(p)?;
                let args = code
                    .args(p)
                    .into_iter()
                    .map(|a| parse_value(code, outline, a))
                    .collect();
                value = Value::Call {
                    callee: Box::new(value),
                    args,
                };
                i = close + 1;
            }
            b'<' => {
                // Generic call `f<T>(…)`.
                let close = code.text()[p..r.end].find('>')? + p;
                i = close + 1;
            }
            _ => return None,
        }
    }
}

/// Scan a module's cross-file interface.
/// The file's [`Outline`], built once for every JavaScript technology of the
/// plugin that reads the file (`SourceFile::memo`). `code` is the file's
/// content lexed with `Syntax::JAVASCRIPT`.
pub fn outline(file: &SourceFile, code: &Code<'_>) -> Arc<Outline> {
    file.memo(|_| Outline::new(code))
}

/// The file's [`scan`], built once for every JavaScript technology of the
/// plugin that reads the file; `code` and `outline` are the file's
/// (`Syntax::JAVASCRIPT`, [`outline`]).
pub fn scanned(file: &SourceFile, code: &Code<'_>, outline: &Outline) -> Arc<ModuleInfo> {
    file.memo(|f| scan(&f.path, code, outline))
}

pub fn scan(path: &str, code: &Code<'_>, outline: &Outline) -> ModuleInfo {
    let mut m = ModuleInfo {
        path: path.to_string(),
        ..ModuleInfo::default()
    };
    let text = code.text();
    let bytes = text.as_bytes();
    imports(code, &mut m);

    // Declarations: `const x = …` (anywhere; names scoped).
    static DECL: OnceLock<Regex> = OnceLock::new();
    let decl = re(
        &DECL,
        &format!(r"\b(export\s+)?(?:const|let|var)\s+({ID})\s*(?::\s*[^=;]+?)?\s*=\s*"),
    );
    for c in decl.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let vstart = all.end();
        let vend = statement_end(code, vstart);
        let scoped = outline.scoped(name.as_str(), name.start());
        if c.get(1).is_some() {
            m.exports.push(Export {
                name: name.as_str().to_string(),
                value: Value::Name(scoped.clone()),
            });
        }
        record_value(code, outline, &scoped, vstart..vend, &mut m);
    }
    // TS enums.
    static ENUM: OnceLock<Regex> = OnceLock::new();
    let en = re(
        &ENUM,
        &format!(r"\b(?:export\s+)?(?:const\s+)?enum\s+({ID})\s*\{{"),
    );
    for c in en.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let open = all.end() - 1;
        let Some(close) = code.matching(open) else {
            continue;
        };
        for r in code.split_top_level(open + 1, close, b',') {
            if let Some((k, v)) = code.keyword_arg(r.clone()).or_else(|| {
                let t = code.slice(r.clone());
                let eq = t.find('=')?;
                let key = t[..eq].trim();
                Some((key, code.skip_ws(r.start + eq + 1)..r.end))
            }) {
                if let Some(e) = StrExpr::parse_literalish(code, v) {
                    m.consts.push(Const {
                        name: format!("{}.{}", name.as_str(), k),
                        value: e,
                    });
                }
            }
        }
    }
    // Class fields and `this.x = …`, functions.
    for scope in &outline.scopes {
        match scope.kind {
            ScopeKind::Class => {
                m.classes.push(scope.name.clone());
                class_fields(
                    code,
                    outline,
                    scope.name.as_str(),
                    scope.body.clone(),
                    &mut m,
                );
            }
            ScopeKind::Function => {
                let returns = returned(code, outline, scope.body.clone());
                m.functions.push(Func {
                    name: scope.name.clone(),
                    params: scope
                        .params
                        .iter()
                        .map(|p| {
                            if p.is_empty() {
                                String::new()
                            } else {
                                format!("{}#{}", scope.name, p)
                            }
                        })
                        .collect(),
                    returns,
                });
            }
        }
    }
    exports(code, outline, &mut m);
    // Calls passing names to functions defined or imported here.
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        &format!(
            r"(?:^|[;{{}}\s(=,])((?:require\s*\(\s*['`]{{0}}[^)]*\)\s*|{ID}(?:\.{ID})*\s*)\()"
        ),
    );
    let callable: HashSet<&str> = m
        .imports
        .iter()
        .map(|i| i.local.as_str())
        .chain(m.functions.iter().map(|f| f.name.as_str()))
        .collect();
    let mut calls = Vec::new();
    // The callee (the pattern's group 1) is the match without its leading
    // delimiter: only a match at the very start of the text, on a name,
    // has none (`^`). Finding without captures spares the regex engine a
    // second, slower pass over every call of the file.
    for all in call.find_iter(text) {
        let g_start = if all.start() == 0
            && bytes
                .first()
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'$')
        {
            0
        } else {
            all.start() + text[all.start()..].chars().next().map_or(0, char::len_utf8)
        };
        if !code.is_code(g_start) {
            continue;
        }
        let open = all.end() - 1;
        let callee_text = code.slice(g_start..open).trim();
        let first = callee_text.split(['.', '(', ' ']).next().unwrap_or("");
        let known = callee_text.starts_with("require") || callable.contains(first);
        if !known || callee_text == "require" {
            continue;
        }
        let Some(close) = code.matching(open) else {
            continue;
        };
        if let Some(v @ Value::Call { .. }) = parse_value(code, outline, g_start..close + 1) {
            if let Value::Call { args, .. } = &v {
                if args.iter().any(|a| matches!(a, Some(Value::Name(_)))) {
                    calls.push(v);
                }
            }
        }
    }
    m.calls.extend(calls);
    m
}

/// Record `name = <range>` as a constant or a binding.
fn record_value(
    code: &Code<'_>,
    outline: &Outline,
    name: &str,
    r: Range<usize>,
    m: &mut ModuleInfo,
) {
    let bytes = code.text().as_bytes();
    let mut s = code.skip_ws(r.start);
    // `Object.freeze({ … })` is its object.
    if code.slice(s..r.end).starts_with("Object.freeze(") {
        let o = code.skip_ws(s + "Object.freeze(".len());
        if bytes.get(o) == Some(&b'{') {
            s = o;
        }
    }
    if bytes.get(s) == Some(&b'{') {
        object_consts(code, name, s, m, 0);
        return;
    }
    if let Some(e) = StrExpr::parse(code, r.clone()) {
        if e.as_name().is_none() {
            let e = e.map_refs(&mut |n| outline.scoped(n, s));
            m.consts.push(Const {
                name: name.to_string(),
                value: e,
            });
            return;
        }
    }
    if let Some(v) = parse_value(code, outline, r) {
        // Imports are recorded separately.
        if !matches!(v, Value::Require { member: None, .. }) {
            m.bindings.push(Binding {
                name: name.to_string(),
                value: v,
            });
        }
    }
}

fn object_consts(code: &Code<'_>, prefix: &str, open: usize, m: &mut ModuleInfo, depth: usize) {
    if depth > 4 {
        return;
    }
    let bytes = code.text().as_bytes();
    for e in object_entries(code, open) {
        let key = format!("{prefix}.{}", e.key);
        let s = code.skip_ws(e.value.start);
        if bytes.get(s) == Some(&b'{') {
            object_consts(code, &key, s, m, depth + 1);
        } else if let Some(v) = StrExpr::parse_literalish(code, e.value.clone()) {
            m.consts.push(Const {
                name: key,
                value: v,
            });
        } else if let Some(n) = StrExpr::parse(code, e.value.clone())
            .as_ref()
            .and_then(|v| v.as_name())
            .filter(|n| m.consts.iter().any(|c| c.name == *n))
        {
            // `{ prefix }` / `{ base: prefix }` naming a string constant.
            m.consts.push(Const {
                name: key,
                value: StrExpr(vec![Piece::Ref(n.to_string())]),
            });
        }
    }
}

/// Start of the initializer of the first `const|let|var NAME =` declaration
/// of `name` in code (comments and strings skipped); with `property`, also
/// of a `NAME:` object entry, except one at `not_at`. A literal search per
/// occurrence of `name` instead of a regex compiled per name (schema lookups
/// run once per validator).
pub fn declared_value(code: &Code<'_>, name: &str, property: bool, not_at: usize) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    let text = code.text();
    let b = text.as_bytes();
    for (i, _) in text.match_indices(name) {
        let end = i + name.len();
        if b.get(end).is_some_and(|&c| is_js_ident(c)) {
            continue;
        }
        let ident_start = i == 0 || !b.get(i - 1).is_some_and(|&c| is_js_ident(c));
        if !ident_start {
            continue;
        }
        let after = code.skip_ws(end);
        let before = text.get(..i).unwrap_or("");
        let trimmed = before.trim_end_matches(|c: char| c.is_ascii_whitespace());
        if b.get(after) == Some(&b'=') && trimmed.len() < before.len() {
            let kw = ["const", "let", "var"]
                .iter()
                .find_map(|k| trimmed.strip_suffix(k).map(str::len));
            if let Some(k) = kw {
                let bounded = k == 0 || !b.get(k - 1).is_some_and(|&c| is_js_ident(c));
                if bounded && code.is_code(k) {
                    return Some(code.skip_ws(after + 1));
                }
            }
        }
        if property && b.get(after) == Some(&b':') && i != not_at && code.is_code(i) {
            return Some(code.skip_ws(after + 1));
        }
    }
    None
}

/// End of the statement whose expression starts at `s`: the first `;` or
/// line end at bracket depth 0 that does not continue the expression.
pub fn statement_end(code: &Code<'_>, s: usize) -> usize {
    let bytes = code.text().as_bytes();
    let mut depth = 0i32;
    let mut i = s;
    while i < bytes.len() {
        if code.is_code(i) {
            match bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return i;
                    }
                    depth -= 1;
                }
                b';' | b',' if depth == 0 => return i,
                b'\n' if depth == 0 => {
                    let n = code.skip_ws(i);
                    let prev = code.text().get(s..i).unwrap_or("").trim_end();
                    let cont = matches!(bytes.get(n), Some(b'.' | b'+' | b'?' | b':'))
                        || prev.ends_with(['+', '=', '(', ',', '.', '?', ':'])
                        || prev.is_empty();
                    if !cont {
                        return i;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    bytes.len()
}

fn imports(code: &Code<'_>, m: &mut ModuleInfo) {
    let text = code.text();
    static IMPORT: OnceLock<Regex> = OnceLock::new();
    let import = re(
        &IMPORT,
        &format!(
            r#"\bimport\s+(?:type\s+)?(?:({ID})\s*,?\s*)?(?:\*\s*as\s+({ID})\s*)?(\{{[^}}]*\}})?\s*from\s*['"]([^'"]+)['"]"#
        ),
    );
    for c in import.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        if !code.is_code(all.start()) {
            continue;
        }
        let spec = c.get(4).map_or("", |s| s.as_str()).to_string();
        if let Some(d) = c.get(1) {
            m.imports.push(Import {
                local: d.as_str().into(),
                spec: spec.clone(),
                kind: ImportKind::Default,
            });
        }
        if let Some(ns) = c.get(2) {
            m.imports.push(Import {
                local: ns.as_str().into(),
                spec: spec.clone(),
                kind: ImportKind::Namespace,
            });
        }
        if let Some(names) = c.get(3) {
            for part in names.as_str().trim_matches(['{', '}']).split(',') {
                let part = part.trim().trim_start_matches("type ").trim();
                if part.is_empty() {
                    continue;
                }
                let (orig, local) = match part.split_once(" as ") {
                    Some((a, b)) => (a.trim(), b.trim()),
                    None => (part, part),
                };
                m.imports.push(Import {
                    local: local.into(),
                    spec: spec.clone(),
                    kind: if orig == "default" {
                        ImportKind::Default
                    } else {
                        ImportKind::Named(orig.into())
                    },
                });
            }
        }
    }
    static REQUIRE: OnceLock<Regex> = OnceLock::new();
    let require = re(
        &REQUIRE,
        &format!(
            r#"\b(?:(?:const|let|var)\s+|import\s+)({ID}|\{{[^}}]*\}})\s*=\s*require\s*\(\s*['"]([^'"]+)['"]\s*\)"#
        ),
    );
    for c in require.captures_iter(text) {
        let (Some(all), Some(lhs), Some(spec)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        // `require('x').y` is a binding, not a whole import.
        let after = code.skip_ws(all.end());
        if text.as_bytes().get(after) == Some(&b'.') || text.as_bytes().get(after) == Some(&b'(') {
            continue;
        }
        let spec = spec.as_str().to_string();
        let lhs = lhs.as_str();
        if lhs.starts_with('{') {
            for part in lhs.trim_matches(['{', '}']).split(',') {
                let part = part.trim();
                if part.is_empty() || part.starts_with("...") {
                    continue;
                }
                let (orig, local) = match part.split_once(':') {
                    Some((a, b)) => (a.trim(), b.trim()),
                    None => (part, part),
                };
                m.imports.push(Import {
                    local: local.into(),
                    spec: spec.clone(),
                    kind: ImportKind::Named(orig.into()),
                });
            }
        } else {
            m.imports.push(Import {
                local: lhs.into(),
                spec,
                kind: ImportKind::Whole,
            });
        }
    }
}

fn exports(code: &Code<'_>, outline: &Outline, m: &mut ModuleInfo) {
    let text = code.text();
    let bytes = text.as_bytes();
    static EXP: OnceLock<Regex> = OnceLock::new();
    let exp = re(
        &EXP,
        &format!(r"\b(module\.exports(?:\.({ID}))?|exports\.({ID})|export\s+default)\s*(=)?\s*"),
    );
    for c in exp.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        if !code.is_code(all.start()) || !outline.is_top(all.start()) {
            continue;
        }
        let is_default = all.as_str().starts_with("export") && !all.as_str().starts_with("exports");
        if !is_default && c.get(4).is_none() {
            continue;
        }
        if is_default && c.get(4).is_some() {
            continue;
        }
        let name = if is_default {
            "default".to_string()
        } else if let Some(n) = c.get(2).or(c.get(3)) {
            n.as_str().to_string()
        } else {
            "=".to_string()
        };
        let vs = all.end();
        // A function defined right here is an outline scope.
        // (Scopes are sorted by start.)
        let at = outline.scopes.partition_point(|s| s.start < all.start());
        if let Some(scope) = outline.scopes.get(at).filter(|s| s.start == all.start()) {
            m.exports.push(Export {
                name,
                value: Value::Name(scope.name.clone()),
            });
            continue;
        }
        let rest = &text[vs..];
        let decl = ["async function", "function", "class", "abstract class"]
            .iter()
            .find(|k| rest.starts_with(*k));
        if let Some(scope) = decl.and_then(|_| {
            let at = outline.scopes.partition_point(|s| s.start < vs);
            outline.scopes.get(at).filter(|s| s.start <= vs + 20)
        }) {
            m.exports.push(Export {
                name,
                value: Value::Name(scope.name.clone()),
            });
            continue;
        }
        if bytes.get(vs) == Some(&b'{') && name == "=" {
            // module.exports = { a, b: c }
            for e in object_entries(code, vs) {
                let vs2 = code.skip_ws(e.value.start);
                if bytes.get(vs2) == Some(&b'{') {
                    object_consts(code, &format!("exports.{}", e.key), vs2, m, 0);
                    m.exports.push(Export {
                        value: Value::Name(format!("exports.{}", e.key)),
                        name: e.key,
                    });
                } else if let Some(c) = StrExpr::parse_literalish(code, e.value.clone()) {
                    m.consts.push(Const {
                        name: format!("exports.{}", e.key),
                        value: c,
                    });
                    m.exports.push(Export {
                        value: Value::Name(format!("exports.{}", e.key)),
                        name: e.key,
                    });
                } else if e.function.is_some() {
                    m.exports.push(Export {
                        value: Value::Name(format!("exports.{}", e.key)),
                        name: e.key,
                    });
                } else if let Some(v) = parse_value(code, outline, e.value.clone()) {
                    m.exports.push(Export {
                        name: e.key,
                        value: v,
                    });
                }
            }
            continue;
        }
        let end = statement_end(code, vs);
        if let Some(v) = parse_value(code, outline, vs..end) {
            m.exports.push(Export { name, value: v });
        } else if let Some(e) = StrExpr::parse_literalish(code, vs..end) {
            m.consts.push(Const {
                name: format!("exports.{name}"),
                value: e,
            });
            m.exports.push(Export {
                name: name.clone(),
                value: Value::Name(format!("exports.{name}")),
            });
        }
    }
    // export function f / export class C / export { a as b } [from 'm'] / export * from 'm'
    static NAMED: OnceLock<Regex> = OnceLock::new();
    let named = re(
        &NAMED,
        &format!(
            r#"\bexport\s+(?:(?:async\s+)?function\s*\*?\s*({ID})|(?:abstract\s+)?class\s+({ID})|(?:type\s+)?(\{{[^}}]*\}})(?:\s*from\s*['"]([^'"]+)['"])?|\*\s*(?:as\s+({ID})\s+)?from\s*['"]([^'"]+)['"])"#
        ),
    );
    for c in named.captures_iter(text) {
        let Some(all) = c.get(0) else { continue };
        if !code.is_code(all.start()) {
            continue;
        }
        if let Some(n) = c.get(1).or(c.get(2)) {
            m.exports.push(Export {
                name: n.as_str().into(),
                value: Value::Name(n.as_str().into()),
            });
        } else if let Some(list) = c.get(3) {
            let from = c.get(4).map(|s| s.as_str().to_string());
            for part in list.as_str().trim_matches(['{', '}']).split(',') {
                let part = part.trim().trim_start_matches("type ").trim();
                if part.is_empty() {
                    continue;
                }
                let (orig, public) = match part.split_once(" as ") {
                    Some((a, b)) => (a.trim(), b.trim()),
                    None => (part, part),
                };
                let value = match &from {
                    Some(spec) => Value::Require {
                        spec: spec.clone(),
                        member: Some(orig.into()),
                    },
                    None => Value::Name(orig.into()),
                };
                m.exports.push(Export {
                    name: public.into(),
                    value,
                });
            }
        } else if let Some(spec) = c.get(6) {
            let name = c.get(5).map_or("*", |n| n.as_str()).to_string();
            m.exports.push(Export {
                name,
                value: Value::Require {
                    spec: spec.as_str().into(),
                    member: None,
                },
            });
        }
    }
    alias_exports(code, outline, m);
}

/// `const Groups = module.exports; Groups.create = async (req, res) => …;
/// Groups.admin = require('./admin');`: members assigned to an alias of
/// `module.exports` are exports.
fn alias_exports(code: &Code<'_>, outline: &Outline, m: &mut ModuleInfo) {
    let aliases: Vec<String> = m
        .bindings
        .iter()
        .filter(|b| matches!(&b.value, Value::Name(n) if n == "module.exports" || n == "exports"))
        .map(|b| b.name.clone())
        .filter(|n| !n.contains('#') && !n.contains('.'))
        .collect();
    let text = code.text();
    let bytes = text.as_bytes();
    for alias in &aliases {
        for at in code.find_word(alias) {
            if !outline.is_top(at) || (at > 0 && bytes[at - 1] == b'.') {
                continue;
            }
            let d = at + alias.len();
            if bytes.get(d) != Some(&b'.') {
                continue;
            }
            let Some(r) = super::syntax::ident_at(code, d + 1) else {
                continue;
            };
            let eq = code.skip_ws(r.end);
            if bytes.get(eq) != Some(&b'=') || matches!(bytes.get(eq + 1), Some(b'=') | Some(b'>'))
            {
                continue;
            }
            let name = code.slice(r).to_string();
            let vs = code.skip_ws(eq + 1);
            let i = outline.scopes.partition_point(|s| s.start < at);
            let value = match outline.scopes.get(i).filter(|s| s.start == at) {
                Some(scope) => Some(Value::Name(scope.name.clone())),
                None => parse_value(code, outline, vs..statement_end(code, vs)),
            };
            if let Some(value) = value {
                m.exports.push(Export { name, value });
            }
        }
    }
}

/// Fields of a class: `path = '/users'`, `router = Router()`,
/// `this.x = …` in any method.
fn class_fields(
    code: &Code<'_>,
    outline: &Outline,
    class: &str,
    body: Range<usize>,
    m: &mut ModuleInfo,
) {
    let text = code.text();
    let Some(&base) = outline.depth.get(body.start) else {
        return;
    };
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = re(
        &FIELD,
        &format!(
            r"(?m)^\s*(?:(?:public|private|protected|readonly|declare|override)\s+)*({ID})[ \t]*[!?]?[ \t]*(?::[ \t]*[^=;(\n]+?)?[ \t]*=\s*"
        ),
    );
    let slice = &text[body.clone()];
    for c in field.captures_iter(slice) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let at = body.start + name.start();
        if outline.depth.get(at) != Some(&base) || !code.is_code(at) {
            continue;
        }
        let vs = body.start + all.end();
        let ve = statement_end(code, vs);
        record_value(
            code,
            outline,
            &format!("{class}#this.{}", name.as_str()),
            vs..ve,
            m,
        );
    }
    static THIS: OnceLock<Regex> = OnceLock::new();
    let this = re(&THIS, &format!(r"\bthis\.({ID})\s*=[^=>]"));
    for c in this.captures_iter(slice) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let at = body.start + all.start();
        if !code.is_code(at) {
            continue;
        }
        let vs = body.start + all.end() - 1;
        let ve = statement_end(code, vs);
        record_value(
            code,
            outline,
            &format!("{class}#this.{}", name.as_str()),
            vs..ve,
            m,
        );
    }
}

/// What a function returns: the last `return <value>` in its body.
fn returned(code: &Code<'_>, outline: &Outline, body: Range<usize>) -> Option<Value> {
    let mut out = None;
    for at in code.find_word_in("return", body.clone()) {
        let vs = at + 6;
        let ve = statement_end(code, vs).min(body.end);
        if let Some(v) = parse_value(code, outline, vs..ve) {
            out = Some(v);
        }
    }
    if out.is_none() {
        // Expression-bodied arrow.
        if let Some(v) = parse_value(code, outline, body.clone()) {
            return Some(v);
        }
    }
    let _ = next_code_byte;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn scan_src(src: &str) -> ModuleInfo {
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let o = Outline::new(&code);
        scan("a.js", &code, &o)
    }

    #[test]
    fn declared_value_finds_the_code_declaration() {
        let src = "// const body = old\nconst bodyX = 1; let 名 = 'é';\nconst body: T = z.object({ a });\nf({ body: q });\n";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let at = |n: &str, p: bool| declared_value(&code, n, p, usize::MAX).map(|i| &src[i..i + 1]);
        assert_eq!(
            at("body", false),
            None,
            "a typed declaration is not `NAME =`"
        );
        assert_eq!(at("bodyX", false), Some("1"));
        assert_eq!(at("名", false), Some("'"), "multi-byte names and values");
        assert_eq!(at("body", true), Some("T"));
        assert_eq!(at("", false), None);
        let typed = src.find("body: T").unwrap_or(0);
        assert_eq!(
            declared_value(&code, "body", true, typed).map(|i| &src[i..i + 1]),
            Some("q")
        );
    }

    #[test]
    fn imports_and_exports() {
        let m = scan_src(
            "import express, { Router as R } from 'express';\nimport * as api from './api';\nconst users = require('./users');\nconst { a, b: c } = require('../lib');\nconst v1 = require('./v1').router;\n\
             const router = R();\nmodule.exports = router;\nexports.x = users;\nexport { a as z } from './z';\nexport * from './all';\n",
        );
        let imports: Vec<_> = m
            .imports
            .iter()
            .map(|i| (i.local.as_str(), i.spec.as_str(), i.kind.clone()))
            .collect();
        assert_eq!(
            imports,
            vec![
                ("express", "express", ImportKind::Default),
                ("R", "express", ImportKind::Named("Router".into())),
                ("api", "./api", ImportKind::Namespace),
                ("users", "./users", ImportKind::Whole),
                ("a", "../lib", ImportKind::Named("a".into())),
                ("c", "../lib", ImportKind::Named("b".into())),
            ]
        );
        assert!(m.bindings.contains(&Binding {
            name: "v1".into(),
            value: Value::Require {
                spec: "./v1".into(),
                member: Some("router".into())
            }
        }));
        let exports: Vec<_> = m
            .exports
            .iter()
            .map(|e| (e.name.as_str(), e.value.clone()))
            .collect();
        assert_eq!(
            exports,
            vec![
                ("=", Value::Name("router".into())),
                ("x", Value::Name("users".into())),
                (
                    "z",
                    Value::Require {
                        spec: "./z".into(),
                        member: Some("a".into())
                    }
                ),
                (
                    "*",
                    Value::Require {
                        spec: "./all".into(),
                        member: None
                    }
                ),
            ]
        );
    }

    #[test]
    fn constants_and_functions() {
        let m = scan_src(
            "const API = '/api';\nconst V1 = `${API}/v1`;\nconst ROUTES = { USERS: '/users', nested: { X: API + '/x' } };\nenum Paths { Items = '/items' }\n\
             module.exports = (app) => { const r = Router(); app.use(V1, r); return r; };\nrequire('./routes')(app, db);\n",
        );
        let consts: Vec<_> = m.consts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            consts,
            vec![
                "API",
                "V1",
                "ROUTES.USERS",
                "ROUTES.nested.X",
                "Paths.Items"
            ]
        );
        assert_eq!(m.functions[0].name, "module.exports");
        assert_eq!(
            m.functions[0].params,
            vec!["module.exports#app".to_string()]
        );
        assert_eq!(
            m.functions[0].returns,
            Some(Value::Name("module.exports#r".into()))
        );
        assert_eq!(m.calls.len(), 1);
    }
}

/// The offset after the `>` closing type arguments opened at `open`
/// (nested `<…>` counted; gives up at `;`, `{` or after 400 bytes).
fn type_args_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, b) in bytes.iter().enumerate().skip(open).take(400) {
        match b {
            b'<' => depth += 1,
            b'>' if k > 0 && bytes[k - 1] == b'=' => {}
            b'>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            b';' | b'{' => return None,
            _ => {}
        }
    }
    None
}
