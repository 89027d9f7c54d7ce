//! Request values read in a handler body.
//!
//! | code | param |
//! |---|---|
//! | `req.query["q"]`, `req.query[String.self, at: "q"]`, `req.query.get(Int.self, at: "q")` | query `q` |
//! | `try req.query.decode(Q.self)` | query: each stored property of `Q` |
//! | `try req.content.decode(T.self)`, `request.decode(as: T.self, …)`, `request.read(as: T.self)` | json: each stored property of `T` |
//! | `req.content["x"]`, `req.content.get(String.self, at: "x")` | json `x` |
//! | `req.headers["X"]`, `req.headers.first(name: "X")`, `req.headers[.contentType]`, `req.headers.bearerAuthorization` | header (`.contentType` → `Content-Type`) |
//! | `req.cookies["c"]` | cookie `c` |
//! | `request.uri.queryParameters.get("q")`, `request.queryParameters["q"]` | query `q` |
//!
//! Vapor negotiates `req.content` by the request's `Content-Type` at run
//! time (JSON, URL-encoded form or multipart); the route declares nothing,
//! so decoded bodies are reported as json. Path parameters
//! (`req.parameters.get("id")`) come from the URL placeholders.

use portolan_plugin_sdk::text::camel_to_header;
use serde::{Deserialize, Serialize};

