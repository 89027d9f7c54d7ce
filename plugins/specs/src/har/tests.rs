use super::*;
use crate::testing::summary;

fn analyze(path: &str, content: &str) -> (Vec<String>, Vec<String>) {
    let _ = host::take_logs();
    let mut out = Output::new();
    Har.analyze(&SourceFile::new(path, content), &mut out);
    (
        out.endpoints().iter().map(summary).collect(),
        host::take_logs(),
    )
}

#[test]
fn detection_rule() {
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    assert!(re.is_match("{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"entries\": [\n"));
    assert!(!re.is_match("{\"log\": {\"level\": \"debug\"}}"));
    assert!(!re.is_match("{\"entries\": [], \"log\": 1}"));
}

#[test]
fn json_files_that_are_not_archives_are_ignored() {
    let (endpoints, logs) = analyze("a.json", r#"{"log": {"level": "info"}, "entries": []}"#);
    assert!(endpoints.is_empty() && logs.is_empty(), "{logs:?}");
    let (endpoints, logs) = analyze(
        "x.har",
        r#"{"log": {"version": "2.0", "entries": [{"request": {"method": "GET", "url": "https://h/a"}}]}}"#,
    );
    assert!(endpoints.is_empty());
    assert_eq!(
        logs,
        ["warn: x.har: HAR version 2.0 is not supported (1.x is)"]
    );
    let (endpoints, logs) = analyze("y.har", r#"{"entries": []}"#);
    assert!(endpoints.is_empty());
    assert_eq!(
        logs,
        ["warn: y.har: not an HTTP Archive (no `log.entries` list)"]
    );
}

#[test]
fn same_request_twice_is_one_endpoint() {
    let doc = r#"{"log": {"entries": [
{"request": {"method": "get", "url": "https://h/a?x=1", "headers": [{"name": ":authority", "value": "h"}, {"name": "X-A", "value": "1"}]}},
{"request": {"method": "GET", "url": "https://h/a?y=2", "queryString": [{"name": "y", "value": "2"}], "cookies": [{"name": "s", "value": "v"}]}},
{"request": {"method": "GET", "url": "data:text/plain,hi"}},
{"request": {"method": "GET", "url": "https://h"}}
]}}"#;
    let (endpoints, logs) = analyze("c.json", doc);
    assert!(logs.is_empty(), "{logs:?}");
    assert_eq!(
        endpoints,
        [
            "GET /a @2 [query x=1, header X-A=1, query y=2, cookie s=v]",
            "GET / @5 []"
        ]
    );
}
