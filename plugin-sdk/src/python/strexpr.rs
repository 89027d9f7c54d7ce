//! String expressions built from literals and names: `'/api' + '/v1'`,
//! `API + '/users'`, `f"{API}/items"`, `('/a' '/b')`, with line
//! continuations. Names stay symbolic ([`Piece::Ref`]) so they can be
//! recorded as a fact in `analyze` and resolved in `link`, possibly against
//! constants of another module (see [`super::Project::eval`]).

use crate::lex::is_ident_byte;
use crate::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// A part of a string expression.
///
/// ```
/// use portolan_plugin_sdk::python::{Piece, StrExpr};
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("API + '/users'", Syntax::PYTHON);
/// let expr = StrExpr::parse(&code, 0..code.text().len()).unwrap();
/// assert_eq!(expr.0, [Piece::Ref("API".into()), Piece::Lit("/users".into())]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    /// Literal text.
    #[serde(rename = "l")]
    Lit(String),
    /// The value of a (possibly dotted) name: `API`, `config.PREFIX`.
    #[serde(rename = "r")]
    Ref(String),
}

/// A string-valued expression: the concatenation of its pieces.
/// Serialisable (compactly: `[{"l":"/x"},{"r":"API"}]`), so it can travel
/// in a fact from `analyze` to `link`.
///
/// ```
/// use portolan_plugin_sdk::python::StrExpr;
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("f'{API}/items'", Syntax::PYTHON);
/// let expr = StrExpr::parse(&code, 0..code.text().len()).unwrap();
/// let value = expr.resolve(&mut |name| (name == "API").then(|| "/api".to_string()));
/// assert_eq!(value.as_deref(), Some("/api/items"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrExpr(pub Vec<Piece>);

/// How deep constant references may chain before giving up (import
/// cycles and self-references end there).
///
/// ```
/// assert!(portolan_plugin_sdk::python::MAX_DEPTH >= 8);
/// ```
pub const MAX_DEPTH: usize = 12;

impl StrExpr {
    /// A plain literal.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::StrExpr;
    /// assert_eq!(StrExpr::lit("/a").literal().as_deref(), Some("/a"));
    /// ```
    pub fn lit(s: impl Into<String>) -> Self {
        StrExpr(vec![Piece::Lit(s.into())])
    }

    /// Parse the expression in `range`; `None` when it is anything but
    /// literals, names, f-strings of names, `+` and parentheses.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::StrExpr;
    /// use portolan_plugin_sdk::{Code, Syntax};
    ///
    /// let code = Code::new("x = ('/a' + cfg.B)", Syntax::PYTHON);
    /// assert!(StrExpr::parse(&code, 4..code.text().len()).is_some());
    /// let code = Code::new("x = build('/a')", Syntax::PYTHON);
    /// assert!(StrExpr::parse(&code, 4..code.text().len()).is_none());
    /// ```
    pub fn parse(code: &Code<'_>, range: Range<usize>) -> Option<StrExpr> {
        let mut pieces = Vec::new();
        parse_sum(
            code,
            range.start,
            range.end.min(code.text().len()),
            &mut pieces,
            0,
        )?;
        Some(StrExpr(merge(pieces)))
    }

    /// The expression with the name `var` replaced by the literal `value`.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{Piece, StrExpr};
    /// let e = StrExpr(vec![Piece::Ref("V".into()), Piece::Lit("/x".into())]);
    /// assert_eq!(e.substitute("V", "/v2").literal().as_deref(), Some("/v2/x"));
    /// ```
    pub fn substitute(&self, var: &str, value: &str) -> StrExpr {
        StrExpr(merge(
            self.0
                .iter()
                .map(|p| match p {
                    Piece::Ref(v) if v == var => Piece::Lit(value.to_string()),
                    other => other.clone(),
                })
                .collect(),
        ))
    }

