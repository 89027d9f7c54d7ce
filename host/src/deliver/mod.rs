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
use std::time::Duration;

use reqwest::blocking::Client;
use reqwest::header::{HeaderName, HeaderValue};
use reqwest::{Method, Url};

use crate::cli::ScanArgs;
use crate::log;
use crate::model::{Endpoint, Report};
use crate::output::pvalue::Pvalues;

use send::{Outcome, Pace, Settings, Tally};

pub const DEFAULT_CONCURRENCY: usize = 8;
pub const DEFAULT_TIMEOUT_SECS: f64 = 10.0;
pub const DEFAULT_RETRIES: u32 = 2;

/// What to deliver where, checked before the scan starts.
pub struct Plan {
    /// Replays, proxy first.
    replays: Vec<Replay>,
    es: Option<es::Target>,
    webhook: Option<webhook::Target>,
    /// `--exclude-codes`: endpoints whose direct replay answered one of
    /// these leave the report.
    exclude_codes: Vec<u16>,
    headers: Vec<(HeaderName, HeaderValue)>,
    selector: filter::Selector,
    settings: Settings,
    tls_skip_verify: bool,
}

struct Replay {
    /// `-u`: replays only go to endpoints on its origin.
    base: Url,
    proxy: Option<Proxy>,
}

