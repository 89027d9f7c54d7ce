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
    /// Middleware registry: `$middlewareAliases`/`$routeMiddleware` of the
    /// HTTP kernel and `$middleware->alias([...])` (alias → class), and
    /// `$middlewareGroups` / `appendToGroup` (group → members).
    Middleware {
        root: String,
        aliases: Vec<(String, String)>,
        groups: Vec<(String, Vec<String>)>,
    },
    /// Shared swagger-php parameters `@OA\\Parameter(parameter="key", …)`
    /// (key defaulting to the name).
    OaDefs {
        defs: Vec<crate::php::outline::OaParam>,
    },
    /// Named swagger-php schemas `@OA\Schema(schema="X", …)`.
    OaSchemas {
        defs: Vec<crate::php::oa::SchemaDef>,
    },
    /// `$this->middleware('auth')->except(['index'])` in a controller
    /// (its constructor): the controller's short name, its file, and the
    /// chains.
    ControllerMiddleware {
        class: String,
        path: String,
        chains: Vec<Chain>,
    },
}

/// Laravel 11 `HasMiddleware`: `public static function middleware():
/// array { return ['auth', new Middleware('can:x', only: ['store'])]; }`,
/// as the `$this->middleware('auth')->only([...])` chains it stands for.
fn static_middleware(cx: &Ctx<'_>) -> Vec<Chain> {
    use crate::php::expr::{value, Part};
    let t = cx.toks;
    let mut out = Vec::new();
    for i in 0..t.len() {
        if !(t[i].is_ident("function") && t.get(i + 1).is_some_and(|n| n.is_ident("middleware"))) {
            continue;
        }
        // The body's first `return [`.
        let Some(ret) = (i + 2..t.len().min(i + 64)).find(|&k| t[k].is_ident("return")) else {
            continue;
        };
        if !t.get(ret + 1).is_some_and(|b| b.is("[")) {
            continue;
        }
        let Some(close) = crate::php::tokens::matching(t, ret + 1) else {
            continue;
        };
        let line = (cx.line_of)(t[ret].start);
        let Val::Array(items) = value(cx, ret + 1, close + 1) else {
            continue;
        };
        for (_, item) in items {
            let (name, opts) = match item {
                Val::New(class, args) if class.rsplit('\\').next() == Some("Middleware") => {
                    let mut args = args.into_iter();
                    let Some(first) = args.next() else { continue };
                    (first, args.collect::<Vec<_>>())
                }
                v @ (Val::Str(_) | Val::Class(_)) => (v, Vec::new()),
                _ => continue,
            };
            let mut parts = vec![Part {
                name: "middleware".into(),
                args: vec![name],
                line,
            }];
            for o in opts {
                for key in ["only", "except"] {
                    if let Some(v) = o.get(key) {
                        parts.push(Part {
                            name: key.into(),
                            args: vec![v.clone()],
                            line,
                        });
                    }
                }
            }
            out.push(Chain {
                base: "$this".into(),
                parts,
                line,
            });
        }
    }
    out
}

/// `$this->middleware(…)`.
fn is_this_middleware(t: &[Token], i: usize) -> bool {
    t[i].kind == Kind::Var
        && t[i].text == "this"
        && t.get(i + 1).is_some_and(|p| p.is("->"))
        && t.get(i + 2).is_some_and(|p| p.is_ident("middleware"))
        && t.get(i + 3).is_some_and(|p| p.is("("))
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
    let wants_classes = root_before(&path, "app/").is_some()
        || text.contains("Controller")
        || text.contains("function handle(")
        || text.contains("function rules(");
    let wants_middleware = text.contains("middlewareAliases")
        || text.contains("routeMiddleware")
        || text.contains("middlewareGroups")
        || text.contains("withMiddleware");
    if text.contains("@OA\\Parameter(") || text.contains("@SWG\\Parameter(") {
        // A shared parameter's component key is its `parameter`, else its
        // `name` (swagger-php).
        let defs: Vec<_> = crate::php::outline::oa_parameters(text)
            .into_iter()
            .filter(|p| !p.name.is_empty() && !p.loc.is_empty())
            .map(|mut p| {
                if p.key.is_empty() {
                    p.key = p.name.clone();
                }
                p
            })
            .collect();
        if !defs.is_empty() {
            out.push(Fact::OaDefs { defs });
        }
    }
    if text.contains("@OA\\Schema(") || text.contains("@SWG\\Definition(") {
        let defs = crate::php::oa::schema_defs(text);
        if !defs.is_empty() {
            out.push(Fact::OaSchemas { defs });
        }
    }
    if !wants_routes && !wants_classes && !wants_middleware {
        return out;
    }
    let toks = tokenize(text);
    if wants_middleware {
        let root = root_before(&path, "app/")
            .or_else(|| root_before(&path, "bootstrap/"))
            .unwrap_or_default();
        if let Some(f) = middleware(&toks, root, &|o| file.line_of(o)) {
            out.push(f);
        }
    }
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
        let found = classes(text, &toks, &|o| file.line_of(o));
        let hooks = text.contains("$this->middleware(");
        let statics = text.contains("HasMiddleware");
        if hooks || statics {
            let line_of = |o: usize| file.line_of(o);
            let cx = Ctx {
                toks: &toks,
                line_of: &line_of,
                is_chain_start: &is_this_middleware,
            };
            let mut found_chains = if hooks {
                chains(&cx, 0, toks.len())
            } else {
                Vec::new()
            };
            if statics {
                found_chains.extend(static_middleware(&cx));
            }
            let mut by_class: Vec<(String, Vec<Chain>)> = Vec::new();
            for c in found_chains {
                // The class declared last before the call.
                let Some(owner) = found.iter().rev().find(|k| k.line <= c.line) else {
                    continue;
                };
                match by_class.iter_mut().find(|(n, _)| *n == owner.name) {
                    Some((_, list)) => list.push(c),
                    None => by_class.push((owner.name.clone(), vec![c])),
                }
            }
            for (class, chains) in by_class {
                out.push(Fact::ControllerMiddleware {
                    class,
                    path: file.path.clone(),
                    chains,
                });
            }
        }
        for class in found {
            out.push(Fact::Class {
                root: root.clone(),
                class,
            });
        }
    }
    out
}

