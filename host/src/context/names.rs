//! Name-pattern signals on parameter names: whole words, case-insensitive
//! (`userId`, `user_id` and `user-id` all have the words `user id`).

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

/// The lower-case words of a name: split at `_`, `-`, `.`, spaces,
/// brackets and lower→upper case changes.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Does the name contain the (possibly multi-word) pattern as whole words?
pub fn has(words: &[String], pattern: &str) -> bool {
    if pattern == "*id" {
        return words.len() > 1 && words.last().is_some_and(|w| w == "id");
    }
    let want: Vec<&str> = pattern.split(' ').collect();
    words
        .windows(want.len())
        .any(|w| w.iter().zip(&want).all(|(a, b)| a == b))
        // `apikey`, `passwd`: the pattern run together as one word.
        || (want.len() > 1 && words.iter().any(|w| *w == want.concat()))
}

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
