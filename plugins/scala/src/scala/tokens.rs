//! A flat token stream over Scala source: the SDK's C-family
//! [`portolan_plugin_sdk::tokens`] with the Scala dialect (comments
//! dropped, string literals decoded with their interpolator prefix: `s`,
//! `f`, `raw`, `ci`, …), plus each token's line and Scala's bracket pairs
//! (a closer pairs with its opener both ways; openers left unclosed inside
//! it pair with it too).

use portolan_plugin_sdk::tokens::{self, Dialect};
pub use portolan_plugin_sdk::tokens::{Kind, Token};
use portolan_plugin_sdk::{SourceFile, Syntax};

/// Scala: C-like literals (`"""…"""` too), block comments nest.
pub const SCALA: Syntax = Syntax {
    nested_block_comments: true,
    ..Syntax::C_LIKE
};

/// The Scala lexical hooks: `$` in identifiers, backticked identifiers
/// (prefix `` ` ``), string interpolators folded into their literal.
pub const DIALECT: Dialect = Dialect {
    interpolators: &["s", "f", "raw", "ci", "uri", "path", "json", "md", "sql"],
    ..Dialect::JAVA
};

/// The tokens of a file plus the index of each bracket's partner.
pub struct Toks {
    pub toks: Vec<Token>,
    pair: Vec<Option<usize>>,
    lines: Vec<u32>,
}

impl Toks {
    pub fn new(file: &SourceFile) -> Self {
        let toks = tokens::tokenize(&file.code(SCALA), DIALECT);
        let pair = pairs(&toks);
        let lines = toks.iter().map(|t| file.line_of(t.start)).collect();
        Toks { toks, pair, lines }
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
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Kind::Punct && t.text == p)
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
        self.lines
            .get(i)
            .or(self.lines.last())
            .copied()
            .unwrap_or(1)
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
            if self.is(k, sep) {
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
            .is_some_and(|t| t.is('(') || t.is('[') || t.is('{'))
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
        assert_eq!(t.line(10), 2);
    }
}
