//! Reusable Ruby helpers: tokenizer, statement/block outline, DSL call
//! arguments, inflections, request-parameter reads and a per-file outline
//! of classes and methods. Also used for Crystal (same lexical shape).

pub mod call;
pub mod classes;
pub mod clean;
pub mod dsl;
pub mod inflect;
pub mod outline;
pub mod rack;
pub mod request;
pub mod tokens;
pub mod tree;

use portolan_plugin_sdk::lex::Code;

/// Tokenize a Ruby source text (heredocs blanked, regex literals skipped:
/// see [`clean`]).
pub fn tokens_of(src: &str) -> Vec<tokens::Token> {
    let cleaned = clean::clean(src);
    let code = Code::new(&cleaned, clean::SYNTAX);
    tokens::tokenize(&code)
}

/// Tokenize and outline a Ruby source text.
pub fn parse(src: &str) -> Vec<tree::Stmt> {
    tree::parse(&tokens_of(src))
}
