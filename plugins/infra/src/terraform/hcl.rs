//! A small HCL (Terraform) reader: blocks with labels, attributes, and the
//! expression forms route declarations use — strings (with `${…}`
//! interpolation kept as written), references (`aws_x.name.id`) and objects
//! (`{ "k" = v }`). Comments (`#`, `//`, `/* */`) and heredocs are skipped
//! correctly; anything else is kept as raw text.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expr {
    Str(String),
    /// Object keys with their values.
    Object(Vec<(String, Expr)>),
    /// Any other expression, as written (whitespace squeezed).
    Raw(String),
}

impl Expr {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Expr::Str(s) => Some(s),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub kind: String,
    pub labels: Vec<String>,
    pub line: u32,
    pub attrs: Vec<(String, Expr)>,
    pub blocks: Vec<Block>,
}

impl Block {
    pub fn attr(&self, name: &str) -> Option<&Expr> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, e)| e)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    /// Numbers, operators and other punctuation.
    Other(String),
    Open(char),
    Close(char),
    Eq,
    Newline,
}

struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
    line: u32,
}

/// Parse a file into its top-level blocks (top-level attributes, as in
/// `.tfvars`, are ignored). The error names the line.
pub fn parse(text: &str) -> Result<Vec<Block>, String> {
    let mut lx = Lexer {
        s: text.as_bytes(),
        pos: 0,
        line: 1,
    };
    let mut toks = Vec::new();
    while let Some(t) = lx.next()? {
        toks.push(t);
    }
    let mut p = Parser { toks, pos: 0 };
    let (_, blocks) = p.body(0, None)?;
    Ok(blocks)
}

