//! Runs each Elixir analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_elixir::{bandit, channel, cli, phoenix, plug};
use portolan_plugin_sdk::testing;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Phoenix and its channels together: a Phoenix app is detected as both,
/// so `elixir_phoenix` cases expect the channel (`ws`) endpoints too.
#[test]
fn elixir_phoenix_and_channel_fixtures() {
    testing::check_fixtures(&[&phoenix::Phoenix, &channel::Channel], &fixtures_root());
}

#[test]
fn elixir_cli_fixtures() {
    testing::check_fixtures(&[&cli::ElixirCli], &fixtures_root());
    testing::check_truncations(&[&cli::ElixirCli], &fixtures_root(), 7);
}

#[test]
fn elixir_plug_fixtures() {
    testing::check_fixtures(&[&plug::Plug], &fixtures_root());
}

#[test]
fn elixir_bandit_fixtures() {
    testing::check_fixtures(&[&bandit::Bandit], &fixtures_root());
}

/// Plug and Bandit share a tree: the Plug routers Bandit serves (and the
/// routers they forward to) are Bandit's, the one served by Plug.Cowboy
/// stays Plug's, and the bare Plug module is Bandit's alone.
#[test]
fn plug_leaves_bandit_served_routers_alone() {
    let root = fixtures_root().join("elixir_bandit/service/app");
    let urls: Vec<_> = testing::run(&plug::Plug, &root)
        .iter()
        .map(|e| format!("{} {}", e.method, e.url))
        .collect();
    assert_eq!(urls, ["GET /v0/items"]);
}
