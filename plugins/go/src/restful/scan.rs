//! The go-restful map step: `ws.Route(<builder chain>)` registrations with
//! the root path of the WebService variable they are added to.

use std::ops::Range;

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use serde::{Deserialize, Serialize};

use crate::golang::facts::{Handler, TypeRef};
use crate::golang::framework::Framework;
use crate::golang::scan::{handler_in, param_type_ref};
use crate::golang::strexpr::StrExpr;
use crate::golang::syntax::{bytes, chain_start, compact, ident_here, prev_non_ws, skip_ws, trim};

/// The go-restful routes of one file: (file path, routes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RestfulFact {
    Routes(String, Vec<RRoute>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RRoute {
    pub line: u32,
    pub methods: Vec<String>,
    /// The WebService root path (`ws.Path("/users")`).
    pub root: StrExpr,
    pub path: StrExpr,
    /// Documented parameters (`Param(ws.QueryParameter("q", …))`).
    pub params: Vec<Param>,
    /// `Reads(T{})` body types.
    pub reads: Vec<TypeRef>,
    pub handler: Option<Handler>,
}

const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

pub fn scan(file: &SourceFile, code: &Code<'_>, fw: &Framework) -> Vec<RRoute> {
    let b = bytes(code);
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_word("Route") {
        if !code.is_code(at) {
            continue;
        }
        let open = skip_ws(code, at + "Route".len());
        if b.get(open) != Some(&b'(') {
            continue;
        }
        let Some(dot) = prev_non_ws(code, at).filter(|d| b[*d] == b'.') else {
            continue;
        };
        let recv = compact(code, chain_start(code, dot)..dot);
        if recv.is_empty()
            || !recv
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        {
            continue;
        }
        let Some(arg) = code.args(open).into_iter().next() else {
            continue;
        };
        // The enclosing top-level function.
        let func_start = text[..at].rfind("\nfunc ").map_or(0, |p| p + 1);
        let receiver = receiver_of(code, func_start);
        let Some(mut route) = builder(file, code, fw, trim(code, arg)) else {
            continue;
        };
        if let (Some(Handler::Refs(refs)), Some((rn, rt))) = (&mut route.handler, &receiver) {
            for r in refs.iter_mut() {
                if r.qual.as_deref() == Some(rn.as_str()) {
                    r.hint = Some(rt.clone());
                }
            }
        }
        route.root = root_path(code, &recv, func_start..at).unwrap_or_default();
        out.push(route);
    }
    out
}

/// `func (u UserResource) …` → (`u`, `UserResource`).
fn receiver_of(code: &Code<'_>, func_start: usize) -> Option<(String, String)> {
    let b = bytes(code);
    let open = skip_ws(code, func_start + 4);
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let (name, e) = ident_here(code, skip_ws(code, open + 1))?;
    let mut t = skip_ws(code, e);
    if b.get(t) == Some(&b'*') {
        t = skip_ws(code, t + 1);
    }
    let (ty, _) = ident_here(code, t)?;
    Some((name.to_string(), ty.to_string()))
}

/// The last `recv.Path(x)` (or `recv := new(restful.WebService).Path(x)`)
/// in `r`.
fn root_path(code: &Code<'_>, recv: &str, r: Range<usize>) -> Option<StrExpr> {
    let b = bytes(code);
    let mut found = None;
    for at in code.find_word("Path") {
        if at < r.start || at >= r.end || !code.is_code(at) {
            continue;
        }
        let open = skip_ws(code, at + 4);
        if b.get(open) != Some(&b'(') {
            continue;
        }
        let Some(dot) = prev_non_ws(code, at).filter(|d| b[*d] == b'.') else {
            continue;
        };
        let cs = chain_start(code, dot);
        let head = compact(code, cs..dot);
        let assigned = || {
            let before = code.text()[r.start..cs].trim_end();
            let before = before
                .strip_suffix(":=")
                .or_else(|| before.strip_suffix('='))?;
            let name_end = before.trim_end();
            let name_start = name_end
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |p| p + 1);
            Some(&name_end[name_start..] == recv)
        };
        let ok = head == recv
            || ((head.starts_with("new(") || head.starts_with("&restful.WebService"))
                && assigned() == Some(true));
        if !ok {
            continue;
        }
        if let Some(a) = code.args(open).into_iter().next() {
            if let Some(e) = crate::golang::strexpr::parse(code, a) {
                found = Some(e);
            }
        }
    }
    found
}

