//! The scan, stage by stage: plugins → walk + detect → analyze → optimize
//! → report. Each stage lives in its own module; this file only wires them.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::analyze;
use crate::cli::ScanArgs;
use crate::context;
use crate::detect::{Detector, Rule, TechRules};
use crate::llm;
use crate::log;
use crate::model::{Report, ScanError, Severity};
use crate::optimize;
use crate::passive;
use crate::plugin::cache::Cache;
use crate::plugin::runtime::{Limits, Runtime};
use crate::plugin::sandbox::Sandbox;
use crate::plugin::{self, Catalog};
use crate::tag;
use crate::walk::{self, Base, SourceFile};

/// How a scan ended, for the exit status.
pub struct Outcome {
    pub report: Report,
}

/// Errors that stop the run, with their exit status.
#[derive(Debug)]
pub enum Failure {
    Usage(String),
    BasePathMissing(String),
    Runtime(String),
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Runtime(_) => 1,
            Failure::Usage(_) => 2,
            Failure::BasePathMissing(_) => 3,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(m) | Failure::BasePathMissing(m) | Failure::Runtime(m) => m,
        }
    }
}

/// Plugins, runtime and catalog: everything that does not depend on a tree.
pub struct Plugins {
    pub runtime: Runtime,
    pub catalog: Catalog,
    pub errors: Vec<ScanError>,
}

pub fn load_plugins(
    args: &ScanArgs,
    bases: &[PathBuf],
    max_file_size: u64,
) -> Result<Plugins, Failure> {
    // `--locked` runs exactly the locked set: the per-machine user plugin
    // directory is left out.
    load_plugins_with(args, bases, max_file_size, !args.locked)
}

pub fn load_plugins_with(
    args: &ScanArgs,
    bases: &[PathBuf],
    max_file_size: u64,
    include_user_dir: bool,
) -> Result<Plugins, Failure> {
    if let Some(missing) = args.plugin.iter().find(|p| !p.exists()) {
        return Err(Failure::Usage(format!(
            "plugin {} does not exist",
            missing.display()
        )));
    }
    let cache = if args.no_cache {
        None
    } else {
        match Cache::default_dir().map(Cache::open) {
            Some(Ok(c)) => Some(c),
            Some(Err(e)) => {
                log::warn(format!("plugin cache unavailable ({e}); plugins will be compiled on every run. Set PORTOLAN_CACHE_DIR to a writable directory"));
                None
            }
            None => None,
        }
    };
    let timeout = crate::limits::plugin_timeout(args.plugin_timeout)
        .map_err(|e| Failure::Usage(format!("--plugin-timeout {e}")))?;
    let memory = crate::limits::plugin_memory(args.plugin_memory)
        .map_err(|e| Failure::Usage(format!("--plugin-memory {e}")))?;
    let limits = Limits {
        timeout: Duration::from_secs_f64(timeout),
        memory_bytes: memory.saturating_mul(1024 * 1024),
    };
    let net = plugin::source::Network {
        forbidden_by: if args.locked {
            Some("--locked")
        } else if args.offline {
            Some("--offline")
        } else {
            None
        },
    };
    let plugin::Gathered {
        sources,
        mut errors,
        pin_mismatches,
    } = plugin::gather(args, include_user_dir, net).map_err(Failure::Usage)?;
    if sources.is_empty() {
        return Err(Failure::Usage(
            "--disable-builtin leaves no plugin to run: add one with --plugin FILE or a [[plugins]] entry in portolan.toml (`portolan plugin add`)".into(),
        ));
    }
    let lock = if args.locked {
        let path = plugin::lock::path_in(&args.lock_dir);
        let lock = plugin::lock::Lockfile::read(&path).map_err(Failure::Usage)?;
        let mut problems = plugin::lock::check_sources(&lock, &path, &sources, &args.lock_dir);
        if !problems.is_empty() {
            problems.extend(pin_mismatches);
            return Err(Failure::Usage(format!(
                "--locked: the plugins differ from the lockfile:\n  {}",
                escaped_lines(&problems)
            )));
        }
        Some((lock, path))
    } else {
        None
    };
    if !pin_mismatches.is_empty() {
        return Err(Failure::Usage(escaped_lines(&pin_mismatches)));
    }
    let runtime = Runtime::new(cache, limits, Sandbox::new(bases, max_file_size))
        .map_err(|e| Failure::Runtime(format!("cannot start the WebAssembly runtime: {e}")))?;
    let (catalog, more) = Catalog::build(&runtime, runtime.cache(), sources);
    errors.extend(more);
    let bad_settings = catalog.settings_problems();
    if !bad_settings.is_empty() {
        return Err(Failure::Usage(escaped_lines(&bad_settings)));
    }
    if let Some((lock, path)) = lock {
        let problems = plugin::lock::check_descriptions(&lock, &path, &catalog, &args.lock_dir);
        if !problems.is_empty() {
            return Err(Failure::Usage(format!(
                "--locked: the plugins differ from the lockfile:\n  {}",
                escaped_lines(&problems)
            )));
        }
    }
    Ok(Plugins {
        runtime,
        catalog,
        errors,
    })
}

