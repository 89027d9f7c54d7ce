//! Native fixture runner for plugin tests (not compiled for wasm).
//!
//! A plugin's fixtures live in `tests/fixtures/<tech_id>/<case>/` of the
//! repository: the scanned tree in `app/` and, in `expected.json`, the exact
//! report `portolan -b app -f json --no-log` prints from the case directory.
//! [`check_fixtures`] runs each analyzer natively over every case of its
//! technology and compares the report with `expected.json`:
//!
//! ```no_run
//! # use portolan_plugin_sdk::{testing, Analyzer};
//! # fn demo(gin: &dyn Analyzer, echo: &dyn Analyzer) {
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
//! testing::check_fixtures(&[gin, echo], &root);
//! # }
//! ```
//!
//! What it does, per case:
//!
//! 1. Loads the files below `app/` that the analyzer's [`Tech::files`] globs
//!    want, with the host's glob semantics (a glob without `/` matches the
//!    file name, one with `/` matches the path below the base), in path
//!    order, with display paths `app/…`.
//! 2. Runs [`Analyzer::analyze`] on each file, then [`Analyzer::link`] on all
//!    facts when any fact was recorded.
//! 3. Converts the endpoints to the report's JSON shape (Noir v0.28 key
//!    order) stamped with the technology, and applies the host's
//!    post-processing. **This is a mirror of `host/src/optimize.rs`** (and of
//!    the endpoint conversion in `host/src/analyze.rs`): method normalisation
//!    (unknown verbs become `GET`), params with empty names or spaces
//!    dropped, leading `/`, `//` collapsed, code-derived endpoints before
//!    specification-derived ones ([`Tech::specification`]), sorted by (first
//!    code path, line, url, method, technology), merged by method + URL with
//!    placeholders unified (`<int:id>` = `:id` = `{id}`; params unioned by
//!    (name, type)), and a `path` param appended per URL placeholder. Keep
//!    the two in sync when the host changes. Not mirrored: detection (only
//!    the analyzers passed in run, on every wanted file), `-u` base URLs,
//!    `ai_context`, walker exclusions (`node_modules`, `.portolanignore`, …).
//!
//! A tree detected as several technologies: a case also runs the other
//! analyzers passed in whose technology its `expected.json` lists, and
//! expected endpoints of technologies not passed in (another plugin's) are
//! ignored.
//!
//! On a mismatch the failure message shows the endpoints that differ and the
//! actual report is written to `$TMPDIR/portolan-<tech>-<case>.actual.json`.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::model::{Endpoint, Facts, Output, ParamKind, SourceFile, Tech};
use crate::urls::{normalize_url, path_placeholders, unify_placeholders};
use crate::Analyzer;

pub use crate::model::METHODS;

/// Does a `Tech::files` glob want the file at `relative` (a `/`-separated
/// path below the scanned base)? Like the host: a glob without `/` matches
/// the file name, a glob with `/` the whole relative path (a leading `/` is
/// ignored; `*` and `?` stay within a path segment, `**` crosses them).
/// Supported syntax: `*`, `?`, `**`, `{a,b}` alternatives, `[abc]` / `[a-z]`
/// / `[!x]` classes.
pub fn glob_matches(glob: &str, relative: &str) -> bool {
    if glob.contains('/') {
        let g: Vec<char> = glob.trim_start_matches('/').chars().collect();
        let s: Vec<char> = relative.chars().collect();
        matches(&g, &s, true)
    } else {
        let name = relative.rsplit('/').next().unwrap_or(relative);
        let g: Vec<char> = glob.chars().collect();
        let s: Vec<char> = name.chars().collect();
        matches(&g, &s, false)
    }
}

