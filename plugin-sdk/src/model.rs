//! Plain Rust types for what an analyzer declares and reports.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::lex::{Code, Syntax};
use crate::text::LineIndex;

/// The HTTP methods the host keeps, in report order; anything else an
/// analyzer reports becomes `GET`. `QUERY` is the safe, idempotent method
/// with a body (IETF httpbis draft "The HTTP QUERY Method").
pub const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "PATCH", "DELETE", "QUERY", "OPTIONS", "HEAD", "TRACE", "CONNECT",
];

/// The method of a command of a command-line program (protocol `cli`).
pub const CLI_METHOD: &str = "CLI";

/// The method the host keeps for an endpoint: upper-cased, one of
/// [`METHODS`], else `GET`; a command-line program (protocol `cli`) keeps
/// `CLI`.
pub fn normalize_method(method: &str, protocol: &str) -> String {
    let method = method.trim().to_ascii_uppercase();
    if METHODS.contains(&method.as_str()) || (protocol == "cli" && method == CLI_METHOD) {
        method
    } else {
        "GET".into()
    }
}

/// A file handed to the analyzer.
pub struct SourceFile {
    /// Display path (base path joined with the path below it).
    pub path: String,
    /// UTF-8 content.
    pub content: String,
    lines: std::sync::OnceLock<LineIndex>,
    memos: std::sync::Mutex<Vec<Memo>>,
}

/// A value [`SourceFile::memo`] computed for a file.
type Memo = std::sync::Arc<dyn std::any::Any + Send + Sync>;

impl SourceFile {
    pub fn new(path: impl Into<String>, content: impl Into<String>) -> Self {
        SourceFile {
            path: path.into(),
            content: content.into(),
            lines: std::sync::OnceLock::new(),
            memos: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// A value computed once per file and shared by every technology of the
    /// plugin that analyzes it: `analyze-many` hands one file to each of its
    /// technologies in turn before the next file, so a parse (a lexed
    /// module, an outline, a whole scan's output) that several technologies
    /// build the same way is built once. The type `T` is the key: one value
    /// per type and file, computed by `make` on first use. Memos are dropped
    /// when every technology is done with the file.
    ///
    /// ```
    /// use portolan_plugin_sdk::SourceFile;
    /// struct Words(usize);
    /// let file = SourceFile::new("app.py", "a b c");
    /// let first = file.memo(|f| Words(f.content.split(' ').count()));
    /// let again = file.memo(|_| Words(0)); // not recomputed
    /// assert_eq!((first.0, again.0), (3, 3));
    /// ```
    pub fn memo<T: std::any::Any + Send + Sync>(
        &self,
        make: impl FnOnce(&SourceFile) -> T,
    ) -> std::sync::Arc<T> {
        if let Some(found) = self.find_memo::<T>() {
            return found;
        }
        // Not under the lock: `make` may take other memos of this file.
        let made = std::sync::Arc::new(make(self));
        let mut memos = self.memos.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = memos.iter().find_map(|m| m.clone().downcast::<T>().ok()) {
            return found;
        }
        memos.push(made.clone());
        made
    }

    fn find_memo<T: std::any::Any + Send + Sync>(&self) -> Option<std::sync::Arc<T>> {
        let memos = self.memos.lock().unwrap_or_else(|e| e.into_inner());
        memos.iter().find_map(|m| m.clone().downcast::<T>().ok())
    }

    /// Drop every memo (the file's technologies are done with it).
    pub(crate) fn forget_memos(&self) {
        self.memos.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// 1-based line of a byte offset in `content`.
    pub fn line_of(&self, offset: usize) -> u32 {
        self.lines
            .get_or_init(|| LineIndex::new(&self.content))
            .line_of(offset)
    }

    /// The content with comments blanked out (offsets and lines preserved),
    /// for the given language syntax.
    pub fn code(&self, syntax: Syntax) -> Code<'_> {
        Code::new(&self.content, syntax)
    }

    /// The path relative to nothing in particular: the display path with `\`
    /// turned into `/`. Handy for path-based conventions (`routes/api.php`).
    pub fn slash_path(&self) -> String {
        self.path.replace('\\', "/")
    }
}

/// Where a parameter travels in the request, or, for a command-line
/// program (protocol `cli`), on its command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamKind {
    Query,
    Json,
    Form,
    Header,
    Cookie,
    Path,
    File,
    /// A command-line option, named as written with its dashes (`--output`,
    /// `-v` when there is no long form).
    Flag,
    /// A positional command-line argument (`path`).
    Argument,
    /// An environment variable the parser declaration reads (`GITHUB_TOKEN`).
    Env,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub value: String,
    pub kind: ParamKind,
}

impl Param {
    pub fn new(kind: ParamKind, name: impl Into<String>) -> Self {
        Param {
            name: name.into(),
            value: String::new(),
            kind,
        }
    }
    pub fn query(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Query, name)
    }
    pub fn json(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Json, name)
    }
    pub fn form(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Form, name)
    }
    pub fn header(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Header, name)
    }
    pub fn cookie(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Cookie, name)
    }
    pub fn path(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Path, name)
    }
    pub fn file(name: impl Into<String>) -> Self {
        Self::new(ParamKind::File, name)
    }
    pub fn flag(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Flag, name)
    }
    pub fn argument(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Argument, name)
    }
    pub fn env(name: impl Into<String>) -> Self {
        Self::new(ParamKind::Env, name)
    }
    /// Set an example/default value.
    pub fn value(mut self, value: impl Into<String>) -> Self {
        self.value = value.into();
        self
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub name: String,
    pub description: String,
    pub tagger: String,
}

