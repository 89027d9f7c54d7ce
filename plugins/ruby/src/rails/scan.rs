//! Map step: routes files → [`Node`] trees; controllers → outlines;
//! engines; string constants.

use portolan_plugin_sdk::prelude::*;

use super::facts::{Fact, Node};
use crate::rb::call::{call_of, Call, Val};
use crate::rb::outline::outline;
use crate::rb::request::Options;
use crate::rb::tree::Stmt;

/// The part of `path` before `marker` (`engines/blog/` for
/// `engines/blog/config/routes.rb`), if the path contains it.
pub fn root_before(path: &str, marker: &str) -> Option<String> {
    match path.rfind(&format!("/{marker}")) {
        Some(i) => Some(path[..i + 1].to_string()),
        None => path.starts_with(marker).then(String::new),
    }
}

/// Statements → nodes. Conditionals become transparent nodes.
pub fn nodes(stmts: &[Stmt], file: &SourceFile) -> Vec<Node> {
    let mut out = Vec::new();
    for s in stmts {
        let line = file.line_of(s.start());
        match s.head() {
            Some(kw @ ("if" | "unless" | "case" | "begin" | "while" | "until" | "for")) => {
                let mut body = Vec::new();
                for b in &s.blocks {
                    body.extend(nodes(&b.body, file));
                }
                out.push(Node {
                    call: Call {
                        recv: String::new(),
                        name: kw.to_string(),
                        args: Vec::new(),
                    },
                    line,
                    body: Some(body),
                });
            }
            Some("def" | "class" | "module") => {}
            _ => {
                let Some(call) = call_of(s) else {
                    // An assignment or expression with a block: look inside.
                    for b in &s.blocks {
                        out.extend(nodes(&b.body, file));
                    }
                    continue;
                };
                let body = s.block().map(|b| nodes(&b.body, file));
                out.push(Node { call, line, body });
            }
        }
    }
    out
}

/// `NAME = 'value'` assignments anywhere in the file.
pub fn constants(stmts: &[Stmt], out: &mut Vec<Fact>) {
    crate::rb::tree::walk(stmts, &mut |s, _| {
        let t = &s.toks;
        if t.len() >= 3 && t[0].kind == crate::rb::tokens::Kind::Const && t[1].is("=") {
            let v = crate::rb::call::read_value(&t[2..]);
            if matches!(v, Val::Str(..) | Val::Concat(_) | Val::Const(_)) {
                out.push(Fact::Const {
                    name: t[0].text.clone(),
                    value: v,
                });
            }
        }
    });
}

/// The router a `draw` receiver draws: `app` or the engine constant.
fn router_of(recv: &str) -> String {
    let base = recv.strip_suffix(".routes").unwrap_or(recv);
    if base == "Rails.application"
        || base.ends_with("::Application")
        || base == "Rails.application.routes"
    {
        "app".to_string()
    } else {
        base.trim_start_matches("::").to_string()
    }
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let path = file.slash_path();
    let mut facts = Vec::new();
    let text = &file.content;
    let routes_root = root_before(&path, "config/routes");
    let is_routes = routes_root.is_some() || text.contains("routes.draw");
    let is_config = root_before(&path, "config/").is_some();
    let stmts = if is_routes || is_config || text.contains("Rails::Engine") {
        Some(crate::rb::parse(text))
    } else {
        None
    };
    if let Some(stmts) = &stmts {
        if is_routes || is_config {
            constants(stmts, &mut facts);
        }
        if is_routes {
            let mut draws = Vec::new();
            let all = nodes(stmts, file);
            find_draws(&all, &mut draws);
            let partial = routes_root.as_ref().and_then(|root| {
                let rest = path
                    .strip_prefix(root.as_str())?
                    .strip_prefix("config/routes/")?;
                let name = rest.strip_suffix(".rb")?;
                Some((name.to_string(), all.clone()))
            });
            if !draws.is_empty() || partial.is_some() {
                facts.push(Fact::Routes {
                    path: file.path.clone(),
                    root: routes_root
                        .or_else(|| root_before(&path, "config/"))
                        .or_else(|| root_before(&path, "lib/"))
                        .unwrap_or_default(),
                    draws,
                    partial,
                });
            }
        }
        if text.contains("Rails::Engine") {
            crate::rb::tree::walk(stmts, &mut |s, parents| {
                let is_engine = s.head() == Some("class")
                    && s.toks.iter().any(|t| t.text == "Engine")
                    && s.toks
                        .windows(3)
                        .any(|w| w[0].text == "Rails" && w[1].is("::") && w[2].text == "Engine");
                if !is_engine {
                    return;
                }
                let mut name: Vec<String> = parents
                    .iter()
                    .filter(|p| matches!(p.head(), Some("module" | "class")))
                    .filter_map(|p| p.toks.get(1).map(|t| t.text.clone()))
                    .collect();
                name.push(s.toks.get(1).map(|t| t.text.clone()).unwrap_or_default());
                let mut isolate = None;
                if let Some(b) = s.block() {
                    for st in &b.body {
                        if let Some(c) = call_of(st) {
                            if c.name == "isolate_namespace" {
                                if let Some(Val::Const(ns)) = c.first() {
                                    isolate = Some(ns.clone());
                                }
                            }
                        }
                    }
                }
                facts.push(Fact::Engine {
                    name: name.join("::"),
                    isolate,
                });
            });
        }
    }
    if let Some(root) = root_before(&path, "app/controllers/") {
        let o = outline(text, &|o| file.line_of(o), Options::default());
        for class in o.classes {
            facts.push(Fact::Controller {
                path: file.path.clone(),
                root: root.clone(),
                class,
            });
        }
    } else if let Some(root) = root_before(&path, "app/") {
        // Devise models: the modules decide which routes `devise_for` draws.
        if text.contains("devise") && path.contains("app/models/") {
            let o = outline(text, &|o| file.line_of(o), Options::default());
            for class in &o.classes {
                for call in class.calls.iter().filter(|c| c.name == "devise") {
                    let modules = call
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            Val::Sym(s) => Some(s.clone()),
                            _ => None,
                        })
                        .collect();
                    facts.push(Fact::Devise {
                        model: class.name.clone(),
                        modules,
                    });
                }
            }
        }
        // Service/query/form objects reading the `params` they are given.
        if text.contains("params") {
            let o = outline(text, &|o| file.line_of(o), Options::default());
            for class in o.classes {
                let relevant = class.methods.iter().any(|m| {
                    !m.reads.params.is_empty()
                        || m.reads.calls.iter().any(|c| c.starts_with("new:"))
                });
                if relevant {
                    facts.push(Fact::Service {
                        root: root.clone(),
                        class,
                    });
                }
            }
        }
    }
    facts
}

fn find_draws(nodes: &[Node], out: &mut Vec<(String, Vec<Node>)>) {
    for n in nodes {
        // `X.routes.draw do`, Rails' `routes.prepend do` / `routes.append
        // do`, and an engine's own route-collecting class method in a
        // routes file (`Shop::Core::Engine.add_routes do`, the block later
        // evaluated into the engine's routes).
        let recv = n.call.recv.as_str();
        let drawn = (recv.ends_with("routes")
            && matches!(n.call.name.as_str(), "draw" | "prepend" | "append"))
            || (recv.ends_with("::Engine") && n.call.name.ends_with("routes"));
        if drawn {
            if let Some(body) = &n.body {
                out.push((router_of(&n.call.recv), body.clone()));
                continue;
            }
        }
        if let Some(body) = &n.body {
            find_draws(body, out);
        }
    }
}
