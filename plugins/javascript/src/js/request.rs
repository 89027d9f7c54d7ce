//! Parameters an Express-style handler reads from its request object:
//! `req.query.x`, `req.query['x']`, `const { a, b: c } = req.query`,
//! `req.body.x` (JSON), `req.params.id`, `req.headers['x-y']`,
//! `req.get('X-Y')` / `req.header('X-Y')`, `req.cookies.x`,
//! `req.signedCookies.x`. Koa's `ctx.query`, `ctx.request.body`,
//! `ctx.params`, `ctx.get()`, `ctx.cookies.get()` read the same way.

use portolan_plugin_sdk::{Code, Param, ParamKind};
use std::ops::Range;

use super::syntax::{ident_at, matching_back};

fn kind_of(member: &str) -> Option<ParamKind> {
    Some(match member {
        "query" => ParamKind::Query,
        "body" => ParamKind::Json,
        "params" => ParamKind::Path,
        "headers" => ParamKind::Header,
        "cookies" | "signedCookies" => ParamKind::Cookie,
        _ => return None,
    })
}

/// Skip `.`/`?.` at `i`; the offset after it.
fn dot(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i) {
        Some(b'.') if bytes.get(i + 1) != Some(&b'.') => Some(i + 1),
        Some(b'?') if bytes.get(i + 1) == Some(&b'.') && bytes.get(i + 2) != Some(&b'[') => {
            Some(i + 2)
        }
        _ => None,
    }
}

/// The member read right after `i`: `.name`, `?.name`, `['name']`.
fn member_at(code: &Code<'_>, i: usize) -> Option<String> {
    let bytes = code.text().as_bytes();
    if let Some(j) = dot(bytes, i) {
        let r = ident_at(code, j)?;
        return Some(code.slice(r).to_string());
    }
    let mut j = i;
    if bytes.get(j) == Some(&b'?') && bytes.get(j + 1) == Some(&b'.') {
        j += 2;
    }
    if bytes.get(j) == Some(&b'[') {
        let lit = code.string_at(j + 1)?;
        if !lit.interpolated {
            return Some(lit.value);
        }
    }
    None
}

/// Names bound by a destructuring pattern `{ a, b: c, d = 1, ...rest }`
/// whose `}` is at `close`.
pub fn destructured(code: &Code<'_>, close: usize) -> Vec<String> {
    let Some(open) = matching_back(code, close) else {
        return Vec::new();
    };
    code.split_top_level(open + 1, close, b',')
        .into_iter()
        .filter_map(|r| {
            let t = code.slice(r.clone());
            if t.starts_with("...") {
                return None;
            }
            if let Some(lit) = code.string_at(r.start).filter(|l| l.start == r.start) {
                return Some(lit.value);
            }
            let name: String = t
                .bytes()
                .take_while(|b| super::syntax::is_js_ident(*b))
                .map(char::from)
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// If the expression at `start` is the right side of `{ … } = `, the
/// offset of the `}`.
fn destructuring_before(code: &Code<'_>, start: usize) -> Option<usize> {
    let text = code.text();
    let before = text[..start].trim_end();
    let before = before.strip_suffix("await").map_or(before, str::trim_end);
    let before = before.strip_suffix('=')?;
    if before.ends_with(['=', '!', '<', '>']) {
        return None;
    }
    let before = before.trim_end();
    let mut end = before.len();
    // `const { a }: Query = req.query`
    if !before.ends_with('}') {
        let colon = before.rfind("}:")?;
        end = colon + 1;
    }
    let close = end.checked_sub(1)?;
    (text.as_bytes().get(close) == Some(&b'}') && code.is_code(close)).then_some(close)
}

/// Parameters read from `req` in `body`, in order of first appearance.
pub fn request_params(code: &Code<'_>, body: Range<usize>, req: &str) -> Vec<Param> {
    let mut found: Vec<(usize, Param)> = Vec::new();
    if req.is_empty() {
        return Vec::new();
    }
    let bytes = code.text().as_bytes();
    // Only the body: one search of the whole file per handler is
    // quadratic on bundles (thousands of functions whose first parameter
    // is `e`).
    for at in code.find_word_in(req, body.clone()) {
        // Not a member of something else (`this.req`).
        if at > 0 && bytes[at - 1] == b'.' {
            continue;
        }
        let Some(j) = dot(bytes, at + req.len()) else {
            continue;
        };
        let Some(mr) = ident_at(code, j) else {
            continue;
        };
        let mut member = code.slice(mr.clone()).to_string();
        let mut end = mr.end;
        // Koa: ctx.request.body / ctx.request.query.
        if member == "request" {
            if let Some(k) = dot(bytes, end) {
                if let Some(r2) = ident_at(code, k) {
                    member = code.slice(r2.clone()).to_string();
                    end = r2.end;
                }
            }
        }
        match member.as_str() {
            "get" | "header" => {
                if bytes.get(end) == Some(&b'(') {
                    if let Some(lit) = code.string_at(end + 1) {
                        found.push((at, Param::header(lit.value)));
                    }
                }
                continue;
            }
            _ => {}
        }
        // Koa: ctx.cookies.get('x').
        if member == "cookies" {
            if let Some(k) = dot(bytes, end) {
                if code.slice(k..(k + 4).min(bytes.len())) == "get(" {
                    if let Some(lit) = code.string_at(k + 4) {
                        found.push((at, Param::cookie(lit.value)));
                    }
                    continue;
                }
                // `ctx.cookies.set('x', v)`: a response cookie, not an input.
                if let Some(r) = ident_at(code, k) {
                    if bytes.get(r.end) == Some(&b'(') {
                        continue;
                    }
                }
            }
        }
        let Some(kind) = kind_of(&member) else {
            continue;
        };
        if let Some(name) = member_at(code, end) {
            found.push((at, Param::new(kind, name)));
        } else if let Some(close) = destructuring_before(code, at) {
            for name in destructured(code, close) {
                found.push((at, Param::new(kind, name)));
            }
        }
    }
    // Destructuring the request itself: `const { query: { page } } = req`
    // is rare; `const { id } = req.params` is covered above.
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Param> = Vec::new();
    for (_, p) in found {
        if !out.iter().any(|o| o.name == p.name && o.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn reads_request() {
        let src = "async (req, res) => {\n  const { page, limit: l = 10, ...rest } = req.query;\n  const q = req.query['sort'];\n  const { title } = await req.body;\n  req.body.tags; req.params.id; req.headers['x-api-key']; req.get('X-Trace');\n  req.cookies.sid; req.signedCookies?.token; this.req.query.no;\n  // req.query.commented\n}";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let ps: Vec<_> = request_params(&code, 0..src.len(), "req")
            .into_iter()
            .map(|p| (p.name, p.kind))
            .collect();
        use ParamKind::*;
        assert_eq!(
            ps,
            vec![
                ("page".to_string(), Query),
                ("limit".into(), Query),
                ("sort".into(), Query),
                ("title".into(), Json),
                ("tags".into(), Json),
                ("id".into(), Path),
                ("x-api-key".into(), Header),
                ("X-Trace".into(), Header),
                ("sid".into(), Cookie),
                ("token".into(), Cookie),
            ]
        );
    }
}
