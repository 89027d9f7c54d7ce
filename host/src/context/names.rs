//! Name-pattern signals on parameter names: whole words, case-insensitive
//! (`userId`, `user_id` and `user-id` all have the words `user id`).

pub use crate::words::{has, words};

/// (kind, confidence, words). A multi-word entry matches consecutive
/// words; `*id` stands for a name whose last word is `id`.
pub const PATTERNS: &[(&str, u8, &[&str])] = &[
    (
        "credential_input",
        86,
        &[
            "pass",
            "passwd",
            "password",
            "token",
            "secret",
            "api key",
            "apikey",
            "authorization",
            "session",
            "cookie",
            "jwt",
            "bearer",
        ],
    ),
    (
        "identifier_input",
        74,
        &[
            "id", "user", "account", "order", "profile", "doc", "document", "project", "*id",
        ],
    ),
    (
        "redirect_input",
        76,
        &[
            "url",
            "uri",
            "redirect",
            "return",
            "next",
            "continue",
            "dest",
            "destination",
            "callback",
        ],
    ),
    (
        "file_input",
        78,
        &[
            "file",
            "upload",
            "attachment",
            "image",
            "document",
            "filename",
            "filepath",
            "path",
        ],
    ),
    (
        "query_builder_input",
        70,
        &[
            "sort", "order", "filter", "where", "search", "select", "field", "column",
        ],
    ),
    (
        "pii_input",
        78,
        &[
            "email",
            "phone",
            "mobile",
            "ssn",
            "tax id",
            "dob",
            "birthdate",
            "national id",
            "passport",
            "driver license",
        ],
    ),
    (
        "html_content_input",
        72,
        &[
            "body",
            "description",
            "html",
            "message",
            "comment",
            "note",
            "memo",
            "markdown",
            "rich text",
        ],
    ),
    (
        "code_input",
        80,
        &[
            "script",
            "formula",
            "expression",
            "command",
            "cmd",
            "template",
            "query string",
        ],
    ),
];

/// The name-pattern kinds a parameter name matches, in table order.
pub fn kinds(name: &str) -> Vec<(&'static str, u8)> {
    let w = words(name);
    PATTERNS
        .iter()
        .filter(|(_, _, pats)| pats.iter().any(|p| has(&w, p)))
        .map(|(k, c, _)| (*k, *c))
        .collect()
}

pub fn is(name: &str, kind: &str) -> bool {
    kinds(name).iter().any(|(k, _)| *k == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_case_and_separators() {
        assert_eq!(words("userId"), vec!["user", "id"]);
        assert_eq!(words("X-API-Key"), vec!["x", "api", "key"]);
        assert_eq!(words("redirect_uri"), vec!["redirect", "uri"]);
        assert_eq!(words("HTMLBody"), vec!["htmlbody"]);
    }

    #[test]
    fn patterns_are_whole_words() {
        assert!(is("X-API-Key", "credential_input"));
        assert!(is("apikey", "credential_input"));
        assert!(is("order_id", "identifier_input"));
        assert!(!is("identity", "identifier_input"));
        assert!(!is("passenger", "credential_input"));
        assert!(is("next", "redirect_input"));
        assert!(is("sort", "query_builder_input"));
        assert_eq!(
            kinds("order").iter().map(|k| k.0).collect::<Vec<_>>(),
            vec!["identifier_input", "query_builder_input"]
        );
    }
}
