//! portolan: map an application's HTTP attack surface from its source.
//!
//! Pipeline (one module per stage): [`walk`] → [`detect`] → [`analyze`]
//! (sandboxed wasm [`plugin`]s) → [`optimize`] → [`tag`] → [`context`]
//! (with `--ai-context`) → [`output`].
//! Options come from the command line ([`cli`]) over config files
//! ([`config`]).

mod analyze;
mod bundle;
mod cli;
mod config;
mod config_cmd;
mod context;
mod deliver;
mod detect;
mod diff;
mod escape;
mod limits;
mod list;
mod llm;
mod log;
mod mcp;
mod model;
mod optimize;
mod output;
mod passive;
mod paths;
mod pipeline;
mod plugin;
mod plugin_cmd;
mod tag;
mod walk;
mod words;

use std::io::Write;
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use cli::{Cli, Command, ScanArgs};
use model::ParamType;
use pipeline::Failure;

/// Exit status when the scan completed but some plugin failed.
const EXIT_PLUGIN_FAILURE: u8 = 4;
/// Exit status when the report was written but a delivery failed.
const EXIT_DELIVERY_FAILURE: u8 = 5;
/// Exit status under `--strict` when an analyzer failed or a file was
/// skipped (6 is `portolan diff --fail-on`'s).
const EXIT_STRICT: u8 = 7;

/// `portolan completion SHELL`: the script on stdout. Generated into memory
/// first (clap_complete panics on a failed write), so a closed pipe is a
/// quiet exit and no panic.
fn completion(shell: clap_complete::Shell) -> ExitCode {
    use std::io::Write as _;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "portolan", &mut script);
    match std::io::stdout().lock().write_all(&script) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the completion script: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    // clap prints help and version itself (exit 0) and refuses bad flags
    // with its usage message (exit 2).
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let (mut args, sub): (ScanArgs, &ArgMatches) = match cli.command {
        Some(Command::Scan(args)) => (
            *args,
            matches.subcommand_matches("scan").unwrap_or(&matches),
        ),
        Some(Command::Plugin(p)) => return plugin_cmd::main(p.command),
        Some(Command::Cache(c)) => return plugin_cmd::cache(c.command),
        Some(Command::Config(c)) => return config_cmd::main(c.command),
        Some(Command::Completion { shell }) => return completion(shell),
        Some(Command::Mcp) => return mcp::main(),
        Some(Command::Diff {
            old,
            new,
            format,
            output,
            fail_on,
        }) => {
            return diff::main(diff::DiffArgs {
                old: &old,
                new: &new,
                format,
                output: output.as_ref(),
                fail_on: &fail_on,
            })
        }
        None => (cli.scan, &matches),
    };
    let explicit = |id: &str| sub.value_source(id) == Some(ValueSource::CommandLine);
    // Config files can turn logs off or on, so they are read first; their
    // errors are printed once the logger knows about --no-color. The
    // project config comes from the scanned tree: it is not trusted to
    // make portolan download anything.
    let project = args.base_path.first().map(std::path::PathBuf::from);
    let config = config::apply(
        &mut args,
        &explicit,
        config::Project {
            dir: project.as_deref(),
            trusted: false,
        },
    );
    log::init(args.no_log, args.debug, args.no_color);
    let result = config.map_err(Failure::Usage).and_then(|applied| {
        for f in applied.files {
            log::info(format!("Config: {}", f.display()));
        }
        for w in applied.warnings {
            log::warn(w);
        }
        run(&args)
    });
    match result {
        Ok(code) => code,
        Err(failure) => {
            log::error_lines(failure.message());
            ExitCode::from(failure.exit_code() as u8)
        }
    }
}

