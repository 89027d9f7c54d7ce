//! `--send-es URL`: index the endpoints in an Elasticsearch/OpenSearch
//! compatible service with the bulk API.
//!
//! - URL: the service's base URL (`http://localhost:9200`, or a path prefix
//!   behind a gateway); `/_bulk` is appended unless the path already ends
//!   with it. No default port is added: the URL is used as given.
//!   Credentials in the URL (`https://user:pass@host:9200`) become HTTP
//!   Basic authentication and are never logged; `--with-headers
//!   'Authorization: ApiKey …'` works too (URL credentials win).
//! - Request: `POST …/_bulk` with `Content-Type: application/x-ndjson`,
//!   at most [`BATCH`] documents per request, each an `index` action with
//!   `_index` (`--send-es-index`, default `portolan`) and a `_id` derived
//!   from the scan id, method, URL and protocol (so a retried batch does not
//!   duplicate documents; each scan adds its own documents).
//! - Document: the endpoint exactly as in the JSON report (`url`, `method`,
//!   `params`, `details`, `protocol`, `tags`, `internal`), plus
//!   `@timestamp` (scan start, RFC 3339 UTC) and `scan`: `id`, `tool`,
//!   `version`, `started_at`, `base_paths`, `base_url` (when `-u` is given).
//! - Response: a non-2xx status fails the whole batch; a 2xx body with
//!   `"errors": true` lists the rejected documents, each reported with its
//!   `error.type`/`error.reason`.

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use reqwest::Url;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::hash::hex;
use crate::model::Endpoint;

/// Documents per bulk request.
pub const BATCH: usize = 500;

pub const DEFAULT_INDEX: &str = "portolan";

/// Where the documents go.
#[derive(Clone, Debug)]
pub struct Target {
    /// `…/_bulk`, without credentials.
    pub bulk_url: Url,
    /// The URL as logs show it (password hidden).
    pub shown: String,
    pub index: String,
    /// Basic credentials from the URL.
    pub auth: Option<(String, String)>,
}

impl Target {
    pub fn parse(raw: &str, index: &str) -> Result<Target, String> {
        let mut url = Url::parse(raw).map_err(|e| format!("--send-es `{raw}`: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("--send-es `{raw}`: only http and https URLs"));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(format!(
                "--send-es `{raw}`: give the service's base URL, without a query"
            ));
        }
        check_index(index)?;
        let (shown, auth) = take_credentials(&mut url);
        let path = url.path().trim_end_matches('/').to_string();
        let last = path.rsplit('/').next().unwrap_or("");
        if matches!(last, "_doc" | "_create" | "_update") {
            return Err(format!(
                "--send-es `{shown}`: give the service's base URL (e.g. http://localhost:9200) and the index with --send-es-index; portolan uses the bulk API"
            ));
        }
        if last != "_bulk" {
            url.set_path(&format!("{path}/_bulk"));
        }
        Ok(Target {
            bulk_url: url,
            shown,
            index: index.to_string(),
            auth,
        })
    }

    /// Headers of a bulk request: content type, the `--with-headers` ones,
    /// then the User-Agent unless set.
    pub fn headers(&self, custom: &[(HeaderName, HeaderValue)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-ndjson"),
        );
        h.insert(ACCEPT, HeaderValue::from_static("application/json"));
        super::request::apply_custom(&mut h, custom);
        h
    }
}

/// Elasticsearch's index-name rules.
fn check_index(name: &str) -> Result<(), String> {
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.len() > 255
        || name.starts_with(['-', '_', '+'])
        || name
            .chars()
            .any(|c| c.is_uppercase() || c.is_whitespace() || "\\/*?\"<>|,#:".contains(c));
    if bad {
        Err(format!(
            "--send-es-index `{name}`: an index name is lower case, without spaces or any of \\ / * ? \" < > | , # :, and does not start with - _ +"
        ))
    } else {
        Ok(())
    }
}

/// What every document of a scan carries.
#[derive(Clone, Debug)]
pub struct ScanMeta {
    pub id: String,
    pub started_at: String,
    pub base_paths: Vec<String>,
    pub base_url: Option<String>,
}

impl ScanMeta {
    /// Metadata for a scan that started at `started` (a fresh id from the
    /// time and the process id).
    pub fn new(
        started: std::time::SystemTime,
        base_paths: &[String],
        base_url: Option<&str>,
    ) -> ScanMeta {
        let since = started
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let seed = format!("{}:{}", since.as_nanos(), std::process::id());
        ScanMeta {
            id: hex(&Sha256::digest(seed.as_bytes()))[..16].to_string(),
            started_at: rfc3339(since.as_secs()),
            base_paths: base_paths.to_vec(),
            base_url: base_url.map(str::to_string),
        }
    }

