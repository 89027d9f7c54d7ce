//! The results cache: what an analyzer batch returned, kept on disk so a
//! rescan of a tree where little changed re-runs only the batches whose
//! inputs changed (`link` always runs again, on the cached and fresh facts).
//!
//! - Key: SHA-256 over everything a batch's output can depend on: this
//!   format, the portolan version, the plugin interface version, the
//!   sandbox limits, the base paths plugins are told, the plugin's SHA-256
//!   and settings, the technologies of the call with the positions each
//!   wants, and each file's display path and content SHA-256 ([`Key`]).
//!   Files a call read with `read-file` are recorded in the entry with a
//!   digest of the answer; the entry is used only while every such read
//!   still gives the same answer.
//! - Place: `$PORTOLAN_CACHE_DIR/results`, else the platform cache
//!   directory (`~/.cache/portolan/results`); never a path from the tree.
//!   One file per batch, named after the key only (`<hex>.bin`).
//! - Entries are written atomically (temporary file + rename) and read back
//!   with validation: magic, the key repeated inside, the payload length and
//!   its SHA-256, then a bounds-checked decoding. Anything else (truncated,
//!   corrupt, foreign, from another format) is a miss.
//! - Bounded: [`MAX_TOTAL_BYTES`] (or `PORTOLAN_RESULTS_CACHE_MIB`); after a
//!   run that wrote entries, the least recently used ones are removed until
//!   the directory is under three quarters of the cap. A hit refreshes its
//!   entry's time (at most once an hour). Entries over [`MAX_ENTRY_BYTES`]
//!   are not written.
//! - Only a batch whose single call succeeded is stored: failures, timeouts
//!   and per-file retries run again next time, so errors are reported the
//!   same way.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use crate::plugin::runtime::{wit, FileRead};

/// First bytes of every entry; bumped whenever the encoding or the key
/// changes meaning.
const MAGIC: &[u8; 8] = b"PTLNRC01";
/// The default cap on the directory's size.
pub const MAX_TOTAL_BYTES: u64 = 512 * 1024 * 1024;
/// Larger entries are not written (a batch this large is rare and cheap to
/// analyze again compared with the room it would take).
pub const MAX_ENTRY_BYTES: usize = 32 * 1024 * 1024;
/// A hit refreshes its entry's modification time when it is older.
const TOUCH_AFTER: Duration = Duration::from_secs(3600);
/// Temporary files older than this are left-overs of a killed run.
const STALE_TMP: Duration = Duration::from_secs(3600);

/// A batch's key: a SHA-256.
pub type Key = [u8; 32];

/// The key of one batch, built from the scan-wide part, the plugin's part
/// and the batch's own inputs.
#[derive(Clone)]
pub struct KeyBuilder(Sha256);

impl Default for KeyBuilder {
    fn default() -> KeyBuilder {
        let mut h = Sha256::new();
        h.update(MAGIC);
        KeyBuilder(h)
    }
}

impl KeyBuilder {
    /// A field, length-prefixed so that no two sequences of fields hash
    /// alike.
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    pub fn finish(&self) -> Key {
        self.0.clone().finalize().into()
    }
}

/// The SHA-256 of a file's content.
pub fn content_digest(content: &str) -> [u8; 32] {
    Sha256::digest(content.as_bytes()).into()
}

/// What a batch returned: one output per technology of the call (in the
/// call's order) and the files the call read.
#[derive(Debug)]
pub struct Entry {
    pub outputs: Vec<wit::BatchOutput>,
    pub reads: Vec<FileRead>,
}

/// One technology's output, borrowed for writing.
pub struct OutputRef<'a> {
    pub endpoints: &'a [wit::Endpoint],
    pub facts: &'a [u8],
}

/// The cache directory; counts the entries written (for `-d`).
pub struct ResultCache {
    dir: PathBuf,
    cap: u64,
    written: AtomicUsize,
}

