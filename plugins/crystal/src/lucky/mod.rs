//! Lucky (`crystal_lucky`).
//!
//! Routes are declared in action classes (`class Users::Show <
//! BrowserAction`), one per class: `get/post/put/patch/delete/trace
//! "/users/:user_id" do … end`, `match :options, "/x" do`, or inferred
//! from the class name by `route do` / `nested_route do`.
//!
//! Inference rules (Lucky's `RouteInferrer`): the last name segment is the
//! action, the one before it the resource (`underscore`d), the ones before
//! that namespaces. `route`: `/<namespaces…>/<resource>`; `nested_route`:
//! the segment before the resource is the parent resource and adds
//! `/:<singular parent>_id` (`Projects::Tasks::Index` →
//! `/projects/:project_id/tasks`). Actions: `Index` GET `/r`, `New` GET
//! `/r/new`, `Create` POST `/r`, `Show` GET `/r/:<singular r>_id`, `Edit`
//! GET `/r/:r_id/edit`, `Update` PUT `/r/:r_id`, `Delete` DELETE
//! `/r/:r_id`; other action names (and classes without a namespace) infer
//! nothing. `Api::Users::Index` with `route` → `GET /api/users`.
//!
//! Prefixes: `route_prefix "/api/v1"` in the class or an ancestor found in
//! the tree (usually the abstract `ApiAction`) is prepended, to inferred
//! paths too. Lucky's `?:page` optional segments become `:page`, globs
//! `*:path` become `*path`.
//!
//! Route macros: an abstract action may define `macro doc_page(path)`
//! whose body is `get {{ "/docs" + path }} do … end`; each subclass that
//! calls `doc_page "/deploy/heroku"` then has the route `GET
//! /docs/deploy/heroku`. Such a macro is followed when its body's route
//! verb takes `{{ … }}` made of string literals and the macro parameter,
//! and the calling class has the defining class among its ancestors.
//!
//! Parameters: `param page : Int32 = 1` declarations are query parameters;
//! `params.get(:x)` / `params.get?(:x)` in the route block or the class's
//! methods are query parameters on GET/DELETE and form fields otherwise;
//! `params.from_json["x"]` json; `request.headers["X"]` headers;
//! `cookies.get(:c)` / `request.cookies["c"]` cookies.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cr::call::Val;
use crate::cr::classes::{ancestors, collect, ClassInfo};
use crate::cr::dsl::{add_reads, file_nodes, join_url, Body, FileNodes, Node};
use crate::cr::inflect::{singularize, underscore};

pub struct Lucky;

const ROUTE_VERBS: [(&str, &str); 6] = [
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("delete", "DELETE"),
    ("trace", "TRACE"),
];

