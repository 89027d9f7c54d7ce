//! Crystal web frameworks.
//!
//! Adding a framework: a module next to [`kemal`] (reusing [`cr`]) and one
//! entry in the `plugin!` registration below.

pub mod amber;
pub mod cli;
pub mod cr;
pub mod grip;
pub mod http;
pub mod kemal;
pub mod lucky;
pub mod marten;

portolan_plugin_sdk::plugin!(name: "crystal", analyzers: [kemal::Kemal, lucky::Lucky, amber::Amber, marten::Marten, grip::Grip, http::Http, cli::CrystalCli]);
