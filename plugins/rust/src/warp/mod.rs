//! Warp (`rust_warp`).
//!
//! Warp routes are filter expressions. Each function's `let` filters, its
//! tail expression and the argument of `warp::serve(…)` are parsed into a
//! small filter algebra: `a.and(b)` concatenates path segments and
//! extracted values, `a.or(b)` is a union, `.and_then(h)`/`.map(h)`/
//! `.then(h)` attach a handler (its extracted value replaces the inner
//! ones), and `.with(…)`, `.boxed()`, `.recover(…)`, `.untuple_one()` are
//! transparent. Variables and functions returning filters (other modules
//! and crates: `api::routes(db.clone())`) are followed; the endpoints are
//! those of every `warp::serve` argument.
//!
//! Atoms: `warp::path!("users" / u64 / "tags")` and `warp::path("api")`
//! (literals or constants), `warp::path::param::<T>()`, `warp::path::end()`,
//! `warp::get()`/`post()`/… (a route without one serves every method:
//! reported as GET, POST, PUT, PATCH and DELETE), `warp::fs::dir`/`file`
//! (GET), `warp::query::<T>()` (query fields of `T`), `warp::body::json::<T>()`
//! / `warp::body::form::<T>()` (json / form fields), `warp::header::<T>("x")`,
//! `header::optional`, `header::exact("x", …)` (header), `warp::cookie("c")`,
//! `cookie::optional` (cookie), `warp::multipart::form()` (a `file` param)
//! and `warp::ws()` (the route is a WebSocket endpoint).
//!
//! Handler parameters line up with the values the filters extract, in
//! order: path parameters take the handler's parameter names (`{id}`; a
//! name that cannot be read gives `{param1}`…), and an untyped
//! `warp::query()`/`body::json()`/`body::form()` takes the struct type of
//! the handler parameter in its position. Unknown filters (`with_db(db)`)
//! count as one extracted value.
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rs::expr::{crate_and_module, parse_str, Part};
use crate::rs::items::{self, is_ident};
use crate::rs::router::link::{FnId, Linker};
use crate::rs::router::scan::{call_target, primary, FileFacts, FnFacts, Target, ANY, METHODS};
use crate::rs::{skipped_path, FILES};

pub struct Warp;

impl Analyzer for Warp {
    fn tech(&self) -> Tech {
        Tech::new("rust_warp", "Rust", "Warp")
            .aliases(["warp"])
            .files(FILES.iter().copied())
            .detect(Detect::files(["Cargo.toml"]).regex([r"(?s)dependencies.*\bwarp\b"]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if !path.ends_with(".rs") || skipped_path(&path) {
            return;
        }
        out.fact(&scan(file));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts.all()))
    }
}

/// A path segment of `path!`/`path(…)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PSeg {
    Lit(Vec<Part>),
    Param,
}

