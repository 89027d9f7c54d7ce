//! Building blocks for analyzers of API documents (OpenAPI, AsyncAPI, RAML,
//! API-client collections, infrastructure manifests): optional, behind the
//! SDK's `docs` cargo feature because it needs `serde_yaml`.
//!
//! ```toml
//! portolan-plugin-sdk = { workspace = true, features = ["docs"] }
//! ```
//!
//! - [`load`]: JSON and YAML documents into one [`serde_json::Value`] tree
//!   (YAML keys of any scalar type become strings, merge keys applied).
//! - [`locate`]: the source line of a key path ([`locate::SourceMap`]), read
//!   from the text itself, so endpoints point at the line that declares them.
//! - [`refs`]: local `$ref`s (`#/components/schemas/Pet`), cycles detected.
//! - [`bundle`] and [`files`]: `$ref`s to other files, read through
//!   [`crate::host::read_file`] and grafted in so only local references
//!   remain.
//! - [`schema`]: JSON-Schema objects → body fields, example values, body
//!   kinds of media types.
//! - [`url`]: URL paths, `{var}` server templates, percent-decoding, query
//!   strings and urlencoded forms.
//! - [`vars`]: `{{var}}` variables of API clients (Postman, Insomnia, Bruno,
//!   `.http` files) and the URL paths they stand for.
//! - [`body`] and [`request`]: concrete requests written out as text
//!   (headers, cookies, JSON/urlencoded/multipart bodies) → params.
//! - [`is_test_document`]: which documents belong to tests.

pub mod body;
pub mod bundle;
pub mod files;
pub mod load;
pub mod locate;
pub mod refs;
pub mod request;
pub mod schema;
pub mod url;
pub mod vars;

use crate::paths::is_test_path;

/// Is this document part of the project's tests rather than its API (or
/// infrastructure)? The one rule of the document analyzers:
/// [`is_test_path`] minus its `spec/` and `specs/` directory rule, because
/// API documents conventionally live in such directories (`spec/api.raml`,
/// `specs/chat.asyncapi.yaml`, `spec/openapi.yaml`) where code analyzers see
/// test suites. Every other test marker (`tests/`, `fixtures/`, `__mocks__/`,
/// `*_test.*`, …) still applies, in any directory, and a file named like a
/// test (`user_spec.yaml`) is still one.
///
/// ```
/// use portolan_plugin_sdk::doc::is_test_document;
/// assert!(!is_test_document("app/spec/api.raml"));
/// assert!(is_test_document("app/spec/fixtures/api.raml"));
/// assert!(is_test_document("app/tests/schema.graphql"));
/// ```
pub fn is_test_document(path: &str) -> bool {
    let path = crate::paths::below_base(path);
    let segments: Vec<&str> = path.split(['/', '\\']).collect();
    let last = segments.len().saturating_sub(1);
    let kept: Vec<&str> = segments
        .iter()
        .enumerate()
        .filter(|(i, s)| *i == last || !matches!(s.to_ascii_lowercase().as_str(), "spec" | "specs"))
        .map(|(_, s)| *s)
        .collect();
    is_test_path(&kept.join("/"))
}

#[cfg(test)]
mod tests {
    use super::is_test_document;

    #[test]
    fn spec_directories_hold_documents() {
        assert!(!is_test_document("app/spec/api.raml"));
        assert!(!is_test_document("app/specs/v1/chat.yaml"));
        assert!(!is_test_document("app\\Specs\\openapi.yaml"));
        assert!(is_test_document("app/tests/fixtures/schema.graphql"));
        assert!(is_test_document("app/spec/__mocks__/api.proto"));
        assert!(is_test_document("app/spec/user_spec.yaml"));
        assert!(!is_test_document("app/api/users.proto"));
        assert!(!is_test_document(""));
    }
}
