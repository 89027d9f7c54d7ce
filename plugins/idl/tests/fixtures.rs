//! Runs each analyzer of the plugin natively on every
//! `tests/fixtures/<tech>/<case>/app` tree of its technology and compares the
//! report with the hand-written `expected.json`, through the SDK's shared
//! runner (`portolan_plugin_sdk::testing`, a mirror of the host's
//! post-processing). Malformed documents must yield exactly the expected
//! warnings, each naming the file, while the rest of the tree is reported.

use std::path::{Path, PathBuf};

use portolan_plugin_idl::{graphql_sdl, grpc};
use portolan_plugin_sdk::prelude::host;
use portolan_plugin_sdk::testing::{self, Fixtures};
use portolan_plugin_sdk::{Analyzer, Facts, Output, SourceFile};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn analyzers() -> [&'static dyn Analyzer; 2] {
    [&graphql_sdl::GraphqlSdl, &grpc::Grpc]
}

/// The warnings an analyzer logs over a fixture tree.
fn warnings(analyzer: &dyn Analyzer, tech_case: &str) -> Vec<String> {
    let _ = host::take_logs();
    testing::run(analyzer, &fixtures_root().join(tech_case).join("app"));
    host::take_logs()
        .into_iter()
        .filter(|l| l.starts_with("warn: "))
        .collect()
}

#[test]
fn graphql_sdl_fixtures() {
    Fixtures::new(&[&graphql_sdl::GraphqlSdl], fixtures_root())
        .cases("graphql_sdl", &["malformed", "split_schema"])
        .check();
    assert_eq!(
        warnings(&graphql_sdl::GraphqlSdl, "graphql_sdl/malformed"),
        ["warn: app/schema/broken.graphqls:3: invalid GraphQL schema: expected `:` after field `deleteAccount`"]
    );
    assert!(warnings(&graphql_sdl::GraphqlSdl, "graphql_sdl/split_schema").is_empty());
}

#[test]
fn grpc_fixtures() {
    Fixtures::new(&[&grpc::Grpc], fixtures_root())
        .cases("grpc", &["malformed", "services"])
        .check();
    assert_eq!(
        warnings(&grpc::Grpc, "grpc/malformed"),
        [
            "warn: app/api/billing.proto:7: invalid protobuf definition: expected `)`",
            "warn: app/api/ledger.proto:8: invalid protobuf definition: message `BalanceRequest` is never closed",
        ]
    );
    assert!(warnings(&grpc::Grpc, "grpc/services").is_empty());
}

/// Every prefix of every fixture document (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_documents_do_not_panic() {
    for analyzer in analyzers() {
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
    let _ = host::take_logs();
}
