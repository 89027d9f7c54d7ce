//! Building blocks for the document analyzers.
//!
//! `load`, `locate`, `refs`, `schema` and `url` are verbatim copies of
//! `plugins/specs/src/doc/` (as of commit 4e02f08): AsyncAPI and RAML are
//! JSON/YAML documents that need the same loading, key-line lookup, local
//! `$ref` resolution and JSON-Schema field listing as OpenAPI. A plugin cannot
//! depend on another plugin crate (both would export the component), so they
//! are copied here; they are candidates to move into the SDK (behind a
//! `yaml` feature for `serde_yaml`), after which both plugins would use that
//! one copy.

pub mod load;
pub mod locate;
pub mod refs;
pub mod schema;
pub mod url;

use portolan_plugin_sdk::paths::is_test_path;

/// Is this document part of the project's tests rather than its API?
/// [`is_test_path`] minus its `spec/` and `specs/` directory rule: API
/// documents conventionally live in `spec/` (`spec/api.raml`,
/// `specs/chat.asyncapi.yaml`), where code analyzers see test suites.
pub fn is_test_document(path: &str) -> bool {
    let kept: Vec<&str> = path
        .split(['/', '\\'])
        .enumerate()
        .filter(|(i, s)| {
            let last = *i == path.split(['/', '\\']).count() - 1;
            last || !matches!(s.to_ascii_lowercase().as_str(), "spec" | "specs")
        })
        .map(|(_, s)| s)
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
        assert!(is_test_document("app/tests/fixtures/schema.graphql"));
        assert!(is_test_document("app/spec/__mocks__/api.proto"));
        assert!(!is_test_document("app/api/users.proto"));
    }
}
