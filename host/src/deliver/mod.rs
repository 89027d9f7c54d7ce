//! Delivery: the bridge from static to dynamic testing. After the report
//! is written, the endpoints can be
//!
//! - replayed through an HTTP proxy (`--send-proxy URL`), so they land in
//!   ZAP's, Burp's or mitmproxy's history; HTTPS targets go through
//!   `CONNECT`, and `--proxy-insecure` accepts the proxy's own certificate;
//! - replayed directly against `-u` (`--send-req`);
//! - indexed in an Elasticsearch/OpenSearch-compatible service
//!   (`--send-es URL`, [`es`]),
//!
//! in that order, each as asked. `--with-headers` adds headers to all of
//! them; `--use-matchers`/`--use-filters` ([`filter`]) choose the endpoints.
//! Requests are built by [`request`] and sent by [`send`].
//!
//! Nothing is sent anywhere the user did not name: replays go only to
//! endpoints on `-u`'s origin (others, e.g. absolute URLs from an OpenAPI
//! `servers` entry, are skipped with a note), redirects are not followed,
//! and proxy environment variables (`HTTP_PROXY`, …) are ignored. None of
//! these flags has a config-file key: a scanned repository's
//! `portolan.toml` cannot make portolan send anything.
//!
//! Concurrency: `--send-concurrency` (default 8) bounds requests in flight.
//! It is separate from `--concurrency`, which sizes the CPU-bound scan's
//! thread pool (default: the number of cores): the right number of
//! requests in flight depends on what the target can take, not on this
//! machine's cores, and tuning one should not change the other.

pub mod es;
pub mod filter;
pub mod request;
pub mod send;
pub mod webhook;

use std::collections::BTreeMap;

use reqwest::blocking::Client;
use reqwest::header::{HeaderName, HeaderValue};
use reqwest::{Method, Url};

use crate::log;
use crate::model::{Endpoint, Report};
use crate::output::pvalue::Pvalues;

use send::{Outcome, Pace, Settings, Tally};

pub const DEFAULT_CONCURRENCY: usize = 8;
pub const DEFAULT_TIMEOUT_SECS: f64 = 10.0;
pub const DEFAULT_RETRIES: u32 = 2;

/// What to deliver where, checked before the scan starts.
/// Built from the flags by `settings`.
pub struct Plan {
    /// Replays, proxy first.
    pub(crate) replays: Vec<Replay>,
    pub(crate) es: Option<es::Target>,
    pub(crate) webhook: Option<webhook::Target>,
    /// `--exclude-codes`: endpoints whose direct replay answered one of
    /// these leave the report.
    pub(crate) exclude_codes: Vec<u16>,
    pub(crate) headers: Vec<(HeaderName, HeaderValue)>,
    pub(crate) selector: filter::Selector,
    pub(crate) settings: Settings,
    pub(crate) tls_skip_verify: bool,
}

pub(crate) struct Replay {
    /// `-u`: replays only go to endpoints on its origin.
    pub(crate) base: Url,
    pub(crate) proxy: Option<Proxy>,
}

pub(crate) struct Proxy {
    pub(crate) url: Url,
    /// Password hidden.
    pub(crate) shown: String,
    pub(crate) insecure: bool,
}

/// What delivery did, for the exit status.
#[derive(Debug, Default)]
pub struct Summary {
    /// Requests without an answer plus documents not indexed.
    pub failed: usize,
}

/// What the direct replay (`--send-req`) found, per report endpoint.
#[derive(Debug, Default)]
pub struct Statuses {
    /// The answer's status, by the endpoint's index in the report (`None`:
    /// not sent, or no answer).
    pub per_endpoint: Vec<Option<u16>>,
    /// Requests without an answer.
    pub failed: usize,
}

impl Plan {
    /// Whether `--send-req` asked for the direct replay, which runs before
    /// the report is written so it can record each endpoint's status.
    pub fn has_direct(&self) -> bool {
        self.replays.iter().any(|r| r.proxy.is_none())
    }

