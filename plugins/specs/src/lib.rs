//! API specification documents.
pub mod doc;
mod oas3;

#[cfg(test)]
mod testing;

portolan_plugin_sdk::plugin!(name: "specs", analyzers: [oas3::Oas3]);
