//! Static helpers that build a router prefix value from the annotation of
//! the class they are given:
//!
//! ```java
//! GroupVersion groupVersion() { return ApiVersions.of(new Article()); }  // or Article.class
//!
//! static GroupVersion of(Resource resource) {
//!     var kind = resource.kind();                      // read from @Kind on the class
//!     String group = StringUtils.defaultIfBlank(kind.group(), "core.example.com");
//!     return new GroupVersion("api." + group, kind.version());
//! }
//! ```
//!
//! The helper's body is a few local assignments and `return new T(…)`; an
//! accessor `x.attr()` on its parameter (or on a value derived from it)
//! reads the attribute `attr` of the annotation on the class passed in,
//! resolved from source in the link step.

use serde::{Deserialize, Serialize};

use crate::jvm::expr::{Part, StrExpr};
use crate::jvm::index::{Index, TypeId};
use crate::jvm::tokens::{close_of, split_commas, Kind, Token};

/// Longest helper body followed (statements).
const MAX_STATEMENTS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Term {
    Lit(String),
    /// A constant (`Api.GROUP`).
    Ref(String),
    /// An attribute of the annotation on the class passed in.
    Attr(String),
    /// `defaultIfBlank(value, fallback)`.
    Default(Vec<Term>, Vec<Term>),
}

/// A helper method: its class (simple name), name, and the string
/// expressions of the `new T(…)` it returns (locals inlined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Builder {
    pub class: String,
    pub method: String,
    pub args: Vec<Vec<Term>>,
}

/// `Helper.method(new X())` / `Helper.method(X.class)` in `r`: the helper
/// class, method and the class referenced.
pub fn class_ref_call(t: &[Token], r: std::ops::Range<usize>) -> Option<(String, String, String)> {
    let s = r.start;
    let helper = t.get(s).filter(|x| x.kind == Kind::Ident)?;
    let method = t.get(s + 2).filter(|x| x.kind == Kind::Ident)?;
    if !(t.get(s + 1)?.is('.') && t.get(s + 3)?.is('(')) {
        return None;
    }
    let close = close_of(t, s + 3)?;
    if close + 1 != r.end {
        return None;
    }
    let a = s + 4;
    let arg = if t.get(a)?.is_ident("new") {
        // `new X()`
        (t.get(a + 2)?.is('(') && t.get(a + 3)?.is(')') && a + 4 == close).then_some(())?;
        t.get(a + 1)?
    } else {
        // `X.class`
        (t.get(a + 1)?.is('.') && t.get(a + 2)?.is_ident("class") && a + 3 == close)
            .then_some(())?;
        t.get(a)?
    };
    if arg.kind != Kind::Ident || !arg.text.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    Some((helper.text.clone(), method.text.clone(), arg.text.clone()))
}

/// The helper builders declared in a file (`class` is its top-level type).
pub fn builders(t: &[Token], class: &str) -> Vec<Builder> {
    let mut out = Vec::new();
    for i in 0..t.len() {
        if !t[i].is_ident("static") {
            continue;
        }
        // `static Ret name(final? Type param) {`
        let (Some(ret), Some(name)) = (t.get(i + 1), t.get(i + 2)) else {
            continue;
        };
        if ret.kind != Kind::Ident
            || name.kind != Kind::Ident
            || !t.get(i + 3).is_some_and(|x| x.is('('))
        {
            continue;
        }
        // One parameter (`Resource r`, `final Class<? extends Resource> type`):
        // its name is the word before the `)`.
        let Some(pclose) = close_of(t, i + 3) else {
            continue;
        };
        let pname = &t[pclose - 1];
        if pname.kind != Kind::Ident
            || pclose < i + 6
            || (i + 4..pclose).any(|k| t[k].is(','))
            || !t.get(pclose + 1).is_some_and(|x| x.is('{'))
        {
            continue;
        }
        let Some(close) = close_of(t, pclose + 1) else {
            continue;
        };
        if let Some(args) = body(t, pclose + 2, close, &pname.text, &ret.text) {
            out.push(Builder {
                class: class.to_string(),
                method: name.text.clone(),
                args,
            });
        }
    }
    out
}

/// Statements of a body `[s, e)`, split at `;` outside brackets.
fn statements(t: &[Token], s: usize, e: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = s;
    for (k, x) in t.iter().enumerate().take(e).skip(s) {
        if x.is('(') || x.is('[') || x.is('{') {
            depth += 1;
        } else if x.is(')') || x.is(']') || x.is('}') {
            depth -= 1;
        } else if x.is(';') && depth == 0 {
            out.push(start..k);
            start = k + 1;
        }
    }
    if start < e {
        out.push(start..e);
    }
    out
}

