//! Gleam: Wisp (`gleam_wisp`).
//!
//! Routing is pattern matching on the path segments: `case
//! wisp.path_segments(req) { [] -> home(req) ["users", id] -> user(req, id)
//! ["api", ..rest] -> api.handle_request(req, rest) }`; a `..rest` arm
//! mounts the function it calls (a `case segments { … }` router, in any
//! module, through `import app/web/api`) under the arm's prefix. A route's
//! methods come from the handler: `case req.method { Get -> list(req) Post
//! -> create(req) … }` (each branch with its own function's reads) or `use
//! <- wisp.require_method(req, Post)`; GET otherwise.
//!
//! Reads (in the handler and the functions it calls in the same module):
//! `list.key_find(query, "q")` on `wisp.get_query(req)` query,
//! `list.key_find(formdata.values, "x")` form, `decode.field("x", …)` /
//! `dynamic.field("x", …)` json, `request.get_header(req, "x")` header,
//! `wisp.get_cookie(req, "c", …)` cookie.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of};

const GLEAM: Syntax = Syntax {
    line_comments: &["//"],
    quotes: b"\"",
    ..common::DART
};

type Target = (String, String);

#[derive(Serialize, Deserialize, Default, Clone)]
struct GFn {
    name: String,
    line: u32,
    /// (segments, mounts the rest, called function, line)
    routes: Vec<(Vec<String>, bool, Option<Target>, u32)>,
    methods: Vec<(String, Option<Target>)>,
    reads: Vec<Param>,
    calls: Vec<Target>,
}

#[derive(Serialize, Deserialize, Default)]
struct GFile {
    path: String,
    module: String,
    imports: Vec<(String, String)>,
    fns: Vec<GFn>,
}

/// The call `name(…)` / `alias.name(…)` starting the expression at `at`.
fn call_at(code: &Code, at: usize) -> Option<Target> {
    let text = code.text();
    let p = code.skip_ws(at);
    let end = text[p..].find('(').map(|i| p + i)?;
    let callee = text[p..end].trim();
    if callee.is_empty()
        || !callee
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return None;
    }
    Some(match callee.rsplit_once('.') {
        Some((m, f)) => (m.to_string(), f.to_string()),
        None => (String::new(), callee.to_string()),
    })
}

fn reads(code: &Code, body: std::ops::Range<usize>) -> Vec<Param> {
    let mut out: Vec<Param> = Vec::new();
    let mut add = |p: Param| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for at in code.find_all_in("key_find(", body.clone()) {
        let args = code.args(at + 8);
        let (Some(src), Some(name)) = (
            args.first(),
            args.get(1).and_then(|a| code.string_at(a.start)),
        ) else {
            continue;
        };
        let src = code.slice(src.clone());
        let kind = if src.contains("values") || src.contains("form") {
            ParamKind::Form
        } else {
            ParamKind::Query
        };
        add(Param::new(kind, name.value));
    }
    for needle in ["decode.field(", "dynamic.field(", "decode.optional_field("] {
        for at in code.find_all_in(needle, body.clone()) {
            if let Some(l) = code.string_at(at + needle.len()) {
                add(Param::json(l.value));
            }
        }
    }
    for (needle, kind) in [
        ("get_header(", ParamKind::Header),
        ("get_cookie(", ParamKind::Cookie),
    ] {
        for at in code.find_all_in(needle, body.clone()) {
            let args = code.args(at + needle.len() - 1);
            if let Some(l) = args.get(1).and_then(|a| code.string_at(a.start)) {
                add(Param::new(kind, l.value));
            }
        }
    }
    out
}

