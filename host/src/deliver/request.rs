//! An endpoint (with its `--set-pvalue*` values) as the HTTP request a
//! replay sends:
//!
//! - method: the endpoint's method;
//! - URL: the endpoint's URL with every path placeholder (`{id}`,
//!   `<int:id>`, `:id`, `*rest`) replaced by its path param's value,
//!   percent-encoded as one segment; a placeholder without a value gets `1`
//!   when it looks numeric (`<int:…>`/`<float:…>` converters, names such as
//!   `id`, `user_id`, `userId`, `page`, `limit`), a fixed UUID for `<uuid:…>`,
//!   else `portolan`; then query params appended (`application/x-www-form-urlencoded`
//!   encoding), except a pair the URL already carries;
//! - body: JSON params as a JSON object of strings (`application/json`);
//!   else, with file params, `multipart/form-data` (form params as text
//!   parts, each file param a small `portolan.txt` part holding its value);
//!   else form params URL-encoded (`application/x-www-form-urlencoded`);
//!   no body params, no body;
//! - headers: header params, then `Cookie: a=v; b=v` from cookie params,
//!   then the `--with-headers` ones (which replace a same-named header);
//!   `User-Agent: portolan/<version>` unless one of those sets it.

use reqwest::blocking::multipart::{Form, Part};
use reqwest::blocking::{Client, RequestBuilder};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE, COOKIE, USER_AGENT};
use reqwest::{Method, Url};

use crate::model::{Endpoint, Param, ParamType};
use crate::optimize::{path_placeholders, split_query, unify_placeholders};

/// The value for a path placeholder nobody gave a value.
const DEFAULT_TEXT: &str = "portolan";
const DEFAULT_UUID: &str = "00000000-0000-4000-8000-000000000000";

#[derive(Clone, Debug)]
pub struct Request {
    pub method: Method,
    pub url: Url,
    pub headers: HeaderMap,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    None,
    Json(String),
    Form(String),
    /// (name, value) text parts and (name, content) file parts.
    Multipart {
        fields: Vec<(String, String)>,
        files: Vec<(String, String)>,
    },
}

/// `--with-headers 'Name: Value'`: the name is the text before the first
/// `:`, the value everything after it (colons included), trimmed.
pub fn parse_header(raw: &str) -> Result<(HeaderName, HeaderValue), String> {
    let Some((name, value)) = raw.split_once(':') else {
        return Err(format!(
            "--with-headers `{raw}`: expected `Name: Value` (a colon after the name)"
        ));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("--with-headers `{raw}`: the header name is empty"));
    }
    let name = HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("--with-headers `{raw}`: `{name}` is not a valid header name"))?;
    let value = HeaderValue::from_str(value.trim()).map_err(|_| {
        format!("--with-headers `{raw}`: the value has characters a header cannot carry")
    })?;
    Ok((name, value))
}

pub fn user_agent() -> HeaderValue {
    HeaderValue::from_static(concat!("portolan/", env!("CARGO_PKG_VERSION")))
}

/// The `--with-headers` headers replace same-named ones already in
/// `headers` (a name given twice keeps both values); then our User-Agent
/// unless one was given.
pub fn apply_custom(headers: &mut HeaderMap, custom: &[(HeaderName, HeaderValue)]) {
    for (name, _) in custom {
        headers.remove(name);
    }
    for (name, value) in custom {
        headers.append(name.clone(), value.clone());
    }
    if !headers.contains_key(USER_AGENT) {
        headers.insert(USER_AGENT, user_agent());
    }
}

