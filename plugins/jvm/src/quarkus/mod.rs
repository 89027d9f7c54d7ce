//! Quarkus REST / RESTEasy Reactive (`java_quarkus`).
//!
//! The JAX-RS analysis of [`crate::jaxrs`] (resources, inherited and
//! generated API interfaces, sub-resource locators, `@ApplicationPath`,
//! `@QueryParam`… and RESTEasy Reactive's `@RestQuery`, `@RestPath`,
//! `@RestHeader`, `@RestCookie`, `@RestForm` (file for `FileUpload`)),
//! over the modules that are Quarkus applications: an `io.quarkus` /
//! `org.jboss.resteasy.reactive` import, a `quarkus.*` configuration key or
//! a build file naming Quarkus. `quarkus.http.root-path`, then
//! `quarkus.rest.path` (`quarkus.resteasy-reactive.path`,
//! `quarkus.resteasy.path`) from `application.properties`/`.yml` prefix
//! every resource.

use portolan_plugin_sdk::prelude::*;

use crate::jaxrs::{self, link::Flavor};

pub struct JavaQuarkus;

impl Analyzer for JavaQuarkus {
    fn tech(&self) -> Tech {
        Tech::new("java_quarkus", "Java", "Quarkus")
            .aliases(["quarkus"])
            .files(jaxrs::FILES)
            .detect(
                Detect::files(["*.java"]).contains(["io.quarkus", "org.jboss.resteasy.reactive"]),
            )
            .detect(
                Detect::files(["pom.xml", "build.gradle", "build.gradle.kts"])
                    .contains(["io.quarkus"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        jaxrs::analyze(file, out, false);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(jaxrs::link::link(facts.all(), Flavor::Quarkus))
    }
}
