//! End-to-end tests: run the real `portolan` binary on trees and compare its
//! exact output.
//!
//! Fixture cases live in `tests/fixtures/<tech>/<case>/`: `app/` is the tree
//! scanned (as `-b app`, from the case directory), `expected.json` the exact
//! report, and an optional `args` file holds extra flags, one per line.
//! `PORTOLAN_BLESS=1 cargo test` rewrites expected files from actual output;
//! review every such diff by hand before committing it.

mod common;

use common::copy_tree;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A cache shared by the tests (compiling a plugin costs ~1 s), and an empty
/// user plugin directory so a developer's own plugins never leak in.
fn shared_env() -> &'static (PathBuf, PathBuf) {
    static DIRS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests");
        let cache = base.join("cache");
        let plugins = base.join("no-user-plugins");
        // The compiled plugins are kept between runs; the analyzers'
        // results are not, so each run's first scan of a tree is cold.
        let _ = fs::remove_dir_all(cache.join("results"));
        fs::create_dir_all(&cache).unwrap();
        fs::create_dir_all(&plugins).unwrap();
        (cache, plugins)
    })
}

fn portolan(cwd: &Path) -> Command {
    let (cache, plugins) = shared_env();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", plugins)
        .env_remove("NO_COLOR")
        .env_remove("PORTOLAN_MAX_FILE_SIZE");
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run portolan")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            stdout(o),
            stderr(o)
        )
    })
}

fn test_plugin(name: &str) -> PathBuf {
    Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR")).join(format!("test_plugin_{name}.wasm"))
}

fn urls(report: &Value) -> Vec<String> {
    report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e["method"].as_str().unwrap(),
                e["url"].as_str().unwrap()
            )
        })
        .collect()
}

fn bless() -> bool {
    std::env::var_os("PORTOLAN_BLESS").is_some_and(|v| v == "1")
}

/// Compare a JSON report with a golden file; on mismatch show both.
fn assert_golden_json(actual: &Value, golden: &Path) {
    if bless() {
        fs::write(golden, serde_json::to_string_pretty(actual).unwrap() + "\n").unwrap();
        return;
    }
    let expected: Value = serde_json::from_str(
        &fs::read_to_string(golden).unwrap_or_else(|e| panic!("read {}: {e}", golden.display())),
    )
    .unwrap_or_else(|e| panic!("{} is not JSON: {e}", golden.display()));
    if *actual != expected {
        panic!(
            "report differs from {}\n--- expected\n{}\n--- actual\n{}",
            golden.display(),
            serde_json::to_string_pretty(&expected).unwrap(),
            serde_json::to_string_pretty(actual).unwrap()
        );
    }
}

// ---------------------------------------------------------------- fixtures

fn fixture_cases() -> Vec<PathBuf> {
    let mut cases = Vec::new();
    let root = repo().join("tests").join("fixtures");
    for tech in fs::read_dir(&root).into_iter().flatten().flatten() {
        for case in fs::read_dir(tech.path()).into_iter().flatten().flatten() {
            if case.path().join("expected.json").exists()
                || (bless() && case.path().join("app").is_dir())
            {
                cases.push(case.path());
            }
        }
    }
    cases.sort();
    cases
}

/// `--stats`' results cache counts: (reused, analyzed, stored).
fn cache_counts(o: &Output) -> (usize, usize, usize) {
    let line = stderr(o)
        .lines()
        .find_map(|l| {
            l.strip_prefix("[stats] results cache: ")
                .map(str::to_string)
        })
        .unwrap_or_default();
    let n: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    match n.as_slice() {
        [a, b, c, ..] => (*a, *b, *c),
        _ => (0, 0, 0),
    }
}

