//! Elixir web frameworks.
//!
//! Adding a framework: a module next to [`phoenix`] (reusing [`ex`] and
//! [`routes`]) and one entry in the `plugin!` registration below.

pub mod bandit;
pub mod channel;
pub mod cli;
pub mod ex;
pub mod phoenix;
pub mod plug;
pub mod routes;

/// The servers of Plug modules the shared map step asks ([`routes::Server`]).
pub const SERVERS: &[routes::Server] = &[bandit::SERVER];

portolan_plugin_sdk::plugin!(
    name: "elixir",
    analyzers: [phoenix::Phoenix, channel::Channel, plug::Plug, bandit::Bandit, cli::ElixirCli],
);
