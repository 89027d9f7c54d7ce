//! Runs each Crystal analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_crystal::{amber, cli, grip, http, kemal, lucky, marten};
use portolan_plugin_sdk::testing::Fixtures;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn crystal_kemal_fixtures() {
    Fixtures::new(&[&kemal::Kemal], fixtures_root())
        .cases("crystal_kemal", &["blog", "routing_macro"])
        .check();
}

#[test]
fn crystal_lucky_fixtures() {
    Fixtures::new(&[&lucky::Lucky], fixtures_root())
        .cases("crystal_lucky", &["route_macro", "tasks"])
        .check();
}

#[test]
fn crystal_amber_fixtures() {
    Fixtures::new(&[&amber::Amber], fixtures_root())
        .cases("crystal_amber", &["blog"])
        .check();
}

#[test]
fn crystal_marten_fixtures() {
    Fixtures::new(&[&marten::Marten], fixtures_root())
        .cases("crystal_marten", &["press"])
        .check();
}

#[test]
fn crystal_grip_fixtures() {
    Fixtures::new(&[&grip::Grip], fixtures_root())
        .cases("crystal_grip", &["api"])
        .check();
}

#[test]
fn crystal_http_fixtures() {
    Fixtures::new(&[&http::Http], fixtures_root())
        .cases("crystal_http", &["notes"])
        .check();
}

#[test]
fn crystal_cli_fixtures() {
    Fixtures::new(&[&cli::CrystalCli], fixtures_root())
        .cases("crystal_cli", &["optionparser"])
        .check();
    portolan_plugin_sdk::testing::check_truncations(&[&cli::CrystalCli], &fixtures_root(), 7);
}
