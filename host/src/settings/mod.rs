//! Settings: the scan's flags resolved once into typed, validated values.
//!
//! Two layers, the way ripgrep separates its low-level arguments from the
//! resolved configuration:
//!
//! - [`crate::cli::ScanArgs`] is what clap parsed, with the config files'
//!   values filled in by [`crate::config`] (flags win). Plain strings and
//!   numbers, nothing checked beyond clap's own parsing.
//! - [`Settings`] is what the run does: a [`Command`] (scan, diff, a list),
//!   each stage's settings checked and converted (base paths, globs,
//!   formats, limits, the delivery plan, the AI options, tagger and
//!   context selections). Every usage mistake is found here, before
//!   anything is read or sent, in a fixed order (the first one is
//!   reported).
//!
//! Only this module, `config` (which fills the arguments from files) and
//! `main` (which dispatches) see the clap struct; the stages receive their
//! own settings.

mod ai;
mod deliver;

use std::path::PathBuf;

use globset::GlobSet;

use crate::cli::ScanArgs;
use crate::config::Applied;
use crate::context::Buckets;
use crate::diff::{DiffFormat, FailOn};
use crate::error::Failure;
use crate::llm::AiOptions;
use crate::model::{ParamType, Severity};
use crate::output::pvalue::Pvalues;
use crate::output::Format;
use crate::plugin::runtime::Limits;
use crate::walk::Base;

pub use crate::plugin::Settings as PluginSettings;

/// What a `portolan [scan]` run does, resolved.
pub struct Settings {
    pub command: Command,
    /// `-o FILE`: the report (or diff, or list) goes there instead of stdout.
    pub output: Option<PathBuf>,
}

/// The four things a scan command line can ask for.
pub enum Command {
    /// `--list-taggers`.
    ListTaggers { format: Format },
    /// `--list-techs`: needs the plugins, not a tree.
    ListTechs {
        format: Format,
        plugins: PluginSettings,
    },
    /// A scan and its report, then the deliveries.
    Scan {
        scan: Box<ScanSettings>,
        report: Box<ReportSettings>,
        delivery: Option<Box<crate::deliver::Plan>>,
    },
    /// `--diff-path OLD`: a scan compared with OLD.
    Diff {
        scan: Box<ScanSettings>,
        old: PathBuf,
        /// OLD read (a report, or a tree scanned first), before the scan's
        /// own settings are checked, as the run meets them.
        old_report: serde_json::Value,
        format: DiffFormat,
        fail_on: Vec<FailOn>,
    },
}

/// Technology names from `-t`, `--add-techs` and `--exclude-techs`
/// (resolved against the catalog once the plugins are loaded).
#[derive(Clone, Debug, Default)]
pub struct TechNames {
    pub only: Vec<String>,
    pub add: Vec<String>,
    pub exclude: Vec<String>,
}

/// How the tree is read.
pub struct WalkSettings {
    pub exclude: GlobSet,
    pub max_file_size: u64,
    pub threads: usize,
    pub include_bundles: bool,
}

/// Everything the scan stages (walk → detect → analyze → optimize → tag →
/// context) need.
pub struct ScanSettings {
    pub bases: Vec<Base>,
    /// `--spec FILE` documents (checked to exist).
    pub specs: Vec<PathBuf>,
    pub plugins: PluginSettings,
    pub techs: TechNames,
    pub walk: WalkSettings,
    pub taggers: crate::tag::Selection,
    pub ai: Option<AiOptions>,
    pub ai_context: Option<Buckets>,
    pub passive: Option<crate::passive::Settings>,
    /// `-u` as given (the optimize stage adds a missing scheme, warning).
    pub url: Option<String>,
    /// `--strict`: skipped files are listed in the report.
    pub strict: bool,
    /// `--stats`: timings on stderr.
    pub stats: bool,
}

/// How the report is written (the output stage).
pub struct ReportSettings {
    pub format: Format,
    pub include_path: bool,
    pub pvalues: Pvalues,
    /// `-u` with a scheme.
    pub base_url: Option<String>,
    /// `-b` as given (for file links and the search-index metadata).
    pub base_paths: Vec<String>,
}

