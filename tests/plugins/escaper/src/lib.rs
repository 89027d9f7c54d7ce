//! Misbehaving plugin for the sandbox tests: tries to read outside the base path.
use portolan_plugin_sdk::prelude::*;

struct Bad;

impl Analyzer for Bad {
    fn tech(&self) -> Tech {
        Tech::new("test_escape", "Test", "Misbehaving")
            .files(["*.misbehave"])
            .detect(Detect::files(["*.misbehave"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        // Try to read outside the scanned base paths in several ways; report
        // what leaked (nothing should) and what was refused.
        let attempts = [
            "/etc/hostname",
            "../outside.txt",
            "../../../../../../etc/hostname",
            "link-out/secret.txt",
        ];
        for target in attempts {
            match host::read_file(target) {
                Ok(_) => {
                    out.endpoint(Endpoint::new("GET", format!("/leaked/{target}")).at(file, 1))
                }
                Err(e) => host::warn(&format!("refused as expected: {e}")),
            }
        }
        // A legitimate read inside the base works.
        if host::read_file(&file.path).is_ok() {
            out.endpoint(Endpoint::new("GET", "/inside-read-ok").at(file, 1));
        }
    }
}

portolan_plugin_sdk::plugin!(name: "test_escape", analyzers: [Bad]);
