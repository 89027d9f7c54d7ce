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
