//! The word-set taggers' shared rule: an endpoint gets the tag when its URL
//! path or a parameter name has one **strong** word (or phrase), or when two
//! different **weak** ones appear among its URL and parameter names.
//!
//! Words are whole words, case-insensitive, split at `-`, `_`, `.`, `/` and
//! camel case ([`crate::words`]): `forgot password` matches
//! `/forgot-password`, `/forgotPassword` and `/forgot/password`, and also
//! the run-together `/forgotpassword`. Route placeholders (`{id}`, `:id`,
//! `<int:id>`, `[id]`) are not URL words.

use crate::model::Endpoint;
use crate::output::spec::api_path;
use crate::words::{has, words};

pub struct WordSet {
    pub strong_url: &'static [&'static str],
    pub weak_url: &'static [&'static str],
    pub strong_params: &'static [&'static str],
    pub weak_params: &'static [&'static str],
}

/// The words of the URL's path ([`api_path`]: scheme, host and query
/// dropped, placeholders unified), placeholders left out.
fn url_words(url: &str) -> Vec<String> {
    api_path(url, None)
        .split('/')
        .filter(|seg| !(seg.starts_with('{') || seg.starts_with('[') || seg.starts_with('*')))
        .flat_map(words)
        .collect()
}

impl WordSet {
    /// Does the endpoint qualify?
    pub fn matches(&self, e: &Endpoint) -> bool {
        let url = url_words(&e.url);
        let params: Vec<Vec<String>> = e.params.iter().map(|p| words(&p.name)).collect();
        if self.strong_url.iter().any(|w| has(&url, w))
            || self
                .strong_params
                .iter()
                .any(|w| params.iter().any(|p| has(p, w)))
        {
            return true;
        }
        let weak = self.weak_url.iter().filter(|w| has(&url, w)).count()
            + self
                .weak_params
                .iter()
                .filter(|w| params.iter().any(|p| has(p, w)))
                .count();
        weak >= 2
    }
}

/// A word-set tagger's `apply`, as a macro so each tagger module stays a
/// table: `word_tagger!(SET, "tag", "description");` defines `fn apply`.
macro_rules! word_tagger {
    ($set:expr, $tag:expr, $description:expr) => {
        fn apply(e: &mut $crate::model::Endpoint, _: super::Scope) {
            if $set.matches(e) {
                super::tag(e, &TAGGER, $tag, $description);
            }
        }
    };
}
pub(crate) use word_tagger;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_words_skip_placeholders_and_the_query() {
        assert_eq!(
            url_words("https://x.test/api/{adminId}/reset-password/:token?admin=1"),
            vec!["api", "reset", "password"]
        );
        assert_eq!(
            url_words("/users/<int:id>/forgotPassword"),
            vec!["users", "forgot", "password"]
        );
    }
}
