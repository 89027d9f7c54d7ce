//! The last stages: the direct replay (`--send-req`, whose statuses go
//! into the report), the output (parameter values, render, write) and the
//! deliveries that run once the report is written.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::deliver;
use crate::error::Failure;
use crate::log;
use crate::model::Report;
use crate::output;
use crate::settings::{ReportSettings, ScanSettings};

/// Exit status when the scan completed but some plugin failed.
pub const EXIT_PLUGIN_FAILURE: u8 = 4;
/// Exit status when the report was written but a delivery failed.
pub const EXIT_DELIVERY_FAILURE: u8 = 5;
/// Exit status under `--strict` when an analyzer failed or a file was
/// skipped (6 is `portolan diff --fail-on`'s).
pub const EXIT_STRICT: u8 = 7;

/// The whole run: scan → direct replay → output → deliveries.
pub fn run(
    scan: &ScanSettings,
    settings: &ReportSettings,
    delivery: Option<&deliver::Plan>,
    output_path: Option<&Path>,
) -> Result<ExitCode, Failure> {
    let started = std::time::SystemTime::now();
    let mut report = super::scan(scan)?;
    let mut delivery_failed = 0;
    // The direct replay runs before the report is written, to record each
    // endpoint's status in it (and drop those of --exclude-codes).
    if let Some(plan) = delivery {
        if plan.has_direct() {
            delivery_failed += direct_replay(plan, &mut report, settings);
        }
    }
    write(output_path, &render(&report, settings))?;
    // After the report is written: a slow or failing target cannot cost it.
    if let Some(plan) = delivery {
        let meta =
            deliver::es::ScanMeta::new(started, &settings.base_paths, settings.base_url.as_deref());
        // Delivery works on the report as scanned; it applies the values
        // itself.
        delivery_failed += plan.run(&report, &settings.pvalues, &meta).failed;
        if delivery_failed > 0 {
            log::error(format!(
                "{delivery_failed} deliveries failed (see the warnings above); the report is complete."
            ));
        }
    }
    let incomplete = !report.errors.is_empty() || !report.skipped.is_empty();
    if scan.strict && incomplete {
        log::error(format!(
            "--strict: {} analyzer error(s), {} file(s) skipped; the report lists them.",
            report.errors.len(),
            report.skipped.len()
        ));
        Ok(ExitCode::from(EXIT_STRICT))
    } else if !report.errors.is_empty() {
        Ok(ExitCode::from(EXIT_PLUGIN_FAILURE))
    } else if delivery_failed > 0 {
        Ok(ExitCode::from(EXIT_DELIVERY_FAILURE))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

/// `--send-req`: one request per endpoint; the statuses go into the
/// report, and endpoints answering an `--exclude-codes` status leave it.
/// Returns the requests that failed.
fn direct_replay(plan: &deliver::Plan, report: &mut Report, settings: &ReportSettings) -> usize {
    let statuses = plan.direct(report, &settings.pvalues);
    let keep: Vec<bool> = statuses
        .per_endpoint
        .iter()
        .map(|s| s.is_none_or(|s| !plan.exclude_codes().contains(&s)))
        .collect();
    for (e, s) in report.endpoints.iter_mut().zip(&statuses.per_endpoint) {
        e.details.status_code = *s;
    }
    let mut k = keep.iter();
    report
        .endpoints
        .retain(|_| k.next().copied().unwrap_or(true));
    let excluded = keep.iter().filter(|k| !**k).count();
    if excluded > 0 {
        log::sub(format!(
            "➔ Left out {excluded} endpoint(s) answering {} (--exclude-codes).",
            plan.exclude_codes()
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    statuses.failed
}

/// Output: `--set-pvalue*` values applied (to a copy: the deliveries take
/// the report as scanned and apply the values themselves), then the report
/// rendered.
fn render(report: &Report, settings: &ReportSettings) -> String {
    let format = settings.format;
    let with_values;
    let shown = if settings.pvalues.is_empty() {
        report
    } else {
        log::sub("➔ Setting parameter values (--set-pvalue).");
        let templates = matches!(
            format,
            output::Format::Oas2 | output::Format::Oas3 | output::Format::Postman
        );
        let mut copy = report.clone();
        settings.pvalues.apply(&mut copy, !templates);
        with_values = copy;
        &with_values
    };
    log::stage(format!("Generating the {} report.", format.name()));
    output::render(
        shown,
        format,
        &output::RenderOptions {
            include_path: settings.include_path,
            base_url: settings.base_url.clone(),
            base_paths: settings
                .base_paths
                .iter()
                .map(std::path::PathBuf::from)
                .collect(),
            cwd: std::env::current_dir()
                .ok()
                .map(|d| std::fs::canonicalize(&d).unwrap_or(d)),
        },
    )
}

/// The report goes to `-o FILE` if given, else to stdout. A closed stdout
/// (e.g. `| head`) is not an error.
pub fn write(path: Option<&Path>, text: &str) -> Result<(), Failure> {
    if let Some(path) = path {
        std::fs::write(path, text).map_err(|e| {
            Failure::Runtime(format!(
                "cannot write the report to {}: {e}",
                path.display()
            ))
        })?;
        log::done(format!("Report written to {}.", path.display()));
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Runtime(format!(
            "cannot write the report to stdout: {e}"
        ))),
    }
}
