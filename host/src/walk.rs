//! Stage 1: walk the base paths and read each candidate file exactly once.
//!
//! Rules (see docs/architecture.md): symlinks are never followed; the usual
//! dependency, build and tool directories are pruned by name; `--exclude-path`
//! globs match base-relative paths; `.portolanignore` files use gitignore
//! syntax; media/archive files, files over the size cap and binary files
//! (see [`looks_binary`]: many NUL or control bytes in the first 8 KiB, not
//! a stray one) are skipped; invalid UTF-8 is replaced. Minified bundles
//! (see [`crate::bundle`]) are skipped unless `--include-bundles`.
//! Unreadable files are reported and skipped, never fatal.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};

use crate::log;

/// Directories pruned by name anywhere in the tree.
pub const EXCLUDED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".idea",
    ".vscode",
    ".claude",
    "node_modules",
    "vendor",
    "__pycache__",
    ".venv",
    "venv",
    ".pytest_cache",
    ".tox",
    ".mypy_cache",
    ".ruff_cache",
    ".gradle",
    ".bundle",
    ".dart_tool",
    ".cargo",
    ".terraform",
    ".zig-cache",
    "zig-cache",
    ".zig-out",
    "zig-out",
    "dist",
    "build",
    "target",
    "out",
    "tmp",
    ".cache",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".parcel-cache",
    ".serverless",
    ".expo",
    "coverage",
    ".coverage",
    "Pods",
    "__MACOSX",
];

/// Extensions that never hold routes (media, archives, office documents,
/// compiled artefacts).
pub const SKIPPED_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "bmp", "ico", "webp", "svg", "tif", "tiff", "psd", "heic", "mp3",
    "mp4", "m4a", "wav", "ogg", "flac", "avi", "mov", "mkv", "webm", "zip", "gz", "tgz", "bz2",
    "xz", "7z", "rar", "tar", "jar", "war", "ear", "whl", "egg", "pdf", "doc", "docx", "xls",
    "xlsx", "ppt", "pptx", "odt", "ods", "woff", "woff2", "ttf", "otf", "eot", "class", "pyc",
    "pyo", "o", "a", "so", "dylib", "dll", "exe", "bin", "wasm", "cwasm", "lock", "map",
];

/// Default size cap for a file (10 MiB), overridable with
/// `PORTOLAN_MAX_FILE_SIZE` (bytes, or with a `K`/`M`/`G` suffix).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// A base path as given on the command line.
#[derive(Clone, Debug)]
pub struct Base {
    /// The path to walk.
    pub root: PathBuf,
    /// The normalised spelling used as display prefix (`./app/` → `app`).
    pub display: String,
}

impl Base {
    pub fn new(arg: &str) -> Base {
        Base {
            root: PathBuf::from(arg),
            display: normalize_display(arg),
        }
    }

    /// Display path of a file below this base.
    pub fn display_path(&self, relative: &str) -> String {
        if self.display.is_empty() || self.display == "." {
            relative.to_string()
        } else if self.display.ends_with('/') {
            format!("{}{relative}", self.display)
        } else {
            format!("{}/{relative}", self.display)
        }
    }
}

/// `./app/` → `app`, `a//b/./c/` → `a/b/c`, `/` stays `/`, `.` stays `.`.
fn normalize_display(arg: &str) -> String {
    let arg = arg.replace('\\', "/");
    let absolute = arg.starts_with('/');
    let parts: Vec<&str> = arg
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, true) => "/".into(),
        (true, false) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

/// A file kept for detection and analysis.
#[derive(Debug)]
pub struct SourceFile {
    /// Index of the base it was found under (`usize::MAX` for a `--spec`
    /// document).
    pub base: usize,
    /// Path below the base, `/`-separated.
    pub relative: String,
    /// Base display path joined with `relative`.
    pub display: String,
    /// Content, UTF-8 (invalid bytes replaced).
    pub content: String,
    /// What the `keep` callback returned for this file (the technologies
    /// whose analyzers want it).
    pub wanted_by: Vec<usize>,
}

