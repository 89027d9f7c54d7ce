//! httprouter (`go_httprouter`, julienschmidt/httprouter).
//!
//! Routes: `router.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS(path, h)` and
//! `router.Handle/Handler/HandlerFunc("METHOD", path, h)` on
//! `httprouter.New()` routers, also passed into functions of other files
//! and packages, returned or stored in fields. httprouter has no groups;
//! paths use `:name` and `*catchAll` segments.
//!
//! Parameters: `ps.ByName("id")` on the handler's `httprouter.Params`
//! (also `httprouter.ParamsFromContext(r.Context()).ByName`) as path
//! parameters, and the `*http.Request` accessors (`URL.Query().Get`,
//! `FormValue`, `Header.Get`, `Cookie`, `FormFile`,
//! `json.NewDecoder(r.Body).Decode(&v)`).

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::framework::{
    concat, read, route, Framework, Read, Shape, NET_HTTP_READS, UPPER_VERBS,
};

const OWN_READS: &[Read] = &[
    read("{}", "ByName", ParamKind::Path, 0),
    read(
        "httprouter.ParamsFromContext({}.Context())",
        "ByName",
        ParamKind::Path,
        0,
    ),
];

const READS: &[Read] =
    &concat::<{ OWN_READS.len() + NET_HTTP_READS.len() }>(OWN_READS, NET_HTTP_READS);

pub const FRAMEWORK: Framework = Framework {
    constructors: &["httprouter.New"],
    verbs: UPPER_VERBS,
    routes: &[
        route("Handle", Shape::MethodArg),
        route("Handler", Shape::MethodArg),
        route("HandlerFunc", Shape::MethodArg),
    ],
    context_types: &["*http.Request", "httprouter.Params"],
    reads: READS,
    ..Framework::BASE
};

golang::go_analyzer!(
    HttpRouter,
    "go_httprouter",
    "httprouter",
    ["httprouter", "go-httprouter"],
    ["github.com/julienschmidt/httprouter"],
    link
);
