//! Runs each Scala analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner. On a mismatch the
//! actual report is written to `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_scala::{akka, http4s, play, scalatra, tapir, zio_http};
use portolan_plugin_sdk::testing;
use portolan_plugin_sdk::Analyzer;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn all() -> Vec<&'static dyn Analyzer> {
    vec![
        &akka::Akka,
        &play::Play,
        &http4s::Http4s,
        &tapir::Tapir,
        &scalatra::Scalatra,
        &zio_http::ZioHttp,
    ]
}

#[test]
fn scala_akka_fixtures() {
    testing::check_fixtures(&[&akka::Akka], &fixtures_root());
}

#[test]
fn scala_play_fixtures() {
    testing::check_fixtures(&[&play::Play], &fixtures_root());
}

#[test]
fn scala_http4s_fixtures() {
    testing::check_fixtures(&[&http4s::Http4s], &fixtures_root());
}

#[test]
fn scala_tapir_fixtures() {
    testing::check_fixtures(&[&tapir::Tapir, &scalatra::Scalatra], &fixtures_root());
}

#[test]
fn scala_scalatra_fixtures() {
    testing::check_fixtures(&[&scalatra::Scalatra], &fixtures_root());
}

#[test]
fn scala_zio_http_fixtures() {
    testing::check_fixtures(&[&zio_http::ZioHttp], &fixtures_root());
}

/// Every prefix of every fixture source (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    testing::check_truncations(&all(), &fixtures_root(), 7);
}
