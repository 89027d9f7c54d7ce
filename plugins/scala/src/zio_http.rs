//! ZIO HTTP (`scala_zio_http`).
//!
//! - Routes (3.x): `Routes(Method.GET / "users" / int("id") -> handler {
//!   … }, …)`; path codecs `int("id")`, `long`, `string`, `uuid`,
//!   `boolean` become `{id}`; string literals and string constants are
//!   segments; `Root` / `trailing` add nothing. `Method.ANY` is reported as
//!   GET, POST, PUT, PATCH and DELETE. The same patterns in the 2.x
//!   `Http.collect { case Method.GET -> Root / "users" / int(id) => … }`
//!   style (also the older `zhttp` package, `!!` as the root) are read too,
//!   as are declarative `Endpoint(Method.GET / …)` definitions.
//! - Composition: definitions combined with `++` (in other files and
//!   objects too, `new UserRoutes(repo).routes`, `UserRoutes()` for an
//!   object's `apply`, `Server.serve(app)`) are
//!   linked; definitions nothing else uses are the roots. `.nest("api")`
//!   prefixes the routes of its receiver (`a.nest("v1") ++ b`: only `a`'s;
//!   `(a ++ b).nest("v1")`: both).
//! - Handler reads, up to the next route pattern: `req.queryParam("q")` /
//!   `queryParamTo[T]` / `req.url.queryParams.get("q")` /
//!   `HttpCodec.query[T]("q")` (query), `req.header(Header.Authorization)`
//!   (the header named after the type) / `req.rawHeader("X")` /
//!   `req.headers.get("X")` (header), `req.cookie("c")` (cookie),
//!   `req.body.to[T]` / `fromJson[T]` / `Endpoint.in[T]` (json: the case
//!   class fields), `form.get("f")` on a decoded form (form).
//!
//! Test sources are skipped.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::scala::outline::Outline;
use crate::scala::route::{Node, Par, Piece, World, ANY_METHODS};
use crate::scala::tokens::{Kind, Toks};
use crate::scala::{self, file_facts, is_arrow, is_pair_arrow, ref_at, str_pieces, type_arg};

pub struct ZioHttp;

