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
