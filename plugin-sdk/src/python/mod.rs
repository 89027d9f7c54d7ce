//! Python source helpers for analyzers whose routes cross files (feature
//! `python`): a prefix held in a constant of another module, a router
//! imported from elsewhere, `from .settings import API_PREFIX`.
//!
//! - [`lines`]: logical lines (brackets, backslashes, multi-line strings)
//!   and indentation blocks;
//! - [`StrExpr`]: string expressions (`API + '/x'`, `f"{API}/x"`) with
//!   their names kept symbolic, so they travel in a fact from `analyze` to
//!   `link`;
//! - [`ModuleInfo`]: one module's dotted path, imports and module-level
//!   string constants (serialisable: record it as a fact);
//! - [`Project`]: every module at once, in `link`: what a (dotted) name
//!   means in a module ([`Project::resolve`]), the value of a constant
//!   across imports ([`Project::const_value`]), a string expression
//!   evaluated ([`Project::eval`]) and prefixes composed
//!   ([`Project::compose`]).
//!
//! The map/reduce shape: `analyze` records a [`ModuleInfo`] per file and
//! one fact per route with its prefix and path as [`StrExpr`]s; `link`
//! builds a [`Project`] and evaluates them.
//!
//! ```
//! use portolan_plugin_sdk::python::{no_locals, ModuleInfo, Project, StrExpr};
//! use portolan_plugin_sdk::SourceFile;
//!
//! // analyze, file by file (facts are these values, serialised)
//! let settings = SourceFile::new("app/settings.py", "API_PREFIX = '/api/v1'\n");
//! let views = SourceFile::new("app/views.py", "from .settings import API_PREFIX\n\nBASE = API_PREFIX + '/billing'\n");
//! let modules = [ModuleInfo::of(&settings), ModuleInfo::of(&views)];
//! let code = views.python();
//! let start = code.text().find("API_PREFIX +").unwrap();
//! let prefix = StrExpr::parse(&code, start..code.text().len() - 1).unwrap();
//! let path = StrExpr::lit("/invoices/<id>");
//!
//! // link, once every fact is in
//! let project = Project::new(modules.iter().collect());
//! let from = project.module_of_path("app/views.py").unwrap();
//! let url = project.compose(from, &[&prefix, &path], &no_locals);
//! assert_eq!(url.as_deref(), Some("/api/v1/billing/invoices/<id>"));
//! ```
//!
//! The semantics follow Python's: relative imports resolve exactly;
//! absolute ones by the longest module-path suffix (the scanned directory
//! need not be the import root); a constant's last assignment wins; `from m
//! import *` and package attributes (`pkg.sub`) are followed; import cycles
//! end after [`MAX_DEPTH`] steps. Everything is linear in the size of the
//! input and never panics on it.

#![deny(missing_docs)]

pub mod lines;
pub mod module;
pub mod project;
pub mod strexpr;

pub use module::{assignment_target, module_segments, parse_import, Const, Import, ModuleInfo};
pub use project::{no_locals, Binding, Project};
pub use strexpr::{dotted_at, Piece, StrExpr, MAX_DEPTH};
