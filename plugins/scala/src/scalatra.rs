//! Scalatra (`scala_scalatra`).
//!
//! - Routes are `get("/users/:id") { … }` or `get("/x")(action)` /
//!   `post("/x", form)(usersOnly { f => … })` (also `post`, `put`, `delete`,
//!   `patch`, `head`, `options`; extra arguments such as a Swagger
//!   `operation(…)` are ignored) in the body of a class or trait. Paths are
//!   string literals, string constants (from any object) or `+`
//!   concatenations of both, kept with Scalatra's placeholder syntax
//!   (`:id`); regex routes (`"""…""".r`) are not reported.
//! - Prefixes come from mounts in any file: `context.mount(new UserServlet(
//!   repo), "/users/*")` (also `context mount (…)`, `addServlet(new X,
//!   "/x/*")`, `addServlet(classOf[X], "/x/*")`); the trailing `/*` is
//!   dropped. A `ScalatraFilter` (directly or through a base class) is no
//!   prefix: filters match the whole request path. A servlet inherits the routes of the traits and base classes
//!   it extends (in other files too), so a route trait mixed into two
//!   mounted servlets is reported under both prefixes. A servlet that is
//!   neither mounted nor a parent of another servlet is reported at the
//!   root (mounted by `web.xml`).
//! - Reads in the route block: `params("q")` / `params.get("q")` /
//!   `params.getOrElse(…)` / `params.getAs[T]("q")` / `multiParams(…)`
//!   (query for GET, HEAD, DELETE and OPTIONS routes, form otherwise;
//!   route placeholders excluded), `request.getHeader("X")` /
//!   `request.header("X")` (header), `cookies.get("c")` / `cookies("c")`
//!   (cookie), `parsedBody.extract[T]` (json: the case class fields),
//!   `fileParams("f")` (file).
//!
//! Test sources are skipped.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::scala::outline::{stmt_end, Outline};
use crate::scala::route::{Fact, Par, Piece, Route, Servlet, World};
use crate::scala::tokens::{Kind, Toks};
use crate::scala::{self, file_facts, konst, type_arg, VERBS};

pub struct Scalatra;

