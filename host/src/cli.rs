//! Command line. `portolan -b DIR` and `portolan scan -b DIR` are the same.

use std::path::PathBuf;

use clap::{ArgAction, Args, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "portolan",
    version,
    about = "Map an application's HTTP attack surface (endpoints, methods, parameters, headers, cookies) from its source code.",
    long_about = None,
    args_conflicts_with_subcommands = true,
    disable_version_flag = true,
    propagate_version = true,
    after_help = "Examples:\n  portolan -b ./app\n  portolan scan -b ./app -f json -o endpoints.json\n  portolan -b ./app -u https://staging.example.com -f oas3\n  portolan -b ./app --set-pvalue-header 'Authorization=Bearer x' -f curl\n  portolan -b ./app -u http://127.0.0.1:5000 --send-proxy 127.0.0.1:8080 --use-filters DELETE\n\nConfig: portolan.toml (or .portolan.toml) in the first base path, and the user config\n(~/.config/portolan/config.toml, or $PORTOLAN_CONFIG_DIR/config.toml); flags override both.\nA portolan.toml in the scanned tree is untrusted: it may not set url, output, plugins or raise limits\n(ignored with a warning; name it with --config to trust it). See docs/security.md.\n\nExit status: 0 ok, 1 runtime error, 2 usage error, 3 base path not found, 4 scan completed but a plugin failed,\n5 report written but some deliveries failed (requests without an answer, documents not indexed),\n7 --strict: an analyzer failed or a file was skipped (size, binary, encoding, permissions)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub scan: ScanArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Scan source trees (the default command).
    Scan(Box<ScanArgs>),
    /// Manage analyzer plugins: list, add, lock, verify, new, test.
    Plugin(PluginArgs),
    /// Manage portolan's caches.
    Cache(CacheArgs),
    /// Compare the attack surface of two versions: OLD and NEW are JSON reports (-f json) or source trees.
    #[command(
        after_help = "Examples:\n  portolan diff v1.json v2.json\n  portolan diff ../app-v1 . -f markdown -o surface.md\n  portolan diff base.json . --fail-on added-unauthenticated,guard-removed\n\nExit status: 0 ok, 1 the diff could not be written, 2 bad input, 6 a change named by --fail-on is present."
    )]
    Diff {
        /// The old version: a JSON report or a directory to scan.
        old: PathBuf,
        /// The new version: a JSON report or a directory to scan.
        new: PathBuf,
        /// plain (one line per change), json, markdown (for a pull-request comment) or sarif (added endpoints as results).
        #[arg(short = 'f', long = "format", value_enum, default_value = "plain")]
        format: crate::diff::DiffFormat,
        /// Write the diff to FILE instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// Exit with status 6 when the diff has any of these (comma-separated).
        #[arg(
            long = "fail-on",
            value_enum,
            value_delimiter = ',',
            value_name = "CHANGES"
        )]
        fail_on: Vec<crate::diff::FailOn>,
    },
    /// Config files: where they are (path), what they set once merged (show), a commented template (init).
    #[command(
        after_help = "Examples:\n  portolan config path -b ./app\n  portolan config show -b ./app\n  portolan config init            # ./portolan.toml\n  portolan config init --user     # the user config\n\nSee docs/config.md."
    )]
    Config(ConfigArgs),
    /// Serve the Model Context Protocol on stdio (tools: scan, list_techs, endpoint_context) for coding agents.
    #[command(
        after_help = "Register it with an MCP client as a stdio server running `portolan mcp`.\nTools run portolan read-only: they cannot write files, send requests, load plugins or change limits.\nSee docs/mcp.md."
    )]
    Mcp,
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(
        after_help = "Install, for example:\n  portolan completion bash > ~/.local/share/bash-completion/completions/portolan\n  portolan completion zsh > \"${fpath[1]}/_portolan\"\n  portolan completion fish > ~/.config/fish/completions/portolan.fish\n  portolan completion powershell >> $PROFILE"
    )]
    Completion {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Args, Debug)]
