//! Python source helpers shared by the Python framework analyzers.
//!
//! - [`lines`]: logical lines (brackets, backslashes, multi-line strings)
//!   and indentation blocks;
//! - [`outline`]: defs and classes with decorators and bodies;
//! - [`call`]: dotted names, call arguments, string lists;
//! - [`alchemy`]: advanced-alchemy filter dependencies as query parameters;
//! - [`strexpr`]: string expressions (`API + '/x'`, `f"{API}/x"`) kept
//!   symbolic until link;
//! - [`module`]: a module's imports and string constants (serialisable);
//! - [`project`]: cross-module name resolution for `link`;
//! - [`request`]: parameters read from a Werkzeug-style `request`;
//! - [`signature`]: function parameters with annotations and DI markers
//!   (`Query()`, `Depends()`, `Annotated[…]`);
//! - [`classes`]: classes as data (model fields, aliases, class attributes);
//! - [`context`]: raw `ai_context` facts (handler guards, one-hop callees);
//! - [`loops`]: registrations in `for x in SEQUENCE:` loops;
//! - [`tech`]: the framework technology and the map step every analyzer shares;
//! - [`config`]: configuration / environment lookups (values known at run
//!   time) and their placeholders.

pub mod alchemy;
pub mod call;
// Shared with outside plugins: the SDK's Python layer (feature `python`).
pub use portolan_plugin_sdk::python::{lines, module, project, strexpr};
pub mod classes;
pub mod config;
pub mod context;
pub mod loops;
pub mod outline;
pub mod request;
pub mod signature;
pub mod tech;