/// A value a filter extracts (or a param it checks without extracting).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum X {
    PathParam,
    Query(Option<String>),
    Json(Option<String>),
    Form(Option<String>),
    Header(String),
    /// `header::exact`: a header checked, nothing extracted.
    HeaderExact(String),
    Cookie(String),
    File,
    Ws,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum F {
    Path {
        segs: Vec<PSeg>,
        line: u32,
    },
    Method(String),
    Extract(X),
    Nothing,
    And(Box<F>, Box<F>),
    Or(Box<F>, Box<F>),
    Mapped {
        inner: Box<F>,
        handler: Option<Target>,
        line: u32,
        /// A closure handler's typed parameters (`|id: u64, body: Todo|`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        closure: Vec<(String, String)>,
    },
    Ref(Target),
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WarpFn {
    pub name: String,
    pub params: Vec<(String, String)>,
    pub lets: Vec<(String, F)>,
    pub tail: Option<F>,
    pub serves: Vec<F>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WarpFile {
    pub base: FileFacts,
    pub fns: Vec<WarpFn>,
}

pub fn scan(file: &SourceFile) -> WarpFile {
    let path = file.slash_path();
    let code = file.code(Syntax::RUST);
    let skip = items::test_ranges(&code);
    let (krate, module) = crate_and_module(&path);
    let decls = items::functions(&code, &skip);
    let mut fns = Vec::new();
    let mut base_fns = Vec::new();
    for f in &decls {
        base_fns.push(FnFacts {
            name: f.name.clone(),
            ..FnFacts::default()
        });
        let body = f.body.start + 1..f.body.end.saturating_sub(1);
        let mut w = WarpFn {
            name: f.name.clone(),
            params: f
                .params
                .iter()
                .map(|p| {
                    let pat = p.pattern.trim_start_matches("mut ").trim().to_string();
                    (pat, p.ty.clone())
                })
                .collect(),
            ..WarpFn::default()
        };
        let nested: Vec<Range<usize>> = decls
            .iter()
            .filter(|d| d.body.start > f.body.start && d.body.end <= f.body.end)
            .map(|d| d.kw..d.body.end)
            .collect();
        let stmts = statements(&code, body.clone());
        let last = stmts.last().cloned();
        for st in &stmts {
            if items::inside(&nested, st.start) {
                continue;
            }
            let text = code.slice(st.clone());
            if let Some(rest) = text.strip_prefix("let ") {
                let rest = rest.trim_start();
                let rest = rest.strip_prefix("mut ").unwrap_or(rest);
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let Some(eq) = text.find('=') else { continue };
                if !is_ident(&name) {
                    continue;
                }
                if let Some(fx) = parse_expr(file, &code, st.start + eq + 1..st.end) {
                    if interesting(&fx) {
                        w.lets.push((name, fx));
                    }
                }
            } else if Some(st) == last.as_ref() && !code.slice(st.end..body.end).contains(';') {
                if let Some(fx) = parse_expr(file, &code, st.clone()) {
                    if interesting(&fx) {
                        w.tail = Some(fx);
                    }
                }
            }
        }
        for at in code.find_all_in("warp::serve", body.clone()) {
            let open = code.skip_ws(at + "warp::serve".len());
            if code.text().as_bytes().get(open) != Some(&b'(') {
                continue;
            }
            if let Some(arg) = code.args(open).into_iter().next() {
                if let Some(fx) = parse_expr(file, &code, arg) {
                    w.serves.push(fx);
                }
            }
        }
        fns.push(w);
    }
    WarpFile {
        base: FileFacts {
            path,
            krate,
            module,
            consts: items::str_consts(&code, &skip),
            structs: items::structs(&code, &skip),
            fns: base_fns,
            aliases: Vec::new(),
        },
        fns,
    }
}

/// Not just a bare reference (worth keeping as a let or tail).
fn interesting(f: &F) -> bool {
    !matches!(f, F::Ref(_) | F::Nothing)
        || matches!(f, F::Ref(Target::Call { qual: Some(q), .. }) if q.rsplit("::").next() == Some("warp"))
}

/// Top-level statements of a block (split at `;` outside brackets).
fn statements(code: &Code, r: Range<usize>) -> Vec<Range<usize>> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = r.start;
    for i in r.clone() {
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 => {
                push_stmt(code, start..i, &mut out);
                start = i + 1;
            }
            _ => {}
        }
    }
    push_stmt(code, start..r.end, &mut out);
    out
}

fn push_stmt(code: &Code, r: Range<usize>, out: &mut Vec<Range<usize>>) {
    let s = code.skip_ws(r.start);
    let text = code.slice(s..r.end.max(s));
    let trimmed = text.trim_end();
    if !trimmed.is_empty() {
        out.push(s..s + trimmed.len());
    }
}

/// `::<T>` right after a path segment: `T`'s name.
fn turbofish(code: &Code, seg_at: usize, end: usize) -> Option<String> {
    let text = code.slice(seg_at..end);
    let i = text.find("::<")?;
    let bytes = code.text().as_bytes();
    let close = items::angle_end(bytes, seg_at + i + 2)?;
    let ty = items::type_name(&code.text()[seg_at + i + 3..close]);
    (ty.starts_with(|c: char| c.is_ascii_uppercase()) && ty != "HashMap" && ty != "String")
        .then_some(ty)
}

