//! `pii`: Marks endpoints that take or expose personal data (identity numbers, birth dates, contact details). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "pii",
    label: "Pii",
    summary: "Marks endpoints that take or expose personal data (identity numbers, birth dates, contact details).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &["gdpr", "kyc", "personal data", "personal info"],
    weak_url: &["profile", "contacts", "customers", "patients", "identity"],
    strong_params: &[
        "ssn",
        "social security number",
        "date of birth",
        "dob",
        "birthdate",
        "birth date",
        "passport",
        "passport number",
        "national id",
        "tax id",
        "driver license",
        "drivers license",
        "driving license",
    ],
    weak_params: &[
        "email",
        "phone",
        "phone number",
        "mobile",
        "address",
        "first name",
        "last name",
        "full name",
        "birthday",
        "gender",
        "zip code",
        "postal code",
        "postcode",
        "nationality",
    ],
};

word_tagger!(
    WORDS,
    "pii",
    "Handles personal data: check who may read it, what is logged and what is returned."
);
