//! Koa (`js_koa`) with `@koa/router` / `koa-router`.
//!
//! Routes: `router.get/post/put/patch/delete/del/options/head/all(path,
//! …middleware)` and named routes `router.get('name', path, …)`, with
//! path arrays, constants and templates. `all` serves every method; it is
//! reported as GET, POST, PUT, PATCH and DELETE. A router's own prefix
//! (`new Router({ prefix })`, `router.prefix(p)`) precedes its paths;
//! routers are mounted with `parent.use(prefix?, child.routes())` and
//! `app.use(router.routes())`, across modules.
//!
//! Receivers: `new Router(…)` objects, mounted routers, or unbound
//! router-like names in a tree importing Koa. Parameters: what inline and
//! named middleware read from `ctx` (`ctx.query.x`, `ctx.request.body.x`,
//! `ctx.params.id`, `ctx.get('X')`, `ctx.headers[…]`, `ctx.cookies.get()`;
//! see [`crate::js::request`]). Test files are skipped.
//!
//! Mounts also come from `koa-mount` (`app.use(mount('/api', apiApp))`,
//! `apiApp` possibly returned by a function of another module), from
//! `for (const r of routers) app.use(r.routes())` over an array literal or
//! a local function returning one, and from routers passed to registration
//! functions (`userRoutes(router, ctx)`, also `...[router, ctx]` rest
//! parameters and `f(...args)` forwarding).

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};

pub struct Koa;

impl Analyzer for Koa {
    fn tech(&self) -> Tech {
        Tech::new("js_koa", "JavaScript", "Koa")
            .aliases(["koa", "js-koa", "koajs"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"require\(\s*['"](?:koa|@koa/router|koa-router)['"]\s*\)"#,
                r#"\bfrom\s+['"](?:koa|@koa/router|koa-router)['"]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty()
            || !module.routes.is_empty()
            || !module.mounts.is_empty()
            || !module.schemas.is_empty()
        {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::KoaModule> = facts.all();
        Ok(link::link(&modules))
    }
}

#[cfg(test)]
mod tests;
