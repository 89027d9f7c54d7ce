//! Fiber (`go_fiber`, v2 and v3).
//!
//! Routes: `app.Get/Post/Put/Patch/Delete/Head/Options/Connect/Trace(path,
//! handlers…)`, `app.Add(method, path, …)` (v2 string or v3 list) and
//! `app.All(path, …)` on `fiber.New()` apps and groups (`api :=
//! app.Group("/api")`, `app.Route("/x", func(r fiber.Router) {…})`),
//! including groups passed into functions of other packages, and
//! `app.Mount("/x", sub)` of sub-apps.
//!
//! `All` is reported with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS,
//! CONNECT and TRACE.
//!
//! Parameters from `*fiber.Ctx` (`fiber.Ctx` in v3): `Query`/`QueryInt`/
//! `QueryBool`/`QueryFloat` (query), `Params`/`ParamsInt` (path),
//! `FormValue` (form), `Get` (header), `Cookies` (cookie), `FormFile`
//! (file), and structs bound with `BodyParser` (`json` tags, else `form`),
//! `QueryParser` (`query`), `ReqHeaderParser` (`reqHeader`),
//! `ParamsParser` (`params`), v3's `Bind().Body/JSON/Form/Query/Header/URI` and
//! v3's generic accessors `fiber.Query[int](c, "limit", 25)`,
//! `fiber.Params[T](c, "id")`, `fiber.GetReqHeader[T](c, "X-Key")`.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, TITLE_VERBS_ALL};

const READS: &[Read] = &[
    read("{}", "Query", ParamKind::Query, 0),
    read("{}", "QueryInt", ParamKind::Query, 0),
    read("{}", "QueryBool", ParamKind::Query, 0),
    read("{}", "QueryFloat", ParamKind::Query, 0),
    read("{}", "Params", ParamKind::Path, 0),
    read("{}", "ParamsInt", ParamKind::Path, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}", "Get", ParamKind::Header, 0),
    read("{}", "Cookies", ParamKind::Cookie, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    // Fiber v3 generic accessors: `fiber.Query[int](c, "limit", 25)`.
    read("fiber", "Query", ParamKind::Query, 1),
    read("fiber", "Params", ParamKind::Path, 1),
    read("fiber", "GetReqHeader", ParamKind::Header, 1),
    bind("{}", "BodyParser", BindKind::Auto, 0),
    bind("{}", "QueryParser", BindKind::Query, 0),
    bind("{}", "ReqHeaderParser", BindKind::Header, 0),
    bind("{}", "ParamsParser", BindKind::Path, 0),
    bind("{}.Bind()", "Body", BindKind::Auto, 0),
    bind("{}.Bind()", "JSON", BindKind::Json, 0),
    bind("{}.Bind()", "Form", BindKind::Form, 0),
    bind("{}.Bind()", "Query", BindKind::Query, 0),
    bind("{}.Bind()", "Header", BindKind::Header, 0),
    bind("{}.Bind()", "URI", BindKind::Path, 0),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["fiber.New"],
    verbs: TITLE_VERBS_ALL,
    routes: &[
        route("All", Shape::Fixed(ANY)),
        route("Add", Shape::MethodList),
    ],
    groups: &["Group", "Route"],
    mounts: &["Mount"],
    context_types: &["*fiber.Ctx", "fiber.Ctx"],
    reads: READS,
    ..Framework::BASE
};

golang::go_analyzer!(
    Fiber,
    "go_fiber",
    "Fiber",
    ["fiber", "go-fiber"],
    ["github.com/gofiber/fiber"],
    link
);
