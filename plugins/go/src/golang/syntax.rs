//! Small lexical helpers over the SDK's comment-blanked [`Code`] view of a
//! Go file: identifiers, selector/call chains, statement ends, function
//! literals and parameter lists.

use std::ops::Range;

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;

/// Bytes of the comment-blanked text.
pub fn bytes<'c>(code: &'c Code<'_>) -> &'c [u8] {
    code.text().as_bytes()
}

pub fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// The identifier starting exactly at `i` (no whitespace skipping) and the
/// offset after it.
pub fn ident_here<'c>(code: &'c Code<'_>, i: usize) -> Option<(&'c str, usize)> {
    let b = bytes(code);
    if i >= b.len() || !is_ident_start(b[i]) || !code.is_code(i) {
        return None;
    }
    let mut end = i;
    while end < b.len() && is_ident_byte(b[end]) {
        end += 1;
    }
    Some((&code.text()[i..end], end))
}

/// Is the identifier at `i..i+len` a whole word?
pub fn whole_word(code: &Code<'_>, i: usize, len: usize) -> bool {
    let b = bytes(code);
    (i == 0 || !is_ident_byte(b[i - 1])) && b.get(i + len).is_none_or(|c| !is_ident_byte(*c))
}

/// Skip spaces, tabs and newlines.
pub fn skip_ws(code: &Code<'_>, i: usize) -> usize {
    code.skip_ws(i)
}

/// Offset of the last non-whitespace byte before `i`, if any.
pub fn prev_non_ws(code: &Code<'_>, i: usize) -> Option<usize> {
    let b = bytes(code);
    let mut j = i.min(b.len());
    while j > 0 {
        j -= 1;
        if !b[j].is_ascii_whitespace() {
            return Some(j);
        }
    }
    None
}

