//! Play Framework, Java (`java_play`).
//!
//! - Routes files: `conf/routes` and `conf/<name>.routes`, lines
//!   `GET /users/:id controllers.UserController.show(id: Long, q: String ?=
//!   null)` (also `@controllers.…` injected actions). Path parameters
//!   `:id`, `$id<[0-9]+>` and `*file` are reported as `{id}`. Action
//!   arguments not bound by the path are query parameters, except those
//!   with a fixed value (`format: String = "rss"`, `path="/public"`) and the
//!   injected request (`request: Request` / `Http.Request`).
//! - Includes: `-> /api api.Routes` mounts the routes of `api.routes` (found
//!   by name, preferring the including file's directory) under `/api`,
//!   nested includes compose. A routes file nobody includes is reported
//!   without a prefix. `#` comments and `+ nocsrf` modifier lines are
//!   skipped; routes files and controllers under test directories too.
//! - Controller actions (`Controller.method` named by the route, any Java
//!   file) add what they read: `request.getQueryString("q")` /
//!   `queryString("q")` (query), `request.header("X")` /
//!   `getHeaders().get("X")` (header), `request.getCookie("c")` /
//!   `cookie("c")` (cookie), `formFactory.form(X.class).bindFromRequest(…)`
//!   (form fields of `X`), a `DynamicForm` / `asFormUrlEncoded()` `.get("x")`
//!   (form), `json.findPath("x")` / `.get("x")` on `body().asJson()` and
//!   `Json.fromJson(…, X.class)` (json).
//!
//! Known gaps: SIRD routers (`-> /x SomeRouter` implemented in Java) are
//! not followed; reverse routes and the `routes` generated sources are not
//! read.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::body::{self, class_literal, member_call, str_lit};
use crate::jvm::index::Index;
use crate::jvm::outline::{self, JFile, Lang};
use crate::jvm::tokens::{close_of, Kind, Token};

