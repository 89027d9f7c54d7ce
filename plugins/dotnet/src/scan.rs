//! Map step shared by the ASP.NET Core analyzers: the outline of every
//! C# file and its endpoint-builder flow, as facts for the link step.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cs::flow::{self, Call, Route};
use crate::cs::is_test_code;
use crate::cs::outline::{self, CsFile};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    File(CsFile),
    Route(Route),
    Call(Call),
}

pub fn analyze(file: &SourceFile, out: &mut Output) {
    if is_test_code(&file.path, &file.content) {
        return;
    }
    let (outline, toks) = outline::parse(file);
    if file.content.contains("Map") || file.content.contains("UseMvcWithDefaultRoute") {
        let (routes, calls) = flow::scan(file, &outline, &toks);
        for r in routes {
            out.fact(&Fact::Route(r));
        }
        for c in calls {
            out.fact(&Fact::Call(c));
        }
    }
    if !outline.types.is_empty() {
        out.fact(&Fact::File(outline));
    }
}

/// The facts split by kind.
pub struct Facts2 {
    pub files: Vec<CsFile>,
    pub routes: Vec<Route>,
    pub calls: Vec<Call>,
}

pub fn split(facts: &Facts) -> Facts2 {
    let mut out = Facts2 {
        files: Vec::new(),
        routes: Vec::new(),
        calls: Vec::new(),
    };
    for f in facts.iter::<Fact>() {
        match f {
            Fact::File(x) => out.files.push(x),
            Fact::Route(x) => out.routes.push(x),
            Fact::Call(x) => out.calls.push(x),
        }
    }
    out
}
