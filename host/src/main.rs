//! portolan: map an application's HTTP attack surface from its source.
//!
//! Options come from the command line ([`cli`]) over config files
//! ([`config`]) and are resolved once into typed [`settings`]; the
//! [`pipeline`] then runs one stage per module: [`walk`] → [`detect`] →
//! [`analyze`] (sandboxed wasm [`plugin`]s) → [`optimize`] → [`tag`] →
//! [`context`] (with `--ai-context`) → [`output`] → [`deliver`].
//! Errors that stop a run are [`error::Failure`]s.

mod analyze;
mod bundle;
mod cli;
mod config;
mod config_cmd;
mod context;
mod deliver;
mod detect;
mod diff;
mod error;
mod escape;
mod hash;
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
mod settings;
mod tag;
mod walk;
mod words;

use std::path::Path;
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use cli::{Cli, Command, ScanArgs};
use error::Failure;
use pipeline::report::{EXIT_PLUGIN_FAILURE, EXIT_STRICT};
use settings::{ScanSettings, Settings};

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
        for f in &applied.files {
            log::info(format!("Config: {}", f.display()));
        }
        for w in &applied.warnings {
            log::warn(w);
        }
        run(Settings::resolve(&args, &applied)?)
    });
    match result {
        Ok(code) => code,
        Err(failure) => {
            log::error_lines(failure.message());
            ExitCode::from(failure.exit_code() as u8)
        }
    }
}

/// Run what the settings ask for.
fn run(settings: Settings) -> Result<ExitCode, Failure> {
    let output = settings.output.as_deref();
    match settings.command {
        settings::Command::ListTaggers { format } => {
            pipeline::report::write(output, &list::taggers(format)?)?;
            Ok(ExitCode::SUCCESS)
        }
        settings::Command::ListTechs { format, plugins } => {
            pipeline::report::write(output, &list::techs(&plugins, format, output.is_none())?)?;
            Ok(ExitCode::SUCCESS)
        }
        settings::Command::Scan {
            scan,
            report,
            delivery,
        } => pipeline::run(&scan, &report, delivery.as_deref(), output),
        settings::Command::Diff {
            scan,
            old,
            old_report,
            format,
            fail_on,
        } => scan_diff(&scan, &old, old_report, format, &fail_on, output),
    }
}

/// `--diff-path OLD`: scan (with `--ai-context`, so guards compare), then
/// print the diff from OLD to this scan in `-f` plain, json, markdown or
/// sarif. `--fail-on` gives exit status 6; `--strict`'s 7 and a plugin
/// failure's 4 come first.
fn scan_diff(
    scan: &ScanSettings,
    old_path: &Path,
    old: serde_json::Value,
    format: diff::DiffFormat,
    fail_on: &[diff::FailOn],
    output: Option<&Path>,
) -> Result<ExitCode, Failure> {
    let report = pipeline::scan(scan)?;
    let new = serde_json::to_value(&report)
        .map_err(|e| Failure::Runtime(format!("cannot read the scan as JSON: {e}")))?;
    let d = diff::Diff::between(&old, &new);
    log::stage(format!(
        "Comparing with {} ({} format).",
        old_path.display(),
        clap::ValueEnum::to_possible_value(&format)
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    ));
    pipeline::report::write(output, &d.render(format))?;
    let incomplete = !report.errors.is_empty() || !report.skipped.is_empty();
    let failed = d.failures(fail_on);
    if scan.strict && incomplete {
        return Ok(ExitCode::from(EXIT_STRICT));
    }
    if !report.errors.is_empty() {
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
