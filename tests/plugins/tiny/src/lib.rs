//! A well-behaved out-of-tree plugin for the plugin-command tests
//! (tests/plugins_cmd.rs): `*.tiny` files hold one route per line,
//! `METHOD /path`; lines starting with `#` are comments. The `prefix`
//! setting (`[[plugins]] config = { prefix = "/v2" }`) is put before every
//! path, and `skip_methods` drops routes of those methods.
use portolan_plugin_sdk::prelude::*;

struct Tiny;

impl Analyzer for Tiny {
    fn tech(&self) -> Tech {
        Tech::new("test_tiny", "Test", "Tiny")
            .files(["*.tiny"])
            .detect(Detect::files(["*.tiny"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let settings = host::settings();
        let prefix = settings
            .get("prefix")
            .and_then(|v| v.as_str())
            .unwrap_or("");
        let skip: Vec<&str> = settings
            .get("skip_methods")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|m| m.as_str()).collect())
            .unwrap_or_default();
        for (i, line) in file.content.lines().enumerate() {
            let mut words = line.split_whitespace();
            if let (Some(method), Some(path)) = (words.next(), words.next()) {
                if !method.starts_with('#') && !skip.contains(&method) {
                    let url = format!("{prefix}{path}");
                    out.endpoint(Endpoint::new(method, &url).at(file, i as u32 + 1));
                }
            }
        }
    }
}

portolan_plugin_sdk::plugin!(
    name: "tiny",
    analyzers: [Tiny],
    settings: [
        Setting::string("prefix", "put before every route path"),
        Setting::string_list("skip_methods", "methods whose routes are left out"),
    ],
);
