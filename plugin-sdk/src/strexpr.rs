//! String expressions as written in route annotations, attributes and
//! constants: literals, references to constants (`BASE`,
//! `ApiPaths.USERS`), `+` concatenation, Kotlin string templates
//! (`"$BASE/users"`, `"${Api.V1}/x"`) and C# interpolated strings and
//! `nameof(X)`. Parsed from a [`crate::tokens`] stream in the map step,
//! resolved in the link step once every file's constants are known.
//!
//! ```
//! use portolan_plugin_sdk::strexpr::{Grammar, StrExpr};
//! use portolan_plugin_sdk::tokens::{tokenize, Dialect};
//! use portolan_plugin_sdk::{Code, Syntax};
//!
//! let src = "Api.BASE + \"/users\"";
//! let t = tokenize(&Code::new(src, Syntax::C_LIKE), Dialect::JAVA);
//! let e = StrExpr::parse(&t, src, Grammar::Java).unwrap();
//! let v = e.resolve(&mut |n| (n == "Api.BASE").then(|| "/api".to_string()));
//! assert_eq!(v.as_deref(), Some("/api/users"));
//! ```

use serde::{Deserialize, Serialize};

use crate::tokens::{Kind, Token};

/// Deepest chain of constants referring to constants that is followed.
pub const MAX_DEPTH: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    Lit(String),
    /// A (dotted) name to resolve: a constant.
    Ref(String),
    /// A C# interpolated string's raw value: `{x}` holes are resolved like
    /// references, `{{`/`}}` are braces, and a hole that does not resolve
    /// is kept as written (`{id}` is then a route placeholder).
    Interp(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrExpr {
    pub parts: Vec<Piece>,
}

/// What a language's string expressions may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    /// Literals, names, `+`, grouping parentheses.
    Java,
    /// As Java, string literals being templates (`"$a/${B.c}"`).
    Kotlin,
    /// Literals (numbers too), names, `+`, `$"…"`, `nameof(X)`,
    /// `string.Empty`; no parentheses.
    CSharp,
}

impl Grammar {
    /// Java, or Kotlin when `kotlin`.
    pub fn jvm(kotlin: bool) -> Self {
        if kotlin {
            Grammar::Kotlin
        } else {
            Grammar::Java
        }
    }
}

impl StrExpr {
    pub fn lit(s: impl Into<String>) -> Self {
        StrExpr {
            parts: vec![Piece::Lit(s.into())],
        }
    }

    /// The value when the expression holds no reference.
    pub fn literal(&self) -> Option<String> {
        self.resolve(&mut |_| None)
    }

    /// The name when the expression is a single reference (`RequestMethod.GET`).
    pub fn as_name(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [Piece::Ref(n)] => Some(n),
            _ => None,
        }
    }

    /// Parse `toks` (the whole range must be a string expression); `src` is
    /// the file the tokens index (Kotlin templates are read raw).
    /// Parentheses only group (`("a" + B)`), so they are counted rather
    /// than recursed into: nesting depth costs no stack.
    pub fn parse(toks: &[Token], src: &str, g: Grammar) -> Option<StrExpr> {
        let mut parts = Vec::new();
        let mut k = 0;
        let mut want_operand = true;
        let mut open = 0usize;
        let csharp = g == Grammar::CSharp;
        while k < toks.len() {
            let t = &toks[k];
            if want_operand {
                match t.kind {
                    Kind::Str if g == Grammar::Kotlin => {
                        parts.extend(kotlin_template(src.get(t.start..t.end)?));
                        k += 1;
                    }
                    Kind::Str if t.interp => {
                        parts.push(Piece::Interp(t.text.clone()));
                        k += 1;
                    }
                    Kind::Str => {
                        parts.push(Piece::Lit(t.text.clone()));
                        k += 1;
                    }
                    // A number in a template (`version = 1`).
                    Kind::Num if csharp => {
                        parts.push(Piece::Lit(t.text.clone()));
                        k += 1;
                    }
                    Kind::Ident
                        if csharp
                            && t.text == "nameof"
                            && toks.get(k + 1).is_some_and(|x| x.is('(')) =>
                    {
                        let mut j = k + 2;
                        let mut last = String::new();
                        while j < toks.len() && !toks[j].is(')') {
                            if toks[j].kind == Kind::Ident {
                                last = toks[j].text.clone();
                            }
                            j += 1;
                        }
                        parts.push(Piece::Lit(last));
                        k = j + 1;
                    }
                    Kind::Ident => {
                        let mut name = t.text.clone();
                        k += 1;
                        while k + 1 < toks.len()
                            && toks[k].is('.')
                            && toks[k + 1].kind == Kind::Ident
                        {
                            name.push('.');
                            name.push_str(&toks[k + 1].text);
                            k += 2;
                        }
                        if toks.get(k).is_some_and(|t| t.is('(')) {
                            return None;
                        }
                        if csharp && (name == "string.Empty" || name == "String.Empty") {
                            parts.push(Piece::Lit(String::new()));
                        } else {
                            parts.push(Piece::Ref(name));
                        }
                    }
                    Kind::Punct if !csharp && t.is('(') => {
                        open += 1;
                        k += 1;
                        continue;
                    }
                    _ => return None,
                }
                want_operand = false;
            } else if t.is('+') {
                want_operand = true;
                k += 1;
            } else if t.is(')') && open > 0 {
                open -= 1;
                k += 1;
            } else {
                return None;
            }
        }
        if open > 0 || parts.is_empty() || want_operand {
            return None;
        }
        Some(StrExpr { parts })
    }

    /// Resolve every reference with `lookup`; `None` if one is unknown
    /// (an unknown hole of an interpolated string stays as written).
    pub fn resolve(&self, lookup: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Ref(n) => out.push_str(&lookup(n)?),
                Piece::Interp(s) => out.push_str(&interpolate(s, lookup)),
            }
        }
        Some(out)
    }
}

