//! JavaScript/TypeScript helpers shared by every JS framework analyzer.
//!
//! - [`syntax`]: dotted names, brackets matched backwards, depths;
//! - [`strexpr`]: string expressions (`API + '/x'`, `` `${BASE}/x` ``)
//!   kept symbolic until link;
//! - [`outline`]: top-level functions and classes (scopes), class members,
//!   object literals;
//! - [`module`]: a module's imports, exports, constants, bindings,
//!   functions and calls (serialisable);
//! - [`project`]: cross-module resolution for `link` (relative paths,
//!   index files, path aliases, re-exports);
//! - [`request`]: parameters an Express-style handler reads from `req`;
//! - [`mount`]: prefixes of routers mounted on routers, across files;
//! - [`reads`]: members read from values handlers obtain by calls
//!   (`getQuery(event).x`, `await request.json()`), Fetch-API handlers;
//! - [`flow`]: request values forwarded to services, copied onto
//!   entities or typed by classes and interfaces;
//! - [`fsroute`]: exported handlers and URLs of file-system routers;
//! - [`guard`]: validation middleware given one schema per request part.

pub mod flow;
pub mod fsroute;
pub mod guard;
pub mod module;
pub mod mount;
pub mod outline;
pub mod pattern;
pub mod project;
pub mod reads;
pub mod request;
pub mod schema;
pub mod strexpr;
pub mod syntax;
#[cfg(test)]
pub mod test_support;
