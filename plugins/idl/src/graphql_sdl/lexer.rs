//! GraphQL tokens (October 2021 spec, §2.1): names, punctuators, strings and
//! block strings (descriptions), numbers; commas, whitespace and `#` comments
//! are insignificant and dropped.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind<'a> {
    Name(&'a str),
    /// `! $ & ( ) : = @ [ ] { | }`, and `.` for `...`.
    Punct(u8),
    /// A string or block string (a description, or a default value).
    Str,
    /// A number or any character GraphQL does not define.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind<'a>,
    /// Byte offset of the first character.
    pub at: usize,
}

/// A lexical error: where, and what.
#[derive(Debug, PartialEq, Eq)]
pub struct LexError {
    pub at: usize,
    pub message: &'static str,
}

pub fn tokenize(src: &str) -> Result<Vec<Token<'_>>, LexError> {
    let s = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | b',' => i += 1,
            // Byte-order mark.
            0xEF if s.get(i..i + 3) == Some(&[0xEF, 0xBB, 0xBF]) => i += 3,
            b'#' => {
                while i < s.len() && s[i] != b'\n' && s[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' if s.get(i..i + 3) == Some(b"\"\"\"") => {
                let start = i;
                i += 3;
                loop {
                    match s.get(i) {
                        None => {
                            return Err(LexError {
                                at: start,
                                message: "unterminated block string",
                            })
                        }
                        Some(b'\\') if s.get(i + 1..i + 4) == Some(b"\"\"\"") => i += 4,
                        Some(b'"') if s.get(i..i + 3) == Some(b"\"\"\"") => {
                            i += 3;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
                out.push(Token {
                    kind: Kind::Str,
                    at: start,
                });
            }
            b'"' => {
                let start = i;
                i += 1;
                loop {
                    match s.get(i) {
                        None | Some(b'\n' | b'\r') => {
                            return Err(LexError {
                                at: start,
                                message: "unterminated string",
                            })
                        }
                        Some(b'\\') => i += 2,
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
                out.push(Token {
                    kind: Kind::Str,
                    at: start,
                });
            }
            b'_' | b'a'..=b'z' | b'A'..=b'Z' => {
                let start = i;
                while i < s.len() && (s[i] == b'_' || s[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                out.push(Token {
                    kind: Kind::Name(&src[start..i]),
                    at: start,
                });
            }
            b'!' | b'$' | b'&' | b'(' | b')' | b':' | b'=' | b'@' | b'[' | b']' | b'{' | b'|'
            | b'}' => {
                out.push(Token {
                    kind: Kind::Punct(b),
                    at: i,
                });
                i += 1;
            }
            b'.' => {
                out.push(Token {
                    kind: Kind::Punct(b'.'),
                    at: i,
                });
                while i < s.len() && s[i] == b'.' {
                    i += 1;
                }
            }
            _ => {
                let start = i;
                if b == b'-' || b.is_ascii_digit() {
                    i += 1;
                    while i < s.len()
                        && (s[i].is_ascii_alphanumeric() || matches!(s[i], b'.' | b'+' | b'-'))
                    {
                        i += 1;
                    }
                } else {
                    // One whole (possibly multi-byte) character.
                    i += src[i..].chars().next().map_or(1, char::len_utf8);
                }
                out.push(Token {
                    kind: Kind::Other,
                    at: start,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Kind<'_>> {
        tokenize(src).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn tokens() {
        assert_eq!(
            kinds("\u{feff}\"\"\"doc \\\"\"\" x\"\"\" type Q { a(b: [Int!]! = -1.5e3, c: \"s\"): T } # type X {"),
            [
                Kind::Str,
                Kind::Name("type"),
                Kind::Name("Q"),
                Kind::Punct(b'{'),
                Kind::Name("a"),
                Kind::Punct(b'('),
                Kind::Name("b"),
                Kind::Punct(b':'),
                Kind::Punct(b'['),
                Kind::Name("Int"),
                Kind::Punct(b'!'),
                Kind::Punct(b']'),
                Kind::Punct(b'!'),
                Kind::Punct(b'='),
                Kind::Other,
                Kind::Name("c"),
                Kind::Punct(b':'),
                Kind::Str,
                Kind::Punct(b')'),
                Kind::Punct(b':'),
                Kind::Name("T"),
                Kind::Punct(b'}'),
            ]
        );
        assert_eq!(
            kinds("...on Foo"),
            [Kind::Punct(b'.'), Kind::Name("on"), Kind::Name("Foo")]
        );
        assert_eq!(kinds("é"), [Kind::Other]);
    }

    #[test]
    fn unterminated() {
        assert_eq!(tokenize("type Q { \"open\n }").unwrap_err().at, 9);
        assert_eq!(
            tokenize("\"\"\" never closed").unwrap_err().message,
            "unterminated block string"
        );
        assert!(tokenize("\"a\\").is_err());
    }
}
