//! Config files: TOML tables of flag values, so a repository (or a user)
//! can pin its usual options. Every key is documented in `docs/config.md`.
//!
//! Read in this order, each overriding the one before, and all overridden by
//! flags given on the command line:
//!
//! 1. the user config: `$PORTOLAN_CONFIG_DIR/config.toml`, else the
//!    platform config directory (`~/.config/portolan/config.toml` on Linux);
//! 2. the project config: `portolan.toml`, else `.portolan.toml`, in the
//!    first `-b` base path;
//! 3. `--config FILE`.
//!
//! `--no-config` skips 1 and 2. Pinned plugins are `[[plugins]]` tables
//! (`name`, `path` or `url`, `sha256`).
//!
//! A project config found in a scanned tree is *untrusted* (docs/security.md):
//! it may only narrow or shape the scan ([`restrict_untrusted`]: exclusions,
//! technologies, output format, parameter values, cosmetics) and tighten
//! the limits; every other key it sets (`url`, `output`, `plugin`,
//! `[[plugins]]`, `disable_builtin`, `no_cache`, `no_log`, a limit above the
//! current one) is ignored with a warning naming the key and the file. The
//! user config and `--config FILE` are trusted and may set everything; when
//! `--config` names the project config itself, that file is trusted.
//!
//! Keys are the long flag names with `_` for
//! `-`; list keys take a string or an array of strings (`techs`, `add_techs`
//! and `exclude_techs` strings may be comma-separated). Relative paths
//! (`output`, `plugin`) are relative to the file that names them. An
//! unknown key, a wrong type, a number out of its range ([`crate::limits`])
//! or unparsable TOML is a usage error (exit 2) naming the key and the file:
//! a silently ignored typo would be worse.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::ScanArgs;

/// A string or a list of strings.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum List {
    One(String),
    Many(Vec<String>),
}

impl List {
    fn items(&self) -> Vec<String> {
        match self {
            List::One(s) => vec![s.clone()],
            List::Many(v) => v.clone(),
        }
    }

    /// Path items, relative ones taken from `dir` (the config file's).
    fn relative_to(&self, dir: &Path) -> List {
        List::Many(
            self.items()
                .iter()
                .map(|s| {
                    let path = Path::new(s);
                    if path.is_relative() {
                        dir.join(path).display().to_string()
                    } else {
                        s.clone()
                    }
                })
                .collect(),
        )
    }

    /// Items split at commas (technology lists).
    fn comma_items(&self) -> Vec<String> {
        self.items()
            .iter()
            .flat_map(|s| s.split(','))
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }
}

/// Every config key, once: its type and how it fills the scan's argument
/// of the same name (`scalar`: the value; `some`: `Some(value)`; `items`:
/// the list; `comma`: the list split at commas; `pinned`: no argument, the
/// plugins go to [`Applied::plugins`]). The macro writes [`FileConfig`],
/// its overlay and the merge into [`ScanArgs`] from this one list; what an
/// untrusted file may set is decided key by key in [`restrict_untrusted`].
macro_rules! config_keys {
    ($($key:ident: $ty:ty => $how:ident,)*) => {
        /// One config file. Every field is optional; see `docs/config.md`.
        #[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub struct FileConfig {
            $(pub $key: Option<$ty>,)*
        }

        impl FileConfig {
            /// `self` with every key `over` sets replaced.
            fn overlay(self, over: FileConfig) -> FileConfig {
                FileConfig { $($key: over.$key.or(self.$key),)* }
            }
        }

        /// Fill every argument the command line did not set.
        fn merge(args: &mut ScanArgs, cfg: FileConfig, explicit: &dyn Fn(&str) -> bool) {
            $(merge_key!($how, args, cfg, explicit, $key);)*
        }
    };
}

