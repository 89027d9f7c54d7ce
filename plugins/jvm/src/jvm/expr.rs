//! String expressions as written in annotations and constants: literals,
//! references to constants (`BASE`, `ApiPaths.USERS`), `+` concatenation
//! and Kotlin string templates (`"$BASE/users"`, `"${Api.V1}/x"`).
//! Resolved in the link step, where constants of every file are known.

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Token};

/// Deepest chain of constants referring to constants that is followed.
pub const MAX_DEPTH: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    Lit(String),
    /// A (dotted) name to resolve.
    Ref(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrExpr {
    pub parts: Vec<Part>,
}

impl StrExpr {
    pub fn lit(s: impl Into<String>) -> Self {
        StrExpr {
            parts: vec![Part::Lit(s.into())],
        }
    }

    /// The value when the expression is only literals.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Part::Lit(s) => out.push_str(s),
                Part::Ref(_) => return None,
            }
        }
        Some(out)
    }

    /// The name when the expression is a single reference (`RequestMethod.GET`).
    pub fn as_name(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [Part::Ref(n)] => Some(n),
            _ => None,
        }
    }

    /// Parse `toks` (the whole range must be a string expression).
    /// Parentheses only group (`("a" + B)`), so they are counted rather
    /// than recursed into: nesting depth costs no stack.
    pub fn parse(toks: &[Token], src: &str, kotlin: bool) -> Option<StrExpr> {
        let mut parts = Vec::new();
        let mut k = 0;
        let mut want_operand = true;
        let mut open = 0usize;
        while k < toks.len() {
            let t = &toks[k];
            if want_operand {
                match t.kind {
                    Kind::Str => {
                        if kotlin {
                            parts.extend(kotlin_template(src.get(t.start..t.end)?));
                        } else {
                            parts.push(Part::Lit(t.text.clone()));
                        }
                        k += 1;
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
                        parts.push(Part::Ref(name));
                    }
                    Kind::Punct if t.is('(') => {
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
        if open > 0 {
            return None;
        }
        if parts.is_empty() || want_operand {
            return None;
        }
        Some(StrExpr { parts })
    }

    /// Resolve every reference with `lookup`; `None` if one is unknown.
    pub fn resolve(&self, lookup: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Part::Lit(s) => out.push_str(s),
                Part::Ref(n) => out.push_str(&lookup(n)?),
            }
        }
        Some(out)
    }
}

/// Split a Kotlin string literal (raw source, quotes included) into
/// literal text and `$name` / `${name}` references. `\$` is a literal `$`.
pub fn kotlin_template(raw: &str) -> Vec<Part> {
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
            lit.push_str(&portolan_plugin_sdk::lex::unescape(&escaped));
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
                let expr: String = chars[i + 2..j.min(chars.len())].iter().collect();
                flush(&mut parts, &mut lit);
                parts.push(Part::Ref(expr.trim().to_string()));
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
                parts.push(Part::Ref(chars[i + 1..j].iter().collect()));
                i = j;
                continue;
            }
        }
        lit.push(c);
        i += 1;
    }
    flush(&mut parts, &mut lit);
    if parts.is_empty() {
        parts.push(Part::Lit(String::new()));
    }
    parts
}

fn flush(parts: &mut Vec<Part>, lit: &mut String) {
    if !lit.is_empty() {
        parts.push(Part::Lit(std::mem::take(lit)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jvm::tokens::tokenize;
    use portolan_plugin_sdk::{Code, Syntax};

    fn parse(src: &str, kotlin: bool) -> Option<StrExpr> {
        let code = Code::new(src, Syntax::C_LIKE);
        let toks = tokenize(&code);
        StrExpr::parse(&toks, src, kotlin)
    }

    #[test]
    fn concatenation_and_references() {
        let e = parse("ApiPaths.BASE + \"/users\" + (SUFFIX)", false).unwrap();
        assert_eq!(
            e.parts,
            [
                Part::Ref("ApiPaths.BASE".into()),
                Part::Lit("/users".into()),
                Part::Ref("SUFFIX".into())
            ]
        );
        let v = e.resolve(&mut |n| Some(if n == "SUFFIX" { "/x" } else { "/api" }.into()));
        assert_eq!(v.as_deref(), Some("/api/users/x"));
        assert!(parse("foo(\"/x\")", false).is_none());
        assert!(parse("\"/a\" +", false).is_none());
        assert_eq!(
            parse("((\"/a\") + (B + (\"/c\")))", false).map(|e| e.parts.len()),
            Some(3)
        );
        assert!(parse("(\"/a\"", false).is_none());
        assert!(parse("\"/a\")", false).is_none());
        assert!(parse("()", false).is_none());
        // Deep nesting costs no stack.
        let deep = format!("{}\"/a\"{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(
            parse(&deep, false).and_then(|e| e.literal()).as_deref(),
            Some("/a")
        );
        assert!(parse(&"(".repeat(100_000), false).is_none());
    }

    #[test]
    fn kotlin_templates_and_escaped_dollar() {
        let e = parse(r#""$BASE/users/${Api.V1}/x""#, true).unwrap();
        assert_eq!(
            e.parts,
            [
                Part::Ref("BASE".into()),
                Part::Lit("/users/".into()),
                Part::Ref("Api.V1".into()),
                Part::Lit("/x".into())
            ]
        );
        let e = parse(r#""\${api.base:/v1}/pets""#, true).unwrap();
        assert_eq!(e.literal().as_deref(), Some("${api.base:/v1}/pets"));
        // Java keeps `${…}` as text.
        let e = parse(r#""${api.base}/pets""#, false).unwrap();
        assert_eq!(e.literal().as_deref(), Some("${api.base}/pets"));
    }
}
