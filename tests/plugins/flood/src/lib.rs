//! Misbehaving plugin for the sandbox tests: returns a huge result.
use portolan_plugin_sdk::prelude::*;

struct Bad;

impl Analyzer for Bad {
    fn tech(&self) -> Tech {
        Tech::new("test_flood", "Test", "Misbehaving")
            .files(["*.misbehave"])
            .detect(Detect::files(["*.misbehave"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        // About 40 MiB of endpoints: over the host cap on returned data.
        let padding = "x".repeat(400);
        for i in 0..100_000 {
            out.endpoint(Endpoint::new("GET", format!("/flood/{i}/{padding}")).at(file, 1));
        }
    }
}

portolan_plugin_sdk::plugin!(name: "test_flood", analyzers: [Bad]);
