//! FastAPI (`python_fastapi`).
//!
//! Routes: `@x.get/post/put/patch/delete/options/head/trace(path)`,
//! `@x.api_route(path, methods=[…])` (GET when no methods are given, as in
//! FastAPI), `x.add_api_route(path, endpoint, methods=[…])`, websockets
//! (`@x.websocket`, `add_api_websocket_route`) as `ws` endpoints, on apps
//! (`FastAPI(root_path=…)`) and routers (`APIRouter(prefix=…)`) composed
//! with `include_router(r, prefix=…)` and `mount(path, sub_app)` anywhere
//! in the tree (see [`link`] for the prefix rules). Paths and prefixes may
//! be built from constants (also imported ones), concatenation, f-strings
//! and string attributes of settings objects (`settings.API_V1_STR`).
//!
//! Parameters come from the handler's signature, as FastAPI reads it:
//! - names in the URL are path parameters (added by the host);
//! - `Query()`, `Header()` (underscores become dashes unless
//!   `convert_underscores=False`; `alias=` wins), `Cookie()`, `Form()`,
//!   `File()` / `UploadFile`, also inside `Annotated[T, Marker()]` and
//!   through module-level `Alias = Annotated[…]` types;
//! - a pydantic model (also `SQLModel`, dataclasses; declared in any module,
//!   fields inherited, `Field(alias=…)` honoured) is the JSON body: its fields
//!   are json params, or, with several body parameters or `Body(embed=True)`,
//!   the parameter names;
//! - `Depends(dep)` / `Security(dep)` / `Depends()` on a class: the
//!   dependency's own parameters, recursively (a few levels), also for
//!   `dependencies=[…]` on decorators, routers and `include_router`;
//! - other undecorated parameters of scalar types (or enums of the tree)
//!   are query parameters; injected types (`Request`, `Response`,
//!   `BackgroundTasks`, …) and unknown classes are skipped.

pub mod facts;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

crate::py::tech::module_analyzer!(
    FastApi,
    facts::FastApiModule,
    Tech::new("python_fastapi", "Python", "FastAPI")
        .aliases(["fastapi", "python-fastapi"])
        .files(["*.py"])
        .detect(Detect::files(["*.py"]).contains(["from fastapi", "import fastapi"]))
);

#[cfg(test)]
mod tests;
