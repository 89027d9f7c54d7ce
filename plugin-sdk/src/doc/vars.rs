//! `{{name}}` variables of API-client documents (Postman, Insomnia, Bruno,
//! `.http` files) and the URL paths they stand for.
//!
//! Rules shared by those formats:
//! - known variables are substituted (values may use variables too, up to
//!   [`MAX_ROUNDS`] levels);
//! - an unknown variable at the very start of a URL stands for the server
//!   (`{{baseUrl}}/users`): it is dropped, like the scheme and host;
//! - an unknown variable anywhere else in the path is a path parameter:
//!   `{{userId}}` becomes `{userId}`.

use super::url::url_path;

/// Substitution rounds (a variable whose value uses a variable, …).
pub const MAX_ROUNDS: usize = 8;

/// The name inside `{{ … }}`: trimmed, without Insomnia's `_.` prefix.
pub fn var_name(inner: &str) -> &str {
    let name = inner.trim();
    name.strip_prefix("_.").unwrap_or(name).trim()
}

/// Replace every `{{name}}` that `lookup` knows (by [`var_name`]); unknown
/// ones stay as written.
pub fn substitute(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut current = text.to_string();
    for _ in 0..MAX_ROUNDS {
        let (next, changed) = substitute_once(&current, lookup);
        current = next;
        if !changed {
            break;
        }
    }
    current
}

fn substitute_once(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open + 2..].find("}}") else {
            break;
        };
        let inner = &rest[open + 2..open + 2 + close];
        out.push_str(&rest[..open]);
        match lookup(var_name(inner)) {
            Some(value) => {
                out.push_str(&value);
                changed = true;
            }
            None => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &rest[open + 2 + close + 2..];
    }
    out.push_str(rest);
    (out, changed)
}

/// The path of a URL template: variables substituted, a leading unknown
/// variable (the server) dropped, scheme, host, query and fragment dropped,
/// other unknown variables turned into `{name}` placeholders. `""` when
/// nothing of a path is left (the caller decides whether that is `/`).
pub fn url_path_of(url: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let url = substitute(url.trim(), lookup);
    let mut rest = url.trim_start();
    // `{{base}}{{version}}/x`: every leading unknown variable is the server.
    while let Some(after) = rest.strip_prefix("{{") {
        match after.find("}}") {
            Some(close) => rest = after[close + 2..].trim_start(),
            None => break,
        }
    }
    placeholders(&url_path(&strip_bare_host(rest)))
}

/// `localhost:3000/api` or `api.example.com/v1` (a host written without a
/// scheme, as API clients allow) → `/api`, `/v1`. A first segment is a host
/// when it is `localhost`, has a `:port`, or is a dotted name ending in a
/// letter label (`v1.2/x` and `users/1` stay paths).
pub fn strip_bare_host(url: &str) -> String {
    if url.contains("://") || url.starts_with('/') || url.starts_with("{{") {
        return url.to_string();
    }
    let end = url.find(['/', '?', '#']).unwrap_or(url.len());
    let (first, rest) = url.split_at(end);
    let (name, port) = first.split_once(':').unwrap_or((first, ""));
    let has_port = !port.is_empty() && port.chars().all(|c| c.is_ascii_digit());
    let dotted = name.contains('.')
        && name
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    if name.eq_ignore_ascii_case("localhost") || has_port || dotted {
        rest.to_string()
    } else {
        url.to_string()
    }
}

/// `{{name}}` → `{name}` (names with characters a path parameter cannot
/// have, such as `$randomInt`, become `{value}`).
pub fn placeholders(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open + 2..].find("}}") else {
            break;
        };
        out.push_str(&rest[..open]);
        let name = var_name(&rest[open + 2..open + 2 + close]);
        let name = if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
        {
            name
        } else {
            "value"
        };
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &rest[open + 2 + close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        match name {
            "host" => Some("https://api.example.com".into()),
            "base" => Some("{{host}}/v2".into()),
            "loop" => Some("{{loop}}x".into()),
            "id" => Some("42".into()),
            _ => None,
        }
    }

    #[test]
    fn substitution() {
        assert_eq!(
            substitute("{{base}}/users/{{ id }}", &lookup),
            "https://api.example.com/v2/users/42"
        );
        assert_eq!(substitute("{{ _.id }}-{{nope}}", &lookup), "42-{{nope}}");
        assert_eq!(substitute("{{open", &lookup), "{{open");
        assert!(substitute("{{loop}}", &lookup).ends_with('x'));
    }

    #[test]
    fn url_paths() {
        assert_eq!(
            url_path_of("{{base}}/users/{{id}}?x=1", &lookup),
            "/v2/users/42"
        );
        assert_eq!(
            url_path_of("{{baseUrl}}/users/{{userId}}/posts", &lookup),
            "/users/{userId}/posts"
        );
        assert_eq!(url_path_of("{{scheme}}://{{h}}:8080/a", &lookup), "/a");
        assert_eq!(url_path_of(" {{a}}{{b}}/x/:id", &lookup), "/x/:id");
        assert_eq!(
            url_path_of("{{ _.baseUrl }}/u/{{ _.uid }}", &lookup),
            "/u/{uid}"
        );
        assert_eq!(url_path_of("/r/{{$randomInt}}", &lookup), "/r/{value}");
        assert_eq!(url_path_of("{{baseUrl}}", &lookup), "");
        assert_eq!(url_path_of("https://h", &lookup), "");
        assert_eq!(url_path_of("users/{{", &lookup), "/users/{{");
        assert_eq!(url_path_of("localhost:3000/api/x", &lookup), "/api/x");
        assert_eq!(url_path_of("api.example.com/v1?x", &lookup), "/v1");
        assert_eq!(url_path_of("10.0.0.1:8080", &lookup), "");
        assert_eq!(url_path_of("v1.2/items", &lookup), "/v1.2/items");
        assert_eq!(url_path_of("users/1", &lookup), "/users/1");
    }
}