impl Tag {
    /// The tag the host's always-on `websocket` tagger puts on WebSocket
    /// endpoints (protocol `ws`). Plugins need not add it themselves.
    pub fn websocket() -> Tag {
        Tag {
            name: "websocket".into(),
            description: "A WebSocket endpoint: the client opens it with an HTTP GET and upgrades the connection.".into(),
            tagger: "WebSocket".into(),
        }
    }

    /// The tag of a route declared without an HTTP method (ASP.NET Core's
    /// `[Route]` alone, `app.Map(…)`, Phoenix's `match :*`): the framework
    /// serves every method there, and the analyzer reports it once per
    /// method of its `ANY_METHODS` list. Lets users filter those copies.
    pub fn any_method() -> Tag {
        Tag {
            name: "any_method".into(),
            description: "Declared without an HTTP method: the framework serves any method here; reported once per common method.".into(),
            tagger: "AnyMethod".into(),
        }
    }
}

/// One `ai_context` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextEntry {
    pub kind: String,
    pub name: String,
    pub source: Option<String>,
    pub description: Option<String>,
    pub path: Option<String>,
    pub line: Option<u32>,
    pub confidence: Option<u8>,
    pub snippet: Option<String>,
}

/// The `ai_context` buckets of an endpoint.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiContext {
    pub guards: Vec<ContextEntry>,
    pub callees: Vec<ContextEntry>,
    pub sources: Vec<ContextEntry>,
    pub sinks: Vec<ContextEntry>,
    pub validators: Vec<ContextEntry>,
    pub signals: Vec<ContextEntry>,
}

impl AiContext {
    pub fn is_empty(&self) -> bool {
        self.guards.is_empty()
            && self.callees.is_empty()
            && self.sources.is_empty()
            && self.sinks.is_empty()
            && self.validators.is_empty()
            && self.signals.is_empty()
    }
}

/// A source location: display path and 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub path: String,
    pub line: Option<u32>,
}

/// An endpoint found in the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub url: String,
    pub method: String,
    pub params: Vec<Param>,
    pub protocol: String,
    pub tags: Vec<Tag>,
    pub code_paths: Vec<Location>,
    pub internal: bool,
    pub ai_context: Option<AiContext>,
}

impl Endpoint {
    /// An HTTP endpoint; the method is upper-cased.
    pub fn new(method: impl AsRef<str>, url: impl Into<String>) -> Self {
        Endpoint {
            url: url.into(),
            method: method.as_ref().to_ascii_uppercase(),
            params: Vec::new(),
            protocol: "http".into(),
            tags: Vec::new(),
            code_paths: Vec::new(),
            internal: false,
            ai_context: None,
        }
    }

    /// A WebSocket endpoint (`GET`, protocol `ws`).
    pub fn websocket(url: impl Into<String>) -> Self {
        let mut e = Endpoint::new("GET", url);
        e.protocol = "ws".into();
        e
    }

