//! GraphQL schema documents (SDL: `.graphql`, `.graphqls`, `.gql`).
//!
//! Each field of a root operation type is an operation served by the
//! GraphQL endpoint:
//!
//! - Root types: `Query`, `Mutation` and `Subscription`, unless some file
//!   has a `schema { query: RootQuery … }` definition (or `extend schema`),
//!   in which case exactly the operation types declared there. Fields of
//!   `type X` and of `extend type X` count alike, across files (schemas are
//!   often split per domain), hence the map/reduce: `analyze` records the
//!   root declarations and the fields as facts, `link` picks the roots.
//! - URL: `/graphql`, the path nearly every server (Apollo, GraphQL Yoga,
//!   graphql-java, gqlgen, Hot Chocolate, Strawberry) mounts by default; a
//!   schema file does not say where it is served. Code analyzers that see the
//!   real mount report it themselves.
//! - Method: queries and mutations are `POST` (a JSON body
//!   `{"query", "variables"}`); subscriptions are WebSocket endpoints
//!   (`GET`, protocol `ws`: graphql-ws / subscriptions-transport-ws).
//! - Params: `query` (json), then one json param `variables.<arg>` per
//!   argument of the field: the arguments travel in the `variables` object
//!   of the body, and the prefix keeps an argument called `query` apart.
//! - Location: the line of the field name.
//!
//! Every query and mutation field therefore lands on the same
//! `POST /graphql`: the report merges them into one endpoint listing every
//! field's line and the union of the arguments — the attack surface of the
//! endpoint. Client operation documents (`query Foo { … }`) define no
//! operation and are ignored, as are files under test directories.

mod lexer;
mod parse;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use portolan_plugin_sdk::doc::is_test_document;

pub struct GraphqlSdl;

/// Where GraphQL servers are mounted by default.
pub const ENDPOINT: &str = "/graphql";

const FILES: [&str; 3] = ["*.graphql", "*.graphqls", "*.gql"];

/// A root operation type or a schema definition, at the start of a line.
const DETECT_REGEX: &str = r"(?m)^[ \t]*(?:extend[ \t]+)?(?:type[ \t]+(?:Query|Mutation|Subscription)\b|schema\b[^{\n]*\{)";

#[derive(Debug, Serialize, Deserialize)]
enum Fact {
    Root {
        operation: String,
        type_name: String,
    },
    Field {
        path: String,
        line: u32,
        type_name: String,
        args: Vec<String>,
    },
}

impl Analyzer for GraphqlSdl {
    fn tech(&self) -> Tech {
        Tech::new("graphql_sdl", "Specification", "GraphQL SDL")
            .specification()
            .aliases(["graphql", "graphql-sdl", "graphql_schema"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([DETECT_REGEX]))
            .supports(Supports {
                method: true,
                query: false,
                path: false,
                body: true,
                header: false,
                cookie: false,
                websocket: true,
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let doc = parse::parse(&file.content);
        for error in &doc.errors {
            host::warn(&format!(
                "{}:{}: invalid GraphQL schema: {}",
                file.path,
                file.line_of(error.at),
                error.message
            ));
        }
        for root in doc.roots {
            out.fact(&Fact::Root {
                operation: root.operation,
                type_name: root.type_name,
            });
        }
        for field in doc.fields {
            out.fact(&Fact::Field {
                path: file.path.clone(),
                line: file.line_of(field.at),
                type_name: field.type_name,
                args: field.args,
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let declared: Vec<(&str, &str)> = facts
            .iter()
            .filter_map(|f| match f {
                Fact::Root {
                    operation,
                    type_name,
                } => Some((operation.as_str(), type_name.as_str())),
                Fact::Field { .. } => None,
            })
            .collect();
        let roots: Vec<(&str, &str)> = if declared.is_empty() {
            vec![
                ("query", "Query"),
                ("mutation", "Mutation"),
                ("subscription", "Subscription"),
            ]
        } else {
            declared
        };
        let mut endpoints = Vec::new();
        for fact in &facts {
            let Fact::Field {
                path,
                line,
                type_name,
                args,
            } = fact
            else {
                continue;
            };
            let Some((operation, _)) = roots.iter().find(|(_, t)| t == type_name) else {
                continue;
            };
            let endpoint = if *operation == "subscription" {
                Endpoint::websocket(ENDPOINT)
            } else {
                Endpoint::new("POST", ENDPOINT)
            };
            let params = std::iter::once(Param::json("query"))
                .chain(args.iter().map(|a| Param::json(format!("variables.{a}"))));
            endpoints.push(endpoint.params(params).at_path(path.clone(), *line));
        }
        Ok(endpoints)
    }
}

#[cfg(test)]
mod tests;
