//! Javalin (`java_javalin`).
//!
//! - Routes: `app.get("/x", ctx -> …)` (also `post put patch delete head
//!   options`) on a `Javalin` variable or a `Javalin.create(…)` chain,
//!   `ws("/x", …)` (websocket), and the `ApiBuilder` DSL inside
//!   `app.routes(() -> …)` / `config.router.apiBuilder(() -> …)`:
//!   `path("api", () -> { get(h); path("{id}", () -> { … }) })` nesting,
//!   `get(h)` without a path (the scope's path) and `crud("users/{id}", new
//!   UserController())` (GET/POST on the collection, GET/PATCH/DELETE on the
//!   item). Constants in paths are resolved; `<id>` placeholders are
//!   reported as `{id}`.
//! - Parameters read by the handler, inline or referenced
//!   (`UserController::getOne`, `this::create`, a `Handler` field), in any
//!   file: `ctx.queryParam("q")`/`queryParamAsClass`/`queryParams` (query),
//!   `formParam*` (form), `pathParam*` (path), `header("X")` /
//!   `headerAsClass` (header), `cookie("c")` (cookie), `uploadedFile("f")`
//!   (file), `bodyAsClass(X.class)`/`bodyValidator(X.class)` (json fields of
//!   `X`).
//!
//! - Kotlin: `path("books") { get(books::list) }` trailing lambdas,
//!   `app.get("/x") { ctx -> … }`, roles after the handler (`get(h,
//!   Role.ANYONE)`), `fun list(ctx: Context)` handlers (also with a return
//!   type or an expression body), `bodyAsClass(X::class.java)` and
//!   `bodyAsClass<X>()`.
//!
//! - Context path: `config.contextPath = "/api"` (Javalin 4),
//!   `config.router.contextPath = Paths.CONTEXT` (5+, constants resolved),
//!   `contextPath = …` inside Kotlin's `config.apply { }`, Javalin 2's
//!   `app.contextPath("/api")`, prefixes every route of the module (the
//!   `src/main/` root) that sets it; a value known only at run time
//!   (`System.getenv(…)`, a property lookup) is a `{contextPath}` segment.
//!
//! Known gaps: `before`/`after` handlers and routes registered through
//! plugins are not read.

use portolan_plugin_sdk::prelude::*;

use crate::jvm::lambda::{self, Dialect};

pub struct JavaJavalin;

impl Analyzer for JavaJavalin {
    fn tech(&self) -> Tech {
        Tech::new("java_javalin", "Java", "Javalin")
            .aliases(["javalin"])
            .files(["*.java", "*.kt"])
            .supports(Supports::ALL)
            .detect(Detect::files(["*.java", "*.kt"]).contains(["io.javalin"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        lambda::analyze(file, out, Dialect::Javalin);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(lambda::link(facts.all(), &|_| String::new()))
    }
}