fn scan(file: &SourceFile) -> GFile {
    let code = file.code(GLEAM);
    let text = code.text();
    let bytes = text.as_bytes();
    let rel = portolan_plugin_sdk::paths::below_base(&file.path).replace('\\', "/");
    let module = rel
        .split_once("src/")
        .map_or(rel.as_str(), |(_, m)| m)
        .trim_end_matches(".gleam")
        .to_string();
    let mut f = GFile {
        path: file.path.clone(),
        module,
        ..GFile::default()
    };
    for at in code.find_word("import") {
        if portolan_plugin_sdk::text::line_start_of(text, at) != at {
            continue;
        }
        let end = portolan_plugin_sdk::text::line_end_of(text, at);
        let spec = text[at + 6..end].trim();
        let spec = spec.split(['.', '{']).next().unwrap_or(spec).trim();
        let (m, alias) = match spec.split_once(" as ") {
            Some((m, a)) => (m.trim(), a.trim()),
            None => (spec, spec.rsplit('/').next().unwrap_or(spec)),
        };
        f.imports.push((alias.to_string(), m.to_string()));
    }
    for at in code.find_word("fn") {
        let Some(name) = code.ident_at(at + 2) else {
            continue;
        };
        let p = code.skip_ws(at + 2) + name.len();
        let Some(open) = text[p..].find('(').map(|i| p + i) else {
            continue;
        };
        let Some(close) = code.matching(open) else {
            continue;
        };
        let Some(bo) = common::next_brace(&code, close, b"") else {
            continue;
        };
        let body = common::block(&code, bo);
        let mut g = GFn {
            name: name.to_string(),
            line: file.line_of(at),
            reads: reads(&code, body.clone()),
            ..GFn::default()
        };
        // case … { [..] -> … }
        for c in code.find_word_in("case", body.clone()) {
            let Some(co) = common::next_brace(&code, c, b"") else {
                continue;
            };
            let subject = text[c + 4..co].trim();
            let cb = common::block(&code, co);
            let Some(ce) = code.matching(co) else {
                continue;
            };
            if subject.ends_with(".method") {
                // Get -> list(req)
                for (i, w) in text[co + 1..ce].match_indices("->") {
                    let head = text[co + 1..co + 1 + i].trim_end();
                    let word = head
                        .rsplit(|c: char| !c.is_ascii_alphanumeric())
                        .next()
                        .unwrap_or("");
                    if let Some(m) = method_of(word) {
                        let _ = w;
                        g.methods
                            .push((m.to_string(), call_at(&code, co + 1 + i + 2)));
                    }
                }
                continue;
            }
            // Arms: `[` … `]` at the top level of the case block, then `->`.
            let mut i = cb.start + 1;
            while i < ce {
                if bytes[i] == b'[' && code.is_code(i) {
                    let Some(close) = code.matching(i) else { break };
                    let after = code.skip_ws(close + 1);
                    if text[after..].starts_with("->") {
                        let mut segs = Vec::new();
                        let mut rest = false;
                        for a in code.args(i) {
                            let s = code.slice(a.clone()).trim();
                            if s.starts_with("..") {
                                rest = true;
                            } else if let Some(l) =
                                code.string_at(a.start).filter(|l| l.start == a.start)
                            {
                                segs.push(l.value);
                            } else if s == "_" {
                                segs.push("{_}".into());
                            } else {
                                segs.push(format!("{{{s}}}"));
                            }
                        }
                        let target = call_at(&code, after + 2);
                        g.routes.push((segs, rest, target, file.line_of(i)));
                    }
                    i = close + 1;
                    continue;
                }
                if bytes[i] == b'{' && code.is_code(i) {
                    i = code.matching(i).unwrap_or(i) + 1;
                    continue;
                }
                i += 1;
            }
        }
        // use <- wisp.require_method(req, Post)
        for at in code.find_all_in("require_method(", body.clone()) {
            let args = code.args(at + 14);
            if let Some(m) = args
                .get(1)
                .and_then(|a| method_of(code.slice(a.clone()).trim()))
            {
                g.methods.push((m.to_string(), None));
            }
        }
        // Calls in the body (one hop for reads).
        let mut j = body.start;
        while let Some(k) = text[j..body.end.min(text.len())].find('(') {
            let open = j + k;
            let start = text[..open]
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '.'))
                .map_or(0, |(s, c)| s + c.len_utf8());
            if start < open && code.is_code(open) {
                if let Some(t) = call_at(&code, start) {
                    if !g.calls.contains(&t) {
                        g.calls.push(t);
                    }
                }
            }
            j = open + 1;
        }
        f.fns.push(g);
    }
    f
}

struct World<'a> {
    files: &'a [GFile],
    by_module: HashMap<&'a str, usize>,
}

impl<'a> World<'a> {
    fn resolve(&self, from: usize, t: &Target) -> Option<(usize, &'a GFn)> {
        let file = if t.0.is_empty() {
            from
        } else {
            let f = &self.files[from];
            let m = f
                .imports
                .iter()
                .find(|(a, _)| *a == t.0)
                .map_or(t.0.as_str(), |(_, m)| m.as_str());
            *self.by_module.get(m)?
        };
        self.files[file]
            .fns
            .iter()
            .find(|g| g.name == t.1)
            .map(|g| (file, g))
    }

