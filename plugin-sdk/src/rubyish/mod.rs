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
//!
//! Comment and string handling comes from the caller's [`crate::Syntax`];
//! heredocs, regex literals and macro tags are each language's own
//! pre-cleaning and stay in the plugins.

pub mod call;
pub mod inflect;
pub mod tokens;
pub mod tree;
