//! Swift web frameworks.
//!
//! Adding a framework: a module next to [`vapor`] (a [`swift::flow::Dialect`]
//! over the shared [`swift`] helpers) and one entry in the `plugin!`
//! registration below.

pub mod cli;
pub mod hummingbird;
pub mod kitura;
pub mod swift;
pub mod vapor;

portolan_plugin_sdk::plugin!(
    name: "swift",
    analyzers: [vapor::Vapor, hummingbird::Hummingbird, kitura::Kitura, cli::SwiftCli],
);
