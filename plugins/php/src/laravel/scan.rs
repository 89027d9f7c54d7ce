//! Map step: route chains of route files and routing entry points
//! (providers, `bootstrap/app.php`), and classes under `app/`.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{chains, Chain, Ctx, Val};
use crate::php::outline::{classes, Class};
use crate::php::root_before;
use crate::php::tokens::{tokenize, Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// A file with route chains. `root` is the app root (`""`, `svc/`).
    Routes {
        path: String,
        root: String,
        route_file: bool,
        chains: Vec<Chain>,
    },
    Class {
        root: String,
        class: Class,
    },
    /// `bootstrap/app.php` creates a `Laravel\Lumen\Application`: the app
    /// at `root` is Lumen (analysed by `php_lumen`, not `php_laravel`).
    Lumen {
        root: String,
    },
}

fn is_start(t: &[Token], i: usize) -> bool {
    let tok = &t[i];
    match tok.kind {
        Kind::Ident => {
            let short = tok.text.rsplit('\\').next().unwrap_or(&tok.text);
            if ["require", "require_once", "include", "include_once"]
                .iter()
                .any(|w| tok.is_ident(w))
            {
                return true;
            }
            if tok.text == "router"
                && i > 0
                && t[i - 1].is("->")
                && t.get(i + 1).is_some_and(|p| p.is("->"))
            {
                // Lumen: `$app->router->group([...], function ($router) { … })`.
                return true;
            }
            (short == "Route" || short == "Application")
                && t.get(i + 1).is_some_and(|p| p.is("::"))
                && !(i > 0 && (t[i - 1].is("->") || t[i - 1].is("::") || t[i - 1].is_ident("new")))
        }
        Kind::Var => {
            matches!(tok.text.as_str(), "router" | "route" | "routes")
                && t.get(i + 1).is_some_and(|p| p.is("->"))
        }
        _ => false,
    }
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let path = file.slash_path();
    let text = &file.content;
    let mut out = Vec::new();
    let routes_root = root_before(&path, "routes/");
    if text.contains("Laravel\\Lumen\\Application") {
        if let Some(root) = root_before(&path, "bootstrap/") {
            out.push(Fact::Lumen { root });
        }
    }
    let wants_routes = routes_root.is_some()
        || text.contains("withRouting")
        || text.contains("->router->")
        || (text.contains("Route::") && text.contains("group("));
    let wants_classes = root_before(&path, "app/").is_some() || text.contains("Controller");
    if !wants_routes && !wants_classes {
        return out;
    }
    let toks = tokenize(text);
    if wants_routes {
        let line_of = |o: usize| file.line_of(o);
        let cx = Ctx {
            toks: &toks,
            line_of: &line_of,
            is_chain_start: &is_start,
        };
        let mut found = chains(&cx, 0, toks.len());
        let aliases = use_aliases(&toks);
        if !aliases.is_empty() {
            for c in &mut found {
                dealias_chain(c, &aliases);
            }
        }
        if !found.is_empty() {
            let root = routes_root
                .clone()
                .or_else(|| root_before(&path, "bootstrap/"))
                .or_else(|| root_before(&path, "app/"))
                .unwrap_or_default();
            out.push(Fact::Routes {
                path: file.path.clone(),
                root,
                route_file: routes_root.is_some(),
                chains: found,
            });
        }
    }
    if wants_classes {
        let root = root_before(&path, "app/").unwrap_or_default();
        for class in classes(text, &toks, &|o| file.line_of(o)) {
            out.push(Fact::Class {
                root: root.clone(),
                class,
            });
        }
    }
    out
}

/// `use App\\Http\\Controllers\\UserController as AdminUsers;` → alias map.
fn use_aliases(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.is_ident("use")
            && toks.get(i + 2).is_some_and(|a| a.is_ident("as"))
            && toks.get(i + 1).is_some_and(|p| p.kind == Kind::Ident)
        {
            if let Some(alias) = toks.get(i + 3).filter(|a| a.kind == Kind::Ident) {
                out.push((alias.text.clone(), toks[i + 1].text.clone()));
            }
        }
    }
    out
}

fn dealias_chain(c: &mut Chain, aliases: &[(String, String)]) {
    for p in &mut c.parts {
        for a in &mut p.args {
            dealias(a, aliases);
        }
    }
}

fn dealias(v: &mut Val, aliases: &[(String, String)]) {
    match v {
        Val::Class(name) => {
            if let Some((_, full)) = aliases.iter().find(|(a, _)| a == name) {
                *name = full.clone();
            }
        }
        Val::Array(items) => {
            for (k, x) in items {
                if let Some(k) = k {
                    dealias(k, aliases);
                }
                dealias(x, aliases);
            }
        }
        Val::Closure(cl) => {
            for c in &mut cl.chains {
                dealias_chain(c, aliases);
            }
        }
        _ => {}
    }
}
