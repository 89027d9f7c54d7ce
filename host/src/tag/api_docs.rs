//! `api_docs`: Marks API documentation and schema endpoints (Swagger UI, OpenAPI documents, ReDoc, GraphiQL). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "api_docs",
    label: "ApiDocs",
    summary: "Marks API documentation and schema endpoints (Swagger UI, OpenAPI documents, ReDoc, GraphiQL).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &[
        "swagger",
        "openapi",
        "api docs",
        "apidocs",
        "redoc",
        "graphiql",
        "rapidoc",
        "swagger ui",
    ],
    weak_url: &[
        "docs",
        "documentation",
        "schema",
        "spec",
        "playground",
        "explorer",
    ],
    strong_params: &[],
    weak_params: &[],
};

word_tagger!(
    WORDS,
    "api_docs",
    "API documentation: it tells an attacker every route; check it is meant to be public."
);
