//! Misbehaving plugin for the sandbox tests: loops forever.
use portolan_plugin_sdk::prelude::*;

struct Bad;

impl Analyzer for Bad {
    fn tech(&self) -> Tech {
        Tech::new("test_loop", "Test", "Misbehaving")
            .files(["*.misbehave"])
            .detect(Detect::files(["*.misbehave"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let _ = (file, &out);
        loop {
            std::hint::black_box(());
        }
    }
}

portolan_plugin_sdk::plugin!(name: "test_loop", analyzers: [Bad]);
