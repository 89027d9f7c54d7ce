//! URL path joining and normalising.

/// Join route segments with exactly one `/` between them. Empty parts are
/// skipped; the result starts with `/` and has no trailing `/` unless the
/// last part had one (`/users/` stays distinct from `/users`); a last part
/// of just `/` adds nothing (`/api` + `/` is `/api`).
///
/// ```
/// use portolan_plugin_sdk::paths::join;
/// assert_eq!(join(&["/api/", "/v1", "users"]), "/api/v1/users");
/// assert_eq!(join(&["", "/"]), "/");
/// assert_eq!(join(&["/api", "items/"]), "/api/items/");
/// ```
pub fn join<S: AsRef<str>>(parts: &[S]) -> String {
    let mut out = String::new();
    let mut trailing = false;
    for part in parts.iter().map(AsRef::as_ref) {
        let trimmed = part.trim_matches('/');
        if trimmed.is_empty() {
            trailing = false;
            continue;
        }
        out.push('/');
        out.push_str(trimmed);
        trailing = part.ends_with('/');
    }
    if out.is_empty() {
        return "/".to_string();
    }
    if trailing {
        out.push('/');
    }
    out
}

/// Join route segments with exactly one `/` between them, dropping every
/// leading and trailing `/` of each part (unlike [`join`], a trailing `/`
/// is not kept); the result starts with `/`.
///
/// ```
/// use portolan_plugin_sdk::paths::join_trimmed;
/// assert_eq!(join_trimmed(&["/api", "v1/", "/users/"]), "/api/v1/users");
/// assert_eq!(join_trimmed(&["", "/"]), "/");
/// ```
pub fn join_trimmed(parts: &[&str]) -> String {
    let mut out = String::new();
    for p in parts {
        let p = p.trim_matches('/');
        if !p.is_empty() {
            out.push('/');
            out.push_str(p);
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Normalise a route path: ensure a leading `/`, collapse `//`, drop `./`
/// segments. Path-parameter syntax is left as written.
///
/// ```
/// use portolan_plugin_sdk::paths::normalize;
/// assert_eq!(normalize("users//<id>/./x"), "/users/<id>/x");
/// ```
pub fn normalize(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    for seg in path.split('/') {
        if seg.is_empty() || seg == "." {
            continue;
        }
        out.push('/');
        out.push_str(seg);
    }
    if out.is_empty() {
        return "/".into();
    }
    if path.ends_with('/') && path.len() > 1 {
        out.push('/');
    }
    out
}

/// The display spellings of the scanned base paths, from the host's
/// `base-paths` (asked once per instance; empty in native builds).
fn base_paths() -> &'static [String] {
    static BASES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    BASES.get_or_init(|| {
        let mut bases: Vec<String> = crate::host::base_paths()
            .iter()
            .map(|l| l.trim_end_matches(['/', '\\']).replace('\\', "/"))
            .filter(|l| !l.is_empty() && l != ".")
            .collect();
        // Longest first, so nested bases strip as much as they can.
        bases.sort_by_key(|b| std::cmp::Reverse(b.len()));
        bases
    })
}

/// The part of a display path below the scanned base it lives in: the host
/// hands plugins paths that start with the base as the user typed it
/// (`/home/me/tests/app/main.py` for `-b /home/me/tests/app`), and only the
/// part below the base says anything about the file itself.
pub fn below_base(path: &str) -> &str {
    below(path, base_paths())
}

fn below<'a>(path: &'a str, bases: &[String]) -> &'a str {
    for base in bases {
        if let Some(rest) = path.strip_prefix(base.as_str()) {
            if let Some(rest) = rest.strip_prefix(['/', '\\']) {
                return rest;
            }
        }
    }
    path
}

/// Is the file inside a directory named one of `names` (build output such
/// as `target`, `dist` or `build`, third-party code such as `vendor`)?
/// Only directories below the scanned base count (see [`below_base`]): a
/// tree checked out under `/ci/target/app` is scanned like any other.
///
/// ```
/// use portolan_plugin_sdk::paths::in_dir_named;
/// assert!(in_dir_named("svc/target/debug/build.rs", &["target"]));
/// assert!(!in_dir_named("svc/src/target.rs", &["target"]));
/// ```
pub fn in_dir_named(path: &str, names: &[&str]) -> bool {
    dir_named_below(below_base(path), names)
}

