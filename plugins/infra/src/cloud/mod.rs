//! Cloud and deployment platforms whose configuration (or file layout)
//! declares HTTP routes: one module per product, plus the route syntaxes
//! they share.

pub mod aws_cdk;
pub mod azure_functions;
pub mod cloudflare_wrangler;
pub mod kamal;
pub mod netlify;
pub mod vercel;

/// A path-to-regexp route (Vercel `source`, Netlify `from`, Next.js-style
/// rewrites) as a URL template: `:name` (with an optional `(regex)` or
/// `+`/`?` modifier) → `{name}`; a zero-or-more tail (`:path*`, `(.*)`,
/// `*`, Netlify's `/*` splat) ends the route there (a prefix). `None` when
/// what is left is only `/` (a catch-all, such as an SPA fallback).
pub fn colon_path(source: &str) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    for seg in source.split('/').skip(1) {
        if seg == "*" || seg == "(.*)" || seg.ends_with('*') && seg.starts_with(':') {
            break;
        }
        if let Some(rest) = seg.strip_prefix(':') {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                return None;
            }
            out.push(format!("{{{name}}}"));
        } else if seg.contains(['(', '*']) {
            break;
        } else {
            out.push(seg.to_string());
        }
    }
    let url = format!("/{}", out.join("/"));
    (url != "/").then_some(url)
}

/// A function file's name (no extension) as a route segment:
/// `[id]` → `{id}`, `[...slug]` / `[[...slug]]` → `{slug}`, `index` → none.
pub fn file_segment(stem: &str) -> Option<String> {
    if stem == "index" {
        return None;
    }
    let inner = stem.trim_start_matches('[').trim_end_matches(']');
    if inner.len() < stem.len() {
        let name = inner.trim_start_matches("...");
        return Some(format!("{{{name}}}"));
    }
    Some(stem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colon_paths() {
        assert_eq!(colon_path("/blog/:slug").as_deref(), Some("/blog/{slug}"));
        assert_eq!(colon_path("/api/:path*").as_deref(), Some("/api"));
        assert_eq!(colon_path("/api/*").as_deref(), Some("/api"));
        assert_eq!(colon_path("/f/:id(\\d{1,})").as_deref(), Some("/f/{id}"));
        assert_eq!(colon_path("/(.*)"), None);
        assert_eq!(file_segment("[...slug]").as_deref(), Some("{slug}"));
        assert_eq!(file_segment("index"), None);
    }
}
