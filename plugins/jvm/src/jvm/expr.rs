//! String expressions as written in annotations and constants: the SDK's
//! [`portolan_plugin_sdk::strexpr`] (literals, constants, `+`, Kotlin
//! string templates), parsed from the Java/Kotlin token stream.

pub use portolan_plugin_sdk::strexpr::{Piece as Part, StrExpr, MAX_DEPTH};
