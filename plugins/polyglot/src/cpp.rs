//! C++: Crow (`cpp_crow`), cpp-httplib (`cpp_httplib`), Drogon
//! (`cpp_drogon`) and oat++ (`cpp_oatpp`).
//!
//! - Crow: `CROW_ROUTE(app, "/users/<int>")` with an optional
//!   `.methods("POST"_method, crow::HTTPMethod::Put)` (GET without), and
//!   `CROW_BP_ROUTE(bp, "/x")` under the blueprint's prefix
//!   (`crow::Blueprint bp("api")`). Reads: `req.url_params.get("q")` query,
//!   `req.get_header_value("X")` header, `x["name"]` on a
//!   `crow::json::load(req.body)` value json, `get_part_by_name("f")` file,
//!   `get_cookie("c")` cookie.
//! - cpp-httplib: `svr.Get/Post/Put/Patch/Delete/Options("/path", h)`
//!   (raw-string regex paths `R"(/n/(\d+))"` kept as written; a path
//!   built at run time, `cfg.prefix + "/x"`, gives `/{prefix}/x`).
//!   Reads: `req.get_param_value("q")`/`req.has_param("q")` query,
//!   `req.get_header_value("X")` header, `req.get_file_value("f")` file.
//! - Drogon: `app().registerHandler("/x/{id}", h, {Get, Post})`,
//!   controllers' `METHOD_ADD(Ctrl::m, "/{1}?q={2}", Get)` (prefixed with
//!   the class and its namespaces: `api::v1::User` → `/api/v1/user`),
//!   `ADD_METHOD_TO(Ctrl::m, "/abs", Post)` and simple controllers'
//!   `PATH_ADD("/x", Get)`. Query parameters in the pattern (`?q={2}`) and
//!   reads `getParameter("q")` (query on GET, form otherwise),
//!   `getHeader("X")`, `getCookie("c")`, `(*json)["x"]` on a
//!   `getJsonObject()` json.
//! - oat++: `ENDPOINT("GET", "/users/{id}", name, PATH(Int32, id),
//!   QUERY(String, q), HEADER(String, t, "X-Token"), BODY_DTO(Object<UserDto>,
//!   dto))`; a DTO's `DTO_FIELD(String, name, "json-name")` fields are json
//!   parameters, from any file.

use std::collections::HashMap;
use std::ops::Range;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, next_brace, reads, Fns, Kind, Read};

const SYNTAX: Syntax = Syntax::C_LIKE;
const FILES: [&str; 7] = ["*.cpp", "*.cc", "*.cxx", "*.hpp", "*.h", "*.hh", "*.hxx"];

fn cpp_tech(id: &str, name: &str, aliases: &[&str], includes: &[&str], cmake: &str) -> Tech {
    Tech::new(id, "C++", name)
        .aliases(aliases.iter().copied())
        .files(FILES)
        .detect(Detect::files(FILES).contains(includes.iter().copied()))
        .detect(
            Detect::files([
                "CMakeLists.txt",
                "conanfile.txt",
                "vcpkg.json",
                "conanfile.py",
            ])
            .contains([cmake]),
        )
        .supports(Supports::HTTP)
}

fn skip(file: &SourceFile) -> bool {
    is_test_path(&file.path)
}

/// A string literal at `p`, C++ raw strings `R"(…)"` included.
fn string_or_raw(code: &Code, p: usize) -> Option<(String, usize)> {
    let p = code.skip_ws(p);
    let text = code.source();
    if text.get(p..p + 3) == Some("R\"(") {
        let end = text[p + 3..].find(")\"")? + p + 3;
        return Some((text[p + 3..end].to_string(), end + 2));
    }
    code.string_at(p).map(|s| (s.value, s.end))
}

