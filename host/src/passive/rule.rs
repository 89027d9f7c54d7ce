//! One passive-scan rule: its YAML file format (docs/passive.md), checked
//! and compiled once.
//!
//! ```yaml
//! id: aws-access-key-id
//! info:
//!   name: AWS access key ID
//!   author: [portolan]
//!   severity: critical          # critical | high | medium | low (required)
//!   description: …
//!   reference: [https://…]
//! category: secret
//! techs: ['*']                  # technology ids; '*' (or no `techs`) = every file
//! matchers-condition: and       # and | or (default or), across matchers
//! matchers:
//!   - type: regex               # word | regex
//!     condition: or             # and | or (default or), within the matcher
//!     patterns: ['\b(AKIA|ASIA)[0-9A-Z]{16}\b']
//!   - type: word
//!     negative: true            # portolan extension: the matcher must NOT match
//!     patterns: [EXAMPLE]
//! ```
//!
//! A line is a finding when the matchers, combined by
//! `matchers-condition`, accept it. Regexes are compiled multi-line, so
//! `^`/`$` mean the start and end of a line.

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::model::{PassiveInfo, Severity};

/// A string or a list of strings (`author`, `reference`, `techs`).
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: Option<String>,
    info: Option<RawInfo>,
    category: Option<String>,
    techs: Option<OneOrMany>,
    #[serde(rename = "matchers-condition")]
    matchers_condition: Option<String>,
    matchers: Option<Vec<RawMatcher>>,
}

