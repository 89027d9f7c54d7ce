//! Reusable Go analysis shared by every Go framework analyzer.
//!
//! - [`syntax`]: identifiers, selector/call chains, statements, signatures;
//! - [`strexpr`]: string expressions (constants, `+`, `fmt.Sprintf`);
//! - [`scan`]: the map step, driven by a [`framework::Framework`];
//! - [`link`]: the reduce step (imports via `go.mod`, constants across
//!   packages, router prefixes through calls, returns, variables, fields
//!   and mounts, handler parameters and bound structs).
//!
//! A framework module declares a [`framework::Framework`] and calls
//! [`analyze`] and [`link`] from its `Analyzer` impl.

pub mod facts;
pub mod framework;
pub mod link;
pub mod scan;
pub mod strexpr;
pub mod syntax;

use portolan_plugin_sdk::prelude::*;

use facts::Fact;
use framework::Framework;

/// The files every Go analyzer wants.
pub const FILES: &[&str] = &["*.go", "go.mod"];

/// Map step for one file: `go.mod` module paths and scanned Go sources
/// (test files and test doubles skipped).
pub fn analyze(file: &SourceFile, out: &mut Output, fw: &Framework) {
    if let Some(scanned) = scan_source(file, out, fw) {
        out.fact(&Fact::File(Box::new(scanned)));
    }
}

/// The start of every Go map step: a `go.mod` gives its module fact (and
/// `None`), a Go source outside tests is scanned (the caller reports the
/// scan, after its own readers used it), anything else is `None`.
pub fn scan_source(file: &SourceFile, out: &mut Output, fw: &Framework) -> Option<facts::GoFile> {
    let path = file.slash_path();
    let name = path.rsplit('/').next().unwrap_or(&path);
    if name == "go.mod" {
        if let Some(m) = scan::scan_gomod(file) {
            out.fact(&m);
        }
        return None;
    }
    if !name.ends_with(".go") || is_test_path(&path) {
        return None;
    }
    Some(scan::scan_file(file, fw))
}

/// [`analyze`], except for files importing one of `owners` (packages of
/// a framework that embeds this one and reports those routes itself, such
/// as PocketBase over Echo): such files contribute no routes.
pub fn analyze_except(file: &SourceFile, out: &mut Output, fw: &Framework, owners: &[&str]) {
    let path = file.slash_path();
    if !path.ends_with(".go") {
        analyze(file, out, fw);
        return;
    }
    if is_test_path(&path) {
        return;
    }
    let mut scanned = scan::scan_file(file, fw);
    let owned = scanned.imports.iter().any(|i| {
        owners
            .iter()
            .any(|o| i.path == *o || i.path.starts_with(&format!("{o}/")))
    });
    if owned {
        for f in &mut scanned.funcs {
            f.routes.clear();
        }
    }
    out.fact(&Fact::File(Box::new(scanned)));
}

/// [`link`] with regex placeholders cleaned (`{id:[0-9]+}` → `{id}`).
pub fn link_clean(facts: &Facts) -> Vec<Endpoint> {
    let mut out = link(facts);
    for e in &mut out {
        e.url = clean_placeholders(&e.url);
    }
    out
}

/// Reduce step: every endpoint.
pub fn link(facts: &Facts) -> Vec<Endpoint> {
    let all: Vec<Fact> = facts.all();
    link::Linker::new(all).endpoints()
}

