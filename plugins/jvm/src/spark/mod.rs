//! Spark Java (`java_spark`).
//!
//! - Routes: `get("/x", (req, res) -> …)` (statically imported from
//!   `spark.Spark`, or `Spark.get`, or on a `Service` instance), verbs
//!   `get post put patch delete head options`, inside `path("/api", () -> {
//!   … })` scopes (nested). `get("/x", "application/json", route)` and
//!   route objects / method references as handlers. Constants in paths are
//!   resolved; `:id` placeholders are kept (the report unifies them).
//! - Parameters read by the handler, inline or referenced
//!   (`UserController::find`, a `Route` field), in any file:
//!   `req.queryParams("q")`/`queryParamOrDefault`/`queryParamsValues`/
//!   `queryMap("q")` (query), `req.params(":id")` (path),
//!   `req.headers("X")` (header), `req.cookie("c")` (cookie) and a body
//!   parsed as a class (`gson.fromJson(req.body(), X.class)`,
//!   `mapper.readValue(req.body(), X.class)`: json fields of `X`).
//!
//! Known gaps: `before`/`after` filters are not reported; `webSocket(…)`
//! endpoints are not read.

use portolan_plugin_sdk::prelude::*;

use crate::jvm::lambda::{self, Dialect};

pub struct JavaSpark;

impl Analyzer for JavaSpark {
    fn tech(&self) -> Tech {
        Tech::new("java_spark", "Java", "Spark")
            .aliases(["spark", "sparkjava"])
            .files(["*.java"])
            .detect(Detect::files(["*.java"]).contains([
                "import static spark.Spark",
                "import spark.Spark",
                "import spark.",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        lambda::analyze(file, out, Dialect::Spark);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(lambda::link(facts.all(), &|_| String::new()))
    }
}
