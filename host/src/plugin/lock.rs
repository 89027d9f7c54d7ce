//! `portolan.lock`: the exact plugin set of a project, built-ins included,
//! so CI (`--locked`) runs precisely what was reviewed.
//!
//! ```toml
//! # Written by `portolan plugin lock`; commit it. `--locked` refuses any difference.
//! version = 1
//!
//! [[plugin]]
//! name = "python"
//! version = "0.1.0"
//! interface_version = "0.1.0"
//! sha256 = "…"
//! source = "builtin"          # or a path relative to this file, or a URL
//! ```
//!
//! The check runs in two steps: hashes and sources before any plugin code
//! runs ([`check_sources`]), then names and versions once the plugins have
//! described themselves ([`check_descriptions`]).

use std::path::{Path, PathBuf};

use crate::paths::clean;

use serde::{Deserialize, Serialize};

use super::{Catalog, Origin, PluginSource};

pub const FILE_NAME: &str = "portolan.lock";

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Lockfile {
    pub version: u32,
    #[serde(default, rename = "plugin")]
    pub plugins: Vec<LockEntry>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LockEntry {
    pub name: String,
    pub version: String,
    pub interface_version: String,
    pub sha256: String,
    pub source: String,
}

pub fn path_in(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

impl Lockfile {
    pub fn read(path: &Path) -> Result<Lockfile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "--locked: there is no lockfile at {}; create it with `portolan plugin lock` (after reviewing the plugins) and commit it",
                    path.display()
                )
            } else {
                format!("cannot read {}: {e}", path.display())
            }
        })?;
        let lock: Lockfile = toml::from_str(&text).map_err(|e| {
            format!(
                "{} is not a valid lockfile: {}; re-create it with `portolan plugin lock`",
                path.display(),
                e.to_string().trim_end()
            )
        })?;
        if lock.version != 1 {
            return Err(format!(
                "{} has lockfile version {}; this portolan writes version 1. Re-create it with `portolan plugin lock`",
                path.display(),
                lock.version
            ));
        }
        Ok(lock)
    }

    /// The lock of every described plugin in `catalog`.
    pub fn of(catalog: &Catalog, lock_dir: &Path) -> Lockfile {
        Lockfile {
            version: 1,
            plugins: catalog
                .plugins
                .iter()
                .map(|p| LockEntry {
                    name: p.descriptor.name.clone(),
                    version: p.descriptor.version.clone(),
                    interface_version: p.descriptor.interface_version.clone(),
                    sha256: p.source.sha256.clone(),
                    source: source_key(&p.source, lock_dir),
                })
                .collect(),
        }
    }

    pub fn render(&self) -> Result<String, String> {
        let body = toml::to_string(self).map_err(|e| format!("cannot write the lockfile: {e}"))?;
        Ok(format!(
            "# Written by `portolan plugin lock`; commit it. `portolan --locked` refuses to run\n\
             # when any plugin differs. After reviewing a change, run `portolan plugin lock` again.\n{body}"
        ))
    }
}

/// How the lockfile names a plugin's origin: `builtin`, a path relative to
/// the lockfile's directory (with `/`), or the URL.
pub fn source_key(source: &PluginSource, lock_dir: &Path) -> String {
    match &source.origin {
        Origin::Builtin => "builtin".into(),
        Origin::Url(u) => u.clone(),
        Origin::File(p) => relative_to(p, lock_dir),
    }
}

fn relative_to(path: &Path, dir: &Path) -> String {
    let abs = |p: &Path| {
        // `absolute("")` is an error; "" means the current directory.
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        std::path::absolute(p)
            .map(|a| clean(&a))
            .unwrap_or_else(|_| clean(p))
    };
    let (p, d) = (abs(path), abs(dir));
    let shown = match p.strip_prefix(&d) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => p.clone(),
    };
    shown.to_string_lossy().replace('\\', "/")
}

fn redo(lock_path: &Path) -> String {
    format!(
        "If the change is expected, review it and re-run `portolan plugin lock` to update {}",
        lock_path.display()
    )
}

