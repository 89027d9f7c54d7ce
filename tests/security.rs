//! End-to-end tests of the trust model (docs/security.md): a scanned tree is
//! hostile. Its `portolan.toml` may only narrow or shape the scan; reports
//! and logs never pass control characters to the terminal; no flag or
//! config value panics; a plugin failing on some files keeps the endpoints
//! of the others; a stray NUL does not hide a source file; the issue's
//! adversarial inputs scan in linear time.
//!
//! `PORTOLAN_BIN=/path/to/portolan` runs them against another build.

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

/// No user plugins, no user config.
fn shared_env() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-security");
        for d in ["no-user-plugins", "no-user-config"] {
            fs::create_dir_all(base.join(d)).unwrap();
        }
        base
    })
}

/// The compiled-plugin cache of every end-to-end test binary (compiled once
/// per suite run by `scripts/test`).
fn shared_cache() -> PathBuf {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests/cache");
    fs::create_dir_all(&cache).unwrap();
    cache
}

/// The binary under test: `PORTOLAN_BIN` when set (to check that these
/// tests fail on an older build), else the one cargo built.
fn binary() -> PathBuf {
    std::env::var_os("PORTOLAN_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_portolan")))
}

fn portolan(cwd: &Path) -> Command {
    let base = shared_env();
    let mut cmd = Command::new(binary());
    cmd.current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", shared_cache())
        .env("PORTOLAN_PLUGIN_DIR", base.join("no-user-plugins"))
        .env("PORTOLAN_CONFIG_DIR", base.join("no-user-config"))
        .env_remove("NO_COLOR")
        .env_remove("PORTOLAN_MAX_FILE_SIZE");
    cmd
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
                "{} {}",
                e["method"].as_str().unwrap(),
                e["url"].as_str().unwrap()
            )
        })
        .collect()
}

fn test_plugin(name: &str) -> PathBuf {
    Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR")).join(format!("test_plugin_{name}.wasm"))
}

const FLASK: &str = "from flask import Flask, request\n\napp = Flask(__name__)\n\n\n@app.route('/health')\ndef health():\n    return 'ok'\n\n\n@app.post('/items')\ndef create():\n    return request.json['name']\n";

/// `tmp/app/main.py` (Flask) and `tmp/app/portolan.toml` = `config`.
fn repo_with_config(config: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(app.join("main.py"), FLASK).unwrap();
    fs::write(app.join("portolan.toml"), config).unwrap();
    tmp
}

fn no_control_chars(text: &str) -> bool {
    !text.chars().any(|c| c.is_control() && c != '\n')
}

// ------------------------------------------------------ repository config

#[test]
fn a_repo_config_url_never_receives_requests_or_the_users_headers() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let seen = hits.clone();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = stop.clone();
    let server = std::thread::spawn(move || {
        while !stopped.load(Ordering::SeqCst) {
            match listener.accept() {
                Ok((mut s, _)) => {
                    seen.fetch_add(1, Ordering::SeqCst);
                    let mut buf = [0u8; 4096];
                    let _ = s.read(&mut buf);
                }
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
            }
        }
    });
    let tmp = repo_with_config(&format!("url = \"http://127.0.0.1:{port}\"\n"));
    let o = run(portolan(tmp.path()).args([
        "-b",
        "app",
        "-f",
        "json",
        "--send-req",
        "--with-headers",
        "Authorization: Bearer s3cret",
    ]));
    stop.store(true, Ordering::SeqCst);
    server.join().unwrap();
    assert_eq!(hits.load(Ordering::SeqCst), 0, "{}", show(&o));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let e = err(&o);
    assert!(e.contains("--send-req needs -u"), "{}", show(&o));
    assert!(
        e.contains("`url` is ignored") && e.contains("portolan.toml"),
        "{}",
        show(&o)
    );
    // Without delivery the report is not rebased on the repo's URL either.
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(!out(&o).contains("127.0.0.1"), "{}", show(&o));
}

