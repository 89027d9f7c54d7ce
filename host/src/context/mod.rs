//! Stage 6 (opt-in, `--ai-context`): build each endpoint's `ai_context`.
//!
//! Language-independent: the buckets come from the endpoint (method, URL,
//! params, tags, technology), the raw facts its analyzer returned through
//! WIT (callees, framework guards), and a scan of the handler's source.
//! File contents are the ones the walk already read (no file is read
//! again); each file is split into lines once ([`Files`]).
//!
//! Creation order, kinds and confidences follow docs/ai-context.md; each
//! bucket keeps at most 16 entries in creation order, duplicates (kind,
//! name, source, path, line) dropped. Everything copied from the
//! repository (names, paths, snippets) is copied verbatim and never
//! interpreted.

mod kinds;
mod names;
mod rules;
mod scan;
mod signals;
mod snippet;

use std::collections::HashMap;

use crate::model::{AiContext, ContextEntry, Endpoint};
use crate::walk::SourceFile;

/// Which buckets `--ai-context[=LIST]` asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buckets {
    pub guards: bool,
    pub callees: bool,
    pub sources: bool,
    pub sinks: bool,
    pub validators: bool,
    pub signals: bool,
}

impl Buckets {
    pub const ALL: Buckets = Buckets {
        guards: true,
        callees: true,
        sources: true,
        sinks: true,
        validators: true,
        signals: true,
    };

    /// `all`, or a comma-separated subset of `guards, callee(s), sources,
    /// sinks, validators, signals` (case-insensitive).
    pub fn parse(list: &str) -> Result<Buckets, String> {
        let mut b = Buckets {
            guards: false,
            callees: false,
            sources: false,
            sinks: false,
            validators: false,
            signals: false,
        };
        let mut any = false;
        for item in list.split(',').map(|s| s.trim().to_ascii_lowercase()) {
            if item.is_empty() {
                continue;
            }
            any = true;
            match item.as_str() {
                "all" => return Ok(Buckets::ALL),
                "guards" | "guard" => b.guards = true,
                "callee" | "callees" => b.callees = true,
                "sources" | "source" => b.sources = true,
                "sinks" | "sink" => b.sinks = true,
                "validators" | "validator" => b.validators = true,
                "signals" | "signal" => b.signals = true,
                _ => {
                    return Err(format!(
                        "--ai-context: unknown bucket `{item}`; use all or a list of guards, callee, sources, sinks, validators, signals"
                    ))
                }
            }
        }
        if any {
            Ok(b)
        } else {
            Ok(Buckets::ALL)
        }
    }
}

/// File contents by display path, split into lines on first use.
pub struct Files<'a> {
    content: HashMap<&'a str, &'a str>,
    lines: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> Files<'a> {
    pub fn new(files: &'a [SourceFile]) -> Files<'a> {
        Files {
            content: files
                .iter()
                .map(|f| (f.display.as_str(), f.content.as_str()))
                .collect(),
            lines: HashMap::new(),
        }
    }

    /// The lines of a file the walk kept; empty when it was not kept.
    pub fn lines(&mut self, path: &str) -> &[&'a str] {
        let Some((&key, &content)) = self.content.get_key_value(path) else {
            return &[];
        };
        self.lines
            .entry(key)
            .or_insert_with(|| content.lines().collect())
    }
}

/// Replace every endpoint's analyzer-provided facts with its built
/// context (or none).
pub fn run(endpoints: &mut [Endpoint], files: &mut Files<'_>, wanted: Buckets) {
    for e in endpoints.iter_mut() {
        let raw = e.ai_context.take().unwrap_or_default();
        e.ai_context = build(e, raw, files, wanted);
    }
}

/// Entries of one bucket in creation order; duplicates dropped.
#[derive(Default)]
pub(crate) struct Bucket(Vec<ContextEntry>);

impl Bucket {
    pub fn push(&mut self, e: ContextEntry) {
        let same = |o: &ContextEntry| {
            o.kind == e.kind
                && o.name == e.name
                && o.source == e.source
                && o.path == e.path
                && o.line == e.line
        };
        if !self.0.iter().any(same) {
            self.0.push(e);
        }
    }

