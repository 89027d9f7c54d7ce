//! The token stream over Java or Kotlin source: the SDK's C-family
//! [`portolan_plugin_sdk::tokens`] with the Java dialect (`$` in
//! identifiers, Kotlin's backticked names).

use portolan_plugin_sdk::tokens::{self, Dialect};
pub use portolan_plugin_sdk::tokens::{close_of, dotted, split_commas, Kind, Token};
use portolan_plugin_sdk::Code;

/// Tokenize the code view (see [`portolan_plugin_sdk::tokens::tokenize`]).
pub fn tokenize(code: &Code) -> Vec<Token> {
    tokens::tokenize(code, Dialect::JAVA)
}

/// The tokens of a whole source file ([`tokenize`] over its C-like code
/// view), see [`of_file`].
pub struct FileTokens(pub Vec<Token>);

/// The token stream of `file`, computed once per file: the outline, the
/// Spring scans and every framework scan of the same file share it.
pub fn of_file(file: &portolan_plugin_sdk::SourceFile) -> std::sync::Arc<FileTokens> {
    file.memo(|f| FileTokens(tokenize(&f.code(portolan_plugin_sdk::Syntax::C_LIKE))))
}
