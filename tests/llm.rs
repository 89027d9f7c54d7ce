//! AI analysis end to end: the real binary against a loopback server that
//! speaks the OpenAI chat-completions contract (and Ollama's `/api/chat`)
//! with scripted answers, recording every request it receives.
//!
//! The fixture `tests/fixtures-llm/mixed/app` holds a Flask service (the
//! static analyzer's), a gateway in an invented Lua framework ("Harbor")
//! and a Python file in another invented framework ("pyroute"), plus files
//! that must never be sent: a helper with no routes, a test file, a README
//! and a `.env` secret.

use std::collections::BTreeSet;
mod common;

use common::copy_tree;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn case_dir() -> PathBuf {
    repo().join("tests/fixtures-llm/mixed")
}

/// Plugin cache shared by the tests; AI answers are kept apart by a model
/// name unique to each test run (the cache key includes the model). The
/// cache is the one every end-to-end test binary uses (`portolan-tests`,
/// compiled once per suite run by `scripts/test`).
fn cache_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-llm-tests");
        fs::create_dir_all(base.join("no-user-plugins")).unwrap();
        fs::create_dir_all(shared_cache()).unwrap();
        base
    })
}

fn shared_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests/cache")
}

fn unique_model(name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{name}-{}-{nanos}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

fn portolan(cwd: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .args(args)
        .env("PORTOLAN_CACHE_DIR", shared_cache())
        .env("PORTOLAN_PLUGIN_DIR", cache_dir().join("no-user-plugins"))
        .env_remove("PORTOLAN_AI_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("NO_COLOR");
    cmd.output().expect("run portolan")
}

fn portolan_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .args(args)
        .env("PORTOLAN_CACHE_DIR", shared_cache())
        .env("PORTOLAN_PLUGIN_DIR", cache_dir().join("no-user-plugins"))
        .env_remove("PORTOLAN_AI_KEY")
        .env_remove("OPENAI_API_KEY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run portolan")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn report(o: &Output) -> Value {
    assert!(o.status.success(), "exit {:?}\n{}", o.status, stderr(o));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e})\nstderr:\n{}", stderr(o)))
}

// ---------------------------------------------------------------- server

#[derive(Clone, Debug)]
struct Request {
    path: String,
    authorization: Option<String>,
    body: Value,
}

impl Request {
    /// The text of the last user message.
    fn user(&self) -> String {
        self.body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|m| m["role"] == "user")
            .map(|m| m["content"].as_str().unwrap().to_string())
            .unwrap_or_default()
    }

    /// The files sent (their `### File:` headers), with line ranges.
    fn files(&self) -> Vec<String> {
        let first_user = self.body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "user")
            .map(|m| m["content"].as_str().unwrap().to_string())
            .unwrap_or_default();
        first_user
            .lines()
            .filter_map(|l| l.strip_prefix("### File: "))
            .map(str::to_string)
            .collect()
    }

    fn all_text(&self) -> String {
        self.body.to_string()
    }
}

type Responder = dyn Fn(&Request, usize) -> (u16, Value) + Send + Sync;

struct Server {
    url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    fn start(responder: Box<Responder>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests: Arc<Mutex<Vec<Request>>> = Arc::default();
        let recorded = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request_line = String::new();
                if reader.read_line(&mut request_line).is_err() {
                    continue;
                }
                let path = request_line
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or("")
                    .to_string();
                let (mut length, mut authorization) = (0usize, None);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    let (name, value) = line.split_once(':').unwrap();
                    match name.to_ascii_lowercase().as_str() {
                        "content-length" => length = value.trim().parse().unwrap(),
                        "authorization" => authorization = Some(value.trim().to_string()),
                        _ => {}
                    }
                }
                let mut body = vec![0; length];
                reader.read_exact(&mut body).unwrap();
                let req = Request {
                    path,
                    authorization,
                    body: serde_json::from_slice(&body).unwrap_or(Value::Null),
                };
                let n = {
                    let mut r = recorded.lock().unwrap();
                    r.push(req.clone());
                    r.len() - 1
                };
                let (status, answer) = responder(&req, n);
                let text = answer.to_string();
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                    text.len()
                );
            }
        });
        Server { url, requests }
    }

    fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// A chat-completions answer whose content is `content`.
