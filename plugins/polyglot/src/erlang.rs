//! Erlang: Cowboy (`erlang_cowboy`) and Elli (`erlang_elli`).
//!
//! - Cowboy: route tuples `{"/users/:id", user_handler, Opts}` (also with
//!   constraints, `{"/x", [Constraints], handler, Opts}`) in a module using
//!   `cowboy_router:compile`; the handler module (any file, by its
//!   `-module`) gives the methods — the `<<"GET">>`-style method binaries
//!   it matches (`cowboy_req:method/1`, `allowed_methods/2`), GET when it
//!   names none — and the parameters: `cowboy_req:match_qs([q, {page,
//!   int, 1}], Req)` query, `cowboy_req:header(<<"x-token">>, Req)` header,
//!   `cowboy_req:match_cookies([session], Req)` cookie, and lookups
//!   (`proplists:get_value/2`, `lists:keyfind/3`, `maps:get/2`) in the
//!   result of `cowboy_req:parse_qs` (query), `read_urlencoded_body`
//!   (form) or a JSON decode of the body (json).
//! - Elli: `handle('GET', [<<"users">>, Id], Req) ->` clauses (path
//!   segments from the list, variables as placeholders). Reads:
//!   `elli_request:get_arg(<<"q">>, Req)` query, `post_arg` form,
//!   `get_header` header.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, method_of, reads, Kind, Read, ERLANG};

fn erl_tech(id: &str, name: &str, aliases: &[&str], dep: &str, needle: &str) -> Tech {
    Tech::new(id, "Erlang", name)
        .aliases(aliases.iter().copied())
        .files(["*.erl"])
        .detect(
            Detect::files(["rebar.config", "*.app.src", "Makefile", "erlang.mk"])
                .contains([dep.to_string()]),
        )
        .detect(Detect::files(["*.erl"]).contains([needle.to_string()]))
        .supports(Supports::HTTP)
}

#[derive(Serialize, Deserialize, Default)]
struct CowboyFile {
    module: String,
    routes: Vec<(String, String, String, u32)>,
    methods: Vec<String>,
    params: Vec<Param>,
    /// Reads of function clauses matching one method (`handle(<<"POST">>, Req)`).
    by_method: Vec<(String, Vec<Param>)>,
    /// A `cowboy_websocket` handler.
    ws: bool,
    /// Reads the request body (`read_body`, `read_part`, …).
    body: bool,
}

/// `<<"name">>` or an atom at `p`: the name and where it ends.
fn erl_name(code: &Code, p: usize) -> Option<(String, usize)> {
    let text = code.text();
    let p = code.skip_ws(p);
    if text[p..].starts_with("<<") {
        let lit = code.string_at(p + 2)?;
        return Some((lit.value, lit.end + 2));
    }
    if let Some(lit) = code.string_at(p).filter(|l| l.start == p) {
        return Some((lit.value, lit.end));
    }
    let id = code.ident_at(p)?;
    id.as_bytes()[0]
        .is_ascii_lowercase()
        .then(|| (id.to_string(), p + id.len()))
}

/// Variables bound to a request part: `Qs = cowboy_req:parse_qs(Req)`,
/// `{ok, Body, Req1} = cowboy_req:read_urlencoded_body(Req0)`, `Data =
/// jsx:decode(Body, …)`.
fn bound_vars(code: &Code) -> HashMap<String, ParamKind> {
    let text = code.text();
    let mut out = HashMap::new();
    let sources: &[(&str, ParamKind)] = &[
        ("cowboy_req:parse_qs(", ParamKind::Query),
        ("cowboy_req:read_urlencoded_body(", ParamKind::Form),
        ("jsx:decode(", ParamKind::Json),
        ("jiffy:decode(", ParamKind::Json),
        ("jsone:decode(", ParamKind::Json),
        ("json:decode(", ParamKind::Json),
        ("thoas:decode(", ParamKind::Json),
        ("cowboy_req:parse_cookies(", ParamKind::Cookie),
    ];
    for (needle, kind) in sources {
        for at in code.find_all(needle) {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let Some(lhs) = text[line_start..at].trim().strip_suffix('=') else {
                continue;
            };
            let lhs = lhs.trim();
            // {ok, Body, Req1} = … : the second element; else `Var = …`.
            let var = match lhs.strip_prefix('{') {
                Some(t) => t
                    .trim_end_matches('}')
                    .split(',')
                    .nth(1)
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                None => lhs
                    .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")
                    .to_string(),
            };
            if var
                .as_bytes()
                .first()
                .is_some_and(|b| b.is_ascii_uppercase())
            {
                out.insert(var, *kind);
            }
        }
    }
    out
}

