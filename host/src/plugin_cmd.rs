//! `portolan plugin …` and `portolan cache clear`: managing, pinning,
//! scaffolding and testing analyzer plugins (docs/plugins.md).
//!
//! The plugin subcommands read the same config files as a scan, with the
//! current directory as the project (`./portolan.toml`, trusted: it is the
//! user's own working directory, so URL plugins may be downloaded), or the
//! `--config FILE` given; `portolan.lock` sits next to that file.
//!
//! Exit status: 0 success, 1 runtime error (including `plugin test`
//! mismatches), 2 usage or config error, a hash that does not match its
//! pin, or a difference from the lockfile.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::cli::{CacheCommand, PluginCommand, PluginLang, PluginOpts, ScanArgs};
use crate::config;
use crate::log;
use crate::pipeline::{self, Failure, Plugins};
use crate::plugin::cache::Cache;
use crate::plugin::lock::{self, Lockfile};
use crate::plugin::source::{self, Network};
use crate::plugin::{Catalog, Origin, PluginSource};
use crate::walk;

pub fn main(command: PluginCommand) -> ExitCode {
    let result = match command {
        PluginCommand::List { format, opts } => with_config(&opts, |args| list(args, &format)),
        PluginCommand::Add {
            source,
            sha256,
            opts,
        } => with_config(&opts, |args| add(args, &opts, &source, sha256.as_deref())),
        PluginCommand::Lock { opts } => with_config(&opts, lock_cmd),
        PluginCommand::Verify { opts } => with_config(&opts, verify),
        PluginCommand::New {
            name,
            dir,
            lang,
            sdk_path,
        } => {
            log::init(false, false, false);
            new(&name, dir, lang, sdk_path)
        }
        PluginCommand::Test {
            plugin,
            fixtures,
            debug,
            no_color,
        } => {
            log::init(false, debug, no_color);
            test(&plugin, &fixtures)
        }
    };
    finish(result)
}

pub fn cache(command: CacheCommand) -> ExitCode {
    log::init(false, false, false);
    finish(match command {
        CacheCommand::Clear => cache_clear(),
    })
}

fn finish(result: Result<ExitCode, Failure>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(failure) => {
            log::error(failure.message());
            ExitCode::from(failure.exit_code() as u8)
        }
    }
}

/// Resolve the config files (the current directory is the project) and run.
fn with_config(
    opts: &PluginOpts,
    run: impl FnOnce(&ScanArgs) -> Result<ExitCode, Failure>,
) -> Result<ExitCode, Failure> {
    let mut args = ScanArgs::for_plugins(opts);
    let explicit = |id: &str| match id {
        "debug" => opts.debug,
        "no_color" => opts.no_color,
        "no_log" => opts.no_log,
        "disable_builtin" => opts.disable_builtin,
        _ => false,
    };
    let files = config::apply(
        &mut args,
        &explicit,
        config::Project {
            dir: Some(Path::new("")),
            trusted: true,
        },
    );
    log::init(args.no_log, args.debug, args.no_color);
    let applied = files.map_err(Failure::Usage)?;
    for f in applied.files {
        log::info(format!("Config: {}", f.display()));
    }
    for w in applied.warnings {
        log::warn(w);
    }
    run(&args)
}

fn load(args: &ScanArgs, include_user_dir: bool) -> Result<Plugins, Failure> {
    let max = walk::max_file_size_from_env().map_err(Failure::Usage)?;
    pipeline::load_plugins_with(args, &[], max, include_user_dir)
}

