//! CI-facing scan flags end to end through the real binary: `-t` as "use
//! only" (`--only-techs`, `--add-techs`), `--strict`, `portolan config`,
//! `--diff-path`, `--send-webhook`, and `--send-req` statuses with
//! `--exclude-codes`. HTTP receivers are loopback servers in this file.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn shop() -> PathBuf {
    repo().join("examples/flask-shop")
}

/// The suite's shared plugin cache (`portolan-tests/cache`, filled once by
/// scripts/test) and this file's empty user dirs.
fn cache_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    fs::create_dir_all(tmp.join("portolan-tests/cache")).unwrap();
    let d = tmp.join("portolan-ci-tests");
    fs::create_dir_all(d.join("no-user-plugins")).unwrap();
    fs::create_dir_all(d.join("no-user-config")).unwrap();
    d
}

fn portolan_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let c = cache_dir();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .args(args)
        .env(
            "PORTOLAN_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests/cache"),
        )
        .env("PORTOLAN_PLUGIN_DIR", c.join("no-user-plugins"))
        .env("PORTOLAN_CONFIG_DIR", c.join("no-user-config"))
        .env_remove("PORTOLAN_MAX_FILE_SIZE")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run portolan")
}

fn portolan(args: &[&str]) -> Output {
    portolan_in(&repo(), args, &[])
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(o), stderr(o)))
}

fn techs(report: &Value) -> BTreeSet<String> {
    report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["details"]["technology"].as_str().unwrap().to_string())
        .collect()
}

fn tag_count(report: &Value, tag: &str) -> usize {
    report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["tags"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["name"] == tag)
        })
        .count()
}

// ---------------------------------------------------------------- -t