fn matches(g: &[char], s: &[char], literal_separator: bool) -> bool {
    let Some(&c) = g.first() else {
        return s.is_empty();
    };
    match c {
        '*' if g.get(1) == Some(&'*') => {
            // `**/` also matches zero directories.
            let rest = &g[2..];
            if let Some(after) = rest.strip_prefix(&['/']) {
                if matches(after, s, literal_separator) {
                    return true;
                }
            }
            (0..=s.len()).any(|i| matches(rest, &s[i..], literal_separator))
        }
        '*' => {
            let rest = &g[1..];
            for i in 0..=s.len() {
                if matches(rest, &s[i..], literal_separator) {
                    return true;
                }
                if i < s.len() && literal_separator && s[i] == '/' {
                    break;
                }
            }
            false
        }
        '?' => {
            s.first()
                .is_some_and(|&ch| !(literal_separator && ch == '/'))
                && matches(&g[1..], &s[1..], literal_separator)
        }
        '{' => {
            let Some(close) = g.iter().position(|&x| x == '}') else {
                return !s.is_empty()
                    && s[0] == '{'
                    && matches(&g[1..], &s[1..], literal_separator);
            };
            let rest = &g[close + 1..];
            g[1..close].split(|&x| x == ',').any(|alt| {
                let mut pattern = alt.to_vec();
                pattern.extend_from_slice(rest);
                matches(&pattern, s, literal_separator)
            })
        }
        '[' => {
            let Some(len) = g[1..].iter().skip(1).position(|&x| x == ']') else {
                return !s.is_empty()
                    && s[0] == '['
                    && matches(&g[1..], &s[1..], literal_separator);
            };
            let close = len + 2;
            let Some(&ch) = s.first() else {
                return false;
            };
            let mut class = &g[1..close];
            let negated = matches!(class.first(), Some('!' | '^'));
            if negated {
                class = &class[1..];
            }
            let mut hit = false;
            let mut i = 0;
            while i < class.len() {
                if i + 2 < class.len() && class[i + 1] == '-' {
                    hit |= class[i] <= ch && ch <= class[i + 2];
                    i += 3;
                } else {
                    hit |= class[i] == ch;
                    i += 1;
                }
            }
            hit != negated && matches(&g[close + 1..], &s[1..], literal_separator)
        }
        _ => !s.is_empty() && s[0] == c && matches(&g[1..], &s[1..], literal_separator),
    }
}

/// Every file below `app_dir` that `tech` wants, in path order, as
/// [`SourceFile`]s with display paths `app/…` (the directory's own name is
/// not used: the fixture convention scans `app`). Unreadable or non-UTF-8
/// files are read lossily, like the host.
pub fn load_tree(tech: &Tech, app_dir: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    walk(app_dir, "", &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|(relative, _)| tech.files.iter().any(|g| glob_matches(g, relative)))
        .map(|(relative, path)| {
            let content = fs::read(&path).unwrap_or_default();
            SourceFile::new(
                format!("app/{relative}"),
                String::from_utf8_lossy(&content).into_owned(),
            )
        })
        .collect()
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if path.is_dir() {
            walk(&path, &relative, out);
        } else {
            out.push((relative, path));
        }
    }
}

/// Run one analyzer over `files` like the host: `analyze` on each file, then
/// `link` on all facts when at least one was recorded. A `link` error
/// panics (a test failure).
pub fn run_files(analyzer: &dyn Analyzer, files: &[SourceFile]) -> Vec<Endpoint> {
    let mut endpoints = Vec::new();
    let mut facts = Facts::new(Vec::new());
    let mut any_fact = false;
    for file in files {
        let mut out = Output::new();
        analyzer.analyze(file, &mut out);
        any_fact |= !out.facts.is_empty();
        let (e, f) = out.into_parts();
        endpoints.extend(e);
        facts.extend(f);
    }
    if any_fact {
        match analyzer.link(&facts) {
            Ok(linked) => endpoints.extend(linked),
            Err(e) => panic!("{}: link failed: {e}", analyzer.tech().id),
        }
    }
    endpoints
}

/// [`load_tree`] then [`run_files`]: the raw endpoints of one analyzer.
pub fn run(analyzer: &dyn Analyzer, app_dir: &Path) -> Vec<Endpoint> {
    run_files(analyzer, &load_tree(&analyzer.tech(), app_dir))
}

/// The report the host prints (`-f json`) for the endpoints of `analyzers`
/// over `app_dir`, with the host's post-processing.
pub fn report(analyzers: &[&dyn Analyzer], app_dir: &Path) -> Value {
    let mut all = Vec::new();
    let mut spec_techs = Vec::new();
    for analyzer in analyzers {
        let tech = analyzer.tech();
        if tech.specification {
            spec_techs.push(tech.id.clone());
        }
        for e in run(*analyzer, app_dir) {
            all.push((tech.id.clone(), e));
        }
    }
    render(all, &spec_techs)
}

