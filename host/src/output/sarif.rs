//! `sarif`: a SARIF 2.1.0 log on one line.
//!
//! One run; the driver is `portolan` with the rule `endpoint-discovery`
//! (level `note`) when endpoints exist, plus one rule per passive-scan rule
//! id. One result per endpoint: message `METHOD url (Parameters: type: name,
//! …)`, one location per code path (`region` only with a line). Passive
//! results (when present) use their rule id, severity (critical/high →
//! error, medium → warning, low → note) and extract. `invocations[0]` says
//! whether every plugin ran cleanly and carries their errors as
//! notifications, so CI can tell a partial scan from a clean one.

use serde_json::{json, Map, Value};

use crate::model::Report;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

pub fn render(report: &Report) -> String {
    let mut rules: Vec<Value> = Vec::new();
    if !report.endpoints.is_empty() {
        rules.push(json!({
            "id": "endpoint-discovery",
            "name": "Endpoint Discovery",
            "shortDescription": {"text": "An HTTP endpoint found in the source code."},
            "fullDescription": {"text": "portolan found this endpoint (method, URL and parameters) by static analysis; it is part of the application's attack surface."},
            "defaultConfiguration": {"level": "note"},
        }));
    }
    let mut results: Vec<Value> = Vec::new();
    for e in &report.endpoints {
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
        r.insert("ruleId".into(), json!("endpoint-discovery"));
        r.insert("level".into(), json!("note"));
        r.insert("message".into(), json!({ "text": text }));
        let locations: Vec<Value> = e
            .details
            .code_paths
            .iter()
            .map(|c| location(&c.path, c.line))
            .collect();
        if !locations.is_empty() {
            r.insert("locations".into(), Value::Array(locations));
        }
        results.push(Value::Object(r));
    }
    for p in &report.passive_results {
        let id = p["id"].as_str().unwrap_or("passive").to_string();
        let level = match p["info"]["severity"].as_str().unwrap_or("") {
            "critical" | "high" => "error",
            "medium" => "warning",
            "low" => "note",
            _ => "none",
        };
        if !rules.iter().any(|r| r["id"] == json!(id)) {
            rules.push(json!({
                "id": id,
                "name": p["info"]["name"].as_str().unwrap_or(&id),
                "shortDescription": {"text": p["info"]["description"].as_str().unwrap_or("Passive scan finding")},
                "defaultConfiguration": {"level": level},
            }));
        }
        let mut r = Map::new();
        r.insert("ruleId".into(), json!(id));
        r.insert("level".into(), json!(level));
        r.insert(
            "message".into(),
            json!({"text": p["extract"].as_str().unwrap_or("")}),
        );
        if let Some(path) = p["file_path"].as_str() {
            let line = p["line_number"]
                .as_u64()
                .and_then(|l| u32::try_from(l).ok());
            r.insert("locations".into(), json!([location(path, line)]));
        }
        results.push(Value::Object(r));
    }
    let mut invocation = Map::new();
    invocation.insert(
        "executionSuccessful".into(),
        json!(report.errors.is_empty()),
    );
    if !report.errors.is_empty() {
        let notes: Vec<Value> = report
            .errors
            .iter()
            .map(|e| json!({"level": "error", "message": {"text": e.message}}))
            .collect();
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
            "invocations": [invocation],
            "results": results,
        }],
    });
    let mut out = log.to_string();
    out.push('\n');
    out
}

fn location(path: &str, line: Option<u32>) -> Value {
    let mut physical = Map::new();
    physical.insert("artifactLocation".into(), json!({"uri": uri(path)}));
    if let Some(l) = line.filter(|l| *l >= 1) {
        physical.insert("region".into(), json!({ "startLine": l }));
    }
    json!({ "physicalLocation": physical })
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
    use crate::output::testing::{example, report};

    #[test]
    fn result_per_endpoint() {
        let v: Value = serde_json::from_str(&render(&report(vec![example()]))).unwrap();
        assert_eq!(
            v["runs"][0]["results"][0],
            json!({"ruleId":"endpoint-discovery","level":"note","message":{"text":"POST /users/{id} (Parameters: query: page, json: name, header: X-API-Key, cookie: session, path: id)"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"app/main.py"},"region":{"startLine":12}}}]})
        );
        assert_eq!(uri("a b/ü.py"), "a%20b/%C3%BC.py");
    }
}