pub struct PluginArgs {
    #[command(subcommand)]
    pub command: PluginCommand,
}

#[derive(Subcommand, Debug)]
pub enum PluginCommand {
    /// List every plugin (built-in and external) with its technologies and versions.
    List {
        /// text (the default) or json.
        #[arg(
            short = 'f',
            long = "format",
            value_name = "FORMAT",
            default_value = "plain"
        )]
        format: String,
        #[command(flatten)]
        opts: PluginOpts,
    },
    /// Pin a plugin: copy (PATH) or download (URL) it, check or compute its
    /// sha256, and add it to the config file's [[plugins]].
    Add {
        /// A .wasm component, a plugin crate directory (its built component
        /// is used), or an http(s) URL.
        source: String,
        /// The expected SHA-256 of the component (required to trust a URL
        /// without looking; otherwise the computed hash is printed).
        #[arg(long = "sha256", value_name = "HEX")]
        sha256: Option<String>,
        #[command(flatten)]
        opts: PluginOpts,
    },
    /// Write portolan.lock: name, version, interface version, sha256 and
    /// source of every plugin, built-ins included.
    Lock {
        #[command(flatten)]
        opts: PluginOpts,
    },
    /// Check every configured plugin against its sha256 and portolan.lock.
    Verify {
        #[command(flatten)]
        opts: PluginOpts,
    },
    /// Create a plugin (a Rust crate, or a Python component project) that
    /// builds and passes its own tests.
    New {
        /// Plugin name (lower-case letters, digits, `-`, `_`).
        name: String,
        /// Where to create it [default: ./NAME].
        #[arg(long = "dir", value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The language to write it in: rust (on portolan-plugin-sdk),
        /// python (componentize-py) or c (clang for wasm32-wasi).
        #[arg(long = "lang", value_name = "LANG", value_enum, default_value = "rust")]
        lang: PluginLang,
        /// A local copy of portolan-plugin-sdk (e.g. a vendored
        /// `plugin-sdk/` folder), referenced relative to the new crate
        /// [default: the published SDK of this portolan's interface].
        #[arg(long = "sdk-path", value_name = "DIR")]
        sdk_path: Option<PathBuf>,
    },
    /// Run a plugin on fixture cases (F/<case>/app, F/<case>/expected.json,
    /// or F/<tech>/<case>/…) and diff its report with the expected one.
    Test {
        /// A built .wasm component, or a plugin crate directory.
        plugin: PathBuf,
        /// The fixtures directory.
        #[arg(long = "fixtures", value_name = "DIR")]
        fixtures: PathBuf,
        /// Show debug messages.
        #[arg(short = 'd', long = "debug")]
        debug: bool,
        /// No colour.
        #[arg(long = "no-color")]
        no_color: bool,
    },
}

/// Options shared by the plugin subcommands that read the config.
#[derive(Args, Debug, Default, Clone)]
pub struct PluginOpts {
    /// Config file to read (and, for `add`, to edit) [default:
    /// ./portolan.toml, or ./.portolan.toml]. portolan.lock sits next to it.
    #[arg(long = "config", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Ignore the user config (and the current directory's portolan.toml
    /// unless it is the --config file).
    #[arg(long = "no-config")]
    pub no_config: bool,
    /// Refuse to run when a plugin differs from portolan.lock.
    #[arg(long = "locked")]
    pub locked: bool,
    /// Never download: URL plugins must already be in the plugin store.
    #[arg(long = "offline")]
    pub offline: bool,
    /// Leave the built-in plugins out.
    #[arg(long = "disable-builtin")]
    pub disable_builtin: bool,
    /// Show debug messages.
    #[arg(short = 'd', long = "debug")]
    pub debug: bool,
    /// No colour in logs.
    #[arg(long = "no-color")]
    pub no_color: bool,
    /// No log lines (results and errors still print).
    #[arg(long = "no-log")]
    pub no_log: bool,
}

#[derive(Args, Debug)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
}

