//! Stage 6: render the report. Every format writes to a `String`; the caller
//! sends it to stdout or `-o FILE`, so both always carry the same bytes.
//!
//! One module per format. Shared pieces: [`bake`] (an endpoint as request
//! parts), [`quote`] (shell / PowerShell / Markdown / HTML escaping),
//! [`spec`] (paths and operations for OpenAPI and Postman) and [`pvalue`]
//! (`--set-pvalue*`, applied to the report before any format sees it).
//!
//! Command, OpenAPI and Postman formats describe HTTP requests, so they skip
//! WebSocket endpoints (protocol `ws`); every other format lists them.

pub mod bake;
pub mod curl;
pub mod html;
pub mod httpie;
pub mod json;
pub mod jsonl;
pub mod markdown;
pub mod mermaid;
pub mod oas2;
pub mod oas3;
pub mod only;
pub mod plain;
pub mod postman;
pub mod powershell;
pub mod pvalue;
pub mod quote;
pub mod sarif;
pub mod spec;
pub mod toml;
pub mod yaml;

use crate::model::Report;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Plain,
    Json,
    Jsonl,
    Yaml,
    Toml,
    MarkdownTable,
    Curl,
    Httpie,
    Powershell,
    Oas2,
    Oas3,
    Postman,
    Sarif,
    Html,
    Mermaid,
    OnlyUrl,
    OnlyParam,
    OnlyHeader,
    OnlyCookie,
    OnlyTag,
}

/// Every format: (value, name on the command line, one-line description).
pub const FORMATS: &[(Format, &str, &str)] = &[
    (
        Format::Plain,
        "plain",
        "one line per endpoint: METHOD URL [BODY] [HEADERS] [COOKIES] [TAGS]",
    ),
    (
        Format::Json,
        "json",
        "{\"endpoints\":[…],\"passive_results\":[…]} on one line",
    ),
    (Format::Jsonl, "jsonl", "one JSON endpoint per line"),
    (Format::Yaml, "yaml", "the JSON envelope as YAML"),
    (
        Format::Toml,
        "toml",
        "the JSON envelope as TOML ([[endpoints]])",
    ),
    (
        Format::MarkdownTable,
        "markdown-table",
        "a Markdown table: endpoint, protocol, params",
    ),
    (Format::Curl, "curl", "one curl command per endpoint"),
    (Format::Httpie, "httpie", "one HTTPie command per endpoint"),
    (
        Format::Powershell,
        "powershell",
        "one Invoke-WebRequest command per endpoint",
    ),
    (Format::Oas2, "oas2", "OpenAPI 2.0 (Swagger) document"),
    (Format::Oas3, "oas3", "OpenAPI 3.0 document"),
    (Format::Postman, "postman", "Postman collection v2.1"),
    (
        Format::Sarif,
        "sarif",
        "SARIF 2.1.0 log, one result per endpoint",
    ),
    (
        Format::Html,
        "html",
        "a self-contained, searchable HTML page",
    ),
    (
        Format::Mermaid,
        "mermaid",
        "a Mermaid mindmap of the URL tree",
    ),
    (
        Format::OnlyUrl,
        "only-url",
        "URLs (with query strings), one per line",
    ),
    (
        Format::OnlyParam,
        "only-param",
        "query, body and file parameter names",
    ),
    (
        Format::OnlyHeader,
        "only-header",
        "header names (and Cookie when cookies exist)",
    ),
    (Format::OnlyCookie, "only-cookie", "cookie names"),
    (Format::OnlyTag, "only-tag", "tag names"),
];

impl Format {
    pub fn parse(name: &str) -> Result<Format, String> {
        let wanted = name.trim().to_ascii_lowercase();
        FORMATS
            .iter()
            .find(|(_, n, _)| *n == wanted)
            .map(|(f, _, _)| *f)
            .ok_or_else(|| {
                format!(
                    "unknown output format `{name}`; valid formats: {}",
                    names().join(", ")
                )
            })
    }

    pub fn name(self) -> &'static str {
        FORMATS
            .iter()
            .find(|(f, _, _)| *f == self)
            .map_or("plain", |(_, n, _)| n)
    }
}

pub fn names() -> Vec<&'static str> {
    FORMATS.iter().map(|(_, n, _)| *n).collect()
}

