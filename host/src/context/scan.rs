//! The route-scope source scan (guards, sinks, validators, CSRF/JWT/CORS
//! signals, cookie and header reads) and the name-based sink/validator
//! cues for callees.

use std::sync::OnceLock;

use regex::Regex;

use super::kinds;
use super::names;
use super::rules::{self, Bucket, Family};
use super::signals::type_name;
use super::snippet;
use super::{at, entry, Draft, Files};
use crate::model::Endpoint;

const SAFE: &[&str] = &["GET", "HEAD", "OPTIONS", "TRACE"];
/// Regex-derived names are cut to this many characters.
const MAX_NAME: usize = 64;

/// Step 10 (and 11) for one code path.
pub fn route_scope(e: &Endpoint, path: &str, line: u32, files: &mut Files<'_>, d: &mut Draft) {
    let family = Family::of(path);
    if family == Family::NotCode {
        return;
    }
    let lines = files.lines(path);
    let scope = snippet::route_scope(lines, line, path);
    if scope.is_empty() {
        return;
    }
    let compiled = rules::for_family(family);
    let hit = |kind: &str, name: String, confidence: u8, n: u32| {
        let mut x = at(entry(kind, name, "route_source", confidence), path, Some(n));
        x.snippet = snippet::window(lines, n, 1);
        x
    };
    let mut credentials = Vec::new();
    for &(n, text) in &scope {
        if method_branch().is_match(text) {
            d.branches_on_method = true;
        }
        for (bucket, kind, re) in &compiled.rules {
            let Some(m) = re.find(text) else { continue };
            let name = || derived_name(text, m.start(), m.end());
            // One sink and one validator per kind from the scan, and none
            // where a callee of that kind already points at this line.
            let scanned = |b: &super::Bucket| {
                b.iter().any(|x| {
                    x.kind == *kind
                        && (x.source.as_deref() == Some("route_source")
                            || (x.path.as_deref() == Some(path) && x.line == Some(n)))
                })
            };
            match bucket {
                // One guard per kind; a kind the tags or the analyzer
                // already gave is not repeated from the source.
                Bucket::Guard if !d.guards.has(kind) => {
                    d.guards
                        .push(hit(kind, name(), kinds::scan_confidence(kind), n));
                }
                Bucket::Signal if !d.signals.has(kind) => {
                    if *kind == "csrf_exempt" && SAFE.contains(&e.method.as_str()) {
                        continue;
                    }
                    d.signals
                        .push(hit(kind, name(), kinds::scan_confidence(kind), n));
                }
                Bucket::Sink if !scanned(&d.sinks) => {
                    let c = kinds::sink_confidence(kind).saturating_sub(12);
                    d.sinks.push(hit(kind, name(), c, n));
                }
                Bucket::Validator if !scanned(&d.validators) => {
                    let c = kinds::validator_confidence(kind).saturating_sub(12);
                    d.validators.push(hit(kind, name(), c, n));
                }
                _ => {}
            }
        }
        for (param_type, re) in &compiled.reads {
            for c in re.captures_iter(text) {
                let Some(read) = c.get(1).map(|g| g.as_str()) else {
                    continue;
                };
                let declared = e
                    .params
                    .iter()
                    .any(|p| p.param_type == *param_type && p.name.eq_ignore_ascii_case(read));
                if declared {
                    continue;
                }
                let name = format!("{}.{read}", type_name(*param_type));
                d.sources.push(hit("request_input", name.clone(), 82, n));
                if names::is(read, "credential_input") {
                    credentials.push((name, n));
                }
            }
        }
    }
    if !d.signals.has("cors_open") {
        let origin = scope.iter().find(|(_, t)| cors_wildcard().is_match(t));
        let credentials_on = scope.iter().any(|(_, t)| cors_credentials().is_match(t));
        if let (Some(&(n, text)), true) = (origin, credentials_on) {
            let name = text.split_whitespace().collect::<Vec<_>>().join(" ");
            d.signals.push(hit(
                "cors_open",
                cut(&name),
                kinds::scan_confidence("cors_open"),
                n,
            ));
        }
    }
    // Step 11: credential inputs read in the source.
    for (name, n) in credentials {
        if !d
            .signals
            .iter()
            .any(|s| s.kind == "credential_input" && s.name == name)
        {
            let mut x = at(
                entry("credential_input", name, "route_source", 64),
                path,
                Some(n),
            );
            x.snippet = None;
            d.signals.push(x);
        }
    }
}

fn method_branch() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\b(request|req|r|ctx|c)\.(method|Method|getMethod\(\))\b").expect("valid")
    })
}

fn cors_wildcard() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?i)(origins?|allow_origins|Access-Control-Allow-Origin)['"]?\s*[:=,]\s*\[?\s*['"]\*['"]"#)
            .expect("valid")
    })
}

