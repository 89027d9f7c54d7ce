//! `websocket` (always on): WebSocket endpoints, i.e. protocol `ws`, or an
//! HTTP route that reads at least two `Sec-WebSocket-*` handshake headers.

use super::{count_names, tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "websocket",
    label: "WebSocket",
    summary: "Marks WebSocket endpoints (upgraded from an HTTP GET).",
    always: true,
    apply,
};

const HANDSHAKE: &[&str] = &[
    "sec-websocket-key",
    "sec-websocket-accept",
    "sec-websocket-version",
    "sec-websocket-protocol",
];

fn apply(e: &mut Endpoint, _: Scope) {
    if e.is_websocket() || count_names(e, HANDSHAKE) >= 2 {
        // The text lives in the SDK, whose fixture runner mirrors this tagger.
        let t = portolan_plugin_sdk::Tag::websocket();
        debug_assert_eq!(t.tagger, TAGGER.label);
        tag(e, &TAGGER, &t.name, &t.description);
    }
}
