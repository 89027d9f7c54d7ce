//! Analyzer plugins: where they come from, what they declare, and loading
//! them lazily so only the plugins of detected technologies are compiled.

pub mod cache;
pub mod lock;
pub mod runtime;
pub mod sandbox;
pub mod source;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::log;
use crate::model::ScanError;
use cache::Cache;
use runtime::{Loaded, Runtime};

/// The `portolan:analyzer` interface version this host speaks: the SDK's,
/// read from the `package` line of `plugin-sdk/wit/analyzer.wit`.
pub const INTERFACE_VERSION: &str = portolan_plugin_sdk::INTERFACE_VERSION;

/// The interface itself (`plugin-sdk/wit/analyzer.wit`), which
/// `portolan plugin new --lang python` writes into the new project.
pub const INTERFACE_WIT: &str = include_str!("../../../plugin-sdk/wit/analyzer.wit");

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_plugins.rs"));
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Builtin,
    File(PathBuf),
    Url(String),
}

/// A plugin's bytes and identity.
#[derive(Clone)]
pub struct PluginSource {
    /// Short name used in messages until `describe()` says otherwise.
    pub name: String,
    pub origin: Origin,
    pub bytes: PluginBytes,
    pub sha256: String,
    /// The description computed when the binary was built (built-ins).
    pub embedded_description: Option<&'static str>,
    /// The settings from `[[plugins]] config = { … }` (a JSON object;
    /// empty when none), checked against the plugin's declared settings.
    pub settings: serde_json::Map<String, serde_json::Value>,
}

/// A plugin component's bytes: the bundle's, borrowed from the binary
/// (never copied, and not even paged in unless the plugin is compiled), or
/// read at run time.
#[derive(Clone)]
pub enum PluginBytes {
    Embedded(&'static [u8]),
    Loaded(Arc<[u8]>),
}

impl std::ops::Deref for PluginBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            PluginBytes::Embedded(b) => b,
            PluginBytes::Loaded(b) => b,
        }
    }
}

impl PluginSource {
    pub fn new(name: String, origin: Origin, bytes: Arc<[u8]>) -> PluginSource {
        let sha256 = hex(&Sha256::digest(&bytes));
        PluginSource {
            name,
            origin,
            bytes: PluginBytes::Loaded(bytes),
            sha256,
            embedded_description: None,
            settings: serde_json::Map::new(),
        }
    }

    pub fn origin_label(&self) -> String {
        match &self.origin {
            Origin::Builtin => "built-in".into(),
            Origin::File(p) => p.display().to_string(),
            Origin::Url(u) => u.clone(),
        }
    }
}

pub(crate) use crate::hash::hex;

/// The default bundle embedded in the binary.
pub fn builtin_sources() -> Vec<PluginSource> {
    builtin::BUILTIN_PLUGINS
        .iter()
        .map(|(name, bytes, sha256, description)| PluginSource {
            name: name.to_string(),
            origin: Origin::Builtin,
            bytes: PluginBytes::Embedded(bytes),
            sha256: sha256.to_string(),
            embedded_description: *description,
            settings: serde_json::Map::new(),
        })
        .collect()
}

/// The user plugin directory: `$PORTOLAN_PLUGIN_DIR`, else the platform data
/// directory (`~/.local/share/portolan/plugins` on Linux).
pub fn user_plugin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PORTOLAN_PLUGIN_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "portolan").map(|p| p.data_dir().join("plugins"))
}

