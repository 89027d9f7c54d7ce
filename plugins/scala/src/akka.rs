//! Akka HTTP and Pekko HTTP routing DSL (`scala_akka`).
//!
//! - Directives nest: `pathPrefix("api") { path("users" / LongNumber) { id
//!   => get { … } ~ put { … } } }`; `~` and `concat(…)` combine routes;
//!   `pathEnd`, `pathSingleSlash`, `pathEndOrSingleSlash` add nothing;
//!   `(path("x") & get) { … }` chains; unknown directives with a block
//!   (`authenticateBasic(…) { user => … }`) are transparent.
//! - Path matchers: string literals, string constants (`path(UsersPath)`,
//!   also from other objects), `Segment`, `IntNumber`, `LongNumber`,
//!   `JavaUUID`, `Remaining`, … become `{name}` named after the lambda
//!   parameter that receives them (`{ id => …`), else `{param1}`, ….
//! - Routes composed from `val`/`def`s in other files and objects
//!   (`pathPrefix("api") { concat(userRoutes, OrderRoutes.routes) }`,
//!   `new UserRoutes(repo).routes`) are linked; definitions no other route
//!   uses are the roots.
//! - Parameters: `parameters("q", "page".as[Int].optional)` / `parameter`
//!   (query), `formFields` / `formField` (form), `headerValueByName` /
//!   `optionalHeaderValueByName` (header), `cookie` / `optionalCookie`
//!   (cookie), `entity(as[CreateUser])` (json: the case class fields).
//! - A route without a method directive matches any method and is reported
//!   as GET. Each endpoint is located at the innermost path or method
//!   directive that shaped it.
//!
//! Test sources are skipped.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::scala::outline::Outline;
use crate::scala::route::{Node, Par, Piece, World};
use crate::scala::tokens::{Kind, Toks};
use crate::scala::{self, file_facts, lambda, ref_at, str_pieces, tick, type_arg, VERBS};

pub struct Akka;

