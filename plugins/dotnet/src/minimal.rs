//! ASP.NET Core Minimal APIs (`cs_aspnet_core_minimal_api`).
//!
//! - `MapGet/MapPost/MapPut/MapDelete/MapPatch(pattern, handler)`,
//!   `MapMethods(pattern, new[] { "GET", … }, handler)` and `Map(pattern,
//!   handler)`, which serves any method and is reported as GET, POST, PUT,
//!   PATCH and DELETE, each tagged `any_method`.
//! - Prefixes from `MapGroup` chains and variables, also when a group is
//!   passed to a method in another file (`app.MapGroup("/todos").MapTodos()`,
//!   `TodoApi.Map(api)`); see [`crate::cs::flow`] and [`crate::cs::mounts`].
//!   Patterns may use constants and interpolated strings.
//! - Endpoint groups discovered by reflection: a method that walks the
//!   types assignable to `typeof(IEndpointGroup)` and maps
//!   `app.MapGroup($"/api/{type.Name}")` for each gives every such type's
//!   `Map(RouteGroupBuilder group)` the prefix with the type's name; and
//!   handler-first overloads a project declares over `MapGet` & co.
//!   (`group.MapGet(GetTodo, "{id}")`, the pattern defaulting to "").
//! - `MapIdentityApi<TUser>()`: the Identity API endpoints (`/register`,
//!   `/login`, `/refresh`, `/confirmEmail`, `/manage/info`, …) with the
//!   request fields each reads.
//! - Parameters of the handler, a lambda or a method group (a class method,
//!   or a local function of the top-level statements as the TypedResults
//!   tutorial writes them: `todoItems.MapGet("/{id}", GetTodo);` with
//!   `static async Task<IResult> GetTodo(int id, TodoDb db)`), by the binding
//!   rules of [`crate::cs::params`] (the body is inferred for complex
//!   types), and request values its body reads
//!   (`ctx.Request.Query["q"]`, `.Headers["X"]`, `ReadFromJsonAsync<T>()`).
//!
//! Routes inside Carter modules are left to `cs_carter` ([`crate::carter`]).
//!
//! Route constraints (`{id:int}`) are kept as written. Test projects
//! (`*.Tests/`, `WebApplicationFactory` users) are skipped.

use portolan_plugin_sdk::prelude::*;

use crate::cs::flow::{Route, Verb};
use crate::cs::index::Index;
use crate::cs::mounts::Mounts;
use crate::cs::params::{bind, placeholders, reads, Binding};
use crate::scan;

pub const ANY_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

pub struct MinimalApi;

impl Analyzer for MinimalApi {
    fn tech(&self) -> Tech {
        Tech::new(
            "cs_aspnet_core_minimal_api",
            "C#",
            "ASP.NET Core Minimal API",
        )
        .aliases(["minimal-api", "aspnet-minimal-api", "minimal_api"])
        .files(["*.cs"])
        .detect(Detect::files(["*.cs"]).contains([
            ".MapGet(",
            ".MapPost(",
            ".MapPut(",
            ".MapDelete(",
            ".MapPatch(",
            ".MapMethods(",
            ".MapGroup(",
            ".MapIdentityApi<",
        ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts))
    }
}

pub fn link(facts: &Facts) -> Vec<Endpoint> {
    // Routes of Carter modules belong to `cs_carter`.
    link_with(facts, &|idx, r| {
        (!crate::carter::in_module(idx, r)).then(String::new)
    })
}

/// The endpoints of the `Map…` routes `select` keeps, below the base path
/// it returns for each.
pub fn link_with(
    facts: &Facts,
    select: &dyn Fn(&Index, &Route) -> Option<String>,
) -> Vec<Endpoint> {
    let f = scan::split(facts);
    let idx = Index::new(&f.files);
    let mounts = Mounts::new(&idx, &f.calls).with_groups(&f.groups);
    let mut out = Vec::new();
    for r in &f.routes {
        let Some(base) = select(&idx, r) else {
            continue;
        };
        let methods: Vec<String> = match &r.verb {
            Verb::Methods(m) => m.clone(),
            Verb::Any => ANY_METHODS.iter().map(|s| s.to_string()).collect(),
            _ => continue,
        };
        let (hparams, hreads, near) = match mounts.handler_method(r, &r.handler) {
            Some((id, m)) => (m.params.clone(), m.reads.clone(), Some(id.0)),
            None => (r.handler.params.clone(), r.handler.reads.clone(), None),
        };
        let guard = if r.anonymous {
            None
        } else {
            match &r.guard {
                Some((n, l)) => Some((n.clone(), *l, r.path.clone())),
                None => mounts.guard(&r.func, &r.at, &r.path, 0),
            }
        };
        for url in mounts.route_urls(r) {
            let url = if base.is_empty() {
                url
            } else {
                join_path(&[base.as_str(), url.as_str()])
            };
            let route = placeholders(&url);
            for method in &methods {
                let b = Binding {
                    route: &route,
                    method,
                    infer_body: true,
                    near,
                };
                let mut e = Endpoint::new(method, url.clone()).at_path(r.path.clone(), r.line);
                if matches!(r.verb, Verb::Any) {
                    e = e.tag(Tag::any_method());
                }
                for p in &hparams {
                    for x in bind(&idx, p, &b) {
                        e.push_param(x);
                    }
                }
                for x in reads(&idx, &hreads, near) {
                    e.push_param(x);
                }
                if let Some((name, line, path)) = guard.as_ref() {
                    let kind = if name.contains('"') {
                        "authz_guard"
                    } else {
                        "auth_guard"
                    };
                    e.push_guard(kind, name, "call", path, *line);
                }
                out.push(e);
            }
        }
    }
    out
}