#[test]
fn techs_means_use_only_these() {
    let shop = shop();
    let shop = shop.to_str().unwrap();
    // Detected: Flask and the OpenAPI document (whose routes make the
    // debug and export routes `shadow`).
    let all = json_of(&portolan(&["-b", shop, "-f", "json", "--no-log"]));
    assert!(tag_count(&all, "shadow") > 0);
    // -t flask: only the Flask analyzer; no document, so no shadow tags.
    for flag in ["-t", "--techs", "--only-techs"] {
        let out = portolan(&["-b", shop, "-f", "json", flag, "flask"]);
        let only = json_of(&out);
        assert_eq!(techs(&only), BTreeSet::from(["python_flask".to_string()]));
        assert_eq!(tag_count(&only, "shadow"), 0, "{flag}");
        assert!(
            stderr(&out).contains("Using 1 technologies (-t)."),
            "{}",
            stderr(&out)
        );
    }
    // -t oas3: the document's operations only.
    let doc = json_of(&portolan(&[
        "-b", shop, "-f", "json", "--no-log", "-t", "oas3",
    ]));
    assert_eq!(techs(&doc), BTreeSet::from(["oas3".to_string()]));
    // --add-techs adds to what is detected (or to -t).
    let out = portolan(&["-b", shop, "-f", "json", "--add-techs", "express"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("Detected 3 technologies."), "{err}");
    assert!(err.contains("js_express"), "{err}");
    let both = json_of(&portolan(&[
        "-b",
        shop,
        "-f",
        "json",
        "--no-log",
        "-t",
        "oas3",
        "--add-techs",
        "flask",
    ]));
    assert_eq!(tag_count(&both, "shadow"), tag_count(&all, "shadow"));
    // Unknown names are usage errors, naming the flag.
    let out = portolan(&["-b", shop, "--add-techs", "cobol_magic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--add-techs: unknown technology `cobol_magic`"));
}

// ---------------------------------------------------------------- --strict

#[test]
fn strict_lists_skipped_files_and_has_its_own_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    common::copy_tree(&shop(), &app);
    let clean = portolan_in(dir.path(), &["-b", "app", "-f", "json", "--strict"], &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(json_of(&clean).get("skipped").is_none());
    // A Latin-1 file, a source file with binary content, a file over the
    // size cap.
    fs::write(
        app.join("shop/legacy.py"),
        b"# caf\xe9\nfrom flask import Blueprint\n",
    )
    .unwrap();
    let mut blob = b"import os\n".to_vec();
    blob.extend(std::iter::repeat_n(0u8, 512));
    fs::write(app.join("shop/compiled.py"), &blob).unwrap();
    fs::write(app.join("shop/huge.py"), "x = 1\n".repeat(20_000)).unwrap();
    let env = [("PORTOLAN_MAX_FILE_SIZE", "64K")];
    // Without --strict: the same report as before, exit 0, nothing listed.
    let lax = portolan_in(dir.path(), &["-b", "app", "-f", "json"], &env);
    assert_eq!(lax.status.code(), Some(0), "{}", stderr(&lax));
    assert!(json_of(&lax).get("skipped").is_none());
    let out = portolan_in(dir.path(), &["-b", "app", "-f", "json", "--strict"], &env);
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    let report = json_of(&out);
    let skipped: Vec<(String, String)> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        skipped,
        vec![
            ("app/shop/compiled.py".into(), "binary".into()),
            ("app/shop/huge.py".into(), "size".into()),
            ("app/shop/legacy.py".into(), "encoding".into()),
        ]
    );
    // The endpoints are all still there.
    assert_eq!(
        report["endpoints"].as_array().unwrap().len(),
        json_of(&lax)["endpoints"].as_array().unwrap().len()
    );
    let err = stderr(&out);
    assert!(
        err.contains("--strict: 0 analyzer error(s), 3 file(s) skipped"),
        "{err}"
    );
    assert!(
        err.contains("strict: app/shop/huge.py skipped (size:"),
        "{err}"
    );
    // SARIF carries them as warnings; strict = true in a config file works too.
    fs::write(dir.path().join("strict.toml"), "strict = true\n").unwrap();
    let out = portolan_in(
        dir.path(),
        &["-b", "app", "-f", "sarif", "--config", "strict.toml"],
        &env,
    );
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    let sarif = json_of(&out);
    let notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notes.len(), 3);
    assert!(notes.iter().all(|n| n["level"] == "warning"));
    // A scanned tree may turn strict mode on, never off.
    fs::write(app.join("portolan.toml"), "strict = false\n").unwrap();
    let out = portolan_in(
        dir.path(),
        &["-b", "app", "-f", "json", "--config", "strict.toml"],
        &env,
    );
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`strict` is ignored"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn strict_fails_on_a_plugin_failure() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    common::copy_tree(&shop(), &app);
    // The test plugin traps on every `*.misbehave` file.
    fs::write(app.join("trigger.misbehave"), "boom\n").unwrap();
    let panicker = Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR")).join("test_plugin_panicker.wasm");
    let base = [
        "-b",
        "app",
        "-f",
        "json",
        "--plugin",
        panicker.to_str().unwrap(),
    ];
    let plain = portolan_in(dir.path(), &base, &[]);
    assert_eq!(plain.status.code(), Some(4), "{}", stderr(&plain));
    let mut strict = base.to_vec();
    strict.push("--strict");
    let out = portolan_in(dir.path(), &strict, &[]);
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    let report = json_of(&out);
    assert!(!report["errors"].as_array().unwrap().is_empty());
    assert!(report.get("skipped").is_none());
    assert!(
        stderr(&out).contains("--strict: 1 analyzer error(s), 0 file(s) skipped"),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------- config

#[test]
fn config_path_show_and_init() {
    let dir = tempfile::tempdir().unwrap();
    let user_dir = dir.path().join("user");
    let user = user_dir.to_str().unwrap();
    let env = [("PORTOLAN_CONFIG_DIR", user)];
    let app = dir.path().join("app");
    fs::create_dir_all(&app).unwrap();

    let out = portolan_in(dir.path(), &["config", "path", "-b", "app"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "user: {user}/config.toml (missing)\nproject: app/portolan.toml (missing; .portolan.toml is also looked for)\n"
        )
    );

    // init writes a commented template that sets nothing, and never
    // overwrites without --force.
    let out = portolan_in(&app, &["config", "init"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = fs::read_to_string(app.join("portolan.toml")).unwrap();
    assert!(text.lines().all(|l| l.is_empty() || l.starts_with('#')));
    let out = portolan_in(&app, &["config", "init"], &env);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("already exists; --force replaces it"));
    let out = portolan_in(&app, &["config", "init", "--user"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(user_dir.join("config.toml").is_file());

    let out = portolan_in(dir.path(), &["config", "show", "-b", "app"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("# read: {user}/config.toml\n# read: app/portolan.toml\n")
    );

    // Values merge like a scan's: the project file over the user file,
    // its untrusted keys dropped with a warning.
    fs::write(
        user_dir.join("config.toml"),
        "concurrency = 2\nformat = \"yaml\"\n",
    )
    .unwrap();
    fs::write(
        app.join("portolan.toml"),
        "format = \"json\"\ntechs = \"flask\"\nurl = \"https://evil.example\"\n",
    )
    .unwrap();
    let out = portolan_in(
        dir.path(),
        &["config", "show", "-b", "app", "-f", "json"],
        &env,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json_of(&out);
    assert_eq!(
        doc["values"],
        serde_json::json!({"format": "json", "techs": "flask", "concurrency": 2})
    );
    assert!(
        stderr(&out).contains("`url` is ignored"),
        "{}",
        stderr(&out)
    );
    let out = portolan_in(
        dir.path(),
        &["config", "show", "-b", "app", "--no-config"],
        &env,
    );
    assert_eq!(stdout(&out), "# no config file applies\n");
    // The TOML form parses back.
    let out = portolan_in(dir.path(), &["config", "show", "-b", "app"], &env);
    let text = stdout(&out);
    assert!(text.contains("format = \"json\""), "{text}");
    assert!(text.contains("concurrency = 2"), "{text}");
}

// ---------------------------------------------------------------- --diff-path

#[test]
fn diff_path_compares_a_scan_with_an_old_report() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    common::copy_tree(&shop(), &app);
    let old = portolan_in(
        dir.path(),
        &[
            "-b",
            "app",
            "-f",
            "json",
            "--ai-context",
            "--no-log",
            "-o",
            "old.json",
        ],
        &[],
    );
    assert!(old.status.success(), "{}", stderr(&old));
    // Unchanged: an empty diff, exit 0 even with --fail-on.
    let same = portolan_in(
        dir.path(),
        &[
            "-b",
            "app",
            "--diff-path",
            "old.json",
            "--fail-on",
            "any",
            "--no-log",
        ],
        &[],
    );
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    // A new unguarded route.
    let catalog = app.join("shop/catalog.py");
    let mut text = fs::read_to_string(&catalog).unwrap();
    text.push_str("\n\n@bp.route(\"/flash-sale\", methods=[\"POST\"])\ndef flash_sale():\n    return jsonify(ok=request.json.get(\"sku\"))\n");
    fs::write(&catalog, text).unwrap();
    let out = portolan_in(
        dir.path(),
        &[
            "-b",
            "app",
            "--diff-path",
            "old.json",
            "-f",
            "json",
            "--no-log",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let d = json_of(&out);
    let added = d["added"].as_array().unwrap();
    assert_eq!(added.len(), 1, "{d}");
    assert_eq!(added[0]["method"], "POST");
    assert_eq!(added[0]["url"], "/api/v1/catalog/flash-sale");
    assert!(d["removed"].as_array().unwrap().is_empty());
    // The same as `portolan diff` between the old report and the tree.
    let sub = portolan_in(dir.path(), &["diff", "old.json", "app", "-f", "json"], &[]);
    assert_eq!(json_of(&sub), d);
    // --fail-on: status 6; markdown for a PR comment.
    let out = portolan_in(
        dir.path(),
        &[
            "-b",
            "app",
            "--diff-path",
            "old.json",
            "-f",
            "markdown",
            "--fail-on",
            "added-unauthenticated",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(stdout(&out).contains("/api/v1/catalog/flash-sale"));
    assert!(stderr(&out).contains("--fail-on matched: added-unauthenticated"));
    // An old *tree* works too.
    let out = portolan_in(
        dir.path(),
        &[
            "-b",
            "app",
            "--diff-path",
            shop().to_str().unwrap(),
            "--no-log",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("/api/v1/catalog/flash-sale"),
        "{}",
        stdout(&out)
    );
    // Formats a diff has not: usage error; --fail-on without --diff-path too.
    let out = portolan_in(
        dir.path(),
        &["-b", "app", "--diff-path", "old.json", "-f", "oas3"],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("-f plain, json, markdown or sarif"));
    let out = portolan_in(dir.path(), &["-b", "app", "--fail-on", "added"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = portolan_in(
        dir.path(),
        &["-b", "app", "--diff-path", "missing.json"],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------- HTTP receivers

#[derive(Clone, Debug)]
struct Received {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

struct Receiver {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    /// A loopback HTTP/1.1 server answering `status(request, n)` (n = the
    /// request's number, from 0), one connection per request. It stops with
    /// the test process.
    fn start(status: impl Fn(&Received, usize) -> u16 + Send + 'static) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received: Arc<Mutex<Vec<Received>>> = Arc::default();
        let log = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                let mut parts = line.split_whitespace();
                let method = parts.next().unwrap_or("").to_string();
                let path = parts.next().unwrap_or("").to_string();
                let mut headers = Vec::new();
                let mut length = 0usize;
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).unwrap_or(0) == 0 {
                        break;
                    }
                    let h = h.trim_end();
                    if h.is_empty() {
                        break;
                    }
                    if let Some((n, v)) = h.split_once(':') {
                        if n.eq_ignore_ascii_case("content-length") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                        headers.push((n.to_ascii_lowercase(), v.trim().to_string()));
                    }
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let r = Received {
                    method,
                    path,
                    headers,
                    body,
                };
                let n = {
                    let mut l = log.lock().unwrap();
                    l.push(r.clone());
                    l.len() - 1
                };
                let code = status(&r, n);
                let _ = write!(
                    stream,
                    "HTTP/1.1 {code} X\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                );
            }
        });
        Receiver { url, received }
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[test]
fn send_webhook_posts_the_report_and_retries_5xx() {
    // Two 503s, then 200.
    let hook = Receiver::start(|_, n| if n < 2 { 503 } else { 200 });
    let url = format!("{}/hooks/portolan", hook.url);
    let shop = shop();
    let out = portolan(&[
        "-b",
        shop.to_str().unwrap(),
        "-f",
        "json",
        "--send-webhook",
        &url,
        "--with-headers",
        "X-Hook-Token: s3cret",
        "--use-filters",
        "DELETE",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = hook.received();
    assert_eq!(got.len(), 3, "two 5xx retried, then delivered");
    let last = &got[2];
    assert_eq!(last.method, "POST");
    assert_eq!(last.path, "/hooks/portolan");
    assert_eq!(last.header("content-type"), Some("application/json"));
    assert_eq!(last.header("x-hook-token"), Some("s3cret"));
    let body: Value = serde_json::from_slice(&last.body).unwrap();
    let report = json_of(&out);
    let kept: Vec<&Value> = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["method"] != "DELETE")
        .collect();
    assert_eq!(body["endpoints"].as_array().unwrap().len(), kept.len());
    assert_eq!(body["scan"]["tool"], "portolan");
    assert!(stderr(&out).contains("to the webhook"), "{}", stderr(&out));
    // A 4xx is final: one request, a warning, exit 5; the report stands.
    let refusing = Receiver::start(|_, _| 403);
    let out = portolan(&[
        "-b",
        shop.to_str().unwrap(),
        "-f",
        "json",
        "--send-webhook",
        &refusing.url,
    ]);
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert_eq!(refusing.received().len(), 1);
    assert!(stderr(&out).contains("HTTP 403"), "{}", stderr(&out));
    assert_eq!(json_of(&out)["endpoints"], report["endpoints"]);
    // Persistent 5xx: retried --send-retries times, then a failure.
    let down = Receiver::start(|_, _| 502);
    let out = portolan(&[
        "-b",
        shop.to_str().unwrap(),
        "--no-log",
        "--send-webhook",
        &down.url,
        "--send-retries",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert_eq!(down.received().len(), 2);
    // Not a URL: usage error before the scan.
    let out = portolan(&["-b", shop.to_str().unwrap(), "--send-webhook", "ftp://x/y"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn send_req_records_statuses_and_exclude_codes_drops_endpoints() {
    // The admin routes answer 404, the rest 200.
    let target = Receiver::start(|r, _| if r.path.contains("/admin/") { 404 } else { 200 });
    let shop = shop();
    let shop = shop.to_str().unwrap();
    let out = portolan(&["-b", shop, "-u", &target.url, "-f", "json", "--send-req"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json_of(&out);
    let endpoints = report["endpoints"].as_array().unwrap();
    assert!(!endpoints.is_empty());
    for e in endpoints {
        let want = if e["url"].as_str().unwrap().contains("/admin/") {
            404
        } else {
            200
        };
        assert_eq!(e["details"]["status_code"], want, "{e}");
    }
    let admin = endpoints
        .iter()
        .filter(|e| e["url"].as_str().unwrap().contains("/admin/"))
        .count();
    assert!(admin > 0);
    assert!(
        stderr(&out).contains("status codes 200×"),
        "{}",
        stderr(&out)
    );
    // --exclude-codes 404: the admin routes leave the report.
    let out = portolan(&[
        "-b",
        shop,
        "-u",
        &target.url,
        "-f",
        "json",
        "--send-req",
        "--exclude-codes",
        "404,405",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let kept = json_of(&out);
    assert_eq!(
        kept["endpoints"].as_array().unwrap().len(),
        endpoints.len() - admin
    );
    assert!(
        stderr(&out).contains(&format!("Left out {admin} endpoint(s) answering 404, 405")),
        "{}",
        stderr(&out)
    );
    // Without --send-req, or out of range: usage errors.
    let out = portolan(&["-b", shop, "--exclude-codes", "404"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--exclude-codes needs --send-req"));
    let out = portolan(&[
        "-b",
        shop,
        "-u",
        &target.url,
        "--send-req",
        "--exclude-codes",
        "42",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // A scan without --send-req has no status codes.
    let plain = json_of(&portolan(&["-b", shop, "-f", "json", "--no-log"]));
    assert!(plain["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["details"].get("status_code").is_none()));
}

/// The taggers added for issue 23 through the real binary, on the example
/// shop: `auth` from the Flask analyzer's resolved guards (a decorator on
/// the route, or on every route of a blueprint), the word-set taggers, and
/// the endpoints none of them may tag.
#[test]
fn taggers_auth_and_word_sets_on_the_example_shop() {
    let out = portolan(&[
        "-b",
        shop().to_str().unwrap(),
        "--use-taggers",
        "auth,admin,pii,payment,webhook,debug,api_docs,account_recovery,mcp",
        "-f",
        "json",
        "--no-log",
    ]);
    let report = json_of(&out);
    let mut got: Vec<(String, Vec<String>)> = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let tags = e["tags"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["name"] != "shadow")
                .map(|t| match t["name"].as_str().unwrap() {
                    "auth" => format!("auth: {}", t["description"].as_str().unwrap()),
                    other => other.to_string(),
                })
                .collect();
            (
                format!(
                    "{} {}",
                    e["method"].as_str().unwrap(),
                    e["url"].as_str().unwrap()
                ),
                tags,
            )
        })
        .filter(|(_, tags): &(String, Vec<String>)| !tags.is_empty())
        .collect();
    got.sort();
    let want: Vec<(&str, Vec<&str>)> = vec![
        (
            "GET /api/v1/admin/debug/routes",
            vec!["auth: Protected by admin_required", "admin", "debug"],
        ),
        (
            "GET /api/v1/auth/me",
            vec!["auth: Protected by token_required"],
        ),
        (
            "GET /api/v1/orders/<int:order_id>/invoice",
            vec!["auth: Protected by token_required", "payment"],
        ),
        (
            "POST /api/v1/admin/products",
            vec!["auth: Protected by admin_required", "admin"],
        ),
        (
            "POST /api/v1/auth/logout",
            vec!["auth: Protected by token_required"],
        ),
        ("POST /api/v1/cart/coupon", vec!["payment"]),
        (
            "POST /api/v1/catalog/products/<int:product_id>/reviews",
            vec!["auth: Protected by token_required"],
        ),
        ("POST /api/v1/orders/", vec!["payment"]),
    ];
    let want: Vec<(String, Vec<String>)> = want
        .into_iter()
        .map(|(e, t)| (e.to_string(), t.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(got, want);
}