#[derive(Subcommand, Debug)]
pub enum ConfigCommand {
    /// Print where the user config and the project config are looked for.
    Path {
        /// The scanned directory whose portolan.toml is the project config [default: .].
        #[arg(short = 'b', long = "base-path", value_name = "PATH")]
        base_path: Option<PathBuf>,
    },
    /// Print the keys the config files set, merged as a scan would read
    /// them (untrusted keys of the project config dropped, with warnings).
    Show {
        /// The scanned directory whose portolan.toml is the project config [default: .].
        #[arg(short = 'b', long = "base-path", value_name = "PATH")]
        base_path: Option<PathBuf>,
        /// Read this config file too, trusted.
        #[arg(long = "config", value_name = "FILE")]
        config: Option<PathBuf>,
        /// Ignore the user and project config files.
        #[arg(long = "no-config")]
        no_config: bool,
        /// toml (the default) or json.
        #[arg(short = 'f', long = "format", default_value = "toml")]
        format: String,
    },
    /// Write a commented config file (./portolan.toml by default).
    Init {
        /// Write the user config instead (~/.config/portolan/config.toml, or $PORTOLAN_CONFIG_DIR/config.toml).
        #[arg(long = "user", conflicts_with = "file")]
        user: bool,
        /// Replace an existing file.
        #[arg(long = "force")]
        force: bool,
        /// Write this file instead.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
}

#[derive(Args, Debug)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub command: CacheCommand,
}

/// What `portolan plugin new` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PluginLang {
    Rust,
    Python,
    C,
}

#[derive(Subcommand, Debug)]
pub enum CacheCommand {
    /// Remove compiled plugins, plugin descriptions and downloaded plugins.
    Clear,
}

