//! Go web frameworks.
//!
//! Every framework is a module holding a [`golang::framework::Framework`]
//! description driving the shared scanner and linker in [`golang`], plus
//! one entry in the `plugin!` registration below.

pub mod gin;
pub mod golang;

portolan_plugin_sdk::plugin!(name: "go", analyzers: [gin::Gin]);
