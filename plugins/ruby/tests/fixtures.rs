//! Runs each Ruby analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_ruby::{
    actioncable, cli, grape, hanami, padrino, rails, roda, sinatra, webrick,
};
use portolan_plugin_sdk::testing::Fixtures;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn ruby_rails_fixtures() {
    // The shop mounts Action Cable: its endpoint is in the report too.
    Fixtures::new(&[&rails::Rails, &actioncable::ActionCable], fixtures_root())
        .cases(
            "ruby_rails",
            &[
                "blog8",
                "constraints",
                "devise",
                "engine_add_routes",
                "geo",
                "no_gemfile",
                "shop",
                "telemetry",
                "tracker",
            ],
        )
        .check();
}

#[test]
fn ruby_sinatra_fixtures() {
    Fixtures::new(&[&sinatra::Sinatra], fixtures_root())
        .cases("ruby_sinatra", &["bookstore", "greeter"])
        .check();
}

#[test]
fn ruby_grape_fixtures() {
    Fixtures::new(&[&grape::Grape], fixtures_root())
        .cases("ruby_grape", &["kiosk", "library"])
        .check();
}

#[test]
fn ruby_hanami_fixtures() {
    Fixtures::new(&[&hanami::Hanami], fixtures_root())
        .cases("ruby_hanami", &["bookshelf"])
        .check();
}

#[test]
fn ruby_roda_fixtures() {
    Fixtures::new(&[&roda::Roda], fixtures_root())
        .cases("ruby_roda", &["shop", "typecast"])
        .check();
}

#[test]
fn ruby_padrino_fixtures() {
    Fixtures::new(&[&padrino::Padrino], fixtures_root())
        .cases("ruby_padrino", &["shop"])
        .check();
}

#[test]
fn ruby_webrick_fixtures() {
    Fixtures::new(&[&webrick::Webrick], fixtures_root())
        .cases("ruby_webrick", &["files"])
        .check();
}

#[test]
fn ruby_actioncable_fixtures() {
    Fixtures::new(&[&actioncable::ActionCable], fixtures_root())
        .cases("ruby_actioncable", &["chat", "default_mount"])
        .check();
}

#[test]
fn ruby_cli_fixtures() {
    Fixtures::new(&[&cli::RubyCli], fixtures_root())
        .cases("ruby_cli", &["dry_cli", "optparse", "thor_gem"])
        .check();
    portolan_plugin_sdk::testing::check_truncations(&[&cli::RubyCli], &fixtures_root(), 7);
}
