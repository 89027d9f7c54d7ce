//! Stage 3: run the analyzers of the selected technologies.
//!
//! Map: each technology's wanted files are cut into batches (at most
//! [`BATCH_FILES`] files or [`BATCH_BYTES`] bytes) and every (technology,
//! batch) job runs on the rayon pool, each call in a fresh sandboxed
//! instance. Reduce: per technology, the batches' facts go to one `link`
//! call. Results are assembled in file order, so output is deterministic.
//!
//! Failures stay local: a failing batch is retried file by file to name the
//! culprit; a plugin that keeps failing is switched off for the rest of the
//! run; everything else still reports its endpoints.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::log;
use crate::model::{
    AiContext, CodePath, ContextEntry, Details, Endpoint, Origin, Param, ParamType, ScanError, Tag,
};
use crate::plugin::runtime::{wit, Loaded, Runtime};
use crate::plugin::Catalog;
use crate::walk::SourceFile;

pub const BATCH_FILES: usize = 48;
pub const BATCH_BYTES: usize = 4 * 1024 * 1024;
/// After this many failed calls a plugin is not called again in this run.
pub const MAX_PLUGIN_FAILURES: usize = 3;

pub struct Analysis {
    pub endpoints: Vec<Endpoint>,
    pub errors: Vec<ScanError>,
    /// Number of analyzer calls made (for `--debug`).
    pub calls: usize,
}

struct Job {
    tech: usize,
    batch: usize,
    files: Vec<usize>,
}

struct JobResult {
    tech: usize,
    batch: usize,
    endpoints: Vec<wit::Endpoint>,
    facts: Vec<u8>,
    errors: Vec<ScanError>,
}

/// Run the analyzers. `wanted[t]` lists the indices into `files` that tech
/// `t` wants, in file order.
pub fn run(
    catalog: &Catalog,
    runtime: &Runtime,
    selected: &[usize],
    files: &[SourceFile],
    wanted: &[Vec<usize>],
    progress: &log::Progress,
) -> Analysis {
    let mut errors = Vec::new();
    let calls = AtomicUsize::new(0);

    // Compile (or load) each needed plugin once, in parallel.
    let mut needed: Vec<usize> = selected.iter().map(|&t| catalog.techs[t].plugin).collect();
    needed.sort_unstable();
    needed.dedup();
    let loaded: Vec<(usize, Result<Arc<Loaded>, String>)> = needed
        .par_iter()
        .map(|&p| (p, catalog.loaded(runtime, p)))
        .collect();
    let mut usable = Vec::new();
    for (p, result) in loaded {
        match result {
            Ok(l) => usable.push((p, l)),
            Err(message) => {
                let entry = &catalog.plugins[p];
                errors.push(ScanError {
                    plugin: entry.descriptor.name.clone(),
                    tech: None,
                    message: format!(
                        "plugin `{}` ({}) {message}",
                        entry.descriptor.name,
                        entry.source.origin_label()
                    ),
                });
            }
        }
    }
    let plugin_of = |t: usize| {
        let p = catalog.techs[t].plugin;
        usable.iter().find(|(q, _)| *q == p).map(|(_, l)| l.clone())
    };

    let mut jobs = Vec::new();
    for &t in selected {
        if plugin_of(t).is_none() {
            continue;
        }
        let mut batch = Vec::new();
        let mut bytes = 0;
        let mut n = 0;
        for &f in &wanted[t] {
            let size = files[f].content.len();
            if !batch.is_empty() && (batch.len() >= BATCH_FILES || bytes + size > BATCH_BYTES) {
                jobs.push(Job {
                    tech: t,
                    batch: n,
                    files: std::mem::take(&mut batch),
                });
                n += 1;
                bytes = 0;
            }
            batch.push(f);
            bytes += size;
        }
        if !batch.is_empty() {
            jobs.push(Job {
                tech: t,
                batch: n,
                files: batch,
            });
        }
    }
    log::debug(format!(
        "{} analyzer batches for {} technologies",
        jobs.len(),
        selected.len()
    ));

    progress.set_total(jobs.len() as u64);
    let failures: Vec<AtomicUsize> = (0..catalog.plugins.len())
        .map(|_| AtomicUsize::new(0))
        .collect();
    let mut results: Vec<JobResult> = jobs
        .par_iter()
        .filter_map(|job| {
            let plugin = plugin_of(job.tech)?;
            let result = run_job(catalog, runtime, &plugin, job, files, &failures, &calls);
            progress.inc(1);
            Some(result)
        })
        .collect();
    results.sort_by_key(|r| (r.tech, r.batch));

    // Reduce: link per technology, in parallel across technologies.
    let mut per_tech: Vec<(usize, Vec<wit::Endpoint>, Vec<Vec<u8>>)> = Vec::new();
    for r in results {
        errors.extend(r.errors);
        match per_tech.last_mut() {
            Some((t, eps, facts)) if *t == r.tech => {
                eps.extend(r.endpoints);
                if !r.facts.is_empty() {
                    facts.push(r.facts);
                }
            }
            _ => per_tech.push((
                r.tech,
                r.endpoints,
                if r.facts.is_empty() {
                    vec![]
                } else {
                    vec![r.facts]
                },
            )),
        }
    }
    let linked: Vec<(usize, Vec<wit::Endpoint>, Vec<ScanError>)> = per_tech
        .into_par_iter()
        .map(|(t, mut eps, facts)| {
            let mut errs = Vec::new();
            if !facts.is_empty() {
                if let Some(plugin) = plugin_of(t) {
                    let p = catalog.techs[t].plugin;
                    if failures[p].load(Ordering::Relaxed) < MAX_PLUGIN_FAILURES {
                        calls.fetch_add(1, Ordering::Relaxed);
                        match runtime.link(&plugin, &catalog.techs[t].desc.id, &facts) {
                            Ok(more) => eps.extend(more),
                            Err(message) => {
                                errs.push(error(catalog, t, format!("{message} (while linking)")))
                            }
                        }
                    }
                }
            }
            (t, eps, errs)
        })
        .collect();

    let mut endpoints = Vec::new();
    for (t, eps, errs) in linked {
        errors.extend(errs);
        let tech_id = &catalog.techs[t].desc.id;
        endpoints.extend(eps.into_iter().map(|e| convert(e, tech_id)));
    }
    Analysis {
        endpoints,
        errors,
        calls: calls.into_inner(),
    }
}

