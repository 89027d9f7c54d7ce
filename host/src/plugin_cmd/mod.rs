//! `portolan plugin …` and `portolan cache clear`: managing, pinning,
//! scaffolding and testing analyzer plugins (docs/plugins.md).
//!
//! The plugin subcommands read the same config files as a scan, with the
//! current directory as the project (`./portolan.toml`, trusted: it is the
//! user's own working directory, so URL plugins may be downloaded), or the
//! `--config FILE` given; `portolan.lock` sits next to that file.
//!
//! Exit status: 0 success, 1 runtime error (including `plugin test`
//! mismatches), 2 usage or config error, a hash that does not match its
//! pin, or a difference from the lockfile.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{CacheCommand, PluginCommand, PluginOpts, ScanArgs};
use crate::config;
use crate::error::Failure;
use crate::log;
use crate::pipeline::{self, Plugins};
use crate::settings::PluginSettings;
use crate::walk;

mod add;
mod cache;
mod list;
mod lock;
mod new;
mod test;
mod verify;

pub fn main(command: PluginCommand) -> ExitCode {
    let result = match command {
        PluginCommand::List { format, opts } => {
            with_config(&opts, |args| list::list(args, &format))
        }
        PluginCommand::Add {
            source,
            sha256,
            opts,
        } => with_config(&opts, |args| {
            add::add(args, &opts, &source, sha256.as_deref())
        }),
        PluginCommand::Lock { opts } => with_config(&opts, lock::lock_cmd),
        PluginCommand::Verify { opts } => with_config(&opts, verify::verify),
        PluginCommand::New {
            name,
            dir,
            lang,
            sdk_path,
        } => {
            log::init(false, false, false);
            new::new(&name, dir, lang, sdk_path)
        }
        PluginCommand::Test {
            plugin,
            fixtures,
            debug,
            no_color,
        } => {
            log::init(false, debug, no_color);
            test::test(&plugin, &fixtures)
        }
    };
    finish(result)
}

pub fn cache(command: CacheCommand) -> ExitCode {
    log::init(false, false, false);
    finish(match command {
        CacheCommand::Clear => cache::cache_clear(),
    })
}

fn finish(result: Result<ExitCode, Failure>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(failure) => {
            log::error(failure.message());
            ExitCode::from(failure.exit_code() as u8)
        }
    }
}

/// Resolve the config files (the current directory is the project) and run
/// with the plugin settings they give.
fn with_config(
    opts: &PluginOpts,
    run: impl FnOnce(&PluginSettings) -> Result<ExitCode, Failure>,
) -> Result<ExitCode, Failure> {
    let mut args = ScanArgs::for_plugins(opts);
    let explicit = |id: &str| match id {
        "debug" => opts.debug,
        "no_color" => opts.no_color,
        "no_log" => opts.no_log,
        "disable_builtin" => opts.disable_builtin,
        _ => false,
    };
    let files = config::apply(
        &mut args,
        &explicit,
        config::Project {
            dir: Some(Path::new("")),
            trusted: true,
        },
    );
    log::init(args.no_log, args.debug, args.no_color);
    let applied = files.map_err(Failure::Usage)?;
    for f in &applied.files {
        log::info(format!("Config: {}", f.display()));
    }
    for w in &applied.warnings {
        log::warn(w);
    }
    run(&crate::settings::plugin_settings(&args, &applied)?)
}

fn load(settings: &PluginSettings, include_user_dir: bool) -> Result<Plugins, Failure> {
    let max = walk::max_file_size_from_env().map_err(Failure::Usage)?;
    pipeline::plugins::load_with(settings, &[], max, include_user_dir)
}

fn print(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

fn abs(p: &Path) -> PathBuf {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    let a = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in a.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
