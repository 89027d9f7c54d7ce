//! `portolan plugin verify`: check pins and portolan.lock.

use std::process::ExitCode;

use super::*;
use crate::error::Failure;
use crate::log;
use crate::plugin::lock::{self, Lockfile};
use crate::plugin::source;
use crate::settings::PluginSettings;

pub(super) fn verify(settings: &PluginSettings) -> Result<ExitCode, Failure> {
    let net = settings.network();
    let mut out = String::new();
    let mut failed = 0;
    let mut sources = Vec::new();
    for spec in &settings.configured {
        let got = source::configured(std::slice::from_ref(spec), net);
        for p in got.unreadable.iter().chain(&got.mismatched) {
            failed += 1;
            out.push_str(&format!("✘ {p}\n"));
        }
        if !got.mismatched.is_empty() {
            continue;
        }
        for s in got.sources {
            let pinned = if spec.sha256.is_some() {
                format!("matches the sha256 pinned in {}", spec.file.display())
            } else {
                format!("has no sha256 in {} (not pinned)", spec.file.display())
            };
            out.push_str(&format!(
                "✔ {} ({}): sha256 {} {pinned}\n",
                s.name,
                s.origin_label(),
                s.sha256
            ));
            sources.push(s);
        }
    }
    let lock_path = lock::path_in(&settings.lock_dir);
    if failed == 0 {
        match Lockfile::read(&lock_path) {
            Ok(lockfile) => {
                let mut all = if settings.disable_builtin {
                    Vec::new()
                } else {
                    crate::plugin::builtin_sources()
                };
                all.extend(sources);
                let (given, errs) = crate::plugin::external_sources(&settings.paths, None);
                all.extend(given);
                for e in errs {
                    failed += 1;
                    out.push_str(&format!("✘ {}\n", e.message));
                }
                let problems = lock::check_sources(&lockfile, &lock_path, &all, &settings.lock_dir);
                if problems.is_empty() {
                    out.push_str(&format!(
                        "✔ {}: all {} plugins match\n",
                        lock_path.display(),
                        lockfile.plugins.len()
                    ));
                } else {
                    for p in problems {
                        failed += 1;
                        out.push_str(&format!("✘ {p}\n"));
                    }
                }
            }
            Err(_) if !lock_path.exists() && !settings.locked => out.push_str(&format!(
                "- no {}: run `portolan plugin lock` to pin every plugin for --locked runs\n",
                lock_path.display()
            )),
            Err(e) => {
                failed += 1;
                out.push_str(&format!("✘ {e}\n"));
            }
        }
    }
    print(&out);
    if failed > 0 {
        log::error(format!(
            "{failed} problem(s): a plugin does not match its pin or the lockfile"
        ));
        Ok(ExitCode::from(2))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
