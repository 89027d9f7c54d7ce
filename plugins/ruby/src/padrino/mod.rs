//! Padrino (`ruby_padrino`), on top of the Sinatra reading.
//!
//! Apps: classes descending from `Padrino::Application` (through classes
//! of the tree). Mounts: `Padrino.mount('Blog::App', app_file: …)
//! .to('/blog')` in any file (usually `config/apps.rb`; the chained call is
//! read from the tokens); an app mounted nowhere is served at `/`.
//!
//! Routes: in the app's class body or in `App.controllers :x do … end` /
//! `App.controller` blocks anywhere: `get/post/put/patch/delete/head/
//! options` with a block. A symbol names the route: `:index` is the
//! controller's root, `:show` → `/show`; a string is the path itself;
//! `with: :id` (or `[:id, :slug]`) appends `/:id`; `map: '/x'` replaces
//! the controller path. `controllers :admin, :users` → `/admin/users`;
//! `controllers :admin, map: '/dash'` → `/dash`; `parent: :user` (or
//! `[:user, :project]`) inserts `/user/:user_id` before the route. Padrino
//! also accepts Sinatra's `namespace`-free string routes at the top level.
//!
//! Parameters: the route block's reads as in Sinatra (`params[:x]` query on
//! GET/DELETE, form otherwise; headers, cookies), plus the helper methods
//! the block calls (`helpers do … end` in the app or `App.helpers do`).

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rb::call::Val;
use crate::rb::classes::{self, ClassInfo};
use crate::rb::dsl::{const_matches, endpoint_with, file_nodes, join_url, Body, FileNodes, Node};
use crate::rb::request::Reads;
use crate::rb::tokens::Kind;
use crate::sinatra::{OPTIONS, VERBS};

pub struct Padrino;

#[derive(Serialize, Deserialize)]
struct Fact {
    nodes: FileNodes,
    /// `(app constant, prefix)` of each `Padrino.mount(…).to(…)`.
    mounts: Vec<(String, String)>,
}

