//! `graphql`: a GraphQL endpoint: `graphql` or `/gql` in the URL, or at
//! least two GraphQL request fields among the parameters.

use super::{count_names, tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "graphql",
    label: "GraphQL",
    summary: "Marks GraphQL endpoints (by URL or GraphQL request fields).",
    always: false,
    apply,
};

const WORDS: &[&str] = &[
    "query",
    "mutation",
    "subscription",
    "operationname",
    "__schema",
    "__type",
    "graphql",
];

fn apply(e: &mut Endpoint, _: Scope) {
    let url = e.url.to_ascii_lowercase();
    if url.contains("graphql") || url.contains("/gql") || count_names(e, WORDS) >= 2 {
        tag(
            e,
            &TAGGER,
            "graphql",
            "A GraphQL endpoint: check introspection, batching, depth limits and per-field authorization.",
        );
    }
}
