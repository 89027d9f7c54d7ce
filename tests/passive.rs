//! The passive scan (`-P`, docs/passive.md) end to end through the real
//! binary: the default rules against true and false positives
//! (`tests/fixtures-passive`), the severity threshold, rule directories and
//! their warnings, technology scope, what a scanned tree's config may set,
//! and the findings in plain, SARIF and markdown output.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn fixture() -> PathBuf {
    repo().join("tests/fixtures-passive")
}

/// Runs portolan in `cwd` with the suite's shared plugin cache and no user
/// config, plugins or rules.
fn portolan_in(cwd: &Path, args: &[&str]) -> Output {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests");
    let config = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-passive-config");
    for d in [
        base.join("cache"),
        base.join("no-user-plugins"),
        config.clone(),
    ] {
        fs::create_dir_all(d).unwrap();
    }
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .current_dir(cwd)
        .args(args)
        .env("PORTOLAN_CACHE_DIR", base.join("cache"))
        .env("PORTOLAN_PLUGIN_DIR", base.join("no-user-plugins"))
        .env("PORTOLAN_CONFIG_DIR", &config)
        .env_remove("PORTOLAN_MAX_FILE_SIZE")
        .env_remove("NO_COLOR")
        .output()
        .expect("run portolan")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_of(o: &Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            stderr(o)
        )
    })
}

/// `(severity, id, file, line)` of each finding.
fn findings(report: &Value) -> Vec<(String, String, String, u64)> {
    report["passive_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["info"]["severity"].as_str().unwrap().to_string(),
                p["id"].as_str().unwrap().to_string(),
                p["file_path"].as_str().unwrap().to_string(),
                p["line_number"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn default_rules_find_the_true_positives_and_nothing_else() {
    let out = portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "-P",
            "--passive-scan-severity",
            "low",
            "-f",
            "json",
            "--no-log",
        ],
    );
    let report = json_of(&out);
    let expected: Value =
        serde_json::from_str(&fs::read_to_string(fixture().join("expected.json")).unwrap())
            .unwrap();
    assert_eq!(
        report["passive_results"],
        expected,
        "got {:#?}",
        findings(&report)
    );
    // The false positives of the fixture stay quiet: the AWS documentation
    // key, a Stripe test key, placeholder and environment-read passwords,
    // URLs whose password is a variable or `password`, verify=True,
    // commented-out settings, a narrowed actuator exposure.
    let lines: Vec<(String, u64)> = findings(&report)
        .into_iter()
        .map(|(_, _, f, l)| (f, l))
        .collect();
    for (file, line) in [
        ("app/conf/keys.env", 4),
        ("app/conf/keys.env", 7),
        ("app/shop/settings.py", 5),
        ("app/shop/settings.py", 6),
        ("app/shop/settings.py", 9),
        ("app/shop/settings.py", 10),
        ("app/shop/settings.py", 14),
        ("app/shop/settings.py", 15),
        ("app/shop/views.py", 7),
        ("app/deploy/legacy.php", 3),
        ("app/conf/application.properties", 3),
    ] {
        assert!(
            !lines.contains(&(file.to_string(), line)),
            "false positive at {file}:{line}"
        );
    }
    // The endpoints are still there.
    assert_eq!(report["endpoints"][0]["url"], "/orders/{pk}/");
}

#[test]
fn the_default_threshold_is_high_and_no_flag_means_no_scan() {
    let report = json_of(&portolan_in(
        &fixture(),
        &["-b", "app", "-P", "-f", "json", "--no-log"],
    ));
    let got = findings(&report);
    assert!(!got.is_empty());
    assert!(
        got.iter().all(|(s, ..)| s == "critical" || s == "high"),
        "{got:?}"
    );
    let report = json_of(&portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "--passive-scan-severity",
            "critical",
            "-f",
            "json",
            "--no-log",
        ],
    ));
    let got = findings(&report);
    assert!(!got.is_empty(), "a severity alone turns the scan on");
    assert!(got.iter().all(|(s, ..)| s == "critical"), "{got:?}");
    let report = json_of(&portolan_in(
        &fixture(),
        &["-b", "app", "-f", "json", "--no-log"],
    ));
    assert_eq!(report["passive_results"], Value::Array(Vec::new()));
}

