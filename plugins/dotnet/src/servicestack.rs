//! ServiceStack (`cs_servicestack`).
//!
//! - Routes live on request DTOs: `[Route("/users/{Id}", "GET POST")]`,
//!   `[Route("/users", Verbs = "GET")]`, several per DTO; or are added
//!   fluently in the AppHost: `Routes.Add<GetUser>("/users/{Id}", "GET")`.
//!   Paths are literals, constants or concatenations. Each endpoint is
//!   located at its attribute (or `Add` call).
//! - Methods: the attribute's verbs (space or comma separated); without
//!   them, the verbs of the service methods handling the DTO in any file
//!   (`public object Get(GetUser request)` in a class deriving `Service`
//!   or implementing `IService`; `GetAsync` too); for DTOs no service
//!   handles, their `IGet`/`IPost`/`IPut`/`IDelete`/`IPatch` markers, GET
//!   for AutoQuery DTOs (`QueryDb<T>`); `Any(…)` and the remaining DTOs are
//!   reported as GET, POST, PUT, PATCH and DELETE.
//! - Prefix: `HandlerFactoryPath = "api"` (HostConfig) or `PathBase =
//!   "/api"` (AppHost on ASP.NET Core), in any file.
//! - Parameters: the DTO's properties (base classes included) — route
//!   placeholders → path (`{Id}`, case-insensitive), otherwise query for
//!   GET, HEAD, DELETE and OPTIONS and JSON (names as declared) for the
//!   other methods; `[ApiMember(ParameterType = "header" | "query" |
//!   "form" | "body" | "path")]` overrides the kind and `[ApiMember(Name =
//!   …)]` / `[DataMember(Name = …)]` the name; `[IgnoreDataMember]` skipped.
//!   Request values the handling method reads (`Request.QueryString["q"]`,
//!   `Request.Headers["X"]`, …) are added.
//!
//! Not handled: the predefined `/json/reply/{Dto}` routes (every DTO is
//! reachable there), AutoQuery DTOs without `[Route]` and the query
//! fields AutoQuery infers from the data model, and
//! `[FallbackRoute]`.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cs::expr::Expr;
use crate::cs::index::{simple, Index, TypeId};
use crate::cs::is_test_code;
use crate::cs::outline::{self, attr, Attr, Method, Prop};
use crate::cs::params::{placeholders, reads};
use crate::cs::tokens::{close_of, split_commas, Kind};
use crate::minimal::ANY_METHODS;
use crate::scan;

pub struct ServiceStack;

