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

#[cfg(test)]
mod tests {
    use super::*;

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
}