/// Why a file was not read.
#[derive(Debug, Default, Clone)]
pub struct SkipCounts {
    pub too_large: usize,
    pub binary: usize,
    pub unreadable: usize,
    pub symlinks: usize,
    pub media: usize,
    /// Minified bundles (by name or by content), see [`crate::bundle`].
    pub bundles: usize,
    /// The files `--strict` reports: skipped for their size, binary
    /// content (only files named like source code: a `.py` full of NULs,
    /// not a database) or a read error, or read with invalid UTF-8
    /// replaced. In path order.
    pub files: Vec<crate::model::SkippedFile>,
}

pub struct WalkOptions<'a> {
    pub bases: &'a [Base],
    pub exclude: &'a GlobSet,
    pub max_file_size: u64,
    pub threads: usize,
    /// Read and analyze minified bundles too (`--include-bundles`).
    pub include_bundles: bool,
}

/// Build the `--exclude-path` matcher (globs on base-relative paths).
pub fn exclude_globs(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        builder.add(GlobBuilder::new(p).literal_separator(false).build()?);
        // `dir/` or `dir` also excludes everything below it.
        let trimmed = p.trim_end_matches('/');
        builder.add(
            GlobBuilder::new(&format!("{trimmed}/**"))
                .literal_separator(false)
                .build()?,
        );
    }
    builder.build()
}

/// The size cap from `PORTOLAN_MAX_FILE_SIZE`, if set and valid.
pub fn max_file_size_from_env() -> Result<u64, String> {
    let Some(raw) = std::env::var_os("PORTOLAN_MAX_FILE_SIZE") else {
        return Ok(DEFAULT_MAX_FILE_SIZE);
    };
    let raw = raw.to_string_lossy().trim().to_ascii_uppercase();
    let (num, mult) = match raw.trim_end_matches('B').chars().last() {
        Some('K') => (&raw[..raw.trim_end_matches('B').len() - 1], 1024),
        Some('M') => (&raw[..raw.trim_end_matches('B').len() - 1], 1024 * 1024),
        Some('G') => (
            &raw[..raw.trim_end_matches('B').len() - 1],
            1024 * 1024 * 1024,
        ),
        _ => (raw.trim_end_matches('B'), 1),
    };
    let bytes = num
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| {
            format!("PORTOLAN_MAX_FILE_SIZE must be a size like 5M or 1048576, not `{raw}`")
        })?;
    crate::limits::max_file_size(bytes).map_err(|e| format!("PORTOLAN_MAX_FILE_SIZE {e}"))
}

fn is_skipped_extension(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    SKIPPED_EXTENSIONS.iter().any(|ext| {
        lower.len() > ext.len()
            && lower.ends_with(ext)
            && lower.as_bytes()[lower.len() - ext.len() - 1] == b'.'
    })
}

