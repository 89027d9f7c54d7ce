//! http4s (`scala_http4s`).
//!
//! - `HttpRoutes.of[F] { case GET -> Root / "users" / LongVar(id) :?
//!   PageMatcher(p) => … }` (also `HttpRoutes.strict`, `AuthedRoutes.of`
//!   with `… as user`, `ContextRoutes.of`): one endpoint per case, at the
//!   `case` line. Path extractors (`LongVar(id)`, `IntVar(id)`,
//!   `UUIDVar(id)`, a lower-case binding) become `{name}`; upper-case
//!   stable identifiers are string constants (`Root / ApiVersion / "x"`).
//!   `case _ -> Root / "x"` (any method) is reported as GET, POST, PUT,
//!   PATCH and DELETE.
//! - Bare partial functions of routes, lifted elsewhere (tsec's `def
//!   getUser: AuthEndpoint[F, A] = { case GET -> Root / LongVar(id) asAuthed
//!   _ => … }`, composed with `a(x).orElse(b(x))` and handed to
//!   `auth.liftService(…)`): cases whose path starts at `Root` only.
//! - Query matchers: `object PageMatcher extends
//!   OptionalQueryParamDecoderMatcher[Int]("page")` (any `…QueryParam…
//!   Matcher`, in any file) names the query parameter of `:? PageMatcher(p)
//!   +& …`.
//! - Composition across files: `Router("/api" -> userRoutes, "/admin" ->
//!   AdminRoutes.routes[IO](svc))`, `a <+> b`, `val`/`def`s in other
//!   objects; definitions nothing else uses are the roots.
//! - Case bodies: `req.as[T]` / `req.decodeJson[T]` / `attemptAs[T]` (json
//!   fields of T), `req.headers.get(ci"X-Token")` / `CIString("X")`
//!   (header), `req.cookies.find(_.name == "c")` (cookie),
//!   `form.getFirst("x")` (form), `req.params.get("x")` (query).
//!
//! Test sources are skipped.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::scala::outline::Outline;
use crate::scala::route::{Fact, Node, Par, Piece, World, ANY_METHODS};
use crate::scala::tokens::{Kind, Toks};
use crate::scala::{self, file_facts, find_arrow, is_pair_arrow, ref_at, str_pieces, type_arg};

pub struct Http4s;

