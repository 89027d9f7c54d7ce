//! `portolan plugin add`: pin a plugin in a config file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use super::test::resolve_component;
use super::*;
use crate::cli::PluginOpts;
use crate::config;
use crate::error::Failure;
use crate::plugin::cache::Cache;
use crate::plugin::lock::{self};
use crate::plugin::source::{self};
use crate::plugin::{Catalog, Origin, PluginSource};
use crate::settings::PluginSettings;

/// The config file `plugin add` edits: `--config`, else the current
/// directory's `portolan.toml` / `.portolan.toml`, else a new
/// `./portolan.toml`.
pub(super) fn target_config(opts: &PluginOpts) -> PathBuf {
    opts.config
        .clone()
        .or_else(|| config::project_config_file(Path::new("")))
        .unwrap_or_else(|| PathBuf::from("portolan.toml"))
}

pub(super) fn is_url(s: &str) -> bool {
    s.starts_with("https://") || s.starts_with("http://")
}

pub(super) fn add(
    settings: &PluginSettings,
    opts: &PluginOpts,
    given: &str,
    sha256: Option<&str>,
) -> Result<ExitCode, Failure> {
    let expected = sha256
        .map(|h| h.trim().to_ascii_lowercase())
        .map(|h| {
            if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(h)
            } else {
                Err(Failure::Usage(format!(
                    "--sha256 must be 64 hexadecimal digits, not `{h}`"
                )))
            }
        })
        .transpose()?;
    let config_file = target_config(opts);
    let config_dir = config_file
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    // The bytes, from the store, the network or the disk.
    let (bytes, origin) = if is_url(given) {
        let stored = expected.as_deref().and_then(source::stored);
        let bytes = match stored {
            Some(b) => b,
            None if settings.offline || settings.locked => {
                return Err(Failure::Usage(format!(
                "{given} is not in the plugin store and --offline/--locked forbids downloading it"
            )))
            }
            None => source::download(given).map_err(Failure::Runtime)?,
        };
        (bytes, Origin::Url(given.to_string()))
    } else {
        let path = resolve_component(Path::new(given)).map_err(Failure::Usage)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| Failure::Usage(format!("cannot read plugin {}: {e}", path.display())))?;
        (bytes, Origin::File(path))
    };
    let actual = source::sha256_hex(&bytes);
    if let Some(expected) = &expected {
        if *expected != actual {
            return Err(Failure::Usage(format!(
                "plugin {given} does not have the expected sha256: expected {expected} (--sha256), got {actual}. Nothing was added; check where the file came from"
            )));
        }
    }
    // Describe it: refuses what is not a usable plugin, and names it.
    let probe = PluginSource::new(
        stem(given),
        origin.clone(),
        Arc::from(bytes.clone().into_boxed_slice()),
    );
    let mut probe_settings = settings.clone();
    probe_settings.disable_builtin = true;
    probe_settings.configured.clear();
    probe_settings.paths.clear();
    let (catalog, errors) = describe_only(&probe_settings, probe)?;
    if let Some(e) = errors.first() {
        return Err(Failure::Usage(format!("{}; nothing was added", e.message)));
    }
    let Some(entry) = catalog.plugins.first() else {
        return Err(Failure::Usage(format!(
            "{given} could not be described; nothing was added"
        )));
    };
    let d = &entry.descriptor;
    let mut report = String::new();
    // Where the pinned bytes live.
    let location = match &origin {
        Origin::Url(url) => {
            let stored = source::store(&bytes).map_err(Failure::Runtime)?;
            report.push_str(&format!(
                "Downloaded {url}\n  stored as {}\n",
                stored.display()
            ));
            if expected.is_none() {
                report.push_str(&format!(
                    "  no --sha256 given: pinned the hash of what was downloaded ({actual}); compare it with the one its publisher gives\n"
                ));
            }
            ("url", url.clone())
        }
        Origin::File(path) => {
            let inside = abs(path).starts_with(abs(&config_dir));
            let kept = if inside {
                path.clone()
            } else {
                let dir = config_dir.join(".portolan").join("plugins");
                std::fs::create_dir_all(&dir).map_err(|e| {
                    Failure::Runtime(format!("cannot create {}: {e}", dir.display()))
                })?;
                let dest = dir.join(format!("{}.wasm", d.name));
                std::fs::write(&dest, &bytes).map_err(|e| {
                    Failure::Runtime(format!("cannot write {}: {e}", dest.display()))
                })?;
                report.push_str(&format!(
                    "Copied {} to {}\n",
                    path.display(),
                    dest.display()
                ));
                dest
            };
            let rel = relative_display(&kept, &config_dir);
            ("path", rel)
        }
        Origin::Builtin => unreachable_builtin()?,
    };
    let updated = write_entry(&config_file, &d.name, location.clone(), &actual)?;
    let techs: Vec<&str> = d.techs.iter().map(|t| t.id.as_str()).collect();
    report.push_str(&format!(
        "{} plugin `{}` {} (interface {}; techs: {}) in {}\n  {} = {:?}\n  sha256 = {actual}\n",
        if updated { "Updated" } else { "Added" },
        d.name,
        d.version,
        d.interface_version,
        techs.join(", "),
        config_file.display(),
        location.0,
        location.1
    ));
    let lock_path = lock::path_in(&config_dir);
    report.push_str(&if lock_path.exists() {
        format!(
            "{} is now out of date: run `portolan plugin lock` after reviewing the plugin\n",
            lock_path.display()
        )
    } else {
        "Run `portolan plugin lock` to pin every plugin for `--locked` runs (CI)\n".to_string()
    });
    print(&report);
    Ok(ExitCode::SUCCESS)
}