impl Analyzer for ZioHttp {
    fn tech(&self) -> Tech {
        Tech::new("scala_zio_http", "Scala", "ZIO HTTP")
            .aliases(["zio-http", "zio_http", "scala-zio-http"])
            .files(["*.scala"])
            .detect(Detect::files(["*.scala"]).contains(["zio.http", "zhttp.http"]))
            .detect(Detect::files(["build.sbt", "*.sbt"]).contains(["\"zio-http\"", "\"zhttp\""]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !scala::wanted(file) {
            return;
        }
        let t = Toks::new(file);
        let o = Outline::new(&t);
        file_facts(file, &t, &o, out, &|t, o, r| Some(expr(t, o, r)));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut w = World::new(facts);
        // `X()` means `X.apply` only when some object `X` defines `apply`
        // (not `Routes(…)`, `Endpoint(…)`).
        let applies: Vec<String> = w
            .defs
            .iter()
            .filter(|d| d.name == "apply")
            .filter_map(|d| d.owner.clone())
            .collect();
        for d in &mut w.defs {
            if let Some(node) = &mut d.node {
                node.refs
                    .retain(|r| !(r.len() == 2 && r[1] == "apply") || applies.contains(&r[0]));
            }
        }
        Ok(w.endpoints())
    }
}

const VERBS: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "ANY",
];

const CODECS: &[&str] = &["int", "long", "string", "uuid", "boolean"];

/// Is `k` the start of a route pattern `Method.GET`?
fn pattern_at(t: &Toks, k: usize) -> Option<&str> {
    if !t.is_ident(k, "Method") || !t.is(k + 1, ".") || (k > 0 && t.is(k - 1, ".")) {
        return None;
    }
    t.ident(k + 2).filter(|v| VERBS.contains(v))
}

fn expr(t: &Toks, o: &Outline, r: Range<usize>) -> Node {
    scala::nested(|| expr_in(t, o, r)).unwrap_or_default()
}

fn expr_in(t: &Toks, o: &Outline, r: Range<usize>) -> Node {
    let mut group = Node::default();
    // Where each of `group`'s children and refs was read (`.nest` takes
    // those of its receiver).
    let mut child_at: Vec<usize> = Vec::new();
    let mut ref_at_: Vec<usize> = Vec::new();
    let mut k = r.start;
    while k < r.end {
        let Some(tok) = t.get(k) else { break };
        if tok.kind != Kind::Ident {
            k += 1;
            continue;
        }
        let name = tok.text.as_str();
        let after_dot = k > 0 && t.is(k - 1, ".");
        if matches!(name, "val" | "var" | "def") && k > r.start {
            k = o
                .defs
                .iter()
                .find(|d| d.at == k + 1)
                .map_or(k + 2, |d| d.rhs.end.max(k + 1));
            continue;
        }
        if let Some(verb) = pattern_at(t, k) {
            // The handler ends with the group holding the pattern
            // (`Routes(…)`'s argument list, a `{ case … }` block), or with
            // the definition for a declarative `Endpoint(…)…`.
            let mut group_end = r.end;
            let mut i = k;
            while i > r.start {
                i -= 1;
                if t.is_open(i) && t.close(i).is_some_and(|c| c > k) {
                    if !t.is_ident(i.wrapping_sub(1), "Endpoint") {
                        group_end = t.close(i).unwrap_or(r.end).min(r.end);
                    }
                    break;
                }
            }
            let stop = (k + 3..group_end)
                .find(|&i| pattern_at(t, i).is_some())
                .unwrap_or(group_end);
            let mut node = Node::at(t.line(k));
            node.leaf = true;
            node.methods = if verb == "ANY" {
                ANY_METHODS.iter().map(|m| m.to_string()).collect()
            } else {
                vec![verb.to_string()]
            };
            let body = path(t, k + 3, stop, &mut node);
            node.params = reads(t, body..stop);
            group.children.push(node);
            child_at.push(k);
            k = stop;
            continue;
        }
        if name == "nest" && after_dot && t.is(k + 1, "(") {
            // `a.nest("api") ++ b`: the prefix is the receiver's (the
            // routes read from where it starts).
            let close = t.close(k + 1).unwrap_or(r.end).min(r.end);
            let from = receiver_start(t, k - 1).max(r.start);
            let mut wrapper = Node::default();
            path(t, k + 2, close, &mut wrapper);
            let keep = child_at.iter().filter(|&&at| at < from).count();
            wrapper.children = group.children.split_off(keep);
            child_at.truncate(keep);
            let keep = ref_at_.iter().filter(|&&at| at < from).count();
            wrapper.refs = group.refs.split_off(keep);
            ref_at_.truncate(keep);
            group.children.push(wrapper);
            child_at.push(from);
            k = close + 1;
            continue;
        }
        if name == "new" {
            // `new OrderRoutes(repo).routes`
            if let Some((mut parts, _)) = t.dotted(k).filter(|(p, _)| p.len() > 1) {
                if parts.len() > 2 && parts.last().is_some_and(|p| p == "nest") {
                    parts.pop();
                }
                group.refs.push(parts);
                ref_at_.push(k);
            }
        } else if !after_dot {
            // Arguments are read too: `Server.serve(app)`.
            if let Some((parts, _)) = ref_at(t, k, r.start, r.end) {
                // `UserRoutes()`: the object's `apply`.
                if parts.len() == 1
                    && t.is(k + 1, "(")
                    && name.starts_with(|c: char| c.is_ascii_uppercase())
                {
                    group.refs.push(vec![name.to_string(), "apply".to_string()]);
                    ref_at_.push(k);
                }
                group.refs.push(parts);
                ref_at_.push(k);
            }
        }
        k += 1;
    }
    group
}

/// The first token of the expression ending just before the `.` at
/// `dot`: `UserRoutes()`, `users.routes`, `new R(x).routes`, `(a ++ b)`.
fn receiver_start(t: &Toks, dot: usize) -> usize {
    let mut i = dot;
    while i > 0 {
        let p = i - 1;
        let closer = t
            .get(p)
            .is_some_and(|x| x.is(')') || x.is(']') || x.is('}'));
        if closer {
            match t.close(p).filter(|&o| o < p) {
                Some(o) => i = o,
                None => break,
            }
        } else if t.ident(p).is_some() {
            i = p;
            if p > 0 && t.is(p - 1, ".") {
                i = p - 1;
            } else {
                if p > 0 && t.is_ident(p - 1, "new") {
                    i = p - 1;
                }
                break;
            }
        } else {
            break;
        }
    }
    i
}

/// Path segments after `Method.GET` (`/ "users" / int("id")` or, 2.x,
/// `-> Root / "users" / int(id)`), up to `->`, `=>` or `if`; returns the
/// index where the handler starts.
fn path(t: &Toks, start: usize, end: usize, node: &mut Node) -> usize {
    let mut k = start;
    if is_pair_arrow(t, k) {
        k += 2;
    }
    let mut unnamed = 0;
    while k < end {
        if is_pair_arrow(t, k) || is_arrow(t, k) || t.is_ident(k, "if") {
            return k;
        }
        let Some(tok) = t.get(k) else { break };
        match tok.kind {
            Kind::Str => {
                node.pieces.extend(str_pieces(&tok.text, &tok.prefix));
                k += 1;
            }
            Kind::Ident if matches!(tok.text.as_str(), "Root" | "trailing" | "Path") => k += 1,
            Kind::Ident if CODECS.contains(&tok.text.as_str()) && t.is(k + 1, "(") => {
                let name = t
                    .str_at(k + 2)
                    .or_else(|| t.ident(k + 2))
                    .map(str::to_string)
                    .unwrap_or_else(|| {
                        unnamed += 1;
                        format!("param{unnamed}")
                    });
                node.pieces.push(Piece::Param(name));
                k = t.skip_group(k + 1);
            }
            Kind::Ident if tok.text.starts_with(|c: char| c.is_ascii_uppercase()) => {
                match t.dotted(k) {
                    Some((parts, next)) => {
                        node.pieces.push(Piece::Const(parts));
                        k = next.max(k + 1);
                    }
                    None => k += 1,
                }
            }
            Kind::Ident if t.is(k.wrapping_sub(1), "/") => {
                // A bound segment (2.x `id`) or a codec value.
                node.pieces.push(Piece::Param(tok.text.clone()));
                k += 1;
            }
            _ if t.is(k, "/") || t.is(k, "!") => k += 1,
            _ => return k,
        }
    }
    end
}

/// `Header.ContentType` → `Content-Type`.
fn header_name(typed: &str) -> String {
    let mut out = String::new();
    for (i, c) in typed.chars().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            out.push('-');
        }
        out.push(c);
    }
    out
}

