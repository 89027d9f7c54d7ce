//! The wasmtime side: compile (or load from cache), check the interface
//! version, and call plugins inside a sandbox.
//!
//! Instances are created from a pre-linked `InstancePre` (tens of
//! microseconds), but a plugin's own start-up (building its lookup tables,
//! compiling its patterns on first use) costs up to tens of milliseconds
//! per instance, so an instance that finished a call cleanly serves the
//! plugin's next call of the same scan (the [`Runtime`] keeps a few idle
//! ones). A call runs on one instance at a time; an
//! instance that trapped, timed out, printed anything or grew past
//! [`WARM_MEMORY_BYTES`] is dropped, so the next call gets a fresh one.
//! Plugins must not carry results from one call to the next (the results
//! cache already assumes a call's output depends only on its input).
//! Limits apply per call:
//! - CPU: epoch interruption; a background thread ticks every 10 ms and each
//!   call gets a deadline of `timeout` (default 60 s).
//! - memory: `StoreLimits` with `trap_on_grow_failure` (default 512 MiB).
//! - output: what a call returns is measured after lifting and refused over
//!   [`MAX_OUTPUT_BYTES`]; the memory cap bounds what can be lifted at all.
//! - capabilities: WASI with no preopened directories, no environment, no
//!   arguments and no network (base paths and settings come through the
//!   `host` interface); stdout/stderr go to a small in-memory pipe
//!   whose tail is quoted when a plugin panics.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use wasmtime::component::{Component, HasSelf, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store, StoreLimits, StoreLimitsBuilder, Trap};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use super::cache::Cache;
use super::sandbox::Sandbox;
use super::{PluginSource, INTERFACE_VERSION};
use crate::escape::clip;
use crate::log;

wasmtime::component::bindgen!({
    path: "../plugin-sdk/wit",
    world: "plugin",
});

pub use portolan::analyzer::types as wit;

/// The pinned wasmtime version (see host/Cargo.toml); part of the cache key.
pub const WASMTIME_VERSION: &str = "48.0.8";

/// Cap on the bytes a single call may return (strings and facts).
pub const MAX_OUTPUT_BYTES: usize = 32 * 1024 * 1024;

const EPOCH_TICK: Duration = Duration::from_millis(10);

/// An instance whose linear memories grew past this is not kept for the
/// next call: idle instances hold their memory until the scan ends.
pub const WARM_MEMORY_BYTES: usize = 8 * 1024 * 1024;

/// Per-call sandbox limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub timeout: Duration,
    pub memory_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(60),
            memory_bytes: 512 * 1024 * 1024,
        }
    }
}

pub struct HostState {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: Limiter,
    plugin: Arc<str>,
    /// The plugin's settings as a JSON object (`host.settings`).
    settings: Arc<str>,
    sandbox: Arc<Sandbox>,
    /// Every `read-file` of the call and a digest of its answer (the
    /// results cache keys a batch's output on them too).
    reads: Vec<FileRead>,
    /// The call logged a warning or an error (or had a read refused): its
    /// output is not cached, so a rescan shows the same warnings.
    warned: bool,
}

/// [`StoreLimits`] that also counts how far the instance's linear memories
/// have grown (an instance that grew large is not kept warm).
struct Limiter {
    inner: StoreLimits,
    memory_bytes: usize,
}

impl wasmtime::ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let allowed = self.inner.memory_growing(current, desired, maximum)?;
        if allowed {
            self.memory_bytes = self
                .memory_bytes
                .saturating_add(desired.saturating_sub(current));
        }
        Ok(allowed)
    }

    fn memory_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.inner.memory_grow_failed(error)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.inner.table_growing(current, desired, maximum)
    }

    fn table_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.inner.table_grow_failed(error)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }

    fn tables(&self) -> usize {
        self.inner.tables()
    }

    fn memories(&self) -> usize {
        self.inner.memories()
    }
}

/// One `read-file` a call made: the path asked for and the SHA-256 of the
/// answer ([`Sandbox::answer_digest`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRead {
    pub path: String,
    pub digest: [u8; 32],
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl portolan::analyzer::types::Host for HostState {}

