//! The description of a builder-style Rust web framework that drives the
//! shared router scanner ([`super::scan`]): its builder vocabulary and the
//! hooks for what only it does. A framework module holds one `Framework`
//! value; the shared layer names no framework.

use std::ops::Range;

use portolan_plugin_sdk::{Code, SourceFile};

use super::scan::{FnFacts, Op, Root, Seg};
use crate::rs::items::FnDecl;

/// A chain segment with its arguments and line.
pub type Segment = (Seg, Vec<Range<usize>>, u32);

/// Reads the attribute routes of a function (`#[get("/x")]`).
pub type AttributeRoutes =
    fn(&SourceFile, &Code, &FnDecl, &mut FnFacts, &'static Framework, &[(Range<usize>, String)]);

/// Modules of a file with a path scope: (body range, scope path).
pub type ScopedModules = fn(&Code) -> Vec<(Range<usize>, String)>;
/// An attribute URI → (path, query parameter names).
pub type SplitUri = fn(&str) -> (String, Vec<String>);
/// The operations of a route-list macro at an offset.
pub type RouteList = fn(&Code, usize) -> Vec<Op>;
/// A scoped sub-router constructor as a chain root: (root, ops, end).
pub type ScopeRoot = fn(&SourceFile, &Code, &Seg, usize) -> Option<(Root, Vec<Op>, usize)>;
/// One chain segment (with its arguments and line) → an operation.
pub type ChainOp = fn(&SourceFile, &Code, &Seg, &[Range<usize>], u32) -> Option<Op>;
/// A whole chain (first segment, then the rest) → operations.
pub type ChainSegments = fn(&SourceFile, &Code, &Seg, &[Segment]) -> Vec<Op>;
/// Extra reads of a handler's parameters.
pub type HandlerReads = fn(&Code, &FnDecl, &mut FnFacts);

/// Everything the shared scanner needs to know about a framework.
pub struct Framework {
    /// Builder methods whose call chains are router operations
    /// (`route`, `nest`, `mount`, `service`, …).
    pub chain_ops: &'static [&'static str],
    /// Modules of a file that give their functions a path scope.
    pub scoped_modules: Option<ScopedModules>,
    /// `#[OpenApi] impl` blocks and `OpenApiService::new(Api, …)` services.
    pub openapi_impls: bool,
    /// `#[utoipa::path]` handlers, `Target::Method` for methods called on
    /// values, and a router returned by a tail call; no attribute routes.
    pub utoipa: bool,
    /// Extra reads of a handler's parameters.
    pub handler_reads: Option<HandlerReads>,
    /// Attribute-routed handlers.
    pub attribute_routes: Option<AttributeRoutes>,
    /// Attribute URIs carry the query (`/x?<q>`) and `#[route(METHOD, …)]`
    /// names the method first.
    pub split_uri: Option<SplitUri>,
    /// Builders are recognised only from their constructors (their method
    /// names, `.get(…)`/`.add(…)`, are everywhere).
    pub needs_constructor: bool,
    /// A route-list macro outside the builder (`routes![…]`) and what it
    /// merges; functions returning such lists also gather the lists they
    /// `append`/`extend`.
    pub route_list: Option<(&'static str, RouteList)>,
    /// Constructors of scoped sub-routers (`web::scope("/x")`) read as a
    /// chain root.
    pub scope_root: Option<ScopeRoot>,
    /// Names of those constructors (read as inline routers in arguments).
    pub scope_constructors: &'static [&'static str],
    /// One chain segment → one operation.
    pub chain_op: Option<ChainOp>,
    /// The whole chain (its first segment and the rest) → operations.
    pub chain_segments: Option<ChainSegments>,
}

impl Framework {
    /// No vocabulary and no hooks: each framework names what it has and
    /// takes the rest from here (`..Framework::BASE`).
    pub const BASE: Framework = Framework {
        chain_ops: &[],
        scoped_modules: None,
        openapi_impls: false,
        utoipa: false,
        handler_reads: None,
        attribute_routes: None,
        split_uri: None,
        needs_constructor: false,
        route_list: None,
        scope_root: None,
        scope_constructors: &[],
        chain_op: None,
        chain_segments: None,
    };
}
