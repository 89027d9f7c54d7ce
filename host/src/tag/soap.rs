//! `soap`: a SOAP endpoint (takes a `SOAPAction`).

use super::{count_names, tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "soap",
    label: "SOAP",
    summary: "Marks SOAP endpoints (a SOAPAction parameter).",
    always: false,
    apply,
};

fn apply(e: &mut Endpoint, _: Scope) {
    if count_names(e, &["soapaction"]) >= 1 {
        tag(
            e,
            &TAGGER,
            "soap",
            "A SOAP endpoint: test its XML parser (XXE) and each action.",
        );
    }
}
