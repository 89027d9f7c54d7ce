//! `portolan plugin new`: scaffold a plugin that builds and passes its tests.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::*;
use crate::cli::PluginLang;
use crate::error::Failure;

/// The Rust scaffold: a crate on portolan-plugin-sdk.
const RUST_TEMPLATE: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("../plugin/template/Cargo.toml.tmpl"),
    ),
    (
        ".gitignore",
        include_str!("../plugin/template/gitignore.tmpl"),
    ),
    (
        "README.md",
        include_str!("../plugin/template/README.md.tmpl"),
    ),
    ("src/lib.rs", include_str!("../plugin/template/lib.rs.tmpl")),
    (
        "tests/fixtures.rs",
        include_str!("../plugin/template/fixtures.rs.tmpl"),
    ),
];

/// The Python scaffold: analyzer.py, the interface, a build script.
const PYTHON_TEMPLATE: &[(&str, &str)] = &[
    (
        "analyzer.py",
        include_str!("../plugin/template/analyzer.py.tmpl"),
    ),
    ("build.sh", include_str!("../plugin/template/build.sh.tmpl")),
    (
        ".gitignore",
        include_str!("../plugin/template/gitignore.python.tmpl"),
    ),
    (
        "README.md",
        include_str!("../plugin/template/README.python.md.tmpl"),
    ),
    ("wit/analyzer.wit", crate::plugin::INTERFACE_WIT),
];

/// The C scaffold: analyzer.c, the interface, a build script, and the
/// helper that makes C bindings and the component (the one
/// examples/plugins/build.sh builds the C example with).
const C_TEMPLATE: &[(&str, &str)] = &[
    (
        "analyzer.c",
        include_str!("../plugin/template/analyzer.c.tmpl"),
    ),
    (
        "build.sh",
        include_str!("../plugin/template/build.c.sh.tmpl"),
    ),
    (
        ".gitignore",
        include_str!("../plugin/template/gitignore.c.tmpl"),
    ),
    (
        "README.md",
        include_str!("../plugin/template/README.c.md.tmpl"),
    ),
    ("wit/analyzer.wit", crate::plugin::INTERFACE_WIT),
    (
        "tools/componentize/Cargo.toml",
        include_str!("../../../examples/plugins/tools/componentize/Cargo.toml"),
    ),
    (
        "tools/componentize/Cargo.lock",
        include_str!("../../../examples/plugins/tools/componentize/Cargo.lock"),
    ),
    (
        "tools/componentize/src/main.rs",
        include_str!("../../../examples/plugins/tools/componentize/src/main.rs"),
    ),
];

/// The fixture every scaffold passes (the same framework in each language).
const FIXTURE_TEMPLATE: &[(&str, &str)] = &[
    (
        "tests/fixtures/{{tech}}/basic/app/server.py",
        include_str!("../plugin/template/server.py.tmpl"),
    ),
    (
        "tests/fixtures/{{tech}}/basic/app/tests/test_server.py",
        include_str!("../plugin/template/test_server.py.tmpl"),
    ),
    (
        "tests/fixtures/{{tech}}/basic/expected.json",
        include_str!("../plugin/template/expected.json.tmpl"),
    ),
];

/// componentize-py version the Python scaffold's build.sh installs (the
/// one examples/plugins/build.sh uses).
const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// `to` as a path relative to the directory `from` (both absolute), so a
/// scaffold can be moved together with its vendored SDK.
pub(super) fn relative_to(from: &Path, to: &Path) -> PathBuf {
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

pub(super) fn new(
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
        None if lang == PluginLang::Python => (String::new(), "componentize-py".to_string()),
        None if lang == PluginLang::C => (String::new(), "clang for wasm32-wasi".to_string()),
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
        PluginLang::C => C_TEMPLATE,
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
    if lang != PluginLang::Rust {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("build.sh");
        let _ = std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755));
    }
    let next = match lang {
        PluginLang::Rust => "cargo test\n  cargo build --release --target wasm32-wasip2\n  portolan plugin test . --fixtures tests/fixtures".to_string(),
        PluginLang::Python | PluginLang::C => format!("./build.sh\n  portolan plugin test {module}.wasm --fixtures tests/fixtures"),
    };
    let what = match lang {
        PluginLang::Rust => "plugin crate",
        PluginLang::Python => "Python plugin",
        PluginLang::C => "C plugin",
    };
    print(&format!(
        "Created {what} `{name}` in {} (technology `{tech}`; {sdk_label}):\n  {}\n\nNext:\n  cd {}\n  {next}\n",
        dir.display(),
        written.join("\n  "),
        dir.display()
    ));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_placeholders_are_all_filled() {
        for (rel, content) in RUST_TEMPLATE
            .iter()
            .chain(PYTHON_TEMPLATE)
            .chain(C_TEMPLATE)
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
