//! Runs every specification analyzer natively on its
//! `tests/fixtures/<tech>/<case>/app` trees and compares the report with the
//! hand-written `expected.json`, through the SDK's shared runner
//! (`portolan_plugin_sdk::testing`, a mirror of the host's post-processing).
//! Also checks the warnings each case logs (malformed documents name their
//! file) and that every case on disk is listed here.
//!
//! Files referenced by a document (`$ref: ./schemas/user.yaml`) are read
//! from the case directory (`testing::check_case` points the native
//! `host::read_file` there), as the host's `read-file` would with `-b app`.

use std::path::{Path, PathBuf};

use portolan_plugin_sdk::{host, testing, Analyzer};
use portolan_plugin_specs::mobile::{android, ios, well_known_applinks};
use portolan_plugin_specs::{
    bruno, burp, caido, har, http_file, insomnia, mitmproxy, oas2, oas3, openrpc, postman,
    zap_sites_tree,
};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Every analyzer of the plugin, for cases that expect several.
const ANALYZERS: &[&dyn Analyzer] = &[
    &bruno::Bruno,
    &burp::Burp,
    &caido::Caido,
    &har::Har,
    &http_file::HttpFile,
    &insomnia::Insomnia,
    &mitmproxy::Mitmproxy,
    &oas2::Oas2,
    &oas3::Oas3,
    &openrpc::OpenRpc,
    &postman::Postman,
    &zap_sites_tree::ZapSitesTree,
    &android::Android,
    &ios::Ios,
    &well_known_applinks::WellKnownApplinks,
];

/// (technology, case, prefixes of the warnings it logs, in order).
const CASES: &[(&str, &str, &[&str])] = &[
    ("android", "manifest", &[]),
    ("android", "namespace", &[]),
    ("bruno", "collection", &[]),
    ("bruno", "lang", &[]),
    (
        "bruno",
        "malformed",
        &["warn: app/status/Report.bru: line 12: block `body:json` is never closed"],
    ),
    ("bruno", "opencollection", &[]),
    ("burp", "history", &[]),
    ("caido", "csv", &[]),
    ("caido", "export", &[]),
    ("har", "browser", &[]),
    ("har", "examples", &[]),
    ("har", "firefox", &[]),
    (
        "har",
        "malformed",
        &[
            "warn: app/recordings/broken.har: invalid JSON: ",
            "warn: app/recordings/notes.har: not an HTTP Archive (no `log.entries` list)",
        ],
    ),
    ("har", "mitmproxy", &[]),
    (
        "http_file",
        "jetbrains",
        &[],
    ),
    (
        "http_file",
        "malformed",
        &[
            "warn: app/http-client.env.json: invalid JSON: ",
            "warn: app/smoke.http: line 5: not a request line: `curl -X POST {{base}}/jobs`",
        ],
    ),
    ("http_file", "vscode", &[]),
    ("insomnia", "designer", &[]),
    ("insomnia", "json", &[]),
    (
        "insomnia",
        "malformed",
        &["warn: app/insomnia-export.json: invalid JSON: "],
    ),
    ("insomnia", "v5", &[]),
    ("insomnia", "yaml", &[]),
    (
        "mitmproxy",
        "binary",
        &["warn: app/captures/reports.flows: 1 flow(s) are not valid tnetstrings"],
    ),
    ("ios", "app", &[]),
    ("mitmproxy", "dump", &[]),
    ("oas2", "json", &["warn: app/openapi/orders.json: $ref `paths/missing.json`: app/openapi/paths/missing.json: "]),
    (
        "oas2",
        "malformed",
        &[
            "warn: app/docs/swagger.yaml: invalid YAML: ",
            "warn: app/docs/truncated.json: invalid JSON: ",
        ],
    ),
    ("oas2", "petstore", &[]),
    ("oas3", "json", &[]),
    ("oas3", "noise", &["warn: app/broken/openapi.yaml: invalid YAML: "]),
    (
        "oas3",
        "split",
        &["warn: app/api/openapi.yaml: $ref `./paths/refunds.yaml`: app/api/paths/refunds.yaml: "],
    ),
    ("oas3", "v31", &[]),
    ("oas3", "v32", &[]),
    ("oas3", "yaml", &[]),
    ("openrpc", "examples", &[]),
    ("openrpc", "node", &[]),
    ("postman", "api", &[]),
    ("postman", "library", &[]),
    (
        "postman",
        "malformed",
        &["warn: app/collections/payments.postman_collection.json: invalid JSON: "],
    ),
    ("postman", "v20", &[]),
    ("postman", "v21", &[]),
    (
        "well_known_applinks",
        "malformed",
        &["warn: app/static/.well-known/assetlinks.json: invalid JSON: "],
    ),
    ("well_known_applinks", "site", &[]),
    ("zap_sites_tree", "export", &[]),
    (
        "zap_sites_tree",
        "malformed",
        &["warn: app/sites-broken.yml: invalid YAML: "],
    ),
    ("zap_sites_tree", "messages", &[]),
];

fn analyzer(tech: &str) -> &'static dyn Analyzer {
    *ANALYZERS
        .iter()
        .find(|a| a.tech().id == tech)
        .unwrap_or_else(|| panic!("no analyzer for {tech}"))
}

/// The technologies a case's `expected.json` lists.
fn expected_techs(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("expected.json")).unwrap_or_default();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let mut techs: Vec<String> = report["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["details"]["technology"].as_str().map(str::to_string))
        .collect();
    techs.sort();
    techs.dedup();
    techs
}

#[test]
fn every_specification_fixture_matches() {
    let root = fixtures();
    let mut failures = Vec::new();
    for a in ANALYZERS {
        let tech = a.tech().id;
        let listed: Vec<&str> = CASES
            .iter()
            .filter(|(t, _, _)| *t == tech)
            .map(|(_, c, _)| *c)
            .collect();
        let found = testing::cases(&root, &tech);
        if found != listed {
            failures.push(format!(
                "{tech}: cases on disk {found:?}, listed {listed:?}"
            ));
        }
    }
    for (tech, case, warnings) in CASES {
        let dir = root.join(tech).join(case);
        let others = expected_techs(&dir);
        let mut run: Vec<&dyn Analyzer> = vec![analyzer(tech)];
        run.extend(
            ANALYZERS
                .iter()
                .copied()
                .filter(|a| a.tech().id != *tech && others.contains(&a.tech().id)),
        );
        let _ = host::take_logs();
        if let Err(e) = testing::check_case(&run, &dir) {
            failures.push(e);
        }
        let logs = host::take_logs();
        let ok = logs.len() == warnings.len()
            && logs
                .iter()
                .zip(warnings.iter())
                .all(|(l, w)| l.starts_with(w));
        if !ok {
            failures.push(format!(
                "{tech}/{case}: logs {logs:#?}\nexpected prefixes {warnings:#?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