    /// A command of a command-line program (method `CLI`, protocol `cli`):
    /// `cli://<binary>` for the root command, each subcommand one more
    /// segment (`cli://git/remote/add`). See docs/cli-surface.md.
    pub fn command<S: AsRef<str>>(binary: &str, subcommands: &[S]) -> Self {
        let mut url = format!("cli://{binary}");
        for s in subcommands {
            url.push('/');
            url.push_str(s.as_ref());
        }
        let mut e = Endpoint::new(CLI_METHOD, url);
        e.protocol = "cli".into();
        e
    }

    /// Record where the endpoint is declared.
    pub fn at(mut self, file: &SourceFile, line: u32) -> Self {
        self.code_paths.push(Location {
            path: file.path.clone(),
            line: Some(line),
        });
        self
    }

    /// Record a location by path and line (for endpoints built in `link`).
    pub fn at_path(mut self, path: impl Into<String>, line: u32) -> Self {
        self.code_paths.push(Location {
            path: path.into(),
            line: Some(line),
        });
        self
    }

    /// Add a parameter unless one with the same name and kind exists.
    pub fn param(mut self, param: Param) -> Self {
        self.push_param(param);
        self
    }

    /// Add parameters, skipping duplicates (same name and kind).
    pub fn params(mut self, params: impl IntoIterator<Item = Param>) -> Self {
        for p in params {
            self.push_param(p);
        }
        self
    }

    /// In-place variant of [`Endpoint::param`].
    pub fn push_param(&mut self, param: Param) {
        if !self
            .params
            .iter()
            .any(|p| p.name == param.name && p.kind == param.kind)
        {
            self.params.push(param);
        }
    }

    pub fn tag(mut self, tag: Tag) -> Self {
        self.tags.push(tag);
        self
    }

    /// Record a guard the analyzer resolved for this endpoint (`kind`:
    /// `auth_guard`, `authz_guard`, `rate_limit_guard`, `csrf_guard`; `name`
    /// as written, e.g. `[Authorize(Roles = "Admin")]`), once per (kind,
    /// name), under `ai_context.guards`, where the host's `auth` tagger and
    /// `--ai-context` read it. `source` says where it was written
    /// (`annotation`, `call`, `pipeline`).
    pub fn push_guard(&mut self, kind: &str, name: &str, source: &str, path: &str, line: u32) {
        let ctx = self.ai_context.get_or_insert_with(AiContext::default);
        if ctx.guards.iter().any(|g| g.kind == kind && g.name == name) {
            return;
        }
        ctx.guards
            .push(crate::guard::entry(kind, name, source, path, line));
    }

    /// Mark as an outbound-client definition rather than a served route.
    pub fn internal(mut self, internal: bool) -> Self {
        self.internal = internal;
        self
    }
}

/// Which parameter locations an analyzer understands (for `--list-techs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Supports {
    pub method: bool,
    pub query: bool,
    pub path: bool,
    pub body: bool,
    pub header: bool,
    pub cookie: bool,
    pub websocket: bool,
}

impl Supports {
    /// Everything but WebSocket.
    pub const HTTP: Supports = Supports {
        method: true,
        query: true,
        path: true,
        body: true,
        header: true,
        cookie: true,
        websocket: false,
    };
    /// Everything.
    pub const ALL: Supports = Supports {
        websocket: true,
        ..Supports::HTTP
    };
}

/// A declarative detection rule; evaluated natively by the host.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detect {
    pub files: Vec<String>,
    pub contains: Vec<String>,
    pub regex: Vec<String>,
}

impl Detect {
    /// Files (globs) the rule looks at. Alone, the rule matches on the name.
    pub fn files<S: Into<String>>(globs: impl IntoIterator<Item = S>) -> Self {
        Detect {
            files: globs.into_iter().map(Into::into).collect(),
            ..Detect::default()
        }
    }
    /// The file must contain one of these literals.
    pub fn contains<S: Into<String>>(mut self, literals: impl IntoIterator<Item = S>) -> Self {
        self.contains.extend(literals.into_iter().map(Into::into));
        self
    }
    /// The file must match one of these regexes (multi-line mode).
    pub fn regex<S: Into<String>>(mut self, patterns: impl IntoIterator<Item = S>) -> Self {
        self.regex.extend(patterns.into_iter().map(Into::into));
        self
    }
}

