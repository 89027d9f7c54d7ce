//! portolan: map an application's HTTP attack surface from its source.
//!
//! Pipeline (one module per stage): [`walk`] → [`detect`] → [`analyze`]
//! (sandboxed wasm [`plugin`]s) → [`optimize`] → [`output`].

mod analyze;
mod cli;
mod detect;
mod list;
mod log;
mod model;
mod optimize;
mod output;
mod pipeline;
mod plugin;
mod walk;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command, ScanArgs};
use pipeline::Failure;

/// Exit status when the scan completed but some plugin failed.
const EXIT_PLUGIN_FAILURE: u8 = 4;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let args = match cli.command {
        Some(Command::Scan(args)) => args,
        None => cli.scan,
    };
    log::init(args.no_log, args.debug, args.no_color);
    match run(&args) {
        Ok(code) => code,
        Err(failure) => {
            log::error(failure.message());
            ExitCode::from(failure.exit_code() as u8)
        }
    }
}

fn run(args: &ScanArgs) -> Result<ExitCode, Failure> {
    if let Some(flag) = args.unimplemented() {
        return Err(Failure::Usage(format!(
            "{flag} is not implemented yet in this version of portolan"
        )));
    }
    let format = output::Format::parse(&args.format).map_err(Failure::Usage)?;
    if args.list_techs {
        let text = list::techs(args, format)?;
        write_report(args, &text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = pipeline::scan(args)?;
    let text = output::render(
        &outcome.report,
        format,
        &output::RenderOptions {
            include_path: args.include_path,
        },
    );
    write_report(args, &text)?;
    if outcome.report.errors.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(EXIT_PLUGIN_FAILURE))
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
        log::info(format!("Report written to {}.", path.display()));
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
