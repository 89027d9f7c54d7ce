//! The shape of route URLs, shared by the host (which normalises, merges
//! and completes endpoints with these rules) and by plugins: which `?`
//! starts a query, what counts as a path-parameter placeholder in any
//! framework's syntax, and how different spellings of one route compare.

/// Does the URL start with a scheme (`https://…`)?
pub fn is_absolute(url: &str) -> bool {
    url.find("://").is_some_and(|i| {
        i > 0
            && url[..i]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.')
    })
}

/// Leading `/` unless absolute; `//` collapsed in the path (not the query).
pub fn normalize_url(url: &str) -> String {
    let (prefix, rest) = if is_absolute(url) {
        let i = url.find("://").map_or(0, |i| i + 3);
        let host_end = url[i..].find('/').map_or(url.len(), |j| i + j);
        (&url[..host_end], &url[host_end..])
    } else {
        ("", url)
    };
    let (path, query) = split_query(rest);
    let mut out = String::with_capacity(url.len() + 1);
    out.push_str(prefix);
    if prefix.is_empty() && !path.starts_with('/') {
        out.push('/');
    }
    let mut last_slash = out.ends_with('/');
    for c in path.chars() {
        if c == '/' && last_slash {
            continue;
        }
        last_slash = c == '/';
        out.push(c);
    }
    out.push_str(query);
    out
}

/// Split a URL at its query (`?`) or fragment (`#`). A `?` inside `{…}` or
/// `<…>` (`{id?}`) or right after a `:name` segment (Express's optional
/// `:name?`) belongs to the path.
pub fn split_query(url: &str) -> (&str, &str) {
    let bytes = url.as_bytes();
    let mut depth = 0i32;
    let mut seg_start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' | b'<' | b'(' => depth += 1,
            b'}' | b'>' | b')' => depth -= 1,
            b'/' => seg_start = i + 1,
            b'#' if depth <= 0 => return (&url[..i], &url[i..]),
            b'?' if depth <= 0 => {
                let seg = &url[seg_start..i];
                let optional_param = seg.len() > 1
                    && seg.starts_with(':')
                    && seg[1..]
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                    && matches!(bytes.get(i + 1), None | Some(b'/'));
                if !optional_param {
                    return (&url[..i], &url[i..]);
                }
            }
            _ => {}
        }
    }
    (url, "")
}

/// The path part of a URL (no origin, no query or fragment).
fn path_of(url: &str) -> (&str, &str, &str) {
    let (path, query) = split_query(url);
    if is_absolute(path) {
        let i = path.find("://").map_or(0, |i| i + 3);
        let end = path[i..].find('/').map_or(path.len(), |j| i + j);
        (&path[..end], &path[end..], query)
    } else {
        ("", path, query)
    }
}

/// Path-parameter placeholders in one path segment: the byte range of each
/// and its name. Recognises `{name}` / `{name:regex}` / `{name?}`, `<name>` /
/// `<conv:name>`, a leading `:name` (optionally `?` or `(regex)` after it)
/// and a leading `*name`.
fn segment_placeholders(seg: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    if let Some(rest) = seg.strip_prefix(':') {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        return if end > 0 {
            vec![(0..seg.len(), &rest[..end])]
        } else {
            vec![]
        };
    }
    if let Some(rest) = seg.strip_prefix('*') {
        return if is_ident(rest) {
            vec![(0..seg.len(), rest)]
        } else {
            vec![]
        };
    }
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(rel) = seg[at..].find(['{', '<']) {
        let open = at + rel;
        let close_ch = if seg.as_bytes()[open] == b'{' {
            '}'
        } else {
            '>'
        };
        let Some(len) = seg[open..].find(close_ch) else {
            break;
        };
        let inner = &seg[open + 1..open + len];
        let name = if close_ch == '}' {
            inner
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .trim_end_matches(['?', '*', '+'])
        } else {
            match inner.split_once(':') {
                Some((conv, second)) if is_converter(conv) => second.trim(),
                Some((first, _)) => first.trim(),
                None => inner.trim(),
            }
        };
        if is_ident(name) {
            found.push((open..open + len + 1, name));
        }
        at = open + len + 1;
    }
    found
}

/// Flask/Werkzeug and Django path converters (`<int:id>`).
fn is_converter(conv: &str) -> bool {
    matches!(
        conv,
        "int" | "str" | "string" | "slug" | "uuid" | "float" | "bool" | "path" | "any"
    ) || conv.contains('(')
}

/// Names of the path placeholders in a URL, in order.
pub fn path_placeholders(url: &str) -> Vec<String> {
    let (_, path, _) = path_of(url);
    path.split('/')
        .flat_map(|seg| {
            segment_placeholders(seg)
                .into_iter()
                .map(|(_, name)| name.to_string())
        })
        .collect()
}

/// The URL with every placeholder syntax written as `{name}`:
/// `<int:id>`, `<id>`, `:id`, `:id?`, `{id:\d+}` and `*id` all become `{id}`.
/// Used to recognise the same route spelled by different sources.
pub fn unify_placeholders(url: &str) -> String {
    let (origin, path, query) = path_of(url);
    let segments: Vec<String> = path
        .split('/')
        .map(|seg| {
            let mut out = String::with_capacity(seg.len());
            let mut last = 0;
            for (range, name) in segment_placeholders(seg) {
                out.push_str(&seg[last..range.start]);
                out.push('{');
                out.push_str(name);
                out.push('}');
                last = range.end;
            }
            out.push_str(&seg[last..]);
            out
        })
        .collect();
    format!("{origin}{}{query}", segments.join("/"))
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_normalised() {
        assert_eq!(normalize_url("users"), "/users");
        assert_eq!(normalize_url("//a//b"), "/a/b");
        assert_eq!(normalize_url("/a//b?x=//y"), "/a/b?x=//y");
        assert_eq!(normalize_url("https://h//x"), "https://h/x");
    }

    #[test]
    fn placeholders_of_every_syntax() {
        assert_eq!(
            path_placeholders("/a/{id}/b/{slug:[a-z]+}"),
            vec!["id", "slug"]
        );
        assert_eq!(
            path_placeholders("/u/<int:uid>/<name>/<x:y>"),
            vec!["uid", "name", "x"]
        );
        assert_eq!(
            path_placeholders("/u/:id/:opt?/:n(\\d+)"),
            vec!["id", "opt", "n"]
        );
        assert_eq!(path_placeholders("/files/*path"), vec!["path"]);
        assert_eq!(path_placeholders("/a/{id?}/:x?"), vec!["id", "x"]);
        assert_eq!(split_query("/a/:x?/b?q=1"), ("/a/:x?/b", "?q=1"));
        assert_eq!(split_query("/a?:x"), ("/a", "?:x"));
    }

    #[test]
    fn placeholder_syntaxes_unify() {
        for url in [
            "/o/<int:id>/x",
            "/o/<id>/x",
            "/o/:id/x",
            "/o/{id:[0-9]+}/x",
            "/o/{id}/x",
        ] {
            assert_eq!(unify_placeholders(url), "/o/{id}/x", "{url}");
        }
        assert_eq!(unify_placeholders("/files/*path"), "/files/{path}");
        assert_eq!(unify_placeholders("/a/:x?/b?q=<v>"), "/a/{x}/b?q=<v>");
        assert_eq!(
            unify_placeholders("http://h:80/u/<uuid:u>.json"),
            "http://h:80/u/{u}.json"
        );
        assert_eq!(path_placeholders("/a/{b}.{c}?q={d}"), vec!["b", "c"]);
        assert_eq!(path_placeholders("http://h:8080/a/{id}"), vec!["id"]);
    }
}
