//! Errors that stop a run, each with its exit status.
//!
//! Stages report what stops the run as a [`Failure`]; what only degrades
//! the report (an analyzer error, a skipped file) goes into the report
//! instead (`model::ScanError`).

/// What stopped the run. The message is complete (it names the flag, the
/// file or the plugin); `main` prints it and exits with [`Failure::exit_code`].
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// A flag, config file or argument is wrong (exit 2).
    #[error("{0}")]
    Usage(String),
    /// A `-b` base path does not exist (exit 3).
    #[error("{0}")]
    BasePathMissing(String),
    /// Something failed at run time: I/O, the WebAssembly runtime (exit 1).
    #[error("{0}")]
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
