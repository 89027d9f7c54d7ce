//! `portolan plugin test`: run a plugin over fixture cases and diff.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

use super::*;
use crate::error::Failure;
use crate::log;

/// A `.wasm` file as is; a crate directory → its built component.
pub(super) fn resolve_component(given: &Path) -> Result<PathBuf, String> {
    if given.is_file() {
        return Ok(given.to_path_buf());
    }
    if !given.is_dir() {
        return Err(format!("{} does not exist", given.display()));
    }
    let manifest = given.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|_| {
        format!(
            "{} is neither a .wasm component nor a crate directory (no Cargo.toml)",
            given.display()
        )
    })?;
    let value: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", manifest.display()))?;
    let name = value
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .ok_or_else(|| format!("{} has no package name", manifest.display()))?;
    let file = format!("{}.wasm", name.replace('-', "_"));
    let mut targets = Vec::new();
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR").filter(|t| !t.is_empty()) {
        targets.push(PathBuf::from(t));
    }
    targets.push(given.join("target"));
    let mut candidates = Vec::new();
    for t in &targets {
        for profile in ["release", "debug"] {
            candidates.push(t.join("wasm32-wasip2").join(profile).join(&file));
        }
    }
    let newest = candidates
        .iter()
        .filter_map(|c| Some((std::fs::metadata(c).ok()?.modified().ok()?, c.clone())))
        .max_by_key(|(t, _)| *t);
    match newest {
        Some((built, path)) => {
            if newest_source(&given.join("src")).is_some_and(|s| s > built) {
                log::warn(format!(
                    "{} is older than the sources in {}; rebuild with `cargo build --release --target wasm32-wasip2`",
                    path.display(),
                    given.join("src").display()
                ));
            }
            Ok(path)
        }
        None => Err(format!(
            "no built component for crate `{name}`; build it with `cargo build --release --target wasm32-wasip2` in {} (looked for {})",
            given.display(),
            candidates
                .iter()
                .map(|c| c.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

pub(super) fn newest_source(dir: &Path) -> Option<std::time::SystemTime> {
    let mut newest = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        let t = if p.is_dir() {
            newest_source(&p)
        } else {
            e.metadata().ok().and_then(|m| m.modified().ok())
        };
        newest = newest.max(t);
    }
    newest
}

/// Fixture cases below `root`: directories holding `app/` and
/// `expected.json`, one or two levels down (`F/<case>` or `F/<tech>/<case>`).
pub(super) fn fixture_cases(root: &Path) -> Vec<PathBuf> {
    let is_case = |p: &Path| p.join("app").is_dir() && p.join("expected.json").is_file();
    let mut cases = Vec::new();
    if is_case(root) {
        cases.push(root.to_path_buf());
    }
    for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
        let p = e.path();
        if is_case(&p) {
            cases.push(p);
        } else if p.is_dir() {
            for e2 in std::fs::read_dir(&p).into_iter().flatten().flatten() {
                if is_case(&e2.path()) {
                    cases.push(e2.path());
                }
            }
        }
    }
    cases.sort();
    cases
}

pub(super) fn test(plugin: &Path, fixtures: &Path) -> Result<ExitCode, Failure> {
    let wasm = resolve_component(plugin).map_err(Failure::Usage)?;
    let wasm = abs(&wasm);
    let cases = fixture_cases(fixtures);
    if cases.is_empty() {
        return Err(Failure::Usage(format!(
            "no fixture cases in {}: a case is a directory with app/ (the scanned tree) and expected.json (the exact report of `portolan -b app -f json --no-log`)",
            fixtures.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Runtime(format!("cannot find the portolan binary: {e}")))?;
    log::info(format!(
        "Testing {} on {} fixture cases in {}",
        wasm.display(),
        cases.len(),
        fixtures.display()
    ));
    let no_user_plugins =
        std::env::temp_dir().join(format!("portolan-no-user-plugins-{}", std::process::id()));
    let mut out = String::new();
    let mut failed = 0;
    for case in &cases {
        let label = case
            .strip_prefix(fixtures)
            .unwrap_or(case)
            .display()
            .to_string();
        let label = if label.is_empty() {
            case.display().to_string()
        } else {
            label
        };
        let mut cmd = std::process::Command::new(&exe);
        // Only the plugin under test: no built-ins, no config files, and no
        // plugins from the user plugin directory (pointed at nothing).
        cmd.current_dir(case)
            .env("PORTOLAN_PLUGIN_DIR", &no_user_plugins)
            .args(["scan", "-b", "app", "-f", "json", "--no-log", "--no-config"])
            .args(["--disable-builtin", "--plugin"])
            .arg(&wasm);
        if let Ok(extra) = std::fs::read_to_string(case.join("args")) {
            cmd.args(extra.lines().map(str::trim).filter(|l| !l.is_empty()));
        }
        let result = cmd
            .output()
            .map_err(|e| Failure::Runtime(format!("cannot run {}: {e}", exe.display())))?;
        let verdict = compare_case(case, &result);
        match verdict {
            Ok(()) => out.push_str(&format!("✔ {label}\n")),
            Err(why) => {
                failed += 1;
                out.push_str(&format!("✘ {label}\n{why}\n"));
            }
        }
    }
    out.push_str(&format!(
        "{} cases: {} passed, {failed} failed\n",
        cases.len(),
        cases.len() - failed
    ));
    print(&out);
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(super) fn compare_case(case: &Path, result: &std::process::Output) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&result.stderr);
    let actual: Value = serde_json::from_slice(&result.stdout).map_err(|e| {
        format!(
            "  portolan exited with {} and printed no JSON report ({e}):\n  {}",
            result.status,
            stderr.trim().replace('\n', "\n  ")
        )
    })?;
    let expected_path = case.join("expected.json");
    let expected: Value = std::fs::read_to_string(&expected_path)
        .map_err(|e| format!("  cannot read {}: {e}", expected_path.display()))
        .and_then(|t| {
            serde_json::from_str(&t)
                .map_err(|e| format!("  {} is not JSON: {e}", expected_path.display()))
        })?;
    if actual.get("errors").is_some() || !result.status.success() {
        return Err(format!(
            "  the plugin failed (exit {}):\n  {}",
            result.status,
            stderr.trim().replace('\n', "\n  ")
        ));
    }
    if actual == expected {
        return Ok(());
    }
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let (e, a) = (pretty(&expected), pretty(&actual));
    Err(format!(
        "  report differs from {} (- expected, + actual):\n{}",
        expected_path.display(),
        diff(&e, &a, 3)
    ))
}

/// A unified-style line diff with `context` lines around each change.
pub(super) fn diff(expected: &str, actual: &str, context: usize) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    if a.len().saturating_mul(b.len()) > 16_000_000 {
        return format!("--- expected\n{expected}\n+++ actual\n{actual}");
    }
    // Longest common subsequence table, from the end.
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // (tag, line): ' ' same, '-' expected only, '+' actual only.
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, (t, _))| *t != ' ')
        .map(|(k, _)| k)
        .collect();
    let mut out = String::new();
    let mut last_shown: Option<usize> = None;
    for (k, (tag, line)) in ops.iter().enumerate() {
        let near = changed
            .iter()
            .any(|&c| k + context >= c && k <= c + context);
        if !near {
            continue;
        }
        if last_shown.is_some_and(|l| l + 1 < k) || (last_shown.is_none() && k > 0) {
            out.push_str("    …\n");
        }
        out.push_str(&format!("  {tag} {line}\n"));
        last_shown = Some(k);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_changed_lines_with_context() {
        let e = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        let a = "a\nb\nc\nd\nE\nf\ng\nh\ni\n";
        let d = diff(e, a, 1);
        assert!(d.contains("  - e\n  + E\n"), "{d}");
        assert!(d.contains("    d\n") && d.contains("    f\n"), "{d}");
        assert!(!d.contains("    a\n"), "{d}");
    }
}
