//! End-to-end tests of the command line and every output format, on one
//! fixture app (`tests/fixtures-formats/app`): a Flask shop with query,
//! JSON, form, header, cookie and path params, plus a WebSocket channel
//! reported by the test plugin `tests/plugins/sockets` (no bundled analyzer
//! emits WebSocket routes yet).
//!
//! - Golden files: `tests/golden/formats/<case>.<format>`, the exact stdout
//!   of `portolan -b app -f <format> --no-log …` run in the fixture
//!   directory. `PORTOLAN_BLESS=1` rewrites them: review every line.
//! - Real validators: `oas2`/`oas3` with `openapi-spec-validator` (PyPI),
//!   `sarif` against the vendored SARIF 2.1.0 schema, the HTML page in
//!   headless Chromium (console errors fail the test; the filter is driven
//!   and checked; a screenshot goes to the target directory).
//!   `scripts/test` installs the validator and Chromium.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

mod common;

const FORMATS: &[&str] = &[
    "plain",
    "json",
    "jsonl",
    "yaml",
    "toml",
    "markdown-table",
    "curl",
    "httpie",
    "powershell",
    "oas2",
    "oas3",
    "postman",
    "sarif",
    "html",
    "mermaid",
    "only-url",
    "only-param",
    "only-header",
    "only-cookie",
    "only-tag",
];

/// Values with every character the formats must escape.
const PVALUE_ARGS: &[&str] = &[
    "--set-pvalue-header",
    "X-API-Key=it's \"k\" $HOME `x`",
    "--set-pvalue-path",
    "product_id=42",
    "--set-pvalue-json",
    "name=Tea & <cake>",
    "--set-pvalue-query",
    "q=a|b",
    "--set-pvalue",
    "FUZZ",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn fixture() -> PathBuf {
    repo().join("tests").join("fixtures-formats")
}

fn golden_dir() -> PathBuf {
    repo().join("tests").join("golden").join("formats")
}

fn work_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-formats")
}

/// Cache, empty user plugin and config directories shared by the tests.
fn shared_env() -> &'static (PathBuf, PathBuf, PathBuf) {
    static DIRS: OnceLock<(PathBuf, PathBuf, PathBuf)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests");
        let dirs = (
            base.join("cache"),
            base.join("no-user-plugins"),
            base.join("no-user-config"),
        );
        for d in [&dirs.0, &dirs.1, &dirs.2] {
            fs::create_dir_all(d).unwrap();
        }
        dirs
    })
}

/// The test plugin, where host/build.rs put it (or, when the build script
/// last ran for another wasm target directory, in the default one).
fn sockets_plugin() -> PathBuf {
    let name = "test_plugin_sockets.wasm";
    let candidates = [
        Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR")).join(name),
        repo()
            .join("target/wasm-plugins/wasm32-wasip2/release")
            .join(name),
    ];
    candidates
        .iter()
        .find(|p| p.is_file())
        .unwrap_or(&candidates[0])
        .clone()
}

fn portolan(cwd: &Path) -> Command {
    let (cache, plugins, config) = shared_env();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", plugins)
        .env("PORTOLAN_CONFIG_DIR", config)
        .env_remove("NO_COLOR")
        .env_remove("PORTOLAN_MAX_FILE_SIZE");
    cmd
}

/// `portolan -b app -f FORMAT --no-log --plugin sockets EXTRA…` in the fixture.
fn scan(format: &str, extra: &[&str]) -> Output {
    let out = portolan(&fixture())
        .args(["-b", "app", "-f", format, "--no-log", "--plugin"])
        .arg(sockets_plugin())
        .args(extra)
        .output()
        .expect("run portolan");
    assert!(
        out.status.success(),
        "-f {format} {extra:?}: exit {:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "--no-log leaves only the report: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("reports are UTF-8")
}

fn bless() -> bool {
    std::env::var_os("PORTOLAN_BLESS").is_some_and(|v| v == "1")
}

/// Compare with a golden file; returns a failure description.
fn check_golden(name: &str, actual: &str) -> Option<String> {
    let path = golden_dir().join(name);
    if bless() {
        fs::create_dir_all(golden_dir()).unwrap();
        fs::write(&path, actual).unwrap();
        return None;
    }
    let expected = match fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => return Some(format!("{}: {e}", path.display())),
    };
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{} differs at line {}\n--- expected\n{}\n--- actual\n{}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>")
    ))
}

