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