fn print(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

// ------------------------------------------------------------------ list

fn list(args: &ScanArgs, format: &str) -> Result<ExitCode, Failure> {
    let json_out = match format {
        "plain" | "text" => false,
        "json" => true,
        other => {
            return Err(Failure::Usage(format!(
                "plugin list prints text (the default) or json, not {other}"
            )))
        }
    };
    let plugins = load(args, !args.locked)?;
    for e in &plugins.errors {
        log::error(&e.message);
    }
    let catalog = &plugins.catalog;
    // Which plugin serves each technology after overrides.
    let served: BTreeMap<&str, usize> = catalog
        .techs
        .iter()
        .map(|t| (t.desc.id.as_str(), t.plugin))
        .collect();
    let rows: Vec<Value> = catalog
        .plugins
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let d = &p.descriptor;
            let mut techs = Vec::new();
            let mut replaced = Vec::new();
            for t in &d.techs {
                match served.get(t.id.as_str()) {
                    Some(&by) if by != i => replaced.push(json!({
                        "id": t.id,
                        "by": catalog.plugins[by].descriptor.name,
                    })),
                    _ => techs.push(json!(t.id)),
                }
            }
            json!({
                "name": d.name,
                "version": d.version,
                "interface_version": d.interface_version,
                "builtin": p.source.origin == Origin::Builtin,
                "source": p.source.origin_label(),
                "sha256": p.source.sha256,
                "techs": techs,
                "replaced_techs": replaced,
                "settings": d.settings,
            })
        })
        .collect();
    if json_out {
        print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({ "plugins": rows })).unwrap_or_default()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for r in &rows {
        out.push_str(&format!(
            "{} {} ({}) interface {} sha256 {}\n",
            r["name"].as_str().unwrap_or(""),
            r["version"].as_str().unwrap_or(""),
            r["source"].as_str().unwrap_or(""),
            r["interface_version"].as_str().unwrap_or(""),
            r["sha256"].as_str().unwrap_or("").get(..16).unwrap_or("")
        ));
        let techs: Vec<&str> = r["techs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!("  techs: {}\n", techs.join(", ")));
        for s in r["settings"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  setting `{}` ({}): {}\n",
                crate::escape::visible(s["key"].as_str().unwrap_or("")),
                s["kind"].as_str().unwrap_or(""),
                crate::escape::visible(s["description"].as_str().unwrap_or(""))
            ));
        }
        for rep in r["replaced_techs"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  {} replaced by plugin `{}`\n",
                rep["id"].as_str().unwrap_or(""),
                rep["by"].as_str().unwrap_or("")
            ));
        }
    }
    out.push_str(&format!(
        "{} plugins, {} technologies\n",
        catalog.plugins.len(),
        catalog.techs.len()
    ));
    print(&out);
    Ok(ExitCode::SUCCESS)
}

// ------------------------------------------------------------------- add

/// The config file `plugin add` edits: `--config`, else the current
/// directory's `portolan.toml` / `.portolan.toml`, else a new
/// `./portolan.toml`.
fn target_config(opts: &PluginOpts) -> PathBuf {
    opts.config
        .clone()
        .or_else(|| config::project_config_file(Path::new("")))
        .unwrap_or_else(|| PathBuf::from("portolan.toml"))
}

fn is_url(s: &str) -> bool {
    s.starts_with("https://") || s.starts_with("http://")
}

