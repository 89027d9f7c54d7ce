//! Replaces the built-in `python_flask` analyzer in the override tests
//! (tests/plugins_cmd.rs): one `GET /from-tinyflask` per Flask file.
use portolan_plugin_sdk::prelude::*;

struct NotFlask;

impl Analyzer for NotFlask {
    fn tech(&self) -> Tech {
        Tech::new("python_flask", "Python", "Flask")
            .files(["*.py"])
            .detect(Detect::files(["*.py"]).contains(["flask"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if file.content.contains("flask") {
            out.endpoint(Endpoint::new("GET", "/from-tinyflask").at(file, 1));
        }
    }
}

portolan_plugin_sdk::plugin!(name: "tinyflask", analyzers: [NotFlask]);