/// Plugins given with `--plugin` (files, or directories of `*.wasm`) and
/// those in the user plugin directory. Unreadable ones are errors.
pub fn external_sources(
    paths: &[PathBuf],
    plugin_dir: Option<&Path>,
) -> (Vec<PluginSource>, Vec<ScanError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let add_dir = |dir: &Path, files: &mut Vec<PathBuf>| {
        if let Ok(entries) = std::fs::read_dir(dir) {
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "wasm"))
                .collect();
            found.sort();
            files.extend(found);
        }
    };
    if let Some(dir) = plugin_dir {
        add_dir(dir, &mut files);
    }
    for p in paths {
        if p.is_dir() {
            add_dir(p, &mut files);
        } else {
            files.push(p.clone());
        }
    }
    let mut sources = Vec::new();
    for path in files {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        match std::fs::read(&path) {
            Ok(bytes) => sources.push(PluginSource::new(
                name,
                Origin::File(path),
                Arc::from(bytes),
            )),
            Err(e) => errors.push(ScanError {
                plugin: name,
                tech: None,
                message: format!("cannot read plugin file {}: {e}", path.display()),
            }),
        }
    }
    (sources, errors)
}

/// Which plugins run and how (resolved from the flags by `settings`): `--plugin`, `[[plugins]]`, the lockfile, the
/// cache and the sandbox limits. Also what `portolan plugin …` works on.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `--plugin PATH` (files or directories).
    pub paths: Vec<PathBuf>,
    /// `[[plugins]]` from the config files.
    pub configured: Vec<crate::config::PluginSpec>,
    /// Where portolan.lock is read and written.
    pub lock_dir: PathBuf,
    pub locked: bool,
    pub offline: bool,
    pub disable_builtin: bool,
    pub no_cache: bool,
    pub limits: runtime::Limits,
}

impl Settings {
    /// What downloads these settings allow (`--locked` and `--offline`
    /// forbid them, and say which flag did).
    pub fn network(&self) -> source::Network {
        source::Network {
            forbidden_by: if self.locked {
                Some("--locked")
            } else if self.offline {
                Some("--offline")
            } else {
                None
            },
        }
    }
}

/// Every plugin a run uses, and what went wrong gathering them.
pub struct Gathered {
    pub sources: Vec<PluginSource>,
    /// Unreadable `--plugin` files and user plugins (the run goes on).
    pub errors: Vec<ScanError>,
    /// `[[plugins]]` whose bytes do not match their `sha256` (the run must
    /// stop; with `--locked` the lockfile differences are reported first).
    pub pin_mismatches: Vec<String>,
}

/// Every plugin a run uses, in override order (a later provider of a
/// technology replaces an earlier one): the built-ins (unless
/// `--disable-builtin`), the user plugin directory (unless
/// `include_user_dir` is false: `--locked` runs and `plugin lock` leave this
/// per-machine directory out), `[[plugins]]` from the config files, then
/// `--plugin`. A pinned plugin that cannot be read (missing file, forbidden
/// download) is an `Err` listing every such problem; an unreadable
/// `--plugin` file is a plugin error as before.
pub fn gather(
    settings: &Settings,
    include_user_dir: bool,
    net: source::Network,
) -> Result<Gathered, String> {
    let mut sources = if settings.disable_builtin {
        Vec::new()
    } else {
        builtin_sources()
    };
    let mut errors = Vec::new();
    if include_user_dir {
        let dir = user_plugin_dir();
        let (found, errs) = external_sources(&[], dir.as_deref());
        sources.extend(found);
        errors.extend(errs);
    }
    let pinned = source::configured(&settings.configured, net);
    if !pinned.unreadable.is_empty() {
        return Err(pinned.unreadable.join("\n"));
    }
    sources.extend(pinned.sources);
    let (given, errs) = external_sources(&settings.paths, None);
    sources.extend(given);
    errors.extend(errs);
    Ok(Gathered {
        sources,
        errors,
        pin_mismatches: pinned.mismatched,
    })
}

/// What a plugin declares: the SDK's serialisable form of the WIT
/// `plugin-info`, so the host, the descriptor cache and the build-time
/// description of the bundle share one shape.
pub use portolan_plugin_sdk::model::{
    Detect as RuleDescriptor, PluginDescription as Descriptor, Setting, SettingKind, Supports,
    Tech as TechDescriptor,
};