/// Walk every base in parallel. `keep` is called for each readable text file
/// with its relative path and content (the detector runs inside it, so each
/// file is read once) and returns who wants the file; a file nobody wants is
/// not retained.
pub fn walk<F>(opts: &WalkOptions, keep: F) -> (Vec<SourceFile>, SkipCounts)
where
    F: Fn(usize, &str, &str) -> Vec<usize> + Sync,
{
    let kept = Mutex::new(Vec::new());
    let counts = Mutex::new(SkipCounts::default());
    for (base_idx, base) in opts.bases.iter().enumerate() {
        let root = base.root.clone();
        let mut builder = WalkBuilder::new(&root);
        builder
            .follow_links(false)
            .hidden(false)
            .ignore(false)
            .git_ignore(false)
            .git_global(false)
            .git_exclude(false)
            .parents(false)
            .require_git(false)
            .add_custom_ignore_filename(".portolanignore")
            .threads(opts.threads.max(1));
        let exclude = opts.exclude.clone();
        let filter_root = root.clone();
        builder.filter_entry(move |entry| {
            if entry.depth() == 0 {
                return true;
            }
            let name = entry.file_name().to_string_lossy();
            if entry.file_type().is_some_and(|t| t.is_dir())
                && EXCLUDED_DIRS.contains(&name.as_ref())
            {
                return false;
            }
            if !exclude.is_empty() {
                if let Ok(rel) = entry.path().strip_prefix(&filter_root) {
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    if exclude.is_match(&rel) {
                        return false;
                    }
                }
            }
            true
        });
        let keep = &keep;
        let kept = &kept;
        let counts = &counts;
        let root = &root;
        builder.build_parallel().run(|| {
            Box::new(move |entry| {
                let entry = match entry {
                    Ok(e) => e,
                    Err(err) => {
                        report_walk_error(&err);
                        bump(counts, |c| c.unreadable += 1);
                        return WalkState::Continue;
                    }
                };
                let Some(file_type) = entry.file_type() else {
                    return WalkState::Continue;
                };
                if file_type.is_symlink() {
                    log::debug(format!(
                        "skipping symlink {} (symlinks are not followed)",
                        entry.path().display()
                    ));
                    bump(counts, |c| c.symlinks += 1);
                    return WalkState::Continue;
                }
                if !file_type.is_file() {
                    return WalkState::Continue;
                }
                let path = entry.path();
                let name = entry.file_name().to_string_lossy();
                if is_skipped_extension(&name) {
                    bump(counts, |c| c.media += 1);
                    return WalkState::Continue;
                }
                if !opts.include_bundles && crate::bundle::by_name(&name) {
                    log::debug(format!(
                        "skipping minified bundle {} (by its name; --include-bundles analyzes it)",
                        path.display()
                    ));
                    bump(counts, |c| c.bundles += 1);
                    return WalkState::Continue;
                }
                let judge = (!opts.include_bundles).then_some(name.as_ref());
                let relative = path
                    .strip_prefix(root)
                    .unwrap_or(path)
                    .to_string_lossy()
                    .replace('\\', "/");
                let display = || opts.bases[base_idx].display_path(&relative);
                let note = |reason: &str, detail: String| {
                    let file = crate::model::SkippedFile {
                        path: display(),
                        reason: reason.to_string(),
                        detail,
                    };
                    bump(counts, |c| c.files.push(file));
                };
                match read_text(path, opts.max_file_size, judge) {
                    Ok((content, lossy)) => {
                        if lossy {
                            note(
                                "encoding",
                                "not valid UTF-8: read with invalid bytes replaced".into(),
                            );
                        }
                        let wanted_by = keep(base_idx, &relative, &content);
                        if !wanted_by.is_empty() {
                            let file = SourceFile {
                                base: base_idx,
                                display: display(),
                                relative,
                                content,
                                wanted_by,
                            };
                            if let Ok(mut v) = kept.lock() {
                                v.push(file);
                            }
                        }
                    }
                    Err(Skip::TooLarge(size)) => {
                        log::debug(format!(
                            "skipping {} ({size} bytes, over the size cap)",
                            path.display()
                        ));
                        bump(counts, |c| c.too_large += 1);
                        note("size", too_large(size, opts.max_file_size));
                    }
                    Err(Skip::Binary) => {
                        log::debug(format!("skipping binary file {}", path.display()));
                        bump(counts, |c| c.binary += 1);
                        if crate::paths::has_source_extension(&name) {
                            note(
                                "binary",
                                "binary content in a file named like source code".into(),
                            );
                        }
                    }
                    Err(Skip::Bundle(why)) => {
                        log::debug(format!(
                            "skipping minified bundle {} ({why}; --include-bundles analyzes it)",
                            path.display()
                        ));
                        bump(counts, |c| c.bundles += 1);
                    }
                    Err(Skip::Io(err)) => {
                        log::warn(format!(
                            "cannot read {}: {err}; skipping it",
                            path.display()
                        ));
                        bump(counts, |c| c.unreadable += 1);
                        let reason = if err.kind() == std::io::ErrorKind::PermissionDenied {
                            "permissions"
                        } else {
                            "unreadable"
                        };
                        note(reason, err.to_string());
                    }
                }
                WalkState::Continue
            })
        });
    }
    let mut files = kept.into_inner().unwrap_or_default();
    files.sort_by(|a, b| (a.base, &a.relative).cmp(&(b.base, &b.relative)));
    let mut counts = counts.into_inner().unwrap_or_default();
    counts.files.sort_by(|a, b| a.path.cmp(&b.path));
    (files, counts)
}

