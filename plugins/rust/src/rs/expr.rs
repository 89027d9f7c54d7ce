//! Path expressions and module paths.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};

/// One piece of a string expression.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    Lit(String),
    /// A constant, by name (qualifier dropped).
    Const(String),
}

/// Parse a string expression at `range`: `"lit"`, `CONST`, `consts::API`,
/// `&format!("{}/x", API)`, `format!("{API}/x")`, `concat!(A, "/x")`,
/// `[base, "/x"].concat()`.
/// `None` when the expression is something else.
pub fn parse_str(code: &Code, range: std::ops::Range<usize>) -> Option<Vec<Part>> {
    let text = code.slice(range.clone());
    let lead = text.len() - text.trim_start_matches(['&', ' ', '\n', '\t', '\r']).len();
    let start = range.start + lead;
    if let Some(lit) = code.string_at(start) {
        if code.slice(lit.end..range.end).trim().is_empty() {
            return Some(vec![Part::Lit(lit.value)]);
        }
        return None;
    }
    let rest = code.slice(start..range.end).trim_end();
    for mac in ["format!", "concat!"] {
        if let Some(after) = rest.strip_prefix(mac) {
            let open = start + mac.len() + (after.len() - after.trim_start().len());
            let args = code.args(open);
            let first = args.first()?.clone();
            if mac == "concat!" {
                let mut out = Vec::new();
                for a in args {
                    out.extend(parse_str(code, a)?);
                }
                return Some(out);
            }
            let template = code.string_at(first.start)?.value;
            let positional = args[1..].to_vec();
            return format_parts(code, &template, &positional);
        }
    }
    // `[base, "/api"].concat()`: the pieces in order; a local variable
    // (a value known only at run time, `let base = &CONFIG.domain_path()`)
    // becomes a placeholder segment named after it (`/{base}`).
    if let Some(inner) = rest.strip_suffix(".concat()") {
        let inner = inner.trim_end();
        if rest.starts_with('[') && code.matching(start) == Some(start + inner.len() - 1) {
            let mut out = Vec::new();
            for a in code.args(start) {
                let piece = code.slice(a.clone()).trim().trim_start_matches('&').trim();
                let local = piece.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                    && is_ident_str(piece);
                if local {
                    out.push(Part::Lit(format!("/{{{piece}}}")));
                } else {
                    out.extend(parse_str(code, a)?);
                }
            }
            return Some(out);
        }
    }
    let path = rest.trim();
    // `Endpoint::GetUser.path()`: a route-table variant's path, through an
    // accessor (see `items::route_table`).
    if let Some((head, call)) = path.rsplit_once('.') {
        // The chain may be broken across lines before the `.`.
        let (head, call) = (head.trim_end(), call.trim_start());
        if let (Some(method), Some((_, variant))) =
            (call.strip_suffix("()"), head.rsplit_once("::"))
        {
            if is_ident_str(method)
                && is_ident_str(variant)
                && head.bytes().all(|b| is_ident_byte(b) || b == b':')
            {
                return Some(vec![Part::Const(format!("{variant}.{method}"))]);
            }
        }
    }
    if !path.is_empty() && path.bytes().all(|b| is_ident_byte(b) || b == b':') {
        let name = path.rsplit("::").next().unwrap_or(path);
        if name.bytes().next().is_some_and(|b| b.is_ascii_uppercase()) {
            return Some(vec![Part::Const(name.to_string())]);
        }
    }
    None
}

fn is_ident_str(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident_byte)
}

fn format_parts(
    code: &Code,
    template: &str,
    positional: &[std::ops::Range<usize>],
) -> Option<Vec<Part>> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut next = 0;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let mut inner = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    inner.push(c);
                }
                let name = inner.split(':').next().unwrap_or("").trim();
                if !lit.is_empty() {
                    out.push(Part::Lit(std::mem::take(&mut lit)));
                }
                if name.is_empty() {
                    let arg = positional.get(next)?;
                    next += 1;
                    out.extend(parse_str(code, arg.clone())?);
                } else if name.bytes().all(|b| b.is_ascii_digit()) {
                    let arg = positional.get(name.parse::<usize>().ok()?)?;
                    out.extend(parse_str(code, arg.clone())?);
                } else {
                    out.push(Part::Const(name.to_string()));
                }
            }
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Part::Lit(lit));
    }
    Some(out)
}

/// Where a source file sits: its crate root (the folder holding `src/`)
/// and module path (`src/routes/users.rs` → `routes::users`,
/// `src/api/mod.rs` → `api`, `src/main.rs`/`src/lib.rs`/`src/bin/x.rs` → ``).
pub fn crate_and_module(path: &str) -> (String, String) {
    let Some(idx) = path
        .rfind("/src/")
        .map(|i| i + 1)
        .or_else(|| path.starts_with("src/").then_some(0))
    else {
        let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        return (dir.to_string(), String::new());
    };
    let root = path[..idx].trim_end_matches('/').to_string();
    let inside = &path[idx + "src/".len()..];
    let inside = inside.strip_suffix(".rs").unwrap_or(inside);
    let mut segs: Vec<&str> = inside.split('/').collect();
    if segs.first() == Some(&"bin") {
        return (root, String::new());
    }
    if matches!(segs.last(), Some(&"mod") | Some(&"main") | Some(&"lib")) {
        segs.pop();
    }
    (root, segs.join("::"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn parts(src: &str) -> Option<Vec<Part>> {
        let code = Code::new(src, Syntax::RUST);
        parse_str(&code, 0..src.len())
    }

    #[test]
    fn array_concat_with_a_runtime_base() {
        assert_eq!(
            parts("[base, \"/api\"].concat()"),
            Some(vec![Part::Lit("/{base}".into()), Part::Lit("/api".into())])
        );
        assert_eq!(
            parts("[API, \"/x\"].concat()"),
            Some(vec![Part::Const("API".into()), Part::Lit("/x".into())])
        );
        assert_eq!(parts("[a, b].len()"), None);
    }

    #[test]
    fn string_expressions() {
        assert_eq!(parts("\"/x\""), Some(vec![Part::Lit("/x".into())]));
        assert_eq!(parts("API"), Some(vec![Part::Const("API".into())]));
        assert_eq!(
            parts("crate::c::API"),
            Some(vec![Part::Const("API".into())])
        );
        assert_eq!(
            parts("&format!(\"{}/users/{{id}}\", API)"),
            Some(vec![
                Part::Const("API".into()),
                Part::Lit("/users/{id}".into())
            ])
        );
        assert_eq!(
            parts("format!(\"{V1}/a\")"),
            Some(vec![Part::Const("V1".into()), Part::Lit("/a".into())])
        );
        assert_eq!(
            parts("concat!(\"/a\", \"/b\")"),
            Some(vec![Part::Lit("/a".into()), Part::Lit("/b".into())])
        );
        assert_eq!(parts("path"), None);
        assert_eq!(parts("format!(\"{}\", x.y())"), None);
    }

    #[test]
    fn modules() {
        assert_eq!(
            crate_and_module("svc/src/routes/users.rs"),
            ("svc".into(), "routes::users".into())
        );
        assert_eq!(
            crate_and_module("src/api/mod.rs"),
            ("".into(), "api".into())
        );
        assert_eq!(
            crate_and_module("a/b/src/main.rs"),
            ("a/b".into(), "".into())
        );
        assert_eq!(crate_and_module("a/src/bin/x.rs"), ("a".into(), "".into()));
    }
}