/// Build the request for one endpoint; an error says why it cannot be sent.
pub fn build(e: &Endpoint, custom: &[(HeaderName, HeaderValue)]) -> Result<Request, String> {
    let method = Method::from_bytes(e.method.as_bytes())
        .map_err(|_| format!("`{}` is not an HTTP method", e.method))?;
    let filled = fill_path(&e.url, &e.params);
    let mut url = Url::parse(&filled).map_err(|err| format!("bad URL `{filled}`: {err}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("`{}` is not an http(s) URL", e.url));
    }
    let of = |t: ParamType| e.params.iter().filter(move |p| p.param_type == t);
    let existing: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    let new: Vec<&Param> = of(ParamType::Query)
        .filter(|p| !existing.iter().any(|(n, v)| *n == p.name && *v == p.value))
        .collect();
    if !new.is_empty() {
        let mut q = url.query_pairs_mut();
        for p in new {
            q.append_pair(&p.name, &p.value);
        }
    }

    let mut headers = HeaderMap::new();
    for p in of(ParamType::Header) {
        let name = HeaderName::from_bytes(p.name.as_bytes())
            .map_err(|_| format!("header param `{}` is not a valid header name", p.name))?;
        let value = HeaderValue::from_str(&p.value)
            .map_err(|_| format!("header param `{}` has an invalid value", p.name))?;
        headers.append(name, value);
    }
    let cookies: Vec<String> = of(ParamType::Cookie)
        .map(|p| format!("{}={}", p.name, p.value))
        .collect();
    if !cookies.is_empty() {
        let jar = cookies.join("; ");
        let value = HeaderValue::from_str(&jar)
            .map_err(|_| format!("cookie params make an invalid Cookie header `{jar}`"))?;
        headers.insert(COOKIE, value);
    }
    let pairs = |t: ParamType| -> Vec<(String, String)> {
        of(t).map(|p| (p.name.clone(), p.value.clone())).collect()
    };
    let (json, form, files) = (
        pairs(ParamType::Json),
        pairs(ParamType::Form),
        pairs(ParamType::File),
    );
    let body = if !json.is_empty() {
        let map: serde_json::Map<String, serde_json::Value> = json
            .into_iter()
            .map(|(n, v)| (n, serde_json::Value::String(v)))
            .collect();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        Body::Json(serde_json::Value::Object(map).to_string())
    } else if !files.is_empty() {
        // reqwest sets the multipart Content-Type with its boundary.
        Body::Multipart {
            fields: form,
            files,
        }
    } else if !form.is_empty() {
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        Body::Form(form_encode(&form))
    } else {
        Body::None
    };
    apply_custom(&mut headers, custom);
    Ok(Request {
        method,
        url,
        headers,
        body,
    })
}

impl Request {
    /// A fresh reqwest request (one per attempt: multipart bodies are
    /// consumed when sent).
    pub fn to_builder(&self, client: &Client) -> RequestBuilder {
        let b = client
            .request(self.method.clone(), self.url.clone())
            .headers(self.headers.clone());
        match &self.body {
            Body::None => b,
            Body::Json(s) | Body::Form(s) => b.body(s.clone()),
            Body::Multipart { fields, files } => {
                let mut form = Form::new();
                for (n, v) in fields {
                    form = form.text(n.clone(), v.clone());
                }
                for (n, v) in files {
                    let content = if v.is_empty() { DEFAULT_TEXT } else { v };
                    let part = Part::bytes(content.as_bytes().to_vec()).file_name("portolan.txt");
                    let part = match part.mime_str("text/plain") {
                        Ok(p) => p,
                        Err(_) => {
                            Part::bytes(content.as_bytes().to_vec()).file_name("portolan.txt")
                        }
                    };
                    form = form.part(n.clone(), part);
                }
                b.multipart(form)
            }
        }
    }

    /// `METHOD URL`, for logs.
    pub fn label(&self) -> String {
        format!("{} {}", self.method, self.url)
    }
}

/// Replace every path placeholder with its value, percent-encoded.
pub fn fill_path(url: &str, params: &[Param]) -> String {
    let names = path_placeholders(url);
    if names.is_empty() {
        return url.to_string();
    }
    let unified = unify_placeholders(url);
    let (path, query) = split_query(&unified);
    let mut path = path.to_string();
    for name in names {
        let given = params
            .iter()
            .find(|p| p.param_type == ParamType::Path && p.name == name && !p.value.is_empty())
            .map(|p| p.value.clone());
        let value = given.unwrap_or_else(|| default_value(url, &name).to_string());
        path = path.replacen(&format!("{{{name}}}"), &encode(&value, false), 1);
    }
    format!("{path}{query}")
}

fn default_value(url: &str, name: &str) -> &'static str {
    let typed = |conv: &str| {
        url.contains(&format!("<{conv}:{name}>")) || url.contains(&format!("{{{name}:{conv}}}"))
    };
    if typed("uuid") {
        return DEFAULT_UUID;
    }
    if typed("int") || typed("float") || url.contains(&format!("{{{name}:\\d+}}")) {
        return "1";
    }
    if looks_numeric(name) {
        "1"
    } else {
        DEFAULT_TEXT
    }
}

fn looks_numeric(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "id", "ids", "pk", "no", "num", "number", "count", "page", "size", "limit", "offset",
        "index", "idx", "version", "seq", "year", "month", "day", "port",
    ];
    let lower = name.to_ascii_lowercase();
    WORDS.contains(&lower.as_str())
        || lower.ends_with("_id")
        || lower.ends_with("-id")
        || (name.ends_with("Id") && name.len() > 2)
}

