//! A flat token stream over C-family source (Java, Kotlin, C#, …) on top of
//! [`Code`]: comments dropped, string literals decoded, byte offsets into
//! the original text, a line-break mark per token, and every opening
//! bracket paired with its closer in one pass (so [`close_of`] is O(1)).
//!
//! Per-language lexing is chosen with a [`Dialect`]: `$` inside
//! identifiers (Java, Kotlin), Kotlin's backticked identifiers, C#'s
//! `@verbatim` identifiers and `$"…"` interpolated strings. On top of the
//! stream: [`split_commas`] (top-level argument ranges) and [`dotted`]
//! (`a.b.C` names).
//!
//! ```
//! use portolan_plugin_sdk::tokens::{close_of, split_commas, tokenize, Dialect};
//! use portolan_plugin_sdk::{Code, Syntax};
//!
//! let code = Code::new("get(\"/a\", h) // get(\"/b\")", Syntax::C_LIKE);
//! let t = tokenize(&code, Dialect::JAVA);
//! assert_eq!(close_of(&t, 1), Some(5));
//! assert_eq!(split_commas(&t, 2, 5), [2..3, 4..5]);
//! ```

use crate::lex::{is_ident_byte, Code};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Str,
    Num,
    Punct,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    /// Identifier / number / punctuation text, or the decoded string value.
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// A line break separates this token from the previous one.
    pub nl: bool,
    /// For a bracket that opens (`(`, `[`, `{`, `<`): the distance to the
    /// token closing it, 0 when none does (see [`close_of`]).
    pub pair: usize,
    /// An interpolated string (C# `$"…{x}…"`, or a literal holding
    /// [`Dialect::raw_interpolation`]).
    pub interp: bool,
    /// What is glued before the token and folded into it: a string's
    /// interpolator (`s` in Scala's `s"/u/$id"`, see
    /// [`Dialect::interpolators`]), `` ` `` for a backticked identifier;
    /// else empty.
    pub prefix: String,
}

impl Token {
    pub fn is(&self, punct: char) -> bool {
        self.kind == Kind::Punct && self.text.len() == 1 && self.text.starts_with(punct)
    }
    pub fn is_ident(&self, word: &str) -> bool {
        self.kind == Kind::Ident && self.text == word
    }
}

/// The lexical hooks of a language on top of its [`crate::Syntax`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Dialect {
    /// `$` is an identifier character (Java, Kotlin).
    pub dollar_idents: bool,
    /// `` `name with spaces` `` is one identifier (Kotlin).
    pub backtick_idents: bool,
    /// `@class` is the identifier `class` (C#).
    pub verbatim_idents: bool,
    /// `$"…"` is one string token marked [`Token::interp`] (C#).
    pub dollar_strings: bool,
    /// Identifiers that, glued before a string literal, are its
    /// interpolator (Scala's `s"…"`): folded into the string token (which
    /// then starts at the identifier) and kept in [`Token::prefix`].
    pub interpolators: &'static [&'static str],
    /// When not empty, a string literal whose source contains this marker
    /// (Swift's `\\(`) is an interpolated string: its token keeps the raw
    /// source with the surrounding `"` trimmed (the expressions stay
    /// readable) and is marked [`Token::interp`].
    pub raw_interpolation: &'static str,
}

impl Dialect {
    /// No hook: plain C-family lexing.
    pub const PLAIN: Dialect = Dialect {
        dollar_idents: false,
        backtick_idents: false,
        verbatim_idents: false,
        dollar_strings: false,
        interpolators: &[],
        raw_interpolation: "",
    };
    /// Java and Kotlin.
    pub const JAVA: Dialect = Dialect {
        dollar_idents: true,
        backtick_idents: true,
        verbatim_idents: false,
        dollar_strings: false,
        interpolators: &[],
        raw_interpolation: "",
    };
    /// C#.
    pub const CSHARP: Dialect = Dialect {
        dollar_idents: false,
        backtick_idents: false,
        verbatim_idents: true,
        dollar_strings: true,
        interpolators: &[],
        raw_interpolation: "",
    };
}

