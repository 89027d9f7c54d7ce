//! Starlette (`python_starlette`).
//!
//! Routes are declared as data: `Route(path, endpoint, methods=[…])`,
//! `WebSocketRoute(path, endpoint)` and `Mount(path, routes=[…] | app=…)`
//! inside lists (`routes = [...]`, `Starlette(routes=[...])`,
//! `Router(routes=[...])`), composed across modules (`Mount('/users',
//! routes=users.routes)`), plus `app.add_route(path, endpoint,
//! methods=[…])`, `app.mount(path, app=…)` and the `@app.route(path,
//! methods=[…])` decorator.
//!
//! Roots are the route lists of `Starlette(...)` applications; a list no
//! application or mount reaches is reported at the root too. A function
//! endpoint without `methods` serves GET (Starlette adds HEAD itself); an
//! `HTTPEndpoint` class serves the methods it defines. Parameters are read
//! from `request.query_params` (query), `request.headers` (header),
//! `request.cookies` (cookie), `await request.json()` (json) and `await
//! request.form()` (form).

pub mod facts;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

crate::py::tech::module_analyzer!(
    Starlette,
    facts::StarletteModule,
    Tech::new("python_starlette", "Python", "Starlette")
        .aliases(["starlette", "python-starlette"])
        .files(["*.py"])
        .detect(
            Detect::files(["*.py"])
                .regex([r"^\s*from\s+starlette\.(applications|routing)\s+import\b"]),
        )
);

#[cfg(test)]
mod tests;