impl ResultCache {
    /// `$PORTOLAN_CACHE_DIR/results`, else the platform cache directory.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("PORTOLAN_CACHE_DIR").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(dir).join("results"));
        }
        directories::ProjectDirs::from("", "", "portolan").map(|p| p.cache_dir().join("results"))
    }

    /// Open (creating) the cache at `dir`; the cap comes from
    /// `PORTOLAN_RESULTS_CACHE_MIB` when set to a number.
    pub fn open(dir: PathBuf) -> std::io::Result<ResultCache> {
        fs::create_dir_all(&dir)?;
        let cap = std::env::var("PORTOLAN_RESULTS_CACHE_MIB")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(MAX_TOTAL_BYTES, |mib| mib.saturating_mul(1024 * 1024));
        Ok(ResultCache {
            dir,
            cap,
            written: AtomicUsize::new(0),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Entries written by this run.
    pub fn written(&self) -> usize {
        self.written.load(Ordering::Relaxed)
    }

    fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.bin", crate::hash::hex(key)))
    }

    /// The entry stored under `key`, if there is a valid one.
    pub fn get(&self, key: &Key) -> Option<Entry> {
        let path = self.path(key);
        let mut file = fs::File::open(&path).ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() > (MAX_ENTRY_BYTES + 128) as u64 {
            return None;
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        std::io::Read::read_to_end(&mut file, &mut bytes).ok()?;
        let entry = decode_file(key, &bytes)?;
        drop(file);
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > TOUCH_AFTER);
        if old {
            if let Ok(f) = fs::File::options().append(true).open(&path) {
                let _ = f.set_modified(SystemTime::now());
            }
        }
        Some(entry)
    }

    /// Store `entry` under `key` (atomically; a failure is only logged by
    /// the caller's counters: the scan does not depend on it).
    pub fn put(&self, key: &Key, outputs: &[OutputRef], reads: &[FileRead]) {
        let Some(bytes) = encode_file(key, outputs, reads) else {
            return;
        };
        let path = self.path(key);
        let tmp = self.dir.join(format!(
            ".{}.{}.tmp",
            crate::hash::hex(&key[..8]),
            std::process::id()
        ));
        let written = fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(&bytes))
            .and_then(|()| fs::rename(&tmp, &path));
        match written {
            Ok(()) => {
                self.written.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => {
                let _ = fs::remove_file(&tmp);
            }
        }
    }

    /// Keep the directory under its cap: remove the least recently used
    /// entries until it is under three quarters of it, and temporary files
    /// a killed run left behind. Returns the number of entries removed.
    pub fn bound(&self) -> usize {
        let mut entries: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        let mut total = 0u64;
        for e in fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let Ok(meta) = e.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if name.ends_with(".tmp") {
                if modified.elapsed().is_ok_and(|age| age > STALE_TMP) {
                    let _ = fs::remove_file(e.path());
                }
                continue;
            }
            if !name.ends_with(".bin") {
                continue;
            }
            total += meta.len();
            entries.push((modified, meta.len(), e.path()));
        }
        if total <= self.cap {
            return 0;
        }
        entries.sort();
        let goal = self.cap / 4 * 3;
        let mut removed = 0;
        for (_, len, path) in entries {
            if total <= goal {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                removed += 1;
            }
            total = total.saturating_sub(len);
        }
        removed
    }
}

/// `MAGIC | key | payload length (u64 LE) | payload | SHA-256(payload)`.
fn encode_file(key: &Key, outputs: &[OutputRef], reads: &[FileRead]) -> Option<Vec<u8>> {
    let mut w = Writer(Vec::new());
    w.u32(outputs.len() as u32);
    for out in outputs {
        w.u32(out.endpoints.len() as u32);
        for e in out.endpoints {
            endpoint(&mut w, e);
        }
        w.bytes(out.facts);
    }
    w.u32(reads.len() as u32);
    for r in reads {
        w.str(&r.path);
        w.0.extend_from_slice(&r.digest);
    }
    let payload = w.0;
    if payload.len() > MAX_ENTRY_BYTES {
        return None;
    }
    let mut file = Vec::with_capacity(payload.len() + 80);
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(key);
    file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    file.extend_from_slice(&payload);
    file.extend_from_slice(&Sha256::digest(&payload));
    Some(file)
}

fn decode_file(key: &Key, bytes: &[u8]) -> Option<Entry> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let rest = rest.strip_prefix(key.as_slice())?;
    let (len, rest) = rest.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    if rest.len() != len.checked_add(32)? {
        return None;
    }
    let (payload, digest) = rest.split_at(len);
    if Sha256::digest(payload).as_slice() != digest {
        return None;
    }
    let mut r = Reader(payload);
    let n = r.count()?;
    let mut outputs = Vec::with_capacity(n);
    for _ in 0..n {
        let m = r.count()?;
        let mut endpoints = Vec::with_capacity(m);
        for _ in 0..m {
            endpoints.push(read_endpoint(&mut r)?);
        }
        let facts = r.bytes()?.to_vec();
        outputs.push(wit::BatchOutput { endpoints, facts });
    }
    let n = r.count()?;
    let mut reads = Vec::with_capacity(n);
    for _ in 0..n {
        let path = r.string()?;
        let digest = *r.take(32)?.first_chunk::<32>()?;
        reads.push(FileRead { path, digest });
    }
    r.0.is_empty().then_some(Entry { outputs, reads })
}

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn opt_str(&mut self, s: &Option<String>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }
    fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.u32(v);
            }
            None => self.u8(0),
        }
    }
}

