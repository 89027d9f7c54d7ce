//! Elysia (`js_elysia`, Bun).
//!
//! Instances: `new Elysia()` bound to a name (also through method chains:
//! `export const users = new Elysia({ prefix: '/users' }).get(…)`), with
//! their `prefix` option; function plugins `(app: Elysia) => app.get(…)`.
//! Routes: `.get/post/put/patch/delete/options/head/all(path, handler,
//! hook?)` anywhere in a chain, `.route('METHOD', path, handler)`,
//! `.ws(path, …)` (a `ws` endpoint), `.all` reported as GET, POST, PUT,
//! PATCH and DELETE. `.group(prefix, [hook,] app => app…)` and `.guard(hook,
//! app => app…)` scope the routes of their callback. `.use(plugin)` mounts
//! an instance or function plugin defined in this or another module (its
//! own prefix applies below the mount point's).
//!
//! Parameters: hook schemas `query/body/headers/cookie: t.Object({…})`
//! (inline or a module constant), and what the handler reads from its
//! context (`query.x`, `body.x`, `headers['x']`, `cookie.x`, destructured
//! as `({ query: { q } })` or through a context object `ctx.query.x`).
//! Test files are skipped.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};

pub struct Elysia;

impl Analyzer for Elysia {
    fn tech(&self) -> Tech {
        Tech::new("js_elysia", "JavaScript", "Elysia")
            .aliases(["elysia", "js-elysia", "elysiajs"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([r#"\bfrom\s+['"]elysia['"]"#]))
            .detect(Detect::files(["package.json"]).regex([r#""elysia"\s*:"#]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty() || !module.routes.is_empty() || !module.mounts.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::ElysiaModule> = facts.all();
        Ok(link::link(&modules))
    }
}