fn dir_named_below(path: &str, names: &[&str]) -> bool {
    let mut dirs = path.split(['/', '\\']).collect::<Vec<_>>();
    dirs.pop();
    dirs.iter().any(|d| names.contains(d))
}

/// Does this file path look like test, spec, fixture or mock code? Routes
/// declared there belong to test doubles, not to the application. Only the
/// part of the path below the scanned base counts (see [`below_base`]), so
/// scanning `-b ~/tests/app` still reports the app.
///
/// ```
/// use portolan_plugin_sdk::paths::is_test_path;
/// assert!(is_test_path("app/tests/test_api.py"));
/// assert!(is_test_path("src/user.spec.ts"));
/// assert!(!is_test_path("app/contest/views.py"));
/// ```
pub fn is_test_path(path: &str) -> bool {
    let path = below_base(path).replace('\\', "/");
    let lower = path.to_ascii_lowercase();
    let mut segments = lower.split('/').collect::<Vec<_>>();
    let file = segments.pop().unwrap_or("");
    let dir_hit = segments.iter().any(|s| {
        matches!(
            *s,
            "test"
                | "tests"
                | "__tests__"
                | "spec"
                | "specs"
                | "testing"
                | "__mocks__"
                | "mocks"
                | "fixtures"
                | "testdata"
                | "e2e"
        )
    });
    let stem = file.split('.').next().unwrap_or("");
    let file_hit = stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || file == "conftest.py"
        || file.contains(".test.")
        || file.contains(".spec.")
        || file.contains(".e2e-spec.")
        || file.contains(".e2e.")
        || path.rsplit('/').next().is_some_and(|f| {
            let stem = f.split('.').next().unwrap_or("");
            // `UserControllerIT` (Maven Failsafe), not `AUDIT`.
            let failsafe = stem.len() > 2
                && stem.ends_with("IT")
                && stem[..stem.len() - 2].ends_with(|c: char| c.is_ascii_lowercase());
            stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("Spec") || failsafe
        });
    dir_hit || file_hit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        for p in [
            "tests/a.py",
            "a/test/b.go",
            "x_test.go",
            "UserControllerTest.java",
            "a/__tests__/x.js",
            "a/b.spec.ts",
            "spec/models/user_spec.rb",
            "conftest.py",
            "src/main/java/a/UserControllerIT.java",
            "apps/api/src/app.e2e-spec.ts",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in [
            "app/views.py",
            "src/latest.py",
            "attestation/x.go",
            "contest.py",
            "src/main.rs",
            "src/main/java/a/AUDIT.java",
            "src/main/java/a/Submit.java",
            "docs/api-spec.yaml",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
    }

    #[test]
    fn join_cases() {
        assert_eq!(join(&["/api", "/users/<int:id>"]), "/api/users/<int:id>");
        assert_eq!(join(&["/", "/"]), "/");
        assert_eq!(join::<&str>(&[]), "/");
        assert_eq!(join(&["api", ""]), "/api");
        assert_eq!(join(&["/api/", "/"]), "/api");
    }

    #[test]
    fn normalize_cases() {
        assert_eq!(normalize(""), "/");
        assert_eq!(normalize("/a/"), "/a/");
        assert_eq!(normalize("a//b"), "/a/b");
    }

    #[test]
    fn only_the_part_below_the_base_counts() {
        let bases = vec!["/home/me/tests/app".to_string(), "spec".to_string()];
        assert_eq!(below("/home/me/tests/app/main.py", &bases), "main.py");
        assert_eq!(below("spec/api/routes.rb", &bases), "api/routes.rb");
        // A sibling that merely shares the prefix is not below the base.
        assert_eq!(
            below("/home/me/tests/application/x.py", &bases),
            "/home/me/tests/application/x.py"
        );
        assert_eq!(below("other/tests/x.py", &bases), "other/tests/x.py");
    }

    #[test]
    fn build_dirs_only_below_the_base() {
        let bases = vec!["/ci/target/app".to_string()];
        let judge = |p: &str| dir_named_below(below(p, &bases), &["target", "dist"]);
        assert!(!judge("/ci/target/app/src/main.rs"));
        assert!(judge("/ci/target/app/target/debug/out.rs"));
        assert!(judge("/ci/target/app/web\\dist\\x.js"));
        assert!(!judge("/ci/target/app/src/dist.rs"));
    }
}
