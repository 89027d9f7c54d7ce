//! Armeria (`java_armeria`).
//!
//! - Annotated services: methods annotated `@Get("/users/{id}")`,
//!   `@Post`, `@Put`, `@Delete`, `@Patch`, `@Head`, `@Options`, `@Trace`
//!   (several on one method allowed), the path from the verb annotation or
//!   from `@Path("/x")` next to a bare verb annotation; a class-level
//!   `@PathPrefix("/v1")`; routes declared on base classes and
//!   interfaces are inherited. Path patterns: `{id}` and `:id` are kept,
//!   `exact:`/`prefix:` forms are read, `regex:`/`glob:` ones skipped.
//! - Registration prefixes: `Server.builder().annotatedService("/api", new
//!   UserService())` (also with a variable holding the service, or a
//!   constant prefix) prefixes every route of the class; a service
//!   registered several times is reported under each prefix; an annotated
//!   class that is never registered is reported without a prefix.
//! - Parameters: `@Param("id")` / `@Param` (path when the URL has the
//!   placeholder, query otherwise; `@Default("x")` gives the value),
//!   `@Header("x")` / `@Header` (header; an unnamed one is the parameter
//!   name in lower-hyphen case like Armeria does), `@RequestObject` or an
//!   unannotated parameter of a class of the tree (its fields as json).
//!   `ServiceRequestContext`, `HttpRequest`, `Cookies`, … are skipped.
//! - Lambda services: `sb.service("/x", (ctx, req) -> …)` accept every
//!   method: they are reported as GET, POST, PUT, PATCH and DELETE.
//!
//! Known gaps: `annotatedService().pathPrefix(…).build(…)` builders and
//! `route()` builders are not read; decorators are ignored.

pub mod link;

use portolan_plugin_sdk::prelude::*;

pub struct JavaArmeria;

impl Analyzer for JavaArmeria {
    fn tech(&self) -> Tech {
        Tech::new("java_armeria", "Java", "Armeria")
            .aliases(["armeria"])
            .files(["*.java"])
            .detect(Detect::files(["*.java"]).contains(["com.linecorp.armeria"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        link::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all()))
    }
}
