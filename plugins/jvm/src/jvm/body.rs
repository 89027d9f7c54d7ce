//! Small token-level helpers shared by the route-DSL analyzers that are not
//! annotation based (Helidon SE, JDK HttpServer, Wicket, Struts 2, Play,
//! http4k): class and method body ranges, string-literal arguments, and
//! constant evaluation of a path expression in the context of its file.

use std::ops::Range;

use super::expr::StrExpr;
use super::index::Index;
use super::outline::JFile;
use super::tokens::{close_of, split_commas, Kind, Token};

/// Java statement keywords that look like `name(` calls, and Kotlin's
/// `when` (kept last, see [`JAVA_KEYWORDS`]).
pub const KEYWORDS: [&str; 11] = [
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "synchronized",
    "return",
    "new",
    "else",
    "try",
    "when",
];

/// [`KEYWORDS`] without `when`, a plain method name in Java.
pub const JAVA_KEYWORDS: &[&str] = KEYWORDS.split_at(KEYWORDS.len() - 1).0;

/// A class (or interface / enum / record / object) body.
#[derive(Clone, Debug)]
pub struct ClassBody {
    pub name: String,
    /// Index of the `{` and of the matching `}`.
    pub open: usize,
    pub close: usize,
    /// Index of the `class` keyword.
    pub decl: usize,
}

/// A method (or Kotlin `fun`) body.
#[derive(Clone, Debug)]
pub struct MethodBody {
    pub class: String,
    pub name: String,
    /// Parameter list `(`..`)` token indices.
    pub params: Range<usize>,
    /// The body tokens (between the braces, or the `= expr` of Kotlin).
    pub body: Range<usize>,
    /// Index of the name token.
    pub at: usize,
}

pub fn classes(t: &[Token]) -> Vec<ClassBody> {
    let mut out = Vec::new();
    for i in 0..t.len() {
        let kw = matches!(
            t[i].text.as_str(),
            "class" | "enum" | "record" | "interface" | "object"
        );
        if !kw || t[i].kind != Kind::Ident || (i > 0 && (t[i - 1].is('.') || t[i - 1].is(':'))) {
            continue;
        }
        let Some(name) = t.get(i + 1).filter(|x| x.kind == Kind::Ident) else {
            continue;
        };
        let mut depth = 0i32;
        let mut open = None;
        for (k, x) in t.iter().enumerate().skip(i + 2) {
            if x.is('(') || x.is('<') {
                depth += 1;
            } else if x.is(')') || x.is('>') {
                depth -= 1;
            } else if depth <= 0 && (x.is(';') || x.is('}')) {
                break;
            } else if depth <= 0 && x.is('{') {
                open = Some(k);
                break;
            }
        }
        if let Some(open) = open {
            let close = close_of(t, open).unwrap_or(t.len());
            out.push(ClassBody {
                name: name.text.clone(),
                open,
                close,
                decl: i,
            });
        }
    }
    out
}

/// The innermost class around token `i` ("" outside any class).
pub fn class_at(classes: &[ClassBody], i: usize) -> String {
    classes
        .iter()
        .filter(|c| c.open < i && i < c.close)
        .max_by_key(|c| c.open)
        .map(|c| c.name.clone())
        .unwrap_or_default()
}

/// Method bodies: Java `Type name(…) [throws …] {…}` and Kotlin
/// `fun name(…)[: T] {…}` / `fun name(…)[: T] = expr`.
pub fn methods(t: &[Token], classes: &[ClassBody]) -> Vec<MethodBody> {
    let mut out = Vec::new();
    for i in 1..t.len() {
        if t[i].kind != Kind::Ident || KEYWORDS.contains(&t[i].text.as_str()) {
            continue;
        }
        if !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let prev = &t[i - 1];
        let kotlin = prev.is_ident("fun");
        let typed = kotlin
            || (prev.kind == Kind::Ident && !KEYWORDS.contains(&prev.text.as_str()))
            || prev.is('>')
            || prev.is(']');
        if !typed || prev.is_ident("new") {
            continue;
        }
        let Some(close) = close_of(t, i + 1) else {
            continue;
        };
        let mut k = close + 1;
        if kotlin && t.get(k).is_some_and(|x| x.is(':')) {
            // Return type: up to `{` or `=` at depth 0.
            let mut depth = 0i32;
            while k < t.len() {
                let x = &t[k];
                if x.is('<') || x.is('(') {
                    depth += 1;
                } else if x.is('>') || x.is(')') {
                    depth -= 1;
                } else if depth <= 0 && (x.is('{') || x.is('=')) {
                    break;
                }
                k += 1;
            }
        }
        if t.get(k).is_some_and(|x| x.is_ident("throws")) {
            while k < t.len() && !t[k].is('{') && !t[k].is(';') {
                k += 1;
            }
        }
        let body = if t.get(k).is_some_and(|x| x.is('{')) {
            let end = close_of(t, k).unwrap_or(t.len());
            k + 1..end
        } else if kotlin && t.get(k).is_some_and(|x| x.is('=')) {
            k + 1..expr_end(t, k + 1)
        } else {
            continue;
        };
        out.push(MethodBody {
            class: class_at(classes, i),
            name: t[i].text.clone(),
            params: i + 1..close,
            body,
            at: i,
        });
    }
    out
}

