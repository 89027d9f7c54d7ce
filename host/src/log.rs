//! Progress and diagnostics on stderr, in the seed's style: `[*]` for a
//! stage, `[I]` for information, `✔` for completion, `[D]` for debug (with
//! `--debug`), `[W]` warnings and `[E]` errors. stdout carries only the report.
//!
//! Colour only when stderr is a terminal, and never with `--no-color` or a
//! non-empty `NO_COLOR`. `--no-log` silences everything but errors.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);
static DEBUG: AtomicBool = AtomicBool::new(false);
static COLOR: AtomicBool = AtomicBool::new(false);
static WARNINGS: AtomicU8 = AtomicU8::new(0);

/// Configure the logger once, from the command line.
pub fn init(no_log: bool, debug: bool, no_color: bool) {
    QUIET.store(no_log, Ordering::Relaxed);
    DEBUG.store(debug, Ordering::Relaxed);
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty() && v != "0");
    COLOR.store(
        !no_color && !no_color_env && std::io::stderr().is_terminal(),
        Ordering::Relaxed,
    );
}

pub fn debug_enabled() -> bool {
    DEBUG.load(Ordering::Relaxed)
}

pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

pub fn color() -> bool {
    COLOR.load(Ordering::Relaxed)
}

fn paint(code: &str, text: &str) -> String {
    if color() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn emit(line: String) {
    let mut err = std::io::stderr().lock();
    // A closed stderr must not abort the scan.
    let _ = writeln!(err, "{line}");
}

/// `[*] message` — a pipeline stage starts.
pub fn stage(message: impl AsRef<str>) {
    if !quiet() {
        emit(format!("{} {}", paint("1;34", "[*]"), message.as_ref()));
    }
}

/// `[I] message` — information.
pub fn info(message: impl AsRef<str>) {
    if !quiet() {
        emit(format!("{} {}", paint("36", "[I]"), message.as_ref()));
    }
}

/// `    message` — a detail line under the previous one.
pub fn sub(message: impl AsRef<str>) {
    if !quiet() {
        emit(format!("    {}", message.as_ref()));
    }
}

/// `✔ message` — a stage completed.
pub fn done(message: impl AsRef<str>) {
    if !quiet() {
        emit(format!("{} {}", paint("1;32", "✔"), message.as_ref()));
    }
}

/// `[D] message` — only with `--debug`.
pub fn debug(message: impl AsRef<str>) {
    if debug_enabled() && !quiet() {
        emit(format!("{} {}", paint("2", "[D]"), message.as_ref()));
    }
}

/// `[W] message` — something was skipped or degraded; the scan goes on.
pub fn warn(message: impl AsRef<str>) {
    WARNINGS.fetch_add(1, Ordering::Relaxed);
    if !quiet() {
        emit(format!("{} {}", paint("1;33", "[W]"), message.as_ref()));
    }
}

/// `[E] message` — always shown, even with `--no-log`.
pub fn error(message: impl AsRef<str>) {
    emit(format!("{} {}", paint("1;31", "[E]"), message.as_ref()));
}
