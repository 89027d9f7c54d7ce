//! DSL calls: `name arg, key: value do … end` read from a [`Stmt`].
//!
//! Argument values are read into [`Val`]: literals, symbols, arrays (also
//! `%w[]`/`%i[]`), hashes (`key: v`, `:key => v`, `'k' => v`, `Const => v`),
//! constant paths, string concatenation; anything else is kept as text.

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Token};
use super::tree::Stmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Val {
    /// A string literal; `true` if it interpolates `#{…}` (kept as written).
    Str(String, bool),
    Sym(String),
    Int(String),
    /// A constant path `A::B::C`.
    Const(String),
    Array(Vec<Val>),
    Hash(Vec<(Val, Val)>),
    /// `a + b + …` of strings and constants.
    Concat(Vec<Val>),
    /// Any other expression, as its source text (tokens joined).
    Expr(String),
}

impl Val {
    /// The text of a string or symbol literal.
    pub fn text(&self) -> Option<&str> {
        match self {
            Val::Str(s, _) | Val::Sym(s) => Some(s),
            _ => None,
        }
    }

    /// The words of an array of strings/symbols, or a single one.
    pub fn words(&self) -> Vec<String> {
        match self {
            Val::Array(items) => items
                .iter()
                .filter_map(|v| v.text().map(str::to_string))
                .collect(),
            v => v.text().map(|s| vec![s.to_string()]).unwrap_or_default(),
        }
    }

    pub fn is_true(&self) -> bool {
        matches!(self, Val::Expr(e) if e == "true")
    }

    /// Look up `key` in a hash.
    pub fn get(&self, key: &str) -> Option<&Val> {
        match self {
            Val::Hash(pairs) => pairs
                .iter()
                .find(|(k, _)| k.text() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// A call statement: receiver chain, method name, arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// Receiver text (`Rails.application.routes`), empty for a bare call.
    pub recv: String,
    pub name: String,
    /// Positional arguments; keyword/hash arguments are merged into one
    /// trailing [`Val::Hash`] as Ruby does.
    pub args: Vec<Val>,
}

impl Call {
    /// The keyword-argument hash (the trailing hash argument).
    pub fn opt(&self, key: &str) -> Option<&Val> {
        self.args.iter().rev().find_map(|a| a.get(key))
    }

    /// The first positional argument that is not the options hash.
    pub fn first(&self) -> Option<&Val> {
        self.args.first().filter(|a| !matches!(a, Val::Hash(_)))
    }

    /// The options hash, if any.
    pub fn hash(&self) -> Option<&Val> {
        self.args.iter().rev().find(|a| matches!(a, Val::Hash(_)))
    }
}

/// Read a statement as a call. `None` for statements that are not calls
/// (assignments, keyword statements, …).
pub fn call_of(stmt: &Stmt) -> Option<Call> {
    call_of_tokens(&stmt.toks)
}

pub fn call_of_tokens(toks: &[Token]) -> Option<Call> {
    let first = toks.first()?;
    if !matches!(first.kind, Kind::Ident | Kind::Const) {
        return None;
    }
    // Receiver chain: a.b.c / A::B.c / A::B::c
    let mut i = 0;
    let mut chain: Vec<String> = Vec::new();
    loop {
        let t = toks.get(i)?;
        if !matches!(t.kind, Kind::Ident | Kind::Const) {
            return None;
        }
        chain.push(t.text.clone());
        i += 1;
        // `.x` / `::x` continues the chain; a `(...)` call in the middle of
        // a chain (`Rails.application.routes.draw`) is kept as text.
        match toks.get(i) {
            // `mount ::Api::Root`: a spaced `::` glued to the next constant
            // starts a top-level constant argument, not a chain.
            Some(n)
                if n.is("::")
                    && n.space_before
                    && toks.get(i + 1).is_some_and(|t| !t.space_before) =>
            {
                break
            }
            Some(n) if (n.is(".") || n.is("&.") || n.is("::")) && toks.get(i + 1).is_some() => {
                chain.push(n.text.clone());
                i += 1;
            }
            Some(n) if n.is("(") && !n.space_before => {
                // Either the call's own argument list, or a call in the chain.
                let close = matching(toks, i)?;
                if toks.get(close + 1).is_some_and(|t| t.is(".") || t.is("&.")) {
                    chain.push("(…)".into());
                    chain.push(".".into());
                    i = close + 2;
                    continue;
                }
                break;
            }
            _ => break,
        }
    }
    let name = chain.pop()?;
    if chain
        .last()
        .is_some_and(|s| s == "." || s == "&." || s == "::")
    {
        chain.pop();
    }
    let recv = chain.concat();
    let rest = &toks[i..];
    // Assignments and operators are not DSL calls.
    if let Some(t) = rest.first() {
        if t.kind == Kind::Punct
            && !t.is("(")
            && !t.is("[")
            && !t.is("->")
            && !t.is(":")
            && !t.is("::")
            && !(t.is("*") || t.is("&"))
        // splat / block-pass args
        {
            return None;
        }
        if t.is("[") && !t.space_before {
            return None; // indexing: `params[:x]`
        }
    }
    let args = if rest.first().is_some_and(|t| t.is("(") && !t.space_before) {
        let close = matching(rest, 0).unwrap_or(rest.len());
        read_args(&rest[1..close.min(rest.len())])
    } else {
        read_args(rest)
    };
    Some(Call { recv, name, args })
}

/// Index of the closer matching the opener at `open`.
pub fn matching(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Split at top-level commas and read each piece; hash pairs are merged
/// into one trailing hash.
pub fn read_args(toks: &[Token]) -> Vec<Val> {
    let mut args = Vec::new();
    let mut pairs: Vec<(Val, Val)> = Vec::new();
    for piece in split_commas(toks) {
        match read_pair(piece) {
            Some((k, v)) => pairs.push((k, v)),
            None => {
                let v = read_value(piece);
                if let Val::Hash(inner) = &v {
                    if piece.first().is_some_and(|t| t.is("{")) && pairs.is_empty() {
                        args.push(Val::Hash(inner.clone()));
                        continue;
                    }
                }
                args.push(v);
            }
        }
    }
    if !pairs.is_empty() {
        args.push(Val::Hash(pairs));
    }
    args
}

fn split_commas(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, t) in toks.iter().enumerate() {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                if k > start {
                    out.push(&toks[start..k]);
                }
                start = k + 1;
            }
            _ => {}
        }
    }
    if toks.len() > start {
        out.push(&toks[start..]);
    }
    out
}

/// `key: v`, `:key => v`, `'k' => v`, `Const => v`.
fn read_pair(piece: &[Token]) -> Option<(Val, Val)> {
    let first = piece.first()?;
    if first.kind == Kind::Label {
        return Some((Val::Sym(first.text.clone()), read_value(&piece[1..])));
    }
    let mut depth = 0i32;
    for (k, t) in piece.iter().enumerate() {
        if t.kind == Kind::Punct {
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "=>" if depth == 0 => {
                    return Some((read_value(&piece[..k]), read_value(&piece[k + 1..])));
                }
                _ => {}
            }
        }
    }
    None
}

