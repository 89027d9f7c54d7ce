//! Minified bundles: recognised in the walk from the bytes already read and
//! not analyzed (docs/architecture.md, "Minified bundles").
//!
//! A bundler's output (`scalar.standalone.js`, `bootstrap.min.css`, a
//! Next.js chunk) is a few lines of several kilobytes each. It holds no
//! route a server declares, yet an analyzer lexes every byte of it: one
//! 3.5 MB bundle cost more than the whole rest of a 2,000-file app. A file
//! is a bundle when
//!
//! - its name says so: `*.min.js`, `*.min.mjs`, `*.min.cjs`, `*.min.css`
//!   (decided before reading), or
//! - its extension is one of the JavaScript/TypeScript/CSS family
//!   ([`EXTENSIONS`]), it is at least [`MIN_BYTES`] long, its lines average
//!   at least [`MIN_AVERAGE_LINE`] bytes, and at least [`LONG_SHARE`] of its
//!   bytes sit on lines of [`LONG_LINE`] bytes or more.
//!
//! The content test needs all three: a hand-written file with one long
//! string (a certificate, an inline SVG, a base64 font) keeps an ordinary
//! average or has most of its bytes on ordinary lines. Other languages
//! are never judged by content: a minified OpenAPI document is a one-line
//! JSON file that must be analyzed, and generated Go or Python (protobuf,
//! oapi-codegen servers) can register real routes. On the 42-app corpus
//! every file this recognises is a vendored library, a framework chunk or
//! compiled CSS; the closest real source file (a 15 KB TypeScript file of
//! certificates, 2.5 KB per line) is below [`MIN_BYTES`].
//!
//! `--include-bundles` (or `include_bundles = true` in a trusted config)
//! analyzes them anyway.

/// Extensions judged by content.
pub const EXTENSIONS: &[&str] = &[
    "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "css", "scss", "less",
];

/// Name suffixes that mark a bundle without reading it.
pub const NAME_SUFFIXES: &[&str] = &[".min.js", ".min.mjs", ".min.cjs", ".min.css"];

/// Files below this size are never judged by content (cheap to analyze,
/// and where a hand-written file of long lines is most likely).
pub const MIN_BYTES: usize = 32 * 1024;
/// Average bytes per line at or above which a file may be a bundle.
pub const MIN_AVERAGE_LINE: usize = 500;
/// A line at least this long counts as a long line...
pub const LONG_LINE: usize = 1000;
/// ...and at least this share of the bytes must sit on long lines.
pub const LONG_SHARE: f64 = 0.9;

/// Whether the name alone marks a bundle (`app.min.js`).
pub fn by_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    NAME_SUFFIXES
        .iter()
        .any(|s| lower.len() > s.len() && lower.ends_with(s))
}

/// Why the content of `name` looks like a minified bundle, if it does: a
/// short description for the debug log (`7 lines, 512000 bytes per line
/// on average`). Linear in the size, one pass over the bytes.
pub fn by_content(name: &str, bytes: &[u8]) -> Option<String> {
    if bytes.len() < MIN_BYTES {
        return None;
    }
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    if !EXTENSIONS.contains(&ext.as_str()) {
        return None;
    }
    let mut lines = 0usize;
    let mut long_bytes = 0usize;
    let mut longest = 0usize;
    // A final newline ends the last line; it does not start another.
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    for line in body.split(|&b| b == b'\n') {
        lines += 1;
        longest = longest.max(line.len());
        if line.len() >= LONG_LINE {
            long_bytes += line.len();
        }
    }
    let average = bytes.len() / lines.max(1);
    if average >= MIN_AVERAGE_LINE && long_bytes as f64 >= LONG_SHARE * bytes.len() as f64 {
        Some(format!(
            "{lines} lines, {average} bytes per line on average, the longest {longest}"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written Express router, `lines` routes long.
    fn router(lines: usize) -> String {
        let mut s =
            String::from("const express = require('express');\nconst router = express.Router();\n");
        for i in 0..lines {
            s.push_str(&format!(
                "router.get('/items/{i}', (req, res) => res.json({{ id: req.query.id }}));\n"
            ));
        }
        s
    }

    /// What a minifier makes of code: a license line, then one huge line.
    fn minified(bytes: usize) -> String {
        let mut s = String::from("/*! lib v1.2.3 | MIT */\n");
        while s.len() < bytes {
            s.push_str(
                "function a(b,c){return b.get(\"/x\",c)}var d=a(e,function(f){return f.query});",
            );
        }
        s.push_str("\n//# sourceMappingURL=lib.min.js.map\n");
        s
    }

    #[test]
    fn minified_code_is_a_bundle() {
        let reason = by_content("scalar.standalone.js", minified(3_500_000).as_bytes());
        assert!(reason.is_some_and(|r| r.starts_with("3 lines")));
        assert!(by_content("theme.css", minified(64 * 1024).as_bytes()).is_some());
        assert!(by_content("chunk.MJS", minified(64 * 1024).as_bytes()).is_some());
    }

    #[test]
    fn real_sources_are_not_bundles() {
        // Ordinary code, however large.
        assert!(by_content("routes.js", router(20_000).as_bytes()).is_none());
        // Small files are never judged, minified or not.
        assert!(by_content("tiny.js", minified(20_000).as_bytes()).is_none());
        // One long string (an inline certificate, a data URI) among
        // ordinary lines: most bytes are on ordinary lines.
        let mut s = router(800);
        s.push_str(&format!(
            "const LOGO = \"data:image/png;base64,{}\";\n",
            "A".repeat(40_000)
        ));
        assert!(by_content("app.ts", s.as_bytes()).is_none());
        // Other languages are never judged by content: a minified OpenAPI
        // document or generated code with routes is analyzed.
        let spec = format!(
            "{{\"openapi\":\"3.0.0\",\"paths\":{{{}}}}}",
            "\"/a\":{},".repeat(20_000)
        );
        assert!(by_content("openapi.json", spec.as_bytes()).is_none());
        assert!(by_content("routes.go", minified(64 * 1024).as_bytes()).is_none());
        assert!(by_content("Makefile", minified(64 * 1024).as_bytes()).is_none());
    }

    #[test]
    fn names() {
        assert!(by_name("jquery.min.js"));
        assert!(by_name("Bootstrap.MIN.CSS"));
        assert!(by_name("x.min.mjs"));
        assert!(!by_name(".min.js"));
        assert!(!by_name("admin.js"));
        assert!(!by_name("min.js"));
        assert!(!by_name("terminal.json"));
    }

    #[test]
    fn multi_byte_text_does_not_panic() {
        let s = "é".repeat(40_000);
        assert!(by_content("a.js", s.as_bytes()).is_some());
        assert!(by_content("é.é", s.as_bytes()).is_none());
        assert!(by_content("noext", s.as_bytes()).is_none());
    }
}
