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

/// A builder-style framework's analyzer: its unit struct and an
/// [`Analyzer`] detected by the crate among the `Cargo.toml` dependencies,
/// scanning and linking with the shared router scan driven by the calling
/// module's `FRAMEWORK`.
/// `router_analyzer!(Tide, "rust_tide", "Tide", ["tide"], "tide");`
macro_rules! router_analyzer {
    ($ty:ident, $id:literal, $name:literal, [$($alias:literal),*], $krate:literal) => {
        pub struct $ty;

        impl portolan_plugin_sdk::Analyzer for $ty {
            fn tech(&self) -> portolan_plugin_sdk::Tech {
                portolan_plugin_sdk::Tech::new($id, "Rust", $name)
                    .aliases([$($alias),*])
                    .files($crate::rs::FILES.iter().copied())
                    .detect(
                        portolan_plugin_sdk::Detect::files(["Cargo.toml"])
                            .regex([concat!(r"(?s)dependencies.*\b", $krate, r"\b")]),
                    )
            }

            fn analyze(
                &self,
                file: &portolan_plugin_sdk::SourceFile,
                out: &mut portolan_plugin_sdk::Output,
            ) {
                $crate::rs::router::analyze(file, out, &FRAMEWORK);
            }

            fn link(
                &self,
                facts: &portolan_plugin_sdk::Facts,
            ) -> Result<Vec<portolan_plugin_sdk::Endpoint>, String> {
                $crate::rs::router::link(facts)
            }
        }
    };
}
pub(crate) use router_analyzer;