fn bump(counts: &Mutex<SkipCounts>, f: impl FnOnce(&mut SkipCounts)) {
    if let Ok(mut c) = counts.lock() {
        f(&mut c);
    }
}

fn report_walk_error(err: &ignore::Error) {
    match err {
        ignore::Error::Loop { child, .. } => {
            log::warn(format!("symlink loop at {}; skipping it", child.display()))
        }
        other => log::warn(format!("cannot walk: {other}; skipping that entry")),
    }
}

enum Skip {
    TooLarge(u64),
    Binary,
    Bundle(String),
    Io(std::io::Error),
}

/// Read one file the way the walk does (size cap, binary check, invalid
/// UTF-8 replaced), with the reason when it is not read.
pub fn read_file(path: &Path, max: u64) -> Result<String, String> {
    read_text(path, max, None)
        .map(|(text, _)| text)
        .map_err(|e| match e {
            Skip::TooLarge(n) => too_large(n, max),
            Skip::Binary => "a binary file".into(),
            Skip::Bundle(why) => format!("a minified bundle ({why})"),
            Skip::Io(e) => e.to_string(),
        })
}

/// Why a file over the size cap is not read.
fn too_large(size: u64, max: u64) -> String {
    format!("{size} bytes, over the {max}-byte cap (raise PORTOLAN_MAX_FILE_SIZE)")
}

/// Whether the first bytes of a file look binary: more than one in 16 of
/// them are NUL or control bytes other than tab, line feed, form feed,
/// carriage return and escape. Executables, archives, databases, compiled
/// code and UTF-16 text are well above that; a source file with a stray NUL
/// (which must not hide its routes) is far below.
pub fn looks_binary(head: &[u8]) -> bool {
    let odd = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | 0x1b))
        .count();
    odd > 0 && odd * 16 > head.len()
}