fn parse_expr(file: &SourceFile, code: &Code, r: Range<usize>) -> Option<F> {
    let bytes = code.text().as_bytes();
    let start = code.skip_ws(r.start);
    if start >= r.end {
        return None;
    }
    let (mut f, mut end) = if bytes.get(start) == Some(&b'(') {
        let close = code.matching(start)?;
        (parse_expr(file, code, start + 1..close)?, close + 1)
    } else {
        atom(file, code, start)?
    };
    loop {
        let mut p = code.skip_ws(end);
        while bytes.get(p) == Some(&b'?') {
            p = code.skip_ws(p + 1);
        }
        if p >= r.end || bytes.get(p) != Some(&b'.') {
            break;
        }
        let Some((seg, e)) = primary(code, p + 1) else {
            break;
        };
        end = e;
        let arg = seg
            .args
            .as_ref()
            .and_then(|a| code.args(a.start).into_iter().next());
        f = match seg.path.as_str() {
            "and" => {
                let rhs = arg
                    .and_then(|a| parse_expr(file, code, a))
                    .unwrap_or(F::Extract(X::Other));
                F::And(Box::new(f), Box::new(rhs))
            }
            "or" => {
                let rhs = arg.and_then(|a| parse_expr(file, code, a))?;
                F::Or(Box::new(f), Box::new(rhs))
            }
            "and_then" | "map" | "then" => {
                // The whole argument list: a closure's `|a: T, b: U|` has
                // top-level commas.
                let closure = seg
                    .args
                    .as_ref()
                    .and_then(|a| Some(code.slice(a.start + 1..code.matching(a.start)?)))
                    .map(closure_params)
                    .unwrap_or_default();
                let handler = arg.filter(|_| closure.is_empty()).and_then(|a| {
                    let at = code.skip_ws(a.start);
                    let (s, _) = primary(code, at)?;
                    Some(match s.args {
                        Some(_) => call_target(&s.path),
                        None if s.path.contains("::") => call_target(&s.path),
                        None => Target::Local(s.path),
                    })
                });
                F::Mapped {
                    inner: Box::new(f),
                    handler,
                    line: file.line_of(seg.at),
                    closure,
                }
            }
            _ => f,
        };
    }
    Some(f)
}

/// The typed parameters of a closure (`|id: u64, mut todo: Todo| …`,
/// also `move |…|`); empty for anything else or an untyped closure.
fn closure_params(text: &str) -> Vec<(String, String)> {
    let t = text.trim_start();
    let t = t.strip_prefix("async").map_or(t, str::trim_start);
    let t = t.strip_prefix("move").map_or(t, str::trim_start);
    let Some(rest) = t.strip_prefix('|') else {
        return Vec::new();
    };
    // The closing `|`, outside `<…>`/`(…)` (tuple patterns, generics).
    let mut depth = 0i32;
    let mut end = None;
    for (i, c) in rest.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            '|' if depth <= 0 => {
                end = Some(i);
                break;
            }
            _ => {}
        }
    }
    let Some(end) = end else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let inner = &rest[..end];
    let mut push = |piece: &str| {
        let Some((pat, ty)) = piece.split_once(':') else {
            // `|name|`: names a path parameter, types nothing.
            let pat = piece.trim().trim_start_matches("mut ").trim();
            out.push((pat.to_string(), String::new()));
            return;
        };
        let pat = pat.trim().trim_start_matches("mut ").trim();
        out.push((pat.to_string(), ty.trim().to_string()));
    };
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        push(&inner[start..]);
    }
    out
}

