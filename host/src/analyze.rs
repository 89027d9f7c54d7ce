//! Stage 3: run the analyzers of the selected technologies.
//!
//! Map: per plugin, the files any of its selected technologies wants are
//! cut into batches (at most [`BATCH_FILES`] files, and at most
//! [`batch_bytes`] bytes: a share of the scan's bytes, so every thread gets
//! several batches) and every (plugin, batch) job runs on the rayon pool,
//! each call in a sandboxed instance (a warm one of the same plugin when one
//! is idle, see [`crate::plugin::runtime`]). A batch wanted by one
//! technology is one `analyze` call; by several, one `analyze-many` call
//! with each technology's share of the batch, so the plugin gets each file
//! once and may parse it once for all of them. Jobs are taken from one
//! queue, one plugin's after another and largest first within each (the
//! plugin with the largest job first), so a large file starts early, no
//! thread idles at the end while another works through it, and a plugin's
//! calls follow each other on its warm instances. Reduce: per technology, the
//! batches' facts go to one `link` call. Results are assembled in file
//! order, so output is deterministic (and the same as with one `analyze`
//! call per technology and batch).
//!
//! Failures stay local: a failing batch is retried file by file, so the
//! files that fail are named in the report's `errors` and every endpoint
//! the plugin finds in the other files is kept (a plugin is never switched
//! off; a failed `analyze-many` call is retried per file and technology
//! with `analyze`). A batch that failed by timing out is retried with a shorter limit
//! per file ([`retry_timeout`]): a file that hangs costs the full limit
//! once, not twice, and a lone file that timed out is not retried.
//!
//! Incremental rescans: batches are cut at stable places (a file whose path
//! hash is an anchor ends its batch, [`is_anchor`]), so a changed file
//! changes only its own batch (and, when it moves a size cut, the batches
//! up to the next anchor). With the results cache ([`cache`]) each batch's
//! output is looked up before anything runs; only the misses are analyzed,
//! and `link` runs on the cached and fresh facts alike.

pub mod cache;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::log;
use crate::model::{
    AiContext, CodePath, ContextEntry, Details, Endpoint, Origin, Param, ParamType, ScanError, Tag,
};
use crate::plugin::runtime::{wit, FileRead, Loaded, Runtime};
use crate::plugin::Catalog;
use crate::walk::SourceFile;

use cache::{Key, KeyBuilder, OutputRef, ResultCache};

pub const BATCH_FILES: usize = 48;
/// The largest batch, in bytes (a single larger file is a batch of its own).
pub const BATCH_BYTES: usize = 4 * 1024 * 1024;
/// The smallest byte cap a batch gets (below it, instance start-up costs
/// more than the balance gains).
pub const MIN_BATCH_BYTES: usize = 256 * 1024;
/// Batches per thread the byte cap aims at.
pub const BATCHES_PER_THREAD: usize = 8;
/// About one file in this many is an anchor: it ends its batch, whatever
/// the batch's size ([`is_anchor`]).
pub const ANCHOR_EVERY: u64 = 128;
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
    /// Where the time went (for `--stats` and `--debug`).
    pub stats: Stats,
}

/// Timings of the analysis, per technology and per batch.
#[derive(Default)]
pub struct Stats {
    /// Wall time of the map (analyze) and reduce (link) phases.
    pub analyze_secs: f64,
    pub link_secs: f64,
    /// Per technology id (per group of technologies, `a+b`, for a plugin
    /// that analyzed several at once): seconds its calls took (summed over
    /// threads), files and bytes analyzed, batches.
    pub techs: Vec<TechStats>,
    /// The slowest batches, slowest first (at most [`SLOWEST`]).
    pub slowest: Vec<BatchStats>,
    /// With the results cache: batches reused, analyzed, and stored.
    pub cache: Option<(usize, usize, usize)>,
}

pub struct TechStats {
    pub tech: String,
    pub secs: f64,
    pub files: usize,
    pub bytes: usize,
    pub batches: usize,
}

pub struct BatchStats {
    pub tech: String,
    pub secs: f64,
    pub files: usize,
    pub bytes: usize,
    /// The batch's largest file (the whole batch when it has one file).
    pub largest: String,
}

