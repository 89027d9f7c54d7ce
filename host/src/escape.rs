//! The one escaping helper for text that reaches a terminal or a
//! line-oriented report: everything a scanned repository controls (routes,
//! parameter names, file names, plugin messages) may carry terminal escapes
//! (ESC, OSC 0/8/52), CR, BEL, BS or a newline that forges an extra line.
//!
//! [`visible`] rewrites every such character as a visible escape: `\x1b`
//! for C0 controls and DEL, `\u{85}` for C1 controls, and `\u{202e}` for
//! the Unicode line separators and bidirectional overrides (which reorder
//! or break what a reader sees). Other text, backslashes included, is kept
//! as is, so ordinary routes (`/users/(?P<id>\d+)`) do not change.
//!
//! Used by the logger and by every line-oriented format (plain, curl,
//! httpie, powershell, markdown-table, mermaid, html, only-*). Structured
//! formats (json, jsonl, yaml, toml, oas2, oas3, postman, sarif) keep the
//! exact strings: their own syntax escapes control characters.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal or a report line as is.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// Append the visible escape of `c` (which should satisfy [`is_unsafe`]).
pub fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write;
    let code = c as u32;
    if code < 0x80 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

/// At most `max` characters of `s`, then `…` when it was longer (messages,
/// extracts: a minified line or a server's answer can be megabytes).
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

/// `s` with every unsafe character written as a visible escape.
pub fn visible(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible() {
        assert_eq!(visible("/a\x1b]0;pwned\x07b"), "/a\\x1b]0;pwned\\x07b");
        assert_eq!(visible("x\ny\rz\x08\t\x7f"), "x\\x0ay\\x0dz\\x08\\x09\\x7f");
        assert_eq!(
            visible("a\u{9b}b\u{202e}c\u{2028}"),
            "a\\u{9b}b\\u{202e}c\\u{2028}"
        );
        assert!(matches!(
            visible("/users/(?P<id>\\d+) é ✓"),
            Cow::Borrowed(_)
        ));
    }
}
