//! A flat token stream over Elixir source: comments dropped, strings
//! decoded, `~w(a b)a` word sigils as one token, aliases (`MyApp.Web`)
//! joined, keyword keys (`only:`) and atoms (`:index`) told apart.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::{Code, Syntax};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `get`, `valid?`, `do`, `end`, `_`.
    Ident,
    /// `MyAppWeb.UserController` (dotted, capitalised).
    Alias,
    /// `:index` (text without the colon).
    Atom,
    /// `only:` (text without the colon).
    Key,
    Str,
    /// `~w(index show)a`: the words, space-separated.
    Words,
    Num,
    Punct,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    pub start: usize,
    /// First token on its line.
    pub nl: bool,
}

impl Token {
    pub fn is(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
    pub fn is_ident(&self, w: &str) -> bool {
        self.kind == Kind::Ident && self.text == w
    }
}

const TWO: [&str; 10] = ["->", "=>", "|>", "<>", "++", "::", "==", "!=", "<-", "\\\\"];

pub fn tokenize(src: &str) -> Vec<Token> {
    let code = Code::new(src, Syntax::ELIXIR);
    let text = code.text();
    let b = text.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut nl = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            nl = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() || code.is_comment(i) {
            i += 1;
            continue;
        }
        let start = i;
        let push = |out: &mut Vec<Token>, kind: Kind, text: String| {
            out.push(Token {
                kind,
                text,
                start,
                nl,
            });
        };
        if !code.is_code(i) {
            match code.string_at(i) {
                Some(lit) if lit.end > i => {
                    // `"key": value` keyword with a quoted key.
                    if b.get(lit.end) == Some(&b':') && b.get(lit.end + 1) == Some(&b' ') {
                        push(&mut out, Kind::Key, lit.value);
                        i = lit.end + 1;
                    } else {
                        push(&mut out, Kind::Str, lit.value);
                        i = lit.end;
                    }
                    nl = false;
                }
                _ => i += 1,
            }
            continue;
        }
        // Word sigils: ~w(a b)a, ~w[a b], ~W|a b|.
        if c == b'~' && matches!(b.get(i + 1), Some(b'w' | b'W')) {
            if let Some(&open) = b.get(i + 2) {
                let close = match open {
                    b'(' => b')',
                    b'[' => b']',
                    b'{' => b'}',
                    b'<' => b'>',
                    b'|' | b'/' => open,
                    _ => 0,
                };
                if close != 0 {
                    if let Some(len) = b[i + 3..].iter().position(|&x| x == close) {
                        let words = text[i + 3..i + 3 + len]
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" ");
                        push(&mut out, Kind::Words, words);
                        i += 3 + len + 1;
                        while i < b.len() && b[i].is_ascii_alphabetic() {
                            i += 1; // modifiers: `a`, `c`, `s`
                        }
                        nl = false;
                        continue;
                    }
                }
            }
        }
        if c == b':'
            && b.get(i + 1)
                .is_some_and(|x| is_ident_byte(*x) && !x.is_ascii_digit())
        {
            let mut k = i + 1;
            while k < b.len() && (is_ident_byte(b[k]) || b[k] == b'?' || b[k] == b'!') {
                k += 1;
            }
            push(&mut out, Kind::Atom, text[i + 1..k].to_string());
            i = k;
            nl = false;
            continue;
        }
        if c == b':' && b.get(i + 1) == Some(&b'*') && b.get(i + 2) != Some(&b'*') {
            push(&mut out, Kind::Atom, "*".to_string());
            i += 2;
            nl = false;
            continue;
        }
        if c == b':' && b.get(i + 1) == Some(&b'"') {
            // :"quoted atom"
            if let Some(lit) = code.string_at(i + 1) {
                push(&mut out, Kind::Atom, lit.value);
                i = lit.end;
                nl = false;
                continue;
            }
        }
        if c.is_ascii_digit() {
            let mut k = i;
            while k < b.len()
                && (is_ident_byte(b[k])
                    || b[k] == b'.' && b.get(k + 1).is_some_and(u8::is_ascii_digit))
            {
                k += 1;
            }
            push(&mut out, Kind::Num, text[i..k].to_string());
            i = k;
            nl = false;
            continue;
        }
        if c.is_ascii_uppercase() {
            // Alias, possibly dotted.
            let mut k = i;
            loop {
                while k < b.len() && is_ident_byte(b[k]) {
                    k += 1;
                }
                if b.get(k) == Some(&b'.') && b.get(k + 1).is_some_and(u8::is_ascii_uppercase) {
                    k += 1;
                    continue;
                }
                break;
            }
            if b.get(k) == Some(&b':') && b.get(k + 1) != Some(&b':') {
                push(&mut out, Kind::Key, text[i..k].to_string());
                i = k + 1;
            } else {
                push(&mut out, Kind::Alias, text[i..k].to_string());
                i = k;
            }
            nl = false;
            continue;
        }
        if is_ident_byte(c) {
            let mut k = i;
            while k < b.len() && is_ident_byte(b[k]) {
                k += 1;
            }
            if k < b.len() && (b[k] == b'?' || b[k] == b'!') {
                k += 1;
            }
            if b.get(k) == Some(&b':') && b.get(k + 1) != Some(&b':') {
                push(&mut out, Kind::Key, text[i..k].to_string());
                i = k + 1;
            } else {
                push(&mut out, Kind::Ident, text[i..k].to_string());
                i = k;
            }
            nl = false;
            continue;
        }
        let two = text.get(i..i + 2).unwrap_or("");
        let len = if TWO.contains(&two) {
            2
        } else {
            text[i..].chars().next().map_or(1, char::len_utf8)
        };
        push(&mut out, Kind::Punct, text[i..i + len].to_string());
        i += len;
        nl = false;
    }
    out
}

