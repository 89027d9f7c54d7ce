//! The scan as a straight walk, one stage per module, each handing its
//! result to the next:
//!
//! ```text
//! plugins → walk + detect → select → analyze (+ AI) → optimize → tag → context → output → deliver
//! ```
//!
//! [`scan`] runs the stages up to the report; [`run`] adds the output and
//! the deliveries. The stages take their own part of the resolved
//! [`crate::settings`], never the command line.

pub mod plugins;
mod read;
pub mod report;

use std::time::Instant;

use crate::analyze;
use crate::context;
use crate::error::Failure;
use crate::llm;
use crate::log;
use crate::model::{Endpoint, Report, ScanError};
use crate::optimize;
use crate::plugin::Catalog;
use crate::settings::ScanSettings;
use crate::tag;
use crate::walk::SourceFile;

pub use plugins::Plugins;
pub use report::run;

/// Scan: every stage up to the report (not written).
pub fn scan(settings: &ScanSettings) -> Result<Report, Failure> {
    let started = Instant::now();
    // One pool for the walk and the analyzers.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.walk.threads)
        .build_global();

    log::stage("Loading analyzer plugins.");
    // Plugins may read files below the base paths, and next to `--spec`
    // documents (for their `$ref`s).
    let roots: Vec<_> = settings
        .bases
        .iter()
        .map(|b| b.root.clone())
        .chain(settings.specs.iter().cloned())
        .collect();
    let plugins = plugins::load(&settings.plugins, &roots, settings.walk.max_file_size)?;
    let catalog = &plugins.catalog;
    let mut errors = plugins.errors.clone();
    for e in &errors {
        log::error(&e.message);
    }
    log::info(format!(
        "{} plugins, {} technologies.",
        catalog.plugins.len(),
        catalog.techs.len()
    ));
    let choice = plugins::TechChoice::resolve(catalog, &settings.techs)?;

    let read = read::run(settings, catalog)?;
    let selected = select(settings, catalog, &read, choice);
    let passive_results = match read.passive {
        Some(scanner) => {
            let found = scanner.finish(&selected);
            log::done(format!("Passive scan: {} findings.", found.len()));
            found
        }
        None => Vec::new(),
    };
    let mut files = read.files;
    let analyzed = analyze(settings, &plugins, &selected, &mut files, &read.stats);
    errors.extend(analyzed.errors);
    let mut endpoints = analyzed.endpoints;
    if let Some(ai) = &settings.ai {
        let candidates = llm::candidates(
            &files,
            read.ai_extra,
            &selected,
            &endpoints,
            |rel, content| read.detector.matching_techs(rel, content),
        );
        endpoints.extend(llm::run(ai, candidates).endpoints);
    }
    if settings.ai_context.is_none() {
        // The sources are needed again only to build `ai_context`.
        files = Vec::new();
    }
    let mut endpoints = optimize(settings, catalog, endpoints);
    tag(&mut endpoints, &settings.taggers);
    add_context(&mut endpoints, settings.ai_context, &files);
    drop(files);

    log::done(format!("Finally identified {} endpoints.", endpoints.len()));
    if !errors.is_empty() {
        log::warn(format!(
            "{} plugin error(s); the report lists what the other analyzers found.",
            errors.len()
        ));
    }
    log::info(format!(
        "Scan completed in {:.4} s.",
        started.elapsed().as_secs_f64()
    ));
    let skipped = if settings.strict {
        for f in &read.skipped.files {
            log::warn(format!(
                "strict: {} skipped ({}: {})",
                f.path, f.reason, f.detail
            ));
        }
        read.skipped.files
    } else {
        Vec::new()
    };
    Ok(Report {
        endpoints,
        passive_results,
        errors,
        skipped,
    })
}

/// Select: the technologies to analyze. `-t` names them instead of those
/// detected; `--add-techs` adds to either; `--exclude-techs` removes.
fn select(
    settings: &ScanSettings,
    catalog: &Catalog,
    read: &read::Read,
    choice: plugins::TechChoice,
) -> Vec<usize> {
    let mut selected: Vec<usize> = if choice.only.is_empty() {
        let mut detected = read.detector.detected();
        for &t in &read.spec_techs {
            if !detected.contains(&t) {
                detected.push(t);
            }
        }
        detected
    } else {
        choice.only
    };
    for t in choice.add {
        if !selected.contains(&t) {
            selected.push(t);
        }
    }
    selected.sort_unstable();
    if selected.is_empty() {
        log::warn("No technologies detected.");
        log::sub("➔ Check the base path, or name technologies with -t (see --list-techs).");
    } else {
        if settings.techs.only.is_empty() {
            log::done(format!("Detected {} technologies.", selected.len()));
        } else {
            log::done(format!("Using {} technologies (-t).", selected.len()));
        }
        for (i, &t) in selected.iter().enumerate() {
            let branch = if i + 1 == selected.len() {
                "└──"
            } else {
                "├──"
            };
            let skip = if choice.exclude.contains(&t) {
                " (skip)"
            } else {
                ""
            };
            log::sub(format!("{branch} {}{skip}", catalog.techs[t].desc.id));
        }
    }
    selected.retain(|t| !choice.exclude.contains(t));
    selected
}

/// What the analyzers found.
struct Analyzed {
    endpoints: Vec<Endpoint>,
    errors: Vec<ScanError>,
}

