//! Stage 6: render the report. Every format writes to a `String`; the caller
//! sends it to stdout and/or `-o FILE`, so both always carry the same bytes.

pub mod bake;
pub mod json;
pub mod plain;

use crate::model::Report;

/// Every format name users can ask for. Those not implemented yet are
/// refused with a clear message rather than silently falling back.
pub const ALL_FORMATS: &[&str] = &[
    "plain",
    "json",
    "jsonl",
    "yaml",
    "toml",
    "markdown-table",
    "curl",
    "httpie",
    "powershell",
    "oas2",
    "oas3",
    "postman",
    "sarif",
    "html",
    "mermaid",
    "only-url",
    "only-param",
    "only-header",
    "only-cookie",
    "only-tag",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Plain,
    Json,
}

impl Format {
    pub fn parse(name: &str) -> Result<Format, String> {
        match name {
            "plain" => Ok(Format::Plain),
            "json" => Ok(Format::Json),
            other if ALL_FORMATS.contains(&other) => Err(format!(
                "output format `{other}` is not implemented yet; available now: plain, json"
            )),
            other => Err(format!(
                "unknown output format `{other}`; valid formats: {}",
                ALL_FORMATS.join(", ")
            )),
        }
    }
}

pub struct RenderOptions {
    pub include_path: bool,
}

pub fn render(report: &Report, format: Format, opts: &RenderOptions) -> String {
    match format {
        Format::Plain => plain::render(report, opts),
        Format::Json => json::render(report),
    }
}
