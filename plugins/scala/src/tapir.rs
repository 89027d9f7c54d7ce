//! Tapir endpoint descriptions (`scala_tapir`).
//!
//! - An endpoint is a chain starting at `endpoint` (or
//!   `infallibleEndpoint`), or at another definition (a `val`, or a `def`
//!   called with arguments, which are not evaluated) followed by a Tapir
//!   builder call: `val base = endpoint.in("api")` then
//!   `val getBook = base.get.in("books" / path[Int]("id"))`. Bases are
//!   resolved across files and objects (`Api.base.post…`), their path,
//!   method and inputs come first.
//! - Methods: `.get`, `.post`, `.put`, `.delete`, `.patch`, `.head`,
//!   `.options`, `.method(Method.GET)`. A chain with a method that no
//!   other chain extends is reported, located at its definition (or at the
//!   `endpoint` token of an anonymous chain: `List(endpoint.get.in(…))`).
//!   A chain without a method that is not extended either is served for
//!   any method and reported as GET, POST, PUT, PATCH and DELETE; a bare
//!   `endpoint` or a chain with neither path nor input is not reported.
//! - Inputs (`.in(…)`, `.securityIn(…)`, `.prependIn(…)`, also through
//!   `.and(…)`): string literals and string constants are path segments
//!   (`"api" / ApiVersion / "books"`), `path[T]("id")` is `{id}` (unnamed:
//!   `{param1}`, …), `query[T]("q")`, `header[T]("X")` /
//!   `header("X", "v")`, `cookie[T]("c")`, `auth.bearer`/`auth.basic`
//!   (`Authorization` header), `jsonBody[T]` (json: the case class fields),
//!   `formBody[T]` / `multipartBody[T]` (form fields). Arguments of other
//!   calls on inputs (`.description("…")`, `.example(…)`) are skipped;
//!   `.out(…)` and `.errorOut(…)` are ignored.
//!
//! - Inputs held in `val`s (`val bookId = path[Long]("bookId")`, `val
//!   paging = query[Int]("page").and(query[Int]("limit"))`, any file) are
//!   spliced where a chain uses them (`"books" / bookId`, `.in(paging)`).
//!
//! - A prefix mapped over server endpoints (`xs.map(_.prependIn("api"))`,
//!   `xs.map(e => e.prependSecurityIn(…))`; also a list of literal segments
//!   folded into an input, `ctx.foldLeft(emptyInput: …)(_ / _)` with `val
//!   ctx = List("api", "v1")` in that file) prefixes every reported
//!   endpoint; two different such prefixes in a project: neither applies.
//!
//! Not handled: `paths` (a catch-all) and annotation-based
//! `@endpointInput` classes.
//! Test sources are skipped.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::scala::outline::Outline;
use crate::scala::route::{Def, Fact, Node, Par, Piece, World, ANY_METHODS};
use crate::scala::tokens::{Kind, Toks};
use crate::scala::{self, file_facts, str_pieces, type_arg, VERBS};

pub struct Tapir;