/// A bounds-checked reader: every read past the end is `None`.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(*self.take(4)?.first_chunk::<4>()?))
    }
    /// A number of elements: each takes at least a byte, so a count larger
    /// than what is left is corrupt (and never allocates).
    fn count(&mut self) -> Option<usize> {
        let n = self.u32()? as usize;
        (n <= self.0.len()).then_some(n)
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    fn string(&mut self) -> Option<String> {
        std::str::from_utf8(self.bytes()?).ok().map(str::to_string)
    }
    fn flag(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
    fn opt_string(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? {
            Some(self.string()?)
        } else {
            None
        })
    }
    fn opt_u32(&mut self) -> Option<Option<u32>> {
        Some(if self.flag()? {
            Some(self.u32()?)
        } else {
            None
        })
    }
}

fn kind_code(k: wit::ParamKind) -> u8 {
    match k {
        wit::ParamKind::Query => 0,
        wit::ParamKind::Json => 1,
        wit::ParamKind::Form => 2,
        wit::ParamKind::Header => 3,
        wit::ParamKind::Cookie => 4,
        wit::ParamKind::Path => 5,
        wit::ParamKind::File => 6,
        wit::ParamKind::Flag => 7,
        wit::ParamKind::Argument => 8,
        wit::ParamKind::Env => 9,
    }
}

fn kind_of(code: u8) -> Option<wit::ParamKind> {
    Some(match code {
        0 => wit::ParamKind::Query,
        1 => wit::ParamKind::Json,
        2 => wit::ParamKind::Form,
        3 => wit::ParamKind::Header,
        4 => wit::ParamKind::Cookie,
        5 => wit::ParamKind::Path,
        6 => wit::ParamKind::File,
        7 => wit::ParamKind::Flag,
        8 => wit::ParamKind::Argument,
        9 => wit::ParamKind::Env,
        _ => return None,
    })
}

fn endpoint(w: &mut Writer, e: &wit::Endpoint) {
    w.str(&e.url);
    w.str(&e.method);
    w.u32(e.params.len() as u32);
    for p in &e.params {
        w.str(&p.name);
        w.str(&p.value);
        w.u8(kind_code(p.kind));
    }
    w.str(&e.protocol);
    w.u32(e.tags.len() as u32);
    for t in &e.tags {
        w.str(&t.name);
        w.str(&t.description);
        w.str(&t.tagger);
    }
    w.u32(e.code_paths.len() as u32);
    for c in &e.code_paths {
        w.str(&c.path);
        w.opt_u32(c.line);
    }
    w.u8(u8::from(e.internal));
    match &e.ai_context {
        None => w.u8(0),
        Some(c) => {
            w.u8(1);
            for list in [
                &c.guards,
                &c.callees,
                &c.sources,
                &c.sinks,
                &c.validators,
                &c.signals,
            ] {
                w.u32(list.len() as u32);
                for x in list {
                    w.str(&x.kind);
                    w.str(&x.name);
                    w.opt_str(&x.source);
                    w.opt_str(&x.description);
                    w.opt_str(&x.path);
                    w.opt_u32(x.line);
                    match x.confidence {
                        Some(c) => {
                            w.u8(1);
                            w.u8(c);
                        }
                        None => w.u8(0),
                    }
                    w.opt_str(&x.snippet);
                }
            }
        }
    }
}

