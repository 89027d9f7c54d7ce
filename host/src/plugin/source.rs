//! Pinned plugins from config files (`[[plugins]]`): reading local ones,
//! fetching URL ones into the plugin store, and checking their SHA-256.
//!
//! The **plugin store** keeps downloaded components by hash:
//! `<cache dir>/downloads/<sha256>.wasm` (next to the compiled-artifact
//! cache, removed by `portolan cache clear`). A URL plugin is downloaded only
//! when its hash is not in the store, and never when:
//! - the run is `--offline` or `--locked` (CI must not depend on the network
//!   at scan time), or
//! - the entry comes from an untrusted config file, i.e. the `portolan.toml`
//!   of a scanned tree: a repository being scanned must not be able to make
//!   portolan contact a URL it chose. The user fetches it once with
//!   `portolan plugin add URL` (or passes the file with `--config`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::cache::Cache;
use super::{Origin, PluginSource};
use crate::config::PluginSpec;
use crate::log;

/// Largest component a download may return.
const MAX_DOWNLOAD_BYTES: u64 = 256 * 1024 * 1024;

/// The directory of downloaded plugins.
pub fn store_dir() -> Option<PathBuf> {
    Cache::default_dir().map(|d| d.join("downloads"))
}

pub use crate::hash::sha256_hex;

/// May this run download anything?
#[derive(Clone, Copy, Debug)]
pub struct Network {
    /// `--offline` or `--locked`.
    pub forbidden_by: Option<&'static str>,
}

/// What reading the configured plugins gave.
#[derive(Default)]
pub struct Configured {
    /// Every plugin that could be read (those whose hash is not the pinned
    /// one included, so `--locked` can report against the lockfile first).
    pub sources: Vec<PluginSource>,
    /// Plugins that could not be read at all.
    pub unreadable: Vec<String>,
    /// Plugins whose bytes do not match their `sha256` pin.
    pub mismatched: Vec<String>,
}

/// Read every configured plugin. All problems are returned (one message
/// each, naming the plugin, the file and what to do), not just the first.
pub fn configured(specs: &[PluginSpec], net: Network) -> Configured {
    let mut out = Configured::default();
    for spec in specs {
        match load(spec, net) {
            Ok((s, None)) => out.sources.push(s),
            Ok((s, Some(m))) => {
                out.sources.push(s);
                out.mismatched.push(m);
            }
            Err(e) => out.unreadable.push(e),
        }
    }
    out
}

fn load(spec: &PluginSpec, net: Network) -> Result<(PluginSource, Option<String>), String> {
    let name = spec.label();
    let (origin, bytes) = match (&spec.path, &spec.url) {
        (Some(path), _) => {
            let bytes = std::fs::read(path).map_err(|e| {
                format!(
                    "plugin `{name}` (listed in {}): cannot read {}: {e}. Fix the `path`, or remove the entry",
                    spec.file.display(),
                    path.display()
                )
            })?;
            (Origin::File(path.clone()), bytes)
        }
        (None, Some(url)) => {
            // `check` guarantees a hash for URL entries.
            let expected = spec.sha256.clone().unwrap_or_default();
            let bytes = fetch(&name, url, &expected, spec, net)?;
            (Origin::Url(url.clone()), bytes)
        }
        (None, None) => {
            return Err(format!(
                "plugin `{name}` (listed in {}) has neither `path` nor `url`",
                spec.file.display()
            ))
        }
    };
    let mut source = PluginSource::new(name.clone(), origin, Arc::from(bytes));
    source.settings = spec.settings();
    let wrong = spec
        .sha256
        .as_ref()
        .filter(|expected| **expected != source.sha256)
        .map(|expected| {
            mismatch(
                &name,
                &source.origin_label(),
                &spec.file,
                expected,
                &source.sha256,
            )
        });
    Ok((source, wrong))
}

/// The message for a component whose hash is not the pinned one.
pub fn mismatch(name: &str, from: &str, config: &Path, expected: &str, actual: &str) -> String {
    format!(
        "plugin `{name}` ({from}) does not match the sha256 pinned in {}: expected {expected}, got {actual}. \
         If the new component is trusted, update the pin with `portolan plugin add {from}`; otherwise restore the pinned file",
        config.display()
    )
}

/// The stored bytes of `sha256`, if present and intact.
pub fn stored(sha256: &str) -> Option<Vec<u8>> {
    let path = store_dir()?.join(format!("{sha256}.wasm"));
    let bytes = std::fs::read(&path).ok()?;
    if sha256_hex(&bytes) == sha256 {
        Some(bytes)
    } else {
        log::warn(format!(
            "plugin store file {} is corrupt; ignoring it",
            path.display()
        ));
        let _ = std::fs::remove_file(&path);
        None
    }
}

/// Put `bytes` in the store under their hash.
pub fn store(bytes: &[u8]) -> Result<PathBuf, String> {
    let dir = store_dir().ok_or("no cache directory; set PORTOLAN_CACHE_DIR")?;
    let cache = Cache::open(dir.clone())
        .map_err(|e| format!("cannot create the plugin store {}: {e}", dir.display()))?;
    let path = dir.join(format!("{}.wasm", sha256_hex(bytes)));
    cache
        .write_atomic(&path, bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

fn fetch(
    name: &str,
    url: &str,
    expected: &str,
    spec: &PluginSpec,
    net: Network,
) -> Result<Vec<u8>, String> {
    if let Some(bytes) = stored(expected) {
        log::debug(format!("plugin `{name}`: {url} from the plugin store"));
        return Ok(bytes);
    }
    if let Some(flag) = net.forbidden_by {
        return Err(format!(
            "plugin `{name}` ({url}, listed in {}) is not in the plugin store and {flag} forbids downloading it. \
             Run once without {flag}, or fetch it with `portolan plugin add {url} --sha256 {expected}`",
            spec.file.display()
        ));
    }
    if !spec.trusted {
        return Err(format!(
            "plugin `{name}` ({url}) is listed in {}, a config file found in the scanned tree; portolan does not download URLs \
             that a scanned repository names. If you trust it, fetch it once with `portolan plugin add {url} --sha256 {expected}`, \
             or pass the file explicitly with --config",
            spec.file.display()
        ));
    }
    let bytes = download(url).map_err(|e| format!("plugin `{name}`: {e}"))?;
    let actual = sha256_hex(&bytes);
    if actual != expected {
        return Err(mismatch(name, url, &spec.file, expected, &actual));
    }
    store(&bytes).map_err(|e| format!("plugin `{name}`: {e}"))?;
    Ok(bytes)
}

/// GET `url` (blocking), refusing non-success statuses and huge bodies.
pub fn download(url: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    log::info(format!("Downloading plugin {url}"));
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(120))
        .user_agent(concat!("portolan/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot start an HTTP client: {e}"))?;
    let resp = client
        .get(url)
        .send()
        .map_err(|e| format!("cannot download {url}: {e}"))?;
    if !resp.status().is_success() {
        return Err(format!("cannot download {url}: HTTP {}", resp.status()));
    }
    let mut bytes = Vec::new();
    resp.take(MAX_DOWNLOAD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot download {url}: {e}"))?;
    if bytes.len() as u64 > MAX_DOWNLOAD_BYTES {
        return Err(format!(
            "{url} is larger than {} MiB; refusing it",
            MAX_DOWNLOAD_BYTES / (1024 * 1024)
        ));
    }
    Ok(bytes)
}
