//! Builds the default plugin bundle (`plugins/`) as wasm32-wasip2 components
//! with a nested cargo and embeds them in the binary; also builds the
//! deliberately misbehaving plugins in `tests/plugins/` for the test suite.
//!
//! The nested cargo uses its own target directory (`target/wasm-plugins`) and
//! a cleaned environment, so the outer build's RUSTFLAGS, target and jobserver
//! do not leak into it. When nothing changed it finishes in well under a second.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::Digest as _;

fn main() {
    let manifest_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest_dir
        .parent()
        .expect("host/ lives in the workspace root")
        .to_path_buf();
    let target_dir = env::var_os("PORTOLAN_WASM_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("wasm-plugins"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));

    for dir in ["plugins", "plugin-sdk", "wit", "tests/plugins"] {
        watch(&root.join(dir));
    }
    println!("cargo:rerun-if-env-changed=PORTOLAN_WASM_TARGET_DIR");
    println!("cargo:rerun-if-env-changed=PORTOLAN_PREBUILT_PLUGINS");
    println!("cargo:rerun-if-env-changed=PORTOLAN_WASM_WORKSPACE_WRAPPER");
    // Packagers (or a developer mid-way through a plugin edit) can build the
    // components separately and only embed what is in the target directory.
    let prebuilt = env::var_os("PORTOLAN_PREBUILT_PLUGINS").is_some_and(|v| v == "1");

    let bundle = build_workspace(&root.join("plugins"), &target_dir, prebuilt);
    let test_plugins = build_workspace(&root.join("tests").join("plugins"), &target_dir, prebuilt);

    // With prebuilt components the sources may not match them: the host
    // then describes the components themselves.
    let descriptions = if prebuilt {
        Vec::new()
    } else {
        describe_bundle(
            &root.join("plugins"),
            &root.join("target").join("plugins-native"),
            &out_dir,
        ).unwrap_or_else(|e| {
            println!("cargo:warning=could not describe the plugin bundle natively ({e}); a cold start will compile every plugin to describe it");
            Vec::new()
        })
    };

    let mut code = String::from(
        "/// The default plugin bundle: (plugin crate directory name, component\n\
         /// bytes, their sha256 (hex), its description as JSON when the build\n\
         /// could compute it). The hash is computed here so a scan never reads\n\
         /// the bytes of a plugin it does not run.\n\
         pub static BUILTIN_PLUGINS: &[(&str, &[u8], &str, Option<&str>)] = &[\n",
    );
    for (name, wasm) in &bundle {
        let description = match descriptions.iter().find(|(n, _)| n == name) {
            Some((_, file)) => format!("Some(include_str!({:?}))", file.display().to_string()),
            None => "None".to_string(),
        };
        let bytes = fs::read(wasm).expect("read a built plugin component");
        let sha256: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?}), {sha256:?}, {description}),",
            wasm.display().to_string()
        );
    }
    code.push_str("];\n");
    replace_file(&out_dir.join("builtin_plugins.rs"), code.as_bytes())
        .expect("write builtin_plugins.rs");

    // Tests find the misbehaving plugins here.
    let wasm_dir = target_dir.join("wasm32-wasip2").join("release");
    println!(
        "cargo:rustc-env=PORTOLAN_TEST_PLUGIN_DIR={}",
        wasm_dir.display()
    );
    let _ = test_plugins;
}

/// Ask cargo to rerun this script when anything below `dir` changes, except
/// build output.
fn watch(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            watch(&path);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-changed={}", dir.display());
}

/// Build every member of the workspace at `dir` for wasm32-wasip2 (release)
/// and return (member directory name, path of its component).
fn build_workspace(dir: &Path, target_dir: &Path, prebuilt: bool) -> Vec<(String, PathBuf)> {
    let manifest = dir.join("Cargo.toml");
    if !manifest.exists() {
        return Vec::new();
    }
    if !prebuilt {
        run_cargo(dir, &manifest, target_dir);
    }
    collect_components(dir, target_dir)
}

fn run_cargo(dir: &Path, manifest: &Path, target_dir: &Path) {
    let mut cmd = nested_cargo();
    // `scripts/test` names clippy-driver here (with CLIPPY_ARGS), so the
    // components are linted while they compile instead of being checked a
    // second time by `cargo clippy`.
    if let Some(wrapper) = env::var_os("PORTOLAN_WASM_WORKSPACE_WRAPPER").filter(|w| !w.is_empty())
    {
        cmd.env("RUSTC_WORKSPACE_WRAPPER", wrapper);
    }
    cmd.arg("build")
        .arg("--release")
        .arg("--target")
        .arg("wasm32-wasip2")
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .arg("--quiet");
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo to build {}: {e}", dir.display()));
    if !status.success() {
        panic!(
            "building the wasm plugins in {} failed (see the errors above).\n\
             If the target is missing, install it with: rustup target add wasm32-wasip2",
            dir.display()
        );
    }
}

