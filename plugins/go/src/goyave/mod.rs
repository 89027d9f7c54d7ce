//! Goyave (`go_goyave`, v4 and v5).
//!
//! Routes: `router.Get/Post/Put/Patch/Delete/Options(path, handler)` on the
//! `*goyave.Router` handed to the route registrar (`Register(server,
//! router)` in v5, `Register(router)` in v4) and on sub-routers
//! (`api := router.Subrouter("/api")`, `router.Group()`, nested), also
//! passed into functions of other files and packages, through v5's chained
//! setters (`router.Group().SetMeta(auth.MetaAuth, true)`,
//! `.Middleware(m)`, `.CORS(o)`). Regex placeholders
//! `{id:[0-9]+}` are reported as `{id}`.
//!
//! Parameters from the handler's `*goyave.Request`: `request.Query["x"]`
//! (query), `request.Data["x"]` (JSON body), `request.RouteParams["id"]` /
//! `request.Params["id"]` (path), `request.Header().Get("X")` (header),
//! `request.Cookie("x")` (cookie), and v4's `request.String/Integer/
//! Bool/Numeric/File("x")` accessors (JSON body; `File` as file).
//!
//! Gaps: `router.Route(methods, path, h)` (v4 pipe-separated method
//! strings) and fields declared only in validation rule sets.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::framework::{index, read, Framework, Read};

const READS: &[Read] = &[
    index("{}.Query", ParamKind::Query),
    index("{}.Data", ParamKind::Json),
    index("{}.RouteParams", ParamKind::Path),
    index("{}.Params", ParamKind::Path),
    read("{}.Header()", "Get", ParamKind::Header, 0),
    read("{}.Request().Header", "Get", ParamKind::Header, 0),
    read("{}", "Cookie", ParamKind::Cookie, 0),
    read("{}", "String", ParamKind::Json, 0),
    read("{}", "Integer", ParamKind::Json, 0),
    read("{}", "Numeric", ParamKind::Json, 0),
    read("{}", "Bool", ParamKind::Json, 0),
    read("{}", "File", ParamKind::File, 0),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["goyave.NewRouter"],
    verbs: &["Get", "Post", "Put", "Patch", "Delete", "Options"],
    groups: &["Subrouter"],
    // v5's router setters return the router: `router.Group().SetMeta(
    // auth.MetaAuth, true)` keeps the receiver's prefix.
    passthrough: &[
        "Group",
        "SetMeta",
        "RemoveMeta",
        "Middleware",
        "GlobalMiddleware",
        "CORS",
    ],
    context_types: &["*goyave.Request"],
    reads: READS,
    handler_after_path: true,
    ..Framework::BASE
};

golang::go_analyzer!(
    Goyave,
    "go_goyave",
    "Goyave",
    ["goyave", "go-goyave"],
    ["goyave.dev/goyave", "github.com/System-Glitch/goyave"],
    link_clean
);