/// A report endpoint: the host's model, kept as data for post-processing.
struct Item {
    url: String,
    method: String,
    /// (name, value, type)
    params: Vec<(String, String, ParamKind)>,
    code_paths: Vec<(String, Option<u32>)>,
    technology: String,
    protocol: String,
    /// (name, description, tagger)
    tags: Vec<(String, String, String)>,
    internal: bool,
}

fn convert(tech: String, e: Endpoint) -> Item {
    Item {
        url: e.url,
        method: e.method,
        params: e
            .params
            .into_iter()
            .map(|p| (p.name, p.value, p.kind))
            .collect(),
        code_paths: e
            .code_paths
            .into_iter()
            .filter(|c| !c.path.is_empty())
            .map(|c| (c.path, c.line.filter(|l| *l >= 1)))
            .collect(),
        technology: tech,
        protocol: if e.protocol.is_empty() {
            "http".into()
        } else {
            e.protocol
        },
        tags: e
            .tags
            .into_iter()
            .map(|t| (t.name, t.description, t.tagger))
            .collect(),
        internal: e.internal,
    }
}

/// Post-process (technology, endpoint) pairs exactly like
/// `host/src/optimize.rs` (without `-u`) and the always-on `websocket`
/// tagger of `host/src/tag`, and render the JSON report. (The `shadow`
/// tagger is not mirrored: a run of one plugin sees no documents, and
/// [`check_case`] ignores its tags.)
/// `spec_techs` are the ids of specification technologies (sorted after
/// code-derived endpoints).
pub fn render(endpoints: Vec<(String, Endpoint)>, spec_techs: &[String]) -> Value {
    let mut list: Vec<Item> = endpoints
        .into_iter()
        .map(|(t, e)| convert(t, e))
        .filter_map(normalize)
        .collect();
    list.sort_by_key(|e| sort_key(e, spec_techs));
    let mut merged = merge(list);
    for e in &mut merged {
        // The host's always-on `websocket` tagger.
        let ws = crate::model::Tag::websocket();
        if e.protocol == "ws" && !e.tags.iter().any(|t| t.0 == ws.name && t.2 == ws.tagger) {
            e.tags.push((ws.name, ws.description, ws.tagger));
        }
        for name in path_placeholders(&e.url) {
            if !e
                .params
                .iter()
                .any(|(n, _, k)| *k == ParamKind::Path && *n == name)
            {
                e.params.push((name, String::new(), ParamKind::Path));
            }
        }
    }
    let endpoints: Vec<Value> = merged.iter().map(to_json).collect();
    json!({ "endpoints": endpoints, "passive_results": [] })
}

fn to_json(e: &Item) -> Value {
    let params: Vec<Value> = e
        .params
        .iter()
        .map(|(name, value, kind)| {
            json!({"name": name, "value": value, "param_type": kind, "tags": []})
        })
        .collect();
    let code_paths: Vec<Value> = e
        .code_paths
        .iter()
        .map(|(path, line)| {
            let mut m = Map::new();
            m.insert("path".into(), json!(path));
            if let Some(line) = line {
                m.insert("line".into(), json!(line));
            }
            Value::Object(m)
        })
        .collect();
    let tags: Vec<Value> = e
        .tags
        .iter()
        .map(|(name, description, tagger)| {
            json!({"name": name, "description": description, "tagger": tagger})
        })
        .collect();
    json!({
        "url": e.url,
        "method": e.method,
        "params": params,
        "details": {"code_paths": code_paths, "technology": e.technology},
        "protocol": e.protocol,
        "tags": tags,
        "internal": e.internal,
    })
}

fn normalize(mut e: Item) -> Option<Item> {
    e.method = crate::model::normalize_method(&e.method, &e.protocol);
    e.params
        .retain(|(name, _, _)| !name.trim().is_empty() && !name.contains(' '));
    let url = e.url.trim();
    if url.is_empty() {
        return None;
    }
    e.url = normalize_url(url);
    Some(e)
}

type SortKey = (bool, bool, String, u32, String, String, String);

