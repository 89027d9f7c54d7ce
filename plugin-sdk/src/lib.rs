//! Write a portolan analyzer plugin in a few lines of Rust.
//!
//! A plugin is a `wasm32-wasip2` component that implements the
//! `portolan:analyzer` WIT world (see `wit/analyzer.wit`). This crate hides the
//! bindings: you implement [`Analyzer`] for each technology, register them with
//! [`plugin!`], and build with `cargo build --target wasm32-wasip2 --release`.
//!
//! ```no_run
//! use portolan_plugin_sdk::prelude::*;
//!
//! struct Tiny;
//!
//! impl Analyzer for Tiny {
//!     fn tech(&self) -> Tech {
//!         Tech::new("python_tiny", "Python", "Tiny")
//!             .files(["*.py"])
//!             .detect(Detect::files(["*.py"]).contains(["import tiny"]))
//!     }
//!
//!     fn analyze(&self, file: &SourceFile, out: &mut Output) {
//!         let code = file.code(Syntax::PYTHON);
//!         for (offset, _) in code.text().match_indices("@route(") {
//!             let Some(lit) = code.string_at(offset + "@route(".len()) else { continue };
//!             out.endpoint(Endpoint::new("GET", lit.value).at(file, file.line_of(offset)));
//!         }
//!     }
//! }
//!
//! portolan_plugin_sdk::plugin!(name: "tiny", analyzers: [Tiny]);
//! ```
//!
//! Cross-file analysis (a prefix declared in one file, routes in another) uses
//! the map/reduce pair: [`Analyzer::analyze`] records serialisable *facts*
//! with [`Output::fact`], and [`Analyzer::link`] receives every batch's facts
//! once all files were seen. For Python, the `python` module (feature
//! `python`) does the cross-file bookkeeping: each module's imports and
//! string constants as a serialisable fact, and in `link` the value of a
//! constant imported from another module and prefixes composed with it.

pub mod cli;
#[cfg(feature = "docs")]
pub mod doc;
pub mod guard;
pub mod lex;
pub mod model;
pub mod paths;
#[cfg(feature = "python")]
pub mod python;
#[cfg(feature = "rubyish")]
pub mod rubyish;
pub mod strexpr;
#[cfg(not(target_family = "wasm"))]
pub mod testing;
pub mod text;
pub mod tokens;
pub mod urls;

#[doc(hidden)]
pub mod runtime;

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "wit",
        world: "plugin",
        pub_export_macro: true,
        default_bindings_module: "portolan_plugin_sdk::bindings",
        export_macro_name: "export",
    });
}

pub use lex::{Code, StringLit, Syntax};
pub use model::{
    AiContext, ContextEntry, Detect, Endpoint, Facts, Location, Output, Param, ParamKind, Setting,
    SettingKind, SourceFile, Supports, Tag, Tech,
};

#[doc(hidden)]
pub use serde_json as __serde_json;

/// The `portolan:analyzer` interface version this SDK implements, read at
/// build time from the `package` line of the crate's `wit/analyzer.wit` (the
/// only place it is written). The host refuses plugins built for an
/// incompatible version.
pub const INTERFACE_VERSION: &str = env!("PORTOLAN_INTERFACE_VERSION");

/// Everything an analyzer usually needs.
pub mod prelude {
    pub use crate::host;
    pub use crate::lex::{Code, StringLit, Syntax};
    pub use crate::model::{
        ContextEntry, Detect, Endpoint, Facts, Output, Param, ParamKind, Setting, SettingKind,
        SourceFile, Supports, Tag, Tech,
    };
    pub use crate::paths::{is_test_path, join as join_path, normalize as normalize_path};
    pub use crate::Analyzer;
}

/// One technology's analyzer (e.g. `python_flask`). A plugin bundles several.
pub trait Analyzer: Sync {
    /// Identity, the files wanted, and the detection rules. Called once.
    fn tech(&self) -> Tech;

    /// Map step: look at one file. Runs on batches of files in parallel
    /// instances, so keep no state between calls; put what other files need
    /// to know into [`Output::fact`].
    fn analyze(&self, file: &SourceFile, out: &mut Output);

    /// Reduce step: called once with the facts of every file, in file order,
    /// when at least one fact was recorded. Returns the endpoints that needed
    /// the whole tree.
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let _ = facts;
        Ok(Vec::new())
    }
}

/// Services of the host, callable from an analyzer.
///
/// Outside the wasm component (native `cargo test` of a plugin) there is no
/// host: log lines are kept per thread and can be read back with
/// [`host::take_logs`], and [`host::read_file`] fails unless a test set a
/// directory to read from with `host::set_native_root` (the fixture runner
/// sets the case directory, as the host reads from the working directory).
pub mod host {
    #[cfg(target_arch = "wasm32")]
    use crate::bindings::portolan::analyzer::host as imports;
    use crate::bindings::portolan::analyzer::types::LogLevel;