impl Analyzer for Padrino {
    fn tech(&self) -> Tech {
        Tech::new("ruby_padrino", "Ruby", "Padrino")
            .aliases(["padrino", "ruby-padrino"])
            .files(["*.rb"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"]).regex([r#"^\s*gem\s*\(?\s*["']padrino["']"#]),
            )
            .detect(
                Detect::files(["*.rb"]).regex([r"<\s*Padrino::Application\b", r"Padrino\.mount\b"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let c = &file.content;
        if !(c.contains("Padrino") || c.contains("controller") || c.contains("helpers")) {
            return;
        }
        let nodes = file_nodes(file, OPTIONS, &|call| {
            VERBS.iter().any(|(v, _)| *v == call.name)
        });
        out.fact(&Fact {
            nodes: FileNodes {
                path: file.path.clone(),
                nodes,
            },
            mounts: mounts_of(c),
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let files: Vec<&FileNodes> = facts.iter().map(|f| &f.nodes).collect();
        let mounts: Vec<&(String, String)> = facts.iter().flat_map(|f| &f.mounts).collect();
        let all = classes::collect(&files);
        let mut out = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for app in &all {
            if app.is_module
                || seen.contains(&app.full)
                || !classes::descends_from(&all, app, &["Padrino::Application"])
            {
                continue;
            }
            seen.push(app.full.clone());
            let mut prefixes: Vec<String> = mounts
                .iter()
                .filter(|(a, _)| const_matches(a, &app.full))
                .map(|(_, p)| p.clone())
                .collect();
            if prefixes.is_empty() {
                prefixes.push("/".into());
            }
            // Helper methods: `helpers do` in the class or `App.helpers do`.
            let mut defs: Vec<&Node> = Vec::new();
            let mut sources: Vec<(&[Node], &str)> = Vec::new();
            for c in classes::all_named(&all, &app.full) {
                sources.push((c.body, c.file));
            }
            for f in &files {
                for n in &f.nodes {
                    if !n.call.recv.is_empty() && const_matches(&n.call.recv, &app.full) {
                        sources.push((std::slice::from_ref(n), &f.path));
                    }
                }
            }
            for (nodes, _) in &sources {
                collect_defs(nodes, &mut defs);
            }
            let mut routes = Vec::new();
            for (nodes, file) in &sources {
                interp(nodes, &Ctl::default(), app, file, &mut routes, 0);
            }
            for r in routes {
                let reads = with_helpers(&r.reads, &defs);
                for p in &prefixes {
                    out.push(endpoint_with(
                        r.method,
                        &join_url(&[p, &r.path]),
                        r.file,
                        r.line,
                        &reads,
                        Body::Form,
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// `Padrino.mount('App', …).to('/p')` read from the tokens.
fn mounts_of(src: &str) -> Vec<(String, String)> {
    if !src.contains("Padrino.mount") {
        return Vec::new();
    }
    let toks = crate::rb::tokens_of(src);
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let is_mount = toks[i].text == "Padrino"
            && toks.get(i + 1).is_some_and(|t| t.is("."))
            && toks.get(i + 2).is_some_and(|t| t.is_word("mount"));
        if !is_mount {
            continue;
        }
        let mut k = i + 3;
        if toks.get(k).is_some_and(|t| t.is("(")) {
            k += 1;
        }
        let app = match toks.get(k) {
            Some(t) if t.kind == Kind::Str || t.kind == Kind::Const => t.text.clone(),
            _ => continue,
        };
        // The rest of the statement: `.to('/p')`.
        let mut prefix = "/".to_string();
        let mut j = k + 1;
        let mut depth = 0i32;
        while let Some(t) = toks.get(j) {
            if t.is("(") || t.is("[") || t.is("{") {
                depth += 1;
            } else if t.is(")") || t.is("]") || t.is("}") {
                depth -= 1;
            } else if t.kind == Kind::Newline && depth <= 0 {
                break;
            } else if depth <= 0 && t.is(".") && toks.get(j + 1).is_some_and(|n| n.is_word("to")) {
                let mut a = j + 2;
                if toks.get(a).is_some_and(|t| t.is("(")) {
                    a += 1;
                }
                if let Some(p) = toks.get(a).filter(|t| t.kind == Kind::Str) {
                    prefix = p.text.clone();
                }
                break;
            }
            j += 1;
        }
        out.push((app, prefix));
    }
    out
}

#[derive(Clone, Default)]
struct Ctl {
    /// The controller's path (names joined, or its `map:`).
    path: String,
    /// `parent:` segments (`/user/:user_id`).
    parents: String,
}

struct Route<'a> {
    method: &'static str,
    path: String,
    file: &'a str,
    line: u32,
    reads: Reads,
}

fn words(v: Option<&Val>) -> Vec<String> {
    v.map(Val::words).unwrap_or_default()
}

fn parents_of(v: Option<&Val>) -> String {
    words(v)
        .iter()
        .map(|p| format!("/{p}/:{p}_id"))
        .collect::<String>()
}

fn interp<'a>(
    nodes: &'a [Node],
    ctl: &Ctl,
    app: &ClassInfo<'_>,
    file: &'a str,
    out: &mut Vec<Route<'a>>,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    for n in nodes {
        let c = &n.call;
        let own = c.recv.is_empty() || c.recv == "self" || const_matches(&c.recv, &app.full);
        match c.name.as_str() {
            "class" | "module" | "def" => {}
            "controllers" | "controller" if own && n.body.is_some() => {
                let names: Vec<String> = c
                    .args
                    .iter()
                    .filter(|a| !matches!(a, Val::Hash(_)))
                    .filter_map(|a| a.text().map(str::to_string))
                    .collect();
                let path = match c.opt("map").and_then(Val::text) {
                    Some(m) => m.to_string(),
                    None => join_url(&[&ctl.path, &names.join("/")]),
                };
                let inner = Ctl {
                    path,
                    parents: format!("{}{}", ctl.parents, parents_of(c.opt("parent"))),
                };
                interp(n.children(), &inner, app, file, out, depth + 1);
            }
            name if own && n.body.is_some() && VERBS.iter().any(|(v, _)| *v == name) => {
                let method = VERBS
                    .iter()
                    .find(|(v, _)| *v == name)
                    .map(|(_, m)| *m)
                    .unwrap_or("GET");
                let route = match c.first() {
                    Some(Val::Sym(s)) if s == "index" => String::new(),
                    Some(Val::Sym(s)) => format!("/{s}"),
                    Some(Val::Str(s, false)) => s.clone(),
                    _ => continue,
                };
                // A second positional string is an explicit path.
                let explicit = c.args.get(1).and_then(|a| match a {
                    Val::Str(s, false) => Some(s.clone()),
                    _ => None,
                });
                let with: String = words(c.opt("with"))
                    .iter()
                    .map(|w| format!("/:{w}"))
                    .collect();
                let parents = format!("{}{}", ctl.parents, parents_of(c.opt("parent")));
                let path = match c
                    .opt("map")
                    .and_then(Val::text)
                    .map(str::to_string)
                    .or(explicit)
                {
                    Some(m) => join_url(&[&parents, &m]),
                    None => join_url(&[&parents, &ctl.path, &route, &with]),
                };
                out.push(Route {
                    method,
                    path,
                    file,
                    line: n.line,
                    reads: n.reads.clone().unwrap_or_default(),
                });
            }
            _ => {
                if n.body.is_some() && own {
                    interp(n.children(), ctl, app, file, out, depth + 1);
                }
            }
        }
    }
}

fn collect_defs<'a>(nodes: &'a [Node], out: &mut Vec<&'a Node>) {
    for n in nodes {
        match n.name() {
            "def" => out.push(n),
            "class" | "module" => {}
            _ => collect_defs(n.children(), out),
        }
    }
}

fn with_helpers(reads: &Reads, defs: &[&Node]) -> Reads {
    let mut out = reads.clone();
    let mut todo = reads.calls.clone();
    let mut seen: Vec<String> = Vec::new();
    while let Some(name) = todo.pop() {
        if seen.contains(&name) || seen.len() > 64 {
            continue;
        }
        seen.push(name.clone());
        for d in defs {
            if d.call.args.first() == Some(&Val::Sym(name.clone())) {
                if let Some(r) = &d.reads {
                    out.merge(r);
                    todo.extend(r.calls.iter().cloned());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chained_mounts() {
        let src = "Padrino.mount('Blog::App', :app_file => Padrino.root('app/app.rb')).to('/blog')\nPadrino.mount(\"Admin\").to(\"/admin\").host(/admin/)\n# Padrino.mount('Old').to('/old')\nPadrino.mount('Api', app_file: 'x')\n";
        assert_eq!(
            mounts_of(src),
            [
                ("Blog::App".to_string(), "/blog".to_string()),
                ("Admin".to_string(), "/admin".to_string()),
                ("Api".to_string(), "/".to_string()),
            ]
        );
    }
}
