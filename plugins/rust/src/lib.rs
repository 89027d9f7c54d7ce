//! Rust web frameworks.
//!
//! [`rs`] holds the reusable Rust source helpers (items, signatures, serde
//! structs, constants, module paths) and the router scanner/linker shared by
//! the frameworks ([`rs::router`]); every framework is one module plus one
//! line in the `plugin!` registration below.

pub mod actix_web;
pub mod axum;
pub mod cli;
pub mod gotham;
pub mod loco;
pub mod poem;
pub mod rocket;
pub mod rs;
pub mod rwf;
pub mod salvo;
pub mod tide;
pub mod warp;

portolan_plugin_sdk::plugin!(
    name: "rust",
    analyzers: [
        axum::Axum,
        actix_web::ActixWeb,
        rocket::Rocket,
        poem::Poem,
        tide::Tide,
        salvo::Salvo,
        loco::Loco,
        warp::Warp,
        gotham::Gotham,
        rwf::Rwf,
        cli::RustCli,
    ]
);
