//! chi (`go_chi`).
//!
//! Routes: `r.Get/Post/Put/Patch/Delete/Head/Options/Connect/Trace(pattern,
//! h)`, `r.Method("GET", pattern, h)` / `MethodFunc`, and
//! `r.Handle`/`r.HandleFunc` (a `"GET /x"` pattern gives the method,
//! otherwise GET). Sub-routers: `r.Route("/x", func(r chi.Router) {…})`,
//! `r.Group(func(r chi.Router) {…})`, `r.With(mw).Get(…)`, and
//! `r.Mount("/x", sub)` where `sub` is built by a function of any file or
//! package (`users.Routes()`, `h.Routes()`), a local router, or a router
//! passed in.
//!
//! Parameters: `chi.URLParam(r, "id")` (path) and the `*http.Request`
//! accessors (`URL.Query().Get`, `FormValue`, `Header.Get`, `Cookie`,
//! `FormFile`, `PathValue`, `json.NewDecoder(r.Body).Decode(&v)`), and
//! go-chi/render's `render.Bind(r, &v)` / `render.DecodeJSON(r.Body, &v)`
//! (JSON body). A sub-router built by a method of a struct field
//! (`r.Mount("/accounts", a.Accounts.router())`) or of a value a package's
//! constructor returned (`api, err := admin.NewAPI(db)` …
//! `r.Mount("/admin", api.Router())`) is that type's method, in that
//! package.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{
    bind, read, route, Framework, Read, Shape, NET_HTTP_READS, TITLE_VERBS_ALL,
};

const CHI_READS: &[Read] = &[
    read("chi", "URLParam", ParamKind::Path, 1),
    read("chi", "URLParamFromCtx", ParamKind::Path, 1),
    // go-chi/render: `render.Bind(r, &req)` and `render.DecodeJSON(r.Body,
    // &req)` decode the JSON body into the value.
    bind("render", "Bind", BindKind::Json, 1),
    bind("render", "DecodeJSON", BindKind::Json, 1),
];

/// Both tables: chi's own accessors and net/http's.
const READS: &[Read] = &concat_reads();

const fn concat_reads() -> [Read; CHI_READS.len() + NET_HTTP_READS.len()] {
    let mut out = [CHI_READS[0]; CHI_READS.len() + NET_HTTP_READS.len()];
    let mut i = 0;
    while i < CHI_READS.len() {
        out[i] = CHI_READS[i];
        i += 1;
    }
    let mut j = 0;
    while j < NET_HTTP_READS.len() {
        out[i + j] = NET_HTTP_READS[j];
        j += 1;
    }
    out
}

pub const FRAMEWORK: Framework = Framework {
    constructors: &["chi.NewRouter", "chi.NewMux"],
    verbs: TITLE_VERBS_ALL,
    routes: &[
        route("Method", Shape::MethodArg),
        route("MethodFunc", Shape::MethodArg),
        route("Handle", Shape::Pattern),
        route("HandleFunc", Shape::Pattern),
    ],
    groups: &["Route", "Group"],
    passthrough: &["With"],
    mounts: &["Mount"],
    context_types: &["*http.Request"],
    reads: READS,
    ..Framework::BASE
};

golang::go_analyzer!(
    Chi,
    "go_chi",
    "Chi",
    ["chi", "go-chi"],
    ["github.com/go-chi/chi"],
    link
);
