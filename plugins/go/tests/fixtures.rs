//! Runs each Go analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_go::*;
use portolan_plugin_sdk::{testing, Analyzer};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

portolan_plugin_sdk::fixture_tests! { fixtures_root();
    go_gin_fixtures: gin::Gin => [
        "bind_helpers",
        "doc_idioms",
        "field_handlers",
        "group_middleware",
        "groups",
        "monorepo",
        "plugin_packages",
        "relative_groups",
        "router_slices",
        "validator_objects",
    ],
    go_echo_fixtures: echo::Echo => ["services"],
    go_chi_fixtures: chi::Chi => [
        "body_helpers",
        "handler_interfaces",
        "resource_mounts",
        "same_named_handlers",
        "services",
    ],
    go_http_fixtures: nethttp::NetHttp => ["doc_patterns", "request_context", "services"],
    go_mux_fixtures: mux::Mux => ["matchers", "services", "subrouters"],
    go_fiber_fixtures: fiber::Fiber => [
        "closure_groups",
        "multipart_bind",
        "services",
        "v3_generics",
        "wrapped_handlers",
    ],
    go_httprouter_fixtures: httprouter::HttpRouter => ["services"],
    go_fasthttp_fixtures: fasthttp::FastHttp => ["services"],
    go_hertz_fixtures: hertz::Hertz => ["services"],
    go_iris_fixtures: iris::Iris => ["services"],
    go_goyave_fixtures: goyave::Goyave => ["component_controllers", "services"],
    go_beego_fixtures: beego::Beego => ["services"],
    go_huma_fixtures: huma::Huma => ["inline_inputs", "services"],
    go_gf_fixtures: gf::Gf => ["controller_vars", "services"],
    go_kratos_fixtures: kratos::Kratos => ["services"],
    go_pocketbase_fixtures: pocketbase::PocketBase => ["services"],
    go_restful_fixtures: restful::Restful => ["services"],
    go_connect_rpc_fixtures: connect::ConnectRpc => ["monorepo"],
    go_gozero_fixtures: gozero::GoZero => ["mall"],
    go_cli_fixtures: cli::GoCli => ["cobra_tree", "stdflag", "urfave_v2", "urfave_v3"],
}

/// Every analyzer of the plugin, as its `plugin!` registration lists them.
fn all_analyzers() -> &'static [&'static dyn Analyzer] {
    portolan_plugin_go::portolan_analyzers()
}

/// Every Go technology declares its id, aliases, wanted files and a
/// detection rule; tech ids are unique.
#[test]
fn techs_are_declared() {
    let analyzers = all_analyzers();
    let mut ids = Vec::new();
    for a in analyzers {
        let t = a.tech();
        assert!(t.id.starts_with("go_"), "{}", t.id);
        assert!(!t.aliases.is_empty() && !t.detect.is_empty(), "{}", t.id);
        assert!(t.files.contains(&"go.mod".to_string()), "{}", t.id);
        ids.push(t.id);
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

/// Every prefix of the go-zero and Connect fixture sources (`.api`,
/// `.proto`, Go) is analyzed and linked without panicking.
#[test]
fn gozero_and_connect_survive_truncated_sources() {
    testing::check_truncations(
        &[&connect::ConnectRpc, &gozero::GoZero],
        &fixtures_root(),
        7,
    );
}

/// Non-ASCII text in code positions (unquoted `.api` option values,
/// identifiers) does not panic.
#[test]
fn gozero_and_connect_survive_non_ascii() {
    use portolan_plugin_sdk::{Facts, Output, SourceFile};
    let api = "info(\n\ttitle: 用户服务\n)\n@server(\n\tprefix: /v1/用户\n)\nservice 用户-api {\n\t@handler 获取\n\tget /users/:id (请求)\n}\ntype 请求 {\n\tId int64 `path:\"id\"`\n}\n";
    let go = "package main\nfunc é() { server.AddRoutes([]rest.Route{{Method: \"GÉT\", Path: \"/é\", Handler: é}}) ; ü.NewÜHandler() }\n";
    let proto = "package é.v1;\nservice Ü { rpc É(Ä) returns (Ö) { option idempotency_level = NO_SIDE_EFFECTS; } }\nmessage Ä { string ü = 1; }\n";
    for analyzer in [&connect::ConnectRpc as &dyn Analyzer, &gozero::GoZero] {
        let mut facts = Facts::new(Vec::new());
        for (path, content) in [("a/x.api", api), ("a/x.go", go), ("a/x.proto", proto)] {
            let mut out = Output::new();
            analyzer.analyze(&SourceFile::new(path, content), &mut out);
            facts.extend(out.into_parts().1);
        }
        assert!(analyzer.link(&facts).is_ok());
    }
}

/// A handler whose signature sits a few hundred bytes after multi-byte
/// text (CJK messages in string constants are common) does not panic: the
/// scanner looks back from a body for its `func` through a window that
/// must start on a char boundary.
#[test]
fn go_analyzers_survive_cjk_text_before_handlers() {
    use portolan_plugin_sdk::{Output, SourceFile};
    let messages = "\tMsg = \"获取用户列表信息，支持分页查询与条件过滤。\"\n".repeat(12);
    for shift in 0..4 {
        let src = format!(
            "package api\n\nimport \"github.com/gin-gonic/gin\"\n\nconst ({}\n{messages})\n\nfunc List(c *gin.Context) {{\n\tid := c.Query(\"id\")\n\tc.JSON(200, id)\n}}\n\nfunc Routes(r *gin.Engine) {{\n\tr.GET(\"/users\", List)\n\tr.POST(\"/users\", func(c *gin.Context) {{ c.Param(\"x\") }})\n}}\n",
            " ".repeat(shift)
        );
        for analyzer in [
            &gin::Gin as &dyn Analyzer,
            &echo::Echo,
            &mux::Mux,
            &gozero::GoZero,
        ] {
            let mut out = Output::new();
            analyzer.analyze(&SourceFile::new("api/users.go", &src), &mut out);
        }
    }
}

/// Every analyzer, over every fixture source of its technology with
/// multi-byte characters (é, 中, 😀) inserted around every offset, analyzes
/// and links without panicking.
#[test]
fn every_analyzer_survives_multibyte_chars_at_any_offset() {
    testing::check_multibyte(all_analyzers(), &fixtures_root(), 13);
}