/// A primary filter expression at `at`.
fn atom(file: &SourceFile, code: &Code, at: usize) -> Option<(F, usize)> {
    let bytes = code.text().as_bytes();
    let (seg, mut end) = primary(code, at)?;
    let path = seg.path.strip_prefix("warp::").unwrap_or(&seg.path);
    let warp = seg.path.starts_with("warp::");
    let line = file.line_of(seg.at);
    // `path!(…)`
    if bytes.get(end) == Some(&b'!') && matches!(path, "path" | "warp::path") {
        let open = code.skip_ws(end + 1);
        let close = code.matching(open)?;
        end = close + 1;
        return Some((
            F::Path {
                segs: path_macro(code, open + 1..close),
                line,
            },
            end,
        ));
    }
    let args = seg
        .args
        .clone()
        .map(|a| code.args(a.start))
        .unwrap_or_default();
    let lit = |i: usize| {
        args.get(i)
            .and_then(|r| code.string_at(code.skip_ws(r.start)))
            .map(|l| l.value)
    };
    let ty = || turbofish(code, seg.at, seg.args.as_ref().map_or(end, |a| a.start));
    let f = match path {
        "path" if warp => F::Path {
            segs: vec![PSeg::Lit(parse_str(code, args.first()?.clone())?)],
            line,
        },
        "path::param" => F::Path {
            segs: vec![PSeg::Param],
            line,
        },
        "path::end" | "any" | "body::content_length_limit" => F::Nothing,
        m if warp && METHODS.contains(&m) => F::Method(m.to_ascii_uppercase()),
        "fs::dir" | "fs::file" => F::Method("GET".into()),
        "query" | "query::query" => F::Extract(X::Query(ty())),
        "body::json" => F::Extract(X::Json(ty())),
        "body::form" => F::Extract(X::Form(ty())),
        "header" | "header::header" | "header::optional" => F::Extract(X::Header(lit(0)?)),
        "header::exact" | "header::exact_ignore_case" => F::Extract(X::HeaderExact(lit(0)?)),
        "cookie" | "cookie::cookie" | "cookie::optional" => F::Extract(X::Cookie(lit(0)?)),
        "multipart::form" => F::Extract(X::File),
        "ws" => F::Extract(X::Ws),
        _ if warp => F::Extract(X::Other),
        _ => match seg.args {
            Some(_) => F::Ref(call_target(&seg.path)),
            None if seg.path.contains("::") => F::Ref(call_target(&seg.path)),
            None if is_ident(&seg.path) => F::Ref(Target::Local(seg.path.clone())),
            None => return None,
        },
    };
    Some((f, end))
}

/// `"users" / u64 / "tags" / ..` → segments.
fn path_macro(code: &Code, r: Range<usize>) -> Vec<PSeg> {
    let bytes = code.text().as_bytes();
    let mut pieces = Vec::new();
    let mut start = r.start;
    let mut depth = 0i32;
    for i in r.clone() {
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b'<' | b'(' => depth += 1,
            b'>' | b')' => depth -= 1,
            b'/' if depth == 0 => {
                pieces.push(start..i);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(start..r.end);
    pieces
        .into_iter()
        .filter_map(|p| {
            let text = code.slice(p.clone()).trim();
            if text.is_empty() || text == ".." {
                return None;
            }
            Some(match parse_str(code, p.clone()) {
                Some(parts) if code.string_at(code.skip_ws(p.start)).is_some() => PSeg::Lit(parts),
                Some(parts)
                    if text
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b == b'_' || b == b':') =>
                {
                    PSeg::Lit(parts)
                }
                _ => PSeg::Param,
            })
        })
        .collect()
}

/// One route of a filter, while evaluating.
#[derive(Clone, Debug, Default)]
struct R {
    segs: Vec<Seg>,
    methods: Vec<String>,
    extracts: Vec<X>,
    params: Vec<Param>,
    line: Option<(usize, u32)>,
    ws: bool,
}

#[derive(Clone, Debug)]
enum Seg {
    Lit(String),
    Param(Option<String>),
}

struct Ctx<'a> {
    linker: Linker,
    files: &'a [WarpFile],
}

pub fn link(files: Vec<WarpFile>) -> Vec<Endpoint> {
    let linker = Linker::new(files.iter().map(|f| f.base.clone()).collect());
    let ctx = Ctx {
        linker,
        files: &files,
    };
    let mut out = Vec::new();
    for (fi, file) in files.iter().enumerate() {
        for (ni, f) in file.fns.iter().enumerate() {
            for s in &f.serves {
                for r in ctx.eval((fi, ni), s, 0) {
                    ctx.emit(r, &mut out);
                }
            }
        }
    }
    out
}

