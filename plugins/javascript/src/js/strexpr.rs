//! String expressions: `'/api' + '/v1'`, `API + '/users'`,
//! `` `${BASE}/items/:id` ``, `ROUTES.USERS`, `this.path`. Names stay
//! symbolic ([`Piece::Ref`]) so they can be resolved in `link`, possibly
//! against constants of another module.

use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use super::syntax::{dotted_at, trim_expr};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    #[serde(rename = "l")]
    Lit(String),
    /// A (possibly dotted, possibly scoped) name.
    #[serde(rename = "r")]
    Ref(String),
}

/// The concatenation of its pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrExpr(pub Vec<Piece>);

impl StrExpr {
    pub fn lit(s: impl Into<String>) -> Self {
        StrExpr(vec![Piece::Lit(s.into())])
    }

    /// Parse literals, templates interpolating names, names and `+`;
    /// `None` for anything else (calls, regexes, numbers, …).
    pub fn parse(code: &Code<'_>, range: Range<usize>) -> Option<StrExpr> {
        let range = trim_expr(code, range);
        let mut pieces = Vec::new();
        parse_sum(code, range.start, range.end, &mut pieces, 0)?;
        Some(StrExpr(merge(pieces)))
    }

    /// Like [`StrExpr::parse`] but only when at least one piece is a string
    /// literal (a bare name is not known to be a string).
    pub fn parse_literalish(code: &Code<'_>, range: Range<usize>) -> Option<StrExpr> {
        Self::parse(code, range).filter(|e| e.0.iter().any(|p| matches!(p, Piece::Lit(_))))
    }

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

    pub fn as_name(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Piece::Ref(n)] => Some(n),
            _ => None,
        }
    }

    /// Rewrite every name (e.g. to scope it).
    pub fn map_refs(mut self, f: &mut dyn FnMut(&str) -> String) -> Self {
        for p in &mut self.0 {
            if let Piece::Ref(n) = p {
                *n = f(n);
            }
        }
        self
    }

    /// Resolve every name; `None` when one is unknown.
    pub fn resolve(&self, lookup: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Ref(n) => out.push_str(&lookup(n)?),
            }
        }
        Some(out)
    }
}

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
    let mut i = code.skip_ws(start);
    if i >= end {
        return None;
    }
    loop {
        let b = *bytes.get(i)?;
        if b == b'(' && code.is_code(i) {
            let close = code.matching(i)?;
            if close >= end {
                return None;
            }
            parse_sum(code, i + 1, close, out, depth + 1)?;
            i = close + 1;
        } else if let Some(lit) = code.string_at(i).filter(|l| l.start == i) {
            if lit.end > end {
                return None;
            }
            if lit.interpolated {
                template_pieces(&lit.value, out)?;
            } else {
                out.push(Piece::Lit(lit.value));
            }
            i = lit.end;
        } else {
            let (name, range) = dotted_at(code, i)?;
            if range.end > end
                || matches!(
                    name.as_str(),
                    "null" | "undefined" | "true" | "false" | "new" | "function" | "async"
                )
            {
                return None;
            }
            let next = code.skip_ws(range.end);
            if next < end && matches!(bytes[next], b'(' | b'[' | b'`') {
                return None;
            }
            out.push(Piece::Ref(name));
            i = range.end;
        }
        i = code.skip_ws(i);
        if i >= end {
            return Some(());
        }
        if bytes[i] == b'+' && code.is_code(i) && bytes.get(i + 1) != Some(&b'+') {
            i = code.skip_ws(i + 1);
            if i >= end {
                return None;
            }
            continue;
        }
        return None;
    }
}

/// Split a template's value (`${BASE}/items`) into pieces. Only (dotted)
/// names may be interpolated.
fn template_pieces(value: &str, out: &mut Vec<Piece>) -> Option<()> {
    let mut rest = value;
    while let Some(pos) = rest.find("${") {
        if pos > 0 {
            out.push(Piece::Lit(rest[..pos].to_string()));
        }
        let after = &rest[pos + 2..];
        let close = after.find('}')?;
        let name = after[..close].trim();
        let valid = !name.is_empty()
            && name.split('.').all(|seg| {
                seg.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                    && seg
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
        if !valid {
            return None;
        }
        out.push(Piece::Ref(name.to_string()));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Lit(rest.to_string()));
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn parse(src: &str) -> Option<StrExpr> {
        let code = Code::new(src, Syntax::JAVASCRIPT);
        StrExpr::parse(&code, 0..src.len())
    }

    #[test]
    fn expressions() {
        assert_eq!(parse("'/a' + \"/b\""), Some(StrExpr::lit("/a/b")));
        assert_eq!(
            parse("`${this.path}/:id`"),
            Some(StrExpr(vec![
                Piece::Ref("this.path".into()),
                Piece::Lit("/:id".into())
            ]))
        );
        assert_eq!(
            parse("API_PREFIX + ROUTES.users"),
            Some(StrExpr(vec![
                Piece::Ref("API_PREFIX".into()),
                Piece::Ref("ROUTES.users".into())
            ]))
        );
        assert_eq!(parse("`/a/${id + 1}`"), None);
        assert_eq!(parse("f('/a')"), None);
        assert_eq!(parse("/a/"), None);
        assert_eq!(parse("i++"), None);
        assert_eq!(parse("'/x' as const"), Some(StrExpr::lit("/x")));
        let e = parse("BASE + `/v${V}`").unwrap();
        let got = e.resolve(&mut |n| match n {
            "BASE" => Some("/api".into()),
            "V" => Some("2".into()),
            _ => None,
        });
        assert_eq!(got.as_deref(), Some("/api/v2"));
    }
}
