//! String expressions as written in route templates: the SDK's
//! [`portolan_plugin_sdk::strexpr`] (literals, constants, `nameof(X)`,
//! interpolated strings, `+`), parsed from the C# token stream. Recorded in
//! the map step, evaluated in the link step once every file's constants
//! are known.

use portolan_plugin_sdk::strexpr::Grammar;
pub use portolan_plugin_sdk::strexpr::{Piece, StrExpr as Expr};

use super::tokens::Token;

/// Parse `toks` (one argument) as `piece (+ piece)*`.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    Expr::parse(toks, "", Grammar::CSharp)
}
