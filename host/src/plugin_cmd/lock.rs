//! `portolan plugin lock`: write portolan.lock.

use std::process::ExitCode;

use super::*;
use crate::error::Failure;
use crate::plugin::lock::{self, Lockfile};
use crate::settings::PluginSettings;

pub(super) fn lock_cmd(settings: &PluginSettings) -> Result<ExitCode, Failure> {
    let mut unlocked = settings.clone();
    unlocked.locked = false;
    // With --locked, `lock` only checks that nothing would change (and
    // downloads nothing).
    unlocked.offline = settings.offline || settings.locked;
    let plugins = load(&unlocked, false)?;
    if !plugins.errors.is_empty() {
        let list: Vec<&str> = plugins.errors.iter().map(|e| e.message.as_str()).collect();
        return Err(Failure::Usage(format!(
            "cannot lock plugins that do not load; fix or remove them first:\n  {}",
            list.join("\n  ")
        )));
    }
    let lockfile = Lockfile::of(&plugins.catalog, &settings.lock_dir);
    let path = lock::path_in(&settings.lock_dir);
    let text = lockfile.render().map_err(Failure::Runtime)?;
    if settings.locked {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != text {
            return Err(Failure::Usage(format!(
                "--locked: {} is missing or out of date; run `portolan plugin lock` (without --locked) after reviewing the plugins",
                path.display()
            )));
        }
        print(&format!("{} is up to date\n", path.display()));
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::write(&path, &text)
        .map_err(|e| Failure::Runtime(format!("cannot write {}: {e}", path.display())))?;
    let builtin = lockfile
        .plugins
        .iter()
        .filter(|p| p.source == "builtin")
        .count();
    let mut out = format!(
        "Wrote {}: {} plugins ({} built-in, {} external)\n",
        path.display(),
        lockfile.plugins.len(),
        builtin,
        lockfile.plugins.len() - builtin
    );
    for p in lockfile.plugins.iter().filter(|p| p.source != "builtin") {
        out.push_str(&format!(
            "  {} {} {} {}\n",
            p.name, p.version, p.sha256, p.source
        ));
    }
    print(&out);
    Ok(ExitCode::SUCCESS)
}
