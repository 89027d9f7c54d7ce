//! Progress and diagnostics on stderr, in the seed's style: `[*]` for a
//! stage, `[I]` for information, `✔` for completion, `[D]` for debug (with
//! `--debug`), `[W]` warnings and `[E]` errors. stdout carries only the report.
//!
//! Every message is passed through [`crate::escape::visible`]: file names,
//! routes and plugin messages come from the scanned tree, so control
//! characters (terminal escapes, CR, newlines) are shown as `\x1b`, never
//! sent to the terminal, and one message is always one line. A message that
//! is meant to span lines goes through [`error_lines`].
//!
//! Colour only when stderr is a terminal, and never with `--no-color` or a
//! non-empty `NO_COLOR`. `--no-log` silences everything but errors.
//!
//! Long stages show an indicatif spinner (elapsed time, and a bar when the
//! amount of work is known) only when stderr is a terminal and logs are on;
//! pipes, files and tests never see one. Log lines printed while it spins
//! are written above it.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The spinner currently on screen, if any.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

static QUIET: AtomicBool = AtomicBool::new(false);
static DEBUG: AtomicBool = AtomicBool::new(false);
static COLOR: AtomicBool = AtomicBool::new(false);
static WARNINGS: AtomicU8 = AtomicU8::new(0);

static COLOR_ALLOWED: AtomicBool = AtomicBool::new(false);

/// Configure the logger once, from the command line.
pub fn init(no_log: bool, debug: bool, no_color: bool) {
    QUIET.store(no_log, Ordering::Relaxed);
    DEBUG.store(debug, Ordering::Relaxed);
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty() && v != "0");
    let allowed = !no_color && !no_color_env;
    COLOR_ALLOWED.store(allowed, Ordering::Relaxed);
    COLOR.store(
        allowed && std::io::stderr().is_terminal(),
        Ordering::Relaxed,
    );
}

/// Whether text written to stdout may be coloured (a terminal, and colour
/// not turned off).
pub fn stdout_color() -> bool {
    COLOR_ALLOWED.load(Ordering::Relaxed) && std::io::stdout().is_terminal()
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

fn emit(prefix: &str, message: &str) {
    let line = format!("{prefix}{}", crate::escape::visible(message));
    let write = || {
        let mut err = std::io::stderr().lock();
        // A closed stderr must not abort the scan.
        let _ = writeln!(err, "{line}");
    };
    let bar = BAR.lock().ok().and_then(|b| b.clone());
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// A spinner for a stage that may take a while; cleared when dropped.
pub struct Progress(Option<ProgressBar>);

/// Start a spinner with this message (nothing unless stderr is a terminal
/// and logs are on).
pub fn progress(message: impl Into<String>) -> Progress {
    if quiet() || !std::io::stderr().is_terminal() {
        return Progress(None);
    }
    let template = if color() {
        "{spinner:.cyan} {msg} {elapsed:.dim}"
    } else {
        "{spinner} {msg} {elapsed}"
    };
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .tick_strings(&["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏", "✔"]);
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar.set_message(message.into());
    bar.enable_steady_tick(Duration::from_millis(100));
    if let Ok(mut slot) = BAR.lock() {
        *slot = Some(bar.clone());
    }
    Progress(Some(bar))
}

impl Progress {
    /// Switch to a bar of `total` steps.
    pub fn set_total(&self, total: u64) {
        if let Some(bar) = &self.0 {
            bar.set_length(total);
            let template = if color() {
                "{spinner:.cyan} {msg} [{bar:30.cyan/blue}] {pos}/{len} {elapsed:.dim}"
            } else {
                "{spinner} {msg} [{bar:30}] {pos}/{len} {elapsed}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
        }
    }

    /// Advance the bar.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(n);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.0.take() {
            bar.finish_and_clear();
            if let Ok(mut slot) = BAR.lock() {
                *slot = None;
            }
        }
    }
}

/// `[*] message` — a pipeline stage starts.
pub fn stage(message: impl AsRef<str>) {
    if !quiet() {
        emit(&format!("{} ", paint("1;34", "[*]")), message.as_ref());
    }
}

/// `[I] message` — information.
pub fn info(message: impl AsRef<str>) {
    if !quiet() {
        emit(&format!("{} ", paint("36", "[I]")), message.as_ref());
    }
}

/// `    message` — a detail line under the previous one.
pub fn sub(message: impl AsRef<str>) {
    if !quiet() {
        emit("    ", message.as_ref());
    }
}

/// `✔ message` — a stage completed.
pub fn done(message: impl AsRef<str>) {
    if !quiet() {
        emit(&format!("{} ", paint("1;32", "✔")), message.as_ref());
    }
}

/// `[D] message` — only with `--debug`.
pub fn debug(message: impl AsRef<str>) {
    if debug_enabled() && !quiet() {
        emit(&format!("{} ", paint("2", "[D]")), message.as_ref());
    }
}

/// `[W] message` — something was skipped or degraded; the scan goes on.
pub fn warn(message: impl AsRef<str>) {
    WARNINGS.fetch_add(1, Ordering::Relaxed);
    if !quiet() {
        emit(&format!("{} ", paint("1;33", "[W]")), message.as_ref());
    }
}

/// `[E] message` — always shown, even with `--no-log`.
pub fn error(message: impl AsRef<str>) {
    emit(&format!("{} ", paint("1;31", "[E]")), message.as_ref());
}

/// `[E] line` for the first line of `message`, and an indented line for
/// each following one (each escaped on its own): for errors that list
/// several problems.
pub fn error_lines(message: &str) {
    let mut lines = message.split('\n');
    error(lines.next().unwrap_or_default());
    for l in lines {
        emit("    ", l.trim_start());
    }
}
