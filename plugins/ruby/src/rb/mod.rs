//! Reusable Ruby helpers: tokenizer, statement/block outline, DSL call
//! arguments, inflections, request-parameter reads and a per-file outline
//! of classes and methods. Also used for Crystal (same lexical shape).

pub mod call;
pub mod inflect;
pub mod outline;
pub mod request;
pub mod tokens;
pub mod tree;

use portolan_plugin_sdk::{lex::Code, Syntax};

/// Tokenize and outline a Ruby source text.
pub fn parse(src: &str) -> Vec<tree::Stmt> {
    let code = Code::new(src, Syntax::RUBY);
    tree::parse(&tokens::tokenize(&code))
}
