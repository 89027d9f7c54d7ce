//! Tide (`rust_tide`).
//!
//! Routes: `app.at("/users").get(list).post(create)` on servers made with
//! `tide::new()`/`tide::with_state(…)`, `.at("/a").at("/b")` sub-paths,
//! `.all(h)` (every method: reported as GET, POST, PUT, PATCH and DELETE),
//! `.serve_dir(…)`/`.serve_file(…)` (GET) and `.at("/api").nest(server)`
//! with the nested server built in a local variable or in a function of
//! another module (its tail variable is what it returns). Paths: literals,
//! constants, `format!`/`concat!`; `/:id` kept.
//!
//! Handler parameters come from the `Request` it receives:
//! `req.query::<T>()`/`let q: T = req.query()?` (query fields of `T`),
//! `req.body_json::<T>()` (json), `req.body_form::<T>()` (form),
//! `req.header("x")` (header) and `req.cookie("c")` (cookie).
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::rs::expr::{parse_str, Part};
use crate::rs::router;
use crate::rs::router::scan::{target, Op, Seg, ANY, METHODS};

use crate::rs::router::framework::Framework;
/// Tide's vocabulary and hooks for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: &["at"],
    attribute_routes: Some(crate::actix_web::builder::attribute_routes),
    chain_segments: Some(chain_segments),
    ..Framework::BASE
};

fn chain_segments(
    file: &SourceFile,
    code: &Code,
    _first: &Seg,
    segs: &[(Seg, Vec<Range<usize>>, u32)],
) -> Vec<Op> {
    chain_ops(file, code, segs)
}

router::router_analyzer!(Tide, "rust_tide", "Tide", ["tide"], "tide");

/// The operations of one `x.at(…)…` chain.
pub(crate) fn chain_ops(
    file: &SourceFile,
    code: &Code,
    segs: &[(Seg, Vec<Range<usize>>, u32)],
) -> Vec<Op> {
    let mut ops = Vec::new();
    let mut path: Vec<Part> = Vec::new();
    let mut line = 0;
    let mut seen_at = false;
    for (seg, args, l) in segs {
        let name = seg.path.as_str();
        let handler = || {
            args.first()
                .map(|r| target(file, code, r.start, &FRAMEWORK))
        };
        let route = |methods: Vec<(String, _)>| Op::Route {
            path: path.clone(),
            line,
            query: Vec::new(),
            extract: Vec::new(),
            methods,
        };
        match name {
            "at" => {
                let Some(p) = args.first().and_then(|r| parse_str(code, r.clone())) else {
                    break;
                };
                if !seen_at {
                    line = *l;
                }
                seen_at = true;
                // `Route::at` joins with a `/`.
                if !path.is_empty() {
                    path.push(Part::Lit("/".into()));
                }
                path.extend(p);
            }
            _ if !seen_at => {}
            m if METHODS.contains(&m) => {
                ops.push(route(vec![(m.to_ascii_uppercase(), handler())]));
            }
            "all" => {
                let h = handler();
                ops.push(route(
                    ANY.iter().map(|m| (m.to_string(), h.clone())).collect(),
                ));
            }
            "serve_dir" | "serve_file" => ops.push(route(vec![("GET".to_string(), None)])),
            "nest" => {
                if let Some(r) = args.first() {
                    ops.push(Op::Nest {
                        path: path.clone(),
                        line,
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

    #[test]
    fn at_chains() {
        let src = "fn main() {\n let mut app = tide::new();\n app.at(\"/users\").get(list).post(create);\n app.at(\"/api\").nest(api::server());\n // app.at(\"/old\").get(old);\n}";
        let f = scan_file(&SourceFile::new("src/main.rs", src), &FRAMEWORK);
        let r = &f.fns[0].routers[0];
        assert_eq!(r.name, "app");
        assert_eq!(r.ops.len(), 3);
        let Op::Route { line, methods, .. } = &r.ops[1] else {
            panic!("{:?}", r.ops)
        };
        assert_eq!((*line, methods[0].0.as_str()), (3, "POST"));
        assert!(matches!(&r.ops[2], Op::Nest { line: 4, .. }));
    }

    #[test]
    fn request_reads() {
        let src = "async fn h(mut req: Request<State>) -> tide::Result {\n let q: Search = req.query()?;\n let b = req.body_json::<NewItem>().await?;\n req.header(\"x-api-key\");\n req.cookie(\"sid\");\n Ok(\"\".into())\n}";
        let f = scan_file(&SourceFile::new("src/main.rs", src), &FRAMEWORK);
        let h = &f.fns[0];
        assert_eq!(
            h.bodies,
            [
                ("query".to_string(), "Search".to_string()),
                ("json".to_string(), "NewItem".to_string())
            ]
        );
        assert_eq!(
            h.direct,
            [
                ("header".to_string(), "x-api-key".to_string()),
                ("cookie".to_string(), "sid".to_string())
            ]
        );
    }
}