fn cowboy_params(code: &Code, range: std::ops::Range<usize>) -> Vec<Param> {
    let text = code.text();
    let mut out: Vec<Param> = Vec::new();
    let mut add = |p: Param| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for (needle, kind) in [
        ("cowboy_req:match_qs(", ParamKind::Query),
        ("cowboy_req:match_cookies(", ParamKind::Cookie),
    ] {
        for at in code.find_all_in(needle, range.clone()) {
            let open = at + needle.len() - 1;
            let Some(first) = code.args(open).into_iter().next() else {
                continue;
            };
            if text.as_bytes().get(first.start) != Some(&b'[') {
                continue;
            }
            for a in code.args(first.start) {
                let p = if text.as_bytes().get(a.start) == Some(&b'{') {
                    a.start + 1
                } else {
                    a.start
                };
                if let Some((n, _)) = erl_name(code, p) {
                    add(Param::new(kind, n));
                }
            }
        }
    }
    // Multipart parts: {file, <<"name">>, …} / {data, <<"name">>} = cow_multipart:form_data(…)
    if code
        .find_all_in("cow_multipart:form_data(", range.clone())
        .next()
        .is_some()
    {
        for (needle, kind) in [("{file,", ParamKind::File), ("{data,", ParamKind::Form)] {
            for at in code.find_all_in(needle, range.clone()) {
                if let Some((n, _)) = erl_name(code, at + needle.len()) {
                    add(Param::new(kind, n));
                }
            }
        }
    }
    for at in code.find_all_in("cowboy_req:header(", range.clone()) {
        if let Some((n, _)) = erl_name(code, at + 18) {
            add(Param::header(n));
        }
    }
    let vars = bound_vars(code);
    for needle in [
        "proplists:get_value(",
        "lists:keyfind(",
        "maps:get(",
        "maps:find(",
        "proplists:get_binary_value(",
    ] {
        for at in code.find_all_in(needle, range.clone()) {
            let open = at + needle.len() - 1;
            let args = code.args(open);
            let Some((name, _)) = args.first().and_then(|a| erl_name(code, a.start)) else {
                continue;
            };
            let Some(src) = args
                .iter()
                .skip(1)
                .map(|a| code.slice(a.clone()).trim())
                .find(|s| vars.contains_key(*s))
            else {
                continue;
            };
            add(Param::new(vars[src], name));
        }
    }
    // #{<<"x">> := X} = Json
    for (var, kind) in &vars {
        for at in code.find_all_in(&format!("= {var}"), range.clone()) {
            let before = text[..at].trim_end();
            if !before.ends_with('}') {
                continue;
            }
            let Some(open) = before.rfind("#{") else {
                continue;
            };
            let inner = open + 1;
            for a in code.args(inner) {
                if let Some((n, _)) = erl_name(code, a.start) {
                    add(Param::new(*kind, n));
                }
            }
        }
    }
    out
}

pub struct Cowboy;

