//! Go string expressions: literals (interpreted and raw), names
//! (`apiPrefix`, `config.BasePath`), `+` concatenation, parentheses,
//! `string(x)` conversions, `fmt.Sprintf("%s/users", base)` and
//! `path.Join(a, b)`. Names stay symbolic ([`Piece::Ref`]) so they can be
//! resolved in the link step against constants of any package. The
//! expression is the SDK's [`StrExpr`]; this module holds Go's grammar.

use std::ops::Range;

use portolan_plugin_sdk::Code;

use super::syntax::{bytes, ident_here, skip_ws, trim};

pub use portolan_plugin_sdk::strexpr::{Piece, StrExpr};

/// Parse the expression in `range`; `None` unless it is made only of the
/// forms listed in the module documentation.
pub fn parse(code: &Code<'_>, range: Range<usize>) -> Option<StrExpr> {
    let r = trim(code, range);
    if r.is_empty() {
        return None;
    }
    let mut pieces = Vec::new();
    parse_sum(code, r, &mut pieces, 0)?;
    Some(StrExpr {
        parts: merge(pieces),
    })
}

/// An expression of a single name.
pub fn name(n: impl Into<String>) -> StrExpr {
    StrExpr {
        parts: vec![Piece::Ref(n.into())],
    }
}

/// Whether the expression is only empty text (an absent prefix).
pub fn is_empty(e: &StrExpr) -> bool {
    e.parts
        .iter()
        .all(|p| matches!(p, Piece::Lit(s) if s.is_empty()))
}

/// Go's operations on the SDK's string expressions.
pub trait GoStr {
    /// This expression followed by another.
    fn concat(&self, other: &StrExpr) -> StrExpr;
    /// Replace names for which `subst` returns an expression (local
    /// variables known at scan time).
    fn substitute(&self, subst: &mut dyn FnMut(&str) -> Option<StrExpr>) -> StrExpr;
}

impl GoStr for StrExpr {
    fn concat(&self, other: &StrExpr) -> StrExpr {
        let mut pieces = self.parts.clone();
        pieces.extend(other.parts.iter().cloned());
        StrExpr {
            parts: merge(pieces),
        }
    }

    fn substitute(&self, subst: &mut dyn FnMut(&str) -> Option<StrExpr>) -> StrExpr {
        let mut out = Vec::new();
        for p in &self.parts {
            match p {
                Piece::Ref(name) => match subst(name) {
                    Some(e) => out.extend(e.parts),
                    None => out.push(p.clone()),
                },
                _ => out.push(p.clone()),
            }
        }
        StrExpr { parts: merge(out) }
    }
}

fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for p in pieces {
        if matches!(&p, Piece::Lit(s) if s.is_empty()) {
            continue;
        }
        if let (Some(Piece::Lit(prev)), Piece::Lit(s)) = (out.last_mut(), &p) {
            prev.push_str(s);
            continue;
        }
        out.push(p);
    }
    out
}

fn parse_sum(code: &Code<'_>, r: Range<usize>, out: &mut Vec<Piece>, depth: usize) -> Option<()> {
    if depth > 12 {
        return None;
    }
    let terms = code.split_top_level(r.start, r.end, b'+');
    if terms.is_empty() {
        return None;
    }
    for t in terms {
        parse_term(code, t, out, depth + 1)?;
    }
    Some(())
}

