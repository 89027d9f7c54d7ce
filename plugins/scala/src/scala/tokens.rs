//! A flat token stream over Scala source: comments dropped, string literals
//! decoded (with their interpolator prefix: `s`, `f`, `raw`, `ci`, …),
//! byte offsets and lines kept, brackets paired.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::{Code, SourceFile, Syntax};

/// Scala: C-like literals (`"""…"""` too), block comments nest.
pub const SCALA: Syntax = Syntax {
    nested_block_comments: true,
    ..Syntax::C_LIKE
};

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
    /// Interpolator of a string literal (`s` in `s"/u/$id"`), else empty.
    pub prefix: String,
    pub start: usize,
    pub line: u32,
    /// A line break separates this token from the previous one.
    pub nl: bool,
}

impl Token {
    pub fn is(&self, punct: &str) -> bool {
        self.kind == Kind::Punct && self.text == punct
    }
    pub fn is_ident(&self, word: &str) -> bool {
        self.kind == Kind::Ident && self.text == word
    }
    pub fn is_str(&self) -> bool {
        self.kind == Kind::Str
    }
}

/// The tokens of a file plus the index of each bracket's partner.
pub struct Toks {
    pub toks: Vec<Token>,
    pair: Vec<Option<usize>>,
}

impl Toks {
    pub fn new(file: &SourceFile) -> Self {
        let code = file.code(SCALA);
        let toks = tokenize(&code, file);
        let pair = pairs(&toks);
        Toks { toks, pair }
    }

    pub fn len(&self) -> usize {
        self.toks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }

    pub fn get(&self, i: usize) -> Option<&Token> {
        self.toks.get(i)
    }

    /// Is token `i` the punctuation `p`?
    pub fn is(&self, i: usize, p: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.is(p))
    }

    pub fn is_ident(&self, i: usize, w: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.is_ident(w))
    }

    pub fn ident(&self, i: usize) -> Option<&str> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.as_str())
    }

    pub fn str_at(&self, i: usize) -> Option<&str> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Str)
            .map(|t| t.text.as_str())
    }

    pub fn line(&self, i: usize) -> u32 {
        self.toks.get(i).or(self.toks.last()).map_or(1, |t| t.line)
    }

    /// The partner of the bracket at `i` (`(`↔`)`, `[`↔`]`, `{`↔`}`); an
    /// unclosed opener pairs with the end of the stream.
    pub fn close(&self, i: usize) -> Option<usize> {
        self.pair.get(i).copied().flatten()
    }

    /// Split `start..end` at top-level commas.
    pub fn split(&self, start: usize, end: usize, sep: &str) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut piece = start;
        let end = end.min(self.toks.len());
        let mut k = start;
        while k < end {
            if self.is_open(k) {
                k = self.close(k).map_or(end, |c| c + 1);
                continue;
            }
            if self.toks[k].is(sep) {
                if piece < k {
                    out.push(piece..k);
                }
                piece = k + 1;
            }
            k += 1;
        }
        if piece < end {
            out.push(piece..end);
        }
        out
    }

    pub fn is_open(&self, i: usize) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.is("(") || t.is("[") || t.is("{"))
    }

    /// Skip a bracket group at `i` (returns the index after it), or `i`.
    pub fn skip_group(&self, i: usize) -> usize {
        if self.is_open(i) {
            self.close(i).map_or(self.len(), |c| c + 1)
        } else {
            i
        }
    }

    /// A dotted name at `i` (`a.b.C`, type arguments and call arguments
    /// between parts skipped); returns its parts and the index after it.
    pub fn dotted(&self, i: usize) -> Option<(Vec<String>, usize)> {
        let mut k = i;
        if self.is_ident(k, "new") {
            k += 1;
        }
        let first = self.ident(k)?;
        let mut parts = vec![first.to_string()];
        k += 1;
        loop {
            while self.is(k, "[") || self.is(k, "(") {
                k = self.skip_group(k);
            }
            if self.is(k, ".") {
                if let Some(name) = self.ident(k + 1) {
                    parts.push(name.to_string());
                    k += 2;
                    continue;
                }
            }
            break;
        }
        Some((parts, k))
    }
}