fn add(
    args: &ScanArgs,
    opts: &PluginOpts,
    given: &str,
    sha256: Option<&str>,
) -> Result<ExitCode, Failure> {
    let expected = sha256
        .map(|h| h.trim().to_ascii_lowercase())
        .map(|h| {
            if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(h)
            } else {
                Err(Failure::Usage(format!(
                    "--sha256 must be 64 hexadecimal digits, not `{h}`"
                )))
            }
        })
        .transpose()?;
    let config_file = target_config(opts);
    let config_dir = config_file
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    // The bytes, from the store, the network or the disk.
    let (bytes, origin) = if is_url(given) {
        let stored = expected.as_deref().and_then(source::stored);
        let bytes = match stored {
            Some(b) => b,
            None if args.offline || args.locked => {
                return Err(Failure::Usage(format!(
                "{given} is not in the plugin store and --offline/--locked forbids downloading it"
            )))
            }
            None => source::download(given).map_err(Failure::Runtime)?,
        };
        (bytes, Origin::Url(given.to_string()))
    } else {
        let path = resolve_component(Path::new(given)).map_err(Failure::Usage)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| Failure::Usage(format!("cannot read plugin {}: {e}", path.display())))?;
        (bytes, Origin::File(path))
    };
    let actual = source::sha256_hex(&bytes);
    if let Some(expected) = &expected {
        if *expected != actual {
            return Err(Failure::Usage(format!(
                "plugin {given} does not have the expected sha256: expected {expected} (--sha256), got {actual}. Nothing was added; check where the file came from"
            )));
        }
    }
    // Describe it: refuses what is not a usable plugin, and names it.
    let probe = PluginSource::new(
        stem(given),
        origin.clone(),
        Arc::from(bytes.clone().into_boxed_slice()),
    );
    let mut probe_args = args.clone();
    probe_args.disable_builtin = true;
    probe_args.configured_plugins.clear();
    probe_args.plugin.clear();
    let (catalog, errors) = describe_only(&probe_args, probe)?;
    if let Some(e) = errors.first() {
        return Err(Failure::Usage(format!("{}; nothing was added", e.message)));
    }
    let Some(entry) = catalog.plugins.first() else {
        return Err(Failure::Usage(format!(
            "{given} could not be described; nothing was added"
        )));
    };
    let d = &entry.descriptor;
    let mut report = String::new();
    // Where the pinned bytes live.
    let location = match &origin {
        Origin::Url(url) => {
            let stored = source::store(&bytes).map_err(Failure::Runtime)?;
            report.push_str(&format!(
                "Downloaded {url}\n  stored as {}\n",
                stored.display()
            ));
            if expected.is_none() {
                report.push_str(&format!(
                    "  no --sha256 given: pinned the hash of what was downloaded ({actual}); compare it with the one its publisher gives\n"
                ));
            }
            ("url", url.clone())
        }
        Origin::File(path) => {
            let inside = abs(path).starts_with(abs(&config_dir));
            let kept = if inside {
                path.clone()
            } else {
                let dir = config_dir.join(".portolan").join("plugins");
                std::fs::create_dir_all(&dir).map_err(|e| {
                    Failure::Runtime(format!("cannot create {}: {e}", dir.display()))
                })?;
                let dest = dir.join(format!("{}.wasm", d.name));
                std::fs::write(&dest, &bytes).map_err(|e| {
                    Failure::Runtime(format!("cannot write {}: {e}", dest.display()))
                })?;
                report.push_str(&format!(
                    "Copied {} to {}\n",
                    path.display(),
                    dest.display()
                ));
                dest
            };
            let rel = relative_display(&kept, &config_dir);
            ("path", rel)
        }
        Origin::Builtin => unreachable_builtin()?,
    };
    let updated = write_entry(&config_file, &d.name, location.clone(), &actual)?;
    let techs: Vec<&str> = d.techs.iter().map(|t| t.id.as_str()).collect();
    report.push_str(&format!(
        "{} plugin `{}` {} (interface {}; techs: {}) in {}\n  {} = {:?}\n  sha256 = {actual}\n",
        if updated { "Updated" } else { "Added" },
        d.name,
        d.version,
        d.interface_version,
        techs.join(", "),
        config_file.display(),
        location.0,
        location.1
    ));
    let lock_path = lock::path_in(&config_dir);
    report.push_str(&if lock_path.exists() {
        format!(
            "{} is now out of date: run `portolan plugin lock` after reviewing the plugin\n",
            lock_path.display()
        )
    } else {
        "Run `portolan plugin lock` to pin every plugin for `--locked` runs (CI)\n".to_string()
    });
    print(&report);
    Ok(ExitCode::SUCCESS)
}

fn unreachable_builtin() -> Result<(&'static str, String), Failure> {
    Err(Failure::Runtime("a built-in plugin cannot be added".into()))
}

/// Describe one source with a runtime of its own (no built-ins).
fn describe_only(
    args: &ScanArgs,
    source: PluginSource,
) -> Result<(Catalog, Vec<crate::model::ScanError>), Failure> {
    let plugins = {
        let cache = if args.no_cache {
            None
        } else {
            Cache::default_dir().and_then(|d| Cache::open(d).ok())
        };
        let runtime = crate::plugin::runtime::Runtime::new(
            cache,
            crate::plugin::runtime::Limits::default(),
            crate::plugin::sandbox::Sandbox::new(&[], 0),
        )
        .map_err(|e| Failure::Runtime(format!("cannot start the WebAssembly runtime: {e}")))?;
        Catalog::build(&runtime, runtime.cache(), vec![source])
    };
    Ok(plugins)
}

fn stem(given: &str) -> String {
    let last = given
        .trim_end_matches('/')
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(given);
    last.strip_suffix(".wasm").unwrap_or(last).to_string()
}

fn abs(p: &Path) -> PathBuf {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    let a = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in a.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn relative_display(path: &Path, dir: &Path) -> String {
    let (p, d) = (abs(path), abs(dir));
    match p.strip_prefix(&d) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => p.display().to_string(),
    }
}

