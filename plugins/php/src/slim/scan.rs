//! Map step: route chains of each PHP file, and its classes (handlers).

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{chains, Chain, Ctx};
use crate::php::outline::{classes, Class};
use crate::php::tokens::{tokenize, Kind, Token};
use crate::symfony::scan::is_vendor;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Routes {
        path: String,
        /// Receivers of route calls (`app`, `group`, `this`).
        vars: Vec<String>,
        chains: Vec<Chain>,
    },
    Class {
        path: String,
        class: Class,
    },
}

const ROUTE_METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "options", "any", "map", "group", "redirect",
];

/// Variables that hold an app or route collector.
pub fn route_vars(toks: &[Token], types: &[&str], names: &[&str]) -> Vec<String> {
    let mut vars: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    for w in toks.windows(2) {
        if w[0].kind == Kind::Ident && w[1].kind == Kind::Var {
            let short = w[0].text.rsplit('\\').next().unwrap_or(&w[0].text);
            if types.contains(&short) && !vars.contains(&w[1].text) {
                vars.push(w[1].text.clone());
            }
        }
    }
    vars
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let path = file.slash_path();
    if is_vendor(&path) || !path.ends_with(".php") {
        return Vec::new();
    }
    let text = &file.content;
    let toks = tokenize(text);
    let mut out = Vec::new();
    let vars = route_vars(
        &toks,
        &[
            "App",
            "RouteCollectorProxy",
            "RouteCollectorProxyInterface",
            "Group",
            "RouteGroup",
        ],
        &["app", "router", "routes", "group", "api", "this", "slim"],
    );
    let is_start = |t: &[Token], i: usize| {
        t[i].kind == Kind::Var
            && vars.contains(&t[i].text)
            && t.get(i + 1).is_some_and(|a| a.is("->"))
            && t.get(i + 2).is_some_and(|m| {
                m.kind == Kind::Ident && ROUTE_METHODS.iter().any(|r| m.is_ident(r))
            })
            || ["require", "require_once", "include", "include_once"]
                .iter()
                .any(|w| t[i].is_ident(w))
    };
    let line_of = |o: usize| file.line_of(o);
    let cx = Ctx {
        toks: &toks,
        line_of: &line_of,
        is_chain_start: &is_start,
    };
    let found = chains(&cx, 0, toks.len());
    if !found.is_empty() {
        out.push(Fact::Routes {
            path: file.path.clone(),
            vars,
            chains: found,
        });
    }
    if text.contains("class ") {
        for class in classes(text, &toks, &line_of) {
            out.push(Fact::Class {
                path: file.path.clone(),
                class,
            });
        }
    }
    out
}
