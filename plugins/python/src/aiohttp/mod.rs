//! aiohttp (`python_aiohttp`).
//!
//! Routes: `app.router.add_get/post/put/patch/delete/head(path, handler)`,
//! `add_route(method, path, handler)`, `add_view(path, View)`;
//! `app.add_routes([web.get(path, handler), web.view(path, View), …])`;
//! `routes = web.RouteTableDef()` with `@routes.get(path)` /
//! `@routes.view(path)` decorators and `app.add_routes(routes)`; lists of
//! route definitions; sub-applications `app.add_subapp(prefix, sub)`
//! (nested, across modules).
//!
//! Applications no other application includes are the roots; route tables
//! and lists no application adds are reported at the root. A `*` method
//! (any) is reported as GET, POST, PUT, PATCH and DELETE. `web.View`
//! classes serve the methods they define. Parameters: `request.query` →
//! query, `request.headers` → header, `request.cookies` → cookie, `await
//! request.json()` → json, `await request.post()` → form (also through
//! `self.request` in views).

pub mod facts;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

crate::py::tech::module_analyzer!(
    Aiohttp,
    facts::AiohttpModule,
    Tech::new("python_aiohttp", "Python", "aiohttp")
        .aliases(["aiohttp", "python-aiohttp"])
        .files(["*.py"])
        .detect(Detect::files(["*.py"]).regex([
            r"^\s*(from\s+aiohttp\s+import\s+.*\bweb\b|from\s+aiohttp\.web\s+import\b|import\s+aiohttp\.web\b)",
        ]))
);

#[cfg(test)]
mod tests;