/// Step 1, before any plugin runs: every source is in the lock with the
/// same hash, and every locked plugin is present.
pub fn check_sources(
    lock: &Lockfile,
    lock_path: &Path,
    sources: &[PluginSource],
    lock_dir: &Path,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = vec![false; lock.plugins.len()];
    for s in sources {
        let key = source_key(s, lock_dir);
        crate::log::debug(format!(
            "lock: plugin `{}` is `{key}` relative to `{}`",
            s.name,
            lock_dir.display()
        ));
        // Built-ins are matched by name (their key is always `builtin`).
        let found =
            lock.plugins.iter().enumerate().find(|(i, e)| {
                !seen[*i] && e.source == key && (key != "builtin" || e.name == s.name)
            });
        match found {
            Some((i, e)) => {
                seen[i] = true;
                if e.sha256 != s.sha256 {
                    let what = if key == "builtin" {
                        "built-in plugin (a different portolan version?)"
                    } else {
                        "plugin"
                    };
                    problems.push(format!(
                        "{what} `{}` ({}) differs from {}: locked sha256 {}, found sha256 {}. {}",
                        e.name,
                        s.origin_label(),
                        lock_path.display(),
                        e.sha256,
                        s.sha256,
                        redo(lock_path)
                    ));
                }
            }
            None => problems.push(format!(
                "plugin `{}` ({}, sha256 {}) is not in {}. {}",
                s.name,
                s.origin_label(),
                s.sha256,
                lock_path.display(),
                redo(lock_path)
            )),
        }
    }
    for (i, e) in lock.plugins.iter().enumerate() {
        if !seen[i] {
            problems.push(format!(
                "{} lists plugin `{}` ({}, sha256 {}) but this run does not have it{}. {}",
                lock_path.display(),
                e.name,
                e.source,
                e.sha256,
                if e.source == "builtin" {
                    " (--disable-builtin, or a different portolan version?)"
                } else {
                    ""
                },
                redo(lock_path)
            ));
        }
    }
    problems
}

/// Step 2, once described: same name, version and interface version.
pub fn check_descriptions(
    lock: &Lockfile,
    lock_path: &Path,
    catalog: &Catalog,
    lock_dir: &Path,
) -> Vec<String> {
    let mut problems = Vec::new();
    for p in &catalog.plugins {
        let key = source_key(&p.source, lock_dir);
        let Some(e) = lock
            .plugins
            .iter()
            .find(|e| e.source == key && e.sha256 == p.source.sha256)
        else {
            continue;
        };
        let d = &p.descriptor;
        if e.name != d.name || e.version != d.version || e.interface_version != d.interface_version
        {
            problems.push(format!(
                "plugin at {} describes itself as `{}` {} (interface {}) but {} locked `{}` {} (interface {}). {}",
                p.source.origin_label(),
                d.name,
                d.version,
                d.interface_version,
                lock_path.display(),
                e.name,
                e.version,
                e.interface_version,
                redo(lock_path)
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn src(name: &str, origin: Origin, bytes: &[u8]) -> PluginSource {
        PluginSource::new(name.into(), origin, Arc::from(bytes))
    }

    #[test]
    fn sources_are_relative_to_the_lockfile() {
        let s = src(
            "x",
            Origin::File(PathBuf::from("./proj/.portolan/x.wasm")),
            b"a",
        );
        assert_eq!(source_key(&s, Path::new("proj")), ".portolan/x.wasm");
        assert_eq!(source_key(&s, Path::new("./proj/")), ".portolan/x.wasm");
        let b = src("python", Origin::Builtin, b"a");
        assert_eq!(source_key(&b, Path::new("proj")), "builtin");
    }

    #[test]
    fn differences_name_the_plugin_and_both_hashes() {
        let dir = Path::new("/p");
        let good = src("tiny", Origin::File(PathBuf::from("/p/tiny.wasm")), b"good");
        let lock = Lockfile {
            version: 1,
            plugins: vec![LockEntry {
                name: "tiny".into(),
                version: "0.1.0".into(),
                interface_version: "0.1.0".into(),
                sha256: good.sha256.clone(),
                source: "tiny.wasm".into(),
            }],
        };
        let path = Path::new("/p/portolan.lock");
        assert!(check_sources(&lock, path, std::slice::from_ref(&good), dir).is_empty());
        let bad = src("tiny", Origin::File(PathBuf::from("/p/tiny.wasm")), b"evil");
        let problems = check_sources(&lock, path, std::slice::from_ref(&bad), dir);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("`tiny`"), "{}", problems[0]);
        assert!(problems[0].contains(&good.sha256) && problems[0].contains(&bad.sha256));
        let extra = src("more", Origin::File(PathBuf::from("/p/more.wasm")), b"m");
        let problems = check_sources(&lock, path, &[extra], dir);
        assert_eq!(problems.len(), 2, "{problems:?}"); // `more` unknown, `tiny` missing
        let text = lock.render().unwrap();
        assert_eq!(toml::from_str::<Lockfile>(&text).unwrap(), lock);
    }
}
