//! `shadow` (always on): code versus API documents.
//!
//! The optimizer merges endpoints with the same method and path (every
//! placeholder syntax unified), and remembers whether code, a document, or
//! both described the result ([`crate::model::Origin`]). When the scan saw
//! at least one document endpoint (OpenAPI, Postman, HAR, `--spec`, …):
//! - a code endpoint no document describes is tagged `shadow`;
//! - when it also saw code endpoints, a document endpoint no code matches is
//!   tagged `spec_only` (stale documentation, or a route the analyzers could
//!   not see).
//!
//! Command-line programs (protocol `cli`) are never `shadow`: no HTTP API
//! document could describe them.

use super::{tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "shadow",
    label: "Shadow",
    summary: "Compares code with API documents: `shadow` on routes no document describes, `spec_only` on documented routes not found in code.",
    always: true,
    apply,
};

pub const SHADOW: &str = "shadow";
pub const SPEC_ONLY: &str = "spec_only";

fn apply(e: &mut Endpoint, scope: Scope) {
    if !scope.spec || e.protocol == "cli" {
        return;
    }
    if e.origin.code && !e.origin.spec {
        tag(
            e,
            &TAGGER,
            SHADOW,
            "Found in the code but in none of the API documents analysed (an undocumented, shadow endpoint).",
        );
    } else if e.origin.spec && !e.origin.code && scope.code {
        tag(
            e,
            &TAGGER,
            SPEC_ONLY,
            "Described in an API document but not found in the code analysed (stale documentation, or a route the analyzers could not see).",
        );
    }
}