macro_rules! merge_key {
    (scalar, $args:ident, $cfg:ident, $explicit:ident, $key:ident) => {
        if let Some(v) = $cfg.$key {
            if !$explicit(stringify!($key)) {
                $args.$key = v;
            }
        }
    };
    (some, $args:ident, $cfg:ident, $explicit:ident, $key:ident) => {
        if let Some(v) = $cfg.$key {
            if !$explicit(stringify!($key)) {
                $args.$key = Some(v);
            }
        }
    };
    (items, $args:ident, $cfg:ident, $explicit:ident, $key:ident) => {
        if let Some(v) = &$cfg.$key {
            if !$explicit(stringify!($key)) {
                $args.$key = v.items().into_iter().map(Into::into).collect();
            }
        }
    };
    (comma, $args:ident, $cfg:ident, $explicit:ident, $key:ident) => {
        if let Some(v) = &$cfg.$key {
            if !$explicit(stringify!($key)) {
                $args.$key = v.comma_items();
            }
        }
    };
    (pinned, $args:ident, $cfg:ident, $explicit:ident, $key:ident) => {};
}

config_keys! {
    url: String => some,
    format: String => scalar,
    output: PathBuf => some,
    set_pvalue: List => items,
    set_pvalue_query: List => items,
    set_pvalue_header: List => items,
    set_pvalue_cookie: List => items,
    set_pvalue_form: List => items,
    set_pvalue_json: List => items,
    set_pvalue_path: List => items,
    include_path: bool => scalar,
    no_color: bool => scalar,
    no_log: bool => scalar,
    techs: List => comma,
    add_techs: List => comma,
    exclude_techs: List => comma,
    exclude_path: List => items,
    concurrency: usize => some,
    debug: bool => scalar,
    plugin: List => items,
    no_cache: bool => scalar,
    plugin_timeout: f64 => scalar,
    plugin_memory: usize => scalar,
    plugins: Vec<PluginSpec> => pinned,
    disable_builtin: bool => scalar,
    include_bundles: bool => scalar,
    strict: bool => scalar,
    passive_scan: bool => scalar,
    passive_scan_path: List => items,
    passive_scan_severity: String => some,
}

/// A pinned plugin: `[[plugins]]` in a config file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PluginSpec {
    /// What messages call it (the plugin's declared name, by convention).
    pub name: Option<String>,
    /// A local `.wasm` component (relative to the config file).
    pub path: Option<PathBuf>,
    /// An `http(s)://` URL of a `.wasm` component (needs `sha256`).
    pub url: Option<String>,
    /// Lower-case hex SHA-256 of the component's bytes.
    pub sha256: Option<String>,
    /// The plugin's settings (`config = { key = value, … }`), handed to it
    /// as a JSON object and checked against the settings it declares.
    pub config: Option<toml::Table>,
    /// The config file that lists it.
    #[serde(skip)]
    pub file: PathBuf,
    /// Whether the file was chosen by the user (user config, `--config`, or
    /// the current directory for `portolan plugin …`) rather than found in
    /// a scanned tree. Only trusted entries may cause a download.
    #[serde(skip)]
    pub trusted: bool,
}

impl PluginSpec {
    /// `config` as the JSON object the plugin receives (empty when unset).
    pub fn settings(&self) -> serde_json::Map<String, serde_json::Value> {
        match self.config.as_ref().map(serde_json::to_value) {
            Some(Ok(serde_json::Value::Object(map))) => map,
            _ => serde_json::Map::new(),
        }
    }

    /// The name used in messages: `name`, else the file or URL stem.
    pub fn label(&self) -> String {
        if let Some(n) = self.name.as_deref().filter(|n| !n.trim().is_empty()) {
            return n.to_string();
        }
        let raw = match (&self.path, &self.url) {
            (Some(p), _) => p.display().to_string(),
            (None, Some(u)) => u.split(['?', '#']).next().unwrap_or(u).to_string(),
            (None, None) => return "(unnamed)".into(),
        };
        let last = raw.rsplit(['/', '\\']).next().unwrap_or(&raw);
        last.strip_suffix(".wasm").unwrap_or(last).to_string()
    }