    fn note_selection(&self, selected: usize, total: usize) {
        if !self.selector.matchers.is_empty() || !self.selector.filters.is_empty() {
            log::sub(format!(
                "➔ {} matchers, {} filters: {selected} of {total} endpoints selected.",
                self.selector.matchers.len(),
                self.selector.filters.len(),
            ));
        }
    }

    /// `--exclude-codes`.
    pub fn exclude_codes(&self) -> &[u16] {
        &self.exclude_codes
    }

    /// The direct replay (`--send-req`) of the selected endpoints, with
    /// each answer's status by report index.
    pub fn direct(&self, report: &Report, pvalues: &Pvalues) -> Statuses {
        let mut statuses = Statuses {
            per_endpoint: vec![None; report.endpoints.len()],
            failed: 0,
        };
        let Some(replay) = self.replays.iter().find(|r| r.proxy.is_none()) else {
            return statuses;
        };
        log::stage("Sending requests (--send-req).");
        let indices: Vec<usize> = (0..report.endpoints.len())
            .filter(|&i| self.selector.keeps(&report.endpoints[i]))
            .collect();
        self.note_selection(indices.len(), report.endpoints.len());
        let mut for_requests = Report {
            endpoints: indices
                .iter()
                .map(|&i| report.endpoints[i].clone())
                .collect(),
            ..Report::default()
        };
        pvalues.apply(&mut for_requests, false);
        let (failed, outcomes) = self.replay(replay, &for_requests.endpoints);
        statuses.failed = failed;
        for (&i, o) in indices.iter().zip(outcomes) {
            statuses.per_endpoint[i] = o;
        }
        statuses
    }

    /// Deliver the report's endpoints: proxy replays, the search index,
    /// the webhook (the direct replay ran before, [`Plan::direct`]). The
    /// report itself is not changed.
    pub fn run(&self, report: &Report, pvalues: &Pvalues, meta: &es::ScanMeta) -> Summary {
        let mut summary = Summary::default();
        if !self.replays.iter().any(|r| r.proxy.is_some())
            && self.es.is_none()
            && self.webhook.is_none()
        {
            return summary;
        }
        log::stage("Delivering endpoints.");
        let total = report.endpoints.len();
        let selected: Vec<Endpoint> = report
            .endpoints
            .iter()
            .filter(|e| self.selector.keeps(e))
            .cloned()
            .collect();
        // Said once per run: by the direct replay when there is one.
        if !self.has_direct() {
            self.note_selection(selected.len(), total);
        }
        // Requests fill URL placeholders themselves (percent-encoded);
        // documents show URLs the way the JSON report does.
        let mut for_requests = Report {
            endpoints: selected,
            ..Report::default()
        };
        let mut for_docs = for_requests.clone();
        pvalues.apply(&mut for_requests, false);
        pvalues.apply(&mut for_docs, true);

        for replay in self.replays.iter().filter(|r| r.proxy.is_some()) {
            summary.failed += self.replay(replay, &for_requests.endpoints).0;
        }
        if let Some(target) = &self.es {
            summary.failed += self.index(target, &for_docs.endpoints, meta);
        }
        if let Some(target) = &self.webhook {
            let doc = Report {
                endpoints: for_docs.endpoints,
                ..report.clone()
            };
            summary.failed += self.post_webhook(target, &doc, meta);
        }
        summary
    }

    /// POST the report to the webhook; 1 when it was not delivered.
    fn post_webhook(
        &self,
        target: &webhook::Target,
        report: &Report,
        meta: &es::ScanMeta,
    ) -> usize {
        let mut body = match serde_json::to_value(report) {
            Ok(v) => v,
            Err(e) => {
                log::warn(format!(
                    "webhook {}: cannot encode the report: {e}",
                    target.shown
                ));
                return 1;
            }
        };
        if let Some(map) = body.as_object_mut() {
            map.insert("scan".into(), meta.value());
        }
        let client = match self.client(None) {
            Ok(c) => c,
            Err(e) => {
                log::error(e);
                return 1;
            }
        };
        match webhook::post(&client, target, &body, &self.headers, &self.settings) {
            Ok(status) => {
                log::info(format!(
                    "Posted the report ({} endpoints) to the webhook {}: HTTP {status}.",
                    report.endpoints.len(),
                    target.shown
                ));
                0
            }
            Err(reason) => {
                log::warn(format!("webhook {}: {reason}", target.shown));
                1
            }
        }
    }

