//! `auth`: an endpoint its analyzer saw behind an authentication or
//! authorization guard: a decorator, dependency, annotation or middleware
//! on the route, its group or router, its controller, or the application,
//! as the plugin resolved it (the endpoint's guard facts, `auth_guard` and
//! `authz_guard`). Never guessed from nearby lines: an endpoint whose
//! analyzer reports no guard is not tagged, which does not prove it is
//! public (docs/tags.md lists the frameworks whose analyzers report guards).

use super::{tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "auth",
    label: "Auth",
    summary: "Marks endpoints behind an authentication or authorization guard their analyzer resolved (route, group, controller or app).",
    always: false,
    apply,
};

/// The guard kinds that mean "you must be signed in (and allowed)".
const KINDS: &[&str] = &["auth_guard", "authz_guard"];

fn apply(e: &mut Endpoint, _: Scope) {
    let Some(ctx) = &e.ai_context else {
        return;
    };
    let mut names: Vec<&str> = Vec::new();
    for g in &ctx.guards {
        if KINDS.contains(&g.kind.as_str()) && !names.contains(&g.name.as_str()) {
            names.push(&g.name);
        }
    }
    if names.is_empty() {
        return;
    }
    let description = format!("Protected by {}", names.join(", "));
    tag(e, &TAGGER, "auth", &description);
}
