//! Reusable Ruby helpers: request-parameter reads, a DSL view, a per-file
//! outline of classes and methods, Rack. The tokenizer, statement/block
//! outline, DSL call arguments, inflections and heredoc/regex cleaning
//! are the SDK's [`portolan_plugin_sdk::rubyish`] (shared with Crystal),
//! re-exported here; [`parse`] uses [`tree::Rules::RUBY`].

pub mod classes;
pub mod dsl;
pub mod outline;
pub mod rack;
pub mod request;

pub use portolan_plugin_sdk::rubyish::{call, clean, inflect, tokens, tree};

use portolan_plugin_sdk::lex::Code;

/// Ruby's block keywords.
pub const RULES: tree::Rules = tree::Rules::RUBY;

/// Tokenize a Ruby source text (heredocs blanked, regex literals skipped:
/// see [`clean`]).
pub fn tokens_of(src: &str) -> Vec<tokens::Token> {
    let cleaned = clean::ruby(src);
    let code = Code::new(&cleaned, clean::SYNTAX);
    tokens::tokenize(&code)
}

/// Tokenize and outline a Ruby source text.
pub fn parse(src: &str) -> Vec<tree::Stmt> {
    tree::parse(&tokens_of(src), &RULES)
}
