//! PHP expressions as values, and fluent call chains
//! (`Route::prefix('x')->middleware('auth')->group(function () { … })`).

use serde::{Deserialize, Serialize};

use super::request::{reads, Reads};
use super::tokens::{matching, split, Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Val {
    Str(String),
    Int(String),
    /// `[k => v, v2]` / `array(...)`.
    Array(Vec<(Option<Val>, Val)>),
    /// `Foo::class` (name as written).
    Class(String),
    /// `Foo::BAR` / `self::BAR`.
    ClassConst(String, String),
    /// A closure: the route chains in its body, what it reads, its line.
    Closure(Box<Closure>),
    /// `name(args)`.
    Call(String, Vec<Val>),
    /// `new Name(args)` (class as written).
    New(String, Vec<Val>),
    Var(String),
    /// `a . b`.
    Concat(Vec<Val>),
    /// A bare constant `FOO` or `__DIR__`.
    Const(String),
    Expr(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Closure {
    pub chains: Vec<Chain>,
    pub reads: Reads,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub name: String,
    pub args: Vec<Val>,
    pub line: u32,
}

/// `Base::a(…)->b(…)…` or `$var->a(…)->b(…)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// `Route` (class, short name) or `$router` (with the `$`).
    pub base: String,
    pub parts: Vec<Part>,
    pub line: u32,
}

impl Val {
    pub fn str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }
    /// Items of an array of strings (or a single string).
    pub fn strings(&self) -> Vec<String> {
        match self {
            Val::Array(items) => items
                .iter()
                .filter_map(|(_, v)| v.str().map(str::to_string))
                .collect(),
            Val::Str(s) => vec![s.clone()],
            _ => Vec::new(),
        }
    }
    /// `'key' => value` in an array.
    pub fn get(&self, key: &str) -> Option<&Val> {
        match self {
            Val::Array(items) => items
                .iter()
                .find(|(k, _)| k.as_ref().and_then(Val::str) == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

pub struct Ctx<'a> {
    pub toks: &'a [Token],
    pub line_of: &'a dyn Fn(usize) -> u32,
    /// Does a chain start here? (`Route::`, `$router->get`…)
    pub is_chain_start: &'a dyn Fn(&[Token], usize) -> bool,
}

/// Every chain in `range`, closures' bodies parsed recursively into the
/// closure values.
pub fn chains(cx: &Ctx<'_>, start: usize, end: usize) -> Vec<Chain> {
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        if (cx.is_chain_start)(cx.toks, i) {
            if let Some((chain, next)) = chain_at(cx, i, end) {
                out.push(chain);
                i = next.max(i + 1);
                continue;
            }
        }
        i += 1;
    }
    out
}

fn chain_at(cx: &Ctx<'_>, i: usize, end: usize) -> Option<(Chain, usize)> {
    let t = cx.toks;
    // `require __DIR__ . '/auth.php';` as a pseudo-chain.
    if ["require", "require_once", "include", "include_once"]
        .iter()
        .any(|w| t[i].is_ident(w))
    {
        let stop = (i + 1..end).find(|&k| t[k].is(";")).unwrap_or(end);
        let (a, b) =
            if t.get(i + 1).is_some_and(|p| p.is("(")) && matching(t, i + 1) == Some(stop - 1) {
                (i + 2, stop - 1)
            } else {
                (i + 1, stop)
            };
        let line = (cx.line_of)(t[i].start);
        return Some((
            Chain {
                base: "require".into(),
                parts: vec![Part {
                    name: "require".into(),
                    args: vec![value(cx, a, b)],
                    line,
                }],
                line,
            },
            stop,
        ));
    }
    let base = match t[i].kind {
        Kind::Var => format!("${}", t[i].text),
        _ => t[i]
            .text
            .rsplit('\\')
            .next()
            .unwrap_or(&t[i].text)
            .to_string(),
    };
    let mut parts = Vec::new();
    let mut k = i + 1;
    while k + 2 < end
        && (t[k].is("::") || t[k].is("->") || t[k].is("?->"))
        && t[k + 1].kind == Kind::Ident
        && t[k + 2].is("(")
    {
        let close = matching(t, k + 2)?.min(end);
        let args = split(&t[k + 3..close], ",")
            .into_iter()
            .map(|r| value(cx, k + 3 + r.start, k + 3 + r.end))
            .collect();
        parts.push(Part {
            name: t[k + 1].text.clone(),
            args,
            line: (cx.line_of)(t[k + 1].start),
        });
        k = close + 1;
    }
    if parts.is_empty() {
        return None;
    }
    Some((
        Chain {
            base,
            parts,
            line: (cx.line_of)(t[i].start),
        },
        k,
    ))
}

/// Read the expression `toks[start..end]`.
pub fn value(cx: &Ctx<'_>, start: usize, end: usize) -> Val {
    let t = cx.toks;
    if start >= end {
        return Val::Expr(String::new());
    }
    // Named argument `name: value` (PHP 8): keep the value.
    if end - start >= 3
        && t[start].kind == Kind::Ident
        && t[start + 1].is(":")
        && !t[start + 1].is("::")
    {
        return Val::Array(vec![(
            Some(Val::Str(t[start].text.clone())),
            value(cx, start + 2, end),
        )]);
    }
    // Concatenation.
    let pieces: Vec<_> = split(&t[start..end], ".");
    if pieces.len() > 1 {
        return Val::Concat(
            pieces
                .into_iter()
                .map(|r| value(cx, start + r.start, start + r.end))
                .collect(),
        );
    }
    let first = &t[start];
    let n = end - start;
    // Closures.
    let fstart = if first.is_ident("static") {
        start + 1
    } else {
        start
    };
    if fstart < end && (t[fstart].is_ident("function") || t[fstart].is_ident("fn")) {
        let line = (cx.line_of)(t[fstart].start);
        if t[fstart].is_ident("function") {
            // body `{ … }` after the parameter list and `use (…)`/return type
            let mut k = fstart + 1;
            while k < end && !t[k].is("{") {
                if t[k].is("(") {
                    k = matching(t, k).unwrap_or(k);
                }
                k += 1;
            }
            let close = matching(t, k).unwrap_or(end).min(end);
            let body_start = (k + 1).min(close);
            return Val::Closure(Box::new(Closure {
                chains: chains(cx, body_start, close),
                reads: reads(&t[body_start..close]),
                line,
            }));
        }
        let arrow = (fstart..end).find(|&k| t[k].is("=>")).unwrap_or(end);
        let body_start = (arrow + 1).min(end);
        return Val::Closure(Box::new(Closure {
            chains: chains(cx, body_start, end),
            reads: reads(&t[body_start..end]),
            line,
        }));
    }
    if n == 1 {
        return match first.kind {
            Kind::Str if !first.interpolated => Val::Str(first.text.clone()),
            Kind::Int => Val::Int(first.text.clone()),
            Kind::Var => Val::Var(first.text.clone()),
            Kind::Ident => Val::Const(first.text.clone()),
            _ => Val::Expr(first.text.clone()),
        };
    }
    // Arrays.
    let arr_open = if first.is("[") {
        Some(start)
    } else if first.is_ident("array") && t.get(start + 1).is_some_and(|p| p.is("(")) {
        Some(start + 1)
    } else {
        None
    };
    if let Some(open) = arr_open {
        if matching(t, open) == Some(end - 1) {
            let mut items = Vec::new();
            for r in split(&t[open + 1..end - 1], ",") {
                let (a, b) = (open + 1 + r.start, open + 1 + r.end);
                let arrow = split(&t[a..b], "=>");
                if arrow.len() == 2 {
                    items.push((
                        Some(value(cx, a + arrow[0].start, a + arrow[0].end)),
                        value(cx, a + arrow[1].start, a + arrow[1].end),
                    ));
                } else {
                    items.push((None, value(cx, a, b)));
                }
            }
            return Val::Array(items);
        }
    }
    // `( expr )`
    if first.is("(") && matching(t, start) == Some(end - 1) {
        return value(cx, start + 1, end - 1);
    }
    // `Foo::class`, `Foo::BAR`
    if n == 3 && first.kind == Kind::Ident && t[start + 1].is("::") {
        let name = &t[start + 2].text;
        return if name == "class" {
            Val::Class(first.text.clone())
        } else {
            Val::ClassConst(first.text.clone(), name.clone())
        };
    }
    // `new Name(args)` / `new Name`
    if first.is_ident("new") && t[start + 1].kind == Kind::Ident {
        let name = t[start + 1].text.clone();
        if n == 2 {
            return Val::New(name, Vec::new());
        }
        if t[start + 2].is("(") && matching(t, start + 2) == Some(end - 1) {
            let args = split(&t[start + 3..end - 1], ",")
                .into_iter()
                .map(|r| value(cx, start + 3 + r.start, start + 3 + r.end))
                .collect();
            return Val::New(name, args);
        }
    }
    // `name(args)`
    if first.kind == Kind::Ident
        && t.get(start + 1).is_some_and(|p| p.is("("))
        && matching(t, start + 1) == Some(end - 1)
    {
        let args = split(&t[start + 2..end - 1], ",")
            .into_iter()
            .map(|r| value(cx, start + 2 + r.start, start + 2 + r.end))
            .collect();
        return Val::Call(first.text.clone(), args);
    }
    // A chain used as a value (`Route::get(...)->name(...)` inside arrays).
    Val::Expr(
        t[start..end]
            .iter()
            .map(|x| x.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}
