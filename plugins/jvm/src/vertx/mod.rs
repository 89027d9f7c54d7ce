//! Vert.x Web (`java_vertx`).
//!
//! - Routes: `router.get("/x").handler(h)` (also `post put patch delete
//!   head options trace connect`), `router.route(HttpMethod.PUT,
//!   "/y").handler(h)`, `router.route("/y").method(HttpMethod.GET)…
//!   .handler(h)`, and `blockingHandler`/`respond` as handlers. A
//!   `router.route("/y").handler(h)` without a method accepts every method:
//!   it is reported as GET, POST, PUT, PATCH and DELETE, unless it is a
//!   wildcard (`/static/*`) or only uses framework handlers
//!   (`BodyHandler.create()`, `StaticHandler.create()`, …), which are
//!   middleware, not endpoints. Constants in paths are resolved; `:id`
//!   placeholders are kept (the report unifies them).
//! - Sub-routers: `router.route("/api/*").subRouter(sub)` and
//!   `router.mountSubRouter("/api", sub)`, where `sub` is a local router,
//!   a variable assigned from a call, or a call (`UserApi.create(vertx)`,
//!   `new UserApi(vertx).router()`, `users.router()`, `apiRouter()`); the
//!   routes declared in the called method (any file) get the prefix, and
//!   mounts compose through several levels.
//! - Parameters read by the handler (inline lambda, or a method
//!   referenced as `this::list` / `handlers::create`, in any file):
//!   `ctx.queryParam("x")` (query), `ctx.pathParam("id")` (path),
//!   `ctx.request().getParam("x")` (path when the route has that
//!   placeholder, else query), `request().getHeader("X")` (header),
//!   `getCookie("c")` (cookie), `request().getFormAttribute("x")` (form),
//!   `ctx.body().asJsonObject().getString("x")` / `ctx.getBodyAsJson()` /
//!   a `JsonObject` variable holding it → json fields, and
//!   `ctx.body().asPojo(X.class)` / `json.mapTo(X.class)` /
//!   `Json.decodeValue(ctx.body().asString(), X.class)` → fields of `X`.
//!
//! Known gaps: routers kept in fields and returned by getters, regex
//! routes (`routeWithRegex`) and OpenAPI `RouterBuilder` operations are
//! not read.

pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::jvm::lambda;

pub struct JavaVertx;

impl Analyzer for JavaVertx {
    fn tech(&self) -> Tech {
        Tech::new("java_vertx", "Java", "Vert.x")
            .aliases(["vertx", "vert.x"])
            .files(["*.java"])
            .detect(Detect::files(["*.java"]).contains(["io.vertx.ext.web"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(lambda::link(facts.all(), &|_| String::new()))
    }
}
