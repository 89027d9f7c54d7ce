//! Runs each .NET analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_dotnet::{
    aspnet_mvc, carter, fastendpoints, httplistener, minimal, mvc, servicestack, signalr,
};
use portolan_plugin_sdk::testing;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn cs_aspnet_core_mvc_fixtures() {
    testing::check_fixtures(&[&mvc::AspNetCoreMvc], &fixtures_root());
}

#[test]
fn cs_aspnet_core_minimal_api_fixtures() {
    testing::check_fixtures(&[&minimal::MinimalApi], &fixtures_root());
}

#[test]
fn cs_signalr_fixtures() {
    testing::check_fixtures(&[&signalr::SignalR], &fixtures_root());
}

#[test]
fn cs_carter_fixtures() {
    testing::check_fixtures(&[&carter::Carter], &fixtures_root());
}

#[test]
fn cs_aspnet_mvc_fixtures() {
    testing::check_fixtures(&[&aspnet_mvc::AspNetMvc], &fixtures_root());
}

#[test]
fn cs_fastendpoints_fixtures() {
    testing::check_fixtures(&[&fastendpoints::FastEndpoints], &fixtures_root());
}

#[test]
fn cs_servicestack_fixtures() {
    testing::check_fixtures(&[&servicestack::ServiceStack], &fixtures_root());
}

#[test]
fn cs_httplistener_fixtures() {
    testing::check_fixtures(&[&httplistener::HttpListener], &fixtures_root());
}

/// A tree with Carter modules and plain Minimal API routes: each route is
/// reported once, by its own technology.
#[test]
fn carter_and_minimal_api_share_a_tree() {
    let root = fixtures_root().join("cs_carter/catalog/app");
    let minimal = testing::run(&minimal::MinimalApi, &root);
    let urls: Vec<_> = minimal
        .iter()
        .map(|e| format!("{} {}", e.method, e.url))
        .collect();
    assert_eq!(urls, ["GET /ping"]);
}

/// An ASP.NET Core tree that mentions `System.Web.HttpUtility` is detected
/// as classic ASP.NET too: the classic analyzer reads none of its
/// controllers (their class `[Route]` would become a default route, and
/// every action be reported again without the prefix).
#[test]
fn core_controllers_are_not_classic_ones() {
    let root = fixtures_root().join("cs_aspnet_core_mvc/storefront/app");
    let classic = testing::run(&aspnet_mvc::AspNetMvc, &root);
    let urls: Vec<_> = classic
        .iter()
        .map(|e| format!("{} {}", e.method, e.url))
        .collect();
    assert!(urls.is_empty(), "{urls:?}");
}

/// Every prefix of every fixture source (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    testing::check_truncations(
        &[
            &mvc::AspNetCoreMvc,
            &minimal::MinimalApi,
            &signalr::SignalR,
            &carter::Carter,
            &aspnet_mvc::AspNetMvc,
            &fastendpoints::FastEndpoints,
            &servicestack::ServiceStack,
            &httplistener::HttpListener,
        ],
        &fixtures_root(),
        7,
    );
}

#[test]
fn cs_cli_fixtures() {
    testing::check_fixtures(&[&portolan_plugin_dotnet::cli::CsCli], &fixtures_root());
}

#[test]
fn cs_cli_truncated_sources_do_not_panic() {
    testing::check_truncations(&[&portolan_plugin_dotnet::cli::CsCli], &fixtures_root(), 7);
}
