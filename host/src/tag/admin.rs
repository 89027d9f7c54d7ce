//! `admin`: Marks administrative endpoints (admin panels, back office, staff-only management). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "admin",
    label: "Admin",
    summary: "Marks administrative endpoints (admin panels, back office, staff-only management).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &[
        "admin",
        "administrator",
        "administration",
        "superadmin",
        "sysadmin",
        "backoffice",
        "back office",
    ],
    weak_url: &[
        "manage",
        "management",
        "staff",
        "moderation",
        "moderator",
        "internal",
        "console",
        "dashboard",
    ],
    strong_params: &["is admin", "is superuser", "is staff", "admin token"],
    weak_params: &[
        "role",
        "roles",
        "permission",
        "permissions",
        "privilege",
        "privileges",
    ],
};

word_tagger!(
    WORDS,
    "admin",
    "Administrative function: check that only administrators reach it."
);
