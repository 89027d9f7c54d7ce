//! `only-url`, `only-param`, `only-header`, `only-cookie`, `only-tag`: one
//! item per line, in first-seen order, without duplicates. Control
//! characters are written as visible escapes ([`crate::escape`]).
//!
//! - only-url: baked URLs (query string included).
//! - only-param: names of query, json, form and file params.
//! - only-header: header names, then `Cookie` when any cookie exists.
//! - only-cookie: cookie names.
//! - only-tag: tag names (params' tags, then the endpoint's).

use super::bake::bake;
use crate::model::{ParamType, Report};

fn lines(items: impl IntoIterator<Item = String>) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    for s in items {
        if seen.insert(s.clone()) {
            out.push_str(&crate::escape::visible(&s));
            out.push('\n');
        }
    }
    out
}

fn names(report: &Report, types: &[ParamType]) -> Vec<String> {
    report
        .endpoints
        .iter()
        .flat_map(|e| e.params.iter())
        .filter(|p| types.contains(&p.param_type))
        .map(|p| p.name.clone())
        .collect()
}

pub fn urls(report: &Report) -> String {
    lines(report.endpoints.iter().map(|e| bake(e).url))
}

pub fn params(report: &Report) -> String {
    lines(names(
        report,
        &[
            ParamType::Query,
            ParamType::Json,
            ParamType::Form,
            ParamType::File,
        ],
    ))
}

pub fn headers(report: &Report) -> String {
    let mut items = names(report, &[ParamType::Header]);
    if !names(report, &[ParamType::Cookie]).is_empty() {
        items.push("Cookie".into());
    }
    lines(items)
}

pub fn cookies(report: &Report) -> String {
    lines(names(report, &[ParamType::Cookie]))
}

pub fn tags(report: &Report) -> String {
    lines(report.endpoints.iter().flat_map(|e| {
        e.params
            .iter()
            .flat_map(|p| p.tags.iter())
            .chain(e.tags.iter())
            .map(|t| t.name.clone())
            .collect::<Vec<_>>()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Endpoint, Param, Tag};
    use crate::output::testing::{example, report};

    #[test]
    fn each_list() {
        let mut other = Endpoint::new("GET", "/b");
        other.params.push(Param::new("page", ParamType::Query));
        other.params.push(Param::new("token", ParamType::Cookie));
        other.tags.push(Tag {
            name: "shadow".into(),
            description: String::new(),
            tagger: "t".into(),
        });
        let r = report(vec![example(), other]);
        assert_eq!(urls(&r), "/users/{id}?page=\n/b?page=\n");
        assert_eq!(params(&r), "page\nname\n");
        assert_eq!(headers(&r), "X-API-Key\nCookie\n");
        assert_eq!(cookies(&r), "session\ntoken\n");
        assert_eq!(tags(&r), "shadow\n");
    }
}