/// How many of the slowest batches [`Stats`] keeps.
pub const SLOWEST: usize = 10;

/// One call: a batch of one plugin's files and, per technology of the
/// plugin that wants some of them, the positions in `files` it wants.
struct Job {
    plugin: usize,
    batch: usize,
    files: Vec<usize>,
    techs: Vec<(usize, Vec<u32>)>,
    bytes: usize,
}

/// What one technology got from one job.
struct TechOutput {
    tech: usize,
    endpoints: Vec<wit::Endpoint>,
    facts: Vec<u8>,
    errors: Vec<ScanError>,
}

struct JobResult {
    plugin: usize,
    batch: usize,
    outputs: Vec<TechOutput>,
    secs: f64,
    /// When the batch's one call succeeded: the files it read (the
    /// result may be cached).
    cacheable: Option<Vec<FileRead>>,
}

/// The byte cap of a batch for a scan of `total` bytes on `threads`
/// threads: about [`BATCHES_PER_THREAD`] batches per thread, rounded down
/// to a power of two (so that a small change of the tree does not move
/// every cut), between [`MIN_BATCH_BYTES`] and [`BATCH_BYTES`].
pub fn batch_bytes(total: usize, threads: usize) -> usize {
    let share = total / (threads.max(1) * BATCHES_PER_THREAD);
    let rounded = if share == 0 { 0 } else { 1 << share.ilog2() };
    rounded.clamp(MIN_BATCH_BYTES, BATCH_BYTES)
}

/// Does the file at `path` end its batch? About one path in
/// [`ANCHOR_EVERY`] does (FNV-1a of the display path): batches then
/// depend on the files around a change only up to the next anchor, so
/// an unchanged region of the tree is cut the same way every time.
pub fn is_anchor(path: &str) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // The high bits mix best.
    (h >> 32).is_multiple_of(ANCHOR_EVERY)
}

/// Cut each plugin's files (those any of its technologies in `groups`
/// wants, in file order) into batches of at most [`BATCH_FILES`] files
/// and `cap` bytes; a file larger than `cap` is a batch of its own, and
/// an `anchor` file ends its batch. Each batch lists the technologies
/// wanting some of its files, in `groups` order, with the positions they
/// want. `wanted[t]` is in file order.
fn batches(
    groups: &[(usize, Vec<usize>)],
    wanted: &[Vec<usize>],
    size: impl Fn(usize) -> usize,
    anchor: impl Fn(usize) -> bool,
    cap: usize,
) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (plugin, techs) in groups {
        let mut union: Vec<usize> = techs
            .iter()
            .flat_map(|&t| wanted[t].iter().copied())
            .collect();
        union.sort_unstable();
        union.dedup();
        let cut = |files: Vec<usize>, bytes: usize, n: usize, jobs: &mut Vec<Job>| {
            let mut per_tech = Vec::new();
            for &t in techs {
                let positions: Vec<u32> = (0..files.len())
                    .filter(|&pos| wanted[t].binary_search(&files[pos]).is_ok())
                    .map(|pos| pos as u32)
                    .collect();
                if !positions.is_empty() {
                    per_tech.push((t, positions));
                }
            }
            jobs.push(Job {
                plugin: *plugin,
                batch: n,
                files,
                techs: per_tech,
                bytes,
            });
        };
        let mut batch = Vec::new();
        let mut bytes = 0;
        let mut n = 0;
        for f in union {
            let size = size(f);
            if !batch.is_empty() && (batch.len() >= BATCH_FILES || bytes + size > cap) {
                cut(std::mem::take(&mut batch), bytes, n, &mut jobs);
                n += 1;
                bytes = 0;
            }
            batch.push(f);
            bytes += size;
            if anchor(f) {
                cut(std::mem::take(&mut batch), bytes, n, &mut jobs);
                n += 1;
                bytes = 0;
            }
        }
        if !batch.is_empty() {
            cut(batch, bytes, n, &mut jobs);
        }
    }
    jobs
}

