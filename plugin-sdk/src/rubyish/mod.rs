//! Building blocks for analyzers of Ruby and Crystal sources (both share
//! Ruby's lexical shape): optional, behind the SDK's `rubyish` cargo
//! feature.
//!
//! ```toml
//! portolan-plugin-sdk = { workspace = true, features = ["rubyish"] }
//! ```
//!
//! - [`tokens`]: a tolerant tokenizer over a [`crate::lex::Code`] view
//!   (symbols, hash labels, `%w[]`/`%i[]`, constants, `::` paths,
//!   statement separators).
//! - [`tree`]: statements and `do`/`{`/keyword blocks matched with their
//!   `end`; the language's block keywords come from [`tree::Rules`]
//!   ([`tree::Rules::RUBY`], [`tree::Rules::CRYSTAL`]).
//! - [`call`]: DSL calls (`get "/x", to: "a#b" do … end`) and their
//!   argument values.
//! - [`inflect`]: the few ActiveSupport inflections routing needs.
//! - [`dsl`]: the node tree of a routing-DSL view (generic over the
//!   plugin's request reads), constants and static path strings.
//! - [`clean`]: the pre-cleaning the lexer needs (heredoc bodies blanked,
//!   Crystal's `{% … %}` macro tags blanked) and [`clean::SYNTAX`], the
//!   lexer settings with regular expression literals.
//!
//! Comment and string handling comes from the caller's [`crate::Syntax`].

pub mod call;
pub mod clean;
pub mod dsl;
pub mod inflect;
pub mod tokens;
pub mod tree;
