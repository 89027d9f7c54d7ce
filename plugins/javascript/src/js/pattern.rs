//! The plugin's regular expressions, built cheaply.
//!
//! The host starts a fresh plugin instance for every batch of files, so
//! each lazily built pattern is compiled again per batch. Unicode `\w`
//! (about 770 ranges) dominates that cost: every pattern here goes
//! through [`regex`], which writes `\w` as [`WORD`] (ASCII word bytes plus
//! the non-ASCII ranges an identifier or a name can hold) before
//! compiling: about a tenth of the compile time. Word boundaries are
//! ASCII ones (see [`expand`]).

use std::sync::OnceLock;

use regex::Regex;

/// What the patterns mean by `\w`: ASCII letters, digits and `_`, Latin-1
/// letters, and every other non-ASCII character except the whitespace,
/// general and CJK punctuation, fullwidth punctuation, the BOM and the
/// emoji blocks (which the code never uses in a name). A class, valid
/// inside another class too.
pub const WORD: &str = r"[0-9A-Za-z_\x{AA}\x{B5}\x{BA}\x{C0}-\x{D6}\x{D8}-\x{F6}\x{F8}-\x{167F}\x{1681}-\x{1FFF}\x{200C}\x{200D}\x{203F}\x{2040}\x{2054}\x{2070}-\x{2FFF}\x{3040}-\x{FEFE}\x{FF10}-\x{FF19}\x{FF21}-\x{FF3A}\x{FF3F}\x{FF41}-\x{FF5A}\x{FF66}-\x{1EFFF}\x{1FB00}-\x{10FFFF}]";

/// `pattern` with every `\w` written as [`WORD`] and every `\b`/`\B` as
/// an ASCII word boundary (an escaped backslash `\\w` is left alone). A
/// Unicode boundary makes the regex engine's lazy DFA give up on any text
/// holding a non-ASCII byte (most UI files: translated strings) and fall
/// back to a far slower engine; the patterns' boundaries always sit next
/// to an ASCII keyword, name or punctuation.
pub fn expand(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 64);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => out.push_str(WORD),
            Some('b') => out.push_str(r"(?-u:\b)"),
            Some('B') => out.push_str(r"(?-u:\B)"),
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Compile `pattern` (see [`expand`]); `None` when it is invalid.
pub fn regex(pattern: &str) -> Option<Regex> {
    Regex::new(&expand(pattern)).ok()
}

/// A pattern that matches nothing (stands for an invalid one).
pub fn never() -> Regex {
    Regex::new("$^").expect("trivial")
}

/// Compile `pattern` once into `cell` (an invalid pattern matches nothing).
pub fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| regex(pattern).unwrap_or_else(never))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_is_cheap_and_keeps_names() {
        let r = regex(r"^[\w$]+$").expect("valid");
        for name in ["userId", "$scope", "_x9", "données", "名前", "ÆØÅ"] {
            assert!(r.is_match(name), "{name}");
        }
        for other in ["a b", "a\u{a0}b", "a…", "a’s", "a—b", "a-b", "x🚀"] {
            assert!(!r.is_match(other), "{other}");
        }
        assert_eq!(expand(r"a\\w[\w-]\s"), format!(r"a\\w[{WORD}-]\s"));
        assert_eq!(expand(r"\bx\B"), r"(?-u:\b)x(?-u:\B)");
        let b = regex(r"\bjson\(").expect("valid");
        assert!(b.is_match("const données = await req.json()"));
        assert!(!b.is_match("xjson("));
    }
}
