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
//! `--no-config` skips 1 and 2. Keys are the long flag names with `_` for
//! `-`; list keys take a string or an array of strings (`techs` and
//! `exclude_techs` strings may be comma-separated). Relative paths
//! (`output`, `plugin`) are relative to the file that names them. An
//! unknown key, a wrong type or unparsable TOML is a usage error (exit 2)
//! naming the file: a silently ignored typo would be worse.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::ScanArgs;

/// A string or a list of strings.
#[derive(Clone, Debug, Deserialize, PartialEq)]
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

/// One config file. Every field is optional; see `docs/config.md`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub url: Option<String>,
    pub format: Option<String>,
    pub output: Option<PathBuf>,
    pub set_pvalue: Option<List>,
    pub set_pvalue_query: Option<List>,
    pub set_pvalue_header: Option<List>,
    pub set_pvalue_cookie: Option<List>,
    pub set_pvalue_form: Option<List>,
    pub set_pvalue_json: Option<List>,
    pub set_pvalue_path: Option<List>,
    pub include_path: Option<bool>,
    pub no_color: Option<bool>,
    pub no_log: Option<bool>,
    pub techs: Option<List>,
    pub exclude_techs: Option<List>,
    pub exclude_path: Option<List>,
    pub concurrency: Option<usize>,
    pub debug: Option<bool>,
    pub plugin: Option<List>,
    pub no_cache: Option<bool>,
    pub plugin_timeout: Option<f64>,
    pub plugin_memory: Option<usize>,
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
        if cfg.concurrency == Some(0) {
            return Err(format!(
                "config file {}: concurrency must be at least 1",
                file.display()
            ));
        }
        // Relative paths are relative to the file's directory.
        let dir = file.parent().unwrap_or(Path::new(""));
        if let Some(o) = &cfg.output {
            if o.is_relative() {
                cfg.output = Some(dir.join(o));
            }
        }
        if let Some(p) = &cfg.plugin {
            let joined: Vec<String> = p
                .items()
                .iter()
                .map(|s| {
                    let path = Path::new(s);
                    if path.is_relative() {
                        dir.join(path).display().to_string()
                    } else {
                        s.clone()
                    }
                })
                .collect();
            cfg.plugin = Some(List::Many(joined));
        }
        Ok(cfg)
    }

    fn read(file: &Path) -> Result<FileConfig, String> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read config file {}: {e}", file.display()))?;
        FileConfig::parse(&text, file)
    }

    /// `self` with every key `over` sets replaced.
    fn overlay(self, over: FileConfig) -> FileConfig {
        macro_rules! pick {
            ($($f:ident),*) => { FileConfig { $($f: over.$f.or(self.$f)),* } };
        }
        pick!(
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
            exclude_techs,
            exclude_path,
            concurrency,
            debug,
            plugin,
            no_cache,
            plugin_timeout,
            plugin_memory
        )
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

/// Read the config files that apply and fill every option the command line
/// did not set (`explicit(id)` says whether it did, by clap argument id).
/// Returns the files read, in order.
pub fn apply(args: &mut ScanArgs, explicit: &dyn Fn(&str) -> bool) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    if !args.no_config {
        if let Some(user) = user_config_file().filter(|f| f.is_file()) {
            files.push(user);
        }
        if let Some(project) = args
            .base_path
            .first()
            .and_then(|b| project_config_file(Path::new(b)))
        {
            files.push(project);
        }
    }
    if let Some(extra) = &args.config {
        if !extra.is_file() {
            return Err(format!("config file {} does not exist", extra.display()));
        }
        files.push(extra.clone());
    }
    let mut cfg = FileConfig::default();
    for f in &files {
        cfg = cfg.overlay(FileConfig::read(f)?);
    }
    merge(args, cfg, explicit);
    Ok(files)
}

fn merge(args: &mut ScanArgs, cfg: FileConfig, explicit: &dyn Fn(&str) -> bool) {
    macro_rules! scalar {
        ($field:ident) => {
            if let Some(v) = cfg.$field {
                if !explicit(stringify!($field)) {
                    args.$field = v.into();
                }
            }
        };
    }
    macro_rules! list {
        ($field:ident, $how:ident) => {
            if let Some(v) = &cfg.$field {
                if !explicit(stringify!($field)) {
                    args.$field = v.$how().into_iter().map(Into::into).collect();
                }
            }
        };
    }
    if let Some(u) = cfg.url {
        if !explicit("url") {
            args.url = Some(u);
        }
    }
    scalar!(format);
    if let Some(o) = cfg.output {
        if !explicit("output") {
            args.output = Some(o);
        }
    }
    list!(set_pvalue, items);
    list!(set_pvalue_query, items);
    list!(set_pvalue_header, items);
    list!(set_pvalue_cookie, items);
    list!(set_pvalue_form, items);
    list!(set_pvalue_json, items);
    list!(set_pvalue_path, items);
    scalar!(include_path);
    scalar!(no_color);
    scalar!(no_log);
    list!(techs, comma_items);
    list!(exclude_techs, comma_items);
    list!(exclude_path, items);
    if let Some(c) = cfg.concurrency {
        if !explicit("concurrency") {
            args.concurrency = Some(c);
        }
    }
    scalar!(debug);
    list!(plugin, items);
    scalar!(no_cache);
    scalar!(plugin_timeout);
    scalar!(plugin_memory);
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
    fn mistakes_are_errors_naming_the_file() {
        let e = parse("fromat = \"json\"\n").unwrap_err();
        assert!(
            e.contains("/repo/portolan.toml") && e.contains("fromat"),
            "{e}"
        );
        assert!(parse("no_log = \"yes please\"\n").is_err());
        assert!(parse("concurrency = 0\n")
            .unwrap_err()
            .contains("at least 1"));
        assert!(parse("format = \n").is_err());
    }
}
