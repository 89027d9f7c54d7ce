//! GraphQL Yoga (`js_graphql_yoga`): the GraphQL endpoint.
//!
//! `createYoga({ graphqlEndpoint })` serves `graphqlEndpoint`, `/graphql`
//! by default, reported as GET and POST like [`crate::apollo`] (`query`,
//! `variables`, `operationName`), at the line of the call. A mount
//! (`app.use('/api/graphql', yoga)`) does not change the reported path:
//! Yoga matches its `graphqlEndpoint` against the full URL. Test files are
//! skipped.

use portolan_plugin_sdk::prelude::*;

use crate::apollo::{graphql_endpoints, option};
use crate::express::{is_generated, JS_FILES};

pub struct Yoga;

impl Analyzer for Yoga {
    fn tech(&self) -> Tech {
        Tech::new("js_graphql_yoga", "JavaScript", "GraphQL Yoga")
            .aliases(["graphql-yoga", "yoga", "js-graphql-yoga"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"\bfrom\s+['"]graphql-yoga['"]"#,
                r#"require\(\s*['"]graphql-yoga['"]\s*\)"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let code = file.code(Syntax::JAVASCRIPT);
        for at in code.find_word("createYoga") {
            let open = code.skip_ws(at + "createYoga".len());
            let open = if code.text().as_bytes().get(open) == Some(&b'<') {
                match code.text()[open..].find('(') {
                    Some(k) => open + k,
                    None => continue,
                }
            } else {
                open
            };
            if code.text().as_bytes().get(open) != Some(&b'(') {
                continue;
            }
            let url = option(&code, open, "graphqlEndpoint").unwrap_or_else(|| "/graphql".into());
            graphql_endpoints(file, &url, file.line_of(at), out);
        }
    }
}
