//! Runs each Swift analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_sdk::testing;
use portolan_plugin_sdk::{Analyzer, Facts, Output, SourceFile};
use portolan_plugin_swift::{cli, hummingbird, kitura, vapor};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn swift_vapor_fixtures() {
    testing::check_fixtures(&[&vapor::Vapor], &fixtures_root());
}

#[test]
fn swift_hummingbird_fixtures() {
    testing::check_fixtures(&[&hummingbird::Hummingbird], &fixtures_root());
}

#[test]
fn swift_cli_fixtures() {
    testing::check_fixtures(&[&cli::SwiftCli], &fixtures_root());
    testing::check_truncations(&[&cli::SwiftCli], &fixtures_root(), 7);
}

#[test]
fn swift_kitura_fixtures() {
    testing::check_fixtures(&[&kitura::Kitura], &fixtures_root());
}

/// Every prefix of every fixture source (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    let analyzers: [&dyn Analyzer; 3] = [&vapor::Vapor, &hummingbird::Hummingbird, &kitura::Kitura];
    for analyzer in analyzers {
        let tech = analyzer.tech().id;
        for case in testing::cases(&fixtures_root(), &tech) {
            let app = fixtures_root().join(&tech).join(case).join("app");
            for file in testing::load_tree(&analyzer.tech(), &app) {
                let (path, content) = (file.path, file.content);
                let mut facts = Facts::new(Vec::new());
                let cuts = (0..content.len())
                    .step_by(5)
                    .filter(|i| content.is_char_boundary(*i));
                for cut in cuts {
                    let file = SourceFile::new(path.clone(), content[..cut].to_string());
                    let mut out = Output::new();
                    analyzer.analyze(&file, &mut out);
                    let (_, f) = out.into_parts();
                    facts.extend(f);
                }
                analyzer.link(&facts).expect("link");
            }
        }
    }
}
