//! Map step: outline of each source file, configuration documents, and
//! WebFlux functional routes.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::config::{self, ConfigDoc};
use crate::jvm::expr::StrExpr;
use crate::jvm::outline::{self, JFile, Lang};
use crate::jvm::tokens::{close_of, split_commas, tokenize, Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    File(JFile),
    Config(ConfigDoc),
    Router(RouterRoute),
    /// A framework named by a build file (`pom.xml`, `build.gradle`) of a
    /// module: `(module root, framework)`.
    Build(String, String),
}

/// A functional route: `GET("/x")` with the `nest`/`path` prefixes around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterRoute {
    pub path: String,
    pub lang: Lang,
    pub method: String,
    /// Prefixes (outermost first), then the pattern.
    pub parts: Vec<StrExpr>,
    pub line: u32,
}

pub fn analyze(file: &SourceFile, out: &mut Output) {
    if is_test_path(&file.path) {
        return;
    }
    if config::is_config_path(&file.path) {
        for doc in config::parse(&file.path, &file.content) {
            out.fact(&Fact::Config(doc));
        }
        return;
    }
    let Some(lang) = Lang::of_path(&file.path) else {
        return;
    };
    let outline = outline::parse(file, lang);
    if !outline.types.is_empty() || !outline.consts.is_empty() {
        out.fact(&Fact::File(outline));
    }
    let c = &file.content;
    if c.contains("RouterFunction")
        || c.contains("RequestPredicates")
        || c.contains("router {")
        || c.contains("coRouter {")
    {
        for r in routes(file, lang) {
            out.fact(&Fact::Router(r));
        }
    }
}

const VERBS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// WebFlux functional routes of a file.
pub fn routes(file: &SourceFile, lang: Lang) -> Vec<RouterRoute> {
    let code = file.code(Syntax::C_LIKE);
    let t = tokenize(&code);
    let kotlin = lang == Lang::Kotlin;
    let expr = |r: std::ops::Range<usize>| StrExpr::parse(t.get(r)?, &file.content, kotlin);
    // Prefix scopes: (token range, prefix).
    let mut scopes: Vec<(usize, usize, StrExpr)> = Vec::new();
    for i in 0..t.len() {
        // `nest(path("/x"), …)` / `.nest(RequestPredicates.path("/x"), …)`
        if t[i].is_ident("nest") && t.get(i + 1).is_some_and(|x| x.is('(')) {
            let close = close_of(&t, i + 1).unwrap_or(t.len());
            let args = split_commas(&t, i + 2, close);
            if let Some(first) = args.first() {
                if let Some(p) = path_call(&t, first.clone(), &expr) {
                    scopes.push((i, close, p));
                }
            }
        }
        // `.path("/x", builder -> …)`
        if t[i].is_ident("path")
            && i > 0
            && t[i - 1].is('.')
            && t.get(i + 1).is_some_and(|x| x.is('('))
        {
            let close = close_of(&t, i + 1).unwrap_or(t.len());
            let args = split_commas(&t, i + 2, close);
            if args.len() >= 2 {
                if let Some(p) = expr(args[0].clone()) {
                    scopes.push((i, close, p));
                }
            }
        }
        // Kotlin: `"/x".nest {` and `path("/x").nest {`
        if kotlin
            && t[i].is_ident("nest")
            && i >= 2
            && t[i - 1].is('.')
            && t.get(i + 1).is_some_and(|x| x.is('{'))
        {
            let close = close_of(&t, i + 1).unwrap_or(t.len());
            let prefix = if t[i - 2].kind == Kind::Str {
                expr(i - 2..i - 1)
            } else if t[i - 2].is(')') {
                let open = (0..i - 2).rev().find(|&o| close_of(&t, o) == Some(i - 2));
                open.filter(|&o| o > 0 && t[o - 1].is_ident("path"))
                    .and_then(|o| expr(o + 1..i - 2))
            } else {
                None
            };
            if let Some(p) = prefix {
                scopes.push((i, close, p));
            }
        }
    }
    let mut out = Vec::new();
    for i in 0..t.len() {
        let Some(verb) = VERBS.iter().find(|v| t[i].is_ident(v)) else {
            continue;
        };
        if !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        if i > 0 && t[i - 1].is('.') && i > 1 && t[i - 2].is_ident("HttpMethod") {
            continue;
        }
        let close = close_of(&t, i + 1).unwrap_or(t.len());
        let Some(first) = split_commas(&t, i + 2, close).into_iter().next() else {
            continue;
        };
        let Some(pattern) = expr(first) else { continue };
        let mut parts: Vec<StrExpr> = scopes
            .iter()
            .filter(|(s, e, _)| *s < i && i < *e)
            .map(|(_, _, p)| p.clone())
            .collect();
        parts.push(pattern);
        out.push(RouterRoute {
            path: file.path.clone(),
            lang,
            method: verb.to_string(),
            parts,
            line: file.line_of(t[i].start),
        });
    }
    out
}

/// `path("/x")` or `RequestPredicates.path("/x")` (optionally followed by
/// `.and(…)`) in `r`: the prefix.
fn path_call(
    t: &[Token],
    r: std::ops::Range<usize>,
    expr: &dyn Fn(std::ops::Range<usize>) -> Option<StrExpr>,
) -> Option<StrExpr> {
    let mut k = r.start;
    if t.get(k).is_some_and(|x| x.is_ident("RequestPredicates")) && t.get(k + 1)?.is('.') {
        k += 2;
    }
    if !t.get(k)?.is_ident("path") || !t.get(k + 1)?.is('(') {
        return None;
    }
    let close = close_of(t, k + 1)?;
    expr(k + 2..close)
}