fn assert_goldens(case: &str, extra: &[&str]) {
    let failures: Vec<String> = FORMATS
        .iter()
        .filter_map(|f| check_golden(&format!("{case}.{f}"), &text(&scan(f, extra))))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------- goldens

#[test]
fn every_format_matches_its_golden_file() {
    assert_goldens("shop", &[]);
}

#[test]
fn every_format_with_values_and_base_url_matches_its_golden_file() {
    let mut extra = PVALUE_ARGS.to_vec();
    extra.extend(["-u", "http://localhost:5000/shop"]);
    assert_goldens("values", &extra);
}

#[test]
fn plain_is_the_seed_one_line_layout() {
    // Spelled out here too, so the layout is visible without the goldens.
    // Report order: by file, then line, URL and method (see
    // docs/architecture.md), so the channel file comes first.
    assert_eq!(
        text(&scan("plain", &[])),
        "GET /ws/notifications?token= Cookie: session_id= websocket realtime\n\
         GET /\n\
         GET /api/products?q=&page=\n\
         POST /api/products {\"name\":\"\",\"price\":\"\"} X-API-Key:\n\
         DELETE /api/products/<int:product_id>\n\
         GET /api/products/<int:product_id>\n\
         PUT /api/products/<int:product_id> title=\n\
         POST /login username=&password=\n\
         GET /account Accept-Language: Cookie: session_id=\n\
         POST /logout Cookie: session_id=\n"
    );
}

#[test]
fn path_values_fill_the_url_in_every_format() {
    let args = ["--set-pvalue-path", "product_id=42"];
    let urls = text(&scan("only-url", &args));
    assert!(urls.contains("/api/products/42\n"), "{urls}");
    assert!(!urls.contains("<int:product_id>"), "{urls}");
    let report: Value = serde_json::from_str(&text(&scan("json", &args))).unwrap();
    let e = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["method"] == "PUT")
        .unwrap();
    assert_eq!(e["url"], "/api/products/42");
    assert_eq!(e["params"][0]["name"], "title");
    assert_eq!(e["params"][0]["value"], "", "only path rules were given");
    let e = &report["endpoints"][4];
    assert_eq!(e["method"], "DELETE");
    assert_eq!(e["url"], "/api/products/42");
    assert_eq!(e["params"][0]["name"], "product_id");
    assert_eq!(e["params"][0]["value"], "42");
}

// ---------------------------------------------------------------- parse back

