//! Stage 2: detect technologies.
//!
//! Every plugin declares, per technology, the files it wants and detection
//! rules (file globs plus optional literal / regex content patterns). They
//! are compiled once into two glob sets (name globs and path globs), one
//! Aho-Corasick automaton for all literals and one `RegexSet` per rule that
//! needs it, then evaluated in a single pass while the walker reads each
//! file. A file's content is kept only if some technology wants the file.
//!
//! A rule's regexes are checked for syntax up front (an invalid one is an
//! error naming the technology) but compiled only when a file first meets
//! the rule's globs: compiling every rule's set took most of the start-up of
//! a scan of a small tree, where few rules ever see a file.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use regex::RegexSet;

/// One technology's rules, as declared by a plugin.
#[derive(Clone, Debug, Default)]
pub struct TechRules {
    pub files: Vec<String>,
    pub detect: Vec<Rule>,
}

#[derive(Clone, Debug, Default)]
pub struct Rule {
    pub files: Vec<String>,
    pub contains: Vec<String>,
    pub regex: Vec<String>,
}

/// A name-or-path glob set with a map from glob index to an owner index.
struct Globs {
    names: GlobSet,
    name_owner: Vec<usize>,
    paths: GlobSet,
    path_owner: Vec<usize>,
}

impl Globs {
    fn build(items: impl IntoIterator<Item = (usize, String)>) -> Result<Globs, String> {
        let mut names = GlobSetBuilder::new();
        let mut paths = GlobSetBuilder::new();
        let (mut name_owner, mut path_owner) = (Vec::new(), Vec::new());
        for (owner, pattern) in items {
            if pattern.contains('/') {
                let glob = GlobBuilder::new(pattern.trim_start_matches('/'))
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("invalid glob `{pattern}`: {e}"))?;
                paths.add(glob);
                path_owner.push(owner);
            } else {
                let glob =
                    Glob::new(&pattern).map_err(|e| format!("invalid glob `{pattern}`: {e}"))?;
                names.add(glob);
                name_owner.push(owner);
            }
        }
        Ok(Globs {
            names: names.build().map_err(|e| e.to_string())?,
            name_owner,
            paths: paths.build().map_err(|e| e.to_string())?,
            path_owner,
        })
    }

    /// Owners whose glob matches `relative` (a `/`-separated path).
    fn matches(&self, relative: &str, out: &mut Vec<usize>) {
        let name = relative.rsplit('/').next().unwrap_or(relative);
        for i in self.names.matches(name) {
            out.push(self.name_owner[i]);
        }
        if !self.path_owner.is_empty() {
            for i in self.paths.matches(relative) {
                out.push(self.path_owner[i]);
            }
        }
    }
}

struct CompiledRule {
    tech: usize,
    /// Indices into the shared literal automaton.
    has_literals: bool,
    regex: Option<LazySet>,
}

/// A rule's regexes (already `(?m)`-prefixed and syntax-checked), compiled
/// on first use. `None` inside: the set parses but does not compile (a size
/// limit); it then matches nothing, as a rule that cannot be evaluated.
struct LazySet {
    patterns: Vec<String>,
    set: OnceLock<Option<RegexSet>>,
}

impl LazySet {
    fn new(id: &str, patterns: &[String]) -> Result<LazySet, String> {
        let patterns: Vec<String> = patterns.iter().map(|p| format!("(?m){p}")).collect();
        for p in &patterns {
            regex_syntax::Parser::new()
                .parse(p)
                .map_err(|e| format!("technology `{id}` has an invalid detection regex: {e}"))?;
        }
        Ok(LazySet {
            patterns,
            set: OnceLock::new(),
        })
    }

    fn is_match(&self, content: &str) -> bool {
        self.set
            .get_or_init(|| RegexSet::new(&self.patterns).ok())
            .as_ref()
            .is_some_and(|set| set.is_match(content))
    }
}

/// All technologies' rules, compiled.
pub struct Detector {
    techs: usize,
    rules: Vec<CompiledRule>,
    rule_globs: Globs,
    want_globs: Globs,
    literals: Option<AhoCorasick>,
    /// literal pattern index → rule index
    literal_rule: Vec<usize>,
    detected: Vec<AtomicBool>,
}

