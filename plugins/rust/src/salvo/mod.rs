//! Salvo (`rust_salvo`).
//!
//! Routers: trees built from `Router::new()`, `Router::with_path("api")`
//! (also `Router::with_hoop(…)`), with `.path("x")` adding a segment to the router's own path,
//! `.get(h)`/`.post(h)`/… registering a method on the router's own path,
//! `.goal(h)` (every method: reported as GET, POST, PUT, PATCH and DELETE)
//! and `.push(child)` nesting a child router: inline, in a local variable,
//! or returned by a function of another module (`.push(users::router())`).
//! `.hoop(…)` middleware is transparent. A router no other router pushes is
//! a root (usually the one given to `Service::new`). Builders are only
//! recognised from a `Router::…` constructor, since `.get(…)` and
//! `.push(…)` are everywhere. Paths: literals, constants,
//! `format!`/`concat!`; `<id>`, `<id:num>`, `{id}` placeholders kept.
//!
//! Handler parameters (`#[handler]`/`#[endpoint]` functions): reads on the
//! `&mut Request` — `req.query::<T>("q")` (query), `req.form::<T>("f")`
//! (form), `req.header::<T>("x")` (header), `req.cookie("c")` (cookie),
//! `req.file("f")` (file), `req.parse_json::<T>()`/`parse_body` (json fields
//! of `T`), `req.parse_queries::<T>()` (query fields), `req.parse_form::<T>()`
//! (form fields) — and the OpenAPI extractors of `#[endpoint]` signatures:
//! `q: QueryParam<T, R>` (query `q`), `id: PathParam<T>` (path),
//! `x: HeaderParam<T>` (header), `c: CookieParam<T>` (cookie),
//! `JsonBody<T>`/`FormBody<T>` (fields of `T`). `req.param::<T>("id")` reads
//! a path placeholder already in the URL.
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::rs::expr::{parse_str, Part};
use crate::rs::items::{self, generic_of, is_ident, FnDecl};
use crate::rs::router;
use crate::rs::router::scan::{target, typed_reads, FnFacts, Op, Seg, ANY, METHODS};

use crate::rs::router::framework::Framework;
/// Salvo's vocabulary and hooks for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: CHAIN_OPS,
    handler_reads: Some(handler_reads),
    attribute_routes: Some(crate::actix_web::builder::attribute_routes),
    needs_constructor: true,
    chain_segments: Some(chain_ops),
    ..Framework::BASE
};

router::router_analyzer!(Salvo, "rust_salvo", "Salvo", ["salvo"], "salvo");

/// The chained calls that reveal a Salvo router.
pub(crate) const CHAIN_OPS: &[&str] = &[
    "push", "path", "get", "post", "put", "delete", "patch", "head", "options", "goal", "hoop",
];