impl Settings {
    /// Check and convert `args` (flags over config files). The checks run in
    /// the order the run would meet them, so the first mistake is the one
    /// reported.
    pub fn resolve(args: &ScanArgs, applied: &Applied) -> Result<Settings, Failure> {
        check_limits(args).map_err(Failure::Usage)?;
        let output = args.output.clone();
        if let Some(old) = &args.diff_path {
            let format =
                <DiffFormat as clap::ValueEnum>::from_str(&args.format, true).map_err(|_| {
                    Failure::Usage(format!(
                        "--diff-path prints a diff: -f plain, json, markdown or sarif, not `{}`",
                        args.format
                    ))
                })?;
            if args.list_techs || args.list_taggers {
                return Err(Failure::Usage(
                    "--diff-path does not go with --list-techs or --list-taggers".into(),
                ));
            }
            if deliver::plan(args).map_err(Failure::Usage)?.is_some() {
                return Err(Failure::Usage(
                    "--diff-path does not go with delivery flags (--send-*): deliver from a scan without it".into(),
                ));
            }
            let old_report = crate::diff::load(old).map_err(Failure::Usage)?;
            // The diff compares guards: the scan builds the AI context.
            let mut scan_args = args.clone();
            if scan_args.ai_context.is_none() {
                scan_args.ai_context = Some("all".into());
            }
            return Ok(Settings {
                command: Command::Diff {
                    old: old.clone(),
                    old_report,
                    format,
                    fail_on: args.fail_on.clone(),
                    scan: Box::new(ScanSettings::resolve(&scan_args, applied)?),
                },
                output,
            });
        }
        let format = Format::parse(&args.format).map_err(Failure::Usage)?;
        if args.list_taggers {
            return Ok(Settings {
                command: Command::ListTaggers { format },
                output,
            });
        }
        let delivery = deliver::plan(args).map_err(Failure::Usage)?;
        if args.list_techs {
            return Ok(Settings {
                command: Command::ListTechs {
                    format,
                    plugins: plugin_settings(args, applied)?,
                },
                output,
            });
        }
        let scan = ScanSettings::resolve(args, applied)?;
        let report = ReportSettings {
            format,
            include_path: args.include_path,
            pvalues: pvalues(args),
            base_url: args.url.as_deref().map(with_scheme),
            base_paths: args.base_path.clone(),
        };
        Ok(Settings {
            command: Command::Scan {
                scan: Box::new(scan),
                report: Box::new(report),
                delivery: delivery.map(Box::new),
            },
            output,
        })
    }
}

/// The plugin settings from the arguments and what the config resolution
/// found (the pinned plugins, the lockfile's directory). Also what
/// `portolan plugin …` runs with.
pub fn plugin_settings(args: &ScanArgs, applied: &Applied) -> Result<PluginSettings, Failure> {
    let timeout = crate::limits::plugin_timeout(args.plugin_timeout)
        .map_err(|e| Failure::Usage(format!("--plugin-timeout {e}")))?;
    let memory = crate::limits::plugin_memory(args.plugin_memory)
        .map_err(|e| Failure::Usage(format!("--plugin-memory {e}")))?;
    Ok(PluginSettings {
        paths: args.plugin.clone(),
        configured: applied.plugins.clone(),
        lock_dir: applied.lock_dir.clone(),
        locked: args.locked,
        offline: args.offline,
        disable_builtin: args.disable_builtin,
        no_cache: args.no_cache,
        limits: Limits {
            timeout: std::time::Duration::from_secs_f64(timeout),
            memory_bytes: memory.saturating_mul(1024 * 1024),
        },
    })
}