fn descriptor(info: runtime::wit::PluginInfo) -> Descriptor {
    Descriptor {
        name: info.name,
        version: info.version,
        interface_version: info.interface_version,
        techs: info
            .techs
            .into_iter()
            .map(|t| TechDescriptor {
                id: t.id,
                aliases: t.aliases,
                language: t.language,
                framework: t.framework,
                specification: t.specification,
                files: t.files,
                detect: t
                    .detect
                    .into_iter()
                    .map(|r| RuleDescriptor {
                        files: r.files,
                        contains: r.contains,
                        regex: r.regex,
                    })
                    .collect(),
                requires_any: t.requires_any,
                supports: Supports {
                    method: t.supports.method,
                    query: t.supports.query,
                    path: t.supports.path,
                    body: t.supports.body,
                    header: t.supports.header,
                    cookie: t.supports.cookie,
                    websocket: t.supports.websocket,
                },
            })
            .collect(),
        settings: info
            .settings
            .into_iter()
            .map(|s| Setting {
                key: s.key,
                kind: match s.kind {
                    runtime::wit::SettingKind::String => SettingKind::String,
                    runtime::wit::SettingKind::Boolean => SettingKind::Boolean,
                    runtime::wit::SettingKind::Integer => SettingKind::Integer,
                    runtime::wit::SettingKind::Number => SettingKind::Number,
                    runtime::wit::SettingKind::StringList => SettingKind::StringList,
                },
                description: s.description,
            })
            .collect(),
    }
}

/// A usable plugin: its source, its description, and (once needed) its
/// compiled form.
pub struct PluginEntry {
    pub source: PluginSource,
    pub descriptor: Descriptor,
    loaded: OnceLock<Result<Arc<Loaded>, String>>,
}

/// A technology and the plugin providing it.
pub struct TechEntry {
    pub plugin: usize,
    pub desc: TechDescriptor,
}

/// Every usable plugin and technology.
pub struct Catalog {
    pub plugins: Vec<PluginEntry>,
    pub techs: Vec<TechEntry>,
}

impl Catalog {
    /// Describe every source (from the descriptor cache when possible).
    /// A plugin that cannot be loaded or described is reported and left out.
    pub fn build(
        runtime: &Runtime,
        cache: Option<&Cache>,
        sources: Vec<PluginSource>,
    ) -> (Catalog, Vec<ScanError>) {
        let described: Vec<_> = sources
            .into_par_iter()
            .map(|source| {
                let result = describe(runtime, cache, &source);
                (source, result)
            })
            .collect();
        let mut plugins = Vec::new();
        let mut errors = Vec::new();
        for (source, result) in described {
            match result {
                Ok((descriptor, loaded)) => {
                    let cell = OnceLock::new();
                    if let Some(l) = loaded {
                        let _ = cell.set(Ok(Arc::new(l)));
                    }
                    plugins.push(PluginEntry {
                        source,
                        descriptor,
                        loaded: cell,
                    });
                }
                Err(message) => errors.push(ScanError {
                    plugin: source.name.clone(),
                    tech: None,
                    message: format!(
                        "plugin `{}` ({}) {message}",
                        source.name,
                        source.origin_label()
                    ),
                }),
            }
        }
        // Later plugins (external ones come after the built-ins) replace an
        // earlier provider of the same technology.
        let mut techs: Vec<TechEntry> = Vec::new();
        for (p, entry) in plugins.iter().enumerate() {
            for t in &entry.descriptor.techs {
                if let Some(existing) = techs.iter_mut().find(|e| e.desc.id == t.id) {
                    let old = &plugins[existing.plugin];
                    log::info(format!(
                        "technology `{}`: plugin `{}` ({}) replaces plugin `{}` ({})",
                        t.id,
                        entry.descriptor.name,
                        entry.source.origin_label(),
                        old.descriptor.name,
                        old.source.origin_label()
                    ));
                    *existing = TechEntry {
                        plugin: p,
                        desc: t.clone(),
                    };
                } else {
                    techs.push(TechEntry {
                        plugin: p,
                        desc: t.clone(),
                    });
                }
            }
        }
        (Catalog { plugins, techs }, errors)
    }