fn openai_answer(content: &str) -> Value {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "scripted",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]
    })
}

/// What a good model says about each fixture file.
fn scripted_endpoints(file: &str) -> Vec<Value> {
    let ep = |line: u32, method: &str, url: &str, params: Value| json!({"file": file, "line": line, "method": method, "url": url, "params": params});
    match file {
        "app/inventory.lua" => vec![
            ep(
                9,
                "GET",
                "/health",
                json!([{"name": "X-Probe", "param_type": "header"}]),
            ),
            ep(
                13,
                "GET",
                "/api/v1/items",
                json!([{"name": "page", "param_type": "query"}]),
            ),
            ep(
                18,
                "POST",
                "/api/v1/items",
                json!([{"name": "name", "param_type": "json"}, {"name": "price", "param_type": "json"}]),
            ),
            ep(
                23,
                "GET",
                "/api/v1/items/{id}",
                json!([{"name": "id", "param_type": "path"}]),
            ),
        ],
        "app/legacy.py" => vec![ep(
            7,
            "GET",
            "/legacy/report",
            json!([{"name": "session", "param_type": "cookie"}]),
        )],
        // tests/fixtures-llm/dsl: route DSLs without parentheses.
        "app/src/bookshop.nim" => vec![
            ep(9, "GET", "/", json!([])),
            ep(
                12,
                "GET",
                "/books/{id}",
                json!([{"name": "id", "param_type": "path"}]),
            ),
            ep(
                15,
                "POST",
                "/books",
                json!([{"name": "title", "param_type": "json"}]),
            ),
        ],
        "app/lib/Greeter.rakumod" => vec![
            ep(
                5,
                "GET",
                "/greet/{name}",
                json!([{"name": "name", "param_type": "path"}]),
            ),
            ep(8, "POST", "/orders", json!([])),
        ],
        "app/bin/main.ml" => vec![
            ep(6, "GET", "/", json!([])),
            ep(
                7,
                "GET",
                "/users/{id}",
                json!([{"name": "id", "param_type": "path"}]),
            ),
            ep(9, "POST", "/users", json!([])),
        ],
        "app/src/shop.v" => vec![
            ep(
                9,
                "GET",
                "/products/{id}",
                json!([{"name": "id", "param_type": "path"}]),
            ),
            ep(
                14,
                "POST",
                "/products",
                json!([{"name": "name", "param_type": "form"}]),
            ),
        ],
        _ => vec![],
    }
}

/// The answer content for a request: the scripted endpoints of every file
/// it carries whose line falls in the part sent.
fn good_content(req: &Request) -> String {
    let mut endpoints = Vec::new();
    for header in req.files() {
        let (file, range) = header.split_once(" (lines ").unwrap();
        let (first, rest) = range.split_once('-').unwrap();
        let last = rest.split_once(' ').unwrap().0;
        let (first, last): (u64, u64) = (first.parse().unwrap(), last.parse().unwrap());
        for e in scripted_endpoints(file) {
            let line = e["line"].as_u64().unwrap();
            if (first..=last).contains(&line) {
                endpoints.push(e);
            }
        }
    }
    json!({ "endpoints": endpoints }).to_string()
}

fn good_server() -> Server {
    Server::start(Box::new(|req, _| (200, openai_answer(&good_content(req)))))
}

fn sent_files(requests: &[Request]) -> BTreeSet<String> {
    requests
        .iter()
        .flat_map(|r| r.files())
        .map(|h| h.split(" (lines ").next().unwrap().to_string())
        .collect()
}

fn ai_args<'a>(url: &'a str, model: &'a str) -> Vec<&'a str> {
    vec![
        "-b",
        "app",
        "-f",
        "json",
        "--no-color",
        "--ai-provider",
        url,
        "--ai-model",
        model,
        "--ai-key",
        "sk-test-key",
    ]
}

fn expected_report() -> Value {
    serde_json::from_str(&fs::read_to_string(case_dir().join("expected.json")).unwrap()).unwrap()
}

// ---------------------------------------------------------------- tests