use super::tokens::Toks;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Src {
    Query,
    Json,
    Header,
    Cookie,
    /// A multipart file part (`req.content.get(File.self, at: "f")`).
    File,
    /// Another part of a multipart body.
    Form,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Read {
    Param(Src, String),
    /// `decode(T.self)`: the stored properties of type `T`.
    Decode(Src, String),
}

/// `T.self` starting at token `k` → `T` (the last identifier before `.self`).
fn type_self(t: &Toks, r: std::ops::Range<usize>) -> Option<String> {
    let mut k = r.start;
    let mut last = None;
    while k < r.end {
        if t.word(k, "self") && k > r.start && t.punct(k - 1, ".") {
            return last;
        }
        if let Some(i) = t.ident(k) {
            last = Some(i.to_string());
        }
        k += 1;
    }
    None
}

/// The string of the argument labelled `at`/`name`, or the first string
/// argument, of the call opened at `open`.
fn key_arg(t: &Toks, open: usize, labels: &[&str]) -> Option<String> {
    let args = t.args(open);
    for a in &args {
        if let Some((label, v)) = t.labeled(a) {
            if labels.contains(&label) {
                if let Some(s) = t.string(v.start) {
                    return Some(s.text.clone());
                }
                if t.punct(v.start, ".") {
                    return t.ident(v.start + 1).map(camel_to_header);
                }
            }
        }
    }
    args.first()
        .and_then(|a| t.string(a.start))
        .map(|s| s.text.clone())
}

fn subscript_key(t: &Toks, open: usize, header: bool) -> Option<String> {
    if !t.punct(open, "[") {
        return None;
    }
    let close = t.close(open)?;
    if let Some(s) = t.string(open + 1).filter(|_| open + 2 == close) {
        return Some(s.text.clone());
    }
    if header && t.punct(open + 1, ".") && open + 3 == close {
        return t.ident(open + 2).map(camel_to_header);
    }
    key_arg(t, open, &["at"])
}

/// Reads in tokens `start..end`.
pub fn scan(t: &Toks, start: usize, end: usize) -> Vec<Read> {
    let mut out: Vec<Read> = Vec::new();
    let mut push = |r: Read| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    let mut k = start;
    while k + 1 < end {
        if !(t.punct(k, ".") && k > start) {
            k += 1;
            continue;
        }
        let Some(member) = t.ident(k + 1) else {
            k += 1;
            continue;
        };
        let n = k + 2;
        match member {
            "query" | "content" => {
                let src = if member == "query" {
                    Src::Query
                } else {
                    Src::Json
                };
                if let Some(key) = subscript_key(t, n, false) {
                    push(Read::Param(src, key));
                } else if t.punct(n, ".") && t.punct(n + 2, "(") {
                    let call = t.ident(n + 1).unwrap_or("");
                    let open = n + 2;
                    let close = t.close(open).unwrap_or(open);
                    if call == "decode" {
                        if let Some(ty) = type_self(t, open + 1..close) {
                            push(Read::Decode(src, ty));
                        }
                    } else if call == "get" || call == "require" {
                        if let Some(key) = key_arg(t, open, &["at"]) {
                            let file = member == "content"
                                && type_self(t, open + 1..close).is_some_and(|ty| ty == "File");
                            push(Read::Param(if file { Src::File } else { src }, key));
                        }
                    }
                }
            }
            "queryParameters" => {
                if let Some(key) = subscript_key(t, n, false) {
                    push(Read::Param(Src::Query, key));
                } else if t.punct(n, ".") && t.punct(n + 2, "(") {
                    if let Some(key) = key_arg(t, n + 2, &[]) {
                        push(Read::Param(Src::Query, key));
                    }
                }
            }
            "headers" => {
                if let Some(key) = subscript_key(t, n, true) {
                    push(Read::Param(Src::Header, key));
                } else if t.punct(n, ".") {
                    match t.ident(n + 1) {
                        Some("bearerAuthorization" | "basicAuthorization") => {
                            push(Read::Param(Src::Header, "Authorization".into()));
                        }
                        Some("first" | "contains" | "get" | "values") if t.punct(n + 2, "(") => {
                            if let Some(key) = key_arg(t, n + 2, &["name"]) {
                                push(Read::Param(Src::Header, key));
                            }
                        }
                        _ => {}
                    }
                }
            }
            "cookies" => {
                if let Some(key) = subscript_key(t, n, false) {
                    push(Read::Param(Src::Cookie, key));
                }
            }
            "decode" | "read" if t.punct(n, "(") && t.word(n + 1, "as") => {
                let close = t.close(n).unwrap_or(n);
                if let Some(ty) = type_self(t, n + 1..close) {
                    push(Read::Decode(Src::Json, ty));
                }
            }
            _ => {}
        }
        k += 2;
    }
    // A body with a file part is multipart: its other `content` keys are
    // form fields.
    if out.iter().any(|r| matches!(r, Read::Param(Src::File, _))) {
        for r in &mut out {
            if let Read::Param(s @ Src::Json, _) = r {
                *s = Src::Form;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(src: &str) -> Vec<Read> {
        let t = Toks::from_source(src);
        scan(&t, 0, t.len())
    }

    #[test]
    fn vapor_reads() {
        let r = reads(
            r#"
            let q = req.query["q"]
            let p: Int? = req.query[Int.self, at: "page"]
            let s = try req.query.get(String.self, at: "sort")
            let f = try req.query.decode(Filter.self)
            let dto = try req.content.decode(CreateUser.self, as: .json)
            let n = try req.content.get(String.self, at: "note")
            let a = req.headers["X-Api-Key"].first
            let b = req.headers.first(name: "X-Trace")
            let c = req.headers[.contentType]
            let t = req.headers.bearerAuthorization
            let s2 = req.cookies["session"]?.string
            let id = req.parameters.get("id")
            "#,
        );
        use Read::*;
        assert_eq!(
            r,
            [
                Param(Src::Query, "q".into()),
                Param(Src::Query, "page".into()),
                Param(Src::Query, "sort".into()),
                Decode(Src::Query, "Filter".into()),
                Decode(Src::Json, "CreateUser".into()),
                Param(Src::Json, "note".into()),
                Param(Src::Header, "X-Api-Key".into()),
                Param(Src::Header, "X-Trace".into()),
                Param(Src::Header, "Content-Type".into()),
                Param(Src::Header, "Authorization".into()),
                Param(Src::Cookie, "session".into()),
            ]
        );
    }

    #[test]
    fn hummingbird_and_kitura_reads() {
        let r = reads(
            r#"
            let q = request.uri.queryParameters.get("q")
            let body = try await request.decode(as: Todo.self, context: context)
            let k = request.queryParameters["limit"]
            let u = try request.read(as: User.self)
            "#,
        );
        use Read::*;
        assert_eq!(
            r,
            [
                Param(Src::Query, "q".into()),
                Decode(Src::Json, "Todo".into()),
                Param(Src::Query, "limit".into()),
                Decode(Src::Json, "User".into()),
            ]
        );
    }
}
