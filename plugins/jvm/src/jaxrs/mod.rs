//! JAX-RS (`java_jaxrs`): Jersey, RESTEasy, CXF, and the JAX-RS side of
//! Quarkus, Dropwizard, Helidon MP, Open Liberty…
//!
//! - Resources: classes with `@Path` (also inherited from an interface or
//!   superclass in another file) and their methods annotated `@GET`,
//!   `@POST`, `@PUT`, `@DELETE`, `@PATCH`, `@HEAD`, `@OPTIONS` (or a custom
//!   annotation meta-annotated `@HttpMethod("X")`), with an optional
//!   method-level `@Path`. Method annotations are inherited from
//!   interfaces and superclasses when the implementation does not repeat
//!   them. An interface or abstract class with `@Path` is reported by
//!   itself only when no concrete class in the tree implements it.
//! - Sub-resource locators: a method with `@Path` and no HTTP method
//!   annotation mounts the resource class it returns under its path.
//! - The servlet mapping of the module's JAX-RS servlet (in code on an
//!   embedded Jetty/Undertow/Tomcat, or in `web.xml`, see [`servlet`])
//!   wins over its `@ApplicationPath`, as in the servlet container.
//! - `@ApplicationPath` of the module (see [`crate::jvm::config`] for
//!   modules), and Quarkus' `quarkus.http.root-path` and
//!   `quarkus.rest.path` / `quarkus.resteasy.path`, prefix every resource.
//! - Parameters: `@QueryParam`, `@PathParam`, `@HeaderParam`,
//!   `@CookieParam`, `@FormParam` (and RESTEasy `@RestForm`/`@RestQuery`…,
//!   Jersey `@FormDataParam`, file for stream/file types), `@DefaultValue`
//!   as the value, `@BeanParam` beans (their annotated fields), and the
//!   unannotated entity parameter → the DTO fields as json (form when the
//!   method or class `@Consumes` a form). `@Context` parameters are
//!   skipped. Constants in paths are resolved as for Spring.
//!
//! Modules run by Quarkus, Helidon MP or Dropwizard (imports, build files
//! or `quarkus.*` configuration naming them, see [`link::Flavor`]) are left
//! to `java_quarkus`, `java_helidon_mp` and `java_dropwizard`, which share
//! this analysis.

pub mod link;
pub mod servlet;

use portolan_plugin_sdk::prelude::*;

use crate::jvm::config::{module_root, parse_yaml_any};
use crate::spring::scan::Fact;
use link::Flavor;

/// Build files read for [`Flavor`] markers.
pub const BUILD_FILES: [&str; 3] = ["pom.xml", "build.gradle", "build.gradle.kts"];

/// The map step of every JAX-RS flavor: sources and Spring-style
/// configuration, build files (flavor markers) and, with `yaml_config`,
/// the `server.*` keys of other YAML files (Dropwizard's `config.yml`).
pub fn analyze(file: &SourceFile, out: &mut Output, yaml_config: bool) {
    let name = file.path.rsplit('/').next().unwrap_or(&file.path);
    if BUILD_FILES.contains(&name) {
        if let Some(fl) = Flavor::of_build(&file.content) {
            out.fact(&Fact::Build(module_root(&file.path), fl.name().to_string()));
        }
        return;
    }
    if !is_test_path(&file.path) {
        if let Some(doc) = servlet::mapping(file) {
            out.fact(&Fact::Config(doc));
        }
    }
    if name == "web.xml" {
        return;
    }
    let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
    if yaml && !name.starts_with("application") {
        if yaml_config && !is_test_path(&file.path) {
            for mut doc in parse_yaml_any(&file.path, &file.content) {
                doc.entries.retain(|(k, _)| k.starts_with("server."));
                if !doc.entries.is_empty() {
                    out.fact(&Fact::Config(doc));
                }
            }
        }
        return;
    }
    crate::spring::shared_scan(file, out);
}

/// Files every JAX-RS flavor reads.
pub const FILES: [&str; 8] = [
    "*.java",
    "web.xml",
    "application*.properties",
    "application*.yml",
    "application*.yaml",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
];

pub struct JavaJaxrs;

impl Analyzer for JavaJaxrs {
    fn tech(&self) -> Tech {
        Tech::new("java_jaxrs", "Java", "JAX-RS")
            .aliases(["jaxrs", "jax-rs", "jersey", "resteasy"])
            .files(FILES)
            .detect(Detect::files(["*.java"]).contains(["javax.ws.rs", "jakarta.ws.rs"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze(file, out, false);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all(), Flavor::Plain))
    }
}

#[cfg(test)]
mod tests;
