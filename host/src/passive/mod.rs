//! Passive scan (`-P`): YAML rules matched line by line against every file
//! the walk reads (secrets, debug switches, dangerous settings, default
//! credentials), reported as `passive_results`. docs/passive.md has the rule
//! format and the default set.
//!
//! The scan runs inside the walk, on the contents the walk has already read
//! (each file is read once). A rule limited to some technologies reads only
//! the files those technologies' analyzers would read, and its findings are
//! kept only when one of them is in use (detected, or chosen with `-t`).
//!
//! Where rules come from: the embedded default set plus the user's
//! `<config dir>/passive_rules/` (the directory of the user config file), or,
//! when `--passive-scan-path` names directories, only those. Rules are
//! data, never code; a rule file that does not parse, or a regex that does
//! not compile, is a warning naming the file, and the rule is not used; a
//! rules directory with no valid rule is a warning (a scan that ran no rules
//! is not a clean result). A config file inside the scanned tree cannot add
//! rule directories or raise the severity threshold (docs/security.md).

mod defaults;
mod rule;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::model::{PassiveFinding, Severity};
use rule::Rule;

/// The severity threshold when none is given.
pub const DEFAULT_SEVERITY: Severity = Severity::High;

/// Longest extract kept, in characters (a minified line can be megabytes).
pub const MAX_EXTRACT: usize = 300;
/// Largest rule file read, in bytes.
const MAX_RULE_FILE: u64 = 1 << 20;
/// Most rule files read from the rule directories, and how deep they go.
const MAX_RULE_FILES: usize = 10_000;
const MAX_RULE_DEPTH: usize = 16;

/// What the command line and the config files asked for.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rule directories (or files); empty = the defaults.
    pub paths: Vec<PathBuf>,
    /// Findings below this severity are dropped.
    pub severity: Severity,
    /// The user's own rules directory, read with the defaults.
    pub user_dir: Option<PathBuf>,
}

/// The rules in use, ready to run on files.
pub struct Scanner {
    rules: Vec<Rule>,
    /// Per rule, the catalog indexes of its technologies (empty when it
    /// reads every file).
    techs: Vec<Vec<usize>>,
    hits: Mutex<Vec<Hit>>,
}

struct Hit {
    rule: usize,
    file_path: String,
    line: usize,
    extract: String,
    /// The technologies whose analyzers read this file.
    wanted_by: Vec<usize>,
}

/// Loads the rules. Returns the warnings to log (bad files, empty
/// directories, unknown technologies); an error only when nothing can run.
pub fn load(
    settings: &Settings,
    resolve_tech: impl Fn(&str) -> Option<usize>,
) -> (Scanner, Vec<String>) {
    let mut warnings = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    let add = |rule: Rule, rules: &mut Vec<Rule>| {
        // A later rule with the same id replaces the earlier one, so a
        // user rule can override a default one.
        rules.retain(|r| r.id != rule.id);
        rules.push(rule);
    };
    if settings.paths.is_empty() {
        for (name, text) in defaults::RULES {
            match Rule::parse(text) {
                Ok(r) => add(r, &mut rules),
                Err(e) => warnings.push(format!("default passive rule {name}: {e}")),
            }
        }
        if let Some(dir) = settings.user_dir.as_deref().filter(|d| d.is_dir()) {
            for r in read_dir_rules(dir, &mut warnings) {
                add(r, &mut rules);
            }
        }
    } else {
        for path in &settings.paths {
            let found = if path.is_file() {
                read_rule_file(path, &mut warnings).into_iter().collect()
            } else if path.is_dir() {
                read_dir_rules(path, &mut warnings)
            } else {
                warnings.push(format!(
                    "--passive-scan-path {}: no such file or directory",
                    path.display()
                ));
                continue;
            };
            if found.is_empty() {
                warnings.push(format!(
                    "--passive-scan-path {}: no valid rule (*.yml or *.yaml); the passive scan runs without it",
                    path.display()
                ));
            }
            for r in found {
                add(r, &mut rules);
            }
        }
    }
    rules.retain(|r| r.info.severity >= settings.severity);
    let techs = rules
        .iter()
        .map(|r| {
            if r.all_files() {
                return Vec::new();
            }
            let known: Vec<usize> = r.techs.iter().filter_map(|t| resolve_tech(t)).collect();
            if known.is_empty() {
                warnings.push(format!(
                    "passive rule {}: none of its technologies ({}) is known (see --list-techs); it reads no file",
                    r.id,
                    r.techs.join(", ")
                ));
            }
            known
        })
        .collect::<Vec<_>>();
    (
        Scanner {
            rules,
            techs,
            hits: Mutex::new(Vec::new()),
        },
        warnings,
    )
}

fn read_rule_file(path: &Path, warnings: &mut Vec<String>) -> Option<Rule> {
    let text = match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_RULE_FILE => {
            warnings.push(format!(
                "passive rule {}: larger than {} KiB, not read",
                path.display(),
                MAX_RULE_FILE / 1024
            ));
            return None;
        }
        Ok(_) => std::fs::read_to_string(path),
        Err(e) => Err(e),
    };
    match text {
        Ok(text) => match Rule::parse(&text) {
            Ok(r) => Some(r),
            Err(e) => {
                warnings.push(format!(
                    "passive rule {}: {e}; the rule is not used",
                    path.display()
                ));
                None
            }
        },
        Err(e) => {
            warnings.push(format!("passive rule {}: {e}", path.display()));
            None
        }
    }
}

