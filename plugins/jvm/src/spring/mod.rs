//! Spring MVC / WebFlux (`java_spring`, `kotlin_spring`).
//!
//! Both technologies read every `.java` and `.kt` file (DTOs, base
//! controllers and constants are often in the other language) and the
//! Spring Boot configuration files; each reports the controllers declared
//! in its own language.
//!
//! - Annotated controllers: `@RestController`/`@Controller` classes (also
//!   through custom annotations meta-annotated with them) and classes with
//!   a class-level `@RequestMapping`; `@RequestMapping` (paths from
//!   `value`/`path`, arrays, `method = RequestMethod.X` or arrays) and the
//!   `@Get/Post/Put/Patch/DeleteMapping` shortcuts. A `@RequestMapping`
//!   without `method` serves any method: it is reported as GET, POST, PUT,
//!   PATCH and DELETE. Paths may use constants (own, inherited, other
//!   classes', statically imported, Kotlin `const val` and templates) and
//!   `${property:default}` placeholders resolved from the configuration.
//! - Mappings inherited from interfaces and (abstract) base classes in
//!   other files: a concrete controller gets every mapped method of its
//!   supertypes under its own class-level prefix (or the nearest
//!   supertype's). An interface or abstract class with mappings is
//!   reported by itself only when no controller or Feign client in the
//!   tree derives from it (API interfaces implemented elsewhere).
//! - `server.servlet.context-path` (Boot 1: `server.context-path`),
//!   `spring.mvc.servlet.path` (`server.servlet-path`) and
//!   `spring.webflux.base-path` of the module (see [`crate::jvm::config`]
//!   for the profile rules) prefix every route of that module.
//! - WebFlux functional routes: `route().GET("/x", h)`, `route(GET("/x"),
//!   h).andRoute(...)`, `nest(path("/api"), …)`, `.path("/api", b -> …)`,
//!   and the Kotlin `router { "/api".nest { GET("/x", h) } }` DSLs.
//! - `@FeignClient` interfaces (and OpenFeign `@RequestLine`) are
//!   reported with `internal: true`, prefixed with their `path`.
//! - Parameters: see [`params`].
//!
//! Test sources (`src/test/…`, `*Test.java`, …) are skipped, so MockMvc
//! calls and test controllers are never reported.

pub mod builder;
pub mod link;
pub mod params;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::jvm::outline::Lang;

/// Files both Spring techs read.
pub const FILES: [&str; 5] = [
    "*.java",
    "*.kt",
    "application*.properties",
    "application*.yml",
    "application*.yaml",
];

pub struct JavaSpring;
pub struct KotlinSpring;

impl Analyzer for JavaSpring {
    fn tech(&self) -> Tech {
        Tech::new("java_spring", "Java", "Spring")
            .aliases(["spring", "java-spring", "spring-boot"])
            .files(FILES)
            .detect(Detect::files(["*.java"]).contains(["org.springframework"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        shared_scan(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all(), Lang::Java))
    }
}

impl Analyzer for KotlinSpring {
    fn tech(&self) -> Tech {
        Tech::new("kotlin_spring", "Kotlin", "Spring")
            .aliases(["kotlin-spring"])
            .files(FILES)
            .detect(Detect::files(["*.kt"]).contains(["org.springframework"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        shared_scan(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all(), Lang::Kotlin))
    }
}

/// Both technologies scan a file the same way (each keeps its own
/// language's controllers at `link`): the scan runs once per file and the
/// other technology reuses its output (so does JAX-RS, which reads the same
/// facts).
pub(crate) fn shared_scan(file: &SourceFile, out: &mut Output) {
    struct Scanned(Output);
    let scanned = file.memo(|f| {
        let mut out = Output::new();
        scan::analyze(f, &mut out);
        Scanned(out)
    });
    out.extend_from(&scanned.0);
}

#[cfg(test)]
mod tests;
