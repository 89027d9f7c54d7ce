//! Hummingbird (`swift_hummingbird`), versions 1 and 2.
//!
//! - Routes on a `Router` / `RouterGroup` / `RouteCollection`:
//!   `router.get("todos/:id") { request, context in … }`, `.post(use:
//!   create)`, `router.on("x", method: .patch, use: h)`, chained
//!   (`group.get(…).post(…)`), and `router.ws("chat") { … }` websockets.
//! - Prefixes: `router.group("api")` (variables, chains and `{ g in … }`),
//!   controllers mounted with `Controller(…).addRoutes(to:
//!   router.group("todos"))` (any method taking a router group), and
//!   `router.addRoutes(Controller().endpoints, atPath: "/users")` for a
//!   computed `RouteCollection` property. Hummingbird 1's `app.router` is
//!   the application's router.
//! - Parameters read by the closure or handler method:
//!   `request.uri.queryParameters.get("q")`, `request.decode(as: T.self,
//!   context:)` (T's stored properties as json), headers and cookies; see
//!   [`crate::swift::reads`].
//!
//! Test targets (`Tests/`, `HummingbirdTesting`/`XCTest` importers) are
//! skipped.

use portolan_plugin_sdk::prelude::*;

use crate::swift::flow::Dialect;

pub const DIALECT: Dialect = Dialect {
    verbs: &[
        ("get", &["GET"]),
        ("post", &["POST"]),
        ("put", &["PUT"]),
        ("patch", &["PATCH"]),
        ("delete", &["DELETE"]),
        ("head", &["HEAD"]),
    ],
    on: &["on"],
    groups: &["group"],
    websockets: &["ws"],
    builder_types: &["Router", "RouteCollection", "RouterMethods"],
    root_inits: &["Router", "RouteCollection"],
    handler_labels: &["use"],
    roots: &["app"],
    passthrough: &["router"],
    middleware_labels: &[],
    codable: false,
};

crate::swift_analyzer!(
    Hummingbird,
    DIALECT,
    Tech::new("swift_hummingbird", "Swift", "Hummingbird")
        .aliases(["hummingbird", "swift-hummingbird"])
        .files(["*.swift"])
        .detect(Detect::files(["Package.swift"]).contains(["hummingbird-project/hummingbird"]))
        .detect(Detect::files(["*.swift"]).contains(["import Hummingbird"]))
        .supports(Supports::ALL)
);
