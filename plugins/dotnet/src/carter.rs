//! Carter (`cs_carter`).
//!
//! Carter modules are classes implementing `ICarterModule` or deriving
//! `CarterModule`; their `AddRoutes(IEndpointRouteBuilder app)` maps
//! Minimal API routes (`app.MapGet("/x", …)`, `MapGroup` chains and
//! variables, `MapMethods`, `Map` → GET, POST, PUT, PATCH, DELETE), read
//! with the Minimal API machinery of [`crate::minimal`]: same parameter
//! binding, constants, interpolated patterns and helper methods receiving
//! the builder. A `CarterModule` constructor's `: base("/api/users")`
//! argument (a literal or a constant) prefixes every route of the module.
//! `app.MapCarter()` discovers the modules, so no call site is needed.
//!
//! The Minimal API analyzer leaves the routes of Carter modules to this one,
//! so a tree using both reports each route once.

use portolan_plugin_sdk::prelude::*;

use crate::cs::flow::Route;
use crate::cs::index::Index;
use crate::minimal::link_with;
use crate::scan;

pub struct Carter;

impl Analyzer for Carter {
    fn tech(&self) -> Tech {
        Tech::new("cs_carter", "C#", "Carter")
            .aliases(["carter"])
            .files(["*.cs"])
            .detect(Detect::files(["*.cs"]).contains(["ICarterModule", ": CarterModule"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_with(facts, &|idx, r| {
            in_module(idx, r).then(|| base_path(idx, r))
        }))
    }
}

fn is_module_base(name: &str) -> bool {
    matches!(name, "ICarterModule" | "CarterModule")
}

/// Is the route mapped inside a Carter module?
pub fn in_module(idx: &Index, r: &Route) -> bool {
    r.func
        .as_ref()
        .and_then(|f| idx.find(&f.ty, None))
        .is_some_and(|id| idx.derives(id, &is_module_base))
}

/// `: base("/api/users")` of a `CarterModule` constructor (its own or a
/// base class's), evaluated with the module's constants.
fn base_path(idx: &Index, r: &Route) -> String {
    let Some(id) = r.func.as_ref().and_then(|f| idx.find(&f.ty, None)) else {
        return String::new();
    };
    for t in idx.lineage(id) {
        let decl = idx.ty(t);
        for c in &decl.ctors {
            if let Some(Some(e)) = c.base_args.first() {
                if let Some(v) = idx.eval(Some(t), e) {
                    return v;
                }
            }
        }
    }
    String::new()
}