    /// Log a debug line (visible with `portolan --debug`).
    pub fn debug(message: &str) {
        log(LogLevel::Debug, message);
    }

    /// Log an informational line.
    pub fn info(message: &str) {
        log(LogLevel::Info, message);
    }

    /// Log a warning (shown to the user).
    pub fn warn(message: &str) {
        log(LogLevel::Warn, message);
    }

    /// Read a file below the scanned base paths (see the WIT for the rules).
    pub fn read_file(path: &str) -> Result<String, String> {
        #[cfg(target_arch = "wasm32")]
        {
            imports::read_file(path)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            match NATIVE_ROOT.with(|r| r.borrow().clone()) {
                Some(root) => std::fs::read(root.join(path))
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                    .map_err(|e| e.to_string()),
                None => Err(format!(
                    "{path}: no host to read files from outside the plugin component"
                )),
            }
        }
    }

    /// Native builds only (plugin tests): resolve [`read_file`]'s display
    /// paths (`app/docs/x.yaml`) against `root` on this thread, or stop
    /// doing so with `None`; returns the previous root. The error of a
    /// failed read then names the reason, like the host's.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn set_native_root(root: Option<std::path::PathBuf>) -> Option<std::path::PathBuf> {
        NATIVE_ROOT.with(|r| std::mem::replace(&mut *r.borrow_mut(), root))
    }

    #[cfg(not(target_arch = "wasm32"))]
    thread_local! {
        static NATIVE_ROOT: std::cell::RefCell<Option<std::path::PathBuf>> =
            const { std::cell::RefCell::new(None) };
    }

    /// The plugin's settings (`[[plugins]] config = { … }` in the user's
    /// config), a JSON object already checked by the host against the
    /// [`crate::Setting`]s the plugin declares; empty when none were given.
    ///
    /// ```no_run
    /// let base = portolan_plugin_sdk::host::settings()
    ///     .get("base_class")
    ///     .and_then(|v| v.as_str())
    ///     .unwrap_or("Resource")
    ///     .to_string();
    /// ```
    pub fn settings() -> serde_json::Map<String, serde_json::Value> {
        #[cfg(target_arch = "wasm32")]
        {
            // The settings are the same for every call of a plugin: ask the
            // host once per instance.
            static SETTINGS: std::sync::OnceLock<serde_json::Map<String, serde_json::Value>> =
                std::sync::OnceLock::new();
            SETTINGS
                .get_or_init(|| serde_json::from_str(&imports::settings()).unwrap_or_default())
                .clone()
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            NATIVE_SETTINGS.with(|s| s.borrow().clone())
        }
    }

    /// Native builds only (plugin tests): the settings [`settings`] returns
    /// on this thread; returns the previous ones.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn set_native_settings(
        settings: serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value> {
        NATIVE_SETTINGS.with(|s| std::mem::replace(&mut *s.borrow_mut(), settings))
    }

    #[cfg(not(target_arch = "wasm32"))]
    thread_local! {
        static NATIVE_SETTINGS: std::cell::RefCell<serde_json::Map<String, serde_json::Value>> =
            std::cell::RefCell::new(serde_json::Map::new());
    }

    /// The scanned base paths as displayed (see [`crate::paths::below_base`]);
    /// empty outside the wasm component.
    pub fn base_paths() -> Vec<String> {
        #[cfg(target_arch = "wasm32")]
        {
            imports::base_paths()
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            Vec::new()
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn log(level: LogLevel, message: &str) {
        imports::log(level, message);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn log(level: LogLevel, message: &str) {
        let level = match level {
            LogLevel::Trace => "trace",
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Warn => "warn",
            LogLevel::Error => "error",
        };
        NATIVE_LOG.with(|log| log.borrow_mut().push(format!("{level}: {message}")));
    }

    #[cfg(not(target_arch = "wasm32"))]
    thread_local! {
        static NATIVE_LOG: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    /// Native builds only (plugin unit tests): take the lines logged so far
    /// on this thread, formatted `level: message`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn take_logs() -> Vec<String> {
        NATIVE_LOG.with(|log| std::mem::take(&mut *log.borrow_mut()))
    }
}

/// Declare the plugin: its name and the analyzers it bundles, one per line.
///
/// ```ignore
/// portolan_plugin_sdk::plugin!(name: "python", analyzers: [flask::Flask, fastapi::FastApi]);
/// ```
///
/// The version is taken from the crate's `CARGO_PKG_VERSION`. A plugin that
/// takes settings lists them after the analyzers (read them with
/// [`host::settings`]):
///
/// ```ignore
/// portolan_plugin_sdk::plugin!(
///     name: "acme",
///     analyzers: [acme::Acme],
///     settings: [Setting::string("base_class", "the base class of the team's handlers")],
/// );
/// ```
#[macro_export]
macro_rules! plugin {
    (name: $name:expr, analyzers: [$($analyzer:expr),* $(,)?] $(, settings: [$($setting:expr),* $(,)?])? $(,)?) => {
        #[allow(dead_code)]
        struct PortolanPlugin;

        impl PortolanPlugin {
            #[allow(dead_code)]
            fn registry() -> &'static [&'static dyn $crate::Analyzer] {
                &[$(&$analyzer),*]
            }

            #[allow(dead_code)]
            fn settings() -> ::std::vec::Vec<$crate::Setting> {
                ::std::vec![$($($setting),*)?]
            }
        }

        impl $crate::bindings::exports::portolan::analyzer::analyzer::Guest for PortolanPlugin {
            fn describe() -> $crate::bindings::portolan::analyzer::types::PluginInfo {
                $crate::runtime::describe(
                    $name,
                    env!("CARGO_PKG_VERSION"),
                    Self::registry(),
                    Self::settings(),
                )
            }

            fn analyze(
                tech: ::std::string::String,
                files: ::std::vec::Vec<$crate::bindings::portolan::analyzer::types::SourceFile>,
            ) -> ::std::result::Result<
                $crate::bindings::portolan::analyzer::types::BatchOutput,
                ::std::string::String,
            > {
                $crate::runtime::analyze(Self::registry(), &tech, files)
            }

            fn analyze_many(
                techs: ::std::vec::Vec<::std::string::String>,
                files: ::std::vec::Vec<$crate::bindings::portolan::analyzer::types::SourceFile>,
                wanted: ::std::vec::Vec<::std::vec::Vec<u32>>,
            ) -> ::std::result::Result<
                ::std::vec::Vec<$crate::bindings::portolan::analyzer::types::BatchOutput>,
                ::std::string::String,
            > {
                $crate::runtime::analyze_many(Self::registry(), &techs, files, &wanted)
            }

            fn link(
                tech: ::std::string::String,
                facts: ::std::vec::Vec<::std::vec::Vec<u8>>,
            ) -> ::std::result::Result<
                ::std::vec::Vec<$crate::bindings::portolan::analyzer::types::Endpoint>,
                ::std::string::String,
            > {
                $crate::runtime::link(Self::registry(), &tech, facts)
            }
        }

        /// This plugin's description (native builds only): the host's build
        /// script prints it to embed the bundle's descriptions, so a cold
        /// start compiles only the plugins of detected technologies.
        #[cfg(not(target_family = "wasm"))]
        pub fn portolan_description() -> $crate::model::PluginDescription {
            $crate::runtime::description(
                $name,
                env!("CARGO_PKG_VERSION"),
                PortolanPlugin::registry(),
                PortolanPlugin::settings(),
            )
        }

        /// Every analyzer of this plugin (native builds only), for native
        /// harnesses that run a whole plugin (`tests/fuzz`).
        #[cfg(not(target_family = "wasm"))]
        pub fn portolan_analyzers() -> &'static [&'static dyn $crate::Analyzer] {
            PortolanPlugin::registry()
        }

        // The component exports only exist in the wasm build: native builds
        // of a plugin crate (its unit tests, an `rlib` user) cannot link
        // symbols named like `portolan:analyzer/analyzer@0.3.0#describe`.
        #[cfg(target_family = "wasm")]
        $crate::bindings::export!(PortolanPlugin with_types_in $crate::bindings);
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn native_host_keeps_log_lines() {
        super::host::warn("a.yaml: broken");
        super::host::debug("x");
        assert_eq!(
            super::host::take_logs(),
            ["warn: a.yaml: broken", "debug: x"]
        );
        assert!(super::host::take_logs().is_empty());
        assert!(super::host::read_file("a.yaml").is_err());
    }

    #[test]
    fn native_reads_need_a_root() {
        use super::host::{read_file, set_native_root};
        let before = set_native_root(None);
        assert!(read_file("Cargo.toml").is_err());
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(set_native_root(Some(dir.clone())), None);
        assert!(read_file("Cargo.toml").is_ok_and(|t| t.contains("portolan-plugin-sdk")));
        assert!(read_file("missing.toml").is_err());
        assert_eq!(set_native_root(before), Some(dir));
    }

    #[test]
    fn interface_version_matches_wit_package() {
        let wit = include_str!("../wit/analyzer.wit");
        let expected = format!("package portolan:analyzer@{};", super::INTERFACE_VERSION);
        assert!(
            wit.contains(&expected),
            "wit/analyzer.wit must declare {expected}"
        );
    }
}
