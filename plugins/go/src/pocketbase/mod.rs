//! PocketBase used as a framework (`go_pocketbase`,
//! `github.com/pocketbase/pocketbase`): the custom routes an application
//! adds to the server PocketBase runs.
//!
//! Routes:
//! - v0.23+: inside `app.OnServe().BindFunc(func(se *core.ServeEvent)
//!   error {…})`, `se.Router.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS(path,
//!   h)`, `se.Router.Route(method, path, h)`, `se.Router.Any(path, h)`
//!   (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT, TRACE) and
//!   groups (`g := se.Router.Group("/api/v2")`, nested, also passed into
//!   functions of other files and packages); Go 1.22 wildcards
//!   (`{path...}`) are reported as `{path}`;
//! - v0.22 and earlier (Echo router): inside `app.OnBeforeServe().Add(
//!   func(e *core.ServeEvent) error {…})`, `e.Router.GET(…)` and friends,
//!   `e.Router.Group("/x")`, and `e.Router.AddRoute(echo.Route{Method:
//!   http.MethodPost, Path: "/y", Handler: h})`.
//!
//! The router is recognised as the `Router` field of any value
//! (`se.Router`, `e.Router`), which is how every PocketBase hook exposes it.
//!
//! Parameters: v0.23 `*core.RequestEvent` reads (`e.Request.PathValue`,
//! `e.Request.URL.Query().Get`, `e.Request.FormValue`,
//! `e.Request.Header.Get`, `e.Request.Cookie`, `e.FindUploadedFiles`,
//! `e.BindBody(&v)` with `json` tags, else `form`), and v0.22
//! `echo.Context` reads (`c.PathParam`, `c.QueryParam`, `c.FormValue`,
//! `c.Request().Header.Get`, `c.Bind(&v)`).
//!
//! Gaps: PocketBase's built-in REST API (`/api/collections/…`) is not
//! reported; routes added through `apis.…` helpers or plugins.

use portolan_plugin_sdk::prelude::*;

use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, UPPER_VERBS};
use crate::golang::{self, FILES};

pub struct PocketBase;

const READS: &[Read] = &[
    // v0.23+ `*core.RequestEvent`.
    read("{}.Request", "PathValue", ParamKind::Path, 0),
    read("{}.Request.URL.Query()", "Get", ParamKind::Query, 0),
    read("{}.Request.URL.Query()", "Has", ParamKind::Query, 0),
    read("{}.Request", "FormValue", ParamKind::Form, 0),
    read("{}.Request", "PostFormValue", ParamKind::Form, 0),
    read("{}.Request", "FormFile", ParamKind::File, 0),
    read("{}.Request.Header", "Get", ParamKind::Header, 0),
    read("{}.Request", "Cookie", ParamKind::Cookie, 0),
    read("{}", "FindUploadedFiles", ParamKind::File, 0),
    bind("{}", "BindBody", BindKind::Auto, 0),
    // v0.22 `echo.Context`.
    read("{}", "PathParam", ParamKind::Path, 0),
    read("{}", "QueryParam", ParamKind::Query, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    read("{}.Request().Header", "Get", ParamKind::Header, 0),
    read("{}", "Cookie", ParamKind::Cookie, 0),
    bind("{}", "Bind", BindKind::Auto, 0),
];

pub const FRAMEWORK: Framework = Framework {
    verbs: UPPER_VERBS,
    routes: &[
        route("Any", Shape::Fixed(ANY)),
        route("Route", Shape::MethodArg),
        route("AddRoute", Shape::Operation),
    ],
    groups: &["Group"],
    context_types: &["*core.RequestEvent", "echo.Context"],
    reads: READS,
    handler_after_path: true,
    ..Framework::BASE
};

impl Analyzer for PocketBase {
    fn tech(&self) -> Tech {
        Tech::new("go_pocketbase", "Go", "PocketBase")
            .aliases(["pocketbase", "go-pocketbase"])
            .files(FILES.iter().copied())
            .detect(golang::gomod_requires(&[
                "github.com/pocketbase/pocketbase",
            ]))
            .detect(golang::go_imports(&["github.com/pocketbase/pocketbase"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        golang::analyze(file, out, &FRAMEWORK);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut out = golang::link(facts);
        for e in &mut out {
            e.url = e.url.replace("...}", "}").replace("{$}", "");
        }
        Ok(out)
    }
}
