//! Delivery flags (`--send-*`, `--with-headers`, `--use-matchers`, …):
//! the delivery plan, checked before anything is scanned.

use std::time::Duration;

use reqwest::Url;

use crate::cli::ScanArgs;
use crate::deliver::send::Settings;
use crate::deliver::{
    es, filter, parse_proxy, request, webhook, Plan, Replay, DEFAULT_CONCURRENCY, DEFAULT_RETRIES,
    DEFAULT_TIMEOUT_SECS,
};

/// The plan for these flags; `None` when no delivery is asked for.
/// Every mistake is a usage error, before anything is scanned.
pub fn plan(args: &ScanArgs) -> Result<Option<Plan>, String> {
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
    crate::limits::send_concurrency(concurrency).map_err(|e| format!("--send-concurrency {e}"))?;
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
        let base = Url::parse(&super::with_scheme(u))
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
        match plan(&args(extra)) {
            Err(e) => e,
            Ok(_) => panic!("{extra:?} should be refused"),
        }
    }

    #[test]
    fn no_delivery_no_plan_and_stray_flags_are_refused() {
        assert!(plan(&args(&[])).unwrap().is_none());
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
        let plan = plan(&args(&[
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
        let plan = plan(&args(&["-u", "h.example", "--send-req"]))
            .unwrap()
            .unwrap();
        assert_eq!(plan.settings.concurrency, DEFAULT_CONCURRENCY);
        assert_eq!(plan.replays[0].base.as_str(), "https://h.example/");
    }
}
