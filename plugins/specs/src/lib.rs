//! API specification documents.
pub mod doc;
pub mod har;
pub mod oas2;
pub mod oas3;
pub mod postman;

#[cfg(test)]
mod testing;

portolan_plugin_sdk::plugin!(name: "specs", analyzers: [har::Har, oas2::Oas2, oas3::Oas3, postman::Postman]);