/// Read one expression.
pub fn read_value(toks: &[Token]) -> Val {
    let parts = split_plus(toks);
    if parts.len() > 1 {
        return Val::Concat(parts.into_iter().map(read_single).collect());
    }
    read_single(toks)
}

fn split_plus(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, t) in toks.iter().enumerate() {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "+" if depth == 0 && k > start => {
                out.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start.min(toks.len())..]);
    out
}

fn read_single(toks: &[Token]) -> Val {
    let Some(first) = toks.first() else {
        return Val::Expr(String::new());
    };
    if toks.len() == 1 {
        match &first.kind {
            Kind::Str => return Val::Str(first.text.clone(), first.interpolated),
            Kind::Sym => return Val::Sym(first.text.clone()),
            Kind::Int => return Val::Int(first.text.clone()),
            Kind::Const => return Val::Const(first.text.clone()),
            Kind::Words(w) => {
                let sym = first.text.starts_with("%i") || first.text.starts_with("%I");
                return Val::Array(
                    w.iter()
                        .map(|s| {
                            if sym {
                                Val::Sym(s.clone())
                            } else {
                                Val::Str(s.clone(), false)
                            }
                        })
                        .collect(),
                );
            }
            _ => {}
        }
    }
    // `( expr )`
    if first.is("(") && matching(toks, 0) == Some(toks.len() - 1) {
        return read_value(&toks[1..toks.len() - 1]);
    }
    if first.is("[") && matching(toks, 0) == Some(toks.len() - 1) {
        let inner = &toks[1..toks.len() - 1];
        return Val::Array(split_commas(inner).into_iter().map(read_value).collect());
    }
    if first.is("{") && matching(toks, 0) == Some(toks.len() - 1) {
        let inner = &toks[1..toks.len() - 1];
        let mut pairs = Vec::new();
        for piece in split_commas(inner) {
            if let Some(p) = read_pair(piece) {
                pairs.push(p);
            }
        }
        return Val::Hash(pairs);
    }
    // Constant path `A::B::C` (a top-level `::A::B` is read as `A::B`).
    let toks = match toks.split_first() {
        Some((head, rest)) if head.is("::") && !rest.is_empty() => rest,
        _ => toks,
    };
    if toks.iter().enumerate().all(|(k, t)| {
        if k % 2 == 0 {
            t.kind == Kind::Const
        } else {
            t.is("::")
        }
    }) && toks.len() % 2 == 1
    {
        return Val::Const(toks.iter().map(|t| t.text.as_str()).collect());
    }
    Val::Expr(join_tokens(toks))
}