impl Analyzer for Cowboy {
    fn tech(&self) -> Tech {
        erl_tech(
            "erlang_cowboy",
            "Cowboy",
            &["cowboy", "erlang-cowboy"],
            "cowboy",
            "cowboy_req:",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path)
            || file.path.ends_with("_SUITE.erl")
            || !file.content.contains("cowboy")
        {
            return;
        }
        let code = file.code(ERLANG);
        let text = code.text();
        let mut f = CowboyFile {
            module: code
                .find_all("-module(")
                .next()
                .and_then(|at| code.ident_at(at + 8))
                .unwrap_or("")
                .to_string(),
            ..CowboyFile::default()
        };
        if file.content.contains("cowboy_router") {
            for lit in code.strings() {
                if !lit.value.starts_with('/') {
                    continue;
                }
                let before = text[..lit.start].trim_end();
                if !before.ends_with('{') {
                    continue;
                }
                let mut p = code.skip_ws(lit.end);
                if text.as_bytes().get(p) != Some(&b',') {
                    continue;
                }
                p = code.skip_ws(p + 1);
                if text.as_bytes().get(p) == Some(&b'[') {
                    let Some(close) = code.matching(p) else {
                        continue;
                    };
                    p = code.skip_ws(close + 1);
                    if text.as_bytes().get(p) != Some(&b',') {
                        continue;
                    }
                    p = code.skip_ws(p + 1);
                }
                let Some(module) = code.ident_at(p) else {
                    continue;
                };
                if module == "cowboy_static" {
                    continue;
                }
                let url = lit.value.replace(['[', ']'], "");
                let url = url.replace("/...", "/*");
                f.routes.push((
                    url,
                    module.to_string(),
                    file.path.clone(),
                    file.line_of(lit.start),
                ));
            }
        }
        for lit in code.strings() {
            if text[..lit.start].ends_with("<<") {
                if let Some(m) = method_of(&lit.value) {
                    if lit.value.chars().all(|c| c.is_ascii_uppercase())
                        && !f.methods.iter().any(|x| x == m)
                    {
                        f.methods.push(m.to_string());
                    }
                }
            }
        }
        // Clauses whose first argument is a method binary.
        let heads: Vec<(usize, String)> = code
            .strings()
            .into_iter()
            .filter_map(|lit| {
                let m = method_of(&lit.value)?;
                let before = text[..lit.start].strip_suffix("<<")?.strip_suffix('(')?;
                let name = code.ident_before(before.len())?;
                let start = before.len() - name.len();
                (portolan_plugin_sdk::text::line_start_of(text, start) == start)
                    .then(|| (start, m.to_string()))
            })
            .collect();
        let mut in_clauses: Vec<Param> = Vec::new();
        for (i, (at, m)) in heads.iter().enumerate() {
            let end = heads.get(i + 1).map_or_else(
                || text[*at..].find(".\n").map_or(text.len(), |j| at + j),
                |(n, _)| *n,
            );
            let ps = cowboy_params(&code, *at..end);
            in_clauses.extend(ps.iter().cloned());
            f.by_method.push((m.clone(), ps));
        }
        f.ws = file.content.contains("cowboy_websocket");
        f.body = [
            "cowboy_req:read_body(",
            "cowboy_req:read_part(",
            "cowboy_req:read_urlencoded_body(",
        ]
        .iter()
        .any(|n| file.content.contains(n));
        f.params = cowboy_params(&code, 0..text.len())
            .into_iter()
            .filter(|p| !in_clauses.contains(p))
            .collect();
        out.fact(&f);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<CowboyFile> = facts.all();
        let modules: HashMap<&str, &CowboyFile> =
            files.iter().map(|f| (f.module.as_str(), f)).collect();
        let mut out = Vec::new();
        for f in &files {
            for (url, module, path, line) in &f.routes {
                let handler = modules.get(module.as_str());
                let mut methods: Vec<String> =
                    handler.map(|h| h.methods.clone()).unwrap_or_default();
                methods.retain(|m| m != "HEAD" && m != "OPTIONS");
                if methods.is_empty() {
                    // A handler that reads a body without naming methods takes POSTs.
                    let posts = handler.is_some_and(|h| h.body && !h.ws);
                    methods.push(if posts { "POST" } else { "GET" }.into());
                }
                for m in methods {
                    let mut e = Endpoint::new(&m, url).at_path(path, *line);
                    if handler.is_some_and(|h| h.ws) {
                        e.protocol = "ws".into();
                    }
                    if let Some(h) = handler {
                        let holes = portolan_plugin_sdk::urls::path_placeholders(url);
                        let own = h
                            .by_method
                            .iter()
                            .filter(|(x, _)| *x == m)
                            .flat_map(|(_, ps)| ps.iter());
                        for p in h.params.iter().chain(own) {
                            let body = matches!(p.kind, ParamKind::Form | ParamKind::Json);
                            if holes.contains(&p.name)
                                || body && matches!(m.as_str(), "GET" | "DELETE")
                            {
                                continue;
                            }
                            e.push_param(p.clone());
                        }
                    }
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}

const ELLI_READS: &[Read] = &[
    (
        "elli_request:get_arg_decoded(",
        Kind::Fixed(ParamKind::Query),
    ),
    ("elli_request:get_arg(", Kind::Fixed(ParamKind::Query)),
    (
        "elli_request:post_arg_decoded(",
        Kind::Fixed(ParamKind::Form),
    ),
    ("elli_request:post_arg(", Kind::Fixed(ParamKind::Form)),
    ("elli_request:get_header(", Kind::Fixed(ParamKind::Header)),
];

pub struct Elli;

impl Analyzer for Elli {
    fn tech(&self) -> Tech {
        erl_tech(
            "erlang_elli",
            "Elli",
            &["elli", "erlang-elli"],
            "elli",
            "elli_request",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.content.contains("elli") {
            return;
        }
        let code = file.code(ERLANG);
        let text = code.text();
        let bytes = text.as_bytes();
        let clauses: Vec<usize> = code
            .find_word("handle")
            .filter(|&at| {
                portolan_plugin_sdk::text::line_start_of(text, at) == at
                    && bytes.get(at + 6) == Some(&b'(')
            })
            .collect();
        for (i, &at) in clauses.iter().enumerate() {
            let open = at + 6;
            let args = code.args(open);
            if args.len() != 3 {
                continue;
            }
            let Some((m, _)) = erl_name(&code, args[0].start) else {
                continue;
            };
            let Some(method) = method_of(&m) else {
                continue;
            };
            if bytes.get(args[1].start) != Some(&b'[') {
                continue;
            }
            let mut segs = Vec::new();
            for a in code.args(args[1].start) {
                let s = code.slice(a.clone()).trim();
                if s.starts_with("<<") {
                    if let Some((n, _)) = erl_name(&code, a.start) {
                        segs.push(n);
                    }
                } else if s.as_bytes().first().is_some_and(|b| b.is_ascii_uppercase()) {
                    let mut n = s.to_string();
                    if let Some(f) = n.get(..1) {
                        n = f.to_ascii_lowercase() + &n[1..];
                    }
                    segs.push(format!("{{{n}}}"));
                } else {
                    segs.push("*".into());
                }
            }
            let url = format!("/{}", segs.join("/"));
            let end = clauses.get(i + 1).copied().unwrap_or(text.len());
            out.endpoint(common::endpoint(
                method,
                &url,
                file,
                file.line_of(at),
                reads(&code, at..end, ELLI_READS, method),
            ));
        }
    }
}