/// A path built at run time, `cfg.prefix + "/health"`: literals kept,
/// every operand that is a plain variable or member (`cfg.prefix`,
/// `opts->base`) becomes a `{name}` placeholder segment (its last
/// identifier). `None` when an operand is anything else or no operand is a
/// literal.
fn concat_path(code: &Code, arg: Range<usize>) -> Option<String> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = arg.start;
    for i in arg.clone() {
        match bytes.get(i) {
            Some(b'(' | b'[' | b'{') => depth += 1,
            Some(b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            Some(b'+') if depth == 0 && code.is_code(i) => {
                parts.push(start..i);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(start..arg.end);
    if parts.len() < 2 {
        return None;
    }
    let mut out = String::new();
    let mut literal = false;
    for part in parts {
        let p = code.skip_ws(part.start);
        if let Some((lit, end)) = string_or_raw(code, p) {
            if code.skip_ws(end) < part.end {
                return None;
            }
            if out.ends_with('/') && lit.starts_with('/') {
                out.pop();
            }
            out.push_str(&lit);
            literal = true;
            continue;
        }
        let expr = text.get(p..part.end)?.trim();
        if expr.is_empty()
            || !expr
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'>' | b':'))
        {
            return None;
        }
        let name = expr
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .find(|w| !w.is_empty())?;
        if !out.ends_with('/') {
            out.push('/');
        }
        out.push('{');
        out.push_str(name);
        out.push('}');
    }
    literal.then_some(out)
}

/// The handler: an inline lambda in `range`, or a function named there.
fn handler(code: &Code, fns: &Fns, range: Range<usize>) -> Range<usize> {
    if code.slice(range.clone()).contains('{') {
        return range;
    }
    let text = code.text();
    let last = text.get(range.clone()).unwrap_or("");
    let name = last
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .find(|s| !s.is_empty())
        .unwrap_or("");
    let name = name.rsplit("::").next().unwrap_or(name);
    if !name.is_empty() {
        if let Some(b) = fns.get(name) {
            return b;
        }
    }
    range
}

/// `auto x = crow::json::load(req.body)` / `auto json = req->getJsonObject()`:
/// the variables holding a parsed body, as `x[` needles.
fn json_vars(code: &Code, range: Range<usize>, loaders: &[&str]) -> Vec<String> {
    let text = code.text();
    let mut out = Vec::new();
    for l in loaders {
        for at in code.find_all_in(l, range.clone()) {
            let line_start = text[..at].rfind([';', '{', '\n']).map_or(0, |i| i + 1);
            let stmt = &text[line_start..at];
            if let Some(eq) = stmt.rfind('=') {
                let lhs = stmt[..eq].trim_end();
                let var: String = lhs
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                if !var.is_empty() {
                    out.push(var);
                }
            }
        }
    }
    out
}

fn json_reads(code: &Code, range: Range<usize>, vars: &[String], e: &mut Endpoint) {
    for v in vars {
        for needle in [format!("{v}["), format!("(*{v})["), format!("{v}->get(")] {
            for at in code.find_all_in(&needle, range.clone()) {
                let bytes = code.text().as_bytes();
                if at > 0 && portolan_plugin_sdk::lex::is_ident_byte(bytes[at - 1]) {
                    continue;
                }
                if let Some(lit) = code.string_at(at + needle.len()) {
                    if code.skip_ws(at + needle.len()) == lit.start {
                        let p = Param::json(lit.value);
                        if !e.params.contains(&p) {
                            e.push_param(p);
                        }
                    }
                }
            }
        }
    }
}

const CROW_READS: &[Read] = &[
    ("url_params.get", Kind::Fixed(ParamKind::Query)),
    ("url_params.get_list", Kind::Fixed(ParamKind::Query)),
    ("get_header_value", Kind::Fixed(ParamKind::Header)),
    ("get_part_by_name", Kind::Fixed(ParamKind::File)),
    ("get_cookie", Kind::Fixed(ParamKind::Cookie)),
];

pub struct Crow;

impl Analyzer for Crow {
    fn tech(&self) -> Tech {
        cpp_tech(
            "cpp_crow",
            "Crow",
            &["crow", "cpp-crow"],
            &["crow.h", "crow_all.h", "<crow/", "\"crow/"],
            "Crow",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("CROW_") {
            return;
        }
        let code = file.code(SYNTAX);
        let fns = Fns::new(&code);
        let text = code.text();
        let bytes = text.as_bytes();
        // Blueprints: `crow::Blueprint bp("prefix")`.
        let mut blueprints: HashMap<String, String> = HashMap::new();
        for at in code.find_word("Blueprint") {
            let p = code.skip_ws(at + 9);
            if let Some(var) = code.ident_at(p) {
                let q = code.skip_ws(p + var.len());
                if matches!(bytes.get(q), Some(b'(' | b'{')) {
                    if let Some(lit) = code.string_at(q + 1) {
                        blueprints.insert(var.to_string(), lit.value);
                    }
                }
            }
        }
        for (mac, bp) in [
            ("CROW_ROUTE", false),
            ("CROW_BP_ROUTE", true),
            ("CROW_WEBSOCKET_ROUTE", false),
        ] {
            for at in code.find_word(mac) {
                let open = code.skip_ws(at + mac.len());
                if bytes.get(open) != Some(&b'(') {
                    continue;
                }
                let args = code.args(open);
                let (Some(recv), Some(path)) = (
                    args.first(),
                    args.get(1).and_then(|a| code.string_at(a.start)),
                ) else {
                    continue;
                };
                let prefix = if bp {
                    blueprints
                        .get(code.slice(recv.clone()).trim())
                        .cloned()
                        .unwrap_or_default()
                } else {
                    String::new()
                };
                let url = join_url(&[&prefix, &path.value]);
                let Some(close) = code.matching(open) else {
                    continue;
                };
                let mut p = code.skip_ws(close + 1);
                let mut methods = Vec::new();
                if text[p..].starts_with(".methods") {
                    let mo = code.skip_ws(p + 8);
                    if let Some(mc) = code.matching(mo) {
                        let inner = &text[mo..mc];
                        for w in inner.split(|c: char| !c.is_ascii_alphabetic()) {
                            if let Some(m) = method_of(w) {
                                if !methods.contains(&m) {
                                    methods.push(m);
                                }
                            }
                        }
                        p = code.skip_ws(mc + 1);
                    }
                }
                if methods.is_empty() {
                    methods.push("GET");
                }
                let body = if bytes.get(p) == Some(&b'(') {
                    let end = code.matching(p).unwrap_or(text.len());
                    handler(&code, &fns, p..end)
                } else {
                    p..p
                };
                let vars = json_vars(&code, body.clone(), &["json::load("]);
                for m in methods {
                    let mut e = common::endpoint(
                        m,
                        &url,
                        file,
                        file.line_of(at),
                        reads(&code, body.clone(), CROW_READS, m),
                    );
                    json_reads(&code, body.clone(), &vars, &mut e);
                    if mac == "CROW_WEBSOCKET_ROUTE" {
                        e.protocol = "ws".into();
                    }
                    out.endpoint(e);
                }
            }
        }
    }
}

const HTTPLIB_READS: &[Read] = &[
    ("get_param_value", Kind::Fixed(ParamKind::Query)),
    ("has_param", Kind::Fixed(ParamKind::Query)),
    ("get_header_value", Kind::Fixed(ParamKind::Header)),
    ("has_header", Kind::Fixed(ParamKind::Header)),
    ("get_file_value", Kind::Fixed(ParamKind::File)),
    ("has_file", Kind::Fixed(ParamKind::File)),
];

pub struct Httplib;

impl Analyzer for Httplib {
    fn tech(&self) -> Tech {
        cpp_tech(
            "cpp_httplib",
            "cpp-httplib",
            &["httplib", "cpp-httplib"],
            &["httplib.h"],
            "httplib",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("httplib") {
            return;
        }
        let code = file.code(SYNTAX);
        let fns = Fns::new(&code);
        let bytes = code.text().as_bytes();
        for verb in ["Get", "Post", "Put", "Patch", "Delete", "Options"] {
            for at in code.find_word(verb) {
                if at == 0 || !matches!(bytes[at - 1], b'.' | b'>') {
                    continue;
                }
                let open = code.skip_ws(at + verb.len());
                if bytes.get(open) != Some(&b'(') {
                    continue;
                }
                let args = code.args(open);
                // A client call (`cli.Get("/x")`) has no handler argument.
                if args.len() < 2 {
                    continue;
                }
                let (path, after) = match string_or_raw(&code, open + 1) {
                    Some((p, a)) if code.skip_ws(a) >= args[0].end => (p, a),
                    _ => match concat_path(&code, args[0].clone()) {
                        Some(p) => (p, args[0].end),
                        None => continue,
                    },
                };
                if !path.starts_with('/') {
                    continue;
                }
                let end = code.matching(open).unwrap_or(code.text().len());
                let m = method_of(verb).unwrap_or("GET");
                let body = handler(&code, &fns, after..end);
                let vars = json_vars(&code, body.clone(), &["json::parse("]);
                let mut e = common::endpoint(
                    m,
                    &path,
                    file,
                    file.line_of(at),
                    reads(&code, body.clone(), HTTPLIB_READS, m),
                );
                json_reads(&code, body, &vars, &mut e);
                out.endpoint(e);
            }
        }
    }
}

const DROGON_READS: &[Read] = &[
    ("getParameter", Kind::QueryOrForm),
    ("getOptionalParameter<", Kind::QueryOrForm),
    ("getHeader", Kind::Fixed(ParamKind::Header)),
    ("getCookie", Kind::Fixed(ParamKind::Cookie)),
];

pub struct Drogon;

impl Analyzer for Drogon {
    fn tech(&self) -> Tech {
        cpp_tech(
            "cpp_drogon",
            "Drogon",
            &["drogon", "cpp-drogon"],
            &["<drogon/", "\"drogon/"],
            "Drogon",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file)
            || !file.content.contains("drogon") && !file.content.contains("HttpRequestPtr")
        {
            return;
        }
        let code = file.code(SYNTAX);
        let fns = Fns::new(&code);
        let text = code.text();
        let bytes = text.as_bytes();
        let mut fact = DrogonFile::default();
        // registerHandler("/x", h, {Get, Post})
        for at in code.find_word("registerHandler") {
            let open = code.skip_ws(at + 15);
            if bytes.get(open) != Some(&b'(') {
                continue;
            }
            let args = code.args(open);
            let Some(path) = args.first().and_then(|a| code.string_at(a.start)) else {
                continue;
            };
            let methods = args
                .get(2)
                .map(|a| drogon_methods(code.slice(a.clone())))
                .unwrap_or_default();
            let body = args
                .get(1)
                .map_or(at..at, |a| handler(&code, &fns, a.clone()));
            emit_drogon(
                &code,
                file,
                &mut fact.endpoints,
                &path.value,
                "",
                at,
                methods,
                body,
                String::new(),
            );
        }
        // Method definitions `void Cls::m(…) { … }`, for controllers declared
        // in a header.
        for at in code.find_all("::") {
            let Some(name) = code.ident_at(at + 2) else {
                continue;
            };
            let p = code.skip_ws(at + 2 + name.len());
            if bytes.get(p) != Some(&b'(') {
                continue;
            }
            let Some(cls) = code.ident_before(at) else {
                continue;
            };
            let Some(close) = code.matching(p) else {
                continue;
            };
            let Some(open) = next_brace(&code, close + 1, b";,)=(") else {
                continue;
            };
            let body = common::block(&code, open);
            let mut get = Endpoint::new("GET", "/");
            let mut post = Endpoint::new("POST", "/");
            for e in [&mut get, &mut post] {
                let m = e.method.clone();
                let vars = json_vars(&code, body.clone(), &["getJsonObject()"]);
                for r in reads(&code, body.clone(), DROGON_READS, &m) {
                    e.push_param(r);
                }
                json_reads(&code, body.clone(), &vars, e);
            }
            fact.methods
                .push((format!("{cls}::{name}"), get.params, post.params));
        }
        // Controllers.
        let class_prefix = controller_prefix(&code);
        for (mac, absolute) in [
            ("METHOD_ADD", false),
            ("ADD_METHOD_TO", true),
            ("PATH_ADD", true),
            ("ADD_METHOD_VIA_REGEX", false),
        ] {
            for at in code.find_word(mac) {
                let open = code.skip_ws(at + mac.len());
                if bytes.get(open) != Some(&b'(') {
                    continue;
                }
                let args = code.args(open);
                let (path_arg, rest) = if mac == "PATH_ADD" { (0, 1) } else { (1, 2) };
                let Some(path) = args.get(path_arg).and_then(|a| code.string_at(a.start)) else {
                    continue;
                };
                let methods = drogon_methods(
                    &args[rest.min(args.len())..]
                        .iter()
                        .map(|a| code.slice(a.clone()))
                        .collect::<Vec<_>>()
                        .join(","),
                );
                let mut target = String::new();
                let body = match args.first().filter(|_| mac != "PATH_ADD") {
                    Some(a) => {
                        let full = code.slice(a.clone()).trim();
                        let name = full.rsplit("::").next().unwrap_or("").trim().to_string();
                        fns.get(&name).unwrap_or_else(|| {
                            target = last_two(full);
                            at..at
                        })
                    }
                    None => at..at,
                };
                let prefix = if absolute {
                    String::new()
                } else {
                    class_prefix.clone()
                };
                emit_drogon(
                    &code,
                    file,
                    &mut fact.endpoints,
                    &path.value,
                    &prefix,
                    at,
                    methods,
                    body,
                    target,
                );
            }
        }
        if !fact.endpoints.is_empty() || !fact.methods.is_empty() {
            out.fact(&fact);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<DrogonFile> = facts.all();
        let methods: HashMap<&str, (&Vec<Param>, &Vec<Param>)> = files
            .iter()
            .flat_map(|f| f.methods.iter().map(|(n, g, p)| (n.as_str(), (g, p))))
            .collect();
        let mut out = Vec::new();
        for f in &files {
            for (e, target) in &f.endpoints {
                let mut e = e.clone();
                if let Some((g, p)) = methods.get(target.as_str()) {
                    let ps = if matches!(e.method.as_str(), "GET" | "HEAD" | "DELETE") {
                        g
                    } else {
                        p
                    };
                    for p in ps.iter() {
                        if !e.params.iter().any(|q| q.name == p.name) {
                            e.push_param(p.clone());
                        }
                    }
                }
                out.push(e);
            }
        }
        Ok(out)
    }
}

/// What a Drogon file declares: endpoints (with the `Cls::method` handler
/// when its body is elsewhere) and method definitions with their reads
/// (as on GET, and as on POST).
#[derive(Default, Serialize, Deserialize)]
struct DrogonFile {
    endpoints: Vec<(Endpoint, String)>,
    methods: Vec<(String, Vec<Param>, Vec<Param>)>,
}

/// `api::v1::Posts::create` → `Posts::create`.
fn last_two(s: &str) -> String {
    let parts: Vec<&str> = s.split("::").map(str::trim).collect();
    parts[parts.len().saturating_sub(2)..].join("::")
}

fn drogon_methods(s: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    for w in s.split(|c: char| !c.is_ascii_alphabetic()) {
        if let Some(m) = method_of(w) {
            if w.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn emit_drogon(
    code: &Code,
    file: &SourceFile,
    out: &mut Vec<(Endpoint, String)>,
    pattern: &str,
    prefix: &str,
    at: usize,
    mut methods: Vec<&'static str>,
    body: Range<usize>,
    target: String,
) {
    if methods.is_empty() {
        methods.push("GET");
    }
    let (path, query) = pattern.split_once('?').unwrap_or((pattern, ""));
    let url = if prefix.is_empty() {
        path.to_string()
    } else {
        join_url(&[prefix, path])
    };
    let vars = json_vars(code, body.clone(), &["getJsonObject()"]);
    for m in methods {
        let mut e = common::endpoint(m, &url, file, file.line_of(at), Vec::new());
        for kv in query.split('&') {
            if let Some((k, _)) = kv.split_once('=') {
                e.push_param(Param::query(k));
            }
        }
        for p in reads(code, body.clone(), DROGON_READS, m) {
            if !e.params.iter().any(|q| q.name == p.name) {
                e.push_param(p);
            }
        }
        json_reads(code, body.clone(), &vars, &mut e);
        out.push((e, target.clone()));
    }
}

/// `namespace api { namespace v1 { class User : public
/// drogon::HttpController<User>` → `/api/v1/user`.
fn controller_prefix(code: &Code) -> String {
    let text = code.text();
    let Some(at) = text.find("HttpController<") else {
        return String::new();
    };
    let before = &text[..at];
    let Some(class_at) = before.rfind("class ") else {
        return String::new();
    };
    let name = code.ident_at(class_at + 6).unwrap_or("").to_string();
    let mut parts: Vec<String> = Vec::new();
    for ns in code.find_word("namespace") {
        if ns > class_at {
            break;
        }
        let p = code.skip_ws(ns + 9);
        let Some(n) = code.ident_at(p) else { continue };
        let Some(open) = next_brace(code, p, b";=") else {
            continue;
        };
        let close = code.matching(open).unwrap_or(text.len());
        if close > class_at {
            // `namespace a::b {`
            let full_end = text[p..open].trim_end();
            parts.extend(
                full_end
                    .split("::")
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty()),
            );
            let _ = n;
        }
    }
    parts.push(name);
    format!("/{}", parts.join("/").to_ascii_lowercase())
}

/// What an oat++ file declares: endpoints and DTOs.
#[derive(Serialize, Deserialize)]
struct OatFile {
    path: String,
    endpoints: Vec<(Endpoint, Vec<String>)>,
    dtos: Vec<(String, Vec<String>)>,
}

pub struct Oatpp;

impl Analyzer for Oatpp {
    fn tech(&self) -> Tech {
        cpp_tech(
            "cpp_oatpp",
            "oat++",
            &["oatpp", "oat++", "cpp-oatpp"],
            &["oatpp/", "OATPP_CODEGEN"],
            "oatpp",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("ENDPOINT") && !file.content.contains("DTO_FIELD") {
            return;
        }
        let code = file.code(SYNTAX);
        let bytes = code.text().as_bytes();
        let mut f = OatFile {
            path: file.path.clone(),
            endpoints: Vec::new(),
            dtos: Vec::new(),
        };
        for mac in ["ENDPOINT", "ENDPOINT_ASYNC"] {
            for at in code.find_word(mac) {
                let open = code.skip_ws(at + mac.len());
                if bytes.get(open) != Some(&b'(') {
                    continue;
                }
                let args = code.args(open);
                let (Some(m), Some(path)) = (
                    args.first().and_then(|a| code.string_at(a.start)),
                    args.get(1).and_then(|a| code.string_at(a.start)),
                ) else {
                    continue;
                };
                let mut e = Endpoint::new(m.value.to_ascii_uppercase(), &path.value)
                    .at(file, file.line_of(at));
                let mut dtos = Vec::new();
                for a in args.iter().skip(3) {
                    let s = code.slice(a.clone());
                    let Some(paren) = s.find('(') else { continue };
                    let kind = s[..paren].trim();
                    let inner_open = a.start + paren;
                    let inner = code.args(inner_open);
                    let name = inner
                        .get(2)
                        .and_then(|r| code.string_at(r.start))
                        .map(|l| l.value)
                        .or_else(|| {
                            inner
                                .get(1)
                                .map(|r| code.slice(r.clone()).trim().to_string())
                        })
                        .unwrap_or_default();
                    match kind {
                        "QUERY" => e.push_param(Param::query(name)),
                        "HEADER" => e.push_param(Param::header(name)),
                        "BODY_DTO" => {
                            let ty = inner.first().map(|r| code.slice(r.clone())).unwrap_or("");
                            let ty = ty.trim_end_matches(['>', ' ']);
                            let ty = ty.rsplit(['<', ':']).next().unwrap_or("").trim();
                            dtos.push(ty.to_string());
                        }
                        _ => {}
                    }
                }
                f.endpoints.push((e, dtos));
            }
        }
        for at in code.find_word("DTO_INIT") {
            let open = code.skip_ws(at + 8);
            let Some(name) = code
                .args(open)
                .first()
                .map(|r| code.slice(r.clone()).trim().to_string())
            else {
                continue;
            };
            let end = code.text()[at..]
                .find("};")
                .map_or(code.text().len(), |i| at + i);
            let mut fields = Vec::new();
            for fa in code.find_word_in("DTO_FIELD", at..end) {
                let o = code.skip_ws(fa + 9);
                let a = code.args(o);
                if let Some(n) = a
                    .get(2)
                    .and_then(|r| code.string_at(r.start))
                    .map(|l| l.value)
                    .or_else(|| a.get(1).map(|r| code.slice(r.clone()).trim().to_string()))
                {
                    fields.push(n);
                }
            }
            f.dtos.push((name, fields));
        }
        if !f.endpoints.is_empty() || !f.dtos.is_empty() {
            out.fact(&f);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<OatFile> = facts.all();
        let dtos: HashMap<&str, &Vec<String>> = files
            .iter()
            .flat_map(|f| f.dtos.iter().map(|(n, v)| (n.as_str(), v)))
            .collect();
        let mut out = Vec::new();
        for f in &files {
            for (e, ds) in &f.endpoints {
                let mut e = e.clone();
                for d in ds {
                    for field in dtos.get(d.as_str()).map(|v| v.as_slice()).unwrap_or(&[]) {
                        e.push_param(Param::json(field));
                    }
                }
                out.push(e);
            }
        }
        Ok(out)
    }
}
