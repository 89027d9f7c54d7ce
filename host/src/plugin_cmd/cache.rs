//! `portolan cache clear`.

use std::path::Path;
use std::process::ExitCode;

use super::*;
use crate::error::Failure;
use crate::plugin::cache::Cache;
use crate::plugin::source::{self};

pub(super) fn cache_clear() -> Result<ExitCode, Failure> {
    let Some(dir) = Cache::default_dir() else {
        return Err(Failure::Runtime(
            "no cache directory on this system; set PORTOLAN_CACHE_DIR".into(),
        ));
    };
    let mut compiled = (0usize, 0u64);
    let mut described = 0usize;
    let mut downloaded = (0usize, 0u64);
    let remove = |path: &Path, counter: &mut (usize, u64)| -> Result<(), Failure> {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        std::fs::remove_file(path)
            .map_err(|e| Failure::Runtime(format!("cannot remove {}: {e}", path.display())))?;
        counter.0 += 1;
        counter.1 += size;
        Ok(())
    };
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if !p.is_file() {
            continue;
        }
        if name.ends_with(".cwasm") || name.contains(".tmp") {
            remove(&p, &mut compiled)?;
        } else if name.ends_with(".describe.json") {
            let mut c = (0, 0);
            remove(&p, &mut c)?;
            described += c.0;
        }
    }
    if let Some(store) = source::store_dir() {
        for e in std::fs::read_dir(&store).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_file() {
                remove(&p, &mut downloaded)?;
            }
        }
        let _ = std::fs::remove_dir(&store);
    }
    let mut results = (0usize, 0u64);
    if let Some(dir) = crate::analyze::cache::ResultCache::default_dir() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_file() {
                remove(&p, &mut results)?;
            }
        }
        let _ = std::fs::remove_dir(&dir);
    }
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    print(&format!(
        "Cleared {}: {} compiled plugins ({:.1} MiB), {} plugin descriptions, {} downloaded plugins ({:.1} MiB), {} cached analyzer results ({:.1} MiB)\n",
        dir.display(),
        compiled.0,
        mib(compiled.1),
        described,
        downloaded.0,
        mib(downloaded.1),
        results.0,
        mib(results.1)
    ));
    Ok(ExitCode::SUCCESS)
}
