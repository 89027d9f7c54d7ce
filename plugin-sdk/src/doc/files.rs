//! Relative references between files of the scanned tree
//! (`./schemas/user.yaml` from `app/docs/openapi.yaml`).
//!
//! The files themselves are read with [`crate::host::read_file`] (by display
//! path); native tests resolve those reads against a directory set with
//! `host::set_native_root`, which the fixture runner sets to the case
//! directory.

/// The display path of `reference` (a relative file reference such as
/// `./schemas/user.yaml` or `../common.yaml`, `/`- or `\`-separated) made
/// from the directory of the file `from`. `.` and `..` segments are
/// resolved; `None` when `..` climbs above the first segment of `from`
/// (outside the scanned base) or the reference is absolute or a URL.
pub fn relative_to(from: &str, reference: &str) -> Option<String> {
    let reference = reference.replace('\\', "/");
    if reference.is_empty() || reference.starts_with('/') || reference.contains("://") {
        return None;
    }
    let from = from.replace('\\', "/");
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    let floor = usize::from(!parts.is_empty());
    for seg in reference.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.len() <= floor {
                    return None;
                }
                parts.pop();
            }
            seg => parts.push(seg),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let from = "app/docs/openapi.yaml";
        let r = |x: &str| relative_to(from, x);
        assert_eq!(
            r("./schemas/user.yaml").as_deref(),
            Some("app/docs/schemas/user.yaml")
        );
        assert_eq!(r("common.yaml").as_deref(), Some("app/docs/common.yaml"));
        assert_eq!(r("../shared/x.json").as_deref(), Some("app/shared/x.json"));
        assert_eq!(
            r("..\\shared\\x.json").as_deref(),
            Some("app/shared/x.json")
        );
        assert_eq!(r("../../x.json"), None);
        assert_eq!(r("/etc/passwd"), None);
        assert_eq!(r("https://example.com/x.yaml"), None);
        assert_eq!(r(""), None);
        assert_eq!(
            relative_to("openapi.yaml", "a/b.yaml").as_deref(),
            Some("a/b.yaml")
        );
        assert_eq!(relative_to("openapi.yaml", "../b.yaml"), None);
    }
}
