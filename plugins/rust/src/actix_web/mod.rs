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

use portolan_plugin_sdk::prelude::*;

use crate::rs::router::link::Linker;
use crate::rs::router::scan::scan_file;
use crate::rs::{skipped_path, FILES};

use crate::rs::router::framework::Framework;
/// Actix's builder vocabulary and hooks for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: &["route", "service", "configure"],
    scoped_modules: Some(builder::scoped_modules),
    openapi_impls: false,
    utoipa: false,
    handler_reads: None,
    attribute_routes: Some(builder::attribute_routes),
    split_uri: None,
    needs_constructor: false,
    route_list: None,
    scope_root: Some(builder::scope_or_resource),
    scope_constructors: &["scope", "resource"],
    chain_op: Some(builder::chain_op),
    chain_segments: None,
};

pub struct ActixWeb;

impl Analyzer for ActixWeb {
    fn tech(&self) -> Tech {
        Tech::new("rust_actix_web", "Rust", "Actix Web")
            .aliases(["actix-web", "actix_web", "actix"])
            .files(FILES.iter().copied())
            .detect(Detect::files(["Cargo.toml"]).regex([r"(?s)dependencies.*\bactix-web\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if !path.ends_with(".rs") || skipped_path(&path) {
            return;
        }
        out.fact(&scan_file(file, &FRAMEWORK));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(Linker::new(facts.all()).endpoints())
    }
}
