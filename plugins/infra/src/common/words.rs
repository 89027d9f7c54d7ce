//! Splitting one line of a server configuration (Apache httpd, Caddyfile)
//! into words.

/// What a backslash does inside a quoted word.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// Kept as written (Caddy's `` `…` ``).
    None,
    /// Dropped: `\x` is `x` (Caddy's `"…"`).
    Drop,
    /// Dropped before the closing quote only: `\"` is `"`, `\x` stays
    /// `\x` (Apache).
    QuoteOnly,
}

/// Whitespace-separated words of `line`. A word opening with one of
/// `quotes` runs to the same quote (spaces kept, the quotes dropped), with
/// backslashes per `escape(quote)`; `comment` at the start of a word ends
/// the line.
pub fn split_words(
    line: &str,
    quotes: &[char],
    escape: fn(char) -> Escape,
    comment: Option<char>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if Some(c) == comment {
            break;
        }
        let mut word = String::new();
        if quotes.contains(&c) {
            chars.next();
            let escape = escape(c);
            while let Some(ch) = chars.next() {
                if ch == '\\' && escape != Escape::None {
                    if let Some(next) = chars.next() {
                        if escape == Escape::QuoteOnly && next != c {
                            word.push('\\');
                        }
                        word.push(next);
                    }
                    continue;
                }
                if ch == c {
                    break;
                }
                word.push(ch);
            }
        } else {
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() {
                    break;
                }
                word.push(ch);
                chars.next();
            }
        }
        out.push(word);
    }
    out
}
