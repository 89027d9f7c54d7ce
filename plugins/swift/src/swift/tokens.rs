//! A small Swift token stream: the SDK's C-family
//! [`portolan_plugin_sdk::tokens`] (identifiers, decoded string literals,
//! numbers and punctuation, comments dropped, byte offsets) with Swift's
//! interpolation hook, plus each token's line and the matching bracket of
//! every `(`, `[` and `{`.

use portolan_plugin_sdk::tokens::{self, Dialect};
pub use portolan_plugin_sdk::tokens::{Kind, Token as Tok};
use portolan_plugin_sdk::{Code, SourceFile};

use super::SYNTAX;

/// Swift's lexical hooks: a literal holding `\(…)` keeps its raw text
/// (between the quotes) and is marked [`Tok::interp`].
pub const DIALECT: Dialect = Dialect {
    raw_interpolation: "\\(",
    ..Dialect::PLAIN
};

pub struct Toks {
    pub toks: Vec<Tok>,
    /// For an opening bracket, the index of its closer (and vice versa).
    pub pair: Vec<Option<usize>>,
    lines: Vec<usize>,
}

impl Toks {
    pub fn new(file: &SourceFile) -> Toks {
        Toks::from_source(&file.content)
    }

    pub fn from_source(src: &str) -> Toks {
        let toks = tokens::tokenize(&Code::new(src, SYNTAX), DIALECT);
        let mut pair = vec![None; toks.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (k, t) in toks.iter().enumerate() {
            if t.kind != Kind::Punct {
                continue;
            }
            match t.text.as_str() {
                "(" | "[" | "{" => stack.push(k),
                ")" | "]" | "}" => {
                    let want = match t.text.as_str() {
                        ")" => "(",
                        "]" => "[",
                        _ => "{",
                    };
                    // Unbalanced input: drop unmatched openers of other kinds.
                    while let Some(&o) = stack.last() {
                        stack.pop();
                        if toks[o].text == want {
                            pair[o] = Some(k);
                            pair[k] = Some(o);
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        let mut lines = vec![0];
        for (k, b) in src.bytes().enumerate() {
            if b == b'\n' {
                lines.push(k + 1);
            }
        }
        Toks { toks, pair, lines }
    }

    pub fn len(&self) -> usize {
        self.toks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }

    pub fn get(&self, k: usize) -> Option<&Tok> {
        self.toks.get(k)
    }

    /// Is token `k` the punctuation `p`?
    pub fn punct(&self, k: usize, p: &str) -> bool {
        self.toks
            .get(k)
            .is_some_and(|t| t.kind == Kind::Punct && t.text == p)
    }

    /// Is token `k` the identifier (or keyword) `w`?
    pub fn word(&self, k: usize, w: &str) -> bool {
        self.toks
            .get(k)
            .is_some_and(|t| t.kind == Kind::Ident && t.text == w)
    }

    pub fn ident(&self, k: usize) -> Option<&str> {
        self.toks
            .get(k)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.as_str())
    }

    pub fn string(&self, k: usize) -> Option<&Tok> {
        self.toks.get(k).filter(|t| t.kind == Kind::Str)
    }

    /// The closer of the bracket opened at `k`.
    pub fn close(&self, k: usize) -> Option<usize> {
        self.pair.get(k).copied().flatten().filter(|c| *c > k)
    }

    /// 1-based line of token `k`.
    pub fn line(&self, k: usize) -> u32 {
        let off = self.toks.get(k).map_or(0, |t| t.start);
        let n = self.lines.partition_point(|s| *s <= off);
        n.max(1) as u32
    }

    /// Top-level comma-separated pieces of the `(` or `[` opened at `open`,
    /// as token ranges (empty pieces dropped).
    pub fn args(&self, open: usize) -> Vec<std::ops::Range<usize>> {
        let Some(close) = self.close(open).filter(|_| !self.punct(open, "{")) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut piece = open + 1;
        let mut k = open + 1;
        while k < close {
            if let Some(c) = self.close(k) {
                k = c + 1;
                continue;
            }
            if self.punct(k, ",") {
                if k > piece {
                    out.push(piece..k);
                }
                piece = k + 1;
            }
            k += 1;
        }
        if close > piece {
            out.push(piece..close);
        }
        out
    }

    /// `label: value` → (label, value range); otherwise `None`.
    pub fn labeled(&self, r: &std::ops::Range<usize>) -> Option<(&str, std::ops::Range<usize>)> {
        let name = self.ident(r.start)?;
        (self.punct(r.start + 1, ":") && r.start + 2 <= r.end).then(|| (name, r.start + 2..r.end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_comments_strings_and_lines() {
        let src = "/* a /* b */ app.get(\"x\") */\napp.get(\"users\", \":id\") // app.get(\"y\")\nlet s = \"a\\(b)c\"\n";
        let t = Toks::from_source(src);
        let texts: Vec<&str> = t.toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts[..11],
            ["app", ".", "get", "(", "users", ",", ":id", ")", "let", "s", "="]
        );
        assert_eq!(texts.len(), 12);
        assert_eq!(t.line(0), 2);
        assert_eq!(t.line(8), 3);
        assert!(t.toks[11].interp);
        assert_eq!(t.close(3), Some(7));
        assert_eq!(t.args(3), vec![4..5, 6..7]);
    }

    #[test]
    fn apostrophes_are_not_char_literals() {
        let t = Toks::from_source("// don't\napp.get(\"a\")\n");
        assert_eq!(t.toks[0].text, "app");
        assert_eq!(t.string(4).map(|s| s.text.as_str()), Some("a"));
    }
}