/// What the detector concluded about one file.
#[derive(Default)]
pub struct FileVerdict {
    /// Technologies whose analyzer wants this file.
    pub wanted_by: Vec<usize>,
}

impl Detector {
    /// Compile the rules of technologies `0..techs.len()`. An invalid glob
    /// or regex is an error naming the technology.
    pub fn new(techs: &[(String, TechRules)]) -> Result<Detector, String> {
        let mut rules = Vec::new();
        let mut rule_glob_items = Vec::new();
        let mut want_items = Vec::new();
        let mut literal_patterns = Vec::new();
        let mut literal_rule = Vec::new();
        for (t, (id, tr)) in techs.iter().enumerate() {
            for g in &tr.files {
                want_items.push((t, g.clone()));
            }
            for rule in &tr.detect {
                let r = rules.len();
                for g in &rule.files {
                    rule_glob_items.push((r, g.clone()));
                }
                for lit in &rule.contains {
                    literal_patterns.push(lit.clone());
                    literal_rule.push(r);
                }
                let regex = if rule.regex.is_empty() {
                    None
                } else {
                    Some(LazySet::new(id, &rule.regex)?)
                };
                rules.push(CompiledRule {
                    tech: t,
                    has_literals: !rule.contains.is_empty(),
                    regex,
                });
            }
        }
        let rule_globs =
            Globs::build(rule_glob_items).map_err(|e| format!("detection rule: {e}"))?;
        let want_globs = Globs::build(want_items).map_err(|e| format!("wanted files: {e}"))?;
        let literals = if literal_patterns.is_empty() {
            None
        } else {
            Some(AhoCorasick::new(&literal_patterns).map_err(|e| e.to_string())?)
        };
        Ok(Detector {
            techs: techs.len(),
            rules,
            rule_globs,
            want_globs,
            literals,
            literal_rule,
            detected: (0..techs.len()).map(|_| AtomicBool::new(false)).collect(),
        })
    }

    /// Evaluate one file; record detections; say who wants the file.
    pub fn check(&self, relative: &str, content: &str) -> FileVerdict {
        let mut candidates = Vec::new();
        self.rule_globs.matches(relative, &mut candidates);
        candidates.sort_unstable();
        candidates.dedup();
        // Rules of techs already detected need no more work.
        candidates.retain(|&r| !self.detected[self.rules[r].tech].load(Ordering::Relaxed));
        if !candidates.is_empty() {
            let mut literal_hits: Option<Vec<bool>> = None;
            for &r in &candidates {
                let rule = &self.rules[r];
                let content_ok = if !rule.has_literals && rule.regex.is_none() {
                    true
                } else {
                    let lit_ok = rule.has_literals && {
                        let hits = literal_hits.get_or_insert_with(|| self.literal_hits(content));
                        hits[r]
                    };
                    lit_ok || rule.regex.as_ref().is_some_and(|set| set.is_match(content))
                };
                if content_ok {
                    self.detected[rule.tech].store(true, Ordering::Relaxed);
                }
            }
        }
        FileVerdict {
            wanted_by: self.check_wanted(relative),
        }
    }

    /// Technologies whose analyzer wants the file at `relative`.
    fn check_wanted(&self, relative: &str) -> Vec<usize> {
        let mut wanted_by = Vec::new();
        self.want_globs.matches(relative, &mut wanted_by);
        wanted_by.sort_unstable();
        wanted_by.dedup();
        wanted_by
    }

    /// Technologies one of whose detection rules matches this file, whether
    /// or not they were detected already. The AI mode uses it to tell the
    /// files that belong to a framework some analyzer understands.
    pub fn matching_techs(&self, relative: &str, content: &str) -> Vec<usize> {
        let mut candidates = Vec::new();
        self.rule_globs.matches(relative, &mut candidates);
        candidates.sort_unstable();
        candidates.dedup();
        let mut literal_hits: Option<Vec<bool>> = None;
        let mut techs = Vec::new();
        for r in candidates {
            let rule = &self.rules[r];
            let content_ok = (!rule.has_literals && rule.regex.is_none())
                || (rule.has_literals
                    && literal_hits.get_or_insert_with(|| self.literal_hits(content))[r])
                || rule.regex.as_ref().is_some_and(|set| set.is_match(content));
            if content_ok {
                techs.push(rule.tech);
            }
        }
        techs.sort_unstable();
        techs.dedup();
        techs
    }