impl portolan::analyzer::host::Host for HostState {
    fn log(&mut self, level: wit::LogLevel, message: String) {
        let message: String = message.chars().take(2000).collect();
        let line = format!("plugin `{}`: {message}", self.plugin);
        match level {
            wit::LogLevel::Trace | wit::LogLevel::Debug => log::debug(line),
            wit::LogLevel::Info => log::debug(line),
            wit::LogLevel::Warn => {
                self.warned = true;
                log::warn(line)
            }
            wit::LogLevel::Error => {
                self.warned = true;
                log::error(line)
            }
        }
    }

    fn read_file(&mut self, path: String) -> Result<String, String> {
        let result = self.sandbox.read(&path);
        self.reads.push(FileRead {
            digest: Sandbox::answer_digest(&result),
            path: path.clone(),
        });
        if let Err(reason) = &result {
            self.warned = true;
            log::warn(format!(
                "plugin `{}` asked to read `{path}`: refused ({reason})",
                self.plugin
            ));
        }
        result
    }

    fn base_paths(&mut self) -> Vec<String> {
        self.sandbox.base_displays().to_vec()
    }

    fn settings(&mut self) -> String {
        self.settings.to_string()
    }
}

/// A compiled plugin, ready to instantiate.
pub struct Loaded {
    pub name: String,
    /// Tells this plugin's warm instances apart from every other's (names
    /// need not be unique, and addresses are reused).
    id: u64,
    /// The settings handed to every call (`host.settings`), a JSON object.
    settings: Arc<str>,
    pre: PluginPre<HostState>,
}

/// An instance between two calls, with its store and output pipe.
struct Warm {
    plugin: u64,
    store: Store<HostState>,
    instance: Plugin,
    output: MemoryOutputPipe,
}

/// The idle instances of every plugin, most recently used last. Few are
/// kept (about one per worker thread): an idle instance holds its memory,
/// and the analysis runs one plugin's batches together, so older ones
/// rarely serve again.
struct WarmPool {
    idle: Mutex<std::collections::VecDeque<Warm>>,
    cap: usize,
}

impl WarmPool {
    fn new() -> WarmPool {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        WarmPool {
            idle: Mutex::new(std::collections::VecDeque::new()),
            cap: threads.clamp(1, 16),
        }
    }

    fn take(&self, plugin: &Loaded) -> Option<Warm> {
        let mut idle = self.idle.lock().ok()?;
        let i = idle.iter().rposition(|w| w.plugin == plugin.id)?;
        idle.remove(i)
    }

    /// Keep `warm` for a next call if it is clean and small enough,
    /// dropping the least recently used beyond the cap.
    fn keep(&self, warm: Warm) {
        let clean = warm.output.contents().is_empty()
            && warm.store.data().limits.memory_bytes <= WARM_MEMORY_BYTES;
        if let (true, Ok(mut idle)) = (clean, self.idle.lock()) {
            idle.push_back(warm);
            while idle.len() > self.cap {
                idle.pop_front();
            }
        }
    }
}

/// The engine, the linker and the policies shared by every plugin.
pub struct Runtime {
    engine: Engine,
    linker: Linker<HostState>,
    cache: Option<Cache>,
    limits: Limits,
    sandbox: Arc<Sandbox>,
    warm: WarmPool,
    loaded: std::sync::atomic::AtomicU64,
}