/// Tokenize the code view. Punctuation is one character per token (`>>` is
/// two `>` tokens, which keeps generic brackets balanced).
pub fn tokenize(code: &Code, d: Dialect) -> Vec<Token> {
    let text = code.text();
    let bytes = text.as_bytes();
    let ident = |b: u8| is_ident_byte(b) || d.dollar_idents && b == b'$';
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    let mut nl = false;
    let token = |kind, text: &str, start, end, nl| Token {
        kind,
        text: text.to_string(),
        start,
        end,
        nl,
        pair: 0,
        interp: false,
        prefix: String::new(),
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            nl = true;
            i += 1;
            continue;
        }
        if b.is_ascii_whitespace() || code.is_comment(i) {
            i += 1;
            continue;
        }
        if !code.is_code(i) {
            // A string (or char) literal.
            match code.string_at(i) {
                Some(lit) if lit.end > i => {
                    let interp = d.dollar_strings
                        && out.last().is_some_and(|t: &Token| t.is('$') && t.end == i);
                    if interp {
                        out.pop();
                    }
                    let raw = code.source().get(lit.start..lit.end).unwrap_or("");
                    let templated =
                        !d.raw_interpolation.is_empty() && raw.contains(d.raw_interpolation);
                    let mut tok = Token {
                        kind: Kind::Str,
                        text: if templated {
                            raw.trim_start_matches('"')
                                .trim_end_matches('"')
                                .to_string()
                        } else {
                            lit.value
                        },
                        start: i,
                        end: lit.end,
                        nl,
                        pair: 0,
                        interp: interp || templated,
                        prefix: String::new(),
                    };
                    let glued = out.last().filter(|t| {
                        t.kind == Kind::Ident
                            && t.prefix.is_empty()
                            && t.end == i
                            && d.interpolators.contains(&t.text.as_str())
                    });
                    if glued.is_some() {
                        if let Some(p) = out.pop() {
                            tok.start = p.start;
                            tok.nl = p.nl;
                            tok.prefix = p.text;
                        }
                    }
                    out.push(tok);
                    nl = false;
                    i = lit.end;
                }
                _ => i += 1,
            }
            continue;
        }
        let start = i;
        let kind = if b.is_ascii_digit() {
            while i < bytes.len()
                && (is_ident_byte(bytes[i])
                    || bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
            {
                i += 1;
            }
            Kind::Num
        } else if ident(b) {
            while i < bytes.len() && ident(bytes[i]) {
                i += 1;
            }
            Kind::Ident
        } else if d.backtick_idents && b == b'`' {
            // Kotlin backticked identifier: `fun \`my test\`()`.
            let close = text[i + 1..]
                .find(['`', '\n'])
                .map_or(bytes.len(), |p| i + 1 + p);
            i = (close + 1).min(bytes.len());
            let name = &text[start + 1..close.min(bytes.len())];
            let mut tok = token(Kind::Ident, name, start, i, nl);
            tok.prefix.push('`');
            out.push(tok);
            nl = false;
            continue;
        } else if d.verbatim_idents && b == b'@' && bytes.get(i + 1).is_some_and(|c| ident(*c)) {
            // Verbatim identifier: `@class`.
            i += 1;
            while i < bytes.len() && ident(bytes[i]) {
                i += 1;
            }
            out.push(token(Kind::Ident, &text[start + 1..i], start, i, nl));
            nl = false;
            continue;
        } else {
            // One (possibly multi-byte) character.
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            i += len;
            Kind::Punct
        };
        out.push(token(kind, &text[start..i], start, i, nl));
        nl = false;
    }
    pair_brackets(&mut out);
    out
}

/// Fill every opening bracket's [`Token::pair`] in one pass (a stack per
/// bracket kind), so [`close_of`] costs O(1) however brackets nest or fail
/// to balance. Each kind counts only its own brackets; a `<` list ends
/// unmatched at a token that cannot be inside type arguments.
fn pair_brackets(toks: &mut [Token]) {
    let mut stacks: [Vec<usize>; 4] = Default::default();
    for k in 0..toks.len() {
        if toks[k].kind != Kind::Punct || toks[k].text.len() != 1 {
            continue;
        }
        let b = toks[k].text.as_bytes()[0];
        if matches!(b, b';' | b'{' | b'}' | b'=' | b')') {
            stacks[3].clear();
        }
        let (kind, opens) = match b {
            b'(' => (0, true),
            b')' => (0, false),
            b'[' => (1, true),
            b']' => (1, false),
            b'{' => (2, true),
            b'}' => (2, false),
            b'<' => (3, true),
            b'>' => (3, false),
            _ => continue,
        };
        if opens {
            stacks[kind].push(k);
        } else if let Some(open) = stacks[kind].pop() {
            toks[open].pair = k - open;
        }
    }
}

/// Index of the token closing the bracket opened at `open` (`(`, `[`, `{`,
/// `<`), or `toks.len()` when unbalanced. For `<`, gives up (returns
/// `None`) at tokens that cannot be part of a type argument list. `toks`
/// may be a sub-slice of a tokenized file starting at or before `open`'s
/// own stream (pairs are relative).
pub fn close_of(toks: &[Token], open: usize) -> Option<usize> {
    let opener = toks.get(open)?;
    if !matches!(opener.text.as_str(), "(" | "[" | "{" | "<") || opener.kind != Kind::Punct {
        return None;
    }
    let generic = opener.text == "<";
    let close = open + opener.pair;
    if opener.pair > 0 && close < toks.len() {
        Some(close)
    } else if generic {
        None
    } else {
        Some(toks.len())
    }
}

/// Split `toks[start..end]` at top-level commas into index ranges (empty
/// pieces dropped).
pub fn split_commas(toks: &[Token], start: usize, end: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut piece = start;
    let end = end.min(toks.len());
    for (k, t) in toks.iter().enumerate().take(end).skip(start) {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                if piece < k {
                    out.push(piece..k);
                }
                piece = k + 1;
            }
            _ => {}
        }
    }
    if piece < end {
        out.push(piece..end);
    }
    out
}

