use super::*;

#[test]
fn detection_rule_matches_only_openrpc_1() {
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    for yes in [
        "openrpc: 1.2.6\n",
        "{\"openrpc\": \"1.3.2\", \"methods\": []}",
        "{\n  \"info\": {},\n  \"openrpc\": \"1.0.0\"\n}",
    ] {
        assert!(re.is_match(yes), "{yes}");
    }
    for no in [
        "openapi: 3.0.0\n",
        "x-openrpc: 1.2\n",
        "{\"openrpc-gen\": \"2.0\"}",
    ] {
        assert!(!re.is_match(no), "{no}");
    }
}

#[test]
fn methods_post_to_the_server_path() {
    let doc = r#"{"openrpc":"1.2.6","servers":[{"url":"https://${host}/rpc/{v}","variables":{"v":{"default":"v2"}}}],
"methods":[{"name":"get_block","params":[{"name":"height","schema":{"type":"integer","default":5}}]}]}"#;
    let mut out = Output::new();
    OpenRpc.analyze(&SourceFile::new("app/openrpc.json", doc), &mut out);
    let e = &out.endpoints()[0];
    assert_eq!((e.method.as_str(), e.url.as_str()), ("POST", "/rpc/v2"));
    let names: Vec<&str> = e.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["jsonrpc", "method", "height"]);
    assert_eq!(e.params[2].value, "5");
}
