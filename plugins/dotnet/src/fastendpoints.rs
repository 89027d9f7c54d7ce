//! FastEndpoints (`cs_fastendpoints`).
//!
//! - Endpoints are classes overriding `Configure()` whose body declares the
//!   routes: `Get("/api/users/{id}")`, `Post(…)`, `Put`, `Patch`,
//!   `Delete`, `Head`, `Options` (several routes per call allowed), or
//!   `Verbs(Http.GET, Http.POST)` with `Routes("/a", "/b")`. Routes are
//!   literals, constants (from any class) or concatenations. Each endpoint
//!   is located at its verb call. Endpoints configured by attributes
//!   instead (`[HttpPost("/users")]` on the class) are read too.
//! - Prefixes: the global `c.Endpoints.RoutePrefix = "api"` (in
//!   `UseFastEndpoints(c => …)`, any file), then `Group<AdminGroup>()`
//!   whose class (`: Group` / `: SubGroup<Parent>`, nested groups
//!   composed) calls `Configure("admin", ep => …)` in its constructor,
//!   then the route. `RoutePrefixOverride("v2")` replaces the global
//!   prefix for one endpoint (`RoutePrefixOverride(string.Empty)` drops
//!   it).
//! - Parameters: the request DTO is the first type argument of the base
//!   (`Endpoint<TRequest, TResponse>`, `Endpoint<TRequest>`,
//!   `Ep.Req<TRequest>.Res<TResponse>`, …; none for
//!   `EndpointWithoutRequest`). Its properties (and its base classes')
//!   become: `[FromHeader]` / `[FromHeader("X-Name")]` → header,
//!   `[QueryParam]` → query, a name matching a route placeholder → path,
//!   `[FromClaim]` / `[FromServices]` / `[JsonIgnore]` skipped,
//!   `[BindFrom("x")]` renames; the rest is query for GET, HEAD, DELETE
//!   and OPTIONS, form (files for `IFormFile`) with `AllowFormData()` /
//!   `AllowFileUploads()`, else JSON (camelCase, `[JsonPropertyName]`
//!   honoured). Request values read in `HandleAsync`/`ExecuteAsync`
//!   (`HttpContext.Request.Query["q"]`, …) are added.
//!
//! Not handled: API versioning prefixes (`Version(1)` with
//! `c.Versioning.Prefix`), request types inherited from a generic base
//! endpoint class, and endpoints registered with `Endpoints.Map…`.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cs::expr::Expr;
use crate::cs::index::{is_file_type, Index, TypeId};
use crate::cs::outline::{self, attr, Prop};
use crate::cs::params::{placeholders, reads};
use crate::cs::tokens::{close_of, split_commas, Kind, Token};
use crate::cs::{camel, is_test_code};
use crate::scan;

pub struct FastEndpoints;

