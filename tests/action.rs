//! The GitHub Action (`action.yml`), its entry script (`scripts/action`) and
//! the container image (`Dockerfile`): what can be exercised without GitHub
//! or a container engine. The entry script runs for real against a copy of
//! the bundled example; the action and the Dockerfile are checked for the
//! shape their users rely on.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod common;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn example_copy(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("portolan-action")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    common::copy_tree(&repo().join("examples/flask-shop"), &dir);
    dir
}

fn entry(workspace: &Path, inputs: &[(&str, &str)]) -> (std::process::Output, String) {
    let out_file = workspace.join("github-output.txt");
    let _ = fs::remove_file(&out_file);
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests/cache");
    let mut cmd = Command::new(repo().join("scripts/action"));
    cmd.current_dir(workspace)
        .env("PORTOLAN_BIN", env!("CARGO_BIN_EXE_portolan"))
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("GITHUB_OUTPUT", &out_file);
    for (k, v) in inputs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run scripts/action");
    (out, fs::read_to_string(&out_file).unwrap_or_default())
}

#[test]
fn entry_script_scans_the_workspace_into_sarif() {
    let ws = example_copy("sarif");
    let (out, github_output) = entry(&ws, &[("INPUT_ARGS", "--no-log")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(github_output, "report=portolan.sarif\n");
    let log: Value =
        serde_json::from_str(&fs::read_to_string(ws.join("portolan.sarif")).unwrap()).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() >= 10, "{} results", results.len());
    let uri = &results[0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(uri["uriBaseId"], "%SRCROOT%");
    assert!(!uri["uri"].as_str().unwrap().starts_with('/'), "{uri}");
}

#[test]
fn entry_script_passes_inputs_as_data_and_several_base_paths() {
    let ws = example_copy("inputs");
    fs::create_dir_all(ws.join("second")).unwrap();
    fs::write(
        ws.join("second/extra.py"),
        "from flask import Flask\napp = Flask(__name__)\n\n@app.route(\"/second\")\ndef second():\n    return \"\"\n",
    )
    .unwrap();
    let (out, github_output) = entry(
        &ws,
        &[
            ("INPUT_BASE_PATH", "shop\nsecond\n"),
            ("INPUT_FORMAT", "json"),
            ("INPUT_OUTPUT", "report $(touch pwned).json"),
            ("INPUT_ARGS", "--no-log\n--exclude-techs   oas3"),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(github_output, "report=report $(touch pwned).json\n");
    assert!(!ws.join("pwned").exists(), "an input ran as shell code");
    let report: Value =
        serde_json::from_str(&fs::read_to_string(ws.join("report $(touch pwned).json")).unwrap())
            .unwrap();
    let urls: Vec<&str> = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["url"].as_str().unwrap())
        .collect();
    assert!(urls.contains(&"/second"), "{urls:?}");
    assert!(urls.iter().any(|u| u.starts_with("/api/v1/")), "{urls:?}");
    // `--exclude-techs oas3` reached portolan: no endpoint comes only
    // from the OpenAPI document at the example's root (not scanned here
    // anyway), and the scan still succeeded with the split arguments.
    assert!(urls.len() >= 10, "{urls:?}");
}

#[test]
fn entry_script_fails_with_portolans_status_when_no_report_is_written() {
    let ws = example_copy("fails");
    let (out, github_output) = entry(
        &ws,
        &[
            ("INPUT_FORMAT", "no-such-format"),
            ("INPUT_ARGS", "--no-log"),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(github_output.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("::error::portolan wrote no report"));
}

#[test]
fn action_metadata_declares_the_documented_inputs_and_runs_the_entry_script() {
    let action: serde_yaml::Value =
        serde_yaml::from_str(&fs::read_to_string(repo().join("action.yml")).unwrap()).unwrap();
    for input in ["base-path", "format", "output", "args", "upload-sarif"] {
        assert!(
            action["inputs"][input]["description"].as_str().is_some(),
            "input {input}"
        );
    }
    assert_eq!(action["inputs"]["format"]["default"], "sarif");
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(runs
        .iter()
        .any(|r| r.contains("$GITHUB_ACTION_PATH/scripts/action")));
    assert!(runs
        .iter()
        .any(|r| r.contains("cargo +1.95.0 install --locked --path")));
    // Inputs reach the script through the environment, never inside a
    // `run:` line where the workflow would splice them into shell code.
    for r in &runs {
        assert!(!r.contains("${{ inputs."), "input spliced into shell: {r}");
    }
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("an upload step");
    assert!(upload["if"]
        .as_str()
        .unwrap()
        .contains("inputs.upload-sarif == 'true'"));
}

#[test]
fn dockerfile_is_multi_stage_non_root_and_builds_what_ci_builds() {
    let text = fs::read_to_string(repo().join("Dockerfile")).unwrap();
    let from: Vec<&str> = text.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(from.len(), 2, "a build stage and a small final stage");
    assert!(from[0].contains("rust:1.95") && from[0].ends_with(" AS build"));
    assert!(from[1].contains("-slim"));
    let final_stage = &text[text.rfind("\nFROM ").unwrap()..];
    assert!(final_stage
        .contains("COPY --from=build /build/target/release/portolan /usr/local/bin/portolan"));
    let user = final_stage
        .lines()
        .find_map(|l| l.strip_prefix("USER "))
        .expect("a USER line");
    assert!(
        !user.starts_with('0') && !user.starts_with("root"),
        "{user}"
    );
    assert!(final_stage.contains("ENTRYPOINT [\"portolan\"]"));
    assert!(text.contains("rustup target add wasm32-wasip2"));
    assert!(text.contains("cargo build --release --locked -p portolan"));
    // `--locked` needs a lock file that matches the manifests: the same
    // check the image build makes, without building.
    let status = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--locked",
            "--offline",
            "--format-version",
            "1",
            "--no-deps",
        ])
        .current_dir(repo())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(
        status.success(),
        "Cargo.lock is out of date: the image build would fail"
    );
    let ignore = fs::read_to_string(repo().join(".dockerignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l.trim() == "target"),
        "the build context would carry target/"
    );
}
