//! Iris (`go_iris`, v12).
//!
//! Routes: `app.Get/Post/Put/Patch/Delete/Head/Options/Connect/Trace(path,
//! handlers…)`, `app.Handle("METHOD", path, …)` and `app.Any(path, …)` on
//! `iris.New()` / `iris.Default()` applications and parties
//! (`api := app.Party("/api")`, nested, and
//! `app.PartyFunc("/users", func(users iris.Party) {…})`), including
//! parties passed into functions of other files and packages. Typed
//! parameters (`{id:uint64}`, `{name:string regexp(…)}`, `{p:path}`) are
//! reported as `{id}`.
//!
//! `Any` is reported with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS,
//! CONNECT and TRACE.
//!
//! Parameters from the handler's `iris.Context`: `URLParam*` (query),
//! `FormValue*`/`PostValue*` (form), `Params().Get*` (path), `GetHeader`
//! (header), `GetCookie` (cookie), `FormFile` (file), and structs read with
//! `ReadJSON` (`json` tags), `ReadQuery` (`url` tags), `ReadForm` (`form`),
//! `ReadParams` (`param`), `ReadHeaders` (`header`) and `ReadBody`
//! (content negotiated).
//!
//! Gap: `mvc.Application` controllers (`GetBy`, `PostLogin` method names)
//! are not read.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, TITLE_VERBS_ALL};

const READS: &[Read] = &[
    read("{}", "URLParam", ParamKind::Query, 0),
    read("{}", "URLParamDefault", ParamKind::Query, 0),
    read("{}", "URLParamTrim", ParamKind::Query, 0),
    read("{}", "URLParamExists", ParamKind::Query, 0),
    read("{}", "URLParamInt", ParamKind::Query, 0),
    read("{}", "URLParamIntDefault", ParamKind::Query, 0),
    read("{}", "URLParamInt64", ParamKind::Query, 0),
    read("{}", "URLParamInt64Default", ParamKind::Query, 0),
    read("{}", "URLParamUint64", ParamKind::Query, 0),
    read("{}", "URLParamFloat64", ParamKind::Query, 0),
    read("{}", "URLParamBool", ParamKind::Query, 0),
    read("{}", "URLParamSlice", ParamKind::Query, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}", "FormValueDefault", ParamKind::Form, 0),
    read("{}", "PostValue", ParamKind::Form, 0),
    read("{}", "PostValueDefault", ParamKind::Form, 0),
    read("{}", "PostValueTrim", ParamKind::Form, 0),
    read("{}", "PostValueInt", ParamKind::Form, 0),
    read("{}", "PostValueInt64", ParamKind::Form, 0),
    read("{}", "PostValueBool", ParamKind::Form, 0),
    read("{}.Params()", "Get", ParamKind::Path, 0),
    read("{}.Params()", "GetString", ParamKind::Path, 0),
    read("{}.Params()", "GetDefault", ParamKind::Path, 0),
    read("{}.Params()", "GetInt", ParamKind::Path, 0),
    read("{}.Params()", "GetIntDefault", ParamKind::Path, 0),
    read("{}.Params()", "GetInt64", ParamKind::Path, 0),
    read("{}.Params()", "GetUint64", ParamKind::Path, 0),
    read("{}.Params()", "GetUint64Default", ParamKind::Path, 0),
    read("{}.Params()", "GetBool", ParamKind::Path, 0),
    read("{}", "GetHeader", ParamKind::Header, 0),
    read("{}.Request().Header", "Get", ParamKind::Header, 0),
    read("{}", "GetCookie", ParamKind::Cookie, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    bind("{}", "ReadJSON", BindKind::Json, 0),
    bind("{}", "ReadQuery", BindKind::Query, 0),
    bind("{}", "ReadForm", BindKind::Form, 0),
    bind("{}", "ReadParams", BindKind::Path, 0),
    bind("{}", "ReadHeaders", BindKind::Header, 0),
    bind("{}", "ReadBody", BindKind::Auto, 0),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["iris.New", "iris.Default"],
    verbs: TITLE_VERBS_ALL,
    routes: &[
        route("Any", Shape::Fixed(ANY)),
        route("Handle", Shape::MethodArg),
    ],
    groups: &["Party", "PartyFunc"],
    context_types: &["iris.Context", "*context.Context"],
    reads: READS,
    ..Framework::BASE
};

golang::go_analyzer!(
    Iris,
    "go_iris",
    "Iris",
    ["iris", "go-iris"],
    ["github.com/kataras/iris"],
    link_clean
);
