//! Hanami (`ruby_hanami`), versions 2 and 1.
//!
//! Routes: Hanami 2 `config/routes.rb` (`class Routes < Hanami::Routes`):
//! `get/post/put/patch/delete/options "/books/:id", to: "books.show"`,
//! `root to: "home.show"` (GET `/`), `slice :admin, at: "/admin" do`,
//! `scope "api" do` (nested), and each slice's own
//! `slices/<slice>/config/routes.rb` served under the `at:` of the app's
//! `slice` declaration (or `/<slice>` when never declared there). Hanami 1
//! `apps/<app>/config/routes.rb`: the same verbs with `to: 'books#show'`,
//! `resources`/`resource` (`only:`/`except:`, the seven/six standard
//! actions as in Rails), `namespace 'x' do`, served under the
//! `mount Web::Application, at: '/'` of `config/environment.rb`. Constants
//! in paths resolve; `redirect` routes are skipped.
//!
//! Parameters come from the action the route names: Hanami 2
//! `app/actions/books/show.rb` (`slices/<slice>/actions/…` for a slice),
//! Hanami 1 `apps/<app>/controllers/books/show.rb`; its `params do
//! required(:x)…; optional(:y)… end` top-level names and what its methods
//! read (`request.params[:x]`, `params[:x]`, `request.env['HTTP_X']`,
//! `request.get_header('HTTP_X')`, `request.cookies['c']`). Params are
//! query parameters on GET/HEAD/DELETE/OPTIONS and form fields otherwise,
//! or JSON fields when the app enables the JSON body parser
//! (`body_parser, :json` anywhere under its `config/`).

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rb::call::Val;
use crate::rb::dsl::{
    collect_consts, endpoint_with, file_nodes, join_url, str_value, Body, FileNodes, Node,
};
use crate::rb::request::{Options, Reads};
use crate::rb::tokens::Kind;

pub struct Hanami;

const VERBS: [(&str, &str); 7] = [
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("trace", "TRACE"),
];

const OPTIONS: Options = Options {
    bare_headers: false,
    bare_env: false,
    index_headers: false,
    receivers: &[],
};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Fact {
    Routes(FileNodes),
    Action {
        path: String,
        reads: Reads,
    },
    /// `body_parser, :json` in the `config/` of the app rooted at `root`.
    JsonBody {
        root: String,
    },
}