/// Run `work` on every job (with its number) on the rayon pool, each
/// thread taking the next job from one queue; results in job order. The
/// queue holds one plugin's jobs after another, largest first within a
/// plugin, and the plugin with the largest job first: consecutive calls of
/// one plugin reuse its warm instances, and the last jobs are still the
/// small ones of the plugin whose largest job is the smallest.
fn largest_first<R: Send>(
    jobs: &[(usize, &Job)],
    work: impl Fn(usize, &Job) -> R + Sync,
) -> Vec<R> {
    let mut largest: Vec<(usize, usize)> = Vec::new();
    for (_, job) in jobs {
        match largest.iter_mut().find(|(p, _)| *p == job.plugin) {
            Some((_, bytes)) => *bytes = (*bytes).max(job.bytes),
            None => largest.push((job.plugin, job.bytes)),
        }
    }
    let plugin_largest = |plugin: usize| {
        largest
            .iter()
            .find(|(p, _)| *p == plugin)
            .map_or(0, |&(_, bytes)| bytes)
    };
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| {
        let job = jobs[i].1;
        (
            std::cmp::Reverse(plugin_largest(job.plugin)),
            job.plugin,
            std::cmp::Reverse(job.bytes),
        )
    });
    let next = AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> =
        jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = rayon::current_num_threads().clamp(1, jobs.len().max(1));
    (0..workers).into_par_iter().for_each(|_| loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(&i) = order.get(k) else { break };
        let r = work(jobs[i].0, jobs[i].1);
        if let Ok(mut slot) = slots[i].lock() {
            *slot = Some(r);
        }
    });
    slots
        .into_iter()
        .filter_map(|s| s.into_inner().ok().flatten())
        .collect()
}

/// The files' contents during the analysis. Shared: each batch gets a
/// copy and the files keep theirs (`--ai-context` and the AI mode read them
/// again). Released: the contents are moved out of the files, and each is
/// moved into the last batch that needs it (copied into the others), so it
/// is freed as soon as that batch is done, not at the end of the scan.
struct Contents<'a> {
    files: &'a [SourceFile],
    /// Per file: batches still to start, and the content.
    released: Option<Vec<std::sync::Mutex<(usize, String)>>>,
}

impl Contents<'_> {
    fn take(&self, f: usize) -> String {
        let Some(released) = &self.released else {
            return self.files[f].content.clone();
        };
        match released[f].lock() {
            Ok(mut slot) => {
                slot.0 = slot.0.saturating_sub(1);
                if slot.0 == 0 {
                    std::mem::take(&mut slot.1)
                } else {
                    slot.1.clone()
                }
            }
            Err(_) => String::new(),
        }
    }
}

