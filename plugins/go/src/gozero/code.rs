//! go-zero Go sources: `AddRoutes`/`AddRoute` registrations, request
//! structs and handler functions.

use std::collections::HashMap;

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};

use super::{Fact, Route};
use crate::golang::scan::struct_fields;

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let code = file.code(Syntax::GO);
    let path = file.slash_path();
    let consts = consts(&code);
    let mut out = Vec::new();
    structs(&code, &path, &mut out);
    handlers(&code, &path, &mut out);
    for needle in [".AddRoutes(", ".AddRoute("] {
        for i in code.find_all(needle) {
            let open = i + needle.len() - 1;
            let Some(close) = code.matching(open) else {
                continue;
            };
            registrations(file, &code, &path, &consts, open, close, &mut out);
        }
    }
    out
}

/// String constants of the file (`const X = "…"`, also in groups).
fn consts(code: &Code<'_>) -> HashMap<String, String> {
    let b = code.text().as_bytes();
    let mut out = HashMap::new();
    for lit in code.strings() {
        let Some(eq) = (0..lit.start).rev().find(|&j| !b[j].is_ascii_whitespace()) else {
            continue;
        };
        if b[eq] != b'=' || eq == 0 || matches!(b[eq - 1], b'=' | b'!' | b':' | b'<' | b'>') {
            continue;
        }
        let after = code.skip_inline_ws(lit.end);
        if !matches!(
            b.get(after),
            None | Some(b'\n') | Some(b'\r') | Some(b';') | Some(b')')
        ) {
            continue;
        }
        if let Some(name) = code.ident_before(eq) {
            out.insert(name.to_string(), lit.value);
        }
    }
    out
}

fn string_of(
    code: &Code<'_>,
    consts: &HashMap<String, String>,
    r: std::ops::Range<usize>,
) -> Option<String> {
    crate::golang::strexpr::parse(code, r)?
        .resolve(&mut |n| consts.get(n.rsplit('.').next().unwrap_or(n)).cloned())
}

/// `type X struct {…}`, also inside `type (…)` groups.
fn structs(code: &Code<'_>, path: &str, out: &mut Vec<Fact>) {
    let b = code.text().as_bytes();
    for i in code.find_word("struct") {
        let open = code.skip_ws(i + "struct".len());
        if b.get(open) != Some(&b'{') {
            continue;
        }
        let Some(name) = code.ident_before(i) else {
            continue;
        };
        // The word before the name: `type` or a line break inside a group.
        let before = code.text()[..i].trim_end();
        let before =
            before[..before.len().saturating_sub(name.len())].trim_end_matches([' ', '\t']);
        let prev_word_type = before.ends_with("type");
        let group_line = before.ends_with('\n');
        if !(prev_word_type || group_line) || name == "struct" {
            continue;
        }
        let Some(close) = code.matching(open) else {
            continue;
        };
        out.push(Fact::Type {
            path: path.to_string(),
            name: name.to_string(),
            fields: struct_fields(code, open, close),
        });
    }
}