    fn check(&mut self, file: &Path, index: usize) -> Result<(), String> {
        let at = format!(
            "config file {}: [[plugins]] entry {} ({})",
            file.display(),
            index + 1,
            self.label()
        );
        match (&self.path, &self.url) {
            (Some(_), Some(_)) => {
                return Err(format!("{at}: give either `path` or `url`, not both"))
            }
            (None, None) => return Err(format!("{at}: needs a `path` or a `url`")),
            (None, Some(u)) => {
                if !(u.starts_with("https://") || u.starts_with("http://")) {
                    return Err(format!("{at}: `url` must start with https:// or http://"));
                }
                if self.sha256.is_none() {
                    return Err(format!(
                        "{at}: a URL plugin needs `sha256` (portolan never runs downloaded code it cannot verify); `portolan plugin add {u}` computes it"
                    ));
                }
            }
            (Some(_), None) => {}
        }
        if let Some(h) = &self.sha256 {
            let h = h.trim().to_ascii_lowercase();
            if h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!(
                    "{at}: `sha256` must be 64 hexadecimal digits, not `{h}`"
                ));
            }
            self.sha256 = Some(h);
        }
        Ok(())
    }
}

impl FileConfig {
    pub fn parse(text: &str, file: &Path) -> Result<FileConfig, String> {
        let mut cfg: FileConfig = toml::from_str(text).map_err(|e| {
            format!(
                "config file {}: {}",
                file.display(),
                e.to_string().trim_end()
            )
        })?;
        let at = |key: &str| format!("config file {}: `{key}`", file.display());
        if let Some(c) = cfg.concurrency {
            crate::limits::concurrency(c).map_err(|e| format!("{}: {e}", at("concurrency")))?;
        }
        if let Some(t) = cfg.plugin_timeout {
            crate::limits::plugin_timeout(t)
                .map_err(|e| format!("{}: {e}", at("plugin_timeout")))?;
        }
        if let Some(m) = cfg.plugin_memory {
            crate::limits::plugin_memory(m).map_err(|e| format!("{}: {e}", at("plugin_memory")))?;
        }
        // Relative paths are relative to the file's directory.
        let dir = file.parent().unwrap_or(Path::new(""));
        if let Some(o) = &cfg.output {
            if o.is_relative() {
                cfg.output = Some(dir.join(o));
            }
        }
        if let Some(p) = &cfg.plugin {
            cfg.plugin = Some(p.relative_to(dir));
        }
        if let Some(sev) = &cfg.passive_scan_severity {
            if crate::model::Severity::parse(sev).is_none() {
                return Err(format!(
                    "{}: `{sev}` is not a severity; use critical, high, medium or low",
                    at("passive_scan_severity")
                ));
            }
        }
        if let Some(p) = &cfg.passive_scan_path {
            cfg.passive_scan_path = Some(p.relative_to(dir));
        }
        if let Some(specs) = &mut cfg.plugins {
            for (i, spec) in specs.iter_mut().enumerate() {
                spec.check(file, i)?;
                spec.file = file.to_path_buf();
                if let Some(p) = &spec.path {
                    if p.is_relative() {
                        spec.path = Some(dir.join(p));
                    }
                }
            }
        }
        Ok(cfg)
    }

    /// Read and parse `file`; `trusted` marks its `[[plugins]]` entries.
    pub fn read(file: &Path, trusted: bool) -> Result<FileConfig, String> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read config file {}: {e}", file.display()))?;
        let mut cfg = FileConfig::parse(&text, file)?;
        for spec in cfg.plugins.iter_mut().flatten() {
            spec.trusted = trusted;
        }
        Ok(cfg)
    }
}

/// The values the limits have before an untrusted file is read: those of
/// the trusted files read so far, else the built-in defaults.
fn current_limits(so_far: &FileConfig) -> (usize, f64, usize) {
    (
        so_far
            .concurrency
            .unwrap_or_else(crate::limits::default_concurrency),
        so_far
            .plugin_timeout
            .unwrap_or(crate::limits::DEFAULT_PLUGIN_TIMEOUT),
        so_far
            .plugin_memory
            .unwrap_or(crate::limits::DEFAULT_PLUGIN_MEMORY),
    )
}

