//! A flat token stream over C# source (comments dropped, string literals
//! decoded, `$"…"` marked interpolated, `@name` verbatim identifiers
//! unprefixed), with byte offsets into the original text.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Str,
    Num,
    Punct,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    /// Identifier / number / punctuation text, or the decoded string value.
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// A line break separates this token from the previous one.
    pub nl: bool,
    /// An interpolated string (`$"…{x}…"`).
    pub interp: bool,
}

impl Token {
    pub fn is(&self, punct: char) -> bool {
        self.kind == Kind::Punct && self.text.len() == 1 && self.text.starts_with(punct)
    }
    pub fn is_ident(&self, word: &str) -> bool {
        self.kind == Kind::Ident && self.text == word
    }
}

/// Tokenize the code view. Punctuation is one byte per token (`>>` is two
/// `>` tokens, which keeps generic brackets balanced).
pub fn tokenize(code: &Code) -> Vec<Token> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut nl = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            nl = true;
            i += 1;
            continue;
        }
        if b.is_ascii_whitespace() || code.is_comment(i) {
            i += 1;
            continue;
        }
        if !code.is_code(i) {
            // A string (or char) literal.
            match code.string_at(i) {
                Some(lit) if lit.end > i => {
                    let interp = out.last().is_some_and(|t: &Token| t.is('$') && t.end == i);
                    if interp {
                        out.pop();
                    }
                    out.push(Token {
                        kind: Kind::Str,
                        text: lit.value,
                        start: i,
                        end: lit.end,
                        nl,
                        interp,
                    });
                    nl = false;
                    i = lit.end;
                }
                _ => i += 1,
            }
            continue;
        }
        let start = i;
        let kind = if b.is_ascii_digit() {
            while i < bytes.len()
                && (is_ident_byte(bytes[i]) || bytes[i] == b'.' && next_is_digit(bytes, i))
            {
                i += 1;
            }
            Kind::Num
        } else if is_ident_byte(b) {
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            Kind::Ident
        } else if b == b'@' && bytes.get(i + 1).is_some_and(|c| is_ident_byte(*c)) {
            // Verbatim identifier: `@class`.
            i += 1;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            out.push(Token {
                kind: Kind::Ident,
                text: text[start + 1..i].to_string(),
                start,
                end: i,
                nl,
                interp: false,
            });
            nl = false;
            continue;
        } else {
            // One (possibly multi-byte) character.
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            i += len;
            Kind::Punct
        };
        out.push(Token {
            kind,
            text: text[start..i].to_string(),
            start,
            end: i,
            nl,
            interp: false,
        });
        nl = false;
    }
    out
}

fn next_is_digit(bytes: &[u8], i: usize) -> bool {
    bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
}

/// Index of the token closing the bracket opened at `open` (`(`, `[`, `{`,
/// `<`), or `toks.len()` when unbalanced. For `<`, gives up (returns
/// `None`) at tokens that cannot be part of a type argument list.
pub fn close_of(toks: &[Token], open: usize) -> Option<usize> {
    let opener = toks.get(open)?;
    let (o, c) = match opener.text.as_str() {
        "(" => ('(', ')'),
        "[" => ('[', ']'),
        "{" => ('{', '}'),
        "<" => ('<', '>'),
        _ => return None,
    };
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        if o == '<' && (t.is(';') || t.is('{') || t.is('}') || t.is('=') || t.is(')')) {
            return None;
        }
        if t.is(o) {
            depth += 1;
        } else if t.is(c) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    if o == '<' {
        None
    } else {
        Some(toks.len())
    }
}

/// Split `toks[start..end]` at top-level commas into index ranges.
pub fn split_commas(toks: &[Token], start: usize, end: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut piece = start;
    let end = end.min(toks.len());
    for (k, t) in toks.iter().enumerate().take(end).skip(start) {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                if piece < k {
                    out.push(piece..k);
                }
                piece = k + 1;
            }
            _ => {}
        }
    }
    if piece < end {
        out.push(piece..end);
    }
    out
}

/// A dotted name starting at `i` (`a.b.C`); returns it and the index after.
pub fn dotted(toks: &[Token], i: usize) -> Option<(String, usize)> {
    let first = toks.get(i).filter(|t| t.kind == Kind::Ident)?;
    let mut name = first.text.clone();
    let mut k = i + 1;
    while k + 1 < toks.len() && toks[k].is('.') && toks[k + 1].kind == Kind::Ident {
        name.push('.');
        name.push_str(&toks[k + 1].text);
        k += 2;
    }
    Some((name, k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn tokens_skip_comments_and_mark_interpolation() {
        let src = "[HttpGet($\"{Base}/a\")] // [HttpGet(\"x\")]\n/* y */ List<Dictionary<K, V>> @class = @\"c:\\x\";";
        let code = Code::new(src, Syntax::CSHARP);
        let toks = tokenize(&code);
        let texts: Vec<_> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "[",
                "HttpGet",
                "(",
                "{Base}/a",
                ")",
                "]",
                "List",
                "<",
                "Dictionary",
                "<",
                "K",
                ",",
                "V",
                ">",
                ">",
                "class",
                "=",
                "c:\\x",
                ";"
            ]
        );
        assert!(toks[3].interp);
        assert!(!toks[17].interp);
        assert!(toks[6].nl);
        assert_eq!(close_of(&toks, 7), Some(14));
        assert_eq!(dotted(&toks, 1).map(|d| d.1), Some(2));
    }
}