/// Percent-encode everything but unreserved characters; with `form`,
/// spaces become `+` (`application/x-www-form-urlencoded`).
fn encode(s: &str, form: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b as char)
            }
            b' ' if form => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn form_encode(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(n, v)| format!("{}={}", encode(n, true), encode(v, true)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, t: ParamType, value: &str) -> Param {
        Param {
            value: value.into(),
            ..Param::new(name, t)
        }
    }

    #[test]
    fn placeholders_get_values_or_typed_defaults() {
        let params = [param("order_id", ParamType::Path, "a b/c")];
        assert_eq!(
            fill_path(
                "http://h/o/<int:order_id>/<slug>/:userId/{u:uuid}?x={y}",
                &params
            ),
            "http://h/o/a%20b%2Fc/portolan/1/00000000-0000-4000-8000-000000000000?x={y}"
        );
        assert_eq!(
            fill_path("http://h/i/<int:n>/*rest", &[]),
            "http://h/i/1/portolan"
        );
        assert_eq!(fill_path("http://h/plain", &[]), "http://h/plain");
    }

    #[test]
    fn json_body_query_headers_cookies_and_custom_headers() {
        let mut e = Endpoint::new("POST", "http://h:5000/api/orders/?status=new");
        e.params = vec![
            param("status", ParamType::Query, "new"),
            param("page", ParamType::Query, "2 & 3"),
            param("shipping_address", ParamType::Json, "1 Main St"),
            param("Idempotency-Key", ParamType::Header, "k1"),
            param("X-Token", ParamType::Header, "from-code"),
            param("cart_id", ParamType::Cookie, "c9"),
            param("theme", ParamType::Cookie, "dark"),
        ];
        let custom = [
            parse_header("x-token: Bearer a:b").unwrap(),
            parse_header("X-Extra:  1").unwrap(),
        ];
        let r = build(&e, &custom).unwrap();
        assert_eq!(r.method, Method::POST);
        assert_eq!(
            r.url.as_str(),
            "http://h:5000/api/orders/?status=new&page=2+%26+3"
        );
        assert_eq!(
            r.body,
            Body::Json(r#"{"shipping_address":"1 Main St"}"#.into())
        );
        let h = |n: &str| -> Vec<&str> {
            r.headers
                .get_all(n)
                .iter()
                .map(|v| v.to_str().unwrap())
                .collect()
        };
        assert_eq!(h("content-type"), ["application/json"]);
        assert_eq!(h("idempotency-key"), ["k1"]);
        assert_eq!(h("x-token"), ["Bearer a:b"]);
        assert_eq!(h("x-extra"), ["1"]);
        assert_eq!(h("cookie"), ["cart_id=c9; theme=dark"]);
        assert_eq!(
            h("user-agent"),
            [concat!("portolan/", env!("CARGO_PKG_VERSION"))]
        );
    }

    #[test]
    fn form_multipart_and_no_body() {
        let mut e = Endpoint::new("PUT", "http://h/f");
        e.params = vec![param("a b", ParamType::Form, "x&y=z é")];
        let r = build(&e, &[]).unwrap();
        assert_eq!(r.body, Body::Form("a+b=x%26y%3Dz+%C3%A9".into()));
        assert_eq!(
            r.headers.get(CONTENT_TYPE).unwrap(),
            "application/x-www-form-urlencoded"
        );
        e.params.push(param("image", ParamType::File, ""));
        let r = build(&e, &[]).unwrap();
        assert!(matches!(r.body, Body::Multipart { ref files, .. } if files.len() == 1));
        assert!(r.headers.get(CONTENT_TYPE).is_none());
        let r = build(&Endpoint::new("GET", "http://h/"), &[]).unwrap();
        assert_eq!(r.body, Body::None);
    }

    #[test]
    fn headers_parse_and_bad_ones_are_refused() {
        let (n, v) = parse_header("Authorization: Basic dTpw:x").unwrap();
        assert_eq!(
            (n.as_str(), v.to_str().unwrap()),
            ("authorization", "Basic dTpw:x")
        );
        assert!(parse_header("NoColon")
            .unwrap_err()
            .contains("expected `Name: Value`"));
        assert!(parse_header(": v").unwrap_err().contains("name is empty"));
        assert!(parse_header("Bad Name: v")
            .unwrap_err()
            .contains("not a valid header name"));
        let mut e = Endpoint::new("GET", "http://h/");
        e.params.push(param("Bad Name", ParamType::Header, ""));
        assert!(build(&e, &[]).unwrap_err().contains("`Bad Name`"));
        assert!(build(&Endpoint::new("GET", "/relative"), &[])
            .unwrap_err()
            .starts_with("bad URL"));
    }
}
