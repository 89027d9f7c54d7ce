//! `sarif`: a SARIF 2.1.0 log on one line, shaped for code-scanning
//! services (GitHub, Azure DevOps) and SARIF viewers.
//!
//! One run; the driver is `portolan` with up to two endpoint rules:
//! `endpoint-discovery` (level `note`) and `shadow-endpoint` (level
//! `warning`: an endpoint tagged `shadow`, in code but not in the API
//! documents or the other way round), plus one rule per passive-scan rule id.
//! Every rule has a short and a full description and help text. One result
//! per endpoint: message `METHOD url (Parameters: type: name, …)`, its tags
//! under `properties.tags`, one location per code path (`region` only with a
//! line; at most [`MAX_LOCATIONS`]) and a `partialFingerprints` entry that
//! depends only on the method, URL and protocol, so a rescan or a checkout
//! in another folder keeps every alert's identity.
//!
//! Locations are URIs relative to `%SRCROOT%`: the working directory when
//! the scanned base path lies inside it (CI runs from the repository root,
//! which is what code scanning expects), otherwise the base path itself.
//! No absolute path of the scanning machine is written.
//!
//! Passive results use their rule id, severity (critical/high → error,
//! medium → warning, low → note) and extract. `invocations[0]` says whether
//! every plugin ran cleanly and carries their errors as notifications, so CI
//! can tell a partial scan from a clean one. GitHub's upload limits (25,000
//! results per run, 1,000 locations per result) are kept: what is cut is said
//! in a notification.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::RenderOptions;
use crate::hash::sha256_hex;
use crate::model::{Endpoint, Report, Severity};
use crate::paths::clean;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// GitHub code scanning rejects runs with more results than this.
pub const MAX_RESULTS: usize = 25_000;
/// … and ignores locations of a result beyond this.
pub const MAX_LOCATIONS: usize = 1_000;

const SRCROOT: &str = "%SRCROOT%";
const ENDPOINT_RULE: &str = "endpoint-discovery";
const SHADOW_RULE: &str = "shadow-endpoint";
const FINGERPRINT_KEY: &str = "portolanEndpoint/v1";

pub fn render(report: &Report, opts: &RenderOptions) -> String {
    let roots = Roots::new(opts);
    let mut rules: Vec<Value> = Vec::new();
    let mut results: Vec<Value> = Vec::new();
    for e in &report.endpoints {
        let shadow = e.tags.iter().any(|t| t.name == "shadow");
        let (rule, level) = if shadow {
            (SHADOW_RULE, "warning")
        } else {
            (ENDPOINT_RULE, "note")
        };
        if !rules.iter().any(|r| r["id"] == rule) {
            rules.push(endpoint_rule(rule));
        }
        results.push(endpoint_result(e, rule, level, &roots));
    }
    for p in &report.passive_results {
        let id = p.id.clone();
        let level = match p.info.severity {
            Severity::Critical | Severity::High => "error",
            Severity::Medium => "warning",
            Severity::Low => "note",
        };
        if !rules.iter().any(|r| r["id"] == json!(id)) {
            let name = if p.info.name.is_empty() {
                &id
            } else {
                &p.info.name
            };
            let description = if p.info.description.is_empty() {
                "Passive scan finding"
            } else {
                &p.info.description
            };
            rules.push(json!({
                "id": id,
                "name": name,
                "shortDescription": {"text": description},
                "fullDescription": {"text": description},
                "help": {"text": format!("{name}: {description} Review the matched text and remove or protect it.")},
                "defaultConfiguration": {"level": level},
            }));
        }
        let extract = p.extract.as_str();
        let mut r = Map::new();
        r.insert("ruleId".into(), json!(id));
        r.insert("level".into(), json!(level));
        r.insert("message".into(), json!({ "text": extract }));
        let line = u32::try_from(p.line_number).ok();
        let loc = roots.location(&p.file_path, line);
        let where_ = loc["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        r.insert("locations".into(), json!([loc]));
        r.insert(
            "partialFingerprints".into(),
            json!({ "portolanPassive/v1": fingerprint(&[&id, &where_, extract]) }),
        );
        results.push(Value::Object(r));
    }
    let mut notes: Vec<Value> = report
        .errors
        .iter()
        .map(|e| json!({"level": "error", "message": {"text": e.message}}))
        .chain(report.skipped.iter().map(|f| {
            json!({"level": "warning", "message": {"text": format!("{} skipped ({}: {})", f.path, f.reason, f.detail)}})
        }))
        .collect();
    if results.len() > MAX_RESULTS {
        notes.push(json!({"level": "warning", "message": {"text": format!(
            "{} results; only the first {MAX_RESULTS} are in this log (the limit of GitHub code scanning). Use -f json for all of them.",
            results.len()
        )}}));
        results.truncate(MAX_RESULTS);
    }
    let mut invocation = Map::new();
    invocation.insert(
        "executionSuccessful".into(),
        json!(report.errors.is_empty()),
    );
    if !notes.is_empty() {
        invocation.insert("toolExecutionNotifications".into(), Value::Array(notes));
    }
    let log = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "portolan",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "originalUriBaseIds": {SRCROOT: {"description": {"text": roots.describe()}}},
            "invocations": [invocation],
            "results": results,
        }],
    });
    let mut out = log.to_string();
    out.push('\n');
    out
}

