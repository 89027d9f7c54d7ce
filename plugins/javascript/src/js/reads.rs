//! Names read from a value an expression produces, for frameworks whose
//! handlers call functions to get their inputs: `getQuery(event).page`,
//! `const { a, b } = await readBody(event)`, `const form = await
//! request.formData(); form.get('email')`, `const body = await
//! request.json(); body.title`.

use portolan_plugin_sdk::{Code, Param, ParamKind};
use regex::Regex;
use std::ops::Range;

use super::request::destructured;
use super::syntax::{ident_at, is_js_ident};

/// A read found at an offset (to order reads of several sources).
pub type Found = Vec<(usize, Param)>;

/// The members read from the value of every match of `source` in `body`.
/// A `source` ending with `(` is a call: the match extends to its `)`.
/// Reads: `SRC.x`, `SRC?.x`, `SRC['x']`, `SRC.get('x')`, `const { a, b:
/// c } = SRC`, and through a variable (`const v = SRC; v.x; v.get('x');
/// const { a } = v`).
pub fn reads(code: &Code<'_>, body: Range<usize>, source: &Regex, kind: ParamKind) -> Found {
    let mut found: Found = Vec::new();
    let text = code.text();
    let bytes = text.as_bytes();
    let Some(slice) = text.get(body.clone()) else {
        return found;
    };
    for m in source.find_iter(slice) {
        let start = body.start + m.start();
        if !code.is_code(start) {
            continue;
        }
        let mut end = body.start + m.end();
        if m.as_str().ends_with('(') {
            let Some(close) = code.matching(end - 1) else {
                continue;
            };
            end = close + 1;
        }
        if let Some(name) = member_after(code, end) {
            found.push((start, Param::new(kind, name)));
            continue;
        }
        // What the value is bound to.
        let before = text[..start].trim_end();
        let before = before.strip_suffix("await").map_or(before, str::trim_end);
        let Some(before) = before.strip_suffix('=') else {
            continue;
        };
        if before.ends_with(['=', '!', '<', '>', '+', '-', '*', '/', '|', '&', '?']) {
            continue;
        }
        let before = strip_type(before.trim_end());
        if before.ends_with('}') {
            let close = before.len() - 1;
            if code.is_code(close) {
                for n in destructured(code, close) {
                    found.push((start, Param::new(kind, n)));
                }
            }
            continue;
        }
        let var: String = before
            .bytes()
            .rev()
            .take_while(|b| is_js_ident(*b))
            .map(char::from)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if var.is_empty() || var.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        for at in code.find_word_in(&var, end + 1..body.end) {
            if at > 0 && bytes[at - 1] == b'.' {
                continue;
            }
            if let Some(name) = member_after(code, at + var.len()) {
                found.push((at, Param::new(kind, name)));
            } else {
                let b = text[..at].trim_end();
                if let Some(b) = b.strip_suffix('=') {
                    let b = strip_type(b.trim_end());
                    if b.ends_with('}') && !b.ends_with("=}") {
                        for n in destructured(code, b.len() - 1) {
                            found.push((at, Param::new(kind, n)));
                        }
                    }
                }
            }
        }
    }
    found
}

/// `x: Type` → `x`, `{ a }: Type` → `{ a }` (simple type names only).
fn strip_type(s: &str) -> &str {
    let Some(colon) = s.rfind(':') else { return s };
    let ty = s[colon + 1..].trim();
    let simple = !ty.is_empty()
        && ty
            .bytes()
            .all(|b| is_js_ident(b) || matches!(b, b'.' | b'<' | b'>' | b'[' | b']' | b' ' | b','));
    let head = s[..colon].trim_end();
    if simple && (head.ends_with('}') || head.bytes().last().is_some_and(is_js_ident)) {
        head
    } else {
        s
    }
}

/// The member read right after `i`: `.x`, `?.x`, `['x']`, `.get('x')`
/// (also `getAll`/`has`); method calls other than those are not reads.
pub fn member_after(code: &Code<'_>, i: usize) -> Option<String> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut j = i;
    if bytes.get(j) == Some(&b'?') && bytes.get(j + 1) == Some(&b'.') {
        j += 2;
        if bytes.get(j) == Some(&b'[') {
            return bracket(code, j);
        }
    } else if bytes.get(j) == Some(&b'.') && bytes.get(j + 1) != Some(&b'.') {
        j += 1;
    } else if bytes.get(j) == Some(&b'[') {
        return bracket(code, j);
    } else {
        return None;
    }
    let r = ident_at(code, j)?;
    let name = code.slice(r.clone());
    if bytes.get(r.end) == Some(&b'(') {
        if matches!(name, "get" | "getAll" | "has") {
            let lit = code.string_at(code.skip_ws(r.end + 1))?;
            return (!lit.interpolated).then_some(lit.value);
        }
        return None;
    }
    Some(name.to_string())
}