    /// The value when there are no names.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{Piece, StrExpr};
    /// assert_eq!(StrExpr(vec![Piece::Ref("A".into())]).literal(), None);
    /// ```
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Ref(_) => return None,
            }
        }
        Some(out)
    }

    /// The name when the expression is just a name (an alias).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{Piece, StrExpr};
    /// assert_eq!(StrExpr(vec![Piece::Ref("bp".into())]).as_name(), Some("bp"));
    /// ```
    pub fn as_name(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Piece::Ref(name)] => Some(name),
            _ => None,
        }
    }

    /// Resolve every name with `lookup`; `None` when one is unknown.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{Piece, StrExpr};
    /// let e = StrExpr(vec![Piece::Ref("A".into()), Piece::Lit("/x".into())]);
    /// assert_eq!(e.resolve(&mut |_| Some("/a".into())).as_deref(), Some("/a/x"));
    /// assert_eq!(e.resolve(&mut |_| None), None);
    /// ```
    pub fn resolve(&self, lookup: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Ref(name) => out.push_str(&lookup(name)?),
            }
        }
        Some(out)
    }
}

/// Join adjacent literals.
fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for p in pieces {
        if let (Some(Piece::Lit(prev)), Piece::Lit(s)) = (out.last_mut(), &p) {
            prev.push_str(s);
            continue;
        }
        out.push(p);
    }
    out
}

/// Skip whitespace and backslash line continuations.
fn skip(code: &Code<'_>, mut i: usize, end: usize) -> usize {
    let bytes = code.text().as_bytes();
    loop {
        i = code.skip_ws(i);
        if i < end && bytes[i] == b'\\' && matches!(bytes.get(i + 1), Some(b'\n') | Some(b'\r')) {
            i += 1;
            continue;
        }
        return i;
    }
}

fn parse_sum(
    code: &Code<'_>,
    start: usize,
    end: usize,
    out: &mut Vec<Piece>,
    depth: usize,
) -> Option<()> {
    if depth > 16 {
        return None;
    }
    let bytes = code.text().as_bytes();
    let mut i = skip(code, start, end);
    if i >= end {
        return None;
    }
    let mut prev_was_literal: bool;
    loop {
        // One operand.
        let b = *bytes.get(i)?;
        if b == b'(' && code.is_code(i) {
            let close = code.matching(i)?;
            if close >= end {
                return None;
            }
            parse_sum(code, i + 1, close, out, depth + 1)?;
            i = close + 1;
            prev_was_literal = false;
        } else if let Some(lit) = code.string_at(i).filter(|l| l.start == i) {
            if lit.end > end {
                return None;
            }
            if lit.interpolated {
                fstring_pieces(&lit.value, out)?;
            } else {
                out.push(Piece::Lit(lit.value));
            }
            i = lit.end;
            prev_was_literal = true;
        } else {
            let (name, range) = dotted_at(code, i)?;
            if range.end > end || matches!(name.as_str(), "None" | "True" | "False") {
                return None;
            }
            let next = code.skip_inline_ws(range.end);
            if next < end && matches!(bytes[next], b'(' | b'[') {
                return None;
            }
            out.push(Piece::Ref(name));
            i = range.end;
            prev_was_literal = false;
        }
        i = skip(code, i, end);
        if i >= end {
            return Some(());
        }
        if bytes[i] == b'+' && code.is_code(i) {
            i = skip(code, i + 1, end);
            if i >= end {
                return None;
            }
            continue;
        }
        // Implicit concatenation of adjacent literals: `'/a' '/b'`.
        if prev_was_literal && code.string_at(i).is_some_and(|l| l.start == i) {
            continue;
        }
        return None;
    }
}

/// Split an f-string's value (`{API}/items/{{x}}`) into pieces. Only plain
/// (dotted) names may be interpolated; `!r` / `:fmt` suffixes are ignored.
fn fstring_pieces(value: &str, out: &mut Vec<Piece>) -> Option<()> {
    let mut lit = String::new();
    let mut chars = value.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|(_, c)| *c) == Some('{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek().map(|(_, c)| *c) == Some('}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let rest = value.get(i + 1..)?;
                let close = rest.find('}')?;
                let inner = rest.get(..close)?;
                let name = inner.split(['!', ':']).next().unwrap_or("").trim();
                let valid = !name.is_empty()
                    && name.split('.').all(|seg| {
                        seg.chars()
                            .next()
                            .is_some_and(|c| c.is_alphabetic() || c == '_')
                            && seg.chars().all(|c| c.is_alphanumeric() || c == '_')
                    });
                if !valid {
                    return None;
                }
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(Piece::Ref(name.to_string()));
                // Skip the interpolation.
                while let Some((j, _)) = chars.peek() {
                    if *j > i + 1 + close {
                        break;
                    }
                    chars.next();
                }
            }
            _ => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Some(())
}