/// Add or update the `[[plugins]]` entry named `name`, keeping the rest of
/// the file (comments, order) as it is. Returns whether it was an update.
fn write_entry(
    file: &Path,
    name: &str,
    (key, value): (&str, String),
    sha256: &str,
) -> Result<bool, Failure> {
    use toml_edit::{value as v, ArrayOfTables, DocumentMut, Item, Table};
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(Failure::Runtime(format!(
                "cannot read {}: {e}",
                file.display()
            )))
        }
    };
    let mut doc: DocumentMut = text.parse().map_err(|e| {
        Failure::Usage(format!(
            "config file {} is not valid TOML: {e}",
            file.display()
        ))
    })?;
    let item = doc
        .entry("plugins")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    let Some(tables) = item.as_array_of_tables_mut() else {
        return Err(Failure::Usage(format!(
            "config file {}: `plugins` must be an array of tables ([[plugins]])",
            file.display()
        )));
    };
    let existing = tables
        .iter_mut()
        .find(|t| t.get("name").and_then(|n| n.as_str()) == Some(name));
    let updated = existing.is_some();
    let table = match existing {
        Some(t) => t,
        None => {
            tables.push(Table::new());
            let last = tables.len() - 1;
            match tables.get_mut(last) {
                Some(t) => t,
                None => return Err(Failure::Runtime("cannot edit the config".into())),
            }
        }
    };
    table.insert("name", v(name));
    table.remove("path");
    table.remove("url");
    table.insert(key, v(value));
    table.insert("sha256", v(sha256));
    // Check the result parses as a config before writing it.
    config::FileConfig::parse(&doc.to_string(), file).map_err(Failure::Usage)?;
    if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| Failure::Runtime(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(file, doc.to_string())
        .map_err(|e| Failure::Runtime(format!("cannot write {}: {e}", file.display())))?;
    Ok(updated)
}

// ------------------------------------------------------------------ lock