/// Read a text file; `judge` names a file to check for a minified bundle
/// (from the bytes just read, before they are decoded).
/// Also says whether invalid UTF-8 was replaced.
fn read_text(path: &Path, max: u64, judge: Option<&str>) -> Result<(String, bool), Skip> {
    let meta = std::fs::metadata(path).map_err(Skip::Io)?;
    if meta.len() > max {
        return Err(Skip::TooLarge(meta.len()));
    }
    let bytes = std::fs::read(path).map_err(Skip::Io)?;
    if bytes.len() as u64 > max {
        return Err(Skip::TooLarge(bytes.len() as u64));
    }
    if looks_binary(&bytes[..bytes.len().min(8192)]) {
        return Err(Skip::Binary);
    }
    if let Some(why) = judge.and_then(|name| crate::bundle::by_content(name, &bytes)) {
        return Err(Skip::Bundle(why));
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn scan(dir: &Path, exclude: &[String], max: u64) -> (Vec<SourceFile>, SkipCounts) {
        let bases = vec![Base::new(&dir.to_string_lossy())];
        let exclude = exclude_globs(exclude).unwrap();
        let opts = WalkOptions {
            bases: &bases,
            exclude: &exclude,
            max_file_size: max,
            threads: 2,
            include_bundles: false,
        };
        walk(&opts, |_, _, _| vec![0])
    }

    fn rels(files: &[SourceFile]) -> Vec<&str> {
        files.iter().map(|f| f.relative.as_str()).collect()
    }

    #[test]
    fn display_paths_are_normalised() {
        assert_eq!(Base::new("./app/").display_path("main.py"), "app/main.py");
        assert_eq!(Base::new(".").display_path("main.py"), "main.py");
        assert_eq!(Base::new("a//b/./c/").display_path("x"), "a/b/c/x");
        assert_eq!(Base::new("/srv/app").display_path("x"), "/srv/app/x");
    }

    #[test]
    fn prunes_skips_and_reads_once() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("src/node_modules/x")).unwrap();
        fs::create_dir_all(d.join("build")).unwrap();
        fs::create_dir_all(d.join("gen")).unwrap();
        fs::write(d.join("src/app.py"), "print('hi')").unwrap();
        fs::write(d.join("src/node_modules/x/index.js"), "x").unwrap();
        fs::write(d.join("build/out.py"), "x").unwrap();
        fs::write(d.join("gen/api.py"), "x").unwrap();
        fs::write(d.join("logo.png"), "x").unwrap();
        fs::write(d.join("blob.dat"), b"ab\0cd").unwrap();
        fs::write(d.join("big.txt"), vec![b'a'; 2048]).unwrap();
        fs::write(d.join("latin1.py"), b"name = '\xe9t\xe9'").unwrap();
        let (files, counts) = scan(d, &["gen".into()], 1024);
        assert_eq!(rels(&files), vec!["latin1.py", "src/app.py"]);
        assert_eq!(files[0].content, "name = '\u{fffd}t\u{fffd}'");
        assert_eq!(counts.binary, 1);
        assert_eq!(counts.too_large, 1);
        assert_eq!(counts.media, 1);
    }

    #[test]
    fn minified_bundles_are_skipped_unless_included() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mut min = String::from("/*! lib | MIT */\n");
        min.push_str(&"var a=function(b){return b.get(\"/x\")};".repeat(4000));
        fs::write(d.join("app.js"), "router.get('/a', h);\n").unwrap();
        fs::write(d.join("scalar.standalone.js"), &min).unwrap();
        fs::write(d.join("lib.min.js"), "var a=1;").unwrap();
        fs::write(d.join("spec.json"), &min).unwrap();
        let bases = vec![Base::new(&d.to_string_lossy())];
        let exclude = exclude_globs(&[]).unwrap();
        let mut opts = WalkOptions {
            bases: &bases,
            exclude: &exclude,
            max_file_size: 1 << 24,
            threads: 2,
            include_bundles: false,
        };
        let (files, counts) = walk(&opts, |_, _, _| vec![0]);
        assert_eq!(rels(&files), vec!["app.js", "spec.json"]);
        assert_eq!(counts.bundles, 2);
        opts.include_bundles = true;
        let (files, counts) = walk(&opts, |_, _, _| vec![0]);
        assert_eq!(
            rels(&files),
            vec!["app.js", "lib.min.js", "scalar.standalone.js", "spec.json"]
        );
        assert_eq!(counts.bundles, 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_stray_nul_does_not_make_a_source_file_binary() {
        let mut py = b"from flask import Flask\napp = Flask(__name__)\n# \0\n".to_vec();
        py.extend(b"@app.route('/hidden')\ndef h():\n    return 'x'\n".repeat(20));
        assert!(!looks_binary(&py));
        assert!(looks_binary(b"ab\0cd"));
        assert!(looks_binary(
            b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0>\0"
        ));
        let utf16: Vec<u8> = "def f(): pass\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(looks_binary(&utf16));
        assert!(!looks_binary(b""));
        assert!(!looks_binary("print('\x1b[31mred')\n".as_bytes()));
    }

    #[test]
    fn symlinks_are_not_followed_and_loops_do_not_hang() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(outside.path().join("secret.py"), "x").unwrap();
        fs::create_dir_all(d.join("a")).unwrap();
        fs::write(d.join("a/ok.py"), "x").unwrap();
        std::os::unix::fs::symlink(d, d.join("a/loop")).unwrap();
        std::os::unix::fs::symlink(outside.path(), d.join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.py"), d.join("s.py")).unwrap();
        let (files, counts) = scan(d, &[], 1 << 20);
        assert_eq!(rels(&files), vec!["a/ok.py"]);
        assert_eq!(counts.symlinks, 3);
    }

    #[cfg(unix)]
    #[test]
    fn unreadable_files_are_skipped() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("locked.py");
        fs::write(&f, "x").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o000)).unwrap();
        if fs::read(&f).is_ok() {
            return; // running as root: permissions are not enforced
        }
        let (files, counts) = scan(dir.path(), &[], 1 << 20);
        assert!(files.is_empty());
        assert_eq!(counts.unreadable, 1);
        // `--strict` lists it as a permissions problem.
        assert_eq!(counts.files.len(), 1);
        assert_eq!(counts.files[0].reason, "permissions");
    }
}
