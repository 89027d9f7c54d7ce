//! A tolerant PHP tokenizer over the SDK's comment- and string-aware view.
//!
//! Text outside `<?php … ?>` (inline HTML) is blanked first, so quotes and
//! apostrophes in markup cannot open strings. Names keep their namespace
//! separators (`App\Http\Controllers\UserController`).

use portolan_plugin_sdk::lex::{is_ident_byte, Code};
use portolan_plugin_sdk::Syntax;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    /// `$name` (text without the `$`).
    Var,
    Str,
    Int,
    Punct,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub interpolated: bool,
}

impl Token {
    pub fn is(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
    pub fn is_ident(&self, w: &str) -> bool {
        self.kind == Kind::Ident && self.text.eq_ignore_ascii_case(w)
    }
}

const PUNCTS: &[&str] = &[
    "?->", "===", "!==", "...", "<=>", "??=", "::", "->", "=>", "==", "!=", "&&", "||", "??", ".=",
    "+=", "-=", "<=", ">=", "++", "--",
];

/// Blank inline HTML (outside `<?php`/`<?=` … `?>`), keeping newlines.
pub fn php_only(src: &str) -> String {
    if !src.contains("?>") && src.trim_start().starts_with("<?") {
        return src.to_string();
    }
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    let mut in_php = false;
    while !rest.is_empty() {
        if in_php {
            match rest.find("?>") {
                Some(i) => {
                    out.push_str(&rest[..i]);
                    out.push_str("  ");
                    rest = &rest[i + 2..];
                    in_php = false;
                }
                None => {
                    out.push_str(rest);
                    rest = "";
                }
            }
        } else {
            let (i, open_len) = match rest.find("<?") {
                Some(i) => {
                    let after = &rest[i + 2..];
                    let l = if after.starts_with("php") {
                        5
                    } else if after.starts_with('=') {
                        3
                    } else {
                        2
                    };
                    (i, l)
                }
                None => (rest.len(), 0),
            };
            for c in rest[..i].chars() {
                if c == '\n' {
                    out.push('\n');
                } else {
                    for _ in 0..c.len_utf8() {
                        out.push(' ');
                    }
                }
            }
            if open_len == 0 {
                break;
            }
            for _ in 0..open_len {
                out.push(' ');
            }
            rest = &rest[i + open_len..];
            in_php = true;
        }
    }
    out
}

pub fn tokenize(src: &str) -> Vec<Token> {
    let clean = php_only(src);
    let code = Code::new(&clean, Syntax::PHP);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if !code.is_code(i) {
            if code.is_comment(i) {
                i += 1;
                continue;
            }
            match code.string_at(i) {
                Some(lit) if lit.end > i => {
                    let interpolated =
                        lit.interpolated || (bytes[i] == b'"' && lit.value.contains('$'));
                    // PHP keeps unknown escapes (`'App\Http\C'`, `"\d+"`):
                    // re-read the literal from the source.
                    let raw = text.get(i + 1..lit.end.saturating_sub(1)).unwrap_or("");
                    let value = match bytes[i] {
                        b'\'' if lit.end >= i + 2 => php_unescape(raw, false),
                        b'"' if lit.end >= i + 2 && !lit.interpolated => php_unescape(raw, true),
                        _ => lit.value,
                    };
                    out.push(Token {
                        kind: Kind::Str,
                        text: value,
                        start: i,
                        end: lit.end,
                        interpolated,
                    });
                    i = lit.end;
                }
                _ => i += 1,
            }
            continue;
        }
        if b == b'$' && bytes.get(i + 1).is_some_and(|c| is_ident_byte(*c)) {
            let mut j = i + 1;
            while j < bytes.len() && is_ident_byte(bytes[j]) {
                j += 1;
            }
            out.push(tok(Kind::Var, &text[i + 1..j], i, j));
            i = j;
            continue;
        }
        if is_ident_byte(b) || b == b'\\' {
            let mut j = i;
            while j < bytes.len() && (is_ident_byte(bytes[j]) || bytes[j] == b'\\') {
                j += 1;
            }
            let kind = if b.is_ascii_digit() {
                Kind::Int
            } else {
                Kind::Ident
            };
            out.push(tok(kind, &text[i..j], i, j));
            i = j;
            continue;
        }
        if !b.is_ascii() {
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j] & 0xC0) == 0x80 {
                j += 1;
            }
            i = j;
            continue;
        }
        let p = PUNCTS
            .iter()
            .find(|p| text[i..].starts_with(**p))
            .map(|p| p.len())
            .unwrap_or(1);
        out.push(tok(Kind::Punct, &text[i..i + p], i, i + p));
        i += p;
    }
    out
}

/// The value of a PHP string literal's body: single-quoted strings only
/// know `\\` and `\'`; double-quoted ones also `\"`, `\$`, `\n`, `\t`,
/// `\r`, and keep any other backslash.
fn php_unescape(raw: &str, double: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('\\') => {
                out.push('\\');
                chars.next();
            }
            Some('\'') if !double => {
                out.push('\'');
                chars.next();
            }
            Some(q @ ('"' | '$')) if double => {
                out.push(q);
                chars.next();
            }
            Some('n') if double => {
                out.push('\n');
                chars.next();
            }
            Some('t') if double => {
                out.push('\t');
                chars.next();
            }
            Some('r') if double => {
                out.push('\r');
                chars.next();
            }
            _ => out.push('\\'),
        }
    }
    out
}

fn tok(kind: Kind, text: &str, start: usize, end: usize) -> Token {
    Token {
        kind,
        text: text.to_string(),
        start,
        end,
        interpolated: false,
    }
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

/// Split at top-level `sep` punctuation.
pub fn split(toks: &[Token], sep: &str) -> Vec<std::ops::Range<usize>> {
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
            s if s == sep && depth == 0 => {
                if k > start {
                    out.push(start..k);
                }
                start = k + 1;
            }
            _ => {}
        }
    }
    if toks.len() > start {
        out.push(start..toks.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_blanked_and_names_kept() {
        let src = "<p>Don't</p><?php $x = $_GET['q']; // c\nRoute::get('/a', [App\\Http\\C::class, 'x']); ?><b>it's</b>";
        let toks = tokenize(src);
        let texts: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "x",
                "=",
                "_GET",
                "[",
                "q",
                "]",
                ";",
                "Route",
                "::",
                "get",
                "(",
                "/a",
                ",",
                "[",
                "App\\Http\\C",
                "::",
                "class",
                ",",
                "x",
                "]",
                ")",
                ";"
            ]
        );
        assert_eq!(toks[2].kind, Kind::Var);
        let toks = tokenize("<?php f('App\\Http\\C:m', 'it\\'s', \"\\d+\\\"\", 'a\\\\b');");
        let strs: Vec<&str> = toks
            .iter()
            .filter(|t| t.kind == Kind::Str)
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(strs, ["App\\Http\\C:m", "it's", "\\d+\"", "a\\b"]);
    }
}
