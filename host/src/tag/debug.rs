//! `debug`: Marks debugging, profiling and diagnostics endpoints (actuator, pprof, phpinfo, profilers). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "debug",
    label: "Debug",
    summary: "Marks debugging, profiling and diagnostics endpoints (actuator, pprof, phpinfo, profilers).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &[
        "debug",
        "phpinfo",
        "actuator",
        "heapdump",
        "threaddump",
        "pprof",
        "profiler",
        "xdebug",
        "elmah",
        "server status",
        "server info",
    ],
    weak_url: &[
        "trace",
        "env",
        "dump",
        "metrics",
        "diagnostics",
        "diag",
        "logs",
    ],
    strong_params: &["debug", "xdebug session start", "debug mode"],
    weak_params: &["verbose", "trace"],
};

word_tagger!(
    WORDS,
    "debug",
    "Debug or diagnostics endpoint: it should not be reachable in production."
);
