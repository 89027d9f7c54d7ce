//! A small Swift token stream over the SDK lexer: identifiers, string
//! literals (decoded), numbers and punctuation, comments dropped, with
//! byte offsets and the matching bracket of every `(`, `[` and `{`.

use portolan_plugin_sdk::{Code, SourceFile};

use super::SYNTAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Str,
    Num,
    Punct,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: Kind,
    /// Identifier or punctuation text; the decoded value of a string (the
    /// raw text between the quotes when it is interpolated).
    pub text: String,
    pub start: usize,
    /// The string literal contains `\(…)` interpolation.
    pub interpolated: bool,
}

pub struct Toks {
    pub toks: Vec<Tok>,
    /// For an opening bracket, the index of its closer (and vice versa).
    pub pair: Vec<Option<usize>>,
    lines: Vec<usize>,
}

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl Toks {
    pub fn new(file: &SourceFile) -> Toks {
        Toks::from_source(&file.content)
    }

    pub fn from_source(src: &str) -> Toks {
        let code = Code::new(src, SYNTAX);
        let bytes = src.as_bytes();
        let mut toks = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if code.is_comment(i) || b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if !code.is_code(i) {
                // A string literal (possibly `#"…"#` raw delimiters).
                match code.string_at(i) {
                    Some(lit) if lit.end > i => {
                        let raw = src.get(lit.start..lit.end).unwrap_or("");
                        let interpolated = raw.contains("\\(");
                        // Interpolated literals keep their raw text (between
                        // the quotes) so the expressions can be read.
                        let text = if interpolated {
                            raw.trim_start_matches('"')
                                .trim_end_matches('"')
                                .to_string()
                        } else {
                            lit.value
                        };
                        toks.push(Tok {
                            kind: Kind::Str,
                            text,
                            start: i,
                            interpolated,
                        });
                        i = lit.end;
                    }
                    _ => i += 1,
                }
                continue;
            }
            let start = i;
            let kind = if ident_byte(b) {
                while i < bytes.len() && ident_byte(bytes[i]) && code.is_code(i) {
                    i += 1;
                }
                if b.is_ascii_digit() {
                    Kind::Num
                } else {
                    Kind::Ident
                }
            } else {
                i += 1;
                while i < bytes.len() && !bytes[i].is_ascii() {
                    i += 1;
                }
                Kind::Punct
            };
            toks.push(Tok {
                kind,
                text: src.get(start..i).unwrap_or("").to_string(),
                start,
                interpolated: false,
            });
        }
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
        for (k, b) in bytes.iter().enumerate() {
            if *b == b'\n' {
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
        assert!(t.toks[11].interpolated);
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
