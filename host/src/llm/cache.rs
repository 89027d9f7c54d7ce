//! Answers kept on disk so a re-run sends nothing for unchanged files.
//!
//! One entry per file: `<dir>/<key>.json` holding the endpoints the model
//! found in that file (line numbers included, file name not: the same
//! content found under another path reuses the entry). Key = SHA-256 of
//! the provider's endpoint URL, the model, the prompt version and the
//! SHA-256 of the file content. `dir` = `$PORTOLAN_CACHE_DIR/ai`, else the
//! platform cache directory (`~/.cache/portolan/ai`). Writes are atomic
//! (temporary file + rename); unreadable or corrupt entries are misses.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::schema::AnswerEndpoint;
use crate::hash::hex;

pub struct Cache {
    dir: PathBuf,
}

/// Bumped whenever the prompt or the schema changes, so old answers are not
/// reused for a different question.
pub const PROMPT_VERSION: &str = "portolan-ai-1";

impl Cache {
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("PORTOLAN_CACHE_DIR").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(dir).join("ai"));
        }
        directories::ProjectDirs::from("", "", "portolan").map(|p| p.cache_dir().join("ai"))
    }

    pub fn open(dir: &Path) -> std::io::Result<Cache> {
        fs::create_dir_all(dir)?;
        Ok(Cache {
            dir: dir.to_path_buf(),
        })
    }

    pub fn key(endpoint_url: &str, model: &str, content: &str) -> String {
        let content_hash = hex(&Sha256::digest(content.as_bytes()));
        let mut h = Sha256::new();
        for part in [endpoint_url, model, PROMPT_VERSION, &content_hash] {
            h.update(part.as_bytes());
            h.update([0u8]);
        }
        hex(&h.finalize())
    }

    pub fn get(&self, key: &str) -> Option<Vec<AnswerEndpoint>> {
        let text = fs::read_to_string(self.dir.join(format!("{key}.json"))).ok()?;
        serde_json::from_str(&text).ok()
    }

    pub fn put(&self, key: &str, endpoints: &[AnswerEndpoint]) -> std::io::Result<()> {
        let text = serde_json::to_string(endpoints).map_err(std::io::Error::other)?;
        let tmp = self.dir.join(format!(".{key}.{}.tmp", std::process::id()));
        fs::write(&tmp, text)?;
        fs::rename(&tmp, self.dir.join(format!("{key}.json")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_keys_separate_models_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(&dir.path().join("ai")).unwrap();
        let k = Cache::key("http://h/v1/chat/completions", "m1", "code");
        assert_ne!(k, Cache::key("http://h/v1/chat/completions", "m2", "code"));
        assert_ne!(k, Cache::key("http://h/v1/chat/completions", "m1", "code2"));
        assert_ne!(k, Cache::key("http://g/v1/chat/completions", "m1", "code"));
        assert!(cache.get(&k).is_none());
        let e = AnswerEndpoint {
            file: String::new(),
            line: 2,
            method: "GET".into(),
            url: "/x".into(),
            params: vec![],
        };
        cache.put(&k, std::slice::from_ref(&e)).unwrap();
        assert_eq!(cache.get(&k), Some(vec![e]));
        cache.put(&k, &[]).unwrap();
        assert_eq!(cache.get(&k), Some(vec![]));
        fs::write(dir.path().join("ai").join(format!("{k}.json")), "{oops").unwrap();
        assert!(cache.get(&k).is_none());
    }
}
