//! String expressions as written in route templates: literals, constants
//! (`Routes.Base`), `nameof(X)`, interpolated strings and `+`
//! concatenation. Recorded in the map step, evaluated in the link step
//! once every file's constants are known.

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    Lit(String),
    /// A (possibly dotted) name: a constant.
    Name(String),
    /// An interpolated string's raw value (`{x}` holes resolved later).
    Interp(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expr(pub Vec<Piece>);

impl Expr {
    pub fn lit(s: impl Into<String>) -> Self {
        Expr(vec![Piece::Lit(s.into())])
    }

    /// Parse `toks` (one argument) as `piece (+ piece)*`.
    pub fn parse(toks: &[Token]) -> Option<Expr> {
        let mut pieces = Vec::new();
        let mut i = 0;
        let mut want_piece = true;
        while i < toks.len() {
            let t = &toks[i];
            if !want_piece {
                if t.is('+') {
                    want_piece = true;
                    i += 1;
                    continue;
                }
                return None;
            }
            match t.kind {
                Kind::Str if t.interp => pieces.push(Piece::Interp(t.text.clone())),
                Kind::Str => pieces.push(Piece::Lit(t.text.clone())),
                // A number in a template (`version = 1`).
                Kind::Num => pieces.push(Piece::Lit(t.text.clone())),
                Kind::Ident if t.text == "nameof" && toks.get(i + 1).is_some_and(|x| x.is('(')) => {
                    let mut k = i + 2;
                    let mut last = String::new();
                    while k < toks.len() && !toks[k].is(')') {
                        if toks[k].kind == Kind::Ident {
                            last = toks[k].text.clone();
                        }
                        k += 1;
                    }
                    pieces.push(Piece::Lit(last));
                    i = k;
                }
                Kind::Ident => {
                    let mut name = t.text.clone();
                    while i + 2 < toks.len()
                        && toks[i + 1].is('.')
                        && toks[i + 2].kind == Kind::Ident
                    {
                        name.push('.');
                        name.push_str(&toks[i + 2].text);
                        i += 2;
                    }
                    if name == "string.Empty" || name == "String.Empty" {
                        pieces.push(Piece::Lit(String::new()));
                    } else {
                        pieces.push(Piece::Name(name));
                    }
                }
                _ => return None,
            }
            want_piece = false;
            i += 1;
        }
        (!pieces.is_empty() && !want_piece).then_some(Expr(pieces))
    }

    /// The value when the expression is made of literals only.
    pub fn literal(&self) -> Option<String> {
        self.eval(&mut |_| None)
    }

    /// Evaluate with `lookup` resolving names (constants, or the
    /// parameters of a custom attribute's constructor). An interpolation
    /// hole that does not resolve is kept as written (`{id}` is then a
    /// route placeholder).
    pub fn eval(&self, lookup: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Name(n) => out.push_str(&lookup(n)?),
                Piece::Interp(s) => out.push_str(&interpolate(s, lookup)),
            }
        }
        Some(out)
    }

    /// A bare name (`id`, `template`).
    pub fn as_name(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Piece::Name(n)] => Some(n),
            _ => None,
        }
    }
}

fn interpolate(s: &str, lookup: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        if after.starts_with("{{") || after.starts_with("}}") {
            out.push_str(&after[..1]);
            rest = &after[2..];
            continue;
        }
        if let Some(tail) = after.strip_prefix('}') {
            out.push('}');
            rest = tail;
            continue;
        }
        let Some(close) = after.find('}') else {
            out.push_str(after);
            return out;
        };
        let hole = after[1..close].trim();
        // `{resource ?? "items"}`: the first alternative that is known.
        let value = hole.split("??").find_map(|alt| {
            let alt = alt.trim();
            if let Some(s) = alt.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
                return Some(s.to_string());
            }
            let name = alt.split([':', ',']).next().unwrap_or(alt).trim();
            lookup(name)
        });
        match value {
            Some(v) => out.push_str(&v),
            None => {
                out.push('{');
                out.push_str(hole);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::tokens::tokenize;
    use portolan_plugin_sdk::{Code, Syntax};

    fn parse(src: &str) -> Option<Expr> {
        let code = Code::new(src, Syntax::CSHARP);
        Expr::parse(&tokenize(&code))
    }

    #[test]
    fn concatenation_constants_and_interpolation() {
        let e = parse("Routes.Base + \"/users/\" + nameof(Users.Id) + $\"/{Sub}/{{x}}/{id:int}\"")
            .unwrap();
        let v = e.eval(&mut |n| match n {
            "Routes.Base" => Some("api".into()),
            "Sub" => Some("s".into()),
            _ => None,
        });
        assert_eq!(v.as_deref(), Some("api/users/Id/s/{x}/{id:int}"));
        assert_eq!(parse("\"a\" +").map(|e| e.0.len()), None);
        assert_eq!(parse("x(1)"), None);
        assert_eq!(parse("Missing").unwrap().literal(), None);
    }
}
