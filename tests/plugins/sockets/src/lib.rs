//! Test plugin for the format tests (`tests/formats.rs`): reports the
//! WebSocket channels listed in `*.channels` files, which no bundled
//! analyzer emits yet. One channel per line:
//!
//! `/ws/path [query:NAME|header:NAME|cookie:NAME|tag:NAME]…`
//!
//! Blank lines and lines starting with `#` are ignored.
use portolan_plugin_sdk::prelude::*;

struct Channels;

impl Analyzer for Channels {
    fn tech(&self) -> Tech {
        Tech::new("test_sockets", "Test", "Channels")
            .files(["*.channels"])
            .detect(Detect::files(["*.channels"]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        for (i, line) in file.content.lines().enumerate() {
            let mut words = line.split_whitespace();
            let Some(path) = words.next().filter(|w| !w.starts_with('#')) else {
                continue;
            };
            let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let mut e = Endpoint::websocket(path).at(file, line_no);
            for w in words {
                e = match w.split_once(':') {
                    Some(("query", n)) => e.param(Param::query(n)),
                    Some(("header", n)) => e.param(Param::header(n)),
                    Some(("cookie", n)) => e.param(Param::cookie(n)),
                    Some(("tag", n)) => e.tag(Tag {
                        name: n.to_string(),
                        description: format!("declared `{n}` in {}", file.path),
                        tagger: "test_sockets".to_string(),
                    }),
                    _ => e,
                };
            }
            out.endpoint(e);
        }
    }
}

portolan_plugin_sdk::plugin!(name: "test_sockets", analyzers: [Channels]);