/// What a plugin declares: the serialisable form of the WIT `plugin-info`.
/// The host caches it per plugin hash, and embeds the built-in bundle's at
/// build time so that a cold start compiles only the plugins it needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginDescription {
    pub name: String,
    pub version: String,
    pub interface_version: String,
    pub techs: Vec<Tech>,
    /// The settings the plugin accepts (`[[plugins]] config`).
    #[serde(default)]
    pub settings: Vec<Setting>,
}

/// The JSON type of a [`Setting`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingKind {
    String,
    Boolean,
    Integer,
    Number,
    /// An array of strings.
    StringList,
}

impl SettingKind {
    /// How messages name the kind (`a string`, `a list of strings`).
    pub fn describe(self) -> &'static str {
        match self {
            SettingKind::String => "a string",
            SettingKind::Boolean => "a boolean",
            SettingKind::Integer => "an integer",
            SettingKind::Number => "a number",
            SettingKind::StringList => "a list of strings",
        }
    }

    /// Does a JSON value have this kind?
    pub fn accepts(self, value: &serde_json::Value) -> bool {
        use serde_json::Value;
        match self {
            SettingKind::String => value.is_string(),
            SettingKind::Boolean => value.is_boolean(),
            SettingKind::Integer => value.is_i64() || value.is_u64(),
            SettingKind::Number => value.is_number(),
            SettingKind::StringList => {
                matches!(value, Value::Array(items) if items.iter().all(Value::is_string))
            }
        }
    }
}

/// One key a plugin accepts in `[[plugins]] config = { … }`. The host
/// refuses undeclared keys and values of another kind before the scan.
///
/// ```
/// use portolan_plugin_sdk::{Setting, SettingKind};
/// let s = Setting::string("base_class", "the base class of request handlers");
/// assert_eq!(s.kind, SettingKind::String);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    pub key: String,
    pub kind: SettingKind,
    pub description: String,
}

impl Setting {
    pub fn new(key: &str, kind: SettingKind, description: &str) -> Self {
        Setting {
            key: key.into(),
            kind,
            description: description.into(),
        }
    }
    pub fn string(key: &str, description: &str) -> Self {
        Setting::new(key, SettingKind::String, description)
    }
    pub fn boolean(key: &str, description: &str) -> Self {
        Setting::new(key, SettingKind::Boolean, description)
    }
    pub fn integer(key: &str, description: &str) -> Self {
        Setting::new(key, SettingKind::Integer, description)
    }
    pub fn number(key: &str, description: &str) -> Self {
        Setting::new(key, SettingKind::Number, description)
    }
    pub fn string_list(key: &str, description: &str) -> Self {
        Setting::new(key, SettingKind::StringList, description)
    }
}

/// Check `settings` (a JSON object from `[[plugins]] config`) against the
/// keys `declared` by the plugin called `plugin`: the first problem, naming
/// the plugin and the key. The host calls this before the scan.
pub fn check_settings(
    plugin: &str,
    declared: &[Setting],
    settings: &serde_json::Map<String, serde_json::Value>,
) -> Result<(), String> {
    for (key, value) in settings {
        let Some(setting) = declared.iter().find(|s| &s.key == key) else {
            let known: Vec<&str> = declared.iter().map(|s| s.key.as_str()).collect();
            return Err(if known.is_empty() {
                format!("plugin `{plugin}` takes no settings, but `config` sets `{key}`")
            } else {
                format!(
                    "plugin `{plugin}` has no setting `{key}` (it accepts: {})",
                    known.join(", ")
                )
            });
        };
        if !setting.kind.accepts(value) {
            return Err(format!(
                "plugin `{plugin}`: setting `{key}` must be {}, not `{value}`",
                setting.kind.describe()
            ));
        }
    }
    Ok(())
}

/// A technology as declared by an analyzer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tech {
    pub id: String,
    pub aliases: Vec<String>,
    pub language: String,
    pub framework: String,
    /// Reads API documents rather than code (OpenAPI, Postman, …).
    #[serde(default)]
    pub specification: bool,
    pub files: Vec<String>,
    pub detect: Vec<Detect>,
    /// Literals of which a wanted file must contain one to be sent to
    /// `analyze` (empty: every wanted file is sent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires_any: Vec<String>,
    pub supports: Supports,
}

