//! The `read-file` capability: read-only access confined to the scanned base
//! paths. Paths are resolved (symlinks included) before the check, so `..`
//! and links pointing out of a base are refused.

use std::path::{Path, PathBuf};

pub struct Sandbox {
    /// Canonical base directories.
    roots: Vec<PathBuf>,
    /// The bases as display prefixes, for plugins (`host.base-paths`; see
    /// `portolan_plugin_sdk::paths::below_base`).
    displays: Vec<String>,
    max_size: u64,
}

impl Sandbox {
    pub fn new(bases: &[PathBuf], max_size: u64) -> Sandbox {
        let roots = bases
            .iter()
            .filter_map(|b| b.canonicalize().ok())
            .map(|p| {
                if p.is_file() {
                    p.parent().map(Path::to_path_buf).unwrap_or(p)
                } else {
                    p
                }
            })
            .collect();
        let displays = bases
            .iter()
            .map(|b| crate::walk::Base::new(&b.to_string_lossy()).display)
            .filter(|d| !d.is_empty() && d != ".")
            .collect();
        Sandbox {
            roots,
            displays,
            max_size,
        }
    }

    /// The display spellings of the bases (`.` and empty left out): what
    /// `host.base-paths` returns, so that plugins judge a path only by the
    /// part below its base.
    pub fn base_displays(&self) -> &[String] {
        &self.displays
    }

    /// The SHA-256 of what [`Self::read`] answered (content or refusal),
    /// so that a recorded read can be checked against the tree later.
    pub fn answer_digest(answer: &Result<String, String>) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        match answer {
            Ok(text) => {
                h.update(b"ok\0");
                h.update(text.as_bytes());
            }
            Err(reason) => {
                h.update(b"err\0");
                h.update(reason.as_bytes());
            }
        }
        h.finalize().into()
    }

    /// Read `requested`: a display path (relative to the working directory),
    /// a path relative to a base, or an absolute path inside a base.
    pub fn read(&self, requested: &str) -> Result<String, String> {
        let p = Path::new(requested);
        let mut candidates = Vec::new();
        if p.is_absolute() {
            candidates.push(p.to_path_buf());
        } else {
            candidates.push(p.to_path_buf());
            candidates.extend(self.roots.iter().map(|r| r.join(p)));
        }
        let mut outside = false;
        for c in candidates {
            let Ok(real) = c.canonicalize() else { continue };
            if !self.roots.iter().any(|r| real.starts_with(r)) {
                outside = true;
                continue;
            }
            let meta = std::fs::metadata(&real).map_err(|e| e.to_string())?;
            if !meta.is_file() {
                return Err("not a regular file".into());
            }
            if meta.len() > self.max_size {
                return Err(format!("{} bytes, over the size cap", meta.len()));
            }
            let bytes = std::fs::read(&real).map_err(|e| e.to_string())?;
            if bytes[..bytes.len().min(8192)].contains(&0) {
                return Err("binary file".into());
            }
            return Ok(String::from_utf8_lossy(&bytes).into_owned());
        }
        if outside {
            Err("outside the scanned base paths".into())
        } else {
            Err("no such file below the scanned base paths".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn confined_to_bases() {
        let outer = tempfile::tempdir().unwrap();
        let base = outer.path().join("app");
        fs::create_dir_all(base.join("cfg")).unwrap();
        fs::write(base.join("cfg/settings.yml"), "prefix: /api").unwrap();
        fs::write(outer.path().join("secret.txt"), "s3cret").unwrap();
        let sb = Sandbox::new(std::slice::from_ref(&base), 1 << 20);
        assert_eq!(sb.read("cfg/settings.yml").unwrap(), "prefix: /api");
        assert_eq!(
            sb.read(&base.join("cfg/settings.yml").to_string_lossy())
                .unwrap(),
            "prefix: /api"
        );
        assert!(sb.read("../secret.txt").unwrap_err().contains("outside"));
        assert!(sb
            .read(&outer.path().join("secret.txt").to_string_lossy())
            .unwrap_err()
            .contains("outside"));
        assert!(sb.read("/etc/hostname").is_err());
        assert!(sb.read("cfg").unwrap_err().contains("regular file"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(outer.path().join("secret.txt"), base.join("link.txt"))
                .unwrap();
            assert!(sb.read("link.txt").unwrap_err().contains("outside"));
        }
    }
}