#[test]
fn structured_formats_parse_back_to_the_json_report() {
    let json: Value = serde_json::from_str(&text(&scan("json", PVALUE_ARGS))).unwrap();
    assert_eq!(json["endpoints"].as_array().unwrap().len(), 10);

    let yaml: Value = serde_yaml::from_str(&text(&scan("yaml", PVALUE_ARGS))).unwrap();
    assert_eq!(yaml, json, "yaml");

    let toml: toml::Value = toml::from_str(&text(&scan("toml", PVALUE_ARGS))).unwrap();
    assert_eq!(serde_json::to_value(toml).unwrap(), json, "toml");

    let lines: Vec<Value> = text(&scan("jsonl", PVALUE_ARGS))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(Value::Array(lines), json["endpoints"], "jsonl");

    // JSON is one line; key order is Noir v0.28's.
    let raw = text(&scan("json", &[]));
    assert_eq!(raw.lines().count(), 1);
    assert!(
        raw.starts_with(r#"{"endpoints":[{"url":"/ws/notifications","method":"GET","params":[{"name":"token","value":"","param_type":"query","tags":[]},{"name":"session_id","value":"","param_type":"cookie","tags":[]}],"details":{"code_paths":[{"path":"app/realtime.channels","line":2}],"technology":"test_sockets"},"protocol":"ws","tags":[{"name":"realtime","description":"declared `realtime` in app/realtime.channels","tagger":"test_sockets"},{"name":"websocket","description":"A WebSocket endpoint: the client opens it with an HTTP GET and upgrades the connection.","tagger":"WebSocket"}],"internal":false},{"url":"/","method":"GET","params":[],"details":{"code_paths":[{"path":"app/shop.py","line":13}],"technology":"python_flask"},"protocol":"http","tags":[],"internal":false},"#),
        "{raw}"
    );
}

// ---------------------------------------------------------------- validators

fn validate_openapi(file: &Path) {
    let out = Command::new("python3")
        .args(["-m", "openapi_spec_validator"])
        .arg(file)
        .output()
        .expect(
            "python3 is needed for the OpenAPI validation (scripts/test installs the validator)",
        );
    assert!(
        out.status.success(),
        "openapi-spec-validator refused {} (install it with `python3 -m pip install openapi-spec-validator`; scripts/test does):\n{}{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn openapi_documents_pass_openapi_spec_validator() {
    let dir = work_dir().join("openapi");
    fs::create_dir_all(&dir).unwrap();
    let mut values = PVALUE_ARGS.to_vec();
    values.extend(["-u", "https://api.example.com:8443/v1"]);
    for format in ["oas2", "oas3"] {
        for (case, extra) in [("plain", &[][..]), ("values", &values[..])] {
            let file = dir.join(format!("{case}.{format}.json"));
            fs::write(&file, scan(format, extra).stdout).unwrap();
            validate_openapi(&file);
        }
    }
    // Placeholders are unified: no Flask converter is left in a path.
    let doc: Value = serde_json::from_str(&text(&scan("oas3", &[]))).unwrap();
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    assert_eq!(
        paths,
        [
            "/",
            "/api/products",
            "/api/products/{product_id}",
            "/login",
            "/account",
            "/logout"
        ]
    );
    let with_base: Value = serde_json::from_str(&text(&scan(
        "oas2",
        &["-u", "https://api.example.com:8443/v1"],
    )))
    .unwrap();
    assert_eq!(with_base["host"], "api.example.com:8443");
    assert_eq!(with_base["basePath"], "/v1");
    assert_eq!(with_base["schemes"], serde_json::json!(["https"]));
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let mut schema: Value = serde_json::from_str(
        &fs::read_to_string(repo().join("tests/schemas/sarif-2.1.0-rtm.5.json")).unwrap(),
    )
    .unwrap();
    // The official schema's `language` patterns (run, toolComponent) have a
    // stray `]` that ECMAScript regexes accept and Rust's refuse; escape it
    // in memory.
    fn fix_patterns(v: &mut Value, fixed: &mut usize) {
        match v {
            Value::Object(map) => {
                for (k, child) in map.iter_mut() {
                    if k == "pattern" && child == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" {
                        *child = Value::from("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$");
                        *fixed += 1;
                    } else {
                        fix_patterns(child, fixed);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| fix_patterns(i, fixed)),
            _ => {}
        }
    }
    let mut fixed = 0;
    fix_patterns(&mut schema, &mut fixed);
    assert_eq!(fixed, 2, "the vendored schema changed");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    for extra in [&[][..], PVALUE_ARGS] {
        let log: Value = serde_json::from_str(&text(&scan("sarif", extra))).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 10);
    }
    // The validator is not a rubber stamp.
    let mut broken: Value = serde_json::from_str(&text(&scan("sarif", &[]))).unwrap();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!validator.is_valid(&broken));
}

/// What GitHub code scanning needs to map and track alerts: URIs relative
/// to `%SRCROOT%` (never a path of the scanning machine), a fingerprint per
/// result that survives a rescan and a checkout in another folder, rules
/// with help text.
#[test]
fn sarif_is_relative_and_stable_across_checkouts() {
    let run = |checkout: &Path, base: &Path| -> String {
        let out = portolan(checkout)
            .arg("-b")
            .arg(base)
            .args(["-f", "sarif", "--no-log"])
            .output()
            .expect("run portolan");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let mut logs = Vec::new();
    for name in ["checkout-a", "somewhere/else/checkout-b"] {
        let checkout = work_dir().join("sarif").join(name);
        let _ = fs::remove_dir_all(&checkout);
        common::copy_tree(&fixture().join("app"), &checkout.join("app"));
        // Relative and absolute base paths give the same log.
        let relative = run(&checkout, Path::new("app"));
        let absolute = run(&checkout, &checkout.join("app"));
        assert_eq!(relative, absolute, "{name}");
        assert!(
            !relative.contains(work_dir().to_str().unwrap()),
            "a machine path in the log: {relative}"
        );
        logs.push(relative);
    }
    assert_eq!(logs[0], logs[1], "another checkout folder changed the log");
    let log: Value = serde_json::from_str(&logs[0]).unwrap();
    let run = &log["runs"][0];
    assert!(run["originalUriBaseIds"]["%SRCROOT%"].is_object());
    let results = run["results"].as_array().unwrap();
    assert!(results.len() >= 9, "{}", results.len());
    let mut fingerprints = std::collections::HashSet::new();
    for r in results {
        let fp = r["partialFingerprints"]["portolanEndpoint/v1"]
            .as_str()
            .unwrap_or_else(|| panic!("no fingerprint: {r}"));
        assert!(
            fingerprints.insert(fp.to_string()),
            "duplicate fingerprint {fp}"
        );
        for loc in r["locations"].as_array().unwrap() {
            let artifact = &loc["physicalLocation"]["artifactLocation"];
            assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
            let uri = artifact["uri"].as_str().unwrap();
            assert!(uri.starts_with("app/") && !uri.contains(".."), "{uri}");
            assert!(
                loc["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap()
                    >= 1
            );
        }
    }
    for rule in run["tool"]["driver"]["rules"].as_array().unwrap() {
        for field in ["shortDescription", "fullDescription", "help"] {
            assert!(
                !rule[field]["text"].as_str().unwrap_or("").is_empty(),
                "rule {} lacks {field}",
                rule["id"]
            );
        }
    }
}

/// `portolan completion SHELL` for every shell clap_complete knows; the
/// bash script is syntax-checked by bash, and a reader that goes away
/// early is no panic.
#[test]
fn completion_scripts_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = portolan(&fixture())
            .args(["completion", shell])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{shell}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["base-path", "format", "plugin", "completion"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
        if shell == "bash" {
            let mut check = Command::new("bash")
                .arg("-n")
                .stdin(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write as _;
            check
                .stdin
                .take()
                .unwrap()
                .write_all(script.as_bytes())
                .unwrap();
            assert!(
                check.wait().unwrap().success(),
                "bash -n refused the script"
            );
        }
    }
    let mut child = portolan(&fixture())
        .args(["completion", "zsh"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let bad = portolan(&fixture())
        .args(["completion", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let p = Path::new(dir).join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!("headless Chromium is needed for the HTML test: apt-get install chromium (scripts/test does it when run as root)");
}

fn headless(profile: &Path) -> Command {
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

/// A copy of the page with a probe script that records errors and drives
/// the filter, writing what it saw into `<body data-probe=…>`.
fn instrumented(page: &str) -> String {
    let catcher = "<script>window.__errors=[];window.addEventListener('error',function(e){window.__errors.push(String(e.message));});</script>";
    let probe = r#"<script>
window.addEventListener('load', function () {
  var r = {};
  try {
    var visible = function () { return document.querySelectorAll('article.ep:not([hidden])').length; };
    var groups = function () { return document.querySelectorAll('section.group:not([hidden])').length; };
    r.total = visible(); r.groups = groups();
    var q = document.getElementById('q');
    q.value = 'session_id'; q.dispatchEvent(new Event('input'));
    r.cookie = visible(); r.count = document.getElementById('count').textContent;
    q.value = 'no-such-thing'; q.dispatchEvent(new Event('input'));
    r.none = visible(); r.emptyShown = !document.getElementById('empty').hidden;
    q.value = ''; q.dispatchEvent(new Event('input'));
    document.querySelector('button[data-method="GET"]').click();
    r.noGet = visible(); r.noGetGroups = groups();
  } catch (e) { window.__errors.push('probe: ' + e.message); }
  r.errors = window.__errors;
  document.body.setAttribute('data-probe', JSON.stringify(r));
});
</script>"#;
    page.replacen("<head>", &format!("<head>\n{catcher}"), 1)
        .replacen("</body>", &format!("{probe}\n</body>"), 1)
}

#[test]
fn html_report_renders_in_headless_chromium_without_errors() {
    let dir = work_dir().join("html");
    fs::create_dir_all(&dir).unwrap();
    let page = text(&scan("html", PVALUE_ARGS));
    let file = dir.join("report.html");
    fs::write(&file, &page).unwrap();
    let probe_file = dir.join("probe.html");
    fs::write(&probe_file, instrumented(&page)).unwrap();

    let profile = tempfile::tempdir().unwrap();
    let out = headless(profile.path())
        .arg("--dump-dom")
        .arg(format!("file://{}", probe_file.display()))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    let console_errors: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    assert!(console_errors.is_empty(), "console: {console_errors:#?}");
    let start = dom
        .find("data-probe=\"")
        .unwrap_or_else(|| panic!("the probe did not run:\n{dom}\n{log}"))
        + "data-probe=\"".len();
    let end = start + dom[start..].find('"').unwrap();
    let probe: Value = serde_json::from_str(
        &dom[start..end]
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
    .unwrap();
    assert_eq!(probe["errors"], serde_json::json!([]), "page errors");
    assert_eq!(probe["total"], 10, "{probe}");
    assert_eq!(probe["groups"], 7, "{probe}");
    // session_id: /account, /logout and the WebSocket channel.
    assert_eq!(probe["cookie"], 3, "{probe}");
    assert_eq!(probe["count"], "Showing 3 of 10 endpoints");
    assert_eq!(probe["none"], 0);
    assert_eq!(probe["emptyShown"], true);
    // GET toggled off: 5 GETs (with the WebSocket one) hidden; 4 groups left.
    assert_eq!(probe["noGet"], 5, "{probe}");
    assert_eq!(probe["noGetGroups"], 4, "{probe}");

    // Values are escaped, not interpreted.
    assert!(page.contains("Tea &amp; &lt;cake&gt;"));
    assert!(!page.contains("<cake>"));

    let shot = dir.join("report.png");
    let _ = fs::remove_file(&shot);
    let profile = tempfile::tempdir().unwrap();
    let out = headless(profile.path())
        .arg("--window-size=1280,1600")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", file.display()))
        .output()
        .expect("run chromium");
    assert!(
        shot.is_file() && fs::metadata(&shot).unwrap().len() > 10_000,
        "no screenshot at {}: {}",
        shot.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("screenshot: {}", shot.display());
}

// ---------------------------------------------------------------- delivery of the report

#[test]
fn output_file_gets_exactly_what_stdout_would_carry() {
    let dir = tempfile::tempdir().unwrap();
    for format in FORMATS {
        let file = dir.path().join(format!("report.{format}"));
        let out = portolan(&fixture())
            .args(["-b", "app", "-f", format, "--plugin"])
            .arg(sockets_plugin())
            .arg("-o")
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}");
        assert!(
            out.stdout.is_empty(),
            "{format}: stdout stays clean with -o"
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("Report written to"),
            "{format}"
        );
        assert_eq!(
            fs::read(&file).unwrap(),
            scan(format, &[]).stdout,
            "{format}: -o FILE differs from stdout"
        );
    }
}

#[test]
fn structured_formats_print_an_empty_document_for_an_empty_tree() {
    let tree = tempfile::tempdir().unwrap();
    fs::create_dir(tree.path().join("app")).unwrap();
    let run = |format: &str| {
        let out = portolan(tree.path())
            .args(["-b", "app", "--no-log", "-f", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}");
        text(&out)
    };
    assert_eq!(run("plain"), "");
    assert_eq!(run("only-url"), "");
    assert_eq!(run("json"), "{\"endpoints\":[],\"passive_results\":[]}\n");
    assert_eq!(run("yaml"), "---\nendpoints: []\npassive_results: []\n");
    assert_eq!(run("toml"), "endpoints = []\npassive_results = []\n");
    let oas: Value = serde_json::from_str(&run("oas3")).unwrap();
    assert_eq!(oas["paths"], serde_json::json!({}));
    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
    assert!(run("html").contains("0 endpoints on 0 paths"));
}

// ---------------------------------------------------------------- command line

#[test]
fn logs_follow_the_seed_style_on_stderr_only() {
    let out = portolan(&fixture())
        .args(["-b", "app", "-f", "json", "--plugin"])
        .arg(sockets_plugin())
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "[*] Detecting technologies",
        "✔ Detected 2 technologies.",
        "    ├── python_flask",
        "    └── test_sockets",
        "[I] Found 10 endpoints.",
        "✔ Finally identified 10 endpoints.",
        "[*] Generating the json report.",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
    }
    let last = err
        .lines()
        .rfind(|l| l.contains("Scan completed in"))
        .unwrap();
    let secs = last
        .trim_start_matches("[I] Scan completed in ")
        .trim_end_matches(" s.");
    assert!(
        secs.split_once('.').is_some_and(|(_, d)| d.len() == 4),
        "elapsed with 4 decimals: {last}"
    );
    assert!(
        !err.contains('\x1b'),
        "no colour when stderr is not a terminal"
    );
    assert!(
        serde_json::from_slice::<Value>(&out.stdout).is_ok(),
        "stdout is only the report"
    );
}

#[test]
fn bad_flag_values_fail_clearly() {
    // The delivery flags are tested in tests/deliver.rs, --ai-context in
    // tests/ai_context.rs.
    let out = portolan(&fixture())
        .args(["-b", "app", "--concurrency", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_is_grouped_like_the_seed() {
    let out = portolan(&fixture()).arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = text(&out);
    let mut last = 0;
    for heading in [
        "Basic:",
        "Output:",
        "Deliver:",
        "Technologies:",
        "Plugins:",
        "Config and others:",
    ] {
        let at = help
            .find(heading)
            .unwrap_or_else(|| panic!("{heading} missing:\n{help}"));
        assert!(at > last, "{heading} out of order");
        last = at;
    }
    for flag in [
        "--base-path",
        "--url",
        "--format",
        "--output",
        "--set-pvalue-cookie",
        "--include-path",
        "--no-color",
        "--no-log",
        "--send-req",
        "--with-headers",
        "--techs",
        "--exclude-techs",
        "--list-techs",
        "--concurrency",
        "--debug",
        "--version",
        "--ai-context",
        "--exclude-path",
        "--config",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
}

#[test]
fn tech_aliases_select_and_exclude() {
    let only_flask = |extra: &[&str]| {
        let out = portolan(&fixture())
            .args(["-b", "app", "-f", "only-url", "--no-log", "--plugin"])
            .arg(sockets_plugin())
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        text(&out)
    };
    for alias in ["test-sockets", "TEST_SOCKETS"] {
        let urls = only_flask(&["--exclude-techs", alias]);
        assert!(!urls.contains("/ws/"), "{alias}: {urls}");
        assert!(urls.contains("/login"), "{alias}: {urls}");
    }
    let urls = only_flask(&["--exclude-techs", "python-flask,test_sockets"]);
    assert_eq!(urls, "");
}

#[test]
fn list_techs_as_text_and_json() {
    let out = portolan(&fixture())
        .args(["--list-techs", "--plugin"])
        .arg(sockets_plugin())
        .output()
        .unwrap();
    assert!(out.status.success());
    let list = text(&out);
    assert!(list.starts_with("Available technologies:\n"), "{list}");
    assert!(
        list.contains(
            " python_flask\n   framework: Flask\n   language: Python\n   similar: [\"flask\""
        ),
        "{list}"
    );
    assert!(
        list.contains(" oas3\n   format: OpenAPI 3\n   similar: ["),
        "spec techs show format: {list}"
    );
    assert!(
        list.contains("     params: {query: true, path: true, body: true, header: true, cookie: true}\n     websocket: true\n"),
        "{list}"
    );
    let out = portolan(&fixture())
        .args(["--list-techs", "-f", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let flask = doc["techs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "python_flask")
        .unwrap();
    assert_eq!(flask["language"], "Python");
    assert_eq!(flask["plugin_source"], "built-in");
    assert_eq!(flask["supports"]["params"]["query"], true);
    let out = portolan(&fixture())
        .args(["--list-techs", "-f", "curl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------- config files

/// A copy of the fixture app in a temporary directory.
fn app_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir(&app).unwrap();
    for f in ["shop.py", "realtime.channels"] {
        fs::copy(fixture().join("app").join(f), app.join(f)).unwrap();
    }
    tmp
}

#[test]
fn project_and_user_config_files_apply_and_flags_override_them() {
    let tmp = app_copy();
    let user = tmp.path().join("user-config");
    fs::create_dir(&user).unwrap();
    // A plugin is trusted code: only the user config (or --config) may add
    // one; the project config may exclude its technology.
    fs::write(
        user.join("config.toml"),
        format!(
            "format = \"yaml\"\nno_log = true\nset_pvalue_header = \"X-API-Key=from-user\"\nplugin = [{:?}]\n",
            sockets_plugin().display().to_string()
        ),
    )
    .unwrap();
    fs::write(
        tmp.path().join("app/portolan.toml"),
        "# the project's defaults\nformat = \"only-url\"\nexclude_techs = \"test_sockets\"\nset_pvalue_query = [\"page=2\"]\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = portolan(tmp.path())
            .env("PORTOLAN_CONFIG_DIR", &user)
            .args(["-b", "app"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            text(&out),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Project beats user (format), user still applies where the project is
    // silent (no_log, plugin), and the project's exclusions apply.
    let (out, err) = run(&[]);
    assert_eq!(err, "");
    assert!(out.contains("/api/products?q=&page=2\n"), "{out}");
    assert!(!out.contains("/ws/"), "{out}");
    // Flags beat both.
    let (out, _) = run(&["-f", "only-header", "--exclude-techs", "oas3"]);
    assert_eq!(out, "X-API-Key\nAccept-Language\nCookie\n");
    let (out, _) = run(&["-f", "json", "--set-pvalue-header", "X-API-Key=flag"]);
    assert!(out.contains("\"value\":\"flag\""), "{out}");
    assert!(!out.contains("from-user"), "{out}");
    let (out, _) = run(&["-f", "json"]);
    assert!(out.contains("\"value\":\"from-user\""), "{out}");
    // --no-config ignores both files.
    let (out, err) = run(&["--no-config", "--no-log"]);
    assert!(out.starts_with("GET /\n"), "{out}");
    assert_eq!(err, "");
    // --config adds a file over the others.
    let extra = tmp.path().join("ci.toml");
    fs::write(&extra, "format = \"only-cookie\"\n").unwrap();
    let (out, _) = run(&["--config", extra.to_str().unwrap()]);
    assert_eq!(out, "session_id\n");
}

#[test]
fn a_broken_repo_config_is_skipped_with_a_warning_a_broken_trusted_one_is_an_error() {
    // The scanned tree's config cannot stop the scan (docs/security.md).
    let tmp = app_copy();
    fs::write(tmp.path().join("app/.portolan.toml"), "fromat = \"json\"\n").unwrap();
    let out = portolan(tmp.path()).args(["-b", "app"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(".portolan.toml") && err.contains("fromat") && err.contains("continues"),
        "{err}"
    );
    assert!(!out.stdout.is_empty());
    // Named with --config it is trusted, and a typo is a usage error.
    let out = portolan(tmp.path())
        .args(["-b", "app", "--config", "app/.portolan.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(".portolan.toml") && err.contains("fromat"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
