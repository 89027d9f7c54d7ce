//! A small tokenizer for the brace-and-decorator IDLs (Smithy, TypeSpec):
//! identifiers, strings (`"…"` and `"""` blocks), punctuation, `:=`.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Str(String),
    Punct(char),
    /// `:=`
    Walrus,
}

/// Tokens with their byte offsets; `//` and `/* */` comments dropped.
/// Identifiers are ASCII letters, digits, `_` and the `ident` bytes.
pub fn lex(text: &str, ident: &[u8]) -> Vec<(Tok, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == b',' {
            i += 1;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |end| i + 2 + end + 2);
        } else if c == b'"' {
            let start = i;
            let triple = text[i..].starts_with("\"\"\"");
            let (open, close) = if triple { (3, "\"\"\"") } else { (1, "\"") };
            let mut j = i + open;
            let mut value = String::new();
            loop {
                if j >= bytes.len() {
                    break;
                }
                if bytes[j] == b'\\' {
                    j += 2;
                    continue;
                }
                if bytes[j..].starts_with(close.as_bytes()) {
                    value.push_str(text.get(i + open..j).unwrap_or(""));
                    j += close.len();
                    break;
                }
                j += 1;
            }
            out.push((Tok::Str(value), start));
            i = j.min(bytes.len());
        } else if c == b':' && bytes.get(i + 1) == Some(&b'=') {
            out.push((Tok::Walrus, i));
            i += 2;
        } else if c.is_ascii_alphanumeric() || (c == b'_' || ident.contains(&c)) {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || (bytes[i] == b'_' || ident.contains(&bytes[i])))
            {
                i += 1;
            }
            out.push((Tok::Ident(text[start..i].to_string()), start));
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push((Tok::Punct(ch), i));
            i += ch.len_utf8();
        }
    }
    out
}

pub struct Parser<'a> {
    pub tokens: &'a [(Tok, usize)],
    pub pos: usize,
}

impl Parser<'_> {
    pub fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }

    pub fn next(&mut self) -> Option<Tok> {
        let t = self.tokens.get(self.pos).map(|(t, _)| t.clone());
        self.pos += 1;
        t
    }

    pub fn punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    /// Skip a balanced `(…)`, `{…}` or `[…]` starting here; returns the
    /// tokens inside.
    pub fn balanced(&mut self) -> Vec<Tok> {
        let mut inside = Vec::new();
        let mut depth = 0usize;
        while let Some(t) = self.next() {
            match t {
                Tok::Punct('(' | '{' | '[') => {
                    if depth > 0 {
                        inside.push(t);
                    }
                    depth += 1;
                }
                Tok::Punct(')' | '}' | ']') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                    inside.push(t);
                }
                _ => inside.push(t),
            }
        }
        inside
    }
}
