//! `--ai-context` end to end: every context the tool emits on every
//! fixture tree (and the examples) validates against
//! `docs/schemas/ai_context.schema.json`; the `tests/fixtures-ai/` cases
//! match their `expected.json` exactly (`-b app -f json --no-log
//! --ai-context` plus the lines of an optional `args` file, run from the
//! case directory); an endpoint without facts has no `ai_context` key; and
//! without the flag no analyzer-provided fact reaches the report.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn portolan(cwd: &Path) -> Command {
    static DIRS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    let (cache, plugins) = DIRS.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests");
        let cache = base.join("cache");
        let plugins = base.join("no-user-plugins");
        fs::create_dir_all(&cache).unwrap();
        fs::create_dir_all(&plugins).unwrap();
        (cache, plugins)
    });
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_portolan"));
    cmd.current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", plugins)
        .env_remove("PORTOLAN_MAX_FILE_SIZE");
    cmd
}

fn bless() -> bool {
    std::env::var_os("PORTOLAN_BLESS").is_some()
}

fn run_case(case: &Path, extra: &[&str]) -> Output {
    let mut cmd = portolan(case);
    cmd.args(["-b", "app", "--no-log"]).args(extra);
    if let Ok(args) = fs::read_to_string(case.join("args")) {
        cmd.args(args.lines().map(str::trim).filter(|l| !l.is_empty()));
    }
    cmd.output().expect("run portolan")
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn schema() -> jsonschema::Validator {
    let text = fs::read_to_string(repo().join("docs/schemas/ai_context.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::new(&schema).expect("a valid draft 2020-12 schema")
}

/// Case directories: `<root>/<group>/<case>/app` (tests/fixtures) or
/// `<root>/<case>/app` (tests/fixtures-ai).
fn cases(root: &Path, depth: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(root).into_iter().flatten().flatten() {
        let p = entry.path();
        if depth == 1 {
            if p.join("app").is_dir() {
                out.push(p);
            }
        } else {
            out.extend(cases(&p, depth - 1));
        }
    }
    out.sort();
    out
}

fn ai_cases() -> Vec<PathBuf> {
    cases(&repo().join("tests/fixtures-ai"), 1)
}

/// Validate every `ai_context` of a report; returns how many there were.
fn validate(report: &Value, validator: &jsonschema::Validator, label: &str) -> usize {
    let mut n = 0;
    for e in report["endpoints"].as_array().unwrap() {
        let Some(ctx) = e.get("ai_context") else {
            continue;
        };
        n += 1;
        let errors: Vec<String> = validator
            .iter_errors(ctx)
            .map(|err| format!("{} at {}", err, err.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{label}: {} {}: {errors:#?}\n{ctx:#}",
            e["method"],
            e["url"]
        );
        // Snippets are `N: code | N+1: code`, at most 240 characters.
        for bucket in ctx.as_object().unwrap().values() {
            for entry in bucket.as_array().unwrap() {
                if let Some(s) = entry.get("snippet").and_then(Value::as_str) {
                    assert!(s.chars().count() <= 240, "{label}: {s}");
                    let first = s.split(": ").next().unwrap();
                    assert!(first.parse::<u32>().is_ok(), "{label}: {s}");
                }
            }
        }
    }
    n
}

#[test]
fn every_context_on_every_fixture_validates_against_the_schema() {
    let validator = schema();
    let root = repo();
    let mut dirs: Vec<(PathBuf, String)> = cases(&root.join("tests/fixtures"), 2)
        .into_iter()
        .chain(ai_cases())
        .map(|c| (c, "app".to_string()))
        .collect();
    for ex in fs::read_dir(root.join("examples")).unwrap().flatten() {
        dirs.push((
            root.clone(),
            format!("examples/{}", ex.file_name().to_string_lossy()),
        ));
    }
    // One directory's (endpoints, contexts, failures); in parallel.
    let check = |(dir, base): &(PathBuf, String)| {
        let (mut endpoints, mut contexts) = (0, 0);
        let mut failures = Vec::new();
        for format in ["json", "jsonl", "yaml", "toml"] {
            if format != "json" && !dir.ends_with("flask-shop") {
                continue;
            }
            let mut cmd = portolan(dir);
            cmd.args(["-b", base, "--no-log", "--ai-context", "-f", format]);
            if let Ok(args) = fs::read_to_string(dir.join("args")) {
                cmd.args(args.lines().map(str::trim).filter(|l| !l.is_empty()));
            }
            let out = cmd.output().unwrap();
            // Exit 4 (a plugin failed on a deliberately broken fixture) still
            // writes a report.
            if !matches!(out.status.code(), Some(0) | Some(4)) {
                failures.push(format!("{}: {:?}", dir.display(), out.status.code()));
                continue;
            }
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let report: Value = match format {
                "json" => json(&out),
                "jsonl" => {
                    let eps: Vec<Value> = text
                        .lines()
                        .map(|l| serde_json::from_str(l).unwrap())
                        .collect();
                    serde_json::json!({ "endpoints": eps })
                }
                "yaml" => serde_yaml::from_str(&text).unwrap(),
                _ => serde_json::to_value(toml::from_str::<toml::Value>(&text).unwrap()).unwrap(),
            };
            let label = format!("{} ({format})", dir.join(base).display());
            endpoints += report["endpoints"].as_array().unwrap().len();
            contexts += validate(&report, &validator, &label);
        }
        (endpoints, contexts, failures)
    };
    let (mut endpoints, mut contexts) = (0, 0);
    let mut failures = Vec::new();
    for (e, c, f) in common::par_map(&dirs, check) {
        endpoints += e;
        contexts += c;
        failures.extend(f);
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // `route_definition` applies to every endpoint: each one has a context.
    assert_eq!(contexts, endpoints, "every endpoint gets a context");
    assert!(contexts > 500, "only {contexts} contexts");
}

#[test]
fn fixtures_ai_match_exactly() {
    let cases = ai_cases();
    assert!(cases.len() >= 3);
    let mut failures = Vec::new();
    for case in &cases {
        let out = run_case(case, &["-f", "json", "--ai-context"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let actual = json(&out);
        let golden = case.join("expected.json");
        if bless() {
            fs::write(
                &golden,
                serde_json::to_string_pretty(&actual).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        let expected: Value = serde_json::from_str(&fs::read_to_string(&golden).unwrap()).unwrap();
        if actual != expected {
            failures.push(format!(
                "{} differs:\n{}",
                golden.display(),
                serde_json::to_string_pretty(&actual).unwrap()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn endpoint<'a>(report: &'a Value, method: &str, url: &str) -> &'a Value {
    report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["method"] == method && e["url"] == url)
        .unwrap_or_else(|| panic!("{method} {url} missing"))
}

#[test]
fn an_endpoint_without_facts_has_no_ai_context_key() {
    let case = repo().join("tests/fixtures-ai/flask-shop");
    let report = json(&run_case(&case, &["-f", "json", "--ai-context=guards"]));
    let guarded = endpoint(&report, "DELETE", "/admin/users/<int:user_id>");
    let ctx = guarded["ai_context"].as_object().unwrap();
    assert_eq!(
        ctx.keys().collect::<Vec<_>>(),
        vec!["guards", "untrusted_fields"]
    );
    for (method, url) in [
        ("POST", "/orders/<int:order_id>/cancel"),
        ("GET", "/search"),
    ] {
        let e = endpoint(&report, method, url).as_object().unwrap();
        assert!(!e.contains_key("ai_context"), "{method} {url}: {e:?}");
    }
    // A bucket list is case-insensitive; `callee` selects `callees`.
    let report = json(&run_case(
        &case,
        &["-f", "json", "--ai-context=CALLEE,Sinks"],
    ));
    let search = endpoint(&report, "GET", "/search")["ai_context"]
        .as_object()
        .unwrap();
    assert_eq!(
        search.keys().collect::<Vec<_>>(),
        vec!["callees", "sinks", "untrusted_fields"]
    );
    let out = run_case(&case, &["--ai-context=sinks,nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown bucket `nope`"));
}

#[test]
fn without_the_flag_no_fact_reaches_the_report() {
    // The Flask analyzer returns guards and callees for these handlers;
    // the host drops them, and runs only the default taggers.
    let case = repo().join("tests/fixtures-ai/flask-shop");
    for format in ["json", "jsonl", "yaml", "toml", "plain"] {
        let out = run_case(&case, &["-f", format]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("ai_context"), "{format}: {text}");
        assert!(!text.contains("login_required"), "{format}: {text}");
    }
}

#[test]
fn plain_shows_a_compact_context() {
    let case = repo().join("tests/fixtures-ai/flask-shop");
    let out = run_case(&case, &["--ai-context"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("DELETE /admin/users/"))
        .take_while(|l| !l.starts_with("POST "))
        .collect();
    assert_eq!(
        block,
        vec![
            "DELETE /admin/users/<int:user_id> auth admin",
            "  guards (2): auth_guard: login_required, authz_guard: roles_required(\"admin\")",
            "  callees (1): db.delete_user",
            "  sources (1): path.user_id",
            "  signals (6): route_definition, technology, state_change, path_param, identifier_input, admin",
        ],
        "{text}"
    );
}