#[test]
fn rule_directories_replace_the_defaults_and_bad_rules_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    fs::create_dir_all(rules.join("nested")).unwrap();
    fs::write(
        rules.join("nested/internal-host.yaml"),
        "id: internal-host\ninfo:\n  name: Internal host name\n  author: appsec\n  severity: low\ncategory: exposure\nmatchers-condition: and\nmatchers:\n  - type: word\n    patterns: [db.internal]\n  - type: regex\n    patterns: ['://']\n",
    )
    .unwrap();
    fs::write(
        rules.join("broken.yml"),
        "id: broken\ninfo: {severity: high}\nmatchers: [{type: regex, patterns: ['(unclosed']}]\n",
    )
    .unwrap();
    fs::write(
        rules.join("no-severity.yml"),
        "id: x\ninfo: {name: x}\nmatchers: [{type: word, patterns: [a]}]\n",
    )
    .unwrap();
    fs::write(rules.join("README.md"), "not a rule").unwrap();
    let out = portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "--passive-scan-path",
            rules.to_str().unwrap(),
            "--passive-scan-severity",
            "low",
            "-f",
            "json",
        ],
    );
    let err = stderr(&out);
    let report = json_of(&out);
    assert_eq!(
        findings(&report),
        vec![(
            "low".to_string(),
            "internal-host".to_string(),
            "app/shop/settings.py".to_string(),
            13
        )]
    );
    assert_eq!(
        report["passive_results"][0]["info"]["author"],
        serde_json::json!(["appsec"])
    );
    assert_eq!(
        report["passive_results"][0]["techs"],
        serde_json::json!(["*"])
    );
    assert!(
        err.contains("broken.yml") && err.contains("does not compile"),
        "{err}"
    );
    assert!(
        err.contains("no-severity.yml") && err.contains("severity"),
        "{err}"
    );

    // A directory without any valid rule is a warning, not a silent pass.
    let empty = dir.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let out = portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "--passive-scan-path",
            empty.to_str().unwrap(),
            "-f",
            "json",
        ],
    );
    assert!(stderr(&out).contains("no valid rule"), "{}", stderr(&out));
    assert_eq!(json_of(&out)["passive_results"], Value::Array(Vec::new()));
}

#[test]
fn a_rule_for_a_technology_reads_only_where_it_is_in_use() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("flask-only.yml"),
        "id: flask-only\ninfo: {severity: high}\ntechs: [python_flask]\nmatchers: [{type: regex, patterns: ['^DEBUG = True']}]\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("django-only.yml"),
        "id: django-only\ninfo: {severity: high}\ntechs: python_django\nmatchers: [{type: regex, patterns: ['^DEBUG = True']}]\n",
    )
    .unwrap();
    let path = dir.path().to_str().unwrap();
    let report = json_of(&portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "--passive-scan-path",
            path,
            "-f",
            "json",
            "--no-log",
        ],
    ));
    let ids: Vec<String> = findings(&report).into_iter().map(|f| f.1).collect();
    assert_eq!(ids, vec!["django-only"], "Flask is not in this tree");
    // Excluding Django drops its rule's findings too.
    let report = json_of(&portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "--passive-scan-path",
            path,
            "--exclude-techs",
            "python_django",
            "-f",
            "json",
            "--no-log",
        ],
    ));
    assert_eq!(report["passive_results"], Value::Array(Vec::new()));
}