#[derive(Args, Debug, Default, Clone)]
pub struct ScanArgs {
    // ---- Basic
    /// Directory to analyze (repeatable).
    #[arg(
        short = 'b',
        long = "base-path",
        value_name = "PATH",
        help_heading = "Basic"
    )]
    pub base_path: Vec<String>,

    /// Base URL prepended to every reported endpoint.
    #[arg(short = 'u', long = "url", value_name = "URL", help_heading = "Basic")]
    pub url: Option<String>,

    /// Also read this API document (OpenAPI, Postman, HAR, …) from outside
    /// the base paths (repeatable). Code routes it does not describe are
    /// tagged `shadow`.
    #[arg(long = "spec", value_name = "FILE", help_heading = "Basic")]
    pub spec: Vec<PathBuf>,

    // ---- Output
    /// Output format: plain, json, jsonl, yaml, toml, markdown-table, curl,
    /// httpie, powershell, oas2, oas3, postman, sarif, html, mermaid,
    /// only-url, only-param, only-header, only-cookie, only-tag.
    #[arg(
        short = 'f',
        long = "format",
        value_name = "FORMAT",
        default_value = "plain",
        help_heading = "Output"
    )]
    pub format: String,

    /// Write the report to this file instead of stdout.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "PATH",
        help_heading = "Output"
    )]
    pub output: Option<PathBuf>,

    /// Value for identified parameters of every type: VALUE, or NAME=VALUE
    /// for one name (repeatable).
    #[arg(long = "set-pvalue", value_name = "VALUE", help_heading = "Output")]
    pub set_pvalue: Vec<String>,

    /// Like --set-pvalue, for query parameters only.
    #[arg(
        long = "set-pvalue-query",
        value_name = "VALUE",
        help_heading = "Output"
    )]
    pub set_pvalue_query: Vec<String>,

    /// Like --set-pvalue, for headers only.
    #[arg(
        long = "set-pvalue-header",
        value_name = "VALUE",
        help_heading = "Output"
    )]
    pub set_pvalue_header: Vec<String>,

    /// Like --set-pvalue, for cookies only.
    #[arg(
        long = "set-pvalue-cookie",
        value_name = "VALUE",
        help_heading = "Output"
    )]
    pub set_pvalue_cookie: Vec<String>,

    /// Like --set-pvalue, for form fields only.
    #[arg(
        long = "set-pvalue-form",
        value_name = "VALUE",
        help_heading = "Output"
    )]
    pub set_pvalue_form: Vec<String>,

    /// Like --set-pvalue, for JSON body fields only.
    #[arg(
        long = "set-pvalue-json",
        value_name = "VALUE",
        help_heading = "Output"
    )]
    pub set_pvalue_json: Vec<String>,

    /// Like --set-pvalue, for path parameters only (also fills the URL).
    #[arg(
        long = "set-pvalue-path",
        value_name = "VALUE",
        help_heading = "Output"
    )]
    pub set_pvalue_path: Vec<String>,

    /// Print how the attack surface changed since OLD (a JSON report from
    /// `-f json`, or a directory, scanned first) instead of the report:
    /// -f plain, json, markdown or sarif, as `portolan diff` (docs/diff.md).
    #[arg(long = "diff-path", value_name = "OLD", help_heading = "Output")]
    pub diff_path: Option<PathBuf>,

    /// With --diff-path: exit with status 6 when the diff has any of these
    /// (comma-separated: added, removed, changed, added-unauthenticated,
    /// guard-removed, any).
    #[arg(
        long = "fail-on",
        value_enum,
        value_delimiter = ',',
        value_name = "CHANGES",
        requires = "diff_path",
        help_heading = "Output"
    )]
    pub fail_on: Vec<crate::diff::FailOn>,

    /// Include the source file and line of each endpoint in the plain report.
    #[arg(long = "include-path", help_heading = "Output")]
    pub include_path: bool,

    /// Disable colour in logs (also: the NO_COLOR environment variable).
    #[arg(long = "no-color", help_heading = "Output")]
    pub no_color: bool,

    /// Print only the report: no progress or log lines.
    #[arg(long = "no-log", help_heading = "Output")]
    pub no_log: bool,

    // ---- Tagger
    /// Run every optional tagger (hunt, oauth, cors, soap, graphql, jwt,
    /// file_upload). `websocket` and `shadow` always run.
    #[arg(short = 'T', long = "use-all-taggers", help_heading = "Tagger")]
    pub use_all_taggers: bool,

    /// Run these optional taggers (comma-separated ids, see --list-taggers).
    #[arg(
        long = "use-taggers",
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Tagger"
    )]
    pub use_taggers: Vec<String>,

    /// List the taggers and exit (`-f json` for JSON).
    #[arg(long = "list-taggers", help_heading = "Tagger")]
    pub list_taggers: bool,

    // ---- Deliver
    /// Send one HTTP request per endpoint to -u (method, query, body,
    /// headers and cookies from the params; values from --set-pvalue*),
    /// before the report is written: each answer's status is recorded in
    /// the report (`details.status_code`).
    #[arg(long = "send-req", help_heading = "Deliver")]
    pub send_req: bool,

    /// Send the same requests through this HTTP proxy (host:port), so they
    /// land in its history; needs -u.
    #[arg(long = "send-proxy", value_name = "URL", help_heading = "Deliver")]
    pub send_proxy: Option<String>,

    /// Accept the proxy's own TLS certificate for HTTPS targets (an
    /// intercepting proxy re-signs them).
    #[arg(long = "proxy-insecure", help_heading = "Deliver")]
    pub proxy_insecure: bool,

    /// Do not verify the target's (and the search index's) TLS certificate.
    #[arg(long = "tls-skip-verify", help_heading = "Deliver")]
    pub tls_skip_verify: bool,

    /// With --send-req: leave out of the report the endpoints whose
    /// request answered one of these status codes (comma-separated, e.g.
    /// 404,405).
    #[arg(
        long = "exclude-codes",
        value_name = "CODES",
        value_delimiter = ',',
        value_parser = clap::value_parser!(u16).range(100..=599),
        help_heading = "Deliver"
    )]
    pub exclude_codes: Vec<u16>,

    /// POST the report as JSON to this URL once it is written (retried on
    /// connection failures and 5xx answers).
    #[arg(long = "send-webhook", value_name = "URL", help_heading = "Deliver")]
    pub send_webhook: Option<String>,

    /// Index the endpoints in this Elasticsearch/OpenSearch service (base
    /// URL; bulk API; credentials may be in the URL).
    #[arg(long = "send-es", value_name = "URL", help_heading = "Deliver")]
    pub send_es: Option<String>,

    /// Index name for --send-es [default: portolan].
    #[arg(long = "send-es-index", value_name = "NAME", help_heading = "Deliver")]
    pub send_es_index: Option<String>,

    /// Add this header to every delivery, "Name: Value" (repeatable; the
    /// value may contain colons).
    #[arg(long = "with-headers", value_name = "HEADER", help_heading = "Deliver")]
    pub with_headers: Vec<String>,

    /// Deliver only endpoints matching a condition: TEXT (URL contains),
    /// METHOD, METHOD:TEXT or regex:PATTERN (repeatable; any may match).
    #[arg(long = "use-matchers", value_name = "COND", help_heading = "Deliver")]
    pub use_matchers: Vec<String>,

    /// Do not deliver endpoints matching a condition (same syntax; applied
    /// after the matchers).
    #[arg(long = "use-filters", value_name = "COND", help_heading = "Deliver")]
    pub use_filters: Vec<String>,

    /// Requests in flight at once [default: 8] (separate from --concurrency,
    /// the scan's thread count).
    #[arg(long = "send-concurrency", value_name = "N", help_heading = "Deliver")]
    pub send_concurrency: Option<usize>,

    /// Give up on a request after this many seconds [default: 10].
    #[arg(long = "send-timeout", value_name = "SECS", help_heading = "Deliver")]
    pub send_timeout: Option<f64>,

    /// Retry a request this many times when the connection fails, with
    /// backoff (0.25 s, doubling) [default: 2].
    #[arg(long = "send-retries", value_name = "N", help_heading = "Deliver")]
    pub send_retries: Option<u32>,

    /// At most this many requests per second [default: unlimited].
    #[arg(long = "send-rate", value_name = "N", help_heading = "Deliver")]
    pub send_rate: Option<f64>,

    // ---- Technologies
    /// Use only these technologies (comma-separated ids or aliases):
    /// detection is skipped, and only their analyzers run.
    #[arg(
        short = 't',
        long = "techs",
        visible_alias = "only-techs",
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Technologies"
    )]
    pub techs: Vec<String>,

    /// Analyze these technologies as well as the detected ones
    /// (comma-separated ids or aliases).
    #[arg(
        long = "add-techs",
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Technologies"
    )]
    pub add_techs: Vec<String>,

    /// Do not analyze these technologies (comma-separated ids or aliases).
    #[arg(
        long = "exclude-techs",
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Technologies"
    )]
    pub exclude_techs: Vec<String>,

    /// List every supported technology and exit (`-f json` for JSON).
    #[arg(long = "list-techs", help_heading = "Technologies")]
    pub list_techs: bool,

    // ---- Plugins
    /// Load an analyzer plugin (a .wasm component, or a directory of them).
    #[arg(long = "plugin", value_name = "PATH", help_heading = "Plugins")]
    pub plugin: Vec<PathBuf>,

    /// Do not read or write the caches: compiled plugins and analyzer
    /// results (incremental rescans).
    #[arg(long = "no-cache", help_heading = "Plugins")]
    pub no_cache: bool,

    /// Refuse to run when any plugin (built-ins included) differs from
    /// portolan.lock (next to --config, else in the first base path). For CI.
    #[arg(long = "locked", help_heading = "Plugins")]
    pub locked: bool,

    /// Never download plugins: URL plugins must already be in the store.
    #[arg(long = "offline", help_heading = "Plugins")]
    pub offline: bool,

    /// Run only external plugins (--plugin, [[plugins]], the plugin dir).
    #[arg(long = "disable-builtin", help_heading = "Plugins")]
    pub disable_builtin: bool,

    /// Stop a plugin call that runs longer than this many seconds (0.01 to 86400).
    #[arg(
        long = "plugin-timeout",
        value_name = "SECS",
        default_value_t = 60.0,
        help_heading = "Plugins"
    )]
    pub plugin_timeout: f64,

    /// Stop a plugin instance that uses more memory than this many MiB (16 to 4096).
    #[arg(
        long = "plugin-memory",
        value_name = "MIB",
        default_value_t = 512,
        help_heading = "Plugins"
    )]
    pub plugin_memory: usize,

    // ---- AI (docs/llm.md). Nothing is sent unless --ai-provider is given.
    /// Ask a language model for endpoints in code no analyzer understands:
    /// openai, ollama, xai, github, azure, openrouter, lmstudio, vllm, or the
    /// URL of an OpenAI-compatible chat-completions or Ollama endpoint.
    #[arg(long = "ai-provider", value_name = "PROVIDER", help_heading = "AI")]
    pub ai_provider: Option<String>,

    /// Model name (required with --ai-provider).
    #[arg(long = "ai-model", value_name = "NAME", help_heading = "AI")]
    pub ai_model: Option<String>,

    /// API key (else $PORTOLAN_AI_KEY; for openai also $OPENAI_API_KEY).
    #[arg(long = "ai-key", value_name = "KEY", help_heading = "AI")]
    pub ai_key: Option<String>,

    /// Send at most this many files (default 100; the most server-like).
    #[arg(long = "ai-max-files", value_name = "N", help_heading = "AI")]
    pub ai_max_files: Option<usize>,

    /// Tokens per request, files and answer included (default 16000).
    #[arg(long = "ai-max-token", value_name = "N", help_heading = "AI")]
    pub ai_max_token: Option<usize>,

    /// Print the requests that would be sent (stderr) and send nothing.
    #[arg(long = "ai-dry-run", help_heading = "AI")]
    pub ai_dry_run: bool,

    /// Do not read or write the AI answer cache.
    #[arg(long = "ai-no-cache", help_heading = "AI")]
    pub ai_no_cache: bool,

    // ---- Config and others
    /// Skip files whose path below the base matches this glob (repeatable).
    #[arg(
        long = "exclude-path",
        value_name = "GLOB",
        help_heading = "Config and others"
    )]
    pub exclude_path: Vec<String>,

    /// Analyze minified bundles too (`*.min.js`, and JavaScript/CSS files of
    /// a few very long lines), which are skipped by default (docs/architecture.md).
    #[arg(long = "include-bundles", help_heading = "Config and others")]
    pub include_bundles: bool,

    /// Exit with status 7 when any analyzer failed or any file was skipped
    /// for its size, binary content, encoding or permissions; the report
    /// lists them (`errors`, `skipped`).
    #[arg(long = "strict", help_heading = "Config and others")]
    pub strict: bool,

    /// Match the passive-scan rules (secrets, debug switches, dangerous
    /// settings, default credentials) against every file read; findings go
    /// to `passive_results` (docs/passive.md).
    #[arg(short = 'P', long = "passive-scan", help_heading = "Passive scan")]
    pub passive_scan: bool,

    /// Use the rules in this directory (or rule file) instead of the
    /// embedded set and your config directory's passive_rules/
    /// (repeatable; turns the passive scan on).
    #[arg(
        long = "passive-scan-path",
        value_name = "PATH",
        help_heading = "Passive scan"
    )]
    pub passive_scan_path: Vec<PathBuf>,

    /// Keep findings at or above this severity: critical, high, medium or
    /// low (default high; turns the passive scan on).
    #[arg(
        long = "passive-scan-severity",
        value_name = "LEVEL",
        help_heading = "Passive scan"
    )]
    pub passive_scan_severity: Option<String>,

    /// Not available: the rules are embedded and portolan never downloads
    /// at run time (use --passive-scan-path for other rules).
    #[arg(long = "passive-scan-auto-update", hide = true)]
    pub passive_scan_auto_update: bool,

    /// Accepted for compatibility: portolan never checks for rule updates.
    #[arg(long = "passive-scan-no-update-check", help_heading = "Passive scan")]
    pub passive_scan_no_update_check: bool,

    /// Print where the time went to stderr: walk, per-technology analyzer
    /// CPU time and the slowest analyzer batches (also logged with -d).
    #[arg(long = "stats", help_heading = "Config and others")]
    pub stats: bool,

    /// Number of worker threads, 1 to 512 (default: the number of CPU cores).
    #[arg(
        long = "concurrency",
        value_name = "N",
        help_heading = "Config and others"
    )]
    pub concurrency: Option<usize>,

    /// Read this config file too (over the user and project config files).
    #[arg(
        long = "config",
        value_name = "FILE",
        help_heading = "Config and others"
    )]
    pub config: Option<PathBuf>,

    /// Ignore the user config and the project's portolan.toml.
    #[arg(long = "no-config", help_heading = "Config and others")]
    pub no_config: bool,

    /// Attach `ai_context` (guards, callees, sources, sinks, validators,
    /// signals) to every endpoint in json, jsonl, yaml, toml and plain.
    /// `--ai-context=guards,sinks` keeps only those buckets (`callee` =
    /// `callees`; `all` = every bucket). Runs every tagger unless -T or
    /// --use-taggers says otherwise (docs/ai-context.md).
    #[arg(
        long = "ai-context",
        value_name = "BUCKETS",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all",
        help_heading = "Config and others"
    )]
    pub ai_context: Option<String>,

    /// Show debug messages.
    #[arg(short = 'd', long = "debug", help_heading = "Config and others")]
    pub debug: bool,

    /// Print the version and exit.
    #[arg(short = 'v', long = "version", action = ArgAction::Version, help_heading = "Config and others")]
    pub version: Option<bool>,
}

