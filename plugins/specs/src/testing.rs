//! Test helpers: run an analyzer over a fixture tree the way the host does,
//! and render the report the host would print.

use std::path::{Path, PathBuf};

use portolan_plugin_sdk::prelude::*;
use serde_json::{json, Value};

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

/// Feed every file of `<case_dir>/app` that the analyzer wants (by its
/// `files` globs; `*.ext` and plain names) to `analyze`, in path order, with
/// display paths `app/…`; then `link` when facts were recorded.
pub fn run(analyzer: &dyn Analyzer, case_dir: &Path) -> Run {
    let tech = analyzer.tech();
    let mut files = Vec::new();
    walk(&case_dir.join("app"), "app", &mut files);
    files.sort();
    let _ = host::take_logs();
    let mut out = Output::new();
    for (display, path) in files {
        let name = display.rsplit('/').next().unwrap_or("");
        if !tech.files.iter().any(|glob| glob_matches(glob, name)) {
            continue;
        }
        let content = std::fs::read_to_string(&path).expect("fixture is UTF-8");
        analyzer.analyze(&SourceFile::new(display, content), &mut out);
    }
    let (mut endpoints, facts) = out.into_parts();
    if facts.iter::<Value>().next().is_some() {
        endpoints.extend(analyzer.link(&facts).expect("link"));
    }
    Run {
        endpoints,
        logs: host::take_logs(),
    }
}

fn walk(dir: &Path, display: &str, out: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir).expect("fixture dir");
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let shown = format!("{display}/{name}");
        if path.is_dir() {
            walk(&path, &shown, out);
        } else {
            out.push((shown, path));
        }
    }
}

fn glob_matches(glob: &str, name: &str) -> bool {
    match glob.strip_prefix('*') {
        Some(suffix) => name.ends_with(suffix),
        None => glob == name,
    }
}

/// The report `portolan -f json` prints for these endpoints, modelling the
/// host's post-processing: same (method, url) merged, a `path` param for
/// every `{name}` placeholder not already declared with an empty value,
/// sorted by (first code path, line, url, method).
pub fn report(endpoints: &[Endpoint], technology: &str) -> Value {
    let mut merged: Vec<Endpoint> = Vec::new();
    for e in endpoints {
        match merged
            .iter_mut()
            .find(|m| m.method == e.method && m.url == e.url)
        {
            Some(m) => {
                for p in &e.params {
                    m.push_param(p.clone());
                }
                m.code_paths.extend(e.code_paths.iter().cloned());
            }
            None => merged.push(e.clone()),
        }
    }
    for e in &mut merged {
        let mut rest = e.url.as_str();
        let mut names = Vec::new();
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            names.push(rest[open + 1..open + close].to_string());
            rest = &rest[open + close + 1..];
        }
        for name in names {
            let exists = e
                .params
                .iter()
                .any(|p| p.name == name && p.value.is_empty() && p.kind == ParamKind::Path);
            if !exists {
                e.params.push(Param::path(name));
            }
        }
    }
    merged.sort_by(|a, b| {
        let key = |e: &Endpoint| {
            let first = e.code_paths.first();
            (
                first.map(|l| l.path.clone()),
                first.and_then(|l| l.line),
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
                    "param_type": p.kind,
                    "tags": [],
                })).collect::<Vec<_>>(),
                "details": {
                    "code_paths": e.code_paths.iter().map(|l| json!({"path": l.path, "line": l.line})).collect::<Vec<_>>(),
                    "technology": technology,
                },
                "protocol": e.protocol,
                "tags": [],
                "internal": e.internal,
            })
        })
        .collect();
    json!({"endpoints": endpoints, "passive_results": []})
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