#[derive(Deserialize)]
struct RawInfo {
    name: Option<String>,
    author: Option<OneOrMany>,
    severity: Option<String>,
    description: Option<String>,
    reference: Option<OneOrMany>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatcher {
    #[serde(rename = "type")]
    kind: Option<String>,
    patterns: Option<Vec<String>>,
    condition: Option<String>,
    #[serde(default)]
    negative: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Condition {
    And,
    Or,
}

fn parse_condition(raw: Option<&str>, what: &str) -> Result<Condition, String> {
    match raw.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        None | Some("or") => Ok(Condition::Or),
        Some("and") => Ok(Condition::And),
        Some(other) => Err(format!("{what} is `{other}`; use `and` or `or`")),
    }
}

#[derive(Debug)]
enum Patterns {
    Words(Vec<String>),
    Regexes(Vec<Regex>),
}

#[derive(Debug)]
struct Matcher {
    patterns: Patterns,
    condition: Condition,
    negative: bool,
}

impl Matcher {
    fn accepts(&self, text: &str) -> bool {
        let hit = match (&self.patterns, self.condition) {
            (Patterns::Words(w), Condition::Or) => w.iter().any(|p| text.contains(p.as_str())),
            (Patterns::Words(w), Condition::And) => w.iter().all(|p| text.contains(p.as_str())),
            (Patterns::Regexes(r), Condition::Or) => r.iter().any(|p| p.is_match(text)),
            (Patterns::Regexes(r), Condition::And) => r.iter().all(|p| p.is_match(text)),
        };
        hit != self.negative
    }
}

/// A checked, compiled rule.
#[derive(Debug)]
pub struct Rule {
    pub id: String,
    pub info: PassiveInfo,
    pub category: String,
    /// Technology ids as written (`*` = every file).
    pub techs: Vec<String>,
    condition: Condition,
    matchers: Vec<Matcher>,
}

/// Most characters of a regex pattern a rule may have (and the compiled
/// size cap below): rules are data, and a huge one would only slow the scan.
const MAX_PATTERN_LEN: usize = 4096;
const REGEX_SIZE_LIMIT: usize = 1 << 20;

impl Rule {
    /// Parses and checks one rule file's text. The error says what is
    /// wrong (the caller names the file).
    pub fn parse(text: &str) -> Result<Rule, String> {
        let raw: RawRule = serde_yaml::from_str(text).map_err(|e| format!("not a rule: {e}"))?;
        let id = raw
            .id
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .ok_or("no `id`")?;
        let info = raw.info.ok_or("no `info`")?;
        let severity = info
            .severity
            .as_deref()
            .ok_or("no `info.severity` (critical, high, medium or low)")?;
        let severity = Severity::parse(severity).ok_or_else(|| {
            format!("`info.severity` is `{severity}`; use critical, high, medium or low")
        })?;
        let condition = parse_condition(raw.matchers_condition.as_deref(), "`matchers-condition`")?;
        let raw_matchers = raw.matchers.unwrap_or_default();
        if raw_matchers.is_empty() {
            return Err("no `matchers`".into());
        }
        let mut matchers = Vec::with_capacity(raw_matchers.len());
        for (i, m) in raw_matchers.into_iter().enumerate() {
            let n = i + 1;
            let patterns = m.patterns.unwrap_or_default();
            if patterns.is_empty() || patterns.iter().any(|p| p.is_empty()) {
                return Err(format!("matcher {n} has no patterns (or an empty one)"));
            }
            let patterns = match m.kind.as_deref().map(str::trim) {
                Some("word") => Patterns::Words(patterns),
                Some("regex") => {
                    let mut compiled = Vec::with_capacity(patterns.len());
                    for p in &patterns {
                        if p.len() > MAX_PATTERN_LEN {
                            return Err(format!(
                                "matcher {n}: a pattern is longer than {MAX_PATTERN_LEN} bytes"
                            ));
                        }
                        let re = RegexBuilder::new(p)
                            .multi_line(true)
                            .size_limit(REGEX_SIZE_LIMIT)
                            .build()
                            .map_err(|e| format!("matcher {n}: the regex does not compile: {e}"))?;
                        compiled.push(re);
                    }
                    Patterns::Regexes(compiled)
                }
                Some(other) => {
                    return Err(format!(
                        "matcher {n}: `type` is `{other}`; use `word` or `regex`"
                    ))
                }
                None => return Err(format!("matcher {n} has no `type` (word or regex)")),
            };
            matchers.push(Matcher {
                patterns,
                condition: parse_condition(
                    m.condition.as_deref(),
                    &format!("matcher {n}'s `condition`"),
                )?,
                negative: m.negative,
            });
        }
        if matchers.iter().all(|m| m.negative) {
            return Err("every matcher is negative: the rule would match almost every line".into());
        }
        let techs: Vec<String> = raw
            .techs
            .map(OneOrMany::into_vec)
            .unwrap_or_default()
            .into_iter()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        let techs = if techs.is_empty() {
            vec!["*".to_string()]
        } else {
            techs
        };
        Ok(Rule {
            info: PassiveInfo {
                name: info.name.unwrap_or_else(|| id.clone()),
                author: info.author.map(OneOrMany::into_vec).unwrap_or_default(),
                severity,
                description: info.description.unwrap_or_default(),
                reference: info.reference.map(OneOrMany::into_vec).unwrap_or_default(),
            },
            id,
            category: raw.category.unwrap_or_default(),
            techs,
            condition,
            matchers,
        })
    }

    /// Whether the rule reads every file (`techs` has `*`, or no `techs`).
    pub fn all_files(&self) -> bool {
        self.techs.iter().any(|t| t == "*")
    }

    /// Whether `text` (a line, or a whole file as a pre-check) satisfies
    /// the rule. For a whole file this is a necessary condition of some line
    /// matching, as long as no matcher is negative.
    pub fn accepts(&self, text: &str) -> bool {
        match self.condition {
            Condition::Or => self.matchers.iter().any(|m| m.accepts(text)),
            Condition::And => self.matchers.iter().all(|m| m.accepts(text)),
        }
    }

