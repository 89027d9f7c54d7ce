//! Reading a route regex (an nginx `location ~ ^/api/v[0-9]+/`, a Kubernetes
//! `ImplementationSpecific` path such as `/api(/|$)(.*)`, a Gateway API
//! `RegularExpression` match) as URL templates.
//!
//! The pattern must be a path: anchored with `^` or starting with `/`.
//! Trailing `$` is dropped. It is then read segment by segment (`/` outside
//! groups and classes):
//!
//! - a literal segment stays (escapes such as `\.` resolved; a lone `.` is
//!   read as a dot);
//! - a group of literal alternatives, `(users|accounts)`, gives one URL per
//!   alternative (at most [`MAX_URLS`] in all);
//! - a "match the rest" tail — `.*`, `(.*)`, `(/|$)(.*)`, `(/.*)?`, `/?` —
//!   ends the route there (the location is a prefix);
//! - any other segment becomes a placeholder: `{name}` for a named group
//!   `(?<name>…)` / `(?P<name>…)`, else `{param1}`, `{param2}`… in order.
//!
//! Unanchored patterns that do not start with `/` (`\.php$`,
//! `\.(gif|jpg)$`) match file suffixes anywhere, not routes: `None`.

/// Upper bound on the URLs one pattern expands to.
pub const MAX_URLS: usize = 32;

const META: &[u8] = b".^$*+?()[]{}|\\";

/// Characters a "rest of the path" tail is made of.
const TAIL: &[u8] = b"()/|$.*?+:";

pub fn routes(pattern: &str) -> Option<Vec<String>> {
    let p = pattern.trim();
    let p = p.strip_prefix('^').unwrap_or(p);
    if !p.starts_with('/') {
        return None;
    }
    let p = match p.strip_suffix('$') {
        Some(rest) if !rest.ends_with('\\') => rest,
        _ => p,
    };
    let segments = split_segments(p)?;
    let mut urls = vec![String::new()];
    let mut counter = 0;
    for seg in segments.iter().skip(1) {
        let choices: Vec<String> = if let Some(lit) = literal(seg) {
            vec![lit]
        } else if let Some(head) = tail_head(seg) {
            if !head.is_empty() {
                append(&mut urls, &[head]);
            }
            return Some(finish(urls));
        } else if let Some(alts) = alternatives(seg) {
            alts
        } else {
            let name = group_name(seg).unwrap_or_else(|| {
                counter += 1;
                format!("param{counter}")
            });
            vec![format!("{{{name}}}")]
        };
        append(&mut urls, &choices);
        urls.truncate(MAX_URLS);
    }
    Some(finish(urls))
}

fn append(urls: &mut Vec<String>, choices: &[String]) {
    let mut next = Vec::with_capacity(urls.len() * choices.len());
    for url in urls.iter() {
        for c in choices {
            next.push(format!("{url}/{c}"));
        }
    }
    *urls = next;
}

