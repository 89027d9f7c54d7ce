//! Map step shared by the Swift analyzers, and [`swift_analyzer!`] that
//! declares one from its technology and [`Dialect`].

/// `swift_analyzer!(Vapor, DIALECT, Tech::new(…)…)`: a unit struct whose
/// [`Analyzer`] maps files with the shared scan in that dialect and links
/// with the shared linker.
#[macro_export]
macro_rules! swift_analyzer {
    ($name:ident, $dialect:expr, $tech:expr $(,)?) => {
        pub struct $name;

        impl Analyzer for $name {
            fn tech(&self) -> Tech {
                $tech
            }

            fn analyze(&self, file: &SourceFile, out: &mut Output) {
                $crate::swift::scan::analyze(file, &$dialect, out);
            }

            fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
                Ok($crate::swift::scan::link(facts))
            }
        }
    };
}

use portolan_plugin_sdk::prelude::*;

use super::flow::{self, Dialect};
use super::link::{package_of, FileFact, Linker};
use super::tokens::Toks;
use super::{is_test_code, outline};

pub fn analyze(file: &SourceFile, d: &Dialect, out: &mut Output) {
    if is_test_code(&file.path, &file.content) {
        return;
    }
    let t = Toks::new(file);
    let o = outline::parse(&t);
    let flow = flow::scan(&file.path, &t, &o, d);
    let fact = FileFact {
        package: package_of(&file.path),
        flow,
        types: o
            .types
            .into_iter()
            .filter(|t| !t.fields.is_empty())
            .collect(),
        consts: o.consts,
    };
    if !fact.flow.routes.is_empty()
        || !fact.flow.mounts.is_empty()
        || !fact.flow.funcs.is_empty()
        || !fact.types.is_empty()
        || !fact.consts.is_empty()
        || !fact.flow.locals.is_empty()
    {
        out.fact(&fact);
    }
}

pub fn link(facts: &Facts) -> Vec<Endpoint> {
    let files: Vec<FileFact> = facts.all();
    Linker::new(&files).endpoints()
}
