//! Work-arounds for the Ruby and Crystal constructs the lexer does not
//! know ([`ruby`] and [`crystal`] apply them).
//!
//! * **Heredocs** (`<<~SQL`, `<<-EOS`, `<<HTML`, `<<~'X'`): the body is
//!   blanked (spaces, newlines kept) and the opener becomes an empty string
//!   literal `""`, so quotes, `#` and `end` inside a heredoc cannot derail
//!   the lexer or the outline.
//! * **Regular expression literals** (`/\/'x/`): lexed with the SDK's
//!   regex-literal rule ([`SYNTAX`]); their bytes are neither code nor
//!   string.
//!
//! * **Crystal macro tags** (`{% if flag?(:x) %}` … `{% end %}`, Crystal
//!   only): blanked, so a macro's `{% end %}` cannot close a block.
//!
//! The cleaned text has exactly the length of the source, so offsets and
//! lines are unchanged.

use crate::{lex::Code, Syntax};

/// Ruby (and Crystal, which shares its lexical shape) with regular
/// expression literals.
pub const SYNTAX: Syntax = Syntax {
    regex_literals: true,
    ..Syntax::RUBY
};

/// Upper bound on heredocs handled per file (each costs one re-lex).
const MAX_HEREDOCS: usize = 256;

/// A Ruby source with heredoc bodies blanked (see the module doc).
pub fn ruby(src: &str) -> String {
    heredocs(src)
}

/// A Crystal source with heredoc bodies and `{% … %}` macro tags blanked
/// (see the module doc).
pub fn crystal(src: &str) -> String {
    macro_tags(&heredocs(src))
}

/// Blank `{% … %}` tags in code (newlines kept).
fn macro_tags(src: &str) -> String {
    if !src.contains("{%") {
        return src.to_string();
    }
    let code = Code::new(src, SYNTAX);
    let mut buf = src.as_bytes().to_vec();
    let mut i = 0;
    while i + 1 < buf.len() {
        if buf[i] == b'{' && buf[i + 1] == b'%' && code.is_code(i) {
            let Some(close) = src[i + 2..].find("%}") else {
                break;
            };
            let end = i + 2 + close + 2;
            for b in &mut buf[i..end] {
                if b.is_ascii() && *b != b'\n' {
                    *b = b' ';
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    String::from_utf8(buf).unwrap_or_else(|_| src.to_string())
}

fn heredocs(src: &str) -> String {
    if !src.contains("<<") {
        return src.to_string();
    }
    let mut buf = src.as_bytes().to_vec();
    let mut from = 0;
    for _ in 0..MAX_HEREDOCS {
        let text = String::from_utf8_lossy(&buf).into_owned();
        let code = Code::new(&text, SYNTAX);
        let Some((at, opener_len, id, squiggly)) = next_opener(&code, text.as_bytes(), from) else {
            break;
        };
        // Body: from the line after the opener to the terminator line.
        let bytes = text.as_bytes();
        let body_start = match bytes[at..].iter().position(|&b| b == b'\n') {
            Some(p) => at + p + 1,
            None => break,
        };
        let mut line = body_start;
        let mut end = bytes.len();
        while line < bytes.len() {
            let eol = bytes[line..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |p| line + p);
            let content = text[line..eol].trim_end_matches('\r');
            let content = if squiggly {
                content.trim_start()
            } else {
                content
            };
            if content == id {
                end = eol;
                break;
            }
            line = eol + 1;
        }
        for b in &mut buf[body_start..end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        buf[at] = b'"';
        buf[at + 1] = b'"';
        for b in &mut buf[at + 2..at + opener_len] {
            *b = b' ';
        }
        from = at + opener_len;
    }
    // Only ASCII bytes were written over whole lines / the ASCII opener.
    String::from_utf8(buf).unwrap_or_else(|_| src.to_string())
}

/// The next heredoc opener in code at or after `from`: (offset, length,
/// identifier, `~`/`-` form).
fn next_opener(code: &Code<'_>, bytes: &[u8], from: usize) -> Option<(usize, usize, String, bool)> {
    let mut i = from;
    while i + 2 < bytes.len() {
        if bytes[i] == b'<' && bytes[i + 1] == b'<' && code.is_code(i) {
            if let Some(found) = opener_at(bytes, i) {
                return Some(found);
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    None
}

fn opener_at(bytes: &[u8], i: usize) -> Option<(usize, usize, String, bool)> {
    // `x <<y` / `a<<b` are shifts or appends; a heredoc follows an operator,
    // `(`, `,`, `=` or a method name and a space.
    if i > 0 && bytes[i - 1] == b'<' {
        return None;
    }
    let mut k = i + 2;
    let flag = matches!(bytes.get(k), Some(b'~' | b'-'));
    if flag {
        k += 1;
    }
    let quote = match bytes.get(k) {
        Some(q @ (b'\'' | b'"' | b'`')) => {
            k += 1;
            Some(*q)
        }
        _ => None,
    };
    let id_start = k;
    while k < bytes.len() && (bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_') {
        k += 1;
    }
    if k == id_start || bytes[id_start].is_ascii_digit() {
        return None;
    }
    let id = String::from_utf8_lossy(&bytes[id_start..k]).into_owned();
    if let Some(q) = quote {
        if bytes.get(k) != Some(&q) {
            return None;
        }
        k += 1;
    } else if !flag && !bytes[id_start].is_ascii_uppercase() {
        // `<<word` without `~`/`-` and quotes: only upper-case identifiers.
        return None;
    }
    if !flag && quote.is_none() {
        // `list <<CONST` would be an append with odd spacing: require the
        // usual heredoc context (space or opener before, none after `<<`).
        let before = i.checked_sub(1).map(|p| bytes[p]);
        if !matches!(
            before,
            None | Some(b' ' | b'\t' | b'(' | b',' | b'=' | b'[' | b'{')
        ) {
            return None;
        }
    }
    Some((i, k - i, id, flag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heredoc_bodies_are_blanked() {
        let src =
            "get '/a' do\n  sql = <<~SQL\n    it's 'quoted\n    end\n  SQL\n  params[:x]\nend\n";
        let out = ruby(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(
            out,
            "get '/a' do\n  sql = \"\"    \n                \n       \n     \n  params[:x]\nend\n"
        );
    }

    #[test]
    fn two_heredocs_on_one_line_and_shifts() {
        let src = "f(<<-A, <<~'B')\n a'\nA\n b\"\n  B\nx = y << 2\nz <<= 1\n";
        let out = ruby(src);
        assert!(out.starts_with("f(\"\"  , \"\"    )\n"));
        assert!(!out.contains('\''));
        assert!(out.ends_with("x = y << 2\nz <<= 1\n"));
    }

    #[test]
    fn regex_literals_are_not_strings() {
        let src = "if x =~ /it's/\n  get '/b'\nend\n";
        let code = Code::new(src, SYNTAX);
        let strs: Vec<_> = code.strings().into_iter().map(|s| s.value).collect();
        assert_eq!(strs, ["/b"]);
    }

    #[test]
    fn macro_tags_are_blanked() {
        let src = "{% if flag?(:x) %}\nget \"/a\" do\nend\n{% end %}\n";
        let out = crystal(src);
        assert_eq!(out.len(), src.len());
        assert!(!out.contains("{%"));
        assert!(out.contains("get \"/a\" do\nend"));
    }
}
