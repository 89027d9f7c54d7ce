//! Where the questions go: any OpenAI-compatible chat-completions endpoint,
//! or Ollama's native `/api/chat`.
//!
//! `--ai-provider` takes a name or a URL:
//!
//! | value | API | URL |
//! |---|---|---|
//! | `openai` | chat completions | `https://api.openai.com/v1/chat/completions` |
//! | `xai`, `github`, `azure`, `openrouter` | chat completions | the vendor's endpoint |
//! | `lmstudio`, `vllm` | chat completions | their default local port |
//! | `ollama` | Ollama native | `http://localhost:11434/api/chat` |
//! | a URL ending in `/chat/completions` | chat completions | as given |
//! | a URL ending in `/api/chat`, or whose host contains `ollama` | Ollama native | `<url>/api/chat` |
//! | a URL with no path | chat completions | `<url>/v1/chat/completions` |
//! | any other URL | chat completions | `<url>/chat/completions` |

use std::time::Duration;

use serde_json::{json, Value};

/// The two wire formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// `POST …/chat/completions`, answer in `choices[0].message.content`.
    OpenAi,
    /// `POST …/api/chat`, answer in `message.content`.
    Ollama,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provider {
    /// What the user wrote (`openai`, or the URL).
    pub name: String,
    pub api: Api,
    /// The full endpoint URL requests are posted to.
    pub url: String,
}

const NAMED: &[(&str, &str)] = &[
    ("openai", "https://api.openai.com/v1/chat/completions"),
    ("xai", "https://api.x.ai/v1/chat/completions"),
    (
        "github",
        "https://models.github.ai/inference/chat/completions",
    ),
    (
        "azure",
        "https://models.inference.ai.azure.com/chat/completions",
    ),
    (
        "openrouter",
        "https://openrouter.ai/api/v1/chat/completions",
    ),
    ("lmstudio", "http://localhost:1234/v1/chat/completions"),
    ("vllm", "http://localhost:8000/v1/chat/completions"),
];

impl Provider {
    /// Resolve `--ai-provider`.
    pub fn parse(value: &str) -> Result<Provider, String> {
        let value = value.trim();
        let lower = value.to_ascii_lowercase();
        if lower == "ollama" {
            return Ok(Provider {
                name: value.into(),
                api: Api::Ollama,
                url: "http://localhost:11434/api/chat".into(),
            });
        }
        if let Some((_, url)) = NAMED.iter().find(|(n, _)| *n == lower) {
            return Ok(Provider {
                name: value.into(),
                api: Api::OpenAi,
                url: (*url).into(),
            });
        }
        let Some((scheme, rest)) = value.split_once("://") else {
            let names: Vec<&str> = NAMED.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "--ai-provider: unknown provider `{value}`; use ollama, {}, or an http(s) URL",
                names.join(", ")
            ));
        };
        if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
            return Err(format!(
                "--ai-provider: `{value}` must be an http:// or https:// URL"
            ));
        }
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
            None => (rest, ""),
        };
        if host.is_empty() {
            return Err(format!("--ai-provider: `{value}` has no host"));
        }
        let base = format!("{scheme}://{host}");
        let (api, url) = if path.ends_with("/chat/completions") {
            (Api::OpenAi, format!("{base}{path}"))
        } else if path.ends_with("/api/chat") {
            (Api::Ollama, format!("{base}{path}"))
        } else if host.to_ascii_lowercase().contains("ollama") {
            let path = path.trim_end_matches("/v1");
            (Api::Ollama, format!("{base}{path}/api/chat"))
        } else if path.is_empty() {
            (Api::OpenAi, format!("{base}/v1/chat/completions"))
        } else {
            (Api::OpenAi, format!("{base}{path}/chat/completions"))
        };
        Ok(Provider {
            name: value.into(),
            api,
            url,
        })
    }

    /// Whether `OPENAI_API_KEY` may be sent here (only to OpenAI itself:
    /// a key meant for one vendor is never sent to another host).
    pub fn is_openai(&self) -> bool {
        self.url.starts_with("https://api.openai.com/")
    }
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub role: &'static str,
    pub content: String,
}

/// The JSON body of one request.
pub fn request_body(api: Api, model: &str, messages: &[Message], schema: &Value) -> Value {
    let messages: Vec<Value> = messages
        .iter()
        .map(|m| json!({"role": m.role, "content": m.content}))
        .collect();
    match api {
        Api::OpenAi => json!({
            "model": model,
            "messages": messages,
            "temperature": 0,
            "stream": false,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "portolan_endpoints", "strict": true, "schema": schema},
            },
        }),
        Api::Ollama => json!({
            "model": model,
            "messages": messages,
            "stream": false,
            "format": schema,
            "options": {"temperature": 0},
        }),
    }
}

/// Why a call produced no answer text (as opposed to a wrong answer).
#[derive(Debug)]
pub struct CallError(pub String);

pub struct Client {
    http: reqwest::blocking::Client,
    pub provider: Provider,
    pub model: String,
    key: Option<String>,
}