/// Every case against its `expected.json`, then scanned again warm (the
/// results cache filled by the first scan): the same bytes, with nothing
/// analyzed again that the first scan stored (failed batches and batches
/// whose plugin warned are not stored).
#[test]
fn fixture_reports_match_exactly() {
    let cases = fixture_cases();
    assert!(!cases.is_empty(), "no fixture cases found");
    // One case's failures (none when it passes); the cases run in parallel.
    let check = |case: &PathBuf| -> Vec<String> {
        let mut failures = Vec::new();
        let scan = || {
            let mut cmd = portolan(case);
            cmd.args(["-b", "app", "-f", "json", "--no-log", "--stats"]);
            if let Ok(extra) = fs::read_to_string(case.join("args")) {
                cmd.args(extra.lines().map(str::trim).filter(|l| !l.is_empty()));
            }
            run(&mut cmd)
        };
        let out = scan();
        if !out.status.success() {
            failures.push(format!(
                "{}: exit {:?}\n{}",
                case.display(),
                out.status.code(),
                stderr(&out)
            ));
            return failures;
        }
        let actual = json(&out);
        let golden = case.join("expected.json");
        if let Err(e) = std::panic::catch_unwind(|| assert_golden_json(&actual, &golden)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "mismatch".into());
            failures.push(msg);
        }
        let warm = scan();
        if warm.stdout != out.stdout {
            failures.push(format!(
                "{}: the warm rescan differs from the cold scan\n--- cold\n{}\n--- warm\n{}",
                case.display(),
                stdout(&out),
                stdout(&warm)
            ));
        }
        // Every batch the cold scan stored is reused: the warm scan
        // analyzes only what the cold one could not store (a failed batch,
        // or one whose plugin warned, so the warning shows again).
        let (_, cold_analyzed, cold_stored) = cache_counts(&out);
        let (_, warm_analyzed, _) = cache_counts(&warm);
        if warm_analyzed > cold_analyzed - cold_stored.min(cold_analyzed) {
            failures.push(format!(
                "{}: the warm rescan analyzed batches the cold scan had stored:\n{}\n--- cold\n{}",
                case.display(),
                stderr(&warm),
                stderr(&out)
            ));
        }
        failures
    };
    let failures: Vec<String> = common::par_map(&cases, check)
        .into_iter()
        .flatten()
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} fixture cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Walk-stage behaviour that a plugin's own fixture runner cannot see
/// (it hands every file to the analyzer): `tests/fixtures-walk/<case>/`,
/// same layout as `tests/fixtures`. `minified-bundle`: hashed and `.min`
/// bundles beside real routers are skipped before any analyzer runs.
#[test]
fn walk_fixtures_match_exactly() {
    let root = repo().join("tests").join("fixtures-walk");
    let mut cases: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("app").is_dir())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no walk fixture in {}", root.display());
    for case in &cases {
        let out = run(portolan(case).args(["-b", "app", "-f", "json", "--no-log"]));
        assert!(out.status.success(), "{}: {}", case.display(), stderr(&out));
        assert_golden_json(&json(&out), &case.join("expected.json"));
    }
}

// ---------------------------------------------------------------- example

