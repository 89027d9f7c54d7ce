//! `portolan config path|show|init`: where the config files are, what they
//! set once merged, and a commented starting point.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{ConfigCommand, ScanArgs};
use crate::config;

/// A commented `portolan.toml`: every line is a comment, so the file
/// changes nothing until a key is uncommented (docs/config.md).
pub const TEMPLATE: &str = r#"# portolan config (docs/config.md). Keys are the long flag names with `_`
# for `-`; flags on the command line override them. In a scanned
# repository this file is untrusted: it may narrow or shape the scan, not
# choose where output or requests go, nor which plugins run.

# format = "json"                      # -f: plain, json, sarif, oas3, …
# techs = "flask, oas3"                # -t: use only these technologies
# add_techs = "express"                # --add-techs: also these
# exclude_techs = ["oas2"]             # --exclude-techs
# exclude_path = ["vendor/**", "**/fixtures/**"]
# include_path = true                  # plain: append (file:line)
# set_pvalue_header = ["Authorization=Bearer CHANGEME"]
# strict = true                        # exit 7 when an analyzer failed or a file was skipped
# concurrency = 4
# plugin_timeout = 60
# plugin_memory = 512
# no_color = true
# debug = false

# Trusted files only (your user config, or --config FILE):
# url = "https://staging.example.com"  # -u
# output = "endpoints.json"            # -o, relative to this file
# [[plugins]]
# name = "acme-web"
# path = ".portolan/plugins/acme-web.wasm"
# sha256 = "…64 hex digits…"
"#;

pub fn main(command: ConfigCommand) -> ExitCode {
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("error: {}", crate::escape::visible(&message));
            ExitCode::from(code)
        }
    }
}

fn run(command: ConfigCommand) -> Result<(), (u8, String)> {
    match command {
        ConfigCommand::Path { base_path } => {
            let base = base_path.unwrap_or_else(|| PathBuf::from("."));
            let user = config::user_config_file();
            let mut out = String::new();
            match &user {
                Some(u) => out.push_str(&format!("user: {} ({})\n", u.display(), state(u))),
                None => out.push_str("user: (no config directory on this platform)\n"),
            }
            match config::project_config_file(&base) {
                Some(p) => out.push_str(&format!(
                    "project: {} (found; untrusted unless named with --config)\n",
                    p.display()
                )),
                None => out.push_str(&format!(
                    "project: {} (missing; .portolan.toml is also looked for)\n",
                    base.join("portolan.toml").display()
                )),
            }
            print(&out)
        }
        ConfigCommand::Show {
            base_path,
            config: file,
            no_config,
            format,
        } => {
            let args = ScanArgs {
                config: file,
                no_config,
                ..ScanArgs::default()
            };
            let project = base_path.unwrap_or_else(|| PathBuf::from("."));
            let (cfg, applied) = config::resolve(
                &args,
                config::Project {
                    dir: Some(&project),
                    trusted: false,
                },
            )
            .map_err(|e| (2, e))?;
            for w in &applied.warnings {
                eprintln!("[W] {}", crate::escape::visible(w));
            }
            let text = match format.as_str() {
                "toml" => {
                    let mut text = String::new();
                    if applied.files.is_empty() {
                        text.push_str("# no config file applies\n");
                    }
                    for f in &applied.files {
                        text.push_str(&format!("# read: {}\n", f.display()));
                    }
                    let body = toml::to_string(&cfg)
                        .map_err(|e| (1, format!("cannot print the config: {e}")))?;
                    text.push_str(&body);
                    text
                }
                "json" => {
                    let files: Vec<String> = applied
                        .files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect();
                    let mut values = serde_json::to_value(&cfg)
                        .map_err(|e| (1, format!("cannot print the config: {e}")))?;
                    if let Some(map) = values.as_object_mut() {
                        map.retain(|_, v| !v.is_null());
                    }
                    let doc = serde_json::json!({
                        "files": files,
                        "warnings": applied.warnings,
                        "values": values,
                    });
                    format!("{doc:#}\n")
                }
                other => {
                    return Err((
                        2,
                        format!("config show: unknown format `{other}` (toml or json)"),
                    ))
                }
            };
            print(&text)
        }
        ConfigCommand::Init { user, force, file } => {
            let target = match (file, user) {
                (Some(f), _) => f,
                (None, true) => config::user_config_file()
                    .ok_or((1, "no user config directory on this platform".to_string()))?,
                (None, false) => PathBuf::from("portolan.toml"),
            };
            if target.exists() && !force {
                return Err((
                    1,
                    format!("{} already exists; --force replaces it", target.display()),
                ));
            }
            if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| (1, format!("cannot create {}: {e}", dir.display())))?;
            }
            std::fs::write(&target, TEMPLATE)
                .map_err(|e| (1, format!("cannot write {}: {e}", target.display())))?;
            eprintln!("✔ Wrote {} (every key commented out).", target.display());
            Ok(())
        }
    }
}

fn state(path: &Path) -> &'static str {
    if path.is_file() {
        "found"
    } else {
        "missing"
    }
}

fn print(text: &str) -> Result<(), (u8, String)> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err((1, format!("cannot write to stdout: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_template_parses_and_sets_nothing() {
        let cfg = crate::config::FileConfig::parse(
            super::TEMPLATE,
            std::path::Path::new("portolan.toml"),
        )
        .unwrap();
        assert_eq!(cfg, crate::config::FileConfig::default());
    }
}
