//! `oauth`: an OAuth 2.0 endpoint, i.e. one taking at least three of the
//! protocol's parameters.

use super::{count_names, tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "oauth",
    label: "Oauth",
    summary: "Marks OAuth 2.0 endpoints (at least three OAuth parameters).",
    always: false,
    apply,
};

const WORDS: &[&str] = &[
    "grant_type",
    "code",
    "redirect_uri",
    "redirect_url",
    "client_id",
    "client_secret",
];

fn apply(e: &mut Endpoint, _: Scope) {
    if count_names(e, WORDS) >= 3 {
        tag(
            e,
            &TAGGER,
            "oauth",
            "An OAuth 2.0 endpoint: check redirect URI validation, state and client authentication.",
        );
    }
}