impl ScanSettings {
    pub fn resolve(args: &ScanArgs, applied: &Applied) -> Result<ScanSettings, Failure> {
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
        let ai = ai::options(args).map_err(Failure::Usage)?;
        let passive = passive(args)?;
        if let Some(missing) = args.spec.iter().find(|p| !p.is_file()) {
            return Err(Failure::Usage(format!(
                "--spec {}: no such file",
                missing.display()
            )));
        }
        let ai_context = args
            .ai_context
            .as_deref()
            .map(Buckets::parse)
            .transpose()
            .map_err(Failure::Usage)?;
        // `--ai-context` runs every tagger unless a tagger option says which
        // (the tags feed the context's signals and guards).
        let all_taggers =
            args.use_all_taggers || (ai_context.is_some() && args.use_taggers.is_empty());
        let taggers =
            crate::tag::Selection::new(all_taggers, &args.use_taggers).map_err(Failure::Usage)?;
        let max_file_size = crate::walk::max_file_size_from_env().map_err(Failure::Usage)?;
        let exclude = crate::walk::exclude_globs(&args.exclude_path)
            .map_err(|e| Failure::Usage(format!("--exclude-path: {e}")))?;
        let threads = args
            .concurrency
            .unwrap_or_else(crate::limits::default_concurrency)
            .clamp(crate::limits::CONCURRENCY.0, crate::limits::CONCURRENCY.1);
        let plugins = plugin_settings(args, applied)?;
        Ok(ScanSettings {
            bases,
            specs: args.spec.clone(),
            plugins,
            techs: TechNames {
                only: args.techs.clone(),
                add: args.add_techs.clone(),
                exclude: args.exclude_techs.clone(),
            },
            walk: WalkSettings {
                exclude,
                max_file_size,
                threads,
                include_bundles: args.include_bundles,
            },
            taggers,
            ai,
            ai_context,
            passive,
            url: args.url.clone(),
            strict: args.strict,
            stats: args.stats,
        })
    }
}

/// Check the scan's limits as set by flags and config files (the flags'
/// names in the messages: a config file's values were checked, with its
/// name, when it was read).
fn check_limits(args: &ScanArgs) -> Result<(), String> {
    use crate::limits::*;
    plugin_timeout(args.plugin_timeout).map_err(|e| format!("--plugin-timeout {e}"))?;
    plugin_memory(args.plugin_memory).map_err(|e| format!("--plugin-memory {e}"))?;
    if let Some(c) = args.concurrency {
        concurrency(c).map_err(|e| format!("--concurrency {e}"))?;
    }
    if let Some(c) = args.send_concurrency {
        send_concurrency(c).map_err(|e| format!("--send-concurrency {e}"))?;
    }
    if let Some(r) = args.send_rate {
        send_rate(r).map_err(|e| format!("--send-rate {e}"))?;
    }
    if let Some(n) = args.ai_max_files {
        ai_max_files(n).map_err(|e| format!("--ai-max-files {e}"))?;
    }
    if let Some(n) = args.ai_max_token {
        ai_max_token(n).map_err(|e| format!("--ai-max-token {e}"))?;
    }
    Ok(())
}

/// `--set-pvalue*`.
fn pvalues(args: &ScanArgs) -> Pvalues {
    Pvalues::new(
        &args.set_pvalue,
        &[
            (ParamType::Query, &args.set_pvalue_query),
            (ParamType::Header, &args.set_pvalue_header),
            (ParamType::Cookie, &args.set_pvalue_cookie),
            (ParamType::Form, &args.set_pvalue_form),
            (ParamType::Json, &args.set_pvalue_json),
            (ParamType::Path, &args.set_pvalue_path),
        ],
    )
}

/// The passive scan's settings when it is on (`-P`, or a rules path or a
/// severity given); a bad severity or the auto-update flag is a usage error.
fn passive(args: &ScanArgs) -> Result<Option<crate::passive::Settings>, Failure> {
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
        None => crate::passive::DEFAULT_SEVERITY,
        Some(s) => Severity::parse(s).ok_or_else(|| {
            Failure::Usage(format!(
                "--passive-scan-severity {s}: use critical, high, medium or low"
            ))
        })?,
    };
    Ok(Some(crate::passive::Settings {
        paths: args.passive_scan_path.clone(),
        severity,
        user_dir: crate::config::user_config_file()
            .and_then(|f| f.parent().map(|d| d.join("passive_rules"))),
    }))
}

/// `-u` as the output and delivery use it: `https://` when no scheme is
/// given.
pub fn with_scheme(url: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else {
        format!("https://{url}")
    }
}