impl Lexer<'_> {
    fn peek(&self, off: usize) -> Option<u8> {
        self.s.get(self.pos + off).copied()
    }

    fn next(&mut self) -> Result<Option<(Tok, u32)>, String> {
        loop {
            let Some(c) = self.peek(0) else {
                return Ok(None);
            };
            match c {
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    return Ok(Some((Tok::Newline, self.line - 1)));
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'#' => self.skip_line(),
                b'/' if self.peek(1) == Some(b'/') => self.skip_line(),
                b'/' if self.peek(1) == Some(b'*') => {
                    let start = self.line;
                    self.pos += 2;
                    loop {
                        match self.peek(0) {
                            None => return Err(format!("unclosed comment opened on line {start}")),
                            Some(b'*') if self.peek(1) == Some(b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(b) => {
                                if b == b'\n' {
                                    self.line += 1;
                                }
                                self.pos += 1;
                            }
                        }
                    }
                }
                _ => break,
            }
        }
        let line = self.line;
        let c = self.peek(0).unwrap_or(b' ');
        let tok = match c {
            b'"' => Tok::Str(self.string()?),
            b'<' if self.peek(1) == Some(b'<') && self.heredoc_start() => Tok::Str(self.heredoc()?),
            b'{' | b'[' | b'(' => {
                self.pos += 1;
                Tok::Open(c as char)
            }
            b'}' | b']' | b')' => {
                self.pos += 1;
                Tok::Close(c as char)
            }
            b'=' if !matches!(self.peek(1), Some(b'=' | b'>')) => {
                self.pos += 1;
                Tok::Eq
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.pos;
                while self
                    .peek(0)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                {
                    self.pos += 1;
                }
                Tok::Ident(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
            }
            _ => {
                let start = self.pos;
                self.pos += 1;
                while self
                    .peek(0)
                    .is_some_and(|b| b.is_ascii_digit() || b == b'.')
                    && c.is_ascii_digit()
                {
                    self.pos += 1;
                }
                // Keep multi-byte characters whole.
                while self.pos < self.s.len() && (self.s[self.pos] & 0xC0) == 0x80 {
                    self.pos += 1;
                }
                Tok::Other(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
            }
        };
        Ok(Some((tok, line)))
    }

    fn skip_line(&mut self) {
        while self.peek(0).is_some_and(|b| b != b'\n') {
            self.pos += 1;
        }
    }

    /// A quoted template; `${…}` and `%{…}` kept as written, including
    /// quotes nested inside them.
    fn string(&mut self) -> Result<String, String> {
        let start_line = self.line;
        self.pos += 1;
        let mut out = Vec::new();
        let mut depth = 0usize;
        loop {
            let Some(b) = self.peek(0) else {
                return Err(format!("unterminated string starting on line {start_line}"));
            };
            match b {
                b'\\' if depth == 0 => {
                    let n = self.peek(1).unwrap_or(b'\\');
                    out.push(match n {
                        b'n' => b'\n',
                        b't' => b'\t',
                        other => other,
                    });
                    self.pos += 2;
                    continue;
                }
                b'"' if depth == 0 => {
                    self.pos += 1;
                    break;
                }
                b'\n' if depth == 0 => {
                    return Err(format!("unterminated string starting on line {start_line}"));
                }
                b'$' | b'%' if self.peek(1) == Some(b'{') => {
                    depth += 1;
                    out.extend_from_slice(&[b, b'{']);
                    self.pos += 2;
                    continue;
                }
                b'{' if depth > 0 => depth += 1,
                b'}' if depth > 0 => depth -= 1,
                b'\n' => self.line += 1,
                _ => {}
            }
            out.push(b);
            self.pos += 1;
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn heredoc_start(&self) -> bool {
        let mut i = self.pos + 2;
        if self.s.get(i) == Some(&b'-') {
            i += 1;
        }
        self.s
            .get(i)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    }

    fn heredoc(&mut self) -> Result<String, String> {
        let start_line = self.line;
        self.pos += 2;
        if self.peek(0) == Some(b'-') {
            self.pos += 1;
        }
        let start = self.pos;
        while self
            .peek(0)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.pos += 1;
        }
        let marker = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
        self.skip_line();
        let mut body = String::new();
        while self.pos < self.s.len() {
            self.pos += 1; // the newline
            self.line += 1;
            let ls = self.pos;
            self.skip_line();
            let line = String::from_utf8_lossy(&self.s[ls..self.pos]).into_owned();
            if line.trim() == marker {
                return Ok(body);
            }
            body.push_str(&line);
            body.push('\n');
        }
        Err(format!(
            "unterminated heredoc <<{marker} starting on line {start_line}"
        ))
    }
}

/// The attributes and nested blocks of a body.
type Body = (Vec<(String, Expr)>, Vec<Block>);

struct Parser {
    toks: Vec<(Tok, u32)>,
    pos: usize,
}

const MAX_DEPTH: usize = 64;

impl Parser {
    fn peek(&self) -> Option<&(Tok, u32)> {
        self.toks.get(self.pos)
    }

    /// Items until `}` (nested) or the end (top level).
    fn body(&mut self, depth: usize, opened: Option<u32>) -> Result<Body, String> {
        if depth > MAX_DEPTH {
            return Err("blocks nested too deeply".into());
        }
        let mut attrs = Vec::new();
        let mut blocks = Vec::new();
        loop {
            let Some((tok, line)) = self.peek().cloned() else {
                return match opened {
                    Some(l) => Err(format!("unclosed block opened on line {l}")),
                    None => Ok((attrs, blocks)),
                };
            };
            match tok {
                Tok::Newline => self.pos += 1,
                Tok::Close('}') if opened.is_some() => {
                    self.pos += 1;
                    return Ok((attrs, blocks));
                }
                Tok::Ident(name) => {
                    self.pos += 1;
                    match self.peek().map(|t| t.0.clone()) {
                        Some(Tok::Eq) => {
                            self.pos += 1;
                            let expr = self.expr(line)?;
                            attrs.push((name, expr));
                        }
                        _ => {
                            let mut labels = Vec::new();
                            loop {
                                match self.peek().map(|t| t.0.clone()) {
                                    Some(Tok::Str(s)) | Some(Tok::Ident(s)) => {
                                        labels.push(s);
                                        self.pos += 1;
                                    }
                                    Some(Tok::Open('{')) => {
                                        self.pos += 1;
                                        break;
                                    }
                                    _ => {
                                        return Err(format!(
                                            "line {line}: expected `=` or a block after `{name}`"
                                        ))
                                    }
                                }
                            }
                            let (a, b) = self.body(depth + 1, Some(line))?;
                            blocks.push(Block {
                                kind: name,
                                labels,
                                line,
                                attrs: a,
                                blocks: b,
                            });
                        }
                    }
                }
                _ => return Err(format!("line {line}: unexpected token")),
            }
        }
    }

    /// An attribute value: tokens up to the end of the line at bracket
    /// depth 0.
    fn expr(&mut self, line: u32) -> Result<Expr, String> {
        let start = self.pos;
        let mut stack: Vec<char> = Vec::new();
        while let Some((tok, _)) = self.peek() {
            match tok {
                Tok::Newline if stack.is_empty() => break,
                Tok::Close('}') if stack.is_empty() => break,
                Tok::Open(c) => stack.push(*c),
                Tok::Close(c) => {
                    let want = match stack.pop() {
                        Some('{') => '}',
                        Some('[') => ']',
                        Some(_) => ')',
                        None => return Err(format!("line {line}: unbalanced `{c}`")),
                    };
                    if *c != want {
                        return Err(format!("line {line}: unbalanced `{c}`"));
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        if !stack.is_empty() {
            return Err(format!("line {line}: unclosed bracket in expression"));
        }
        Ok(to_expr(&self.toks[start..self.pos]))
    }
}

fn to_expr(toks: &[(Tok, u32)]) -> Expr {
    let toks: Vec<&Tok> = toks
        .iter()
        .map(|(t, _)| t)
        .filter(|t| **t != Tok::Newline)
        .collect();
    match toks.as_slice() {
        [Tok::Str(s)] => Expr::Str(s.clone()),
        [Tok::Open('{'), inner @ .., Tok::Close('}')] => Expr::Object(object_items(inner)),
        _ => Expr::Raw(toks.iter().map(|t| raw(t)).collect()),
    }
}

/// `key = value` / `key: value` items separated by commas or newlines.
fn object_items(toks: &[&Tok]) -> Vec<(String, Expr)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let key = match toks[i] {
            Tok::Str(s) | Tok::Ident(s) => s.clone(),
            _ => {
                i += 1;
                continue;
            }
        };
        let sep = toks.get(i + 1);
        if !matches!(sep, Some(Tok::Eq)) && !matches!(sep, Some(Tok::Other(o)) if o == ":") {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        let mut depth = 0i32;
        while j < toks.len() {
            match toks[j] {
                Tok::Open(_) => depth += 1,
                Tok::Close(_) => depth -= 1,
                Tok::Other(o) if o == "," && depth == 0 => break,
                Tok::Str(_) | Tok::Ident(_) if depth == 0 && j > i + 2 && is_key_start(toks, j) => {
                    break
                }
                _ => {}
            }
            j += 1;
        }
        let value: Vec<(Tok, u32)> = toks[i + 2..j].iter().map(|t| ((*t).clone(), 0)).collect();
        out.push((key, to_expr(&value)));
        i = if matches!(toks.get(j), Some(Tok::Other(o)) if o == ",") {
            j + 1
        } else {
            j
        };
    }
    out
}

/// A key followed by `=` or `:` starts the next item (newline-separated
/// objects lose their newlines in `to_expr`).
fn is_key_start(toks: &[&Tok], j: usize) -> bool {
    matches!(toks.get(j + 1), Some(Tok::Eq))
        || matches!(toks.get(j + 1), Some(Tok::Other(o)) if o == ":")
}

fn raw(t: &Tok) -> String {
    match t {
        Tok::Ident(s) | Tok::Other(s) => s.clone(),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Open(c) | Tok::Close(c) => c.to_string(),
        Tok::Eq => "=".into(),
        Tok::Newline => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_attributes_and_objects() {
        let text = r#"
# comment { "
resource "aws_api_gateway_method" "get" {
  rest_api_id = aws_api_gateway_rest_api.api.id // trailing
  http_method = "GET"
  request_parameters = {
    "method.request.querystring.limit" = true
    "method.request.header.X-Key"      = false
  }
  /* block
     comment */
  tags = { a = "${var.x}-y", b = 1 }
  policy = <<-EOF
    { "x": "}" }
  EOF
  lifecycle {
    create_before_destroy = true
  }
}
"#;
        let blocks = parse(text).unwrap();
        let b = &blocks[0];
        assert_eq!(b.kind, "resource");
        assert_eq!(b.labels, ["aws_api_gateway_method", "get"]);
        assert_eq!(b.line, 3);
        assert_eq!(
            b.attr("rest_api_id"),
            Some(&Expr::Raw("aws_api_gateway_rest_api.api.id".into()))
        );
        assert_eq!(b.attr("http_method").and_then(Expr::as_str), Some("GET"));
        let Some(Expr::Object(items)) = b.attr("request_parameters") else {
            panic!()
        };
        let keys: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "method.request.querystring.limit",
                "method.request.header.X-Key"
            ]
        );
        let Some(Expr::Object(tags)) = b.attr("tags") else {
            panic!()
        };
        assert_eq!(tags[0], ("a".to_string(), Expr::Str("${var.x}-y".into())));
        assert_eq!(b.blocks[0].kind, "lifecycle");
    }

    #[test]
    fn errors() {
        assert!(parse("resource \"a\" \"b\" {\n  x = 1\n")
            .unwrap_err()
            .contains("line 1"));
        assert!(parse("a = \"x\n").unwrap_err().contains("unterminated"));
        assert!(parse("a = (1\n").is_err());
        assert!(parse("x = <<EOF\nabc\n").is_err());
        assert!(parse("").unwrap().is_empty());
    }
}
