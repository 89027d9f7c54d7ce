//! A tolerant Ruby (and Crystal) tokenizer over the SDK's comment- and
//! string-aware [`Code`] view.
//!
//! Comments are already blanked by the SDK; string literals are read with
//! [`Code::string_at`] (interpolations kept as written). On top of that this
//! module knows symbols (`:users`, `:"a-b"`), hash labels (`only:`),
//! `%w[]`/`%i[]` word arrays, constants and `::` paths, and the newline /
//! `;` statement separators. It never fails: bytes it does not understand
//! become one-byte punctuation tokens.

use crate::lex::{is_ident_byte, Code};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `name`, `name?`, `@ivar`, `$global`, keywords.
    Ident,
    /// `Name` (capitalised identifier).
    Const,
    /// `:name` or `:"name"`; text is the name.
    Sym,
    /// `name:` hash label or keyword argument; text is the name.
    Label,
    /// A string literal; text is the decoded value.
    Str,
    /// `%w[a b]` / `%i[a b]`: the words.
    Words(Vec<String>),
    /// Digits.
    Int,
    /// Punctuation and operators (`::`, `=>`, `(`, `.`, …).
    Punct,
    /// A regular expression literal (`/\d+/`), as written; only produced
    /// when the code was lexed with `regex_literals` (Ruby).
    Regex,
    /// End of a line or `;` (statement separator candidate).
    Newline,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// A string literal with `#{…}` interpolation.
    pub interpolated: bool,
    /// Whitespace precedes the token on the same line.
    pub space_before: bool,
}

impl Token {
    pub fn is(&self, punct: &str) -> bool {
        self.kind == Kind::Punct && self.text == punct
    }
    pub fn is_word(&self, word: &str) -> bool {
        self.kind == Kind::Ident && self.text == word
    }
}

const PUNCTS: &[&str] = &[
    "||=", "&&=", "<=>", "===", "**=", "::", "=>", "->", "&.", "||", "&&", "==", "!=", "<=", ">=",
    "<<", ">>", "+=", "-=", "*=", "/=", "..", "=~", "**",
];

