//! Misbehaving plugin for the sandbox tests: allocates without end.
use portolan_plugin_sdk::prelude::*;

struct Bad;

impl Analyzer for Bad {
    fn tech(&self) -> Tech {
        Tech::new("test_memory", "Test", "Misbehaving")
            .files(["*.misbehave"])
            .detect(Detect::files(["*.misbehave"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let _ = (file, &out);
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(vec![1u8; 1 << 20]);
            std::hint::black_box(&hoard);
        }
    }
}

portolan_plugin_sdk::plugin!(name: "test_memory", analyzers: [Bad]);
