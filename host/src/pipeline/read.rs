//! Walk + detect, in one pass over the tree: each file read is offered to
//! the detector (which technologies want it), the passive scan and, with
//! AI on, the AI candidates; then the `--spec` documents are read.

use std::time::Instant;

use crate::detect::{Detector, Rule, TechRules};
use crate::error::Failure;
use crate::llm;
use crate::log;
use crate::passive;
use crate::plugin::Catalog;
use crate::settings::ScanSettings;
use crate::walk::{self, SourceFile};

use super::plugins::resolve_tech;

/// What the walk read, for the next stages.
pub struct Read {
    pub files: Vec<SourceFile>,
    pub skipped: walk::SkipCounts,
    pub detector: Detector,
    /// Technologies the `--spec` documents detected.
    pub spec_techs: Vec<usize>,
    pub passive: Option<passive::Scanner>,
    /// With AI on: files no analyzer wants that look like server code.
    pub ai_extra: Vec<llm::Candidate>,
    pub stats: Stats,
}

/// For `--stats`.
pub struct Stats {
    pub walk_secs: f64,
    pub bundles: usize,
}

pub fn run(settings: &ScanSettings, catalog: &Catalog) -> Result<Read, Failure> {
    let bases = &settings.bases;
    log::stage(format!(
        "Detecting technologies in {}.",
        bases
            .iter()
            .map(|b| b.display.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let tech_rules = tech_rules(catalog);
    let detector =
        Detector::new(&tech_rules).map_err(|e| Failure::Runtime(format!("plugin rules: {e}")))?;
    let passive = settings.passive.as_ref().map(|settings| {
        let (scanner, warnings) = passive::load(settings, |t| resolve_tech(catalog, t));
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
        bases,
        exclude: &settings.walk.exclude,
        max_file_size: settings.walk.max_file_size,
        threads: settings.walk.threads,
        include_bundles: settings.walk.include_bundles,
    };
    let spinner = log::progress("Reading the source tree…");
    let ai = settings.ai.is_some();
    let ai_extra = std::sync::Mutex::new(Vec::new());
    let walk_started = Instant::now();
    let (mut files, skipped) = walk::walk(&opts, |base, rel, content| {
        let wanted_by = detector.check(rel, content).wanted_by;
        if let Some(p) = &passive {
            p.scan(&bases[base].display_path(rel), content, &wanted_by);
        }
        if ai && wanted_by.is_empty() && llm::select::worth_keeping(rel, content) {
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
    let spec_techs = read_spec_documents(settings, catalog, &tech_rules, &mut files)?;
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
    let stats = Stats {
        walk_secs,
        bundles: skipped.bundles,
    };
    Ok(Read {
        files,
        skipped,
        detector,
        spec_techs,
        passive,
        ai_extra: ai_extra.into_inner().unwrap_or_default(),
        stats,
    })
}

/// Each technology's detection rules, as the detector takes them.
fn tech_rules(catalog: &Catalog) -> Vec<(String, TechRules)> {
    catalog
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
        .collect()
}

/// `--spec FILE`: documents outside the base paths, offered to the
/// specification technologies only (a separate detector, so a document
/// never switches a code analyzer on). Returns the technologies they
/// detected; a document none of them recognises is a warning.
fn read_spec_documents(
    settings: &ScanSettings,
    catalog: &Catalog,
    tech_rules: &[(String, TechRules)],
    files: &mut Vec<SourceFile>,
) -> Result<Vec<usize>, Failure> {
    if settings.specs.is_empty() {
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
    for path in &settings.specs {
        let content = match walk::read_file(path, settings.walk.max_file_size) {
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
        // Recognised = some specification technology's detection rule
        // matches the document, not only its file globs (`*.txt` is wanted
        // for capture exports, but a plain text file is no document).
        if wanted_by.is_empty() || detector.matching_techs(&name, &content).is_empty() {
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
