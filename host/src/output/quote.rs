//! Escaping for the places report text lands in: POSIX shells, PowerShell,
//! Markdown tables and HTML. Everything in a report may come from scanned
//! code, so nothing is ever pasted unescaped. Control characters (and the
//! other characters [`crate::escape::is_unsafe`] names) are written as
//! visible escapes (`\x1b`, `\x0a`) by the one shared helper, so a command
//! or a row is always one line and never drives the terminal.

use crate::escape::{is_unsafe, push_escaped, visible};

/// POSIX shell single quotes: `'` becomes `'\''`; control characters
/// become visible escapes (`\x0a`) so a command stays on one line.
pub fn shell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("'\\''"),
            c if is_unsafe(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// PowerShell double quotes: backtick, `$` and `"` get a backtick; control
/// characters become visible escapes (`\x0a`).
pub fn powershell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '`' | '$' | '"' => {
                out.push('`');
                out.push(c);
            }
            // PowerShell also treats typographic quotes as quotes.
            '\u{201C}' | '\u{201D}' | '\u{201E}' => {
                out.push('`');
                out.push(c);
            }
            c if is_unsafe(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text in a Markdown table cell: `\` and `|` backslash-escaped, `<` `>` as
/// entities, control characters as visible escapes.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if is_unsafe(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// Text inside a Markdown code span in a table cell: entities are not
/// decoded there, so only `|` (the cell separator) is escaped; backticks
/// would end the span and become `'`.
pub fn markdown_code(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '`' => out.push('\''),
            c if is_unsafe(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// HTML text and attribute values (control characters as visible escapes).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in visible(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quotes_survive_anything() {
        assert_eq!(shell("a b"), "'a b'");
        assert_eq!(shell("it's"), "'it'\\''s'");
        assert_eq!(shell("a\nb\r"), "'a\\x0ab\\x0d'");
        assert_eq!(shell("\x1b]52;c;eA==\x07"), "'\\x1b]52;c;eA==\\x07'");
        assert_eq!(shell(""), "''");
    }

    #[test]
    fn powershell_escapes_backtick_dollar_quote() {
        assert_eq!(powershell("a\"$b`c"), "\"a`\"`$b``c\"");
        assert_eq!(powershell("x\ny\x1b"), "\"x\\x0ay\\x1b\"");
    }

    #[test]
    fn markdown_and_html() {
        assert_eq!(markdown("a|b\\<c>\nd"), "a\\|b\\\\&lt;c&gt;\\x0ad");
        assert_eq!(markdown_code("a|`b`"), "a\\|'b'");
        assert_eq!(
            html("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
