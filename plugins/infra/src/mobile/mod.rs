//! Mobile deep-link declarations that make web URLs open an app.

pub mod android;
pub mod well_known_applinks;
