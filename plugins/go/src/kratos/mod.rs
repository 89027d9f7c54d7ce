//! Kratos (`go_kratos`, v2 `github.com/go-kratos/kratos/v2`).
//!
//! Routes on the HTTP transport (`transport/http`, imported as `http`,
//! `khttp`, `transhttp`, …):
//! - the `protoc-gen-go-http` output (`*_http.pb.go`):
//!   `func RegisterXHTTPServer(s *http.Server, srv XHTTPServer) { r :=
//!   s.Route("/"); r.GET("/v1/users/{id}", _X_GetUser0_HTTP_Handler(srv)) }`,
//!   reported at the `r.GET(…)` line; the servers it is called with
//!   (`v1.RegisterXHTTPServer(srv, svc)` in `internal/server`) carry their
//!   prefixes, and a register function never called is still reported;
//! - hand-written routes: `srv.Route("/x")` and `r.Group("/y")` routers
//!   (also across files and packages), `r.GET/POST/PUT/PATCH/DELETE/
//!   HEAD/OPTIONS/CONNECT/TRACE(path, h)`, and `srv.HandleFunc(path, h)` /
//!   `srv.HandlePrefix(path, h)` (net/http handlers, reported GET).
//!
//! Parameters: the generated handlers bind the request message
//! (`ctx.Bind(&in)` for a `body: "*"` rule, `ctx.BindQuery(&in)` without
//! body); its fields come from the generated struct in `*.pb.go` when it is
//! in the tree, named by their protobuf JSON name (`json=pageSize`, else
//! `name=`): JSON for POST/PUT/PATCH with `body: "*"`, query for GET/DELETE.
//! Fields bound from the path (`ctx.BindVars`) are the URL placeholders and
//! are not repeated as query or JSON fields. Hand-written handlers
//! (`func(ctx http.Context) error`): `ctx.Vars().Get` (path),
//! `ctx.Query().Get` (query), `ctx.Form().Get` (form), `ctx.Header().Get`
//! (header), `ctx.Request()` net/http reads (and `*http.Request` reads in
//! `HandleFunc` handlers), and `ctx.Bind`/`BindQuery`/
//! `BindForm` into structs (`json` tags, as Kratos' form codec does).
//!
//! Gaps: a body naming one field (`body: "user"` → `ctx.Bind(&in.User)`)
//! contributes nothing for the body; `Router.Handle(method, path, h)`,
//! `srv.Handle(path, h)`; gRPC-only services are not HTTP endpoints.

use portolan_plugin_sdk::prelude::*;

use crate::golang::facts::BindKind;
use crate::golang::framework::{
    bind, concat, read, route, Framework, Read, Shape, NET_HTTP_READS, UPPER_VERBS_ALL,
};
use crate::golang::{self, FILES};

pub struct Kratos;

const OWN: &[Read] = &[
    read("{}.Vars()", "Get", ParamKind::Path, 0),
    read("{}.Query()", "Get", ParamKind::Query, 0),
    read("{}.Form()", "Get", ParamKind::Form, 0),
    read("{}.Header()", "Get", ParamKind::Header, 0),
    read("{}.Request().URL.Query()", "Get", ParamKind::Query, 0),
    read("{}.Request()", "FormValue", ParamKind::Form, 0),
    read("{}.Request()", "PostFormValue", ParamKind::Form, 0),
    read("{}.Request()", "FormFile", ParamKind::File, 0),
    read("{}.Request().Header", "Get", ParamKind::Header, 0),
    read("{}.Request()", "Cookie", ParamKind::Cookie, 0),
    bind("{}", "Bind", BindKind::ProtoJson, 0),
    bind("{}", "BindQuery", BindKind::ProtoQuery, 0),
    bind("{}", "BindForm", BindKind::ProtoForm, 0),
];

const READS: &[Read] = &concat::<{ OWN.len() + NET_HTTP_READS.len() }>(OWN, NET_HTTP_READS);

pub const FRAMEWORK: Framework = Framework {
    constructors: &[
        "http.NewServer",
        "khttp.NewServer",
        "transhttp.NewServer",
        "kratoshttp.NewServer",
        "thttp.NewServer",
        "httptransport.NewServer",
    ],
    verbs: UPPER_VERBS_ALL,
    routes: &[
        route("HandleFunc", Shape::Pattern),
        route("HandlePrefix", Shape::Pattern),
    ],
    groups: &["Route", "Group"],
    context_types: &[
        "http.Context",
        "khttp.Context",
        "transhttp.Context",
        "kratoshttp.Context",
        "thttp.Context",
        "httptransport.Context",
        "*http.Request",
        "*nethttp.Request",
        "*stdhttp.Request",
    ],
    reads: READS,
    ..Framework::BASE
};

impl Analyzer for Kratos {
    fn tech(&self) -> Tech {
        Tech::new("go_kratos", "Go", "Kratos")
            .aliases(["kratos", "go-kratos"])
            .files(FILES.iter().copied())
            .detect(golang::gomod_requires(&["github.com/go-kratos/kratos"]))
            .detect(golang::go_imports(&["github.com/go-kratos/kratos"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        golang::analyze(file, out, &FRAMEWORK);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut out = golang::link(facts);
        for e in &mut out {
            e.url = golang::clean_placeholders(&e.url);
            drop_path_fields(e);
        }
        Ok(out)
    }
}

/// Message fields bound from the path (`ctx.BindVars`) are the URL's
/// placeholders: not query or body fields too. A placeholder `{user_id}`
/// also stands for the JSON name `userId`.
pub fn drop_path_fields(e: &mut Endpoint) {
    let vars = placeholders(&e.url);
    if vars.is_empty() {
        return;
    }
    e.params.retain(|p| {
        p.kind == ParamKind::Path
            || !vars
                .iter()
                .any(|v| *v == p.name || lower_camel(v) == p.name)
    });
}

fn placeholders(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push(rest[open + 1..open + close].to_string());
        rest = &rest[open + close + 1..];
    }
    out
}

/// `user_id` → `userId` (protobuf JSON names).
fn lower_camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut up = false;
    for c in s.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_fields_are_not_repeated() {
        let mut e = Endpoint::new("PUT", "/v1/users/{user_id}/tags/{name}").params([
            Param::json("userId"),
            Param::json("name"),
            Param::json("label"),
        ]);
        drop_path_fields(&mut e);
        assert_eq!(e.params, vec![Param::json("label")]);
        assert_eq!(placeholders("/a/{b"), Vec::<String>::new());
    }
}
