//! End-to-end tests of delivery (`--send-req`, `--send-proxy`, `--send-es`)
//! against real servers on loopback:
//!
//! - the example app `examples/flask-shop`, unchanged, served by Flask
//!   (PyPI) through `tests/deliver/serve_flask.py`, which logs every request
//!   it receives (method, path, query, form, files, JSON, headers, cookies,
//!   status) as JSON lines: the assertions read that log;
//! - `mitmdump` (mitmproxy, PyPI) in the middle for `--send-proxy`, with
//!   the addon `tests/deliver/mitm_log.py` logging what went through it;
//! - `tests/deliver/fake_es.py`, a loopback server implementing the
//!   Elasticsearch `_bulk` contract (no real Elasticsearch or OpenSearch can
//!   be installed here from a package registry).
//!
//! Every server picks a free port, is waited for with a deadline and killed
//! when its test ends; portolan itself runs under a deadline too.
//! `scripts/test` installs Flask and mitmproxy.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const SERVER_START: Duration = Duration::from_secs(60);
const PORTOLAN_DEADLINE: Duration = Duration::from_secs(180);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn helpers() -> PathBuf {
    repo().join("tests").join("deliver")
}

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

// ---------------------------------------------------------------- servers

/// A child process killed (and reaped) when dropped.
struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// The JSON lines logged so far.
    fn entries(&self) -> Vec<Value> {
        read_lines(&self.log)
    }
}

fn read_lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for_port(port: u16, child: &mut Child, what: &str, errlog: &Path) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "{what} exited ({status}) before listening:\n{}",
                fs::read_to_string(errlog).unwrap_or_default()
            );
        }
        assert!(start.elapsed() < SERVER_START, "{what} did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Start a Python helper that prints its port on its first stdout line.
fn python_server(dir: &Path, script: &str, extra: &[&str], env: &[(&str, &str)]) -> Server {
    let log = dir.join(format!("{script}.{}.log", free_port()));
    let errlog = log.with_extension("stderr");
    let mut cmd = Command::new("python3");
    cmd.arg(helpers().join(script))
        .arg(&log)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(File::create(&errlog).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .spawn()
        .expect("python3 is needed (scripts/test installs what it needs)");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(SERVER_START).unwrap_or_default();
    let Ok(port) = line.trim().parse::<u16>() else {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "{script} did not start (is Flask installed? scripts/test installs it):\n{}",
            fs::read_to_string(&errlog).unwrap_or_default()
        );
    };
    wait_for_port(port, &mut child, script, &errlog);
    Server { child, port, log }
}

fn flask(dir: &Path, env: &[(&str, &str)]) -> Server {
    python_server(dir, "serve_flask.py", &[], env)
}

fn flask_tls(dir: &Path) -> Server {
    python_server(dir, "serve_flask.py", &["--tls"], &[])
}

fn fake_es(dir: &Path, env: &[(&str, &str)]) -> Server {
    python_server(dir, "fake_es.py", &[], env)
}

/// mitmdump on a free port, trusting any upstream certificate (the test
/// app's is self-signed), its CA in a private directory.
fn mitmdump(dir: &Path) -> Server {
    let port = free_port();
    let log = dir.join(format!("mitm.{port}.log"));
    let errlog = log.with_extension("stderr");
    let confdir = dir.join(format!("mitm-conf-{port}"));
    // mitmdump's entry point, run by the same python3 as Flask (a fresh
    // pip install may not have put `mitmdump` on PATH yet).
    let mut child = Command::new("python3")
        .args([
            "-c",
            "from mitmproxy.tools.main import mitmdump; mitmdump()",
        ])
        .args([
            "--listen-host",
            "127.0.0.1",
            "--listen-port",
            &port.to_string(),
        ])
        .arg("-s")
        .arg(helpers().join("mitm_log.py"))
        .arg("--set")
        .arg(format!("confdir={}", confdir.display()))
        .args(["--set", "ssl_insecure=true", "-q"])
        .env("MITM_LOG", &log)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(&errlog).unwrap())
        .spawn()
        .expect("mitmdump is needed (scripts/test installs mitmproxy)");
    wait_for_port(port, &mut child, "mitmdump", &errlog);
    Server { child, port, log }
}

