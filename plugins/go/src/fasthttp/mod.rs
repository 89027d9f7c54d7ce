//! fasthttp (`go_fasthttp`) with its routers (fasthttp/router, and the
//! same API in forks).
//!
//! Routes: `r.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS/CONNECT/TRACE(path,
//! h)`, `r.ANY(path, h)` and `r.Handle("METHOD", path, h)` on
//! `router.New()` routers and groups (`api := r.Group("/api")`, nested),
//! including groups passed into functions of other files and packages.
//! Paths use `{name}`, `{name?}` and `{name:*}` segments; the optional and
//! catch-all markers are dropped from the reported URL.
//!
//! `ANY` is reported with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS,
//! CONNECT and TRACE.
//!
//! Parameters from the handler's `*fasthttp.RequestCtx`:
//! `QueryArgs().Peek/Has/GetUint/GetBool/PeekMulti` (query),
//! `PostArgs().Peek/Has/PeekMulti` and `FormValue` (form), `UserValue`
//! (path), `Request.Header.Peek` (header), `Request.Header.Cookie`
//! (cookie), `FormFile` (file), and `json.Unmarshal(ctx.PostBody(), &v)`
//! (`json` tags).
//!
//! Detection: `go.mod` requiring `github.com/fasthttp/router` or requiring
//! `github.com/valyala/fasthttp` directly (not `// indirect`, which every
//! Fiber app does).
//!
//! Gap: bare `fasthttp.ListenAndServe(addr, h)` apps dispatching on
//! `string(ctx.Path())` in a `switch` are not read.

use portolan_plugin_sdk::prelude::*;

use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, UPPER_VERBS_ALL};
use crate::golang::{self, FILES};

pub struct FastHttp;

const READS: &[Read] = &[
    read("{}.QueryArgs()", "Peek", ParamKind::Query, 0),
    read("{}.QueryArgs()", "Has", ParamKind::Query, 0),
    read("{}.QueryArgs()", "GetUint", ParamKind::Query, 0),
    read("{}.QueryArgs()", "GetUintOrZero", ParamKind::Query, 0),
    read("{}.QueryArgs()", "GetUfloat", ParamKind::Query, 0),
    read("{}.QueryArgs()", "GetBool", ParamKind::Query, 0),
    read("{}.QueryArgs()", "PeekMulti", ParamKind::Query, 0),
    read("{}.URI().QueryArgs()", "Peek", ParamKind::Query, 0),
    read("{}.PostArgs()", "Peek", ParamKind::Form, 0),
    read("{}.PostArgs()", "Has", ParamKind::Form, 0),
    read("{}.PostArgs()", "PeekMulti", ParamKind::Form, 0),
    read("{}.PostArgs()", "GetUint", ParamKind::Form, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}", "UserValue", ParamKind::Path, 0),
    read("{}.Request.Header", "Peek", ParamKind::Header, 0),
    read("{}.Request.Header", "Cookie", ParamKind::Cookie, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    bind("json", "Unmarshal", BindKind::Json, 1),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["router.New"],
    verbs: UPPER_VERBS_ALL,
    routes: &[
        route("ANY", Shape::Fixed(ANY)),
        route("Handle", Shape::MethodArg),
    ],
    groups: &["Group"],
    context_types: &["*fasthttp.RequestCtx"],
    reads: READS,
    ..Framework::BASE
};

impl Analyzer for FastHttp {
    fn tech(&self) -> Tech {
        Tech::new("go_fasthttp", "Go", "fasthttp")
            .aliases(["fasthttp", "go-fasthttp"])
            .files(FILES.iter().copied())
            .detect(golang::gomod_requires(&["github.com/fasthttp/router"]))
            .detect(golang::go_imports(&["github.com/fasthttp/router"]))
            .detect(
                Detect::files(["go.mod"])
                    .regex([r"(?m)^\s*(require\s+)?github\.com/valyala/fasthttp\s+v\S+\s*$"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        golang::analyze(file, out, &FRAMEWORK);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(golang::link_clean(facts))
    }
}