pub struct JavaPlay;

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Fact {
    File(JFile),
    Router(Router),
    Action {
        path: String,
        class: String,
        name: String,
        reads: Vec<Read>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Router {
    path: String,
    /// `api` for `conf/api.routes`, "" for `conf/routes`.
    stem: String,
    routes: Vec<PlayRoute>,
    includes: Vec<(String, String)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct PlayRoute {
    method: String,
    path: String,
    line: u32,
    class: String,
    action: String,
    query: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Read {
    Param(ParamKind, String),
    Body(ParamKind, String),
}

impl Analyzer for JavaPlay {
    fn tech(&self) -> Tech {
        Tech::new("java_play", "Java", "Play Framework")
            .aliases(["java-play", "play-java"])
            .files(["routes", "*.routes", "*.java"])
            .detect(Detect::files(["build.sbt", "*.sbt"]).contains(["PlayJava"]))
            .detect(Detect::files(["*.java"]).contains(["import play.mvc."]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let name = file.path.rsplit('/').next().unwrap_or("");
        if name == "routes" || name.ends_with(".routes") {
            let stem = name.strip_suffix(".routes").unwrap_or("").to_string();
            out.fact(&Fact::Router(parse_routes(file, stem)));
            return;
        }
        if !file.path.ends_with(".java") {
            return;
        }
        let outline = outline::parse(file, Lang::Java);
        if !outline.types.is_empty() {
            out.fact(&Fact::File(outline));
        }
        let toks = crate::jvm::tokens::of_file(file);
        let t: &[Token] = &toks.0;
        let classes = body::classes(t);
        for m in body::methods(t, &classes) {
            let reads = reads(t, m.body.clone());
            if !reads.is_empty() {
                out.fact(&Fact::Action {
                    path: file.path.clone(),
                    class: m.class,
                    name: m.name,
                    reads,
                });
            }
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut files = Vec::new();
        let mut routers = Vec::new();
        let mut actions = Vec::new();
        for f in facts.all::<Fact>() {
            match f {
                Fact::File(j) => files.push(j),
                Fact::Router(r) => routers.push(r),
                Fact::Action {
                    path,
                    class,
                    name,
                    reads,
                } => actions.push((path, class, name, reads)),
            }
        }
        let idx = Index::new(&files);
        let mut out = Vec::new();
        for (ri, r) in routers.iter().enumerate() {
            for prefix in prefixes(&routers, ri, 0) {
                for route in &r.routes {
                    let url = join_path(&[prefix.as_str(), route.path.as_str()]);
                    let mut params: Vec<Param> = route
                        .query
                        .iter()
                        .map(|q| Param::query(q.clone()))
                        .collect();
                    for (path, class, name, reads) in &actions {
                        if *class != route.class || *name != route.action {
                            continue;
                        }
                        let fi = idx.files.iter().position(|x| x.path == *path).unwrap_or(0);
                        for rd in reads {
                            let new = match rd {
                                Read::Param(k, n) => vec![Param::new(*k, n.clone())],
                                Read::Body(k, cls) => idx
                                    .dto_fields(fi, cls)
                                    .unwrap_or_default()
                                    .into_iter()
                                    .map(|n| Param::new(*k, n))
                                    .collect(),
                            };
                            for p in new {
                                if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                                    params.push(p);
                                }
                            }
                        }
                    }
                    out.push(
                        Endpoint::new(&route.method, url)
                            .at_path(r.path.clone(), route.line)
                            .params(params),
                    );
                }
            }
        }
        Ok(out)
    }
}

/// The prefixes of router `ri`: its includes' prefixes composed, `[""]`
/// for a root or an unincluded router.
fn prefixes(routers: &[Router], ri: usize, depth: usize) -> Vec<String> {
    let me = &routers[ri];
    let mut out = Vec::new();
    if me.stem.is_empty() || depth > 8 {
        return vec![String::new()];
    }
    let dir = |p: &str| {
        p.rsplit_once('/')
            .map_or(String::new(), |(d, _)| d.to_string())
    };
    for (oi, other) in routers.iter().enumerate() {
        for (prefix, target) in &other.includes {
            let stem = target.strip_suffix(".Routes").unwrap_or(target);
            if stem != me.stem {
                continue;
            }
            // Prefer a router of the same name in the including directory.
            let same_dir: Vec<usize> = routers
                .iter()
                .enumerate()
                .filter(|(_, x)| x.stem == me.stem && dir(&x.path) == dir(&other.path))
                .map(|(i, _)| i)
                .collect();
            if !same_dir.is_empty() && !same_dir.contains(&ri) {
                continue;
            }
            for outer in prefixes(routers, oi, depth + 1) {
                let p = join_path(&[outer.as_str(), prefix.as_str()]);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

fn parse_routes(file: &SourceFile, stem: String) -> Router {
    let mut r = Router {
        path: file.path.clone(),
        stem,
        routes: Vec::new(),
        includes: Vec::new(),
    };
    for (n, raw) in file.content.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('+') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(first), Some(path)) = (words.next(), words.next()) else {
            continue;
        };
        let rest = words.collect::<Vec<_>>().join(" ");
        if first == "->" {
            if let Some(target) = rest.split_whitespace().next() {
                r.includes.push((path.to_string(), target.to_string()));
            }
            continue;
        }
        if !METHODS.contains(&first) {
            continue;
        }
        let (path, names) = convert_path(path);
        let action = rest.trim_start_matches('@');
        let (call, args) = match action.split_once('(') {
            Some((c, a)) => (c.trim(), a.rsplit_once(')').map_or(a, |x| x.0)),
            None => (action.trim(), ""),
        };
        let mut segs = call.rsplit('.');
        let method = segs.next().unwrap_or("").to_string();
        let class = segs.next().unwrap_or("").to_string();
        let mut query = Vec::new();
        for arg in split_args(args) {
            let arg = arg.trim();
            let (name, ty) = match arg.split_once(':') {
                Some((n, rest)) => (n.trim(), rest.trim()),
                None => (arg.split('=').next().unwrap_or("").trim(), ""),
            };
            let fixed = {
                let after = if ty.is_empty() { arg } else { ty };
                after.contains('=') && !after.contains("?=")
            };
            let ty_name = ty.split(['?', '=']).next().unwrap_or("").trim();
            let injected = matches!(
                ty_name,
                "Request" | "Http.Request" | "play.mvc.Http.Request"
            );
            if name.is_empty() || fixed || injected || names.iter().any(|p| p == name) {
                continue;
            }
            query.push(name.to_string());
        }
        r.routes.push(PlayRoute {
            method: first.to_string(),
            path,
            line: n as u32 + 1,
            class,
            action: method,
            query,
        });
    }
    r
}

/// Split at top-level commas (brackets and quotes respected).
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quote = false;
    for c in s.chars() {
        match c {
            '"' => quote = !quote,
            '(' | '[' | '<' | '{' if !quote => depth += 1,
            ')' | ']' | '>' | '}' if !quote => depth -= 1,
            ',' if !quote && depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// `/users/:id/$n<[0-9]+>/*rest` → `/users/{id}/{n}/{rest}` and the names.
fn convert_path(path: &str) -> (String, Vec<String>) {
    let mut names = Vec::new();
    let segs: Vec<String> = path
        .split('/')
        .map(|seg| {
            let name = if let Some(n) = seg.strip_prefix(':').or_else(|| seg.strip_prefix('*')) {
                Some(n.to_string())
            } else {
                seg.strip_prefix('$')
                    .map(|n| n.split('<').next().unwrap_or("").to_string())
            };
            match name {
                Some(n) if !n.is_empty() => {
                    let s = format!("{{{n}}}");
                    names.push(n);
                    s
                }
                _ => seg.to_string(),
            }
        })
        .collect();
    (segs.join("/"), names)
}

/// Request reads of a controller action body.
fn reads(t: &[Token], r: std::ops::Range<usize>) -> Vec<Read> {
    let mut out: Vec<Read> = Vec::new();
    let end = r.end.min(t.len());
    let mut push = |x: Read| {
        if !out.contains(&x) {
            out.push(x);
        }
    };
    // Variables holding a JSON body / a dynamic form.
    let mut vars: Vec<(String, ParamKind)> = Vec::new();
    for k in r.start.max(1)..end {
        if t[k].is('=') && t[k - 1].kind == Kind::Ident && !t.get(k + 1).is_some_and(|x| x.is('='))
        {
            let stop = (k + 1..end).find(|&j| t[j].is(';')).unwrap_or(end);
            let has = |w: &str| (k + 1..stop).any(|j| t[j].is_ident(w));
            let dynamic_form = (k + 1..stop).any(|j| {
                t[j].is_ident("form")
                    && t.get(j + 1).is_some_and(|x| x.is('('))
                    && t.get(j + 2).is_some_and(|x| x.is(')'))
            }) && has("bindFromRequest");
            if has("asJson") && !has("fromJson") {
                vars.push((t[k - 1].text.clone(), ParamKind::Json));
            } else if has("asFormUrlEncoded") || dynamic_form {
                vars.push((t[k - 1].text.clone(), ParamKind::Form));
            }
        }
    }
    for i in r.start.max(2)..end {
        if !member_call(
            t,
            i,
            &[
                "getQueryString",
                "queryString",
                "header",
                "getHeader",
                "get",
                "getCookie",
                "cookie",
                "findPath",
                "path",
                "form",
                "fromJson",
            ],
        ) {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(end);
        let args = crate::jvm::tokens::split_commas(t, i + 2, close);
        let lit = args.first().and_then(|a| str_lit(t, a));
        let recv = &t[i - 2];
        let recv_call =
            |name: &str| recv.is(')') && i >= 4 && t[i - 3].is('(') && t[i - 4].is_ident(name);
        let var_kind = (recv.kind == Kind::Ident)
            .then(|| vars.iter().find(|(v, _)| *v == recv.text).map(|(_, k)| *k))
            .flatten();
        match (t[i].text.as_str(), lit) {
            ("getQueryString" | "queryString", Some(n)) => push(Read::Param(ParamKind::Query, n)),
            ("header" | "getHeader", Some(n)) => push(Read::Param(ParamKind::Header, n)),
            ("getCookie" | "cookie", Some(n)) => push(Read::Param(ParamKind::Cookie, n)),
            ("findPath" | "path", Some(n))
                if var_kind == Some(ParamKind::Json)
                    || recv.kind == Kind::Ident && t[i].is_ident("findPath") =>
            {
                push(Read::Param(ParamKind::Json, n))
            }
            ("get", Some(n)) if recv_call("getHeaders") => push(Read::Param(ParamKind::Header, n)),
            ("get", Some(n)) => {
                if let Some(k) = var_kind {
                    push(Read::Param(k, n));
                }
            }
            ("form", None) => {
                let bound = t
                    .get(close + 2)
                    .is_some_and(|x| x.is_ident("bindFromRequest"));
                if let (Some(cls), true) = (class_literal(t, i + 2..close), bound) {
                    push(Read::Body(ParamKind::Form, cls));
                }
            }
            ("fromJson", None) => {
                if let Some(cls) = class_literal(t, i + 2..close) {
                    push(Read::Body(ParamKind::Json, cls));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_placeholders_are_converted() {
        let (p, names) = convert_path("/users/:id/$n<[0-9]+>/files/*rest");
        assert_eq!(p, "/users/{id}/{n}/files/{rest}");
        assert_eq!(names, ["id", "n", "rest"]);
    }

    #[test]
    fn route_lines_give_query_params_minus_fixed_and_injected() {
        let src = "# c\n+ nocsrf\nGET /a/:id c.X.m(id: Long, q: String ?= null, f: Int = 1, request: Request, o: Option[String])\n-> /api api.Routes\nBOGUS /x c.X.y()\n";
        let r = parse_routes(&SourceFile::new("conf/routes", src), String::new());
        assert_eq!(r.routes.len(), 1);
        let route = &r.routes[0];
        assert_eq!(
            (route.line, route.class.as_str(), route.action.as_str()),
            (3, "X", "m")
        );
        assert_eq!(route.query, ["q", "o"]);
        assert_eq!(r.includes, [("/api".to_string(), "api.Routes".to_string())]);
    }
}
