//! `--send-webhook URL`: the report as one JSON `POST`, for chat bots,
//! ticketing and dashboards. The body is the JSON report (`-f json`, with
//! the `--set-pvalue*` values and the endpoints `--use-matchers` /
//! `--use-filters` keep) plus `scan` metadata. A connection failure or a
//! 5xx answer is retried (`--send-retries`, with the same backoff as the
//! replays: the receiver did not take the report); any other status is
//! final, 2xx being success.

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use reqwest::{Method, Url};
use serde_json::Value;

use super::send::{self, Pace, Settings};

pub struct Target {
    /// Without credentials.
    pub url: Url,
    /// The URL as logs show it (password hidden).
    pub shown: String,
    /// Basic credentials from the URL.
    pub auth: Option<(String, String)>,
}

impl Target {
    pub fn parse(raw: &str) -> Result<Target, String> {
        let mut url = Url::parse(raw).map_err(|e| format!("--send-webhook `{raw}`: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err(format!(
                "--send-webhook `{raw}`: only http and https URLs with a host"
            ));
        }
        let (shown, auth) = super::es::take_credentials(&mut url);
        Ok(Target { url, shown, auth })
    }
}

/// Headers: JSON content type, the `--with-headers` ones, then the
/// User-Agent unless set.
fn headers(custom: &[(HeaderName, HeaderValue)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    super::request::apply_custom(&mut h, custom);
    h
}

/// POST `body`; `Err` says why it was not delivered.
pub fn post(
    client: &Client,
    target: &Target,
    body: &Value,
    custom: &[(HeaderName, HeaderValue)],
    settings: &Settings,
) -> Result<u16, String> {
    let text = body.to_string();
    let headers = headers(custom);
    let pace = Pace::new(settings.rate);
    let build = |c: &Client| {
        let b = c
            .request(Method::POST, target.url.clone())
            .headers(headers.clone())
            .body(text.clone());
        match &target.auth {
            Some((user, pass)) => b.basic_auth(user, Some(pass)),
            None => b,
        }
    };
    let mut attempt = 0u32;
    loop {
        // `send` retries connection failures itself.
        let resp = send::send(client, build, settings, &pace)?;
        let status = resp.status().as_u16();
        let answer = resp.text().unwrap_or_default();
        if (200..300).contains(&status) {
            return Ok(status);
        }
        if status >= 500 && attempt < settings.retries {
            std::thread::sleep(send::backoff(attempt));
            attempt += 1;
            continue;
        }
        let tries = if attempt > 0 {
            format!(" (after {} attempts)", attempt + 1)
        } else {
            String::new()
        };
        let snippet: String = answer.chars().take(200).collect();
        let snippet = snippet.trim();
        return Err(if snippet.is_empty() {
            format!("HTTP {status}{tries}")
        } else {
            format!("HTTP {status}{tries}: {snippet}")
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert!(Target::parse("https://hooks.example.com/T/1").is_ok());
        let t = Target::parse("https://bot:s3cret@hooks.example.com/x").unwrap();
        assert!(!t.shown.contains("s3cret"), "{}", t.shown);
        assert_eq!(t.auth, Some(("bot".into(), "s3cret".into())));
        assert_eq!(t.url.as_str(), "https://hooks.example.com/x");
        assert!(Target::parse("ftp://x/y").is_err());
        assert!(Target::parse("hooks.example.com").is_err());
    }
}