impl Analyzer for Akka {
    fn tech(&self) -> Tech {
        Tech::new("scala_akka", "Scala", "Akka HTTP")
            .aliases(["akka", "akka-http", "scala-akka", "pekko", "pekko-http"])
            .files(["*.scala"])
            .detect(
                Detect::files(["*.scala"])
                    .contains(["akka.http.scaladsl", "org.apache.pekko.http.scaladsl"]),
            )
            .detect(
                Detect::files(["build.sbt", "*.sbt"]).contains(["\"akka-http\"", "\"pekko-http\""]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !scala::wanted(file) {
            return;
        }
        let t = Toks::new(file);
        let o = Outline::new(&t);
        // Only files that can see the routing DSL hold routes; the others
        // still contribute constants, case classes and supertypes.
        let dsl = ["scaladsl", "Directive", "Route"]
            .iter()
            .any(|w| file.content.contains(w));
        file_facts(file, &t, &o, out, &move |t, o, r| {
            dsl.then(|| bare_directive(t, o, r.clone()).unwrap_or_else(|| expr(t, o, r)))
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(World::new(facts).endpoints())
    }
}

const PATHS: &[&str] = &[
    "path",
    "pathPrefix",
    "rawPathPrefix",
    "pathPrefixTest",
    "pathEnd",
    "pathSingleSlash",
    "pathEndOrSingleSlash",
    "redirectToTrailingSlashIfMissing",
    "redirectToNoTrailingSlashIfPresent",
];

const PARAMS: &[(&str, ParamKind)] = &[
    ("parameters", ParamKind::Query),
    ("parameter", ParamKind::Query),
    ("formFields", ParamKind::Form),
    ("formField", ParamKind::Form),
    ("headerValueByName", ParamKind::Header),
    ("optionalHeaderValueByName", ParamKind::Header),
    ("cookie", ParamKind::Cookie),
    ("optionalCookie", ParamKind::Cookie),
];

fn is_directive(name: &str) -> bool {
    PATHS.contains(&name)
        || VERBS.iter().any(|(m, _)| *m == name)
        || PARAMS.iter().any(|(p, _)| *p == name)
        || matches!(name, "method" | "entity")
}

/// `lazy val itemOps = put | get | delete`, `val listed = pathEndOrSingleSlash
/// & get`: a right-hand side that is a directive conjunction without a
/// block defines a custom directive (used as `(itemOps & …) { … }`), not a
/// route.
fn bare_directive(t: &Toks, o: &Outline, r: Range<usize>) -> Option<Node> {
    let first = t.ident(r.start)?;
    if !is_directive(first) {
        return None;
    }
    let (mut node, next, has_block) = chain(t, o, r.start, r.end);
    if has_block || next < r.end {
        return None;
    }
    let mut n = &mut node;
    for _ in 0..16 {
        n.leaf = false;
        // Path values are named where the directive is used.
        for p in &mut n.pieces {
            if let Piece::Param(name) = p {
                if name
                    .strip_prefix("param")
                    .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
                {
                    name.clear();
                }
            }
        }
        match n.children.as_mut_slice() {
            [c] => n = c,
            _ => break,
        }
    }
    Some(node)
}

/// The routes of `r` (a definition's right-hand side or a block's body).
pub fn expr(t: &Toks, o: &Outline, r: Range<usize>) -> Node {
    scala::nested(|| expr_in(t, o, r)).unwrap_or_default()
}

fn expr_in(t: &Toks, o: &Outline, r: Range<usize>) -> Node {
    let mut group = Node::default();
    let mut k = r.start;
    while k < r.end {
        tick(1);
        let Some(tok) = t.get(k) else { break };
        let after_dot = k > 0 && t.is(k - 1, ".");
        if tok.kind == Kind::Ident && !after_dot {
            let name = tok.text.as_str();
            if matches!(name, "val" | "var" | "def") {
                // A local definition is its own fact.
                k = o
                    .def_named_at(k + 1)
                    .map_or(k + 2, |d| d.rhs.end.max(k + 1));
                continue;
            }
            if is_directive(name) {
                let (node, next, _) = chain(t, o, k, r.end);
                group.children.push(node);
                k = next.max(k + 1);
                continue;
            }
            if name == "concat" && t.is(k + 1, "(") {
                let close = t.close(k + 1).unwrap_or(r.end).min(r.end);
                for arg in t.split(k + 2, close, ",") {
                    group.children.push(expr(t, o, arg));
                }
                k = close + 1;
                continue;
            }
            if let Some((parts, next)) = ref_at(t, k, r.start, r.end) {
                group.refs.push(parts);
                k = next;
                continue;
            }
            // Unknown directive with a block: look inside; a custom
            // directive defined elsewhere (`prefix { … }`) adds its path.
            let dotted = t.dotted(k).filter(|(p, _)| p.len() <= 3);
            let mut j = dotted.as_ref().map_or(k + 1, |(_, next)| *next);
            while t.is(j, "(") || t.is(j, "[") {
                j = t.skip_group(j);
            }
            // `entityDirective(x) & pathEnd { … }`: a conjunction led by a
            // custom directive.
            if dotted.is_some() && t.is(j, "&") && t.ident(j + 1).is_some() {
                let (node, next, _) = chain(t, o, k, r.end);
                group.children.push(node);
                k = next.max(k + 1);
                continue;
            }
            if t.is(j, "{") {
                let close = t.close(j).unwrap_or(r.end).min(r.end);
                let (names, body) = lambda(t, j, close);
                let mut inner = expr(t, o, body..close);
                if let Some((parts, _)) = dotted {
                    inner.wrap.push(parts);
                    inner.names = names;
                }
                group.children.push(inner);
                k = close + 1;
                continue;
            }
            k = j;
            continue;
        }
        if tok.is('(') && starts_chain(t, k) {
            let (node, next, _) = chain(t, o, k, r.end);
            group.children.push(node);
            k = next.max(k + 1);
            continue;
        }
        if tok.is('{') {
            let close = t.close(k).unwrap_or(r.end).min(r.end);
            let (_, body) = lambda(t, k, close);
            group.children.push(expr(t, o, body..close));
            k = close + 1;
            continue;
        }
        if tok.is('(') || tok.is('[') {
            // Arguments of something that is not a route (`complete(…)`);
            // `(a ~ b)` groups of routes are read as routes.
            let close = t.close(k).unwrap_or(r.end).min(r.end);
            if (k + 1..close).any(|i| t.is(i, "~")) {
                group.children.push(expr(t, o, k + 1..close));
            }
            k = close + 1;
            continue;
        }
        k += 1;
    }
    group
}

/// `(get & path("x"))`, `(itemPrefix & itemOps)`: a parenthesised
/// directive conjunction with a block.
fn starts_chain(t: &Toks, open: usize) -> bool {
    let Some(close) = t.close(open) else {
        return false;
    };
    if !t.is(close + 1, "{") {
        return false;
    }
    if t.ident(open + 1).is_some_and(is_directive) {
        return true;
    }
    let parts = t.split(open + 1, close, "&");
    parts.len() >= 2 && parts.iter().all(|p| t.ident(p.start).is_some())
}

/// One directive: its node (without children), how many values it
/// extracts, and the index after it.
struct One {
    node: Node,
    /// Indexes into `node.pieces` of unnamed path parameters, in order.
    slots: Vec<usize>,
    extracts: usize,
}

fn one(t: &Toks, k: usize, end: usize) -> (One, usize) {
    let name = t.ident(k).unwrap_or("");
    let mut node = Node::at(t.line(k));
    let mut slots = Vec::new();
    let mut extracts = 0;
    let mut next = k + 1;
    if !is_directive(name) {
        // A custom directive (`itemOps`, `auth.required(realm)`), defined
        // elsewhere: its path and methods are linked by name.
        if let Some((parts, after)) = t.dotted(k).filter(|(p, _)| p.len() <= 3) {
            node.wrap.push(parts);
            next = after.min(end.max(k + 1));
        } else {
            while t.is(next, "(") || t.is(next, "[") {
                next = t.skip_group(next);
            }
        }
        return (
            One {
                node,
                slots,
                extracts,
            },
            next,
        );
    }
    // `pathPrefix("a")`, `parameters(…)`, `entity(as[T])`: one argument list.
    let args = if t.is(next, "(") {
        let close = t.close(next).unwrap_or(end).min(end);
        let r = next + 1..close;
        next = close + 1;
        Some(r)
    } else {
        None
    };
    if PATHS.contains(&name) {
        if let Some(r) = args {
            for part in t.split(r.start, r.end, "/") {
                let (piece, param) = matcher(t, part);
                if param {
                    slots.push(node.pieces.len());
                    extracts += 1;
                }
                node.pieces.push(piece);
            }
        }
    } else if let Some((_, m)) = VERBS.iter().find(|(n, _)| *n == name) {
        node.methods.push((*m).to_string());
        // `put | get | delete`: alternatives, one endpoint per method.
        while t.is(next, "|") {
            let Some((_, m)) = t
                .ident(next + 1)
                .and_then(|a| VERBS.iter().find(|(n, _)| *n == a))
            else {
                break;
            };
            if !node.methods.iter().any(|x| x == m) {
                node.methods.push((*m).to_string());
            }
            next += 2;
        }
    } else if name == "method" {
        if let Some(m) = args.and_then(|r| (r.start..r.end).rev().find_map(|i| t.ident(i))) {
            node.methods.push(m.to_ascii_uppercase());
        }
    } else if let Some((_, kind)) = PARAMS.iter().find(|(n, _)| *n == name) {
        if let Some(r) = args {
            for arg in t.split(r.start, r.end, ",") {
                extracts += 1;
                if let Some(p) = param_name(t, arg) {
                    node.params.push(Par::Named(*kind, p));
                }
            }
        }
    } else if name == "entity" {
        extracts = 1;
        if let Some(r) = args {
            if t.is_ident(r.start, "as") {
                if let Some(ty) = type_arg(t, r.start + 1) {
                    if !matches!(
                        ty.as_str(),
                        "String" | "FormData" | "ByteString" | "HttpEntity"
                    ) {
                        node.params.push(Par::Body(ParamKind::Json, ty));
                    }
                }
            }
        }
    } else if args.is_some() {
        // A custom directive: extracts something unknown.
        extracts = 0;
    }
    (
        One {
            node,
            slots,
            extracts,
        },
        next,
    )
}

/// `"q"`, `"page".as[Int].optional`, `'q`, `Symbol("q")`.
fn param_name(t: &Toks, r: Range<usize>) -> Option<String> {
    if let Some(s) = t.str_at(r.start) {
        return Some(s.to_string());
    }
    if t.is(r.start, "'") {
        return t.ident(r.start + 1).map(str::to_string);
    }
    if t.is_ident(r.start, "Symbol") {
        return t.str_at(r.start + 2).map(str::to_string);
    }
    None
}

/// One operand of a path matcher; `true` when it extracts a value.
fn matcher(t: &Toks, r: Range<usize>) -> (Piece, bool) {
    let Some(tok) = t.get(r.start) else {
        return (Piece::Nothing, false);
    };
    // `("default".r | Segment)`: alternatives extract a value.
    if tok.is('(') {
        let close = t.close(r.start).unwrap_or(r.end).min(r.end);
        return if t.split(r.start + 1, close, "|").len() >= 2 {
            (Piece::Param(String::new()), true)
        } else {
            matcher(t, r.start + 1..close)
        };
    }
    match tok.kind {
        Kind::Str => {
            // `"""\d+""".r` is a regex matcher.
            if t.is(r.start + 1, ".") && t.is_ident(r.start + 2, "r") {
                return (Piece::Param(String::new()), true);
            }
            let pieces = str_pieces(&tok.text, &tok.prefix);
            if pieces.len() == 1 {
                return (pieces.into_iter().next().unwrap_or_default(), false);
            }
            // An interpolation: keep the text as one constant-free literal.
            (Piece::Lit(tok.text.clone()), false)
        }
        Kind::Ident => match tok.text.as_str() {
            "Slash" | "PathEnd" | "Neutral" => (Piece::Nothing, false),
            "Segment" | "IntNumber" | "LongNumber" | "JavaUUID" | "HexIntNumber"
            | "HexLongNumber" | "DoubleNumber" | "Remaining" | "RemainingPath" | "Segments" => {
                (Piece::Param(String::new()), true)
            }
            "separateOnSlashes" => (
                t.str_at(r.start + 2)
                    .map_or(Piece::Nothing, |s| Piece::Lit(s.to_string())),
                false,
            ),
            _ => match t.dotted(r.start) {
                // `Names.Pattern.r`: a regex constant.
                Some((parts, _)) if parts.len() > 1 && parts.last().is_some_and(|p| p == "r") => {
                    (Piece::Param(String::new()), true)
                }
                Some((parts, _)) => (Piece::Const(parts), false),
                None => (Piece::Nothing, false),
            },
        },
        _ => (Piece::Nothing, false),
    }
}

/// A directive conjunction at `k` (`path("x") & get`, `(get & path("x"))`)
/// with its optional block; returns the nested node and the index after.
fn chain(t: &Toks, o: &Outline, k: usize, end: usize) -> (Node, usize, bool) {
    let mut ones: Vec<One> = Vec::new();
    let mut i = k;
    loop {
        if t.is(i, "(") {
            let close = t.close(i).unwrap_or(end).min(end);
            for part in t.split(i + 1, close, "&") {
                if t.ident(part.start).is_some() {
                    let (d, _) = one(t, part.start, part.end);
                    ones.push(d);
                }
            }
            i = close + 1;
        } else if t.ident(i).is_some() {
            let (d, next) = one(t, i, end);
            ones.push(d);
            i = next;
        } else {
            break;
        }
        if t.is(i, "&") {
            i += 1;
            continue;
        }
        break;
    }
    let mut body = Node::default();
    let mut has_block = false;
    if t.is(i, "{") {
        let close = t.close(i).unwrap_or(end).min(end);
        let (names, start) = lambda(t, i, close);
        body = expr(t, o, start..close);
        has_block = true;
        // Name the extracted path values after the lambda parameters.
        let mut n = 0;
        let mut unnamed = 0;
        for d in &mut ones {
            if !d.node.wrap.is_empty() {
                // A custom directive extracts an unknown number of values:
                // it may name its path values from here on.
                d.node.names = names.get(n..).unwrap_or_default().to_vec();
            }
            let mut slot_iter = d.slots.iter();
            for x in 0..d.extracts {
                let name = names.get(n + x).cloned();
                if let Some(&slot) = slot_iter.next() {
                    unnamed += 1;
                    let name = name.unwrap_or_else(|| format!("param{unnamed}"));
                    d.node.pieces[slot] = Piece::Param(name);
                }
            }
            n += d.extracts;
        }
        i = close + 1;
    }
    let mut unnamed = 0;
    for d in &mut ones {
        for &slot in &d.slots {
            if d.node.pieces[slot] == Piece::Param(String::new()) {
                unnamed += 1;
                d.node.pieces[slot] = Piece::Param(format!("param{unnamed}"));
            }
        }
    }
    // Nest: the last directive holds the block's routes.
    let mut inner = match ones.pop() {
        Some(d) => d.node,
        None => return (body, i, has_block),
    };
    if body.routes() {
        // `(itemOps & extractMethod) { m => dispatch(m, id) }`: a helper
        // call; the endpoint ends here unless the helper builds routes.
        inner.fallback = has_block && !body.has_leaf();
        inner.children.push(body);
    } else if has_block || !inner.methods.is_empty() {
        inner.leaf = true;
    }
    while let Some(d) = ones.pop() {
        let mut outer = d.node;
        outer.children.push(inner);
        inner = outer;
    }
    (inner, i, has_block)
}