fn body(t: &[Token], s: usize, e: usize, param: &str, ret: &str) -> Option<Vec<Vec<Term>>> {
    let stmts = statements(t, s, e);
    if stmts.is_empty() || stmts.len() > MAX_STATEMENTS {
        return None;
    }
    let mut locals: Vec<(String, Vec<Term>)> = Vec::new();
    for st in stmts {
        let first = t.get(st.start)?;
        if first.is_ident("return") {
            // `return new Ret(args)`
            let k = st.start + 1;
            if !(t.get(k)?.is_ident("new") && t.get(k + 1)?.is_ident(ret) && t.get(k + 2)?.is('('))
            {
                return None;
            }
            let close = close_of(t, k + 2)?;
            if close + 1 != st.end {
                return None;
            }
            return split_commas(t, k + 3, close)
                .into_iter()
                .map(|a| terms(t, a, param, &locals))
                .collect();
        }
        // `[final] Type name = expr`
        let eq = (st.start..st.end).find(|&k| t[k].is('='))?;
        let name = t.get(eq.checked_sub(1)?)?;
        if name.kind != Kind::Ident || eq < st.start + 2 {
            return None;
        }
        let value = terms(t, eq + 1..st.end, param, &locals)?;
        locals.push((name.text.clone(), value));
    }
    None
}

/// `true` when `name` is the parameter or a value derived from it.
fn is_source(name: &str, param: &str, locals: &[(String, Vec<Term>)]) -> bool {
    name == param
        || locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .is_some_and(|(_, v)| matches!(v.as_slice(), [Term::Attr(_)]))
}

/// A string expression of the helper body.
fn terms(
    t: &[Token],
    r: std::ops::Range<usize>,
    param: &str,
    locals: &[(String, Vec<Term>)],
) -> Option<Vec<Term>> {
    let mut out = Vec::new();
    // Operands between `+` outside brackets.
    let mut depth = 0i32;
    let mut start = r.start;
    let mut ops = Vec::new();
    for k in r.clone() {
        let x = t.get(k)?;
        if x.is('(') {
            depth += 1;
        } else if x.is(')') {
            depth -= 1;
        } else if x.is('+') && depth == 0 {
            ops.push(start..k);
            start = k + 1;
        }
    }
    ops.push(start..r.end);
    for op in ops {
        let toks = t.get(op.clone())?;
        match toks {
            [] => return None,
            [x] if x.kind == Kind::Str => out.push(Term::Lit(x.text.clone())),
            [x] if x.kind == Kind::Ident => {
                if let Some((_, v)) = locals.iter().rev().find(|(n, _)| *n == x.text) {
                    out.extend(v.iter().cloned());
                } else if x.text == param {
                    return None;
                } else {
                    out.push(Term::Ref(x.text.clone()));
                }
            }
            _ if toks.last()?.is(')') => {
                // `recv.name(args)` / `Util.name(args)`
                let open = (op.start..op.end)
                    .rev()
                    .find(|&o| close_of(t, o) == Some(op.end - 1))?;
                let name = t.get(open.checked_sub(1)?)?;
                let args = split_commas(t, open + 1, op.end - 1);
                let recv = t.get(op.start)?;
                // An accessor on the parameter or a value derived from it
                // (`kind.group()`, `type.getAnnotation(Kind.class)`).
                if open >= op.start + 2 && is_source(&recv.text, param, locals) {
                    out.push(Term::Attr(name.text.clone()));
                } else if matches!(
                    name.text.as_str(),
                    "defaultIfBlank" | "defaultIfEmpty" | "requireNonNullElse"
                ) && args.len() == 2
                {
                    let a = terms(t, args[0].clone(), param, locals)?;
                    let b = terms(t, args[1].clone(), param, locals)?;
                    out.push(Term::Default(a, b));
                } else {
                    return None;
                }
            }
            _ => {
                // `Api.GROUP`
                let dotted = toks.iter().enumerate().all(|(k, x)| {
                    if k % 2 == 0 {
                        x.kind == Kind::Ident
                    } else {
                        x.is('.')
                    }
                });
                if !dotted || toks.len() % 2 == 0 {
                    return None;
                }
                let name: String = toks.iter().map(|x| x.text.as_str()).collect();
                out.push(Term::Ref(name));
            }
        }
    }
    Some(out)
}

/// Evaluate a builder's arguments for class `arg` (its annotations give
/// the attributes); `f` is the helper's file (for its constants).
pub fn eval(idx: &Index, b: &Builder, helper: TypeId, arg: TypeId) -> Option<Vec<String>> {
    b.args
        .iter()
        .map(|a| eval_terms(idx, a, helper, arg))
        .collect()
}

fn eval_terms(idx: &Index, terms: &[Term], helper: TypeId, arg: TypeId) -> Option<String> {
    let mut out = String::new();
    for term in terms {
        match term {
            Term::Lit(s) => out.push_str(s),
            Term::Ref(n) => {
                out.push_str(&idx.eval(
                    helper.0,
                    Some(helper),
                    &StrExpr {
                        parts: vec![Part::Ref(n.clone())],
                    },
                )?);
            }
            Term::Attr(a) => {
                let decl = idx.ty(arg);
                let item = decl
                    .annotations
                    .iter()
                    .find_map(|x| {
                        x.args
                            .iter()
                            .find(|y| y.name.as_deref() == Some(a.as_str()))
                    })
                    .and_then(|y| y.items.first())?;
                out.push_str(&idx.eval(arg.0, Some(arg), item)?);
            }
            Term::Default(v, d) => {
                let v = eval_terms(idx, v, helper, arg)?;
                if v.trim().is_empty() {
                    out.push_str(&eval_terms(idx, d, helper, arg)?);
                } else {
                    out.push_str(&v);
                }
            }
        }
    }
    Some(out)
}
