//! Runs each Rust analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_rust::*;
use portolan_plugin_sdk::{testing, Analyzer};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

portolan_plugin_sdk::fixture_tests! { fixtures_root();
    rust_axum_fixtures: axum::Axum => [
        "aide",
        "inline_modules",
        "middleware_layers",
        "route_table",
        "router_vars",
        "trait_routers",
        "utoipa_routes",
        "workspace",
    ],
    rust_actix_web_fixtures: actix_web::ActixWeb => ["scope_macro", "tuple_extractors", "workspace"],
    rust_rocket_fixtures: rocket::Rocket => ["appended_routes", "workspace"],
    rust_poem_fixtures: poem::Poem => ["openapi", "service_constructors", "services"],
    rust_tide_fixtures: tide::Tide => ["services"],
    rust_salvo_fixtures: salvo::Salvo => ["extractible", "shop"],
    rust_loco_fixtures: loco::Loco => ["notes"],
    rust_warp_fixtures: warp::Warp => ["closure_handlers", "todos"],
    rust_gotham_fixtures: gotham::Gotham => ["bookstore"],
    rust_rwf_fixtures: rwf::Rwf => ["blog"],
    rust_cli_fixtures: cli::RustCli => ["clap_builder", "clap_derive"],
}

/// Every analyzer of the plugin, as its `plugin!` registration lists them.
fn all_analyzers() -> &'static [&'static dyn Analyzer] {
    portolan_plugin_rust::portolan_analyzers()
}

/// Every Rust technology declares its id, aliases, wanted files and a
/// detection rule; tech ids are unique.
#[test]
fn techs_are_declared() {
    let analyzers = all_analyzers();
    let mut ids = Vec::new();
    for a in analyzers {
        let t = a.tech();
        assert!(t.id.starts_with("rust_"), "{}", t.id);
        assert!(!t.aliases.is_empty() && !t.detect.is_empty(), "{}", t.id);
        assert!(t.files.contains(&"Cargo.toml".to_string()), "{}", t.id);
        ids.push(t.id);
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

/// Every analyzer, over every fixture source of its technology with
/// multi-byte characters (é, 中, 😀) inserted around every offset, analyzes
/// and links without panicking.
#[test]
fn every_analyzer_survives_multibyte_chars_at_any_offset() {
    testing::check_multibyte(all_analyzers(), &fixtures_root(), 13);
}