#[test]
fn without_ai_flags_nothing_is_sent() {
    let server = good_server();
    // Keys in the environment do not turn the mode on.
    let out = portolan_env(
        &case_dir(),
        &["-b", "app", "-f", "json"],
        &[("PORTOLAN_AI_KEY", "sk-env"), ("OPENAI_API_KEY", "sk-env")],
    );
    let r = report(&out);
    let techs: BTreeSet<&str> = r["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["details"]["technology"].as_str().unwrap())
        .collect();
    assert_eq!(techs, BTreeSet::from(["python_flask"]));
    assert!(!stderr(&out).contains("AI"), "{}", stderr(&out));
    // An AI flag without a provider is a usage error, not a request.
    let out = portolan(&case_dir(), &["-b", "app", "--ai-model", "m"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--ai-model needs --ai-provider"));
    let out = portolan(&case_dir(), &["-b", "app", "--ai-provider", &server.url]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs --ai-model"));
    assert_eq!(server.requests().len(), 0);
}

#[test]
fn ai_endpoints_merge_with_static_ones() {
    let server = good_server();
    let model = unique_model("merge");
    let out = portolan(&case_dir(), &ai_args(&server.url, &model));
    assert_eq!(report(&out), expected_report(), "stderr:\n{}", stderr(&out));
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one request under the default budget");
    let req = &requests[0];
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.authorization.as_deref(), Some("Bearer sk-test-key"));
    assert_eq!(req.body["model"], model.as_str());
    assert_eq!(req.body["stream"], false);
    assert_eq!(req.body["messages"][0]["role"], "system");
    let format = &req.body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["strict"], true);
    assert_eq!(
        format["json_schema"]["schema"]["required"],
        json!(["endpoints"])
    );
    // Only the unclaimed server code: not the Flask file, the helper with no
    // routes, the test file, the README or the .env secret.
    assert_eq!(
        req.files(),
        vec![
            "app/inventory.lua (lines 1-29 of 29)",
            "app/legacy.py (lines 1-9 of 9)"
        ]
    );
    let text = req.all_text();
    for never in [
        "do-not-send-me",
        "only-in-tests",
        "M.clamp",
        "@app.route",
        "lists items",
    ] {
        assert!(!text.contains(never), "`{never}` was sent");
    }
    // Lines are numbered so the model can cite them.
    assert!(req
        .user()
        .contains("\n13| api:get(\"/items\", function(req, res)\n"));
    let err = stderr(&out);
    assert!(
        err.contains(
            "AI: 2 files selected, 0 answered from the cache; 2 to send in 1 requests, about"
        ),
        "{err}"
    );
}

#[test]
fn requests_follow_the_token_budget() {
    let server = good_server();
    let model = unique_model("budget");
    let mut args = ai_args(&server.url, &model);
    // The fixed prompt and schema are ~520 tokens: 80 % of an 800-token
    // request leaves ~120 tokens for files, so the 29-line Lua file (~200
    // tokens) is cut in parts and each file goes alone.
    args.extend(["--ai-max-token", "800"]);
    let out = portolan(&case_dir(), &args);
    assert_eq!(report(&out), expected_report(), "stderr:\n{}", stderr(&out));
    let requests = server.requests();
    assert!(requests.len() >= 3, "{} requests", requests.len());
    let mut lua_lines = Vec::new();
    for r in &requests {
        let files = r.files();
        assert_eq!(files.len(), 1, "one section per request: {files:?}");
        let user_tokens = r.user().len().div_ceil(4);
        let system_tokens = r.body["messages"][0]["content"].as_str().unwrap().len() / 4;
        let schema_tokens = r.body["response_format"]["json_schema"]["schema"]
            .to_string()
            .len()
            / 4;
        assert!(
            user_tokens + system_tokens + schema_tokens <= 640,
            "request over budget: {files:?}"
        );
        if let Some(range) = files[0].strip_prefix("app/inventory.lua (lines ") {
            lua_lines.push(range.to_string());
        }
    }
    assert!(lua_lines.len() >= 2, "{lua_lines:?}");
    assert!(lua_lines[0].starts_with("1-"), "{lua_lines:?}");
    assert!(lua_lines.last().unwrap().ends_with("-29 of 29)"));
    assert_eq!(
        sent_files(&requests),
        BTreeSet::from(["app/inventory.lua".to_string(), "app/legacy.py".to_string()])
    );
}

#[test]
fn a_rerun_sends_nothing_and_a_changed_file_alone_is_sent_again() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&case_dir().join("app"), &dir.path().join("app"));
    let server = good_server();
    let model = unique_model("cache");
    let args = ai_args(&server.url, &model);
    let first = report(&portolan(dir.path(), &args));
    assert_eq!(first, expected_report());
    assert_eq!(server.requests().len(), 1);
    let out = portolan(dir.path(), &args);
    assert_eq!(report(&out), first);
    assert_eq!(server.requests().len(), 1, "the second run sent something");
    assert!(stderr(&out).contains("2 answered from the cache; 0 to send in 0 requests"));
    // Another model is another cache entry.
    let other = unique_model("cache-other");
    portolan(dir.path(), &ai_args(&server.url, &other));
    assert_eq!(server.requests().len(), 2);
    // Editing one file sends that file only.
    let legacy = dir.path().join("app/legacy.py");
    let text = fs::read_to_string(&legacy).unwrap();
    fs::write(
        &legacy,
        text.replace("\"\"\"Reports", "\"\"\"Monthly reports"),
    )
    .unwrap();
    assert_eq!(report(&portolan(dir.path(), &args)), first);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[2].files(), vec!["app/legacy.py (lines 1-9 of 9)"]);
    // --ai-no-cache sends everything again.
    let mut no_cache = args.clone();
    no_cache.push("--ai-no-cache");
    portolan(dir.path(), &no_cache);
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn a_malformed_answer_is_retried_once_then_reported_and_ignored() {
    let server = Server::start(Box::new(|_, _| {
        (200, openai_answer(r#"{"routes": ["/api/v1/items"]}"#))
    }));
    let model = unique_model("malformed");
    let out = portolan(&case_dir(), &ai_args(&server.url, &model));
    let r = report(&out);
    // The static results stand, alone.
    let urls: Vec<(&str, &str, &str)> = r["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["method"].as_str().unwrap(),
                e["url"].as_str().unwrap(),
                e["details"]["technology"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        urls,
        vec![
            ("GET", "/health", "python_flask"),
            ("DELETE", "/orders/<int:order_id>", "python_flask"),
            ("GET", "/orders/<int:order_id>", "python_flask"),
        ]
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one retry");
    // The retry shows the model its answer and what was wrong.
    let retry = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(retry.len(), 4);
    assert_eq!(retry[2]["role"], "assistant");
    assert_eq!(retry[2]["content"], r#"{"routes": ["/api/v1/items"]}"#);
    assert!(retry[3]["content"]
        .as_str()
        .unwrap()
        .contains("does not match the schema"));
    let err = stderr(&out);
    assert!(
        err.contains("[W] AI: no usable answer for app/inventory.lua, app/legacy.py: malformed answer, twice"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0));
    // Nothing was cached: the next run asks again.
    portolan(&case_dir(), &ai_args(&server.url, &model));
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn a_malformed_answer_then_a_good_one_is_used() {
    let server = Server::start(Box::new(|req, n| {
        let content = if n == 0 {
            "Sure! Here are the endpoints: GET /api/v1/items".to_string()
        } else {
            good_content(req)
        };
        (200, openai_answer(&content))
    }));
    let model = unique_model("retry-ok");
    let out = portolan(&case_dir(), &ai_args(&server.url, &model));
    assert_eq!(report(&out), expected_report(), "{}", stderr(&out));
    assert_eq!(server.requests().len(), 2);
    assert!(!stderr(&out).contains("[W]"), "{}", stderr(&out));
}

#[test]
fn endpoints_citing_files_or_lines_not_sent_are_dropped() {
    let server = Server::start(Box::new(|_, _| {
        let answer = json!({"endpoints": [
            {"file": "app/app.py", "line": 7, "method": "GET", "url": "/invented", "params": []},
            {"file": "app/legacy.py", "line": 400, "method": "GET", "url": "/too-far", "params": []},
            {"file": "app/legacy.py", "line": 7, "method": "GET", "url": "/legacy/report evil", "params": []},
            {"file": "legacy.py", "line": 7, "method": "GET", "url": "/legacy/report", "params": []}
        ]});
        (200, openai_answer(&format!("```json\n{answer}\n```")))
    }));
    let model = unique_model("citing");
    let out = portolan(&case_dir(), &ai_args(&server.url, &model));
    let r = report(&out);
    let ai: Vec<&Value> = r["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["details"]["technology"] == "ai")
        .collect();
    assert_eq!(ai.len(), 1);
    assert_eq!(ai[0]["url"], "/legacy/report");
    assert_eq!(
        ai[0]["details"]["code_paths"],
        json!([{"path": "app/legacy.py", "line": 7}])
    );
    assert!(
        stderr(&out).contains("ignored 3 endpoints"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn dry_run_prints_the_requests_and_sends_nothing() {
    let server = good_server();
    let model = unique_model("dry");
    let mut args = ai_args(&server.url, &model);
    args.extend(["--ai-dry-run", "--no-log"]);
    let out = portolan(&case_dir(), &args);
    let r = report(&out);
    assert!(r["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["details"]["technology"] == "python_flask"));
    assert_eq!(server.requests().len(), 0);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("POST {}/v1/chat/completions\n", server.url)),
        "{err}"
    );
    assert!(err.contains("Authorization: Bearer <key redacted>"));
    assert!(!err.contains("sk-test-key"));
    assert!(err.contains("nothing sent"));
    // The body printed is the body a real run sends.
    let printed: Value = err
        .lines()
        .find(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .expect("a request body");
    let real = good_server();
    let mut args = ai_args(&real.url, &model);
    args.push("--ai-no-cache");
    portolan(&case_dir(), &args);
    assert_eq!(real.requests()[0].body, printed);
}

#[test]
fn ollama_native_api() {
    let server = Server::start(Box::new(|req, _| {
        (
            200,
            json!({"model": "m", "message": {"role": "assistant", "content": good_content(req)}, "done": true}),
        )
    }));
    let model = unique_model("ollama");
    let url = format!("{}/api/chat", server.url);
    let out = portolan(
        &case_dir(),
        &[
            "-b",
            "app",
            "-f",
            "json",
            "--ai-provider",
            &url,
            "--ai-model",
            &model,
        ],
    );
    assert_eq!(report(&out), expected_report(), "{}", stderr(&out));
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/api/chat");
    assert_eq!(requests[0].authorization, None);
    assert_eq!(requests[0].body["format"]["required"], json!(["endpoints"]));
    assert!(requests[0].body.get("response_format").is_none());
}

#[test]
fn keys_come_from_the_environment_but_vendor_keys_stay_with_their_vendor() {
    let server = good_server();
    let model = unique_model("keys");
    let args = [
        "-b",
        "app",
        "-f",
        "json",
        "--ai-provider",
        &server.url,
        "--ai-model",
        &model,
        "--ai-no-cache",
    ];
    portolan_env(&case_dir(), &args, &[("OPENAI_API_KEY", "sk-openai")]);
    portolan_env(
        &case_dir(),
        &args,
        &[
            ("OPENAI_API_KEY", "sk-openai"),
            ("PORTOLAN_AI_KEY", "sk-portolan"),
        ],
    );
    let auth: Vec<Option<String>> = server
        .requests()
        .into_iter()
        .map(|r| r.authorization)
        .collect();
    assert_eq!(auth, vec![None, Some("Bearer sk-portolan".into())]);
    // openai without any key is refused before anything is sent.
    let out = portolan(
        &case_dir(),
        &[
            "-b",
            "app",
            "--ai-provider",
            "openai",
            "--ai-model",
            "gpt-4o-mini",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs a key"));
}

#[test]
fn http_errors_are_warnings_and_static_results_stand() {
    let server = Server::start(Box::new(|_, _| {
        (
            429,
            json!({"error": {"message": "Rate limit reached", "type": "rate_limit"}}),
        )
    }));
    let model = unique_model("http-error");
    let out = portolan(&case_dir(), &ai_args(&server.url, &model));
    let r = report(&out);
    assert_eq!(r["endpoints"].as_array().unwrap().len(), 3);
    assert!(
        stderr(&out).contains("HTTP 429: Rate limit reached"),
        "{}",
        stderr(&out)
    );
    assert_eq!(server.requests().len(), 1, "HTTP errors are not retried");
}

fn dsl_dir() -> PathBuf {
    repo().join("tests/fixtures-llm/dsl")
}

/// (method, url, file:line, technology) of every endpoint in a report.
fn endpoint_keys(r: &Value) -> BTreeSet<(String, String, String, String)> {
    r["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let method = e["method"].as_str().unwrap().to_string();
            let url = e["url"].as_str().unwrap().to_string();
            let tech = e["details"]["technology"].as_str().unwrap().to_string();
            e["details"]["code_paths"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |c| {
                    (
                        method.clone(),
                        url.clone(),
                        format!("{}:{}", c["path"].as_str().unwrap(), c["line"]),
                        tech.clone(),
                    )
                })
        })
        .collect()
}

#[test]
fn route_dsls_in_languages_without_an_analyzer_are_sent() {
    // Nim (Jester), Raku (Cro), OCaml (Dream) and V (vweb): routes written
    // as DSL blocks or attributes, without `get(`-style calls. No analyzer
    // covers these languages, so only the AI can find them.
    let server = good_server();
    let model = unique_model("dsl");
    let out = portolan(&dsl_dir(), &ai_args(&server.url, &model));
    let r = report(&out);
    let requests = server.requests();
    assert_eq!(
        sent_files(&requests),
        BTreeSet::from(
            [
                "app/bin/main.ml",
                "app/lib/Greeter.rakumod",
                "app/src/bookshop.nim",
                "app/src/shop.v",
            ]
            .map(String::from)
        ),
        "the HTTP client and the test file stay out; stderr:\n{}",
        stderr(&out)
    );
    let text: String = requests.iter().map(Request::all_text).collect();
    assert!(!text.contains("newHttpClient"), "the client was sent");
    assert!(!text.contains("the index answers"), "test code was sent");
    let key = |m: &str, u: &str, at: &str| {
        (
            m.to_string(),
            u.to_string(),
            at.to_string(),
            "ai".to_string(),
        )
    };
    assert_eq!(
        endpoint_keys(&r),
        BTreeSet::from([
            key("GET", "/", "app/bin/main.ml:6"),
            key("GET", "/", "app/src/bookshop.nim:9"),
            key("GET", "/users/{id}", "app/bin/main.ml:7"),
            key("POST", "/users", "app/bin/main.ml:9"),
            key("GET", "/greet/{name}", "app/lib/Greeter.rakumod:5"),
            key("POST", "/orders", "app/lib/Greeter.rakumod:8"),
            key("GET", "/books/{id}", "app/src/bookshop.nim:12"),
            key("POST", "/books", "app/src/bookshop.nim:15"),
            key("GET", "/products/{id}", "app/src/shop.v:9"),
            key("POST", "/products", "app/src/shop.v:14"),
        ]),
        "stderr:\n{}",
        stderr(&out)
    );
    // The cache answers a rerun: nothing is sent again.
    let again = portolan(&dsl_dir(), &ai_args(&server.url, &model));
    assert_eq!(report(&again), r);
    assert_eq!(server.requests().len(), requests.len());
    assert!(
        stderr(&again).contains("4 answered from the cache; 0 to send"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn the_file_cap_keeps_the_strongest_route_dsls() {
    // With --ai-max-files 3 the Dream file, which has no framework import
    // line (its score is the lowest), is the one left out.
    let server = good_server();
    let model = unique_model("dsl-cap");
    let mut args = ai_args(&server.url, &model);
    args.extend(["--ai-max-files", "3"]);
    let out = portolan(&dsl_dir(), &args);
    report(&out);
    assert_eq!(
        sent_files(&server.requests()),
        BTreeSet::from(
            [
                "app/lib/Greeter.rakumod",
                "app/src/bookshop.nim",
                "app/src/shop.v",
            ]
            .map(String::from)
        )
    );
}
