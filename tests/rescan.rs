//! Incremental rescans through the real binary: the results cache
//! (`$PORTOLAN_CACHE_DIR/results`) gives the report a cold scan gives,
//! re-runs only what a change can affect, survives damaged entries, stays
//! off with `--no-cache`, and writes nowhere a scanned tree could choose.
//! (Cold = warm over every fixture case: `tests/scan.rs`,
//! `fixture_reports_match_exactly`; over the corpus: `scripts/corpus`.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A cache directory of this test's own, kept between runs for the
/// compiled plugins; its results are removed first, so the test starts
/// cold.
fn cache_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("portolan-rescan")
        .join(test);
    let _ = fs::remove_dir_all(dir.join("results"));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn no_user_plugins() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-rescan-no-user-plugins");
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `portolan -b app -f json --no-log --stats ARGS` in `cwd`.
fn scan(cwd: &Path, cache: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .current_dir(cwd)
        .env("PORTOLAN_CACHE_DIR", cache)
        .env("PORTOLAN_PLUGIN_DIR", no_user_plugins())
        .env_remove("PORTOLAN_RESULTS_CACHE_MIB")
        .env_remove("PORTOLAN_MAX_FILE_SIZE")
        .args(["-b", "app", "-f", "json", "--no-log", "--stats"])
        .args(args)
        .output()
        .expect("run portolan");
    assert!(
        out.status.success(),
        "exit {:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// (batches reused, analyzed, stored) from `--stats`.
fn cache_stats(out: &Output) -> (usize, usize, usize) {
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("[stats] results cache: "))
        .unwrap_or_else(|| panic!("no results cache line in:\n{err}"));
    let n: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

fn endpoints(out: &Output) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["endpoints"]
        .as_array()
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
}

/// A Flask app of `n` blueprint modules, registered under prefixes in
/// `app/__init__.py`: enough files for several batches, and every route's
/// URL depends on another file.
fn flask_tree(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    fs::create_dir_all(app.join("views")).unwrap();
    let mut init = String::from("from flask import Flask\n\napp = Flask(__name__)\n\n");
    for i in 0..n {
        init.push_str(&format!("from .views.m{i} import bp as bp{i}\n"));
    }
    init.push('\n');
    for i in 0..n {
        init.push_str(&format!(
            "app.register_blueprint(bp{i}, url_prefix=\"/v1/m{i}\")\n"
        ));
    }
    fs::write(app.join("__init__.py"), init).unwrap();
    for i in 0..n {
        fs::write(
            app.join(format!("views/m{i}.py")),
            format!(
                "from flask import Blueprint, request\n\nbp = Blueprint(\"m{i}\", __name__)\n\n\n\
                 @bp.route(\"/items\")\ndef items():\n    page = request.args.get(\"page\")\n    return \"ok\"\n\n\n\
                 @bp.route(\"/items/<int:item_id>\", methods=[\"PUT\"])\ndef put(item_id):\n    return request.json[\"name\"]\n"
            ),
        )
        .unwrap();
    }
    dir
}

/// Scan cold (results removed) and compare with `warm`, byte for byte.
fn assert_same_as_cold(tree: &Path, cache: &Path, warm: &Output) {
    fs::remove_dir_all(cache.join("results")).unwrap();
    let cold = scan(tree, cache, &[]);
    assert_eq!(cache_stats(&cold).0, 0, "the cold scan reused nothing");
    assert_eq!(
        String::from_utf8_lossy(&warm.stdout),
        String::from_utf8_lossy(&cold.stdout),
        "the warm report differs from a cold scan"
    );
}

#[test]
fn a_change_reruns_only_its_batches_and_link_sees_it() {
    let cache = cache_dir("change");
    let tree = flask_tree(150);
    let first = scan(tree.path(), &cache, &[]);
    let (reused, analyzed, stored) = cache_stats(&first);
    assert_eq!(reused, 0);
    assert!(analyzed >= 3, "several batches: {analyzed}");
    assert_eq!(stored, analyzed);
    assert!(endpoints(&first).contains(&"GET /v1/m7/items".to_string()));

    // Unchanged: everything reused, the same bytes.
    let warm = scan(tree.path(), &cache, &[]);
    assert_eq!(cache_stats(&warm), (analyzed, 0, 0));
    assert_eq!(warm.stdout, first.stdout);

    // A route file changes: only its batch runs again.
    let view = tree.path().join("app/views/m7.py");
    let text = fs::read_to_string(&view).unwrap();
    fs::write(&view, text.replace("\"/items\")", "\"/things\")")).unwrap();
    let changed = scan(tree.path(), &cache, &[]);
    let (reused, again, _) = cache_stats(&changed);
    assert!(again >= 1 && again < analyzed / 2, "{again} of {analyzed}");
    assert!(reused > 0);
    let eps = endpoints(&changed);
    assert!(eps.contains(&"GET /v1/m7/things".to_string()), "{eps:?}");
    assert!(!eps.contains(&"GET /v1/m7/items".to_string()), "{eps:?}");
    assert_same_as_cold(tree.path(), &cache, &changed);

    // The prefixes change in another file: the route files' batches are
    // reused, and link applies the new prefix to their cached facts.
    let init = tree.path().join("app/__init__.py");
    let text = fs::read_to_string(&init).unwrap();
    fs::write(&init, text.replace("\"/v1/m", "\"/v2/m")).unwrap();
    let moved = scan(tree.path(), &cache, &[]);
    let (reused, again, _) = cache_stats(&moved);
    assert!(
        reused > 0 && again < analyzed / 2,
        "{reused} reused, {again} analyzed"
    );
    let eps = endpoints(&moved);
    assert!(eps.contains(&"GET /v2/m7/things".to_string()), "{eps:?}");
    assert!(
        eps.contains(&"PUT /v2/m149/items/{item_id}".to_string())
            || eps.iter().any(|e| e.starts_with("PUT /v2/m149/items/")),
        "{eps:?}"
    );
    assert!(!eps.iter().any(|e| e.contains("/v1/")), "{eps:?}");
    assert_same_as_cold(tree.path(), &cache, &moved);

    // A file added and one removed: the same as a cold scan.
    fs::remove_file(tree.path().join("app/views/m3.py")).unwrap();
    fs::write(
        tree.path().join("app/extra.py"),
        "from flask import Flask\napp = Flask(__name__)\n\n@app.route(\"/extra\")\ndef extra():\n    return \"\"\n",
    )
    .unwrap();
    let edited = scan(tree.path(), &cache, &[]);
    assert!(cache_stats(&edited).0 > 0);
    assert_same_as_cold(tree.path(), &cache, &edited);
}

#[test]
fn damaged_entries_are_misses() {
    let cache = cache_dir("damaged");
    let tree = flask_tree(60);
    let first = scan(tree.path(), &cache, &[]);
    let entries: Vec<PathBuf> = fs::read_dir(cache.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(entries.len() >= 2, "{entries:?}");
    // One truncated, one with a flipped byte, one swapped for another's
    // content (a foreign entry under the wrong name), one emptied.
    let bytes = fs::read(&entries[0]).unwrap();
    fs::write(&entries[0], &bytes[..bytes.len() / 2]).unwrap();
    let mut flipped = fs::read(&entries[1]).unwrap();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x20;
    fs::write(&entries[1], flipped).unwrap();
    if entries.len() >= 4 {
        fs::copy(&entries[3], &entries[2]).unwrap();
        fs::write(&entries[3], b"").unwrap();
    }
    let damaged = entries.len().min(4);
    let second = scan(tree.path(), &cache, &[]);
    let (reused, analyzed, stored) = cache_stats(&second);
    assert_eq!(analyzed, damaged, "each damaged entry analyzed again");
    assert_eq!(stored, damaged, "and written again");
    assert_eq!(reused, entries.len() - damaged);
    assert_eq!(second.stdout, first.stdout);
    // Garbage in place of every entry: a full cold scan, same report.
    for e in &entries {
        fs::write(e, b"PTLNRC01 not really an entry").unwrap();
    }
    let third = scan(tree.path(), &cache, &[]);
    assert_eq!(cache_stats(&third).0, 0);
    assert_eq!(third.stdout, first.stdout);
}

#[test]
fn no_cache_reads_and_writes_nothing() {
    let cache = tempfile::tempdir().unwrap();
    let tree = flask_tree(3);
    let out = scan(tree.path(), cache.path(), &["--no-cache"]);
    assert!(!endpoints(&out).is_empty());
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("results cache"),
        "no cache line with --no-cache"
    );
    let written: Vec<_> = fs::read_dir(cache.path()).unwrap().collect();
    assert!(written.is_empty(), "{written:?}");
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_hostile_tree_chooses_nothing_about_the_cache() {
    let cache = cache_dir("hostile");
    let tree = flask_tree(2);
    let app = tree.path().join("app");
    // A config of the tree's own asking for the cache elsewhere, paths
    // that look like traversal, a file named like an entry, and a file
    // whose content is a well-formed-looking entry.
    fs::write(
        app.join("portolan.toml"),
        "no_cache = false\ncache_dir = \"/tmp/portolan-hostile-cache\"\n",
    )
    .unwrap();
    fs::create_dir_all(app.join("..%2f..%2fetc")).unwrap();
    fs::write(
        app.join("..%2f..%2fetc/routes.py"),
        "from flask import Flask\napp = Flask(__name__)\n\n@app.route(\"/odd\")\ndef odd():\n    return \"\"\n",
    )
    .unwrap();
    fs::write(app.join(format!("{}.bin", "0".repeat(64))), b"PTLNRC01").unwrap();
    let before = files_under(tree.path());
    let first = scan(tree.path(), &cache, &[]);
    let second = scan(tree.path(), &cache, &[]);
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(
        files_under(tree.path()),
        before,
        "nothing written in the tree"
    );
    assert!(!Path::new("/tmp/portolan-hostile-cache").exists());
    let entries = files_under(&cache.join("results"));
    assert!(!entries.is_empty());
    for name in &entries {
        let hex = name
            .strip_suffix(".bin")
            .unwrap_or_else(|| panic!("{name}"));
        assert!(
            hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            "entry names come from hashes only: {name}"
        );
    }
    // `portolan cache clear` empties it.
    let out = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .env("PORTOLAN_CACHE_DIR", &cache)
        .args(["cache", "clear"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("{} cached analyzer results", entries.len())),
        "{said}"
    );
    assert!(!cache.join("results").exists());
}

#[test]
fn a_file_read_through_read_file_invalidates_the_batch() {
    // The OpenAPI analyzer follows `$ref` into a file no analyzer is
    // given (`read-file`): the batch is keyed on the document only, so the
    // entry records the read and is dropped when that file changes.
    let cache = cache_dir("read-file");
    let tree = tempfile::tempdir().unwrap();
    let app = tree.path().join("app");
    fs::create_dir_all(&app).unwrap();
    fs::write(
        app.join("openapi.yaml"),
        "openapi: 3.0.0\ninfo: {title: t, version: \"1\"}\npaths:\n  /items:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema:\n              $ref: './shared.txt#/Item'\n      responses: {\"200\": {description: ok}}\n",
    )
    .unwrap();
    let schema = |field: &str| {
        format!("Item:\n  type: object\n  properties:\n    {field}: {{type: string}}\n")
    };
    fs::write(app.join("shared.txt"), schema("name")).unwrap();
    let first = scan(tree.path(), &cache, &[]);
    assert_eq!(cache_stats(&first), (0, 1, 1));
    assert!(String::from_utf8_lossy(&first.stdout).contains("\"name\":\"name\""));
    let warm = scan(tree.path(), &cache, &[]);
    assert_eq!(cache_stats(&warm), (1, 0, 0));
    fs::write(app.join("shared.txt"), schema("title")).unwrap();
    let changed = scan(tree.path(), &cache, &[]);
    assert_eq!(cache_stats(&changed).0, 0, "the read file changed");
    assert!(String::from_utf8_lossy(&changed.stdout).contains("\"name\":\"title\""));
    assert_same_as_cold(tree.path(), &cache, &changed);
}
