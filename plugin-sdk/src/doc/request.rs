//! Concrete HTTP requests written in API-client exports and captures
//! (Postman, HAR, Insomnia, Bruno, `.http` files): headers, cookies and
//! bodies → params.

use crate::prelude::{Param, ParamKind};

use super::body::{json_fields, looks_like_json};
use super::schema::{body_kind, BodyKind};
use super::url::form_pairs;

/// A header as params: `Cookie: a=1; b=2` gives one `cookie` param per
/// cookie, any other header a `header` param.
pub fn header_params(name: &str, value: &str) -> Vec<Param> {
    let name = name.trim();
    if name.eq_ignore_ascii_case("cookie") {
        return cookie_params(value);
    }
    if name.is_empty() {
        return Vec::new();
    }
    vec![Param::new(ParamKind::Header, name).value(value.trim())]
}

/// `a=1; b=2` → `cookie` params.
pub fn cookie_params(value: &str) -> Vec<Param> {
    value
        .split(';')
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = name.trim();
            (!name.is_empty()).then(|| Param::new(ParamKind::Cookie, name).value(value.trim()))
        })
        .collect()
}

/// `name=value` pairs of a query string → `query` params.
pub fn query_params(query: &str) -> Vec<Param> {
    form_pairs(query)
        .into_iter()
        .map(|(name, value)| Param::new(ParamKind::Query, name).value(value))
        .collect()
}

/// The fields of a body written out as text, given its content type when
/// known: JSON objects → `json`, urlencoded forms → `form`, multipart parts →
/// `form` (`file` when the part has a `filename` or is read from a file).
/// Without a content type, text that parses as a JSON object is JSON and
/// `a=1&b=2` text is a form. XML, plain text and other bodies: no fields.
pub fn body_params(content_type: Option<&str>, text: &str) -> Vec<Param> {
    let kind = content_type.and_then(body_kind);
    match kind {
        Some(BodyKind::Json) => json_params(text),
        Some(BodyKind::Form) => form_params(text),
        Some(BodyKind::Multipart) => multipart_params(text),
        None if content_type.is_some_and(|ct| !ct.trim().is_empty()) && !looks_like_json(text) => {
            Vec::new()
        }
        None if looks_like_json(text) => json_params(text),
        None if looks_like_form(text) => form_params(text),
        None => Vec::new(),
    }
}

/// Top-level fields of a JSON object body → `json` params.
pub fn json_params(text: &str) -> Vec<Param> {
    json_fields(text)
        .into_iter()
        .map(|(name, value)| Param::new(ParamKind::Json, name).value(value))
        .collect()
}

/// An urlencoded body → `form` params.
pub fn form_params(text: &str) -> Vec<Param> {
    form_pairs(text.trim())
        .into_iter()
        .map(|(name, value)| Param::new(ParamKind::Form, name).value(value))
        .collect()
}

/// `a=1&b=2` on one line, names without spaces.
fn looks_like_form(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty()
        && !text.contains(['\n', ' '])
        && text
            .split('&')
            .all(|pair| pair.split_once('=').is_some_and(|(n, _)| !n.is_empty()))
}

/// The parts of a multipart body: each `Content-Disposition: form-data;
/// name="…"` header is a field, a `file` when it has a `filename`.
pub fn multipart_params(text: &str) -> Vec<Param> {
    let mut params = Vec::new();
    for line in text.lines() {
        let Some((header, value)) = line.split_once(':') else {
            continue;
        };
        if !header.trim().eq_ignore_ascii_case("content-disposition") {
            continue;
        }
        let attr = |key: &str| {
            value.split(';').find_map(|piece| {
                let (k, v) = piece.split_once('=')?;
                (k.trim().eq_ignore_ascii_case(key)).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        if let Some(name) = attr("name").filter(|n| !n.is_empty()) {
            let kind = if attr("filename").is_some() {
                ParamKind::File
            } else {
                ParamKind::Form
            };
            params.push(Param::new(kind, name));
        }
    }
    params
}

/// The `Content-Type` among `(name, value)` headers.
pub fn content_type<'a>(headers: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<&'a str> {
    headers
        .into_iter()
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-type"))
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(params: &[Param]) -> Vec<String> {
        params
            .iter()
            .map(|p| {
                let kind = serde_json::to_value(p.kind).unwrap_or_default();
                format!("{} {}={}", kind.as_str().unwrap_or("?"), p.name, p.value)
            })
            .collect()
    }

    #[test]
    fn headers_and_cookies() {
        assert_eq!(
            show(&header_params("Cookie", "sid=abc; theme=dark;")),
            ["cookie sid=abc", "cookie theme=dark"]
        );
        assert_eq!(
            show(&header_params(" X-Api-Key ", " k ")),
            ["header X-Api-Key=k"]
        );
        assert!(header_params("", "x").is_empty());
        assert_eq!(show(&query_params("a=1&b")), ["query a=1", "query b="]);
    }

    #[test]
    fn bodies() {
        let json = "{\"a\": 1, \"b\": \"x\"}";
        assert_eq!(
            show(&body_params(Some("application/json; charset=utf-8"), json)),
            ["json a=1", "json b=x"]
        );
        assert_eq!(show(&body_params(None, json)), ["json a=1", "json b=x"]);
        assert_eq!(
            show(&body_params(
                Some("application/x-www-form-urlencoded"),
                "u=a%40b&p=1"
            )),
            ["form u=a@b", "form p=1"]
        );
        assert_eq!(
            show(&body_params(None, "u=1&p=2")),
            ["form u=1", "form p=2"]
        );
        assert!(body_params(Some("application/xml"), "<a>x=1&y=2</a>").is_empty());
        assert!(body_params(Some("text/plain"), "hello=world").is_empty());
        assert!(body_params(None, "hello world").is_empty());
        let multipart = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhi\r\n--B\r\ncontent-disposition: form-data; name=\"doc\"; filename=\"a.pdf\"\r\n\r\n< ./a.pdf\r\n--B--";
        assert_eq!(
            show(&body_params(
                Some("multipart/form-data; boundary=B"),
                multipart
            )),
            ["form title=", "file doc="]
        );
        assert_eq!(
            content_type([("Accept", "x"), ("content-type", "a/b")]),
            Some("a/b")
        );
    }
}
