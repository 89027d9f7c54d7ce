//! Runs each Scala analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json`, through the SDK's shared runner. On a mismatch the
//! actual report is written to `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_scala::{akka, http4s, play};
use portolan_plugin_sdk::testing;
use portolan_plugin_sdk::{Analyzer, Facts, Output, SourceFile};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn all() -> Vec<&'static dyn Analyzer> {
    vec![&akka::Akka, &play::Play, &http4s::Http4s]
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

/// Every prefix of every fixture source (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    for analyzer in all() {
        let tech = analyzer.tech().id;
        for case in testing::cases(&fixtures_root(), &tech) {
            let app = fixtures_root().join(&tech).join(case).join("app");
            for file in testing::load_tree(&analyzer.tech(), &app) {
                let (path, content) = (file.path, file.content);
                let mut facts = Facts::new(Vec::new());
                let cuts = (0..content.len())
                    .step_by(7)
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
