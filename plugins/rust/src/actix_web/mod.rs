//! Actix Web (`rust_actix_web`).
//!
//! Routes: handler attribute macros `#[get("/x")]`, `#[post]`, `#[put]`,
//! `#[delete]`, `#[patch]`, `#[head]`, `#[options]`, `#[trace]`,
//! `#[connect]` and `#[route("/x", method = "GET", method = "POST")]`
//! (prefixed by `#[scope("/p")]` on the enclosing inline `mod`s),
//! registered with `.service(handler)` on an `App`, a `web::scope` or a
//! `ServiceConfig` (the scope prefixes apply; a handler never registered is
//! reported at its own path); builders `App::new()`/`web::scope("/p")`/
//! `cfg` chains of `.route("/x", web::get().to(h))`,
//! `.service(web::scope(…))`, `.service(web::resource("/x").route(…))`,
//! `.service(scope_variable)` and `.configure(config_fn)` with the
//! configuration functions (`fn config(cfg: &mut web::ServiceConfig)`) in
//! other modules. `web::resource(..).to(h)` and `web::route().to(h)`
//! accept every method: reported as GET, POST, PUT, PATCH and DELETE.
//!
//! Paths: literals (macros), `const` `&str` constants, `format!`/`concat!`
//! in builders.
//!
//! Handler parameters: `web::Path<T>`/`web::Query<T>`/`web::Json<T>`/
//! `web::Form<T>` struct fields (serde renames honoured), `HttpRequest`
//! reads (`req.headers().get("x")` → header, `req.cookie("c")` → cookie),
//! `Multipart` (a `file` param).
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items (`#[actix_web::test]` modules included).

pub mod builder;

use crate::rs::router;

use crate::rs::router::framework::Framework;
/// Actix's builder vocabulary and hooks for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: &["route", "service", "configure"],
    scoped_modules: Some(builder::scoped_modules),
    attribute_routes: Some(builder::attribute_routes),
    scope_root: Some(builder::scope_or_resource),
    scope_constructors: &["scope", "resource"],
    chain_op: Some(builder::chain_op),
    ..Framework::BASE
};

router::router_analyzer!(
    ActixWeb,
    "rust_actix_web",
    "Actix Web",
    ["actix-web", "actix_web", "actix"],
    "actix-web"
);
