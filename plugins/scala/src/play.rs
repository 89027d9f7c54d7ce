//! Play Framework, Scala (`scala_play`).
//!
//! - `conf/routes` and `conf/*.routes` files: `GET /users/:id
//!   controllers.UserController.show(id: Long, page: Int ?= 1)`; path
//!   parameters `:id`, `$id<[0-9]+>` (reported as `:id`) and `*path`;
//!   action arguments not bound by the path are query parameters unless
//!   they have a fixed value (`page: Int = 1`); `?=` defaults and
//!   `Option[…]` stay query parameters.
//! - `->  /api  api.Routes` includes the router of `api.routes` under
//!   `/api` (across modules too: the file is found by name); a routes file
//!   nobody includes is reported without a prefix. `+ nocsrf` modifier
//!   lines and `#` comments are skipped.
//! - Controller actions add what they read from the request: the action
//!   named by the route (`UserController.create`) is looked up among the
//!   Scala sources; `request.getQueryString("q")` (query),
//!   `request.headers.get("X")` (header), `request.cookies.get("c")`
//!   (cookie), `(request.body \ "name")` / `(json \ "name")` and
//!   `request.body.validate[T]` / `.as[T]` (json fields),
//!   `body.asFormUrlEncoded…get("x")` (form), `body.file("x")` (file),
//!   `someForm.bindFromRequest()` of a `val someForm = Form(mapping("a" ->
//!   …))` declared in the same file (its keys, form).
//!
//! - SIRD routers: a class extending `SimpleRouter` with `case
//!   GET(p"/posts/$id" ? q_o"page=$page") => controller.show(id)`
//!   (extractors `${int(id)}` bind `id`; `q"…"`, `q_?`, `q_o`, `q_s`
//!   give query parameters); a `->  /v1/posts  v1.post.PostRouter` line
//!   mounts it (by class name), else it is reported unprefixed. The
//!   action is found through the constructor parameter's type.
//!
//! Routes files and sources under test directories are skipped.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::scala::outline::Outline;
use crate::scala::tokens::{Kind, Toks};
use crate::scala::{self, type_arg};

pub struct Play;

#[derive(Serialize, Deserialize)]
#[serde(tag = "t")]
enum PlayFact {
    Router {
        file: String,
        stem: String,
        entries: Vec<Entry>,
    },
    /// What an action reads: `Controller.action`.
    Action {
        class: String,
        name: String,
        params: Vec<(ParamKind, String)>,
        bodies: Vec<String>,
    },
    Class {
        name: String,
        fields: Vec<String>,
    },
    /// A SIRD router class (`class PostRouter(…) extends SimpleRouter`
    /// with `case GET(p"/$id") => controller.show(id)`).
    Sird {
        file: String,
        class: String,
        entries: Vec<Entry>,
    },
}

#[derive(Serialize, Deserialize, Clone)]
enum Entry {
    Route {
        method: String,
        path: String,
        line: u32,
        params: Vec<String>,
        /// `Controller.action` (the last two parts of the action).
        action: Option<(String, String)>,
    },
    Include {
        prefix: String,
        router: String,
        line: u32,
    },
}

const METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

