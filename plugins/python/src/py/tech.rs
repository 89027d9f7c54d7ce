//! What every framework analyzer of this plugin repeats: its technology
//! (`*.py` files, detected by an import of the framework) and the map step's
//! "skip test code, scan, record the module fact when it holds anything".

use portolan_plugin_sdk::prelude::*;
use serde::Serialize;

/// A Python framework technology over `*.py` files, detected by a line
/// `from <package>… import …` or `import <package>`.
pub fn python_tech(id: &str, framework: &str, aliases: &[&str], package: &str) -> Tech {
    Tech::new(id, "Python", framework)
        .aliases(aliases.iter().copied())
        .files(["*.py"])
        .detect(Detect::files(["*.py"]).regex([format!(
            r"^\s*(from\s+{package}\b.*\bimport\b|import\s+{package}\b)"
        )]))
}

/// [`python_tech`] under the usual names: id `python_<package>`, aliases
/// `<package>` and `python-<package>`.
pub fn package_tech(package: &str, framework: &str) -> Tech {
    python_tech(
        &format!("python_{package}"),
        framework,
        &[package, &format!("python-{package}")],
        package,
    )
}

/// The map step of a module-fact analyzer: test code is skipped; otherwise
/// `scan` the file and record the module when `keep` says it matters.
pub fn record<M: Serialize>(
    file: &SourceFile,
    out: &mut Output,
    scan: impl FnOnce(&SourceFile) -> M,
    keep: impl FnOnce(&M) -> bool,
) {
    if is_test_path(&file.path) {
        return;
    }
    let module = scan(file);
    if keep(&module) {
        out.fact(&module);
    }
}

/// A module-fact analyzer in the usual layout (`scan::scan` maps a file to
/// a module fact, recorded unless `is_empty()`; `link::link` joins every
/// recorded `$module`): the unit struct `$name` with technology `$tech`.
macro_rules! module_analyzer {
    ($name:ident, $module:ty, $tech:expr) => {
        pub struct $name;

        impl Analyzer for $name {
            fn tech(&self) -> Tech {
                $tech
            }

            fn analyze(&self, file: &SourceFile, out: &mut Output) {
                $crate::py::tech::record(file, out, scan::scan, |m| !m.is_empty());
            }

            fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
                let modules: Vec<$module> = facts.all();
                Ok(link::link(&modules))
            }
        }
    };
}
pub(crate) use module_analyzer;
