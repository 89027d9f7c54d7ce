//! `--use-matchers` and `--use-filters`: which endpoints a delivery takes.
//!
//! A condition is tested against an endpoint's method and its URL as the
//! JSON report shows it (with the `-u` prefix, placeholders not yet filled):
//!
//! | condition | selects endpoints whose … |
//! |---|---|
//! | `regex:PATTERN` | URL matches the regular expression (searched anywhere; anchor with `^…$`) |
//! | `METHOD:TEXT` (METHOD an HTTP method word) | method is METHOD and URL contains TEXT (`POST:` = every POST) |
//! | `METHOD` alone | method is METHOD |
//! | anything else | URL contains the text |
//!
//! Method words compare case-insensitively; text and regexes are
//! case-sensitive (`regex:(?i)admin` for the other). A condition such as
//! `http://host` is plain text: `http` is not a method word.
//!
//! Matchers keep the endpoints that match ANY matcher (all, when there is
//! none); filters then drop those that match ANY filter. Each endpoint is
//! taken at most once, in report order.

use regex::Regex;

use crate::model::Endpoint;

/// Method words a condition may start with: the methods the host keeps.
use portolan_plugin_sdk::model::METHODS;

#[derive(Debug)]
pub enum Condition {
    /// URL contains the text.
    Contains(String),
    /// Method equals (upper case), and URL contains the text (may be empty).
    Method(String, String),
    /// URL matches the regex.
    Regex(Regex),
}

impl Condition {
    pub fn parse(raw: &str) -> Result<Condition, String> {
        if let Some(pattern) = raw.strip_prefix("regex:") {
            return Regex::new(pattern)
                .map(Condition::Regex)
                .map_err(|e| format!("bad regex in `{raw}`: {e}"));
        }
        let (head, text) = match raw.split_once(':') {
            Some((h, t)) => (h, Some(t)),
            None => (raw, None),
        };
        let word = head.trim().to_ascii_uppercase();
        if METHODS.contains(&word.as_str()) {
            return Ok(Condition::Method(word, text.unwrap_or("").to_string()));
        }
        if raw.is_empty() {
            return Err("an empty condition would match every endpoint".into());
        }
        Ok(Condition::Contains(raw.to_string()))
    }

    pub fn matches(&self, e: &Endpoint) -> bool {
        match self {
            Condition::Contains(t) => e.url.contains(t.as_str()),
            Condition::Method(m, t) => {
                e.method.eq_ignore_ascii_case(m) && e.url.contains(t.as_str())
            }
            Condition::Regex(r) => r.is_match(&e.url),
        }
    }
}

/// Matchers, then filters.
#[derive(Debug, Default)]
pub struct Selector {
    pub matchers: Vec<Condition>,
    pub filters: Vec<Condition>,
}

impl Selector {
    pub fn new(matchers: &[String], filters: &[String]) -> Result<Selector, String> {
        let parse = |flag: &str, list: &[String]| -> Result<Vec<Condition>, String> {
            list.iter()
                .map(|c| Condition::parse(c).map_err(|e| format!("{flag}: {e}")))
                .collect()
        };
        Ok(Selector {
            matchers: parse("--use-matchers", matchers)?,
            filters: parse("--use-filters", filters)?,
        })
    }

    pub fn keeps(&self, e: &Endpoint) -> bool {
        (self.matchers.is_empty() || self.matchers.iter().any(|c| c.matches(e)))
            && !self.filters.iter().any(|c| c.matches(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(sel: &Selector, list: &[Endpoint]) -> Vec<String> {
        list.iter()
            .filter(|e| sel.keeps(e))
            .map(|e| format!("{} {}", e.method, e.url))
            .collect()
    }

    fn list() -> Vec<Endpoint> {
        vec![
            Endpoint::new("GET", "http://h/api/users"),
            Endpoint::new("POST", "http://h/api/users"),
            Endpoint::new("GET", "http://h/admin/debug"),
            Endpoint::new("DELETE", "http://h/api/users/{id}"),
        ]
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn condition_syntax() {
        let l = list();
        let sel = |m: &[&str], f: &[&str]| Selector::new(&s(m), &s(f)).unwrap();
        assert_eq!(urls(&sel(&[], &[]), &l).len(), 4);
        assert_eq!(
            urls(&sel(&["admin"], &[]), &l),
            ["GET http://h/admin/debug"]
        );
        assert_eq!(urls(&sel(&["post"], &[]), &l), ["POST http://h/api/users"]);
        let mut with_query = l.clone();
        with_query.push(Endpoint::new("QUERY", "http://h/api/search"));
        assert_eq!(
            urls(&sel(&["query:/api"], &[]), &with_query),
            ["QUERY http://h/api/search"]
        );
        assert_eq!(
            urls(&sel(&["get:/api"], &[]), &l),
            ["GET http://h/api/users"]
        );
        assert_eq!(
            urls(&sel(&["DELETE:"], &[]), &l),
            ["DELETE http://h/api/users/{id}"]
        );
        assert_eq!(
            urls(&sel(&["regex:/users/\\{id\\}$"], &[]), &l),
            ["DELETE http://h/api/users/{id}"]
        );
        // `http:` is not a method word: plain text, matching every URL here.
        assert_eq!(urls(&sel(&["http://h/api"], &[]), &l).len(), 3);
        // Case-sensitive text.
        assert!(urls(&sel(&["ADMIN"], &[]), &l).is_empty());
    }

    #[test]
    fn matchers_select_then_filters_remove_once_each() {
        let l = list();
        let sel = Selector::new(
            &s(&["/api", "users", "GET"]),
            &s(&["DELETE", "regex:admin"]),
        )
        .unwrap();
        assert_eq!(
            urls(&sel, &l),
            ["GET http://h/api/users", "POST http://h/api/users"]
        );
    }

    #[test]
    fn bad_conditions_are_refused() {
        let err = Selector::new(&s(&["regex:("]), &[]).unwrap_err();
        assert!(
            err.starts_with("--use-matchers: bad regex in `regex:(`"),
            "{err}"
        );
        assert!(Selector::new(&[], &s(&[""])).is_err());
    }
}
