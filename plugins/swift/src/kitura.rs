//! Kitura (`swift_kitura`).
//!
//! - Routes on a `Router`: `router.get("/users/:id") { request, response,
//!   next in … }`, `router.post("/users", handler: createUser)`, chained
//!   `router.route("/items").get { … }.post { … }`; `router.all("/x") { … }`
//!   serves any method and is reported as GET, POST, PUT, PATCH and DELETE.
//!   Calls with a `middleware:` argument register middleware, not
//!   endpoints.
//! - Parameters read by the closure or handler function:
//!   `request.queryParameters["q"]`, `request.headers["X"]`,
//!   `request.cookies["c"]`, `try request.read(as: T.self)` (T's stored
//!   properties as json); path parameters (`request.parameters["id"]`)
//!   come from the URL.
//! - Codable routing (`router.get("/authors", handler: find)` with `func
//!   find(query: AuthorQuery, completion: …)`): the stored properties of
//!   the handler's parameter types are query parameters for GET, DELETE and
//!   HEAD routes and json otherwise. Kitura's implicit `/:id` of
//!   identifier-taking handlers is not added.
//!
//! Test targets are skipped.

use portolan_plugin_sdk::prelude::*;

use crate::swift::flow::Dialect;

pub const ANY_METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

pub const DIALECT: Dialect = Dialect {
    verbs: &[
        ("get", &["GET"]),
        ("post", &["POST"]),
        ("put", &["PUT"]),
        ("patch", &["PATCH"]),
        ("delete", &["DELETE"]),
        ("head", &["HEAD"]),
        ("options", &["OPTIONS"]),
        ("all", ANY_METHODS),
    ],
    on: &[],
    groups: &["route"],
    websockets: &[],
    builder_types: &["Router"],
    root_inits: &["Router"],
    handler_labels: &["handler"],
    roots: &["router"],
    passthrough: &[],
    middleware_labels: &["middleware", "allowPartialMatch"],
    codable: true,
};

crate::swift_analyzer!(
    Kitura,
    DIALECT,
    Tech::new("swift_kitura", "Swift", "Kitura")
        .aliases(["kitura", "swift-kitura"])
        .files(["*.swift"])
        .detect(Detect::files(["Package.swift"]).contains(["Kitura/Kitura", "IBM-Swift/Kitura"]),)
        .detect(Detect::files(["*.swift"]).contains(["import Kitura"]))
);