/// Functions reading a request: `var req types.X` + `httpx.Parse…(r,
/// &req)`, and direct reads of the `*http.Request`.
fn handlers(code: &Code<'_>, path: &str, out: &mut Vec<Fact>) {
    let text = code.text();
    let b = text.as_bytes();
    for i in code.find_word("func") {
        // Top-level functions only (`func Name(`, no receiver).
        if i > 0 && b[i - 1] != b'\n' {
            continue;
        }
        let Some(name) = code.ident_at(i + 4) else {
            continue;
        };
        let Some(body_open) = (i..b.len()).find(|&j| b[j] == b'{' && code.is_code(j)) else {
            continue;
        };
        let Some(body_close) = code.matching(body_open) else {
            continue;
        };
        let body = &text[body_open..body_close];
        let mut types = Vec::new();
        if body.contains("httpx.Parse") {
            for (k, _) in body.match_indices("var ") {
                let rest = &body[k + 4..];
                let mut words = rest.split_whitespace();
                let (Some(_var), Some(ty)) = (words.next(), words.next()) else {
                    continue;
                };
                let ty = ty.trim_start_matches('*');
                let short = ty.rsplit('.').next().unwrap_or(ty);
                if short.bytes().next().is_some_and(|c| c.is_ascii_uppercase())
                    && short.bytes().all(is_ident_byte)
                {
                    types.push(short.to_string());
                }
            }
        }
        let mut params = Vec::new();
        for (needle, kind) in [
            (".URL.Query().Get(", ParamKind::Query),
            (".FormValue(", ParamKind::Form),
            (".PostFormValue(", ParamKind::Form),
            (".Header.Get(", ParamKind::Header),
            (".PathValue(", ParamKind::Path),
        ] {
            for (k, _) in body.match_indices(needle) {
                let at = body_open + k + needle.len();
                if !code.is_code(body_open + k) {
                    continue;
                }
                if let Some(lit) = code.string_at(at) {
                    let p = Param::new(kind, lit.value);
                    if !params.contains(&p) {
                        params.push(p);
                    }
                }
            }
        }
        if !types.is_empty() || !params.is_empty() {
            out.push(Fact::Handler {
                path: path.to_string(),
                name: name.to_string(),
                types,
                params,
            });
        }
    }
}

/// The routes of one `AddRoutes(…)` / `AddRoute(…)` call.
#[allow(clippy::too_many_arguments)]
fn registrations(
    file: &SourceFile,
    code: &Code<'_>,
    path: &str,
    consts: &HashMap<String, String>,
    open: usize,
    close: usize,
    out: &mut Vec<Fact>,
) {
    let text = code.text();
    let b = text.as_bytes();
    let mut prefix = String::new();
    for (k, _) in text[open..close].match_indices("WithPrefix(") {
        let p = open + k + "WithPrefix".len();
        if let Some(arg) = code.args(p).first() {
            if let Some(v) = string_of(code, consts, arg.clone()) {
                prefix = v;
            }
        }
    }
    for (k, _) in text[open..close].match_indices("Path:") {
        let at = open + k;
        if !code.is_code(at) || (at > 0 && is_ident_byte(b[at - 1])) {
            continue;
        }
        // The enclosing composite literal.
        let mut depth = 0i32;
        let Some(lit_open) = (open..at).rev().find(|&j| {
            if !code.is_code(j) {
                return false;
            }
            match b[j] {
                b'}' | b')' | b']' => depth += 1,
                b'{' | b'(' | b'[' => {
                    if depth == 0 {
                        return true;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            false
        }) else {
            continue;
        };
        if b[lit_open] != b'{' {
            continue;
        }
        let mut method = None;
        let mut url = None;
        let mut handler = None;
        for arg in code.args(lit_open) {
            let Some((key, value)) = code.keyword_arg(arg) else {
                continue;
            };
            match key {
                "Method" => {
                    let v = code.slice(value.clone()).trim();
                    method = match code.string_at(value.start) {
                        Some(l) => Some(l.value.to_ascii_uppercase()),
                        None => v
                            .rsplit('.')
                            .next()
                            .and_then(|m| m.strip_prefix("Method"))
                            .map(str::to_ascii_uppercase),
                    };
                }
                "Path" => url = string_of(code, consts, value),
                "Handler" => {
                    let v = code.slice(value).trim();
                    let callee = v.split('(').next().unwrap_or(v);
                    handler = callee.rsplit('.').next().map(str::to_string);
                }
                _ => {}
            }
        }
        let (Some(method), Some(url)) = (method, url) else {
            continue;
        };
        out.push(Fact::GoRoute(Route {
            path: path.to_string(),
            line: file.line_of(at),
            method,
            url: join(&[prefix.as_str(), url.as_str()]),
            target: handler.filter(|h| !h.is_empty()),
            params: Vec::new(),
        }));
    }
}
