//! On-disk cache of compiled plugins and of their descriptions.
//!
//! - `<dir>/<plugin sha256>-<engine key>.cwasm`: the compiled component; the
//!   engine key hashes the wasmtime version and the engine's compilation
//!   settings (`Engine::precompile_compatibility_hash`), so a new portolan or
//!   a different CPU feature set never reuses a stale artefact.
//! - `<dir>/<plugin sha256>.describe.json`: the plugin's `describe()` result,
//!   so a run can decide which plugins it needs without compiling the others.
//!
//! The directory is `$PORTOLAN_CACHE_DIR`, else the platform cache directory
//! (`~/.cache/portolan/plugins` on Linux). Writes are atomic (temp file +
//! rename), so concurrent runs never see half a file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache directory from the environment or the platform default.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("PORTOLAN_CACHE_DIR").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(dir));
        }
        directories::ProjectDirs::from("", "", "portolan").map(|p| p.cache_dir().join("plugins"))
    }

    /// Open (creating) the cache at `dir`.
    pub fn open(dir: PathBuf) -> std::io::Result<Cache> {
        fs::create_dir_all(&dir)?;
        Ok(Cache { dir })
    }

    #[cfg(test)]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn artifact_path(&self, sha256: &str, engine_key: &str) -> PathBuf {
        self.dir.join(format!("{sha256}-{engine_key}.cwasm"))
    }

    pub fn descriptor_path(&self, sha256: &str) -> PathBuf {
        self.dir.join(format!("{sha256}.describe.json"))
    }

    /// Write `bytes` to `path` atomically.
    pub fn write_atomic(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all().ok();
        }
        fs::rename(&tmp, path).inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_content() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path().join("c")).unwrap();
        let p = cache.descriptor_path("abc");
        cache.write_atomic(&p, b"one").unwrap();
        cache.write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(
            fs::read_dir(cache.dir()).unwrap().count(),
            1,
            "no temp files left behind"
        );
    }
}