#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// `--include-path` (plain only).
    pub include_path: bool,
    /// `-u`, with a scheme (`https://` added when missing), for the
    /// `servers` / `host` / `baseUrl` of OpenAPI and Postman output.
    pub base_url: Option<String>,
    /// The base paths as given (`-b`), and the working directory: SARIF
    /// writes file locations relative to them (no machine paths).
    pub base_paths: Vec<std::path::PathBuf>,
    pub cwd: Option<std::path::PathBuf>,
}

pub fn render(report: &Report, format: Format, opts: &RenderOptions) -> String {
    match format {
        Format::Plain => plain::render(report, opts),
        Format::Json => json::render(report),
        Format::Jsonl => jsonl::render(report),
        Format::Yaml => yaml::render(report),
        Format::Toml => toml::render(report),
        Format::MarkdownTable => markdown::render(report),
        Format::Curl => curl::render(report),
        Format::Httpie => httpie::render(report),
        Format::Powershell => powershell::render(report),
        Format::Oas2 => oas2::render(report, opts),
        Format::Oas3 => oas3::render(report, opts),
        Format::Postman => postman::render(report, opts),
        Format::Sarif => sarif::render(report, opts),
        Format::Html => html::render(report),
        Format::Mermaid => mermaid::render(report),
        Format::OnlyUrl => only::urls(report),
        Format::OnlyParam => only::params(report),
        Format::OnlyHeader => only::headers(report),
        Format::OnlyCookie => only::cookies(report),
        Format::OnlyTag => only::tags(report),
    }
}

/// The command formats (curl, httpie, powershell): one line per HTTP
/// endpoint from `command`; WebSocket endpoints are left out, and an
/// endpoint of another protocol (a mobile deep link, an Android component)
/// becomes a `#` comment saying why it has no command.
pub(crate) fn commands(report: &Report, command: fn(&crate::model::Endpoint) -> String) -> String {
    let mut out = String::new();
    for e in report.endpoints.iter().filter(|e| !e.is_websocket()) {
        if e.is_http() {
            out.push_str(&command(e));
        } else {
            out.push_str(&format!(
                "# skipped {} {}: protocol `{}` is not HTTP, so there is no request to replay",
                crate::escape::visible(&e.method),
                crate::escape::visible(&e.url),
                crate::escape::visible(&e.protocol)
            ));
        }
        out.push('\n');
    }
    out
}

/// A param type as written in reports (`query`, `json`, …).
pub(crate) fn type_name(t: crate::model::ParamType) -> &'static str {
    use crate::model::ParamType;
    match t {
        ParamType::Query => "query",
        ParamType::Json => "json",
        ParamType::Form => "form",
        ParamType::Header => "header",
        ParamType::Cookie => "cookie",
        ParamType::Path => "path",
        ParamType::File => "file",
        ParamType::Flag => "flag",
        ParamType::Argument => "argument",
        ParamType::Env => "env",
    }
}

/// Pretty JSON (2-space indent) with a final newline.
pub(crate) fn pretty(value: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
pub(crate) mod testing {
    //! The running example of output.md: `POST /users/{id}` with a query,
    //! a json, a header, a cookie and a path param, `app/main.py:12`.
    use crate::model::{CodePath, Endpoint, Param, ParamType, Report};

    pub fn example() -> Endpoint {
        let mut e = Endpoint::new("POST", "/users/{id}");
        for (n, t) in [
            ("page", ParamType::Query),
            ("name", ParamType::Json),
            ("X-API-Key", ParamType::Header),
            ("session", ParamType::Cookie),
            ("id", ParamType::Path),
        ] {
            e.params.push(Param::new(n, t));
        }
        e.details.code_paths.push(CodePath {
            path: "app/main.py".into(),
            line: Some(12),
        });
        e.details.technology = Some("python_flask".into());
        e
    }

    pub fn report(endpoints: Vec<Endpoint>) -> Report {
        Report {
            endpoints,
            ..Report::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_parses_by_name() {
        for (f, n, _) in FORMATS {
            assert_eq!(Format::parse(n), Ok(*f));
            assert_eq!(f.name(), *n);
        }
        assert!(Format::parse("xml")
            .unwrap_err()
            .contains("unknown output format `xml`"));
    }
}
