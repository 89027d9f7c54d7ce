//! `jwt`: an endpoint handling tokens: at least two token parameters, or one
//! when the URL is an auth/token route.

use super::{count_names, tag, Scope, Tagger};
use crate::model::Endpoint;

pub const TAGGER: Tagger = Tagger {
    id: "jwt",
    label: "JWT",
    summary: "Marks endpoints that take JSON Web Tokens or other bearer tokens.",
    always: false,
    apply,
};

const WORDS: &[&str] = &[
    "token",
    "jwt",
    "bearer",
    "refresh_token",
    "access_token",
    "id_token",
    "authorization",
];

const AUTH_URLS: &[&str] = &["/token", "/auth", "/jwt", "/refresh"];

fn apply(e: &mut Endpoint, _: Scope) {
    let found = count_names(e, WORDS);
    let url = e.url.to_ascii_lowercase();
    let auth_url = AUTH_URLS.iter().any(|u| url.contains(u));
    if found >= 2 || (found >= 1 && auth_url) {
        tag(
            e,
            &TAGGER,
            "jwt",
            "Handles bearer tokens: check signature verification, algorithm confusion and expiry.",
        );
    }
}
