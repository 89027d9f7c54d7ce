//! goctl `.api` files: `type` declarations, `@server(…)` options and the
//! routes of `service` blocks.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Code, SourceFile, Syntax};

use super::{Fact, Route};
use crate::golang::scan::struct_fields;

const METHODS: &[&str] = &["get", "post", "put", "delete", "patch", "head", "options"];

fn word_at(code: &Code<'_>, i: usize, w: &str) -> bool {
    let b = code.text().as_bytes();
    code.is_code(i)
        && (i == 0 || !is_ident_byte(b[i - 1]))
        && b[i..].starts_with(w.as_bytes())
        && !b.get(i + w.len()).is_some_and(|c| is_ident_byte(*c))
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let code = file.code(Syntax::GO);
    let text = code.text();
    let b = text.as_bytes();
    let path = file.slash_path();
    let mut out = Vec::new();
    let mut server: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !code.is_code(i) {
            i += 1;
            continue;
        }
        if word_at(&code, i, "type") {
            let s = code.skip_ws(i + 4);
            if b.get(s) == Some(&b'(') {
                let close = code.matching(s).unwrap_or(b.len());
                types(&code, &path, s + 1, close, &mut out);
                i = close + 1;
            } else {
                i = types(&code, &path, s, b.len(), &mut out).max(i + 4);
            }
            continue;
        }
        if b[i..].starts_with(b"@server") {
            let open = code.skip_ws(i + "@server".len());
            if b.get(open) == Some(&b'(') {
                let close = code.matching(open).unwrap_or(b.len());
                server = options(code.slice(open + 1..close));
                i = close + 1;
                continue;
            }
        }
        if word_at(&code, i, "service") {
            let Some(open) = (i..b.len()).find(|&j| b[j] == b'{' && code.is_code(j)) else {
                break;
            };
            let close = code.matching(open).unwrap_or(b.len());
            let prefix = server
                .iter()
                .find(|(k, _)| k == "prefix")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            routes(file, &code, &path, &prefix, open + 1, close, &mut out);
            server.clear();
            i = close + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// `key: value` lines of `@server(…)`.
fn options(body: &str) -> Vec<(String, String)> {
    body.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Type declarations `Name [struct] {…}` from `start` until `end` (a group
/// body) or after the first one (a single `type`); returns where it stopped.
fn types(code: &Code<'_>, path: &str, start: usize, end: usize, out: &mut Vec<Fact>) -> usize {
    let b = code.text().as_bytes();
    let mut i = code.skip_ws(start);
    while i < end.min(b.len()) {
        let Some(name) = code.ident_at(i).map(str::to_string) else {
            return i + 1;
        };
        let mut j = code.skip_ws(i + name.len());
        if code.ident_at(j) == Some("struct") {
            j = code.skip_ws(j + "struct".len());
        }
        if b.get(j) != Some(&b'{') {
            // An alias or something else: skip the line.
            let nl = code.text()[j.min(b.len())..]
                .find('\n')
                .map_or(b.len(), |n| j + n + 1);
            if end == b.len() {
                return nl;
            }
            i = code.skip_ws(nl);
            continue;
        }
        let close = code.matching(j).unwrap_or(end).min(end);
        out.push(Fact::Type {
            path: path.to_string(),
            name,
            fields: struct_fields(code, j, close),
        });
        if end == b.len() {
            return close + 1;
        }
        i = code.skip_ws(close + 1);
    }
    end
}

#[allow(clippy::too_many_arguments)]
fn routes(
    file: &SourceFile,
    code: &Code<'_>,
    path: &str,
    prefix: &str,
    start: usize,
    end: usize,
    out: &mut Vec<Fact>,
) {
    let text = code.text();
    let mut line_start = start;
    for line in text[start..end].split_inclusive('\n') {
        let at = line_start;
        line_start += line.len();
        let l = line.trim();
        let lead = at + (line.len() - line.trim_start().len());
        if !code.is_code(lead) {
            continue;
        }
        let mut words = l.split_whitespace();
        let Some(m) = words.next() else { continue };
        if !METHODS.contains(&m) {
            continue;
        }
        let rest = l[m.len()..].trim_start();
        let url_end = rest
            .find(|c: char| c.is_whitespace() || c == '(')
            .unwrap_or(rest.len());
        let url = &rest[..url_end];
        if !url.starts_with('/') {
            continue;
        }
        let after = rest[url_end..].trim_start();
        let target = after
            .strip_prefix('(')
            .and_then(|r| r.split_once(')'))
            .map(|(t, _)| t.trim().to_string())
            .filter(|t| !t.is_empty());
        out.push(Fact::ApiRoute(Route {
            path: path.to_string(),
            line: file.line_of(lead),
            method: m.to_ascii_uppercase(),
            url: join(&[prefix, url]),
            target,
            params: Vec::new(),
        }));
    }
}