impl Analyzer for Lucky {
    fn tech(&self) -> Tech {
        Tech::new("crystal_lucky", "Crystal", "Lucky")
            .aliases(["lucky", "crystal-lucky"])
            .files(["*.cr"])
            .detect(Detect::files(["shard.yml"]).regex([r"(?m)^\s+lucky:"]))
            .detect(Detect::files(["*.cr"]).regex([r#"require\s+"lucky""#, r"<\s*Lucky::Action\b"]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.content.contains("class ") {
            return;
        }
        let nodes = file_nodes(file, &|c| {
            c.recv.is_empty()
                && (ROUTE_VERBS.iter().any(|(v, _)| *v == c.name)
                    || matches!(c.name.as_str(), "route" | "nested_route" | "match"))
        });
        out.fact(&FileNodes {
            path: file.path.clone(),
            nodes,
        });
        for m in route_macros(&file.content, &file.path) {
            out.fact(&m);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileNodes> = facts.all();
        let macros: Vec<RouteMacro> = facts.all();
        let classes = collect(&files);
        let mut out = Vec::new();
        for class in &classes {
            if let Some(e) = action(&classes, class, &macros) {
                out.push(e);
            }
        }
        Ok(out)
    }
}

/// `macro name(param)` whose body declares a route from the parameter:
/// `get {{ "/docs" + param }} do`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct RouteMacro {
    /// The file defining it (the class is found through it).
    macro_file: String,
    macro_name: String,
    method: String,
    /// The literal text around the parameter.
    before: String,
    after: String,
}

/// The route macros of a file (a line scan: `macro` header, then the first
/// route verb of its body).
fn route_macros(src: &str, path: &str) -> Vec<RouteMacro> {
    let mut out = Vec::new();
    if !src.contains("macro ") {
        return out;
    }
    let mut current: Option<(String, String)> = None;
    for line in src.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("macro ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let param: String = rest[name.len()..]
                .strip_prefix('(')
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            current = (!name.is_empty() && !param.is_empty()).then_some((name, param));
            continue;
        }
        let Some((name, param)) = &current else {
            continue;
        };
        if t == "end" {
            continue;
        }
        let verb = ROUTE_VERBS
            .iter()
            .find(|(v, _)| t.strip_prefix(v).is_some_and(|r| r.starts_with(' ')));
        let Some((v, method)) = verb else {
            continue;
        };
        let arg = t[v.len()..].trim_start();
        let Some(inner) = arg
            .strip_prefix("{{")
            .and_then(|r| r.split_once("}}"))
            .map(|(i, _)| i)
        else {
            continue;
        };
        if let Some((before, after)) = macro_concat(inner, param) {
            out.push(RouteMacro {
                macro_file: path.to_string(),
                macro_name: name.clone(),
                method: method.to_string(),
                before,
                after,
            });
        }
        current = None;
    }
    out
}

/// `"/docs" + path + "/pdf"` → ("/docs", "/pdf"): string literals and
/// exactly one `param`.
fn macro_concat(expr: &str, param: &str) -> Option<(String, String)> {
    let (mut before, mut after) = (String::new(), String::new());
    let mut seen = false;
    for part in expr.split('+') {
        let p = part.trim();
        if p == param && !seen {
            seen = true;
        } else if let Some(lit) = p
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .filter(|l| !l.contains(['"', '#', '\\']))
        {
            if seen { &mut after } else { &mut before }.push_str(lit);
        } else {
            return None;
        }
    }
    seen.then_some((before, after))
}

/// A call of a route macro defined by the class or an ancestor.
fn macro_route<'n>(
    classes: &[ClassInfo<'_>],
    class: &ClassInfo<'_>,
    macros: &[RouteMacro],
    n: &'n Node,
) -> Option<(&'static str, String, &'n Node)> {
    if !n.call.recv.is_empty() || n.body.is_some() || macros.is_empty() {
        return None;
    }
    let arg = text(n.call.first())?;
    let chain = ancestors(classes, class);
    let m = macros
        .iter()
        .find(|m| m.macro_name == n.name() && chain.iter().any(|c| c.path == m.macro_file))?;
    let method = ROUTE_VERBS.iter().find(|(_, v)| *v == m.method)?.1;
    Some((method, format!("{}{arg}{}", m.before, m.after), n))
}

/// A string argument.
fn text(v: Option<&Val>) -> Option<String> {
    match v? {
        Val::Str(s, false) => Some(s.clone()),
        _ => None,
    }
}

fn action(
    classes: &[ClassInfo<'_>],
    class: &ClassInfo<'_>,
    macros: &[RouteMacro],
) -> Option<Endpoint> {
    let body = class.node.children();
    let (method, path, node) = body.iter().find_map(|n| {
        route_of(n, &class.full).or_else(|| macro_route(classes, class, macros, n))
    })?;
    let prefix = ancestors(classes, class).iter().find_map(|c| {
        c.node
            .children()
            .iter()
            .find(|n| n.name() == "route_prefix")
            .and_then(|n| text(n.call.first()))
    });
    let url = join_url(&[prefix.as_deref().unwrap_or(""), &lucky_path(&path)]);
    let mut e = Endpoint::new(method, url).at_path(class.path, node.line);
    let mut reads = node.reads.clone().unwrap_or_default();
    for d in body.iter().filter(|n| n.name() == "def") {
        if let Some(r) = &d.reads {
            reads.merge(r);
        }
    }
    for n in body.iter().filter(|n| n.name() == "param") {
        if let Some(name) = param_name(n) {
            e.push_param(Param::query(name));
        }
    }
    add_reads(&mut e, &reads, Body::Form);
    Some(e)
}

/// `param page : Int32 = 1` → `page`.
fn param_name(n: &Node) -> Option<String> {
    let raw = match n.call.first()? {
        Val::Expr(e) => e.clone(),
        Val::Sym(s) => s.clone(),
        _ => return None,
    };
    let name: String = raw
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn route_of<'n>(n: &'n Node, class: &str) -> Option<(&'static str, String, &'n Node)> {
    n.body.as_ref()?;
    if !n.call.recv.is_empty() {
        return None;
    }
    if let Some((_, m)) = ROUTE_VERBS.iter().find(|(v, _)| *v == n.name()) {
        return Some((m, text(n.call.first())?, n));
    }
    match n.name() {
        "match" => {
            let method = match n.call.args.first()? {
                Val::Sym(s) | Val::Str(s, false) => s.to_ascii_uppercase(),
                _ => return None,
            };
            let method = crate::cr::VERBS
                .iter()
                .chain(ROUTE_VERBS.iter())
                .find(|(_, m)| *m == method)
                .map(|(_, m)| *m)?;
            Some((method, text(n.call.args.get(1))?, n))
        }
        "route" | "nested_route" => {
            let (m, p) = infer(class, n.name() == "nested_route")?;
            Some((m, p, n))
        }
        _ => None,
    }
}

/// The method and path Lucky infers for an action class name.
pub fn infer(class: &str, nested: bool) -> Option<(&'static str, String)> {
    let parts: Vec<&str> = class.split("::").filter(|s| !s.is_empty()).collect();
    let (action, ns) = parts.split_last()?;
    let (resource, before) = ns.split_last()?;
    let resource = underscore(resource);
    let mut segs: Vec<String> = Vec::new();
    if nested {
        let (parent, outer) = before.split_last()?;
        segs.extend(outer.iter().map(|s| underscore(s)));
        let parent = underscore(parent);
        segs.push(format!(":{}_id", singularize(&parent)));
        segs.insert(segs.len() - 1, parent);
    } else {
        segs.extend(before.iter().map(|s| underscore(s)));
    }
    segs.push(resource.clone());
    let id = format!(":{}_id", singularize(&resource));
    let (method, tail): (&str, Vec<String>) = match *action {
        "Index" => ("GET", vec![]),
        "New" => ("GET", vec!["new".into()]),
        "Create" => ("POST", vec![]),
        "Show" => ("GET", vec![id]),
        "Edit" => ("GET", vec![id, "edit".into()]),
        "Update" => ("PUT", vec![id]),
        "Delete" => ("DELETE", vec![id]),
        _ => return None,
    };
    segs.extend(tail);
    Some((method, format!("/{}", segs.join("/"))))
}

/// Lucky's `?:page` optional and `*:glob` segments in the host's syntax.
fn lucky_path(path: &str) -> String {
    path.split('/')
        .map(|s| {
            if let Some(rest) = s.strip_prefix("?:") {
                format!(":{rest}")
            } else if let Some(rest) = s.strip_prefix("*:") {
                format!("*{rest}")
            } else {
                s.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inference_rules() {
        assert_eq!(infer("Users::Index", false), Some(("GET", "/users".into())));
        assert_eq!(
            infer("Api::Users::Index", false),
            Some(("GET", "/api/users".into()))
        );
        assert_eq!(
            infer("Users::Show", false),
            Some(("GET", "/users/:user_id".into()))
        );
        assert_eq!(
            infer("BlogPosts::Edit", false),
            Some(("GET", "/blog_posts/:blog_post_id/edit".into()))
        );
        assert_eq!(
            infer("Projects::Tasks::Create", true),
            Some(("POST", "/projects/:project_id/tasks".into()))
        );
        assert_eq!(
            infer("Api::Projects::Tasks::Update", true),
            Some(("PUT", "/api/projects/:project_id/tasks/:task_id".into()))
        );
        assert_eq!(infer("Index", false), None);
        assert_eq!(infer("Users::Archive", false), None);
        assert_eq!(lucky_path("/posts/?:page/*:rest"), "/posts/:page/*rest");
    }
}
