//! go-restful (`go_restful`, `github.com/emicklei/go-restful` v2/v3).
//!
//! Routes: `ws.Route(ws.GET("/{user-id}").To(h)…)` builder chains on a
//! `*restful.WebService` (`GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS(path)`,
//! or `Method("GET").Path("/x")`), below the service's root path: the
//! `ws.Path(…)` call on the same variable earlier in the same function
//! (`ws.Path("/users").Consumes(…)`, `ws := new(restful.WebService).Path(…)`),
//! constants and concatenations resolved across packages. Every route of
//! every WebService is reported, whether or not it reaches a container
//! (`container.Add(ws)`, `restful.Add(ws)`), and WebServices built in a
//! function of another file and returned are found where they are built.
//!
//! Parameters: the route's documentation chain (`Param(ws.PathParameter(
//! "id", …))`, `QueryParameter`, `HeaderParameter`, `FormParameter`,
//! `MultiPartFormParameter`), `Reads(T{})` (the `json` fields of `T`), and
//! what the `To(…)` handler reads from its `*restful.Request`:
//! `PathParameter`, `QueryParameter(s)`, `HeaderParameter`,
//! `BodyParameter` (form), `Request.Header.Get`, `Request.URL.Query().Get`,
//! `Request.Cookie`, `ReadEntity(&v)` (`json` tags).
//!
//! Gaps: a root path set in another function than the routes
//! (`addRoutes(ws)` called after `ws.Path(…)`), parameters held in
//! variables (`p := ws.PathParameter(…); …Param(p)`), container
//! `ServeMux` prefixes.

pub mod scan;

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::prelude::*;

use crate::golang::facts::{Bind, BindKind, Fact};
use crate::golang::framework::{bind, read, Framework, Read};
use crate::golang::link::Linker;
use crate::golang::{self, FILES};
use scan::RestfulFact;

pub struct Restful;

const READS: &[Read] = &[
    read("{}", "PathParameter", ParamKind::Path, 0),
    read("{}", "QueryParameter", ParamKind::Query, 0),
    read("{}", "QueryParameters", ParamKind::Query, 0),
    read("{}", "HeaderParameter", ParamKind::Header, 0),
    read("{}", "BodyParameter", ParamKind::Form, 0),
    read("{}.Request.Header", "Get", ParamKind::Header, 0),
    read("{}.Request.URL.Query()", "Get", ParamKind::Query, 0),
    read("{}.Request", "FormValue", ParamKind::Form, 0),
    read("{}.Request", "FormFile", ParamKind::File, 0),
    read("{}.Request", "Cookie", ParamKind::Cookie, 0),
    bind("{}", "ReadEntity", BindKind::Json, 0),
];

pub const FRAMEWORK: Framework = Framework {
    context_types: &["*restful.Request"],
    reads: READS,
    ..Framework::BASE
};

impl Analyzer for Restful {
    fn tech(&self) -> Tech {
        Tech::new("go_restful", "Go", "go-restful")
            .aliases(["restful", "go-restful"])
            .files(FILES.iter().copied())
            .detect(golang::gomod_requires(&["github.com/emicklei/go-restful"]))
            .detect(golang::go_imports(&["github.com/emicklei/go-restful"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(go) = golang::scan_source(file, out, &FRAMEWORK) else {
            return;
        };
        let code = file.code(Syntax::GO);
        let routes = scan::scan(file, &code, &FRAMEWORK);
        out.fact(&Fact::File(Box::new(go)));
        if !routes.is_empty() {
            out.fact(&RestfulFact::Routes(file.path.clone(), routes));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let linker = Linker::new(facts.all::<Fact>());
        let mut out = Vec::new();
        for RestfulFact::Routes(path, routes) in facts.all::<RestfulFact>() {
            let Some(fi) = linker.file_index(&path) else {
                continue;
            };
            for r in routes {
                let root = linker.string_in(fi, &r.root);
                let sub = linker.string_in(fi, &r.path);
                let url = join(&[root.as_str(), sub.as_str()]);
                let mut params = r.params.clone();
                for ty in &r.reads {
                    let b = Bind {
                        kind: BindKind::Json,
                        ty: ty.clone(),
                    };
                    params.extend(linker.bind_params_in(fi, &b));
                }
                if let Some(h) = &r.handler {
                    params.extend(linker.handler_params_in(fi, h));
                }
                let mut seen: Vec<(String, ParamKind)> = Vec::new();
                params.retain(|p| {
                    let k = (p.name.clone(), p.kind);
                    let new = !seen.contains(&k);
                    seen.push(k);
                    new
                });
                for m in &r.methods {
                    out.push(
                        Endpoint::new(m, url.clone())
                            .at_path(path.clone(), r.line)
                            .params(params.iter().cloned()),
                    );
                }
            }
        }
        Ok(out)
    }
}
