//! Logical lines and indentation blocks.
//!
//! Python statements are delimited by newlines, except inside brackets,
//! after a backslash, and inside triple-quoted strings. A [`LogicalLine`] is
//! one statement (or compound-statement header) with all its physical lines;
//! docstrings and comments never start one, so anything that looks like code
//! inside them is never seen as a statement.

use crate::text::indent_width;
use crate::Code;
use std::ops::Range;

/// One Python statement spanning one or more physical lines.
///
/// ```
/// use portolan_plugin_sdk::python::lines::logical_lines;
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("x = (1,\n     2)\n", Syntax::PYTHON);
/// let line = logical_lines(&code)[0];
/// assert_eq!((line.start, line.indent), (0, 0));
/// assert_eq!(line.text(&code), "x = (1,\n     2)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogicalLine {
    /// Offset of the first non-blank byte.
    pub start: usize,
    /// Offset just after the statement's last non-blank byte.
    pub end: usize,
    /// Indentation width of the first physical line (a tab counts 8).
    pub indent: usize,
}

impl LogicalLine {
    /// The statement's text (comments blanked, physical lines kept).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::lines::logical_lines;
    /// use portolan_plugin_sdk::{Code, Syntax};
    ///
    /// let code = Code::new("  y = 2  # two\n", Syntax::PYTHON);
    /// assert_eq!(logical_lines(&code)[0].text(&code), "y = 2");
    /// ```
    pub fn text<'c>(&self, code: &'c Code<'_>) -> &'c str {
        code.slice(self.start..self.end)
    }
}

/// Split a file into logical lines. Blank and comment-only lines are
/// skipped, and so are docstrings' inner lines (they belong to the string's
/// statement).
///
/// ```
/// use portolan_plugin_sdk::python::lines::logical_lines;
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let src = "\"\"\"\n@app.route('/doc')\n\"\"\"\nAPI = '/api' \\\n    '/v1'\n# c\ndef f():\n    pass\n";
/// let code = Code::new(src, Syntax::PYTHON);
/// let texts: Vec<_> = logical_lines(&code).iter().map(|l| l.text(&code).to_string()).collect();
/// assert_eq!(texts.len(), 4);
/// assert_eq!(texts[1], "API = '/api' \\\n    '/v1'");
/// ```
pub fn logical_lines(code: &Code<'_>) -> Vec<LogicalLine> {
    let text = code.text().as_bytes();
    let len = text.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < len {
        let line_start = i;
        let mut j = i;
        while j < len && matches!(text[j], b' ' | b'\t' | b'\x0c') {
            j += 1;
        }
        if j >= len {
            break;
        }
        if text[j] == b'\n' || text[j] == b'\r' {
            i = next_line(text, j);
            continue;
        }
        let indent = indent_width(code.slice(line_start..j));
        let start = j;
        let mut depth = 0usize;
        let mut k = j;
        let end = loop {
            if k >= len {
                break len;
            }
            if code.is_code(k) {
                match text[k] {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    b'\\' if matches!(text.get(k + 1), Some(b'\n') | Some(b'\r')) => {
                        k = next_line(text, k + 1);
                        continue;
                    }
                    b'\n' if depth == 0 => break k,
                    _ => {}
                }
            }
            k += 1;
        };
        let mut trimmed = end;
        while trimmed > start && text[trimmed - 1].is_ascii_whitespace() {
            trimmed -= 1;
        }
        out.push(LogicalLine {
            start,
            end: trimmed,
            indent,
        });
        i = end + 1;
    }
    out
}

/// Offset of the first byte of the next physical line after `i`.
fn next_line(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && text[i] != b'\n' {
        i += 1;
    }
    i + 1
}

/// The offset of the first top-level `:` of a compound-statement header
/// (`def f(a: int) -> X:`, `class A(B):`), or `None`.
///
/// ```
/// use portolan_plugin_sdk::python::lines::{header_colon, logical_lines};
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("def f(a: int) -> str:\n    pass\n", Syntax::PYTHON);
/// let lines = logical_lines(&code);
/// assert_eq!(header_colon(&code, &lines[0]), Some(20));
/// ```
pub fn header_colon(code: &Code<'_>, line: &LogicalLine) -> Option<usize> {
    let text = code.text().as_bytes();
    let mut depth = 0usize;
    for k in line.start..line.end.min(text.len()) {
        if !code.is_code(k) {
            continue;
        }
        match text[k] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b':' if depth == 0 && text.get(k + 1) != Some(&b'=') => return Some(k),
            _ => {}
        }
    }
    None
}