impl Client {
    pub fn new(provider: Provider, model: String, key: Option<String>) -> Result<Client, String> {
        let http = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(300))
            .user_agent(concat!("portolan/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
        Ok(Client {
            http,
            provider,
            model,
            key,
        })
    }

    /// The headers sent with every request, the key redacted (for
    /// `--ai-dry-run`).
    pub fn shown_headers(&self) -> Vec<String> {
        let mut h = vec!["Content-Type: application/json".to_string()];
        if self.key.is_some() {
            h.push("Authorization: Bearer <key redacted>".into());
        }
        h
    }

    /// Post one body; return the answer text (code fences removed).
    pub fn send(&self, body: &Value) -> Result<String, CallError> {
        let mut req = self.http.post(&self.provider.url).json(body);
        if let Some(key) = &self.key {
            req = req.bearer_auth(key);
        }
        let resp = req
            .send()
            .map_err(|e| CallError(format!("request failed: {e}")))?;
        let status = resp.status();
        let text = resp
            .text()
            .map_err(|e| CallError(format!("cannot read the answer: {e}")))?;
        let value: Option<Value> = serde_json::from_str(&text).ok();
        if let Some(err) = value.as_ref().and_then(|v| v.get("error")) {
            let msg = err
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| err.to_string());
            return Err(CallError(format!(
                "HTTP {}: {}",
                status.as_u16(),
                clip(&msg)
            )));
        }
        if !status.is_success() {
            return Err(CallError(format!(
                "HTTP {}: {}",
                status.as_u16(),
                clip(&text)
            )));
        }
        let Some(value) = value else {
            return Err(CallError(format!(
                "the endpoint did not answer JSON: {}",
                clip(&text)
            )));
        };
        let content = match self.provider.api {
            Api::OpenAi => value
                .pointer("/choices/0/message/content")
                .and_then(Value::as_str),
            Api::Ollama => value.pointer("/message/content").and_then(Value::as_str),
        };
        match content {
            Some(c) => Ok(strip_fences(c).to_string()),
            None => Err(CallError(format!(
                "the answer has no message content: {}",
                clip(&text)
            ))),
        }
    }
}

/// At most 300 characters of a server's text, for messages.
fn clip(text: &str) -> String {
    crate::escape::clip(text.trim(), 300)
}

/// Drop a surrounding ```` ```json … ``` ```` fence.
pub fn strip_fences(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let rest = rest.trim_end();
    let Some(inner) = rest.strip_suffix("```") else {
        return t;
    };
    // Skip the info string (`json`) on the opening line.
    match inner.find('\n') {
        Some(i) => inner[i + 1..].trim(),
        None => inner.trim(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn providers_resolve() {
        let p = Provider::parse("openai").unwrap();
        assert_eq!(p.api, Api::OpenAi);
        assert_eq!(p.url, "https://api.openai.com/v1/chat/completions");
        assert!(p.is_openai());
        let p = Provider::parse("Ollama").unwrap();
        assert_eq!(
            (p.api, p.url.as_str()),
            (Api::Ollama, "http://localhost:11434/api/chat")
        );
        let cases = [
            (
                "http://127.0.0.1:9/",
                Api::OpenAi,
                "http://127.0.0.1:9/v1/chat/completions",
            ),
            ("http://h/v1", Api::OpenAi, "http://h/v1/chat/completions"),
            (
                "https://h/x/chat/completions",
                Api::OpenAi,
                "https://h/x/chat/completions",
            ),
            (
                "http://h:11434/api/chat",
                Api::Ollama,
                "http://h:11434/api/chat",
            ),
            (
                "http://my-ollama:11434/v1",
                Api::Ollama,
                "http://my-ollama:11434/api/chat",
            ),
        ];
        for (input, api, url) in cases {
            let p = Provider::parse(input).unwrap();
            assert_eq!((p.api, p.url.as_str()), (api, url), "{input}");
            assert!(!p.is_openai());
        }
        assert!(Provider::parse("gpt")
            .unwrap_err()
            .contains("unknown provider"));
        assert!(Provider::parse("ftp://h").is_err());
        assert!(Provider::parse("http:///x").is_err());
    }

    #[test]
    fn fences_are_removed() {
        assert_eq!(strip_fences("```json\n{\"a\":1}\n```"), "{\"a\":1}");
        assert_eq!(strip_fences("```\n{}\n```\n"), "{}");
        assert_eq!(strip_fences(" {} "), "{}");
        assert_eq!(strip_fences("```{}"), "```{}");
    }

    #[test]
    fn bodies_ask_for_the_schema() {
        let schema = json!({"type": "object"});
        let msgs = [Message {
            role: "user",
            content: "hi".into(),
        }];
        let b = request_body(Api::OpenAi, "m", &msgs, &schema);
        assert_eq!(b["response_format"]["json_schema"]["schema"], schema);
        assert_eq!(b["response_format"]["json_schema"]["strict"], true);
        assert_eq!(b["messages"][0]["content"], "hi");
        let b = request_body(Api::Ollama, "m", &msgs, &schema);
        assert_eq!(b["format"], schema);
        assert_eq!(b["stream"], false);
    }
}