fn sort_key(e: &Item, spec_techs: &[String]) -> SortKey {
    let first = e.code_paths.first();
    (
        spec_techs.contains(&e.technology),
        first.is_none(),
        first.map(|c| c.0.clone()).unwrap_or_default(),
        first.and_then(|c| c.1).unwrap_or(0),
        e.url.clone(),
        e.method.clone(),
        e.technology.clone(),
    )
}

/// Linear like the host's merge: each merged item keeps hash sets of what
/// it holds.
fn merge(list: Vec<Item>) -> Vec<Item> {
    type Held = (
        HashSet<(String, ParamKind)>,
        HashSet<(String, Option<u32>)>,
        HashSet<(String, String)>,
    );
    let mut out: Vec<Item> = Vec::with_capacity(list.len());
    let mut held: Vec<Held> = Vec::with_capacity(list.len());
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for mut e in list {
        let key = (e.method.clone(), unify_placeholders(&e.url));
        match index.get(&key) {
            Some(&i) => {
                let target = &mut out[i];
                let (params, paths, tags) = &mut held[i];
                for p in e.params {
                    if params.insert((p.0.clone(), p.2)) {
                        target.params.push(p);
                    }
                }
                for c in e.code_paths {
                    if paths.insert(c.clone()) {
                        target.code_paths.push(c);
                    }
                }
                for t in e.tags {
                    if tags.insert((t.0.clone(), t.2.clone())) {
                        target.tags.push(t);
                    }
                }
                target.internal &= e.internal;
            }
            None => {
                let mut params = HashSet::new();
                e.params.retain(|p| params.insert((p.0.clone(), p.2)));
                let paths = e.code_paths.iter().cloned().collect();
                let tags = e.tags.iter().map(|t| (t.0.clone(), t.2.clone())).collect();
                index.insert(key, out.len());
                out.push(e);
                held.push((params, paths, tags));
            }
        }
    }
    out
}

