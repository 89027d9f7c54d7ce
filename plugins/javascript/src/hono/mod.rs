//! Hono (`js_hono`).
//!
//! Routes: `app.get/post/put/patch/delete/options/all(path, …handlers)`,
//! `app.on(method | [methods], path, …)`, also chained
//! (`app.get('/a', h).post('/b', h)`), on `new Hono()` objects, sub-apps
//! mounted with `parent.route(prefix, child)` (across modules), or unbound
//! `app`/`api`/`router`/`route` names in a tree importing Hono. `all` is
//! reported as GET, POST, PUT, PATCH and DELETE. Base paths:
//! `new Hono().basePath(p)` and `const v1 = app.basePath(p)`.
//!
//! Parameters of inline handlers and validators: `c.req.query('q')`,
//! `c.req.param('id')`, `c.req.header('X')`, `getCookie(c, 'k')`,
//! `const { a } = await c.req.json()` / `parseBody()` / `c.req.query()` /
//! `c.req.valid('json')`, and `zValidator('json' | 'query' | 'form' |
//! 'param' | 'header', z.object({…}))` (schema inline or a module
//! constant). Handlers defined elsewhere are not followed. Test files are
//! skipped.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};

pub struct Hono;

impl Analyzer for Hono {
    fn tech(&self) -> Tech {
        Tech::new("js_hono", "JavaScript", "Hono")
            .aliases(["hono", "js-hono"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"\bfrom\s+['"]hono(?:/[\w/-]+)?['"]"#,
                r#"require\(\s*['"]hono(?:/[\w/-]+)?['"]\s*\)"#,
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
        let modules: Vec<scan::HonoModule> = facts.all();
        Ok(link::link(&modules))
    }
}

#[cfg(test)]
mod tests;
