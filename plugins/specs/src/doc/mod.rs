//! Building blocks shared by the spec analyzers: loading JSON/YAML into one
//! value tree, finding the source line of a key, following local `$ref`s,
//! reading body fields out of schemas, and URL helpers.

pub mod load;
pub mod locate;
pub mod refs;
pub mod schema;
pub mod url;
