//! The ranges of every numeric limit, checked in one place for flags and
//! config files alike, so no value can panic (a `Duration` overflow) or ask
//! for absurd resources (100,000 threads, gigabytes per plugin instance).
//! Each check returns a message naming the range; callers prefix the flag or
//! the config key and file.

/// `--plugin-timeout` default, seconds.
pub const DEFAULT_PLUGIN_TIMEOUT: f64 = 60.0;
/// `--plugin-timeout` range, seconds (a day at most).
pub const PLUGIN_TIMEOUT: (f64, f64) = (0.01, 86_400.0);
/// `--plugin-memory` default, MiB.
pub const DEFAULT_PLUGIN_MEMORY: usize = 512;
/// `--plugin-memory` range, MiB (a wasm32 memory cannot exceed 4 GiB).
pub const PLUGIN_MEMORY: (usize, usize) = (16, 4096);
/// `--concurrency` range (threads).
pub const CONCURRENCY: (usize, usize) = (1, 512);
/// `--send-concurrency` range (requests in flight).
pub const SEND_CONCURRENCY: (usize, usize) = (1, 1024);
/// `--send-rate` range (requests per second).
pub const SEND_RATE: (f64, f64) = (0.01, 100_000.0);
/// `--ai-max-files` range.
pub const AI_MAX_FILES: (usize, usize) = (1, 100_000);
/// `--ai-max-token` range.
pub const AI_MAX_TOKEN: (usize, usize) = (256, 10_000_000);
/// `PORTOLAN_MAX_FILE_SIZE` range, bytes (1 GiB at most).
pub const MAX_FILE_SIZE: (u64, u64) = (1, 1024 * 1024 * 1024);

/// The default `--concurrency`: the number of CPU cores, within range.
pub fn default_concurrency() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(CONCURRENCY.0, CONCURRENCY.1)
}

fn int<T: PartialOrd + std::fmt::Display + Copy>(
    v: T,
    (lo, hi): (T, T),
    unit: &str,
) -> Result<T, String> {
    if v < lo || v > hi {
        Err(format!("must be between {lo} and {hi}{unit}, not {v}"))
    } else {
        Ok(v)
    }
}

fn float(v: f64, (lo, hi): (f64, f64), unit: &str) -> Result<f64, String> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(v)
    } else {
        Err(format!("must be between {lo} and {hi}{unit}, not {v}"))
    }
}

pub fn plugin_timeout(v: f64) -> Result<f64, String> {
    float(v, PLUGIN_TIMEOUT, " seconds")
}

pub fn plugin_memory(v: usize) -> Result<usize, String> {
    int(v, PLUGIN_MEMORY, " MiB")
}

pub fn concurrency(v: usize) -> Result<usize, String> {
    int(v, CONCURRENCY, " threads")
}

pub fn send_concurrency(v: usize) -> Result<usize, String> {
    int(v, SEND_CONCURRENCY, " requests")
}

pub fn send_rate(v: f64) -> Result<f64, String> {
    float(v, SEND_RATE, " requests per second")
}

pub fn ai_max_files(v: usize) -> Result<usize, String> {
    int(v, AI_MAX_FILES, " files")
}

pub fn ai_max_token(v: usize) -> Result<usize, String> {
    int(v, AI_MAX_TOKEN, " tokens")
}

pub fn max_file_size(v: u64) -> Result<u64, String> {
    int(v, MAX_FILE_SIZE, " bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert!(plugin_timeout(60.0).is_ok());
        for bad in [0.0, -1.0, 1e20, 1e300, f64::NAN, f64::INFINITY, 1e8] {
            let e = plugin_timeout(bad).unwrap_err();
            assert!(e.contains("between 0.01 and 86400 seconds"), "{e}");
        }
        assert!(plugin_memory(99_999_999_999).is_err());
        assert!(plugin_memory(15).is_err());
        assert!(plugin_memory(4096).is_ok());
        assert!(concurrency(0).is_err() && concurrency(100_000).is_err());
        assert!(send_rate(1e-300).is_err());
        assert!(max_file_size(0).is_err());
        assert!((1..=512).contains(&default_concurrency()));
    }
}
