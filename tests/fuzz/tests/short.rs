//! The short form of the fuzz campaign, part of the test suite: a fixed
//! seed and budget over every plugin family (see `src/lib.rs`; the long form
//! is `scripts/fuzz`). Any panic or hang fails.

use std::time::Duration;

use portolan_fuzz::{check_binary, families, fuzz, sweep, Config};

/// Seeded mutants of every fixture source, all families.
#[test]
fn mutants_of_every_fixture_neither_panic_nor_hang() {
    let report = fuzz(&Config {
        seed: 19,
        mutants: 1000,
        jobs: 2,
        hang: Duration::from_secs(60),
        ..Config::default()
    });
    eprintln!("{}", report.summary());
    assert!(report.failures.is_empty(), "{}", report.summary());
}

/// Multi-byte characters (emoji, CJK, combining marks, …) inserted at
/// every 101st char boundary of every fixture source (a different residue
/// per file; `scripts/fuzz --sweep 1` does every offset).
#[test]
fn multibyte_characters_at_many_offsets_never_panic() {
    let (runs, failures) = sweep(&families(), 101, Duration::from_secs(20));
    eprintln!("multi-byte sweep: {runs} mutants");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A sample of mutants through the real binary: exit 0 and a JSON report.
/// Needs `PORTOLAN_BIN` (scripts/test sets it); skipped without it.
#[test]
fn real_binary_scans_mutants() {
    let Some(bin) = std::env::var_os("PORTOLAN_BIN") else {
        eprintln!("PORTOLAN_BIN is not set: skipping the binary sample");
        return;
    };
    match check_binary(
        std::path::Path::new(&bin),
        &families(),
        19,
        1,
        // With a cold plugin cache the first run compiles every plugin
        // (minutes for a debug host on a busy machine); scripts/test passes
        // its warm shared cache, and later runs hit ours (seconds).
        Duration::from_secs(600),
    ) {
        Ok(s) => eprintln!("{s}"),
        Err(e) => panic!("{e}"),
    }
}
