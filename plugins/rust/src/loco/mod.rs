//! Loco (`rust_loco`).
//!
//! Controllers declare `Routes::new().prefix("api/notes").add("/", get(list))
//! .add("/{id}", get(get_one).post(update).delete(remove))` (the method
//! routers are Axum's: `get(h).post(h2)`, `any(h)` → GET, POST, PUT, PATCH,
//! DELETE), usually as the tail of `pub fn routes() -> Routes`; the app
//! registers them in `Hooks::routes` with
//! `AppRoutes::with_default_routes().prefix("/api")
//! .add_route(controllers::notes::routes())` (functions of other modules
//! resolved by name and module). As in Loco, a prefix applies to every
//! route of its builder wherever `.prefix(…)` appears in the chain, the
//! parts are joined with `/` and a trailing `/` is dropped.
//! `with_default_routes()` contributes Loco's built-in `GET /_ping` and
//! `GET /_health` (reported at that call). Builders are only recognised
//! from their constructors (`Routes::new()`, `AppRoutes::with_default_routes()`,
//! `AppRoutes::empty()`). Paths: literals, constants, `format!`/`concat!`;
//! `/:id` and `/{id}` kept.
//!
//! Handler parameters: the Axum extractors in the signature (`Query<T>`,
//! `Json<T>`, `Form<T>` fields, `Path<T>` struct fields, `TypedHeader<H>`,
//! `HeaderMap` and `CookieJar` reads, `Multipart`).
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::rs::expr::{parse_str, Part};
use crate::rs::router::link::Linker;
use crate::rs::router::scan::{method_router, target, Op, Seg};
use crate::rs::{router, FILES};

use crate::rs::router::framework::Framework;
/// Loco's vocabulary and hooks for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: &["add", "add_route", "prefix"],
    attribute_routes: Some(crate::actix_web::builder::attribute_routes),
    needs_constructor: true,
    chain_segments: Some(chain_ops),
    ..Framework::BASE
};

pub struct Loco;

impl Analyzer for Loco {
    fn tech(&self) -> Tech {
        Tech::new("rust_loco", "Rust", "Loco")
            .aliases(["loco", "loco-rs"])
            .files(FILES.iter().copied())
            .detect(Detect::files(["Cargo.toml"]).regex([r"(?s)dependencies.*\bloco-rs\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        router::analyze(file, out, &FRAMEWORK);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut out = Linker::new(facts.all()).endpoints();
        // Loco drops the trailing `/` of every route but the root (also
        // when it comes from a constant).
        for e in &mut out {
            while e.url.len() > 1 && e.url.ends_with('/') {
                e.url.pop();
            }
        }
        Ok(out)
    }
}

/// `prefix` + `/` + `path` without a trailing `/`.
fn joined(prefix: &[Part], path: Vec<Part>) -> Vec<Part> {
    let mut out = prefix.to_vec();
    out.push(Part::Lit("/".into()));
    out.extend(path);
    while let Some(Part::Lit(last)) = out.last() {
        let trimmed = last.trim_end_matches('/').to_string();
        if trimmed.is_empty() && out.len() > 1 {
            out.pop();
            continue;
        }
        if let Some(l) = out.last_mut() {
            *l = Part::Lit(trimmed);
        }
        break;
    }

    out
}

/// The operations of one `Routes::new()…` / `AppRoutes::…` chain.
pub(crate) fn chain_ops(
    file: &SourceFile,
    code: &Code,
    first: &Seg,
    segs: &[(Seg, Vec<Range<usize>>, u32)],
) -> Vec<Op> {
    let prefix: Vec<Part> = segs
        .iter()
        .rev()
        .find(|(s, _, _)| s.path == "prefix")
        .and_then(|(_, args, _)| args.first().and_then(|r| parse_str(code, r.clone())))
        .unwrap_or_default();
    let mut ops = Vec::new();
    if first.path.ends_with("with_default_routes") {
        let line = file.line_of(first.at);
        for p in ["_ping", "_health"] {
            ops.push(Op::Route {
                path: joined(&prefix, vec![Part::Lit(p.into())]),
                line,
                query: Vec::new(),
                extract: Vec::new(),
                methods: vec![("GET".into(), None)],
            });
        }
    }
    for (seg, args, line) in segs {
        match seg.path.as_str() {
            "add" => {
                let Some(path) = args.first().and_then(|r| parse_str(code, r.clone())) else {
                    continue;
                };
                let methods = args
                    .get(1)
                    .map(|r| method_router(code, r.clone()))
                    .unwrap_or_default();
                ops.push(Op::Route {
                    path: joined(&prefix, path),
                    line: *line,
                    query: Vec::new(),
                    extract: Vec::new(),
                    methods,
                });
            }
            "add_route" => {
                if let Some(r) = args.first() {
                    ops.push(Op::Nest {
                        path: prefix.clone(),
                        line: *line,
                        target: target(file, code, r.start, &FRAMEWORK),
                        service: false,
                    });
                }
            }
            _ => {}
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rs::router::scan::scan_file;

    fn lit(s: &str) -> Part {
        Part::Lit(s.into())
    }

    #[test]
    fn prefixes_join_without_trailing_slash() {
        assert_eq!(
            joined(&[lit("api/notes")], vec![lit("/")]),
            [lit("api/notes")]
        );
        assert_eq!(
            joined(&[lit("api/notes/")], vec![lit("{id}")]),
            [lit("api/notes/"), lit("/"), lit("{id}")]
        );
        assert_eq!(joined(&[], vec![lit("/")]), [lit("")]);
    }

    #[test]
    fn controller_routes() {
        let src = "pub fn routes() -> Routes {\n    Routes::new()\n        .prefix(\"api/notes/\")\n        .add(\"/\", get(list).post(add))\n        .add(\"/{id}\", get(get_one))\n}";
        let f = scan_file(
            &SourceFile::new("src/controllers/notes.rs", src),
            &FRAMEWORK,
        );
        let ops = &f.fns[0].routers[0].ops;
        assert_eq!(ops.len(), 2);
        let Op::Route { line, methods, .. } = &ops[0] else {
            panic!("{ops:?}")
        };
        assert_eq!((*line, methods.len()), (4, 2));
    }
}