/// Run the analyzers. `wanted[t]` lists the indices into `files` that tech
/// `t` wants, in file order. With `release`, the files' contents are freed
/// as the analysis goes ([`Contents`]) and are empty afterwards. With a
/// results `cache`, batches found there are not run, and the others are
/// stored.
#[allow(clippy::too_many_arguments)]
pub fn run(
    catalog: &Catalog,
    runtime: &Runtime,
    selected: &[usize],
    files: &mut [SourceFile],
    wanted: &[Vec<usize>],
    progress: &log::Progress,
    release: bool,
    cache: Option<&ResultCache>,
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
    let by_plugin = |p: usize| usable.iter().find(|(q, _)| *q == p).map(|(_, l)| l.clone());
    let plugin_of = |t: usize| by_plugin(catalog.techs[t].plugin);

    let runnable: Vec<usize> = selected
        .iter()
        .copied()
        .filter(|&t| plugin_of(t).is_some())
        .collect();
    // Per plugin (in order of first selected technology): its runnable
    // technologies, in selection order.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for &t in &runnable {
        let p = catalog.techs[t].plugin;
        match groups.iter_mut().find(|(q, _)| *q == p) {
            Some((_, techs)) => techs.push(t),
            None => groups.push((p, vec![t])),
        }
    }
    let labels: Vec<(usize, String)> = groups
        .iter()
        .map(|(p, techs)| {
            let ids: Vec<&str> = techs
                .iter()
                .map(|&t| catalog.techs[t].desc.id.as_str())
                .collect();
            (*p, ids.join("+"))
        })
        .collect();
    let sizes: Vec<usize> = files.iter().map(|f| f.content.len()).collect();
    let cap_total: usize = {
        let mut seen = vec![false; files.len()];
        let mut total = 0;
        for (_, techs) in &groups {
            seen.iter_mut().for_each(|s| *s = false);
            for &t in techs {
                for &f in &wanted[t] {
                    if !std::mem::replace(&mut seen[f], true) {
                        total += sizes[f];
                    }
                }
            }
        }
        total
    };
    let cap = batch_bytes(cap_total, rayon::current_num_threads());
    let anchors: Vec<bool> = files.iter().map(|f| is_anchor(&f.display)).collect();
    let jobs = batches(&groups, wanted, |f| sizes[f], |f| anchors[f], cap);
    // With the cache: each job's key, and what the cache has for it.
    let keys: Vec<Key> = match cache {
        Some(_) => job_keys(catalog, runtime, &jobs, files),
        None => Vec::new(),
    };
    let mut done: Vec<Option<JobResult>> = match cache {
        Some(cache) => jobs
            .par_iter()
            .zip(&keys)
            .map(|(job, key)| cached(runtime, cache, job, key))
            .collect(),
        None => jobs.iter().map(|_| None).collect(),
    };
    let todo: Vec<(usize, &Job)> = jobs
        .iter()
        .enumerate()
        .zip(&done)
        .filter(|(_, d)| d.is_none())
        .map(|(j, _)| j)
        .collect();
    let hits = jobs.len() - todo.len();
    let released = release.then(|| {
        let mut uses = vec![0usize; files.len()];
        for (_, job) in &todo {
            for &f in &job.files {
                uses[f] += 1;
            }
        }
        files
            .iter_mut()
            .zip(uses)
            .map(|(file, n)| {
                let content = std::mem::take(&mut file.content);
                // A file no runnable analyzer wants is freed now.
                std::sync::Mutex::new((n, if n == 0 { String::new() } else { content }))
            })
            .collect()
    });
    let files: &[SourceFile] = files;
    let contents = Contents { files, released };
    log::debug(format!(
        "{} analyzer batches for {} technologies of {} plugins ({cap_total} bytes, at most {cap} bytes a batch, largest first)",
        jobs.len(),
        selected.len(),
        groups.len()
    ));

    progress.set_total(todo.len() as u64);
    let map_started = Instant::now();
    let fresh: Vec<Option<JobResult>> = largest_first(&todo, |i, job| {
        let plugin = by_plugin(job.plugin)?;
        let started = Instant::now();
        let mut result = run_job(catalog, runtime, &plugin, job, files, &contents, &calls);
        result.secs = started.elapsed().as_secs_f64();
        if let (Some(cache), Some(reads)) = (cache, &result.cacheable) {
            let outputs: Vec<OutputRef> = result
                .outputs
                .iter()
                .map(|o| OutputRef {
                    endpoints: &o.endpoints,
                    facts: &o.facts,
                })
                .collect();
            cache.put(&keys[i], &outputs, reads);
        }
        progress.inc(1);
        Some(result)
    });
    drop(contents);
    for (&(i, _), result) in todo.iter().zip(fresh) {
        done[i] = result;
    }
    let mut stats = Stats {
        analyze_secs: map_started.elapsed().as_secs_f64(),
        ..Stats::default()
    };
    if let Some(cache) = cache {
        let removed = if cache.written() > 0 {
            cache.bound()
        } else {
            0
        };
        log::debug(format!(
            "results cache {}: {hits} batches reused, {} analyzed, {} stored{}",
            cache.dir().display(),
            jobs.len() - hits,
            cache.written(),
            if removed > 0 {
                format!(", {removed} old entries removed (size cap)")
            } else {
                String::new()
            }
        ));
        stats.cache = Some((hits, jobs.len() - hits, cache.written()));
    }
    stats.collect(&labels, &jobs, &done, files, &sizes);
    let mut results: Vec<JobResult> = done.into_iter().flatten().collect();
    results.sort_by_key(|r| (r.plugin, r.batch));

    // Reduce: link per technology (in technology order, each technology's
    // batches in file order), in parallel across technologies.
    let mut outputs: Vec<(usize, usize, TechOutput)> = results
        .into_iter()
        .flat_map(|r| r.outputs.into_iter().map(move |o| (o.tech, r.batch, o)))
        .collect();
    outputs.sort_by_key(|(t, batch, _)| (*t, *batch));
    let mut per_tech: Vec<(usize, Vec<wit::Endpoint>, Vec<Vec<u8>>)> = Vec::new();
    for (_, _, r) in outputs {
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
    let link_started = Instant::now();
    let linked: Vec<(usize, Vec<wit::Endpoint>, Vec<ScanError>, f64)> = per_tech
        .into_par_iter()
        .map(|(t, mut eps, facts)| {
            let mut errs = Vec::new();
            let started = Instant::now();
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
            (t, eps, errs, started.elapsed().as_secs_f64())
        })
        .collect();
    stats.link_secs = link_started.elapsed().as_secs_f64();

    let mut endpoints = Vec::new();
    for (t, eps, errs, secs) in linked {
        let label = labels
            .iter()
            .find(|(p, _)| *p == catalog.techs[t].plugin)
            .map_or(catalog.techs[t].desc.id.as_str(), |(_, l)| l.as_str());
        stats.add_link(label, secs);
        errors.extend(errs);
        let tech_id = &catalog.techs[t].desc.id;
        endpoints.extend(eps.into_iter().map(|e| convert(e, tech_id)));
    }
    Analysis {
        endpoints,
        errors,
        calls: calls.into_inner(),
        stats,
    }
}

