//! API specification documents.
pub mod bruno;
pub mod burp;
pub mod caido;
pub mod capture;
pub mod har;
pub mod http_file;
pub mod insomnia;
pub mod mitmproxy;
pub mod mobile;
pub mod oas2;
pub mod oas3;
pub mod openrpc;
pub mod postman;
pub mod zap_sites_tree;

#[cfg(test)]
mod testing;

portolan_plugin_sdk::plugin!(name: "specs", analyzers: [bruno::Bruno, burp::Burp, caido::Caido, har::Har, http_file::HttpFile, insomnia::Insomnia, mitmproxy::Mitmproxy, mobile::android::Android, mobile::ios::Ios, mobile::well_known_applinks::WellKnownApplinks, oas2::Oas2, oas3::Oas3, openrpc::OpenRpc, postman::Postman, zap_sites_tree::ZapSitesTree]);