impl Analyzer for ServiceStack {
    fn tech(&self) -> Tech {
        Tech::new("cs_servicestack", "C#", "ServiceStack")
            .aliases(["servicestack", "service-stack"])
            .files(["*.cs"])
            .detect(Detect::files(["*.cs"]).contains(["using ServiceStack"]))
            .detect(Detect::files(["*.csproj"]).contains(["\"ServiceStack"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_code(&file.path, &file.content) {
            return;
        }
        let (outline, toks) = outline::parse(file);
        let line = |k: usize| toks.get(k).map_or(1, |x| file.line_of(x.start));
        for k in 0..toks.len() {
            let t = &toks[k];
            if t.kind != Kind::Ident {
                continue;
            }
            // `Routes.Add<GetUser>("/users/{Id}", "GET")`
            if t.text == "Add"
                && k > 0
                && toks[k - 1].is('.')
                && toks.get(k + 1).is_some_and(|x| x.is('<'))
            {
                let Some(gt) = close_of(&toks, k + 1) else {
                    continue;
                };
                let Some(dto) = toks
                    .get(k + 2..gt)
                    .and_then(|g| g.iter().rev().find(|x| x.kind == Kind::Ident))
                else {
                    continue;
                };
                if !toks.get(gt + 1).is_some_and(|x| x.is('(')) {
                    continue;
                }
                let close = close_of(&toks, gt + 1).unwrap_or(toks.len());
                let args: Vec<Option<Expr>> = split_commas(&toks, gt + 2, close)
                    .into_iter()
                    .map(|r| toks.get(r).and_then(crate::cs::expr::parse))
                    .collect();
                if let Some(Some(path)) = args.first() {
                    out.fact(&Ss::Fluent {
                        path: file.path.clone(),
                        dto: dto.text.clone(),
                        route: path.clone(),
                        verbs: args.get(1).cloned().flatten(),
                        line: line(k),
                    });
                }
            }
            // `HandlerFactoryPath = "api"`, `PathBase = "/api"`
            if matches!(t.text.as_str(), "HandlerFactoryPath" | "PathBase")
                && toks.get(k + 1).is_some_and(|x| x.is('='))
                && !toks.get(k + 2).is_some_and(|x| x.is('='))
            {
                let stop = (k + 2..toks.len())
                    .find(|&i| toks[i].is(';') || toks[i].is(',') || toks[i].is('}'))
                    .unwrap_or(toks.len());
                if let Some(e) = toks.get(k + 2..stop).and_then(crate::cs::expr::parse) {
                    out.fact(&Ss::Prefix(e));
                }
            }
        }
        if !outline.types.is_empty() {
            out.fact(&scan::Fact::File(outline));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ss {
    Fluent {
        path: String,
        dto: String,
        route: Expr,
        #[serde(default)]
        verbs: Option<Expr>,
        line: u32,
    },
    Prefix(Expr),
}

const VERBS: &[&str] = &[
    "Get", "Post", "Put", "Delete", "Patch", "Head", "Options", "Any",
];

/// A route of a DTO: (file, line, path, verbs given).
struct RouteDecl {
    file: String,
    line: u32,
    route: String,
    verbs: Option<String>,
}

fn link(facts: &Facts) -> Vec<Endpoint> {
    let files = scan::split(facts).files;
    let idx = Index::new(&files);
    let ss: Vec<Ss> = facts.iter::<Ss>().collect();
    let prefix = ss
        .iter()
        .find_map(|f| match f {
            Ss::Prefix(e) => idx.eval(None, e),
            _ => None,
        })
        .unwrap_or_default();
    // DTO name → (verb, handling method) from the services.
    let mut handlers: HashMap<String, Vec<(String, &Method, TypeId)>> = HashMap::new();
    for id in idx.all() {
        let ty = idx.ty(id);
        if ty.is_abstract() || !idx.derives(id, &|b| b == "Service" || b == "IService") {
            continue;
        }
        for m in &ty.methods {
            let base = m.name.strip_suffix("Async").unwrap_or(&m.name);
            if !m.has("public") || !VERBS.contains(&base) || m.params.is_empty() {
                continue;
            }
            let Some(p) = m.params.first() else { continue };
            handlers
                .entry(simple(&p.ty).to_string())
                .or_default()
                .push((base.to_ascii_uppercase(), m, id));
        }
    }
    // Routes per DTO.
    let mut routes: Vec<(TypeId, RouteDecl)> = Vec::new();
    for id in idx.all() {
        let ty = idx.ty(id);
        let controller = ty.name.ends_with("Controller")
            || ty
                .bases
                .iter()
                .any(|b| b.ends_with("Controller") || b == "ControllerBase");
        if controller {
            continue;
        }
        for a in ty.attrs.iter().filter(|a| a.name == "Route") {
            let Some(route) = arg(a, 0, "Path").and_then(|e| idx.eval(Some(id), e)) else {
                continue;
            };
            let verbs = arg(a, 1, "Verbs").and_then(|e| idx.eval(Some(id), e));
            routes.push((
                id,
                RouteDecl {
                    file: idx.path(id).to_string(),
                    line: a.line,
                    route,
                    verbs,
                },
            ));
        }
    }
    for f in &ss {
        if let Ss::Fluent {
            path,
            dto,
            route,
            verbs,
            line,
        } = f
        {
            let Some(id) = idx.find(dto, None) else {
                continue;
            };
            let Some(route) = idx.eval(None, route) else {
                continue;
            };
            routes.push((
                id,
                RouteDecl {
                    file: path.clone(),
                    line: *line,
                    route,
                    verbs: verbs.as_ref().and_then(|v| idx.eval(None, v)),
                },
            ));
        }
    }
    let mut out = Vec::new();
    for (id, r) in routes {
        let dto = idx.ty(id).name.as_str();
        let served = handlers.get(dto).map(Vec::as_slice).unwrap_or_default();
        let methods: Vec<String> = match &r.verbs {
            Some(v) => v
                .split([' ', ','])
                .filter(|s| !s.is_empty())
                .map(str::to_ascii_uppercase)
                .flat_map(|s| expand(&s))
                .collect(),
            None if served.is_empty() => marker_verbs(&idx, id),
            None => {
                let mut ms: Vec<String> = Vec::new();
                for (v, _, _) in served {
                    for m in expand(v) {
                        if !ms.contains(&m) {
                            ms.push(m);
                        }
                    }
                }
                ms
            }
        };
        let url = join_path(&[prefix.as_str(), r.route.as_str()]);
        let holes = placeholders(&url);
        for m in methods {
            let mut e = Endpoint::new(&m, url.clone()).at_path(r.file.clone(), r.line);
            for p in dto_params(&idx, id, &m, &holes) {
                e.push_param(p);
            }
            for (v, hm, sid) in served {
                if *v == m || v == "ANY" {
                    for p in reads(&idx, &hm.reads, Some(sid.0)) {
                        e.push_param(p);
                    }
                }
            }
            out.push(e);
        }
    }
    out
}

/// Verbs of a DTO no service handles: its `IGet`/`IPost`/… markers, GET
/// for AutoQuery (`QueryDb<T>`, `QueryData<T>`), else any.
fn marker_verbs(idx: &Index, id: TypeId) -> Vec<String> {
    let bases = &idx.ty(id).bases;
    let mut out: Vec<String> = bases
        .iter()
        .filter_map(|b| match b.as_str() {
            "IGet" => Some("GET"),
            "IPost" => Some("POST"),
            "IPut" => Some("PUT"),
            "IDelete" => Some("DELETE"),
            "IPatch" => Some("PATCH"),
            "IOptions" => Some("OPTIONS"),
            "QueryDb" | "QueryData" => Some("GET"),
            _ => None,
        })
        .map(str::to_string)
        .collect();
    out.dedup();
    if out.is_empty() {
        out = expand("ANY");
    }
    out
}

fn expand(verb: &str) -> Vec<String> {
    if verb == "ANY" {
        ANY_METHODS.iter().map(|s| s.to_string()).collect()
    } else {
        vec![verb.to_string()]
    }
}

fn arg<'a>(a: &'a Attr, n: usize, name: &str) -> Option<&'a Expr> {
    a.named(name)
        .or_else(|| a.positional(n))
        .and_then(|x| x.expr.as_ref())
}

fn literal(a: &Attr, name: &str) -> Option<String> {
    a.named(name)?.expr.as_ref()?.literal()
}

fn dto_params(idx: &Index, dto: TypeId, method: &str, holes: &[String]) -> Vec<Param> {
    let mut props: Vec<&Prop> = Vec::new();
    for t in idx.lineage(dto).into_iter().rev() {
        props.extend(idx.ty(t).props.iter());
    }
    let mut out: Vec<Param> = Vec::new();
    for p in props {
        if attr(&p.attrs, "IgnoreDataMember").is_some() {
            continue;
        }
        let api = attr(&p.attrs, "ApiMember");
        let name = api
            .and_then(|a| literal(a, "Name"))
            .or_else(|| attr(&p.attrs, "DataMember").and_then(|a| literal(a, "Name")))
            .unwrap_or_else(|| p.name.clone());
        let declared = api.and_then(|a| literal(a, "ParameterType"));
        let param = match declared.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("header") => Param::header(name),
            Some("query") => Param::query(name),
            Some("form") => Param::form(name),
            Some("body" | "model") => Param::json(name),
            Some("path") => Param::path(name),
            _ => {
                if let Some(h) = holes.iter().find(|h| h.eq_ignore_ascii_case(&name)) {
                    Param::path(h.clone())
                } else if matches!(method, "GET" | "HEAD" | "DELETE" | "OPTIONS") {
                    Param::query(name)
                } else {
                    Param::json(name)
                }
            }
        };
        if !out.contains(&param) {
            out.push(param);
        }
    }
    out
}
