//! Helidon MP (`java_helidon_mp`).
//!
//! The JAX-RS analysis of [`crate::jaxrs`] over the modules that are
//! Helidon MP applications: an `io.helidon.microprofile` import or a build
//! file naming `helidon-microprofile` (`io.helidon.microprofile.bundles`).
//! The `@ApplicationPath` of the module's `Application` subclass prefixes
//! every resource.

use portolan_plugin_sdk::prelude::*;

use crate::jaxrs::{self, link::Flavor};

pub struct JavaHelidonMp;

impl Analyzer for JavaHelidonMp {
    fn tech(&self) -> Tech {
        Tech::new("java_helidon_mp", "Java", "Helidon MP")
            .aliases(["helidon-mp", "helidon_mp"])
            .files(jaxrs::FILES)
            .detect(Detect::files(["*.java"]).contains(["io.helidon.microprofile"]))
            .detect(
                Detect::files(["pom.xml", "build.gradle", "build.gradle.kts"])
                    .contains(["helidon-microprofile", "io.helidon.microprofile"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        jaxrs::analyze(file, out, false);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(jaxrs::link::link(facts.all(), Flavor::HelidonMp))
    }
}