fn lock_cmd(args: &ScanArgs) -> Result<ExitCode, Failure> {
    let mut unlocked = args.clone();
    unlocked.locked = false;
    // With --locked, `lock` only checks that nothing would change (and
    // downloads nothing).
    unlocked.offline = args.offline || args.locked;
    let plugins = load(&unlocked, false)?;
    if !plugins.errors.is_empty() {
        let list: Vec<&str> = plugins.errors.iter().map(|e| e.message.as_str()).collect();
        return Err(Failure::Usage(format!(
            "cannot lock plugins that do not load; fix or remove them first:\n  {}",
            list.join("\n  ")
        )));
    }
    let lockfile = Lockfile::of(&plugins.catalog, &args.lock_dir);
    let path = lock::path_in(&args.lock_dir);
    let text = lockfile.render().map_err(Failure::Runtime)?;
    if args.locked {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != text {
            return Err(Failure::Usage(format!(
                "--locked: {} is missing or out of date; run `portolan plugin lock` (without --locked) after reviewing the plugins",
                path.display()
            )));
        }
        print(&format!("{} is up to date\n", path.display()));
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::write(&path, &text)
        .map_err(|e| Failure::Runtime(format!("cannot write {}: {e}", path.display())))?;
    let builtin = lockfile
        .plugins
        .iter()
        .filter(|p| p.source == "builtin")
        .count();
    let mut out = format!(
        "Wrote {}: {} plugins ({} built-in, {} external)\n",
        path.display(),
        lockfile.plugins.len(),
        builtin,
        lockfile.plugins.len() - builtin
    );
    for p in lockfile.plugins.iter().filter(|p| p.source != "builtin") {
        out.push_str(&format!(
            "  {} {} {} {}\n",
            p.name, p.version, p.sha256, p.source
        ));
    }
    print(&out);
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------- verify

fn verify(args: &ScanArgs) -> Result<ExitCode, Failure> {
    let net = Network {
        forbidden_by: if args.locked {
            Some("--locked")
        } else if args.offline {
            Some("--offline")
        } else {
            None
        },
    };
    let mut out = String::new();
    let mut failed = 0;
    let mut sources = Vec::new();
    for spec in &args.configured_plugins {
        let got = source::configured(std::slice::from_ref(spec), net);
        for p in got.unreadable.iter().chain(&got.mismatched) {
            failed += 1;
            out.push_str(&format!("✘ {p}\n"));
        }
        if !got.mismatched.is_empty() {
            continue;
        }
        for s in got.sources {
            let pinned = if spec.sha256.is_some() {
                format!("matches the sha256 pinned in {}", spec.file.display())
            } else {
                format!("has no sha256 in {} (not pinned)", spec.file.display())
            };
            out.push_str(&format!(
                "✔ {} ({}): sha256 {} {pinned}\n",
                s.name,
                s.origin_label(),
                s.sha256
            ));
            sources.push(s);
        }
    }
    let lock_path = lock::path_in(&args.lock_dir);
    if failed == 0 {
        match Lockfile::read(&lock_path) {
            Ok(lockfile) => {
                let mut all = if args.disable_builtin {
                    Vec::new()
                } else {
                    crate::plugin::builtin_sources()
                };
                all.extend(sources);
                let (given, errs) = crate::plugin::external_sources(&args.plugin, None);
                all.extend(given);
                for e in errs {
                    failed += 1;
                    out.push_str(&format!("✘ {}\n", e.message));
                }
                let problems = lock::check_sources(&lockfile, &lock_path, &all, &args.lock_dir);
                if problems.is_empty() {
                    out.push_str(&format!(
                        "✔ {}: all {} plugins match\n",
                        lock_path.display(),
                        lockfile.plugins.len()
                    ));
                } else {
                    for p in problems {
                        failed += 1;
                        out.push_str(&format!("✘ {p}\n"));
                    }
                }
            }
            Err(_) if !lock_path.exists() && !args.locked => out.push_str(&format!(
                "- no {}: run `portolan plugin lock` to pin every plugin for --locked runs\n",
                lock_path.display()
            )),
            Err(e) => {
                failed += 1;
                out.push_str(&format!("✘ {e}\n"));
            }
        }
    }
    print(&out);
    if failed > 0 {
        log::error(format!(
            "{failed} problem(s): a plugin does not match its pin or the lockfile"
        ));
        Ok(ExitCode::from(2))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

// ------------------------------------------------------------------- new

/// The Rust scaffold: a crate on portolan-plugin-sdk.
const RUST_TEMPLATE: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("plugin/template/Cargo.toml.tmpl"),
    ),
    (".gitignore", include_str!("plugin/template/gitignore.tmpl")),
    ("README.md", include_str!("plugin/template/README.md.tmpl")),
    ("src/lib.rs", include_str!("plugin/template/lib.rs.tmpl")),
    (
        "tests/fixtures.rs",
        include_str!("plugin/template/fixtures.rs.tmpl"),
    ),
];

/// The Python scaffold: analyzer.py, the interface, a build script.
const PYTHON_TEMPLATE: &[(&str, &str)] = &[
    (
        "analyzer.py",
        include_str!("plugin/template/analyzer.py.tmpl"),
    ),
    ("build.sh", include_str!("plugin/template/build.sh.tmpl")),
    (
        ".gitignore",
        include_str!("plugin/template/gitignore.python.tmpl"),
    ),
    (
        "README.md",
        include_str!("plugin/template/README.python.md.tmpl"),
    ),
    ("wit/analyzer.wit", crate::plugin::INTERFACE_WIT),
];

/// The fixture every scaffold passes (the same framework in each language).
const FIXTURE_TEMPLATE: &[(&str, &str)] = &[
    (
        "tests/fixtures/{{tech}}/basic/app/server.py",
        include_str!("plugin/template/server.py.tmpl"),
    ),
    (
        "tests/fixtures/{{tech}}/basic/app/tests/test_server.py",
        include_str!("plugin/template/test_server.py.tmpl"),
    ),
    (
        "tests/fixtures/{{tech}}/basic/expected.json",
        include_str!("plugin/template/expected.json.tmpl"),
    ),
];

/// componentize-py version the Python scaffold's build.sh installs (the
/// one examples/plugins/build.sh uses).
const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// `to` as a path relative to the directory `from` (both absolute), so a
/// scaffold can be moved together with its vendored SDK.
fn relative_to(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return to.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to_parts[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

fn new(
    name: &str,
    dir: Option<PathBuf>,
    lang: PluginLang,
    sdk_path: Option<PathBuf>,
) -> Result<ExitCode, Failure> {
    let valid = name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !valid {
        return Err(Failure::Usage(format!(
            "plugin name `{name}`: use lower-case letters, digits, `-` and `_`, starting with a letter (e.g. `acme-web`)"
        )));
    }
    let module = name.replace('-', "_");
    let dir = dir.unwrap_or_else(|| PathBuf::from(name));
    if dir.exists()
        && std::fs::read_dir(&dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(Failure::Usage(format!(
            "{} already exists and is not empty; choose another --dir",
            dir.display()
        )));
    }
    // A local SDK (a vendored copy, a checkout) is referenced relative to
    // the new crate; without one, the crate depends on the published SDK
    // of the interface this portolan speaks.
    let (sdk_dependency, sdk_label) = match sdk_path {
        Some(p) if lang != PluginLang::Rust => {
            return Err(Failure::Usage(format!(
                "--sdk-path {}: only the Rust scaffold uses the SDK crate",
                p.display()
            )))
        }
        None if lang != PluginLang::Rust => (String::new(), "componentize-py".to_string()),
        Some(p) if p.join("Cargo.toml").is_file() => {
            let rel = relative_to(&abs(&dir), &abs(&p));
            (
                format!(
                    "portolan-plugin-sdk = {{ path = {:?} }}",
                    rel.display().to_string().replace('\\', "/")
                ),
                format!("SDK at {}", p.display()),
            )
        }
        Some(p) => {
            return Err(Failure::Usage(format!(
                "--sdk-path {}: no Cargo.toml there; point it at a copy of portolan's plugin-sdk/ folder",
                p.display()
            )))
        }
        None => {
            let minor: Vec<&str> = crate::plugin::INTERFACE_VERSION.split('.').take(2).collect();
            let req = minor.join(".");
            (
                format!("portolan-plugin-sdk = \"{req}\""),
                format!("portolan-plugin-sdk {req} from crates.io; --sdk-path DIR uses a local copy of portolan's plugin-sdk/ instead"),
            )
        }
    };
    let framework: String = module
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    let tech = format!("python_{module}");
    let fill = |s: &str| {
        s.replace("{{name}}", name)
            .replace("{{module}}", &module)
            .replace("{{tech}}", &tech)
            .replace("{{framework}}", &framework)
            .replace("{{sdk_dependency}}", &sdk_dependency)
            .replace("{{interface_version}}", crate::plugin::INTERFACE_VERSION)
            .replace("{{componentize_py_version}}", COMPONENTIZE_PY_VERSION)
    };
    let files = match lang {
        PluginLang::Rust => RUST_TEMPLATE,
        PluginLang::Python => PYTHON_TEMPLATE,
    };
    let mut written = Vec::new();
    for (rel, content) in files.iter().chain(FIXTURE_TEMPLATE) {
        let path = dir.join(fill(rel));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                Failure::Runtime(format!("cannot create {}: {e}", parent.display()))
            })?;
        }
        std::fs::write(&path, fill(content))
            .map_err(|e| Failure::Runtime(format!("cannot write {}: {e}", path.display())))?;
        written.push(fill(rel));
    }
    #[cfg(unix)]
    if lang == PluginLang::Python {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("build.sh");
        let _ = std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755));
    }
    let next = match lang {
        PluginLang::Rust => "cargo test\n  cargo build --release --target wasm32-wasip2\n  portolan plugin test . --fixtures tests/fixtures".to_string(),
        PluginLang::Python => format!("./build.sh\n  portolan plugin test {module}.wasm --fixtures tests/fixtures"),
    };
    let what = match lang {
        PluginLang::Rust => "plugin crate",
        PluginLang::Python => "Python plugin",
    };
    print(&format!(
        "Created {what} `{name}` in {} (technology `{tech}`; {sdk_label}):\n  {}\n\nNext:\n  cd {}\n  {next}\n",
        dir.display(),
        written.join("\n  "),
        dir.display()
    ));
    Ok(ExitCode::SUCCESS)
}