impl Ctx<'_> {
    fn wfn(&self, id: FnId) -> &WarpFn {
        &self.files[id.0].fns[id.1]
    }

    fn eval(&self, at: FnId, f: &F, depth: usize) -> Vec<R> {
        if depth > 24 {
            return vec![R::default()];
        }
        match f {
            F::Path { segs, line } => {
                let mut r = R {
                    line: Some((at.0, *line)),
                    ..R::default()
                };
                for s in segs {
                    match s {
                        PSeg::Lit(parts) => {
                            let v = self.linker.string(at.0, parts).unwrap_or_default();
                            r.segs.push(Seg::Lit(v));
                        }
                        PSeg::Param => {
                            r.segs.push(Seg::Param(None));
                            r.extracts.push(X::PathParam);
                        }
                    }
                }
                vec![r]
            }
            F::Method(m) => vec![R {
                methods: vec![m.clone()],
                ..R::default()
            }],
            F::Extract(x) => vec![R {
                ws: *x == X::Ws,
                extracts: vec![x.clone()],
                ..R::default()
            }],
            F::Nothing => vec![R::default()],
            F::And(a, b) => {
                let left = self.eval(at, a, depth + 1);
                let right = self.eval(at, b, depth + 1);
                let mut out = Vec::new();
                for l in &left {
                    for r in &right {
                        let mut x = l.clone();
                        x.segs.extend(r.segs.iter().cloned());
                        if !r.methods.is_empty() {
                            x.methods = r.methods.clone();
                        }
                        x.extracts.extend(r.extracts.iter().cloned());
                        for p in &r.params {
                            x.params.push(p.clone());
                        }
                        // The innermost path's line; else the first known.
                        if (r.line.is_some() && !r.segs.is_empty()) || x.line.is_none() {
                            x.line = r.line;
                        }
                        x.ws |= r.ws;
                        out.push(x);
                    }
                }
                out
            }
            F::Or(a, b) => {
                let mut out = self.eval(at, a, depth + 1);
                out.extend(self.eval(at, b, depth + 1));
                out
            }
            F::Mapped {
                inner,
                handler,
                line,
                closure,
            } => {
                let h = handler.as_ref().and_then(|h| {
                    let t = match h {
                        Target::Local(n) => Target::Call {
                            qual: None,
                            name: n.clone(),
                        },
                        other => other.clone(),
                    };
                    self.linker.resolve(at.0, &t)
                });
                self.eval(at, inner, depth + 1)
                    .into_iter()
                    .map(|mut r| {
                        if r.line.is_none() {
                            r.line = Some((at.0, *line));
                        }
                        self.settle(&mut r, h, closure, at.0);
                        r.extracts = vec![X::Other];
                        r
                    })
                    .collect()
            }
            F::Ref(t) => {
                if let Target::Local(v) = t {
                    if let Some((_, fx)) = self.wfn(at).lets.iter().rev().find(|(n, _)| n == v) {
                        return self.eval(at, fx, depth + 1);
                    }
                }
                let call = match t {
                    Target::Local(n) => Target::Call {
                        qual: None,
                        name: n.clone(),
                    },
                    other => other.clone(),
                };
                match self.linker.resolve(at.0, &call) {
                    Some(id) if id != at => match &self.wfn(id).tail {
                        Some(fx) => self.eval(id, fx, depth + 1),
                        None => vec![R {
                            extracts: vec![X::Other],
                            ..R::default()
                        }],
                    },
                    _ => vec![R {
                        extracts: vec![X::Other],
                        ..R::default()
                    }],
                }
            }
        }
    }

    /// Turn a route's extracted values into params, naming path params and
    /// typing untyped bodies from the handler's parameters.
    fn settle(&self, r: &mut R, handler: Option<FnId>, closure: &[(String, String)], here: usize) {
        let hparams: Vec<(String, String)> = match handler {
            Some(h) => self.wfn(h).params.clone(),
            None => closure.to_vec(),
        };
        let from = handler.map_or(here, |h| h.0);
        let mut path_i = 0;
        let mut pos = 0;
        for x in std::mem::take(&mut r.extracts) {
            let hp = hparams.get(pos);
            if !matches!(x, X::HeaderExact(_)) {
                pos += 1;
            }
            match x {
                X::PathParam => {
                    let name = hp.map(|(p, _)| p.clone()).filter(|p| is_ident(p));
                    if let Some(Seg::Param(n)) = r
                        .segs
                        .iter_mut()
                        .filter(|s| matches!(s, Seg::Param(_)))
                        .nth(path_i)
                    {
                        if n.is_none() {
                            *n = name;
                        }
                    }
                    path_i += 1;
                }
                X::Query(ref t) | X::Json(ref t) | X::Form(ref t) => {
                    let kind = match x {
                        X::Query(_) => ParamKind::Query,
                        X::Json(_) => ParamKind::Json,
                        _ => ParamKind::Form,
                    };
                    let ty = t.clone().or_else(|| {
                        hp.map(|(_, ty)| items::type_name(ty)).filter(|ty| {
                            ty.starts_with(|c: char| c.is_ascii_uppercase())
                                && !matches!(ty.as_str(), "String" | "HashMap" | "Value" | "Bytes")
                        })
                    });
                    if let Some(ty) = ty {
                        for f in self.linker.fields(from, &ty, 0) {
                            push(&mut r.params, Param::new(kind, f));
                        }
                    }
                }
                X::Header(n) | X::HeaderExact(n) => push(&mut r.params, Param::header(n)),
                X::Cookie(n) => push(&mut r.params, Param::cookie(n)),
                X::File => push(&mut r.params, Param::file("file")),
                X::Ws | X::Other => {}
            }
        }
    }

    fn emit(&self, mut r: R, out: &mut Vec<Endpoint>) {
        let Some((fi, line)) = r.line else {
            return;
        };
        self.settle(&mut r, None, &[], fi);
        let mut unnamed = 0;
        let mut parts = Vec::new();
        for s in &r.segs {
            match s {
                Seg::Lit(v) => parts.push(v.trim_matches('/').to_string()),
                Seg::Param(Some(n)) => parts.push(format!("{{{n}}}")),
                Seg::Param(None) => {
                    unnamed += 1;
                    parts.push(format!("{{param{unnamed}}}"));
                }
            }
        }
        parts.retain(|p| !p.is_empty());
        let url = format!("/{}", parts.join("/"));
        let methods: Vec<String> = if r.ws {
            vec!["GET".into()]
        } else if r.methods.is_empty() {
            ANY.iter().map(|m| m.to_string()).collect()
        } else {
            r.methods.clone()
        };
        for m in methods {
            let e = if r.ws {
                Endpoint::websocket(url.clone())
            } else {
                Endpoint::new(&m, url.clone())
            };
            let mut e = e.at_path(self.files[fi].base.path.clone(), line);
            for p in &r.params {
                e.push_param(p.clone());
            }
            out.push(e);
        }
    }
}

