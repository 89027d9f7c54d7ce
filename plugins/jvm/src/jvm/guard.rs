//! Security annotations as guard facts for the host's `auth` tagger
//! (`ai_context.guards`): Spring Security's `@PreAuthorize`,
//! `@PostAuthorize`, `@Secured`, Jakarta/JSR-250 `@RolesAllowed`,
//! `@DenyAll`, Quarkus `@Authenticated`, Micronaut `@Secured`. The
//! method's annotations win over its class's (and then the nearest
//! supertype's); `@PermitAll`, `@AnonymousAllowed`, `@Secured("isAnonymous()")`
//! / `SecurityRule.IS_ANONYMOUS` and `@PreAuthorize("permitAll()")` let
//! everyone in. Authentication only (`isAuthenticated()`,
//! `IS_AUTHENTICATED`, `@Authenticated`) is an `auth_guard`; roles,
//! authorities and expressions an `authz_guard`.

use portolan_plugin_sdk::prelude::*;

use super::outline::Annotation;

const GUARDS: [&str; 6] = [
    "PreAuthorize",
    "PostAuthorize",
    "Secured",
    "RolesAllowed",
    "DenyAll",
    "Authenticated",
];

const OPEN: [&str; 2] = ["PermitAll", "AnonymousAllowed"];

/// What one annotation list says: `Some(None)` open to all,
/// `Some(Some(guard))` guarded, `None` silent.
#[allow(clippy::option_option)]
fn of(anns: &[Annotation]) -> Option<Option<(&'static str, String, u32)>> {
    if anns.iter().any(|a| OPEN.contains(&a.name.as_str())) {
        return Some(None);
    }
    let a = anns.iter().find(|a| GUARDS.contains(&a.name.as_str()))?;
    let raw: Vec<&str> = a.args.iter().map(|x| x.raw.trim()).collect();
    let text = raw.join(", ");
    let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if squashed.contains("permitAll()")
        || squashed.contains("isAnonymous()")
        || squashed.contains("IS_ANONYMOUS")
    {
        return Some(None);
    }
    let kind = if a.name == "Authenticated"
        || squashed == "\"isAuthenticated()\""
        || squashed.ends_with("IS_AUTHENTICATED")
    {
        "auth_guard"
    } else {
        "authz_guard"
    };
    let name = if raw.is_empty() {
        format!("@{}", a.name)
    } else {
        format!("@{}({text})", a.name)
    };
    Some(Some((kind, name, a.line)))
}

/// The guard of a handler: its method's annotations, else those of each
/// class of `classes` (the declaring class first, then its supertypes),
/// with the file each is written in.
pub fn resolve<'a>(
    method: (&'a [Annotation], &'a str),
    classes: impl IntoIterator<Item = (&'a [Annotation], &'a str)>,
) -> Option<(&'static str, String, String, u32)> {
    for (anns, path) in std::iter::once(method).chain(classes) {
        if let Some(v) = of(anns) {
            return v.map(|(k, n, l)| (k, n, path.to_string(), l));
        }
    }
    None
}

/// Add the guard `resolve` found to an endpoint.
pub fn apply(e: &mut Endpoint, g: &Option<(&'static str, String, String, u32)>) {
    if let Some((kind, name, path, line)) = g {
        e.push_guard(kind, name, "annotation", path, *line);
    }
}