fn run(args: &ScanArgs) -> Result<ExitCode, Failure> {
    limits::check_scan(args).map_err(Failure::Usage)?;
    if args.diff_path.is_some() {
        return scan_diff(args);
    }
    let format = output::Format::parse(&args.format).map_err(Failure::Usage)?;
    if args.list_taggers {
        let text = list::taggers(format)?;
        write_report(args, &text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let delivery = deliver::Plan::from_args(args).map_err(Failure::Usage)?;
    let started = std::time::SystemTime::now();
    if args.list_techs {
        let text = list::techs(args, format)?;
        write_report(args, &text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut outcome = pipeline::scan(args)?;
    let pvalues = output::pvalue::Pvalues::new(
        &args.set_pvalue,
        &[
            (ParamType::Query, &args.set_pvalue_query),
            (ParamType::Header, &args.set_pvalue_header),
            (ParamType::Cookie, &args.set_pvalue_cookie),
            (ParamType::Form, &args.set_pvalue_form),
            (ParamType::Json, &args.set_pvalue_json),
            (ParamType::Path, &args.set_pvalue_path),
        ],
    );
    // Delivery works on the report as scanned; it applies the values itself.
    let mut scanned = delivery.as_ref().map(|_| outcome.report.clone());
    let mut delivery_failed = 0;
    // The direct replay runs before the report is written, to record each
    // endpoint's status in it (and drop those of --exclude-codes).
    if let (Some(plan), Some(report)) = (&delivery, &mut scanned) {
        if plan.has_direct() {
            let statuses = plan.direct(report, &pvalues);
            delivery_failed += statuses.failed;
            let keep: Vec<bool> = statuses
                .per_endpoint
                .iter()
                .map(|s| s.is_none_or(|s| !plan.exclude_codes().contains(&s)))
                .collect();
            for r in [&mut outcome.report, report] {
                for (e, s) in r.endpoints.iter_mut().zip(&statuses.per_endpoint) {
                    e.details.status_code = *s;
                }
                let mut k = keep.iter();
                r.endpoints.retain(|_| k.next().copied().unwrap_or(true));
            }
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
        }
    }
    if !pvalues.is_empty() {
        log::sub("➔ Setting parameter values (--set-pvalue).");
        let templates = matches!(
            format,
            output::Format::Oas2 | output::Format::Oas3 | output::Format::Postman
        );
        pvalues.apply(&mut outcome.report, !templates);
    }
    log::stage(format!("Generating the {} report.", format.name()));
    let text = output::render(
        &outcome.report,
        format,
        &output::RenderOptions {
            include_path: args.include_path,
            base_url: args.url.as_deref().map(with_scheme),
            base_paths: args
                .base_path
                .iter()
                .map(std::path::PathBuf::from)
                .collect(),
            cwd: std::env::current_dir()
                .ok()
                .map(|d| std::fs::canonicalize(&d).unwrap_or(d)),
        },
    );
    write_report(args, &text)?;
    // After the report is written: a slow or failing target cannot cost it.
    if let (Some(plan), Some(report)) = (&delivery, &scanned) {
        let meta = deliver::es::ScanMeta::new(
            started,
            &args.base_path,
            args.url.as_deref().map(with_scheme).as_deref(),
        );
        delivery_failed += plan.run(report, &pvalues, &meta).failed;
        if delivery_failed > 0 {
            log::error(format!(
                "{delivery_failed} deliveries failed (see the warnings above); the report is complete."
            ));
        }
    }
    let incomplete = !outcome.report.errors.is_empty() || !outcome.report.skipped.is_empty();
    if args.strict && incomplete {
        log::error(format!(
            "--strict: {} analyzer error(s), {} file(s) skipped; the report lists them.",
            outcome.report.errors.len(),
            outcome.report.skipped.len()
        ));
        Ok(ExitCode::from(EXIT_STRICT))
    } else if !outcome.report.errors.is_empty() {
        Ok(ExitCode::from(EXIT_PLUGIN_FAILURE))
    } else if delivery_failed > 0 {
        Ok(ExitCode::from(EXIT_DELIVERY_FAILURE))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

/// `--diff-path OLD`: scan (with `--ai-context`, so guards compare), then
/// print the diff from OLD to this scan in `-f` plain, json, markdown or
/// sarif. `--fail-on` gives exit status 6; `--strict`'s 7 and a plugin
/// failure's 4 come first.
fn scan_diff(args: &ScanArgs) -> Result<ExitCode, Failure> {
    let Some(old_path) = &args.diff_path else {
        return Ok(ExitCode::SUCCESS);
    };
    let format =
        <diff::DiffFormat as clap::ValueEnum>::from_str(&args.format, true).map_err(|_| {
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
    if deliver::Plan::from_args(args)
        .map_err(Failure::Usage)?
        .is_some()
    {
        return Err(Failure::Usage(
            "--diff-path does not go with delivery flags (--send-*): deliver from a scan without it".into(),
        ));
    }
    let old = diff::load(old_path).map_err(Failure::Usage)?;
    let mut scan_args = args.clone();
    if scan_args.ai_context.is_none() {
        scan_args.ai_context = Some("all".into());
    }
    let outcome = pipeline::scan(&scan_args)?;
    let new = serde_json::to_value(&outcome.report)
        .map_err(|e| Failure::Runtime(format!("cannot read the scan as JSON: {e}")))?;
    let d = diff::Diff::between(&old, &new);
    log::stage(format!(
        "Comparing with {} ({} format).",
        old_path.display(),
        args.format
    ));
    write_report(args, &d.render(format))?;
    let incomplete = !outcome.report.errors.is_empty() || !outcome.report.skipped.is_empty();
    let failed = d.failures(&args.fail_on);
    if args.strict && incomplete {
        return Ok(ExitCode::from(EXIT_STRICT));
    }
    if !outcome.report.errors.is_empty() {
        return Ok(ExitCode::from(EXIT_PLUGIN_FAILURE));
    }
    if !failed.is_empty() {
        let names: Vec<String> = failed
            .iter()
            .filter_map(|f| clap::ValueEnum::to_possible_value(f).map(|v| v.get_name().to_string()))
            .collect();
        log::error(format!("--fail-on matched: {}", names.join(", ")));
        return Ok(ExitCode::from(diff::EXIT_FAIL_ON));
    }
    Ok(ExitCode::SUCCESS)
}

/// `-u` as the pipeline uses it: `https://` when no scheme is given.
fn with_scheme(url: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else {
        format!("https://{url}")
    }
}

/// The report goes to `-o FILE` if given, else to stdout. A closed stdout
/// (e.g. `| head`) is not an error.
fn write_report(args: &ScanArgs, text: &str) -> Result<(), Failure> {
    if let Some(path) = &args.output {
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