/// `use App\\Http\\Controllers\\UserController as AdminUsers;` → alias map;
/// plain `use App\\Http\\Controllers\\Api\\UserController;` maps the short
/// name to the full one (two controllers may share a short name).
fn use_aliases(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.is_ident("use")
            && toks.get(i + 2).is_some_and(|a| a.is(";"))
            && toks
                .get(i + 1)
                .is_some_and(|p| p.kind == Kind::Ident && p.text.contains('\\'))
        {
            let full = toks[i + 1].text.trim_start_matches('\\');
            let short = full.rsplit('\\').next().unwrap_or(full);
            out.push((short.to_string(), full.to_string()));
        }
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

/// A middleware reference: `'auth:api'` → `auth`, `X::class` → `X`.
pub fn middleware_name(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.split(':').next().unwrap_or(s).to_string()),
        Val::Class(c) => Some(c.clone()),
        _ => None,
    }
}

fn middleware(toks: &[Token], root: String, line_of: &dyn Fn(usize) -> u32) -> Option<Fact> {
    fn no_chain(_: &[Token], _: usize) -> bool {
        false
    }
    let cx = Ctx {
        toks,
        line_of,
        is_chain_start: &no_chain,
    };
    let mut aliases = Vec::new();
    let mut groups = Vec::new();
    let array_at = |open: usize| -> Option<Val> {
        let close = crate::php::tokens::matching(toks, open)?;
        Some(crate::php::expr::value(&cx, open, close + 1))
    };
    for (i, t) in toks.iter().enumerate() {
        // `protected $middlewareAliases = [ ... ];`
        if t.kind == Kind::Var
            && matches!(
                t.text.as_str(),
                "middlewareAliases" | "routeMiddleware" | "middlewareGroups"
            )
            && toks.get(i + 1).is_some_and(|x| x.is("="))
            && toks.get(i + 2).is_some_and(|x| x.is("["))
        {
            let Some(Val::Array(items)) = array_at(i + 2) else {
                continue;
            };
            for (k, v) in items {
                let Some(k) = k.as_ref().and_then(Val::str) else {
                    continue;
                };
                if t.text == "middlewareGroups" {
                    let members = match &v {
                        Val::Array(m) => m.iter().filter_map(|(_, x)| middleware_name(x)).collect(),
                        _ => Vec::new(),
                    };
                    groups.push((k.to_string(), members));
                } else if let Some(c) = middleware_name(&v) {
                    aliases.push((k.to_string(), c));
                }
            }
        }
        // Laravel 11: `$middleware->alias([...])`, `->appendToGroup('api', [...])`.
        if t.is("->") && toks.get(i + 2).is_some_and(|x| x.is("(")) {
            let Some(name) = toks.get(i + 1) else {
                continue;
            };
            if name.is_ident("alias") && toks.get(i + 3).is_some_and(|x| x.is("[")) {
                if let Some(Val::Array(items)) = array_at(i + 3) {
                    for (k, v) in items {
                        if let (Some(k), Some(c)) =
                            (k.as_ref().and_then(Val::str), middleware_name(&v))
                        {
                            aliases.push((k.to_string(), c));
                        }
                    }
                }
            }
            if (name.is_ident("appendToGroup") || name.is_ident("prependToGroup"))
                && toks.get(i + 3).is_some_and(|x| x.kind == Kind::Str)
                && toks.get(i + 4).is_some_and(|x| x.is(","))
            {
                let group = toks[i + 3].text.clone();
                let members = match toks.get(i + 5) {
                    Some(x) if x.is("[") => match array_at(i + 5) {
                        Some(Val::Array(m)) => {
                            m.iter().filter_map(|(_, x)| middleware_name(x)).collect()
                        }
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                groups.push((group, members));
            }
        }
    }
    (!aliases.is_empty() || !groups.is_empty()).then_some(Fact::Middleware {
        root,
        aliases,
        groups,
    })
}