    pub(super) fn value(&self) -> Value {
        let mut v = json!({
            "id": self.id,
            "tool": "portolan",
            "version": env!("CARGO_PKG_VERSION"),
            "started_at": self.started_at,
            "base_paths": self.base_paths,
        });
        if let (Some(u), Some(map)) = (&self.base_url, v.as_object_mut()) {
            map.insert("base_url".into(), Value::String(u.clone()));
        }
        v
    }
}

/// One document: its id, a `METHOD URL` label for logs, and its two NDJSON
/// lines (action and source, each ending in `\n`).
#[derive(Clone, Debug)]
pub struct Doc {
    pub id: String,
    pub label: String,
    pub lines: String,
}

pub fn documents(endpoints: &[Endpoint], index: &str, meta: &ScanMeta) -> Vec<Doc> {
    let scan = meta.value();
    endpoints
        .iter()
        .map(|e| {
            let key = format!("{}\n{}\n{}\n{}", meta.id, e.method, e.url, e.protocol);
            let id = hex(&Sha256::digest(key.as_bytes()))[..32].to_string();
            let mut source = serde_json::to_value(e).unwrap_or(Value::Null);
            if let Some(map) = source.as_object_mut() {
                map.insert("@timestamp".into(), Value::String(meta.started_at.clone()));
                map.insert("scan".into(), scan.clone());
            }
            let action = json!({"index": {"_index": index, "_id": id}});
            Doc {
                label: format!("{} {}", e.method, e.url),
                lines: format!("{action}\n{source}\n"),
                id,
            }
        })
        .collect()
}

pub fn bulk_body(docs: &[Doc]) -> String {
    docs.iter().map(|d| d.lines.as_str()).collect()
}

/// How a bulk request went.
#[derive(Debug, PartialEq, Eq)]
pub enum BatchOutcome {
    /// The whole batch failed, for this reason.
    Failed(String),
    /// Per document: `None` when indexed, else why not.
    Items(Vec<Option<String>>),
}

/// Read a bulk response (`status` and `body`) for these documents.
pub fn outcomes(docs: &[Doc], status: u16, body: &str) -> BatchOutcome {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    if !(200..300).contains(&status) {
        let reason = parsed
            .as_ref()
            .and_then(|v| error_text(v.get("error")?))
            .unwrap_or_else(|| snippet(body));
        return BatchOutcome::Failed(format!("HTTP {status}: {reason}"));
    }
    let Some(v) = parsed else {
        return BatchOutcome::Failed(format!(
            "HTTP {status} with a body that is not a bulk response: {}",
            snippet(body)
        ));
    };
    let Some(items) = v.get("items").and_then(Value::as_array) else {
        return BatchOutcome::Failed(format!("HTTP {status} without `items`: {}", snippet(body)));
    };
    BatchOutcome::Items(
        docs.iter()
            .enumerate()
            .map(|(i, d)| {
                // Match by `_id`; fall back to the position.
                let item = items
                    .iter()
                    .find(|it| item_field(it, "_id").and_then(Value::as_str) == Some(d.id.as_str()))
                    .or_else(|| items.get(i))
                    .and_then(|it| it.as_object()?.values().next());
                let Some(item) = item else {
                    return Some("missing from the bulk response".to_string());
                };
                let code = item.get("status").and_then(Value::as_u64).unwrap_or(0);
                if (200..300).contains(&code) {
                    None
                } else {
                    let reason = item
                        .get("error")
                        .and_then(error_text)
                        .unwrap_or_else(|| "no reason given".into());
                    Some(format!("status {code}: {reason}"))
                }
            })
            .collect(),
    )
}

fn item_field<'a>(item: &'a Value, field: &str) -> Option<&'a Value> {
    item.as_object()?.values().next()?.get(field)
}

/// `type: reason` of an ES error object (or the string itself).
fn error_text(e: &Value) -> Option<String> {
    match e {
        Value::String(s) => Some(s.clone()),
        Value::Object(m) => {
            let t = m.get("type").and_then(Value::as_str);
            let r = m.get("reason").and_then(Value::as_str);
            match (t, r) {
                (Some(t), Some(r)) => Some(format!("{t}: {r}")),
                (Some(x), None) | (None, Some(x)) => Some(x.to_string()),
                (None, None) => None,
            }
        }
        _ => None,
    }
}

fn snippet(body: &str) -> String {
    let one_line = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        return "empty body".into();
    }
    match one_line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None => one_line,
    }
}

/// Takes the credentials out of `url`: the URL as logs show it (any
/// password as `***`) and the decoded Basic credentials when a user is
/// given. `url` is left without credentials.
pub(super) fn take_credentials(url: &mut Url) -> (String, Option<(String, String)>) {
    let auth = (!url.username().is_empty()).then(|| {
        (
            percent_decode(url.username()),
            percent_decode(url.password().unwrap_or("")),
        )
    });
    let shown = if url.password().is_some() {
        let mut s = url.clone();
        let _ = s.set_password(Some("***"));
        s.to_string()
    } else {
        url.to_string()
    };
    let _ = url.set_username("");
    let _ = url.set_password(None);
    (shown, auth)
}

