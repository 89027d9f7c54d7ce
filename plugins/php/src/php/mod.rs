//! Reusable PHP helpers: tokenizer (inline HTML blanked), expression
//! values and fluent call chains, class/method outlines, request reads.

pub mod expr;
pub mod frame;
pub mod handler;
pub mod inflect;
pub mod oa;
pub mod outline;
pub mod request;
pub mod tokens;

/// The part of `path` before `marker` (`svc/` for `svc/routes/api.php`).
pub fn root_before(path: &str, marker: &str) -> Option<String> {
    match path.rfind(&format!("/{marker}")) {
        Some(i) => Some(path[..i + 1].to_string()),
        None => path.starts_with(marker).then(String::new),
    }
}

/// Normalise `a/b/../c/./d` → `a/c/d`.
pub fn normalize_file(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}
