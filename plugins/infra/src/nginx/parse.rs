//! nginx configuration syntax: directives (`name arg …;`) and blocks
//! (`name arg … { … }`), `#` comments, quoted arguments and `${var}`.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directive {
    pub name: String,
    pub args: Vec<String>,
    pub line: u32,
    /// The `{ … }` body of a block directive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<Vec<Directive>>,
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Open,
    Close,
    Semi,
}

/// Parse a whole file. The error names the line.
pub fn parse(text: &str) -> Result<Vec<Directive>, String> {
    let tokens = tokenize(text)?;
    let mut pos = 0;
    let body = block(&tokens, &mut pos, 0)?;
    if pos < tokens.len() {
        return Err(format!("unexpected \"}}\" on line {}", tokens[pos].1));
    }
    Ok(body)
}

const MAX_DEPTH: usize = 64;

fn block(tokens: &[(Token, u32)], pos: &mut usize, depth: usize) -> Result<Vec<Directive>, String> {
    if depth > MAX_DEPTH {
        return Err("blocks nested too deeply".into());
    }
    let mut out = Vec::new();
    while let Some((tok, line)) = tokens.get(*pos) {
        match tok {
            Token::Close => return Ok(out),
            Token::Semi => *pos += 1,
            Token::Open => return Err(format!("unexpected \"{{\" on line {line}")),
            Token::Word(name) => {
                let (name, line) = (name.clone(), *line);
                *pos += 1;
                let mut args = Vec::new();
                loop {
                    match tokens.get(*pos) {
                        Some((Token::Word(w), _)) => {
                            args.push(w.clone());
                            *pos += 1;
                        }
                        Some((Token::Semi, _)) => {
                            *pos += 1;
                            out.push(Directive { name, args, line, block: None });
                            break;
                        }
                        Some((Token::Open, _)) => {
                            *pos += 1;
                            let body = block(tokens, pos, depth + 1)?;
                            match tokens.get(*pos) {
                                Some((Token::Close, _)) => *pos += 1,
                                _ => {
                                    return Err(format!(
                                        "unclosed block \"{name}\" opened on line {line}"
                                    ))
                                }
                            }
                            out.push(Directive { name, args, line, block: Some(body) });
                            break;
                        }
                        Some((Token::Close, l)) => {
                            return Err(format!(
                                "directive \"{name}\" on line {line} is not terminated by \";\" (line {l})"
                            ))
                        }
                        None => {
                            return Err(format!(
                                "directive \"{name}\" on line {line} is not terminated by \";\""
                            ))
                        }
                    }
                }
            }
        }
    }
    if depth > 0 {
        return Err("unexpected end of file, expecting \"}\"".into());
    }
    Ok(out)
}

fn tokenize(text: &str) -> Result<Vec<(Token, u32)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '{' => {
                out.push((Token::Open, line));
                i += 1;
            }
            '}' => {
                out.push((Token::Close, line));
                i += 1;
            }
            ';' => {
                out.push((Token::Semi, line));
                i += 1;
            }
            '"' | '\'' => {
                let start_line = line;
                let mut word = String::new();
                i += 1;
                loop {
                    let Some(&ch) = chars.get(i) else {
                        return Err(format!("unterminated string starting on line {start_line}"));
                    };
                    i += 1;
                    match ch {
                        '\\' => {
                            if let Some(&n) = chars.get(i) {
                                if n != c && n != '\\' {
                                    word.push('\\');
                                }
                                word.push(n);
                                i += 1;
                            }
                        }
                        ch if ch == c => break,
                        ch => {
                            if ch == '\n' {
                                line += 1;
                            }
                            word.push(ch);
                        }
                    }
                }
                out.push((Token::Word(word), start_line));
            }
            _ => {
                let mut word = String::new();
                while let Some(&ch) = chars.get(i) {
                    if ch.is_whitespace() || ch == ';' || ch == '}' || ch == '"' || ch == '\'' {
                        break;
                    }
                    if ch == '{' {
                        // `${var}` is part of the word; any other `{` opens a block.
                        if !word.ends_with('$') {
                            break;
                        }
                        while let Some(&v) = chars.get(i) {
                            word.push(v);
                            i += 1;
                            if v == '}' {
                                break;
                            }
                        }
                        continue;
                    }
                    if ch == '\\' {
                        if let Some(&n) = chars.get(i + 1) {
                            word.push('\\');
                            word.push(n);
                            i += 2;
                            continue;
                        }
                    }
                    word.push(ch);
                    i += 1;
                }
                out.push((Token::Word(word), line));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_args_and_lines() {
        let d = parse(
            "http {\n  # c { ;\n  server {\n    listen 80;\n    location = /a { return 200 \"x;}\"; }\n    set $x \"${y}z\";\n  }\n}\n",
        )
        .unwrap();
        let server = &d[0].block.as_ref().unwrap()[0];
        assert_eq!(server.line, 3);
        let body = server.block.as_ref().unwrap();
        assert_eq!(body[1].name, "location");
        assert_eq!(body[1].args, ["=", "/a"]);
        assert_eq!(body[1].line, 5);
        assert_eq!(body[1].block.as_ref().unwrap()[0].args, ["200", "x;}"]);
        assert_eq!(body[2].args, ["$x", "${y}z"]);
    }

    #[test]
    fn errors_name_lines() {
        assert!(parse("server {\n listen 80;\n")
            .unwrap_err()
            .contains("end of file"));
        assert!(parse("server { listen 80 }")
            .unwrap_err()
            .contains("not terminated"));
        assert!(parse("a;\n}\n").unwrap_err().contains("line 2"));
        assert!(parse("a \"x\n").unwrap_err().contains("line 1"));
        assert!(parse("").unwrap().is_empty());
    }
}
