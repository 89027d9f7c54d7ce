//! `portolan diff OLD NEW`: how the attack surface changed between two
//! versions. Each side is a JSON report (`-f json`) or a source tree, which
//! is scanned first (by this binary, as a child process, with
//! `--ai-context` so authentication guards can be compared).
//!
//! Endpoints are matched by method and URL with every placeholder spelling
//! unified (`<int:id>`, `:id` and `{id}` are the same route). An endpoint is
//! `added`, `removed`, or `changed` when its parameters (type and name),
//! tags or guards (`ai_context.guards`, kind and name) differ. Formats:
//! plain (one line per change), json, markdown (a pull-request comment) and
//! sarif (added endpoints as results). `--fail-on` turns kinds of change
//! into exit status 6 for CI.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use portolan_plugin_sdk::urls::unify_placeholders;
use serde_json::{json, Value};

use crate::escape::visible;
use crate::output::quote;

/// Exit status when a change named by `--fail-on` is present.
pub const EXIT_FAIL_ON: u8 = 6;

/// Guard kinds that mean "someone must be logged in / allowed".
const AUTH_GUARDS: &[&str] = &["auth_guard", "authz_guard"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    Plain,
    Json,
    Markdown,
    Sarif,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Any endpoint added.
    Added,
    /// Any endpoint removed.
    Removed,
    /// Any endpoint whose params, tags or guards changed.
    Changed,
    /// An added endpoint without an authentication or authorization guard.
    AddedUnauthenticated,
    /// An endpoint that lost a guard.
    GuardRemoved,
    /// Any change at all.
    Any,
}

/// One endpoint as the diff sees it.
#[derive(Clone, Debug)]
struct Entry {
    method: String,
    url: String,
    location: Option<String>,
    params: BTreeSet<String>,
    tags: BTreeSet<String>,
    guards: BTreeSet<String>,
}

impl Entry {
    fn from_json(e: &Value) -> Option<(String, Entry)> {
        let method = e["method"].as_str()?.to_ascii_uppercase();
        let url = e["url"].as_str()?.to_string();
        let location = e["details"]["code_paths"][0]["path"].as_str().map(|p| {
            match e["details"]["code_paths"][0]["line"].as_u64() {
                Some(l) => format!("{p}:{l}"),
                None => p.to_string(),
            }
        });
        let strings = |list: &Value, f: &dyn Fn(&Value) -> Option<String>| -> BTreeSet<String> {
            list.as_array()
                .map(|a| a.iter().filter_map(f).collect())
                .unwrap_or_default()
        };
        let params = strings(&e["params"], &|p| {
            Some(format!(
                "{}:{}",
                p["param_type"].as_str()?,
                p["name"].as_str()?
            ))
        });
        let tags = strings(&e["tags"], &|t| t["name"].as_str().map(String::from));
        let guards = strings(&e["ai_context"]["guards"], &|g| {
            Some(format!("{}:{}", g["kind"].as_str()?, g["name"].as_str()?))
        });
        let key = format!("{method} {}", unify_placeholders(&url));
        Some((
            key,
            Entry {
                method,
                url,
                location,
                params,
                tags,
                guards,
            },
        ))
    }

    /// A guard in `ai_context`, or the `auth` tag (a report made with
    /// `--use-taggers auth` or `-T` but without `--ai-context`).
    fn authenticated(&self) -> bool {
        self.tags.contains("auth")
            || self
                .guards
                .iter()
                .any(|g| AUTH_GUARDS.iter().any(|k| g.starts_with(&format!("{k}:"))))
    }
}

/// What differs between two versions of one endpoint.
#[derive(Debug, Default)]
struct Change {
    params_added: Vec<String>,
    params_removed: Vec<String>,
    tags_added: Vec<String>,
    tags_removed: Vec<String>,
    guards_added: Vec<String>,
    guards_removed: Vec<String>,
}

