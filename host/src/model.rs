//! The report's data model. Field order is the JSON key order (Noir v0.28:
//! `url, method, params, details, protocol, tags, internal`; `ai_context`
//! last, only when present). Absent optionals are omitted, never `null`.

use serde::{Deserialize, Serialize};

/// Where a parameter travels in the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    Query,
    Json,
    Form,
    Header,
    Cookie,
    Path,
    File,
    /// A command-line option of a `cli` endpoint (`--output`).
    Flag,
    /// A positional command-line argument of a `cli` endpoint.
    Argument,
    /// An environment variable a `cli` endpoint's parser reads.
    Env,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub name: String,
    pub description: String,
    pub tagger: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub value: String,
    pub param_type: ParamType,
    pub tags: Vec<Tag>,
}

impl Param {
    pub fn new(name: impl Into<String>, param_type: ParamType) -> Self {
        Param {
            name: name.into(),
            value: String::new(),
            param_type,
            tags: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodePath {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    pub code_paths: Vec<CodePath>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub status_code: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub technology: Option<String>,
    /// Every technology that reported the endpoint, `technology` first, when
    /// more than one did (the optimizer's merge); absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub technologies: Vec<String>,
}

/// One `ai_context` entry (seed §2.2). Key order is the seed's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextEntry {
    pub kind: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub confidence: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub snippet: Option<String>,
}

/// `ai_context`: empty buckets omitted; `untrusted_fields` present whenever
/// a bucket is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiContext {
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub guards: Vec<ContextEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub callees: Vec<ContextEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub sources: Vec<ContextEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub sinks: Vec<ContextEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub validators: Vec<ContextEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub signals: Vec<ContextEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub untrusted_fields: Vec<String>,
}

impl AiContext {
    /// At most this many entries per bucket (seed §2.2).
    pub const BUCKET_CAP: usize = 16;

    pub fn is_empty(&self) -> bool {
        self.buckets().iter().all(|b| b.is_empty())
    }

    fn buckets(&self) -> [&Vec<ContextEntry>; 6] {
        [
            &self.guards,
            &self.callees,
            &self.sources,
            &self.sinks,
            &self.validators,
            &self.signals,
        ]
    }

    /// Append another context's entries bucket by bucket (duplicate
    /// endpoints being merged), skipping entries already present.
    pub fn absorb(&mut self, other: AiContext) {
        for (mine, theirs) in [
            (&mut self.guards, other.guards),
            (&mut self.callees, other.callees),
            (&mut self.sources, other.sources),
            (&mut self.sinks, other.sinks),
            (&mut self.validators, other.validators),
            (&mut self.signals, other.signals),
        ] {
            for e in theirs {
                if !mine.contains(&e) {
                    mine.push(e);
                }
            }
        }
    }

    /// Enforce the seed's invariants: bucket caps, clamped fields, and the
    /// `untrusted_fields` list. Returns `None` when every bucket is empty.
    pub fn normalized(mut self) -> Option<AiContext> {
        for bucket in [
            &mut self.guards,
            &mut self.callees,
            &mut self.sources,
            &mut self.sinks,
            &mut self.validators,
            &mut self.signals,
        ] {
            bucket.truncate(Self::BUCKET_CAP);
            for e in bucket.iter_mut() {
                e.confidence = e.confidence.map(|c| c.min(100));
                e.line = e.line.filter(|l| *l >= 1);
            }
        }
        if self.is_empty() {
            return None;
        }
        // `name` is always there; `path` and `snippet` only when some entry
        // carries one.
        let (has_path, has_snippet) = {
            let all = self.buckets().into_iter().flatten();
            let path = all.clone().any(|e| e.path.is_some());
            (path, all.into_iter().any(|e| e.snippet.is_some()))
        };
        self.untrusted_fields = std::iter::once("name")
            .chain(has_path.then_some("path"))
            .chain(has_snippet.then_some("snippet"))
            .map(String::from)
            .collect();
        Some(self)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub url: String,
    pub method: String,
    pub params: Vec<Param>,
    pub details: Details,
    pub protocol: String,
    pub tags: Vec<Tag>,
    pub internal: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ai_context: Option<AiContext>,
    /// What described this endpoint; never serialized. Set by the
    /// optimizer and unioned when endpoints merge; the `shadow` and
    /// `spec_only` taggers read it.
    #[serde(skip)]
    pub origin: Origin,
}

/// Whether an endpoint was seen in code, in an API document, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Found by a code analyzer (or the AI mode).
    pub code: bool,
    /// Found in a specification document (OpenAPI, Postman, a HAR capture…).
    pub spec: bool,
}

impl Endpoint {
    #[cfg(test)]
    pub fn new(method: &str, url: &str) -> Self {
        Endpoint {
            url: url.to_string(),
            method: method.to_string(),
            params: Vec::new(),
            details: Details::default(),
            protocol: "http".into(),
            tags: Vec::new(),
            internal: false,
            ai_context: None,
            origin: Origin::default(),
        }
    }

    pub fn is_websocket(&self) -> bool {
        self.protocol == "ws"
    }

    /// Served over plain HTTP(S) (`http`, `https`, or no protocol), so
    /// commands and API documents can describe it. Mobile deep links
    /// (`myapp://`, `intent`, `content`) and other protocols cannot.
    pub fn is_http(&self) -> bool {
        self.protocol.is_empty()
            || self.protocol.eq_ignore_ascii_case("http")
            || self.protocol.eq_ignore_ascii_case("https")
    }
}

/// A failure that did not stop the scan (a plugin that trapped, a file that
/// could not be read by a plugin, …). Listed in the JSON report under
/// `errors` when there is any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanError {
    pub plugin: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tech: Option<String>,
    pub message: String,
}

/// A file the scan could not read as it is (`--strict` lists them under
/// `skipped`): `reason` is `size`, `binary`, `encoding` (read with invalid
/// UTF-8 replaced), `permissions` or `unreadable`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
    pub detail: String,
}

/// How serious a passive-scan finding is (its rule's `info.severity`);
/// ordered, `Low` < `Critical`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    /// `critical`, `high`, `medium` or `low`, in any case.
    pub fn parse(s: &str) -> Option<Severity> {
        match s.trim().to_ascii_lowercase().as_str() {
            "critical" => Some(Severity::Critical),
            "high" => Some(Severity::High),
            "medium" => Some(Severity::Medium),
            "low" => Some(Severity::Low),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// A passive-scan rule's description, copied into each of its findings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassiveInfo {
    pub name: String,
    pub author: Vec<String>,
    pub severity: Severity,
    pub description: String,
    pub reference: Vec<String>,
}

/// One line a passive-scan rule matched (`-P`; docs/passive.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassiveFinding {
    pub id: String,
    pub info: PassiveInfo,
    pub category: String,
    pub techs: Vec<String>,
    pub file_path: String,
    pub line_number: usize,
    /// The matched line (trimmed; at most [`crate::passive::MAX_EXTRACT`]
    /// characters, then `…`).
    pub extract: String,
}

/// The whole report.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Report {
    pub endpoints: Vec<Endpoint>,
    pub passive_results: Vec<PassiveFinding>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub errors: Vec<ScanError>,
    /// With `--strict` only: files skipped or read lossily.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub skipped: Vec<SkippedFile>,
}
