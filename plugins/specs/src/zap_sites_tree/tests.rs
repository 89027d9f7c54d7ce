use super::*;

#[test]
fn node_names_and_detection() {
    assert_eq!(
        paren_groups("POST:login()(password,username)"),
        [vec![], vec!["password".to_string(), "username".to_string()]]
    );
    assert_eq!(
        paren_groups("GET:search(q, page)"),
        [vec!["q".to_string(), "page".to_string()]]
    );
    assert!(paren_groups("GET:/").is_empty());
    assert!(paren_groups("GET:x(a").is_empty());
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    for yes in [
        "- node: Sites\n",
        "- \"node\": \"Sites\"\n",
        "x: 1\n- node: 'Sites'  \n",
    ] {
        assert!(re.is_match(yes), "{yes:?}");
        assert!(declares_sites_root(yes), "{yes:?}");
    }
    for no in [
        "  - node: Sites\n",
        "- node: Sites of the world\n",
        "node: Sites\n",
    ] {
        assert!(!re.is_match(no), "{no:?}");
        assert!(!declares_sites_root(no), "{no:?}");
    }
}