    /// The whole-file pre-check: can any line of `content` match? Negative
    /// matchers are left out (a file containing the excluded word can still
    /// have lines without it).
    pub fn may_match(&self, content: &str) -> bool {
        let positive = self.matchers.iter().filter(|m| !m.negative);
        match self.condition {
            Condition::Or => positive.clone().any(|m| m.accepts(content)),
            Condition::And => positive.clone().all(|m| m.accepts(content)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> Rule {
        Rule::parse(text).expect("valid rule")
    }

    #[test]
    fn words_regexes_and_conditions() {
        let r = rule(
            "id: t\ninfo: {name: T, severity: HIGH}\nmatchers-condition: and\nmatchers:\n  - type: word\n    patterns: [password]\n  - type: regex\n    condition: and\n    patterns: ['=\\s*\"', '^\\s*\\w']\n",
        );
        assert_eq!(r.info.severity, Severity::High);
        assert!(r.accepts("  password = \"x\""));
        assert!(!r.accepts("password: x"));
        assert!(!r.accepts("  secret = \"x\""));
        assert!(r.all_files());
        assert!(r.may_match("a\n  password = \"x\"\nb"));
    }

    #[test]
    fn negative_matchers_exclude_lines_but_not_files() {
        let r = rule(
            "id: k\ninfo: {severity: critical}\nmatchers-condition: and\nmatchers:\n  - {type: regex, patterns: ['AKIA[0-9A-Z]{16}']}\n  - {type: word, negative: true, patterns: [EXAMPLE]}\n",
        );
        assert!(r.accepts("key = AKIAABCDEFGHIJKLMNOP"));
        assert!(!r.accepts("key = AKIAIOSFODNN7EXAMPLE"));
        assert!(r.may_match("AKIAIOSFODNN7EXAMPLE\nAKIAABCDEFGHIJKLMNOP"));
        assert_eq!(r.info.name, "k");
    }

    #[test]
    fn line_anchors_are_per_line() {
        let r = rule("id: d\ninfo: {severity: low}\nmatchers:\n  - {type: regex, patterns: ['^DEBUG = True$']}\n");
        assert!(r.may_match("import os\nDEBUG = True\nX = 1\n"));
        assert!(r.accepts("DEBUG = True"));
        assert!(!r.accepts("# DEBUG = True"));
    }

    #[test]
    fn invalid_rules_say_why() {
        for (text, why) in [
            ("id: x\nmatchers: []", "no `info`"),
            ("id: x\ninfo: {name: n}\nmatchers: [{type: word, patterns: [a]}]", "severity"),
            ("id: x\ninfo: {severity: urgent}\nmatchers: [{type: word, patterns: [a]}]", "urgent"),
            ("id: x\ninfo: {severity: low}\nmatchers: [{type: regex, patterns: ['(']}]", "does not compile"),
            ("id: x\ninfo: {severity: low}\nmatchers: [{type: glob, patterns: [a]}]", "`glob`"),
            ("id: x\ninfo: {severity: low}\nmatchers: [{type: word, patterns: []}]", "no patterns"),
            ("id: x\ninfo: {severity: low}\nmatchers: [{type: word, negative: true, patterns: [a]}]", "negative"),
            ("info: {severity: low}\nmatchers: [{type: word, patterns: [a]}]", "no `id`"),
            ("id: x\ninfo: {severity: low}\nmatchers-condition: xor\nmatchers: [{type: word, patterns: [a]}]", "xor"),
            ("id: x\ninfo: {severity: low}\nmatcher: []", "not a rule"),
            ("- just\n- a list", "not a rule"),
        ] {
            let err = Rule::parse(text).expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn scalar_or_list_fields_and_star_techs() {
        let r = rule("id: x\ninfo: {severity: medium, author: me, reference: https://r}\ntechs: ['python_django', '*']\nmatchers: [{type: word, patterns: [a]}]");
        assert_eq!(r.info.author, vec!["me"]);
        assert_eq!(r.info.reference, vec!["https://r"]);
        assert!(r.all_files());
        let r = rule("id: x\ninfo: {severity: medium}\ntechs: python_django\nmatchers: [{type: word, patterns: [a]}]");
        assert_eq!(r.techs, vec!["python_django"]);
        assert!(!r.all_files());
    }
}