impl Stats {
    fn collect(
        &mut self,
        labels: &[(usize, String)],
        jobs: &[Job],
        results: &[Option<JobResult>],
        files: &[SourceFile],
        sizes: &[usize],
    ) {
        for (job, r) in jobs.iter().zip(results) {
            let Some(r) = r else { continue };
            let Some((_, tech)) = labels.iter().find(|(p, _)| *p == r.plugin) else {
                continue;
            };
            let entry = self.tech(tech);
            entry.secs += r.secs;
            entry.files += job.files.len();
            entry.bytes += job.bytes;
            entry.batches += 1;
            let largest = job
                .files
                .iter()
                .max_by_key(|&&f| sizes[f])
                .map(|&f| files[f].display.clone())
                .unwrap_or_default();
            self.slowest.push(BatchStats {
                tech: tech.clone(),
                secs: r.secs,
                files: job.files.len(),
                bytes: job.bytes,
                largest,
            });
        }
        self.slowest.sort_by(|a, b| b.secs.total_cmp(&a.secs));
        self.slowest.truncate(SLOWEST);
    }

    fn tech(&mut self, tech: &str) -> &mut TechStats {
        let i = match self.techs.iter().position(|t| t.tech == tech) {
            Some(i) => i,
            None => {
                self.techs.push(TechStats {
                    tech: tech.to_string(),
                    secs: 0.0,
                    files: 0,
                    bytes: 0,
                    batches: 0,
                });
                self.techs.len() - 1
            }
        };
        &mut self.techs[i]
    }

    fn add_link(&mut self, tech: &str, secs: f64) {
        self.tech(tech).secs += secs;
    }