fn cors_credentials() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?i)(credentials|Allow-Credentials)['"]?\s*[:=,]\s*['"]?true"#)
            .expect("valid")
    })
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.'
}

/// The matched text, extended back over the dotted receiver, forward to
/// the end of the identifier and through a parenthesis group opened in
/// it (on this line), cut to 64 characters.
fn derived_name(line: &str, start: usize, end: usize) -> String {
    let bytes = line.as_bytes();
    let mut s = start;
    while s > 0 && is_name_byte(bytes[s - 1]) {
        s -= 1;
    }
    let mut t = end;
    while t < bytes.len() && is_name_byte(bytes[t]) {
        t += 1;
    }
    let mut depth: i32 =
        line[s..t].matches('(').count() as i32 - line[s..t].matches(')').count() as i32;
    if depth == 0 && bytes.get(t) == Some(&b'(') {
        depth = 1;
        t += 1;
    }
    while depth > 0 && t < bytes.len() {
        match bytes[t] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        t += 1;
    }
    while !line.is_char_boundary(t) {
        t += 1;
    }
    cut(line[s..t].trim())
}

fn cut(s: &str) -> String {
    match s.char_indices().nth(MAX_NAME) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

fn any_word(words: &[String], cues: &[&str]) -> bool {
    words.iter().any(|w| cues.contains(&w.as_str()))
}

/// The sink kind a callee's name suggests.
pub fn sink_by_name(callee: &str) -> Option<&'static str> {
    let lower = callee.to_ascii_lowercase();
    let w = names::words(callee);
    Some(
        if any_word(
            &w,
            &[
                "objects",
                "find",
                "filter",
                "filter_by",
                "findone",
                "findall",
            ],
        ) || lower.contains("find_by") && !lower.contains("find_by_sql")
        {
            "data_store_query"
        } else if lower.contains("raw_sql")
            || lower.contains("find_by_sql")
            || any_word(&w, &["query", "execute", "executemany", "sql", "raw"])
        {
            "sql"
        } else if any_word(
            &w,
            &["exec", "system", "spawn", "popen", "shell", "subprocess"],
        ) || lower.contains("processbuilder")
        {
            "command_exec"
        } else if any_word(
            &w,
            &[
                "requests",
                "httpx",
                "urlopen",
                "fetch",
                "axios",
                "resttemplate",
                "webclient",
            ],
        ) {
            "outbound_http"
        } else if any_word(&w, &["file", "read", "upload", "download", "open"])
            || lower.contains("send_file")
        {
            "file_io"
        } else if any_word(&w, &["redirect"]) || lower.contains("redirect_to") {
            "redirect"
        } else if any_word(&w, &["render", "template"]) {
            "template_render"
        } else {
            return None;
        },
    )
}

/// The validator kind a callee's name suggests.
pub fn validator_by_name(callee: &str) -> Option<&'static str> {
    let lower = callee.to_ascii_lowercase();
    let w = names::words(callee);
    Some(
        if lower.contains("password_hash") && lower.contains("generate")
            || lower.contains("hash_password")
            || lower.contains("make_password")
        {
            "credential_hashing"
        } else if lower.contains("check_password") || lower.contains("verify_password") {
            "credential_verification"
        } else if lower.contains("or_404") || lower.contains("or_fail") || lower.contains("orfail")
        {
            "existence_validation"
        } else if any_word(&w, &["sanitize", "escape", "clean", "bleach"]) {
            "sanitization"
        } else if w.iter().any(|x| x.starts_with("validat")) || any_word(&w, &["is_valid", "valid"])
        {
            "validation"
        } else {
            return None;
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_extend_through_the_call() {
        let line = r#"    rows = db.execute("SELECT * FROM t WHERE id=" + q)  # x"#;
        let m = line.find("execute").unwrap();
        assert_eq!(
            derived_name(line, m, m + 8),
            r#"db.execute("SELECT * FROM t WHERE id=" + q)"#
        );
        let long = format!("f({})", "a".repeat(100));
        assert_eq!(derived_name(&long, 0, 1).chars().count(), 64);
    }

    #[test]
    fn callee_cues() {
        assert_eq!(sink_by_name("cursor.execute"), Some("sql"));
        assert_eq!(
            sink_by_name("User.query.filter_by"),
            Some("data_store_query")
        );
        assert_eq!(sink_by_name("subprocess.run"), Some("command_exec"));
        assert_eq!(sink_by_name("send_file"), Some("file_io"));
        assert_eq!(sink_by_name("thread_pool"), None);
        assert_eq!(validator_by_name("validate_order"), Some("validation"));
        assert_eq!(
            validator_by_name("get_or_404"),
            Some("existence_validation")
        );
        assert_eq!(validator_by_name("save"), None);
    }
}
