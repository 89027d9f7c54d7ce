//! Reusable Crystal helpers. Crystal shares Ruby's lexical shape, so the
//! tokenizer, statement outline, call reader, inflections and cleaning
//! (heredocs and `{% … %}` macro tags: [`clean::crystal`]) are the SDK's
//! [`portolan_plugin_sdk::rubyish`] (shared with the Ruby plugin),
//! re-exported here; [`parse`] uses [`tree::Rules::CRYSTAL`] (`struct`,
//! `enum`, `macro`, `lib`, `annotation`, `union` blocks; bodiless
//! `abstract def`). The request reads ([`request`]), class outline
//! ([`classes`]) and DSL view ([`dsl`]) are Crystal's own.

pub mod classes;
pub mod dsl;
pub mod request;

pub use portolan_plugin_sdk::rubyish::{call, clean, inflect, tokens, tree};

use portolan_plugin_sdk::lex::Code;

/// Crystal's block keywords.
pub const RULES: tree::Rules = tree::Rules::CRYSTAL;

/// The verbs of the Ruby-like routing DSLs, with their HTTP method.
pub use portolan_plugin_sdk::rubyish::dsl::{verb, VERBS};

/// Tokenize a Crystal source text (heredocs and macro tags blanked,
/// regex literals skipped: see [`clean`]).
pub fn tokens_of(src: &str) -> Vec<tokens::Token> {
    let cleaned = clean::crystal(src);
    let code = Code::new(&cleaned, clean::SYNTAX);
    tokens::tokenize(&code)
}

/// Tokenize and outline a Crystal source text.
pub fn parse(src: &str) -> Vec<tree::Stmt> {
    tree::parse(&tokens_of(src), &RULES)
}
