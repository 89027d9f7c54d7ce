//! Stage 0: the plugins, their runtime and the catalog of technologies
//! (everything that does not depend on a tree), and technology names
//! resolved against that catalog.

use std::path::PathBuf;

use crate::error::Failure;
use crate::log;
use crate::model::ScanError;
use crate::plugin::cache::Cache;
use crate::plugin::runtime::Runtime;
use crate::plugin::sandbox::Sandbox;
use crate::plugin::{self, Catalog};
use crate::settings::{PluginSettings, TechNames};

/// Plugins, runtime and catalog.
pub struct Plugins {
    pub runtime: Runtime,
    pub catalog: Catalog,
    pub errors: Vec<ScanError>,
}

/// The plugins of a scan or of `--list-techs`. `--locked` runs exactly the
/// locked set: the per-machine user plugin directory is left out.
pub fn load(
    settings: &PluginSettings,
    roots: &[PathBuf],
    max_file_size: u64,
) -> Result<Plugins, Failure> {
    load_with(settings, roots, max_file_size, !settings.locked)
}

/// The plugins, the user plugin directory included or not; plugins may
/// read files below `roots`.
pub fn load_with(
    settings: &PluginSettings,
    roots: &[PathBuf],
    max_file_size: u64,
    include_user_dir: bool,
) -> Result<Plugins, Failure> {
    if let Some(missing) = settings.paths.iter().find(|p| !p.exists()) {
        return Err(Failure::Usage(format!(
            "plugin {} does not exist",
            missing.display()
        )));
    }
    let cache = if settings.no_cache {
        None
    } else {
        match Cache::default_dir().map(Cache::open) {
            Some(Ok(c)) => Some(c),
            Some(Err(e)) => {
                log::warn(format!("plugin cache unavailable ({e}); plugins will be compiled on every run. Set PORTOLAN_CACHE_DIR to a writable directory"));
                None
            }
            None => None,
        }
    };
    let net = settings.network();
    let plugin::Gathered {
        sources,
        mut errors,
        pin_mismatches,
    } = plugin::gather(settings, include_user_dir, net).map_err(Failure::Usage)?;
    if sources.is_empty() {
        return Err(Failure::Usage(
            "--disable-builtin leaves no plugin to run: add one with --plugin FILE or a [[plugins]] entry in portolan.toml (`portolan plugin add`)".into(),
        ));
    }
    let lock = if settings.locked {
        let path = plugin::lock::path_in(&settings.lock_dir);
        let lock = plugin::lock::Lockfile::read(&path).map_err(Failure::Usage)?;
        let mut problems = plugin::lock::check_sources(&lock, &path, &sources, &settings.lock_dir);
        if !problems.is_empty() {
            problems.extend(pin_mismatches);
            return Err(Failure::Usage(format!(
                "--locked: the plugins differ from the lockfile:\n  {}",
                escaped_lines(&problems)
            )));
        }
        Some((lock, path))
    } else {
        None
    };
    if !pin_mismatches.is_empty() {
        return Err(Failure::Usage(escaped_lines(&pin_mismatches)));
    }
    let runtime = Runtime::new(cache, settings.limits, Sandbox::new(roots, max_file_size))
        .map_err(|e| Failure::Runtime(format!("cannot start the WebAssembly runtime: {e}")))?;
    let (catalog, more) = Catalog::build(&runtime, runtime.cache(), sources);
    errors.extend(more);
    let bad_settings = catalog.settings_problems();
    if !bad_settings.is_empty() {
        return Err(Failure::Usage(escaped_lines(&bad_settings)));
    }
    if let Some((lock, path)) = lock {
        let problems = plugin::lock::check_descriptions(&lock, &path, &catalog, &settings.lock_dir);
        if !problems.is_empty() {
            return Err(Failure::Usage(format!(
                "--locked: the plugins differ from the lockfile:\n  {}",
                escaped_lines(&problems)
            )));
        }
    }
    Ok(Plugins {
        runtime,
        catalog,
        errors,
    })
}

/// Problems one per line, each escaped on its own (a newline inside one
/// cannot start a line of its own; see `log::error_lines`).
fn escaped_lines(problems: &[String]) -> String {
    problems
        .iter()
        .map(|p| crate::escape::visible(p).into_owned())
        .collect::<Vec<_>>()
        .join("\n  ")
}

/// Resolve a technology name: id, alias, case-insensitive, `-` = `_`.
pub fn resolve_tech(catalog: &Catalog, name: &str) -> Option<usize> {
    let wanted = name.trim().to_ascii_lowercase().replace('-', "_");
    catalog.tech_index(&wanted).or_else(|| {
        catalog.techs.iter().position(|t| {
            t.desc
                .aliases
                .iter()
                .any(|a| a.to_ascii_lowercase().replace('-', "_") == wanted)
        })
    })
}

/// `-t`, `--add-techs` and `--exclude-techs` as catalog indexes.
pub struct TechChoice {
    pub only: Vec<usize>,
    pub add: Vec<usize>,
    pub exclude: Vec<usize>,
}

impl TechChoice {
    pub fn resolve(catalog: &Catalog, names: &TechNames) -> Result<TechChoice, Failure> {
        Ok(TechChoice {
            only: resolve_list(catalog, &names.only, "--techs")?,
            add: resolve_list(catalog, &names.add, "--add-techs")?,
            exclude: resolve_list(catalog, &names.exclude, "--exclude-techs")?,
        })
    }
}

fn resolve_list(catalog: &Catalog, names: &[String], flag: &str) -> Result<Vec<usize>, Failure> {
    let mut out = Vec::new();
    for n in names.iter().filter(|n| !n.trim().is_empty()) {
        match resolve_tech(catalog, n) {
            Some(t) => out.push(t),
            None => {
                return Err(Failure::Usage(format!(
                    "{flag}: unknown technology `{n}`; run `portolan --list-techs` to see the supported ones"
                )))
            }
        }
    }
    Ok(out)
}