impl Analyzer for Hanami {
    fn tech(&self) -> Tech {
        Tech::new("ruby_hanami", "Ruby", "Hanami")
            .aliases(["hanami", "ruby-hanami"])
            .files(["*.rb"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"])
                    .regex([r#"^\s*gem\s*\(?\s*["']hanami(-router)?["']"#]),
            )
            .detect(Detect::files(["*.rb"]).regex([r"<\s*Hanami::(Routes|Action|App|Slice)\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let path = file.slash_path();
        if path.ends_with("config/routes.rb") || path.ends_with("config/environment.rb") {
            out.fact(&Fact::Routes(FileNodes {
                path: file.path.clone(),
                nodes: file_nodes(file, OPTIONS, &|_| false),
            }));
        }
        if path.contains("config/") && file.content.contains("body_parser") {
            let code = file.code(Syntax::RUBY);
            if code.find_all(":json").next().is_some() {
                let root = crate::rails::scan::root_before(&path, "config/").unwrap_or_default();
                out.fact(&Fact::JsonBody { root });
            }
        }
        if path.contains("/actions/") || path.contains("/controllers/") {
            out.fact(&Fact::Action {
                path,
                reads: action_reads(file),
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        Ok(link(&facts))
    }
}

/// Everything an action file reads: its `params` block names and its
/// methods' reads.
fn action_reads(file: &SourceFile) -> Reads {
    let mut reads = Reads::default();
    let stmts = crate::rb::parse(&file.content);
    crate::rb::tree::walk(&stmts, &mut |s, _| {
        if s.head() != Some("params") {
            return;
        }
        let Some(b) = s.block() else { return };
        for st in &b.body {
            let t = &st.toks;
            if t.len() >= 3
                && matches!(t[0].text.as_str(), "required" | "optional")
                && t[1].is("(")
                && matches!(t[2].kind, Kind::Sym | Kind::Str)
                && !reads.params.contains(&t[2].text)
            {
                reads.params.push(t[2].text.clone());
            }
        }
    });
    let o = crate::rb::outline::outline(&file.content, &|o| file.line_of(o), OPTIONS);
    for c in &o.classes {
        for m in &c.methods {
            reads.merge(&m.reads);
        }
    }
    reads
}

struct Route {
    method: &'static str,
    url: String,
    file: String,
    line: u32,
    /// Candidate action file suffixes.
    actions: Vec<String>,
    json: bool,
}

struct Ctx<'s> {
    prefix: String,
    /// Hanami 2 slice / Hanami 1 app folder the actions live in.
    base: &'s str,
    hanami1: bool,
    file: &'s str,
    json: bool,
}

fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let routes: Vec<&FileNodes> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Routes(r) => Some(r),
            _ => None,
        })
        .collect();
    let mut consts = BTreeMap::new();
    for f in &routes {
        collect_consts(&f.nodes, "", &mut consts);
    }
    let json_roots: Vec<&str> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::JsonBody { root } => Some(root.as_str()),
            _ => None,
        })
        .collect();
    // Where slices (Hanami 2) and apps (Hanami 1) are served.
    let mut slice_at: BTreeMap<String, String> = BTreeMap::new();
    for f in &routes {
        find_slices(&f.nodes, "", &consts, &mut slice_at);
    }
    let mut out_routes = Vec::new();
    for f in &routes {
        let path = f.path.replace('\\', "/");
        if path.ends_with("config/environment.rb") {
            continue;
        }
        // `apps/web/config/routes.rb` (Hanami 1), `slices/admin/config/routes.rb`.
        let (base, hanami1) = if let Some(app) = segment_after(&path, "apps/") {
            (app, true)
        } else if let Some(slice) = segment_after(&path, "slices/") {
            (slice, false)
        } else {
            (String::new(), false)
        };
        let prefix = if base.is_empty() {
            "/".to_string()
        } else {
            slice_at.get(&base).cloned().unwrap_or_else(|| {
                if hanami1 {
                    "/".into()
                } else {
                    format!("/{base}")
                }
            })
        };
        let root = ["apps/", "slices/", "config/"]
            .iter()
            .find_map(|m| crate::rails::scan::root_before(&path, m))
            .unwrap_or_default();
        let ctx = Ctx {
            prefix,
            base: &base,
            hanami1,
            file: &f.path,
            json: json_roots.contains(&root.as_str()),
        };
        interp(&f.nodes, &ctx, &consts, &mut out_routes);
    }
    let actions: Vec<(&str, &Reads)> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Action { path, reads } => Some((path.as_str(), reads)),
            _ => None,
        })
        .collect();
    out_routes
        .into_iter()
        .map(|r| {
            let reads = r
                .actions
                .iter()
                .find_map(|suffix| {
                    actions
                        .iter()
                        .find(|(p, _)| p.ends_with(suffix.as_str()))
                        .map(|(_, reads)| (*reads).clone())
                })
                .unwrap_or_default();
            let body = if r.json { Body::Json } else { Body::Form };
            endpoint_with(r.method, &r.url, &r.file, r.line, &reads, body)
        })
        .collect()
}

fn segment_after(path: &str, marker: &str) -> Option<String> {
    let i = if path.starts_with(marker) {
        0
    } else {
        path.find(&format!("/{marker}"))? + 1
    };
    let rest = &path[i + marker.len()..];
    rest.split('/').next().map(str::to_string)
}

fn str_of(v: &Val, consts: &BTreeMap<String, Val>) -> Option<String> {
    str_value(v, &|n| consts.get(n).cloned(), 0)
}

/// `slice :admin, at: "/admin"` (Hanami 2) and `mount Web::Application,
/// at: '/'` (Hanami 1).
fn find_slices(
    nodes: &[Node],
    prefix: &str,
    consts: &BTreeMap<String, Val>,
    out: &mut BTreeMap<String, String>,
) {
    for n in nodes {
        let c = &n.call;
        match c.name.as_str() {
            "slice" => {
                if let Some(name) = c.first().and_then(Val::text) {
                    let at = c
                        .opt("at")
                        .and_then(|v| str_of(v, consts))
                        .unwrap_or_else(|| format!("/{name}"));
                    out.insert(name.to_string(), join_url(&[prefix, &at]));
                }
            }
            "mount" => {
                let app = match c.first() {
                    Some(Val::Const(k)) => k.split("::").next().map(crate::rb::inflect::underscore),
                    _ => None,
                };
                if let (Some(app), Some(at)) = (app, c.opt("at").and_then(|v| str_of(v, consts))) {
                    out.insert(app, join_url(&[prefix, &at]));
                }
            }
            "scope" => {
                let p = c
                    .first()
                    .and_then(|v| str_of(v, consts))
                    .unwrap_or_default();
                find_slices(n.children(), &join_url(&[prefix, &p]), consts, out);
            }
            _ => find_slices(n.children(), prefix, consts, out),
        }
    }
}

fn action_files(ctx: &Ctx<'_>, key: &str) -> Vec<String> {
    if ctx.hanami1 || key.contains('#') {
        let (ctrl, action) = key.split_once('#').unwrap_or((key, "index"));
        let app = if ctx.base.is_empty() { "web" } else { ctx.base };
        return vec![format!("apps/{app}/controllers/{ctrl}/{action}.rb")];
    }
    let rel = key.replace('.', "/");
    let mut out = Vec::new();
    if !ctx.base.is_empty() {
        out.push(format!("slices/{}/actions/{rel}.rb", ctx.base));
    }
    out.push(format!("app/actions/{rel}.rb"));
    out
}

fn interp(nodes: &[Node], ctx: &Ctx<'_>, consts: &BTreeMap<String, Val>, out: &mut Vec<Route>) {
    for n in nodes {
        let c = &n.call;
        let name = c.name.as_str();
        let verb = VERBS.iter().find(|(v, _)| *v == name).map(|(_, m)| *m);
        match name {
            "slice" if n.body.is_some() => {
                let Some(slice) = c.first().and_then(Val::text) else {
                    continue;
                };
                let at = c
                    .opt("at")
                    .and_then(|v| str_of(v, consts))
                    .unwrap_or_else(|| format!("/{slice}"));
                let inner = Ctx {
                    prefix: join_url(&[&ctx.prefix, &at]),
                    base: slice,
                    hanami1: ctx.hanami1,
                    file: ctx.file,
                    json: ctx.json,
                };
                interp(n.children(), &inner, consts, out);
            }
            "scope" | "namespace" if n.body.is_some() => {
                let Some(p) = c.first().and_then(|v| str_of(v, consts)) else {
                    continue;
                };
                let inner = Ctx {
                    prefix: join_url(&[&ctx.prefix, &p]),
                    base: ctx.base,
                    hanami1: ctx.hanami1,
                    file: ctx.file,
                    json: ctx.json,
                };
                interp(n.children(), &inner, consts, out);
            }
            "root" => {
                let key = c.opt("to").and_then(|v| str_of(v, consts));
                out.push(Route {
                    method: "GET",
                    url: join_url(&[&ctx.prefix]),
                    file: ctx.file.to_string(),
                    line: n.line,
                    actions: key.map(|k| action_files(ctx, &k)).unwrap_or_default(),
                    json: ctx.json,
                });
            }
            "resources" | "resource" if ctx.hanami1 => {
                resources(n, ctx, consts, out);
            }
            _ if verb.is_some() && c.recv.is_empty() => {
                let Some(path) = c.first().and_then(|v| str_of(v, consts)) else {
                    continue;
                };
                let to = c.opt("to");
                if let Some(Val::Expr(e)) = to {
                    if e.starts_with("redirect") {
                        continue;
                    }
                }
                let key = to.and_then(|v| str_of(v, consts));
                out.push(Route {
                    method: verb.unwrap_or("GET"),
                    url: join_url(&[&ctx.prefix, &path]),
                    file: ctx.file.to_string(),
                    line: n.line,
                    actions: key.map(|k| action_files(ctx, &k)).unwrap_or_default(),
                    json: ctx.json,
                });
            }
            "class" | "module" | "def" | "if" | "unless" | "define" | "draw" | "routes"
            | "configure" | "case" | "begin" => interp(n.children(), ctx, consts, out),
            _ => {}
        }
    }
}

/// Hanami 1 `resources :books` / `resource :account`.
fn resources(n: &Node, ctx: &Ctx<'_>, consts: &BTreeMap<String, Val>, out: &mut Vec<Route>) {
    let c = &n.call;
    let Some(name) = c.first().and_then(|v| str_of(v, consts)) else {
        return;
    };
    let plural = c.name == "resources";
    let all: &[(&str, &'static str, &str)] = if plural {
        &[
            ("index", "GET", ""),
            ("new", "GET", "/new"),
            ("create", "POST", ""),
            ("show", "GET", "/:id"),
            ("edit", "GET", "/:id/edit"),
            ("update", "PATCH", "/:id"),
            ("destroy", "DELETE", "/:id"),
        ]
    } else {
        &[
            ("new", "GET", "/new"),
            ("create", "POST", ""),
            ("show", "GET", ""),
            ("edit", "GET", "/edit"),
            ("update", "PATCH", ""),
            ("destroy", "DELETE", ""),
        ]
    };
    let only = c.opt("only").map(Val::words);
    let except = c.opt("except").map(Val::words).unwrap_or_default();
    let base = join_url(&[&ctx.prefix, &name]);
    for (action, method, suffix) in all {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|x| x == action))
            || except.iter().any(|x| x == action)
        {
            continue;
        }
        out.push(Route {
            method,
            url: format!("{}{suffix}", base.trim_end_matches('/')),
            file: ctx.file.to_string(),
            line: n.line,
            actions: action_files(ctx, &format!("{name}#{action}")),
            json: ctx.json,
        });
    }
    // member/collection blocks
    for child in n.children() {
        let place = child.name();
        if place != "member" && place != "collection" {
            continue;
        }
        let at = if place == "member" && plural {
            format!("{}/:id", base.trim_end_matches('/'))
        } else {
            base.clone()
        };
        for v in child.children() {
            let Some(method) = VERBS.iter().find(|(x, _)| *x == v.name()).map(|(_, m)| *m) else {
                continue;
            };
            let Some(p) = v.call.first().and_then(|x| str_of(x, consts)) else {
                continue;
            };
            out.push(Route {
                method,
                url: join_url(&[&at, &p]),
                file: ctx.file.to_string(),
                line: v.line,
                actions: action_files(ctx, &format!("{name}#{}", p.trim_matches('/'))),
                json: ctx.json,
            });
        }
    }
}