/// What a config file found in a scanned tree may set: the keys that narrow
/// or shape the scan and its report (`format`, `set_pvalue*`,
/// `include_path`, `no_color`, `debug`, `strict`, `techs`, `add_techs`, `exclude_techs`,
/// `exclude_path`, `passive_scan` on, `passive_scan_severity` down), and the limits (`concurrency`, `plugin_timeout`,
/// `plugin_memory`) when lower than they already are. Every other key set
/// is dropped with one warning naming it. The destructuring is exhaustive:
/// a new key must be classified here before the crate compiles.
fn restrict_untrusted(
    cfg: FileConfig,
    file: &Path,
    so_far: &FileConfig,
    warnings: &mut Vec<String>,
) -> FileConfig {
    let FileConfig {
        url,
        format,
        output,
        set_pvalue,
        set_pvalue_query,
        set_pvalue_header,
        set_pvalue_cookie,
        set_pvalue_form,
        set_pvalue_json,
        set_pvalue_path,
        include_path,
        no_color,
        no_log,
        techs,
        add_techs,
        exclude_techs,
        exclude_path,
        concurrency,
        debug,
        plugin,
        no_cache,
        plugin_timeout,
        plugin_memory,
        plugins,
        disable_builtin,
        include_bundles,
        strict,
        passive_scan,
        passive_scan_path,
        passive_scan_severity,
    } = cfg;
    let mut ignore = |key: &str, what: String| {
        warnings.push(format!(
            "config file {}: `{key}` is ignored: a config file inside the scanned tree may not {what}. Give it as a flag, in your user config or in a --config FILE (see docs/security.md)",
            file.display()
        ));
    };
    let refused: [(bool, &str, &str); 8] = [
        (url.is_some(), "url", "choose where requests go (-u)"),
        (
            output.is_some(),
            "output",
            "choose where the report is written (-o)",
        ),
        (
            plugin.is_some(),
            "plugin",
            "choose which code runs (--plugin)",
        ),
        (plugins.is_some(), "[[plugins]]", "choose which code runs"),
        (
            disable_builtin.is_some(),
            "disable_builtin",
            "choose which code runs (--disable-builtin)",
        ),
        (
            no_cache.is_some(),
            "no_cache",
            "change how plugins are cached (--no-cache)",
        ),
        (
            no_log.is_some(),
            "no_log",
            "silence the log (it would hide these warnings)",
        ),
        (
            passive_scan_path.is_some(),
            "passive_scan_path",
            "choose the passive-scan rules (--passive-scan-path)",
        ),
    ];
    for (set, key, what) in refused {
        if set {
            ignore(key, what.to_string());
        }
    }
    // Analyzing minified bundles only adds work: a tree may keep them out
    // (`false`, the default) but not bring them in.
    let include_bundles = match include_bundles {
        Some(true) => {
            ignore(
                "include_bundles",
                "raise the work a scan does (--include-bundles)".to_string(),
            );
            None
        }
        b => b,
    };
    // Strict mode only tightens: a tree may turn it on, not off.
    let strict = match strict {
        Some(false) => {
            ignore("strict", "turn off strict mode (--strict)".to_string());
            None
        }
        s => s,
    };
    // The passive scan too: on, not off; and its severity threshold may
    // come down (more findings), not go up.
    let passive_scan = match passive_scan {
        Some(false) => {
            ignore("passive_scan", "turn off the passive scan (-P)".to_string());
            None
        }
        p => p,
    };
    let threshold = so_far
        .passive_scan_severity
        .as_deref()
        .and_then(crate::model::Severity::parse)
        .unwrap_or(crate::passive::DEFAULT_SEVERITY);
    let passive_scan_severity = match passive_scan_severity {
        Some(s) if crate::model::Severity::parse(&s).is_some_and(|v| v > threshold) => {
            ignore(
                "passive_scan_severity",
                format!(
                    "raise the passive-scan severity threshold above {} (it would hide findings)",
                    threshold.as_str()
                ),
            );
            None
        }
        s => s,
    };
    let (max_threads, max_timeout, max_memory) = current_limits(so_far);
    let concurrency = match concurrency {
        Some(c) if c > max_threads => {
            ignore(
                "concurrency",
                format!("raise a limit ({c} is above the current {max_threads})"),
            );
            None
        }
        c => c,
    };
    let plugin_timeout = match plugin_timeout {
        Some(t) if t > max_timeout => {
            ignore(
                "plugin_timeout",
                format!("raise a limit ({t} s is above the current {max_timeout} s)"),
            );
            None
        }
        t => t,
    };
    let plugin_memory = match plugin_memory {
        Some(m) if m > max_memory => {
            ignore(
                "plugin_memory",
                format!("raise a limit ({m} MiB is above the current {max_memory} MiB)"),
            );
            None
        }
        m => m,
    };
    FileConfig {
        format,
        set_pvalue,
        set_pvalue_query,
        set_pvalue_header,
        set_pvalue_cookie,
        set_pvalue_form,
        set_pvalue_json,
        set_pvalue_path,
        include_path,
        no_color,
        debug,
        techs,
        add_techs,
        exclude_techs,
        exclude_path,
        concurrency,
        plugin_timeout,
        plugin_memory,
        include_bundles,
        strict,
        passive_scan,
        passive_scan_severity,
        ..FileConfig::default()
    }
}

