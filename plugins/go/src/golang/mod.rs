//! Reusable Go analysis shared by every Go framework analyzer.
//!
//! - [`syntax`]: identifiers, selector/call chains, statements, signatures;
//! - [`strexpr`]: string expressions (constants, `+`, `fmt.Sprintf`);
//! - [`scan`]: the map step, driven by a [`framework::Framework`];
//! - [`link`]: the reduce step (imports via `go.mod`, constants across
//!   packages, router prefixes through calls, returns, variables, fields
//!   and mounts, handler parameters and bound structs).
//!
//! A framework module declares a [`framework::Framework`] and calls
//! [`analyze`] and [`link`] from its `Analyzer` impl.

pub mod facts;
pub mod framework;
pub mod link;
pub mod scan;
pub mod strexpr;
pub mod syntax;

use portolan_plugin_sdk::prelude::*;

use facts::Fact;
use framework::Framework;

/// The files every Go analyzer wants.
pub const FILES: &[&str] = &["*.go", "go.mod"];

/// Map step for one file: `go.mod` module paths and scanned Go sources
/// (test files and test doubles skipped).
pub fn analyze(file: &SourceFile, out: &mut Output, fw: &Framework) {
    let path = file.slash_path();
    let name = path.rsplit('/').next().unwrap_or(&path);
    if name == "go.mod" {
        if let Some(m) = scan::scan_gomod(file) {
            out.fact(&m);
        }
        return;
    }
    if !name.ends_with(".go") || is_test_path(&path) {
        return;
    }
    let scanned = scan::scan_file(file, fw);
    out.fact(&Fact::File(Box::new(scanned)));
}

/// Reduce step: every endpoint.
pub fn link(facts: &Facts) -> Vec<Endpoint> {
    let all: Vec<Fact> = facts.all();
    link::Linker::new(all).endpoints()
}

/// A detection rule: a `go.mod` requiring one of these modules.
pub fn gomod_requires(modules: &[&str]) -> Detect {
    Detect::files(["go.mod"]).contains(modules.iter().copied())
}
