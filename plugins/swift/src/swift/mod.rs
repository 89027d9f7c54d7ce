//! Reusable Swift helpers: a token stream over the SDK lexer, a file
//! outline (types, stored properties, functions, string constants), the
//! route-builder flow shared by the server frameworks, request reads, and
//! the cross-file link step.

pub mod flow;
pub mod link;
pub mod outline;
pub mod reads;
pub mod scan;
pub mod tokens;

use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::Syntax;

/// Swift lexing: `//` and nesting `/* */` comments, `"…"` and `"""…"""`
/// strings; `'` is not a Swift literal delimiter (apostrophes in comments
/// never open a literal anyway). `\(…)` interpolation containing quotes is
/// not modelled: the literal may end early, which only affects that line.
pub const SYNTAX: Syntax = Syntax {
    nested_block_comments: true,
    quotes: b"\"",
    char_literals: false,
    ..Syntax::C_LIKE
};

/// Test targets (`Tests/AppTests/…`, `*Tests.swift`) and files using the
/// XCTVapor / HummingbirdTesting / XCTest harnesses.
pub fn is_test_code(path: &str, content: &str) -> bool {
    is_test_path(path)
        || content.contains("import XCTVapor")
        || content.contains("import XCTest")
        || content.contains("import HummingbirdTesting")
        || content.contains("import VaporTesting")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_targets() {
        assert!(is_test_code("app/Tests/AppTests/AppTests.swift", ""));
        assert!(is_test_code(
            "app/Sources/App/Fake.swift",
            "import XCTVapor\n"
        ));
        assert!(!is_test_code(
            "app/Sources/App/routes.swift",
            "import Vapor\n"
        ));
    }
}
