//! Runs each analyzer of the plugin natively on every
//! `tests/fixtures/<tech>/<case>/app` tree of its technology and compares the
//! report with the hand-written `expected.json`, through the SDK's shared
//! runner (`portolan_plugin_sdk::testing`, a mirror of the host's
//! post-processing). Malformed documents must yield exactly the expected
//! warnings, each naming the file, while the rest of the tree is reported.

use std::path::{Path, PathBuf};

use portolan_plugin_idl::{asyncapi, graphql_sdl, grpc, odata, raml, smithy, typespec, wsdl};
use portolan_plugin_sdk::prelude::host;
use portolan_plugin_sdk::testing::{self, Fixtures};
use portolan_plugin_sdk::Analyzer;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Every analyzer of the plugin, as its `plugin!` registration lists them.
fn analyzers() -> &'static [&'static dyn Analyzer] {
    portolan_plugin_idl::portolan_analyzers()
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

#[test]
fn asyncapi_fixtures() {
    Fixtures::new(&[&asyncapi::AsyncApi], fixtures_root())
        .cases("asyncapi", &["chat_v2", "events_v3", "malformed"])
        .check();
    let logs = warnings(&asyncapi::AsyncApi, "asyncapi/malformed");
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(
        logs[0].starts_with("warn: app/asyncapi.yaml: invalid YAML: "),
        "{logs:?}"
    );
    assert!(warnings(&asyncapi::AsyncApi, "asyncapi/chat_v2").is_empty());
    assert!(warnings(&asyncapi::AsyncApi, "asyncapi/events_v3").is_empty());
}

#[test]
fn wsdl_fixtures() {
    Fixtures::new(&[&wsdl::Wsdl], fixtures_root())
        .cases(
            "wsdl",
            &["http_binding", "imports", "malformed", "soap_services"],
        )
        .check();
    let logs = warnings(&wsdl::Wsdl, "wsdl/malformed");
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(
        logs[0].starts_with("warn: app/refunds.wsdl: invalid WSDL (XML): "),
        "{logs:?}"
    );
    assert!(warnings(&wsdl::Wsdl, "wsdl/soap_services").is_empty());
}

#[test]
fn raml_fixtures() {
    Fixtures::new(&[&raml::Raml], fixtures_root())
        .cases("raml", &["malformed", "two_apis"])
        .check();
    let logs = warnings(&raml::Raml, "raml/malformed");
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(
        logs[0].starts_with("warn: app/orders.raml: invalid YAML: "),
        "{logs:?}"
    );
    assert!(warnings(&raml::Raml, "raml/two_apis").is_empty());
}

#[test]
fn odata_fixtures() {
    Fixtures::new(&[&odata::OData], fixtures_root())
        .cases("odata", &["csdl", "json"])
        .check();
    assert!(warnings(&odata::OData, "odata/csdl").is_empty());
}

#[test]
fn smithy_fixtures() {
    Fixtures::new(&[&smithy::Smithy], fixtures_root())
        .cases("smithy", &["json_ast", "service"])
        .check();
    assert!(warnings(&smithy::Smithy, "smithy/service").is_empty());
}

#[test]
fn typespec_fixtures() {
    Fixtures::new(&[&typespec::TypeSpec], fixtures_root())
        .cases("typespec", &["service"])
        .check();
    assert!(warnings(&typespec::TypeSpec, "typespec/service").is_empty());
}

/// Every prefix of every fixture document (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_documents_do_not_panic() {
    testing::check_truncations(analyzers(), &fixtures_root(), 7);
}