impl Analyzer for Scalatra {
    fn tech(&self) -> Tech {
        Tech::new("scala_scalatra", "Scala", "Scalatra")
            .aliases(["scalatra", "scala-scalatra"])
            .files(["*.scala"])
            .detect(Detect::files(["*.scala"]).contains(["org.scalatra"]))
            .detect(Detect::files(["build.sbt", "*.sbt"]).contains(["\"org.scalatra\""]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !scala::wanted(file) {
            return;
        }
        let t = Toks::new(file);
        let o = Outline::new(&t);
        file_facts(file, &t, &o, out, &|_, _, _| None);
        for s in servlets(file, &t, &o) {
            out.fact(&Fact::Servlet(s));
        }
        mounts(&t, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(&World::new(facts)))
    }
}

/// Classes and traits: their parents and the routes of their own body.
fn servlets(file: &SourceFile, t: &Toks, o: &Outline) -> Vec<Servlet> {
    let mut out = Vec::new();
    for k in 0..t.len() {
        if !matches!(t.ident(k), Some("class" | "trait" | "object")) || t.is(k.wrapping_sub(1), ".")
        {
            continue;
        }
        let Some(name) = t.ident(k + 1) else { continue };
        let end = stmt_end(t, k + 2, t.len());
        let mut parents = Vec::new();
        let mut body = None;
        let mut j = k + 2;
        while j < end {
            if t.is(j, "{") {
                body = Some(j..t.close(j).unwrap_or(t.len()));
                break;
            }
            if t.is_ident(j, "extends") || t.is_ident(j, "with") {
                if let Some((parts, _)) = t.dotted(j + 1) {
                    parents.extend(parts.last().cloned());
                }
            }
            j = if t.is_open(j) { t.skip_group(j) } else { j + 1 };
        }
        let routes = body.map(|b| routes(t, o, b, name)).unwrap_or_default();
        if routes.is_empty() && parents.is_empty() {
            continue;
        }
        out.push(Servlet {
            file: file.path.clone(),
            name: name.to_string(),
            parents,
            routes,
        });
    }
    out
}

/// `verb(path, …) { … }` directly in the body `b` of `owner`.
fn routes(t: &Toks, o: &Outline, b: Range<usize>, owner: &str) -> Vec<Route> {
    let mut out = Vec::new();
    for k in b.start + 1..b.end {
        let Some(&(_, method)) = VERBS.iter().find(|(v, _)| t.is_ident(k, v)) else {
            continue;
        };
        if t.is(k - 1, ".") || !t.is(k + 1, "(") {
            continue;
        }
        if o.owner_of(k).map(|w| w.name.as_str()) != Some(owner) {
            continue;
        }
        let Some(close) = t.close(k + 1) else {
            continue;
        };
        // The action: a block, or a second argument list
        // (`get("/x")(usersOnly { … })`, `get("/x")(handler)`).
        if !t.is(close + 1, "{") && !t.is(close + 1, "(") {
            continue;
        }
        let args = t.split(k + 2, close, ",");
        let Some(first) = args.first() else { continue };
        let pieces = match konst(t, first.clone()) {
            Some(p) => p,
            None => match t.dotted(first.start) {
                Some((parts, next))
                    if next == first.end
                        && t.get(first.start).is_some_and(|x| x.kind == Kind::Ident) =>
                {
                    vec![Piece::Const(parts)]
                }
                _ => continue,
            },
        };
        let block_end = t.close(close + 1).unwrap_or(t.len());
        out.push(Route {
            methods: vec![method.to_string()],
            pieces,
            line: t.line(k),
            params: reads(t, close + 2..block_end),
        });
    }
    out
}

/// Request values read in a route block.
fn reads(t: &Toks, r: Range<usize>) -> Vec<Par> {
    let mut out = Vec::new();
    for k in r {
        let Some(name) = t.ident(k) else { continue };
        // The first string argument of `name(…)` / `name.get(…)` /
        // `name.getAs[T](…)` / `name.getOrElse(…)`.
        let arg = || {
            let mut j = k + 1;
            if t.is(j, ".") && t.ident(j + 1).is_some() {
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
        let after_dot = k > 0 && t.is(k - 1, ".");
        match name {
            "params" | "multiParams" if !after_dot => out.extend(arg().map(Par::Auto)),
            "getHeader" | "header" if after_dot => {
                out.extend(arg().map(|a| Par::Named(ParamKind::Header, a)))
            }
            "headers" if after_dot => out.extend(arg().map(|a| Par::Named(ParamKind::Header, a))),
            "cookies" => out.extend(arg().map(|a| Par::Named(ParamKind::Cookie, a))),
            "fileParams" | "fileMultiParams" => {
                out.extend(arg().map(|a| Par::Named(ParamKind::File, a)))
            }
            "extract" | "extractOpt" if after_dot => {
                if let Some(ty) = type_arg(t, k + 1) {
                    out.push(Par::Body(ParamKind::Json, ty));
                }
            }
            _ => {}
        }
    }
    out
}

/// `context.mount(new X(…), "/x/*")`, `addServlet(classOf[X], "/x/*")`.
fn mounts(t: &Toks, out: &mut Output) {
    for k in 0..t.len() {
        if !matches!(t.ident(k), Some("mount" | "addServlet")) || !t.is(k + 1, "(") {
            continue;
        }
        let Some(close) = t.close(k + 1) else {
            continue;
        };
        let args = t.split(k + 2, close, ",");
        let (Some(target), Some(path)) = (args.first(), args.get(1)) else {
            continue;
        };
        let class = if t.is_ident(target.start, "classOf") {
            type_arg(t, target.start + 1)
        } else {
            t.dotted(target.start)
                .and_then(|(parts, _)| parts.last().cloned())
        };
        let pieces = konst(t, path.clone()).or_else(|| {
            t.dotted(path.start)
                .filter(|(_, next)| *next == path.end)
                .map(|(parts, _)| vec![Piece::Const(parts)])
        });
        if let (Some(class), Some(path)) = (class, pieces) {
            out.fact(&Fact::Mount { class, path });
        }
    }
}

fn resolve(w: &World, pieces: &[Piece]) -> Option<String> {
    let mut s = String::new();
    for p in pieces {
        s.push_str(&w.piece(usize::MAX, p)?);
    }
    Some(s)
}

/// Routes of a class and, recursively, of its parents: (file, route).
fn routes_of<'a>(
    w: &'a World,
    by_name: &HashMap<&str, Vec<usize>>,
    name: &str,
    seen: &mut HashSet<String>,
    out: &mut Vec<(&'a str, &'a Route)>,
) {
    if !seen.insert(name.to_string()) || seen.len() > 64 {
        return;
    }
    for &i in by_name.get(name).into_iter().flatten() {
        let Some(s) = w.servlets.get(i) else { continue };
        out.extend(s.routes.iter().map(|r| (s.file.as_str(), r)));
        for p in &s.parents {
            routes_of(w, by_name, p, seen, out);
        }
    }
}

/// Does `name` extend `ScalatraFilter` (through its parents, in any file)?
/// A filter matches routes against the whole request path: the path it is
/// mounted at only selects the requests it sees, and is no prefix.
fn is_filter(w: &World, by_name: &HashMap<&str, Vec<usize>>, name: &str) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![name];
    while let Some(n) = stack.pop() {
        if n == "ScalatraFilter" {
            return true;
        }
        if !seen.insert(n) || seen.len() > 64 {
            continue;
        }
        for &i in by_name.get(n).into_iter().flatten() {
            if let Some(s) = w.servlets.get(i) {
                stack.extend(s.parents.iter().map(String::as_str));
            }
        }
    }
    false
}

fn link(w: &World) -> Vec<Endpoint> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, s) in w.servlets.iter().enumerate() {
        by_name.entry(s.name.as_str()).or_default().push(i);
    }
    let parents: HashSet<&str> = w
        .servlets
        .iter()
        .flat_map(|s| s.parents.iter().map(String::as_str))
        .collect();
    let mounted: HashSet<&str> = w.mounts.iter().map(|(c, _)| c.as_str()).collect();
    let mut roots: Vec<(&str, String)> = Vec::new();
    for (class, path) in &w.mounts {
        if is_filter(w, &by_name, class) {
            roots.push((class.as_str(), String::new()));
        } else if let Some(prefix) = resolve(w, path) {
            let prefix = prefix.trim_end_matches('*').to_string();
            roots.push((class.as_str(), prefix));
        }
    }
    for s in &w.servlets {
        let name = s.name.as_str();
        if !s.routes.is_empty() && !mounted.contains(name) && !parents.contains(name) {
            roots.push((name, String::new()));
        }
    }
    let mut out = Vec::new();
    let mut done = HashSet::new();
    for (class, prefix) in roots {
        if !done.insert((class, prefix.clone())) {
            continue;
        }
        let mut routes = Vec::new();
        routes_of(w, &by_name, class, &mut HashSet::new(), &mut routes);
        for (file, r) in routes {
            let Some(path) = resolve(w, &r.pieces) else {
                continue;
            };
            let holes: Vec<&str> = path
                .split('/')
                .filter_map(|seg| seg.strip_prefix(':'))
                .collect();
            let params: Vec<Par> = r
                .params
                .iter()
                .filter(|p| {
                    !matches!(p, Par::Auto(n) if holes.contains(&n.as_str()) || n == "splat" || n == "captures")
                })
                .cloned()
                .collect();
            w.emit_at(
                file,
                r.line,
                &[prefix.clone(), path],
                &r.methods,
                &params,
                &mut out,
            );
        }
    }
    out
}