#[test]
fn a_repo_config_output_never_writes_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    fs::create_dir_all(&victim).unwrap();
    let absolute = victim.join("abs.txt");
    for output in [
        "../victim/.bashrc".to_string(),
        absolute.display().to_string(),
    ] {
        let repo = repo_with_config(&format!("output = {output:?}\nformat = \"plain\"\n"));
        // Also a path through a symlink in the tree.
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, repo.path().join("app/link")).unwrap();
        let o = run(portolan(repo.path()).args(["-b", "app"]));
        assert!(o.status.success(), "{}", show(&o));
        assert!(
            out(&o).contains("GET /health"),
            "report on stdout: {}",
            show(&o)
        );
        assert!(
            err(&o).contains("`output` is ignored"),
            "{output}: {}",
            show(&o)
        );
        assert!(!repo.path().join("victim/.bashrc").exists());
        assert_eq!(fs::read_dir(&victim).unwrap().count(), 0, "{output}");
    }
    let repo = repo_with_config("output = \"link/x.txt\"\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&victim, repo.path().join("app/link")).unwrap();
    let o = run(portolan(repo.path()).args(["-b", "app"]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(fs::read_dir(&victim).unwrap().count(), 0);
}

#[test]
fn a_repo_config_cannot_choose_the_plugins() {
    let tmp = repo_with_config(
        "plugin = [\".hidden.wasm\"]\n[[plugins]]\nname = \"tinyflask\"\npath = \".hidden.wasm\"\n",
    );
    fs::copy(
        test_plugin("tinyflask"),
        tmp.path().join("app/.hidden.wasm"),
    )
    .unwrap();
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(
        routes(&json(&o)),
        ["GET /health", "POST /items"],
        "{}",
        show(&o)
    );
    let e = err(&o);
    assert!(
        e.contains("`plugin` is ignored") && e.contains("`[[plugins]]` is ignored"),
        "{e}"
    );
    // `disable_builtin` would hide every built-in analyzer.
    let tmp = repo_with_config("disable_builtin = true\n");
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(routes(&json(&o)).len(), 2, "{}", show(&o));
    // The same file, named with --config, is trusted.
    let tmp = repo_with_config("plugin = [\".hidden.wasm\"]\n");
    fs::copy(
        test_plugin("tinyflask"),
        tmp.path().join("app/.hidden.wasm"),
    )
    .unwrap();
    let o = run(portolan(tmp.path()).args([
        "-b",
        "app",
        "--config",
        "app/portolan.toml",
        "-f",
        "json",
    ]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(routes(&json(&o)), ["GET /from-tinyflask"], "{}", show(&o));
    assert!(!err(&o).contains("ignored"), "{}", show(&o));
}

#[test]
fn a_file_named_as_a_plugin_is_not_echoed() {
    let tmp = repo_with_config("plugin = [\"/etc/passwd\"]\n");
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert!(!err(&o).contains("root:"), "{}", show(&o));
    // Even named by the user, a text file's bytes are not printed.
    let secret = tmp.path().join("secret.wasm");
    fs::write(&secret, "TOP-SECRET-TOKEN=abc123 \x1b]0;x\x07\n").unwrap();
    let o = run(portolan(tmp.path())
        .args(["-b", "app", "-f", "json", "--plugin"])
        .arg(&secret));
    let e = err(&o);
    assert!(
        !e.contains("TOP-SECRET") && e.contains("not a WebAssembly component"),
        "{}",
        show(&o)
    );
}

#[test]
fn a_repo_config_cannot_raise_limits_and_bad_values_are_named_errors() {
    for (text, key) in [
        ("plugin_timeout = 1e8\n", "plugin_timeout"),
        ("plugin_timeout = 1e300\n", "plugin_timeout"),
        ("plugin_memory = 99999999999\n", "plugin_memory"),
        ("concurrency = 100000\n", "concurrency"),
    ] {
        // Out of range: named (key, file, range), and the scan goes on
        // without the file (a scanned tree cannot stop its own scan).
        let tmp = repo_with_config(text);
        let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
        assert_eq!(o.status.code(), Some(0), "{text}: {}", show(&o));
        let e = err(&o);
        assert!(
            e.contains(&format!("`{key}`")) && e.contains("portolan.toml") && e.contains("between"),
            "{text}: {e}"
        );
        assert!(!e.contains("panicked"), "{e}");
        assert_eq!(routes(&json(&o)), ["GET /health", "POST /items"]);
    }
    // Malformed TOML too.
    let tmp = repo_with_config("format = [json\n");
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(err(&o).contains("portolan.toml"), "{}", show(&o));
    assert_eq!(routes(&json(&o)), ["GET /health", "POST /items"]);
    // In range but above the current limit: ignored with a warning.
    let tmp = repo_with_config("plugin_memory = 4096\nplugin_timeout = 600\n");
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    let e = err(&o);
    assert!(
        e.contains("`plugin_memory` is ignored") && e.contains("`plugin_timeout` is ignored"),
        "{e}"
    );
    // Lower limits (and exclusions, formats) are fine.
    let tmp = repo_with_config("plugin_timeout = 30\nconcurrency = 1\nformat = \"only-url\"\n");
    let o = run(portolan(tmp.path()).args(["-b", "app"]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(out(&o), "/health\n/items\n");
    assert!(!err(&o).contains("ignored"), "{}", show(&o));
}

#[test]
fn huge_numbers_on_the_command_line_are_usage_errors_not_panics() {
    let tmp = repo_with_config("");
    for args in [
        &["--plugin-timeout", "1e20"][..],
        &["--plugin-timeout", "inf"],
        &["--plugin-memory", "99999999999"],
        &["--concurrency", "100000"],
        &["-u", "http://h", "--send-req", "--send-rate", "1e-300"],
    ] {
        let o = run(portolan(tmp.path()).args(["-b", "app"]).args(args));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
        assert!(
            err(&o).contains(args[args.len() - 2]) && err(&o).contains("between"),
            "{args:?}: {}",
            show(&o)
        );
    }
    let o = run(portolan(tmp.path())
        .args(["-b", "app"])
        .env("PORTOLAN_MAX_FILE_SIZE", "99999999999999G"));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

// ------------------------------------------------------ terminal escapes

const EVIL_SPEC: &str = r#"{
  "openapi": "3.0.0",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/a\u001b]0;pwned\u0007": {"get": {"parameters": [{"name": "q\u001b[2J", "in": "query", "schema": {"type": "string"}}]}},
    "/b\necho owned > /tmp/x\r": {"get": {}},
    "/c\u001b]52;c;ZWNobyBoaQ==\u0007\u0008": {"post": {"parameters": [{"name": "X-T\u001b]8;;http://e\u0007", "in": "header", "schema": {"type": "string"}}]}}
  }
}"#;

#[test]
fn control_characters_never_reach_the_terminal_and_one_endpoint_is_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(app.join("openapi.json"), EVIL_SPEC).unwrap();
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json", "--no-log"]));
    assert!(o.status.success(), "{}", show(&o));
    let report = json(&o);
    let exact = routes(&report);
    assert_eq!(exact.len(), 3, "{exact:?}");
    assert!(
        exact.iter().any(|r| r.contains("/a\u{1b}]0;pwned\u{7}")),
        "JSON keeps the exact strings: {exact:?}"
    );
    for (format, lines) in [
        ("plain", 3),
        ("curl", 3),
        ("httpie", 3),
        ("powershell", 3),
        ("markdown-table", 5),
        ("only-url", 3),
        ("only-param", 1),
        ("only-header", 1),
        ("mermaid", 0),
        ("html", 0),
    ] {
        let o = run(portolan(tmp.path()).args(["-b", "app", "--include-path", "-f", format]));
        assert!(o.status.success(), "{format}: {}", show(&o));
        let text = out(&o);
        assert!(no_control_chars(&text), "{format}:\n{text:?}");
        assert!(!text.contains("\necho owned"), "{format}:\n{text}");
        if lines > 0 {
            assert_eq!(text.lines().count(), lines, "{format}:\n{text}");
        }
        if format != "mermaid" {
            assert!(text.contains("\\x1b"), "{format} shows the escape:\n{text}");
        }
        assert!(no_control_chars(&err(&o)), "{format} log:\n{:?}", err(&o));
    }
    let plain = out(&run(portolan(tmp.path()).args(["-b", "app", "--no-log"])));
    assert!(
        plain.contains("GET /a\\x1b]0;pwned\\x07?q\\x1b[2J="),
        "{plain}"
    );
    assert!(plain.contains("GET /b\\x0aecho owned > /tmp/x"), "{plain}");
}

#[cfg(unix)]
#[test]
fn file_names_with_control_characters_are_escaped_in_reports_and_logs() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    let evil = "x\x1b]0;title\x07\n[E] forged.picky";
    fs::write(app.join(evil), "TRAP\n").unwrap();
    fs::write(app.join("good\x1b[31m.picky"), "ok\n").unwrap();
    let o = run(portolan(tmp.path())
        .args(["-b", "app", "--include-path", "--plugin"])
        .arg(test_plugin("picky")));
    assert_eq!(o.status.code(), Some(4), "{}", show(&o));
    let (text, log) = (out(&o), err(&o));
    assert!(no_control_chars(&text), "{text:?}");
    assert!(no_control_chars(&log), "{log:?}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("good\\x1b[31m.picky:1"), "{text}");
    assert!(
        !log.lines().any(|l| l.starts_with("[E] forged")),
        "no forged log line:\n{log}"
    );
    assert!(
        log.contains("x\\x1b]0;title\\x07\\x0a[E] forged.picky"),
        "{log}"
    );
    // The JSON report keeps the exact file name.
    let o = run(portolan(tmp.path())
        .args(["-b", "app", "-f", "json", "--no-log", "--plugin"])
        .arg(test_plugin("picky")));
    let report = json(&o);
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains(evil), "{message:?}");
}

// ------------------------------------------------------ partial failures

#[test]
fn a_plugin_failing_on_some_files_keeps_the_endpoints_of_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    for i in 0..3 {
        fs::write(app.join(format!("a-trap-{i}.picky")), "TRAP\n").unwrap();
    }
    for i in 0..12 {
        fs::write(app.join(format!("b-good-{i:02}.picky")), "ok\n").unwrap();
    }
    fs::write(app.join("main.py"), FLASK).unwrap();
    let o = run(portolan(tmp.path())
        .args(["-b", "app", "-f", "json", "--plugin"])
        .arg(test_plugin("picky")));
    assert_eq!(o.status.code(), Some(4), "{}", show(&o));
    let report = json(&o);
    let found = routes(&report);
    for i in 0..12 {
        assert!(
            found.contains(&format!("GET /picky/b-good-{i:02}")),
            "{found:?}\n{}",
            show(&o)
        );
    }
    assert!(found.contains(&"GET /health".to_string()));
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 3, "{errors:?}");
    for i in 0..3 {
        assert!(
            errors.iter().any(|e| e["message"]
                .as_str()
                .unwrap()
                .contains(&format!("failed on app/a-trap-{i}.picky"))),
            "{errors:?}"
        );
    }
    assert!(!err(&o).contains("switched off"), "{}", show(&o));
}

#[test]
fn a_file_that_timed_out_in_a_batch_is_not_retried_at_the_full_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(app.join("a-hang.picky"), "HANG\n").unwrap();
    for i in 0..20 {
        fs::write(app.join(format!("b-good-{i:02}.picky")), "ok\n").unwrap();
    }
    let o = run(portolan(tmp.path())
        .args([
            "-b",
            "app",
            "-f",
            "json",
            "--plugin-timeout",
            "4",
            "--plugin",
        ])
        .arg(test_plugin("picky")));
    assert_eq!(o.status.code(), Some(4), "{}", show(&o));
    let report = json(&o);
    assert_eq!(routes(&report).len(), 20, "{}", show(&o));
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let message = errors[0]["message"].as_str().unwrap();
    assert!(
        message.contains("failed on app/a-hang.picky")
            && message.contains("was stopped after running for 1 s"),
        "the retry has a shorter limit than the batch (4 s): {message}"
    );
}

#[test]
fn a_stray_nul_does_not_hide_a_route_file() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(
        app.join("main.py"),
        format!("# generated \0 header\n{FLASK}"),
    )
    .unwrap();
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(routes(&json(&o)), ["GET /health", "POST /items"]);
}

