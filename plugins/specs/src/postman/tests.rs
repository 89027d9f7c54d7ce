use super::*;
use crate::testing::summary;

fn analyze(path: &str, content: &str) -> (Vec<String>, Vec<String>) {
    let _ = host::take_logs();
    let mut out = Output::new();
    Postman.analyze(&SourceFile::new(path, content), &mut out);
    (
        out.endpoints().iter().map(summary).collect(),
        host::take_logs(),
    )
}

#[test]
fn only_collections_are_read() {
    // An environment file mentions `_postman_id`-like keys but has no items.
    let env = r#"{"id": "1", "name": "dev", "values": [{"key": "baseUrl", "value": "x"}], "_postman_variable_scope": "environment"}"#;
    assert_eq!(
        analyze("dev.postman_environment.json", env),
        (vec![], vec![])
    );
    let other =
        r#"{"info": {"schema": "https://example.com/other.json"}, "item": [{"request": "/x"}]}"#;
    assert_eq!(analyze("o.json", other), (vec![], vec![]));
    let (endpoints, logs) = analyze(
        "c.json",
        r#"{"info": {"_postman_id": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [ {"request": }"#,
    );
    assert!(endpoints.is_empty());
    assert_eq!(logs.len(), 1);
    assert!(
        logs[0].starts_with("warn: c.json: invalid JSON: "),
        "{logs:?}"
    );
}

#[test]
fn url_shapes() {
    let doc = r#"{"info": {"schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
"variable": [{"id": "host", "value": "https://h.example.com/base"}],
"item": [
 {"request": "{{host}}/a?x=1"},
 {"request": {"method": "post", "url": {"host": ["{{host}}"], "path": ["b", ":id"], "variable": [{"key": "id", "value": "7"}]}}},
 {"request": {"url": {"protocol": "https", "host": "api.example.com", "path": "/c"}}},
 {"request": {"url": "localhost:8080/d", "header": "X-A: 1\nCookie: s=2"}},
 {"request": {"url": "{{unknown}}"}},
 {"request": 3}
]}"#;
    let (endpoints, logs) = analyze("c.json", doc);
    assert!(logs.is_empty(), "{logs:?}");
    assert_eq!(
        endpoints,
        [
            "GET /base/a @4 [query x=1]",
            "POST /base/b/:id @5 [path id=7]",
            "GET /c @6 []",
            "GET /d @7 [header X-A=1, cookie s=2]",
            "GET / @8 []",
        ]
    );
}