impl ScanArgs {
    /// Scan options for the plugin subcommands: defaults, plus `opts`.
    pub fn for_plugins(opts: &PluginOpts) -> ScanArgs {
        ScanArgs {
            format: "plain".into(),
            plugin_timeout: 60.0,
            plugin_memory: 512,
            config: opts.config.clone(),
            no_config: opts.no_config,
            locked: opts.locked,
            offline: opts.offline,
            disable_builtin: opts.disable_builtin,
            debug: opts.debug,
            no_color: opts.no_color,
            no_log: opts.no_log,
            ..ScanArgs::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn plugin_subcommands_parse() {
        let c =
            Cli::try_parse_from(["portolan", "plugin", "add", "x.wasm", "--sha256", "ab"]).unwrap();
        let Some(Command::Plugin(p)) = c.command else {
            panic!("plugin subcommand")
        };
        assert!(
            matches!(p.command, PluginCommand::Add { ref source, ref sha256, .. } if source == "x.wasm" && sha256.as_deref() == Some("ab"))
        );
        let c =
            Cli::try_parse_from(["portolan", "scan", "-b", ".", "--locked", "--offline"]).unwrap();
        let Some(Command::Scan(s)) = c.command else {
            panic!("scan")
        };
        assert!(s.locked && s.offline && !s.disable_builtin);
        assert!(Cli::try_parse_from(["portolan", "cache", "clear"]).is_ok());
    }

    #[test]
    fn scan_subcommand_and_bare_flags_are_equivalent() {
        let a = Cli::try_parse_from(["portolan", "-b", "x", "-f", "json"]).unwrap();
        let b = Cli::try_parse_from(["portolan", "scan", "-b", "x", "-f", "json"]).unwrap();
        let Some(Command::Scan(b)) = b.command else {
            panic!("scan subcommand")
        };
        assert_eq!(a.scan.base_path, b.base_path);
        assert_eq!(a.scan.format, b.format);
    }

    #[test]
    fn ai_context_takes_an_optional_bucket_list() {
        let parse = |args: &[&str]| Cli::try_parse_from(args).unwrap().scan.ai_context;
        assert_eq!(parse(&["portolan", "-b", "x"]), None);
        assert_eq!(
            parse(&["portolan", "--ai-context", "-b", "x"]).as_deref(),
            Some("all")
        );
        assert_eq!(
            parse(&["portolan", "-b", "x", "--ai-context=sinks,guards"]).as_deref(),
            Some("sinks,guards")
        );
    }
}
