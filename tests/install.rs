//! `cargo install --locked --path host` on a fresh machine, checked without
//! the install itself (a full release build of the host and 15 plugins
//! from nothing takes tens of minutes on a CI runner; the manual check is
//! in the README). What the install needs, each checked here:
//!
//! - `--locked`: every workspace cargo touches has a committed lock file
//!   that resolves as it is (host and SDK; the plugin bundle and the test
//!   plugins, which the build script builds with a nested cargo);
//! - the build script is self-contained: it reads only `plugins/`,
//!   `plugin-sdk/`, `wit/` and `tests/plugins/` of this checkout, builds
//!   into the checkout's own `target/`, and needs nothing but cargo and
//!   the `wasm32-wasip2` target (`scripts/setup`);
//! - the binary it produces embeds the plugins: the test binary's
//!   portolan lists the built-in bundle with no plugin directory or cache.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.env_remove("CARGO_TARGET_DIR");
    c
}

#[test]
fn every_workspace_the_install_builds_resolves_from_its_lock_file() {
    for manifest in [
        "Cargo.toml",
        "plugins/Cargo.toml",
        "tests/plugins/Cargo.toml",
    ] {
        let path = repo().join(manifest);
        let lock = path.with_file_name("Cargo.lock");
        assert!(lock.is_file(), "{} is not committed", lock.display());
        let before = std::fs::read(&lock).unwrap();
        // --locked fails when the lock file would change; --offline keeps
        // the test off the network (the suite's build fetched everything).
        let out = cargo()
            .args([
                "metadata",
                "--locked",
                "--offline",
                "--format-version",
                "1",
                "--manifest-path",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`cargo install --locked` would fail: {manifest}'s lock file is stale:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(&lock).unwrap(), before);
    }
}

#[test]
fn the_build_script_reads_only_the_checkout() {
    let script = std::fs::read_to_string(repo().join("host/build.rs")).unwrap();
    // The directories it builds from and watches, all inside the checkout.
    for dir in [
        "\"plugins\"",
        "\"plugin-sdk\"",
        "\"wit\"",
        "\"tests/plugins\"",
    ] {
        assert!(script.contains(dir), "build.rs no longer names {dir}");
    }
    for dir in ["plugins", "plugin-sdk", "wit", "tests/plugins"] {
        assert!(repo().join(dir).is_dir(), "{dir} missing from the checkout");
    }
    // No network, no tool but cargo: nothing downloads, nothing else runs.
    for forbidden in [
        "curl",
        "wget",
        "http://",
        "https://",
        "git clone",
        "Command::new(\"sh",
    ] {
        assert!(
            !script.contains(forbidden),
            "build.rs uses `{forbidden}`: an install must build from the checkout alone"
        );
    }
    // Its build-dependencies are locked with the host's.
    let manifest = std::fs::read_to_string(repo().join("host/Cargo.toml")).unwrap();
    let build_deps = manifest
        .split("[build-dependencies]")
        .nth(1)
        .and_then(|s| s.split("\n[").next())
        .unwrap_or("");
    for line in build_deps.lines().filter(|l| l.contains('=')) {
        let name = line.split('=').next().unwrap().trim();
        let lock = std::fs::read_to_string(repo().join("Cargo.lock")).unwrap();
        assert!(
            lock.contains(&format!("name = \"{name}\"")),
            "build-dependency {name} not in Cargo.lock"
        );
    }
    // The fresh-machine setup installs the one extra it needs.
    let setup = std::fs::read_to_string(repo().join("scripts/setup")).unwrap();
    assert!(setup.contains("rustup target add wasm32-wasip2"));
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(readme.contains("cargo install --locked --path host"));
}

#[test]
fn the_built_binary_embeds_the_plugin_bundle() {
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(["plugin", "list", "-f", "json", "--no-config"])
        .env("PORTOLAN_PLUGIN_DIR", empty.path().join("plugins"))
        .env("PORTOLAN_CACHE_DIR", empty.path().join("cache"))
        .env("PORTOLAN_CONFIG_DIR", empty.path().join("config"))
        .current_dir(empty.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Every crate of the bundle is in the binary.
    let bundle = std::fs::read_to_string(repo().join("plugins/Cargo.toml")).unwrap();
    let members: Vec<&str> = bundle
        .split("members")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap()
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();
    assert!(members.len() >= 10, "{members:?}");
    let builtin = list["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["builtin"] == true)
        .count();
    assert_eq!(builtin, members.len(), "{list:#}");
}
