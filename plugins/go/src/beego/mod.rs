//! Beego (`go_beego`, v1 `github.com/astaxie/beego` and v2
//! `github.com/beego/beego/v2/server/web`).
//!
//! Routes:
//! - `web.Router(path, &C{}, "get:List;post,put:Save;*:Any")`: each
//!   mapping pair names the controller method handling those methods
//!   (`*` is reported with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS,
//!   CONNECT, TRACE); without a mapping, the controller's methods named
//!   `Get`, `Post`, `Put`, `Patch`, `Delete`, `Head`, `Options` (GET when
//!   none is found);
//! - `web.Include(&C{})`: the controller's `// @router /path [get,post]`
//!   annotations (`[*]` is every method, no brackets GET);
//! - `web.Get/Post/Put/Patch/Delete/Head/Options/Any(path, func)`;
//! - namespaces: `web.NewNamespace("/v1", web.NSRouter(…), web.NSInclude(…),
//!   web.NSGet(…), web.NSNamespace("/x", …), userNS())` nested to any
//!   depth; arguments that are calls to functions of the tree
//!   (`routes.AdminNS()`) contribute the namespace items those functions
//!   build. Every `NewNamespace` tree is reported (whether it reaches
//!   `web.AddNamespace` is not checked).
//!
//! Typed and regex placeholders (`:id:int`, `:id([0-9]+)`) are reported as
//! `:id`.
//!
//! Parameters: what the controller method reads through its receiver —
//! `GetString/GetStrings/GetInt…/GetBool/GetFloat` and `Input().Get`
//! (query; a `:name` key reads the path), `Ctx.Input.Query` (query),
//! `Ctx.Input.Param` (path), `Ctx.Input.Header` / `Ctx.Request.Header.Get`
//! (header), `Ctx.Input.Cookie` / `Ctx.GetCookie` / `GetSecureCookie`
//! (cookie), `GetFile` / `GetFiles` (file), `ParseForm(&v)` (`form`
//! tags), `BindJSON(&v)` and `json.Unmarshal(c.Ctx.Input.RequestBody, &v)`
//! (`json` tags), `Bind(&v)` (content negotiated); the same reads on a
//! `*context.Context` in function handlers; and the `@Param` annotations
//! of included methods (`path`, `query`, `formData`, `header`, and a
//! `body` struct's `json` fields).
//!
//! Gaps: `AutoRouter`/`NSAutoRouter` (routes derived from method names),
//! namespace methods (`ns.Router(…)`, `ns.Namespace(…)`), controllers held
//! in variables, and the generated `commentsRouter_*.go` tables.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::golang::facts::{BindKind, Fact};
use crate::golang::framework::{bind, read, Framework, Read};
use crate::golang::{self, FILES};

pub struct Beego;

const READS: &[Read] = &[
    read("{}", "GetString", ParamKind::Query, 0),
    read("{}", "GetStrings", ParamKind::Query, 0),
    read("{}", "GetInt", ParamKind::Query, 0),
    read("{}", "GetInt8", ParamKind::Query, 0),
    read("{}", "GetInt16", ParamKind::Query, 0),
    read("{}", "GetInt32", ParamKind::Query, 0),
    read("{}", "GetInt64", ParamKind::Query, 0),
    read("{}", "GetUint8", ParamKind::Query, 0),
    read("{}", "GetUint16", ParamKind::Query, 0),
    read("{}", "GetUint32", ParamKind::Query, 0),
    read("{}", "GetUint64", ParamKind::Query, 0),
    read("{}", "GetBool", ParamKind::Query, 0),
    read("{}", "GetFloat", ParamKind::Query, 0),
    read("{}.Input()", "Get", ParamKind::Query, 0),
    read("{}.Ctx.Input", "Query", ParamKind::Query, 0),
    read("{}.Ctx.Input", "Param", ParamKind::Path, 0),
    read("{}.Ctx.Input", "Header", ParamKind::Header, 0),
    read("{}.Ctx.Request.Header", "Get", ParamKind::Header, 0),
    read("{}.Ctx.Input", "Cookie", ParamKind::Cookie, 0),
    read("{}.Ctx", "GetCookie", ParamKind::Cookie, 0),
    read("{}", "GetSecureCookie", ParamKind::Cookie, 1),
    read("{}.Ctx.Request", "FormValue", ParamKind::Form, 0),
    read("{}", "GetFile", ParamKind::File, 0),
    read("{}", "GetFiles", ParamKind::File, 0),
    bind("{}", "ParseForm", BindKind::Form, 0),
    bind("{}", "BindJSON", BindKind::Json, 0),
    bind("{}", "BindForm", BindKind::Form, 0),
    bind("{}", "Bind", BindKind::Auto, 0),
    bind("json", "Unmarshal", BindKind::Json, 1),
    // Function handlers: `func(ctx *context.Context)`.
    read("{}.Input", "Query", ParamKind::Query, 0),
    read("{}.Input", "Param", ParamKind::Path, 0),
    read("{}.Input", "Header", ParamKind::Header, 0),
    read("{}.Input", "Cookie", ParamKind::Cookie, 0),
    read("{}", "GetCookie", ParamKind::Cookie, 0),
    read("{}.Request.Header", "Get", ParamKind::Header, 0),
];

pub const FRAMEWORK: Framework = Framework {
    context_types: &["*context.Context", "*beecontext.Context"],
    reads: READS,
    receiver_context: true,
    ..Framework::BASE
};

impl Analyzer for Beego {
    fn tech(&self) -> Tech {
        Tech::new("go_beego", "Go", "Beego")
            .aliases(["beego", "go-beego"])
            .files(FILES.iter().copied())
            .detect(golang::gomod_requires(&[
                "github.com/beego/beego",
                "github.com/astaxie/beego",
            ]))
            .detect(golang::go_imports(&[
                "github.com/beego/beego",
                "github.com/astaxie/beego",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(go) = golang::scan_source(file, out, &FRAMEWORK) else {
            return;
        };
        let code = file.code(Syntax::GO);
        let b = scan::scan(file, &code, &go, &FRAMEWORK);
        out.fact(&Fact::File(Box::new(go)));
        out.fact(&scan::BeegoFact::Beego(Box::new(b)));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link::endpoints(facts))
    }
}
