//! Reusable Ruby helpers: request-parameter reads, a DSL view, a per-file
//! outline of classes and methods, Rack and heredoc/regex cleaning. The
//! tokenizer, statement/block outline, DSL call arguments and inflections
//! are the SDK's [`portolan_plugin_sdk::rubyish`] (shared with Crystal),
//! re-exported here; [`parse`] uses [`tree::Rules::RUBY`].

pub mod classes;
pub mod clean;
pub mod dsl;
pub mod outline;
pub mod rack;
pub mod request;

pub use portolan_plugin_sdk::rubyish::{call, inflect, tokens, tree};

use portolan_plugin_sdk::lex::Code;

/// Ruby's block keywords.
pub const RULES: tree::Rules = tree::Rules::RUBY;

/// Tokenize a Ruby source text (heredocs blanked, regex literals skipped:
/// see [`clean`]).
pub fn tokens_of(src: &str) -> Vec<tokens::Token> {
    let cleaned = clean::clean(src);
    let code = Code::new(&cleaned, clean::SYNTAX);
    tokens::tokenize(&code)
}

/// Tokenize and outline a Ruby source text.
pub fn parse(src: &str) -> Vec<tree::Stmt> {
    tree::parse(&tokens_of(src), &RULES)
}
