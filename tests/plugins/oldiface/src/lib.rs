//! A plugin built against an incompatible interface version (9.0.0), written
//! directly with wit-bindgen. The host must refuse it by name.
wit_bindgen::generate!({ path: "wit", world: "plugin" });

use exports::portolan::analyzer::analyzer::Guest;
use portolan::analyzer::types::{BatchOutput, Endpoint, PluginInfo, SourceFile};

struct Old;

impl Guest for Old {
    fn describe() -> PluginInfo {
        PluginInfo {
            name: "test_oldiface".into(),
            version: "0.1.0".into(),
            interface_version: "9.0.0".into(),
            techs: Vec::new(),
        }
    }
    fn analyze(_tech: String, _files: Vec<SourceFile>) -> Result<BatchOutput, String> {
        Err("unreachable".into())
    }
    fn link(_tech: String, _facts: Vec<Vec<u8>>) -> Result<Vec<Endpoint>, String> {
        Ok(Vec::new())
    }
}

export!(Old);
