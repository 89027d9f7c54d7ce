use portolan_plugin_sdk::prelude::*;

pub struct Oas3;

impl Analyzer for Oas3 {
    fn tech(&self) -> Tech {
        Tech::new("oas3", "Specification", "OpenAPI 3")
            .aliases(["openapi", "openapi3"])
            .files(["*.json", "*.yaml", "*.yml"])
            .detect(Detect::files(["*.json", "*.yaml", "*.yml"]).regex([r#"(?m)^\s*"?openapi"?\s*:\s*["']?3\."#]))
    }

    fn analyze(&self, _file: &SourceFile, _out: &mut Output) {}
}
