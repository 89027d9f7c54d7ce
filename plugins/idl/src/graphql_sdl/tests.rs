use super::*;
use portolan_plugin_sdk::testing::run_files;

fn run(files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let _ = host::take_logs();
    let files: Vec<SourceFile> = files.iter().map(|(p, c)| SourceFile::new(*p, *c)).collect();
    let endpoints = run_files(&GraphqlSdl, &files)
        .iter()
        .map(|e| {
            let params: Vec<&str> = e.params.iter().map(|p| p.name.as_str()).collect();
            let at = &e.code_paths[0];
            format!(
                "{} {} {} {}:{} [{}]",
                e.method,
                e.protocol,
                e.url,
                at.path,
                at.line.unwrap_or(0),
                params.join(",")
            )
        })
        .collect();
    (endpoints, host::take_logs())
}

#[test]
fn schema_definition_in_another_file_renames_roots() {
    let (endpoints, logs) = run(&[
        (
            "a/ops.graphql",
            "type Query { ignored: Int }\ntype Reads {\n  me: User\n}\n",
        ),
        (
            "a/schema.graphql",
            "schema {\n  query: Reads\n}\nextend type Reads { user(id: ID!): User }\n",
        ),
    ]);
    assert!(logs.is_empty(), "{logs:?}");
    assert_eq!(
        endpoints,
        [
            "POST http /graphql a/ops.graphql:3 [query]",
            "POST http /graphql a/schema.graphql:4 [query,variables.id]",
        ]
    );
}

#[test]
fn default_roots_subscriptions_and_tests() {
    let (endpoints, logs) = run(&[
        ("s.gql", "type Subscription { onMessage(room: ID!): Message }\ntype Mutation { post(body: String, query: String): Int }"),
        ("tests/schema.graphql", "type Query { fake: Int }"),
        ("bad.graphqls", "type Query {\n  ok: Int\n  broken(: Int\n}\n"),
    ]);
    assert_eq!(
        endpoints,
        [
            "GET ws /graphql s.gql:1 [query,variables.room]",
            "POST http /graphql s.gql:2 [query,variables.body,variables.query]",
            "POST http /graphql bad.graphqls:2 [query]",
        ]
    );
    assert_eq!(
        logs,
        ["warn: bad.graphqls:3: invalid GraphQL schema: expected an argument name"]
    );
}