    /// The lines `--stats` prints (and `--debug` logs), slowest
    /// technology first.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "analyze {:.2} s wall, link {:.2} s wall",
            self.analyze_secs, self.link_secs
        )];
        if let Some((hits, misses, stored)) = self.cache {
            out.push(format!(
                "results cache: {hits} batches reused, {misses} analyzed, {stored} stored"
            ));
        }
        let mut techs: Vec<&TechStats> = self.techs.iter().collect();
        techs.sort_by(|a, b| b.secs.total_cmp(&a.secs));
        for t in techs {
            out.push(format!(
                "  {:<28} {:>7.2} s in calls  {:>6} files  {:>10} bytes  {:>4} batches",
                t.tech, t.secs, t.files, t.bytes, t.batches
            ));
        }
        out.push("slowest batches:".into());
        for b in &self.slowest {
            out.push(format!(
                "  {:>7.2} s  {:<28} {:>3} files {:>10} bytes  largest {}",
                b.secs, b.tech, b.files, b.bytes, b.largest
            ));
        }
        out
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
    contents: &Contents,
    calls: &AtomicUsize,
) -> JobResult {
    let mut outputs: Vec<TechOutput> = job
        .techs
        .iter()
        .map(|&(tech, _)| TechOutput {
            tech,
            endpoints: Vec::new(),
            facts: Vec::new(),
            errors: Vec::new(),
        })
        .collect();
    let batch: Vec<wit::SourceFile> = job
        .files
        .iter()
        .map(|&f| wit::SourceFile {
            path: files[f].display.clone(),
            content: contents.take(f),
        })
        .collect();
    let ids: Vec<String> = job
        .techs
        .iter()
        .map(|&(t, _)| catalog.techs[t].desc.id.clone())
        .collect();
    calls.fetch_add(1, Ordering::Relaxed);
    let called = match job.techs.as_slice() {
        [] => Ok((Vec::new(), Some(Vec::new()))),
        // One technology wants this batch: it wants every file of it.
        [_] => runtime
            .analyze(plugin, &ids[0], &batch)
            .map(|(out, reads)| (vec![out], reads)),
        techs => {
            let wanted: Vec<Vec<u32>> = techs.iter().map(|(_, w)| w.clone()).collect();
            runtime.analyze_many(plugin, &ids, &batch, &wanted)
        }
    };
    let mut cacheable = None;
    match called {
        Ok((outs, reads)) => {
            for (slot, out) in outputs.iter_mut().zip(outs) {
                slot.endpoints = out.endpoints;
                slot.facts = out.facts;
            }
            cacheable = reads;
        }
        Err(message) if batch.len() == 1 && job.techs.len() == 1 => {
            outputs[0].errors.push(error(
                catalog,
                job.techs[0].0,
                format!("failed on {}: {message}", batch[0].path),
            ));
        }
        Err(message) => {
            // Find the culprit(s): one file and technology per call; the
            // others' results are kept.
            let timed_out = crate::plugin::runtime::is_timeout(&message);
            let total: usize = batch.iter().map(|f| f.content.len()).sum();
            for (pos, file) in batch.iter().enumerate() {
                let limit = if timed_out {
                    retry_timeout(runtime.timeout(), file.content.len(), total)
                } else {
                    runtime.timeout()
                };
                for (k, (t, wanted)) in job.techs.iter().enumerate() {
                    if !wanted.contains(&(pos as u32)) {
                        continue;
                    }
                    calls.fetch_add(1, Ordering::Relaxed);
                    match runtime.analyze_within(plugin, &ids[k], std::slice::from_ref(file), limit)
                    {
                        Ok(out) => {
                            outputs[k].endpoints.extend(out.endpoints);
                            outputs[k].facts.extend(out.facts);
                        }
                        Err(message) => {
                            outputs[k].errors.push(error(
                                catalog,
                                *t,
                                format!("failed on {}: {message}", file.path),
                            ));
                        }
                    }
                }
            }
        }
    }
    JobResult {
        plugin: job.plugin,
        batch: job.batch,
        outputs,
        secs: 0.0,
        cacheable,
    }
}

/// Each job's results-cache key ([`cache`] lists what goes in).
fn job_keys(catalog: &Catalog, runtime: &Runtime, jobs: &[Job], files: &[SourceFile]) -> Vec<Key> {
    let mut used = vec![false; files.len()];
    for job in jobs {
        for &f in &job.files {
            used[f] = true;
        }
    }
    let digests: Vec<Option<[u8; 32]>> = files
        .par_iter()
        .zip(used)
        .map(|(f, used)| used.then(|| cache::content_digest(&f.content)))
        .collect();
    let limits = runtime.limits();
    let mut scan = KeyBuilder::default();
    scan.field(env!("CARGO_PKG_VERSION").as_bytes())
        .field(crate::plugin::INTERFACE_VERSION.as_bytes())
        .field(&limits.timeout.as_millis().to_le_bytes())
        .field(&(limits.memory_bytes as u64).to_le_bytes())
        .field(&(runtime.base_displays().len() as u64).to_le_bytes());
    for b in runtime.base_displays() {
        scan.field(b.as_bytes());
    }
    let mut plugins: Vec<(usize, KeyBuilder)> = Vec::new();
    jobs.iter()
        .map(|job| {
            let mut k = match plugins.iter().find(|(p, _)| *p == job.plugin) {
                Some((_, k)) => k.clone(),
                None => {
                    let source = &catalog.plugins[job.plugin].source;
                    let mut k = scan.clone();
                    k.field(source.sha256.as_bytes()).field(
                        serde_json::to_string(&source.settings)
                            .unwrap_or_default()
                            .as_bytes(),
                    );
                    plugins.push((job.plugin, k.clone()));
                    k
                }
            };
            k.field(&(job.techs.len() as u64).to_le_bytes());
            for (t, positions) in &job.techs {
                k.field(catalog.techs[*t].desc.id.as_bytes());
                let bytes: Vec<u8> = positions.iter().flat_map(|p| p.to_le_bytes()).collect();
                k.field(&bytes);
            }
            k.field(&(job.files.len() as u64).to_le_bytes());
            for &f in &job.files {
                k.field(files[f].display.as_bytes());
                k.field(&digests[f].unwrap_or_default());
            }
            k.finish()
        })
        .collect()
}