/// Fill the `{x}` holes of a C# interpolated string's raw value.
fn interpolate(s: &str, lookup: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        if after.starts_with("{{") || after.starts_with("}}") {
            out.push_str(&after[..1]);
            rest = &after[2..];
            continue;
        }
        if let Some(tail) = after.strip_prefix('}') {
            out.push('}');
            rest = tail;
            continue;
        }
        let Some(close) = after.find('}') else {
            out.push_str(after);
            return out;
        };
        let hole = after[1..close].trim();
        // `{resource ?? "items"}`: the first alternative that is known.
        let value = hole.split("??").find_map(|alt| {
            let alt = alt.trim();
            if let Some(s) = alt.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
                return Some(s.to_string());
            }
            // `{nameof(Project)}`, `{nameof(Api.Items)}`: the last name.
            if let Some(inner) = alt
                .strip_prefix("nameof(")
                .and_then(|a| a.strip_suffix(')'))
            {
                let inner = inner.trim();
                return Some(inner.rsplit('.').next().unwrap_or(inner).to_string());
            }
            let name = alt.split([':', ',']).next().unwrap_or(alt).trim();
            lookup(name)
        });
        match value {
            Some(v) => out.push_str(&v),
            None => {
                out.push('{');
                out.push_str(hole);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Split a Kotlin string literal (raw source, quotes included) into
/// literal text and `$name` / `${name}` references. `\$` is a literal `$`.
pub fn kotlin_template(raw: &str) -> Vec<Piece> {
    let triple = raw.starts_with("\"\"\"") && raw.len() >= 6;
    let q = if triple { 3 } else { 1 };
    let inner = if raw.len() >= 2 * q && raw.ends_with('"') {
        &raw[q..raw.len() - q]
    } else {
        raw.get(q..).unwrap_or("")
    };
    let mut parts = Vec::new();
    let mut lit = String::new();
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && !triple {
            let escaped: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            lit.push_str(&crate::lex::unescape(&escaped));
            i += 2;
            continue;
        }
        if c == '$' {
            if chars.get(i + 1) == Some(&'{') {
                let mut depth = 0;
                let mut j = i + 1;
                while j < chars.len() {
                    match chars[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                flush(&mut parts, &mut lit);
                let inner: String = chars[i + 2..j.min(chars.len())].iter().collect();
                parts.push(Piece::Ref(inner.trim().to_string()));
                i = j + 1;
                continue;
            }
            if chars
                .get(i + 1)
                .is_some_and(|c| c.is_alphabetic() || *c == '_')
            {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                flush(&mut parts, &mut lit);
                parts.push(Piece::Ref(chars[i + 1..j].iter().collect()));
                i = j;
                continue;
            }
        }
        lit.push(c);
        i += 1;
    }
    flush(&mut parts, &mut lit);
    if parts.is_empty() {
        parts.push(Piece::Lit(String::new()));
    }
    parts
}

fn flush(parts: &mut Vec<Piece>, lit: &mut String) {
    if !lit.is_empty() {
        parts.push(Piece::Lit(std::mem::take(lit)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{tokenize, Dialect};
    use crate::{Code, Syntax};

    fn parse(src: &str, g: Grammar) -> Option<StrExpr> {
        let (syntax, d) = match g {
            Grammar::CSharp => (Syntax::CSHARP, Dialect::CSHARP),
            _ => (Syntax::C_LIKE, Dialect::JAVA),
        };
        StrExpr::parse(&tokenize(&Code::new(src, syntax), d), src, g)
    }

    #[test]
    fn concatenation_and_references() {
        let e = parse("ApiPaths.BASE + \"/users\" + (SUFFIX)", Grammar::Java).unwrap();
        assert_eq!(
            e.parts,
            [
                Piece::Ref("ApiPaths.BASE".into()),
                Piece::Lit("/users".into()),
                Piece::Ref("SUFFIX".into())
            ]
        );
        let v = e.resolve(&mut |n| Some(if n == "SUFFIX" { "/x" } else { "/api" }.into()));
        assert_eq!(v.as_deref(), Some("/api/users/x"));
        assert!(parse("foo(\"/x\")", Grammar::Java).is_none());
        assert!(parse("\"/a\" +", Grammar::Java).is_none());
        assert_eq!(
            parse("((\"/a\") + (B + (\"/c\")))", Grammar::Java).map(|e| e.parts.len()),
            Some(3)
        );
        assert!(parse("(\"/a\"", Grammar::Java).is_none());
        assert!(parse("\"/a\")", Grammar::Java).is_none());
        assert!(parse("()", Grammar::Java).is_none());
        // Deep nesting costs no stack.
        let deep = format!("{}\"/a\"{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(
            parse(&deep, Grammar::Java)
                .and_then(|e| e.literal())
                .as_deref(),
            Some("/a")
        );
        assert!(parse(&"(".repeat(100_000), Grammar::Java).is_none());
    }

    #[test]
    fn kotlin_templates_and_escaped_dollar() {
        let e = parse(r#""$BASE/users/${Api.V1}/x""#, Grammar::Kotlin).unwrap();
        assert_eq!(
            e.parts,
            [
                Piece::Ref("BASE".into()),
                Piece::Lit("/users/".into()),
                Piece::Ref("Api.V1".into()),
                Piece::Lit("/x".into())
            ]
        );
        let e = parse(r#""\${api.base:/v1}/pets""#, Grammar::Kotlin).unwrap();
        assert_eq!(e.literal().as_deref(), Some("${api.base:/v1}/pets"));
        // Java keeps `${…}` as text.
        let e = parse(r#""${api.base}/pets""#, Grammar::Java).unwrap();
        assert_eq!(e.literal().as_deref(), Some("${api.base}/pets"));
    }

    #[test]
    fn csharp_concatenation_constants_and_interpolation() {
        let e = parse(
            "Routes.Base + \"/users/\" + nameof(Users.Id) + $\"/{Sub}/{{x}}/{id:int}\"",
            Grammar::CSharp,
        )
        .unwrap();
        let v = e.resolve(&mut |n| match n {
            "Routes.Base" => Some("api".into()),
            "Sub" => Some("s".into()),
            _ => None,
        });
        assert_eq!(v.as_deref(), Some("api/users/Id/s/{x}/{id:int}"));
        let e = parse(
            "$\"/{nameof(Project)}s/{ nameof(Api.Items) }\"",
            Grammar::CSharp,
        )
        .unwrap();
        assert_eq!(e.resolve(&mut |_| None).as_deref(), Some("/Projects/Items"));
        assert_eq!(parse("\"a\" +", Grammar::CSharp), None);
        assert_eq!(parse("x(1)", Grammar::CSharp), None);
        assert_eq!(parse("(\"a\")", Grammar::CSharp), None);
        assert_eq!(parse("Missing", Grammar::CSharp).unwrap().literal(), None);
        assert_eq!(
            parse("string.Empty", Grammar::CSharp).unwrap().literal(),
            Some(String::new())
        );
    }
}