/// A dotted name starting at `i` (`a.b.C`); returns it and the index after.
pub fn dotted(toks: &[Token], i: usize) -> Option<(String, usize)> {
    let first = toks.get(i).filter(|t| t.kind == Kind::Ident)?;
    let mut name = first.text.clone();
    let mut k = i + 1;
    while k + 1 < toks.len() && toks[k].is('.') && toks[k + 1].kind == Kind::Ident {
        name.push('.');
        name.push_str(&toks[k + 1].text);
        k += 2;
    }
    Some((name, k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Syntax;

    fn texts(t: &[Token]) -> Vec<&str> {
        t.iter().map(|t| t.text.as_str()).collect()
    }

    #[test]
    fn java_tokens_skip_comments_and_decode_strings() {
        let src = "@GetMapping(\"/a\\\"b\") // x\n/* y */ List<Map<K, V>> $x;";
        let toks = tokenize(&Code::new(src, Syntax::C_LIKE), Dialect::JAVA);
        assert_eq!(
            texts(&toks),
            [
                "@",
                "GetMapping",
                "(",
                "/a\"b",
                ")",
                "List",
                "<",
                "Map",
                "<",
                "K",
                ",",
                "V",
                ">",
                ">",
                "$x",
                ";"
            ]
        );
        assert!(toks[5].nl);
        assert_eq!(close_of(&toks, 6), Some(13));
        assert_eq!(dotted(&toks, 1).map(|d| d.1), Some(2));
        let kt = tokenize(&Code::new("fun `a b`()", Syntax::C_LIKE), Dialect::JAVA);
        assert_eq!(texts(&kt), ["fun", "a b", "(", ")"]);
    }

    #[test]
    fn csharp_tokens_mark_interpolation_and_verbatim_names() {
        let src = "[HttpGet($\"{Base}/a\")] // [HttpGet(\"x\")]\n@class = @\"c:\\x\";";
        let toks = tokenize(&Code::new(src, Syntax::CSHARP), Dialect::CSHARP);
        assert_eq!(
            texts(&toks),
            ["[", "HttpGet", "(", "{Base}/a", ")", "]", "class", "=", "c:\\x", ";"]
        );
        assert!(toks[3].interp);
        assert!(!toks[8].interp);
        assert!(toks[6].nl);
    }

    #[test]
    fn interpolators_fold_into_their_string() {
        const D: Dialect = Dialect {
            interpolators: &["s"],
            ..Dialect::JAVA
        };
        let src = "x\n s\"/u/$id\" f\"y\" `s`\"z\"";
        let toks = tokenize(&Code::new(src, Syntax::C_LIKE), D);
        assert_eq!(texts(&toks), ["x", "/u/$id", "f", "y", "s", "z"]);
        assert_eq!(
            (toks[1].prefix.as_str(), toks[1].start, toks[1].nl),
            ("s", 3, true)
        );
        assert_eq!(toks[3].prefix, "", "`f` is not an interpolator here");
        assert_eq!(toks[4].prefix, "`", "a backticked name is no interpolator");
        assert_eq!(toks[5].prefix, "");
    }

    #[test]
    fn raw_interpolation_keeps_the_source() {
        const D: Dialect = Dialect {
            raw_interpolation: "\\(",
            ..Dialect::PLAIN
        };
        let src = "get(\"a\\(b)c\", \"d\\te\")";
        let toks = tokenize(&Code::new(src, Syntax::C_LIKE), D);
        assert_eq!(texts(&toks), ["get", "(", "a\\(b)c", ",", "d\te", ")"]);
        assert!(toks[2].interp);
        assert!(!toks[4].interp);
    }

    #[test]
    fn brackets_pair_in_one_pass() {
        // f ( ( a ) [ < b ; ) ] {
        let toks = tokenize(&Code::new("f((a)[<b;)]{", Syntax::C_LIKE), Dialect::JAVA);
        assert_eq!(close_of(&toks, 1), Some(9));
        assert_eq!(close_of(&toks, 2), Some(4));
        assert_eq!(close_of(&toks, 5), Some(10));
        assert_eq!(close_of(&toks, 6), None, "`;` ends a type argument list");
        assert_eq!(close_of(&toks, 11), Some(toks.len()), "unbalanced");
        assert_eq!(close_of(&toks, 0), None);
        // A sub-slice keeps the pairs inside it.
        assert_eq!(close_of(&toks[..9], 1), Some(9));
        assert_eq!(close_of(&toks[..9], 2), Some(4));
        // Unbalanced openers cost linear time.
        let src = format!("@GetMapping({}", "(".repeat(200_000));
        let toks = tokenize(&Code::new(&src, Syntax::C_LIKE), Dialect::JAVA);
        assert_eq!(close_of(&toks, 2), Some(toks.len()));
    }

    #[test]
    fn commas_split_at_top_level() {
        let toks = tokenize(
            &Code::new("f(a, g(b, c), [d, e])", Syntax::C_LIKE),
            Dialect::JAVA,
        );
        assert_eq!(split_commas(&toks, 2, 16), [2..3, 4..10, 11..16]);
    }
}
