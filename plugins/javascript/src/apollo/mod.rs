//! Apollo Server (`js_apollo`): the GraphQL endpoint.
//!
//! Where it is served: `startStandaloneServer(server, …)` and Apollo 2/3's
//! `server.listen()` on an `ApolloServer` → `/`;
//! `server.applyMiddleware({ app, path })` → `path` or `/graphql`;
//! `app.use('/graphql', …, expressMiddleware(server))` (also
//! `koaMiddleware`) → the mount path of that module; NestJS
//! `GraphQLModule.forRoot({ path })` → `path` or `/graphql`. Each is
//! reported as GET (parameters `query`, `variables`, `operationName` in
//! the query string) and POST (the same as JSON fields), as the GraphQL
//! over HTTP convention serves both. Operations (queries, mutations) are
//! not separate endpoints. Test files are skipped.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param};
use regex::Regex;
use std::sync::OnceLock;

use crate::express::{is_generated, JS_FILES};
use crate::js::outline::object_entries;
use crate::js::strexpr::StrExpr;

pub struct Apollo;

use crate::js::pattern::re;

/// GET and POST endpoints of a GraphQL endpoint at `url`.
pub fn graphql_endpoints(file: &SourceFile, url: &str, line: u32, out: &mut Output) {
    let names = ["query", "variables", "operationName"];
    out.endpoint(
        Endpoint::new("GET", url)
            .params(names.iter().map(|n| Param::query(*n)))
            .at(file, line),
    );
    out.endpoint(
        Endpoint::new("POST", url)
            .params(names.iter().map(|n| Param::json(*n)))
            .at(file, line),
    );
}

/// The literal value of `key` in the object literal among the arguments of
/// the call whose `(` is at `open`.
pub fn option(code: &Code<'_>, open: usize, key: &str) -> Option<String> {
    let bytes = code.text().as_bytes();
    for a in code.args(open) {
        let o = code.skip_ws(a.start);
        if bytes.get(o) != Some(&b'{') {
            continue;
        }
        if let Some(e) = object_entries(code, o).into_iter().find(|e| e.key == key) {
            return StrExpr::parse(code, e.value.clone()).and_then(|x| x.literal());
        }
    }
    None
}

impl Analyzer for Apollo {
    fn tech(&self) -> Tech {
        Tech::new("js_apollo", "JavaScript", "Apollo Server")
            .aliases(["apollo", "apollo-server", "js-apollo"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"\bfrom\s+['"](?:@apollo/server(?:/[\w-]+)?|apollo-server(?:-[\w-]+)?|@nestjs/apollo)['"]"#,
                r#"require\(\s*['"](?:@apollo/server(?:/[\w-]+)?|apollo-server(?:-[\w-]+)?)['"]\s*\)"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let code = file.code(Syntax::JAVASCRIPT);
        let text = code.text();
        if !text.contains("apollo") && !text.contains("Apollo") {
            return;
        }
        static SITES: OnceLock<Regex> = OnceLock::new();
        let sites = re(
            &SITES,
            r"\b(startStandaloneServer|applyMiddleware|expressMiddleware|koaMiddleware|GraphQLModule\s*\.\s*forRoot(?:Async)?(?:\s*<[^>]*>)?|ApolloServer)\s*\(",
        );
        for c in sites.captures_iter(text) {
            let (Some(all), Some(kind)) = (c.get(0), c.get(1)) else {
                continue;
            };
            if !code.is_code(all.start()) {
                continue;
            }
            let open = all.end() - 1;
            let line = file.line_of(all.start());
            let k = kind.as_str();
            let url = if k == "startStandaloneServer" {
                "/".to_string()
            } else if k == "applyMiddleware" {
                option(&code, open, "path").unwrap_or_else(|| "/graphql".into())
            } else if k.starts_with("GraphQLModule") {
                option(&code, open, "path").unwrap_or_else(|| "/graphql".into())
            } else if k == "ApolloServer" {
                // Apollo 2/3 standalone: `new ApolloServer(…)` then `.listen()`
                // from the `apollo-server` package.
                if !text.contains("'apollo-server'") && !text.contains("\"apollo-server\"") {
                    continue;
                }
                if !text.contains(".listen(") {
                    continue;
                }
                "/".to_string()
            } else {
                // `x.use('/graphql', …, expressMiddleware(server))`.
                match mount_path(&code, all.start()) {
                    Some(p) => p,
                    None => continue,
                }
            };
            graphql_endpoints(file, &url, line, out);
        }
    }
}

/// The literal first argument of the `.use(` call enclosing `at`.
pub fn mount_path(code: &Code<'_>, at: usize) -> Option<String> {
    let text = code.text();
    let mut search = at;
    for _ in 0..8 {
        let k = text[..search].rfind(".use(")?;
        let open = k + 4;
        let close = code.matching(open)?;
        if close > at {
            let first = code.args(open).into_iter().next()?;
            return StrExpr::parse(code, first).and_then(|x| x.literal());
        }
        search = k;
    }
    None
}