pub(super) fn unreachable_builtin() -> Result<(&'static str, String), Failure> {
    Err(Failure::Runtime("a built-in plugin cannot be added".into()))
}

/// Describe one source with a runtime of its own (no built-ins).
pub(super) fn describe_only(
    settings: &PluginSettings,
    source: PluginSource,
) -> Result<(Catalog, Vec<crate::model::ScanError>), Failure> {
    let plugins = {
        let cache = if settings.no_cache {
            None
        } else {
            Cache::default_dir().and_then(|d| Cache::open(d).ok())
        };
        let runtime = crate::plugin::runtime::Runtime::new(
            cache,
            crate::plugin::runtime::Limits::default(),
            crate::plugin::sandbox::Sandbox::new(&[], 0),
        )
        .map_err(|e| Failure::Runtime(format!("cannot start the WebAssembly runtime: {e}")))?;
        Catalog::build(&runtime, runtime.cache(), vec![source])
    };
    Ok(plugins)
}

pub(super) fn stem(given: &str) -> String {
    let last = given
        .trim_end_matches('/')
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(given);
    last.strip_suffix(".wasm").unwrap_or(last).to_string()
}

pub(super) fn relative_display(path: &Path, dir: &Path) -> String {
    let (p, d) = (abs(path), abs(dir));
    match p.strip_prefix(&d) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => p.display().to_string(),
    }
}

/// Add or update the `[[plugins]]` entry named `name`, keeping the rest of
/// the file (comments, order) as it is. Returns whether it was an update.
pub(super) fn write_entry(
    file: &Path,
    name: &str,
    (key, value): (&str, String),
    sha256: &str,
) -> Result<bool, Failure> {
    use toml_edit::{value as v, ArrayOfTables, DocumentMut, Item, Table};
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(Failure::Runtime(format!(
                "cannot read {}: {e}",
                file.display()
            )))
        }
    };
    let mut doc: DocumentMut = text.parse().map_err(|e| {
        Failure::Usage(format!(
            "config file {} is not valid TOML: {e}",
            file.display()
        ))
    })?;
    let item = doc
        .entry("plugins")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    let Some(tables) = item.as_array_of_tables_mut() else {
        return Err(Failure::Usage(format!(
            "config file {}: `plugins` must be an array of tables ([[plugins]])",
            file.display()
        )));
    };
    let existing = tables
        .iter_mut()
        .find(|t| t.get("name").and_then(|n| n.as_str()) == Some(name));
    let updated = existing.is_some();
    let table = match existing {
        Some(t) => t,
        None => {
            tables.push(Table::new());
            let last = tables.len() - 1;
            match tables.get_mut(last) {
                Some(t) => t,
                None => return Err(Failure::Runtime("cannot edit the config".into())),
            }
        }
    };
    table.insert("name", v(name));
    table.remove("path");
    table.remove("url");
    table.insert(key, v(value));
    table.insert("sha256", v(sha256));
    // Check the result parses as a config before writing it.
    config::FileConfig::parse(&doc.to_string(), file).map_err(Failure::Usage)?;
    if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| Failure::Runtime(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(file, doc.to_string())
        .map_err(|e| Failure::Runtime(format!("cannot write {}: {e}", file.display())))?;
    Ok(updated)
}
