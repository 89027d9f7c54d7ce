//! The two facts of the analyzers that scan their own routes and resolve
//! names through the declaration outlines of every file (Helidon SE, JDK
//! HttpServer, Wicket, http4k, Javalin, Spark, Vert.x, Ktor): the map step
//! records a file's [`JFile`] outline and its framework-specific scan, the
//! link step splits them apart again.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::outline::{self, JFile, Lang};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OutlineFact<S> {
    File(JFile),
    Scan(S),
}

/// Whether an outline is worth recording: it declares types (or, in
/// Kotlin, top-level constants).
pub fn declares(outline: &JFile) -> bool {
    !outline.types.is_empty() || (outline.lang == Lang::Kotlin && !outline.consts.is_empty())
}

/// The map step of a `.java` (`Lang::Java`) or `.kt` (`Lang::Kotlin`)
/// source file outside test code: records its outline when it
/// [`declares`] something, then what `scan` found (`None`: nothing).
pub fn analyze_with_outline<S: Serialize>(
    file: &SourceFile,
    lang: Lang,
    out: &mut Output,
    scan: impl FnOnce(&SourceFile) -> Option<S>,
) {
    let ext = match lang {
        Lang::Java => ".java",
        Lang::Kotlin => ".kt",
    };
    if is_test_path(&file.path) || !file.path.ends_with(ext) {
        return;
    }
    let outline = outline::parse(file, lang);
    if declares(&outline) {
        out.fact(&OutlineFact::<S>::File(outline));
    }
    if let Some(s) = scan(file) {
        out.fact(&OutlineFact::Scan(s));
    }
}

/// The outlines and the scans among `facts`, each in their order.
pub fn split_facts<S>(facts: impl IntoIterator<Item = OutlineFact<S>>) -> (Vec<JFile>, Vec<S>) {
    let mut files = Vec::new();
    let mut scans = Vec::new();
    for f in facts {
        match f {
            OutlineFact::File(j) => files.push(j),
            OutlineFact::Scan(s) => scans.push(s),
        }
    }
    (files, scans)
}
