//! `webhook`: Marks webhook receivers (endpoints another service calls with signed events). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "webhook",
    label: "Webhook",
    summary: "Marks webhook receivers (endpoints another service calls with signed events).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &["webhook", "webhooks", "web hook", "ipn"],
    weak_url: &[
        "hook",
        "hooks",
        "callback",
        "callbacks",
        "notify",
        "incoming",
        "events",
    ],
    strong_params: &[
        "x hub signature",
        "x hub signature 256",
        "stripe signature",
        "x slack signature",
        "x github event",
        "x gitlab token",
        "x gitlab event",
        "x shopify hmac sha256",
        "x twilio signature",
        "svix signature",
        "webhook signature",
        "x webhook signature",
    ],
    weak_params: &["signature", "event", "event type", "payload", "delivery id"],
};

word_tagger!(WORDS, "webhook", "Webhook receiver: check that the sender's signature is verified and events cannot be replayed.");