/// Tokens joined back into compact source-like text.
pub fn join_tokens(toks: &[Token]) -> String {
    let mut s = String::new();
    for (k, t) in toks.iter().enumerate() {
        if k > 0 && t.space_before {
            s.push(' ');
        }
        match t.kind {
            Kind::Sym => {
                s.push(':');
                s.push_str(&t.text);
            }
            Kind::Label => {
                s.push_str(&t.text);
                s.push(':');
            }
            Kind::Str => {
                s.push('\'');
                s.push_str(&t.text);
                s.push('\'');
            }
            _ => s.push_str(&t.text),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubyish::{
        tokens::tokenize,
        tree::{parse, Rules},
    };
    use crate::{lex::Code, Syntax};

    fn first_call(src: &str) -> Call {
        let code = Code::new(src, Syntax::RUBY);
        let stmts = parse(&tokenize(&code), &Rules::RUBY);
        call_of(&stmts[0]).expect("a call")
    }

    #[test]
    fn reads_dsl_calls() {
        let c = first_call("resources :photos, only: [:index, :show], path: 'images' do\nend\n");
        assert_eq!(c.name, "resources");
        assert_eq!(c.first(), Some(&Val::Sym("photos".into())));
        assert_eq!(
            c.opt("only").map(Val::words),
            Some(vec!["index".into(), "show".into()])
        );
        assert_eq!(c.opt("path"), Some(&Val::Str("images".into(), false)));

        let c = first_call("mount Blorgh::Engine => '/blog', as: 'blog'\n");
        assert_eq!(c.name, "mount");
        assert_eq!(
            c.hash(),
            Some(&Val::Hash(vec![
                (
                    Val::Const("Blorgh::Engine".into()),
                    Val::Str("/blog".into(), false)
                ),
                (Val::Sym("as".into()), Val::Str("blog".into(), false)),
            ]))
        );

        // A top-level constant argument is not a `::` chain.
        let c = first_call("mount ::Shop::Api => '/api'\n");
        assert_eq!((c.recv.as_str(), c.name.as_str()), ("", "mount"));
        assert_eq!(
            c.hash(),
            Some(&Val::Hash(vec![(
                Val::Const("Shop::Api".into()),
                Val::Str("/api".into(), false)
            )]))
        );
        let c = first_call("mount ::Shop::Api\n");
        assert_eq!(c.first(), Some(&Val::Const("Shop::Api".into())));
        let c = first_call("Shop::Api.call(env)\n");
        assert_eq!((c.recv.as_str(), c.name.as_str()), ("Shop::Api", "call"));

        let c = first_call("Rails.application.routes.draw do\nend\n");
        assert_eq!(
            (c.recv.as_str(), c.name.as_str()),
            ("Rails.application.routes", "draw")
        );

        let c = first_call("get(API + '/x', to: 'a#b', via: %i[get post])\n");
        assert_eq!(
            c.first(),
            Some(&Val::Concat(vec![
                Val::Const("API".into()),
                Val::Str("/x".into(), false)
            ]))
        );
        assert_eq!(
            c.opt("via").map(Val::words),
            Some(vec!["get".into(), "post".into()])
        );
    }

    #[test]
    fn assignments_and_indexing_are_not_calls() {
        let code = Code::new("x = 1\nparams[:a]\n", Syntax::RUBY);
        let stmts = parse(&tokenize(&code), &Rules::RUBY);
        assert!(stmts.iter().all(|s| call_of(s).is_none()));
    }
}