    fn fn_reads(&self, file: usize, g: &GFn) -> Vec<Param> {
        let mut out = g.reads.clone();
        for c in &g.calls {
            if let Some((_, h)) = self.resolve(file, c) {
                for p in &h.reads {
                    if !out.contains(p) {
                        out.push(p.clone());
                    }
                }
            }
        }
        out
    }

    fn walk(&self, file: usize, g: &GFn, prefix: &str, depth: usize, out: &mut Vec<Endpoint>) {
        if depth > 12 {
            return;
        }
        for (segs, rest, target, line) in &g.routes {
            let mut parts: Vec<&str> = vec![prefix];
            parts.extend(segs.iter().map(String::as_str));
            let url = join_url(&parts);
            let handler = target.as_ref().and_then(|t| self.resolve(file, t));
            if *rest {
                if let Some((hf, h)) = handler {
                    self.walk(hf, h, &url, depth + 1, out);
                }
                continue;
            }
            let path = &self.files[file].path;
            match handler {
                Some((hf, h)) if !h.routes.is_empty() && h.methods.is_empty() => {
                    let _ = hf;
                    out.push(Endpoint::new("GET", &url).at_path(path, *line));
                }
                Some((hf, h)) => {
                    if h.methods.is_empty() {
                        out.push(
                            Endpoint::new("GET", &url)
                                .at_path(path, *line)
                                .params(self.fn_reads(hf, h)),
                        );
                    }
                    for (m, branch) in &h.methods {
                        let mut ps = self.fn_reads(hf, h);
                        if let Some((bf, b)) = branch.as_ref().and_then(|t| self.resolve(hf, t)) {
                            for p in self.fn_reads(bf, b) {
                                if !ps.contains(&p) {
                                    ps.push(p);
                                }
                            }
                            // Reads of other branches are not this method's.
                            let others: Vec<Param> = h
                                .methods
                                .iter()
                                .filter(|(x, _)| x != m)
                                .filter_map(|(_, t)| t.as_ref().and_then(|t| self.resolve(hf, t)))
                                .flat_map(|(of, o)| self.fn_reads(of, o))
                                .collect();
                            let own = self.fn_reads(bf, b);
                            ps.retain(|p| own.contains(p) || !others.contains(p));
                        }
                        let holes = portolan_plugin_sdk::urls::path_placeholders(&url);
                        ps.retain(|p| !holes.contains(&p.name));
                        out.push(Endpoint::new(m, &url).at_path(path, *line).params(ps));
                    }
                }
                None => out.push(Endpoint::new("GET", &url).at_path(path, *line)),
            }
        }
    }
}

pub struct Wisp;

impl Analyzer for Wisp {
    fn tech(&self) -> Tech {
        Tech::new("gleam_wisp", "Gleam", "Wisp")
            .aliases(["wisp", "gleam-wisp"])
            .files(["*.gleam"])
            .detect(Detect::files(["gleam.toml"]).regex([r"(?m)^\s*wisp\s*="]))
            .detect(Detect::files(["*.gleam"]).contains(["import wisp"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        out.fact(&scan(file));
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<GFile> = facts.all();
        let world = World {
            files: &files,
            by_module: files
                .iter()
                .enumerate()
                .map(|(i, f)| (f.module.as_str(), i))
                .collect(),
        };
        // Roots: routers that are not mounted by another router.
        let mut mounted: Vec<(usize, &str)> = Vec::new();
        for (i, f) in files.iter().enumerate() {
            for g in &f.fns {
                for (_, _, t, _) in &g.routes {
                    if let Some((tf, tg)) = t.as_ref().and_then(|t| world.resolve(i, t)) {
                        mounted.push((tf, tg.name.as_str()));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, f) in files.iter().enumerate() {
            for g in &f.fns {
                if !g.routes.is_empty() && !mounted.contains(&(i, g.name.as_str())) {
                    world.walk(i, g, "", 0, &mut out);
                }
            }
        }
        // An application without path routing: `handle_request` dispatching
        // on the method only serves `/`.
        if out.is_empty() {
            for (i, f) in files.iter().enumerate() {
                if let Some(g) = f.fns.iter().find(|g| g.name == "handle_request") {
                    let root = GFn {
                        routes: vec![(
                            Vec::new(),
                            false,
                            Some((String::new(), g.name.clone())),
                            g.line,
                        )],
                        ..GFn::default()
                    };
                    world.walk(i, &root, "", 0, &mut out);
                }
            }
        }
        Ok(out)
    }
}
