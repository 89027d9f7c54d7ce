//! GoFrame (`go_gf`, v2 `github.com/gogf/gf/v2`).
//!
//! Routes on `g.Server()` / `ghttp.GetServer()` and their groups
//! (`s.Group("/api", func(group *ghttp.RouterGroup) {…})`, nested, and
//! groups passed into functions of other files and packages), also inside
//! package-level command literals (`var Main = gcmd.Command{Func: func(…)
//! {…}}`, the `gf init` layout):
//! - `group.Bind(ctrl…)` (standard router): every method of the bound
//!   controllers taking a request struct with an embedded
//!   `g.Meta \`path:"/users/{id}" method:"get"\`` is a route at that path
//!   below the group, reported at the request struct's declaration. A
//!   controller written `&Hello{}` / `new(pkg.Hello)` selects that type; a
//!   constructor call or package variable (`user.NewV1()`,
//!   `controller.Hello`) selects every controller of that package. No
//!   `method` tag: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT,
//!   TRACE;
//! - `group.GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS/CONNECT/TRACE(path, h)`
//!   and `group.ALL(path, h)` (the nine methods above).
//!
//! Parameters: request struct fields named by `json` (or `p`) tags, from
//! the source their `in` tag names (`path`, `query`, `header`, `cookie`),
//! otherwise the query string for GET/DELETE/HEAD and the JSON body for
//! the other methods; embedded structs are followed. Classic handlers'
//! `*ghttp.Request` reads: `Get`/`GetQuery`/`GetRequest` (query),
//! `GetForm`/`GetPost` (form), `GetRouter` (path), `GetHeader`/
//! `Header.Get` (header), `Cookie.Get` (cookie), `GetUploadFile(s)`
//! (file), `Parse(&v)` (content negotiated).
//!
//! Gaps: `s.BindHandler("METHOD:/path", h)`, `group.Map`, `BindObject`
//! method-name routes, and controllers whose package is outside the tree.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{bind, read, route, Framework, Read, Shape, ANY, UPPER_VERBS_ALL};

const READS: &[Read] = &[
    read("{}", "Get", ParamKind::Query, 0),
    read("{}", "GetQuery", ParamKind::Query, 0),
    read("{}", "GetRequest", ParamKind::Query, 0),
    read("{}", "GetForm", ParamKind::Form, 0),
    read("{}", "GetPost", ParamKind::Form, 0),
    read("{}", "GetRouter", ParamKind::Path, 0),
    read("{}", "GetHeader", ParamKind::Header, 0),
    read("{}.Header", "Get", ParamKind::Header, 0),
    read("{}.Cookie", "Get", ParamKind::Cookie, 0),
    read("{}", "GetUploadFile", ParamKind::File, 0),
    read("{}", "GetUploadFiles", ParamKind::File, 0),
    bind("{}", "Parse", BindKind::Auto, 0),
];

pub const FRAMEWORK: Framework = Framework {
    constructors: &["g.Server", "ghttp.GetServer"],
    verbs: UPPER_VERBS_ALL,
    routes: &[
        route("ALL", Shape::Fixed(ANY)),
        route("Bind", Shape::Controllers),
    ],
    groups: &["Group"],
    context_types: &["*ghttp.Request"],
    reads: READS,
    param_bind: Some((1, BindKind::Meta)),
    ..Framework::BASE
};

golang::go_analyzer!(
    Gf,
    "go_gf",
    "GoFrame",
    ["gf", "goframe", "go-gf"],
    ["github.com/gogf/gf"],
    link
);