impl Tech {
    /// `id` is `<language>_<framework>` (see the technology list in the docs).
    pub fn new(id: &str, language: &str, framework: &str) -> Self {
        Tech {
            id: id.into(),
            aliases: Vec::new(),
            language: language.into(),
            framework: framework.into(),
            specification: false,
            files: Vec::new(),
            detect: Vec::new(),
            requires_any: Vec::new(),
            supports: Supports::HTTP,
        }
    }
    /// Literals of which a file must contain at least one to be worth
    /// analyzing: the host skips the others with a plain byte search before
    /// sending them. Only for literals without which the analyzer reports
    /// nothing for the file (a route-declaring call, a decorator).
    pub fn requires_any<S: Into<String>>(mut self, literals: impl IntoIterator<Item = S>) -> Self {
        self.requires_any
            .extend(literals.into_iter().map(Into::into));
        self
    }
    pub fn aliases<S: Into<String>>(mut self, aliases: impl IntoIterator<Item = S>) -> Self {
        self.aliases.extend(aliases.into_iter().map(Into::into));
        self
    }
    /// Globs of files to receive in `analyze`.
    pub fn files<S: Into<String>>(mut self, globs: impl IntoIterator<Item = S>) -> Self {
        self.files.extend(globs.into_iter().map(Into::into));
        self
    }
    pub fn detect(mut self, rule: Detect) -> Self {
        self.detect.push(rule);
        self
    }
    /// Mark the technology as reading API documents (OpenAPI, Postman,
    /// HAR, …) rather than code: its endpoints count as documented.
    pub fn specification(mut self) -> Self {
        self.specification = true;
        self
    }
    pub fn supports(mut self, supports: Supports) -> Self {
        self.supports = supports;
        self
    }
}

/// What `analyze` reports for a file: endpoints and facts for `link`.
#[derive(Default)]
pub struct Output {
    pub(crate) endpoints: Vec<Endpoint>,
    pub(crate) facts: Vec<u8>,
}

impl Output {
    pub fn new() -> Self {
        Output::default()
    }

    /// Report a complete endpoint.
    pub fn endpoint(&mut self, endpoint: Endpoint) {
        self.endpoints.push(endpoint);
    }

    /// Record a fact for [`crate::Analyzer::link`]. Facts are JSON-encoded,
    /// one per line.
    pub fn fact<T: Serialize>(&mut self, fact: &T) {
        // Serialising plain data to a Vec cannot fail; a failing custom
        // Serialize impl just loses that fact.
        if serde_json::to_writer(&mut self.facts, fact).is_ok() {
            self.facts.push(b'\n');
        }
    }

    /// Append what another output holds (e.g. a whole scan's output kept
    /// with [`SourceFile::memo`] for the plugin's other technologies).
    pub fn extend_from(&mut self, other: &Output) {
        self.endpoints.extend(other.endpoints.iter().cloned());
        self.facts.extend_from_slice(&other.facts);
    }

    /// Endpoints reported so far (useful in tests).
    pub fn endpoints(&self) -> &[Endpoint] {
        &self.endpoints
    }

    /// Take the endpoints and the facts (useful in tests).
    pub fn into_parts(self) -> (Vec<Endpoint>, Facts) {
        let facts = if self.facts.is_empty() {
            Vec::new()
        } else {
            vec![self.facts]
        };
        (self.endpoints, Facts::new(facts))
    }
}

/// Every batch's facts, in file order.
pub struct Facts {
    chunks: Vec<Vec<u8>>,
}

impl Facts {
    pub fn new(chunks: Vec<Vec<u8>>) -> Self {
        Facts { chunks }
    }

    /// Decode every fact as `T`, skipping ones that do not decode (e.g. a
    /// different fact type recorded by the same analyzer: use an enum).
    pub fn iter<T: DeserializeOwned>(&self) -> impl Iterator<Item = T> + '_ {
        self.chunks
            .iter()
            .flat_map(|chunk| chunk.split(|b| *b == b'\n'))
            .filter(|line| !line.is_empty())
            .filter_map(|line| serde_json::from_slice(line).ok())
    }

    /// Collect every fact of type `T`.
    pub fn all<T: DeserializeOwned>(&self) -> Vec<T> {
        self.iter().collect()
    }

    /// Merge facts of several files (for tests that run `analyze` by hand).
    pub fn extend(&mut self, other: Facts) {
        self.chunks.extend(other.chunks);
    }
}

impl SourceFile {
    /// Convenience for analyzers: the code view with Python syntax.
    pub fn python(&self) -> Code<'_> {
        self.code(Syntax::PYTHON)
    }
}