fn push(params: &mut Vec<Param>, p: Param) {
    if !params.iter().any(|x| x.name == p.name && x.kind == p.kind) {
        params.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse() {
        let src = "pub fn routes() -> impl Filter {\n let base = warp::path(\"api\");\n base.and(warp::path!(\"users\" / u64)).and(warp::get()).and(warp::query::<Opts>()).and_then(handlers::get_user)\n}";
        let f = scan(&SourceFile::new("src/api.rs", src));
        let w = &f.fns[0];
        assert_eq!(w.lets.len(), 1);
        assert!(matches!(w.tail, Some(F::Mapped { line: 3, .. })));
    }
}

#[cfg(test)]
mod closure_tests {
    use super::closure_params;

    #[test]
    fn closure_parameters() {
        assert_eq!(
            closure_params("|rate: u32, mut employee: Employee| {\n x }"),
            vec![
                ("rate".to_string(), "u32".to_string()),
                ("employee".to_string(), "Employee".to_string())
            ]
        );
        assert_eq!(
            closure_params("move |m: HashMap<String, u32>| m"),
            vec![("m".to_string(), "HashMap<String, u32>".to_string())]
        );
        assert_eq!(
            closure_params("|name| name"),
            vec![("name".to_string(), String::new())]
        );
        assert!(closure_params("|| \"ok\"").is_empty());
        assert!(closure_params("handlers::get").is_empty());
    }
}