impl Change {
    fn between(old: &Entry, new: &Entry) -> Option<Change> {
        let d = |a: &BTreeSet<String>, b: &BTreeSet<String>| -> Vec<String> {
            a.difference(b).cloned().collect()
        };
        let c = Change {
            params_added: d(&new.params, &old.params),
            params_removed: d(&old.params, &new.params),
            tags_added: d(&new.tags, &old.tags),
            tags_removed: d(&old.tags, &new.tags),
            guards_added: d(&new.guards, &old.guards),
            guards_removed: d(&old.guards, &new.guards),
        };
        let empty = c.params_added.is_empty()
            && c.params_removed.is_empty()
            && c.tags_added.is_empty()
            && c.tags_removed.is_empty()
            && c.guards_added.is_empty()
            && c.guards_removed.is_empty();
        (!empty).then_some(c)
    }

    fn parts(&self) -> Vec<(&'static str, &Vec<String>)> {
        vec![
            ("params_added", &self.params_added),
            ("params_removed", &self.params_removed),
            ("tags_added", &self.tags_added),
            ("tags_removed", &self.tags_removed),
            ("guards_added", &self.guards_added),
            ("guards_removed", &self.guards_removed),
        ]
    }
}

/// The whole comparison.
#[derive(Debug, Default)]
pub struct Diff {
    added: Vec<Entry>,
    removed: Vec<Entry>,
    changed: Vec<(Entry, Change)>,
}

impl Diff {
    /// Compare two reports (`{"endpoints": [...]}`).
    pub fn between(old: &Value, new: &Value) -> Diff {
        let index = |r: &Value| -> BTreeMap<String, Entry> {
            let mut map = BTreeMap::new();
            for e in r["endpoints"].as_array().into_iter().flatten() {
                if let Some((k, entry)) = Entry::from_json(e) {
                    map.entry(k).or_insert(entry);
                }
            }
            map
        };
        let (old, new) = (index(old), index(new));
        let mut diff = Diff::default();
        for (k, n) in &new {
            match old.get(k) {
                None => diff.added.push(n.clone()),
                Some(o) => {
                    if let Some(c) = Change::between(o, n) {
                        diff.changed.push((n.clone(), c));
                    }
                }
            }
        }
        for (k, o) in &old {
            if !new.contains_key(k) {
                diff.removed.push(o.clone());
            }
        }
        diff
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// The `--fail-on` conditions this diff meets.
    pub fn failures(&self, fail_on: &[FailOn]) -> Vec<FailOn> {
        fail_on
            .iter()
            .copied()
            .filter(|f| match f {
                FailOn::Added => !self.added.is_empty(),
                FailOn::Removed => !self.removed.is_empty(),
                FailOn::Changed => !self.changed.is_empty(),
                FailOn::AddedUnauthenticated => self.added.iter().any(|e| !e.authenticated()),
                FailOn::GuardRemoved => self
                    .changed
                    .iter()
                    .any(|(_, c)| !c.guards_removed.is_empty()),
                FailOn::Any => !self.is_empty(),
            })
            .collect()
    }

    pub fn render(&self, format: DiffFormat) -> String {
        match format {
            DiffFormat::Plain => self.plain(),
            DiffFormat::Json => {
                let mut s = self.json().to_string();
                s.push('\n');
                s
            }
            DiffFormat::Markdown => self.markdown(),
            DiffFormat::Sarif => self.sarif(),
        }
    }

    fn plain(&self) -> String {
        let mut out = String::new();
        let at = |e: &Entry| {
            e.location
                .as_deref()
                .map(|l| format!("  ({})", visible(l)))
                .unwrap_or_default()
        };
        for e in &self.added {
            let unauth = if e.authenticated() {
                ""
            } else {
                "  [no auth guard]"
            };
            out.push_str(&format!(
                "+ {} {}{unauth}{}\n",
                e.method,
                visible(&e.url),
                at(e)
            ));
        }
        for e in &self.removed {
            out.push_str(&format!("- {} {}{}\n", e.method, visible(&e.url), at(e)));
        }
        for (e, c) in &self.changed {
            let what: Vec<String> = c
                .parts()
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| format!("{k}: {}", visible(&v.join(", "))))
                .collect();
            out.push_str(&format!(
                "~ {} {}  {}{}\n",
                e.method,
                visible(&e.url),
                what.join("; "),
                at(e)
            ));
        }
        out.push_str(&format!(
            "{} added, {} removed, {} changed\n",
            self.added.len(),
            self.removed.len(),
            self.changed.len()
        ));
        out
    }