    pub fn has(&self, kind: &str) -> bool {
        self.0.iter().any(|e| e.kind == kind)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ContextEntry> {
        self.0.iter()
    }
}

/// The buckets while they are built (uncapped, so the heuristics see
/// everything; capped at the end).
#[derive(Default)]
pub(crate) struct Draft {
    pub guards: Bucket,
    pub callees: Bucket,
    pub sources: Bucket,
    pub sinks: Bucket,
    pub validators: Bucket,
    pub signals: Bucket,
    /// The route changes state (signal `state_change`).
    pub state_change: bool,
    /// The handler branches on the request method (no `unsafe_method`).
    pub branches_on_method: bool,
}

/// An entry with the kind's fixed description.
pub(crate) fn entry(
    kind: &str,
    name: impl Into<String>,
    source: &str,
    confidence: u8,
) -> ContextEntry {
    ContextEntry {
        kind: kind.to_string(),
        name: name.into(),
        source: Some(source.to_string()),
        description: kinds::description(kind).map(String::from),
        path: None,
        line: None,
        confidence: Some(confidence.min(100)),
        snippet: None,
    }
}

pub(crate) fn at(mut e: ContextEntry, path: &str, line: Option<u32>) -> ContextEntry {
    e.path = Some(path.to_string());
    e.line = line.filter(|l| *l >= 1);
    e
}

fn build(
    e: &Endpoint,
    raw: AiContext,
    files: &mut Files<'_>,
    wanted: Buckets,
) -> Option<AiContext> {
    let mut d = Draft::default();
    signals::route(e, &raw, files, &mut d);
    signals::params(e, &mut d);
    signals::tags(e, &mut d);
    plugin_facts(e, raw, files, &mut d);
    for c in &e.details.code_paths {
        if let Some(line) = c.line {
            scan::route_scope(e, &c.path, line, files, &mut d);
        }
    }
    signals::heuristics(e, &mut d);
    signals::combinations(e, &mut d);

    let keep = |b: Bucket, on: bool| if on { b.0 } else { Vec::new() };
    AiContext {
        guards: keep(d.guards, wanted.guards),
        callees: keep(d.callees, wanted.callees),
        sources: keep(d.sources, wanted.sources),
        sinks: keep(d.sinks, wanted.sinks),
        validators: keep(d.validators, wanted.validators),
        signals: keep(d.signals, wanted.signals),
        untrusted_fields: Vec::new(),
    }
    .normalized()
}

/// What the analyzer returned: callees (with the sink and validator their
/// names suggest) and framework guards; any other entries it gave are
/// kept in their buckets. Missing descriptions of known kinds are filled.
fn plugin_facts(e: &Endpoint, raw: AiContext, files: &mut Files<'_>, d: &mut Draft) {
    let fill = |mut x: ContextEntry, source: &str, confidence: u8| {
        if x.description.is_none() {
            x.description = kinds::description(&x.kind).map(String::from);
        }
        x.source.get_or_insert_with(|| source.to_string());
        x.confidence.get_or_insert(confidence);
        x.confidence = x.confidence.map(|c| c.min(100));
        x
    };
    for g in raw.guards {
        d.guards.push(fill(g, "framework", 86));
    }
    for s in raw.sources {
        d.sources.push(fill(s, "framework", 80));
    }
    for s in raw.sinks {
        d.sinks.push(fill(s, "framework", 70));
    }
    for v in raw.validators {
        d.validators.push(fill(v, "framework", 70));
    }
    for s in raw.signals {
        d.signals.push(fill(s, "framework", 70));
    }
    let _ = e;
    for c in raw.callees {
        let mut c = fill(
            ContextEntry {
                kind: "callee".into(),
                ..c
            },
            "callee",
            92,
        );
        if let (Some(path), Some(line)) = (c.path.clone(), c.line) {
            if c.snippet.is_none() {
                c.snippet = snippet::window(files.lines(&path), line, 1);
            }
        }
        let (name, path, line) = (c.name.clone(), c.path.clone(), c.line);
        d.callees.push(c);
        let place = |x: ContextEntry| match &path {
            Some(p) => at(x, p, line),
            None => x,
        };
        if let Some(kind) = scan::sink_by_name(&name) {
            d.sinks.push(place(entry(
                kind,
                name.clone(),
                "callee",
                kinds::sink_confidence(kind),
            )));
        }
        if let Some(kind) = scan::validator_by_name(&name) {
            d.validators.push(place(entry(
                kind,
                name.clone(),
                "callee",
                kinds::validator_confidence(kind),
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CodePath, Param, ParamType};

    const APP: &str = r#"from flask import Flask, redirect, request
import requests

@app.route("/go/<int:item_id>", methods=["POST"])
@csrf.exempt
def go(item_id):
    nxt = request.args["next"]
    token = request.headers.get("X-Auth-Token")
    requests.get(nxt)
    return redirect(nxt)

@app.get("/cleanup")
def cleanup():
    return "ok"
"#;

    fn files() -> Vec<SourceFile> {
        vec![SourceFile {
            base: 0,
            relative: "app.py".into(),
            display: "app/app.py".into(),
            content: APP.into(),
            wanted_by: vec![],
        }]
    }

    fn endpoint(method: &str, url: &str, line: u32, params: &[(&str, ParamType)]) -> Endpoint {
        let mut e = Endpoint::new(method, url);
        e.details.code_paths.push(CodePath {
            path: "app/app.py".into(),
            line: Some(line),
        });
        e.details.technology = Some("python_flask".into());
        for (n, t) in params {
            e.params.push(Param::new(*n, *t));
        }
        e
    }

    fn kinds(b: &[ContextEntry]) -> Vec<&str> {
        b.iter().map(|e| e.kind.as_str()).collect()
    }

    #[test]
    fn combinations_and_roll_up() {
        let files = files();
        let mut e = endpoint(
            "POST",
            "/go/<int:item_id>",
            4,
            &[("next", ParamType::Query), ("item_id", ParamType::Path)],
        );
        let ctx = build(
            &e,
            AiContext::default(),
            &mut Files::new(&files),
            Buckets::ALL,
        )
        .unwrap();
        assert_eq!(kinds(&ctx.sinks), vec!["outbound_http", "redirect"]);
        assert_eq!(
            kinds(&ctx.signals),
            vec![
                "route_definition",
                "technology",
                "state_change",
                "redirect_input",
                "path_param",
                "identifier_input",
                "csrf_exempt",
                "credential_input",
                "rate_limit_absence",
                "idor_review",
                "open_redirect",
                "ssrf",
                "priority_review",
            ]
        );
        let header = &ctx.sources[2];
        assert_eq!(
            (header.name.as_str(), header.line, header.confidence),
            ("header.X-Auth-Token", Some(8), Some(82))
        );
        let review = ctx.signals.last().unwrap();
        assert_eq!(
            (review.name.as_str(), review.confidence),
            ("high", Some(90))
        );
        assert_eq!(ctx.untrusted_fields, vec!["name", "path", "snippet"]);

        // A safe method whose handler calls a mutating function.
        e = endpoint("GET", "/cleanup", 12, &[]);
        let raw = AiContext {
            callees: vec![ContextEntry {
                kind: "callee".into(),
                name: "store.delete_all".into(),
                source: None,
                description: None,
                path: Some("app/app.py".into()),
                line: Some(14),
                confidence: None,
                snippet: None,
            }],
            ..AiContext::default()
        };
        let ctx = build(&e, raw, &mut Files::new(&files), Buckets::ALL).unwrap();
        let unsafe_method = ctx
            .signals
            .iter()
            .find(|s| s.kind == "unsafe_method")
            .unwrap();
        assert_eq!(unsafe_method.name, "GET → store.delete_all");
        assert_eq!(
            ctx.callees[0].snippet.as_deref(),
            Some("13: def cleanup(): | 14: return \"ok\"")
        );
    }

    #[test]
    fn buckets_are_capped_and_subsets_can_be_empty() {
        let files = files();
        let names: Vec<String> = (0..20).map(|i| format!("password{i}_token")).collect();
        let params: Vec<(&str, ParamType)> = names
            .iter()
            .map(|n| (n.as_str(), ParamType::Json))
            .collect();
        let e = endpoint("GET", "/cleanup", 12, &params);
        let ctx = build(
            &e,
            AiContext::default(),
            &mut Files::new(&files),
            Buckets::ALL,
        )
        .unwrap();
        assert_eq!(ctx.sources.len(), 16);
        assert_eq!(ctx.signals.len(), 16);
        assert_eq!(ctx.sources[15].name, "json.password15_token");
        let guards = Buckets::parse("guards").unwrap();
        assert_eq!(
            build(&e, AiContext::default(), &mut Files::new(&files), guards),
            None
        );
    }

    #[test]
    fn bucket_lists() {
        assert_eq!(Buckets::parse("all"), Ok(Buckets::ALL));
        assert_eq!(Buckets::parse(""), Ok(Buckets::ALL));
        let b = Buckets::parse("Sinks, callee").unwrap();
        assert!(b.sinks && b.callees && !b.guards && !b.signals);
        assert!(Buckets::parse("sinks,nope").is_err());
    }
}
