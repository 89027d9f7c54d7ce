//! go-zero (`go_gozero`, `github.com/zeromicro/go-zero`).
//!
//! Two sources of routes, both reported (the host merges an endpoint
//! declared in both, listing both locations):
//! - `.api` files (goctl's DSL): `@server(prefix: /v1, group: user, jwt:
//!   Auth)` blocks and the `service user-api { @handler GetUser get
//!   /users/:id (GetUserReq) returns (GetUserResp) }` routes after them,
//!   reported at the route line; request types are the `type` declarations
//!   of any `.api` file of the tree (`type X {…}`, `type X struct {…}`,
//!   `type (…)` groups, embedded types), the closest file first;
//! - Go code, as goctl generates it in `internal/handler/routes.go` or as
//!   written by hand: `server.AddRoutes([]rest.Route{{Method:
//!   http.MethodGet, Path: "/users/:id", Handler: user.GetUserHandler(ctx)},
//!   …}, rest.WithPrefix("/api"), …)` and `server.AddRoute(rest.Route{…})`,
//!   with `rest.WithMiddlewares(mws, routes...)` wrappers, string constants
//!   of the file in paths and prefixes. The handler function
//!   (`func GetUserHandler(svcCtx *svc.ServiceContext) http.HandlerFunc`,
//!   another file, closest directory first) declares `var req types.X` and
//!   calls `httpx.Parse*`: the fields of struct `X` (closest file first) are
//!   its parameters; `r.URL.Query().Get`, `r.FormValue`, `r.Header.Get` in
//!   the handler add to them.
//!
//! Request struct tags (`.api` and Go): `path:"id"` → path, `form:"q"` →
//! query for GET/HEAD/DELETE and form otherwise (go-zero's `httpx.ParseForm`
//! reads the query string and the form body), `json:"name"` → JSON,
//! `header:"X-Token"` → header; options (`,optional`, `,default=1`) are
//! dropped, `-` skipped.
//!
//! Not reported: `_test.go` files and test paths, commented-out routes.
//! Gaps: `rest.WithPrefix` taking a non-constant expression, routes added
//! in loops over data, types imported from other packages in `.api`
//! (`import` of other `.api` files is handled by looking everywhere).

pub mod api;
pub mod code;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::golang::facts::Field;
use crate::golang::{self};

pub struct GoZero;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Route {
    pub path: String,
    pub line: u32,
    pub method: String,
    pub url: String,
    /// Request type (`.api`) or handler function name (Go).
    pub target: Option<String>,
    /// Parameters read directly (Go handlers given inline).
    #[serde(default)]
    pub params: Vec<Param>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Fact {
    /// A route from a `.api` file; `target` is the request type.
    ApiRoute(Route),
    /// A route from Go code; `target` is the handler function.
    GoRoute(Route),
    /// A request type (`.api` type or Go struct).
    Type {
        path: String,
        name: String,
        fields: Vec<Field>,
    },
    /// A handler function: its request types and direct reads.
    Handler {
        path: String,
        name: String,
        types: Vec<String>,
        params: Vec<Param>,
    },
}

impl Analyzer for GoZero {
    fn tech(&self) -> Tech {
        Tech::new("go_gozero", "Go", "go-zero")
            .aliases(["gozero", "go-zero", "zero"])
            .files(["*.go", "go.mod", "*.api"])
            .detect(golang::gomod_requires(&["github.com/zeromicro/go-zero"]))
            .detect(golang::go_imports(&["github.com/zeromicro/go-zero"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_test_path(&path) {
            return;
        }
        let facts = if path.ends_with(".api") {
            api::scan(file)
        } else if path.ends_with(".go") {
            code::scan(file)
        } else {
            Vec::new()
        };
        for f in &facts {
            out.fact(f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(&facts.all()))
    }
}

/// Common leading directories of two paths.
fn closeness(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

fn closest<'f, T>(items: impl Iterator<Item = (&'f str, T)>, from: &str) -> Option<T> {
    let mut best: Option<(usize, T)> = None;
    for (p, t) in items {
        let score = closeness(p, from);
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, t));
        }
    }
    best.map(|(_, t)| t)
}

fn type_fields<'f>(facts: &'f [Fact], name: &str, from: &str) -> Option<(&'f str, &'f [Field])> {
    closest(
        facts.iter().filter_map(|f| match f {
            Fact::Type {
                path,
                name: n,
                fields,
            } if n == name => Some((path.as_str(), (path.as_str(), fields.as_slice()))),
            _ => None,
        }),
        from,
    )
}

/// Parameters of request type `name` for `method`, embedded types
/// included.
fn type_params(
    facts: &[Fact],
    name: &str,
    from: &str,
    method: &str,
    depth: usize,
    out: &mut Vec<Param>,
) {
    let name = name.trim_start_matches(['*', '[', ']']);
    let name = name.rsplit('.').next().unwrap_or(name);
    if depth > 8 {
        return;
    }
    let Some((path, fields)) = type_fields(facts, name, from) else {
        return;
    };
    for f in fields {
        if f.embedded {
            type_params(facts, &f.ty, path, method, depth + 1, out);
            continue;
        }
        for (key, _) in &f.tags {
            let Some(n) = f.tag(key).filter(|n| !n.is_empty() && *n != "-") else {
                continue;
            };
            let kind = match key.as_str() {
                "path" => ParamKind::Path,
                "json" => ParamKind::Json,
                "header" => ParamKind::Header,
                "form" => match method {
                    "GET" | "HEAD" | "DELETE" => ParamKind::Query,
                    _ => ParamKind::Form,
                },
                _ => continue,
            };
            let p = Param::new(kind, n);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
}

fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let mut out = Vec::new();
    for f in facts {
        let (route, go) = match f {
            Fact::ApiRoute(r) => (r, false),
            Fact::GoRoute(r) => (r, true),
            _ => continue,
        };
        let mut params = route.params.clone();
        match (&route.target, go) {
            (Some(t), false) => type_params(facts, t, &route.path, &route.method, 0, &mut params),
            (Some(h), true) => {
                let handler = closest(
                    facts.iter().filter_map(|f| match f {
                        Fact::Handler {
                            path,
                            name,
                            types,
                            params,
                        } if name == h => Some((path.as_str(), (path.as_str(), types, params))),
                        _ => None,
                    }),
                    &route.path,
                );
                if let Some((hp, types, direct)) = handler {
                    for t in types {
                        type_params(facts, t, hp, &route.method, 0, &mut params);
                    }
                    for p in direct {
                        if !params.contains(p) {
                            params.push(p.clone());
                        }
                    }
                }
            }
            _ => {}
        }
        out.push(
            Endpoint::new(&route.method, route.url.clone())
                .params(params)
                .at_path(route.path.clone(), route.line),
        );
    }
    out
}
