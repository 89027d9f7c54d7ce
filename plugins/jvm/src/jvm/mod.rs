//! Reusable Java/Kotlin helpers shared by the framework analyzers: a
//! token stream ([`tokens`]), string expressions with constants and
//! Kotlin templates ([`expr`]), a declaration outline with annotations,
//! supertypes, fields and methods ([`outline`]), a cross-file index that
//! resolves types, constants, inheritance and DTO fields ([`index`]),
//! the outline + scan facts of the route-DSL analyzers ([`facts`]), and
//! Spring-style configuration files ([`config`]).

pub mod body;
pub mod config;
pub mod expr;
pub mod facts;
pub mod guard;
pub mod index;
pub mod lambda;
pub mod outline;
pub mod tokens;

/// Verb annotations of Micronaut and Armeria (`@Get` … `@Trace`) and the
/// method each serves.
pub const ANNOTATION_VERBS: [(&str, &str); 8] = [
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Delete", "DELETE"),
    ("Patch", "PATCH"),
    ("Head", "HEAD"),
    ("Options", "OPTIONS"),
    ("Trace", "TRACE"),
];
