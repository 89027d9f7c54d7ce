//! Ktor (`kotlin_ktor`).
//!
//! - The routing DSL: `routing { route("/x") { get { } ; post("/y") { } } }`,
//!   verbs `get post put delete patch head options`, `route(path,
//!   HttpMethod.X) { handle { } }`, and transparent wrappers
//!   (`authenticate("jwt") { }`, `rateLimit { }`, any other lambda);
//!   routes inside `authenticate(…) { }` (not `optional = true`), also
//!   through the routing functions it calls, carry it as an `auth_guard`.
//! - Routes split over extension functions in other files
//!   (`fun Route.userRoutes() { … }` called as `userRoutes()` inside a
//!   `route("/api") { }`): a function called from a routing block is
//!   expanded at every call site with the caller's prefix; functions
//!   never called from one (e.g. `fun Application.module()`) are roots.
//! - Type-safe routing (Resources plugin): `get<Books.Isbn> { }` serves
//!   the path of the `@Resource("{isbn}")` class, prefixed with the path of
//!   its enclosing resource class when it has a property of that type
//!   (`val parent: Books`); the class properties not in the path are query
//!   parameters (the parent's too, as Ktor encodes them).
//! - Paths may use constants and string templates (`"$API/users"`);
//!   `{id?}` and `{path...}` placeholders are reported as `{id}`/`{path}`.
//! - Parameters read in the handler: `call.parameters["x"]` (path when the
//!   URL has `{x}`, else query), `call.request.queryParameters["q"]`,
//!   `call.receive<Dto>()` / `call.receive(Dto::class)` / `val d: Dto =
//!   call.receive()` (json fields of the DTO), `call.receiveParameters()` variables indexed by name (form),
//!   `call.request.headers["X"]` / `call.request.header("X")`,
//!   `call.request.cookies["c"]`; `.get("x")` / `.getOrFail("x")` too.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

pub struct KotlinKtor;

impl Analyzer for KotlinKtor {
    fn tech(&self) -> Tech {
        Tech::new("kotlin_ktor", "Kotlin", "Ktor")
            .aliases(["ktor", "kotlin-ktor"])
            .files(["*.kt"])
            .detect(Detect::files(["*.kt"]).contains(["io.ktor"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::link(facts.all()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_routes_mounted_twice_and_handler_reads() {
        let app = "package a\nimport io.ktor.server.routing.*\nfun Application.m() {\n  routing {\n    route(\"/v1\") { items() }\n    route(\"/v2\") { items() }\n  }\n}\n";
        let items = "package a\nfun Route.items() {\n  get(\"/items/{id}\") {\n    call.request.header(\"X-Trace\")\n    call.parameters[\"id\"]\n  }\n}\n";
        let mut facts = Facts::new(Vec::new());
        for (p, s) in [
            ("src/main/kotlin/a/App.kt", app),
            ("src/main/kotlin/a/Items.kt", items),
        ] {
            let mut out = Output::new();
            KotlinKtor.analyze(&SourceFile::new(p, s), &mut out);
            facts.extend(out.into_parts().1);
        }
        let eps = KotlinKtor.link(&facts).expect("link");
        let got: Vec<_> = eps
            .iter()
            .map(|e| {
                let names: Vec<_> = e.params.iter().map(|p| p.name.as_str()).collect();
                format!("{} {} {:?}", e.method, e.url, names)
            })
            .collect();
        assert_eq!(
            got,
            [
                "GET /v1/items/{id} [\"X-Trace\", \"id\"]",
                "GET /v2/items/{id} [\"X-Trace\", \"id\"]"
            ]
        );
    }
}

#[cfg(test)]
mod helper_tests {
    #[test]
    fn direct_literal_read() {
        let src = "package a\nprivate fun ApplicationCall.sortOrder(): String =\n    request.queryParameters[\"sort\"] ?: \"name\"\n";
        let f = portolan_plugin_sdk::prelude::SourceFile::new("src/main/kotlin/a/A.kt", src);
        let h = super::scan::helpers(&f);
        assert_eq!(h.len(), 1, "{h:?}");
        assert_eq!(h[0].direct.len(), 1, "{h:?}");
    }
}
