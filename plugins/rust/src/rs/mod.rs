//! Reusable Rust source helpers shared by the framework analyzers.
//!
//! - [`items`]: `#[cfg(test)]` items to skip, function declarations and
//!   their parameters, `const`/`static` string constants, structs with
//!   their serde-visible field names (`rename`, `rename_all`, `skip`,
//!   `flatten`);
//! - [`expr`]: path expressions (literals, constants, `format!`,
//!   `concat!`) and the crate/module a file belongs to;
//! - [`router`]: the router scanner and linker shared by the frameworks.

pub mod expr;
pub mod items;
pub mod router;

/// Files every Rust analyzer wants.
pub const FILES: &[&str] = &["*.rs", "Cargo.toml"];

/// Should this Rust source be skipped? Integration tests (`tests/`),
/// benchmarks (`benches/`) and examples (`examples/`: sample programs, not
/// the service), Cargo build output (`target/`) plus the SDK's usual test
/// paths; only directories below the scanned base count.
pub fn skipped_path(path: &str) -> bool {
    use portolan_plugin_sdk::paths::{in_dir_named, is_test_path};
    is_test_path(path) || in_dir_named(path, &["benches", "examples", "target"])
}

/// A Rust source file outside tests, benches, examples and `target/`.
pub fn is_source(file: &portolan_plugin_sdk::SourceFile) -> bool {
    let path = file.slash_path();
    path.ends_with(".rs") && !skipped_path(&path)
}

#[cfg(test)]
mod tests {
    #[test]
    fn skips_tests_benches_examples() {
        assert!(super::skipped_path("svc/tests/api.rs"));
        assert!(super::skipped_path("svc/benches/b.rs"));
        assert!(super::skipped_path("svc/examples/demo.rs"));
        assert!(super::skipped_path("svc/target/debug/build/out.rs"));
        assert!(!super::skipped_path("svc/src/routes/users.rs"));
    }
}