struct Proxy {
    url: Url,
    /// Password hidden.
    shown: String,
    insecure: bool,
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
    /// The plan for these flags; `None` when no delivery is asked for.
    /// Every mistake is a usage error, before anything is scanned.
    pub fn from_args(args: &ScanArgs) -> Result<Option<Plan>, String> {
        let any = args.send_req
            || args.send_proxy.is_some()
            || args.send_es.is_some()
            || args.send_webhook.is_some();
        if !args.exclude_codes.is_empty() && !args.send_req {
            return Err(
                "--exclude-codes needs --send-req: statuses come from the direct replay".into(),
            );
        }
        if !any {
            let stray = [
                (!args.with_headers.is_empty(), "--with-headers"),
                (!args.use_matchers.is_empty(), "--use-matchers"),
                (!args.use_filters.is_empty(), "--use-filters"),
                (args.proxy_insecure, "--proxy-insecure"),
                (args.tls_skip_verify, "--tls-skip-verify"),
                (args.send_es_index.is_some(), "--send-es-index"),
                (args.send_concurrency.is_some(), "--send-concurrency"),
                (args.send_timeout.is_some(), "--send-timeout"),
                (args.send_retries.is_some(), "--send-retries"),
                (args.send_rate.is_some(), "--send-rate"),
            ];
            if let Some((_, flag)) = stray.iter().find(|(set, _)| *set) {
                return Err(format!(
                    "{flag} only applies to a delivery: add --send-req, --send-proxy URL, --send-es URL or --send-webhook URL"
                ));
            }
            return Ok(None);
        }
        if args.proxy_insecure && args.send_proxy.is_none() {
            return Err("--proxy-insecure only applies to --send-proxy".into());
        }
        if args.send_es_index.is_some() && args.send_es.is_none() {
            return Err("--send-es-index only applies to --send-es".into());
        }
        let concurrency = args.send_concurrency.unwrap_or(DEFAULT_CONCURRENCY);
        crate::limits::send_concurrency(concurrency)
            .map_err(|e| format!("--send-concurrency {e}"))?;
        let timeout = args.send_timeout.unwrap_or(DEFAULT_TIMEOUT_SECS);
        if !(timeout > 0.0 && timeout.is_finite() && timeout <= 86_400.0) {
            return Err("--send-timeout must be a positive number of seconds".into());
        }
        if let Some(r) = args.send_rate {
            crate::limits::send_rate(r).map_err(|e| format!("--send-rate {e}"))?;
        }
        let retries = args.send_retries.unwrap_or(DEFAULT_RETRIES);
        if retries > 10 {
            return Err("--send-retries must be at most 10".into());
        }
        let headers = args
            .with_headers
            .iter()
            .map(|h| request::parse_header(h))
            .collect::<Result<Vec<_>, _>>()?;
        let selector = filter::Selector::new(&args.use_matchers, &args.use_filters)?;

        let mut replays = Vec::new();
        if args.send_req || args.send_proxy.is_some() {
            let flag = if args.send_proxy.is_some() {
                "--send-proxy"
            } else {
                "--send-req"
            };
            let Some(u) = &args.url else {
                return Err(format!(
                    "{flag} needs -u <base URL>: requests only go to the target you name"
                ));
            };
            let base = Url::parse(&crate::with_scheme(u))
                .map_err(|e| format!("-u `{u}` is not a URL: {e}"))?;
            if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
                return Err(format!("{flag} needs an http or https -u URL, not `{u}`"));
            }
            if let Some(p) = &args.send_proxy {
                replays.push(Replay {
                    base: base.clone(),
                    proxy: Some(parse_proxy(p, args.proxy_insecure)?),
                });
            }
            if args.send_req {
                replays.push(Replay { base, proxy: None });
            }
        }
        let es = match &args.send_es {
            Some(u) => Some(es::Target::parse(
                u,
                args.send_es_index.as_deref().unwrap_or(es::DEFAULT_INDEX),
            )?),
            None => None,
        };
        let webhook = args
            .send_webhook
            .as_deref()
            .map(webhook::Target::parse)
            .transpose()?;
        Ok(Some(Plan {
            replays,
            es,
            webhook,
            exclude_codes: args.exclude_codes.clone(),
            headers,
            selector,
            settings: Settings {
                concurrency,
                timeout: Duration::from_secs_f64(timeout),
                retries,
                rate: args.send_rate,
            },
            tls_skip_verify: args.tls_skip_verify,
        }))
    }

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
fn parse_proxy(raw: &str, insecure: bool) -> Result<Proxy, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> ScanArgs {
        use clap::Parser;
        let mut v = vec!["portolan", "-b", "x"];
        v.extend_from_slice(extra);
        crate::cli::Cli::try_parse_from(v).unwrap().scan
    }

    fn err(extra: &[&str]) -> String {
        match Plan::from_args(&args(extra)) {
            Err(e) => e,
            Ok(_) => panic!("{extra:?} should be refused"),
        }
    }

    #[test]
    fn no_delivery_no_plan_and_stray_flags_are_refused() {
        assert!(Plan::from_args(&args(&[])).unwrap().is_none());
        assert!(err(&["--with-headers", "A: b"]).starts_with("--with-headers only applies"));
        assert!(err(&["--send-rate", "5"]).starts_with("--send-rate only applies"));
        assert!(err(&["--send-es", "http://h:9200", "--proxy-insecure"])
            .contains("--proxy-insecure only applies to --send-proxy"));
    }

    #[test]
    fn replays_need_a_base_url_and_a_proxy_port() {
        assert!(err(&["--send-req"]).contains("--send-req needs -u"));
        assert!(err(&["--send-proxy", "http://p:8080"]).contains("--send-proxy needs -u"));
        assert!(err(&["-u", "http://h", "--send-proxy", "http://p"]).contains("host and port"));
        assert!(err(&["-u", "http://h", "--send-proxy", "socks5://p:1"]).contains("HTTP proxy"));
        let plan = Plan::from_args(&args(&[
            "-u",
            "http://h:5000",
            "--send-req",
            "--send-proxy",
            "u:secret@127.0.0.1:8080",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(plan.replays.len(), 2);
        let p = plan.replays[0].proxy.as_ref().unwrap();
        assert_eq!(p.shown, "http://u:***@127.0.0.1:8080");
        assert!(plan.replays[1].proxy.is_none());
        assert!(parse_proxy("http://p:80", false).is_ok());
    }

    #[test]
    fn limits_are_checked() {
        assert!(
            err(&["-u", "http://h", "--send-req", "--send-concurrency", "0"])
                .contains("between 1 and")
        );
        assert!(
            err(&["-u", "http://h", "--send-req", "--send-timeout", "0"])
                .contains("--send-timeout")
        );
        assert!(err(&["-u", "http://h", "--send-req", "--send-rate=-1"]).contains("--send-rate"));
        assert!(
            err(&["-u", "http://h", "--send-req", "--with-headers", "nocolon"])
                .contains("Name: Value")
        );
        assert!(
            err(&["-u", "http://h", "--send-req", "--use-filters", "regex:["])
                .contains("--use-filters: bad regex")
        );
        let plan = Plan::from_args(&args(&["-u", "h.example", "--send-req"]))
            .unwrap()
            .unwrap();
        assert_eq!(plan.settings.concurrency, DEFAULT_CONCURRENCY);
        assert_eq!(plan.replays[0].base.as_str(), "https://h.example/");
    }
}
