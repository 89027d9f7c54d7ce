//! Test helpers around the SDK's shared fixture runner
//! (`portolan_plugin_sdk::testing`): run an analyzer over a fixture tree the
//! way the host does, keep its log lines, and render the host's report.

use std::path::{Path, PathBuf};

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::testing;
use serde_json::Value;

/// `tests/fixtures/<case>` of the repository.
pub fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(case)
}

/// What an analyzer reported for a tree.
pub struct Run {
    pub endpoints: Vec<Endpoint>,
    /// Host log lines (`warn: app/x.yaml: …`).
    pub logs: Vec<String>,
}

/// Feed every file of `<case_dir>/app` that the analyzer wants to `analyze`
/// (display paths `app/…`), then `link` when facts were recorded.
pub fn run(analyzer: &dyn Analyzer, case_dir: &Path) -> Run {
    let _ = host::take_logs();
    let endpoints = testing::run(analyzer, &case_dir.join("app"));
    Run {
        endpoints,
        logs: host::take_logs(),
    }
}

/// The report `portolan -f json` prints for these endpoints of one
/// specification technology (the host's post-processing, via the SDK).
pub fn report(endpoints: &[Endpoint], technology: &str) -> Value {
    let tagged = endpoints
        .iter()
        .map(|e| (technology.to_string(), e.clone()))
        .collect();
    testing::render(tagged, &[technology.to_string()])
}

/// An endpoint in one line: `GET /a @12 [query limit=20, json name=]`.
pub fn summary(e: &Endpoint) -> String {
    let line = e.code_paths.first().and_then(|l| l.line).unwrap_or(0);
    let params: Vec<String> = e
        .params
        .iter()
        .map(|p| {
            let kind = serde_json::to_value(p.kind).unwrap_or_default();
            format!("{} {}={}", kind.as_str().unwrap_or("?"), p.name, p.value)
        })
        .collect();
    format!("{} {} @{} [{}]", e.method, e.url, line, params.join(", "))
}