// ---------------------------------------------------------------- portolan

struct Run {
    code: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

fn portolan(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let (cache, plugins, config) = shared_env();
    let errfile = dir.join(format!("portolan.{}.stderr", free_port()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(repo())
        .args(args)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", plugins)
        .env("PORTOLAN_CONFIG_DIR", config)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(&errfile).unwrap());
    for var in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "NO_PROXY",
        "no_proxy",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run portolan");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > PORTOLAN_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("portolan {args:?} did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stderr: fs::read_to_string(&errfile).unwrap_or_default(),
        elapsed: start.elapsed(),
    }
}

const SHOP: &str = "examples/flask-shop";

/// `-b examples/flask-shop -u URL -f json -o OUT` plus `extra`.
fn shop_args<'a>(url: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["-b", SHOP, "-u", url, "-f", "json", "-o", out];
    v.extend_from_slice(extra);
    v
}

/// The report the same scan writes without any delivery.
fn plain_report(dir: &Path, url: &str, pvalues: &[&str]) -> String {
    let out = dir.join(format!("plain.{}.json", free_port()));
    let out_s = out.to_str().unwrap();
    let r = portolan(dir, &shop_args(url, out_s, pvalues), &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    fs::read_to_string(out).unwrap()
}

/// A JSON report without the statuses `--send-req` records, to compare
/// with a scan that sent nothing.
fn without_statuses(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap();
    for e in v["endpoints"].as_array_mut().unwrap() {
        e["details"].as_object_mut().unwrap().remove("status_code");
    }
    v
}

fn tmp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("portolan-deliver-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// `(method, path)` of each logged request, sorted.
fn requests(entries: &[Value]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = entries
        .iter()
        .map(|e| {
            (
                e["method"].as_str().unwrap().to_string(),
                e["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = list
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    v.sort();
    v
}

fn entry<'a>(entries: &'a [Value], method: &str, path: &str) -> &'a Value {
    entries
        .iter()
        .find(|e| e["method"] == method && e["path"] == path)
        .unwrap_or_else(|| panic!("no {method} {path} in {entries:#?}"))
}

/// `200×3 404×1` from the statuses the app logged.
fn histogram(entries: &[&Value]) -> String {
    let mut h: BTreeMap<u64, usize> = BTreeMap::new();
    for e in entries {
        *h.entry(e["status"].as_u64().unwrap()).or_default() += 1;
    }
    h.iter()
        .map(|(s, n)| format!("{s}×{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every endpoint of the example, with unfilled placeholders as the
/// replay fills them (`<int:…>` → 1) and `order_id=7`, `product_id=2`.
const SHOP_REQUESTS: &[(&str, &str)] = &[
    ("POST", "/api/v1/admin/products"),
    ("GET", "/api/v1/admin/debug/routes"),
    ("GET", "/api/v1/cart/"),
    ("POST", "/api/v1/cart/items"),
    ("DELETE", "/api/v1/cart/items/1"),
    ("POST", "/api/v1/cart/coupon"),
    ("GET", "/api/v1/orders/"),
    ("POST", "/api/v1/orders/"),
    ("GET", "/api/v1/orders/7"),
    ("PATCH", "/api/v1/orders/7"),
    ("GET", "/api/v1/orders/7/invoice"),
    ("GET", "/api/v1/orders/export"),
    ("POST", "/api/v1/auth/register"),
    ("POST", "/api/v1/auth/login"),
    ("POST", "/api/v1/auth/logout"),
    ("GET", "/api/v1/auth/me"),
    ("GET", "/api/v1/catalog/products"),
    ("GET", "/api/v1/catalog/products/2"),
    ("GET", "/api/v1/catalog/categories"),
    ("POST", "/api/v1/catalog/products/2/reviews"),
];

const PVALUES: &[&str] = &[
    "--set-pvalue-path",
    "order_id=7",
    "--set-pvalue-path",
    "product_id=2",
    "--set-pvalue-form",
    "name=Kettle",
    "--set-pvalue-form",
    "price=9.5",
    "--set-pvalue-json",
    "payment_method=card",
    "--set-pvalue-cookie",
    "cart_id=c-1",
    "--set-pvalue-header",
    "Idempotency-Key=k 1",
    "--set-pvalue-query",
    "page=2",
    "--set-pvalue-query",
    "q=tea & cake",
];

// ---------------------------------------------------------------- tests

#[test]
fn send_req_reaches_the_example_app_with_every_param() {
    let dir = tmp();
    let app = flask(dir.path(), &[]);
    let url = format!("http://127.0.0.1:{}", app.port);
    let out = dir.path().join("report.json");
    let mut extra = vec![
        "--send-req",
        "--with-headers",
        "Authorization: Bearer t0k:admin",
        "--with-headers",
        "X-Trace:a:b:c",
    ];
    extra.extend_from_slice(PVALUES);
    let r = portolan(
        dir.path(),
        &shop_args(&url, out.to_str().unwrap(), &extra),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);

    let log = app.entries();
    assert_eq!(requests(&log), pairs(SHOP_REQUESTS), "{}", r.stderr);
    for e in &log {
        let h = &e["headers"];
        assert_eq!(h["Authorization"], "Bearer t0k:admin", "{e}");
        assert_eq!(h["X-Trace"], "a:b:c", "{e}");
        assert_eq!(
            h["User-Agent"],
            format!("portolan/{}", env!("CARGO_PKG_VERSION")).as_str()
        );
    }
    // Multipart with the file param; the real app accepted it (201).
    let admin = entry(&log, "POST", "/api/v1/admin/products");
    assert_eq!(admin["status"], 201, "{admin}");
    assert_eq!(
        admin["form"],
        json!({"name": ["Kettle"], "price": ["9.5"], "description": [""], "category": [""]})
    );
    assert_eq!(
        admin["files"],
        json!({"image": {"filename": "portolan.txt", "content": "portolan"}})
    );
    assert_eq!(
        admin["content_type"].as_str().unwrap().split(';').next(),
        Some("multipart/form-data")
    );
    // Query strings, URL-encoded.
    let products = entry(&log, "GET", "/api/v1/catalog/products");
    assert_eq!(
        products["query"],
        json!({"q": ["tea & cake"], "category": [""], "page": ["2"], "per_page": [""], "sort": [""]})
    );
    // JSON body, header param, cookie param.
    let order = entry(&log, "POST", "/api/v1/orders/");
    assert_eq!(
        order["json"],
        json!({"shipping_address": "", "payment_method": "card"})
    );
    assert_eq!(order["content_type"], "application/json");
    assert_eq!(order["headers"]["Idempotency-Key"], "k 1");
    assert_eq!(order["cookies"], json!({"cart_id": "c-1"}));
    // Form body.
    let coupon = entry(&log, "POST", "/api/v1/cart/coupon");
    assert_eq!(coupon["form"], json!({"code": [""]}));
    assert_eq!(coupon["content_type"], "application/x-www-form-urlencoded");
    assert_eq!(coupon["cookies"], json!({"cart_id": "c-1"}));
    // An empty header param is still sent; the token reached the app.
    let export = entry(&log, "GET", "/api/v1/orders/export");
    assert_eq!(export["headers"]["X-Internal-Token"], "");
    assert_eq!(entry(&log, "GET", "/api/v1/auth/me")["status"], 200);
    assert_eq!(
        entry(&log, "GET", "/api/v1/orders/7/invoice")["query"],
        json!({"format": [""]})
    );

    // The summary line matches what the app saw.
    let all: Vec<&Value> = log.iter().collect();
    let summary = format!(
        "Sent 20 requests to {url}: 20 answered, 0 failed; status codes {}.",
        histogram(&all)
    );
    assert!(r.stderr.contains(&summary), "{summary}\n{}", r.stderr);
    // Each endpoint's status is recorded in the report; otherwise it is
    // exactly the one a scan without delivery writes.
    let written: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    let answered: Vec<u64> = written["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["details"]["status_code"].as_u64())
        .collect();
    assert_eq!(answered.len(), 20, "{written}");
    assert_eq!(
        entry(&log, "POST", "/api/v1/admin/products")["status"],
        written["endpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["method"] == "POST"
                && e["url"].as_str().unwrap().ends_with("/admin/products"))
            .unwrap()["details"]["status_code"]
    );
    assert_eq!(
        without_statuses(&fs::read_to_string(&out).unwrap()),
        without_statuses(&plain_report(dir.path(), &url, PVALUES))
    );
    assert_eq!(app.entries().len(), 20, "the plain scan sent nothing");
}

#[test]
fn matchers_select_then_filters_remove() {
    let dir = tmp();
    let app = flask(dir.path(), &[]);
    let url = format!("http://127.0.0.1:{}", app.port);
    let out = dir.path().join("report.json");
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &[
                "--send-req",
                "--use-matchers",
                "/cart",
                "--use-matchers",
                "get:/orders",
                "--use-filters",
                "DELETE",
                "--use-filters",
                "regex:/invoice$",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        requests(&app.entries()),
        pairs(&[
            ("GET", "/api/v1/cart/"),
            ("POST", "/api/v1/cart/items"),
            ("POST", "/api/v1/cart/coupon"),
            ("GET", "/api/v1/orders/"),
            ("GET", "/api/v1/orders/1"),
            ("GET", "/api/v1/orders/export"),
        ])
    );
    assert!(
        r.stderr
            .contains("2 matchers, 2 filters: 6 of 20 endpoints selected."),
        "{}",
        r.stderr
    );
    assert_eq!(
        without_statuses(&fs::read_to_string(&out).unwrap()),
        without_statuses(&plain_report(dir.path(), &url, &[]))
    );
}

#[test]
fn server_errors_and_timeouts_are_reported_per_endpoint_and_counted() {
    let dir = tmp();
    let app = flask(
        dir.path(),
        &[
            ("SHOP_FAIL_PATHS", "/api/v1/catalog/categories"),
            ("SHOP_SLOW_PATHS", "/api/v1/auth/me"),
        ],
    );
    let url = format!("http://127.0.0.1:{}", app.port);
    let out = dir.path().join("report.json");
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &[
                "--send-req",
                "--send-timeout",
                "1",
                "--use-matchers",
                "/catalog",
                "--use-matchers",
                "/auth/me",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "[W] GET {url}/api/v1/catalog/categories: HTTP 500"
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "[W] GET {url}/api/v1/auth/me: timed out after 1 s"
        )),
        "{}",
        r.stderr
    );
    let log = app.entries();
    let answered: Vec<&Value> = log
        .iter()
        .filter(|e| e["path"] != "/api/v1/auth/me")
        .collect();
    assert_eq!(answered.len(), 4);
    let summary = format!(
        "Sent 5 requests to {url}: 4 answered, 1 failed; status codes {}.",
        histogram(&answered)
    );
    assert!(r.stderr.contains(&summary), "{summary}\n{}", r.stderr);
    assert!(r.stderr.contains("[E] 1 deliveries failed"), "{}", r.stderr);
    assert_eq!(
        without_statuses(&fs::read_to_string(&out).unwrap()),
        without_statuses(&plain_report(dir.path(), &url, &[]))
    );
}

#[test]
fn refused_connections_are_retried_with_backoff_then_counted() {
    let dir = tmp();
    let url = format!("http://127.0.0.1:{}", free_port());
    let out = dir.path().join("report.json");
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &[
                "--send-req",
                "--send-retries",
                "2",
                "--use-matchers",
                "/catalog",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    let failures = r
        .stderr
        .lines()
        .filter(|l| {
            l.starts_with("[W] ")
                && l.contains(&format!(" {url}/api/v1/catalog/"))
                && l.contains(": connection failed: ")
                && l.ends_with("(after 3 attempts)")
        })
        .count();
    assert_eq!(failures, 4, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "Sent 4 requests to {url}: 0 answered, 4 failed; status codes none."
        )),
        "{}",
        r.stderr
    );
    // Backoff 0.25 s then 0.5 s before giving up.
    assert!(r.elapsed >= Duration::from_millis(750), "{:?}", r.elapsed);
    // The report is still written in full.
    assert_eq!(
        without_statuses(&fs::read_to_string(&out).unwrap()),
        without_statuses(&plain_report(dir.path(), &url, &[]))
    );
}

#[test]
fn concurrency_is_bounded_and_the_rate_is_limited() {
    let dir = tmp();
    let slow = flask(dir.path(), &[("SHOP_DELAY", "0.3")]);
    let url = format!("http://127.0.0.1:{}", slow.port);
    let out = dir.path().join("report.json");
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &["--send-req", "--send-concurrency", "2"],
        ),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let log = slow.entries();
    assert_eq!(log.len(), 20);
    let peak = log.iter().map(|e| e["inflight"].as_u64().unwrap()).max();
    assert_eq!(peak, Some(2), "at most 2 in flight, and 2 were");

    let app = flask(dir.path(), &[]);
    let url = format!("http://127.0.0.1:{}", app.port);
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &[
                "--send-req",
                "--send-rate",
                "5",
                "--use-matchers",
                "/catalog",
                "--use-matchers",
                "/auth",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut times: Vec<f64> = app
        .entries()
        .iter()
        .map(|e| e["arrived"].as_f64().unwrap())
        .collect();
    assert_eq!(times.len(), 8);
    times.sort_by(f64::total_cmp);
    // 8 requests at 5 per second: 7 intervals of 0.2 s (1.4 s); arrivals
    // can bunch up a little on a loaded machine, never by 0.4 s.
    assert!(times[7] - times[0] >= 1.0, "{times:?}");
}

#[test]
fn send_proxy_goes_through_mitmproxy_and_proxy_variables_are_ignored() {
    let dir = tmp();
    let app = flask(dir.path(), &[]);
    let proxy = mitmdump(dir.path());
    let url = format!("http://127.0.0.1:{}", app.port);
    let proxy_url = format!("127.0.0.1:{}", proxy.port);
    let out = dir.path().join("report.json");
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &[
                "--send-proxy",
                &proxy_url,
                "--send-req",
                "--use-matchers",
                "/catalog",
                "--with-headers",
                "X-Scan: portolan",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let seen = proxy.entries();
    let catalog = pairs(&[
        ("GET", "/api/v1/catalog/products"),
        ("GET", "/api/v1/catalog/products/1"),
        ("GET", "/api/v1/catalog/categories"),
        ("POST", "/api/v1/catalog/products/1/reviews"),
    ]);
    let proxied: Vec<(String, String)> = {
        let mut v: Vec<(String, String)> = seen
            .iter()
            .map(|e| {
                let path = e["path"].as_str().unwrap();
                (
                    e["method"].as_str().unwrap().to_string(),
                    path.split('?').next().unwrap().to_string(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(proxied, catalog);
    for e in &seen {
        assert_eq!(
            (e["scheme"].as_str(), e["host"].as_str()),
            (Some("http"), Some("127.0.0.1"))
        );
        assert_eq!(e["port"], app.port);
        assert_eq!(
            e["headers"]["x-scan"], "portolan",
            "hyper sends lower-case names"
        );
    }
    let review = seen.iter().find(|e| e["method"] == "POST").unwrap();
    assert_eq!(review["body"], r#"{"rating":"","comment":""}"#);
    // Through the proxy, then directly: the app saw each request twice.
    let mut twice = catalog.clone();
    twice.extend(catalog.clone());
    twice.sort();
    assert_eq!(requests(&app.entries()), twice);
    assert!(
        r.stderr.contains(&format!(
            "Sent 4 requests to {url} through proxy http://{proxy_url}: 4 answered, 0 failed"
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains(&format!("Sent 4 requests to {url}: 4 answered")),
        "{}",
        r.stderr
    );

    // Proxy environment variables never divert a direct replay.
    let env_proxy = format!("http://{proxy_url}");
    let r = portolan(
        dir.path(),
        &shop_args(
            &url,
            out.to_str().unwrap(),
            &["--send-req", "--use-matchers", "/catalog"],
        ),
        &[
            ("HTTP_PROXY", &env_proxy),
            ("http_proxy", &env_proxy),
            ("ALL_PROXY", &env_proxy),
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        proxy.entries().len(),
        4,
        "nothing more went through the proxy"
    );
    assert_eq!(app.entries().len(), 12);
}

#[test]
fn https_targets_go_through_connect_and_need_proxy_insecure() {
    let dir = tmp();
    let app = flask_tls(dir.path());
    let proxy = mitmdump(dir.path());
    let url = format!("https://127.0.0.1:{}", app.port);
    let proxy_url = format!("http://127.0.0.1:{}", proxy.port);
    let out = dir.path().join("report.json");
    let args = |extra: &[&'static str]| {
        let mut v: Vec<String> = [
            "-b",
            SHOP,
            "-u",
            &url,
            "-f",
            "json",
            "-o",
            out.to_str().unwrap(),
            "--send-proxy",
            &proxy_url,
            "--use-matchers",
            "/catalog/categories",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // The proxy re-signs the target with its own CA: refused by default.
    let a = args(&[]);
    let r = portolan(
        dir.path(),
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        &[],
    );
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    assert!(r.stderr.contains("1 failed"), "{}", r.stderr);
    assert!(
        r.stderr.to_lowercase().contains("certificate"),
        "{}",
        r.stderr
    );
    assert!(app.entries().is_empty());

    let a = args(&["--proxy-insecure"]);
    let r = portolan(
        dir.path(),
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let seen = proxy.entries();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["scheme"], "https");
    assert_eq!(seen[0]["path"], "/api/v1/catalog/categories");
    assert_eq!(
        requests(&app.entries()),
        pairs(&[("GET", "/api/v1/catalog/categories")])
    );
    assert_eq!(app.entries()[0]["status"], 200);
}

#[test]
fn websocket_endpoints_are_skipped_with_a_note() {
    let dir = tmp();
    let ws_app = dir.path().join("ws-app");
    fs::create_dir_all(&ws_app).unwrap();
    fs::write(
        ws_app.join("main.py"),
        "from fastapi import FastAPI, WebSocket\n\napp = FastAPI()\n\n\n@app.websocket(\"/ws/feed\")\nasync def feed(websocket: WebSocket):\n    await websocket.accept()\n",
    )
    .unwrap();
    let app = flask(dir.path(), &[]);
    let url = format!("http://127.0.0.1:{}", app.port);
    let r = portolan(
        dir.path(),
        &[
            "-b",
            SHOP,
            "-b",
            ws_app.to_str().unwrap(),
            "-u",
            &url,
            "-f",
            "json",
            "--send-req",
            "--use-matchers",
            "/catalog/categories",
            "--use-matchers",
            "/ws/",
        ],
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("Skipped 1 endpoint(s): websocket."),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("Sent 1 requests"), "{}", r.stderr);
    assert!(r.stderr.contains("; 1 skipped."), "{}", r.stderr);
    assert_eq!(
        requests(&app.entries()),
        pairs(&[("GET", "/api/v1/catalog/categories")])
    );
}

#[test]
fn send_es_bulk_indexes_one_document_per_endpoint() {
    let dir = tmp();
    let es = fake_es(dir.path(), &[("FAKE_ES_AUTH", "elastic:ch@nge:me")]);
    let out = dir.path().join("report.json");
    let es_url = format!("http://elastic:ch%40nge%3Ame@127.0.0.1:{}", es.port);
    let r = portolan(
        dir.path(),
        &shop_args(
            "http://shop.example",
            out.to_str().unwrap(),
            &[
                "--send-es",
                &es_url,
                "--send-es-index",
                "shop-endpoints",
                "--with-headers",
                "X-Opaque-Id: portolan:test",
                "--set-pvalue-path",
                "order_id=7",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        !r.stderr.contains("ch%40nge") && !r.stderr.contains("ch@nge"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "Indexed 20 of 20 endpoints into `shop-endpoints` at http://elastic:***@127.0.0.1:{}/.",
            es.port
        )),
        "{}",
        r.stderr
    );
    let bulks = es.entries();
    assert_eq!(bulks.len(), 1);
    let bulk = &bulks[0];
    assert_eq!(bulk["path"], "/_bulk");
    assert_eq!(bulk["headers"]["content-type"], "application/x-ndjson");
    assert_eq!(bulk["headers"]["x-opaque-id"], "portolan:test");
    let report: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    let endpoints = report["endpoints"].as_array().unwrap();
    let docs = bulk["docs"].as_array().unwrap();
    assert_eq!(docs.len(), endpoints.len());
    let mut ids = std::collections::BTreeSet::new();
    for (doc, endpoint) in docs.iter().zip(endpoints) {
        assert_eq!(doc["action"]["index"]["_index"], "shop-endpoints");
        assert!(ids.insert(doc["action"]["index"]["_id"].as_str().unwrap().to_string()));
        let mut source = doc["source"].as_object().unwrap().clone();
        let scan = source.remove("scan").unwrap();
        let stamp = source.remove("@timestamp").unwrap();
        assert_eq!(&Value::Object(source), endpoint);
        assert_eq!(scan["tool"], "portolan");
        assert_eq!(scan["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(scan["base_paths"], json!([SHOP]));
        assert_eq!(scan["base_url"], "http://shop.example");
        assert_eq!(scan["id"].as_str().unwrap().len(), 16);
        assert_eq!(scan["started_at"], stamp);
        assert!(stamp.as_str().unwrap().ends_with('Z'));
    }
    assert!(docs
        .iter()
        .any(|d| d["source"]["url"] == "http://shop.example/api/v1/orders/7"));
}

#[test]
fn send_es_failures_are_reported_and_the_report_is_kept() {
    let dir = tmp();
    let es = fake_es(
        dir.path(),
        &[
            ("FAKE_ES_AUTH", "elastic:right"),
            ("FAKE_ES_REJECT", "/admin/"),
        ],
    );
    let out = dir.path().join("report.json");
    let url = "http://shop.example";
    // Wrong credentials: every document fails, with the service's reason.
    let wrong = format!("http://elastic:wrong@127.0.0.1:{}", es.port);
    let r = portolan(
        dir.path(),
        &shop_args(url, out.to_str().unwrap(), &["--send-es", &wrong]),
        &[],
    );
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("HTTP 401: security_exception: missing authentication credentials"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("Indexed 0 of 20 endpoints"),
        "{}",
        r.stderr
    );
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        plain_report(dir.path(), url, &[])
    );
    // Authorization through --with-headers; the service rejects two documents.
    let r = portolan(
        dir.path(),
        &shop_args(
            url,
            out.to_str().unwrap(),
            &[
                "--send-es",
                &format!("http://127.0.0.1:{}", es.port),
                "--with-headers",
                "Authorization: Basic ZWxhc3RpYzpyaWdodA==",
            ],
        ),
        &[],
    );
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("Indexed 18 of 20 endpoints into `portolan`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(
        "[W] not indexed: POST http://shop.example/api/v1/admin/products: status 400: mapper_parsing_exception: failed to parse field [url]"
    ), "{}", r.stderr);
    // Nothing listens: a connection failure per document.
    let closed = format!("http://127.0.0.1:{}", free_port());
    let r = portolan(
        dir.path(),
        &shop_args(
            url,
            out.to_str().unwrap(),
            &["--send-es", &closed, "--send-retries", "0"],
        ),
        &[],
    );
    assert_eq!(r.code, Some(5), "{}", r.stderr);
    assert!(r.stderr.contains("connection failed"), "{}", r.stderr);
}

#[test]
fn delivery_flags_are_checked_before_scanning() {
    let dir = tmp();
    for (args, message) in [
        (vec!["--send-req"], "--send-req needs -u"),
        (
            vec!["--with-headers", "X: 1"],
            "--with-headers only applies to a delivery",
        ),
        (
            vec!["--send-es", "http://127.0.0.1:9200/noir/_doc"],
            "--send-es-index",
        ),
        (
            vec!["-u", "http://h", "--send-req", "--with-headers", "NoColon"],
            "Name: Value",
        ),
        (
            vec!["-u", "http://h", "--send-proxy", "http://127.0.0.1"],
            "host and port",
        ),
    ] {
        let mut all = vec!["-b", SHOP];
        all.extend(args.iter());
        let r = portolan(dir.path(), &all, &[]);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{args:?}: {}", r.stderr);
        assert!(
            !r.stderr.contains("Loading analyzer plugins"),
            "refused before scanning"
        );
    }
}