impl Analyzer for Tapir {
    fn tech(&self) -> Tech {
        Tech::new("scala_tapir", "Scala", "Tapir")
            .aliases(["tapir", "scala-tapir"])
            .files(["*.scala"])
            .detect(Detect::files(["*.scala"]).contains(["sttp.tapir"]))
            .detect(Detect::files(["build.sbt", "*.sbt"]).contains(["\"tapir-"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !scala::wanted(file) {
            return;
        }
        let t = Toks::new(file);
        let o = Outline::new(&t);
        file_facts(file, &t, &o, out, &|t, _, r| {
            chain(t, r.start, r.end).map(|(n, _)| n)
        });
        // Anonymous chains: `List(endpoint.get.in("x").serverLogic(…))`.
        let mut k = 0;
        while k < t.len() {
            let starts = START.contains(&t.ident(k).unwrap_or(""))
                && !(k > 0 && t.is(k - 1, "."))
                && o.def_at_rhs(k).is_none();
            if starts {
                if let Some((node, next)) = chain(&t, k, t.len()) {
                    out.fact(&Fact::Def(Box::new(Def {
                        file: file.path.clone(),
                        owner: o.owner_of(k).map(|w| w.name.clone()),
                        line: t.line(k),
                        node: Some(node),
                        root: true,
                        ..Def::default()
                    })));
                    k = next.max(k + 1);
                    continue;
                }
            }
            k += 1;
        }
        // A prefix mapped over server endpoints:
        // `endpoints.map(_.prependIn("api" / "v1"))`.
        for (a, b) in mapped_prepends(&t) {
            let mut node = Node::at(t.line(a));
            inputs(&t, a, b, &mut node, &mut 0);
            if node.pieces.is_empty() {
                node.pieces = folded_segments(&t, &o, a, b);
            }
            if !node.pieces.is_empty() {
                out.fact(&MappedPrefix { tapir_prefix: node });
            }
        }
        // Named inputs: `val bookId = path[Long]("bookId")`.
        for d in &o.defs {
            let first = t.get(d.rhs.start);
            let input = match first {
                Some(tok) if tok.kind == Kind::Str => t.is(d.rhs.start + 1, "/"),
                Some(tok) if tok.kind == Kind::Ident => INPUTS.contains(&tok.text.as_str()),
                _ => false,
            };
            if !input || chain(&t, d.rhs.start, d.rhs.end).is_some() {
                continue;
            }
            let mut node = Node::default();
            inputs(&t, d.rhs.start, d.rhs.end, &mut node, &mut 0);
            if !node.pieces.is_empty() || !node.params.is_empty() {
                out.fact(&NamedInput {
                    tapir_input: Input {
                        file: file.path.clone(),
                        name: d.name.clone(),
                        node,
                    },
                });
            }
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut named: HashMap<String, Vec<Input>> = HashMap::new();
        for f in facts.iter::<NamedInput>() {
            named
                .entry(f.tapir_input.name.clone())
                .or_default()
                .push(f.tapir_input);
        }
        let mut prefixes: Vec<Node> = Vec::new();
        for f in facts.iter::<MappedPrefix>() {
            let p = f.tapir_prefix;
            if !prefixes
                .iter()
                .any(|q| q.pieces == p.pieces && q.params == p.params)
            {
                prefixes.push(p);
            }
        }
        // One prefix mapped over the served endpoints applies to all of
        // them; several different ones cannot be told apart: none applies.
        let prefix = match prefixes.as_slice() {
            [one] => Some(one),
            _ => None,
        };
        Ok(link(&World::new(facts), &named, prefix))
    }
}

/// `segments.foldLeft(emptyInput: EndpointInput[Unit])(_ / _)` where
/// `segments` is a `val` of this file holding a list of string literals
/// (`List("api", "v1")`): those literals as path pieces.
fn folded_segments(t: &Toks, o: &Outline, a: usize, b: usize) -> Vec<Piece> {
    let Some(name) = t.ident(a) else {
        return Vec::new();
    };
    if !(t.is(a + 1, ".") && t.is_ident(a + 2, "foldLeft") && a + 3 < b) {
        return Vec::new();
    }
    let Some(d) = o.defs.iter().find(|d| d.name == name) else {
        return Vec::new();
    };
    let (s, e) = (d.rhs.start, d.rhs.end);
    if !(matches!(t.ident(s), Some("List" | "Seq" | "Vector")) && t.is(s + 1, "(")) {
        return Vec::new();
    }
    let close = t.close(s + 1).unwrap_or(e).min(e);
    let mut out = Vec::new();
    for r in t.split(s + 2, close, ",") {
        match t.str_at(r.start) {
            Some(lit) if r.len() == 1 => out.push(Piece::Lit(lit.to_string())),
            _ => return Vec::new(),
        }
    }
    out
}

/// `xs.map(_.prependIn(…))`, `xs.map(e => e.prependSecurityIn(…))` (also
/// with braces): the argument ranges of those prepends.
fn mapped_prepends(t: &Toks) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for k in 0..t.len() {
        if !(t.is_ident(k, "map") && k > 0 && t.is(k - 1, ".")) {
            continue;
        }
        let open = k + 1;
        if !(t.is(open, "(") || t.is(open, "{")) {
            continue;
        }
        // `_.` or `name => name.`
        let mut j = open + 1;
        if t.is_ident(j, "_") {
            j += 1;
        } else if let Some(v) = t.ident(j).filter(|_| scala::is_arrow(t, j + 1)) {
            if !t.is_ident(j + 3, v) {
                continue;
            }
            j += 4;
        } else {
            continue;
        }
        let call = t.ident(j + 1).unwrap_or("");
        if !(t.is(j, ".") && matches!(call, "prependIn" | "prependSecurityIn")) {
            continue;
        }
        if !t.is(j + 2, "(") {
            continue;
        }
        let close = t.close(j + 2).unwrap_or(t.len()).min(t.len());
        out.push((j + 3, close));
    }
    out
}

const START: &[&str] = &["endpoint", "infallibleEndpoint"];

/// Right-hand sides that are endpoint inputs.
const INPUTS: &[&str] = &[
    "path",
    "query",
    "header",
    "cookie",
    "jsonBody",
    "formBody",
    "multipartBody",
    "auth",
];

/// An input held in a `val` (its path pieces and parameters).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Input {
    file: String,
    name: String,
    node: Node,
}

#[derive(Serialize, Deserialize)]
struct NamedInput {
    tapir_input: Input,
}

/// A prefix every served endpoint gets (see [`mapped_prepends`]).
#[derive(Serialize, Deserialize)]
struct MappedPrefix {
    tapir_prefix: Node,
}

/// Builder calls that make `x.call…` a new endpoint extending `x`.
const BUILDERS: &[&str] = &[
    "in",
    "securityIn",
    "prependIn",
    "prependSecurityIn",
    "method",
    "out",
    "errorOut",
    "get",
    "post",
    "put",
    "delete",
    "patch",
    "head",
    "options",
];

/// A Tapir chain at `k`: its node (base in `refs[0]`, `leaf` set) and the
/// index after it.
fn chain(t: &Toks, k: usize, end: usize) -> Option<(Node, usize)> {
    let end = end.min(t.len());
    let mut node = Node::at(t.line(k));
    node.leaf = true;
    let mut j;
    let first = t.ident(k)?;
    if START.contains(&first) {
        j = k + 1;
    } else {
        // `base` / `Api.base` / `versioned("v1")` followed by a builder
        // call.
        let mut parts = vec![first.to_string()];
        j = k + 1;
        loop {
            while t.is(j, "(") || t.is(j, "[") {
                j = t.skip_group(j);
            }
            if !t.is(j, ".") {
                break;
            }
            let Some(next) = t.ident(j + 1) else { break };
            if BUILDERS.contains(&next) {
                break;
            }
            parts.push(next.to_string());
            j += 2;
        }
        if !(t.is(j, ".") && t.ident(j + 1).is_some_and(|n| BUILDERS.contains(&n))) {
            return None;
        }
        node.refs.push(parts);
    }
    let mut unnamed = 0;
    while j < end && t.is(j, ".") {
        let Some(call) = t.ident(j + 1) else { break };
        j += 2;
        while t.is(j, "[") {
            j = t.skip_group(j);
        }
        let args = t
            .is(j, "(")
            .then(|| (j + 1, t.close(j).unwrap_or(end).min(end)));
        if let Some((_, close)) = args {
            j = close + 1;
        }
        if let Some((_, m)) = VERBS.iter().find(|(v, _)| *v == call) {
            node.methods = vec![m.to_string()];
            continue;
        }
        let Some((a, b)) = args else { continue };
        match call {
            "method" => {
                if let Some(m) = (a..b).rev().find_map(|i| t.ident(i)) {
                    let m = m.to_ascii_uppercase();
                    if VERBS.iter().any(|(_, v)| *v == m) {
                        node.methods = vec![m];
                    }
                }
            }
            "in" | "securityIn" | "prependIn" | "prependSecurityIn" => {
                inputs(t, a, b, &mut node, &mut unnamed)
            }
            _ => {}
        }
    }
    Some((node, j))
}

/// Inputs of one `.in(…)` argument.
fn inputs(t: &Toks, start: usize, end: usize, node: &mut Node, unnamed: &mut usize) {
    let mut k = start;
    while k < end {
        let Some(tok) = t.get(k) else { break };
        match tok.kind {
            Kind::Str => {
                node.pieces.extend(str_pieces(&tok.text, &tok.prefix));
                k += 1;
            }
            Kind::Ident if k > 0 && t.is(k - 1, ".") => {
                if matches!(tok.text.as_str(), "bearer" | "basic")
                    && k > 1
                    && t.is_ident(k - 2, "auth")
                {
                    node.params
                        .push(Par::Named(ParamKind::Header, "Authorization".into()));
                }
                // `.description("…")`, `.example(…)`, `.default(…)`: not
                // inputs; `.and(…)` holds more of them.
                let mut j = k + 1;
                while t.is(j, "[") {
                    j = t.skip_group(j);
                }
                k = if t.is(j, "(") && tok.text != "and" {
                    t.skip_group(j)
                } else {
                    k + 1
                };
            }
            Kind::Ident => {
                let name = tok.text.as_str();
                let mut j = k + 1;
                let ty = type_arg(t, j);
                while t.is(j, "[") {
                    j = t.skip_group(j);
                }
                let arg = t.is(j, "(").then(|| t.str_at(j + 1)).flatten();
                let after = if t.is(j, "(") { t.skip_group(j) } else { j };
                match name {
                    "path" => {
                        let name = arg.map(str::to_string).unwrap_or_else(|| {
                            *unnamed += 1;
                            format!("param{unnamed}")
                        });
                        node.pieces.push(Piece::Param(name));
                        k = after;
                    }
                    "query" | "header" | "cookie" => {
                        let kind = match name {
                            "query" => ParamKind::Query,
                            "header" => ParamKind::Header,
                            _ => ParamKind::Cookie,
                        };
                        if let Some(a) = arg {
                            node.params.push(Par::Named(kind, a.to_string()));
                        }
                        // `header[String]("X")` has no further inputs inside.
                        k = if arg.is_some() { after } else { k + 1 };
                    }
                    "jsonBody"
                    | "customCodecJsonBody"
                    | "formBody"
                    | "multipartBody"
                    | "xmlBody" => {
                        let kind = if matches!(name, "formBody" | "multipartBody") {
                            ParamKind::Form
                        } else {
                            ParamKind::Json
                        };
                        if let Some(ty) = ty {
                            node.params.push(Par::Body(kind, ty));
                        }
                        k = after;
                    }
                    _ => {
                        // A constant or named input standing alone between
                        // `/`s (`ApiVersion`, `Api.bookId`).
                        let alone_before = k == start || t.is(k - 1, "/");
                        if alone_before && after == j {
                            if let Some((parts, next)) = t.dotted(k) {
                                let plain = (k..next).all(|i| !t.is(i, "(") && !t.is(i, "["));
                                if plain && (next >= end || t.is(next, "/")) {
                                    // Its parameters, if it names an input.
                                    if let Some(last) = parts.last() {
                                        node.params.push(Par::Lookup(last.clone()));
                                    }
                                    node.pieces.push(Piece::Const(parts));
                                    k = next.max(k + 1);
                                    continue;
                                }
                            }
                        }
                        k += 1;
                    }
                }
            }
            _ => k += 1,
        }
    }
}

/// A chain's full path, methods and inputs, bases first.
fn flatten(
    w: &World,
    named: &HashMap<String, Vec<Input>>,
    i: usize,
    seen: &mut HashSet<usize>,
) -> Option<(Vec<String>, Vec<String>, Vec<Par>)> {
    if !seen.insert(i) || seen.len() > 16 {
        return None;
    }
    let node = w.defs.get(i)?.node.as_ref()?;
    let (mut pieces, mut methods, mut params) = match node.refs.first() {
        Some(base) => {
            let target = *w.resolve(i, base, true).first()?;
            flatten(w, named, target, seen)?
        }
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    let file = w.defs.get(i).map(|d| d.file.as_str()).unwrap_or_default();
    for p in &node.pieces {
        if let Some(s) = w.piece(i, p) {
            pieces.push(s);
            continue;
        }
        // A named input (`"books" / bookId`, `.in(paging)`), same file first.
        let Piece::Const(parts) = p else { continue };
        let Some(cands) = parts.last().and_then(|n| named.get(n)) else {
            continue;
        };
        let Some(input) = cands.iter().find(|c| c.file == file).or(cands.first()) else {
            continue;
        };
        pieces.extend(input.node.pieces.iter().filter_map(|q| w.piece(i, q)));
    }
    if !node.methods.is_empty() {
        methods = node.methods.clone();
    }
    for p in &node.params {
        match p {
            Par::Lookup(name) => {
                let input = named
                    .get(name)
                    .and_then(|c| c.iter().find(|c| c.file == file).or(c.first()));
                if let Some(input) = input {
                    params.extend(input.node.params.iter().cloned());
                }
            }
            other => params.push(other.clone()),
        }
    }
    Some((pieces, methods, params))
}

fn link(w: &World, named: &HashMap<String, Vec<Input>>, prefix: Option<&Node>) -> Vec<Endpoint> {
    let mut extended = HashSet::new();
    for (i, d) in w.defs.iter().enumerate() {
        if let Some(base) = d.node.as_ref().and_then(|n| n.refs.first()) {
            extended.extend(w.resolve(i, base, true).first().copied());
        }
    }
    let mut out = Vec::new();
    for (i, d) in w.defs.iter().enumerate() {
        if d.node.is_none() || extended.contains(&i) {
            continue;
        }
        let Some((mut pieces, mut methods, mut params)) = flatten(w, named, i, &mut HashSet::new())
        else {
            continue;
        };
        if methods.is_empty() {
            if pieces.is_empty() && params.is_empty() {
                continue;
            }
            methods = ANY_METHODS.iter().map(|m| m.to_string()).collect();
        }
        if let Some(p) = prefix {
            let mut head: Vec<String> = p.pieces.iter().filter_map(|q| w.piece(i, q)).collect();
            head.append(&mut pieces);
            pieces = head;
            params.extend(p.params.iter().cloned());
        }
        w.emit_at(&d.file, d.line, &pieces, &methods, &params, &mut out);
    }
    out
}