    fn client(&self, proxy: Option<&Proxy>) -> Result<Client, String> {
        let mut b = Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(self.settings.timeout)
            .connect_timeout(self.settings.timeout)
            .pool_max_idle_per_host(self.settings.concurrency);
        b = match proxy {
            Some(p) => {
                let rp = reqwest::Proxy::all(p.url.clone())
                    .map_err(|e| format!("proxy {}: {e}", p.shown))?;
                b.proxy(rp).danger_accept_invalid_certs(p.insecure)
            }
            None => b
                .no_proxy()
                .danger_accept_invalid_certs(self.tls_skip_verify),
        };
        b.build()
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))
    }

    /// One replay; returns the number of failed requests and each
    /// endpoint's answer status (`None`: not sent or no answer).
    fn replay(&self, replay: &Replay, endpoints: &[Endpoint]) -> (usize, Vec<Option<u16>>) {
        let mut statuses = vec![None; endpoints.len()];
        let target = replay.base.origin().ascii_serialization();
        let route = match &replay.proxy {
            Some(p) => {
                log::info(format!(
                    "Sending requests to {target} through proxy {}.",
                    p.shown
                ));
                format!(" through proxy {}", p.shown)
            }
            None => {
                log::info(format!("Sending requests to {target} (no proxy)."));
                String::new()
            }
        };
        let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut jobs: Vec<(String, Result<request::Request, String>)> = Vec::new();
        let mut job_endpoint: Vec<usize> = Vec::new();
        for (i, e) in endpoints.iter().enumerate() {
            let label = format!("{} {}", e.method, e.url);
            if e.protocol != "http" {
                *skipped
                    .entry(if e.is_websocket() {
                        "websocket"
                    } else {
                        "non-HTTP"
                    })
                    .or_default() += 1;
                log::debug(format!("skipped {label}: protocol {}", e.protocol));
                continue;
            }
            if e.method.eq_ignore_ascii_case("CONNECT") {
                *skipped.entry("CONNECT").or_default() += 1;
                log::debug(format!("skipped {label}: CONNECT is for proxies"));
                continue;
            }
            match request::build(e, &self.headers) {
                Ok(r) if r.url.origin() != replay.base.origin() => {
                    *skipped.entry("not on -u's origin").or_default() += 1;
                    log::debug(format!("skipped {label}: not on {target}"));
                }
                Ok(r) => {
                    jobs.push((r.label(), Ok(r)));
                    job_endpoint.push(i);
                }
                Err(err) => {
                    jobs.push((label, Err(err)));
                    job_endpoint.push(i);
                }
            }
        }
        for (why, n) in &skipped {
            log::sub(format!("➔ Skipped {n} endpoint(s): {why}."));
        }
        let client = match self.client(replay.proxy.as_ref()) {
            Ok(c) => c,
            Err(e) => {
                log::error(e);
                return (jobs.len(), statuses);
            }
        };
        let pace = Pace::new(self.settings.rate);
        let progress = log::progress(format!("Sending {} requests…", jobs.len()));
        progress.set_total(jobs.len() as u64);
        let outcomes = send::run_all(
            &jobs,
            self.settings.concurrency,
            |(_, job)| match job {
                Ok(r) => send::status_of(&client, |c| r.to_builder(c), &self.settings, &pace),
                Err(e) => Outcome::Failed(format!("not sent: {e}")),
            },
            || progress.inc(1),
        );
        drop(progress);
        let mut tally = Tally::default();
        for (((label, _), o), &i) in jobs.iter().zip(&outcomes).zip(&job_endpoint) {
            tally.add(o);
            if let Outcome::Status(s) = o {
                statuses[i] = Some(*s);
            }
            match o {
                Outcome::Failed(reason) => log::warn(format!("{label}: {reason}")),
                Outcome::Status(s) if *s >= 500 => log::warn(format!("{label}: HTTP {s}")),
                Outcome::Status(s) => log::debug(format!("{label}: HTTP {s}")),
            }
        }
        let skipped_n: usize = skipped.values().sum();
        let skipped_note = if skipped_n > 0 {
            format!("; {skipped_n} skipped")
        } else {
            String::new()
        };
        log::info(format!(
            "Sent {} requests to {target}{route}: {} answered, {} failed; status codes {}{skipped_note}.",
            jobs.len(),
            tally.answered,
            tally.failed,
            tally.histogram()
        ));
        (tally.failed, statuses)
    }

    /// Bulk-index the endpoints; returns the number of documents not indexed.
    fn index(&self, target: &es::Target, endpoints: &[Endpoint], meta: &es::ScanMeta) -> usize {
        log::info(format!(
            "Sending {} endpoints to the search index `{}` at {}.",
            endpoints.len(),
            target.index,
            target.shown
        ));
        let docs = es::documents(endpoints, &target.index, meta);
        let client = match self.client(None) {
            Ok(c) => c,
            Err(e) => {
                log::error(e);
                return docs.len();
            }
        };
        let headers = target.headers(&self.headers);
        let pace = Pace::new(self.settings.rate);
        let mut failed = 0;
        for batch in docs.chunks(es::BATCH) {
            let body = es::bulk_body(batch);
            let sent = send::send(
                &client,
                |c| {
                    let b = c
                        .request(Method::POST, target.bulk_url.clone())
                        .headers(headers.clone())
                        .body(body.clone());
                    match &target.auth {
                        Some((user, pass)) => b.basic_auth(user, Some(pass)),
                        None => b,
                    }
                },
                &self.settings,
                &pace,
            );
            let outcome = match sent {
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    let text = resp.text().unwrap_or_default();
                    es::outcomes(batch, status, &text)
                }
                Err(reason) => es::BatchOutcome::Failed(reason),
            };
            match outcome {
                es::BatchOutcome::Failed(reason) => {
                    failed += batch.len();
                    log::warn(format!(
                        "bulk request of {} documents failed: {reason}",
                        batch.len()
                    ));
                }
                es::BatchOutcome::Items(items) => {
                    for (doc, o) in batch.iter().zip(items) {
                        if let Some(reason) = o {
                            failed += 1;
                            log::warn(format!("not indexed: {}: {reason}", doc.label));
                        }
                    }
                }
            }
        }
        log::info(format!(
            "Indexed {} of {} endpoints into `{}` at {}{}.",
            docs.len() - failed,
            docs.len(),
            target.index,
            target.shown,
            if failed > 0 {
                format!("; {failed} failed")
            } else {
                String::new()
            }
        ));
        failed
    }
}

/// `--send-proxy`: `http://host:port` (or `https://`, or bare
/// `host:port`), with an explicit port and optional credentials.
pub(crate) fn parse_proxy(raw: &str, insecure: bool) -> Result<Proxy, String> {
    let with_scheme = if raw.contains("://") {
        raw.to_string()
    } else {
        format!("http://{raw}")
    };
    let url = Url::parse(&with_scheme).map_err(|e| format!("--send-proxy `{raw}`: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "--send-proxy `{raw}`: an HTTP proxy URL (http:// or https://)"
        ));
    }
    let host = url.host_str().unwrap_or("");
    let explicit_default = url
        .port_or_known_default()
        .is_some_and(|p| with_scheme.contains(&format!("{host}:{p}")));
    if host.is_empty() || (url.port().is_none() && !explicit_default) {
        return Err(format!(
            "--send-proxy `{raw}`: give the proxy's host and port, e.g. http://127.0.0.1:8080"
        ));
    }
    let mut shown = url.clone();
    if url.password().is_some() {
        let _ = shown.set_password(Some("***"));
    }
    Ok(Proxy {
        shown: shown.to_string().trim_end_matches('/').to_string(),
        url,
        insecure,
    })
}
