use super::*;
use crate::testing::summary;

fn analyze(path: &str, content: &str) -> (Vec<String>, Vec<String>) {
    let _ = host::take_logs();
    let mut out = Output::new();
    Oas2.analyze(&SourceFile::new(path, content), &mut out);
    (
        out.endpoints().iter().map(summary).collect(),
        host::take_logs(),
    )
}

#[test]
fn detection_rule_matches_only_swagger_2() {
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    let yes = [
        "swagger: '2.0'\n",
        "swagger: \"2.0\"\n",
        "swagger: 2.0\n",
        "{\"swagger\":\"2.0\",\"paths\":{}}",
        "{\n  \"info\": {},\n  \"swagger\": \"2.0\"\n}",
    ];
    let no = [
        "openapi: 3.0.0\n",
        "info:\n  swagger: '2.0'\n",
        "swagger: 3.0\n",
        "description: swagger: 2.0\n",
        "{\"dependencies\": {\"swagger-ui\": \"2.0.1\"}}",
        "x-swagger: 2.0\n",
    ];
    for text in yes {
        assert!(re.is_match(text), "regex should match {text:?}");
        assert!(declares_swagger_2(text), "pre-check should accept {text:?}");
    }
    for text in no {
        assert!(!re.is_match(text), "regex should not match {text:?}");
        assert!(
            !declares_swagger_2(text),
            "pre-check should refuse {text:?}"
        );
    }
}

#[test]
fn consumes_decides_body_field_types() {
    let doc = "swagger: '2.0'\nconsumes: [application/xml]\npaths:\n  /a:\n    post:\n      parameters:\n        - {name: b, in: body, schema: {properties: {x: {}}}}\n  /b:\n    post:\n      consumes: [application/x-www-form-urlencoded]\n      parameters:\n        - {name: b, in: body, schema: {properties: {y: {example: 1}}}}\n  /c:\n    post:\n      consumes: [application/vnd.api+json, application/xml]\n      parameters:\n        - {name: b, in: body, schema: {type: array, items: {properties: {z: {}}}}}\n        - {name: b2, in: body, schema: {properties: {w: {}}, example: {w: sample}}}\n";
    let (endpoints, logs) = analyze("s.yaml", doc);
    assert!(logs.is_empty(), "{logs:?}");
    assert_eq!(
        endpoints,
        [
            "POST /a @5 []",
            "POST /b @9 [form y=1]",
            "POST /c @14 [json w=sample]"
        ]
    );
}

#[test]
fn malformed_documents_warn() {
    let (endpoints, logs) = analyze("bad.json", "{\"swagger\": \"2.0\", \"paths\": {");
    assert!(endpoints.is_empty());
    assert_eq!(logs.len(), 1);
    assert!(
        logs[0].starts_with("warn: bad.json: invalid JSON: "),
        "{logs:?}"
    );
    let (endpoints, logs) = analyze("p.yaml", "swagger: '2.0'\npaths: [a]\n");
    assert!(endpoints.is_empty());
    assert_eq!(logs, ["warn: p.yaml: `paths` is not a mapping"]);
    let (endpoints, logs) = analyze(
        "o.yaml",
        "swagger: '2.0'\nbasePath: /v1\npaths:\n  /x: 3\n  /y:\n    get: nope\n    put:\n",
    );
    assert_eq!(endpoints, ["PUT /v1/y @7 []"]);
    assert_eq!(
        logs,
        [
            "warn: o.yaml: path `/x` is not a mapping",
            "warn: o.yaml: operation `get /y` is not a mapping"
        ]
    );
    // Not Swagger 2.0 at all: nothing, silently.
    let (endpoints, logs) = analyze("v.yaml", "swagger: '3.0'\npaths: {/a: {get: {}}}\n");
    assert!(endpoints.is_empty() && logs.is_empty());
}