/// `ws.GET("/x").To(h).Param(ws.QueryParameter("q", "")).Reads(T{})`.
fn builder(file: &SourceFile, code: &Code<'_>, fw: &Framework, r: Range<usize>) -> Option<RRoute> {
    let b = bytes(code);
    let (_, mut i) = ident_here(code, r.start)?;
    let mut route = RRoute {
        line: 0,
        methods: Vec::new(),
        root: StrExpr::default(),
        path: StrExpr::default(),
        params: Vec::new(),
        reads: Vec::new(),
        handler: None,
    };
    let mut has_path = false;
    loop {
        let j = skip_ws(code, i);
        if j >= r.end || b.get(j) != Some(&b'.') {
            break;
        }
        let (name, e) = ident_here(code, skip_ws(code, j + 1))?;
        let open = skip_ws(code, e);
        if b.get(open) != Some(&b'(') {
            return None;
        }
        let close = code.matching(open)?;
        let args = code.args(open);
        let first = args.first().cloned();
        match name {
            m if METHODS.contains(&m) => {
                route.methods = vec![m.to_string()];
                route.path = crate::golang::strexpr::parse(code, first?)?;
                route.line = file.line_of(j + 1);
                has_path = true;
            }
            "Method" => {
                let lit = code.string_at(trim(code, first?).start)?;
                route.methods = vec![lit.value.to_ascii_uppercase()];
                if route.line == 0 {
                    route.line = file.line_of(j + 1);
                }
            }
            "Path" => {
                route.path = crate::golang::strexpr::parse(code, first?)?;
                has_path = true;
            }
            "To" => route.handler = handler_in(code, file, fw, first?),
            "Param" => {
                if let Some(p) = first.and_then(|a| doc_param(code, a)) {
                    if !route.params.contains(&p) {
                        route.params.push(p);
                    }
                }
            }
            "Reads" => {
                if let Some(t) = first.and_then(|a| body_type(code, a)) {
                    route.reads.push(t);
                }
            }
            _ => {}
        }
        i = close + 1;
    }
    (has_path && !route.methods.is_empty()).then_some(route)
}

/// `ws.QueryParameter("q", "…").DataType("string")` and friends.
fn doc_param(code: &Code<'_>, r: Range<usize>) -> Option<Param> {
    let b = bytes(code);
    let r = trim(code, r);
    let mut i = r.start;
    while i < r.end {
        let (name, e) = ident_here(code, i)?;
        let j = skip_ws(code, e);
        match b.get(j) {
            Some(b'.') => i = skip_ws(code, j + 1),
            Some(b'(') => {
                let kind = match name {
                    "PathParameter" => Some(ParamKind::Path),
                    "QueryParameter" => Some(ParamKind::Query),
                    "HeaderParameter" => Some(ParamKind::Header),
                    "FormParameter" | "MultiPartFormParameter" => Some(ParamKind::Form),
                    _ => None,
                };
                if let Some(kind) = kind {
                    let first = code.args(j).into_iter().next()?;
                    let lit = code.string_at(trim(code, first).start)?;
                    return Some(Param::new(kind, lit.value));
                }
                let close = code.matching(j)?;
                let k = skip_ws(code, close + 1);
                if b.get(k) != Some(&b'.') {
                    return None;
                }
                i = skip_ws(code, k + 1);
            }
            _ => return None,
        }
    }
    None
}

/// `User{}`, `&User{}`, `new(User)`, `[]User{}`, `dto.User{}`.
fn body_type(code: &Code<'_>, r: Range<usize>) -> Option<TypeRef> {
    let t = code.slice(trim(code, r)).trim();
    let t = t.trim_start_matches('&');
    let t = match t.strip_prefix("new(") {
        Some(inner) => inner.split(')').next()?,
        None => t.split('{').next()?,
    };
    param_type_ref(t.trim().trim_start_matches("[]"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restful::FRAMEWORK;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn builder_chains_and_root_paths() {
        let src = "package x\nfunc (u UserResource) WS() *restful.WebService {\n\tws := new(restful.WebService)\n\tws.Path(\"/users\").Consumes(restful.MIME_JSON)\n\tws.Route(ws.GET(\"/{id}\").To(u.find).\n\t\tParam(ws.QueryParameter(\"q\", \"query\")).Reads(User{}))\n\t// ws.Route(ws.POST(\"/gone\").To(u.find))\n\treturn ws\n}\n";
        let file = SourceFile::new("x.go", src);
        let code = file.code(Syntax::GO);
        let routes = scan(&file, &code, &FRAMEWORK);
        assert_eq!(routes.len(), 1);
        let r = &routes[0];
        assert_eq!(r.methods, vec!["GET"]);
        assert_eq!(r.root.literal().as_deref(), Some("/users"));
        assert_eq!(r.path.literal().as_deref(), Some("/{id}"));
        assert_eq!(r.params, vec![Param::query("q")]);
        assert_eq!(r.line, 5);
        assert!(
            matches!(&r.handler, Some(Handler::Refs(v)) if v[0].hint.as_deref() == Some("UserResource"))
        );
    }

    #[test]
    fn malformed_chains_do_not_panic() {
        for src in [
            "package x\nfunc f() { ws.Route(ws.GET(",
            "package x\nfunc f() { ws.Route(ws.GET(\"/a\").Param(ws.PathParameter(",
            "package x\nfunc f() { ws.Path(\nws.Route(",
            "package x\nfunc f() { ws.Route(ws.Method(x).Path(\"/a\").Reads(new(",
        ] {
            let file = SourceFile::new("m.go", src);
            let code = file.code(Syntax::GO);
            let _ = scan(&file, &code, &FRAMEWORK);
        }
    }
}