#[test]
fn a_scanned_trees_config_can_turn_it_on_but_not_choose_rules_or_hide_findings() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    common::copy_tree(&fixture().join("app"), &tree);
    let own_rules = dir.path().join("own-rules");
    fs::create_dir_all(&own_rules).unwrap();
    fs::write(
        own_rules.join("nothing.yml"),
        "id: nothing\ninfo: {severity: critical}\nmatchers: [{type: word, patterns: [zzzz-never]}]\n",
    )
    .unwrap();
    fs::write(
        tree.join("portolan.toml"),
        format!(
            "passive_scan = true\npassive_scan_severity = \"critical\"\npassive_scan_path = {:?}\n",
            own_rules.to_str().unwrap()
        ),
    )
    .unwrap();
    let out = portolan_in(dir.path(), &["-b", "tree", "-f", "json"]);
    let err = stderr(&out);
    assert!(err.contains("`passive_scan_path` is ignored"), "{err}");
    assert!(err.contains("`passive_scan_severity` is ignored"), "{err}");
    let got = findings(&json_of(&out));
    // On (the tree asked), with the default rules at the default threshold.
    assert!(got.iter().any(|(s, ..)| s == "high"), "{got:?}");
    assert!(
        got.iter().any(|(_, id, ..)| id == "aws-access-key-id"),
        "{got:?}"
    );

    // Lowering the threshold (more findings) is allowed; turning it off is not.
    fs::write(
        tree.join("portolan.toml"),
        "passive_scan_severity = \"medium\"\n",
    )
    .unwrap();
    let got = findings(&json_of(&portolan_in(
        dir.path(),
        &["-b", "tree", "-f", "json", "--no-log"],
    )));
    assert!(got.iter().any(|(s, ..)| s == "medium"), "{got:?}");
    fs::write(tree.join("portolan.toml"), "passive_scan = false\n").unwrap();
    let out = portolan_in(dir.path(), &["-b", "tree", "-P", "-f", "json"]);
    assert!(
        stderr(&out).contains("`passive_scan` is ignored"),
        "{}",
        stderr(&out)
    );
    assert!(!findings(&json_of(&out)).is_empty());
}

#[test]
fn findings_in_plain_sarif_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    fs::create_dir_all(&tree).unwrap();
    fs::write(
        tree.join("deploy.env"),
        "TOKEN=\u{1b}[31m ghp_4fTq8ZkR2mW9xL3nB7vC1dJ6sH0gY5pA2eK8\n",
    )
    .unwrap();
    let out = portolan_in(dir.path(), &["-b", "tree", "-P", "--no-log"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        plain,
        "\nPassive results:\n[critical][github-token][secret] GitHub token\n  ├── extract: TOKEN=\\x1b[31m ghp_4fTq8ZkR2mW9xL3nB7vC1dJ6sH0gY5pA2eK8\n  └── file: tree/deploy.env:1\n"
    );

    let out = portolan_in(dir.path(), &["-b", "tree", "-P", "-f", "sarif", "--no-log"]);
    let sarif = json_of(&out);
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "github-token");
    assert_eq!(run["results"][0]["ruleId"], "github-token");
    assert_eq!(run["results"][0]["level"], "error");
    assert_eq!(
        run["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );

    let out = portolan_in(
        dir.path(),
        &["-b", "tree", "-P", "-f", "markdown-table", "--no-log"],
    );
    let md = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        md.contains("| critical | github-token | secret | tree/deploy.env:1 |"),
        "{md}"
    );

    let out = portolan_in(dir.path(), &["-b", "tree", "-P", "-f", "html", "--no-log"]);
    let html = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(html.contains("<h2>Passive findings</h2>"), "{html}");
    assert!(
        html.contains("<td>critical</td><td title=\"A GitHub personal access, OAuth, app or refresh token.\">github-token</td>"),
        "{html}"
    );
    assert!(
        !html.contains('\u{1b}'),
        "control characters are not passed through"
    );
}

#[test]
fn auto_update_is_refused_with_a_reason() {
    let out = portolan_in(
        &fixture(),
        &["-b", "app", "-P", "--passive-scan-auto-update"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("never downloads"), "{}", stderr(&out));
    let out = portolan_in(
        &fixture(),
        &["-b", "app", "-P", "--passive-scan-severity", "urgent"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("critical, high, medium or low"));
    let out = portolan_in(
        &fixture(),
        &[
            "-b",
            "app",
            "-P",
            "--passive-scan-no-update-check",
            "-f",
            "json",
            "--no-log",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}