fn endpoint_rule(id: &str) -> Value {
    let (name, short, full, help, level) = if id == SHADOW_RULE {
        (
            "Shadow Endpoint",
            "An HTTP endpoint that the code and the API documents disagree on.",
            "This endpoint is served by the code but missing from the API documents found in the tree, or documented but not found in the code. Undocumented endpoints escape review and testing; documented ones that no longer exist mislead clients and scanners.",
            "Document the endpoint (or remove it from the code if it should not be served), or remove the stale operation from the API document. Re-run portolan to confirm the code and the documents agree.",
            "warning",
        )
    } else {
        (
            "Endpoint Discovery",
            "An HTTP endpoint found in the source code.",
            "portolan found this endpoint (method, URL and parameters) by static analysis; it is part of the application's attack surface.",
            "Make sure the endpoint is intended, authenticated and authorised as it should be, validates its parameters, and is covered by your dynamic tests. The message lists the parameters portolan found.",
            "note",
        )
    };
    json!({
        "id": id,
        "name": name.replace(' ', ""),
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": help, "markdown": format!("**{name}.** {help}")},
        "defaultConfiguration": {"level": level},
        "properties": {"tags": ["security", "attack-surface"], "precision": "high"},
    })
}

fn endpoint_result(e: &Endpoint, rule: &str, level: &str, roots: &Roots) -> Value {
    let mut text = format!("{} {}", e.method, e.url);
    if !e.params.is_empty() {
        let list: Vec<String> = e
            .params
            .iter()
            .map(|p| format!("{}: {}", super::type_name(p.param_type), p.name))
            .collect();
        text.push_str(&format!(" (Parameters: {})", list.join(", ")));
    }
    let mut r = Map::new();
    r.insert("ruleId".into(), json!(rule));
    r.insert("level".into(), json!(level));
    r.insert("message".into(), json!({ "text": text }));
    let locations: Vec<Value> = e
        .details
        .code_paths
        .iter()
        .take(MAX_LOCATIONS)
        .map(|c| roots.location(&c.path, c.line))
        .collect();
    if !locations.is_empty() {
        r.insert("locations".into(), Value::Array(locations));
    }
    r.insert(
        "partialFingerprints".into(),
        json!({ FINGERPRINT_KEY: fingerprint(&[&e.method, &e.url, &e.protocol]) }),
    );
    if !e.tags.is_empty() {
        let tags: Vec<&str> = e.tags.iter().map(|t| t.name.as_str()).collect();
        r.insert("properties".into(), json!({ "tags": tags }));
    }
    Value::Object(r)
}

/// A stable identity: the hex SHA-256 of the parts, NUL-separated.
fn fingerprint(parts: &[&str]) -> String {
    sha256_hex(parts.join("\0").as_bytes())
}

