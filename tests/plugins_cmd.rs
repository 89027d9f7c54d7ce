//! End-to-end tests of third-party plugin support: `portolan plugin
//! add/lock/verify/list/new/test`, `cache clear`, `[[plugins]]` in config
//! files (paths and URLs with sha256 pins), `--locked`, `--offline`,
//! `--disable-builtin` and overriding a built-in technology.
//!
//! The out-of-tree plugins are `tests/plugins/tiny` (tech `test_tiny`:
//! `*.tiny` files hold `METHOD /path` lines) and `tests/plugins/tinyflask`
//! (replaces `python_flask`), built by host/build.rs.

use std::fs;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn test_plugin(name: &str) -> PathBuf {
    Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR")).join(format!("test_plugin_{name}.wasm"))
}

/// Empty user config and plugin directories shared by the tests.
fn shared_dirs() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-plugins-cmd");
        for d in ["no-user-plugins", "no-user-config"] {
            fs::create_dir_all(base.join(d)).unwrap();
        }
        base
    })
}

fn portolan_with_cache(cwd: &Path, cache: &Path) -> Command {
    let shared = shared_dirs();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", shared.join("no-user-plugins"))
        .env("PORTOLAN_CONFIG_DIR", shared.join("no-user-config"))
        .env("NO_COLOR", "1")
        .env_remove("PORTOLAN_MAX_FILE_SIZE");
    cmd
}

/// The compiled-plugin cache of every end-to-end test binary (compiled once
/// per suite run by `scripts/test`).
fn portolan(cwd: &Path) -> Command {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests/cache");
    fs::create_dir_all(&cache).unwrap();
    portolan_with_cache(cwd, &cache)
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run portolan")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        out(o),
        err(o)
    )
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", show(o)))
}

fn routes(report: &Value) -> Vec<String> {
    report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["method"].as_str().unwrap(),
                e["url"].as_str().unwrap(),
                e["details"]["technology"].as_str().unwrap()
            )
        })
        .collect()
}

fn sha256_of(path: &Path) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A project: `app.tiny` (two routes, one commented out) and a Flask file.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("app.tiny"),
        "GET /tiny/items\n# POST /tiny/old\nPOST /tiny/items\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("server.py"),
        "from flask import Flask\napp = Flask(__name__)\n\n@app.route('/hello')\ndef hello():\n    return 'hi'\n",
    )
    .unwrap();
    dir
}

/// The plugin as a third party would ship it: a file outside the project.
fn shipped(plugin: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{plugin}.wasm"));
    fs::copy(test_plugin(plugin), &path).unwrap();
    (dir, path)
}

fn add(project: &Path, source: &str) -> Output {
    let o = run(portolan(project).args(["plugin", "add", source]));
    assert!(o.status.success(), "plugin add failed:\n{}", show(&o));
    o
}

// ------------------------------------------------------------ acceptance

#[test]
fn locked_scan_refuses_a_tampered_plugin_naming_it_and_both_hashes() {
    let proj = project();
    let (_ship, wasm) = shipped("tiny");
    let added = add(proj.path(), wasm.to_str().unwrap());
    let pinned = proj.path().join(".portolan/plugins/tiny.wasm");
    assert!(
        pinned.is_file(),
        "add copies into the project\n{}",
        show(&added)
    );
    let good = sha256_of(&pinned);
    let config = fs::read_to_string(proj.path().join("portolan.toml")).unwrap();
    assert!(
        config.contains("[[plugins]]")
            && config.contains("name = \"tiny\"")
            && config.contains("path = \".portolan/plugins/tiny.wasm\"")
            && config.contains(&format!("sha256 = \"{good}\"")),
        "{config}"
    );
    assert!(out(&added).contains(&good), "{}", show(&added));

    let locked = run(portolan(proj.path()).args(["plugin", "lock"]));
    assert!(locked.status.success(), "{}", show(&locked));
    let lock = fs::read_to_string(proj.path().join("portolan.lock")).unwrap();
    assert!(lock.contains("source = \"builtin\"") && lock.contains("name = \"python\""));
    assert!(
        lock.contains(&format!("sha256 = \"{good}\""))
            && lock.contains("source = \".portolan/plugins/tiny.wasm\"")
            && lock.contains("interface_version = \"0.3.0\""),
        "{lock}"
    );

    // Locked and intact: the scan runs, the plugin's routes are reported.
    // The project config pins the plugin, so it is named with --config: a
    // config found in the scanned tree may not choose which code runs.
    let ok = run(portolan(proj.path()).args([
        "-b",
        ".",
        "--config",
        "portolan.toml",
        "--locked",
        "-f",
        "json",
        "--no-log",
    ]));
    assert!(ok.status.success(), "{}", show(&ok));
    assert_eq!(
        routes(&json(&ok)),
        [
            "GET /tiny/items test_tiny",
            "POST /tiny/items test_tiny",
            "GET /hello python_flask"
        ]
    );

    // The same lock found through --config (lockfile next to that file),
    // scanning a subdirectory.
    fs::create_dir_all(proj.path().join("sub")).unwrap();
    fs::copy(
        proj.path().join("app.tiny"),
        proj.path().join("sub/app.tiny"),
    )
    .unwrap();
    let ok = run(portolan(proj.path()).args([
        "-b",
        "sub",
        "--config",
        "portolan.toml",
        "--locked",
        "-f",
        "json",
        "--no-log",
    ]));
    assert!(ok.status.success(), "{}", show(&ok));
    assert_eq!(routes(&json(&ok)).len(), 2, "{}", show(&ok));

    // One byte changed.
    let mut bytes = fs::read(&pinned).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    fs::write(&pinned, &bytes).unwrap();
    let bad = sha256_of(&pinned);
    let refused = run(portolan(proj.path()).args([
        "-b",
        ".",
        "--config",
        "portolan.toml",
        "--locked",
        "-f",
        "json",
    ]));
    assert_eq!(refused.status.code(), Some(2), "{}", show(&refused));
    assert!(out(&refused).is_empty(), "no report: {}", show(&refused));
    let e = err(&refused);
    assert!(
        e.contains("`tiny`")
            && e.contains(&format!("locked sha256 {good}"))
            && e.contains(&format!("found sha256 {bad}"))
            && e.contains("portolan plugin lock"),
        "{e}"
    );
    // Without --locked the pin in portolan.toml still refuses it.
    let pinned_refusal =
        run(portolan(proj.path()).args(["-b", ".", "--config", "portolan.toml", "-f", "json"]));
    assert_eq!(
        pinned_refusal.status.code(),
        Some(2),
        "{}",
        show(&pinned_refusal)
    );
    let e = err(&pinned_refusal);
    assert!(
        e.contains("`tiny`") && e.contains(&format!("expected {good}, got {bad}")),
        "{e}"
    );
}

