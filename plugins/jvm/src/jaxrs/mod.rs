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

pub mod link;

use portolan_plugin_sdk::prelude::*;

use crate::spring::scan;

pub struct JavaJaxrs;

impl Analyzer for JavaJaxrs {
    fn tech(&self) -> Tech {
        Tech::new("java_jaxrs", "Java", "JAX-RS")
            .aliases(["jaxrs", "jax-rs", "jersey", "resteasy"])
            .files([
                "*.java",
                "application*.properties",
                "application*.yml",
                "application*.yaml",
            ])
            .detect(Detect::files(["*.java"]).contains(["javax.ws.rs", "jakarta.ws.rs"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all()))
    }
}

#[cfg(test)]
mod tests;
