use super::*;

#[test]
fn blocks_and_entries() {
    let text = "meta {\n  name: x\n  seq: 1\n}\n\nget {\n  url: {{b}}/a?x=1\n  body: none\n}\n\nbody:json {\n  {\n    \"a\": 1\n  }\n}\n\nvars:secret [\n  token\n]\n";
    let blocks = parse(text).expect("parses");
    let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["meta", "get", "body:json", "vars:secret"]);
    assert_eq!(blocks[1].line, 6);
    assert_eq!(
        blocks[1].pairs(),
        [
            ("url".to_string(), "{{b}}/a?x=1".to_string()),
            ("body".to_string(), "none".to_string())
        ]
    );
    assert_eq!(blocks[2].text(), "{\n  \"a\": 1\n}");
}

#[test]
fn malformed_files_are_errors() {
    assert_eq!(
        parse("get {\n  url: /a\n").unwrap_err(),
        "line 1: block `get` is never closed"
    );
    assert_eq!(
        parse("get {\n}\nurl: /a\n").unwrap_err(),
        "line 3: expected `name {`, found `url: /a`"
    );
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    assert!(re.is_match("meta {\n}\npost {\n"));
    assert!(!re.is_match("vars {\n  get: 1\n}\n"));
}

#[test]
fn quoted_keys() {
    let text = "headers {\n  \"key with spaces\": is allowed\n  \"colon:header\": a:b\n  \"nested escaped \\\"quote\\\"\": x\n  ~\"disabled:colon\": y\n  plain: z\n}\n";
    let blocks = parse(text).expect("parses");
    let pairs: Vec<(String, String)> = blocks[0].pairs();
    let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "key with spaces",
            "colon:header",
            "nested escaped \"quote\"",
            "plain"
        ]
    );
    assert_eq!(pairs[1].1, "a:b");
}

#[test]
fn multi_line_values() {
    let text = "body:form-urlencoded {\n  street: '''\n    1 Main St\n    Apt 4\n  '''\n  ~\"no:te\": '''\n    a: b\n  '''\n  city: x\n}\n";
    let blocks = parse(text).expect("parses");
    assert_eq!(
        blocks[0].pairs(),
        [
            ("street".to_string(), "1 Main St\nApt 4".to_string()),
            ("city".to_string(), "x".to_string())
        ]
    );
}