/// Analyze: each selected technology's analyzer over the files it wants.
fn analyze(
    settings: &ScanSettings,
    plugins: &Plugins,
    selected: &[usize],
    files: &mut [SourceFile],
    read_stats: &read::Stats,
) -> Analyzed {
    let catalog = &plugins.catalog;
    // Which files each technology wants: those matching its `files`
    // globs that contain one of its `requires-any` literals (when it
    // declares some).
    let mut wanted: Vec<Vec<usize>> = vec![Vec::new(); catalog.techs.len()];
    let mut unpromising = 0usize;
    for (i, f) in files.iter().enumerate() {
        for &t in &f.wanted_by {
            let tokens = &catalog.techs[t].desc.requires_any;
            if tokens.is_empty() || tokens.iter().any(|k| f.content.contains(k.as_str())) {
                wanted[t].push(i);
            } else {
                unpromising += 1;
            }
        }
    }
    if unpromising > 0 {
        log::debug(format!(
            "{unpromising} (technology, file) pairs skipped: the file has none of the technology's `requires-any` literals"
        ));
    }
    if selected.is_empty() {
        return Analyzed {
            endpoints: Vec::new(),
            errors: Vec::new(),
        };
    }
    log::stage("Analyzing code with the detected technologies' analyzers.");
    log::sub(format!("➔ Code analyzers: {} in use", selected.len()));
    let kept_bytes: usize = files.iter().map(|f| f.content.len()).sum();
    let spinner = log::progress(format!("Analyzing {} files…", files.len()));
    // The contents are needed after the analysis only by the AI mode
    // and `--ai-context`; otherwise each is freed once analyzed.
    let release = settings.ai.is_none() && settings.ai_context.is_none();
    let cache = results_cache(settings);
    let analysis = analyze::run(
        catalog,
        &plugins.runtime,
        selected,
        files,
        &wanted,
        &spinner,
        release,
        cache.as_ref(),
    );
    drop(spinner);
    for e in &analysis.errors {
        log::error(&e.message);
    }
    log::debug(format!("{} analyzer calls", analysis.calls));
    let stats = std::iter::once(format!(
        "walk + detect {:.2} s wall ({} files kept, {kept_bytes} bytes; {} minified bundles skipped)",
        read_stats.walk_secs,
        files.len(),
        read_stats.bundles
    ))
    .chain(analysis.stats.lines());
    if settings.stats {
        // stderr only, whatever the log settings: the report stays on
        // stdout.
        for line in stats {
            eprintln!("[stats] {}", crate::escape::visible(&line));
        }
    } else if log::debug_enabled() {
        stats.for_each(log::debug);
    }
    log::info(format!("Found {} endpoints.", analysis.endpoints.len()));
    Analyzed {
        endpoints: analysis.endpoints,
        errors: analysis.errors,
    }
}

/// The results cache (incremental rescans), unless `--no-cache`.
fn results_cache(settings: &ScanSettings) -> Option<analyze::cache::ResultCache> {
    if settings.plugins.no_cache {
        return None;
    }
    match analyze::cache::ResultCache::default_dir().map(analyze::cache::ResultCache::open) {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => {
            log::debug(format!(
                "results cache unavailable ({e}); every batch is analyzed"
            ));
            None
        }
        None => None,
    }
}

/// Optimize: duplicates merged, `-u` prepended, path parameters added.
fn optimize(settings: &ScanSettings, catalog: &Catalog, endpoints: Vec<Endpoint>) -> Vec<Endpoint> {
    log::stage("Optimizing endpoints.");
    log::sub("➔ Removing duplicated endpoints and params.");
    if settings.url.is_some() {
        log::sub("➔ Combining url and endpoints.");
    }
    log::sub("➔ Adding path parameters by URL.");
    let base_url = settings.url.as_deref().map(normalize_base_url);
    let spec_techs: Vec<String> = catalog
        .techs
        .iter()
        .filter(|t| t.desc.specification)
        .map(|t| t.desc.id.clone())
        .collect();
    optimize::optimize(
        endpoints,
        &optimize::Options {
            base_url: base_url.as_deref(),
            spec_techs: &spec_techs,
        },
    )
}

/// Tag: the taggers over the endpoints.
fn tag(endpoints: &mut [Endpoint], taggers: &tag::Selection) {
    log::stage("Tagging endpoints.");
    tag::run(endpoints, taggers);
    if tag::Scope::of(endpoints).spec {
        log::sub(format!(
            "➔ {} shadow endpoints (in the code, in no API document); {} documented endpoints not found in the code (spec_only).",
            tag::count(endpoints, "shadow"),
            tag::count(endpoints, "spec_only")
        ));
    }
}

/// Context: `--ai-context` facts from the sources; without it, the facts
/// analyzers returned are dropped.
fn add_context(
    endpoints: &mut [Endpoint],
    buckets: Option<context::Buckets>,
    files: &[SourceFile],
) {
    match buckets {
        Some(buckets) => {
            log::stage("Building AI context.");
            context::run(endpoints, &mut context::Files::new(files), buckets);
        }
        None => endpoints.iter_mut().for_each(|e| e.ai_context = None),
    }
}

/// `-u` without a scheme gets `https://` (with a warning), as in Noir.
fn normalize_base_url(url: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else {
        log::warn(format!(
            "The protocol (http or https) is missing in the URL '{url}'. Defaulting to 'https://'."
        ));
        format!("https://{url}")
    }
}
