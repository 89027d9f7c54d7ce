//! Dropwizard (`java_dropwizard`).
//!
//! The JAX-RS analysis of [`crate::jaxrs`] over the modules that are
//! Dropwizard applications (an `io.dropwizard` import or build
//! dependency). Every `@Path` resource of the module is reported, whether
//! it is registered with `environment.jersey().register(new X(…))` or
//! through a bundle or DI container. The prefix comes from the YAML
//! configuration of the module (`config.yml`, any YAML file other than
//! Spring's `application*.yml`): `server.applicationContextPath` (default
//! `/application` for `server.type: simple`) then `server.rootPath`
//! (`/api/*` → `/api`).

use portolan_plugin_sdk::prelude::*;

use crate::jaxrs::{self, link::Flavor};

pub struct JavaDropwizard;

impl Analyzer for JavaDropwizard {
    fn tech(&self) -> Tech {
        let mut files = jaxrs::FILES.to_vec();
        files.extend(["*.yml", "*.yaml"]);
        Tech::new("java_dropwizard", "Java", "Dropwizard")
            .aliases(["dropwizard"])
            .files(files)
            .detect(Detect::files(["*.java"]).contains(["io.dropwizard"]))
            .detect(
                Detect::files(["pom.xml", "build.gradle", "build.gradle.kts"])
                    .contains(["io.dropwizard"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        jaxrs::analyze(file, out, true);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(jaxrs::link::link(facts.all(), Flavor::Dropwizard))
    }
}
