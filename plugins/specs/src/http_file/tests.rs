use super::*;

#[test]
fn requests_variables_and_problems() {
    let text = "@host = http://localhost:8080\n# @name list\nGET {{host}}/a\n    ?x=1\n    &y=2\nAccept: */*\n\n###\n\n// comment\nPOST {{host}}/b HTTP/1.1\nContent-Type: application/json\n\n{\"k\": 1}\n\n> {% client.global.set(\"t\", response.body.t); %}\n###\nhttps://example.com/c\n###\nnot a request\nGET /ignored\n";
    let parsed = parse(text);
    assert_eq!(
        parsed.vars,
        [("host".to_string(), "http://localhost:8080".to_string())]
    );
    let lines: Vec<String> = parsed
        .requests
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {:?} {:?}",
                r.line, r.method, r.url, r.headers, r.body
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "3 GET {{host}}/a?x=1&y=2 [(\"Accept\", \"*/*\")] \"\"",
            "11 POST {{host}}/b [(\"Content-Type\", \"application/json\")] \"{\\\"k\\\": 1}\"",
            "18 GET https://example.com/c [] \"\"",
        ]
    );
    assert_eq!(
        parsed.problems,
        ["line 20: not a request line: `not a request`"]
    );
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    assert!(re.is_match("### x\nPOST /a\n"));
    assert!(!re.is_match("# GET /commented\n  POST x\n"));
}
