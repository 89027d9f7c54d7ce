//! Runs the Flask analyzer natively on every `tests/fixtures/python_flask/<case>/app`
//! tree (map on each file, then link on all facts), applies the host's
//! documented post-processing (merge by method + URL, `path` params for URL
//! placeholders, sort by first code path, line, URL, method) and compares
//! with the hand-written `expected.json` of the case.
//!
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-flask-<case>.actual.json` for diffing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use portolan_plugin_python::flask::Flask;
use portolan_plugin_sdk::{Analyzer, Endpoint, Facts, Output, Param, ParamKind, SourceFile};
use serde_json::{json, Value};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/python_flask")
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
        } else if name.ends_with(".py") {
            out.push((shown, fs::read_to_string(&path).unwrap_or_default()));
        }
    }
}

/// Map every file, link the facts: what the plugin hands the host.
pub fn analyze_tree(base: &Path, display_base: &str) -> Vec<Endpoint> {
    let mut files = Vec::new();
    tree(base, display_base, &mut files);
    let mut endpoints = Vec::new();
    let mut facts = Facts::new(Vec::new());
    for (path, content) in files {
        let file = SourceFile::new(path, content);
        let mut out = Output::new();
        Flask.analyze(&file, &mut out);
        let (e, f) = out.into_parts();
        endpoints.extend(e);
        facts.extend(f);
    }
    endpoints.extend(Flask.link(&facts).expect("link"));
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

/// URL placeholders: `<id>`, `<int:id>`, `{id}`, `:id`.
fn placeholders(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    for seg in url.split('/') {
        if seg.contains('<') {
            let mut rest = seg;
            while let Some(open) = rest.find('<') {
                let Some(close) = rest[open..].find('>') else {
                    break;
                };
                let inner = &rest[open + 1..open + close];
                out.push(inner.rsplit(':').next().unwrap_or(inner).to_string());
                rest = &rest[open + close + 1..];
            }
        } else if let Some(name) = seg.strip_prefix(':') {
            out.push(name.to_string());
        } else if seg.contains('{') {
            let mut rest = seg;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    break;
                };
                out.push(rest[open + 1..open + close].to_string());
                rest = &rest[open + close + 1..];
            }
        }
    }
    out
}

/// The host's post-processing, as documented to plugin authors.
pub fn report(endpoints: Vec<Endpoint>) -> Value {
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
                    "technology": "python_flask",
                },
                "protocol": e.protocol,
                "tags": [],
                "internal": e.internal,
            })
        })
        .collect();
    json!({ "endpoints": endpoints, "passive_results": [] })
}

fn check_case(case: &str) {
    let dir = fixtures_root().join(case);
    let actual = report(analyze_tree(&dir.join("app"), "app"));
    let actual_text = serde_json::to_string_pretty(&actual).expect("json");
    let expected_text = fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let expected: Value = serde_json::from_str(&expected_text).expect("expected.json parses");
    let expected_text = serde_json::to_string_pretty(&expected).expect("json");
    if actual_text != expected_text {
        let out = std::env::temp_dir().join(format!("portolan-flask-{case}.actual.json"));
        let _ = fs::write(&out, format!("{actual_text}\n"));
        // Summarise the differing endpoints for a readable failure.
        let summary = |v: &Value| -> BTreeMap<String, String> {
            v["endpoints"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    (
                        format!(
                            "{} {}",
                            e["method"].as_str().unwrap_or(""),
                            e["url"].as_str().unwrap_or("")
                        ),
                        e.to_string(),
                    )
                })
                .collect()
        };
        let (a, x) = (summary(&actual), summary(&expected));
        let mut diffs = Vec::new();
        for (k, v) in &a {
            match x.get(k) {
                None => diffs.push(format!("unexpected: {v}")),
                Some(w) if w != v => diffs.push(format!("differs:\n  got  {v}\n  want {w}")),
                _ => {}
            }
        }
        for (k, w) in &x {
            if !a.contains_key(k) {
                diffs.push(format!("missing: {w}"));
            }
        }
        panic!(
            "{case}: report differs from expected.json (actual written to {}):\n{}",
            out.display(),
            if diffs.is_empty() {
                "endpoint order differs".to_string()
            } else {
                diffs.join("\n")
            }
        );
    }
}

#[test]
fn fixture_basic() {
    check_case("basic");
}

#[test]
fn fixture_blueprints() {
    check_case("blueprints");
}

#[test]
fn fixture_methodview() {
    check_case("methodview");
}

#[test]
fn every_fixture_case_is_tested() {
    let mut cases: Vec<String> = fs::read_dir(fixtures_root())
        .expect("fixtures")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    cases.sort();
    assert_eq!(cases, vec!["basic", "blueprints", "methodview"]);
}

/// The bundled example: every route of `examples/flask-shop` is found.
#[test]
fn example_flask_shop_routes() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/flask-shop");
    let endpoints = report(analyze_tree(&base, "flask-shop"));
    let got: Vec<String> = endpoints["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            format!(
                "{} {}",
                e["method"].as_str().unwrap_or(""),
                e["url"].as_str().unwrap_or("")
            )
        })
        .collect();
    let want = include_str!("flask_shop_routes.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect::<Vec<_>>();
    assert_eq!(want.len(), 20);
    let mut got_sorted = got.clone();
    got_sorted.sort();
    let mut want_sorted = want;
    want_sorted.sort();
    assert_eq!(got_sorted, want_sorted, "flask-shop routes");
}

#[test]
#[ignore = "prints the example's report"]
fn print_example_report() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/flask-shop");
    for e in report(analyze_tree(&base, "flask-shop"))["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
    {
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
        println!(
            "{} {} | {} | {}",
            e["method"].as_str().unwrap_or(""),
            e["url"].as_str().unwrap_or(""),
            params.join(", "),
            e["details"]["code_paths"]
        );
    }
}