/// The cached result of `job`, if the cache has a valid one whose
/// `read-file`s still give the same answers.
fn cached(runtime: &Runtime, cache: &ResultCache, job: &Job, key: &Key) -> Option<JobResult> {
    let entry = cache.get(key)?;
    if entry.outputs.len() != job.techs.len()
        || entry
            .reads
            .iter()
            .any(|r| runtime.read_digest(&r.path) != r.digest)
    {
        return None;
    }
    Some(JobResult {
        plugin: job.plugin,
        batch: job.batch,
        outputs: job
            .techs
            .iter()
            .zip(entry.outputs)
            .map(|(&(tech, _), out)| TechOutput {
                tech,
                endpoints: out.endpoints,
                facts: out.facts,
                errors: Vec::new(),
            })
            .collect(),
        secs: 0.0,
        cacheable: None,
    })
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
                    wit::ParamKind::Flag => ParamType::Flag,
                    wit::ParamKind::Argument => ParamType::Argument,
                    wit::ParamKind::Env => ParamType::Env,
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
            technologies: Vec::new(),
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
    fn batches_are_sized_by_bytes() {
        // A small scan: the floor; a huge one: the ceiling; between, a
        // share per thread.
        assert_eq!(batch_bytes(1000, 2), MIN_BATCH_BYTES);
        assert_eq!(batch_bytes(1 << 40, 2), BATCH_BYTES);
        assert_eq!(batch_bytes(32 << 20, 2), 2 << 20);
        let sizes = [10usize, 500, 10, 10, 10, 300, 10];
        let wanted = vec![(0..sizes.len()).collect::<Vec<_>>(), vec![1, 5]];
        // Two plugins of one technology each: a batch per plugin.
        let jobs = batches(
            &[(0, vec![0]), (1, vec![1])],
            &wanted,
            |f| sizes[f],
            |_| false,
            100,
        );
        let cut: Vec<(usize, Vec<usize>, usize)> = jobs
            .iter()
            .map(|j| (j.plugin, j.files.clone(), j.bytes))
            .collect();
        assert_eq!(
            cut,
            vec![
                (0, vec![0], 10),
                (0, vec![1], 500),
                (0, vec![2, 3, 4], 30),
                (0, vec![5], 300),
                (0, vec![6], 10),
                (1, vec![1], 500),
                (1, vec![5], 300),
            ]
        );
    }

    #[test]
    fn technologies_of_one_plugin_share_its_batches() {
        let sizes = [10usize, 500, 10, 10, 10, 300, 10];
        // Tech 0 wants the even files, tech 1 files 1 to 3 and 5, tech 2
        // (another plugin) file 6.
        let wanted = vec![vec![0, 2, 4, 6], vec![1, 2, 3, 5], vec![6]];
        let jobs = batches(
            &[(0, vec![0, 1]), (1, vec![2])],
            &wanted,
            |f| sizes[f],
            |_| false,
            100,
        );
        type Cut = (usize, usize, Vec<usize>, Vec<(usize, Vec<u32>)>);
        let cut: Vec<Cut> = jobs
            .iter()
            .map(|j| (j.plugin, j.batch, j.files.clone(), j.techs.clone()))
            .collect();
        assert_eq!(
            cut,
            vec![
                (0, 0, vec![0], vec![(0, vec![0])]),
                (0, 1, vec![1], vec![(1, vec![0])]),
                (0, 2, vec![2, 3, 4], vec![(0, vec![0, 2]), (1, vec![0, 1])]),
                (0, 3, vec![5], vec![(1, vec![0])]),
                (0, 4, vec![6], vec![(0, vec![0])]),
                (1, 0, vec![6], vec![(2, vec![0])]),
            ]
        );
    }

    /// Runs `(plugin, bytes)` jobs through [`largest_first`] on one thread:
    /// the results (each job's number, in job order) and the order the
    /// jobs started in, as `(plugin, bytes)`.
    fn run_on_one_thread(jobs: &[(usize, usize)]) -> (Vec<usize>, Vec<(usize, usize)>) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let jobs: Vec<Job> = jobs
            .iter()
            .enumerate()
            .map(|(i, &(plugin, bytes))| Job {
                plugin,
                batch: i,
                files: vec![i],
                techs: vec![(0, vec![0])],
                bytes,
            })
            .collect();
        let started = std::sync::Mutex::new(Vec::new());
        let refs: Vec<(usize, &Job)> = jobs.iter().enumerate().collect();
        let out = pool.install(|| {
            largest_first(&refs, |_, j| {
                started.lock().unwrap().push((j.plugin, j.bytes));
                j.batch
            })
        });
        (out, started.into_inner().unwrap())
    }

    #[test]
    fn the_largest_jobs_run_first_and_results_keep_job_order() {
        let (out, started) = run_on_one_thread(&[(0, 5), (0, 50), (0, 1), (0, 20)]);
        assert_eq!(out, vec![0, 1, 2, 3]);
        assert_eq!(started, vec![(0, 50), (0, 20), (0, 5), (0, 1)]);
    }

    #[test]
    fn one_plugins_jobs_run_together_the_plugin_with_the_largest_job_first() {
        // (plugin, bytes): plugin 1 has the largest job, plugin 2 ties
        // with plugin 0 on theirs and comes after it.
        let (out, started) =
            run_on_one_thread(&[(0, 30), (1, 5), (2, 30), (1, 90), (0, 10), (2, 1)]);
        assert_eq!(out, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(
            started,
            vec![(1, 90), (1, 5), (0, 30), (0, 10), (2, 30), (2, 1)]
        );
    }

    #[test]
    fn anchors_keep_unchanged_batches_unchanged() {
        // 2000 files of 10 bytes; file 50 grows past the byte cap. Every
        // batch that starts after the first anchor at or after file 50 is
        // the same as before.
        let paths: Vec<String> = (0..2000).map(|i| format!("src/f{i}.py")).collect();
        let anchors: Vec<bool> = paths.iter().map(|p| is_anchor(p)).collect();
        assert!(anchors.iter().filter(|a| **a).count() >= 2, "{anchors:?}");
        let wanted = vec![(0..2000).collect::<Vec<_>>()];
        let cut = |sizes: &[usize]| -> Vec<Vec<usize>> {
            batches(&[(0, vec![0])], &wanted, |f| sizes[f], |f| anchors[f], 300)
                .into_iter()
                .map(|j| j.files)
                .collect()
        };
        let before = cut(&[10; 2000]);
        let mut sizes = [10; 2000];
        sizes[50] = 250;
        let after = cut(&sizes);
        let resync = (50..2000).find(|&f| anchors[f]).unwrap();
        let tail = |v: &[Vec<usize>]| -> Vec<Vec<usize>> {
            v.iter().filter(|b| b[0] > resync).cloned().collect()
        };
        assert_eq!(tail(&before), tail(&after));
        assert!(!tail(&before).is_empty());
        // ... and so is every batch before the one file 50 was in.
        let start = before.iter().find(|b| b.contains(&50)).unwrap()[0];
        let head = |v: &[Vec<usize>]| -> Vec<Vec<usize>> {
            v.iter()
                .filter(|b| *b.last().unwrap() < start)
                .cloned()
                .collect()
        };
        assert_eq!(head(&before), head(&after));
        assert!(!head(&before).is_empty());
    }

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
