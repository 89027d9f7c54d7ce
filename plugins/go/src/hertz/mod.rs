//! Hertz (`go_hertz`, cloudwego/hertz).
//!
//! Routes: `h.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS(path, handlers…)`,
//! `h.Handle("METHOD", path, …)` and `h.Any(path, …)` on `server.Default()`
//! / `server.New()` engines and groups (`v1 := h.Group("/v1")`, nested),
//! including groups passed into functions of other packages — the `hz`
//! generated `router/**/*.go` files (`root.Group("/", mw()...)`,
//! `_api.GET("/x", append(_xMw(), api.X)...)`) are ordinary Go and are
//! followed the same way.
//!
//! `Any` is reported with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS,
//! CONNECT and TRACE.
//!
//! Parameters from the handler's `*app.RequestContext`: `Query`/
//! `DefaultQuery`/`GetQuery`/`QueryArgs().Peek` (query), `PostForm`/
//! `DefaultPostForm`/`GetPostForm`/`FormValue`/`PostArgs().Peek` (form),
//! `Param` (path), `GetHeader`/`Request.Header.Get|Peek` (header),
//! `Cookie` (cookie), `FormFile` (file), and structs bound with
//! `BindAndValidate`/`Bind`/`BindByContentType` (each field from the
//! source its tag names: `path`, `query`, `header`, `cookie`, `json`,
//! `form`), `BindJSON`, `BindQuery`, `BindHeader`, `BindPath`, `BindForm`.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, UPPER_VERBS};

const READS: &[Read] = &[
    read("{}", "Query", ParamKind::Query, 0),
    read("{}", "DefaultQuery", ParamKind::Query, 0),
    read("{}", "GetQuery", ParamKind::Query, 0),
    read("{}.QueryArgs()", "Peek", ParamKind::Query, 0),
    read("{}.QueryArgs()", "Has", ParamKind::Query, 0),
    read("{}", "PostForm", ParamKind::Form, 0),
    read("{}", "DefaultPostForm", ParamKind::Form, 0),
    read("{}", "GetPostForm", ParamKind::Form, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}.PostArgs()", "Peek", ParamKind::Form, 0),
    read("{}", "Param", ParamKind::Path, 0),
    read("{}", "GetHeader", ParamKind::Header, 0),
    read("{}.Request.Header", "Get", ParamKind::Header, 0),
    read("{}.Request.Header", "Peek", ParamKind::Header, 0),
    read("{}", "Cookie", ParamKind::Cookie, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    bind("{}", "BindAndValidate", BindKind::Tagged, 0),
    bind("{}", "Bind", BindKind::Tagged, 0),
    bind("{}", "BindByContentType", BindKind::Tagged, 0),
    bind("{}", "BindJSON", BindKind::Json, 0),
    bind("{}", "BindQuery", BindKind::Query, 0),
    bind("{}", "BindHeader", BindKind::Header, 0),
    bind("{}", "BindPath", BindKind::Path, 0),
    bind("{}", "BindForm", BindKind::Form, 0),
    bind("json", "Unmarshal", BindKind::Json, 1),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["server.Default", "server.New"],
    verbs: UPPER_VERBS,
    routes: &[
        route("Any", Shape::Fixed(ANY)),
        route("Handle", Shape::MethodArg),
    ],
    groups: &["Group"],
    context_types: &["*app.RequestContext"],
    reads: READS,
    relative_paths: true,
    ..Framework::BASE
};

golang::go_analyzer!(
    Hertz,
    "go_hertz",
    "Hertz",
    ["hertz", "go-hertz"],
    ["github.com/cloudwego/hertz"],
    link
);
