//! net/http (`go_http`).
//!
//! Routes: `http.HandleFunc` / `http.Handle` on the default mux and
//! `mux.HandleFunc` / `mux.Handle` on `http.NewServeMux()` values (also
//! passed to functions, returned or stored in fields), with Go 1.22
//! patterns `"GET /items/{id}"` (method, optional host, `{name...}`
//! wildcards, `{$}`). A pattern without a method serves every method and is
//! reported as GET. `mux.Handle("/api/", http.StripPrefix("/api", api))`
//! mounts `api`'s routes below `/api`.
//!
//! Parameters: `r.PathValue`, `r.URL.Query().Get` (also through
//! `q := r.URL.Query()`), `r.FormValue`/`PostFormValue`, `r.Header.Get`,
//! `r.Cookie`, `r.FormFile`, and `json.NewDecoder(r.Body).Decode(&v)`.
//! A JSON decoder over any reader of the body counts
//! (`json.NewDecoder(http.MaxBytesReader(w, r.Body, n))`, or a copy:
//! `raw, _ := io.ReadAll(r.Body)` then `bytes.NewReader(raw)`).
//! Handlers taking the application's own context type instead of
//! `(w, r)` read through its `c.Request()` (any non-context parameter
//! whose `.Request()` is called stands for the request).
//!
//! Detection: a `.go` file importing `net/http` that uses `NewServeMux`,
//! `http.HandleFunc(` or `http.Handle("`.

use portolan_plugin_sdk::prelude::*;

use crate::golang::framework::{route, Framework, Shape, NET_HTTP_READS};
use crate::golang::{self, FILES};

pub struct NetHttp;

pub const FRAMEWORK: Framework = Framework {
    constructors: &["http.NewServeMux"],
    routes: &[
        route("HandleFunc", Shape::Pattern),
        route("Handle", Shape::Pattern),
    ],
    package_routers: &["http"],
    strip_prefix: &["http.StripPrefix"],
    context_types: &["*http.Request"],
    reads: NET_HTTP_READS,
    ..Framework::BASE
};

impl Analyzer for NetHttp {
    fn tech(&self) -> Tech {
        Tech::new("go_http", "Go", "net/http")
            .aliases(["net/http", "go-http", "nethttp"])
            .files(FILES.iter().copied())
            .detect(
                Detect::files(["*.go"]).regex([
                    r#"(?s)"net/http".*(NewServeMux\(|http\.HandleFunc\(|http\.Handle\(")"#,
                ]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        golang::analyze(file, out, &FRAMEWORK);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(golang::link(facts))
    }
}