    /// Per rule: does the content contain one of its literals?
    fn literal_hits(&self, content: &str) -> Vec<bool> {
        let mut hits = vec![false; self.rules.len()];
        if let Some(ac) = &self.literals {
            for m in ac.find_overlapping_iter(content) {
                hits[self.literal_rule[m.pattern().as_usize()]] = true;
            }
        }
        hits
    }

    /// Indices of the detected technologies.
    pub fn detected(&self) -> Vec<usize> {
        (0..self.techs)
            .filter(|&t| self.detected[t].load(Ordering::Relaxed))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tech(files: &[&str], rules: Vec<Rule>) -> TechRules {
        TechRules {
            files: files.iter().map(|s| s.to_string()).collect(),
            detect: rules,
        }
    }

    fn rule(files: &[&str], contains: &[&str], regex: &[&str]) -> Rule {
        Rule {
            files: files.iter().map(|s| s.to_string()).collect(),
            contains: contains.iter().map(|s| s.to_string()).collect(),
            regex: regex.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn detector() -> Detector {
        Detector::new(&[
            (
                "python_flask".into(),
                tech(
                    &["*.py"],
                    vec![rule(&["*.py"], &[], &[r"^\s*from flask import"])],
                ),
            ),
            (
                "ruby_rails".into(),
                tech(
                    &["*.rb"],
                    vec![rule(&["Gemfile"], &["'rails'", "\"rails\""], &[])],
                ),
            ),
            (
                "php_laravel".into(),
                tech(&["*.php"], vec![rule(&["routes/*.php"], &[], &[])]),
            ),
        ])
        .unwrap()
    }

    #[test]
    fn content_and_name_rules() {
        let d = detector();
        assert_eq!(
            d.check("app/main.py", "x = 'from flask import'").wanted_by,
            vec![0]
        );
        assert!(d.detected().is_empty(), "the pattern must start a line");
        d.check("app/main.py", "import os\nfrom flask import Flask\n");
        assert_eq!(d.detected(), vec![0]);
        d.check("Gemfile", "gem 'rails', '~> 7.1'");
        assert_eq!(d.detected(), vec![0, 1]);
    }

    #[test]
    fn matching_techs_ignores_what_was_already_detected() {
        let d = detector();
        d.check("app/main.py", "from flask import Flask\n");
        assert_eq!(d.detected(), vec![0]);
        assert_eq!(
            d.matching_techs("app/views.py", "from flask import Blueprint\n"),
            vec![0]
        );
        assert!(d.matching_techs("app/other.py", "import tiny\n").is_empty());
        assert_eq!(d.matching_techs("routes/web.php", ""), vec![2]);
    }

    #[test]
    fn path_globs_match_relative_paths() {
        let d = detector();
        d.check("web/routes/api.php", "");
        assert!(
            d.detected().is_empty(),
            "`routes/*.php` is anchored at the base"
        );
        d.check("routes/api.php", "");
        assert_eq!(d.detected(), vec![2]);
    }

    #[test]
    fn a_rule_regex_compiles_only_when_a_file_meets_its_globs() {
        let d = detector();
        let flask = d.rules.iter().find(|r| r.tech == 0).unwrap();
        let lazy = flask.regex.as_ref().unwrap();
        d.check("Gemfile", "gem 'rails'");
        d.check("routes/api.php", "");
        assert!(lazy.set.get().is_none(), "no Python file seen yet");
        d.check("app/main.py", "import os\n");
        assert!(lazy.set.get().is_some_and(|s| s.is_some()));
        assert!(d.detected().iter().all(|&t| t != 0));
    }

    #[test]
    fn invalid_regex_names_the_tech() {
        let err = Detector::new(&[("x_y".into(), tech(&[], vec![rule(&["*"], &[], &["("])]))])
            .err()
            .unwrap();
        assert!(err.contains("x_y"), "{err}");
    }
}
