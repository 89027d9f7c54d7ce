//! A well-behaved out-of-tree plugin for the plugin-command tests
//! (tests/plugins_cmd.rs): `*.tiny` files hold one route per line,
//! `METHOD /path`; lines starting with `#` are comments.
use portolan_plugin_sdk::prelude::*;

struct Tiny;

impl Analyzer for Tiny {
    fn tech(&self) -> Tech {
        Tech::new("test_tiny", "Test", "Tiny")
            .files(["*.tiny"])
            .detect(Detect::files(["*.tiny"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        for (i, line) in file.content.lines().enumerate() {
            let mut words = line.split_whitespace();
            if let (Some(method), Some(path)) = (words.next(), words.next()) {
                if !method.starts_with('#') {
                    out.endpoint(Endpoint::new(method, path).at(file, i as u32 + 1));
                }
            }
        }
    }
}

portolan_plugin_sdk::plugin!(name: "tiny", analyzers: [Tiny]);