/// The dotted name (`a.b.c`) starting at `offset` after whitespace, with
/// its range. No spaces are allowed around the dots; `None` when no
/// identifier starts there (or it is inside a string or comment).
///
/// ```
/// use portolan_plugin_sdk::python::dotted_at;
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("x = config.API_PREFIX + '/x'", Syntax::PYTHON);
/// assert_eq!(dotted_at(&code, 3), Some(("config.API_PREFIX".to_string(), 4..21)));
/// ```
pub fn dotted_at(code: &Code<'_>, offset: usize) -> Option<(String, Range<usize>)> {
    let bytes = code.text().as_bytes();
    let start = code.skip_ws(offset);
    if !code.is_code(start) {
        return None;
    }
    let mut end = start;
    loop {
        let seg_start = end;
        while end < bytes.len() && is_ident_byte(bytes[end]) {
            end += 1;
        }
        if end == seg_start || bytes[seg_start].is_ascii_digit() {
            return None;
        }
        if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(|b| is_ident_byte(*b)) {
            end += 1;
            continue;
        }
        break;
    }
    Some((code.slice(start..end).to_string(), start..end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Syntax;

    fn parse(src: &str) -> Option<StrExpr> {
        let code = Code::new(src, Syntax::PYTHON);
        StrExpr::parse(&code, 0..src.len())
    }

    fn lit(s: &str) -> Piece {
        Piece::Lit(s.into())
    }

    fn name(s: &str) -> Piece {
        Piece::Ref(s.into())
    }

    #[test]
    fn literals_and_concatenation() {
        assert_eq!(parse("'/a'"), Some(StrExpr::lit("/a")));
        assert_eq!(parse("'/a' + \"/b\""), Some(StrExpr::lit("/a/b")));
        assert_eq!(parse("('/a'\n  '/b')"), Some(StrExpr::lit("/a/b")));
        assert_eq!(parse("'/a' \\\n    '/b'"), Some(StrExpr::lit("/a/b")));
        assert_eq!(
            parse("API + '/users'"),
            Some(StrExpr(vec![name("API"), lit("/users")]))
        );
        assert_eq!(
            parse("cfg.API+('/x' + Y)"),
            Some(StrExpr(vec![name("cfg.API"), lit("/x"), name("Y")]))
        );
    }

    #[test]
    fn fstrings() {
        assert_eq!(
            parse("f\"{API}/items\""),
            Some(StrExpr(vec![name("API"), lit("/items")]))
        );
        assert_eq!(
            parse("f'{a.B!s}/{{x}}/{C:>3}'"),
            Some(StrExpr(vec![name("a.B"), lit("/{x}/"), name("C")]))
        );
        assert_eq!(parse("f'/{x + 1}'"), None);
        assert_eq!(
            parse("rf'/{X}' '/tail'"),
            Some(StrExpr(vec![lit("/"), name("X"), lit("/tail")]))
        );
    }

    #[test]
    fn rejects_other_expressions() {
        for src in [
            "f()",
            "'/a'.format(x)",
            "'/a' % x",
            "X[0]",
            "None",
            "'/a' +",
            "",
            "1",
            "'a' b",
        ] {
            assert_eq!(parse(src), None, "{src}");
        }
    }

    #[test]
    fn resolution() {
        let e = parse("API + f'/v{N}/x'").unwrap();
        let got = e.resolve(&mut |n| match n {
            "API" => Some("/api".into()),
            "N" => Some("2".into()),
            _ => None,
        });
        assert_eq!(got.as_deref(), Some("/api/v2/x"));
        assert_eq!(e.resolve(&mut |_| None), None);
        assert_eq!(parse("x").unwrap().as_name(), Some("x"));
        assert_eq!(parse("'/a'").unwrap().literal().as_deref(), Some("/a"));
    }
}