impl Analyzer for Http4s {
    fn tech(&self) -> Tech {
        Tech::new("scala_http4s", "Scala", "http4s")
            .aliases(["http4s", "scala-http4s"])
            .files(["*.scala"])
            .detect(Detect::files(["*.scala"]).contains(["org.http4s"]))
            .detect(Detect::files(["build.sbt", "*.sbt"]).contains(["\"http4s-"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !scala::wanted(file) {
            return;
        }
        let t = Toks::new(file);
        let o = Outline::new(&t);
        matchers(&t, out);
        file_facts(file, &t, &o, out, &|t, o, r| Some(expr(t, o, r)));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(World::new(facts).endpoints())
    }
}

const METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// `object Name extends …QueryParam…Matcher[T]("name")`.
fn matchers(t: &Toks, out: &mut Output) {
    for k in 0..t.len() {
        if !t.is_ident(k, "object") || !t.is_ident(k + 2, "extends") {
            continue;
        }
        let (Some(name), Some(base)) = (t.ident(k + 1), t.ident(k + 3)) else {
            continue;
        };
        if !(base.contains("QueryParam") && base.ends_with("Matcher")) {
            continue;
        }
        let mut j = k + 4;
        if t.is(j, "[") {
            j = t.skip_group(j);
        }
        if let Some(q) = t.is(j, "(").then(|| t.str_at(j + 1)).flatten() {
            out.fact(&Fact::Named {
                name: name.to_string(),
                par: Par::Named(ParamKind::Query, q.to_string()),
            });
        }
    }
}

fn expr(t: &Toks, o: &Outline, r: Range<usize>) -> Node {
    scala::nested(|| expr_in(t, o, r)).unwrap_or_default()
}

fn expr_in(t: &Toks, o: &Outline, r: Range<usize>) -> Node {
    let mut group = Node::default();
    let mut k = r.start;
    while k < r.end {
        let Some(tok) = t.get(k) else { break };
        if tok.is('{') && t.is_ident(k + 1, "case") {
            // A bare partial function of routes, typed by the project or a
            // library (`def getUser: AuthEndpoint[F, A] = { case GET ->
            // Root / LongVar(id) asAuthed _ => … }`), lifted elsewhere:
            // only `case`s matching `METHOD -> Root …` count.
            let close = t.close(k).unwrap_or(r.end).min(r.end);
            cases(t, k + 1, close, true, &mut group);
            k = close + 1;
            continue;
        }
        if tok.kind != Kind::Ident || (k > 0 && t.is(k - 1, ".")) {
            k += 1;
            continue;
        }
        let name = tok.text.as_str();
        if matches!(name, "val" | "var" | "def") && k > r.start {
            k = o
                .def_named_at(k + 1)
                .map_or(k + 2, |d| d.rhs.end.max(k + 1));
            continue;
        }
        if matches!(
            name,
            "HttpRoutes" | "AuthedRoutes" | "ContextRoutes" | "HttpService"
        ) && t.is(k + 1, ".")
            && matches!(t.ident(k + 2), Some("of" | "strict"))
        {
            let mut j = k + 3;
            while t.is(j, "[") {
                j = t.skip_group(j);
            }
            if t.is(j, "{") {
                let close = t.close(j).unwrap_or(r.end).min(r.end);
                cases(t, j + 1, close, false, &mut group);
                k = close + 1;
                continue;
            }
        }
        if name == "Router" && t.is(k + 1, "(") {
            let close = t.close(k + 1).unwrap_or(r.end).min(r.end);
            for arg in t.split(k + 2, close, ",") {
                let Some(arrow) = (arg.start..arg.end).find(|&i| is_pair_arrow(t, i)) else {
                    continue;
                };
                let mut child = expr(t, o, arrow + 2..arg.end);
                child.pieces = prefix(t, arg.start..arrow);
                group.children.push(child);
            }
            k = close + 1;
            continue;
        }
        if let Some((parts, _)) = ref_at(t, k, r.start, r.end) {
            // Arguments are read too: `AuthMiddleware(auth)(authed)`.
            group.refs.push(parts);
        }
        k += 1;
    }
    group
}

/// `"/api"`, `ApiPrefix`, `s"/$Base/users"`.
fn prefix(t: &Toks, r: Range<usize>) -> Vec<Piece> {
    match t.get(r.start) {
        Some(tok) if tok.kind == Kind::Str => str_pieces(&tok.text, &tok.prefix),
        Some(tok) if tok.kind == Kind::Ident => t
            .dotted(r.start)
            .map(|(parts, _)| vec![Piece::Const(parts)])
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The `case` clauses of a partial function body (`rooted`: only those
/// whose path starts at `Root`).
fn cases(t: &Toks, start: usize, end: usize, rooted: bool, group: &mut Node) {
    let mut heads = Vec::new();
    let mut k = start;
    while k < end {
        if t.is_ident(k, "case") {
            heads.push(k);
        }
        k = if t.is_open(k) { t.skip_group(k) } else { k + 1 };
    }
    for (n, &c) in heads.iter().enumerate() {
        let stop = heads.get(n + 1).copied().unwrap_or(end);
        let Some(arrow) = find_arrow(t, c + 1, stop) else {
            continue;
        };
        if let Some(mut node) = pattern(t, c + 1, arrow, rooted) {
            node.line = t.line(c);
            node.leaf = true;
            node.params.extend(body_reads(t, arrow + 2..stop));
            group.children.push(node);
        }
    }
}

/// `[req @] GET -> Root / "users" / LongVar(id) :? M(x) +& N(y) [as user]`.
fn pattern(t: &Toks, start: usize, end: usize, rooted: bool) -> Option<Node> {
    let pair = (start..end).find(|&i| is_pair_arrow(t, i))?;
    if rooted && !t.is_ident(pair + 2, "Root") {
        return None;
    }
    let mut m = pair;
    while m > start && !t.is(m - 1, "@") {
        m -= 1;
    }
    let method = (m..pair).rev().find_map(|i| {
        t.ident(i)
            .or_else(|| t.get(i).filter(|x| x.is('_')).map(|_| "_"))
    })?;
    let mut node = Node::default();
    if METHODS.contains(&method) {
        node.methods.push(method.to_string());
    } else if method == "_" {
        node.methods = ANY_METHODS.iter().map(|s| s.to_string()).collect();
    } else {
        return None;
    }
    let mut path_end = end;
    if let Some(a) = (pair + 2..end).find(|&i| t.is_ident(i, "as")) {
        path_end = a;
    }
    let query = (pair + 2..path_end).find(|&i| t.is(i, ":") && t.is(i + 1, "?"));
    let path = pair + 2..query.unwrap_or(path_end);
    for part in t.split(path.start, path.end, "/") {
        let Some(tok) = t.get(part.start) else {
            continue;
        };
        match tok.kind {
            Kind::Str => node.pieces.extend(str_pieces(&tok.text, &tok.prefix)),
            Kind::Ident if tok.text == "Root" => {}
            Kind::Ident if t.is(part.start + 1, "(") => {
                if let Some(v) = t.ident(part.start + 2) {
                    node.pieces.push(Piece::Param(v.to_string()));
                }
            }
            Kind::Ident if tok.text.starts_with(|c: char| c.is_ascii_uppercase()) => {
                if let Some((parts, _)) = t.dotted(part.start) {
                    node.pieces.push(Piece::Const(parts));
                }
            }
            Kind::Ident if tok.prefix == "`" => {
                node.pieces.push(Piece::Const(vec![tok.text.clone()]))
            }
            Kind::Ident => node.pieces.push(Piece::Param(tok.text.clone())),
            _ => {}
        }
    }
    if let Some(q) = query {
        let mut i = q + 2;
        while i < path_end {
            if let Some(name) = t.ident(i) {
                if t.is(i + 1, "(") {
                    node.params.push(Par::Lookup(name.to_string()));
                    i = t.skip_group(i + 1);
                    continue;
                }
            }
            i += 1;
        }
    }
    Some(node)
}

fn body_reads(t: &Toks, r: Range<usize>) -> Vec<Par> {
    let mut out = Vec::new();
    for k in r {
        let Some(tok) = t.get(k) else { break };
        match tok.kind {
            Kind::Str if tok.prefix == "ci" => {
                out.push(Par::Named(ParamKind::Header, tok.text.clone()))
            }
            Kind::Ident => match tok.text.as_str() {
                "CIString" => {
                    if let Some(s) = t.str_at(k + 2) {
                        out.push(Par::Named(ParamKind::Header, s.to_string()));
                    }
                }
                "as" | "attemptAs" | "decodeJson" | "decode" if k > 0 && t.is(k - 1, ".") => {
                    if let Some(ty) = type_arg(t, k + 1) {
                        if ty != "UrlForm" && ty != "String" {
                            out.push(Par::Body(ParamKind::Json, ty));
                        }
                    }
                }
                "getFirst" | "getFirstOrElse" => {
                    if let Some(s) = t.str_at(k + 2) {
                        out.push(Par::Named(ParamKind::Form, s.to_string()));
                    }
                }
                "cookies" => {
                    if let Some(s) = (k + 1..(k + 12).min(t.len())).find_map(|i| t.str_at(i)) {
                        out.push(Par::Named(ParamKind::Cookie, s.to_string()));
                    }
                }
                "params" | "multiParams" if t.is_ident(k + 2, "get") => {
                    if let Some(s) = t.str_at(k + 4) {
                        out.push(Par::Named(ParamKind::Query, s.to_string()));
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    out
}