/// The user config file, whether or not it exists.
pub fn user_config_file() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PORTOLAN_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("config.toml"));
    }
    directories::ProjectDirs::from("", "", "portolan").map(|p| p.config_dir().join("config.toml"))
}

/// The project config in a base path, if there is one.
pub fn project_config_file(base: &Path) -> Option<PathBuf> {
    ["portolan.toml", ".portolan.toml"]
        .iter()
        .map(|n| base.join(n))
        .find(|p| p.is_file())
}

/// Where the project config is looked for, and whether it is trusted.
pub struct Project<'a> {
    /// `portolan.toml` / `.portolan.toml` is looked for here (none: no
    /// project config; portolan.lock is then looked for in `.`).
    pub dir: Option<&'a Path>,
    /// A scan's project config comes from the scanned tree: not trusted.
    /// `portolan plugin …` reads the current directory's: trusted.
    pub trusted: bool,
}

/// What [`apply`] read: the files, in order, and the warnings about keys an
/// untrusted file may not set (printed once the logger is set up).
#[derive(Debug, Default)]
pub struct Applied {
    pub files: Vec<PathBuf>,
    pub warnings: Vec<String>,
    /// `[[plugins]]`, merged.
    pub plugins: Vec<PluginSpec>,
    /// Where portolan.lock is read: the directory of `--config FILE` when
    /// given, else the project directory.
    pub lock_dir: PathBuf,
}

/// Read the config files that apply and fill every option the command line
/// did not set (`explicit(id)` says whether it did, by clap argument id).
/// The pinned plugins and the lockfile's directory are in the result.
pub fn apply(
    args: &mut ScanArgs,
    explicit: &dyn Fn(&str) -> bool,
    project: Project,
) -> Result<Applied, String> {
    let (mut cfg, mut applied) = resolve(args, project)?;
    applied.plugins = cfg.plugins.take().unwrap_or_default();
    merge(args, cfg, explicit);
    Ok(applied)
}

