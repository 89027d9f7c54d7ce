//! `portolan diff` end to end: two versions of a small Flask app
//! (`tests/fixtures-diff/{old,new}`), compared as trees and as JSON reports,
//! with goldens for every format (`tests/golden/diff/changes.<format>`;
//! `PORTOLAN_BLESS=1` rewrites them) and `--fail-on` both ways.

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
    repo().join("tests/fixtures-diff")
}

fn portolan(args: &[&str]) -> Output {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests");
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .current_dir(fixture())
        .env("PORTOLAN_CACHE_DIR", tmp.join("cache"))
        .env("PORTOLAN_PLUGIN_DIR", tmp.join("no-user-plugins"))
        .env("PORTOLAN_CONFIG_DIR", tmp.join("no-user-config"))
        .output()
        .expect("run portolan")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn goldens_in_every_format() {
    let bless = std::env::var_os("PORTOLAN_BLESS").is_some();
    for format in ["plain", "json", "markdown", "sarif"] {
        let got = stdout(&portolan(&["diff", "old", "new", "-f", format]));
        let golden = repo().join(format!("tests/golden/diff/changes.{format}"));
        if bless {
            fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e} (PORTOLAN_BLESS=1 writes it)", golden.display()));
        pretty_assertions::assert_eq!(got, want, "-f {format}");
    }
}

#[test]
fn the_changes_are_the_real_ones() {
    let v: Value =
        serde_json::from_str(&stdout(&portolan(&["diff", "old", "new", "-f", "json"]))).unwrap();
    let list = |k: &str| -> Vec<String> {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|e| {
                format!(
                    "{} {}",
                    e["method"].as_str().unwrap(),
                    e["url"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(list("added"), ["GET /admin/stats", "POST /export"]);
    assert_eq!(list("removed"), ["GET /legacy/report"]);
    assert_eq!(
        list("changed"),
        ["DELETE /items/<int:item_id>", "GET /items"]
    );
    assert_eq!(v["added"][0]["authenticated"], true);
    assert_eq!(v["added"][1]["authenticated"], false);
    assert_eq!(
        v["changed"][0]["guards_removed"][0],
        "auth_guard:login_required"
    );
    assert_eq!(v["changed"][1]["params_added"][0], "query:sort");
    assert_eq!(v["summary"]["added_unauthenticated"], 1);
}

#[test]
fn reports_compare_like_trees() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-diff");
    fs::create_dir_all(&dir).unwrap();
    for side in ["old", "new"] {
        let report = stdout(&portolan(&[
            "-b",
            side,
            "-f",
            "json",
            "--no-log",
            "--ai-context",
        ]));
        fs::write(dir.join(format!("{side}.json")), report).unwrap();
    }
    let (old, new) = (dir.join("old.json"), dir.join("new.json"));
    let from_reports = stdout(&portolan(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
    ]));
    assert_eq!(from_reports, stdout(&portolan(&["diff", "old", "new"])));
    // A report compared with the tree it came from: no change.
    assert_eq!(
        stdout(&portolan(&["diff", new.to_str().unwrap(), "new"])),
        "0 added, 0 removed, 0 changed\n"
    );
}

#[test]
fn fail_on_both_ways() {
    for (cond, status) in [
        ("added-unauthenticated", 6),
        ("guard-removed", 6),
        ("removed", 6),
        ("any", 6),
    ] {
        let out = portolan(&["diff", "old", "new", "--fail-on", cond]);
        assert_eq!(out.status.code(), Some(status), "{cond}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(cond),
            "{cond}"
        );
        assert!(!out.stdout.is_empty(), "the diff is still printed");
    }
    // The same tree twice: nothing to fail on.
    let same = portolan(&[
        "diff",
        "new",
        "new",
        "--fail-on",
        "any,added,removed,changed",
    ]);
    assert_eq!(same.status.code(), Some(0));
    // Backwards, the DELETE route gains its guard: no guard was removed.
    let guarded = portolan(&["diff", "new", "old", "--fail-on", "guard-removed"]);
    assert_eq!(guarded.status.code(), Some(0));
}

#[test]
fn bad_inputs_are_clear_errors() {
    let missing = portolan(&["diff", "old", "nowhere.json"]);
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("nowhere.json") && err.contains("JSON report"),
        "{err}"
    );
    let not_report = portolan(&["diff", "old", "old/app/app.py"]);
    assert_eq!(not_report.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&not_report.stderr).contains("not a JSON report"));
    let bad_flag = portolan(&["diff", "old", "new", "--fail-on", "everything"]);
    assert_eq!(bad_flag.status.code(), Some(2));
}
