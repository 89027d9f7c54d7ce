//! Deployment and gateway configuration that declares HTTP routes: web
//! server configs, Kubernetes ingress resources, serverless and
//! infrastructure-as-code templates, cloud platform configs, the schemas of
//! products that generate their API. Every
//! technology here is a specification source: it describes the API from
//! outside the code.
//!
//! Layout: the first formats have a module folder each (`nginx`,
//! `k8s_ingress`, …); newer ones are grouped by kind — [`gateway`] (web
//! servers, proxies, API gateways), [`cloud`] (cloud and deployment
//! platforms), and [`cms`] (schema-generated APIs). Mobile app links and
//! deep links are the `specs` plugin's (`mobile/`).
//! Adding a format: a module in the right group and one entry in the
//! `plugin!` registration below; shared YAML, TOML, API Gateway and
//! route-regex helpers live in [`common`].

pub mod aws_cloudformation;
pub mod cloud;
pub mod cms;
pub mod common;
pub mod gateway;
pub mod k8s_gateway_api;
pub mod k8s_ingress;
pub mod nginx;
pub mod serverless_framework;
pub mod terraform;

portolan_plugin_sdk::plugin!(
    name: "infra",
    analyzers: [
        nginx::Nginx,
        k8s_ingress::K8sIngress,
        k8s_gateway_api::K8sGatewayApi,
        serverless_framework::ServerlessFramework,
        aws_cloudformation::AwsCloudFormation,
        terraform::Terraform,
        gateway::istio_virtualservice::IstioVirtualService,
        gateway::kong::Kong,
        gateway::apisix::Apisix,
        gateway::envoy::Envoy,
        gateway::traefik::Traefik,
        gateway::caddy::Caddy,
        gateway::apache_httpd::ApacheHttpd,
        cloud::vercel::Vercel,
        cloud::netlify::Netlify,
        cloud::cloudflare_wrangler::CloudflareWrangler,
        cloud::azure_functions::AzureFunctions,
        cloud::kamal::Kamal,
        cloud::aws_cdk::AwsCdk,
        cms::supabase::Supabase,
        cms::strapi::Strapi,
        cms::directus::Directus,
        cms::payload_cms::PayloadCms,
        cms::hasura::Hasura,
        cms::appwrite::Appwrite,
    ],
);