fn bracket(code: &Code<'_>, open: usize) -> Option<String> {
    let lit = code.string_at(code.skip_ws(open + 1))?;
    (!lit.interpolated).then_some(lit.value)
}

/// Keep the first read of each (name, kind), in order of offset.
pub fn ordered(mut found: Found) -> Vec<Param> {
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Param> = Vec::new();
    for (_, p) in found {
        if !out.iter().any(|o| o.name == p.name && o.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

/// Parameters of a Fetch-API handler (SvelteKit, Astro, Remix, Fresh):
/// `searchParams.get('q')` (query), `await request.json()` (JSON) and
/// `await request.formData()` (form) with their reads,
/// `headers.get('x')` (header), `cookies.get('c')` (cookie).
pub fn web_params(code: &Code<'_>, body: Range<usize>) -> Vec<Param> {
    let mut found: Found = Vec::new();
    let text = code.text();
    let Some(slice) = text.get(body.clone()) else {
        return Vec::new();
    };
    static GETS: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let gets = GETS.get_or_init(|| {
        crate::js::pattern::regex(r#"\b(searchParams|[Hh]eaders|cookies)\b[()\s]*\??\.\s*(?:get|getAll|has)\(\s*['"`]([^'"`]+)['"`]"#).unwrap_or_else(crate::js::pattern::never)
    });
    for c in gets.captures_iter(slice) {
        let (Some(all), Some(what), Some(name)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(body.start + all.start()) {
            continue;
        }
        let kind = match what.as_str() {
            "searchParams" => ParamKind::Query,
            "cookies" => ParamKind::Cookie,
            _ => ParamKind::Header,
        };
        found.push((body.start + all.start(), Param::new(kind, name.as_str())));
    }
    static JSON: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    static FORM: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let json = JSON.get_or_init(|| {
        crate::js::pattern::regex(r"\b[A-Za-z_$][\w$]*\s*\.\s*json\(")
            .unwrap_or_else(crate::js::pattern::never)
    });
    let form = FORM.get_or_init(|| {
        crate::js::pattern::regex(r"\b[A-Za-z_$][\w$]*\s*\.\s*formData\(")
            .unwrap_or_else(crate::js::pattern::never)
    });
    found.extend(
        reads(code, body.clone(), json, ParamKind::Json)
            .into_iter()
            .filter(|(_, p)| !is_response_member(&p.name)),
    );
    found.extend(reads(code, body, form, ParamKind::Form));
    ordered(found)
}

/// `res.json().then` and friends are not fields.
fn is_response_member(name: &str) -> bool {
    matches!(name, "then" | "catch" | "finally")
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn names(ps: Vec<Param>) -> Vec<(String, ParamKind)> {
        ps.into_iter().map(|p| (p.name, p.kind)).collect()
    }

    #[test]
    fn reads_through_calls_and_variables() {
        let src = "async (event) => {\n  const q = getQuery(event)\n  const page = q.page ?? q['per-page']\n  const { title, tags: t }: Body = await readBody(event)\n  getQuery(event).sort\n  // getQuery(event).no\n  q.toString()\n}";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let re_q = Regex::new(r"\bgetQuery\(").unwrap();
        let re_b = Regex::new(r"\breadBody\(").unwrap();
        let mut f = reads(&code, 0..src.len(), &re_q, ParamKind::Query);
        f.extend(reads(&code, 0..src.len(), &re_b, ParamKind::Json));
        use ParamKind::*;
        assert_eq!(
            names(ordered(f)),
            vec![
                ("page".to_string(), Query),
                ("per-page".into(), Query),
                ("title".into(), Json),
                ("tags".into(), Json),
                ("sort".into(), Query),
            ]
        );
    }

    #[test]
    fn web_handler() {
        let src = "export async function POST({ request, url, cookies }) {\n  const data = await request.formData();\n  const email = data.get('email');\n  const q = url.searchParams.get('q');\n  const sid = cookies.get('sid');\n  const key = request.headers.get('x-api-key');\n  const { title } = await request.json();\n}";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        use ParamKind::*;
        assert_eq!(
            names(web_params(&code, 0..src.len())),
            vec![
                ("email".to_string(), Form),
                ("q".into(), Query),
                ("sid".into(), Cookie),
                ("x-api-key".into(), Header),
                ("title".into(), Json),
            ]
        );
    }
}