fn finish(urls: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in urls {
        let u = if u.is_empty() { "/".to_string() } else { u };
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// Split at `/` outside groups and classes; `None` when brackets do not
/// balance.
fn split_segments(p: &str) -> Option<Vec<String>> {
    let mut segs = vec![String::new()];
    let mut depth = 0i32;
    let mut class = false;
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        let cur = segs.last_mut()?;
        match c {
            '\\' => {
                cur.push(c);
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                continue;
            }
            '[' if !class => class = true,
            ']' if class => class = false,
            '(' if !class => depth += 1,
            ')' if !class => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            '/' if !class && depth == 0 => {
                segs.push(String::new());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    (depth == 0 && !class).then_some(segs)
}

/// The segment as plain text when it has no regex syntax.
fn literal(seg: &str) -> Option<String> {
    let (head, rest) = literal_prefix(seg);
    rest.is_empty().then_some(head)
}

/// The longest literal start of a segment and what follows it.
fn literal_prefix(seg: &str) -> (String, &str) {
    let bytes = seg.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            match bytes.get(i + 1) {
                Some(n) if n.is_ascii_punctuation() => {
                    out.push(*n as char);
                    i += 2;
                    continue;
                }
                _ => break,
            }
        }
        if b == b'.' && !matches!(bytes.get(i + 1), Some(b'*' | b'+' | b'?' | b'{')) {
            out.push('.');
            i += 1;
            continue;
        }
        if META.contains(&b) {
            break;
        }
        // A quantifier after this character makes it optional/repeated.
        if matches!(bytes.get(i + 1), Some(b'*' | b'+' | b'?' | b'{')) {
            break;
        }
        let ch_len = seg[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&seg[i..i + ch_len]);
        i += ch_len;
    }
    (out, &seg[i..])
}

/// `Some(head)` when the segment is a literal head followed by a tail that
/// matches "anything further" (`.*`, `(/|$)(.*)`, `/?`).
fn tail_head(seg: &str) -> Option<String> {
    let (head, rest) = literal_prefix(seg);
    let is_tail = !rest.is_empty()
        && rest.bytes().all(|b| TAIL.contains(&b))
        && (rest.contains(".*") || rest.contains(".+") || rest.contains('$') || rest == "?");
    is_tail.then_some(head)
}

/// `(a|b|c)`, `(?:a|b)` or `(?<n>a|b)` of literal alternatives.
fn alternatives(seg: &str) -> Option<Vec<String>> {
    let inner = seg.strip_prefix('(')?.strip_suffix(')')?;
    let inner = match inner.strip_prefix('?') {
        Some(rest) => {
            if let Some(r) = rest.strip_prefix(':') {
                r
            } else {
                let r = rest.strip_prefix('P').unwrap_or(rest).strip_prefix('<')?;
                &r[r.find('>')? + 1..]
            }
        }
        None => inner,
    };
    let alts: Option<Vec<String>> = inner.split('|').map(literal).collect();
    alts.filter(|a| a.len() > 1 || a.first().is_some_and(|s| !s.is_empty()))
}

/// The name of the first named group of the segment.
fn group_name(seg: &str) -> Option<String> {
    let at = seg
        .find("(?<")
        .map(|i| i + 3)
        .or_else(|| seg.find("(?P<").map(|i| i + 4))?;
    let rest = &seg[at..];
    let name = &rest[..rest.find('>')?];
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(p: &str) -> Vec<String> {
        routes(p).unwrap_or_default()
    }

    #[test]
    fn literal_and_prefix_patterns() {
        assert_eq!(r("^/api/v1/users$"), ["/api/v1/users"]);
        assert_eq!(r("^/api/"), ["/api/"]);
        assert_eq!(r("^/robots\\.txt$"), ["/robots.txt"]);
        assert_eq!(r("/api(/|$)(.*)"), ["/api"]);
        assert_eq!(r("^/static/(.*)$"), ["/static"]);
        assert_eq!(r("^/admin/?$"), ["/admin"]);
        assert_eq!(r("^/app(/.*)?$"), ["/app"]);
        assert_eq!(r("^/.*"), ["/"]);
    }

    #[test]
    fn placeholders_and_alternatives() {
        assert_eq!(r("^/api/v[0-9]+/orders/"), ["/api/{param1}/orders/"]);
        assert_eq!(
            r("^/users/(?<id>\\d+)/posts/(\\d+)$"),
            ["/users/{id}/posts/{param1}"]
        );
        assert_eq!(r("^/(images|css)/"), ["/images/", "/css/"]);
        assert_eq!(r("^/(?:a|b)/x"), ["/a/x", "/b/x"]);
    }

    #[test]
    fn suffix_patterns_are_not_routes() {
        assert!(routes("\\.php$").is_none());
        assert!(routes("\\.(gif|jpg|png)$").is_none());
        assert!(routes("^/a/(b").is_none());
        assert!(routes("").is_none());
    }
}
