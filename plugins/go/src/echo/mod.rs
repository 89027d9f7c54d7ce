//! Echo (`go_echo`).
//!
//! Routes: `e.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS/CONNECT/TRACE(path, h,
//! middlewares…)`, `Add("METHOD", path, h)`, `Match([]string{…}, path, h)`
//! and `Any(path, h)` on `echo.New()` instances and groups
//! (`g := e.Group("/admin", mw)`, nested), including groups passed into
//! functions and methods of other packages, returned or stored in fields.
//!
//! `Any` is reported with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS,
//! CONNECT and TRACE (Echo also registers PROPFIND and REPORT, which the
//! report format does not carry).
//!
//! Parameters from the handler's `echo.Context`: `QueryParam`,
//! `QueryParams().Get` and `QueryParams()["k"]` (query), `FormValue` (form), `Param` (path),
//! `Request().Header.Get` (header), `Cookie`, `FormFile` (file), and
//! structs bound with `Bind` (`json` tags as JSON, `query`/`param`/
//! `header`/`form`-only fields as those).
//!
//! Files importing PocketBase packages are left to `go_pocketbase`
//! (PocketBase v0.22 serves an Echo v5 router).

use portolan_plugin_sdk::prelude::*;

use crate::golang::facts::BindKind;
use crate::golang::framework::{
    bind, index, read, route, Framework, Read, Shape, ANY, UPPER_VERBS_ALL,
};
use crate::golang::{self, FILES};

pub struct Echo;

const READS: &[Read] = &[
    read("{}", "QueryParam", ParamKind::Query, 0),
    read("{}.QueryParams()", "Get", ParamKind::Query, 0),
    index("{}.QueryParams()", ParamKind::Query),
    read("{}.Request().URL.Query()", "Get", ParamKind::Query, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}.Request()", "FormValue", ParamKind::Form, 0),
    read("{}", "Param", ParamKind::Path, 0),
    read("{}.Request().Header", "Get", ParamKind::Header, 0),
    read("{}", "Cookie", ParamKind::Cookie, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    bind("{}", "Bind", BindKind::Auto, 0),
    bind(
        "json.NewDecoder({}.Request().Body)",
        "Decode",
        BindKind::Json,
        0,
    ),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["echo.New"],
    verbs: UPPER_VERBS_ALL,
    routes: &[
        route("Any", Shape::Fixed(ANY)),
        route("Add", Shape::MethodArg),
        route("Match", Shape::MethodList),
    ],
    groups: &["Group"],
    context_types: &["echo.Context"],
    reads: READS,
    handler_after_path: true,
    ..Framework::BASE
};

impl Analyzer for Echo {
    fn tech(&self) -> Tech {
        Tech::new("go_echo", "Go", "Echo")
            .aliases(["echo", "go-echo"])
            .files(FILES.iter().copied())
            .detect(golang::gomod_requires(&["github.com/labstack/echo"]))
            .detect(golang::go_imports(&["github.com/labstack/echo"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        // PocketBase (v0.22 and earlier) serves an Echo v5 router: its
        // files' routes are `go_pocketbase`'s.
        golang::analyze_except(file, out, &FRAMEWORK, &["github.com/pocketbase/pocketbase"]);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(golang::link(facts))
    }
}
