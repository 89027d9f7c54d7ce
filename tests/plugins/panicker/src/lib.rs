//! Misbehaving plugin for the sandbox tests: panics (a trap).
use portolan_plugin_sdk::prelude::*;

struct Bad;

impl Analyzer for Bad {
    fn tech(&self) -> Tech {
        Tech::new("test_panic", "Test", "Misbehaving")
            .files(["*.misbehave"])
            .detect(Detect::files(["*.misbehave"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let _ = out;
        panic!("cannot make sense of {}", file.path);
    }
}

portolan_plugin_sdk::plugin!(name: "test_panic", analyzers: [Bad]);
