//! `account_recovery`: Marks account recovery endpoints (forgotten password, password reset, account unlock). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "account_recovery",
    label: "AccountRecovery",
    summary:
        "Marks account recovery endpoints (forgotten password, password reset, account unlock).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &[
        "forgot password",
        "reset password",
        "password reset",
        "forgot",
        "recover",
        "recovery",
        "lost password",
        "unlock account",
    ],
    weak_url: &["reset", "unlock", "magic link", "reset link"],
    strong_params: &[
        "reset token",
        "recovery code",
        "reset code",
        "recovery token",
        "password reset token",
        "security answer",
        "security question",
    ],
    weak_params: &[
        "new password",
        "confirm password",
        "password confirmation",
        "token",
    ],
};

word_tagger!(
    WORDS,
    "account_recovery",
    "Account recovery: check token entropy and expiry, rate limits and user enumeration."
);
