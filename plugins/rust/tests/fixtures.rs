//! Runs each Rust analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology (map on each file, then link on all facts),
//! applies the host's documented post-processing (merge by method + URL,
//! `path` params for URL placeholders, sort by first code path, line, URL,
//! method) and compares with the hand-written `expected.json`.
//!
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json` for diffing.

use std::fs;
use std::path::{Path, PathBuf};

use portolan_plugin_sdk::{Analyzer, Endpoint, Facts, Output, Param, ParamKind, SourceFile};
use serde_json::{json, Value};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Every file below `dir`, as (display path `app/…`, content), sorted.
fn tree(dir: &Path, display: &str, out: &mut Vec<(String, String)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_string();
        let path = entry.path();
        let shown = format!("{display}/{name}");
        if path.is_dir() {
            tree(&path, &shown, out);
        } else if name.ends_with(".rs") || name == "Cargo.toml" {
            out.push((shown, fs::read_to_string(&path).unwrap_or_default()));
        }
    }
}

fn analyze_tree(analyzer: &dyn Analyzer, base: &Path) -> Vec<Endpoint> {
    let mut files = Vec::new();
    tree(base, "app", &mut files);
    let mut endpoints = Vec::new();
    let mut facts = Facts::new(Vec::new());
    for (path, content) in files {
        let file = SourceFile::new(path, content);
        let mut out = Output::new();
        analyzer.analyze(&file, &mut out);
        let (e, f) = out.into_parts();
        endpoints.extend(e);
        facts.extend(f);
    }
    endpoints.extend(analyzer.link(&facts).expect("link"));
    endpoints
}

fn kind_name(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Query => "query",
        ParamKind::Json => "json",
        ParamKind::Form => "form",
        ParamKind::Header => "header",
        ParamKind::Cookie => "cookie",
        ParamKind::Path => "path",
        ParamKind::File => "file",
    }
}

/// URL placeholders: `{id}`, `:id`, `*path`, `<id>`, `<int:id>`.
fn placeholders(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    for seg in url.split('/') {
        if let Some(inner) = seg.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
            out.push(inner.rsplit(':').next().unwrap_or(inner).to_string());
        } else if let Some(name) = seg.strip_prefix(':').or_else(|| seg.strip_prefix('*')) {
            if !name.is_empty() {
                out.push(name.to_string());
            }
        } else {
            let mut rest = seg;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    break;
                };
                let inner = &rest[open + 1..open + close];
                out.push(inner.split(':').next().unwrap_or(inner).to_string());
                rest = &rest[open + close + 1..];
            }
        }
    }
    out
}

/// The host's post-processing, as documented to plugin authors.
fn report(tech: &str, endpoints: Vec<Endpoint>) -> Value {
    let mut merged: Vec<Endpoint> = Vec::new();
    for e in endpoints {
        if let Some(m) = merged
            .iter_mut()
            .find(|m| m.method == e.method && m.url == e.url)
        {
            for p in e.params {
                m.push_param(p);
            }
            m.code_paths.extend(e.code_paths);
        } else {
            merged.push(e);
        }
    }
    for e in &mut merged {
        for name in placeholders(&e.url) {
            e.push_param(Param::path(name));
        }
    }
    merged.sort_by(|a, b| {
        let key = |e: &Endpoint| {
            let first = e.code_paths.first();
            (
                first.map(|l| l.path.clone()).unwrap_or_default(),
                first.and_then(|l| l.line).unwrap_or(0),
                e.url.clone(),
                e.method.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    let endpoints: Vec<Value> = merged
        .iter()
        .map(|e| {
            json!({
                "url": e.url,
                "method": e.method,
                "params": e.params.iter().map(|p| json!({
                    "name": p.name,
                    "value": p.value,
                    "param_type": kind_name(p.kind),
                    "tags": [],
                })).collect::<Vec<_>>(),
                "details": {
                    "code_paths": e.code_paths.iter().map(|l| json!({"path": l.path, "line": l.line})).collect::<Vec<_>>(),
                    "technology": tech,
                },
                "protocol": e.protocol,
                "tags": [],
                "internal": e.internal,
            })
        })
        .collect();
    json!({ "endpoints": endpoints, "passive_results": [] })
}

fn summary(v: &Value) -> Vec<String> {
    v["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            let params: Vec<String> = e["params"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    format!(
                        "{}:{}",
                        p["name"].as_str().unwrap_or(""),
                        p["param_type"].as_str().unwrap_or("")
                    )
                })
                .collect();
            format!(
                "{} {} @ {} | {}",
                e["method"].as_str().unwrap_or(""),
                e["url"].as_str().unwrap_or(""),
                e["details"]["code_paths"],
                params.join(", ")
            )
        })
        .collect()
}

fn check_case(analyzer: &dyn Analyzer, case: &str) {
    let tech = analyzer.tech().id;
    let dir = fixtures_root().join(&tech).join(case);
    let actual = report(&tech, analyze_tree(analyzer, &dir.join("app")));
    let expected_text = fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let expected: Value = serde_json::from_str(&expected_text).expect("expected.json parses");
    if actual != expected {
        let out = std::env::temp_dir().join(format!("portolan-{tech}-{case}.actual.json"));
        let _ = fs::write(
            &out,
            serde_json::to_string_pretty(&actual).unwrap_or_default() + "\n",
        );
        panic!(
            "{tech}/{case}: report differs from expected.json (actual written to {}):\n--- expected\n{}\n--- actual\n{}",
            out.display(),
            summary(&expected).join("\n"),
            summary(&actual).join("\n"),
        );
    }
}

fn cases(tech: &str) -> Vec<String> {
    let mut cases: Vec<String> = fs::read_dir(fixtures_root().join(tech))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("expected.json").exists())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    cases.sort();
    cases
}

/// Every case of the analyzer's technology, asserting the list of cases so
/// a fixture cannot silently go untested.
fn check_all(analyzer: &dyn Analyzer, want: &[&str]) {
    let tech = analyzer.tech().id;
    assert_eq!(cases(&tech), want, "fixture cases of {tech}");
    for case in want {
        check_case(analyzer, case);
    }
}

#[test]
fn rust_axum_fixtures() {
    check_all(&portolan_plugin_rust::axum::Axum, &["workspace"]);
}

#[test]
fn rust_actix_web_fixtures() {
    check_all(&portolan_plugin_rust::actix_web::ActixWeb, &["workspace"]);
}

#[test]
fn rust_rocket_fixtures() {
    check_all(&portolan_plugin_rust::rocket::Rocket, &["workspace"]);
}

#[test]
fn rust_poem_fixtures() {
    check_all(&portolan_plugin_rust::poem::Poem, &["services"]);
}

#[test]
fn rust_tide_fixtures() {
    check_all(&portolan_plugin_rust::tide::Tide, &["services"]);
}

/// Every Rust technology declares its id, aliases, wanted files and a
/// detection rule; tech ids are unique.
#[test]
fn techs_are_declared() {
    use portolan_plugin_rust::*;
    let analyzers: [&dyn Analyzer; 5] = [
        &axum::Axum,
        &actix_web::ActixWeb,
        &rocket::Rocket,
        &poem::Poem,
        &tide::Tide,
    ];
    let mut ids = Vec::new();
    for a in analyzers {
        let t = a.tech();
        assert!(t.id.starts_with("rust_"), "{}", t.id);
        assert!(!t.aliases.is_empty() && !t.detect.is_empty(), "{}", t.id);
        assert!(t.files.contains(&"Cargo.toml".to_string()), "{}", t.id);
        ids.push(t.id);
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n);
}