impl Analyzer for Play {
    fn tech(&self) -> Tech {
        Tech::new("scala_play", "Scala", "Play Framework")
            .aliases(["play", "scala-play", "playframework"])
            .files(["routes", "*.routes", "*.scala"])
            .detect(Detect::files(["build.sbt", "*.sbt"]).contains(["PlayScala"]))
            .detect(Detect::files(["*.scala"]).contains(["play.api.mvc"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !scala::wanted(file) {
            return;
        }
        let path = file.slash_path();
        let name = path.rsplit('/').next().unwrap_or("");
        if name == "routes" || name.ends_with(".routes") {
            let stem = name.strip_suffix(".routes").unwrap_or("").to_string();
            out.fact(&PlayFact::Router {
                file: file.path.clone(),
                stem,
                entries: routes_file(&file.content),
            });
        } else if name.ends_with(".scala") {
            actions(file, out);
            if file.content.contains("SimpleRouter") || file.content.contains("sird") {
                sird(file, out);
            }
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut routers: Vec<(String, String, Vec<Entry>)> = Vec::new();
        let mut actions: Actions = HashMap::new();
        let mut classes: HashMap<String, Vec<String>> = HashMap::new();
        for fact in facts.iter::<PlayFact>() {
            match fact {
                PlayFact::Router {
                    file,
                    stem,
                    entries,
                } => routers.push((file, stem, entries)),
                PlayFact::Action {
                    class,
                    name,
                    params,
                    bodies,
                } => {
                    actions.entry((class, name)).or_insert((params, bodies));
                }
                PlayFact::Class { name, fields } => {
                    classes.entry(name).or_insert(fields);
                }
                PlayFact::Sird {
                    file,
                    class,
                    entries,
                } => routers.push((file, format!("{SIRD}{class}"), entries)),
            }
        }
        let included: HashSet<String> = routers
            .iter()
            .flat_map(|(_, _, entries)| entries.iter())
            .filter_map(|e| match e {
                Entry::Include { router, .. } => Some(router_stem(router)),
                _ => None,
            })
            .chain(routers.iter().flat_map(|(_, _, entries)| {
                entries.iter().filter_map(|e| match e {
                    Entry::Include { router, .. } => Some(sird_stem(router)),
                    _ => None,
                })
            }))
            .collect();
        let linker = Linker {
            routers: &routers,
            actions: &actions,
            classes: &classes,
        };
        let mut out = Vec::new();
        for (i, (_, stem, _)) in routers.iter().enumerate() {
            if stem.is_empty() || !included.contains(stem) {
                linker.walk(i, "", &mut vec![i], &mut out);
            }
        }
        Ok(out)
    }
}

/// Stem of a SIRD router class among the routers.
const SIRD: &str = "sird:";

/// `v1.post.PostRouter` → the stem of the SIRD class `PostRouter`.
fn sird_stem(router: &str) -> String {
    format!("{SIRD}{}", router.rsplit('.').next().unwrap_or(router))
}

/// SIRD routers of a file: `case GET(p"/posts/$id" ? q_o"page=$page") =>
/// controller.show(id)` inside a class extending `SimpleRouter`; the
/// action's receiver is resolved through the class's constructor
/// parameters (`controller: PostController`).
fn sird(file: &SourceFile, out: &mut Output) {
    let t = Toks::new(file);
    let mut k = 0;
    while k + 1 < t.len() {
        if !(t.is_ident(k, "class") || t.is_ident(k, "object")) {
            k += 1;
            continue;
        }
        let Some(class) = t.ident(k + 1).map(str::to_string) else {
            k += 1;
            continue;
        };
        // Header up to the body's `{`: constructor params and parents.
        let Some(open) = (k + 2..t.len()).find(|&j| t.is(j, "{")) else {
            break;
        };
        let close = t.close(open).unwrap_or(t.len());
        let header = k + 2..open;
        if !header.clone().any(|j| t.is_ident(j, "SimpleRouter")) {
            k += 1;
            continue;
        }
        let mut types: Vec<(String, String)> = Vec::new();
        for j in header {
            if let (Some(n), true, Some(ty)) = (t.ident(j), t.is(j + 1, ":"), t.ident(j + 2)) {
                types.push((n.to_string(), ty.to_string()));
            }
        }
        let mut entries = Vec::new();
        for j in open..close {
            let Some(verb) = t.ident(j).filter(|v| METHODS.contains(v)) else {
                continue;
            };
            if !(t.is(j + 1, "(") && t.is_ident(j + 2, "p") && t.str_at(j + 3).is_some()) {
                continue;
            }
            let Some(end) = t.close(j + 1) else { continue };
            let raw = t.str_at(j + 3).unwrap_or_default();
            let (path, _) = play_path(&sird_holes(raw));
            let mut params = Vec::new();
            for q in j + 4..end {
                let prefixed = t.ident(q).is_some_and(|x| x == "q" || x.starts_with("q_"));
                // `q_?"…"` is `q_`, `?`, the string.
                let lit = if t.is(q + 1, "?") { q + 2 } else { q + 1 };
                if let (true, Some(v)) = (prefixed, t.str_at(lit)) {
                    if let Some((name, _)) = v.split_once('=') {
                        params.push(name.to_string());
                    }
                }
            }
            // `=> receiver.action(…)`.
            let action = (t.is(end + 1, "=>") || t.is(end + 1, "=") && t.is(end + 2, ">"))
                .then(|| {
                    let a = if t.is(end + 1, "=>") {
                        end + 2
                    } else {
                        end + 3
                    };
                    let recv = t.ident(a)?;
                    let name = t.ident(a + 2).filter(|_| t.is(a + 1, "."))?;
                    let cls = types
                        .iter()
                        .find(|(n, _)| n == recv)
                        .map_or(recv.to_string(), |(_, ty)| ty.clone());
                    Some((cls, name.to_string()))
                })
                .flatten();
            entries.push(Entry::Route {
                method: verb.to_string(),
                path,
                line: t.line(j),
                params,
                action,
            });
        }
        if !entries.is_empty() {
            out.fact(&PlayFact::Sird {
                file: file.path.clone(),
                class,
                entries,
            });
        }
        k = close.max(k + 1);
    }
}

/// `/items/${int(id)}` → `/items/$id` (an extractor's bound name).
fn sird_holes(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let inner = &after[..end];
        let name = inner
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|s| !s.is_empty())
            .unwrap_or(inner);
        out.push('$');
        out.push_str(name);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// `api.Routes` → `api`; `admin.AdminRoutes` → `admin`.
fn router_stem(router: &str) -> String {
    let mut parts: Vec<&str> = router.split('.').collect();
    if parts.len() > 1 {
        parts.pop();
    }
    parts.last().map(|s| s.to_string()).unwrap_or_default()
}

type Actions = HashMap<(String, String), (Vec<(ParamKind, String)>, Vec<String>)>;

struct Linker<'a> {
    routers: &'a [(String, String, Vec<Entry>)],
    actions: &'a Actions,
    classes: &'a HashMap<String, Vec<String>>,
}

impl Linker<'_> {
    fn walk(&self, i: usize, prefix: &str, stack: &mut Vec<usize>, out: &mut Vec<Endpoint>) {
        let Some((file, _, entries)) = self.routers.get(i) else {
            return;
        };
        for entry in entries {
            match entry {
                Entry::Route {
                    method,
                    path,
                    line,
                    params,
                    action,
                } => {
                    let url = join_path(&[prefix, path.as_str()]);
                    let mut ep = Endpoint::new(method, url).at_path(file.clone(), *line);
                    for p in params {
                        ep.push_param(Param::query(p.clone()));
                    }
                    if let Some((ps, bodies)) = action.as_ref().and_then(|a| self.actions.get(a)) {
                        for (kind, name) in ps {
                            ep.push_param(Param::new(*kind, name.clone()));
                        }
                        for ty in bodies {
                            for f in self.classes.get(ty).into_iter().flatten() {
                                ep.push_param(Param::json(f.clone()));
                            }
                        }
                    }
                    out.push(ep);
                }
                Entry::Include {
                    prefix: sub,
                    router,
                    ..
                } => {
                    let stem = router_stem(router);
                    if stem.is_empty() || out.len() > 50_000 {
                        continue;
                    }
                    let sird = sird_stem(router);
                    let full = join_path(&[prefix, sub.as_str()]);
                    for (j, (f, s, _)) in self.routers.iter().enumerate() {
                        // A file already on the include stack is a cycle.
                        let cycle = stack
                            .iter()
                            .any(|&k| self.routers.get(k).is_some_and(|r| r.0 == *f));
                        if (*s == stem || *s == sird) && !cycle && stack.len() < 16 {
                            stack.push(j);
                            self.walk(j, &full, stack, out);
                            stack.pop();
                        }
                    }
                }
            }
        }
    }
}

/// Parse a routes file.
fn routes_file(content: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    for (n, raw) in content.lines().enumerate() {
        let line = u32::try_from(n + 1).unwrap_or(u32::MAX);
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') || text.starts_with('+') {
            continue;
        }
        let mut words = text.split_whitespace();
        let (Some(verb), Some(path)) = (words.next(), words.next()) else {
            continue;
        };
        let rest = words.collect::<Vec<_>>().join(" ");
        if verb == "->" {
            out.push(Entry::Include {
                prefix: path.to_string(),
                router: rest.trim().to_string(),
                line,
            });
            continue;
        }
        if !METHODS.contains(&verb) {
            continue;
        }
        let (path, path_params) = play_path(path);
        let (action, args) = match rest.find('(') {
            Some(open) => (
                &rest[..open],
                Some(&rest[open + 1..rest.rfind(')').unwrap_or(rest.len()).max(open + 1)]),
            ),
            None => (rest.as_str(), None),
        };
        let action = action.trim().trim_start_matches('@');
        let parts: Vec<&str> = action.split('.').collect();
        let action = (parts.len() >= 2).then(|| {
            (
                parts[parts.len() - 2].to_string(),
                parts[parts.len() - 1].to_string(),
            )
        });
        let params = args
            .map(|a| query_args(a, &path_params))
            .unwrap_or_default();
        out.push(Entry::Route {
            method: verb.to_string(),
            path,
            line,
            params,
            action,
        });
    }
    out
}

/// `/users/$id<[0-9]+>/*file` → (`/users/:id/*file`, [id, file]).
fn play_path(path: &str) -> (String, Vec<String>) {
    let mut names = Vec::new();
    let segs: Vec<String> = path
        .split('/')
        .map(|seg| {
            if let Some(rest) = seg.strip_prefix('$') {
                let name = rest.split('<').next().unwrap_or(rest).to_string();
                names.push(name.clone());
                format!(":{name}")
            } else if let Some(name) = seg.strip_prefix(':').or_else(|| seg.strip_prefix('*')) {
                names.push(name.to_string());
                seg.to_string()
            } else {
                seg.to_string()
            }
        })
        .collect();
    (segs.join("/"), names)
}

/// Query parameters of an action's argument list.
fn query_args(args: &str, path_params: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for arg in split_args(args) {
        let arg = arg.trim();
        let name_end = arg.find([':', '?', '=', ' ']).unwrap_or(arg.len());
        let name = arg[..name_end].trim();
        if name.is_empty() || path_params.iter().any(|p| p == name) {
            continue;
        }
        // `name: T = value` is a fixed value, not read from the request.
        let fixed = arg
            .find('=')
            .is_some_and(|i| i == 0 || arg.as_bytes().get(i - 1) != Some(&b'?'));
        if fixed {
            continue;
        }
        out.push(name.to_string());
    }
    out
}

/// Split at top-level commas (outside brackets and quotes).
fn split_args(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quote = !quote,
            '[' | '(' if !quote => depth += 1,
            ']' | ')' if !quote => depth -= 1,
            ',' if !quote && depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out.into_iter().filter(|a| !a.trim().is_empty()).collect()
}

/// Request reads of every `def` of every class/object.
fn actions(file: &SourceFile, out: &mut Output) {
    let t = Toks::new(file);
    let o = Outline::new(&t);
    for c in &o.classes {
        out.fact(&PlayFact::Class {
            name: c.name.clone(),
            fields: c.fields.clone(),
        });
    }
    let forms = forms(&t);
    for d in &o.defs {
        let Some(owner) = &d.owner else { continue };
        let (params, bodies) = reads(&t, d.rhs.clone(), &forms);
        if params.is_empty() && bodies.is_empty() {
            continue;
        }
        out.fact(&PlayFact::Action {
            class: owner.clone(),
            name: d.name.clone(),
            params,
            bodies,
        });
    }
}

/// Play forms declared in the file: `val loginForm = Form(mapping("email"
/// -> email, "password" -> nonEmptyText)(…))` or `Form { mapping(…)(…) }`
/// (also `single`, `tuple`, nested `mapping`s) → (name, field keys).
fn forms(t: &Toks) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for k in 2..t.len() {
        // `Form(mapping(…))` or `Form { mapping(…) }`.
        if !(t.is_ident(k, "Form") && (t.is(k + 1, "(") || t.is(k + 1, "{")) && t.is(k - 1, "=")) {
            continue;
        }
        // `val name = Form(` or `val name: Form[T] = Form(`.
        let found = (k.saturating_sub(12)..k - 1).rev().find_map(|j| {
            (t.is_ident(j, "val") || t.is_ident(j, "def") || t.is_ident(j, "lazy"))
                .then(|| t.ident(j + 1))
                .flatten()
        });
        let Some(name) = found.filter(|n| *n != "val").map(str::to_string) else {
            continue;
        };
        let Some(close) = t.close(k + 1) else {
            continue;
        };
        let mut keys = Vec::new();
        for j in k + 2..close {
            if let Some(key) = t.str_at(j) {
                if crate::scala::is_pair_arrow(t, j + 1) && !keys.iter().any(|x: &String| x == key)
                {
                    keys.push(key.to_string());
                }
            }
        }
        if !keys.is_empty() {
            out.push((name, keys));
        }
    }
    out
}

