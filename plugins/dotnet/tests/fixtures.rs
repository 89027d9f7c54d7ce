//! Runs each .NET analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_dotnet::{minimal, mvc, signalr};
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