/// A cargo command that does not inherit the outer build's settings.
fn nested_cargo() -> Command {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    // Keep the outer build's settings out of the nested one.
    for (key, _) in env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        let leaks = matches!(
            key,
            "RUSTFLAGS"
                | "CARGO_ENCODED_RUSTFLAGS"
                | "CARGO_BUILD_RUSTFLAGS"
                | "CARGO_TARGET_DIR"
                | "CARGO_BUILD_TARGET"
                | "CARGO_BUILD_TARGET_DIR"
                | "RUSTC_WORKSPACE_WRAPPER"
                | "CARGO_MAKEFLAGS"
                | "MAKEFLAGS"
                | "MFLAGS"
                | "TARGET"
                | "HOST"
                | "OUT_DIR"
                | "PROFILE"
                | "OPT_LEVEL"
                | "DEBUG"
                | "NUM_JOBS"
                | "RUSTC"
                | "RUSTDOC"
                | "RUSTC_LINKER"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "LLVM_PROFILE_FILE"
        ) || key.starts_with("CARGO_CFG_")
            || key.starts_with("CARGO_FEATURE_")
            || key.starts_with("CARGO_PKG_")
            || key.starts_with("DEP_")
            || key.starts_with("CARGO_PROFILE_");
        if leaks {
            cmd.env_remove(key);
        }
    }
    cmd
}

/// Describe the bundle natively, so the binary knows every built-in
/// plugin's technologies and detection rules without compiling the
/// components (a cold start then compiles only what it detects). A generated
/// binary crate depends on each plugin crate as an rlib and prints
/// `{"<member dir>": <PluginDescription>, …}`; the versions are pinned by a
/// copy of the plugins' lock file. It builds in the target directory (and
/// with the profile) of the plugins' native unit tests (`scripts/test`), so
/// the two share their compiled plugin crates and dependencies. Returns
/// (member dir, JSON file).
fn describe_bundle(
    plugins_dir: &Path,
    native_target_dir: &Path,
    out_dir: &Path,
) -> Result<Vec<(String, PathBuf)>, String> {
    let gen = out_dir.join("describe-bundle");
    fs::create_dir_all(gen.join("src")).map_err(|e| e.to_string())?;
    let mut manifest = String::from(
        "[package]\nname = \"portolan-describe-bundle\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[profile.dev]\ndebug = false\n\n[profile.dev.package.\"*\"]\ndebug = false\n\n\
         [dependencies]\nserde_json = \"1\"\n",
    );
    let mut main = String::from("fn main() {\n    let mut all = serde_json::Map::new();\n");
    let mut members = Vec::new();
    for member in workspace_members(&plugins_dir.join("Cargo.toml")) {
        let path = plugins_dir.join(&member);
        let crate_name = package_name(&path.join("Cargo.toml"))
            .ok_or_else(|| format!("{} has no readable Cargo.toml", path.display()))?;
        let _ = writeln!(
            manifest,
            "{crate_name} = {{ path = {:?} }}",
            path.display().to_string()
        );
        let _ = writeln!(
            main,
            "    all.insert({member:?}.into(), serde_json::to_value({}::portolan_description()).expect(\"serialisable\"));",
            crate_name.replace('-', "_")
        );
        members.push(member);
    }
    main.push_str("    println!(\"{}\", serde_json::Value::Object(all));\n}\n");
    write_if_changed(&gen.join("Cargo.toml"), &manifest)?;
    write_if_changed(&gen.join("src").join("main.rs"), &main)?;
    let lock = gen.join("Cargo.lock");
    if !lock.exists() {
        let _ = fs::copy(plugins_dir.join("Cargo.lock"), &lock);
    }
    let output = nested_cargo()
        .arg("run")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(gen.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(native_target_dir)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let all: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for member in members {
        let value = all
            .get(&member)
            .ok_or_else(|| format!("no description printed for {member}"))?;
        let file = out_dir.join(format!("{member}.description.json"));
        replace_file(&file, value.to_string().as_bytes())?;
        out.push((member, file));
    }
    Ok(out)
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    replace_file(path, text.as_bytes())
}

/// Write through a temporary file and a rename, so the new contents get a new
/// inode: a target directory seeded with hard links (`cp -al`, a common way to
/// share build caches between worktrees) never sees another tree's output.
fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp-write");
    fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn collect_components(dir: &Path, target_dir: &Path) -> Vec<(String, PathBuf)> {
    let wasm_dir = target_dir.join("wasm32-wasip2").join("release");
    let mut out = Vec::new();
    // Only workspace members are built, so only they are embedded: a plugin
    // folder that is not registered yet does not break the host build.
    for member in workspace_members(&dir.join("Cargo.toml")) {
        let member = dir.join(member);
        let Some(crate_name) = package_name(&member.join("Cargo.toml")) else {
            panic!(
                "workspace member {} has no readable Cargo.toml",
                member.display()
            );
        };
        let wasm = wasm_dir.join(format!("{}.wasm", crate_name.replace('-', "_")));
        if !wasm.exists() {
            panic!(
                "expected {} after building {} (with PORTOLAN_PREBUILT_PLUGINS=1, build it first)",
                wasm.display(),
                member.display()
            );
        }
        let dir_name = member
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        out.push((dir_name, wasm));
    }
    out.sort();
    out
}

/// `workspace.members` of a manifest.
fn workspace_members(manifest: &Path) -> Vec<String> {
    let text =
        fs::read_to_string(manifest).unwrap_or_else(|e| panic!("read {}: {e}", manifest.display()));
    let value: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("parse {}: {e}", manifest.display()));
    value
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(|m| m.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// `package.name` of a manifest.
fn package_name(manifest: &Path) -> Option<String> {
    let value: toml::Table = fs::read_to_string(manifest).ok()?.parse().ok()?;
    Some(value.get("package")?.get("name")?.as_str()?.to_string())
}
