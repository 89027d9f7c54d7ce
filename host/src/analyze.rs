//! Stage 3: run the analyzers of the selected technologies.
//!
//! Map: each technology's wanted files are cut into batches (at most
//! [`BATCH_FILES`] files or [`BATCH_BYTES`] bytes) and every (technology,
//! batch) job runs on the rayon pool, each call in a fresh sandboxed
//! instance. Reduce: per technology, the batches' facts go to one `link`
//! call. Results are assembled in file order, so output is deterministic.
//!
//! Failures stay local: a failing batch is retried file by file, so the
//! files that fail are named in the report's `errors` and every endpoint
//! the plugin finds in the other files is kept (a plugin is never switched
//! off). A batch that failed by timing out is retried with a shorter limit
//! per file ([`retry_timeout`]): a file that hangs costs the full limit
//! once, not twice, and a lone file that timed out is not retried.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
/// A file retried after its batch timed out gets at least this share of
/// the time limit (and at least [`MIN_RETRY_SECS`])...
pub const RETRY_SHARE: f64 = 0.1;
/// ...and at least this many seconds.
pub const MIN_RETRY_SECS: f64 = 1.0;

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
    let mut results: Vec<JobResult> = jobs
        .par_iter()
        .filter_map(|job| {
            let plugin = plugin_of(job.tech)?;
            let result = run_job(catalog, runtime, &plugin, job, files, &calls);
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
                    calls.fetch_add(1, Ordering::Relaxed);
                    match runtime.link(&plugin, &catalog.techs[t].desc.id, &facts) {
                        Ok(more) => eps.extend(more),
                        Err(message) => {
                            errs.push(error(catalog, t, format!("{message} (while linking)")))
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
    calls: &AtomicUsize,
) -> JobResult {
    let tech = &catalog.techs[job.tech];
    let mut result = JobResult {
        tech: job.tech,
        batch: job.batch,
        endpoints: Vec::new(),
        facts: Vec::new(),
        errors: Vec::new(),
    };
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
            result.errors.push(error(
                catalog,
                job.tech,
                format!("failed on {}: {message}", batch[0].path),
            ));
        }
        Err(message) => {
            // Find the culprit(s): one file per call; the others' results
            // are kept.
            let timed_out = crate::plugin::runtime::is_timeout(&message);
            let total: usize = batch.iter().map(|f| f.content.len()).sum();
            for file in batch {
                let path = file.path.clone();
                let limit = if timed_out {
                    retry_timeout(runtime.timeout(), file.content.len(), total)
                } else {
                    runtime.timeout()
                };
                calls.fetch_add(1, Ordering::Relaxed);
                match runtime.analyze_within(
                    plugin,
                    &tech.desc.id,
                    std::slice::from_ref(&file),
                    limit,
                ) {
                    Ok(out) => {
                        result.endpoints.extend(out.endpoints);
                        result.facts.extend(out.facts);
                    }
                    Err(message) => {
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

/// The time limit for one file retried after its batch timed out: twice
/// its share (by size) of the full limit, at least [`RETRY_SHARE`] of it
/// and [`MIN_RETRY_SECS`], never more than the full limit. The file that
/// made the batch hang is stopped sooner the second time; a file that
/// really needs long (a large one) still gets most of the limit.
pub fn retry_timeout(full: Duration, size: usize, batch_bytes: usize) -> Duration {
    let full_secs = full.as_secs_f64();
    let share = if batch_bytes == 0 {
        0.0
    } else {
        2.0 * size as f64 / batch_bytes as f64
    };
    let secs = (full_secs * share.max(RETRY_SHARE)).max(MIN_RETRY_SECS);
    Duration::from_secs_f64(secs.min(full_secs))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_after_a_timeout_are_shorter() {
        let full = Duration::from_secs(60);
        // A small file among many: a tenth of the limit.
        assert_eq!(retry_timeout(full, 100, 100_000), Duration::from_secs(6));
        // Most of the batch: up to the full limit, never more.
        assert_eq!(retry_timeout(full, 90, 100), full);
        // Never under a second, never over the limit.
        let tiny = Duration::from_millis(500);
        assert_eq!(retry_timeout(tiny, 1, 100), tiny);
        assert_eq!(
            retry_timeout(Duration::from_secs(5), 1, 1000),
            Duration::from_secs(1)
        );
    }
}
