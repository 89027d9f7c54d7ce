//! Gotham (`rust_gotham`).
//!
//! Routers: `build_simple_router(|route| { … })` and
//! `build_router(chain, pipelines, |route| { … })`, returned by a function
//! (tail expression or tail variable) or bound to a variable. Inside the
//! builder closure, statements on its parameter:
//! - `route.get("/x").to(h)` (also `post`, `put`, `patch`, `delete`,
//!   `options`, `head`), `get_or_head` (GET and HEAD) and
//!   `request(vec![Get, Head], "/x")` (`Method::GET` spellings too); the
//!   handler comes from `.to(h)`, `.to_async(h)`, `.to_async_borrowing(h)`,
//!   `.to_new_handler(h)`, and `.to_dir(…)`/`.to_file(…)` serve files;
//! - `route.scope("/api", |route| { … })` (prefix, any depth) and
//!   `route.with_pipeline_chain(chain, |route| { … })` (no prefix);
//! - `route.associate("/x", |assoc| { assoc.get().to(h); assoc.post()… })`;
//! - `route.delegate("/admin").to_router(admin::router())` (also
//!   `delegate_without_pipelines`): the router returned by a function of
//!   another module or crate, or a local router variable, under the prefix.
//!
//! Paths: literals, `const`/`static` constants, `format!`/`concat!`;
//! `:name` segments kept, their regex constraints dropped
//! (`:id:[0-9]+` → `:id`); `*` globs kept.
//!
//! Parameters: `.with_path_extractor::<P>()` (fields of struct `P` as path
//! params) and `.with_query_string_extractor::<Q>()` (fields of `Q` as
//! query params), after serde `rename`/`rename_all`/`skip`/`flatten`; in
//! the handler, `HeaderMap::borrow_from(&state)` reads (`headers.get("x")`,
//! `headers.get(header::X)`) are headers.
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items (Gotham's `TestServer` requests are there).

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::rs::expr::{crate_and_module, parse_str, Part};
use crate::rs::items::{self, FnDecl};
use crate::rs::router::scan::{
    binding, nested_fn, primary, reads, tail_ident, target, FileFacts, FnFacts, Op, RouterDef,
    Target, METHODS,
};
use crate::rs::{is_source, router, FILES};

pub struct Gotham;

impl Analyzer for Gotham {
    fn tech(&self) -> Tech {
        Tech::new("rust_gotham", "Rust", "Gotham")
            .aliases(["gotham"])
            .files(FILES.iter().copied())
            .detect(Detect::files(["Cargo.toml"]).regex([r"(?s)dependencies.*\bgotham\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !is_source(file) {
            return;
        }
        out.fact(&scan_file(file));
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        router::link(facts)
    }
}

pub fn scan_file(file: &SourceFile) -> FileFacts {
    let path = file.slash_path();
    let code = file.code(Syntax::RUST);
    let skip = items::test_ranges(&code);
    let (krate, module) = crate_and_module(&path);
    let fns = items::functions(&code, &skip)
        .iter()
        .map(|f| scan_fn(file, &code, f))
        .collect();
    FileFacts {
        path,
        krate,
        module,
        consts: items::str_consts(&code, &skip),
        structs: items::structs(&code, &skip),
        fns,
        aliases: Vec::new(),
    }
}

fn scan_fn(file: &SourceFile, code: &Code, f: &FnDecl) -> FnFacts {
    let mut out = FnFacts {
        name: f.name.clone(),
        ..FnFacts::default()
    };
    let bytes = code.text().as_bytes();
    for word in ["build_simple_router", "build_router"] {
        for at in code.find_word_in(word, f.body.clone()) {
            if nested_fn(code, f, at) {
                continue;
            }
            let open = code.skip_ws(at + word.len());
            if bytes.get(open) != Some(&b'(') {
                continue;
            }
            let Some(last) = code.args(open).pop() else {
                continue;
            };
            let Some((param, body)) = closure(code, last) else {
                continue;
            };
            let ops = closure_ops(file, code, body, &param, 0);
            // `gotham::router::builder::build_simple_router(…)`.
            let start = path_start(code, at);
            let name = binding(code, start).unwrap_or_default();
            match out.routers.iter_mut().find(|r| r.name == name) {
                Some(r) => r.ops.extend(ops),
                None => out.routers.push(RouterDef { name, ops }),
            }
        }
    }
    out.returns = tail_ident(code, f.body.clone());
    // `let headers = HeaderMap::borrow_from(&state);` → `headers.get("x")`.
    for at in code.find_all_in("HeaderMap::", f.body.clone()) {
        let after = at + "HeaderMap::".len();
        if !matches!(code.ident_at(after), Some("borrow_from" | "take_from")) {
            continue;
        }
        if let Some(var) = binding(code, at) {
            for name in reads(
                code,
                f.body.clone(),
                &var,
                &["get", "get_all", "contains_key"],
            ) {
                out.direct.push(("header".into(), name));
            }
        }
    }
    out
}

/// Walk back over `a::b::` to the start of a path expression.
fn path_start(code: &Code, at: usize) -> usize {
    let bytes = code.text().as_bytes();
    let mut k = at;
    while k >= 2 && bytes[k - 1] == b':' && bytes[k - 2] == b':' {
        let mut j = k - 2;
        while j > 0 && portolan_plugin_sdk::lex::is_ident_byte(bytes[j - 1]) {
            j -= 1;
        }
        if j == k - 2 {
            break;
        }
        k = j;
    }
    k
}

/// `|route| { … }` / `move |route| …`: the parameter and the body range.
fn closure(code: &Code, range: Range<usize>) -> Option<(String, Range<usize>)> {
    let text = code.slice(range.clone());
    let lead = text.len() - text.trim_start().len();
    let mut at = range.start + lead;
    if code.text()[at..].starts_with("move") {
        at = code.skip_ws(at + 4);
    }
    let bytes = code.text().as_bytes();
    if bytes.get(at) != Some(&b'|') {
        return None;
    }
    let close = code.text()[at + 1..range.end].find('|')? + at + 1;
    let param = code.slice(at + 1..close);
    let param = param.split(':').next().unwrap_or("").trim();
    let param = param.trim_start_matches("mut ").trim().to_string();
    if !items::is_ident(&param) {
        return None;
    }
    Some((param, close + 1..range.end))
}

const MAX_DEPTH: usize = 16;

/// The operations of a builder closure body, statements on `var`.
fn closure_ops(
    file: &SourceFile,
    code: &Code,
    body: Range<usize>,
    var: &str,
    depth: usize,
) -> Vec<Op> {
    let mut ops = Vec::new();
    if depth > MAX_DEPTH {
        return ops;
    }
    let bytes = code.text().as_bytes();
    let mut done: Vec<Range<usize>> = Vec::new();
    for at in code.find_word_in(var, body.clone()) {
        if items::inside(&done, at) {
            continue;
        }
        // A statement on the builder, not `x.route` or `&route`.
        let before = code.text()[..at].trim_end();
        if before.ends_with('.') || before.ends_with("::") {
            continue;
        }
        let dot = code.skip_ws(at + var.len());
        if bytes.get(dot) != Some(&b'.') {
            continue;
        }
        let mut segs = Vec::new();
        let mut end = dot;
        loop {
            let p = code.skip_ws(end);
            if bytes.get(p) != Some(&b'.') {
                break;
            }
            let Some((seg, e)) = primary(code, p + 1) else {
                break;
            };
            segs.push(seg);
            end = e;
        }
        done.push(at..end.max(at + 1));
        if let Some(op) = statement(file, code, &segs, depth) {
            ops.push(op);
        }
    }
    ops
}

/// The type argument of `name::<T>` in a segment's text.
fn turbofish(code: &Code, seg_at: usize, args: Option<&Range<usize>>) -> Option<String> {
    let end = args.map(|a| a.start)?;
    let text = code.slice(seg_at..end);
    let open = text.find("::<")?;
    let inner = text[open + 3..].trim_end().strip_suffix('>')?;
    Some(items::type_name(inner))
}

fn statement(
    file: &SourceFile,
    code: &Code,
    segs: &[crate::rs::router::scan::Seg],
    depth: usize,
) -> Option<Op> {
    let first = segs.first()?;
    let line = file.line_of(first.at);
    let args = first
        .args
        .clone()
        .map(|a| code.args(a.start))
        .unwrap_or_default();
    let path_at = |i: usize| args.get(i).and_then(|r| parse_str(code, r.clone()));
    let name = first.path.as_str();
    let nested = |i: usize| -> Option<Vec<Op>> {
        let (param, body) = closure(code, args.get(i)?.clone())?;
        Some(closure_ops(file, code, body, &param, depth + 1))
    };
    let (methods, path): (Vec<String>, Vec<Part>) = match name {
        "scope" => {
            return Some(Op::Nest {
                path: clean(path_at(0)?),
                line,
                target: Target::Inline(nested(1)?),
                service: false,
            })
        }
        "associate" => {
            return Some(Op::Nest {
                path: clean(path_at(0)?),
                line,
                target: Target::Inline(nested(1)?),
                service: false,
            })
        }
        "with_pipeline_chain" => return Some(Op::Merge(Target::Inline(nested(1)?))),
        "delegate" | "delegate_without_pipelines" => {
            let to = segs.get(1).filter(|s| s.path == "to_router")?;
            let r = to
                .args
                .clone()
                .map(|a| code.args(a.start))?
                .into_iter()
                .next()?;
            return Some(Op::Nest {
                path: clean(path_at(0)?),
                line,
                target: target(file, code, r.start, &crate::axum::FRAMEWORK),
                service: false,
            });
        }
        "get_or_head" => (
            vec!["GET".into(), "HEAD".into()],
            path_at(0).unwrap_or_default(),
        ),
        "request" => {
            let list = args.first().map(|r| code.slice(r.clone())).unwrap_or("");
            let list = list.trim_start_matches("vec!");
            let methods = list
                .trim_matches(|c| matches!(c, '[' | ']' | '&' | ' '))
                .split(',')
                .filter_map(|m| {
                    let m = m
                        .trim()
                        .rsplit("::")
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    METHODS
                        .contains(&m.as_str())
                        .then(|| m.to_ascii_uppercase())
                })
                .collect();
            (methods, path_at(1)?)
        }
        m if METHODS.contains(&m) => (vec![m.to_ascii_uppercase()], path_at(0).unwrap_or_default()),
        _ => return None,
    };
    let mut handler = None;
    let mut extract = Vec::new();
    for s in &segs[1..] {
        match s.path.as_str() {
            "with_path_extractor" => {
                if let Some(t) = turbofish(code, s.at, s.args.as_ref()) {
                    extract.push(("path".to_string(), t));
                }
            }
            "with_query_string_extractor" => {
                if let Some(t) = turbofish(code, s.at, s.args.as_ref()) {
                    extract.push(("query".to_string(), t));
                }
            }
            "to" | "to_async" | "to_async_borrowing" | "to_new_handler" => {
                handler = s
                    .args
                    .clone()
                    .and_then(|a| code.args(a.start).into_iter().next())
                    .map(|r| target(file, code, r.start, &crate::axum::FRAMEWORK));
            }
            _ => {}
        }
    }
    Some(Op::Route {
        path: clean(path),
        line,
        query: Vec::new(),
        extract,
        methods: methods.into_iter().map(|m| (m, handler.clone())).collect(),
    })
}

/// Drop segment constraints: `/:id:[0-9]+` → `/:id`.
fn clean(parts: Vec<Part>) -> Vec<Part> {
    parts
        .into_iter()
        .map(|p| match p {
            Part::Lit(s) => Part::Lit(
                s.split('/')
                    .map(|seg| match seg.strip_prefix(':') {
                        Some(rest) => format!(":{}", rest.split(':').next().unwrap_or(rest)),
                        None => seg.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_closures() {
        let src = "pub fn router() -> Router {\n build_simple_router(|route| {\n  route.get(\"/\").to(index);\n  // route.get(\"/old\").to(old);\n  route.scope(\"/api\", |route| {\n   route.post(\"/users/:id:[0-9]+\").with_path_extractor::<UserPath>().to(create);\n  });\n  route.delegate(\"/admin\").to_router(admin::router());\n })\n}";
        let f = scan_file(&SourceFile::new("src/lib.rs", src));
        let r = &f.fns[0].routers[0];
        assert_eq!(r.name, "");
        assert_eq!(r.ops.len(), 3);
        let Op::Nest {
            target: Target::Inline(inner),
            ..
        } = &r.ops[1]
        else {
            panic!("{:?}", r.ops)
        };
        let Op::Route {
            path,
            line,
            extract,
            ..
        } = &inner[0]
        else {
            panic!("{inner:?}")
        };
        assert_eq!(*line, 6);
        assert_eq!(path, &[Part::Lit("/users/:id".into())]);
        assert_eq!(extract, &[("path".to_string(), "UserPath".to_string())]);
        assert!(matches!(
            &r.ops[2],
            Op::Nest {
                target: Target::Call { .. },
                ..
            }
        ));
    }

    #[test]
    fn broken_code_does_not_panic() {
        for src in [
            "fn r() { build_simple_router(|route| { route.get(",
            "fn r() { build_simple_router(|",
            "fn r() { build_router(a, b, |route| route.request(vec![Get, ], \"/x\").to(h)) }",
        ] {
            scan_file(&SourceFile::new("src/lib.rs", src));
        }
    }
}