/// Brace placeholders reduced to their name, for routers with typed,
/// optional or catch-all segments: `{id?}`, `{rest:*}`, `{id:uint64}`,
/// `{id:int min(1)}`, `{code:[a-z]+}` → `{id}`, `{rest}`, … .
pub fn clean_placeholders(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &rest[open + 1..open + close];
        let name = inner
            .split(':')
            .next()
            .unwrap_or(inner)
            .trim_end_matches('?');
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// A detection rule: a `go.mod` requiring one of these modules.
pub fn gomod_requires(modules: &[&str]) -> Detect {
    Detect::files(["go.mod"]).contains(modules.iter().copied())
}

/// A detection rule: a Go file importing one of these modules (or a
/// package below them), for a tree with no `go.mod` or one that does not
/// list its requirements (a single-file example, a tree before
/// `go mod tidy`).
pub fn go_imports(modules: &[&str]) -> Detect {
    Detect::files(["*.go"]).contains(modules.iter().map(|m| format!("\"{m}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fw: &Framework, files: &[(&str, &str)]) -> Vec<String> {
        let mut facts = Facts::new(Vec::new());
        for (path, content) in files {
            let mut out = Output::new();
            analyze(&SourceFile::new(*path, *content), &mut out, fw);
            facts.extend(out.into_parts().1);
        }
        let mut got: Vec<String> = link(&facts)
            .into_iter()
            .map(|e| format!("{} {}", e.method, e.url))
            .collect();
        got.sort();
        got
    }

    #[test]
    fn comments_strings_and_test_files_are_not_routes() {
        let main = r#"package main
import "github.com/gin-gonic/gin"
func main() {
	r := gin.New()
	// r.GET("/commented", h)
	/* r.POST("/block", h) */
	msg := "r.GET(\"/in-string\", h)"
	r.GET("/real", h)
	_ = msg
}
func h(c *gin.Context) {}
"#;
        let test = r#"package main
import "github.com/gin-gonic/gin"
func TestX() { r := gin.New(); r.GET("/from-test", h) }
"#;
        let got = run(
            &crate::gin::FRAMEWORK,
            &[("app/main.go", main), ("app/main_test.go", test)],
        );
        assert_eq!(got, vec!["GET /real"]);
    }

    #[test]
    fn context_lookalikes_and_clients_are_not_routes() {
        let src = r#"package main
import "github.com/gofiber/fiber/v2"
func main() {
	app := fiber.New()
	app.Get("/ok", func(c *fiber.Ctx) error {
		_ = c.Get("X-Key", "default")
		agent := fiber.Get("https://example.com/x")
		_ = agent
		return nil
	})
}
"#;
        assert_eq!(
            run(&crate::fiber::FRAMEWORK, &[("a/main.go", src)]),
            vec!["GET /ok"]
        );
    }

    #[test]
    fn constants_from_other_packages_and_sprintf() {
        let gomod = "module example.com/m\n\ngo 1.22\n";
        let consts = "package paths\n\nconst (\n\tAPI = \"/api\"\n\tV2  = API + \"/v2\"\n)\n";
        let main = r#"package main
import (
	"fmt"
	"github.com/labstack/echo/v4"
	p "example.com/m/internal/paths"
)
func main() {
	e := echo.New()
	g := e.Group(fmt.Sprintf("%s/things", p.V2))
	g.GET("/:id", nil)
}
"#;
        let got = run(
            &crate::echo::FRAMEWORK,
            &[
                ("app/go.mod", gomod),
                ("app/internal/paths/paths.go", consts),
                ("app/main.go", main),
            ],
        );
        assert_eq!(got, vec!["GET /api/v2/things/:id"]);
    }

    #[test]
    fn echo_leaves_pocketbase_files_alone() {
        let gomod = "module example.com/m\n\nrequire github.com/labstack/echo/v5 v5.0.0\n";
        let pb = r#"package main
import (
	"github.com/labstack/echo/v5"
	"github.com/pocketbase/pocketbase/core"
)
func hooks(e *core.ServeEvent) { e.Router.GET("/pb", func(c echo.Context) error { return nil }) }
"#;
        let plain = r#"package main
import "github.com/labstack/echo/v5"
func main() { e := echo.New(); e.GET("/plain", nil) }
"#;
        let mut facts = Facts::new(Vec::new());
        for (path, src) in [("go.mod", gomod), ("pb.go", pb), ("plain.go", plain)] {
            let mut out = Output::new();
            crate::echo::Echo.analyze(&SourceFile::new(path, src), &mut out);
            facts.extend(out.into_parts().1);
        }
        let got: Vec<String> = link(&facts).into_iter().map(|e| e.url).collect();
        assert_eq!(got, vec!["/plain"]);
    }

    #[test]
    fn other_frameworks_routers_are_not_net_http_routes() {
        let src = r#"package main
import (
	"net/http"
	"github.com/gorilla/mux"
)
func main() {
	r := mux.NewRouter()
	api := r.PathPrefix("/api").Subrouter()
	api.HandleFunc("/items/{id}", item).Methods("GET")
	mux.NewRouter().HandleFunc("/inline", item)
	http.HandleFunc("/healthz", item)
	http.ListenAndServe(":8080", r)
}
func item(w http.ResponseWriter, r *http.Request) {}
"#;
        assert_eq!(
            run(&crate::nethttp::FRAMEWORK, &[("a/main.go", src)]),
            vec!["GET /healthz"]
        );
        assert_eq!(
            run(&crate::mux::FRAMEWORK, &[("a/main.go", src)]),
            vec!["GET /api/items/{id}", "GET /inline"]
        );
    }

    #[test]
    fn placeholders_cleaned() {
        assert_eq!(
            clean_placeholders("/a/{id?}/b/{rest:*}/{n:int min(1)}"),
            "/a/{id}/b/{rest}/{n}"
        );
        assert_eq!(clean_placeholders("/plain"), "/plain");
        assert_eq!(clean_placeholders("/broken/{x"), "/broken/{x");
    }

    #[test]
    fn malformed_input_does_not_panic() {
        for src in [
            "package x\nfunc (",
            "package x\nfunc f() { r.GET(\"/a\", ",
            "package x\nvar x = gin.New(\nfunc",
            "package x\ntype T struct { A string `json:\"a",
            "package x\nfunc f() { v := r.Group(\"/x\"\n v.GET(",
            "package x\nfunc f() { beego.NewNamespace(\"/v\", beego.NSNamespace(",
            "package x\n// @router /x [get\nfunc (c *C) M(",
            "package x\nfunc f() { huma.Register(api, huma.Operation{Path: ",
            "package x\nvar Main = gcmd.Command{Func: func(ctx context.Context) {",
        ] {
            let _ = run(&crate::gin::FRAMEWORK, &[("m.go", src)]);
            let _ = run(&crate::mux::FRAMEWORK, &[("m.go", src)]);
            let _ = run(&crate::huma::FRAMEWORK, &[("m.go", src)]);
            let _ = run(&crate::gf::FRAMEWORK, &[("m.go", src)]);
            let mut out = Output::new();
            let beego = "package x\nimport \"github.com/astaxie/beego\"\n";
            let f = SourceFile::new("m.go", format!("{beego}{src}"));
            crate::beego::Beego.analyze(&f, &mut out);
            let _ = crate::beego::Beego.link(&out.into_parts().1);
        }
    }
}

/// A Go framework's analyzer: its unit struct and an `Analyzer` detected
/// by the framework's module paths in `go.mod` or in imports, scanning with
/// the shared Go layer driven by the calling module's `FRAMEWORK` and
/// linking with `$link` ([`link`] or [`link_clean`]).
/// `go_analyzer!(Gin, "go_gin", "Gin", ["gin", "go-gin"], ["github.com/gin-gonic/gin"], link);`
macro_rules! go_analyzer {
    ($ty:ident, $id:literal, $name:literal, [$($alias:literal),*], [$($module:literal),*], $link:ident) => {
        pub struct $ty;

        impl portolan_plugin_sdk::Analyzer for $ty {
            fn tech(&self) -> portolan_plugin_sdk::Tech {
                portolan_plugin_sdk::Tech::new($id, "Go", $name)
                    .aliases([$($alias),*])
                    .files($crate::golang::FILES.iter().copied())
                    .detect($crate::golang::gomod_requires(&[$($module),*]))
                    .detect($crate::golang::go_imports(&[$($module),*]))
            }

            fn analyze(
                &self,
                file: &portolan_plugin_sdk::SourceFile,
                out: &mut portolan_plugin_sdk::Output,
            ) {
                $crate::golang::analyze(file, out, &FRAMEWORK);
            }

            fn link(
                &self,
                facts: &portolan_plugin_sdk::Facts,
            ) -> Result<Vec<portolan_plugin_sdk::Endpoint>, String> {
                Ok($crate::golang::$link(facts))
            }
        }
    };
}
pub(crate) use go_analyzer;