/// Given the offset of a `.` (or of the first byte after a receiver), walk
/// back over a selector/call chain like `r.With(mw).Group("/x")` and return
/// where it starts. Whitespace (including newlines before a `.`) is allowed
/// inside the chain, as gofmt splits long chains after dots.
pub fn chain_start(code: &Code<'_>, end: usize) -> usize {
    let b = bytes(code);
    let mut i = end;
    loop {
        // Skip whitespace backwards.
        let mut j = i;
        while j > 0 && b[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        if j == 0 {
            return i;
        }
        let c = b[j - 1];
        if (c == b')' || c == b']') && code.is_code(j - 1) {
            // A call or index: find its opener.
            let Some(open) = opener(code, j - 1) else {
                return i;
            };
            i = open;
            continue;
        }
        if is_ident_byte(c) {
            let mut s = j;
            while s > 0 && is_ident_byte(b[s - 1]) {
                s -= 1;
            }
            if !code.is_code(s) {
                return i;
            }
            // Keywords end the chain (`return r`, `go f()`).
            if is_keyword(&code.text()[s..j]) {
                return i;
            }
            // Continue when preceded by a dot.
            let mut k = s;
            while k > 0 && b[k - 1].is_ascii_whitespace() {
                k -= 1;
            }
            if k > 0 && b[k - 1] == b'.' && code.is_code(k - 1) {
                i = k - 1;
                continue;
            }
            if k > 0 && b[k - 1] == b'&' && code.is_code(k - 1) {
                // `&T{}` / `&x`: keep the `&` outside the chain.
                return s;
            }
            return s;
        }
        if c == b'.' && code.is_code(j - 1) {
            i = j - 1;
            continue;
        }
        return i;
    }
}

/// The opener matching the `)`/`]`/`}` at `close` (strings and comments
/// skipped).
pub fn opener(code: &Code<'_>, close: usize) -> Option<usize> {
    let b = bytes(code);
    let (open_b, close_b) = match *b.get(close)? {
        b')' => (b'(', b')'),
        b']' => (b'[', b']'),
        b'}' => (b'{', b'}'),
        _ => return None,
    };
    let mut depth = 0usize;
    let mut i = close + 1;
    while i > 0 {
        i -= 1;
        if !code.is_code(i) {
            continue;
        }
        if b[i] == close_b {
            depth += 1;
        } else if b[i] == open_b {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "break"
            | "case"
            | "chan"
            | "const"
            | "continue"
            | "default"
            | "defer"
            | "else"
            | "fallthrough"
            | "for"
            | "func"
            | "go"
            | "goto"
            | "if"
            | "import"
            | "interface"
            | "map"
            | "package"
            | "range"
            | "return"
            | "select"
            | "struct"
            | "switch"
            | "type"
            | "var"
    )
}

/// The end of the statement or expression starting at `start`: the first
/// newline (at bracket depth 0, after a token that ends a statement per
/// Go's semicolon rule), `;`, or unbalanced closer; never beyond `limit`.
pub fn statement_end(code: &Code<'_>, start: usize, limit: usize) -> usize {
    let b = bytes(code);
    let limit = limit.min(b.len());
    let mut depth = 0i32;
    let mut last: u8 = 0;
    let mut i = start;
    while i < limit {
        if !code.is_code(i) {
            // Strings count as a statement-ending token.
            if !code.is_comment(i) {
                last = b'"';
            }
            i += 1;
            continue;
        }
        let c = b[i];
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
            }
            b';' if depth == 0 => return i,
            b'\n'
                if depth == 0
                    && (is_ident_byte(last) || matches!(last, b'"' | b')' | b']' | b'}')) =>
            {
                return i;
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            last = c;
        }
        i += 1;
    }
    limit
}

/// Trim whitespace from both ends of a range.
pub fn trim(code: &Code<'_>, r: Range<usize>) -> Range<usize> {
    let b = bytes(code);
    let (mut s, mut e) = (r.start.min(b.len()), r.end.min(b.len()));
    while s < e && b[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && b[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    s..e
}

/// The text of a range with all whitespace removed (for comparing small
/// expressions such as `r.URL.Query()`).
pub fn compact(code: &Code<'_>, r: Range<usize>) -> String {
    code.slice(r)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// A function literal or declaration signature: parameter names and types,
/// and the body's `{`..`}` range (inclusive of braces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub params: Vec<(String, String)>,
    /// Offset of the body's `{`.
    pub body_open: usize,
    /// Offset of the body's `}`.
    pub body_close: usize,
}

/// Parse `(params) results {` starting at the `(` of the parameter list.
pub fn signature_at(code: &Code<'_>, params_open: usize) -> Option<Signature> {
    let b = bytes(code);
    if b.get(params_open) != Some(&b'(') {
        return None;
    }
    let params_close = code.matching(params_open)?;
    let params = parse_params(code, params_open + 1, params_close);
    let body_open = find_body_open(code, params_close + 1)?;
    let body_close = code.matching(body_open)?;
    Some(Signature {
        params,
        body_open,
        body_close,
    })
}

/// After a parameter list, skip the result types to the body's `{`. Braces
/// of `struct{}` / `interface{}` in result types are skipped. Returns
/// `None` when a statement end comes first (a function type, not a
/// literal or declaration with a body).
fn find_body_open(code: &Code<'_>, from: usize) -> Option<usize> {
    let b = bytes(code);
    let mut i = from;
    while i < b.len() {
        if !code.is_code(i) {
            i += 1;
            continue;
        }
        match b[i] {
            b'(' | b'[' => {
                i = code.matching(i)? + 1;
                continue;
            }
            b'{' => {
                let before = &code.text()[from..i];
                let trimmed = before.trim_end();
                if trimmed.ends_with("struct") || trimmed.ends_with("interface") {
                    i = code.matching(i)? + 1;
                    continue;
                }
                return Some(i);
            }
            b'\n' => {
                let before = code.text()[from..i].trim();
                // A newline right after the results ends a declaration
                // without a body (an external function or a type).
                if !before.is_empty() && !before.ends_with(',') {
                    return None;
                }
            }
            b')' | b'}' | b';' | b',' | b'=' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parse a Go parameter list (without the parentheses) into (name, type)
/// pairs. `a, b string` gives both names the type; unnamed parameters get
/// an empty name.
pub fn parse_params(code: &Code<'_>, start: usize, end: usize) -> Vec<(String, String)> {
    let pieces = code.split_top_level(start, end, b',');
    let mut out: Vec<(String, String)> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for r in pieces {
        let text = code.slice(r.clone()).trim();
        let mut split = text.splitn(2, |c: char| c.is_whitespace());
        let first = split.next().unwrap_or("").trim();
        let rest = split.next().unwrap_or("").trim();
        if !rest.is_empty() && first.bytes().all(is_ident_byte) {
            for name in pending.drain(..) {
                out.push((name, rest.to_string()));
            }
            out.push((first.to_string(), rest.to_string()));
        } else if first.bytes().all(is_ident_byte) && !first.is_empty() {
            pending.push(first.to_string());
        } else {
            // An unnamed parameter with a composite type (`*gin.Context`).
            for name in pending.drain(..) {
                out.push((String::new(), name));
            }
            out.push((String::new(), text.to_string()));
        }
    }
    // Names without a type were unnamed parameter types.
    for name in pending {
        out.push((String::new(), name));
    }
    out
}

/// Every function literal (`func(…) … {…}`) starting in `range`, as
/// (offset of `func`, signature).
pub fn func_literals(code: &Code<'_>, range: Range<usize>) -> Vec<(usize, Signature)> {
    let mut out = Vec::new();
    for at in code.find_word_in("func", range.clone()) {
        let open = skip_ws(code, at + 4);
        if bytes(code).get(open) != Some(&b'(') {
            continue;
        }
        if let Some(sig) = signature_at(code, open) {
            if sig.body_close <= range.end {
                out.push((at, sig));
            }
        }
    }
    out
}

/// If the range (trimmed) is a function literal, its signature.
pub fn as_func_literal(code: &Code<'_>, r: Range<usize>) -> Option<Signature> {
    let r = trim(code, r);
    let text = code.slice(r.clone());
    if !text.starts_with("func") || !whole_word(code, r.start, 4) {
        return None;
    }
    let open = skip_ws(code, r.start + 4);
    let sig = signature_at(code, open)?;
    (sig.body_close + 1 >= r.end).then_some(sig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn chain_start_walks_selectors_and_calls() {
        let src = "x := r.With(mw).\n\tGroup(\"/a\").GET(\"/b\", h)";
        let code = Code::new(src, Syntax::GO);
        let dot = src.rfind(".GET").unwrap();
        let s = chain_start(&code, dot);
        assert_eq!(&src[s..dot], "r.With(mw).\n\tGroup(\"/a\")");
        let src = "return api.Group(\"/x\")";
        let code = Code::new(src, Syntax::GO);
        assert_eq!(chain_start(&code, src.len()), 7);
    }

    #[test]
    fn params_group_names() {
        let src = "(a, b string, c *gin.Context, fn func(int) error)";
        let code = Code::new(src, Syntax::GO);
        let p = parse_params(&code, 1, src.len() - 1);
        assert_eq!(
            p,
            vec![
                ("a".into(), "string".into()),
                ("b".into(), "string".into()),
                ("c".into(), "*gin.Context".into()),
                ("fn".into(), "func(int) error".into()),
            ]
        );
        let src = "(http.ResponseWriter, *http.Request)";
        let code = Code::new(src, Syntax::GO);
        let p = parse_params(&code, 1, src.len() - 1);
        assert_eq!(p.len(), 2);
        assert_eq!(p[1], (String::new(), "*http.Request".into()));
    }

    #[test]
    fn signatures_skip_result_types() {
        let src = "func f(x int) (map[string]interface{}, error) {\n\treturn nil, nil\n}";
        let code = Code::new(src, Syntax::GO);
        let sig = signature_at(&code, 6).unwrap();
        assert_eq!(
            &src[sig.body_open..=sig.body_close],
            "{\n\treturn nil, nil\n}"
        );
        let src = "type H func(c *gin.Context)\nvar x = 1";
        let code = Code::new(src, Syntax::GO);
        assert!(signature_at(&code, 11).is_none());
    }

    #[test]
    fn statement_ends_follow_semicolon_rule() {
        let src = "x := a +\n\tb\ny := 2";
        let code = Code::new(src, Syntax::GO);
        assert_eq!(statement_end(&code, 5, src.len()), 11);
        let src = "r.GET(\"/x\",\n\th)\nnext()";
        let code = Code::new(src, Syntax::GO);
        assert_eq!(statement_end(&code, 0, src.len()), 15);
    }
}
