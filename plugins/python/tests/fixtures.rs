//! Runs every Python analyzer natively on its `tests/fixtures/<tech>/<case>/app`
//! trees and compares the report with the hand-written `expected.json`,
//! through the SDK's shared runner (`portolan_plugin_sdk::testing`, a mirror
//! of the host's post-processing). Cases that list endpoints of several
//! Python technologies (a Django project next to a FastAPI service) are
//! checked for all of them. On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_python::{
    aiohttp, bottle, cherrypy, cli, django, falcon, fastapi, flask, http_server, litestar,
    masonite, ninja, pyramid, quart, robyn, sanic, starlette, tornado,
};
use portolan_plugin_sdk::{testing, Analyzer};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const ANALYZERS: &[&dyn Analyzer] = &[
    &flask::Flask,
    &fastapi::FastApi,
    &django::Django,
    &ninja::Ninja,
    &quart::Quart,
    &sanic::Sanic,
    &starlette::Starlette,
    &aiohttp::Aiohttp,
    &tornado::Tornado,
    &robyn::Robyn,
    &falcon::Falcon,
    &litestar::Litestar,
    &bottle::Bottle,
    &pyramid::Pyramid,
    &http_server::HttpServer,
    &cherrypy::CherryPy,
    &masonite::Masonite,
    &cli::PythonCli,
];

#[test]
fn every_python_fixture_matches() {
    testing::Fixtures::new(ANALYZERS, repo().join("tests/fixtures"))
        .cases(
            "python_flask",
            &[
                "basic",
                "blueprints",
                "classful",
                "decorator_reads",
                "helper_reads",
                "marshmallow_meta",
                "marshmallow_shared_fields",
                "methodview",
                "restful",
                "restx_readonly",
                "schema_args",
                "webargs",
            ],
        )
        .cases(
            "python_django",
            &[
                "apiview_serializer",
                "bound_forms",
                "deploy_prefix",
                "filterset",
                "monorepo",
                "router_subclass",
                "runtime_register",
                "serializer_inputs",
            ],
        )
        .cases(
            "python_fastapi",
            &[
                "alchemy_filters",
                "alias_constants",
                "callable_dependency",
                "depends_factory",
                "fullstack",
                "router_loop",
            ],
        )
        .cases("python_litestar", &["alchemy_filters", "shop"])
        .cases("python_sanic", &["store", "versioned", "views"])
        .cases(
            "python_tornado",
            &["chat", "json_body", "positional_groups"],
        )
        .check();
}

/// The bundled example: every route Flask serves in `examples/flask-shop`
/// (the list was dumped from the real app's `url_map`) is found.
#[test]
fn example_flask_shop_routes() {
    let report = testing::report(&[&flask::Flask], &repo().join("examples/flask-shop"));
    let mut got: Vec<String> = report["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            format!(
                "{} {}",
                e["method"].as_str().unwrap_or(""),
                e["url"].as_str().unwrap_or("")
            )
        })
        .collect();
    let mut want: Vec<String> = include_str!("flask_shop_routes.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(want.len(), 20);
    got.sort();
    want.sort();
    assert_eq!(got, want, "flask-shop routes");
}

#[test]
fn python_cli_fixtures() {
    testing::Fixtures::new(ANALYZERS, repo().join("tests/fixtures"))
        .cases(
            "python_cli",
            &["argparse_subcommands", "click_groups", "typer_app"],
        )
        .check();
}