// ------------------------------------------------------------------ test

/// A `.wasm` file as is; a crate directory → its built component.
fn resolve_component(given: &Path) -> Result<PathBuf, String> {
    if given.is_file() {
        return Ok(given.to_path_buf());
    }
    if !given.is_dir() {
        return Err(format!("{} does not exist", given.display()));
    }
    let manifest = given.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|_| {
        format!(
            "{} is neither a .wasm component nor a crate directory (no Cargo.toml)",
            given.display()
        )
    })?;
    let value: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", manifest.display()))?;
    let name = value
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .ok_or_else(|| format!("{} has no package name", manifest.display()))?;
    let file = format!("{}.wasm", name.replace('-', "_"));
    let mut targets = Vec::new();
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR").filter(|t| !t.is_empty()) {
        targets.push(PathBuf::from(t));
    }
    targets.push(given.join("target"));
    let mut candidates = Vec::new();
    for t in &targets {
        for profile in ["release", "debug"] {
            candidates.push(t.join("wasm32-wasip2").join(profile).join(&file));
        }
    }
    let newest = candidates
        .iter()
        .filter_map(|c| Some((std::fs::metadata(c).ok()?.modified().ok()?, c.clone())))
        .max_by_key(|(t, _)| *t);
    match newest {
        Some((built, path)) => {
            if newest_source(&given.join("src")).is_some_and(|s| s > built) {
                log::warn(format!(
                    "{} is older than the sources in {}; rebuild with `cargo build --release --target wasm32-wasip2`",
                    path.display(),
                    given.join("src").display()
                ));
            }
            Ok(path)
        }
        None => Err(format!(
            "no built component for crate `{name}`; build it with `cargo build --release --target wasm32-wasip2` in {} (looked for {})",
            given.display(),
            candidates
                .iter()
                .map(|c| c.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn newest_source(dir: &Path) -> Option<std::time::SystemTime> {
    let mut newest = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        let t = if p.is_dir() {
            newest_source(&p)
        } else {
            e.metadata().ok().and_then(|m| m.modified().ok())
        };
        newest = newest.max(t);
    }
    newest
}

/// Fixture cases below `root`: directories holding `app/` and
/// `expected.json`, one or two levels down (`F/<case>` or `F/<tech>/<case>`).
fn fixture_cases(root: &Path) -> Vec<PathBuf> {
    let is_case = |p: &Path| p.join("app").is_dir() && p.join("expected.json").is_file();
    let mut cases = Vec::new();
    if is_case(root) {
        cases.push(root.to_path_buf());
    }
    for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
        let p = e.path();
        if is_case(&p) {
            cases.push(p);
        } else if p.is_dir() {
            for e2 in std::fs::read_dir(&p).into_iter().flatten().flatten() {
                if is_case(&e2.path()) {
                    cases.push(e2.path());
                }
            }
        }
    }
    cases.sort();
    cases
}

fn test(plugin: &Path, fixtures: &Path) -> Result<ExitCode, Failure> {
    let wasm = resolve_component(plugin).map_err(Failure::Usage)?;
    let wasm = abs(&wasm);
    let cases = fixture_cases(fixtures);
    if cases.is_empty() {
        return Err(Failure::Usage(format!(
            "no fixture cases in {}: a case is a directory with app/ (the scanned tree) and expected.json (the exact report of `portolan -b app -f json --no-log`)",
            fixtures.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Runtime(format!("cannot find the portolan binary: {e}")))?;
    log::info(format!(
        "Testing {} on {} fixture cases in {}",
        wasm.display(),
        cases.len(),
        fixtures.display()
    ));
    let no_user_plugins =
        std::env::temp_dir().join(format!("portolan-no-user-plugins-{}", std::process::id()));
    let mut out = String::new();
    let mut failed = 0;
    for case in &cases {
        let label = case
            .strip_prefix(fixtures)
            .unwrap_or(case)
            .display()
            .to_string();
        let label = if label.is_empty() {
            case.display().to_string()
        } else {
            label
        };
        let mut cmd = std::process::Command::new(&exe);
        // Only the plugin under test: no built-ins, no config files, and no
        // plugins from the user plugin directory (pointed at nothing).
        cmd.current_dir(case)
            .env("PORTOLAN_PLUGIN_DIR", &no_user_plugins)
            .args(["scan", "-b", "app", "-f", "json", "--no-log", "--no-config"])
            .args(["--disable-builtin", "--plugin"])
            .arg(&wasm);
        if let Ok(extra) = std::fs::read_to_string(case.join("args")) {
            cmd.args(extra.lines().map(str::trim).filter(|l| !l.is_empty()));
        }
        let result = cmd
            .output()
            .map_err(|e| Failure::Runtime(format!("cannot run {}: {e}", exe.display())))?;
        let verdict = compare_case(case, &result);
        match verdict {
            Ok(()) => out.push_str(&format!("✔ {label}\n")),
            Err(why) => {
                failed += 1;
                out.push_str(&format!("✘ {label}\n{why}\n"));
            }
        }
    }
    out.push_str(&format!(
        "{} cases: {} passed, {failed} failed\n",
        cases.len(),
        cases.len() - failed
    ));
    print(&out);
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn compare_case(case: &Path, result: &std::process::Output) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&result.stderr);
    let actual: Value = serde_json::from_slice(&result.stdout).map_err(|e| {
        format!(
            "  portolan exited with {} and printed no JSON report ({e}):\n  {}",
            result.status,
            stderr.trim().replace('\n', "\n  ")
        )
    })?;
    let expected_path = case.join("expected.json");
    let expected: Value = std::fs::read_to_string(&expected_path)
        .map_err(|e| format!("  cannot read {}: {e}", expected_path.display()))
        .and_then(|t| {
            serde_json::from_str(&t)
                .map_err(|e| format!("  {} is not JSON: {e}", expected_path.display()))
        })?;
    if actual.get("errors").is_some() || !result.status.success() {
        return Err(format!(
            "  the plugin failed (exit {}):\n  {}",
            result.status,
            stderr.trim().replace('\n', "\n  ")
        ));
    }
    if actual == expected {
        return Ok(());
    }
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let (e, a) = (pretty(&expected), pretty(&actual));
    Err(format!(
        "  report differs from {} (- expected, + actual):\n{}",
        expected_path.display(),
        diff(&e, &a, 3)
    ))
}

/// A unified-style line diff with `context` lines around each change.
fn diff(expected: &str, actual: &str, context: usize) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    if a.len().saturating_mul(b.len()) > 16_000_000 {
        return format!("--- expected\n{expected}\n+++ actual\n{actual}");
    }
    // Longest common subsequence table, from the end.
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // (tag, line): ' ' same, '-' expected only, '+' actual only.
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, (t, _))| *t != ' ')
        .map(|(k, _)| k)
        .collect();
    let mut out = String::new();
    let mut last_shown: Option<usize> = None;
    for (k, (tag, line)) in ops.iter().enumerate() {
        let near = changed
            .iter()
            .any(|&c| k + context >= c && k <= c + context);
        if !near {
            continue;
        }
        if last_shown.is_some_and(|l| l + 1 < k) || (last_shown.is_none() && k > 0) {
            out.push_str("    …\n");
        }
        out.push_str(&format!("  {tag} {line}\n"));
        last_shown = Some(k);
    }
    out
}

// ----------------------------------------------------------------- cache

fn cache_clear() -> Result<ExitCode, Failure> {
    let Some(dir) = Cache::default_dir() else {
        return Err(Failure::Runtime(
            "no cache directory on this system; set PORTOLAN_CACHE_DIR".into(),
        ));
    };
    let mut compiled = (0usize, 0u64);
    let mut described = 0usize;
    let mut downloaded = (0usize, 0u64);
    let remove = |path: &Path, counter: &mut (usize, u64)| -> Result<(), Failure> {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        std::fs::remove_file(path)
            .map_err(|e| Failure::Runtime(format!("cannot remove {}: {e}", path.display())))?;
        counter.0 += 1;
        counter.1 += size;
        Ok(())
    };
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if !p.is_file() {
            continue;
        }
        if name.ends_with(".cwasm") || name.contains(".tmp") {
            remove(&p, &mut compiled)?;
        } else if name.ends_with(".describe.json") {
            let mut c = (0, 0);
            remove(&p, &mut c)?;
            described += c.0;
        }
    }
    if let Some(store) = source::store_dir() {
        for e in std::fs::read_dir(&store).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_file() {
                remove(&p, &mut downloaded)?;
            }
        }
        let _ = std::fs::remove_dir(&store);
    }
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    print(&format!(
        "Cleared {}: {} compiled plugins ({:.1} MiB), {} plugin descriptions, {} downloaded plugins ({:.1} MiB)\n",
        dir.display(),
        compiled.0,
        mib(compiled.1),
        described,
        downloaded.0,
        mib(downloaded.1)
    ));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_changed_lines_with_context() {
        let e = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        let a = "a\nb\nc\nd\nE\nf\ng\nh\ni\n";
        let d = diff(e, a, 1);
        assert!(d.contains("  - e\n  + E\n"), "{d}");
        assert!(d.contains("    d\n") && d.contains("    f\n"), "{d}");
        assert!(!d.contains("    a\n"), "{d}");
    }

    #[test]
    fn template_placeholders_are_all_filled() {
        for (rel, content) in RUST_TEMPLATE
            .iter()
            .chain(PYTHON_TEMPLATE)
            .chain(FIXTURE_TEMPLATE)
        {
            let filled = content
                .replace("{{name}}", "x")
                .replace("{{module}}", "x")
                .replace("{{tech}}", "x")
                .replace("{{framework}}", "x")
                .replace("{{sdk_dependency}}", "x")
                .replace("{{interface_version}}", "x")
                .replace("{{componentize_py_version}}", "x");
            assert!(!filled.contains("{{"), "{rel} has an unknown placeholder");
        }
    }
}
