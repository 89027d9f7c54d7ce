//! Ruby web frameworks.
//!
//! Adding a framework: a module next to [`rails`] (reusing [`rb`]) and one
//! entry in the `plugin!` registration below.

pub mod actioncable;
pub mod cli;
pub mod grape;
pub mod hanami;
pub mod padrino;
pub mod rails;
pub mod rb;
pub mod roda;
pub mod sinatra;
pub mod webrick;

portolan_plugin_sdk::plugin!(name: "ruby", analyzers: [rails::Rails, sinatra::Sinatra, grape::Grape, hanami::Hanami, roda::Roda, padrino::Padrino, webrick::Webrick, actioncable::ActionCable, cli::RubyCli]);