/// The cases of a technology: the sub-directories of `<fixtures_root>/<tech>`
/// holding an `expected.json`, sorted.
pub fn cases(fixtures_root: &Path, tech: &str) -> Vec<String> {
    let mut cases: Vec<String> = fs::read_dir(fixtures_root.join(tech))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("expected.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// Compare the report of `analyzers` over `<case_dir>/app` with
/// `<case_dir>/expected.json`, restricted to the endpoints of the
/// technologies of `analyzers` (so a tree that also triggers another
/// technology is fine). `Err` holds a readable explanation (the
/// endpoints that differ, or both reports) and the actual report is written
/// to `$TMPDIR/portolan-<tech>-<case>.actual.json`, `<tech>` being the first
/// analyzer's id. While the analyzers run, [`crate::host::read_file`]
/// reads display paths (`app/…`) from `case_dir`, as the host does when run
/// from the case directory.
pub fn check_case(analyzers: &[&dyn Analyzer], case_dir: &Path) -> Result<(), String> {
    let tech = analyzers.first().map(|a| a.tech().id).unwrap_or_default();
    let case = case_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let expected_path = case_dir.join("expected.json");
    let mut expected = read_expected(&expected_path)?;
    // A tree detected as several technologies: compare the part of the
    // technologies under test.
    let techs: Vec<String> = analyzers.iter().map(|a| a.tech().id).collect();
    if let Some(list) = expected["endpoints"].as_array_mut() {
        list.retain(|e| {
            e["details"]["technology"]
                .as_str()
                .is_some_and(|t| techs.iter().any(|id| id == t))
        });
        // The host's `shadow` tagger compares with documents, which a run
        // of one plugin does not see; `auth` (opt-in, `args`) restates the
        // guards of `ai_context`, which this runner does not mirror.
        for e in list.iter_mut() {
            if let Some(tags) = e["tags"].as_array_mut() {
                tags.retain(|t| t["tagger"] != "Shadow" && t["tagger"] != "Auth");
            }
        }
    }
    let previous_root = crate::host::set_native_root(Some(case_dir.to_path_buf()));
    let actual = report(analyzers, &case_dir.join("app"));
    crate::host::set_native_root(previous_root);
    if actual == expected {
        return Ok(());
    }
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let out = std::env::temp_dir().join(format!("portolan-{tech}-{case}.actual.json"));
    let _ = fs::write(&out, pretty(&actual) + "\n");
    let list = |v: &Value| v["endpoints"].as_array().cloned().unwrap_or_default();
    let (want, got) = (list(&expected), list(&actual));
    let mut diff = String::new();
    if let Some(i) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) {
        let show = |e: Option<&Value>| e.map_or("(none)".to_string(), pretty);
        diff = format!(
            "first difference at endpoint #{i}:\n--- expected\n{}\n--- actual\n{}\n",
            show(want.get(i)),
            show(got.get(i))
        );
    }
    let summary = |list: &[Value]| {
        list.iter()
            .map(|e| format!("  {}", endpoint_summary(e)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    Err(format!(
        "{tech}/{case}: report differs from expected.json (actual written to {})\n\
         {diff}--- expected endpoints ({})\n{}\n--- actual endpoints ({})\n{}",
        out.display(),
        want.len(),
        summary(&want),
        got.len(),
        summary(&got),
    ))
}

fn read_expected(path: &Path) -> Result<Value, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The technologies of the endpoints of a case's `expected.json`.
fn expected_techs(case_dir: &Path) -> Vec<String> {
    let Ok(expected) = read_expected(&case_dir.join("expected.json")) else {
        return Vec::new();
    };
    let mut techs: Vec<String> = expected["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["details"]["technology"].as_str().map(str::to_string))
        .collect();
    techs.sort();
    techs.dedup();
    techs
}

/// One report endpoint on a line: `GET /a @app/x.py:3 [query q, path id]`.
fn endpoint_summary(e: &Value) -> String {
    let params: Vec<String> = e["params"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            format!(
                "{} {}={}",
                p["param_type"].as_str().unwrap_or(""),
                p["name"].as_str().unwrap_or(""),
                p["value"].as_str().unwrap_or("")
            )
        })
        .collect();
    let places: Vec<String> = e["details"]["code_paths"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| format!("{}:{}", c["path"].as_str().unwrap_or(""), c["line"]))
        .collect();
    format!(
        "{} {} @{} [{}]",
        e["method"].as_str().unwrap_or(""),
        e["url"].as_str().unwrap_or(""),
        places.join(","),
        params.join(", ")
    )
}

/// Options of [`Fixtures`].
pub struct Fixtures<'a> {
    analyzers: &'a [&'a dyn Analyzer],
    root: PathBuf,
    expected_cases: Vec<(String, Vec<String>)>,
}

impl<'a> Fixtures<'a> {
    /// Check every case of every analyzer's technology below `root`
    /// (`<root>/<tech>/<case>`).
    pub fn new(analyzers: &'a [&'a dyn Analyzer], root: impl Into<PathBuf>) -> Self {
        Fixtures {
            analyzers,
            root: root.into(),
            expected_cases: Vec::new(),
        }
    }

    /// Also assert the exact list of cases of `tech`, so a fixture cannot be
    /// added or removed unnoticed.
    pub fn cases(mut self, tech: &str, cases: &[&str]) -> Self {
        self.expected_cases.push((
            tech.to_string(),
            cases.iter().map(|c| c.to_string()).collect(),
        ));
        self
    }

    /// Run every case and return the failures; a technology without any
    /// case is a failure. A case runs its technology's analyzer plus the
    /// other analyzers passed in whose technology its `expected.json` lists
    /// (a tree detected as several technologies of the same plugin);
    /// expected endpoints of technologies not passed in are ignored.
    pub fn failures(&self) -> Vec<String> {
        let mut failures = Vec::new();
        for (tech, want) in &self.expected_cases {
            let got = cases(&self.root, tech);
            if &got != want {
                failures.push(format!(
                    "{tech}: fixture cases are {got:?}, expected {want:?}"
                ));
            }
        }
        for analyzer in self.analyzers {
            let tech = analyzer.tech().id;
            let found = cases(&self.root, &tech);
            if found.is_empty() {
                failures.push(format!(
                    "{tech}: no fixture case in {}",
                    self.root.join(&tech).display()
                ));
            }
            for case in found {
                let dir = self.root.join(&tech).join(&case);
                // The case's technology first, then the other analyzers
                // passed in whose technology the case expects too.
                let others = expected_techs(&dir);
                let mut run: Vec<&dyn Analyzer> = vec![*analyzer];
                run.extend(self.analyzers.iter().copied().filter(|a| {
                    let id = a.tech().id;
                    id != tech && others.contains(&id)
                }));
                if let Err(e) = check_case(&run, &dir) {
                    failures.push(e);
                }
            }
        }
        failures
    }

    /// [`Fixtures::failures`], panicking with all of them.
    pub fn check(&self) {
        let failures = self.failures();
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
}

/// Check every fixture case of every analyzer's technology below
/// `fixtures_root`; panics with a readable diff on any mismatch.
pub fn check_fixtures(analyzers: &[&dyn Analyzer], fixtures_root: &Path) {
    Fixtures::new(analyzers, fixtures_root).check();
}

mod profile;
pub use profile::profile_main;

#[cfg(test)]
mod tests;

/// Robustness check for plugin test suites: every prefix of every fixture
/// source of each analyzer's technology (cut every `step` bytes, so
/// brackets, strings, comments and documents are left open) is analyzed,
/// and each file's facts linked, without panicking. Log lines are dropped.
pub fn check_truncations(analyzers: &[&dyn Analyzer], fixtures_root: &Path, step: usize) {
    for analyzer in analyzers {
        let tech = analyzer.tech();
        for case in cases(fixtures_root, &tech.id) {
            let app = fixtures_root.join(&tech.id).join(case).join("app");
            for file in load_tree(&tech, &app) {
                let (path, content) = (file.path, file.content);
                let mut facts = Facts::new(Vec::new());
                let cuts = (0..content.len())
                    .step_by(step.max(1))
                    .filter(|i| content.is_char_boundary(*i));
                for cut in cuts {
                    let file = SourceFile::new(path.clone(), content[..cut].to_string());
                    let mut out = Output::new();
                    analyzer.analyze(&file, &mut out);
                    let (_, f) = out.into_parts();
                    facts.extend(f);
                }
                assert!(analyzer.link(&facts).is_ok(), "link after {path}");
            }
        }
    }
    let _ = crate::host::take_logs();
}

/// Robustness check for plugin test suites: every fixture source of each
/// analyzer's technology, with multi-byte characters (2, 3 and 4 bytes:
/// `é`, `中`, `😀`) inserted before every `period`-th char (one variant per
/// residue class, so every offset is hit), is analyzed, and each file's
/// facts linked, without panicking: no slicing at a non-char boundary.
pub fn check_multibyte(analyzers: &[&dyn Analyzer], fixtures_root: &Path, period: usize) {
    const CHARS: [char; 3] = ['é', '中', '😀'];
    let period = period.max(1);
    for analyzer in analyzers {
        let tech = analyzer.tech();
        for case in cases(fixtures_root, &tech.id) {
            let app = fixtures_root.join(&tech.id).join(case).join("app");
            for file in load_tree(&tech, &app) {
                let mut facts = Facts::new(Vec::new());
                for k in 0..period {
                    let mut s = String::with_capacity(file.content.len() * 2);
                    for (i, c) in file.content.chars().enumerate() {
                        if i % period == k {
                            s.push(CHARS[(i / period) % CHARS.len()]);
                        }
                        s.push(c);
                    }
                    let mut out = Output::new();
                    analyzer.analyze(&SourceFile::new(file.path.clone(), s), &mut out);
                    let (_, f) = out.into_parts();
                    facts.extend(f);
                }
                assert!(analyzer.link(&facts).is_ok(), "link after {}", file.path);
            }
        }
    }
    let _ = crate::host::take_logs();
}

/// One `#[test]` per technology checking exactly the listed fixture cases
/// (see [`Fixtures::cases`]) of its analyzer below a fixtures root:
///
/// ```ignore
/// portolan_plugin_sdk::fixture_tests! { fixtures_root();
///     go_gin_fixtures: gin::Gin => ["groups", "monorepo"],
/// }
/// ```
#[macro_export]
macro_rules! fixture_tests {
    ($root:expr; $($test:ident: $analyzer:path => [$($case:literal),* $(,)?],)*) => {
        $(
            #[test]
            fn $test() {
                let analyzer: &dyn $crate::Analyzer = &$analyzer;
                $crate::testing::Fixtures::new(&[analyzer], $root)
                    .cases(&analyzer.tech().id, &[$($case),*])
                    .check();
            }
        )*
    };
}
