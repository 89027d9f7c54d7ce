//! Regex tables for the route-scope source scan, one small module per
//! language family ([`common`] applies to every family). A rule names the
//! bucket and kind it produces; a read rule names the request location
//! its first capture group is the name of.
//!
//! Rules match one source line at a time (the scan is line based, so a
//! call split across lines is matched on the line that carries the
//! pattern). Tables are compiled once per family.

mod common;
mod dotnet;
mod go;
mod js;
mod jvm;
mod php;
mod python;
mod ruby;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex::Regex;

use crate::model::ParamType;

/// The language family of a source file, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Python,
    Js,
    Jvm,
    Go,
    Ruby,
    Php,
    Dotnet,
    /// Rust, Crystal, Elixir, Swift, …: the common table only.
    OtherCode,
    /// Not code (an API document, a config file): no source scan.
    NotCode,
}

impl Family {
    pub fn of(path: &str) -> Family {
        let ext = path
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "py" | "pyi" => Family::Python,
            "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "vue" | "svelte" => {
                Family::Js
            }
            "java" | "kt" | "kts" | "scala" | "groovy" => Family::Jvm,
            "go" => Family::Go,
            "rb" | "erb" => Family::Ruby,
            "php" => Family::Php,
            "cs" | "vb" | "fs" => Family::Dotnet,
            "rs" | "cr" | "ex" | "exs" | "swift" | "dart" | "lua" | "pl" | "pm" => {
                Family::OtherCode
            }
            _ => Family::NotCode,
        }
    }

    /// Blocks close with `end` rather than braces or dedent.
    pub fn uses_end(self, path: &str) -> bool {
        self == Family::Ruby
            || path.ends_with(".cr")
            || path.ends_with(".ex")
            || path.ends_with(".exs")
    }
}

/// Which bucket a rule feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    Guard,
    Sink,
    Validator,
    Signal,
}

pub struct Rule {
    pub bucket: Bucket,
    pub kind: &'static str,
    pub pattern: &'static str,
}

/// A request read whose capture group 1 is the name of what is read.
pub struct Read {
    pub param_type: ParamType,
    pub pattern: &'static str,
}

pub struct Table {
    pub rules: &'static [Rule],
    pub reads: &'static [Read],
}

pub const fn rule(bucket: Bucket, kind: &'static str, pattern: &'static str) -> Rule {
    Rule {
        bucket,
        kind,
        pattern,
    }
}

pub const fn read(param_type: ParamType, pattern: &'static str) -> Read {
    Read {
        param_type,
        pattern,
    }
}

/// A family's compiled rules: the family's own first, then the common ones.
pub struct Compiled {
    pub rules: Vec<(Bucket, &'static str, Regex)>,
    pub reads: Vec<(ParamType, Regex)>,
}

fn table(f: Family) -> Option<&'static Table> {
    Some(match f {
        Family::Python => &python::TABLE,
        Family::Js => &js::TABLE,
        Family::Jvm => &jvm::TABLE,
        Family::Go => &go::TABLE,
        Family::Ruby => &ruby::TABLE,
        Family::Php => &php::TABLE,
        Family::Dotnet => &dotnet::TABLE,
        Family::OtherCode | Family::NotCode => return None,
    })
}

fn compile(f: Family) -> Compiled {
    let mut out = Compiled {
        rules: Vec::new(),
        reads: Vec::new(),
    };
    if f == Family::NotCode {
        return out;
    }
    for t in table(f).into_iter().chain([&common::TABLE]) {
        for r in t.rules {
            // The tables are constants checked by a unit test.
            if let Ok(re) = Regex::new(r.pattern) {
                out.rules.push((r.bucket, r.kind, re));
            }
        }
        for r in t.reads {
            if let Ok(re) = Regex::new(r.pattern) {
                out.reads.push((r.param_type, re));
            }
        }
    }
    out
}

/// The compiled rules of a family (compiled on first use).
pub fn for_family(f: Family) -> &'static Compiled {
    static CACHE: OnceLock<Mutex<HashMap<Family, &'static Compiled>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = match cache.lock() {
        Ok(m) => m,
        Err(poisoned) => poisoned.into_inner(),
    };
    map.entry(f)
        .or_insert_with(|| Box::leak(Box::new(compile(f))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for f in [
            Family::Python,
            Family::Js,
            Family::Jvm,
            Family::Go,
            Family::Ruby,
            Family::Php,
            Family::Dotnet,
        ] {
            for t in table(f).into_iter().chain([&common::TABLE]) {
                for r in t.rules {
                    assert!(Regex::new(r.pattern).is_ok(), "{}: {}", r.kind, r.pattern);
                }
                for r in t.reads {
                    let re = Regex::new(r.pattern).expect(r.pattern);
                    assert!(re.captures_len() >= 2, "{}", r.pattern);
                }
            }
        }
    }

    #[test]
    fn families_by_extension() {
        assert_eq!(Family::of("app/main.py"), Family::Python);
        assert_eq!(Family::of("src/App.TSX"), Family::Js);
        assert_eq!(Family::of("openapi.yaml"), Family::NotCode);
        assert_eq!(Family::of("Makefile"), Family::NotCode);
        assert!(Family::of("a.cr").uses_end("a.cr") || Family::of("a.cr") == Family::OtherCode);
    }
}