impl Analyzer for FastEndpoints {
    fn tech(&self) -> Tech {
        Tech::new("cs_fastendpoints", "C#", "FastEndpoints")
            .aliases(["fastendpoints", "fast-endpoints"])
            .files(["*.cs"])
            .detect(Detect::files(["*.cs"]).contains(["using FastEndpoints", "FastEndpoints."]))
            .detect(Detect::files(["*.csproj"]).contains(["\"FastEndpoints\""]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_code(&file.path, &file.content) {
            return;
        }
        let (outline, toks) = outline::parse(file);
        for f in facts(file, &outline, &toks) {
            out.fact(&f);
        }
        if !outline.types.is_empty() {
            out.fact(&scan::Fact::File(outline));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts))
    }
}

/// One verb call of a `Configure()` body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decl {
    pub methods: Vec<String>,
    pub routes: Vec<Expr>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fe {
    Endpoint {
        path: String,
        ty: String,
        decls: Vec<Decl>,
        #[serde(default)]
        group: Option<String>,
        /// `RoutePrefixOverride(…)`.
        #[serde(default)]
        prefix: Option<Expr>,
        #[serde(default)]
        form: bool,
    },
    Group {
        name: String,
        prefix: Expr,
        #[serde(default)]
        parent: Option<String>,
    },
    GlobalPrefix(Expr),
}

const VERBS: &[(&str, &str)] = &[
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Patch", "PATCH"),
    ("Delete", "DELETE"),
    ("Head", "HEAD"),
    ("Options", "OPTIONS"),
];

fn args(t: &[Token], open: usize) -> Vec<Expr> {
    let Some(close) = close_of(t, open) else {
        return Vec::new();
    };
    split_commas(t, open + 1, close)
        .into_iter()
        .filter_map(|r| crate::cs::expr::parse(t.get(r)?))
        .collect()
}

/// The first type argument of `Name<…>` at `k`.
fn generic_arg(t: &[Token], k: usize) -> Option<String> {
    if !t.get(k + 1)?.is('<') {
        return None;
    }
    let close = close_of(t, k + 1)?;
    t.get(k + 2..close)?
        .iter()
        .rev()
        .find(|x| x.kind == Kind::Ident)
        .map(|x| x.text.clone())
}

fn facts(file: &SourceFile, o: &outline::CsFile, t: &[Token]) -> Vec<Fe> {
    let mut out = Vec::new();
    let line = |k: usize| t.get(k).map_or(1, |x| file.line_of(x.start));
    for ty in &o.types {
        let Some(m) = ty
            .methods
            .iter()
            .find(|m| m.name == "Configure" && m.params.is_empty() && m.has("override"))
        else {
            // Attribute configuration: `[HttpPost("/users")]` on the class.
            let fe_base = ty.bases.iter().any(|b| {
                b.starts_with("Endpoint") || matches!(b.as_str(), "Req" | "NoReq" | "Res" | "NoRes")
            });
            let decls: Vec<Decl> = ty
                .attrs
                .iter()
                .filter(|_| fe_base)
                .filter_map(|a| {
                    let verb = a.name.strip_prefix("Http")?;
                    let (_, m) = VERBS.iter().find(|(n, _)| *n == verb)?;
                    let routes: Vec<Expr> = a
                        .args
                        .iter()
                        .filter(|x| x.name.is_none())
                        .filter_map(|x| x.expr.clone())
                        .collect();
                    (!routes.is_empty()).then(|| Decl {
                        methods: vec![m.to_string()],
                        routes,
                        line: a.line,
                    })
                })
                .collect();
            if !decls.is_empty() {
                out.push(Fe::Endpoint {
                    path: file.path.clone(),
                    ty: ty.name.clone(),
                    decls,
                    group: None,
                    prefix: None,
                    form: false,
                });
            }
            continue;
        };
        let Some((start, end)) = m.body else { continue };
        let mut decls = Vec::new();
        let mut verbs: Vec<String> = Vec::new();
        let mut routes: Vec<Expr> = Vec::new();
        let mut routes_line = 0;
        let (mut group, mut prefix, mut form) = (None, None, false);
        for k in start..end.min(t.len()) {
            let tok = &t[k];
            let member = k > 0 && t[k - 1].is('.') && !(k >= 2 && t[k - 2].is_ident("this"));
            if tok.kind != Kind::Ident || member {
                continue;
            }
            let call = t.get(k + 1).is_some_and(|x| x.is('('));
            if let Some((_, v)) = VERBS.iter().find(|(n, _)| tok.text == *n).filter(|_| call) {
                decls.push(Decl {
                    methods: vec![v.to_string()],
                    routes: args(t, k + 1),
                    line: line(k),
                });
                continue;
            }
            match tok.text.as_str() {
                "Verbs" if call => {
                    let close = close_of(t, k + 1).unwrap_or(end);
                    verbs.extend(
                        t.get(k + 2..close)
                            .unwrap_or_default()
                            .iter()
                            .filter(|x| x.kind == Kind::Ident && x.text != "Http")
                            .map(|x| x.text.to_ascii_uppercase()),
                    );
                    routes_line = routes_line.max(line(k));
                }
                "Routes" if call => {
                    routes.extend(args(t, k + 1));
                    routes_line = routes_line.max(line(k));
                }
                "Group" => {
                    if let Some(g) = generic_arg(t, k) {
                        group = Some(g);
                    }
                }
                "RoutePrefixOverride" if call => prefix = args(t, k + 1).into_iter().next(),
                "AllowFormData" | "AllowFileUploads" if call => form = true,
                _ => {}
            }
        }
        if !verbs.is_empty() && !routes.is_empty() {
            decls.push(Decl {
                methods: verbs,
                routes,
                line: routes_line,
            });
        }
        if !decls.is_empty() {
            out.push(Fe::Endpoint {
                path: file.path.clone(),
                ty: ty.name.clone(),
                decls,
                group,
                prefix,
                form,
            });
        }
    }
    // Groups: `Configure("admin", ep => …)` calls in the constructors of the
    // file's `Group` / `SubGroup<P>` classes, in order.
    let groups: Vec<_> = o
        .types
        .iter()
        .filter_map(|ty| {
            let i = ty
                .bases
                .iter()
                .position(|b| b == "Group" || b == "SubGroup")?;
            let parent = ty.base_args.get(i).and_then(|a| a.first()).cloned();
            Some((ty.name.clone(), parent))
        })
        .collect();
    let mut calls = Vec::new();
    for k in 0..t.len() {
        if t[k].is_ident("Configure")
            && t.get(k + 1).is_some_and(|x| x.is('('))
            && !t.get(k + 2).is_some_and(|x| x.is(')'))
            && !(k > 0 && matches!(t[k - 1].text.as_str(), "void" | "override" | "."))
        {
            if let Some(e) = args(t, k + 1).into_iter().next() {
                calls.push(e);
            }
        }
        // `c.Endpoints.RoutePrefix = "api";`
        if t[k].is_ident("RoutePrefix")
            && t.get(k + 1).is_some_and(|x| x.is('='))
            && !t.get(k + 2).is_some_and(|x| x.is('='))
        {
            let stop = (k + 2..t.len())
                .find(|&i| t[i].is(';') || t[i].is(',') || t[i].is('}'))
                .unwrap_or(t.len());
            if let Some(e) = t.get(k + 2..stop).and_then(crate::cs::expr::parse) {
                out.push(Fe::GlobalPrefix(e));
            }
        }
    }
    for ((name, parent), prefix) in groups.into_iter().zip(calls) {
        out.push(Fe::Group {
            name,
            prefix,
            parent,
        });
    }
    out
}

fn link(facts: &Facts) -> Vec<Endpoint> {
    let files = scan::split(facts).files;
    let idx = Index::new(&files);
    let fe: Vec<Fe> = facts.iter::<Fe>().collect();
    let global = fe
        .iter()
        .find_map(|f| match f {
            Fe::GlobalPrefix(e) => idx.eval(None, e),
            _ => None,
        })
        .unwrap_or_default();
    let group_of = |name: &str| {
        fe.iter().find_map(|f| match f {
            Fe::Group {
                name: n,
                prefix,
                parent,
            } if n == name => Some((prefix, parent.clone())),
            _ => None,
        })
    };
    let mut out = Vec::new();
    for f in &fe {
        let Fe::Endpoint {
            path,
            ty,
            decls,
            group,
            prefix,
            form,
        } = f
        else {
            continue;
        };
        // The endpoint class of its own file: features often repeat a
        // class name (`GetById` in `Projects/` and `Contributors/`).
        let file = files.iter().position(|f| f.path == *path);
        let id = idx.find(ty, file);
        let near = id.map(|i| i.0);
        let mut segs = vec![match prefix {
            Some(e) => idx.eval(id, e).unwrap_or_default(),
            None => global.clone(),
        }];
        // Group prefixes, outermost first.
        let mut chain = Vec::new();
        let mut g = group.clone();
        while let Some(name) = g.take() {
            if chain.len() > 8 {
                break;
            }
            if let Some((e, parent)) = group_of(&name) {
                let gid = idx.find(&name, near);
                chain.push(idx.eval(gid, e).unwrap_or_default());
                g = parent;
            }
        }
        segs.extend(chain.into_iter().rev());
        let request = id.and_then(|i| request_type(&idx, i));
        let handler_reads = id
            .map(|i| {
                idx.ty(i)
                    .methods
                    .iter()
                    .filter(|m| matches!(m.name.as_str(), "HandleAsync" | "ExecuteAsync"))
                    .flat_map(|m| reads(&idx, &m.reads, near))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        for d in decls {
            for r in &d.routes {
                let Some(route) = idx.eval(id, r) else {
                    continue;
                };
                let mut parts = segs.clone();
                parts.push(route);
                let url = join_path(&parts);
                let holes = placeholders(&url);
                for m in &d.methods {
                    let mut e = Endpoint::new(m, url.clone()).at_path(path.clone(), d.line);
                    if let Some(req) = request {
                        for p in dto_params(&idx, req, m, &holes, *form) {
                            e.push_param(p);
                        }
                    }
                    for p in &handler_reads {
                        e.push_param(p.clone());
                    }
                    out.push(e);
                }
            }
        }
    }
    out
}

/// The request DTO named by the endpoint's base type arguments.
fn request_type(idx: &Index, id: TypeId) -> Option<TypeId> {
    let ty = idx.ty(id);
    ty.bases.iter().zip(&ty.base_args).find_map(|(b, args)| {
        let generic_request = matches!(
            b.as_str(),
            "Endpoint" | "EndpointWithMapping" | "EndpointWithMapper" | "Req"
        );
        let arg = args.first().filter(|_| generic_request)?;
        idx.find(arg, Some(id.0))
    })
}

fn literal_arg(a: &outline::Attr, names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| a.named(n))
        .or_else(|| a.positional(0))
        .and_then(|x| x.expr.as_ref())
        .and_then(|e| e.literal())
}

fn dto_params(idx: &Index, req: TypeId, method: &str, holes: &[String], form: bool) -> Vec<Param> {
    let mut props: Vec<&Prop> = Vec::new();
    for t in idx.lineage(req).into_iter().rev() {
        props.extend(idx.ty(t).props.iter());
    }
    let mut out: Vec<Param> = Vec::new();
    for p in props {
        let has = |n: &str| attr(&p.attrs, n).is_some();
        if has("FromClaim") || has("FromServices") || has("JsonIgnore") || has("HasPermission") {
            continue;
        }
        let bound = attr(&p.attrs, "BindFrom").and_then(|a| literal_arg(a, &["name"]));
        let name = bound.clone().unwrap_or_else(|| p.name.clone());
        let param = if let Some(a) = attr(&p.attrs, "FromHeader") {
            Param::header(literal_arg(a, &["headerName"]).unwrap_or(name))
        } else if let Some(h) = holes.iter().find(|h| h.eq_ignore_ascii_case(&name)) {
            Param::path(h.clone())
        } else if has("QueryParam") || has("FromQuery") {
            Param::query(name)
        } else if form {
            if is_file_type(&p.ty) {
                Param::file(name)
            } else {
                Param::form(name)
            }
        } else if matches!(method, "GET" | "HEAD" | "DELETE" | "OPTIONS") {
            Param::query(name)
        } else {
            let json = attr(&p.attrs, "JsonPropertyName")
                .and_then(|a| literal_arg(a, &["name"]))
                .or(bound)
                .unwrap_or_else(|| camel(&p.name));
            Param::json(json)
        };
        if !out.contains(&param) {
            out.push(param);
        }
    }
    out
}