#[test]
fn spring_files_that_used_to_fail_do_not_lose_the_good_endpoints() {
    // Issue 19: three files of `@GetMapping(` and 3,000 `(` switched the
    // JVM plugin off, and the report lost all twelve good controllers.
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    let src = app.join("src/main/java/com/example");
    fs::create_dir_all(&src).unwrap();
    fs::write(
        app.join("pom.xml"),
        "<project><dependencies><dependency><groupId>org.springframework.boot</groupId>\
         <artifactId>spring-boot-starter-web</artifactId></dependency></dependencies></project>\n",
    )
    .unwrap();
    for i in 0..3 {
        fs::write(
            src.join(format!("ATrap{i}.java")),
            format!(
                "package com.example;\nimport org.springframework.web.bind.annotation.*;\n\
                 @RestController\npublic class ATrap{i} {{\n  @GetMapping({}\n",
                "(".repeat(3000)
            ),
        )
        .unwrap();
    }
    for i in 0..12 {
        fs::write(
            src.join(format!("Good{i:02}Controller.java")),
            format!(
                "package com.example;\nimport org.springframework.web.bind.annotation.*;\n\
                 @RestController\n@RequestMapping(\"/api\")\npublic class Good{i:02}Controller {{\n\
                 \x20 @GetMapping(\"/good{i:02}\")\n\
                 \x20 public String get(@RequestParam String q) {{ return q; }}\n}}\n"
            ),
        )
        .unwrap();
    }
    let o = run(portolan(tmp.path()).args(["-b", "app", "-f", "json"]));
    let report = json(&o);
    let found = routes(&report);
    for i in 0..12 {
        assert!(
            found.contains(&format!("GET /api/good{i:02}")),
            "{found:?}\n{}",
            show(&o)
        );
    }
    // Whatever fails is named, and only files of the tree are counted.
    if let Some(errors) = report["errors"].as_array() {
        for e in errors {
            let m = e["message"].as_str().unwrap_or_default();
            assert!(m.contains("ATrap"), "{m}\n{}", show(&o));
        }
    }
    assert!(!err(&o).contains("switched off"), "{}", show(&o));
}

