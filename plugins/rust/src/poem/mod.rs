//! Poem (`rust_poem`).
//!
//! Routes: `Route::new()` chains of `.at(path, endpoint)`,
//! `.nest(prefix, route)` and `.nest_no_strip(prefix, route)`, with nested
//! routes built in local variables, inline, or functions of other modules
//! (the shared scanner of [`crate::rs::router`]). Endpoints: `get(h).post(h2)`,
//! `RouteMethod::new().get(h)`, and a bare `#[handler]` function (Poem
//! serves every method: reported as GET, POST, PUT, PATCH and DELETE).
//! Paths: literals, constants, `format!`/`concat!`; `/:id` kept.
//!
//! Handler parameters: `Query<T>`/`Json<T>`/`Form<T>`/`Path<T>` struct
//! fields (serde renames honoured), `&HeaderMap` and `req: &Request`
//! (`req.header("x")`) header reads, `&CookieJar` (`jar.get("c")`),
//! `Multipart` (a `file` param). `poem-openapi` `#[OpenApi]` services are
//! not covered.
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use crate::rs::router;

use crate::rs::router::framework::Framework;
/// Poem's builder vocabulary for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: &["at", "nest", "nest_no_strip"],
    openapi_impls: true,
    attribute_routes: Some(crate::actix_web::builder::attribute_routes),
    ..Framework::BASE
};

router::router_analyzer!(Poem, "rust_poem", "Poem", ["poem"], "poem");

#[cfg(test)]
mod tests {
    use crate::rs::router::scan::{scan_file, Op};
    use portolan_plugin_sdk::SourceFile;

    fn methods(src: &str) -> Vec<Vec<String>> {
        let f = scan_file(&SourceFile::new("src/main.rs", src), &super::FRAMEWORK);
        f.fns[0].routers[0]
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Route { methods, .. } => Some(methods.iter().map(|(m, _)| m.clone()).collect()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn endpoints_and_method_routers() {
        assert_eq!(
            methods("fn app() -> Route {\n Route::new().at(\"/a\", h).at(\"/b\", RouteMethod::new().put(h)).at(\"/c\", get(h).options(h))\n}"),
            [
                vec!["GET", "POST", "PUT", "PATCH", "DELETE"],
                vec!["PUT"],
                vec!["GET", "OPTIONS"],
            ]
        );
    }
}