/// End of the expression starting at `start`: the first `;`, `,` or
/// closing bracket at depth 0, or (Kotlin) a line break at depth 0 that is
/// not followed by a continuation (`.`, `?.`, an operator).
pub fn expr_end(t: &[Token], start: usize) -> usize {
    let mut depth = 0i32;
    let mut k = start;
    while k < t.len() {
        let x = &t[k];
        if k > start && depth == 0 && x.nl && !x.is('.') && !x.is('?') && !x.is('+') {
            let prev = &t[k - 1];
            if !(prev.is('.') || prev.is('+') || prev.is('(') || prev.is(',') || prev.is('=')) {
                return k;
            }
        }
        if x.is('(') || x.is('[') || x.is('{') {
            depth += 1;
        } else if x.is(')') || x.is(']') || x.is('}') {
            depth -= 1;
            if depth < 0 {
                return k;
            }
        } else if depth == 0 && (x.is(';') || x.is(',')) {
            return k;
        }
        k += 1;
    }
    t.len()
}

/// The arguments of the call whose `(` is at `open`, and the `)` index.
pub fn call_args(t: &[Token], open: usize) -> (Vec<Range<usize>>, usize) {
    let close = close_of(t, open).unwrap_or(t.len());
    (split_commas(t, open + 1, close), close)
}

/// A string expression (literals, constants, `+`) spanning exactly `r`.
pub fn str_expr(t: &[Token], r: Range<usize>, src: &str, kotlin: bool) -> Option<StrExpr> {
    StrExpr::parse(
        t.get(r)?,
        src,
        portolan_plugin_sdk::strexpr::Grammar::jvm(kotlin),
    )
}

/// A single string literal spanning exactly `r`.
pub fn str_lit(t: &[Token], r: &Range<usize>) -> Option<String> {
    (r.len() == 1 && t.get(r.start)?.kind == Kind::Str).then(|| t[r.start].text.clone())
}

/// Evaluate `e`, written in the file `path` (`line` picks the enclosing
/// type for member constants), against the outlines of every file.
pub fn eval(idx: &Index, path: &str, line: u32, e: &StrExpr) -> Option<String> {
    if let Some(v) = e.literal() {
        return Some(v);
    }
    let f = idx.files.iter().position(|x| x.path == path)?;
    let ctx = type_at(&idx.files[f], line).map(|ti| (f, ti));
    idx.eval(f, ctx, e)
}

/// The last type of `file` declared at or before `line`.
fn type_at(file: &JFile, line: u32) -> Option<usize> {
    file.types
        .iter()
        .enumerate()
        .filter(|(_, ty)| ty.line <= line)
        .max_by_key(|(_, ty)| ty.line)
        .map(|(i, _)| i)
        .or(if file.types.is_empty() { None } else { Some(0) })
}

/// `X.class` / `X::class` in `t[r]`.
pub fn class_literal(t: &[Token], r: Range<usize>) -> Option<String> {
    let end = r.end.min(t.len());
    (r.start..end.saturating_sub(2)).find_map(|k| {
        let dot = t[k + 1].is('.') && t[k + 2].is_ident("class");
        let colons = t[k + 1].is(':')
            && t.get(k + 2).is_some_and(|x| x.is(':'))
            && t.get(k + 3).is_some_and(|x| x.is_ident("class"));
        (t[k].kind == Kind::Ident && (dot || colons)).then(|| t[k].text.clone())
    })
}

/// Types of the variables declared in `t[r]` (`Type name` pairs, fields,
/// locals and parameters), as `(name, type)`.
pub fn declared_types(t: &[Token], r: Range<usize>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let end = r.end.min(t.len());
    for k in r.start..end.saturating_sub(1) {
        let (a, b) = (&t[k], &t[k + 1]);
        if a.kind == Kind::Ident
            && b.kind == Kind::Ident
            && a.text.starts_with(char::is_uppercase)
            && !KEYWORDS.contains(&b.text.as_str())
            && t.get(k + 2).is_some_and(|x| !x.is('('))
        {
            out.push((b.text.clone(), a.text.clone()));
        }
        // `var name = new Type(…)` (Java `var`, or any untyped local).
        if a.kind == Kind::Ident
            && b.is('=')
            && t.get(k + 2).is_some_and(|x| x.is_ident("new"))
            && t.get(k + 3)
                .is_some_and(|x| x.kind == Kind::Ident && x.text.starts_with(char::is_uppercase))
        {
            out.push((a.text.clone(), t[k + 3].text.clone()));
        }
        // Kotlin `name: Type`.
        if a.kind == Kind::Ident
            && b.is(':')
            && t.get(k + 2)
                .is_some_and(|x| x.kind == Kind::Ident && x.text.starts_with(char::is_uppercase))
        {
            out.push((a.text.clone(), t[k + 2].text.clone()));
        }
    }
    out
}

/// The ident at `i` is called as a member: `.name(`.
pub fn member_call(t: &[Token], i: usize, names: &[&str]) -> bool {
    i > 0
        && i < t.len()
        && t[i - 1].is('.')
        && t[i].kind == Kind::Ident
        && names.contains(&t[i].text.as_str())
        && t.get(i + 1).is_some_and(|x| x.is('('))
}
