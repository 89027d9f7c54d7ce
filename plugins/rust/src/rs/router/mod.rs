//! The shared router scanner (map step, [`scan`]) and linker (reduce step,
//! [`link`]) behind every builder-style Rust framework. A framework plugs
//! in with one [`framework::Framework`] value in its own module: its
//! builder vocabulary (Axum `route`/`nest`/`merge`, Actix
//! `service`/`configure`/`web::scope`, Rocket `mount`/`routes!`, Poem
//! `at`/`nest`) and hooks for what only it does (attribute routes, scoped
//! modules, whole-chain readers); attribute-routed handlers become
//! one-route routers that `.service(h)`/`routes![h]` merge.

pub mod framework;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

/// The map step of a builder-style framework: the file's router facts.
pub fn analyze(file: &SourceFile, out: &mut Output, fw: &'static framework::Framework) {
    if super::is_source(file) {
        out.fact(&scan::scan_file(file, fw));
    }
}

/// The reduce step: every router's endpoints.
pub fn link(facts: &Facts) -> Result<Vec<Endpoint>, String> {
    Ok(link::Linker::new(facts.all()).endpoints())
}