pub(super) fn percent_decode(s: &str) -> String {
    let hex_val = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex_val(b[i + 1]), hex_val(b[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::example;

    #[test]
    fn target_urls() {
        let t = Target::parse("http://localhost:9200", "portolan").unwrap();
        assert_eq!(t.bulk_url.as_str(), "http://localhost:9200/_bulk");
        assert!(t.auth.is_none());
        let t = Target::parse("https://el%40stic:p%3Ass@es.example:443/gw/", "x").unwrap();
        assert_eq!(t.bulk_url.as_str(), "https://es.example/gw/_bulk");
        assert_eq!(t.auth, Some(("el@stic".into(), "p:ss".into())));
        assert!(!t.shown.contains("p%3Ass"), "{}", t.shown);
        let t = Target::parse("http://h:9200/_bulk", "x").unwrap();
        assert_eq!(t.bulk_url.as_str(), "http://h:9200/_bulk");
        assert!(Target::parse("http://h:9200/noir/_doc", "x")
            .unwrap_err()
            .contains("--send-es-index"));
        assert!(Target::parse("ftp://h", "x").is_err());
        assert!(Target::parse("http://h:9200", "Bad Index").is_err());
        assert!(Target::parse("http://h:9200", "_x").is_err());
    }

    #[test]
    fn documents_are_the_json_endpoint_plus_scan_metadata() {
        let meta = ScanMeta {
            id: "abc".into(),
            started_at: "2024-01-02T03:04:05Z".into(),
            base_paths: vec!["app".into()],
            base_url: Some("http://h".into()),
        };
        let docs = documents(&[example()], "idx", &meta);
        let mut lines = docs[0].lines.lines();
        let action: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(action["index"]["_index"], "idx");
        assert_eq!(action["index"]["_id"], docs[0].id.as_str());
        let source: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        let endpoint = serde_json::to_value(example()).unwrap();
        for (k, v) in endpoint.as_object().unwrap() {
            assert_eq!(&source[k], v, "{k}");
        }
        assert_eq!(source["@timestamp"], "2024-01-02T03:04:05Z");
        assert_eq!(source["scan"]["id"], "abc");
        assert_eq!(source["scan"]["tool"], "portolan");
        assert_eq!(source["scan"]["base_paths"], json!(["app"]));
        assert_eq!(source["scan"]["base_url"], "http://h");
        assert!(docs[0].lines.ends_with("}\n"));
        assert_eq!(docs[0].label, "POST /users/{id}");
    }

    #[test]
    fn bulk_responses() {
        let meta = ScanMeta::new(std::time::SystemTime::now(), &[], None);
        let mut a = example();
        a.url = "/a".into();
        let docs = documents(&[example(), a], "i", &meta);
        let ok = json!({"took": 1, "errors": false, "items": [
            {"index": {"_id": docs[0].id, "status": 201}},
            {"index": {"_id": docs[1].id, "status": 200}}]});
        assert_eq!(
            outcomes(&docs, 200, &ok.to_string()),
            BatchOutcome::Items(vec![None, None])
        );
        let partly = json!({"took": 1, "errors": true, "items": [
            {"index": {"_id": docs[1].id, "status": 201}},
            {"index": {"_id": docs[0].id, "status": 400,
                "error": {"type": "mapper_parsing_exception", "reason": "bad"}}}]});
        assert_eq!(
            outcomes(&docs, 200, &partly.to_string()),
            BatchOutcome::Items(vec![
                Some("status 400: mapper_parsing_exception: bad".to_string()),
                None
            ])
        );
        let denied = json!({"error": {"type": "security_exception", "reason": "missing authentication credentials"}, "status": 401});
        assert_eq!(
            outcomes(&docs[..1], 401, &denied.to_string()),
            BatchOutcome::Failed(
                "HTTP 401: security_exception: missing authentication credentials".to_string()
            )
        );
        assert_eq!(
            outcomes(&docs[..1], 502, "<html>Bad gateway</html>"),
            BatchOutcome::Failed("HTTP 502: <html>Bad gateway</html>".to_string())
        );
        assert!(matches!(
            outcomes(&docs, 200, "{}"),
            BatchOutcome::Failed(m) if m.contains("without `items`")
        ));
    }

    #[test]
    fn timestamps_and_decoding() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(percent_decode("a%40b%3"), "a@b%3");
        assert_eq!(
            ScanMeta::new(std::time::SystemTime::now(), &[], None)
                .id
                .len(),
            16
        );
    }
}
