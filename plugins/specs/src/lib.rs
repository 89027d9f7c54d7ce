//! API specification documents.
mod oas3;

portolan_plugin_sdk::plugin!(name: "specs", analyzers: [oas3::Oas3]);