/// Every `*.yml`/`*.yaml` below `dir`, in path order (symlinks not followed).
fn read_dir_rules(dir: &Path, warnings: &mut Vec<String>) -> Vec<Rule> {
    let mut files = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            warnings.push(format!("passive rules: cannot read {}", d.display()));
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() && depth < MAX_RULE_DEPTH {
                stack.push((path, depth + 1));
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "yml" || e == "yaml")
            {
                files.push(path);
            }
        }
        if files.len() > MAX_RULE_FILES {
            warnings.push(format!(
                "passive rules: more than {MAX_RULE_FILES} files below {}; the rest are not read",
                dir.display()
            ));
            break;
        }
    }
    files.sort();
    files.truncate(MAX_RULE_FILES);
    files
        .iter()
        .filter_map(|f| read_rule_file(f, warnings))
        .collect()
}

impl Scanner {
    /// How many rules run.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Matches every rule against one file the walk read. `wanted_by`:
    /// the technologies whose analyzers read the file.
    pub fn scan(&self, file_path: &str, content: &str, wanted_by: &[usize]) {
        let mut found = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let techs = &self.techs[i];
            if !rule.all_files() && !techs.iter().any(|t| wanted_by.contains(t)) {
                continue;
            }
            if !rule.may_match(content) {
                continue;
            }
            for (n, line) in content.split('\n').enumerate() {
                let line = line.strip_suffix('\r').unwrap_or(line);
                if rule.accepts(line) {
                    found.push(Hit {
                        rule: i,
                        file_path: file_path.to_string(),
                        line: n + 1,
                        extract: extract(line),
                        wanted_by: wanted_by.to_vec(),
                    });
                }
            }
        }
        if !found.is_empty() {
            if let Ok(mut hits) = self.hits.lock() {
                hits.extend(found);
            }
        }
    }

    /// The findings, in file, line and rule order. A rule limited to some
    /// technologies keeps a finding only when one of them read the file
    /// and is in use (`selected`).
    pub fn finish(self, selected: &[usize]) -> Vec<PassiveFinding> {
        let hits = self.hits.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<PassiveFinding> = hits
            .into_iter()
            .filter(|h| {
                self.rules[h.rule].all_files()
                    || self.techs[h.rule]
                        .iter()
                        .any(|t| h.wanted_by.contains(t) && selected.contains(t))
            })
            .map(|h| {
                let r = &self.rules[h.rule];
                PassiveFinding {
                    id: r.id.clone(),
                    info: r.info.clone(),
                    category: r.category.clone(),
                    techs: r.techs.clone(),
                    file_path: h.file_path,
                    line_number: h.line,
                    extract: h.extract,
                }
            })
            .collect();
        out.sort_by(|a, b| {
            (&a.file_path, a.line_number, &a.id).cmp(&(&b.file_path, b.line_number, &b.id))
        });
        out
    }
}

/// The matched line, trimmed, cut at [`MAX_EXTRACT`] characters.
fn extract(line: &str) -> String {
    crate::escape::clip(line.trim(), MAX_EXTRACT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanner(paths: Vec<PathBuf>, severity: Severity) -> (Scanner, Vec<String>) {
        let settings = Settings {
            paths,
            severity,
            user_dir: None,
        };
        load(&settings, |t| match t {
            "python_django" => Some(3),
            "python_flask" => Some(4),
            _ => None,
        })
    }

    #[test]
    fn default_rules_all_parse() {
        let (s, warnings) = scanner(Vec::new(), Severity::Low);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(s.len(), defaults::RULES.len());
    }

    #[test]
    fn every_default_rule_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("passive-rules");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("host/passive-rules")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> =
            defaults::RULES.iter().map(|(n, _)| n.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
    }

    #[test]
    fn severity_threshold_and_tech_scope() {
        let (s, _) = scanner(Vec::new(), Severity::High);
        assert!(s.rules.iter().all(|r| r.info.severity >= Severity::High));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("d.yml"),
            "id: dj\ninfo: {severity: medium}\ntechs: [python_django]\nmatchers: [{type: regex, patterns: ['^DEBUG = True']}]\n",
        )
        .unwrap();
        let (s, w) = scanner(vec![dir.path().to_path_buf()], Severity::Low);
        assert!(w.is_empty(), "{w:?}");
        s.scan("a/settings.py", "X = 1\nDEBUG = True\n", &[3]);
        s.scan("b/settings.py", "DEBUG = True\n", &[4]);
        let found = s.finish(&[3, 4]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].file_path.as_str(), found[0].line_number),
            ("a/settings.py", 2)
        );
        let (s, _) = scanner(vec![dir.path().to_path_buf()], Severity::Low);
        s.scan("a/settings.py", "DEBUG = True\n", &[3]);
        assert!(s.finish(&[4]).is_empty(), "django not in use");
    }

    #[test]
    fn bad_files_are_warnings_and_extracts_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bad.yaml"),
            "id: b\ninfo: {severity: low}\nmatchers: [{type: regex, patterns: ['(']}]\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a rule").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(
            dir.path().join("sub/ok.yml"),
            "id: ok\ninfo: {severity: low}\nmatchers: [{type: word, patterns: [token]}]\n",
        )
        .unwrap();
        let (s, w) = scanner(
            vec![dir.path().to_path_buf(), dir.path().join("missing")],
            Severity::Low,
        );
        assert_eq!(s.len(), 1);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("bad.yaml") && w[0].contains("does not compile"));
        assert!(w[1].contains("missing"));
        let long = format!("token={}", "é".repeat(1000));
        s.scan("f", &long, &[]);
        let found = s.finish(&[]);
        assert_eq!(found[0].extract.chars().count(), MAX_EXTRACT + 1);
        let empty = tempfile::tempdir().unwrap();
        let (_, w) = scanner(vec![empty.path().to_path_buf()], Severity::Low);
        assert!(w[0].contains("no valid rule"), "{w:?}");
    }
}
