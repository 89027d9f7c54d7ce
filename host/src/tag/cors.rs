//! `cors`: an endpoint that reads CORS request headers.

use super::{count_names, tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "cors",
    label: "CORS",
    summary: "Marks endpoints that read Origin or CORS preflight headers.",
    always: false,
    apply,
};

const WORDS: &[&str] = &[
    "origin",
    "access-control-allow-origin",
    "access-control-request-method",
    "access-control-request-headers",
];

fn apply(e: &mut Endpoint, _: Scope) {
    if count_names(e, WORDS) >= 1 {
        tag(
            e,
            &TAGGER,
            "cors",
            "Reads the Origin or CORS headers: check for a reflected or overly broad allowed origin.",
        );
    }
}
