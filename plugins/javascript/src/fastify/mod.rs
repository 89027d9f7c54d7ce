//! Fastify (`js_fastify`).
//!
//! Routes: `x.get/post/put/patch/delete/options/head/all(path, [opts],
//! handler)` and `x.route({ method, url, schema, handler })` (method and
//! path arrays) on Fastify instances: objects made by `fastify()` /
//! `Fastify({…})`, instances passed to plugins, or unbound instance-like
//! names (`fastify`, `app`, `server`, `instance`) in a tree importing
//! Fastify. `all` serves every method; it is reported as GET, POST, PUT,
//! PATCH and DELETE.
//!
//! Prefixes: `x.register(plugin, { prefix })`, nested and across modules;
//! a plugin is a function (its first parameter is the instance), possibly
//! wrapped in `fp(…)`/`fastifyPlugin(…)`, imported with `require`/`import`
//! or written inline (also `module.exports = fp(async (fastify) => …)`).
//! Paths may use constants, concatenation and templates.
//!
//! Parameters: JSON-schema `querystring`/`body`/`params`/`headers`
//! `properties` (TypeBox `Type.Object({…})` too), inline or by variable,
//! possibly imported; plus what inline and named handlers read from the
//! request (see [`crate::js::request`]). Test files (and thus
//! `app.inject(…)` calls in tests) are skipped.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};

pub struct Fastify;

impl Analyzer for Fastify {
    fn tech(&self) -> Tech {
        Tech::new("js_fastify", "JavaScript", "Fastify")
            .aliases(["fastify", "js-fastify"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"require\(\s*['"]fastify(?:-plugin)?['"]\s*\)"#,
                r#"\bfrom\s+['"]fastify(?:-plugin)?['"]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty()
            || !module.routes.is_empty()
            || !module.registers.is_empty()
            || !module.schemas.is_empty()
        {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::FastifyModule> = facts.all();
        Ok(link::link(&modules))
    }
}

#[cfg(test)]
mod tests;