// ------------------------------------------------------ linear time

/// Scan `app` and return the report and the wall time, after a warm-up
/// scan of `warm` (files of the same technology, so the plugin is compiled
/// and cached before the clock starts).
fn timed_scan(tmp: &Path, warm: &[(&str, &str)]) -> (Output, std::time::Duration) {
    let dir = tmp.join("warm");
    fs::create_dir_all(&dir).unwrap();
    for (name, text) in warm {
        fs::write(dir.join(name), text).unwrap();
    }
    let _ = run(portolan(tmp).args(["-b", "warm", "-f", "json", "--no-log"]));
    let t0 = std::time::Instant::now();
    let o = run(portolan(tmp).args(["-b", "app", "-f", "json", "--no-log"]));
    (o, t0.elapsed())
}

/// The issue's two quadratic inputs, each scanned in under 2 s (they took
/// the full plugin time limit, and 33 s, before). The bound is wall time
/// of the whole binary on a possibly busy machine; the 1x-vs-8x ratios of
/// every analyzer are checked by tests/fuzz/tests/scaling.rs.
/// A debug build of the host (`cargo test`) is slower outside the plugins,
/// so it gets 6 s; a release build or `PORTOLAN_BIN` gets the issue's 2 s.
fn quadratic_bound() -> std::time::Duration {
    if cfg!(debug_assertions) && std::env::var_os("PORTOLAN_BIN").is_none() {
        std::time::Duration::from_secs(6)
    } else {
        std::time::Duration::from_secs(2)
    }
}

