//! The example analyzers written in other languages (`examples/plugins/`):
//! each is built by `examples/plugins/build.sh` (which installs its
//! toolchain when missing) and then loaded by the real `portolan` binary with
//! `--plugin`, and must report exactly its fixture's `expected.json`.
//!
//! A test is skipped, with a message saying why, only when the build script
//! exits with status 75: the toolchain could not be installed on this
//! machine (no PyPI access, not root for apt, …). Any other build failure
//! fails the test.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Exit status of build.sh meaning "toolchain unavailable here".
const UNAVAILABLE: i32 = 75;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ has a parent")
        .to_path_buf()
}

/// Build output, kept between runs so that a second run only checks stamps.
fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("example-plugins")
}

/// Builds one example (`python` or `c`) and returns its component, or `None`
/// (after printing why) when its toolchain cannot be installed here.
fn build(which: &str, component: &str) -> Option<PathBuf> {
    let out = out_dir();
    let status = Command::new("bash")
        .arg(repo().join("examples/plugins/build.sh"))
        .arg(which)
        .env("PORTOLAN_EXAMPLES_OUT", &out)
        .status()
        .expect("run examples/plugins/build.sh");
    if status.code() == Some(UNAVAILABLE) {
        eprintln!(
            "SKIPPED: the {which} example plugin was not built: its toolchain cannot be \
             installed on this machine (see the build script's message above)"
        );
        return None;
    }
    assert!(
        status.success(),
        "examples/plugins/build.sh {which} failed: {status}"
    );
    let wasm = out.join(component);
    assert!(wasm.is_file(), "{} was not produced", wasm.display());
    Some(wasm)
}

fn portolan(cwd: &Path, plugin: &Path) -> Command {
    let base = out_dir();
    let cache = base.join("cache");
    let no_user_plugins = base.join("no-user-plugins");
    fs::create_dir_all(&cache).expect("create cache dir");
    fs::create_dir_all(&no_user_plugins).expect("create empty plugin dir");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", no_user_plugins)
        .env_remove("PORTOLAN_MAX_FILE_SIZE")
        .arg("--plugin")
        .arg(plugin);
    cmd
}

/// The plugin describes its technology, and scanning the example's fixture
/// (`-b app` from the fixture directory) gives exactly `expected.json`.
fn check(example: &str, plugin: &Path, tech: &str) {
    let fixture = repo()
        .join("examples/plugins")
        .join(example)
        .join("fixture");

    let out = portolan(&fixture, plugin)
        .args(["--list-techs", "-f", "json"])
        .output()
        .expect("run portolan --list-techs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let techs: Value = serde_json::from_slice(&out.stdout).expect("--list-techs JSON");
    let ours = techs["techs"]
        .as_array()
        .expect("techs array")
        .iter()
        .find(|t| t["id"] == tech)
        .unwrap_or_else(|| panic!("{tech} missing from --list-techs"));
    assert_eq!(ours["plugin"], example, "{ours}");

    let out = portolan(&fixture, plugin)
        .args(["-b", "app", "-f", "json", "--no-log"])
        .output()
        .expect("run portolan");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "portolan failed: {stderr}");
    assert!(stderr.is_empty(), "unexpected stderr: {stderr}");
    let actual: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let expected: Value = serde_json::from_str(
        &fs::read_to_string(fixture.join("expected.json")).expect("read expected.json"),
    )
    .expect("expected.json is JSON");
    pretty_assertions::assert_eq!(
        serde_json::to_string_pretty(&expected).expect("serialize"),
        serde_json::to_string_pretty(&actual).expect("serialize"),
        "{example}: report differs from expected.json"
    );
}

#[test]
fn python_example_plugin_reports_its_fixture() {
    if let Some(wasm) = build("python", "python-pennant.wasm") {
        check("python-pennant", &wasm, "python_pennant");
    }
}

#[test]
fn c_example_plugin_reports_its_fixture() {
    if let Some(wasm) = build("c", "c-burrow.wasm") {
        check("c-burrow", &wasm, "c_burrow");
    }
}
