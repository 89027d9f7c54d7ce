//! The token stream over C# source: the SDK's C-family
//! [`portolan_plugin_sdk::tokens`] with the C# dialect (`$"…"` marked
//! interpolated, `@name` verbatim identifiers unprefixed).

use portolan_plugin_sdk::tokens::{self, Dialect};
pub use portolan_plugin_sdk::tokens::{close_of, dotted, split_commas, Kind, Token};
use portolan_plugin_sdk::Code;

/// Tokenize the code view (see [`portolan_plugin_sdk::tokens::tokenize`]).
pub fn tokenize(code: &Code) -> Vec<Token> {
    tokens::tokenize(code, Dialect::CSHARP)
}
