//! Vapor (`swift_vapor`).
//!
//! - Routes on an `Application` / `RoutesBuilder`: `app.get("users",
//!   ":id") { req in … }`, `app.post("x", use: create)`, `app.on(.PATCH,
//!   "x", body: .collect, use: h)`, path components as separate arguments
//!   (`":id"`, `"*"`, `"**"`, `.catchall`, constants); `app.webSocket("chat")
//!   { req, ws in … }` is a websocket endpoint.
//! - Prefixes: `let api = app.grouped("api", "v1")`, `.group("x") { g in …
//!   }`, `grouped(Middleware())` (no path change), and
//!   `RouteCollection`s registered with `try app.register(collection:
//!   UserController())` / `try routes.grouped("x").register(collection: …)`
//!   in any file, as well as helper functions receiving a builder.
//! - Vapor 3: the builder is a `Router` (`func routes(_ router: Router)`,
//!   `func boot(router: Router)`), and `Recipe.parameter` / `Int.parameter`
//!   path components are parameters named by the type's routing slug
//!   (`:recipe`, `:int`).
//! - Parameters read by the closure or the handler method (`use: index`,
//!   `use: controller.index`): see [`crate::swift::reads`]; decoded
//!   `Content` bodies are reported as json (Vapor picks the decoder from the
//!   request's `Content-Type` at run time).
//!
//! Test targets (`Tests/`, files importing `XCTVapor`) are skipped, so
//! `app.test(.GET, "x")` never counts.

use portolan_plugin_sdk::prelude::*;

use crate::swift::flow::Dialect;

pub const DIALECT: Dialect = Dialect {
    verbs: &[
        ("get", &["GET"]),
        ("post", &["POST"]),
        ("put", &["PUT"]),
        ("patch", &["PATCH"]),
        ("delete", &["DELETE"]),
    ],
    on: &["on"],
    groups: &["grouped", "group"],
    websockets: &["webSocket"],
    builder_types: &["RoutesBuilder", "Application", "Router"],
    root_inits: &["Application"],
    handler_labels: &["use"],
    roots: &["app", "router"],
    passthrough: &["routes"],
    middleware_labels: &[],
    codable: false,
};

crate::swift_analyzer!(
    Vapor,
    DIALECT,
    Tech::new("swift_vapor", "Swift", "Vapor")
        .aliases(["vapor", "swift-vapor"])
        .files(["*.swift"])
        .detect(Detect::files(["Package.swift"]).contains(["vapor/vapor"]))
        .detect(Detect::files(["*.swift"]).contains(["import Vapor"]))
        .supports(Supports::ALL)
);
