//! Other files of the scanned tree, read through the host (`read-file`),
//! and relative references between them.
//!
//! Native builds (the plugin's own tests) have no host: a test may set a
//! directory that display paths are resolved against
//! ([`set_native_root`]); without one, reading fails like the SDK's native
//! `host::read_file`.

use portolan_plugin_sdk::host;

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static NATIVE_ROOT: std::cell::RefCell<Option<std::path::PathBuf>> =
        const { std::cell::RefCell::new(None) };
}

/// Native builds only: resolve display paths (`app/docs/x.yaml`) against
/// `root` on this thread (a fixture case directory), or stop doing so.
#[cfg(not(target_arch = "wasm32"))]
pub fn set_native_root(root: Option<std::path::PathBuf>) {
    NATIVE_ROOT.with(|r| *r.borrow_mut() = root);
}

/// Read a file by display path. The error names the reason, not the path.
pub fn read(path: &str) -> Result<String, String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let root = NATIVE_ROOT.with(|r| r.borrow().clone());
        if let Some(root) = root {
            return std::fs::read(root.join(path))
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .map_err(|e| e.to_string());
        }
    }
    host::read_file(path)
}

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

    #[test]
    fn native_reads_need_a_root() {
        set_native_root(None);
        assert!(read("Cargo.toml").is_err());
        set_native_root(Some(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))));
        assert!(read("Cargo.toml").is_ok_and(|t| t.contains("portolan-plugin-specs")));
        assert!(read("missing.toml").is_err());
        set_native_root(None);
    }
}
