//! Reusable Crystal helpers. Crystal shares Ruby's lexical shape, so the
//! tokenizer, statement outline, call reader and inflections are copies of
//! the Ruby plugin's `rb` helpers (a plugin crate cannot depend on another
//! plugin crate: both would export the component); the request reads
//! ([`request`]) and the DSL view ([`dsl`]) are Crystal's own.

pub mod call;
pub mod classes;
pub mod clean;
pub mod dsl;
pub mod inflect;
pub mod request;
pub mod tokens;
pub mod tree;

use portolan_plugin_sdk::lex::Code;

/// The verbs of the Ruby-like routing DSLs, with their HTTP method.
pub const VERBS: [(&str, &str); 7] = [
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("head", "HEAD"),
];

/// The HTTP method of a verb call name.
pub fn verb(name: &str) -> Option<&'static str> {
    VERBS.iter().find(|(v, _)| *v == name).map(|(_, m)| *m)
}

/// Tokenize a Crystal source text (heredocs and macro tags blanked,
/// regex literals skipped: see [`clean`]).
pub fn tokens_of(src: &str) -> Vec<tokens::Token> {
    let cleaned = clean::clean(src);
    let code = Code::new(&cleaned, clean::SYNTAX);
    tokens::tokenize(&code)
}

/// Tokenize and outline a Crystal source text.
pub fn parse(src: &str) -> Vec<tree::Stmt> {
    tree::parse(&tokens_of(src))
}
