//! Building blocks shared by the spec analyzers: loading JSON/YAML into one
//! value tree, finding the source line of a key, following `$ref`s (local
//! ones, and other files once bundled), reading body fields out of schemas
//! and body texts, `{{variables}}` of API clients, and URL helpers.

pub mod body;
pub mod bundle;
pub mod files;
pub mod load;
pub mod locate;
pub mod refs;
pub mod request;
pub mod schema;
pub mod url;
pub mod vars;
