//! Runs each analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json` (see `portolan_plugin_sdk::testing`).

use std::path::{Path, PathBuf};

use portolan_plugin_polyglot::perl;
use portolan_plugin_sdk::testing::Fixtures;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn perl_dancer2_fixtures() {
    Fixtures::new(&[&perl::Dancer2], fixtures_root())
        .cases("perl_dancer2", &["shop"])
        .check();
}

#[test]
fn perl_mojolicious_fixtures() {
    Fixtures::new(&[&perl::Mojolicious], fixtures_root())
        .cases("perl_mojolicious", &["lite", "app"])
        .check();
}
