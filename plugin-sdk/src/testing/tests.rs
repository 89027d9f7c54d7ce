use super::*;
use crate::model::Param;

/// Lines `METHOD URL [query-param]` in `*.route` files (and `routes/*.txt`
/// by path glob) are endpoints; `mount PREFIX URL` lines become facts that
/// `link` turns into `GET PREFIX+URL`.
struct Tiny;

impl Analyzer for Tiny {
    fn tech(&self) -> Tech {
        Tech::new("tiny_web", "Tiny", "Web").files(["*.route", "routes/*.txt"])
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        for (i, line) in file.content.lines().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let line_no = i as u32 + 1;
            match words.as_slice() {
                ["mount", prefix, url] => {
                    out.fact(&(format!("{prefix}{url}"), file.path.clone(), line_no))
                }
                [method, url, rest @ ..] => {
                    let mut e = Endpoint::new(method, *url).at(file, line_no);
                    for q in rest {
                        e.push_param(Param::query(*q));
                    }
                    out.endpoint(e);
                }
                _ => {}
            }
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(facts
            .iter::<(String, String, u32)>()
            .map(|(url, path, line)| Endpoint::new("GET", url).at_path(path, line))
            .collect())
    }
}

struct Spec;

impl Analyzer for Spec {
    fn tech(&self) -> Tech {
        Tech::new("tiny_spec", "Spec", "Spec")
            .files(["*.spec"])
            .specification()
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        for (i, line) in file.content.lines().enumerate() {
            if let Some((method, url)) = line.split_once(' ') {
                let e = Endpoint::new(method, url)
                    .at(file, i as u32 + 1)
                    .param(Param::header("X-Key"));
                out.endpoint(e);
            }
        }
    }
}

/// A fresh fixture root with one case `tiny_web/<case>`.
fn fixture(name: &str, files: &[(&str, &str)], expected: &Value) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "portolan-sdk-testing-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&root);
    let case = root.join("tiny_web").join(name);
    for (path, content) in files {
        let path = case.join("app").join(path);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, content).expect("write");
    }
    fs::write(
        case.join("expected.json"),
        serde_json::to_string_pretty(expected).expect("json"),
    )
    .expect("write expected");
    root
}

fn ep(method: &str, url: &str, params: Value, paths: Value, tech: &str) -> Value {
    json!({
        "url": url, "method": method, "params": params,
        "details": {"code_paths": paths, "technology": tech},
        "protocol": "http", "tags": [], "internal": false,
    })
}

fn p(name: &str, kind: &str) -> Value {
    json!({"name": name, "value": "", "param_type": kind, "tags": []})
}

const FILES: &[(&str, &str)] = &[
    // Out of order on purpose: the report is sorted by path then line.
    ("b.route", "post users//new\nFROB /x\n"),
    (
        "a.route",
        "GET /users/:id q\nmount /api /ping\nGET /users/{id} q r\n",
    ),
    ("routes/more.txt", "DELETE /gone\n"),
    ("notes.txt", "GET /not-wanted\n"),
    ("deep/routes/x.txt", "GET /not-wanted-either\n"),
];

fn expected() -> Value {
    json!({"endpoints": [
        ep("GET", "/users/:id", json!([p("q", "query"), p("r", "query"), p("id", "path")]),
           json!([{"path": "app/a.route", "line": 1}, {"path": "app/a.route", "line": 3}]), "tiny_web"),
        ep("GET", "/api/ping", json!([]), json!([{"path": "app/a.route", "line": 2}]), "tiny_web"),
        ep("POST", "/users/new", json!([]), json!([{"path": "app/b.route", "line": 1}]), "tiny_web"),
        ep("GET", "/x", json!([]), json!([{"path": "app/b.route", "line": 2}]), "tiny_web"),
        ep("DELETE", "/gone", json!([]), json!([{"path": "app/routes/more.txt", "line": 1}]), "tiny_web"),
    ], "passive_results": []})
}

#[test]
fn matching_fixture_passes() {
    let root = fixture("ok", FILES, &expected());
    let fixtures = Fixtures::new(&[&Tiny], &root).cases("tiny_web", &["ok"]);
    assert_eq!(fixtures.failures(), Vec::<String>::new());
    check_fixtures(&[&Tiny], &root);
    let _ = fs::remove_dir_all(root);
}

#[test]
fn mismatch_is_detected_and_written() {
    let mut want = expected();
    want["endpoints"][2]["params"] = json!([p("name", "json")]);
    let root = fixture("bad", FILES, &want);
    let failures = Fixtures::new(&[&Tiny], &root).failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("first difference at endpoint #2"),
        "{}",
        failures[0]
    );
    assert!(failures[0].contains("POST /users/new"), "{}", failures[0]);
    let written = std::env::temp_dir().join("portolan-tiny_web-bad.actual.json");
    let actual: Value =
        serde_json::from_str(&fs::read_to_string(written).expect("actual written")).expect("json");
    assert_eq!(actual, expected());
    let _ = fs::remove_dir_all(root);
}

