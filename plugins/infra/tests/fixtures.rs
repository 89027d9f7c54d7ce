//! Runs each infrastructure analyzer natively on every
//! `tests/fixtures/<tech>/<case>/app` tree of its technology and compares
//! the report with the hand-written `expected.json`, through the SDK's
//! shared runner (`portolan_plugin_sdk::testing`, a mirror of the host's
//! post-processing). Malformed files in the fixtures must produce exactly
//! the expected warnings, each naming the file, while the rest still
//! reports. On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::path::{Path, PathBuf};

use portolan_plugin_infra::cloud::{
    aws_cdk, azure_functions, cloudflare_wrangler, kamal, netlify, vercel,
};
use portolan_plugin_infra::cms::{appwrite, directus, hasura, payload_cms, strapi, supabase};
use portolan_plugin_infra::gateway::{
    apache_httpd, apisix, caddy, envoy, istio_virtualservice, kong, traefik,
};
use portolan_plugin_infra::{
    aws_cloudformation, k8s_gateway_api, k8s_ingress, nginx, serverless_framework, terraform,
};
use portolan_plugin_sdk::prelude::host;
use portolan_plugin_sdk::testing;
use portolan_plugin_sdk::Analyzer;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Every analyzer of the plugin, as its `plugin!` registration lists them.
fn analyzers() -> &'static [&'static dyn Analyzer] {
    portolan_plugin_infra::portolan_analyzers()
}

/// The warnings an analyzer logs for one case, in order.
fn warnings(analyzer: &dyn Analyzer, case: &str) -> Vec<String> {
    let app = fixtures_root()
        .join(analyzer.tech().id)
        .join(case)
        .join("app");
    let _ = host::take_logs();
    testing::run(analyzer, &app);
    host::take_logs()
        .into_iter()
        .filter(|l| l.starts_with("warn: "))
        .collect()
}

fn assert_warnings(analyzer: &dyn Analyzer, case: &str, expected: &[&str]) {
    let got = warnings(analyzer, case);
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for (g, e) in got.iter().zip(expected) {
        assert!(g.starts_with(e), "{g:?} should start with {e:?}");
    }
}

#[test]
fn nginx_fixtures() {
    testing::check_fixtures(&[&nginx::Nginx], &fixtures_root());
    assert_warnings(
        &nginx::Nginx,
        "gateway",
        &["warn: app/deploy/nginx/broken/staging.conf: invalid nginx configuration: directive \"proxy_pass\" on line 4 is not terminated by \";\""],
    );
}

#[test]
fn k8s_ingress_fixtures() {
    testing::check_fixtures(&[&k8s_ingress::K8sIngress], &fixtures_root());
    assert_warnings(
        &k8s_ingress::K8sIngress,
        "cluster",
        &["warn: app/k8s/broken/partner-ingress.yaml: document at line 1: invalid YAML: "],
    );
}

#[test]
fn k8s_gateway_api_fixtures() {
    testing::check_fixtures(
        &[
            &k8s_gateway_api::K8sGatewayApi,
            &serverless_framework::ServerlessFramework,
        ],
        &fixtures_root(),
    );
    assert_warnings(
        &k8s_gateway_api::K8sGatewayApi,
        "routes",
        &["warn: app/deploy/gateway/broken-route.yaml: document at line 1: invalid YAML: "],
    );
}

#[test]
fn serverless_framework_fixtures() {
    testing::check_fixtures(
        &[&serverless_framework::ServerlessFramework],
        &fixtures_root(),
    );
    assert_warnings(
        &serverless_framework::ServerlessFramework,
        "shop",
        &["warn: app/services/payments/serverless.yml: invalid YAML: "],
    );
}

#[test]
fn aws_cloudformation_fixtures() {
    testing::check_fixtures(&[&aws_cloudformation::AwsCloudFormation], &fixtures_root());
    assert_warnings(
        &aws_cloudformation::AwsCloudFormation,
        "stack",
        &["warn: app/infra/broken-stack.yaml: invalid YAML: "],
    );
}

#[test]
fn terraform_fixtures() {
    testing::check_fixtures(&[&terraform::Terraform], &fixtures_root());
    assert_warnings(
        &terraform::Terraform,
        "apigw",
        &["warn: app/infra/broken/main.tf: invalid HCL: unterminated string starting on line 3"],
    );
}

#[test]
fn gateway_fixtures() {
    testing::check_fixtures(
        &[
            &istio_virtualservice::IstioVirtualService,
            &kong::Kong,
            &apisix::Apisix,
            &envoy::Envoy,
            &traefik::Traefik,
            &caddy::Caddy,
            &apache_httpd::ApacheHttpd,
        ],
        &fixtures_root(),
    );
}

#[test]
fn cloud_fixtures() {
    testing::check_fixtures(
        &[
            &vercel::Vercel,
            &netlify::Netlify,
            &cloudflare_wrangler::CloudflareWrangler,
            &azure_functions::AzureFunctions,
            &kamal::Kamal,
            &aws_cdk::AwsCdk,
        ],
        &fixtures_root(),
    );
}

#[test]
fn cms_fixtures() {
    testing::check_fixtures(
        &[
            &supabase::Supabase,
            &strapi::Strapi,
            &directus::Directus,
            &payload_cms::PayloadCms,
            &hasura::Hasura,
            &appwrite::Appwrite,
        ],
        &fixtures_root(),
    );
}

/// Every prefix of every fixture source (cut at arbitrary points, so
/// blocks, strings and documents are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    testing::check_truncations(analyzers(), &fixtures_root(), 7);
}

/// Every fixture source with multi-byte characters inserted at every
/// offset is analyzed and linked without panicking.
#[test]
fn multibyte_sources_do_not_panic() {
    testing::check_multibyte(analyzers(), &fixtures_root(), 13);
}
