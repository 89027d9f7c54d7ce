//! Building blocks shared by the infrastructure analyzers: YAML streams with
//! CloudFormation tags and per-document line maps, the "any method" lists,
//! request-parameter keys of API Gateway, and reading route regexes. Key
//! lines and YAML conversion come from `portolan_plugin_sdk::doc`.

pub mod aws;
pub mod k8s;
pub mod regex_path;
pub mod yaml;

/// What a route that accepts every method is reported as when the product
/// documents no list of its own (nginx locations without `limit_except`,
/// Kubernetes routes without a method match).
pub const ANY_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