    /// The compiled plugin `p`, compiling (or loading from cache) on first use.
    pub fn loaded(&self, runtime: &Runtime, p: usize) -> Result<Arc<Loaded>, String> {
        let entry = &self.plugins[p];
        entry
            .loaded
            .get_or_init(|| {
                runtime
                    .load(&entry.source, &entry.descriptor.name)
                    .map(Arc::new)
            })
            .clone()
    }

    /// Settings (`[[plugins]] config`) that do not fit what their plugin
    /// declares, one message per plugin naming the plugin and the key. The
    /// scan must not start with any: a typo would change it unnoticed.
    pub fn settings_problems(&self) -> Vec<String> {
        self.plugins
            .iter()
            .filter_map(|p| {
                portolan_plugin_sdk::model::check_settings(
                    &p.descriptor.name,
                    &p.descriptor.settings,
                    &p.source.settings,
                )
                .err()
                .map(|e| {
                    format!(
                        "{e} (the `config` of its [[plugins]] entry, {})",
                        p.source.origin_label()
                    )
                })
            })
            .collect()
    }

    pub fn tech_index(&self, id: &str) -> Option<usize> {
        self.techs.iter().position(|t| t.desc.id == id)
    }

    pub fn plugin_name(&self, p: usize) -> &str {
        &self.plugins[p].descriptor.name
    }
}

type Described = (Descriptor, Option<Loaded>);

fn describe(
    runtime: &Runtime,
    cache: Option<&Cache>,
    source: &PluginSource,
) -> Result<Described, String> {
    if let Some(json) = source.embedded_description {
        match serde_json::from_str::<Descriptor>(json) {
            Ok(d) if runtime::compatible(&d.interface_version) => {
                validate(&d)?;
                log::debug(format!("plugin `{}`: description built in", d.name));
                return Ok((d, None));
            }
            _ => log::debug(format!(
                "plugin `{}`: ignoring an unusable built-in description",
                source.name
            )),
        }
    }
    if let Some(cache) = cache {
        let path = cache.descriptor_path(&source.sha256);
        if let Ok(text) = std::fs::read_to_string(&path) {
            match serde_json::from_str::<Descriptor>(&text) {
                Ok(d) if runtime::compatible(&d.interface_version) => {
                    log::debug(format!("plugin `{}`: description from cache", d.name));
                    return Ok((d, None));
                }
                _ => log::debug(format!(
                    "ignoring stale plugin description {}",
                    path.display()
                )),
            }
        }
    }
    let mut loaded = runtime.load(source, &source.name)?;
    let descriptor = descriptor(runtime.describe(&loaded)?);
    validate(&descriptor)?;
    loaded.name = descriptor.name.clone();
    if let Some(cache) = cache {
        if let Ok(json) = serde_json::to_vec(&descriptor) {
            let _ = cache.write_atomic(&cache.descriptor_path(&source.sha256), &json);
        }
    }
    Ok((descriptor, Some(loaded)))
}

/// Reject descriptions the host cannot work with.
fn validate(d: &Descriptor) -> Result<(), String> {
    if d.name.trim().is_empty() {
        return Err("describes itself with an empty name".into());
    }
    for t in &d.techs {
        let ok = !t.id.is_empty()
            && t.id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !ok {
            return Err(format!(
                "declares technology id `{}`; ids are lower-case `<language>_<framework>` (letters, digits, `_`)",
                t.id
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundles_hashes_computed_at_build_time_are_the_bytes_hashes() {
        let sources = builtin_sources();
        assert!(!sources.is_empty());
        for s in sources {
            assert!(matches!(s.bytes, PluginBytes::Embedded(_)), "{}", s.name);
            assert_eq!(s.sha256, hex(&Sha256::digest(&*s.bytes)), "{}", s.name);
        }
    }
}