fn reads(
    t: &Toks,
    r: std::ops::Range<usize>,
    forms: &[(String, Vec<String>)],
) -> (Vec<(ParamKind, String)>, Vec<String>) {
    let mut params: Vec<(ParamKind, String)> = Vec::new();
    let mut bodies = Vec::new();
    let mut push = |kind: ParamKind, name: &str| {
        if !params.iter().any(|(k, n)| *k == kind && n == name) {
            params.push((kind, name.to_string()));
        }
    };
    let mut form = false;
    for k in r.clone() {
        let Some(tok) = t.get(k) else { break };
        if tok.kind != Kind::Ident {
            continue;
        }
        let call_str = || {
            if t.is(k + 1, "(") {
                t.str_at(k + 2)
            } else {
                None
            }
        };
        match tok.text.as_str() {
            "getQueryString" => {
                if let Some(s) = call_str() {
                    push(ParamKind::Query, s);
                }
            }
            "asFormUrlEncoded" | "asMultipartFormData" => form = true,
            // `request.body.file("picture")` (multipart).
            "file" => {
                let recv = (k >= 2 && t.is(k - 1, "."))
                    .then(|| t.ident(k - 2))
                    .flatten();
                if let (Some(s), Some("body" | "get")) = (call_str(), recv) {
                    push(ParamKind::File, s);
                }
            }
            // `loginForm.bindFromRequest()`: the form's fields.
            "bindFromRequest" => {
                let recv = (k >= 2 && t.is(k - 1, "."))
                    .then(|| t.ident(k - 2))
                    .flatten();
                if let Some((_, keys)) = recv.and_then(|n| forms.iter().find(|(f, _)| f == n)) {
                    for key in keys {
                        push(ParamKind::Form, key);
                    }
                }
            }
            "get" | "getOrElse" | "apply" => {
                let Some(s) = call_str() else { continue };
                let recv = (k >= 2 && t.is(k - 1, "."))
                    .then(|| t.ident(k - 2))
                    .flatten();
                match recv {
                    Some("headers") => push(ParamKind::Header, s),
                    Some("cookies") => push(ParamKind::Cookie, s),
                    Some("queryString") => push(ParamKind::Query, s),
                    _ if form => push(ParamKind::Form, s),
                    _ => {}
                }
            }
            "validate" | "as" | "asOpt" => {
                if let Some(ty) = type_arg(t, k + 1) {
                    let scalar = matches!(
                        ty.as_str(),
                        "String" | "Int" | "Long" | "Boolean" | "JsValue" | "JsObject" | "Double"
                    );
                    if !scalar && !bodies.contains(&ty) {
                        bodies.push(ty);
                    }
                }
            }
            _ => {}
        }
        // `(request.body \ "name")`, `(json \ "name")`.
        if t.is(k + 1, "\\") {
            if let Some(s) = t.str_at(k + 2) {
                push(ParamKind::Json, s);
            }
        }
    }
    (params, bodies)
}