    fn json(&self) -> Value {
        let entry = |e: &Entry| {
            json!({
                "method": e.method,
                "url": e.url,
                "location": e.location,
                "params": e.params,
                "tags": e.tags,
                "guards": e.guards,
                "authenticated": e.authenticated(),
            })
        };
        let changed: Vec<Value> = self
            .changed
            .iter()
            .map(|(e, c)| {
                let mut v = entry(e);
                for (k, list) in c.parts() {
                    v[k] = json!(list);
                }
                v
            })
            .collect();
        json!({
            "added": self.added.iter().map(entry).collect::<Vec<_>>(),
            "removed": self.removed.iter().map(entry).collect::<Vec<_>>(),
            "changed": changed,
            "summary": {
                "added": self.added.len(),
                "removed": self.removed.len(),
                "changed": self.changed.len(),
                "added_unauthenticated": self.added.iter().filter(|e| !e.authenticated()).count(),
            },
        })
    }

    fn markdown(&self) -> String {
        let mut out = format!(
            "### Attack surface changes\n\n**{}** added, **{}** removed, **{}** changed.\n",
            self.added.len(),
            self.removed.len(),
            self.changed.len()
        );
        let code = |s: &str| format!("`{}`", quote::markdown_code(s));
        let loc = |e: &Entry| e.location.as_deref().map(code).unwrap_or_default();
        if !self.added.is_empty() {
            out.push_str("\n#### Added\n\n| Method | URL | Auth guard | Params | Location |\n|---|---|---|---|---|\n");
            for e in &self.added {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} |\n",
                    e.method,
                    code(&e.url),
                    if e.authenticated() {
                        "yes"
                    } else {
                        "**none found**"
                    },
                    quote::markdown(&e.params.iter().cloned().collect::<Vec<_>>().join(", ")),
                    loc(e)
                ));
            }
        }
        if !self.removed.is_empty() {
            out.push_str("\n#### Removed\n\n| Method | URL | Location |\n|---|---|---|\n");
            for e in &self.removed {
                out.push_str(&format!(
                    "| {} | {} | {} |\n",
                    e.method,
                    code(&e.url),
                    loc(e)
                ));
            }
        }
        if !self.changed.is_empty() {
            out.push_str(
                "\n#### Changed\n\n| Method | URL | Change | Location |\n|---|---|---|---|\n",
            );
            for (e, c) in &self.changed {
                let what: Vec<String> = c
                    .parts()
                    .into_iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| format!("{}: {}", k.replace('_', " "), v.join(", ")))
                    .collect();
                out.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    e.method,
                    code(&e.url),
                    quote::markdown(&what.join("; ")),
                    loc(e)
                ));
            }
        }
        out
    }

    fn sarif(&self) -> String {
        let results: Vec<Value> = self
            .added
            .iter()
            .map(|e| {
                let (rule, level) = if e.authenticated() {
                    ("new-endpoint", "note")
                } else {
                    ("new-unauthenticated-endpoint", "warning")
                };
                let mut r = json!({
                    "ruleId": rule,
                    "level": level,
                    "message": {"text": format!("New endpoint {} {}", e.method, e.url)},
                    "partialFingerprints": {"portolanEndpoint/v1": crate::hash::sha256_hex(format!("{}\0{}\0http", e.method, e.url).as_bytes())},
                });
                if let Some((path, line)) = e.location.as_deref().map(split_location) {
                    let mut physical = json!({"artifactLocation": {"uri": path.replace('\\', "/")}});
                    if let Some(l) = line {
                        physical["region"] = json!({"startLine": l});
                    }
                    r["locations"] = json!([{ "physicalLocation": physical }]);
                }
                r
            })
            .collect();
        let rule = |id: &str, text: &str, level: &str| {
            json!({
                "id": id,
                "shortDescription": {"text": text},
                "fullDescription": {"text": text},
                "help": {"text": format!("{text} Review it before the release: is it intended, guarded and tested?")},
                "defaultConfiguration": {"level": level},
            })
        };
        let log = json!({
            "$schema": crate::output::sarif::SCHEMA_URI,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": "portolan",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [
                        rule("new-endpoint", "An endpoint that the previous version did not have.", "note"),
                        rule("new-unauthenticated-endpoint", "A new endpoint with no authentication or authorization guard found.", "warning"),
                    ],
                }},
                "results": results,
            }],
        });
        let mut s = log.to_string();
        s.push('\n');
        s
    }
}