/// The config files that apply, merged (untrusted keys dropped), without
/// touching the command line's values; `Applied::plugins` is left empty
/// (the merged file keeps them). `portolan config show` prints this.
pub fn resolve(args: &ScanArgs, project: Project) -> Result<(FileConfig, Applied), String> {
    let mut files: Vec<(PathBuf, bool)> = Vec::new();
    let same_file = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !args.no_config {
        if let Some(user) = user_config_file().filter(|f| f.is_file()) {
            files.push((user, true));
        }
        if let Some(found) = project.dir.and_then(project_config_file) {
            // `--config` naming the project config makes it trusted.
            let chosen = args.config.as_deref().is_some_and(|c| same_file(c, &found));
            if !chosen {
                files.push((found, project.trusted));
            }
        }
    }
    let mut lock_dir = project.dir.unwrap_or(Path::new(".")).to_path_buf();
    if let Some(extra) = &args.config {
        if !extra.is_file() {
            return Err(format!("config file {} does not exist", extra.display()));
        }
        lock_dir = extra.parent().unwrap_or(Path::new("")).to_path_buf();
        files.push((extra.clone(), true));
    }
    let mut cfg = FileConfig::default();
    let mut warnings = Vec::new();
    for (f, trusted) in &files {
        let read = match FileConfig::read(f, *trusted) {
            Ok(read) if *trusted => read,
            Ok(read) => restrict_untrusted(read, f, &cfg, &mut warnings),
            Err(e) if *trusted => return Err(e),
            Err(e) => {
                // A scanned tree cannot stop the scan: its malformed config
                // is skipped with a warning (a trusted one stays an error).
                warnings.push(format!(
                    "{e}\n(this file is in the scanned tree: the scan continues without it)"
                ));
                continue;
            }
        };
        cfg = cfg.overlay(read);
    }
    Ok((
        cfg,
        Applied {
            files: files.into_iter().map(|(f, _)| f).collect(),
            warnings,
            plugins: Vec::new(),
            lock_dir,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<FileConfig, String> {
        FileConfig::parse(text, Path::new("/repo/portolan.toml"))
    }

    #[test]
    fn keys_and_relative_paths() {
        let cfg = parse(
            r#"
format = "json"
techs = "flask, oas3"
exclude_path = ["vendor/**", "**/*.min.js"]
set_pvalue_header = "Authorization=Bearer x"
output = "out/report.json"
plugin = ["plugins/mine.wasm", "/abs.wasm"]
no_log = true
concurrency = 3
"#,
        )
        .unwrap();
        let mut args = ScanArgs {
            format: "plain".into(),
            ..ScanArgs::default()
        };
        merge(&mut args, cfg, &|_| false);
        assert_eq!(args.format, "json");
        assert_eq!(args.techs, ["flask", "oas3"]);
        assert_eq!(args.exclude_path, ["vendor/**", "**/*.min.js"]);
        assert_eq!(args.set_pvalue_header, ["Authorization=Bearer x"]);
        assert_eq!(args.output, Some(PathBuf::from("/repo/out/report.json")));
        assert_eq!(
            args.plugin,
            [
                PathBuf::from("/repo/plugins/mine.wasm"),
                PathBuf::from("/abs.wasm")
            ]
        );
        assert!(args.no_log);
        assert_eq!(args.concurrency, Some(3));
    }

    #[test]
    fn flags_win_and_later_files_override() {
        let user = parse("format = \"yaml\"\nno_log = true\n").unwrap();
        let project = parse("format = \"json\"\n").unwrap();
        let cfg = user.overlay(project);
        assert_eq!(cfg.format.as_deref(), Some("json"));
        assert_eq!(cfg.no_log, Some(true));
        let mut args = ScanArgs {
            format: "curl".into(),
            ..ScanArgs::default()
        };
        merge(&mut args, cfg, &|id| id == "format");
        assert_eq!(args.format, "curl");
        assert!(args.no_log);
    }

    #[test]
    fn pinned_plugins_are_checked_and_paths_resolved() {
        let sha = "AB".repeat(32);
        let cfg = parse(&format!(
            "disable_builtin = true\n[[plugins]]\nname = \"a\"\npath = \"p/a.wasm\"\nsha256 = \"{sha}\"\n\n[[plugins]]\nurl = \"https://x.invalid/b.wasm?v=1\"\nsha256 = \"{sha}\"\n"
        ))
        .unwrap();
        let specs = cfg.plugins.clone().unwrap();
        assert_eq!(specs[0].path, Some(PathBuf::from("/repo/p/a.wasm")));
        assert_eq!(specs[0].sha256.as_deref(), Some(&*sha.to_lowercase()));
        assert_eq!(specs[0].file, PathBuf::from("/repo/portolan.toml"));
        assert!(
            !specs[0].trusted,
            "trust is set by `read`, never by the file"
        );
        assert_eq!(specs[1].label(), "b");
        let mut args = ScanArgs::default();
        merge(&mut args, cfg, &|_| false);
        assert!(args.disable_builtin);

        for (text, needle) in [
            ("[[plugins]]\nname = \"x\"\n", "needs a `path` or a `url`"),
            (
                "[[plugins]]\npath = \"a\"\nurl = \"https://a\"\n",
                "not both",
            ),
            (
                "[[plugins]]\nurl = \"https://a/x.wasm\"\n",
                "needs `sha256`",
            ),
            (
                "[[plugins]]\nurl = \"ftp://a/x.wasm\"\nsha256 = \"00\"\n",
                "https://",
            ),
            (
                "[[plugins]]\npath = \"a\"\nsha256 = \"xyz\"\n",
                "64 hexadecimal",
            ),
            ("[[plugins]]\npath = \"a\"\nhash = \"1\"\n", "hash"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(
                e.contains(needle) && e.contains("/repo/portolan.toml"),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn an_untrusted_file_may_not_bring_bundles_in() {
        let mut warnings = Vec::new();
        let file = Path::new("/repo/portolan.toml");
        let none = FileConfig::default();
        let on = parse("include_bundles = true").unwrap();
        assert_eq!(on.include_bundles, Some(true));
        let kept = restrict_untrusted(on, file, &none, &mut warnings);
        assert_eq!(kept.include_bundles, None);
        assert!(warnings.len() == 1 && warnings[0].contains("`include_bundles`"));
        let off = parse("include_bundles = false").unwrap();
        let kept = restrict_untrusted(off, file, &none, &mut warnings);
        assert_eq!(kept.include_bundles, Some(false), "narrowing is fine");
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn an_untrusted_file_only_narrows_and_shapes() {
        let cfg = parse(
            r#"
url = "https://attacker.example"
output = "../../victim/.bashrc"
plugin = [".hidden.wasm"]
disable_builtin = true
no_log = true
no_cache = true
format = "json"
exclude_path = "vendor/**"
plugin_timeout = 10.0
plugin_memory = 4096
concurrency = 1
[[plugins]]
path = "x.wasm"
"#,
        )
        .unwrap();
        let mut warnings = Vec::new();
        let kept = restrict_untrusted(
            cfg,
            Path::new("/repo/portolan.toml"),
            &FileConfig::default(),
            &mut warnings,
        );
        assert_eq!(kept.url, None);
        assert_eq!(kept.output, None);
        assert_eq!(kept.plugin, None);
        assert_eq!(kept.plugins, None);
        assert_eq!(kept.disable_builtin, None);
        assert_eq!(kept.no_log, None);
        assert_eq!(kept.no_cache, None);
        assert_eq!(kept.plugin_memory, None, "above the 512 MiB default");
        assert_eq!(kept.plugin_timeout, Some(10.0), "lower is fine");
        assert_eq!(kept.concurrency, Some(1));
        assert_eq!(kept.format.as_deref(), Some("json"));
        assert_eq!(kept.exclude_path, Some(List::One("vendor/**".into())));
        for key in [
            "`url`",
            "`output`",
            "`plugin`",
            "`[[plugins]]`",
            "`disable_builtin`",
            "`no_log`",
            "`no_cache`",
            "`plugin_memory`",
        ] {
            assert!(
                warnings
                    .iter()
                    .any(|w| w.contains(key) && w.contains("/repo/portolan.toml")),
                "{key}: {warnings:?}"
            );
        }
        assert_eq!(warnings.len(), 8, "{warnings:?}");
    }

    #[test]
    fn mistakes_are_errors_naming_the_file() {
        let e = parse("fromat = \"json\"\n").unwrap_err();
        assert!(
            e.contains("/repo/portolan.toml") && e.contains("fromat"),
            "{e}"
        );
        assert!(parse("no_log = \"yes please\"\n").is_err());
        let e = parse("concurrency = 0\n").unwrap_err();
        assert!(
            e.contains("`concurrency`") && e.contains("between 1 and"),
            "{e}"
        );
        for (text, key) in [
            ("concurrency = 100000\n", "concurrency"),
            ("plugin_timeout = 1e300\n", "plugin_timeout"),
            ("plugin_timeout = 1e8\n", "plugin_timeout"),
            ("plugin_timeout = nan\n", "plugin_timeout"),
            ("plugin_memory = 99999999999\n", "plugin_memory"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(
                e.contains(&format!("`{key}`")) && e.contains("/repo/portolan.toml"),
                "{text}: {e}"
            );
        }
        assert!(parse("format = \n").is_err());
    }
}
