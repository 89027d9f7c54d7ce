//! Unit-test support shared by the framework modules: run one analyzer
//! over in-memory files (like the host: `analyze` on each, then `link`) and
//! list its endpoints as sorted one-line summaries such as
//! `POST /api/users ws @12 [json:name, header:X-Token]`.

use portolan_plugin_sdk::testing::run_files;
use portolan_plugin_sdk::{Analyzer, Endpoint, SourceFile};

/// Where an endpoint was declared, in its summary.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// Not shown.
    Nothing,
    /// ` @12`.
    Line,
    /// ` @app/urls.py:12`.
    PathLine,
}

/// How endpoints are summarised.
#[derive(Clone, Copy)]
pub struct Style {
    /// Between params.
    pub sep: &'static str,
    /// Params as `kind:name` (else the bare name).
    pub kinds: bool,
    /// ` ws` after the URL of a websocket.
    pub ws: bool,
    pub at: At,
}

/// `GET /x [query:a,json:b]`.
pub const COMPACT: Style = Style {
    sep: ",",
    kinds: true,
    ws: false,
    at: At::Nothing,
};

/// `GET /x [query:a, json:b]`.
pub const SPACED: Style = Style {
    sep: ", ",
    ..COMPACT
};

/// `GET /x [a,b]`.
pub const NAMES: Style = Style {
    kinds: false,
    ..COMPACT
};

/// `GET /x @12 [query:a, json:b]`.
pub const LINES: Style = Style {
    at: At::Line,
    ..SPACED
};

/// The endpoints of `analyzer` over `(path, content)` files.
pub fn endpoints(analyzer: &dyn Analyzer, files: &[(&str, &str)]) -> Vec<Endpoint> {
    let files: Vec<SourceFile> = files
        .iter()
        .map(|(path, content)| SourceFile::new(*path, *content))
        .collect();
    run_files(analyzer, &files)
}

/// One endpoint's summary.
pub fn summary(e: &Endpoint, style: Style) -> String {
    let params: Vec<String> = e
        .params
        .iter()
        .map(|p| {
            if style.kinds {
                format!(
                    "{}:{}",
                    serde_json::to_value(p.kind).unwrap().as_str().unwrap(),
                    p.name
                )
            } else {
                p.name.clone()
            }
        })
        .collect();
    let ws = if style.ws && e.protocol == "ws" {
        " ws"
    } else {
        ""
    };
    let at = match style.at {
        At::Nothing => String::new(),
        At::Line => format!(
            " @{}",
            e.code_paths.first().and_then(|l| l.line).unwrap_or(0)
        ),
        At::PathLine => e
            .code_paths
            .first()
            .map(|l| format!(" @{}:{}", l.path, l.line.unwrap_or(0)))
            .unwrap_or_else(|| " @".to_string()),
    };
    format!(
        "{} {}{ws}{at} [{}]",
        e.method,
        e.url,
        params.join(style.sep)
    )
}

/// The sorted summaries of `analyzer`'s endpoints over `files`.
pub fn run_with(analyzer: &dyn Analyzer, files: &[(&str, &str)], style: Style) -> Vec<String> {
    let mut got: Vec<String> = endpoints(analyzer, files)
        .iter()
        .map(|e| summary(e, style))
        .collect();
    got.sort();
    got
}

/// The usual test-module helpers for one analyzer: `run(files)`, its
/// sorted endpoint summaries in `style` ([`run_with`]), and `urls(files)`,
/// the same without the ` @…` locations and parameters' lists after them.
macro_rules! runner {
    ($analyzer:expr, $style:expr) => {
        fn run(files: &[(&str, &str)]) -> Vec<String> {
            $crate::test_support::run_with(&$analyzer, files, $style)
        }

        #[allow(dead_code)]
        fn urls(files: &[(&str, &str)]) -> Vec<String> {
            run(files)
                .into_iter()
                .map(|s| s.split(" @").next().unwrap_or("").to_string())
                .collect()
        }
    };
}
pub(crate) use runner;

/// The technology `analyzer` declares has id `id` and alias `alias`.
pub fn assert_tech(analyzer: &dyn Analyzer, id: &str, alias: &str) {
    let tech = analyzer.tech();
    assert_eq!(tech.id, id);
    assert!(tech.aliases.iter().any(|a| a == alias));
}