#[test]
fn example_app_json_and_plain_are_exact() {
    let root = repo();
    let out = run(portolan(&root).args(["-b", "examples/flask-shop", "-f", "json", "--no-log"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_golden_json(&json(&out), &root.join("tests/golden/flask-shop.json"));

    let out = run(portolan(&root).args(["-b", "examples/flask-shop", "--no-log"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let golden = root.join("tests/golden/flask-shop.plain");
    if bless() {
        fs::write(&golden, stdout(&out)).unwrap();
    } else {
        let expected = fs::read_to_string(&golden).unwrap();
        pretty_assertions::assert_eq!(expected, stdout(&out));
    }
}

// ---------------------------------------------------------------- sandbox

/// A tree with a small Flask app and a file that triggers the test plugins.
fn misbehave_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(
        app.join("main.py"),
        "from flask import Flask, request\n\napp = Flask(__name__)\n\n\n@app.route('/health')\ndef health():\n    return 'ok'\n\n\n@app.post('/items')\ndef create():\n    return request.json['name']\n",
    )
    .unwrap();
    fs::write(app.join("trigger.misbehave"), "go\n").unwrap();
    fs::write(dir.path().join("outside.txt"), "must not leak").unwrap();
    let secret = dir.path().join("secret");
    fs::create_dir_all(&secret).unwrap();
    fs::write(secret.join("secret.txt"), "must not leak").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, app.join("link-out")).unwrap();
    dir
}

/// Run with one misbehaving plugin; the Flask endpoints must survive.
fn run_misbehaving(plugin: &str, extra: &[&str]) -> (Output, Value) {
    let tree = misbehave_tree();
    let path = test_plugin(plugin);
    assert!(path.exists(), "{} was not built", path.display());
    let mut cmd = portolan(tree.path());
    cmd.args(["-b", "app", "-f", "json", "--plugin"])
        .arg(&path)
        .args(extra);
    let out = run(&mut cmd);
    let report = json(&out);
    let found = urls(&report);
    assert!(
        found.contains(&"GET /health".to_string()) && found.contains(&"POST /items".to_string()),
        "the Flask analyzer's endpoints must survive a misbehaving plugin; got {found:?}\n{}",
        stderr(&out)
    );
    (out, report)
}

fn assert_contained(out: &Output, report: &Value, plugin: &str, needle: &str) {
    assert_eq!(
        out.status.code(),
        Some(4),
        "exit status says a plugin failed\n{}",
        stderr(out)
    );
    let err = stderr(out);
    assert!(
        err.contains(&format!("plugin `{plugin}`")) && err.contains(needle),
        "stderr must name `{plugin}` and say `{needle}`:\n{err}"
    );
    let errors = report["errors"]
        .as_array()
        .expect("errors listed in the JSON report");
    assert!(
        errors
            .iter()
            .any(|e| e["plugin"] == plugin && e["message"].as_str().unwrap().contains(needle)),
        "{errors:?}"
    );
}

#[test]
fn plugin_that_loops_forever_is_stopped() {
    let started = std::time::Instant::now();
    let (out, report) = run_misbehaving("looper", &["--plugin-timeout", "1"]);
    assert_contained(&out, &report, "test_loop", "per-call time limit");
    assert!(started.elapsed().as_secs() < 30, "stopped promptly");
}

#[test]
fn plugin_that_eats_memory_is_stopped() {
    let (out, report) = run_misbehaving("memhog", &["--plugin-memory", "64"]);
    assert_contained(&out, &report, "test_memory", "more than 64 MiB of memory");
}

#[test]
fn plugin_that_panics_is_reported_with_its_message() {
    let (out, report) = run_misbehaving("panicker", &[]);
    assert_contained(
        &out,
        &report,
        "test_panic",
        "panicked: cannot make sense of app/trigger.misbehave",
    );
}

#[test]
fn plugin_returning_a_huge_result_is_refused() {
    let (out, report) = run_misbehaving("flood", &[]);
    assert_contained(&out, &report, "test_flood", "over the 32 MiB limit");
    assert!(!urls(&report).iter().any(|u| u.contains("/flood/")));
}

#[test]
fn plugin_cannot_read_outside_the_base_path() {
    let (out, report) = run_misbehaving("escaper", &[]);
    let found = urls(&report);
    assert!(!found.iter().any(|u| u.contains("/leaked")), "{found:?}");
    assert!(
        found.contains(&"GET /inside-read-ok".to_string()),
        "reads inside the base work: {found:?}"
    );
    let err = stderr(&out);
    for target in ["/etc/hostname", "../outside.txt", "link-out/secret.txt"] {
        assert!(
            err.contains(&format!(
                "plugin `test_escape` asked to read `{target}`: refused"
            )),
            "refusal of {target} logged:\n{err}"
        );
    }
    assert!(err.contains("outside the scanned base paths"));
}

#[test]
fn plugin_for_an_incompatible_interface_is_refused() {
    let (out, report) = run_misbehaving("oldiface", &[]);
    assert_contained(
        &out,
        &report,
        "test_plugin_oldiface",
        "built for plugin interface 9.0.0 but this portolan speaks 0.3.0; rebuild it against portolan-plugin-sdk 0.3.0",
    );
}

#[test]
fn all_misbehaving_plugins_at_once() {
    let tree = misbehave_tree();
    let mut cmd = portolan(tree.path());
    cmd.args([
        "-b",
        "app",
        "-f",
        "json",
        "--no-log",
        "--plugin-timeout",
        "1",
        "--plugin-memory",
        "64",
    ]);
    for p in [
        "looper", "memhog", "panicker", "flood", "escaper", "oldiface",
    ] {
        cmd.arg("--plugin").arg(test_plugin(p));
    }
    let out = run(&mut cmd);
    assert_eq!(out.status.code(), Some(4));
    let report = json(&out);
    let found = urls(&report);
    assert!(found.contains(&"GET /health".to_string()), "{found:?}");
    let failed: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["plugin"].as_str().unwrap())
        .collect();
    for p in [
        "test_loop",
        "test_memory",
        "test_panic",
        "test_flood",
        "test_plugin_oldiface",
    ] {
        assert!(failed.contains(&p), "{p} reported: {failed:?}");
    }
}

// ---------------------------------------------------------------- cache

#[test]
fn second_run_compiles_no_plugin() {
    let cache = tempfile::tempdir().unwrap();
    let tree = misbehave_tree();
    let scan = |extra: &[&str]| {
        let mut cmd = portolan(tree.path());
        cmd.env("PORTOLAN_CACHE_DIR", cache.path())
            .args(["-b", "app", "-d"])
            .args(extra);
        let out = run(&mut cmd);
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let first = scan(&[]);
    assert!(first.contains("compiling plugin `python`"), "{first}");
    let second = scan(&[]);
    assert!(
        !second.contains("compiling plugin"),
        "second run compiled something:\n{second}"
    );
    assert!(
        second.contains("loaded plugin `python` from cache"),
        "{second}"
    );
    assert!(
        !second.contains("compiling plugin `specs`") && !second.contains("loaded plugin `specs`"),
        "undetected plugins are not loaded:\n{second}"
    );
    let bypass = scan(&["--no-cache"]);
    assert!(bypass.contains("compiling plugin `python`"), "{bypass}");
}

// ---------------------------------------------------------------- CLI

#[test]
fn plain_output_and_scan_subcommand() {
    let tree = misbehave_tree();
    let out = run(portolan(tree.path()).args(["scan", "-b", "app", "--no-log"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "GET /health\nPOST /items {\"name\":\"\"}\n");
    assert!(
        stderr(&out).is_empty(),
        "--no-log leaves only the report: {}",
        stderr(&out)
    );
    let out = run(portolan(tree.path()).args(["-b", "app", "--include-path", "--no-color"]));
    assert_eq!(
        stdout(&out),
        "GET /health (app/main.py:6)\nPOST /items {\"name\":\"\"} (app/main.py:11)\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("[*] Detecting technologies")
            && err.contains("✔ Finally identified 2 endpoints.")
            && err.contains("Scan completed in"),
        "{err}"
    );
    assert!(
        !err.contains('\x1b'),
        "no colour when stderr is not a terminal"
    );
}

#[test]
fn output_file_gets_exactly_the_report() {
    let tree = misbehave_tree();
    let file = tree.path().join("report.json");
    let out = run(portolan(tree.path()).args(["-b", "app", "-f", "json", "-o", "report.json"]));
    assert!(out.status.success());
    assert!(out.stdout.is_empty(), "stdout stays clean with -o");
    let direct = run(portolan(tree.path()).args(["-b", "app", "-f", "json", "--no-log"]));
    assert_eq!(fs::read(file).unwrap(), direct.stdout);
}

#[test]
fn usage_errors_have_distinct_exit_codes() {
    let tree = misbehave_tree();
    let out = run(portolan(tree.path()).args(["-b", "nope"]));
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("base path nope does not exist"));
    let out = run(portolan(tree.path()).args(["-b", "app", "-f", "xml"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown output format `xml`"));
    let out = run(portolan(tree.path()).args(["-b", "app", "--send-req"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--send-req needs -u <base URL>"));
    let out = run(portolan(tree.path()).args(["-b", "app", "-t", "cobol_magic"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown technology `cobol_magic`"));
    let out = run(portolan(tree.path()).args(["--bogus"]));
    assert_eq!(out.status.code(), Some(2));
    let out = run(portolan(tree.path()).args(["-v"]));
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).trim(),
        format!("portolan {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn techs_can_be_excluded_and_listed() {
    let tree = misbehave_tree();
    let out =
        run(portolan(tree.path()).args(["-b", "app", "--exclude-techs", "flask", "-f", "json"]));
    assert!(out.status.success());
    assert_eq!(json(&out)["endpoints"], serde_json::json!([]));
    assert!(stderr(&out).contains("python_flask (skip)"));
    let out = run(portolan(tree.path()).args(["--list-techs"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Available technologies:\n"));
    assert!(
        text.contains(" python_flask\n   framework: Flask\n   language: Python\n"),
        "{text}"
    );
    assert!(text.contains(" oas3\n"), "{text}");
    let out = run(portolan(tree.path()).args(["--list-techs", "-f", "json"]));
    let ids: Vec<String> = json(&out)["techs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    assert!(ids.contains(&"python_flask".to_string()) && ids.contains(&"oas3".to_string()));
}

#[test]
fn base_url_prefixes_endpoints() {
    let tree = misbehave_tree();
    let out =
        run(portolan(tree.path()).args(["-b", "app", "-u", "http://localhost:5000/", "--no-log"]));
    assert_eq!(
        stdout(&out),
        "GET http://localhost:5000/health\nPOST http://localhost:5000/items {\"name\":\"\"}\n"
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_files_are_skipped_not_fatal() {
    let tree = misbehave_tree();
    let app = tree.path().join("app");
    fs::remove_file(app.join("trigger.misbehave")).unwrap();
    // Binary with a .py name (mostly NUL and control bytes, as compiled or
    // packed data is: a stray NUL in a text file no longer makes it binary,
    // see tests/security.rs), invalid UTF-8 in a real route file, an
    // over-size file, and a symlink loop.
    let mut blob = b"from flask import Flask\n@app.route('/binary')\n".to_vec();
    blob.extend((0..512u32).map(|i| (i % 7) as u8));
    fs::write(app.join("blob.py"), blob).unwrap();
    fs::write(
        app.join("latin1.py"),
        b"from flask import Flask\napp = Flask(__name__)\n# caf\xe9\n@app.route('/caf\xe9')\ndef cafe():\n    return ''\n",
    )
    .unwrap();
    let big = format!(
        "from flask import Flask\n@app.route('/big')\n{}",
        "#\n".repeat(600_000)
    );
    fs::write(app.join("huge.py"), big).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&app, app.join("loop")).unwrap();
    let out = run(portolan(tree.path())
        .env("PORTOLAN_MAX_FILE_SIZE", "1M")
        .args(["-b", "app", "-f", "json", "-d"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let found = urls(&json(&out));
    assert!(found.contains(&"GET /caf\u{fffd}".to_string()), "{found:?}");
    assert!(
        !found
            .iter()
            .any(|u| u.contains("/binary") || u.contains("/big")),
        "{found:?}"
    );
    let err = stderr(&out);
    assert!(
        err.contains("skipping binary file")
            && err.contains("over the size cap")
            && err.contains("symlink"),
        "{err}"
    );
}

// ------------------------------------------------------- shadow and taggers

/// (method, url) of the endpoints carrying tag `name`.
fn tagged(report: &Value, name: &str) -> Vec<(String, String)> {
    report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["tags"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["name"] == name)
        })
        .map(|e| {
            (
                e["method"].as_str().unwrap().to_string(),
                e["url"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn spec_documents_outside_the_tree_find_shadow_endpoints() {
    let example = repo().join("examples/flask-shop");
    let omitted = vec![
        ("GET".to_string(), "/api/v1/admin/debug/routes".to_string()),
        ("GET".to_string(), "/api/v1/orders/export".to_string()),
    ];
    // Without a document there is nothing to compare with.
    let bare = ["-b", ".", "-f", "json", "--exclude-path", "openapi.yaml"];
    let out = run(portolan(&example).args(bare));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(tagged(&json(&out), "shadow").is_empty());
    // The same document, given from outside the tree with --spec.
    let tmp = tempfile::tempdir().unwrap();
    let doc = tmp.path().join("published-openapi.yaml");
    fs::copy(example.join("openapi.yaml"), &doc).unwrap();
    let out = run(portolan(&example)
        .args(bare)
        .arg("--spec")
        .arg(&doc)
        .arg("--no-color"));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(tagged(&report, "shadow"), omitted);
    assert!(tagged(&report, "spec_only").is_empty());
    let tag = report["endpoints"][1]["tags"][0].clone();
    assert_eq!(tag["tagger"], "Shadow");
    assert!(tag["description"]
        .as_str()
        .unwrap()
        .contains("undocumented"));
    // Documented routes are merged with the code and list both places.
    let documented = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["url"] == "/api/v1/catalog/categories")
        .unwrap();
    let places: Vec<&str> = documented["details"]["code_paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(places.len(), 2, "{places:?}");
    assert!(places[1].ends_with("published-openapi.yaml"), "{places:?}");
    assert!(
        stderr(&out).contains("2 shadow endpoints"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn documented_routes_missing_from_the_code_are_spec_only() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(
        app.join("main.py"),
        "from flask import Flask\napp = Flask(__name__)\n\n@app.get('/users/<int:uid>')\ndef user(uid):\n    return {}\n\n@app.post('/internal/flush')\ndef flush():\n    return {}\n",
    )
    .unwrap();
    fs::write(
        app.join("openapi.json"),
        r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
"paths": {"/users/{uid}": {"get": {"responses": {"200": {"description": "ok"}}}},
"/users": {"get": {"responses": {"200": {"description": "ok"}}}}}}"#,
    )
    .unwrap();
    let out = run(portolan(tmp.path()).args(["-b", "app", "-f", "json", "--no-log"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    let pair = |m: &str, u: &str| vec![(m.to_string(), u.to_string())];
    assert_eq!(tagged(&report, "shadow"), pair("POST", "/internal/flush"));
    assert_eq!(tagged(&report, "spec_only"), pair("GET", "/users"));
    let out = run(portolan(tmp.path()).args(["-b", "app", "--no-log"]));
    assert_eq!(
        stdout(&out),
        "GET /users/<int:uid>\nPOST /internal/flush shadow\nGET /users spec_only\n"
    );
}

#[test]
fn unusable_spec_documents_are_reported_and_the_scan_goes_on() {
    let tree = misbehave_tree();
    fs::write(tree.path().join("notes.txt"), "just text\n").unwrap();
    let out = run(portolan(tree.path()).args([
        "-b",
        "app",
        "--spec",
        "notes.txt",
        "--no-color",
        "-f",
        "json",
    ]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--spec notes.txt: no specification analyzer recognises"),
        "{}",
        stderr(&out)
    );
    assert_eq!(urls(&json(&out)).len(), 2);
    let out = run(portolan(tree.path()).args(["-b", "app", "--spec", "missing.yaml"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--spec missing.yaml: no such file"));
}

#[test]
fn optional_taggers_run_when_asked_and_are_listed() {
    let example = repo().join("examples/flask-shop");
    let out = run(portolan(&example).args(["-b", ".", "-f", "json", "--no-log"]));
    let plain_tags = |r: &Value, name: &str| tagged(r, name).len();
    let report = json(&out);
    assert_eq!(plain_tags(&report, "jwt"), 0, "taggers are opt-in");
    let out = run(portolan(&example).args([
        "-b",
        ".",
        "-f",
        "json",
        "--no-log",
        "--use-taggers",
        "jwt,file_upload",
    ]));
    let report = json(&out);
    assert_eq!(
        tagged(&report, "file_upload"),
        vec![("POST".to_string(), "/api/v1/admin/products".to_string())]
    );
    let jwt = tagged(&report, "jwt");
    assert!(!jwt.is_empty());
    assert!(
        jwt.iter().all(|(_, u)| u.starts_with("/api/v1/auth/")),
        "{jwt:?}"
    );
    assert_eq!(
        tagged(&report, "shadow").len(),
        2,
        "always-on taggers still run"
    );
    // -T: hunt tags parameters.
    let out = run(portolan(&example).args(["-b", ".", "-f", "json", "--no-log", "-T"]));
    let report = json(&out);
    let sort = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["params"].as_array().unwrap())
        .find(|p| p["name"] == "sort")
        .unwrap();
    assert_eq!(sort["tags"][0]["name"], "sqli");
    assert_eq!(sort["tags"][0]["tagger"], "Hunt");

    let out = run(portolan(&example).args(["-b", ".", "--use-taggers", "hunt,nope"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown tagger `nope`"));
    let out = run(portolan(&example).args(["--list-taggers"]));
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("Available taggers:\n websocket\n   name: WebSocket\n"));
    for id in [
        "shadow",
        "hunt",
        "oauth",
        "cors",
        "soap",
        "graphql",
        "jwt",
        "file_upload",
        "auth",
        "admin",
        "pii",
        "payment",
        "crypto",
        "webhook",
        "debug",
        "api_docs",
        "account_recovery",
        "mcp",
    ] {
        assert!(text.contains(&format!("\n {id}\n")), "{id}: {text}");
    }
    let out = run(portolan(&example).args(["--list-taggers", "-f", "json"]));
    assert_eq!(json(&out)["taggers"].as_array().unwrap().len(), 19);
}

// ------------------------------------------------------- base path spelling

/// `METHOD url` of every endpoint, sorted.
fn method_urls(report: &Value) -> Vec<String> {
    let mut out = urls(report);
    out.sort();
    out
}

/// Test-code detection looks only below the base: an app checked out under a
/// `tests/` or `spec/` folder (absolute or relative base path) is reported in
/// full, while the app's own `tests/` folder is still skipped.
#[test]
fn base_path_under_a_test_folder_still_reports_the_app() {
    let root = repo();
    let expected = method_urls(
        &serde_json::from_str(
            &fs::read_to_string(root.join("tests/golden/flask-shop.json")).unwrap(),
        )
        .unwrap(),
    );
    assert!(expected.len() > 5);
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("tests/spec/flask-shop");
    copy_tree(&root.join("examples/flask-shop"), &app);
    let absolute = app.to_string_lossy().into_owned();
    for (cwd, base) in [
        (tmp.path(), "tests/spec/flask-shop"),
        (tmp.path(), absolute.as_str()),
        (app.as_path(), "."),
    ] {
        let out = run(portolan(cwd).args(["-b", base, "-f", "json", "--no-log"]));
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(method_urls(&json(&out)), expected, "-b {base}");
    }
}

/// Build-output and third-party directory names (`target/`, `build/`,
/// `dist/`, `vendor/`) are judged only below the base: an app checked out
/// under such a folder (CI workspaces often are) gets the same report as
/// from anywhere else.
#[test]
fn base_path_under_a_build_folder_still_reports_the_app() {
    let root = repo();
    for fixture in [
        "tests/fixtures/rust_axum/workspace/app",
        "tests/fixtures/go_gin/groups/app",
        "tests/fixtures/php_symfony/store/app",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let plain = tmp.path().join("checkout/app");
        copy_tree(&root.join(fixture), &plain);
        let scan = |cwd: &Path, base: &str| {
            let out = run(portolan(cwd).args(["-b", base, "-f", "json", "--no-log"]));
            assert!(out.status.success(), "{}", stderr(&out));
            method_urls(&json(&out))
        };
        let expected = scan(tmp.path(), "checkout/app");
        assert!(expected.len() > 2, "{fixture}: {expected:?}");
        for dir in ["target", "build", "dist", "vendor"] {
            let app = tmp.path().join(dir).join("app");
            copy_tree(&root.join(fixture), &app);
            let absolute = app.to_string_lossy().into_owned();
            assert_eq!(
                scan(tmp.path(), &format!("{dir}/app")),
                expected,
                "{fixture} {dir}"
            );
            assert_eq!(
                scan(tmp.path(), &absolute),
                expected,
                "{fixture} {absolute}"
            );
        }
    }
}
