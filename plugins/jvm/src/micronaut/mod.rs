//! Micronaut (`java_micronaut`).
//!
//! - Controllers: classes annotated `@Controller("/x")` (default `/`),
//!   methods annotated `@Get`, `@Post`, `@Put`, `@Delete`, `@Patch`,
//!   `@Head`, `@Options`, `@Trace` (path from `value`/`uri`/`uris`,
//!   default `/`), also declared on interfaces and abstract base classes in
//!   other files (generated API interfaces) that the controller implements.
//!   Abstract controllers and `@Client` interfaces are not reported.
//! - URI templates: `{id}`, `{id:[0-9]+}` → `{id}`; the RFC 6570 query
//!   part `{?max,offset}` / `{&q}` is removed from the path and gives query
//!   parameters; `{/rest}` optional segments become `/{rest}`.
//! - `micronaut.server.context-path` from `application*.yml`/`.properties`
//!   of the module prefixes every route. Constants in paths are resolved
//!   as for Spring.
//! - Parameters: `@QueryValue` (query, `defaultValue` as value),
//!   `@PathVariable` (path), `@Header` (header; an unnamed one is the
//!   parameter name in `Hyphen-Case`), `@CookieValue` (cookie), `@Body`
//!   (the DTO fields as json, or form when the method consumes a form;
//!   `@Body("x")` is the single json field `x`), `@Part` (form, file for
//!   `CompletedFileUpload`/`StreamingFileUpload`/`FileUpload`),
//!   `@RequestBean` (its annotated fields). Unannotated parameters follow
//!   Micronaut's binding: a URI variable of the same name → path; a simple
//!   value → query for GET/DELETE/HEAD/OPTIONS and a json (form) body
//!   property otherwise; a DTO of the tree → its fields as json for
//!   POST/PUT/PATCH. `HttpRequest`, `Principal`, `Authentication` and other
//!   framework types are skipped.

pub mod link;

use portolan_plugin_sdk::prelude::*;

use crate::spring::scan;

pub struct JavaMicronaut;

impl Analyzer for JavaMicronaut {
    fn tech(&self) -> Tech {
        Tech::new("java_micronaut", "Java", "Micronaut")
            .aliases(["micronaut"])
            .files([
                "*.java",
                "application*.properties",
                "application*.yml",
                "application*.yaml",
            ])
            .detect(Detect::files(["*.java"]).contains(["io.micronaut.http"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all()))
    }
}