impl Runtime {
    pub fn new(cache: Option<Cache>, limits: Limits, sandbox: Sandbox) -> Result<Runtime, String> {
        let mut config = Config::new();
        config.epoch_interruption(true);
        config.wasm_component_model(true);
        let engine = Engine::new(&config).map_err(|e| e.to_string())?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(|e| e.to_string())?;
        Plugin::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |s| s)
            .map_err(|e| e.to_string())?;
        let ticker = engine.clone();
        std::thread::Builder::new()
            .name("portolan-epoch".into())
            .spawn(move || loop {
                std::thread::sleep(EPOCH_TICK);
                ticker.increment_epoch();
            })
            .map_err(|e| e.to_string())?;
        Ok(Runtime {
            engine,
            linker,
            cache,
            limits,
            sandbox: Arc::new(sandbox),
            warm: WarmPool::new(),
            loaded: std::sync::atomic::AtomicU64::new(0),
        })
    }

    pub fn cache(&self) -> Option<&Cache> {
        self.cache.as_ref()
    }

    /// Cache key part that changes with the engine and its settings.
    fn engine_key(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        WASMTIME_VERSION.hash(&mut h);
        self.engine.precompile_compatibility_hash().hash(&mut h);
        format!("{:016x}", h.finish())
    }

    /// Compile `source` or load its compiled artefact from the cache.
    /// `name` is what messages call the plugin (its declared name once known).
    pub fn load(&self, source: &PluginSource, name: &str) -> Result<Loaded, String> {
        let component = self.component(source)?;
        check_interface(&self.engine, &component, &source.name)?;
        let pre = self
            .linker
            .instantiate_pre(&component)
            .map_err(|e| format!("cannot link: {}. It imports something portolan does not provide (only `portolan:analyzer/host` and WASI are available)", root_cause(&e)))?;
        let pre = PluginPre::new(pre)
            .map_err(|e| format!("is not a portolan analyzer: {}", root_cause(&e)))?;
        let settings = serde_json::to_string(&source.settings).unwrap_or_else(|_| "{}".into());
        Ok(Loaded {
            name: name.to_string(),
            id: self
                .loaded
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            settings: Arc::from(settings),
            pre,
        })
    }

    fn component(&self, source: &PluginSource) -> Result<Component, String> {
        let artifact = self
            .cache
            .as_ref()
            .map(|c| c.artifact_path(&source.sha256, &self.engine_key()));
        if let Some(path) = &artifact {
            if path.exists() {
                // SAFETY: the artefact was written by `Component::serialize`
                // of this same wasmtime version and engine configuration (both
                // are in the file name) into the user's own cache directory;
                // wasmtime still validates its header before use.
                match unsafe { Component::deserialize_file(&self.engine, path) } {
                    Ok(c) => {
                        log::debug(format!(
                            "loaded plugin `{}` from cache {}",
                            source.name,
                            path.display()
                        ));
                        return Ok(c);
                    }
                    Err(e) => log::debug(format!(
                        "cached artefact {} is unusable ({}); recompiling",
                        path.display(),
                        root_cause(&e)
                    )),
                }
            }
        }
        log::debug(format!(
            "compiling plugin `{}` (sha256 {})",
            source.name,
            &source.sha256[..12]
        ));
        let started = std::time::Instant::now();
        // Binary only: `Component::new` would also parse WebAssembly text,
        // and its parse errors quote the file (any file named as a plugin).
        if !source.bytes.starts_with(b"\0asm") {
            return Err(
                "is not a WebAssembly component (a .wasm file starts with the bytes `\\0asm`)"
                    .into(),
            );
        }
        let component = Component::from_binary(&self.engine, &source.bytes)
            .map_err(|e| format!("is not a valid WebAssembly component: {}", root_cause(&e)))?;
        log::debug(format!(
            "compiled plugin `{}` in {:.2} s",
            source.name,
            started.elapsed().as_secs_f64()
        ));
        if let (Some(cache), Some(path)) = (&self.cache, &artifact) {
            match component.serialize() {
                Ok(bytes) => {
                    if let Err(e) = cache.write_atomic(path, &bytes) {
                        log::debug(format!("cannot write plugin cache {}: {e}", path.display()));
                    }
                }
                Err(e) => log::debug(format!("cannot serialize plugin `{}`: {e}", source.name)),
            }
        }
        Ok(component)
    }

    fn store(&self, plugin: &Loaded) -> (Store<HostState>, MemoryOutputPipe) {
        let output = MemoryOutputPipe::new(64 * 1024);
        let wasi = WasiCtxBuilder::new()
            .stdout(output.clone())
            .stderr(output.clone())
            .build();
        let limits = Limiter {
            inner: StoreLimitsBuilder::new()
                .memory_size(self.limits.memory_bytes)
                .trap_on_grow_failure(true)
                .build(),
            memory_bytes: 0,
        };
        let mut store = Store::new(
            &self.engine,
            HostState {
                wasi,
                table: ResourceTable::new(),
                limits,
                plugin: Arc::from(plugin.name.as_str()),
                settings: plugin.settings.clone(),
                sandbox: self.sandbox.clone(),
                reads: Vec::new(),
                warned: false,
            },
        );
        store.limiter(|s| &mut s.limits);
        store.epoch_deadline_trap();
        (store, output)
    }

    /// Run `f` against an instance (a warm one when the plugin has one);
    /// turn traps into readable errors.
    fn call<R>(
        &self,
        plugin: &Loaded,
        f: impl FnOnce(&Plugin, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<R, String> {
        self.call_within(plugin, self.limits.timeout, f)
    }

    /// [`Self::call`] with its own time limit (at most the configured one).
    fn call_within<R>(
        &self,
        plugin: &Loaded,
        timeout: Duration,
        f: impl FnOnce(&Plugin, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<R, String> {
        self.call_recording(plugin, timeout, f).map(|(r, _)| r)
    }

    /// [`Self::call_within`], also returning the files the call read, or
    /// `None` when the call warned (its output must not be cached: the
    /// warning would be lost on a rescan).
    fn call_recording<R>(
        &self,
        plugin: &Loaded,
        timeout: Duration,
        f: impl FnOnce(&Plugin, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<(R, Option<Vec<FileRead>>), String> {
        let timeout = timeout.min(self.limits.timeout);
        // The deadline counts from when it is set, in epoch ticks; a fresh
        // instance's start-up runs under it too.
        let ticks = (timeout.as_millis() / EPOCH_TICK.as_millis()).max(1) as u64;
        let mut warm = match self.warm.take(plugin) {
            Some(warm) => warm,
            None => {
                let (mut store, output) = self.store(plugin);
                store.set_epoch_deadline(ticks);
                let instance = plugin
                    .pre
                    .instantiate(&mut store)
                    .map_err(|e| self.explain(&e, &output, timeout))?;
                Warm {
                    plugin: plugin.id,
                    store,
                    instance,
                    output,
                }
            }
        };
        warm.store.set_epoch_deadline(ticks);
        let state = warm.store.data_mut();
        state.reads.clear();
        state.warned = false;
        // An error drops the instance: a trapped one cannot be entered again.
        let r = f(&warm.instance, &mut warm.store)
            .map_err(|e| self.explain(&e, &warm.output, timeout))?;
        let state = warm.store.data_mut();
        let reads = (!state.warned).then(|| std::mem::take(&mut state.reads));
        self.warm.keep(warm);
        Ok((r, reads))
    }

    /// The limits every call runs under (part of the results cache key:
    /// a call that succeeds under one limit may fail under a lower one).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// What `host.base-paths` answers (part of the results cache key).
    pub fn base_displays(&self) -> &[String] {
        self.sandbox.base_displays()
    }

    /// The digest `read-file` of `path` would give now (a cached result
    /// that read it is reused only when this has not changed).
    pub fn read_digest(&self, path: &str) -> [u8; 32] {
        Sandbox::answer_digest(&self.sandbox.read(path))
    }

    /// The configured per-call time limit.
    pub fn timeout(&self) -> Duration {
        self.limits.timeout
    }

    pub fn describe(&self, plugin: &Loaded) -> Result<wit::PluginInfo, String> {
        let info = self.call(plugin, |p, s| {
            p.portolan_analyzer_analyzer().call_describe(s)
        })?;
        if !compatible(&info.interface_version) {
            return Err(format!(
                "was built for plugin interface {} but this portolan speaks {INTERFACE_VERSION}; rebuild it against portolan-plugin-sdk {INTERFACE_VERSION}",
                info.interface_version
            ));
        }
        Ok(info)
    }

    /// One `analyze` call; also returns the files it read (`read-file`).
    pub fn analyze(
        &self,
        plugin: &Loaded,
        tech: &str,
        files: &[wit::SourceFile],
    ) -> Result<(wit::BatchOutput, Option<Vec<FileRead>>), String> {
        self.analyze_recording(plugin, tech, files, self.limits.timeout)
    }

    /// [`Self::analyze`] with a shorter time limit (retries of files from a
    /// batch that timed out).
    pub fn analyze_within(
        &self,
        plugin: &Loaded,
        tech: &str,
        files: &[wit::SourceFile],
        timeout: Duration,
    ) -> Result<wit::BatchOutput, String> {
        self.analyze_recording(plugin, tech, files, timeout)
            .map(|(out, _)| out)
    }

    fn analyze_recording(
        &self,
        plugin: &Loaded,
        tech: &str,
        files: &[wit::SourceFile],
        timeout: Duration,
    ) -> Result<(wit::BatchOutput, Option<Vec<FileRead>>), String> {
        let (out, reads) = self.call_recording(plugin, timeout, |p, s| {
            p.portolan_analyzer_analyzer().call_analyze(s, tech, files)
        })?;
        let out = out.map_err(|msg| format!("reported an error: {}", clip(&msg, 500)))?;
        let size = out.facts.len() + out.endpoints.iter().map(endpoint_size).sum::<usize>();
        check_output_size(size)?;
        Ok((out, reads))
    }

    /// One `analyze-many` call: `wanted[i]` lists the indices into `files`
    /// that `techs[i]` wants; one output per technology, in order, and the
    /// files the call read.
    pub fn analyze_many(
        &self,
        plugin: &Loaded,
        techs: &[String],
        files: &[wit::SourceFile],
        wanted: &[Vec<u32>],
    ) -> Result<(Vec<wit::BatchOutput>, Option<Vec<FileRead>>), String> {
        let (outs, reads) = self.call_recording(plugin, self.limits.timeout, |p, s| {
            p.portolan_analyzer_analyzer()
                .call_analyze_many(s, techs, files, wanted)
        })?;
        let outs = outs.map_err(|msg| format!("reported an error: {}", clip(&msg, 500)))?;
        if outs.len() != techs.len() {
            return Err(format!(
                "returned {} outputs from analyze-many for {} technologies",
                outs.len(),
                techs.len()
            ));
        }
        let size = outs
            .iter()
            .map(|o| o.facts.len() + o.endpoints.iter().map(endpoint_size).sum::<usize>())
            .sum();
        check_output_size(size)?;
        Ok((outs, reads))
    }

    pub fn link(
        &self,
        plugin: &Loaded,
        tech: &str,
        facts: &[Vec<u8>],
    ) -> Result<Vec<wit::Endpoint>, String> {
        let out = self
            .call(plugin, |p, s| {
                p.portolan_analyzer_analyzer().call_link(s, tech, facts)
            })?
            .map_err(|msg| format!("reported an error while linking: {}", clip(&msg, 500)))?;
        check_output_size(out.iter().map(endpoint_size).sum())?;
        Ok(out)
    }

    fn explain(
        &self,
        err: &wasmtime::Error,
        output: &MemoryOutputPipe,
        timeout: Duration,
    ) -> String {
        if let Some(Trap::Interrupt) = err.downcast_ref::<Trap>() {
            return format!(
                "{TIMED_OUT} {} s (the per-call time limit); it may loop forever. Raise the limit with --plugin-timeout if the input is just large",
                timeout.as_secs_f64()
            );
        }
        let chain = format!("{err:#}");
        if chain.contains("growing memory") {
            return format!(
                "was stopped for trying to use more than {} MiB of memory. Raise the limit with --plugin-memory if the input is just large",
                self.limits.memory_bytes / (1024 * 1024)
            );
        }
        let printed = String::from_utf8_lossy(&output.contents()).into_owned();
        if let Some(panic) = panic_message(&printed) {
            return format!("panicked: {panic}");
        }
        let tail = printed
            .lines()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" | ");
        if tail.is_empty() {
            format!("trapped: {}", root_cause(err))
        } else {
            format!(
                "trapped: {} (plugin output: {})",
                root_cause(err),
                clip(&tail, 500)
            )
        }
    }
}

/// How every "time limit reached" message starts ([`is_timeout`]).
const TIMED_OUT: &str = "was stopped after running for";

/// Whether an error from [`Runtime::analyze`] is a timeout.
pub fn is_timeout(message: &str) -> bool {
    message.starts_with(TIMED_OUT)
}

/// Is a plugin's declared interface version usable by this host? While the
/// package is 0.x, major.minor must match.
pub fn compatible(version: &str) -> bool {
    let ours: Vec<&str> = INTERFACE_VERSION.split('.').collect();
    let theirs: Vec<&str> = version.split('.').collect();
    theirs.len() == 3
        && theirs[0] == ours[0]
        && theirs[1] == ours[1]
        && theirs[2].parse::<u32>().is_ok()
}

/// Refuse a component whose `analyzer` export is for another version, before
/// linking, so the message names both versions.
fn check_interface(engine: &Engine, component: &Component, name: &str) -> Result<(), String> {
    let ty = component.component_type();
    let prefix = "portolan:analyzer/analyzer@";
    let versions: Vec<String> = ty
        .exports(engine)
        .filter_map(|(n, _)| n.strip_prefix(prefix).map(str::to_string))
        .collect();
    match versions.first() {
        None => Err(format!(
            "does not export `portolan:analyzer/analyzer`; `{name}` is not a portolan analyzer plugin"
        )),
        Some(v) if !compatible(v) => Err(format!(
            "was built for plugin interface {v} but this portolan speaks {INTERFACE_VERSION}; rebuild it against portolan-plugin-sdk {INTERFACE_VERSION} or use a portolan release that speaks {v}"
        )),
        Some(_) => Ok(()),
    }
}

fn check_output_size(size: usize) -> Result<(), String> {
    if size > MAX_OUTPUT_BYTES {
        Err(format!(
            "returned {:.1} MiB of results in one call, over the {} MiB limit; its results for this batch were dropped",
            size as f64 / (1024.0 * 1024.0),
            MAX_OUTPUT_BYTES / (1024 * 1024)
        ))
    } else {
        Ok(())
    }
}

fn endpoint_size(e: &wit::Endpoint) -> usize {
    let params: usize = e
        .params
        .iter()
        .map(|p| p.name.len() + p.value.len() + 8)
        .sum();
    let tags: usize = e
        .tags
        .iter()
        .map(|t| t.name.len() + t.description.len() + t.tagger.len())
        .sum();
    let paths: usize = e.code_paths.iter().map(|c| c.path.len() + 8).sum();
    let ctx: usize = e.ai_context.as_ref().map_or(0, |c| {
        [
            &c.guards,
            &c.callees,
            &c.sources,
            &c.sinks,
            &c.validators,
            &c.signals,
        ]
        .iter()
        .flat_map(|b| b.iter())
        .map(|x| {
            x.kind.len()
                + x.name.len()
                + x.snippet.as_ref().map_or(0, String::len)
                + x.description.as_ref().map_or(0, String::len)
                + x.path.as_ref().map_or(0, String::len)
                + 16
        })
        .sum()
    });
    e.url.len() + e.method.len() + e.protocol.len() + params + tags + paths + ctx + 16
}

/// Pull "message (location)" out of Rust's panic output.
fn panic_message(printed: &str) -> Option<String> {
    let idx = printed.find("panicked at ")?;
    let rest = &printed[idx + "panicked at ".len()..];
    let (location, message) = match rest.split_once(":\n") {
        Some((loc, msg)) => (loc.trim(), msg.lines().next().unwrap_or("").trim()),
        None => ("", rest.lines().next().unwrap_or("").trim()),
    };
    Some(if location.is_empty() {
        clip(message, 500)
    } else {
        format!("{} (at {location})", clip(message, 500))
    })
}

fn root_cause(err: &wasmtime::Error) -> String {
    err.chain()
        .last()
        .map(|c| c.to_string())
        .unwrap_or_else(|| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_compatibility() {
        assert!(compatible("0.3.0"));
        assert!(compatible("0.3.7"));
        assert!(!compatible("0.1.0"));
        assert!(!compatible("0.2.0"));
        assert!(!compatible("0.4.0"));
        assert!(!compatible("9.0.0"));
        assert!(!compatible("0.1"));
    }

    /// The `picky` test plugin (tests/plugins): `TRAP` in a file panics,
    /// `HANG` loops, anything else is `GET /picky/<stem>`.
    fn picky(timeout: Duration) -> (Runtime, Loaded) {
        let path =
            std::path::Path::new(env!("PORTOLAN_TEST_PLUGIN_DIR")).join("test_plugin_picky.wasm");
        let bytes = std::fs::read(&path).expect("the test plugins are built by host/build.rs");
        let source = PluginSource::new("picky".into(), super::super::Origin::Builtin, bytes.into());
        let runtime = Runtime::new(
            None,
            Limits {
                timeout,
                ..Limits::default()
            },
            Sandbox::new(&[], 1024 * 1024),
        )
        .unwrap();
        let loaded = runtime.load(&source, "picky").unwrap();
        (runtime, loaded)
    }

    fn call(
        runtime: &Runtime,
        loaded: &Loaded,
        name: &str,
        content: &str,
    ) -> Result<Vec<String>, String> {
        let file = wit::SourceFile {
            path: format!("app/{name}.picky"),
            content: content.into(),
        };
        runtime
            .analyze(loaded, "test_picky", &[file])
            .map(|(out, _)| out.endpoints.into_iter().map(|e| e.url).collect())
    }

    fn idle(runtime: &Runtime) -> usize {
        runtime.warm.idle.lock().unwrap().len()
    }

    #[test]
    fn a_clean_call_leaves_its_instance_warm_for_the_next() {
        let (runtime, loaded) = picky(Duration::from_secs(30));
        assert_eq!(idle(&runtime), 0);
        assert_eq!(call(&runtime, &loaded, "a", "ok").unwrap(), ["/picky/a"]);
        assert_eq!(idle(&runtime), 1);
        assert_eq!(call(&runtime, &loaded, "b", "ok").unwrap(), ["/picky/b"]);
        assert_eq!(
            idle(&runtime),
            1,
            "the second call reused the warm instance"
        );
    }

    #[test]
    fn a_trapped_instance_is_dropped_and_the_next_call_starts_fresh() {
        let (runtime, loaded) = picky(Duration::from_secs(30));
        call(&runtime, &loaded, "a", "ok").unwrap();
        let err = call(&runtime, &loaded, "bad", "TRAP").unwrap_err();
        assert!(
            err.contains("panicked: trap marker in app/bad.picky"),
            "{err}"
        );
        assert_eq!(idle(&runtime), 0, "the trapped instance is not kept");
        assert_eq!(call(&runtime, &loaded, "c", "ok").unwrap(), ["/picky/c"]);
    }

    #[test]
    fn the_time_limit_restarts_with_every_call_on_a_warm_instance() {
        let limit = Duration::from_millis(300);
        let (runtime, loaded) = picky(limit);
        call(&runtime, &loaded, "a", "ok").unwrap();
        // Idle for longer than the limit: a deadline set when the
        // instance was created would already have passed.
        std::thread::sleep(limit * 3);
        assert_eq!(call(&runtime, &loaded, "b", "ok").unwrap(), ["/picky/b"]);
        let err = call(&runtime, &loaded, "c", "HANG").unwrap_err();
        assert!(is_timeout(&err), "{err}");
        assert_eq!(call(&runtime, &loaded, "d", "ok").unwrap(), ["/picky/d"]);
    }

    #[test]
    fn panic_messages_are_extracted() {
        let printed = "thread '<unnamed>' panicked at src/lib.rs:20:9:\ncannot parse x\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(printed).unwrap(),
            "cannot parse x (at src/lib.rs:20:9)"
        );
    }
}