fn error(catalog: &Catalog, t: usize, message: String) -> ScanError {
    let tech = &catalog.techs[t];
    let plugin = catalog.plugin_name(tech.plugin);
    ScanError {
        plugin: plugin.to_string(),
        tech: Some(tech.desc.id.clone()),
        message: format!("plugin `{plugin}` ({}) {message}", tech.desc.id),
    }
}

fn run_job(
    catalog: &Catalog,
    runtime: &Runtime,
    plugin: &Loaded,
    job: &Job,
    files: &[SourceFile],
    failures: &[AtomicUsize],
    calls: &AtomicUsize,
) -> JobResult {
    let tech = &catalog.techs[job.tech];
    let p = tech.plugin;
    let mut result = JobResult {
        tech: job.tech,
        batch: job.batch,
        endpoints: Vec::new(),
        facts: Vec::new(),
        errors: Vec::new(),
    };
    let disabled = |result: &mut JobResult| {
        if failures[p].load(Ordering::Relaxed) >= MAX_PLUGIN_FAILURES {
            result.errors.push(error(
                catalog,
                job.tech,
                format!(
                    "was switched off after {MAX_PLUGIN_FAILURES} failures; {} more files were not analyzed",
                    job.files.len()
                ),
            ));
            true
        } else {
            false
        }
    };
    if disabled(&mut result) {
        return result;
    }
    let batch: Vec<wit::SourceFile> = job
        .files
        .iter()
        .map(|&f| wit::SourceFile {
            path: files[f].display.clone(),
            content: files[f].content.clone(),
        })
        .collect();
    calls.fetch_add(1, Ordering::Relaxed);
    match runtime.analyze(plugin, &tech.desc.id, &batch) {
        Ok(out) => {
            result.endpoints = out.endpoints;
            result.facts = out.facts;
        }
        Err(message) if batch.len() == 1 => {
            failures[p].fetch_add(1, Ordering::Relaxed);
            result.errors.push(error(
                catalog,
                job.tech,
                format!("failed on {}: {message}", batch[0].path),
            ));
        }
        Err(_) => {
            // Find the culprit(s): one file per call.
            for file in batch {
                if disabled(&mut result) {
                    break;
                }
                let path = file.path.clone();
                calls.fetch_add(1, Ordering::Relaxed);
                match runtime.analyze(plugin, &tech.desc.id, std::slice::from_ref(&file)) {
                    Ok(out) => {
                        result.endpoints.extend(out.endpoints);
                        result.facts.extend(out.facts);
                    }
                    Err(message) => {
                        failures[p].fetch_add(1, Ordering::Relaxed);
                        result.errors.push(error(
                            catalog,
                            job.tech,
                            format!("failed on {path}: {message}"),
                        ));
                    }
                }
            }
        }
    }
    result
}

/// WIT endpoint → report endpoint, stamped with the producing technology.
fn convert(e: wit::Endpoint, tech: &str) -> Endpoint {
    Endpoint {
        url: e.url,
        method: e.method,
        params: e
            .params
            .into_iter()
            .map(|p| Param {
                name: p.name,
                value: p.value,
                param_type: match p.kind {
                    wit::ParamKind::Query => ParamType::Query,
                    wit::ParamKind::Json => ParamType::Json,
                    wit::ParamKind::Form => ParamType::Form,
                    wit::ParamKind::Header => ParamType::Header,
                    wit::ParamKind::Cookie => ParamType::Cookie,
                    wit::ParamKind::Path => ParamType::Path,
                    wit::ParamKind::File => ParamType::File,
                },
                tags: Vec::new(),
            })
            .collect(),
        details: Details {
            code_paths: e
                .code_paths
                .into_iter()
                .filter(|c| !c.path.is_empty())
                .map(|c| CodePath {
                    path: c.path,
                    line: c.line.filter(|l| *l >= 1),
                })
                .collect(),
            status_code: None,
            technology: Some(tech.to_string()),
        },
        protocol: if e.protocol.is_empty() {
            "http".into()
        } else {
            e.protocol
        },
        tags: e
            .tags
            .into_iter()
            .map(|t| Tag {
                name: t.name,
                description: t.description,
                tagger: t.tagger,
            })
            .collect(),
        internal: e.internal,
        ai_context: e.ai_context.and_then(|c| {
            AiContext {
                guards: entries(c.guards),
                callees: entries(c.callees),
                sources: entries(c.sources),
                sinks: entries(c.sinks),
                validators: entries(c.validators),
                signals: entries(c.signals),
                untrusted_fields: Vec::new(),
            }
            .normalized()
        }),
        // The optimizer sets it from the technology.
        origin: Origin::default(),
    }
}

fn entries(v: Vec<wit::ContextEntry>) -> Vec<ContextEntry> {
    v.into_iter()
        .map(|e| ContextEntry {
            kind: e.kind,
            name: e.name,
            source: e.source,
            description: e.description,
            path: e.path,
            line: e.line,
            confidence: e.confidence,
            snippet: e.snippet,
        })
        .collect()
}
