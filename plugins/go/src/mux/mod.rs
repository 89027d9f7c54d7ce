//! Gorilla mux (`go_mux`).
//!
//! Routes: `r.HandleFunc(path, h).Methods("GET", "POST")` and `r.Handle`
//! (no `.Methods` means every method, reported as GET), builder chains
//! `r.Path("/x").Methods("POST").HandlerFunc(h)` (also with `.Methods` after
//! the handler: `r.Path("/x").HandlerFunc(h).Methods("GET", "HEAD")`) and
//! `r.PathPrefix("/static/").Handler(fs)`, sub-routers
//! `r.PathPrefix("/api").Subrouter()` (also `.Methods(…).Subrouter()` and
//! `r.NewRoute().Subrouter()`),
//! passed into functions of other packages, returned or stored in fields.
//!
//! Parameters: `mux.Vars(r)["id"]` (also through `vars := mux.Vars(r)`) as
//! path parameters, and the `*http.Request` accessors.

use portolan_plugin_sdk::prelude::*;

use crate::golang;
use crate::golang::framework::{index, route, Framework, Read, Shape, NET_HTTP_READS};

const VARS: Read = index("mux.Vars({})", ParamKind::Path);

const READS: &[Read] = &concat_reads();

const fn concat_reads() -> [Read; NET_HTTP_READS.len() + 1] {
    let mut out = [VARS; NET_HTTP_READS.len() + 1];
    let mut i = 0;
    while i < NET_HTTP_READS.len() {
        out[i + 1] = NET_HTTP_READS[i];
        i += 1;
    }
    out
}

pub const FRAMEWORK: Framework = Framework {
    constructors: &["mux.NewRouter"],
    routes: &[
        route("HandleFunc", Shape::Chained),
        route("Handle", Shape::Chained),
        route("HandlerFunc", Shape::Builder),
        route("Handler", Shape::Builder),
    ],
    groups: &["PathPrefix", "Path"],
    passthrough: &[
        "Subrouter",
        "NewRoute",
        "Methods",
        "Name",
        "Host",
        "Schemes",
        "Headers",
        "Queries",
        "MatcherFunc",
    ],
    context_types: &["*http.Request"],
    reads: READS,
    ..Framework::BASE
};

golang::go_analyzer!(
    Mux,
    "go_mux",
    "Gorilla Mux",
    ["mux", "gorilla", "gorilla-mux", "go-mux"],
    ["github.com/gorilla/mux"],
    link
);
