//! Plugin for the partial-failure tests: fails only on some files. A file
//! containing `TRAP` makes it panic, one containing `HANG` makes it loop
//! forever; every other `*.picky` file yields `GET /picky/<file stem>`. The
//! endpoints of the good files must survive the bad ones.
use portolan_plugin_sdk::prelude::*;

struct Picky;

impl Analyzer for Picky {
    fn tech(&self) -> Tech {
        // The framework name carries a terminal title escape: `--list-techs`
        // must print it escaped (tests/security.rs).
        Tech::new("test_picky", "Test", "Partly\x1b]0;owned\x07 failing")
            .files(["*.picky"])
            .detect(Detect::files(["*.picky"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if file.content.contains("TRAP") {
            panic!("trap marker in {}", file.path);
        }
        if file.content.contains("HANG") {
            loop {
                std::hint::black_box(());
            }
        }
        let stem = file
            .path
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".picky");
        out.endpoint(Endpoint::new("GET", format!("/picky/{stem}")).at(file, 1));
    }
}

portolan_plugin_sdk::plugin!(name: "test_picky", analyzers: [Picky]);