/// Tokenize a file.
pub fn tokenize(code: &Code<'_>) -> Vec<Token> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    let mut space = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' || b == b';' {
            if !matches!(out.last(), Some(t) if t.kind == Kind::Newline) {
                out.push(tok(Kind::Newline, "\n", i, i + 1, space));
            }
            i += 1;
            space = false;
            continue;
        }
        if b == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
            // Explicit line continuation.
            i += 2;
            space = true;
            continue;
        }
        if b.is_ascii_whitespace() {
            i += 1;
            space = true;
            continue;
        }
        if !code.is_code(i) {
            if code.is_comment(i) {
                i += 1;
                continue;
            }
            // A string literal (or something the lexer does not classify as
            // code, like a regex in other syntaxes).
            match code.string_at(i) {
                Some(lit) if lit.end > i => {
                    let end = lit.end;
                    // `"name": value` is a label too.
                    if bytes.get(end) == Some(&b':') && bytes.get(end + 1) != Some(&b':') {
                        // Only in hash/argument context; a ternary has a space.
                        let mut t = tok(Kind::Label, &lit.value, i, end + 1, space);
                        t.interpolated = lit.interpolated;
                        out.push(t);
                        i = end + 1;
                    } else {
                        let mut t = tok(Kind::Str, &lit.value, i, end, space);
                        t.interpolated = lit.interpolated;
                        out.push(t);
                        i = end;
                    }
                }
                // A regular expression literal (`constraints: { id: /\d+/ }`):
                // one value token, so the call around it keeps its shape.
                _ if code.is_regex(i) => {
                    let mut end = i + 1;
                    while end < bytes.len() && code.is_regex(end) {
                        end += 1;
                    }
                    let text = code.text().get(i..end).unwrap_or("");
                    out.push(tok(Kind::Regex, text, i, end, space));
                    i = end;
                }
                _ => i += 1,
            }
            space = false;
            continue;
        }
        // Symbols: `:name`, `:"name"`, `:name?`; not `::`, not `a ? b : c`.
        if b == b':' && bytes.get(i + 1) != Some(&b':') {
            let prev_colon = i > 0 && bytes[i - 1] == b':';
            let next = bytes.get(i + 1).copied().unwrap_or(b' ');
            if !prev_colon && (next.is_ascii_alphabetic() || next == b'_' || next == b'@') {
                let mut j = i + 1;
                while j < bytes.len() && (is_ident_byte(bytes[j]) || bytes[j] == b'@') {
                    j += 1;
                }
                if j < bytes.len()
                    && (bytes[j] == b'?' || bytes[j] == b'!' || bytes[j] == b'=')
                    && bytes.get(j + 1) != Some(&b'=')
                    && bytes.get(j + 1) != Some(&b'>')
                {
                    j += 1;
                }
                out.push(tok(Kind::Sym, &text[i + 1..j], i, j, space));
                i = j;
                space = false;
                continue;
            }
            if !prev_colon && (next == b'"' || next == b'\'') {
                if let Some(lit) = code.string_at(i + 1) {
                    if lit.start == i + 1 {
                        out.push(tok(Kind::Sym, &lit.value, i, lit.end, space));
                        i = lit.end;
                        space = false;
                        continue;
                    }
                }
            }
        }
        // `%w[a b]`, `%i(a b)`, `%W{}`, `%I<>`, `%w'a b'`.
        if b == b'%'
            && matches!(bytes.get(i + 1), Some(b'w' | b'W' | b'i' | b'I'))
            && matches!(
                bytes.get(i + 2),
                Some(b'[' | b'(' | b'{' | b'<' | b'|' | b'\'' | b'"')
            )
        {
            let open = bytes[i + 2];
            let close = match open {
                b'[' => b']',
                b'(' => b')',
                b'{' => b'}',
                b'<' => b'>',
                other => other,
            };
            let mut j = i + 3;
            while j < bytes.len() && bytes[j] != close {
                j += 1;
            }
            let words = text
                .get(i + 3..j)
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let end = (j + 1).min(bytes.len());
            out.push(tok(Kind::Words(words), &text[i..end], i, end, space));
            i = end;
            space = false;
            continue;
        }
        if is_ident_byte(b) || b == b'@' || b == b'$' {
            let mut j = i;
            while j < bytes.len()
                && (b == b'@' || b == b'$')
                && (bytes[j] == b'@' || bytes[j] == b'$')
            {
                j += 1;
            }
            while j < bytes.len() && is_ident_byte(bytes[j]) {
                j += 1;
            }
            if j == i {
                j = i + 1;
            }
            if b.is_ascii_digit() {
                while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                    j += 1;
                }
                out.push(tok(Kind::Int, &text[i..j], i, j, space));
                i = j;
                space = false;
                continue;
            }
            // `name?` / `name!` method names (not `?=`/`!=`, not a ternary `a ?b`).
            if j < bytes.len()
                && (bytes[j] == b'?' || bytes[j] == b'!')
                && bytes.get(j + 1) != Some(&b'=')
                && !bytes
                    .get(j + 1)
                    .is_some_and(|c| is_ident_byte(*c) || *c == b'"' || *c == b'\'')
            {
                j += 1;
            }
            let word = &text[i..j];
            // `name:` label (not `name::`, and `a ? b : c` has a space).
            if bytes.get(j) == Some(&b':')
                && bytes.get(j + 1) != Some(&b':')
                && !word.ends_with('?')
            {
                let prev_is_ternary = out.iter().rev().take(6).any(|t| t.is("?"));
                if !prev_is_ternary || bytes.get(j + 1).is_some_and(|c| c.is_ascii_whitespace()) {
                    out.push(tok(Kind::Label, word, i, j + 1, space));
                    i = j + 1;
                    space = false;
                    continue;
                }
            }
            let kind = if word.as_bytes()[0].is_ascii_uppercase() {
                Kind::Const
            } else {
                Kind::Ident
            };
            out.push(tok(kind, word, i, j, space));
            i = j;
            space = false;
            continue;
        }
        if !b.is_ascii() {
            // Skip the whole UTF-8 character.
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j] & 0xC0) == 0x80 {
                j += 1;
            }
            i = j;
            space = false;
            continue;
        }
        let p = PUNCTS
            .iter()
            .find(|p| text[i..].starts_with(**p))
            .map(|p| p.len())
            .unwrap_or(1);
        out.push(tok(Kind::Punct, &text[i..i + p], i, i + p, space));
        i += p;
        space = false;
    }
    out
}

fn tok(kind: Kind, text: &str, start: usize, end: usize, space_before: bool) -> Token {
    Token {
        kind,
        text: text.to_string(),
        start,
        end,
        interpolated: false,
        space_before,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Syntax;

    fn kinds(src: &str) -> Vec<String> {
        let code = Code::new(src, Syntax::RUBY);
        tokenize(&code)
            .iter()
            .map(|t| match &t.kind {
                Kind::Words(w) => format!("W{w:?}"),
                k => format!("{k:?}:{}", t.text),
            })
            .collect()
    }

    #[test]
    fn symbols_labels_strings_words() {
        assert_eq!(
            kinds("resources :users, only: %i[index show], path: 'people' # x\n"),
            [
                "Ident:resources",
                "Sym:users",
                "Punct:,",
                "Label:only",
                "W[\"index\", \"show\"]",
                "Punct:,",
                "Label:path",
                "Str:people",
                "Newline:\n"
            ]
        );
        assert_eq!(
            kinds("tp.str(%w'a b', %w\"c\")"),
            [
                "Ident:tp",
                "Punct:.",
                "Ident:str",
                "Punct:(",
                "W[\"a\", \"b\"]",
                "Punct:,",
                "W[\"c\"]",
                "Punct:)"
            ]
        );
        assert_eq!(
            kinds("Admin::Users.x?(a ? b : c, :\"x-y\" => 1)"),
            [
                "Const:Admin",
                "Punct:::",
                "Const:Users",
                "Punct:.",
                "Ident:x?",
                "Punct:(",
                "Ident:a",
                "Punct:?",
                "Ident:b",
                "Punct::",
                "Ident:c",
                "Punct:,",
                "Sym:x-y",
                "Punct:=>",
                "Int:1",
                "Punct:)"
            ]
        );
    }

    #[test]
    fn comments_vanish() {
        assert_eq!(kinds("# get '/x'\n=begin\nget\n=end\n"), ["Newline:\n"]);
    }
}
