//! Test helper shared by the framework modules' unit tests.

use portolan_plugin_sdk::{Analyzer, Endpoint, Facts, Output, SourceFile};

/// One linked endpoint: method, URL, line, and `(name, kind)` params.
pub type Row = (String, String, u32, Vec<(String, String)>);

/// Analyze `files` (path, source) with `analyzer` and link every fact:
/// the endpoints in link order.
pub fn linked(analyzer: &dyn Analyzer, files: &[(&str, &str)]) -> Vec<Endpoint> {
    let mut facts = Facts::new(Vec::new());
    for (path, src) in files {
        let mut out = Output::new();
        analyzer.analyze(&SourceFile::new(*path, *src), &mut out);
        let (_, f) = out.into_parts();
        facts.extend(f);
    }
    analyzer.link(&facts).unwrap_or_default()
}

/// [`linked`], as sorted [`Row`]s.
pub fn rows(analyzer: &dyn Analyzer, files: &[(&str, &str)]) -> Vec<Row> {
    let mut eps: Vec<_> = linked(analyzer, files)
        .into_iter()
        .map(|e| {
            let line = e.code_paths[0].line.unwrap_or(0);
            let ps = e
                .params
                .iter()
                .map(|p| (p.name.clone(), format!("{:?}", p.kind).to_lowercase()))
                .collect();
            (e.method, e.url, line, ps)
        })
        .collect();
    eps.sort();
    eps
}

/// `(name, kind)` pairs as owned strings, to compare with a [`Row`]'s.
pub fn ps(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}