/// Inline string module attributes (`@name "value"` at the start of a
/// line): later `#{@name}` interpolations in strings are replaced by the
/// value, and a later bare `@name` expression becomes a string token.
/// Other interpolations are left as written.
pub fn inline_attributes(t: &mut Vec<Token>) {
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut out: Vec<Token> = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        let is_attr = t[i].is("@") && t.get(i + 1).is_some_and(|x| x.kind == Kind::Ident);
        if is_attr && t[i].nl {
            if let Some(v) = t.get(i + 2).filter(|x| x.kind == Kind::Str) {
                if t.get(i + 3).is_none_or(|x| x.nl) {
                    let name = t[i + 1].text.clone();
                    let value = resolve(&v.text, &attrs);
                    attrs.retain(|(n, _)| *n != name);
                    attrs.push((name, value));
                }
            }
        } else if is_attr {
            if let Some((_, value)) = attrs.iter().find(|(n, _)| *n == t[i + 1].text) {
                out.push(Token {
                    kind: Kind::Str,
                    text: value.clone(),
                    start: t[i].start,
                    nl: false,
                });
                i += 2;
                continue;
            }
        }
        let mut tok = t[i].clone();
        if tok.kind == Kind::Str {
            tok.text = resolve(&tok.text, &attrs);
        }
        out.push(tok);
        i += 1;
    }
    *t = out;
}

fn resolve(text: &str, attrs: &[(String, String)]) -> String {
    if !text.contains("#{@") {
        return text.to_string();
    }
    let mut text = text.to_string();
    for (name, value) in attrs {
        text = text.replace(&format!("#{{@{name}}}"), value);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_attributes_inlined_in_strings() {
        let src = "@api \"/api\"\n@v \"#{@api}/v1\"\nforward \"#{@v}/users\", to: U\nget \"#{@other}/x#{id}\" do\n@api \"/new\"\nget \"#{@api}\"\nget @api do\nplug P, @opts\n";
        let mut t = tokenize(src);
        inline_attributes(&mut t);
        let got: Vec<_> = t.iter().map(|x| (x.kind, x.text.as_str())).collect();
        assert_eq!(
            got,
            [
                (Kind::Punct, "@"),
                (Kind::Ident, "api"),
                (Kind::Str, "/api"),
                (Kind::Punct, "@"),
                (Kind::Ident, "v"),
                (Kind::Str, "/api/v1"),
                (Kind::Ident, "forward"),
                (Kind::Str, "/api/v1/users"),
                (Kind::Punct, ","),
                (Kind::Key, "to"),
                (Kind::Alias, "U"),
                (Kind::Ident, "get"),
                (Kind::Str, "#{@other}/x#{id}"),
                (Kind::Ident, "do"),
                (Kind::Punct, "@"),
                (Kind::Ident, "api"),
                (Kind::Str, "/new"),
                (Kind::Ident, "get"),
                (Kind::Str, "/new"),
                (Kind::Ident, "get"),
                (Kind::Str, "/new"),
                (Kind::Ident, "do"),
                (Kind::Ident, "plug"),
                (Kind::Alias, "P"),
                (Kind::Punct, ","),
                (Kind::Punct, "@"),
                (Kind::Ident, "opts"),
            ]
        );
    }

    #[test]
    fn tokens_of_router_lines() {
        let src = "resources \"/users\", MyAppWeb.UserController, only: ~w(index show)a # x\n  get \"/a\", A, :index\n";
        let t = tokenize(src);
        let got: Vec<_> = t.iter().map(|t| (t.kind, t.text.as_str(), t.nl)).collect();
        assert_eq!(
            got,
            [
                (Kind::Ident, "resources", true),
                (Kind::Str, "/users", false),
                (Kind::Punct, ",", false),
                (Kind::Alias, "MyAppWeb.UserController", false),
                (Kind::Punct, ",", false),
                (Kind::Key, "only", false),
                (Kind::Words, "index show", false),
                (Kind::Ident, "get", true),
                (Kind::Str, "/a", false),
                (Kind::Punct, ",", false),
                (Kind::Alias, "A", false),
                (Kind::Punct, ",", false),
                (Kind::Atom, "index", false),
            ]
        );
    }
}