/// Where `%SRCROOT%` is, and how a report path becomes a URI below it.
struct Roots {
    /// The working directory (canonical when it can be resolved).
    cwd: Option<PathBuf>,
    /// Each base path: (as written, made absolute lexically; the directory
    /// its files are made relative to).
    bases: Vec<(PathBuf, PathBuf)>,
    /// Whether some base is outside the working directory.
    outside: bool,
}

impl Roots {
    fn new(opts: &RenderOptions) -> Self {
        let cwd = opts.cwd.as_ref().map(|c| clean(c));
        let mut bases = Vec::new();
        let mut outside = false;
        for b in &opts.base_paths {
            let as_written = match &cwd {
                Some(c) if b.is_relative() => clean(&c.join(b)),
                _ => clean(b),
            };
            // A base reached through a symlink still maps to its place
            // below the working directory.
            let real = std::fs::canonicalize(&as_written).unwrap_or_else(|_| as_written.clone());
            let root = match &cwd {
                Some(c) if real.starts_with(c) => c.clone(),
                Some(c) if as_written.starts_with(c) => c.clone(),
                _ => {
                    outside = true;
                    as_written.clone()
                }
            };
            let below = real
                .strip_prefix(&root)
                .or_else(|_| as_written.strip_prefix(&root))
                .map(Path::to_path_buf)
                .unwrap_or_default();
            bases.push((as_written, below));
        }
        // Longest base first: a file belongs to the innermost base.
        bases.sort_by_key(|(b, _)| std::cmp::Reverse(b.components().count()));
        Roots {
            cwd,
            bases,
            outside,
        }
    }

    fn describe(&self) -> &'static str {
        if self.outside {
            "The scanned base path (it is outside the directory portolan ran from)."
        } else {
            "The directory portolan ran from (the repository root in CI)."
        }
    }

    /// `path` (as the report writes it) relative to `%SRCROOT%`, or `None`
    /// when it is below no base and no working directory.
    fn relative(&self, path: &str) -> Option<String> {
        let p = Path::new(path);
        let abs = match &self.cwd {
            Some(c) if p.is_relative() => clean(&c.join(p)),
            _ => clean(p),
        };
        for (base, below) in &self.bases {
            if let Ok(rest) = abs.strip_prefix(base) {
                return Some(slashed(&below.join(rest)));
            }
        }
        let cwd = self.cwd.as_ref()?;
        abs.strip_prefix(cwd).ok().map(slashed)
    }

    fn location(&self, path: &str, line: Option<u32>) -> Value {
        let mut physical = Map::new();
        let artifact = match self.relative(path) {
            Some(rel) => json!({"uri": uri(&rel), "uriBaseId": SRCROOT}),
            // Below nothing we know: the path as written, still relative
            // when it was relative.
            None => json!({ "uri": uri(path) }),
        };
        physical.insert("artifactLocation".into(), artifact);
        if let Some(l) = line.filter(|l| *l >= 1) {
            physical.insert("region".into(), json!({ "startLine": l }));
        }
        json!({ "physicalLocation": physical })
    }
}

