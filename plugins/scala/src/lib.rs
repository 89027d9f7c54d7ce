//! Scala web frameworks.
//!
//! Adding a framework: a module next to [`akka`] over the shared [`scala`]
//! helpers and one entry in the `plugin!` registration below.

pub mod akka;
pub mod cli;
pub mod http4s;
pub mod play;
pub mod scala;
pub mod scalatra;
pub mod tapir;
pub mod zio_http;

portolan_plugin_sdk::plugin!(
    name: "scala",
    analyzers: [
        akka::Akka,
        play::Play,
        http4s::Http4s,
        tapir::Tapir,
        scalatra::Scalatra,
        zio_http::ZioHttp,
        cli::ScalaCli,
    ],
);