fn parse_term(code: &Code<'_>, r: Range<usize>, out: &mut Vec<Piece>, depth: usize) -> Option<()> {
    let r = trim(code, r);
    let b = bytes(code);
    let first = *b.get(r.start)?;
    if !code.is_code(r.start) {
        let lit = code.string_at(r.start)?;
        if lit.end != r.end || lit.start != r.start {
            return None;
        }
        // A rune literal is not a string.
        if code.source().as_bytes().get(r.start) == Some(&b'\'') {
            return None;
        }
        out.push(Piece::Lit(lit.value));
        return Some(());
    }
    if first == b'(' {
        let close = code.matching(r.start)?;
        if close + 1 != r.end {
            return None;
        }
        return parse_sum(code, r.start + 1..close, out, depth);
    }
    // A selector chain, optionally called.
    let (name, mut i) = ident_here(code, r.start)?;
    let mut dotted = name.to_string();
    while b.get(i) == Some(&b'.') {
        let (next, e) = ident_here(code, i + 1)?;
        dotted.push('.');
        dotted.push_str(next);
        i = e;
    }
    if i == r.end {
        if dotted == "nil" || dotted == "true" || dotted == "false" {
            return None;
        }
        out.push(Piece::Ref(dotted));
        return Some(());
    }
    let open = skip_ws(code, i);
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let close = code.matching(open)?;
    if close + 1 != r.end {
        return None;
    }
    let args = code.args(open);
    match dotted.as_str() {
        "string" => {
            let [a] = args.as_slice() else { return None };
            parse_sum(code, a.clone(), out, depth)
        }
        "fmt.Sprintf" => {
            let (fmt, rest) = args.split_first()?;
            let fmt = code.string_at(fmt.start)?.value;
            sprintf(code, &fmt, rest, out, depth)
        }
        "path.Join" | "filepath.Join" => {
            for (n, a) in args.iter().enumerate() {
                if n > 0 {
                    out.push(Piece::Lit("/".into()));
                }
                parse_sum(code, a.clone(), out, depth)?;
            }
            Some(())
        }
        _ => None,
    }
}

fn sprintf(
    code: &Code<'_>,
    fmt: &str,
    args: &[Range<usize>],
    out: &mut Vec<Piece>,
    depth: usize,
) -> Option<()> {
    let mut args = args.iter();
    let mut chars = fmt.chars().peekable();
    let mut lit = String::new();
    while let Some(c) = chars.next() {
        if c != '%' {
            lit.push(c);
            continue;
        }
        // Flags, width and precision, then the verb.
        let mut verb = None;
        for d in chars.by_ref() {
            if d.is_ascii_alphabetic() || d == '%' {
                verb = Some(d);
                break;
            }
        }
        match verb? {
            '%' => lit.push('%'),
            _ => {
                out.push(Piece::Lit(std::mem::take(&mut lit)));
                let a = args.next()?;
                parse_sum(code, a.clone(), out, depth)?;
            }
        }
    }
    out.push(Piece::Lit(lit));
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn parse(src: &str) -> Option<StrExpr> {
        let code = Code::new(src, Syntax::GO);
        super::parse(&code, 0..src.len())
    }

    fn parts(parts: Vec<Piece>) -> Option<StrExpr> {
        Some(StrExpr { parts })
    }

    #[test]
    fn literals_names_and_concatenation() {
        assert_eq!(parse("\"/a\""), Some(StrExpr::lit("/a")));
        assert_eq!(parse("`/raw\\d`"), Some(StrExpr::lit("/raw\\d")));
        assert_eq!(
            parse("apiBase + \"/users\" + (\"/\" + config.ID)"),
            parts(vec![
                Piece::Ref("apiBase".into()),
                Piece::Lit("/users/".into()),
                Piece::Ref("config.ID".into()),
            ])
        );
        assert_eq!(parse("h.List"), parts(vec![Piece::Ref("h.List".into())]));
        assert_eq!(parse("getPath()"), None);
        assert_eq!(parse("'x'"), None);
        assert_eq!(parse("nil"), None);
    }

    #[test]
    fn sprintf_and_join() {
        assert_eq!(
            parse("fmt.Sprintf(\"%s/items/%d%%\", base, 2)"),
            None,
            "non-string arguments are not understood"
        );
        assert_eq!(
            parse("fmt.Sprintf(\"%s/items/{id}\", base)"),
            parts(vec![
                Piece::Ref("base".into()),
                Piece::Lit("/items/{id}".into()),
            ])
        );
        assert_eq!(
            parse("path.Join(Prefix, \"users\")"),
            parts(vec![
                Piece::Ref("Prefix".into()),
                Piece::Lit("/users".into()),
            ])
        );
    }

    #[test]
    fn resolve_and_substitute() {
        let e = parse("v + \"/x\"").unwrap();
        let s = e.substitute(&mut |n| (n == "v").then(|| StrExpr::lit("/api")));
        assert_eq!(s.literal().as_deref(), Some("/api/x"));
        assert_eq!(e.resolve(&mut |_| None), None);
        assert_eq!(
            e.resolve(&mut |_| Some("/b".into())).as_deref(),
            Some("/b/x")
        );
    }
}
