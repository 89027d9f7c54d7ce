//! API specification documents.
pub mod doc;
pub mod oas2;
pub mod oas3;

#[cfg(test)]
mod testing;

portolan_plugin_sdk::plugin!(name: "specs", analyzers: [oas2::Oas2, oas3::Oas3]);
