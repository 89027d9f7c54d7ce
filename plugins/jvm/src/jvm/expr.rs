//! String expressions as written in annotations and constants: the SDK's
//! [`portolan_plugin_sdk::strexpr`] (literals, constants, `+`, Kotlin
//! string templates), parsed from the Java/Kotlin token stream.

pub use portolan_plugin_sdk::strexpr::{Piece as Part, StrExpr, MAX_DEPTH};

/// The string expression over a range of the tokens `t` of `src` (Kotlin
/// templates when `kotlin`): `None` for a range outside `t` or tokens that
/// are no string expression.
pub fn range_parser<'a>(
    t: &'a [portolan_plugin_sdk::tokens::Token],
    src: &'a str,
    kotlin: bool,
) -> impl Fn(std::ops::Range<usize>) -> Option<StrExpr> + 'a {
    move |r| {
        StrExpr::parse(
            t.get(r)?,
            src,
            portolan_plugin_sdk::strexpr::Grammar::jvm(kotlin),
        )
    }
}