fn read_endpoint(r: &mut Reader) -> Option<wit::Endpoint> {
    let url = r.string()?;
    let method = r.string()?;
    let n = r.count()?;
    let mut params = Vec::with_capacity(n);
    for _ in 0..n {
        params.push(wit::Param {
            name: r.string()?,
            value: r.string()?,
            kind: kind_of(r.u8()?)?,
        });
    }
    let protocol = r.string()?;
    let n = r.count()?;
    let mut tags = Vec::with_capacity(n);
    for _ in 0..n {
        tags.push(wit::Tag {
            name: r.string()?,
            description: r.string()?,
            tagger: r.string()?,
        });
    }
    let n = r.count()?;
    let mut code_paths = Vec::with_capacity(n);
    for _ in 0..n {
        code_paths.push(wit::CodeLocation {
            path: r.string()?,
            line: r.opt_u32()?,
        });
    }
    let internal = r.flag()?;
    let ai_context = if r.flag()? {
        let mut lists: Vec<Vec<wit::ContextEntry>> = Vec::with_capacity(6);
        for _ in 0..6 {
            let n = r.count()?;
            let mut list = Vec::with_capacity(n);
            for _ in 0..n {
                list.push(wit::ContextEntry {
                    kind: r.string()?,
                    name: r.string()?,
                    source: r.opt_string()?,
                    description: r.opt_string()?,
                    path: r.opt_string()?,
                    line: r.opt_u32()?,
                    confidence: if r.flag()? { Some(r.u8()?) } else { None },
                    snippet: r.opt_string()?,
                });
            }
            lists.push(list);
        }
        let mut lists = lists.into_iter();
        Some(wit::AiContext {
            guards: lists.next()?,
            callees: lists.next()?,
            sources: lists.next()?,
            sinks: lists.next()?,
            validators: lists.next()?,
            signals: lists.next()?,
        })
    } else {
        None
    };
    Some(wit::Endpoint {
        url,
        method,
        params,
        protocol,
        tags,
        code_paths,
        internal,
        ai_context,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Entry {
        let entry = wit::ContextEntry {
            kind: "guard".into(),
            name: "auth".into(),
            source: Some("decorator".into()),
            description: None,
            path: Some("app.py".into()),
            line: Some(3),
            confidence: Some(90),
            snippet: None,
        };
        Entry {
            outputs: vec![
                wit::BatchOutput {
                    endpoints: vec![wit::Endpoint {
                        url: "/items/{id}".into(),
                        method: "GET".into(),
                        params: vec![wit::Param {
                            name: "id".into(),
                            value: String::new(),
                            kind: wit::ParamKind::Path,
                        }],
                        protocol: "http".into(),
                        tags: vec![wit::Tag {
                            name: "t".into(),
                            description: "d".into(),
                            tagger: "x".into(),
                        }],
                        code_paths: vec![wit::CodeLocation {
                            path: "app.py".into(),
                            line: Some(7),
                        }],
                        internal: false,
                        ai_context: Some(wit::AiContext {
                            guards: vec![entry.clone()],
                            callees: vec![],
                            sources: vec![entry],
                            sinks: vec![],
                            validators: vec![],
                            signals: vec![],
                        }),
                    }],
                    facts: b"{\"prefix\":\"/api\"}\n".to_vec(),
                },
                wit::BatchOutput {
                    endpoints: vec![],
                    facts: vec![],
                },
            ],
            reads: vec![FileRead {
                path: "spec/common.yaml".into(),
                digest: [7; 32],
            }],
        }
    }

    fn debug(e: &Entry) -> String {
        format!("{:?} {:?}", e.outputs, e.reads)
    }

    fn refs(e: &Entry) -> Vec<OutputRef<'_>> {
        e.outputs
            .iter()
            .map(|o| OutputRef {
                endpoints: &o.endpoints,
                facts: &o.facts,
            })
            .collect()
    }

    fn encode(key: &Key, e: &Entry) -> Vec<u8> {
        encode_file(key, &refs(e), &e.reads).unwrap()
    }

    #[test]
    fn entries_round_trip_and_damage_is_a_miss() {
        let key = [1u8; 32];
        let bytes = encode(&key, &sample());
        let back = decode_file(&key, &bytes).unwrap();
        assert_eq!(debug(&back), debug(&sample()));
        // Another key (a file renamed), every truncation, every flipped
        // byte: a miss, never a panic.
        assert!(decode_file(&[2u8; 32], &bytes).is_none());
        for n in 0..bytes.len() {
            assert!(decode_file(&key, &bytes[..n]).is_none(), "truncated at {n}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(decode_file(&key, &bad).is_none(), "byte {i} flipped");
        }
    }

    #[test]
    fn the_directory_stays_under_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = ResultCache::open(dir.path().join("results")).unwrap();
        cache.cap = 4000;
        let mut big = sample();
        big.outputs[1].facts = vec![b'x'; 900];
        for i in 0..10u8 {
            cache.put(&[i; 32], &refs(&big), &big.reads);
            // Distinct times, oldest first.
            let path = cache.path(&[i; 32]);
            let f = fs::File::options().append(true).open(path).unwrap();
            f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1000 + u64::from(i)))
                .unwrap();
        }
        assert!(cache.bound() > 0);
        let total: u64 = fs::read_dir(cache.dir())
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum();
        assert!(total <= 3000, "{total}");
        // The newest entries are the ones kept.
        assert!(cache.get(&[9; 32]).is_some());
        assert!(cache.get(&[0; 32]).is_none());
    }
}
