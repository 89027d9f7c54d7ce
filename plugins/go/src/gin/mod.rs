//! Gin (`go_gin`).
//!
//! Routes: `r.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS(path, handlers…)`,
//! `r.Handle("METHOD", path, …)`, `r.Match([]string{…}, path, …)` and
//! `r.Any(path, …)` on engines (`gin.New()`, `gin.Default()`) and groups
//! (`v1 := r.Group("/api/v1")`, nested), including groups passed into
//! functions and methods of other files and packages, returned from them,
//! stored in package variables or struct fields.
//!
//! `Any` is reported with the nine methods Gin registers for it (GET, POST,
//! PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT, TRACE).
//!
//! Handlers named through a struct field (`a.orderController.Detail`) are
//! the methods of that field's declared type (package included).
//!
//! Parameters come from what the handler (a function, a method, a factory
//! returning a closure, or a function literal) reads from its
//! `*gin.Context`: `Query`/`DefaultQuery`/`GetQuery`/`QueryArray` (query),
//! `PostForm`/`DefaultPostForm`/`GetPostForm`/`PostFormArray` (form),
//! `Param` (path), `GetHeader`/`Request.Header.Get` (header), `Cookie`,
//! `FormFile` (file), and structs bound with `ShouldBindJSON`/`BindJSON`
//! (also a body read by hand and passed to `json.Unmarshal`)
//! (`json` tags), `ShouldBindQuery` (`form` tags), `ShouldBindUri` (`uri`),
//! `ShouldBindHeader` (`header`) and `ShouldBind`/`Bind` (content
//! negotiated: `json` tags, else `form`; on GET the query string by `form`
//! tags), also through helpers called with the context, including helpers
//! binding into the value they are given (`handler.BindAndCheck(ctx, req)`
//! with `func BindAndCheck(ctx *gin.Context, data any)`).

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, UPPER_VERBS};

const READS: &[Read] = &[
    read("{}", "Query", ParamKind::Query, 0),
    read("{}", "DefaultQuery", ParamKind::Query, 0),
    read("{}", "GetQuery", ParamKind::Query, 0),
    read("{}", "QueryArray", ParamKind::Query, 0),
    read("{}", "GetQueryArray", ParamKind::Query, 0),
    read("{}", "QueryMap", ParamKind::Query, 0),
    read("{}.Request.URL.Query()", "Get", ParamKind::Query, 0),
    read("{}", "PostForm", ParamKind::Form, 0),
    read("{}", "DefaultPostForm", ParamKind::Form, 0),
    read("{}", "GetPostForm", ParamKind::Form, 0),
    read("{}", "PostFormArray", ParamKind::Form, 0),
    read("{}", "GetPostFormArray", ParamKind::Form, 0),
    read("{}", "PostFormMap", ParamKind::Form, 0),
    read("{}.Request", "FormValue", ParamKind::Form, 0),
    read("{}", "Param", ParamKind::Path, 0),
    read("{}", "GetHeader", ParamKind::Header, 0),
    read("{}.Request.Header", "Get", ParamKind::Header, 0),
    read("{}", "Cookie", ParamKind::Cookie, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    bind("{}", "ShouldBindJSON", BindKind::Json, 0),
    bind("{}", "BindJSON", BindKind::Json, 0),
    bind("{}", "ShouldBindBodyWithJSON", BindKind::Json, 0),
    bind("{}", "ShouldBindQuery", BindKind::Query, 0),
    bind("{}", "BindQuery", BindKind::Query, 0),
    bind("{}", "ShouldBindUri", BindKind::Path, 0),
    bind("{}", "BindUri", BindKind::Path, 0),
    bind("{}", "ShouldBindHeader", BindKind::Header, 0),
    bind("{}", "BindHeader", BindKind::Header, 0),
    bind("{}", "ShouldBind", BindKind::ByMethod, 0),
    bind("{}", "Bind", BindKind::ByMethod, 0),
    bind("{}", "ShouldBindWith", BindKind::Auto, 0),
    bind(
        "json.NewDecoder({}.Request.Body)",
        "Decode",
        BindKind::Json,
        0,
    ),
    // The body read by hand (`io.ReadAll(c.Request.Body)`) then decoded.
    bind("json", "Unmarshal", BindKind::Json, 1),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["gin.New", "gin.Default"],
    verbs: UPPER_VERBS,
    routes: &[
        route("Any", Shape::Fixed(ANY)),
        route("Handle", Shape::MethodArg),
        route("Match", Shape::MethodList),
    ],
    groups: &["Group"],
    // `v1.Group("/dept").Use(auth)` returns the group's routes (IRoutes).
    passthrough: &["Use"],
    context_types: &["*gin.Context"],
    reads: READS,
    relative_paths: true,
    ..Framework::BASE
};

golang::go_analyzer!(
    Gin,
    "go_gin",
    "Gin",
    ["gin", "go-gin"],
    ["github.com/gin-gonic/gin"],
    link
);
