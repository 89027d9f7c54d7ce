//! Axum (`rust_axum`).
//!
//! Routers: `Router::new()` chains (also `Router::<S>::new()`, `let`
//! variables extended later with `app = app.route(…)`) of
//! `.route(path, method_router)`, `.route_service(path, svc)` (GET),
//! `.nest(prefix, router)`, `.nest_service(prefix, svc)` (GET on the prefix
//! unless the service is a router we can see) and `.merge(router)`. Nested
//! and merged routers are followed through local variables, inline
//! `Router::new()` expressions and functions of other modules or crates
//! (`api::routes()`, `routes(state.clone())`, also bound to a variable
//! first: `let v1 = v1::router(cfg).with_state(s); … .nest("/v1", v1)`),
//! or called as a method on a value of unknown type
//! (`.merge(authorizer.new_router())`: every function of that name
//! returning routes, e.g. each implementation of a trait method), whose
//! returned router is the tail `Router::new()…` chain, tail variable, or
//! tail call of another router function
//! (`fn new_router(&self) -> Router { api::routes() }`). A router that no
//! other router nests or merges is a root.
//!
//! aide's documented routers read the same way: `ApiRouter::new()` with
//! `.api_route(path, get_with(h, docs).post_with(h2, docs))`,
//! `.api_route_with(path, method_router, transform)` and
//! `.nest_api_service(prefix, router)`; `*_with` method routers are their
//! plain counterparts (the docs closure is not a handler).
//!
//! Method routers: `get(h).post(h2)`, `routing::get(h)`, `get_service(s)`,
//! `on(MethodFilter::GET | MethodFilter::POST, h)` and `any(h)`, reported
//! as GET, POST, PUT, PATCH and DELETE (Axum accepts every method).
//!
//! Paths: literals, `const`/`static` `&str` constants (any module),
//! `format!`/`concat!`, and route tables of enum variants with a method
//! and a path (`GetUser(GET, "/v1/users/{id}")`, usually fed to a macro
//! generating the enum) read through an accessor
//! (`Endpoint::GetUser.path()`, or one slicing a literal prefix off:
//! `&self.path()["/v1".len()..]`); Axum 0.7 `/:id` and 0.8 `/{id}` placeholders are
//! kept as written (the host unifies them).
//!
//! Handler parameters, from the signature: `Query<T>`/`Json<T>`/`Form<T>`
//! (also the application's own wrappers named after them:
//! `ValidatedJson<T>`, `ValidatedQuery<T>`; fields of struct `T`, wherever
//! defined, after serde `rename`,
//! `rename_all`, `skip` and `flatten`), `Path<T>` with a struct (its
//! fields; tuples and scalars come from the URL), `TypedHeader<H>` (header
//! `H` in Hyphen-Case), `HeaderMap` (`headers.get("x")`,
//! `headers.get(header::X)`), `CookieJar` (`jar.get("c")`) and `Multipart`
//! (a `file` param).
//!
//! Not scanned: `tests/`, `benches/`, `examples/` (demo programs, not the
//! service), other test paths, and every `#[cfg(test)]` item.

use portolan_plugin_sdk::prelude::*;

use crate::rs::router::{link, scan};
use crate::rs::{is_source, FILES};

use crate::rs::router::framework::Framework;
/// Axum's builder vocabulary for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: scan::AXUM_OPS,
    utoipa: true,
    ..Framework::BASE
};

pub struct Axum;

impl Analyzer for Axum {
    fn tech(&self) -> Tech {
        Tech::new("rust_axum", "Rust", "Axum")
            .aliases(["axum"])
            .files(FILES.iter().copied())
            .detect(Detect::files(["Cargo.toml"]).regex([r"(?s)dependencies.*\baxum\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !is_source(file) {
            return;
        }
        let facts = scan::scan_file(file, &FRAMEWORK);
        if facts.fns.iter().any(|f| {
            !f.routers.is_empty()
                || !f.bodies.is_empty()
                || !f.direct.is_empty()
                || f.utoipa.is_some()
        }) || !facts.consts.is_empty()
            || !facts.structs.is_empty()
        {
            out.fact(&facts);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::Linker::new(facts.all()).endpoints())
    }
}
