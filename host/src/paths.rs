//! Path helpers shared by host stages.

use std::path::{Component, Path, PathBuf};

/// Remove `.` and resolve `..` lexically (without touching the file
/// system); a `..` above the start is kept.
pub fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Extensions of source-code files (lower case): what the AI mode may
/// send, and what the walk keeps in directories it would prune.
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "rb", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "go", "java", "kt", "kts",
    "scala", "groovy", "cs", "fs", "vb", "php", "rs", "swift", "ex", "exs", "erl", "cr", "lua",
    "pl", "pm", "dart", "hs", "ml", "clj", "cljs", "nim", "zig", "v", "jl", "r", "cfc", "cfm", "d",
    "hx", "c", "cc", "cpp", "cxx", "h", "hpp", "m", "mm", "coffee", "gleam", "tcl", "raku", "rkt",
    "elm", "vala", "pas", "cob", "adb", "rakumod", "p6", "pm6",
];

/// Whether a file name has a source-code extension ([`SOURCE_EXTENSIONS`]).
pub fn has_source_extension(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    match lower.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => SOURCE_EXTENSIONS.contains(&ext),
        _ => false,
    }
}