#[test]
fn locked_needs_a_lockfile_and_sees_new_plugins() {
    let proj = project();
    let o = run(portolan(proj.path()).args(["-b", ".", "--locked"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(err(&o).contains("no lockfile") && err(&o).contains("portolan plugin lock"));
    assert!(run(portolan(proj.path()).args(["plugin", "lock"]))
        .status
        .success());
    // Built-ins only: locked scans work; a plugin added later is refused.
    let o = run(portolan(proj.path()).args(["-b", ".", "--locked", "--no-log"]));
    assert!(o.status.success(), "{}", show(&o));
    let o = run(portolan(proj.path())
        .args(["-b", ".", "--locked", "--plugin"])
        .arg(test_plugin("tiny")));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        err(&o).contains("is not in") && err(&o).contains("portolan.lock"),
        "{}",
        show(&o)
    );
    // `plugin lock --locked` checks the lockfile is current.
    let o = run(portolan(proj.path()).args(["plugin", "lock", "--locked"]));
    assert!(o.status.success(), "{}", show(&o));
    add(proj.path(), test_plugin("tiny").to_str().unwrap());
    let o = run(portolan(proj.path()).args(["plugin", "lock", "--locked"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

// ------------------------------------------------------------------ add

#[test]
fn add_with_a_wrong_sha256_is_refused_and_changes_nothing() {
    let proj = project();
    let (_ship, wasm) = shipped("tiny");
    let actual = sha256_of(&wasm);
    let wrong = "ab".repeat(32);
    let o = run(portolan(proj.path()).args([
        "plugin",
        "add",
        wasm.to_str().unwrap(),
        "--sha256",
        &wrong,
    ]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        err(&o).contains(&format!("expected {wrong}"))
            && err(&o).contains(&format!("got {actual}")),
        "{}",
        show(&o)
    );
    assert!(!proj.path().join("portolan.toml").exists());
    assert!(!proj.path().join(".portolan").exists());
    // The right hash is accepted; not a plugin at all is refused.
    let o = run(portolan(proj.path()).args([
        "plugin",
        "add",
        wasm.to_str().unwrap(),
        "--sha256",
        &actual,
    ]));
    assert!(o.status.success(), "{}", show(&o));
    let junk = proj.path().join("junk.wasm");
    fs::write(&junk, b"not wasm").unwrap();
    let o = run(portolan(proj.path()).args(["plugin", "add", "junk.wasm"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(err(&o).contains("nothing was added"), "{}", show(&o));
}

#[test]
fn adding_again_updates_the_entry_and_keeps_comments() {
    let proj = project();
    fs::write(
        proj.path().join("portolan.toml"),
        "# CI settings\nformat = \"json\"\n",
    )
    .unwrap();
    add(proj.path(), test_plugin("tiny").to_str().unwrap());
    let o = add(proj.path(), test_plugin("tiny").to_str().unwrap());
    assert!(out(&o).contains("Updated plugin `tiny`"), "{}", show(&o));
    let config = fs::read_to_string(proj.path().join("portolan.toml")).unwrap();
    assert!(
        config.starts_with("# CI settings\nformat = \"json\"\n"),
        "{config}"
    );
    assert_eq!(config.matches("[[plugins]]").count(), 1, "{config}");
}

// --------------------------------------------------------------- verify

#[test]
fn verify_checks_pins_and_the_lockfile() {
    let proj = project();
    add(proj.path(), test_plugin("tiny").to_str().unwrap());
    let o = run(portolan(proj.path()).args(["plugin", "verify"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        out(&o).contains("✔ tiny") && out(&o).contains("portolan.lock: run `portolan plugin lock`"),
        "{}",
        show(&o)
    );
    assert!(run(portolan(proj.path()).args(["plugin", "lock"]))
        .status
        .success());
    let o = run(portolan(proj.path()).args(["plugin", "verify", "--locked"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        out(&o).contains("portolan.lock: all 17 plugins match")
            || out(&o).contains("plugins match"),
        "{}",
        show(&o)
    );

    let pinned = proj.path().join(".portolan/plugins/tiny.wasm");
    let good = sha256_of(&pinned);
    let mut bytes = fs::read(&pinned).unwrap();
    bytes.push(0);
    fs::write(&pinned, &bytes).unwrap();
    let o = run(portolan(proj.path()).args(["plugin", "verify"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        out(&o).contains("✘") && out(&o).contains(&good) && out(&o).contains(&sha256_of(&pinned)),
        "{}",
        show(&o)
    );
}

// ----------------------------------------------------------------- list

#[test]
fn list_shows_builtin_and_external_plugins_with_techs_and_versions() {
    let proj = project();
    add(proj.path(), test_plugin("tiny").to_str().unwrap());
    add(proj.path(), test_plugin("tinyflask").to_str().unwrap());
    let o = run(portolan(proj.path()).args(["plugin", "list", "-f", "json", "--no-log"]));
    assert!(o.status.success(), "{}", show(&o));
    let doc = json(&o);
    let plugins = doc["plugins"].as_array().unwrap();
    let find = |name: &str| {
        plugins
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {doc:#}"))
    };
    let python = find("python");
    assert_eq!(python["builtin"], true);
    assert_eq!(python["source"], "built-in");
    assert_eq!(python["interface_version"], "0.3.0");
    assert!(python["techs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t == "python_django"));
    assert!(!python["techs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t == "python_flask"));
    assert_eq!(
        python["replaced_techs"],
        serde_json::json!([{"id": "python_flask", "by": "tinyflask"}])
    );
    let tiny = find("tiny");
    assert_eq!(tiny["builtin"], false);
    assert_eq!(tiny["version"], "0.1.0");
    assert_eq!(tiny["techs"], serde_json::json!(["test_tiny"]));
    assert_eq!(tiny["sha256"], sha256_of(&test_plugin("tiny")));
    assert_eq!(
        find("tinyflask")["techs"],
        serde_json::json!(["python_flask"])
    );

    let o = run(portolan(proj.path()).args(["plugin", "list", "--no-log"]));
    assert!(o.status.success(), "{}", show(&o));
    let text = out(&o);
    assert!(
        text.contains("tiny 0.1.0 (") && text.contains("techs: test_tiny"),
        "{text}"
    );
    assert!(
        text.contains("setting `prefix` (string): put before every route path"),
        "{text}"
    );
    assert!(
        text.contains("python_flask replaced by plugin `tinyflask`"),
        "{text}"
    );
}

// ------------------------------------------------- override and compose

#[test]
fn a_config_plugin_replaces_a_builtin_technology_with_a_log_line() {
    let proj = project();
    add(proj.path(), test_plugin("tinyflask").to_str().unwrap());
    let o = run(portolan(proj.path()).args(["-b", ".", "--config", "portolan.toml", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        err(&o).contains("technology `python_flask`: plugin `tinyflask` (")
            && err(&o).contains("replaces plugin `python` (built-in)"),
        "{}",
        show(&o)
    );
    assert_eq!(routes(&json(&o)), ["GET /from-tinyflask python_flask"]);
}

#[test]
fn plugin_settings_reach_the_plugin_and_are_checked() {
    let proj = project();
    let (_dir, tiny) = shipped("tiny");
    let tiny_routes = |o: &Output| -> Vec<String> {
        routes(&json(o))
            .into_iter()
            .filter(|r| r.ends_with(" test_tiny"))
            .collect()
    };
    let config = |table: &str| {
        format!(
            "[[plugins]]\nname = \"tiny\"\npath = {:?}\n{table}",
            tiny.display().to_string()
        )
    };
    let scan = |proj: &Path| {
        run(portolan(proj).args([
            "-b",
            ".",
            "--config",
            "portolan.toml",
            "-f",
            "json",
            "-t",
            "test_tiny",
        ]))
    };
    // No settings: the plugin's defaults.
    fs::write(proj.path().join("portolan.toml"), config("")).unwrap();
    let o = scan(proj.path());
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(
        tiny_routes(&o),
        ["GET /tiny/items test_tiny", "POST /tiny/items test_tiny"]
    );
    // The settings change what the plugin reports.
    fs::write(
        proj.path().join("portolan.toml"),
        config("config = { prefix = \"/v2\", skip_methods = [\"POST\"] }\n"),
    )
    .unwrap();
    let o = scan(proj.path());
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(tiny_routes(&o), ["GET /v2/tiny/items test_tiny"]);
    // An undeclared key and a value of the wrong kind stop the scan,
    // naming the plugin and the key.
    for (table, words) in [
        (
            "config = { prefx = \"/v2\" }\n",
            ["`tiny`", "no setting `prefx`", "prefix, skip_methods"],
        ),
        (
            "config = { skip_methods = \"POST\" }\n",
            ["`tiny`", "`skip_methods`", "a list of strings"],
        ),
    ] {
        fs::write(proj.path().join("portolan.toml"), config(table)).unwrap();
        let o = scan(proj.path());
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        for w in words {
            assert!(err(&o).contains(w), "{w}: {}", show(&o));
        }
    }
    // A scanned tree's own portolan.toml cannot set settings (it may not
    // set [[plugins]] at all): ignored with a warning, defaults apply.
    fs::write(
        proj.path().join("portolan.toml"),
        config("config = { prefix = \"/evil\" }\n"),
    )
    .unwrap();
    let o = run(portolan(proj.path())
        .args(["-b", ".", "-f", "json", "--plugin"])
        .arg(&tiny)
        .args(["-t", "test_tiny"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(err(&o).contains("[[plugins]]` is ignored"), "{}", show(&o));
    assert_eq!(
        tiny_routes(&o),
        ["GET /tiny/items test_tiny", "POST /tiny/items test_tiny"]
    );
}

/// A route found by two technologies (a plugin's and the built-in Flask
/// analyzer) is one endpoint whose JSON keeps `technology` and lists both
/// in `technologies`, `technology` first; a route found by one has no list.
#[test]
fn a_merged_endpoint_lists_every_technology_that_found_it() {
    let proj = project();
    fs::write(proj.path().join("app.tiny"), "GET /hello\nGET /tiny/only\n").unwrap();
    let o = run(portolan(proj.path())
        .args(["-b", ".", "-f", "json", "--no-log", "--plugin"])
        .arg(test_plugin("tiny")));
    assert!(o.status.success(), "{}", show(&o));
    let report = json(&o);
    let endpoints = report["endpoints"].as_array().unwrap();
    let find = |url: &str| {
        endpoints
            .iter()
            .find(|e| e["url"] == url)
            .unwrap_or_else(|| panic!("{url} in {report:#}"))
    };
    let hello = &find("/hello")["details"];
    assert_eq!(
        endpoints.iter().filter(|e| e["url"] == "/hello").count(),
        1,
        "{report:#}"
    );
    let techs: Vec<&str> = hello["technologies"]
        .as_array()
        .unwrap_or_else(|| panic!("no technologies list: {hello:#}"))
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let mut sorted = techs.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["python_flask", "test_tiny"], "{hello:#}");
    assert_eq!(hello["technology"], techs[0], "{hello:#}");
    let paths: Vec<&str> = hello["code_paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert!(
        paths.contains(&"server.py") && paths.contains(&"app.tiny"),
        "{hello:#}"
    );
    let only = &find("/tiny/only")["details"];
    assert_eq!(only["technology"], "test_tiny");
    assert!(only.get("technologies").is_none(), "{only:#}");
}

#[test]
fn disable_builtin_runs_only_external_plugins() {
    let proj = project();
    let o = run(portolan(proj.path())
        .args([
            "-b",
            ".",
            "-f",
            "json",
            "--no-log",
            "--disable-builtin",
            "--plugin",
        ])
        .arg(test_plugin("tiny")));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(
        routes(&json(&o)),
        ["GET /tiny/items test_tiny", "POST /tiny/items test_tiny"]
    );
    let o = run(portolan(proj.path()).args(["-b", ".", "--disable-builtin"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        err(&o).contains("--disable-builtin leaves no plugin"),
        "{}",
        show(&o)
    );
    // Also as a config key.
    fs::write(
        proj.path().join("portolan.toml"),
        "disable_builtin = true\n",
    )
    .unwrap();
    add(proj.path(), test_plugin("tiny").to_str().unwrap());
    let o = run(portolan(proj.path()).args([
        "-b",
        ".",
        "--config",
        "portolan.toml",
        "-f",
        "json",
        "--no-log",
    ]));
    assert_eq!(
        routes(&json(&o)),
        ["GET /tiny/items test_tiny", "POST /tiny/items test_tiny"]
    );
}

// ------------------------------------------------------------ cache

#[test]
fn cache_clear_removes_compiled_and_downloaded_plugins() {
    let proj = project();
    let cache = tempfile::tempdir().unwrap();
    let o = run(portolan_with_cache(proj.path(), cache.path())
        .args(["-b", ".", "--no-log", "--plugin"])
        .arg(test_plugin("tiny")));
    assert!(o.status.success(), "{}", show(&o));
    let count = |ext: &str| {
        fs::read_dir(cache.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(ext))
            .count()
    };
    assert!(count(".cwasm") >= 2, "tiny and python were compiled");
    fs::create_dir_all(cache.path().join("downloads")).unwrap();
    fs::write(cache.path().join("downloads/ab.wasm"), b"x").unwrap();
    let o = run(portolan_with_cache(proj.path(), cache.path()).args(["cache", "clear"]));
    assert!(o.status.success(), "{}", show(&o));
    let n = count(".cwasm");
    assert_eq!(n, 0);
    assert_eq!(count(".describe.json"), 0);
    assert!(!cache.path().join("downloads/ab.wasm").exists());
    assert!(
        out(&o).contains("Cleared") && out(&o).contains("1 downloaded plugins"),
        "{}",
        show(&o)
    );
    assert!(!out(&o).contains(" 0 compiled plugins"), "{}", show(&o));
}

// -------------------------------------------------------------- URLs

/// A loopback HTTP server answering every GET with `body`; counts requests.
fn serve(body: Vec<u8>) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://{}/plugins/tiny.wasm",
        listener.local_addr().unwrap()
    );
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 4096];
            let mut req = Vec::new();
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => req.extend_from_slice(&buf[..n]),
                }
            }
            counter.fetch_add(1, Ordering::SeqCst);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/wasm\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    (url, hits)
}

#[test]
fn url_plugins_are_downloaded_once_then_used_offline_and_never_fetched_for_a_scanned_repo() {
    let wasm = test_plugin("tiny");
    let sha = sha256_of(&wasm);
    let (url, hits) = serve(fs::read(&wasm).unwrap());
    let proj = project();
    let cache = tempfile::tempdir().unwrap();
    let p = |cwd: &Path| portolan_with_cache(cwd, cache.path());

    let o = run(p(proj.path()).args(["plugin", "add", &url, "--sha256", &sha]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    assert!(cache.path().join(format!("downloads/{sha}.wasm")).is_file());
    let config = fs::read_to_string(proj.path().join("portolan.toml")).unwrap();
    assert!(config.contains(&format!("url = \"{url}\"")), "{config}");

    // Scans use the store: no request.
    for extra in [&[][..], &["--offline"][..]] {
        let o = run(p(proj.path())
            .args([
                "-b",
                ".",
                "--config",
                "portolan.toml",
                "-f",
                "json",
                "--no-log",
            ])
            .args(extra));
        assert!(o.status.success(), "{}", show(&o));
        assert!(routes(&json(&o)).contains(&"GET /tiny/items test_tiny".to_string()));
    }
    assert!(run(p(proj.path()).args(["plugin", "lock"]))
        .status
        .success());
    let o = run(p(proj.path()).args([
        "-b",
        ".",
        "--config",
        "portolan.toml",
        "--locked",
        "--no-log",
    ]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(hits.load(Ordering::SeqCst), 1, "nothing downloaded again");

    // An empty store: a scanned repository's config cannot trigger a
    // download (its plugins are ignored, with a warning); --offline and
    // --locked never download; an explicit --config does.
    let o = run(p(proj.path()).args(["cache", "clear"]));
    assert!(o.status.success(), "{}", show(&o));
    let o = run(p(proj.path()).args(["-b", ".", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        err(&o).contains("`[[plugins]]` is ignored") && err(&o).contains("portolan.toml"),
        "{}",
        show(&o)
    );
    assert!(!routes(&json(&o)).iter().any(|r| r.contains("test_tiny")));
    let o = run(p(proj.path()).args(["-b", ".", "--config", "portolan.toml", "--offline"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        err(&o).contains("--offline forbids downloading")
            && err(&o).contains("without --offline")
            && err(&o).contains("portolan plugin add"),
        "{}",
        show(&o)
    );
    let o = run(p(proj.path()).args(["-b", ".", "--config", "portolan.toml", "--locked"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        err(&o).contains("--locked forbids downloading"),
        "{}",
        show(&o)
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    let o = run(p(proj.path()).args([
        "-b",
        ".",
        "--config",
        "portolan.toml",
        "-f",
        "json",
        "--no-log",
    ]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(hits.load(Ordering::SeqCst), 2);
    assert!(routes(&json(&o)).contains(&"GET /tiny/items test_tiny".to_string()));

    // A server that serves other bytes than the pinned ones.
    fs::write(
        proj.path().join("evil.toml"),
        format!(
            "[[plugins]]\nname = \"tiny\"\nurl = \"{url}x\"\nsha256 = \"{}\"\n",
            "0".repeat(64)
        ),
    )
    .unwrap();
    let o = run(p(proj.path()).args(["-b", ".", "--no-config", "--config", "evil.toml"]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        err(&o).contains(&format!("expected {}", "0".repeat(64)))
            && err(&o).contains(&format!("got {sha}")),
        "{}",
        show(&o)
    );
}

#[test]
fn config_mistakes_in_plugins_are_usage_errors() {
    let proj = project();
    for (text, needle) in [
        ("[[plugins]]\nname = \"x\"\n", "needs a `path` or a `url`"),
        (
            "[[plugins]]\nurl = \"https://example.invalid/x.wasm\"\n",
            "needs `sha256`",
        ),
        (
            "[[plugins]]\npath = \"x.wasm\"\nsha256 = \"zz\"\n",
            "64 hexadecimal digits",
        ),
        ("[[plugins]]\npath = \"missing.wasm\"\n", "cannot read"),
        (
            "[[plugins]]\npath = \"x.wasm\"\nsha = \"1\"\n",
            "unknown field",
        ),
    ] {
        fs::write(proj.path().join("portolan.toml"), text).unwrap();
        let o = run(portolan(proj.path()).args(["-b", ".", "--config", "portolan.toml"]));
        assert_eq!(o.status.code(), Some(2), "{text}\n{}", show(&o));
        assert!(
            err(&o).contains(needle) && err(&o).contains("portolan.toml"),
            "{text}\n{}",
            show(&o)
        );
    }
}

// --------------------------------------------------------- plugin test

fn case(root: &Path, name: &str, tiny: &str, expected: &Value) {
    let dir = root.join("test_tiny").join(name);
    fs::create_dir_all(dir.join("app")).unwrap();
    fs::write(dir.join("app/routes.tiny"), tiny).unwrap();
    fs::write(
        dir.join("expected.json"),
        serde_json::to_string_pretty(expected).unwrap(),
    )
    .unwrap();
}

fn tiny_endpoint(method: &str, url: &str, line: u32) -> Value {
    serde_json::json!({
        "url": url, "method": method, "params": [],
        "details": {"code_paths": [{"path": "app/routes.tiny", "line": line}], "technology": "test_tiny"},
        "protocol": "http", "tags": [], "internal": false
    })
}

#[test]
fn plugin_test_runs_fixture_cases_and_shows_a_diff() {
    let fixtures = tempfile::tempdir().unwrap();
    case(
        fixtures.path(),
        "basic",
        "GET /a\n# GET /commented\nPOST /b/{id}\n",
        &serde_json::json!({"endpoints": [
            tiny_endpoint("GET", "/a", 1),
            {
                "url": "/b/{id}", "method": "POST",
                "params": [{"name": "id", "value": "", "param_type": "path", "tags": []}],
                "details": {"code_paths": [{"path": "app/routes.tiny", "line": 3}], "technology": "test_tiny"},
                "protocol": "http", "tags": [], "internal": false
            }
        ], "passive_results": []}),
    );
    let o = run(portolan(fixtures.path())
        .args(["plugin", "test"])
        .arg(test_plugin("tiny"))
        .args(["--fixtures", "."]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        out(&o).contains("✔ test_tiny/basic") && out(&o).contains("1 cases: 1 passed, 0 failed"),
        "{}",
        show(&o)
    );

    // A wrong line number in the expectation.
    case(
        fixtures.path(),
        "wrong",
        "GET /a\nDELETE /c\n",
        &serde_json::json!({"endpoints": [tiny_endpoint("GET", "/a", 1), tiny_endpoint("DELETE", "/c", 3)], "passive_results": []}),
    );
    let o = run(portolan(fixtures.path())
        .args(["plugin", "test"])
        .arg(test_plugin("tiny"))
        .args(["--fixtures", "."]));
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let text = out(&o);
    assert!(
        text.contains("✔ test_tiny/basic") && text.contains("✘ test_tiny/wrong"),
        "{text}"
    );
    assert!(
        text.contains("  -             \"line\": 3")
            && text.contains("  +             \"line\": 2"),
        "{text}"
    );
    assert!(text.contains("2 cases: 1 passed, 1 failed"), "{text}");

    // No cases, or no plugin: usage errors.
    let empty = tempfile::tempdir().unwrap();
    let o = run(portolan(empty.path())
        .args(["plugin", "test"])
        .arg(test_plugin("tiny"))
        .args(["--fixtures", "."]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let o = run(portolan(empty.path()).args(["plugin", "test", ".", "--fixtures", "."]));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

// ----------------------------------------------------------- plugin new

/// A cargo command free of the outer `cargo test`'s settings.
fn cargo(dir: &Path, target: &Path) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for key in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
        "CARGO_TARGET_DIR",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(key);
    }
    cmd.current_dir(dir).env("CARGO_TARGET_DIR", target);
    cmd
}

/// Copy a directory tree (files and directories only).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let dest = to.join(entry.file_name());
        // `metadata` follows links: a linked file is copied as a file.
        let meta = fs::metadata(&path).unwrap();
        if meta.is_dir() {
            copy_tree(&path, &dest);
        } else {
            fs::copy(&path, &dest).unwrap();
        }
    }
}

#[test]
fn plugin_new_scaffolds_a_crate_that_tests_builds_and_passes_plugin_test() {
    let work = tempfile::tempdir().unwrap();
    // The SDK stands alone: a copy outside the repository (as a team would
    // vendor it) is all the scaffold needs, WIT included.
    copy_tree(
        &repo().join("plugin-sdk"),
        &work.path().join("vendor/plugin-sdk"),
    );
    let sdk = PathBuf::from("vendor/plugin-sdk");
    let o = run(portolan(work.path())
        .args(["plugin", "new", "acme-web", "--sdk-path"])
        .arg(&sdk));
    assert!(o.status.success(), "{}", show(&o));
    let manifest = fs::read_to_string(work.path().join("acme-web/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("portolan-plugin-sdk = { path = \"../vendor/plugin-sdk\" }")
            && manifest.contains("serde = "),
        "{manifest}"
    );
    let readme = fs::read_to_string(work.path().join("acme-web/README.md")).unwrap();
    assert!(!readme.contains("example.invalid"), "{readme}");
    // Without --sdk-path: the published SDK of this interface, never a path
    // into the tree this binary was built from.
    let o = run(portolan(work.path()).args(["plugin", "new", "other", "--dir", "other"]));
    assert!(o.status.success(), "{}", show(&o));
    let manifest = fs::read_to_string(work.path().join("other/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("portolan-plugin-sdk = \"0.") && !manifest.contains("path ="),
        "{manifest}"
    );
    let krate = work.path().join("acme-web");
    for f in [
        "Cargo.toml",
        "src/lib.rs",
        "tests/fixtures.rs",
        "tests/fixtures/python_acme_web/basic/app/server.py",
        "tests/fixtures/python_acme_web/basic/expected.json",
        "README.md",
    ] {
        assert!(krate.join(f).is_file(), "{f} missing\n{}", show(&o));
    }
    // Refuses to overwrite, and bad names.
    let again = run(portolan(work.path())
        .args(["plugin", "new", "acme-web", "--sdk-path"])
        .arg(&sdk));
    assert_eq!(again.status.code(), Some(2), "{}", show(&again));
    let bad = run(portolan(work.path()).args(["plugin", "new", "Acme Web"]));
    assert_eq!(bad.status.code(), Some(2), "{}", show(&bad));

    // Same dependency versions as the bundle, built in the bundle's target
    // directories, so the scaffold's dependencies (serde, serde_json,
    // wit-bindgen and their proc macros) are the ones the suite's build
    // already compiled: natively in the plugins' test directory (whose dev
    // profile is the default one without debug info), for wasm in the
    // directory host/build.rs builds the components in (the scaffold's
    // release profile is the bundle's). Only the SDK copy and the scaffold
    // itself compile here, even on a clean checkout.
    fs::copy(repo().join("plugins/Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let native_target = repo().join("target/plugins-native");
    // PORTOLAN_TEST_PLUGIN_DIR is <wasm target dir>/wasm32-wasip2/release.
    let target = Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf();
    let t = run(cargo(&krate, &native_target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .args(["test", "--offline", "--quiet"]));
    assert!(
        t.status.success(),
        "cargo test of the scaffold failed:\n{}",
        show(&t)
    );
    let b = run(cargo(&krate, &target).args([
        "build",
        "--offline",
        "--quiet",
        "--release",
        "--target",
        "wasm32-wasip2",
    ]));
    assert!(
        b.status.success(),
        "wasm build of the scaffold failed:\n{}",
        show(&b)
    );
    let o = run(portolan(&krate).env("CARGO_TARGET_DIR", &target).args([
        "plugin",
        "test",
        ".",
        "--fixtures",
        "tests/fixtures",
    ]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(out(&o).contains("✔ python_acme_web/basic"), "{}", show(&o));
}

/// `plugin new --lang python`: the scaffold (analyzer.py, the interface,
/// build.sh, the same fixture as the Rust one) builds with componentize-py
/// and passes `plugin test`. componentize-py comes from the directory
/// scripts/test-tools installs it into for the example plugins (build.sh
/// installs it from PyPI when that is missing).
#[test]
fn plugin_new_python_scaffold_builds_and_passes_plugin_test() {
    let work = tempfile::tempdir().unwrap();
    let o = run(portolan(work.path()).args(["plugin", "new", "acme-py", "--lang", "python"]));
    assert!(o.status.success(), "{}", show(&o));
    let project = work.path().join("acme-py");
    for f in [
        "analyzer.py",
        "build.sh",
        "wit/analyzer.wit",
        "README.md",
        "tests/fixtures/python_acme_py/basic/app/server.py",
        "tests/fixtures/python_acme_py/basic/expected.json",
    ] {
        assert!(project.join(f).is_file(), "{f} missing\n{}", show(&o));
    }
    assert!(!project.join("Cargo.toml").exists());
    let wit = fs::read_to_string(project.join("wit/analyzer.wit")).unwrap();
    assert_eq!(
        wit,
        fs::read_to_string(repo().join("plugin-sdk/wit/analyzer.wit")).unwrap()
    );
    // The SDK path is a Rust-only option.
    let bad = run(portolan(work.path()).args([
        "plugin",
        "new",
        "x",
        "--lang",
        "python",
        "--sdk-path",
        "sdk",
    ]));
    assert_eq!(bad.status.code(), Some(2), "{}", show(&bad));

    let tools = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example-plugins/componentize-py");
    build_and_plugin_test(
        &project,
        ("COMPONENTIZE_PY_DIR", tools),
        "acme_py.wasm",
        "python_acme_py/basic",
    );
}

/// Run a scaffold's `build.sh` (with one environment setting), then
/// `plugin test` on the component it built: `case` must pass.
fn build_and_plugin_test(project: &Path, env: (&str, PathBuf), wasm: &str, case: &str) {
    let b = Command::new("bash")
        .arg(project.join("build.sh"))
        .env(env.0, &env.1)
        .output()
        .expect("run build.sh");
    assert!(b.status.success(), "build.sh failed:\n{}", show(&b));
    let o = run(portolan(project).args(["plugin", "test", wasm, "--fixtures", "tests/fixtures"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(out(&o).contains(&format!("✔ {case}")), "{}", show(&o));
}

/// `plugin new --lang c`: the scaffold (analyzer.c, the interface, build.sh,
/// the same fixture as the Rust and Python ones) builds with clang for
/// wasm32-wasi and passes `plugin test`. The toolchain and the bindings /
/// component helper are the C example's: examples/plugins/build.sh installs
/// and builds them (a stamp check when scripts/test-tools already did), and
/// the scaffold's build.sh runs that helper (its own `tools/componentize`
/// is a copy of the same source, embedded in the binary).
#[test]
fn plugin_new_c_scaffold_builds_and_passes_plugin_test() {
    let work = tempfile::tempdir().unwrap();
    let o = run(portolan(work.path()).args(["plugin", "new", "acme-c", "--lang", "c"]));
    assert!(o.status.success(), "{}", show(&o));
    let project = work.path().join("acme-c");
    for f in [
        "analyzer.c",
        "build.sh",
        "wit/analyzer.wit",
        "README.md",
        "tools/componentize/Cargo.toml",
        "tools/componentize/Cargo.lock",
        "tools/componentize/src/main.rs",
        "tests/fixtures/python_acme_c/basic/app/server.py",
        "tests/fixtures/python_acme_c/basic/expected.json",
    ] {
        assert!(project.join(f).is_file(), "{f} missing\n{}", show(&o));
    }
    let wit = fs::read_to_string(project.join("wit/analyzer.wit")).unwrap();
    let vendored = fs::read_to_string(repo().join("plugin-sdk/wit/analyzer.wit")).unwrap();
    assert_eq!(wit, vendored);
    // The analyzer declares the interface version of the WIT it carries.
    let version = vendored
        .lines()
        .find_map(|l| l.trim().strip_prefix("package portolan:analyzer@"))
        .map(|v| v.trim_end_matches(';').to_string())
        .expect("package line in analyzer.wit");
    let source = fs::read_to_string(project.join("analyzer.c")).unwrap();
    assert!(
        source.contains(&format!("#define INTERFACE_VERSION \"{version}\"")),
        "{source}"
    );
    let bad =
        run(portolan(work.path()).args(["plugin", "new", "x", "--lang", "c", "--sdk-path", "sdk"]));
    assert_eq!(bad.status.code(), Some(2), "{}", show(&bad));

    let examples = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example-plugins");
    let prep = Command::new("bash")
        .arg(repo().join("examples/plugins/build.sh"))
        .arg("c")
        .env("PORTOLAN_EXAMPLES_OUT", &examples)
        .output()
        .expect("run examples/plugins/build.sh");
    if prep.status.code() == Some(75) {
        eprintln!(
            "SKIPPED: no clang able to target wasm32-wasi here:\n{}",
            err(&prep)
        );
        return;
    }
    assert!(prep.status.success(), "{}", show(&prep));
    build_and_plugin_test(
        &project,
        (
            "PORTOLAN_COMPONENTIZE",
            examples.join("tools/debug/portolan-componentize"),
        ),
        "acme_c.wasm",
        "python_acme_c/basic",
    );
}

/// The fenced blocks of docs/plugins.md marked `<!-- walkthrough: KEY -->`
/// (the line before the fence), by key.
fn walkthrough_blocks() -> Vec<(String, String)> {
    let doc = fs::read_to_string(repo().join("docs/plugins.md")).unwrap();
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(key) = line
            .trim()
            .strip_prefix("<!-- walkthrough:")
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        let fence = lines.next().unwrap_or_default();
        assert!(
            fence.starts_with("```"),
            "{key}: no code block after the marker"
        );
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        blocks.push((key.trim().to_string(), body.join("\n") + "\n"));
    }
    blocks
}

/// docs/plugins.md's two-file prefix walk-through, taken from the page
/// itself: its analyzer (on the SDK's `python` feature) replaces the Rust
/// scaffold's `src/lib.rs`, its fixture files are written where it says,
/// the crate is built for wasm32-wasip2 against a copy of the SDK, still
/// passes the scaffold's own case with `plugin test`, and a scan of the
/// walk-through's tree prints exactly the page's output block. Built in the
/// same target directory as the bundle (see the scaffold test above), so
/// only the SDK copy and the crate compile.
#[test]
fn docs_two_file_prefix_walkthrough_builds_and_scans() {
    let blocks = walkthrough_blocks();
    let block = |key: &str| -> &str {
        blocks
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, b)| b.as_str())
            .unwrap_or_else(|| panic!("docs/plugins.md has no walkthrough block `{key}`"))
    };
    let work = tempfile::tempdir().unwrap();
    copy_tree(
        &repo().join("plugin-sdk"),
        &work.path().join("vendor/plugin-sdk"),
    );
    let o = run(portolan(work.path()).args([
        "plugin",
        "new",
        "acme-web",
        "--sdk-path",
        "vendor/plugin-sdk",
    ]));
    assert!(o.status.success(), "{}", show(&o));
    let krate = work.path().join("acme-web");
    // The dependency line of the page replaces the scaffold's; the crate is
    // renamed so that its component does not clash with the scaffold test's
    // `acme_web.wasm` in the shared target directory.
    let manifest = fs::read_to_string(krate.join("Cargo.toml")).unwrap();
    let dependency = block("dependency").trim();
    let mut replaced = 0;
    let manifest: String = manifest
        .lines()
        .map(|l| {
            if l.starts_with("portolan-plugin-sdk =") {
                replaced += 1;
                dependency.to_string()
            } else if l == "name = \"acme-web\"" {
                "name = \"acme-web-walkthrough\"".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(replaced, 1, "{manifest}");
    fs::write(krate.join("Cargo.toml"), manifest + "\n").unwrap();
    let mut case = None;
    for (key, body) in &blocks {
        if key == "dependency" || key == "output" {
            continue;
        }
        let path = krate.join(key);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, body).unwrap();
        if let Some(i) = key.find("/app/") {
            case = Some(krate.join(&key[..i]));
        }
    }
    let case = case.expect("the walk-through has fixture files under .../app/");
    fs::copy(repo().join("plugins/Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let target = Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf();
    let b = run(cargo(&krate, &target).args([
        "build",
        "--offline",
        "--quiet",
        "--release",
        "--target",
        "wasm32-wasip2",
    ]));
    assert!(
        b.status.success(),
        "wasm build of the walk-through failed:\n{}",
        show(&b)
    );
    let wasm = target.join("wasm32-wasip2/release/acme_web_walkthrough.wasm");
    let o = run(portolan(&krate)
        .args(["plugin", "test"])
        .arg(&wasm)
        .args(["--fixtures", "tests/fixtures"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(out(&o).contains("✔ python_acme_web/basic"), "{}", show(&o));
    let o = run(portolan(&case)
        .args(["-b", "app", "-f", "json", "--no-log", "--disable-builtin"])
        .arg("--plugin")
        .arg(&wasm));
    assert!(o.status.success(), "{}", show(&o));
    let lines: Vec<String> = json(&o)["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let at = &e["details"]["code_paths"][0];
            format!(
                "{} {} {}:{}",
                e["method"].as_str().unwrap(),
                e["url"].as_str().unwrap(),
                at["path"].as_str().unwrap(),
                at["line"]
            )
        })
        .collect();
    assert_eq!(lines.join("\n") + "\n", block("output"), "{}", show(&o));
}
