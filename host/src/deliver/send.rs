//! Sending: bounded concurrency, a shared rate limit, retries with backoff
//! on connection errors, and the tally behind the summary line.
//!
//! Only failures to connect are retried (the request never reached the
//! server, so retrying cannot repeat a side effect); a timeout, a TLS error
//! or any HTTP status is final. Each attempt takes a slot of the rate limit.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, RequestBuilder};

/// Limits shared by every delivery of a run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Whole-request timeout (connect, send, response headers and body).
    pub timeout: Duration,
    /// Extra attempts after a connection error.
    pub retries: u32,
    /// Requests per second over all workers; `None` = unlimited.
    pub rate: Option<f64>,
}

/// First backoff; doubles per retry, capped at [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(4);
/// Response bodies are read (so connections can be reused) up to this size.
const MAX_BODY: u64 = 1 << 20;

/// A shared schedule: one attempt per `interval`, over all workers.
pub struct Pace {
    interval: Option<Duration>,
    next: Mutex<Instant>,
}

impl Pace {
    pub fn new(rate: Option<f64>) -> Pace {
        Pace {
            interval: rate
                .filter(|r| *r > 0.0 && r.is_finite())
                .map(|r| Duration::from_secs_f64(1.0 / r)),
            next: Mutex::new(Instant::now()),
        }
    }

    /// Wait for this caller's slot.
    pub fn wait(&self) {
        let Some(interval) = self.interval else {
            return;
        };
        let at = match self.next.lock() {
            Ok(mut next) => {
                let at = (*next).max(Instant::now());
                *next = at + interval;
                at
            }
            Err(_) => return,
        };
        let now = Instant::now();
        if at > now {
            std::thread::sleep(at - now);
        }
    }
}

/// How one request ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The server answered with this status.
    Status(u16),
    /// No answer (connection refused, timeout, TLS, …), or the request
    /// could not be built; the reason.
    Failed(String),
}

/// Send with retries; `build` makes a fresh request per attempt.
pub fn send(
    client: &Client,
    build: impl Fn(&Client) -> RequestBuilder,
    settings: &Settings,
    pace: &Pace,
) -> Result<reqwest::blocking::Response, String> {
    let mut attempt = 0u32;
    loop {
        pace.wait();
        match build(client).send() {
            Ok(resp) => return Ok(resp),
            Err(e) if e.is_connect() && attempt < settings.retries => {
                std::thread::sleep(backoff(attempt));
                attempt += 1;
            }
            Err(e) => {
                let tries = if attempt > 0 {
                    format!(" (after {} attempts)", attempt + 1)
                } else {
                    String::new()
                };
                return Err(format!("{}{tries}", describe(&e, settings.timeout)));
            }
        }
    }
}

/// Send and keep only the status (the body is read and dropped).
pub fn status_of(
    client: &Client,
    build: impl Fn(&Client) -> RequestBuilder,
    settings: &Settings,
    pace: &Pace,
) -> Outcome {
    match send(client, build, settings, pace) {
        Ok(resp) => {
            let status = resp.status().as_u16();
            let _ = std::io::copy(
                &mut std::io::Read::take(resp, MAX_BODY),
                &mut std::io::sink(),
            );
            Outcome::Status(status)
        }
        Err(reason) => Outcome::Failed(reason),
    }
}

pub fn backoff(attempt: u32) -> Duration {
    FIRST_BACKOFF
        .saturating_mul(1u32 << attempt.min(16))
        .min(MAX_BACKOFF)
}

/// A short reason: "timed out after 10 s", "connection failed: Connection
/// refused (os error 111)", …
pub fn describe(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("timed out after {} s", timeout.as_secs_f64());
    }
    let mut root: &dyn std::error::Error = e;
    while let Some(next) = root.source() {
        root = next;
    }
    let cause = root.to_string();
    if e.is_connect() {
        format!("connection failed: {cause}")
    } else {
        cause
    }
}

/// Run `f` over `items` with at most `concurrency` at once; results keep
/// the items' order. `tick` runs after each item.
pub fn run_all<T: Sync, R: Send>(
    items: &[T],
    concurrency: usize,
    f: impl Fn(&T) -> R + Sync,
    tick: impl Fn() + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let workers = concurrency.clamp(1, items.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else {
                    break;
                };
                let r = f(item);
                if let Ok(mut slots) = results.lock() {
                    slots[i] = Some(r);
                }
                tick();
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// Counts for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Requests the server answered.
    pub answered: usize,
    /// Requests without an answer (or not buildable).
    pub failed: usize,
    /// Status code → count.
    pub statuses: BTreeMap<u16, usize>,
}

impl Tally {
    pub fn add(&mut self, o: &Outcome) {
        match o {
            Outcome::Status(s) => {
                self.answered += 1;
                *self.statuses.entry(*s).or_default() += 1;
            }
            Outcome::Failed(_) => self.failed += 1,
        }
    }

    /// `200×12 404×3 500×1`, or `none`.
    pub fn histogram(&self) -> String {
        if self.statuses.is_empty() {
            return "none".into();
        }
        self.statuses
            .iter()
            .map(|(s, n)| format!("{s}×{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let ms: Vec<u128> = (0..6).map(|a| backoff(a).as_millis()).collect();
        assert_eq!(ms, [250, 500, 1000, 2000, 4000, 4000]);
        assert_eq!(backoff(40), MAX_BACKOFF);
    }

    #[test]
    fn pace_spaces_attempts() {
        let pace = Pace::new(Some(50.0));
        let start = Instant::now();
        for _ in 0..6 {
            pace.wait();
        }
        // 6 slots at 20 ms: the last one starts 100 ms after the first.
        assert!(
            start.elapsed() >= Duration::from_millis(95),
            "{:?}",
            start.elapsed()
        );
        let free = Pace::new(None);
        let start = Instant::now();
        for _ in 0..1000 {
            free.wait();
        }
        assert!(start.elapsed() < Duration::from_millis(50));
    }

    #[test]
    fn run_all_bounds_concurrency_and_keeps_order() {
        let live = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let ticks = AtomicUsize::new(0);
        let items: Vec<usize> = (0..20).collect();
        let out = run_all(
            &items,
            3,
            |i| {
                let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(5));
                live.fetch_sub(1, Ordering::SeqCst);
                i * 2
            },
            || {
                ticks.fetch_add(1, Ordering::SeqCst);
            },
        );
        assert_eq!(out, (0..20).map(|i| i * 2).collect::<Vec<_>>());
        assert!(peak.load(Ordering::SeqCst) <= 3);
        assert_eq!(ticks.load(Ordering::SeqCst), 20);
    }

    #[test]
    fn tally_and_histogram() {
        let mut t = Tally::default();
        for o in [
            Outcome::Status(404),
            Outcome::Status(200),
            Outcome::Failed("x".into()),
            Outcome::Status(200),
        ] {
            t.add(&o);
        }
        assert_eq!((t.answered, t.failed), (3, 1));
        assert_eq!(t.histogram(), "200×2 404×1");
        assert_eq!(Tally::default().histogram(), "none");
    }
}