/// Problems one per line, each escaped on its own (a newline inside one
/// cannot start a line of its own; see `log::error_lines`).
fn escaped_lines(problems: &[String]) -> String {
    problems
        .iter()
        .map(|p| crate::escape::visible(p).into_owned())
        .collect::<Vec<_>>()
        .join("\n  ")
}

/// Resolve a technology name: id, alias, case-insensitive, `-` = `_`.
pub fn resolve_tech(catalog: &Catalog, name: &str) -> Option<usize> {
    let wanted = name.trim().to_ascii_lowercase().replace('-', "_");
    catalog.tech_index(&wanted).or_else(|| {
        catalog.techs.iter().position(|t| {
            t.desc
                .aliases
                .iter()
                .any(|a| a.to_ascii_lowercase().replace('-', "_") == wanted)
        })
    })
}

fn resolve_list(catalog: &Catalog, names: &[String], flag: &str) -> Result<Vec<usize>, Failure> {
    let mut out = Vec::new();
    for n in names.iter().filter(|n| !n.trim().is_empty()) {
        match resolve_tech(catalog, n) {
            Some(t) => out.push(t),
            None => {
                return Err(Failure::Usage(format!(
                    "{flag}: unknown technology `{n}`; run `portolan --list-techs` to see the supported ones"
                )))
            }
        }
    }
    Ok(out)
}

