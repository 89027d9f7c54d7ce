//! Reusable C# helpers: tokens, string expressions, the declaration
//! outline, a cross-file type index, parameter binding rules, and the
//! endpoint-builder flow (`app.MapGroup(…).MapGet(…)`).

pub mod expr;
pub mod flow;
pub mod index;
pub mod mounts;
pub mod outline;
pub mod params;
pub mod tokens;

use portolan_plugin_sdk::paths::is_test_path;

/// Test code: the SDK's rules, plus .NET test projects (`Shop.Tests/`,
/// `Shop.IntegrationTests/`, …) and files that drive the app through
/// `WebApplicationFactory` or a test framework.
pub fn is_test_code(path: &str, content: &str) -> bool {
    if is_test_path(path) {
        return true;
    }
    let lower = path.replace('\\', "/").to_ascii_lowercase();
    let project_hit = lower.split('/').any(|seg| {
        [
            ".tests",
            ".test",
            ".unittests",
            ".integrationtests",
            ".functionaltests",
            ".specs",
            ".testing",
        ]
        .iter()
        .any(|suffix| seg.ends_with(suffix))
    });
    project_hit
        || content.contains("WebApplicationFactory<")
        || content.contains("using Xunit;")
        || content.contains("using NUnit.Framework;")
        || content.contains("using Microsoft.VisualStudio.TestTools.UnitTesting;")
}

/// `Get` for `GetAsync` (ASP.NET Core drops the suffix from action names).
pub fn action_name(method: &str) -> &str {
    method
        .strip_suffix("Async")
        .filter(|s| !s.is_empty())
        .unwrap_or(method)
}

/// `camelCase` of a property name, as System.Text.Json's web defaults
/// write it (`URL` → `url`, `IOStream` → `ioStream`).
pub fn camel(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len());
    for (i, c) in chars.iter().enumerate() {
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
        if c.is_uppercase() && (i == 0 || !(i > 0 && next_lower)) {
            out.extend(c.to_lowercase());
        } else {
            out.push_str(&chars[i..].iter().collect::<String>());
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_projects_and_names() {
        assert!(is_test_code("src/Shop.Tests/OrdersTests.cs", ""));
        assert!(is_test_code("tests/Shop.Api.IntegrationTests/Fake.cs", ""));
        assert!(is_test_code(
            "x/Factory.cs",
            "class F : WebApplicationFactory<Program> {}"
        ));
        assert!(!is_test_code(
            "src/Shop.Api/Controllers/OrdersController.cs",
            ""
        ));
        assert_eq!(action_name("GetAllAsync"), "GetAll");
        assert_eq!(action_name("Async"), "Async");
        assert_eq!(camel("UserName"), "userName");
        assert_eq!(camel("URL"), "url");
        assert_eq!(camel("IOStream"), "ioStream");
        assert_eq!(camel("id"), "id");
    }
}