fn reads(t: &Toks, r: Range<usize>) -> Vec<Par> {
    let mut out = Vec::new();
    for k in r {
        let Some(name) = t.ident(k) else { continue };
        let after_dot = k > 0 && t.is(k - 1, ".");
        // First string argument of `name(…)`, `name[T](…)`, `name.get(…)`.
        let arg = || {
            let mut j = k + 1;
            if t.is(j, ".") && matches!(t.ident(j + 1), Some("get" | "getAll" | "getTo")) {
                j += 2;
            }
            while t.is(j, "[") {
                j = t.skip_group(j);
            }
            t.is(j, "(")
                .then(|| t.str_at(j + 1))
                .flatten()
                .map(str::to_string)
        };
        match name {
            "queryParam" | "queryParamTo" | "queryParamOrElse" | "queryParamToOrElse"
            | "queryParams" | "queryParamsTo" | "query" | "queryInt" | "queryBool" => {
                out.extend(arg().map(|a| Par::Named(ParamKind::Query, a)))
            }
            "rawHeader" | "headers" if after_dot => {
                out.extend(arg().map(|a| Par::Named(ParamKind::Header, a)))
            }
            "header" if t.is(k + 1, "(") => {
                if let Some(s) = t.str_at(k + 2) {
                    out.push(Par::Named(ParamKind::Header, s.to_string()));
                } else if t.is_ident(k + 2, "Header") && t.is(k + 3, ".") {
                    if let Some(h) = t.ident(k + 4) {
                        out.push(Par::Named(ParamKind::Header, header_name(h)));
                    }
                }
            }
            "cookie" | "cookieWithOrFail" | "cookieWithZIO" if after_dot => {
                out.extend(arg().map(|a| Par::Named(ParamKind::Cookie, a)))
            }
            "to" | "fromJson" | "in" if after_dot => {
                if let Some(ty) = type_arg(t, k + 1) {
                    if !matches!(ty.as_str(), "String" | "Form" | "Chunk" | "Byte") {
                        out.push(Par::Body(ParamKind::Json, ty));
                    }
                }
            }
            "get" if after_dot && k > 1 => {
                let receiver = t.ident(k - 2).unwrap_or("");
                if receiver.to_ascii_lowercase().contains("form") {
                    if let Some(s) = t.str_at(k + 2).filter(|_| t.is(k + 1, "(")) {
                        out.push(Par::Named(ParamKind::Form, s.to_string()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}
