//! Small lexical helpers on a [`Code`] view of JavaScript/TypeScript:
//! dotted names, brackets matched backwards, bracket depth, statement ends.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;
use std::ops::Range;

/// An identifier byte in JavaScript (`$` included).
pub fn is_js_ident(b: u8) -> bool {
    is_ident_byte(b) || b == b'$'
}

/// The identifier starting exactly at `i`.
pub fn ident_at(code: &Code<'_>, i: usize) -> Option<Range<usize>> {
    let bytes = code.text().as_bytes();
    if i >= bytes.len() || !code.is_code(i) || !is_js_ident(bytes[i]) || bytes[i].is_ascii_digit() {
        return None;
    }
    if i > 0 && is_js_ident(bytes[i - 1]) {
        return None;
    }
    let mut e = i;
    while e < bytes.len() && is_js_ident(bytes[e]) {
        e += 1;
    }
    Some(i..e)
}

/// A dotted name starting at `i` (after whitespace): `a`, `this.router`,
/// `a?.b.c` (optional chaining read as `.`). Returns the name and its range.
pub fn dotted_at(code: &Code<'_>, i: usize) -> Option<(String, Range<usize>)> {
    let bytes = code.text().as_bytes();
    let start = code.skip_ws(i);
    let first = ident_at(code, start)?;
    let mut name = code.slice(first.clone()).to_string();
    let mut end = first.end;
    loop {
        let mut j = end;
        if bytes.get(j) == Some(&b'?') && bytes.get(j + 1) == Some(&b'.') {
            j += 1;
        }
        if bytes.get(j) != Some(&b'.') || bytes.get(j + 1) == Some(&b'.') {
            break;
        }
        let k = code.skip_ws(j + 1);
        let Some(next) = ident_at(code, k) else { break };
        name.push('.');
        name.push_str(code.slice(next.clone()));
        end = next.end;
    }
    Some((name, start..end))
}

/// The dotted name ending just before `end` (whitespace skipped), e.g. the
/// receiver `this.router` of `this.router.get(` given the offset of the last
/// `.`. `None` when the receiver is not a plain dotted name (a call result
/// such as `request(app)`, an index, a literal).
pub fn dotted_before(code: &Code<'_>, end: usize) -> Option<(String, usize)> {
    let bytes = code.text().as_bytes();
    let mut e = end.min(bytes.len());
    while e > 0 && bytes[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    let mut parts = Vec::new();
    loop {
        let mut s = e;
        while s > 0 && is_js_ident(bytes[s - 1]) {
            s -= 1;
        }
        if s == e || !code.is_code(s) || bytes[s].is_ascii_digit() {
            return None;
        }
        parts.push(&code.text()[s..e]);
        let mut p = s;
        while p > 0 && bytes[p - 1].is_ascii_whitespace() {
            p -= 1;
        }
        if p > 0 && bytes[p - 1] == b'.' && code.is_code(p - 1) {
            let mut q = p - 1;
            if q > 0 && bytes[q - 1] == b'?' {
                q -= 1;
            }
            if q > 0 && bytes[q - 1] == b'.' {
                // Spread `...x`.
                parts.reverse();
                return Some((parts.join("."), s));
            }
            while q > 0 && bytes[q - 1].is_ascii_whitespace() {
                q -= 1;
            }
            if q == 0 || !is_js_ident(bytes[q - 1]) {
                return None;
            }
            e = q;
            continue;
        }
        parts.reverse();
        return Some((parts.join("."), s));
    }
}

/// Given the offset of a closing `)`, `]` or `}`, the offset of its opener.
pub fn matching_back(code: &Code<'_>, close: usize) -> Option<usize> {
    let bytes = code.text().as_bytes();
    let closer = *bytes.get(close)?;
    let opener = match closer {
        b')' => b'(',
        b']' => b'[',
        b'}' => b'{',
        _ => return None,
    };
    let mut depth = 0usize;
    let mut i = close + 1;
    while i > 0 {
        i -= 1;
        if !code.is_code(i) {
            continue;
        }
        let b = bytes[i];
        if b == closer {
            depth += 1;
        } else if b == opener {
            // An opener with no closer left to pair: `close` was not a
            // bracket of the code (inside a string or comment).
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Bracket depth of every byte (`(`, `[`, `{` in code; the opener itself is
/// at the outer depth).
pub fn depths(code: &Code<'_>) -> Vec<u16> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut d: u16 = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if code.is_code(i) && matches!(b, b')' | b']' | b'}') {
            d = d.saturating_sub(1);
        }
        out.push(d);
        if code.is_code(i) && matches!(b, b'(' | b'[' | b'{') {
            d = d.saturating_add(1);
        }
    }
    out
}

/// The offset of the next code byte `b` at or after `i` before `end`.
pub fn next_code_byte(code: &Code<'_>, i: usize, end: usize, b: u8) -> Option<usize> {
    let bytes = code.text().as_bytes();
    (i..end.min(bytes.len())).find(|&k| bytes[k] == b && code.is_code(k))
}

/// Does the code at `i` (after whitespace) start with `word` as a whole word?
pub fn word_at(code: &Code<'_>, i: usize, word: &str) -> bool {
    let i = code.skip_ws(i);
    let bytes = code.text().as_bytes();
    code.text().get(i..).is_some_and(|t| t.starts_with(word))
        && code.is_code(i)
        && !bytes.get(i + word.len()).is_some_and(|b| is_js_ident(*b))
}

/// Strip a TypeScript non-null `!`, `as T` casts, `satisfies T` and
/// parentheses around an expression range.
pub fn trim_expr(code: &Code<'_>, mut r: Range<usize>) -> Range<usize> {
    let bytes = code.text().as_bytes();
    loop {
        let text = code.slice(r.clone());
        let cast = [" as ", " satisfies "].iter().find_map(|op| {
            let pos = text.rfind(op)?;
            (code.is_code(r.start + pos + 1) && !text[pos..].contains(['(', ')', '\'', '"']))
                .then_some(pos)
        });
        if let Some(pos) = cast {
            r.end = r.start + pos;
            continue;
        }
        if r.end > r.start && bytes[r.end - 1] == b'!' {
            r.end -= 1;
            continue;
        }
        if r.end > r.start + 1
            && bytes[r.start] == b'('
            && code.matching(r.start) == Some(r.end - 1)
        {
            r = r.start + 1..r.end - 1;
            let s = code.skip_ws(r.start);
            let mut e = r.end;
            while e > s && bytes[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            r = s..e;
            continue;
        }
        return r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn dotted_names() {
        let src = "this.router.get('/x'); request(app).get('/y'); a?.b.c(1)";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let get = src.find(".get(").unwrap();
        assert_eq!(
            dotted_before(&code, get),
            Some(("this.router".to_string(), 0))
        );
        let get2 = src.rfind(".get(").unwrap();
        assert_eq!(dotted_before(&code, get2), None);
        let c = src.find("a?.b").unwrap();
        assert_eq!(dotted_at(&code, c).unwrap().0, "a.b.c");
        let close = src.find("app)").unwrap() + 3;
        assert_eq!(matching_back(&code, close), Some(src.find("(app").unwrap()));
    }

    #[test]
    fn a_closer_inside_a_string_has_no_opener() {
        let src = "f(a, ')') + g(";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        assert_eq!(matching_back(&code, src.find(')').unwrap()), None);
    }

    #[test]
    fn trims_casts() {
        let src = "(req.query as any)!";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let r = trim_expr(&code, 0..src.len());
        assert_eq!(code.slice(r), "req.query");
    }
}
