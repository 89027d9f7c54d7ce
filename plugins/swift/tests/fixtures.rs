//! Runs each analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology (map on each wanted file, then link on all
//! facts), applies the host's documented post-processing (merge by method +
//! URL, `path` params for URL placeholders, sort by first code path, line,
//! URL, method) and compares with the hand-written `expected.json`.
//!
//! On a mismatch the actual report is written to
//! `$TMPDIR/portolan-<tech>-<case>.actual.json` for diffing.

use std::fs;
use std::path::{Path, PathBuf};

use portolan_plugin_sdk::{Analyzer, Endpoint, Facts, Output, Param, ParamKind, SourceFile};
use portolan_plugin_swift::{hummingbird, kitura, vapor};
use serde_json::{json, Value};

fn fixtures_root(tech: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(tech)
}

/// `*` matches any run of characters in a file name.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((pre, post)) => {
            name.len() >= pre.len() + post.len() && name.starts_with(pre) && name.ends_with(post)
        }
    }
}

/// Every wanted file below `dir`, as (display path `app/…`, content), sorted.
fn tree(dir: &Path, display: &str, wanted: &[String], out: &mut Vec<(String, String)>) {
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
            tree(&path, &shown, wanted, out);
        } else if wanted.iter().any(|g| glob(g, &name)) {
            out.push((shown, fs::read_to_string(&path).unwrap_or_default()));
        }
    }
}

pub fn analyze_tree(analyzer: &dyn Analyzer, base: &Path) -> Vec<Endpoint> {
    let mut files = Vec::new();
    tree(base, "app", &analyzer.tech().files, &mut files);
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

/// Placeholder names as the host's optimizer reads them: `{name}`,
/// `{name:constraint}`, `{name?}`, a leading `:name`, a leading `*name`
/// (`{*rest}` is not a name).
fn placeholders(url: &str) -> Vec<String> {
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    let mut out = Vec::new();
    for seg in url.split('/') {
        if let Some(rest) = seg.strip_prefix(':') {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end > 0 {
                out.push(rest[..end].to_string());
            }
            continue;
        }
        if let Some(rest) = seg.strip_prefix('*') {
            if ident(rest) {
                out.push(rest.to_string());
            }
            continue;
        }
        let mut rest = seg;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            let inner = &rest[open + 1..open + close];
            let name = inner
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .trim_end_matches(['?', '*', '+']);
            if ident(name) {
                out.push(name.to_string());
            }
            rest = &rest[open + close + 1..];
        }
    }
    out
}

pub fn report(tech: &str, endpoints: Vec<Endpoint>) -> Value {
    let mut merged: Vec<Endpoint> = Vec::new();
    for mut e in endpoints {
        if !e.url.starts_with('/') {
            e.url.insert(0, '/');
        }
        if let Some(m) = merged
            .iter_mut()
            .find(|m| m.method == e.method && m.url == e.url)
        {
            for p in e.params {
                m.push_param(p);
            }
            for c in e.code_paths {
                if !m.code_paths.contains(&c) {
                    m.code_paths.push(c);
                }
            }
        } else {
            merged.push(e);
        }
    }
    for e in &mut merged {
        for name in placeholders(&e.url) {
            if !e.params.iter().any(|p| p.name == name) {
                e.params.push(Param::path(name));
            }
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
        .map(|e| e.to_string())
        .collect()
}

fn check_tech(analyzer: &dyn Analyzer) {
    let tech = analyzer.tech().id;
    let root = fixtures_root(&tech);
    let mut cases: Vec<_> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("expected.json").exists())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no fixture cases for {tech}");
    let mut failures = Vec::new();
    for dir in cases {
        let case = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let actual = report(&tech, analyze_tree(analyzer, &dir.join("app")));
        let actual_text = serde_json::to_string_pretty(&actual).expect("json");
        let expected_text = fs::read_to_string(dir.join("expected.json")).expect("expected.json");
        let expected: Value = serde_json::from_str(&expected_text).expect("expected.json parses");
        if actual != expected {
            let out = std::env::temp_dir().join(format!("portolan-{tech}-{case}.actual.json"));
            let _ = fs::write(&out, format!("{actual_text}\n"));
            let (a, x) = (summary(&actual), summary(&expected));
            let mut diffs = Vec::new();
            for v in &a {
                if !x.contains(v) {
                    diffs.push(format!("  got:  {v}"));
                }
            }
            for v in &x {
                if !a.contains(v) {
                    diffs.push(format!("  want: {v}"));
                }
            }
            failures.push(format!(
                "{tech}/{case} differs (actual in {}):\n{}",
                out.display(),
                diffs.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn swift_vapor_fixtures() {
    check_tech(&vapor::Vapor);
}

#[test]
fn swift_hummingbird_fixtures() {
    check_tech(&hummingbird::Hummingbird);
}

#[test]
fn swift_kitura_fixtures() {
    check_tech(&kitura::Kitura);
}

/// Every prefix of every fixture source (cut at arbitrary points, so
/// brackets, strings and comments are left open) is analyzed and linked
/// without panicking.
#[test]
fn truncated_sources_do_not_panic() {
    let analyzers: [&dyn Analyzer; 3] = [&vapor::Vapor, &hummingbird::Hummingbird, &kitura::Kitura];
    for analyzer in analyzers {
        let tech = analyzer.tech().id;
        let Ok(cases) = fs::read_dir(fixtures_root(&tech)) else {
            continue;
        };
        for case in cases.flatten() {
            let mut files = Vec::new();
            tree(
                &case.path().join("app"),
                "app",
                &analyzer.tech().files,
                &mut files,
            );
            for (path, content) in files {
                let mut facts = Facts::new(Vec::new());
                let cuts = (0..content.len())
                    .step_by(5)
                    .filter(|i| content.is_char_boundary(*i));
                for cut in cuts {
                    let file = SourceFile::new(path.clone(), content[..cut].to_string());
                    let mut out = Output::new();
                    analyzer.analyze(&file, &mut out);
                    let (_, f) = out.into_parts();
                    facts.extend(f);
                }
                analyzer.link(&facts).expect("link");
            }
        }
    }
}