#[test]
fn case_list_and_missing_cases_are_failures() {
    let root = fixture("list", FILES, &expected());
    let failures = Fixtures::new(&[&Tiny, &Spec], &root)
        .cases("tiny_web", &["list", "other"])
        .failures();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("fixture cases are"));
    assert!(failures[1].contains("tiny_spec: no fixture case"));
    let _ = fs::remove_dir_all(root);
}

#[test]
fn spec_endpoints_sort_after_code_and_merge_into_it() {
    let root = fixture(
        "spec",
        &[
            ("a.route", "GET /b\nGET /o/<int:oid>\n"),
            ("0.spec", "GET /o/{oid}\nGET /a\n"),
        ],
        &json!({}),
    );
    let app = root.join("tiny_web/spec/app");
    let got = report(&[&Spec, &Tiny], &app);
    let want = json!({"endpoints": [
        ep("GET", "/b", json!([]), json!([{"path": "app/a.route", "line": 1}]), "tiny_web"),
        ep("GET", "/o/<int:oid>", json!([p("X-Key", "header"), p("oid", "path")]),
           json!([{"path": "app/a.route", "line": 2}, {"path": "app/0.spec", "line": 1}]), "tiny_web"),
        ep("GET", "/a", json!([p("X-Key", "header")]), json!([{"path": "app/0.spec", "line": 2}]), "tiny_spec"),
    ], "passive_results": []});
    assert_eq!(got, want);
    // Only the analyzers passed in report.
    assert_eq!(
        report(&[&Spec], &app)["endpoints"].as_array().map(Vec::len),
        Some(2)
    );
    let _ = fs::remove_dir_all(root);
}

#[test]
fn globs_follow_the_host() {
    assert!(glob_matches("*.py", "a/b/c.py"));
    assert!(!glob_matches("*.py", "a/b/c.pyc"));
    assert!(glob_matches("go.mod", "svc/go.mod"));
    assert!(glob_matches(
        "application*.yml",
        "src/main/resources/application-dev.yml"
    ));
    assert!(glob_matches("routes/*.php", "routes/api.php"));
    assert!(glob_matches("/routes/*.php", "routes/api.php"));
    assert!(!glob_matches("routes/*.php", "x/routes/api.php"));
    assert!(!glob_matches("routes/*.php", "routes/v1/api.php"));
    assert!(glob_matches("**/routes/*.php", "x/routes/api.php"));
    assert!(glob_matches("**/routes/*.php", "routes/api.php"));
    assert!(glob_matches("*.{yml,yaml}", "openapi.yaml"));
    assert!(glob_matches("v[0-9].?s", "v2.js"));
    assert!(!glob_matches("v[!0-9].js", "v2.js"));
}

#[test]
fn urls_and_placeholders_like_the_host() {
    assert_eq!(normalize_url("users"), "/users");
    assert_eq!(normalize_url("//a//b"), "/a/b");
    assert_eq!(normalize_url("/a//b?x=//y"), "/a/b?x=//y");
    assert_eq!(normalize_url("https://h//x"), "https://h/x");
    assert_eq!(
        path_placeholders("/u/<int:uid>/:n(\\d+)/{s:[a-z]+}/*rest"),
        vec!["uid", "n", "s", "rest"]
    );
    assert_eq!(unify_placeholders("/o/:id?/x?q=<v>"), "/o/{id}/x?q=<v>");
}

#[test]
fn cases_spanning_technologies_run_the_ones_passed_in() {
    let mut want = expected();
    let list = want["endpoints"].as_array_mut().expect("list");
    list.push(ep(
        "PUT",
        "/doc",
        json!([p("X-Key", "header")]),
        json!([{"path": "app/z.spec", "line": 1}]),
        "tiny_spec",
    ));
    list.push(ep(
        "GET",
        "/elsewhere",
        json!([]),
        json!([{"path": "app/x.py", "line": 1}]),
        "python_other",
    ));
    let mut files = FILES.to_vec();
    files.push(("z.spec", "PUT /doc\n"));
    let root = fixture("multi", &files, &want);
    // The spec analyzer runs on the tiny_web case (its endpoint matches);
    // its own technology has no case.
    let failures = Fixtures::new(&[&Tiny, &Spec], &root).failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].starts_with("tiny_spec: no fixture case"),
        "{failures:?}"
    );
    // Not passed in: its expected endpoints are ignored, like python_other's.
    let failures = Fixtures::new(&[&Tiny], &root).failures();
    assert!(failures.is_empty(), "{failures:?}");
    // A wrong expectation of the other technology is detected.
    want["endpoints"][5]["url"] = json!("/docs");
    let root = fixture("multi", &files, &want);
    let failures = Fixtures::new(&[&Tiny, &Spec], &root).failures();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("PUT /doc"), "{}", failures[0]);
    let _ = fs::remove_dir_all(root);
}