#[test]
fn sixteen_thousand_stacked_flask_decorators_scan_in_under_two_seconds() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    let mut src = String::from("from flask import Flask, request\n\napp = Flask(__name__)\n\n");
    for i in 0..16_000 {
        src.push_str(&format!("@app.route('/r{i}')\n"));
    }
    src.push_str("def f():\n    return request.args.get('q')\n");
    fs::write(app.join("app.py"), src).unwrap();
    let (o, took) = timed_scan(tmp.path(), &[("app.py", FLASK)]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(routes(&json(&o)).len(), 16_000);
    assert!(
        took < quadratic_bound(),
        "16k stacked decorators took {took:?}"
    );
}

#[test]
fn a_go_file_of_200k_unbalanced_parentheses_scans_in_under_two_seconds() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(&app).unwrap();
    const GO_MOD: &str =
        "module example.com/a\n\ngo 1.21\n\nrequire github.com/gin-gonic/gin v1.9.0\n";
    const ROUTES: &str = "package main\n\nimport \"github.com/gin-gonic/gin\"\n\nfunc routes(r *gin.Engine) {\n\tr.GET(\"/ping\", ping)\n}\n";
    fs::write(app.join("go.mod"), GO_MOD).unwrap();
    fs::write(
        app.join("main.go"),
        format!("package main\n\n{}\n", "(".repeat(200_000)),
    )
    .unwrap();
    fs::write(app.join("routes.go"), ROUTES).unwrap();
    let (o, took) = timed_scan(tmp.path(), &[("go.mod", GO_MOD), ("routes.go", ROUTES)]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        routes(&json(&o)).contains(&"GET /ping".to_string()),
        "{}",
        show(&o)
    );
    assert!(
        took < quadratic_bound(),
        "200k unbalanced `(` took {took:?}"
    );
}

#[test]
fn list_techs_escapes_plugin_provided_text() {
    // The picky test plugin's framework name holds an OSC 0 (title) escape.
    let tmp = tempfile::tempdir().unwrap();
    let o = run(portolan(tmp.path())
        .arg("--list-techs")
        .arg("--plugin")
        .arg(test_plugin("picky")));
    assert!(o.status.success(), "{}", show(&o));
    let text = out(&o);
    assert!(no_control_chars(&text), "{text:?}");
    assert!(text.contains("Partly\\x1b]0;owned\\x07 failing"), "{text}");
}