/// The body of the compound statement whose header is `lines[header]`: from
/// just after the header's `:` to the end of the last following logical
/// line indented deeper than the header. A one-line body (`def f(): pass`)
/// is the rest of the header line.
///
/// ```
/// use portolan_plugin_sdk::python::lines::{block_body, logical_lines};
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("def f():\n    x = 1\n    return x\ny = 2\n", Syntax::PYTHON);
/// let lines = logical_lines(&code);
/// let body = code.slice(block_body(&code, &lines, 0));
/// assert!(body.contains("return x") && !body.contains("y = 2"));
/// ```
pub fn block_body(code: &Code<'_>, lines: &[LogicalLine], header: usize) -> Range<usize> {
    let Some(head) = lines.get(header) else {
        return 0..0;
    };
    let body_start = header_colon(code, head).map_or(head.end, |c| c + 1);
    let mut end = head.end;
    for line in &lines[header + 1..] {
        if line.indent <= head.indent {
            break;
        }
        end = line.end;
    }
    body_start.min(end)..end
}

/// Index of the logical line containing `offset`, if any.
///
/// ```
/// use portolan_plugin_sdk::python::lines::{line_at, logical_lines};
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("a = 1\nb = (2,\n 3)\n", Syntax::PYTHON);
/// let lines = logical_lines(&code);
/// assert_eq!(line_at(&lines, 14), Some(1));
/// ```
pub fn line_at(lines: &[LogicalLine], offset: usize) -> Option<usize> {
    let idx = lines.partition_point(|l| l.start <= offset);
    let idx = idx.checked_sub(1)?;
    (offset <= lines[idx].end).then_some(idx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Syntax;

    fn texts(src: &str) -> Vec<(String, usize)> {
        let code = Code::new(src, Syntax::PYTHON);
        logical_lines(&code)
            .iter()
            .map(|l| (l.text(&code).to_string(), l.indent))
            .collect()
    }

    #[test]
    fn docstring_lines_are_not_statements() {
        let src = "\"\"\"\n@app.route('/x')\n\"\"\"\n@app.route('/y')\ndef f(): pass\n";
        let got = texts(src);
        assert_eq!(got.len(), 3);
        assert!(got[1].0.starts_with("@app.route('/y')"));
    }

    #[test]
    fn block_body_by_indentation() {
        let src = "def f(a: int = 1,\n      b=2) -> dict:\n    x = 1\n\n    # c\n    if x:\n        y = 2\ndef g(): return 3\nz = 1\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let body = block_body(&code, &lines, 0);
        let text = code.slice(body);
        assert!(text.contains("x = 1"));
        assert!(text.contains("y = 2"));
        assert!(!text.contains("def g"));
        let g = lines
            .iter()
            .position(|l| l.text(&code).starts_with("def g"))
            .unwrap();
        assert_eq!(code.slice(block_body(&code, &lines, g)).trim(), "return 3");
    }

    #[test]
    fn line_at_finds_the_statement() {
        let code = Code::new("a = 1\nb = (2,\n 3)\n", Syntax::PYTHON);
        let lines = logical_lines(&code);
        assert_eq!(line_at(&lines, 0), Some(0));
        assert_eq!(line_at(&lines, 10), Some(1));
        assert_eq!(line_at(&lines, 14), Some(1));
    }

    #[test]
    fn joins_brackets_backslashes_and_strings() {
        let src =
            "a = (1,\n  2)\n# comment\n\nb = 1 + \\\n    2\nc = \"\"\"x\n  y\"\"\"\n    d = 4\n";
        let got = texts(src);
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], ("a = (1,\n  2)".to_string(), 0));
        assert_eq!(got[1].0, "b = 1 + \\\n    2");
        assert_eq!(got[2].0, "c = \"\"\"x\n  y\"\"\"");
        assert_eq!(got[3], ("d = 4".to_string(), 4));
    }

    #[test]
    fn crlf_and_unterminated_input_do_not_panic() {
        let got = texts("a = 1\r\nb = (2,\r\n 3)\r\nc = (");
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].0, "b = (2,\r\n 3)");
        let code = Code::new("def f(:", Syntax::PYTHON);
        let lines = logical_lines(&code);
        let _ = block_body(&code, &lines, 0);
        let _ = block_body(&code, &lines, 7);
        let _ = texts("é = 'ü'\n\t\tß = (\n");
    }
}