/// `path:line` back into its parts.
fn split_location(l: &str) -> (&str, Option<u64>) {
    match l.rsplit_once(':') {
        Some((p, n)) => match n.parse() {
            Ok(n) => (p, Some(n)),
            Err(_) => (l, None),
        },
        None => (l, None),
    }
}

/// A side of the comparison as a report: read a JSON report, or scan a
/// directory with this binary.
pub fn load(side: &Path) -> Result<Value, String> {
    if side.is_dir() {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find the portolan binary itself: {e}"))?;
        let out = Command::new(exe)
            .arg("scan")
            .arg("-b")
            .arg(side)
            .args(["-f", "json", "--ai-context", "--no-log"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run portolan: {e}"))?;
        if !matches!(out.status.code(), Some(0) | Some(4)) {
            return Err(format!(
                "scanning {} failed: {}",
                visible(&side.display().to_string()),
                visible(String::from_utf8_lossy(&out.stderr).trim())
            ));
        }
        serde_json::from_slice(&out.stdout).map_err(|e| format!("scan output is not JSON: {e}"))
    } else {
        let text = std::fs::read(side).map_err(|e| {
            format!(
                "{}: {e} (give a JSON report from `portolan -f json` or a directory)",
                visible(&side.display().to_string())
            )
        })?;
        let v: Value = serde_json::from_slice(&text).map_err(|e| {
            format!(
                "{} is not a JSON report: {e}",
                visible(&side.display().to_string())
            )
        })?;
        if !v["endpoints"].is_array() {
            return Err(format!(
                "{} has no `endpoints` list: give a report from `portolan -f json`",
                visible(&side.display().to_string())
            ));
        }
        Ok(v)
    }
}

pub struct DiffArgs<'a> {
    pub old: &'a Path,
    pub new: &'a Path,
    pub format: DiffFormat,
    pub output: Option<&'a PathBuf>,
    pub fail_on: &'a [FailOn],
}

pub fn main(args: DiffArgs<'_>) -> ExitCode {
    let (old, new) = match (load(args.old), load(args.new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let diff = Diff::between(&old, &new);
    let text = diff.render(args.format);
    let written = match args.output {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            use std::io::Write as _;
            match std::io::stdout().lock().write_all(text.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write the diff: {e}"))
                }
                _ => Ok(()),
            }
        }
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    let failed = diff.failures(args.fail_on);
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        let names: Vec<String> = failed
            .iter()
            .filter_map(|f| clap::ValueEnum::to_possible_value(f).map(|v| v.get_name().to_string()))
            .collect();
        eprintln!("portolan diff: --fail-on matched: {}", names.join(", "));
        ExitCode::from(EXIT_FAIL_ON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(method: &str, url: &str, params: &[(&str, &str)], guards: &[&str]) -> Value {
        json!({
            "method": method,
            "url": url,
            "params": params.iter().map(|(t, n)| json!({"name": n, "param_type": t})).collect::<Vec<_>>(),
            "details": {"code_paths": [{"path": "app/x.py", "line": 3}]},
            "tags": [],
            "ai_context": {"guards": guards.iter().map(|g| json!({"kind": "auth_guard", "name": g})).collect::<Vec<_>>()},
        })
    }

    fn report(eps: Vec<Value>) -> Value {
        json!({ "endpoints": eps })
    }

    #[test]
    fn added_removed_changed_with_unified_placeholders() {
        let old = report(vec![
            ep(
                "GET",
                "/users/<int:id>",
                &[("query", "q")],
                &["login_required"],
            ),
            ep("DELETE", "/old", &[], &[]),
        ]);
        let new = report(vec![
            ep(
                "GET",
                "/users/{id}",
                &[("query", "q"), ("header", "X-T")],
                &[],
            ),
            ep("POST", "/new", &[("json", "name")], &[]),
            ep("PUT", "/safe", &[], &["login_required"]),
        ]);
        let d = Diff::between(&old, &new);
        assert_eq!(d.added.len(), 2);
        assert_eq!(d.removed.len(), 1);
        assert_eq!(d.changed.len(), 1);
        let (e, c) = &d.changed[0];
        assert_eq!(e.url, "/users/{id}");
        assert_eq!(c.params_added, ["header:X-T"]);
        assert_eq!(c.guards_removed, ["auth_guard:login_required"]);
        assert_eq!(
            d.failures(&[
                FailOn::AddedUnauthenticated,
                FailOn::GuardRemoved,
                FailOn::Removed
            ]),
            [
                FailOn::AddedUnauthenticated,
                FailOn::GuardRemoved,
                FailOn::Removed
            ]
        );
        let plain = d.render(DiffFormat::Plain);
        assert_eq!(
            plain,
            "+ POST /new  [no auth guard]  (app/x.py:3)\n+ PUT /safe  (app/x.py:3)\n- DELETE /old  (app/x.py:3)\n~ GET /users/{id}  params_added: header:X-T; guards_removed: auth_guard:login_required  (app/x.py:3)\n2 added, 1 removed, 1 changed\n"
        );
    }

    #[test]
    fn only_guarded_additions_do_not_fail_added_unauthenticated() {
        let old = report(vec![]);
        let new = report(vec![ep("PUT", "/safe", &[], &["login_required"])]);
        let d = Diff::between(&old, &new);
        assert!(d.failures(&[FailOn::AddedUnauthenticated]).is_empty());
        assert_eq!(d.failures(&[FailOn::Added, FailOn::Any]).len(), 2);
        let same = Diff::between(&new, &new);
        assert!(same.is_empty());
        assert!(same.failures(&[FailOn::Any]).is_empty());
    }

    #[test]
    fn an_auth_tag_counts_as_a_guard() {
        let old = report(vec![]);
        let mut tagged = ep("PUT", "/safe", &[], &[]);
        tagged["tags"] = json!([{"name": "auth", "description": "Protected by login_required", "tagger": "Auth"}]);
        tagged.as_object_mut().unwrap().remove("ai_context");
        let d = Diff::between(&old, &report(vec![tagged]));
        assert!(d.failures(&[FailOn::AddedUnauthenticated]).is_empty());
        let d = Diff::between(&old, &report(vec![ep("PUT", "/open", &[], &[])]));
        assert_eq!(d.failures(&[FailOn::AddedUnauthenticated]).len(), 1);
    }

    #[test]
    fn repository_strings_are_escaped_in_plain_and_markdown() {
        let old = report(vec![]);
        let new = report(vec![ep("GET", "/a\x1b]0;x\x07|b\n+ GET /forged", &[], &[])]);
        let d = Diff::between(&old, &new);
        let plain = d.render(DiffFormat::Plain);
        assert_eq!(plain.lines().count(), 2, "{plain}");
        assert!(!plain.chars().any(|c| c.is_control() && c != '\n'));
        let md = d.render(DiffFormat::Markdown);
        assert!(!md.chars().any(|c| c.is_control() && c != '\n'));
        let row = md.lines().find(|l| l.starts_with("| GET")).unwrap();
        assert_eq!(row.matches(" | ").count(), 4, "{row}");
    }
}