fn pairs(toks: &[Token]) -> Vec<Option<usize>> {
    let mut pair = vec![None; toks.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => stack.push(i),
            ")" | "]" | "}" => {
                let want = match t.text.as_str() {
                    ")" => "(",
                    "]" => "[",
                    _ => "{",
                };
                // Pop to the matching opener; unmatched closers are ignored.
                if let Some(pos) = stack.iter().rposition(|&o| toks[o].text == want) {
                    for &o in &stack[pos + 1..] {
                        pair[o] = Some(i);
                    }
                    let o = stack[pos];
                    stack.truncate(pos);
                    pair[o] = Some(i);
                    pair[i] = Some(o);
                }
            }
            _ => {}
        }
    }
    for o in stack {
        pair[o] = Some(toks.len());
    }
    pair
}

const INTERPOLATORS: &[&str] = &["s", "f", "raw", "ci", "uri", "path", "json", "md", "sql"];

fn tokenize(code: &Code, file: &SourceFile) -> Vec<Token> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out: Vec<Token> = Vec::new();
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
            match code.string_at(i) {
                Some(lit) if lit.end > i => {
                    // `s"…"`: the interpolator is the identifier glued to it.
                    let mut prefix = String::new();
                    if let Some(last) = out.last() {
                        if last.kind == Kind::Ident
                            && last.start + last.text.len() == i
                            && INTERPOLATORS.contains(&last.text.as_str())
                        {
                            prefix = last.text.clone();
                        }
                    }
                    let (start, line, tok_nl) = if prefix.is_empty() {
                        (i, file.line_of(i), nl)
                    } else {
                        let last = out.pop();
                        last.map_or((i, file.line_of(i), nl), |t| (t.start, t.line, t.nl))
                    };
                    out.push(Token {
                        kind: Kind::Str,
                        text: lit.value,
                        prefix,
                        start,
                        line,
                        nl: tok_nl,
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
                && (is_ident_byte(bytes[i])
                    || bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
            {
                i += 1;
            }
            Kind::Num
        } else if is_ident_byte(b) || b == b'$' {
            while i < bytes.len() && (is_ident_byte(bytes[i]) || bytes[i] == b'$') {
                i += 1;
            }
            Kind::Ident
        } else if b == b'`' {
            // Backticked identifier (or stable identifier pattern).
            let close = text[i + 1..]
                .find(['`', '\n'])
                .map_or(bytes.len(), |p| i + 1 + p);
            i = (close + 1).min(bytes.len());
            out.push(Token {
                kind: Kind::Ident,
                text: text[start + 1..close.min(bytes.len())].to_string(),
                prefix: "`".into(),
                start,
                line: file.line_of(start),
                nl,
            });
            nl = false;
            continue;
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            i += len;
            Kind::Punct
        };
        out.push(Token {
            kind,
            text: text[start..i].to_string(),
            prefix: String::new(),
            start,
            line: file.line_of(start),
            nl,
        });
        nl = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolated_strings_nested_comments_and_pairs() {
        let src = "val a = s\"/u/$id\" /* x /* y */ z */ f(\"\"\"t\"\"\", ci\"X-Token\")\n{ ( }";
        let t = Toks::new(&SourceFile::new("a.scala", src));
        let texts: Vec<_> = t.toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            ["val", "a", "=", "/u/$id", "f", "(", "t", ",", "X-Token", ")", "{", "(", "}"]
        );
        assert_eq!(t.toks[3].prefix, "s");
        assert_eq!(t.toks[8].prefix, "ci");
        assert_eq!(t.close(5), Some(9));
        assert_eq!(t.close(10), Some(12));
        assert!(t.toks[10].nl);
        assert_eq!(t.toks[10].line, 2);
    }
}
