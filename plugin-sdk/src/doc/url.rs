//! URLs and URL templates found in specs.

/// The path part of a URL, without query or fragment: `https://h/v1?x` →
/// `/v1`, `//h/p` → `/p`, `/api` → `/api`, `api` or `./api` → `/api`,
/// `https://h` and `.` → `` (no path). A trailing `/` is kept.
pub fn url_path(url: &str) -> String {
    let url = url.trim();
    let url = url.split(['#', '?']).next().unwrap_or("");
    let after_authority = if let Some(i) = url.find("://") {
        Some(&url[i + 3..])
    } else {
        url.strip_prefix("//")
    };
    let path = match after_authority {
        Some(rest) => rest.find('/').map_or("", |i| &rest[i..]),
        None => {
            let mut p = url;
            while let Some(rest) = p.strip_prefix("./") {
                p = rest;
            }
            if p == "." {
                ""
            } else {
                p
            }
        }
    };
    if path.is_empty() || path.starts_with('/') {
        path.to_string()
    } else {
        format!("/{path}")
    }
}

/// Replace `{name}` placeholders using `lookup`; unknown names become empty.
/// An unclosed `{` is kept as written.
pub fn expand_template(template: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push_str(&rest[..open]);
        let name = &rest[open + 1..open + close];
        out.push_str(&lookup(name.trim()).unwrap_or_default());
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Decode `%XX` escapes (invalid ones are kept as written; the result is
/// read as UTF-8, lossily).
pub fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `name=value` pairs of an `application/x-www-form-urlencoded` text or a
/// query string (`+` is a space, escapes decoded). Empty pieces are skipped;
/// a piece without `=` is a name with an empty value.
pub fn form_pairs(text: &str) -> Vec<(String, String)> {
    let decode = |s: &str| percent_decode(&s.replace('+', " "));
    text.split('&')
        .map(str::trim)
        .filter(|piece| !piece.is_empty())
        .map(|piece| match piece.split_once('=') {
            Some((name, value)) => (decode(name), decode(value)),
            None => (decode(piece), String::new()),
        })
        .filter(|(name, _)| !name.is_empty())
        .collect()
}

/// The query string of a URL (after the first `?`, before any `#`).
pub fn query_of(url: &str) -> &str {
    let url = url.split('#').next().unwrap_or("");
    url.split_once('?').map_or("", |(_, q)| q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(url_path("https://api.example.com/v1"), "/v1");
        assert_eq!(url_path("https://api.example.com/v1/"), "/v1/");
        assert_eq!(url_path("https://api.example.com"), "");
        assert_eq!(url_path("http://h:8080/a/b?x=1#f"), "/a/b");
        assert_eq!(url_path("//cdn.example.com/x"), "/x");
        assert_eq!(url_path("/api"), "/api");
        assert_eq!(url_path("api/v2"), "/api/v2");
        assert_eq!(url_path("./api"), "/api");
        assert_eq!(url_path("."), "");
        assert_eq!(url_path(""), "");
        assert_eq!(url_path("/"), "/");
    }

    #[test]
    fn forms_and_queries() {
        assert_eq!(
            form_pairs("a=1&b=x+y&&c&d=%41%zz&=v"),
            [
                ("a".to_string(), "1".to_string()),
                ("b".to_string(), "x y".to_string()),
                ("c".to_string(), String::new()),
                ("d".to_string(), "A%zz".to_string()),
            ]
        );
        assert_eq!(query_of("https://h/p?x=1&y#frag?z"), "x=1&y");
        assert_eq!(query_of("/p"), "");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }

    #[test]
    fn templates() {
        let vars = |n: &str| match n {
            "host" => Some("h.example.com".to_string()),
            "basePath" => Some("v2".to_string()),
            _ => None,
        };
        assert_eq!(
            expand_template("https://{host}/{basePath}", vars),
            "https://h.example.com/v2"
        );
        assert_eq!(expand_template("/{unknown}/x", vars), "//x");
        assert_eq!(expand_template("/a/{open", vars), "/a/{open");
        assert_eq!(expand_template("/é/{host}ü", vars), "/é/h.example.comü");
    }
}