pub fn scan(args: &ScanArgs) -> Result<Outcome, Failure> {
    let started = Instant::now();
    if args.base_path.is_empty() {
        return Err(Failure::Usage(
            "a base path is required: portolan -b <DIR> (or `portolan --help`)".into(),
        ));
    }
    let bases: Vec<Base> = args.base_path.iter().map(|b| Base::new(b)).collect();
    for b in &bases {
        if !b.root.exists() {
            return Err(Failure::BasePathMissing(format!(
                "base path {} does not exist",
                b.root.display()
            )));
        }
    }
    let ai = llm::options(args).map_err(Failure::Usage)?;
    let passive_settings = passive_settings(args)?;
    if let Some(missing) = args.spec.iter().find(|p| !p.is_file()) {
        return Err(Failure::Usage(format!(
            "--spec {}: no such file",
            missing.display()
        )));
    }
    let ai_context = args
        .ai_context
        .as_deref()
        .map(context::Buckets::parse)
        .transpose()
        .map_err(Failure::Usage)?;
    // `--ai-context` runs every tagger unless a tagger option says which
    // (the tags feed the context's signals and guards).
    let all_taggers = args.use_all_taggers || (ai_context.is_some() && args.use_taggers.is_empty());
    let taggers = tag::Selection::new(all_taggers, &args.use_taggers).map_err(Failure::Usage)?;
    let max_file_size = walk::max_file_size_from_env().map_err(Failure::Usage)?;
    let exclude = walk::exclude_globs(&args.exclude_path)
        .map_err(|e| Failure::Usage(format!("--exclude-path: {e}")))?;
    let threads = args
        .concurrency
        .unwrap_or_else(crate::limits::default_concurrency)
        .clamp(crate::limits::CONCURRENCY.0, crate::limits::CONCURRENCY.1);
    // One pool for the walk and the analyzers.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();

    log::stage("Loading analyzer plugins.");
    // Plugins may read files below the base paths, and next to `--spec`
    // documents (for their `$ref`s).
    let roots: Vec<PathBuf> = bases
        .iter()
        .map(|b| b.root.clone())
        .chain(args.spec.iter().cloned())
        .collect();
    let plugins = load_plugins(args, &roots, max_file_size)?;
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
    let only = resolve_list(catalog, &args.techs, "--techs")?;
    let extra = resolve_list(catalog, &args.add_techs, "--add-techs")?;
    let excluded = resolve_list(catalog, &args.exclude_techs, "--exclude-techs")?;

    // Walk + detect, in one pass.
    log::stage(format!(
        "Detecting technologies in {}.",
        bases
            .iter()
            .map(|b| b.display.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let tech_rules: Vec<(String, TechRules)> = catalog
        .techs
        .iter()
        .map(|t| {
            (
                t.desc.id.clone(),
                TechRules {
                    files: t.desc.files.clone(),
                    detect: t
                        .desc
                        .detect
                        .iter()
                        .map(|r| Rule {
                            files: r.files.clone(),
                            contains: r.contains.clone(),
                            regex: r.regex.clone(),
                        })
                        .collect(),
                },
            )
        })
        .collect();
    let detector =
        Detector::new(&tech_rules).map_err(|e| Failure::Runtime(format!("plugin rules: {e}")))?;
    let passive = passive_settings.map(|settings| {
        let (scanner, warnings) = passive::load(&settings, |t| resolve_tech(catalog, t));
        for w in &warnings {
            log::warn(w);
        }
        if scanner.len() == 0 {
            log::warn(
                "Passive scan: no rule to run (see the warnings above, or --passive-scan-path).",
            );
        } else {
            log::info(format!(
                "Passive scan: {} rules at or above {}.",
                scanner.len(),
                settings.severity.as_str()
            ));
        }
        scanner
    });
    let opts = walk::WalkOptions {
        bases: &bases,
        exclude: &exclude,
        max_file_size,
        threads,
        include_bundles: args.include_bundles,
    };
    let spinner = log::progress("Reading the source tree…");
    // With AI on, files no analyzer wants are kept aside if they look like
    // server code.
    let ai_extra = std::sync::Mutex::new(Vec::new());
    let walk_started = Instant::now();
    let (mut files, skipped) = walk::walk(&opts, |base, rel, content| {
        let wanted_by = detector.check(rel, content).wanted_by;
        if let Some(p) = &passive {
            p.scan(&bases[base].display_path(rel), content, &wanted_by);
        }
        if ai.is_some() && wanted_by.is_empty() && llm::select::worth_keeping(rel, content) {
            if let Ok(mut extra) = ai_extra.lock() {
                extra.push(llm::Candidate {
                    base,
                    relative: rel.to_string(),
                    display: bases[base].display_path(rel),
                    content: content.to_string(),
                    score: llm::select::server_score(content),
                });
            }
        }
        wanted_by
    });
    let walk_secs = walk_started.elapsed().as_secs_f64();
    let spec_techs_detected =
        read_spec_documents(args, catalog, &tech_rules, max_file_size, &mut files)?;
    log::debug(format!(
        "kept {} files; skipped {} over the size cap, {} binary, {} media, {} minified bundles, {} symlinks, {} unreadable",
        files.len(),
        skipped.too_large,
        skipped.binary,
        skipped.media,
        skipped.bundles,
        skipped.symlinks,
        skipped.unreadable
    ));

    drop(spinner);
    // `-t` names the technologies to use, instead of those detected;
    // `--add-techs` adds to either.
    let mut selected: Vec<usize> = if only.is_empty() {
        let mut detected = detector.detected();
        for t in spec_techs_detected {
            if !detected.contains(&t) {
                detected.push(t);
            }
        }
        detected
    } else {
        only
    };
    for t in extra {
        if !selected.contains(&t) {
            selected.push(t);
        }
    }
    selected.sort_unstable();
    if selected.is_empty() {
        log::warn("No technologies detected.");
        log::sub("➔ Check the base path, or name technologies with -t (see --list-techs).");
    } else {
        if args.techs.is_empty() {
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
            let skip = if excluded.contains(&t) { " (skip)" } else { "" };
            log::sub(format!("{branch} {}{skip}", catalog.techs[t].desc.id));
        }
    }
    selected.retain(|t| !excluded.contains(t));
    let passive_results = match passive {
        Some(scanner) => {
            let found = scanner.finish(&selected);
            log::done(format!("Passive scan: {} findings.", found.len()));
            found
        }
        None => Vec::new(),
    };

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

    let mut endpoints = Vec::new();
    if !selected.is_empty() {
        log::stage("Analyzing code with the detected technologies' analyzers.");
        log::sub(format!("➔ Code analyzers: {} in use", selected.len()));
        let kept_bytes: usize = files.iter().map(|f| f.content.len()).sum();
        let spinner = log::progress(format!("Analyzing {} files…", files.len()));
        // The contents are needed after the analysis only by the AI mode
        // and `--ai-context`; otherwise each is freed once analyzed.
        let release = ai.is_none() && ai_context.is_none();
        let analysis = analyze::run(
            catalog,
            &plugins.runtime,
            &selected,
            &mut files,
            &wanted,
            &spinner,
            release,
        );
        drop(spinner);
        for e in &analysis.errors {
            log::error(&e.message);
        }
        log::debug(format!("{} analyzer calls", analysis.calls));
        let stats = std::iter::once(format!(
            "walk + detect {walk_secs:.2} s wall ({} files kept, {kept_bytes} bytes; {} minified bundles skipped)",
            files.len(),
            skipped.bundles
        ))
        .chain(analysis.stats.lines());
        if args.stats {
            // stderr only, whatever the log settings: the report stays on
            // stdout.
            for line in stats {
                eprintln!("[stats] {}", crate::escape::visible(&line));
            }
        } else if log::debug_enabled() {
            stats.for_each(log::debug);
        }
        errors.extend(analysis.errors);
        endpoints = analysis.endpoints;
        log::info(format!("Found {} endpoints.", endpoints.len()));
    }
    if let Some(ai) = &ai {
        let extra = ai_extra.into_inner().unwrap_or_default();
        let candidates = llm::candidates(&files, extra, &selected, &endpoints, |rel, content| {
            detector.matching_techs(rel, content)
        });
        endpoints.extend(llm::run(ai, candidates).endpoints);
    }
    if ai_context.is_none() {
        // The sources are needed again only to build `ai_context`.
        files = Vec::new();
    }

    log::stage("Optimizing endpoints.");
    log::sub("➔ Removing duplicated endpoints and params.");
    if args.url.is_some() {
        log::sub("➔ Combining url and endpoints.");
    }
    log::sub("➔ Adding path parameters by URL.");
    let base_url = args.url.as_deref().map(normalize_base_url);
    let spec_techs: Vec<String> = catalog
        .techs
        .iter()
        .filter(|t| t.desc.specification)
        .map(|t| t.desc.id.clone())
        .collect();
    let mut endpoints = optimize::optimize(
        endpoints,
        &optimize::Options {
            base_url: base_url.as_deref(),
            spec_techs: &spec_techs,
        },
    );

    log::stage("Tagging endpoints.");
    tag::run(&mut endpoints, &taggers);
    if tag::Scope::of(&endpoints).spec {
        log::sub(format!(
            "➔ {} shadow endpoints (in the code, in no API document); {} documented endpoints not found in the code (spec_only).",
            tag::count(&endpoints, "shadow"),
            tag::count(&endpoints, "spec_only")
        ));
    }
    match ai_context {
        Some(buckets) => {
            log::stage("Building AI context.");
            context::run(&mut endpoints, &mut context::Files::new(&files), buckets);
        }
        // Facts analyzers return for `ai_context` are only reported with
        // `--ai-context`.
        None => endpoints.iter_mut().for_each(|e| e.ai_context = None),
    }
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
    let skipped_files = if args.strict {
        for f in &skipped.files {
            log::warn(format!(
                "strict: {} skipped ({}: {})",
                f.path, f.reason, f.detail
            ));
        }
        skipped.files
    } else {
        Vec::new()
    };
    Ok(Outcome {
        report: Report {
            endpoints,
            passive_results,
            errors,
            skipped: skipped_files,
        },
    })
}

/// The passive scan's settings when it is on (`-P`, or a rules path or a
/// severity given); a bad severity or the auto-update flag is a usage error.
fn passive_settings(args: &ScanArgs) -> Result<Option<passive::Settings>, Failure> {
    if args.passive_scan_auto_update {
        return Err(Failure::Usage(
            "--passive-scan-auto-update is not available: portolan's passive rules are embedded and it never downloads at run time; give other rules with --passive-scan-path DIR".into(),
        ));
    }
    let on = args.passive_scan
        || !args.passive_scan_path.is_empty()
        || args.passive_scan_severity.is_some();
    if !on {
        return Ok(None);
    }
    let severity = match args.passive_scan_severity.as_deref() {
        None => passive::DEFAULT_SEVERITY,
        Some(s) => Severity::parse(s).ok_or_else(|| {
            Failure::Usage(format!(
                "--passive-scan-severity {s}: use critical, high, medium or low"
            ))
        })?,
    };
    Ok(Some(passive::Settings {
        paths: args.passive_scan_path.clone(),
        severity,
        user_dir: crate::config::user_config_file()
            .and_then(|f| f.parent().map(|d| d.join("passive_rules"))),
    }))
}

/// `--spec FILE`: documents outside the base paths, offered to the
/// specification technologies only (a separate detector, so a document
/// never switches a code analyzer on). Returns the technologies they
/// detected; a document none of them recognises is a warning.
fn read_spec_documents(
    args: &ScanArgs,
    catalog: &Catalog,
    tech_rules: &[(String, TechRules)],
    max_file_size: u64,
    files: &mut Vec<SourceFile>,
) -> Result<Vec<usize>, Failure> {
    if args.spec.is_empty() {
        return Ok(Vec::new());
    }
    let spec_rules: Vec<(String, TechRules)> = tech_rules
        .iter()
        .zip(&catalog.techs)
        .map(|((id, rules), t)| {
            let rules = if t.desc.specification {
                rules.clone()
            } else {
                TechRules::default()
            };
            (id.clone(), rules)
        })
        .collect();
    let detector =
        Detector::new(&spec_rules).map_err(|e| Failure::Runtime(format!("plugin rules: {e}")))?;
    for path in &args.spec {
        let content = match walk::read_file(path, max_file_size) {
            Ok(c) => c,
            Err(e) => {
                log::warn(format!("--spec {}: {e}; skipped", path.display()));
                continue;
            }
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let wanted_by = detector.check(&name, &content).wanted_by;
        if wanted_by.is_empty() {
            log::warn(format!(
                "--spec {}: no specification analyzer recognises this document (see --list-techs for the formats)",
                path.display()
            ));
            continue;
        }
        files.push(SourceFile {
            base: usize::MAX,
            relative: name,
            display: path.to_string_lossy().replace('\\', "/"),
            content,
            wanted_by,
        });
    }
    Ok(detector.detected())
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