/// The operations of one `Router::with_path(…)…` chain.
pub(crate) fn chain_ops(
    file: &SourceFile,
    code: &Code,
    first: &Seg,
    segs: &[(Seg, Vec<Range<usize>>, u32)],
) -> Vec<Op> {
    let mut path: Vec<Part> = Vec::new();
    if first.path.ends_with("with_path") {
        let arg = first
            .args
            .as_ref()
            .and_then(|a| code.args(a.start).into_iter().next());
        match arg.and_then(|r| parse_str(code, r)) {
            Some(p) => path = p,
            None => return Vec::new(),
        }
    }
    // `.path(…)` narrows the router itself: every method of the chain is
    // served on the complete path.
    for (seg, args, _) in segs {
        if seg.path == "path" {
            let Some(p) = args.first().and_then(|r| parse_str(code, r.clone())) else {
                return Vec::new();
            };
            if !path.is_empty() {
                path.push(Part::Lit("/".into()));
            }
            path.extend(p);
        }
    }
    let mut ops = Vec::new();
    for (seg, args, line) in segs {
        let name = seg.path.as_str();
        let handler = || {
            args.first()
                .map(|r| target(file, code, r.start, &FRAMEWORK))
        };
        let route = |methods: Vec<(String, _)>| Op::Route {
            path: path.clone(),
            line: *line,
            query: Vec::new(),
            extract: Vec::new(),
            methods,
        };
        match name {
            m if METHODS.contains(&m) => {
                ops.push(route(vec![(m.to_ascii_uppercase(), handler())]));
            }
            "goal" => {
                let h = handler();
                ops.push(route(
                    ANY.iter().map(|m| (m.to_string(), h.clone())).collect(),
                ));
            }
            "push" => {
                if let Some(r) = args.first() {
                    ops.push(Op::Nest {
                        path: path.clone(),
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

/// Request reads and `#[endpoint]` extractors of a handler.
pub(crate) fn handler_reads(code: &Code, f: &FnDecl, out: &mut FnFacts) {
    // `req.query::<String>("q")` is a named read, not a struct of fields.
    out.bodies
        .retain(|(_, t)| t.starts_with(|c: char| c.is_ascii_uppercase()) && t != "String");
    for p in &f.params {
        let ty = items::compact(&p.ty);
        let ty = ty.trim_start_matches('&').trim_start_matches("mut");
        let var = p.pattern.trim_start_matches("mut ").trim();
        for (outer, kind) in [
            ("QueryParam", "query"),
            ("PathParam", "path"),
            ("HeaderParam", "header"),
            ("CookieParam", "cookie"),
        ] {
            if generic_of(ty, outer).is_some() && is_ident(var) {
                out.direct.push((kind.into(), var.to_string()));
            }
        }
        for (outer, kind) in [("JsonBody", "json"), ("FormBody", "form")] {
            if let Some(inner) = generic_of(ty, outer) {
                out.bodies.push((kind.into(), items::type_name(inner)));
            }
        }
        // An `Extractible` struct taken as a parameter: its fields, each
        // from the source its `#[salvo(extract(…))]` names (resolved when
        // linking; a type without such attributes gives nothing).
        let tn = items::type_name(ty);
        if tn.starts_with(|c: char| c.is_ascii_uppercase())
            && !matches!(
                tn.as_str(),
                "Request" | "Response" | "Depot" | "FlowCtrl" | "String" | "Option" | "Vec"
            )
            && generic_of(ty, "QueryParam").is_none()
            && generic_of(ty, "PathParam").is_none()
            && generic_of(ty, "HeaderParam").is_none()
            && generic_of(ty, "CookieParam").is_none()
            && generic_of(ty, "JsonBody").is_none()
            && generic_of(ty, "FormBody").is_none()
        {
            out.bodies.push(("extractible".into(), tn.clone()));
        }
        if tn != "Request" || !is_ident(var) {
            continue;
        }
        for (method, kind) in [
            ("query", "query"),
            ("form", "form"),
            ("header", "header"),
            ("cookie", "cookie"),
            ("file", "file"),
            ("files", "file"),
        ] {
            for name in named_reads(code, f.body.clone(), var, method) {
                out.direct.push((kind.into(), name));
            }
        }
        for (method, kind) in [
            ("parse_json", "json"),
            ("parse_body", "json"),
            ("parse_queries", "query"),
            ("parse_form", "form"),
        ] {
            for t in typed_reads(code, f.body.clone(), var, method) {
                out.bodies.push((kind.into(), t));
            }
        }
    }
}

/// Literal first arguments of `var.method("x")` / `var.method::<T>("x")`.
fn named_reads(code: &Code, body: Range<usize>, var: &str, method: &str) -> Vec<String> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_word_in(var, body.clone()) {
        let dot = code.skip_ws(at + var.len());
        if bytes.get(dot) != Some(&b'.') || code.ident_at(dot + 1) != Some(method) {
            continue;
        }
        let mut open = code.skip_ws(code.skip_ws(dot + 1) + method.len());
        if text[open..].starts_with("::<") {
            let Some(close) = items::angle_end(bytes, open + 2) else {
                continue;
            };
            open = code.skip_ws(close + 1);
        }
        if bytes.get(open) != Some(&b'(') {
            continue;
        }
        if let Some(lit) = code
            .args(open)
            .into_iter()
            .next()
            .and_then(|a| code.string_at(a.start))
        {
            out.push(lit.value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rs::router::scan::scan_file;

    #[test]
    fn router_tree_and_reads() {
        let src = "fn router() -> Router {\n Router::with_path(\"api\")\n  .hoop(auth)\n  .push(Router::with_path(\"users/<id>\").get(show).post(update))\n  .goal(fallback)\n}\n#[handler]\nasync fn show(req: &mut Request, res: &mut Response) {\n let q = req.query::<String>(\"q\");\n let t = req.header::<String>(\"x-trace\");\n let b: NewUser = req.parse_json().await.unwrap();\n let m = HashMap::new(); m.get(\"k\");\n}";
        let f = scan_file(&SourceFile::new("src/main.rs", src), &FRAMEWORK);
        let r = &f.fns[0].routers[0];
        assert_eq!(r.ops.len(), 2, "{:?}", r.ops);
        assert!(matches!(&r.ops[0], Op::Nest { line: 4, .. }));
        let Op::Route { methods, line, .. } = &r.ops[1] else {
            panic!("{:?}", r.ops)
        };
        assert_eq!((*line, methods.len()), (5, 5));
        let h = &f.fns[1];
        assert!(h.routers.is_empty());
        assert_eq!(
            h.direct,
            [
                ("query".to_string(), "q".to_string()),
                ("header".to_string(), "x-trace".to_string())
            ]
        );
        assert_eq!(h.bodies, [("json".to_string(), "NewUser".to_string())]);
    }
}