/// A relative path with `/` separators.
fn slashed(p: &Path) -> String {
    let parts: Vec<String> = p
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// A relative file path as a URI reference: `\` → `/`, and bytes that may
/// not appear in a URI percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CodePath, Tag};
    use crate::output::testing::{example, report};

    fn opts(cwd: &str, bases: &[&str]) -> RenderOptions {
        RenderOptions {
            cwd: Some(PathBuf::from(cwd)),
            base_paths: bases.iter().map(PathBuf::from).collect(),
            ..RenderOptions::default()
        }
    }

    fn result(text: &str) -> Value {
        let v: Value = serde_json::from_str(text).unwrap();
        v["runs"][0]["results"][0].clone()
    }

    #[test]
    fn result_per_endpoint() {
        let text = render(&report(vec![example()]), &opts("/ci/repo", &["app"]));
        let r = result(&text);
        assert_eq!(r["ruleId"], "endpoint-discovery");
        assert_eq!(r["level"], "note");
        assert_eq!(
            r["message"]["text"],
            "POST /users/{id} (Parameters: query: page, json: name, header: X-API-Key, cookie: session, path: id)"
        );
        assert_eq!(
            r["locations"],
            json!([{"physicalLocation":{"artifactLocation":{"uri":"app/main.py","uriBaseId":"%SRCROOT%"},"region":{"startLine":12}}}])
        );
        assert_eq!(
            r["partialFingerprints"][FINGERPRINT_KEY],
            fingerprint(&["POST", "/users/{id}", "http"])
        );
        assert_eq!(uri("a b/ü.py"), "a%20b/%C3%BC.py");
    }

    #[test]
    fn locations_are_relative_to_the_working_directory_or_the_base() {
        let uri_of = |path: &str, o: &RenderOptions| {
            let mut e = example();
            e.details.code_paths = vec![CodePath {
                path: path.into(),
                line: Some(3),
            }];
            result(&render(&report(vec![e]), o))["locations"][0]["physicalLocation"]
                ["artifactLocation"]
                .clone()
        };
        let x = "/ci/repo/svc/api/x.py";
        // An absolute base below the working directory: relative to it.
        assert_eq!(
            uri_of(x, &opts("/ci/repo", &["/ci/repo/svc"])),
            json!({"uri": "svc/api/x.py", "uriBaseId": "%SRCROOT%"})
        );
        // A base outside the working directory: relative to the base.
        assert_eq!(
            uri_of(x, &opts("/home/me", &["/ci/repo/svc"])),
            json!({"uri": "api/x.py", "uriBaseId": "%SRCROOT%"})
        );
        // `..` and `.` in the base are resolved.
        assert_eq!(
            uri_of(
                "./svc/../svc/api/x.py",
                &opts("/ci/repo", &["./svc/../svc"])
            ),
            json!({"uri": "svc/api/x.py", "uriBaseId": "%SRCROOT%"})
        );
        // Neither below a base nor the working directory: as written.
        assert_eq!(
            uri_of("/elsewhere/y.py", &opts("/ci/repo", &["svc"])),
            json!({"uri": "/elsewhere/y.py"})
        );
    }

    #[test]
    fn shadow_endpoints_are_warnings_with_their_own_rule_and_stable_fingerprints() {
        let mut shadow = example();
        shadow.url = "/internal".into();
        shadow.tags.push(Tag {
            name: "shadow".into(),
            description: "undocumented".into(),
            tagger: "shadow".into(),
        });
        let a = render(
            &report(vec![example(), shadow.clone()]),
            &opts("/a", &["app"]),
        );
        let v: Value = serde_json::from_str(&a).unwrap();
        let rules: Vec<&str> = v["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(rules, ["endpoint-discovery", "shadow-endpoint"]);
        for r in v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap() {
            assert!(r["help"]["text"].as_str().unwrap().len() > 40, "{r}");
        }
        let second = &v["runs"][0]["results"][1];
        assert_eq!(second["ruleId"], "shadow-endpoint");
        assert_eq!(second["level"], "warning");
        assert_eq!(second["properties"]["tags"], json!(["shadow"]));
        // Another checkout folder: the same log.
        let b = render(&report(vec![example(), shadow]), &opts("/b", &["app"]));
        assert_eq!(a, b);
    }

    #[test]
    fn github_limits_are_kept_and_said() {
        let mut e = example();
        e.details.code_paths = (1..=MAX_LOCATIONS as u32 + 5)
            .map(|l| CodePath {
                path: "app/main.py".into(),
                line: Some(l),
            })
            .collect();
        let many: Vec<Endpoint> = (0..MAX_RESULTS + 1)
            .map(|i| {
                let mut x = if i == 0 { e.clone() } else { example() };
                x.url = format!("/r{i}");
                x
            })
            .collect();
        let v: Value =
            serde_json::from_str(&render(&report(many), &opts("/ci", &["app"]))).unwrap();
        let run = &v["runs"][0];
        assert_eq!(run["results"].as_array().unwrap().len(), MAX_RESULTS);
        assert_eq!(
            run["results"][0]["locations"].as_array().unwrap().len(),
            MAX_LOCATIONS
        );
        let note = run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap();
        assert!(
            note.starts_with("25001 results; only the first 25000"),
            "{note}"
        );
    }
}
