//! Zig: http.zig (`zig_httpz`), Zap (`zig_zap`), Jetzig (`zig_jetzig`),
//! Tokamak (`zig_tokamak`) and `std.http.Server` (`zig_http`).
//!
//! - httpz: `router.get("/users/:id", getUser, .{})` (`post`, `put`,
//!   `patch`, `delete`, `head`, `options`, `all`), groups `var admin =
//!   router.group("/admin", .{})` prefixing `admin.get(…)`. Handler reads:
//!   `q.get("x")` on `const q = try req.query()` query, `fd.get("x")` on
//!   `try req.formData()` form, `req.header("x")` header, `req.cookies().get("c")`
//!   cookie.
//! - Zap: endpoints `zap.Endpoint.init(.{ .path = "/users", .get = getUser,
//!   .post = postUser })`, endpoint structs (a `path` field and `pub fn
//!   get/post/put/patch/delete` methods) whose `init(…, "/users")` call is
//!   in any file, `router.handle_func("/x", …)`, and `on_request` handlers
//!   comparing `r.path` (`std.mem.eql(u8, path, "/x")`). Reads:
//!   `r.getParamStr(alloc, "x", …)`/`r.getParamSlice("x")` query on GET,
//!   form otherwise, `r.getHeader("x")` header, `r.getCookieStr(alloc, "c",
//!   …)` cookie.
//! - Jetzig: views `src/app/views/<path>.zig` (`root.zig` is `/`), whose
//!   `index`/`get`/`new`/`edit`/`post`/`put`/`patch`/`delete` functions are
//!   the RESTful routes (`get(id, …)` → `GET /<path>/:id`), and custom
//!   routes `app.route(.GET, "/x/:id", @import("app/views/x.zig"), .fn)`
//!   (without the view function's reads). Reads:
//!   `params.get("x")`/`params.getT(.string, "x")` on `try
//!   request.params()` and the fields of the struct named in
//!   `request.expectParams(T)` (same file) query on GET, form otherwise,
//!   `request.queryParams()` query, `request.headers.get("x")` header.
//! - Tokamak: route tuples `.get("/x", handler)`, `.post(…)`,
//!   `.group("/api", &.{ … })` prefixes.
//! - std.http: `std.mem.eql(u8, request.head.target, "/x")` (with
//!   `request.head.method == .POST` in the same condition).

use std::collections::HashMap;
use std::ops::Range;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, next_brace, reads, Fns, Kind, Read, ANY, ZIG};

fn zig_tech(id: &str, name: &str, aliases: &[&str], dep: &str) -> Tech {
    Tech::new(id, "Zig", name)
        .aliases(aliases.iter().copied())
        .files(["*.zig"])
        .detect(Detect::files(["build.zig.zon"]).regex([format!(r"(?m)^\s*\.{dep}\s*=")]))
        .detect(Detect::files(["*.zig"]).contains([format!("@import(\"{dep}\")")]))
        .supports(Supports::HTTP)
}

fn skip(file: &SourceFile) -> bool {
    is_test_path(&file.path) || file.path.ends_with("build.zig")
}

/// Variables assigned from one of `sources` in `body` (`const q = try
/// req.query();`), with the kind they yield.
fn source_vars(
    code: &Code,
    body: Range<usize>,
    sources: &[(&str, ParamKind)],
) -> Vec<(String, ParamKind)> {
    let text = code.text();
    let mut out = Vec::new();
    for (needle, kind) in sources {
        for at in code.find_all_in(needle, body.clone()) {
            let stmt = text[..at].rfind([';', '{', '\n']).map_or(0, |i| i + 1);
            let s = &text[stmt..at];
            if let Some(eq) = s.find('=') {
                let lhs = s[..eq].trim();
                let lhs = lhs.split(':').next().unwrap_or(lhs).trim();
                if let Some(var) = lhs.split_whitespace().last() {
                    out.push((var.to_string(), *kind));
                }
            }
        }
    }
    out
}

fn var_reads(
    code: &Code,
    body: Range<usize>,
    vars: &[(String, ParamKind)],
    method: &str,
    out: &mut Vec<Param>,
) {
    for (v, kind) in vars {
        let kind = if *kind == ParamKind::Form && matches!(method, "GET" | "HEAD" | "DELETE") {
            ParamKind::Query
        } else {
            *kind
        };
        let needle = format!("{v}.get(");
        for at in code.find_all_in(&needle, body.clone()) {
            if let Some((n, _)) = common::name_after(code, at + needle.len()) {
                push_param(out, Param::new(kind, n));
            }
        }
        // Jetzig's typed getter: `params.getT(.string, "email")`.
        let needle = format!("{v}.getT(");
        for at in code.find_all_in(&needle, body.clone()) {
            let args = code.args(at + needle.len() - 1);
            if let Some(a) = args.get(1) {
                if let Some((n, _)) = common::name_after(code, a.start) {
                    push_param(out, Param::new(kind, n));
                }
            }
        }
    }
}

fn push_param(out: &mut Vec<Param>, p: Param) {
    if !out.contains(&p) {
        out.push(p);
    }
}

/// Jetzig `request.expectParams(T)`: the fields of the struct `T` declared
/// in the same file (`const T = struct { title: []const u8, … };`), form
/// parameters (query on GET/HEAD/DELETE).
fn expect_params(code: &Code, body: Range<usize>, method: &str, out: &mut Vec<Param>) {
    let text = code.text();
    let kind = if matches!(method, "GET" | "HEAD" | "DELETE") {
        ParamKind::Query
    } else {
        ParamKind::Form
    };
    for at in code.find_all_in(".expectParams(", body) {
        let Some(ty) = code.ident_at(at + ".expectParams(".len()) else {
            continue;
        };
        // `const T = struct {`: the last declaration before the call (a
        // struct local to the view function), else the first after it.
        let decls: Vec<(usize, usize)> = code
            .find_word(ty)
            .filter_map(|d| {
                let p = code.skip_ws(d + ty.len());
                let rest = text.get(p..)?.strip_prefix('=')?;
                let q = p + 1 + (rest.len() - rest.trim_start().len());
                let open = text
                    .get(q..)?
                    .starts_with("struct")
                    .then(|| next_brace(code, q, b";"))
                    .flatten()?;
                Some((d, open))
            })
            .collect();
        let Some(open) = decls
            .iter()
            .rev()
            .find(|(d, _)| *d < at)
            .or(decls.first())
            .map(|(_, o)| *o)
        else {
            continue;
        };
        let block = common::block(code, open);
        let bytes = text.as_bytes();
        let mut depth = 0usize;
        let mut field_start = true;
        let mut i = open + 1;
        while i < block.end {
            match bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => field_start = true,
                b if depth == 0 && field_start && !b.is_ascii_whitespace() => {
                    field_start = false;
                    if let Some(name) = code.ident_at(i) {
                        let after = code.skip_ws(i + name.len());
                        if bytes.get(after) == Some(&b':') && code.is_code(i) {
                            push_param(out, Param::new(kind, name));
                        }
                        i += name.len().max(1);
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

const HTTPZ_READS: &[Read] = &[
    ("req.header(", Kind::Fixed(ParamKind::Header)),
    ("req.headers.get(", Kind::Fixed(ParamKind::Header)),
    ("req.cookies().get(", Kind::Fixed(ParamKind::Cookie)),
    ("req.param(", Kind::Fixed(ParamKind::Path)),
];

fn httpz_params(code: &Code, body: Range<usize>, m: &str) -> Vec<Param> {
    let mut ps = reads(code, body.clone(), HTTPZ_READS, m);
    let vars = source_vars(
        code,
        body.clone(),
        &[
            (".query()", ParamKind::Query),
            (".formData()", ParamKind::Form),
            (".multiFormData()", ParamKind::Form),
        ],
    );
    var_reads(code, body, &vars, m, &mut ps);
    ps
}

pub struct Httpz;

impl Analyzer for Httpz {
    fn tech(&self) -> Tech {
        zig_tech(
            "zig_httpz",
            "http.zig",
            &["httpz", "http.zig", "zig-httpz"],
            "httpz",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("httpz") && !file.content.contains(".router(") {
            return;
        }
        let code = file.code(ZIG);
        let fns = Fns::new(&code);
        let mut groups: HashMap<String, String> = HashMap::new();
        let verbs = [
            "get", "post", "put", "patch", "delete", "head", "options", "all", "group",
        ];
        for c in common::verb_calls(&code, &verbs, &["."], false) {
            let Some(open) = c.paren else { continue };
            let prefix = groups.get(&c.recv).cloned().unwrap_or_default();
            let url = join_url(&[&prefix, &c.path]);
            if c.verb == "group" {
                let text = code.text();
                let stmt = text[..c.at].rfind([';', '{', '\n']).map_or(0, |i| i + 1);
                if let Some(eq) = text[stmt..c.at].find('=') {
                    let lhs = text[stmt..stmt + eq].trim();
                    if let Some(var) = lhs.split_whitespace().last() {
                        groups.insert(var.to_string(), url);
                    }
                }
                continue;
            }
            let args = code.args(open);
            let Some(h) = args.get(1) else { continue };
            let name = code
                .slice(h.clone())
                .trim()
                .rsplit('.')
                .next()
                .unwrap_or("")
                .to_string();
            let body = fns.get(&name).unwrap_or(c.at..c.at);
            let methods: Vec<&str> = if c.verb == "all" {
                ANY.to_vec()
            } else {
                vec![method_of(&c.verb).unwrap_or("GET")]
            };
            for m in methods {
                out.endpoint(common::endpoint(
                    m,
                    &url,
                    file,
                    file.line_of(c.at),
                    httpz_params(&code, body.clone(), m),
                ));
            }
        }
    }
}

const ZAP_READS: &[Read] = &[
    ("getParamSlice(", Kind::QueryOrForm),
    ("getHeader(", Kind::Fixed(ParamKind::Header)),
];

/// Zap's `getParamStr(alloc, "x", false)`: the name is the first string
/// argument.
fn zap_params(code: &Code, body: Range<usize>, m: &str) -> Vec<Param> {
    let mut out = reads(code, body.clone(), ZAP_READS, m);
    for (needle, kind) in [
        ("getParamStr(", None),
        ("getCookieStr(", Some(ParamKind::Cookie)),
    ] {
        for at in code.find_all_in(needle, body.clone()) {
            let open = at + needle.len() - 1;
            if let Some(lit) = code
                .args(open)
                .iter()
                .find_map(|a| code.string_at(a.start).filter(|l| l.start == a.start))
            {
                let k = kind.unwrap_or(if matches!(m, "GET" | "HEAD" | "DELETE") {
                    ParamKind::Query
                } else {
                    ParamKind::Form
                });
                let p = Param::new(k, lit.value);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// `std.mem.eql(u8, x, "/path")` routes, with the method compared in the
/// same condition.
fn eql_routes(
    code: &Code,
    file: &SourceFile,
    params: &dyn Fn(Range<usize>, &str) -> Vec<Param>,
) -> Vec<Endpoint> {
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_all("mem.eql(") {
        let open = at + 7;
        let Some(lit) = code.args(open).iter().find_map(|a| {
            code.string_at(a.start)
                .filter(|l| l.start == a.start && l.value.starts_with('/'))
        }) else {
            continue;
        };
        let line_end = portolan_plugin_sdk::text::line_end_of(text, at);
        let line_start = portolan_plugin_sdk::text::line_start_of(text, at);
        let cond = &text[line_start..line_end];
        let mut method = "GET";
        if let Some(i) = cond.find("method") {
            for w in cond[i..].split(|c: char| !c.is_ascii_alphabetic()) {
                if w.chars().all(|c| c.is_ascii_uppercase()) {
                    if let Some(m) = method_of(w) {
                        method = m;
                        break;
                    }
                }
            }
        }
        let body = next_brace(code, lit.end, b";")
            .map(|o| common::block(code, o))
            .unwrap_or(lit.end..line_end);
        out.push(common::endpoint(
            method,
            &lit.value,
            file,
            file.line_of(at),
            params(body, method),
        ));
    }
    out
}

#[derive(Serialize, Deserialize, Default)]
struct ZapFile {
    endpoints: Vec<Endpoint>,
    /// struct name → [(method, line, params)]
    structs: Vec<(String, Vec<(String, u32, Vec<Param>)>, String)>,
    /// (struct name, path) of `Name.init(…, "/path")` calls
    inits: Vec<(String, String)>,
}

pub struct Zap;

impl Analyzer for Zap {
    fn tech(&self) -> Tech {
        zig_tech("zig_zap", "Zap", &["zap", "zig-zap"], "zap")
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("zap") {
            return;
        }
        let code = file.code(ZIG);
        let fns = Fns::new(&code);
        let text = code.text();
        let mut f = ZapFile::default();
        // zap.Endpoint.init(.{ .path = "/x", .get = h, … })
        for at in code.find_all(".path") {
            let p = code.skip_ws(at + 5);
            if text.as_bytes().get(p) != Some(&b'=') {
                continue;
            }
            let Some(lit) = code.string_at(p + 1) else {
                continue;
            };
            let Some(open) = text[..at].rfind(".{") else {
                continue;
            };
            let open = open + 1;
            let Some(close) = code.matching(open) else {
                continue;
            };
            if close < at {
                continue;
            }
            for a in code.args(open) {
                let s = code.slice(a.clone()).trim();
                let Some(rest) = s.strip_prefix('.') else {
                    continue;
                };
                let Some((k, v)) = rest.split_once('=') else {
                    continue;
                };
                let Some(m) = method_of(k.trim()) else {
                    continue;
                };
                let name = v.trim().rsplit('.').next().unwrap_or("");
                let body = fns.get(name).unwrap_or(at..at);
                f.endpoints.push(common::endpoint(
                    m,
                    &lit.value,
                    file,
                    file.line_of(a.start),
                    zap_params(&code, body, m),
                ));
            }
        }
        // router.handle_func("/x", …) / handle_func_unbound("/x", h)
        for needle in ["handle_func(", "handle_func_unbound("] {
            for at in code.find_all(needle) {
                let open = at + needle.len() - 1;
                let args = code.args(open);
                let Some(lit) = args.first().and_then(|a| code.string_at(a.start)) else {
                    continue;
                };
                let name = args
                    .last()
                    .map(|a| {
                        code.slice(a.clone())
                            .trim()
                            .rsplit('.')
                            .next()
                            .unwrap_or("")
                            .to_string()
                    })
                    .unwrap_or_default();
                let body = fns.get(&name).unwrap_or(at..at);
                f.endpoints.push(common::endpoint(
                    "GET",
                    &lit.value,
                    file,
                    file.line_of(at),
                    zap_params(&code, body, "GET"),
                ));
            }
        }
        f.endpoints
            .extend(eql_routes(&code, file, &|b, m| zap_params(&code, b, m)));
        // Endpoint structs: `pub const UserWeb = struct { path: []const u8, … pub fn get(…) … }`.
        for at in code.find_word("struct") {
            let Some(open) = next_brace(&code, at, b";(") else {
                continue;
            };
            let close = code.matching(open).unwrap_or(text.len());
            let body = &text[open..close];
            if !body.contains("path:") {
                continue;
            }
            let head = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
            let Some(name) = head.split_whitespace().skip_while(|w| *w != "const").nth(1) else {
                continue;
            };
            let mut methods = Vec::new();
            for fa in code.find_word_in("fn", open..close) {
                let Some(mname) = code.ident_at(fa + 2) else {
                    continue;
                };
                let Some(m) = method_of(mname) else { continue };
                let b = c_fn_body_from(&code, fa).unwrap_or(fa..fa);
                methods.push((m.to_string(), file.line_of(fa), zap_params(&code, b, m)));
            }
            if !methods.is_empty() {
                f.structs
                    .push((name.to_string(), methods, file.path.clone()));
            }
        }
        // A file that is itself an endpoint struct (`path: []const u8,` at the top level).
        if text.lines().any(|l| l.starts_with("path:")) {
            let base = file.path.rsplit('/').next().unwrap_or("").to_string();
            let mut methods = Vec::new();
            for fa in code.find_word("fn") {
                if portolan_plugin_sdk::text::indent_of_line(text, fa) != 0 {
                    continue;
                }
                let Some(mname) = code.ident_at(fa + 2) else {
                    continue;
                };
                let Some(m) = method_of(mname) else { continue };
                let b = c_fn_body_from(&code, fa).unwrap_or(fa..fa);
                methods.push((m.to_string(), file.line_of(fa), zap_params(&code, b, m)));
            }
            if !methods.is_empty() {
                f.structs
                    .push((format!("@{base}"), methods, file.path.clone()));
            }
        }
        // `const UserWeb = @import("userweb.zig");`
        let mut imports: HashMap<&str, String> = HashMap::new();
        for at in code.find_all("@import(") {
            let Some(lit) = code.string_at(at + 8) else {
                continue;
            };
            let stmt = text[..at].rfind([';', '\n']).map_or(0, |i| i + 1);
            if let Some(eq) = text[stmt..at].find('=') {
                if let Some(alias) = text[stmt..stmt + eq].split_whitespace().last() {
                    imports.insert(
                        alias,
                        format!("@{}", lit.value.rsplit('/').next().unwrap_or("")),
                    );
                }
            }
        }
        for at in code.find_all(".init(") {
            let Some(name) = code.ident_before(at) else {
                continue;
            };
            let name = imports
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string());
            let open = at + 5;
            if let Some(lit) = code.args(open).iter().find_map(|a| {
                code.string_at(a.start)
                    .filter(|l| l.start == a.start && l.value.starts_with('/'))
            }) {
                f.inits.push((name.to_string(), lit.value));
            }
        }
        if !f.endpoints.is_empty() || !f.structs.is_empty() || !f.inits.is_empty() {
            out.fact(&f);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<ZapFile> = facts.all();
        let mut out = Vec::new();
        let inits: Vec<&(String, String)> = files.iter().flat_map(|f| f.inits.iter()).collect();
        for f in &files {
            out.extend(f.endpoints.iter().cloned());
            for (name, methods, path) in &f.structs {
                for (_, url) in inits.iter().filter(|(n, _)| n == name) {
                    for (m, line, ps) in methods {
                        out.push(
                            Endpoint::new(m, url)
                                .at_path(path, *line)
                                .params(ps.clone()),
                        );
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The body of the `fn` at `at`.
fn c_fn_body_from(code: &Code, at: usize) -> Option<Range<usize>> {
    let text = code.text();
    let open = text[at..].find('(').map(|i| at + i)?;
    let close = code.matching(open)?;
    let b = next_brace(code, close + 1, b";")?;
    Some(common::block(code, b))
}

const JETZIG_READS: &[Read] = &[
    ("request.headers.get(", Kind::Fixed(ParamKind::Header)),
    (
        "request.headers.getFirstValue(",
        Kind::Fixed(ParamKind::Header),
    ),
];

pub struct Jetzig;

/// Jetzig custom routes, declared in `main.zig`'s `init`:
/// `app.route(.GET, "/docs/:section", @import("app/views/docs.zig"), .section)`
/// (the view function's reads are not followed).
fn custom_routes(file: &SourceFile, out: &mut Output) {
    if !file.content.contains(".route(") {
        return;
    }
    let code = file.code(ZIG);
    for at in code.find_all(".route(") {
        let open = at + ".route".len();
        let args = code.args(open);
        if args.len() != 4 || !code.slice(args[2].clone()).contains("@import") {
            continue;
        }
        let Some(m) = code
            .slice(args[0].clone())
            .trim()
            .strip_prefix('.')
            .and_then(method_of)
        else {
            continue;
        };
        let Some(lit) = code.string_at(args[1].start) else {
            continue;
        };
        if !lit.value.starts_with('/') {
            continue;
        }
        out.endpoint(common::endpoint(
            m,
            &lit.value,
            file,
            file.line_of(at),
            Vec::new(),
        ));
    }
}

impl Analyzer for Jetzig {
    fn tech(&self) -> Tech {
        zig_tech("zig_jetzig", "Jetzig", &["jetzig", "zig-jetzig"], "jetzig")
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) {
            return;
        }
        custom_routes(file, out);
        let rel = portolan_plugin_sdk::paths::below_base(&file.path).replace('\\', "/");
        let Some(i) = rel.find("src/app/views/") else {
            return;
        };
        let Some(view) = rel[i + 14..].strip_suffix(".zig") else {
            return;
        };
        let base = if view == "root" {
            String::new()
        } else {
            view.to_string()
        };
        let code = file.code(ZIG);
        for at in code.find_word("fn") {
            let before = code.text()[..at].trim_end();
            if !before.ends_with("pub") {
                continue;
            }
            let Some(name) = code.ident_at(at + 2) else {
                continue;
            };
            let (m, suffix) = match name {
                "index" => ("GET", ""),
                "get" => ("GET", "/:id"),
                "new" => ("GET", "/new"),
                "edit" => ("GET", "/:id/edit"),
                "post" => ("POST", ""),
                "put" => ("PUT", "/:id"),
                "patch" => ("PATCH", "/:id"),
                "delete" => ("DELETE", "/:id"),
                _ => continue,
            };
            let url = format!("{}{suffix}", join_url(&[&base]));
            let url = url.replacen("//", "/", 1);
            let body = c_fn_body_from(&code, at).unwrap_or(at..at);
            let mut ps = reads(&code, body.clone(), JETZIG_READS, m);
            let vars = source_vars(
                &code,
                body.clone(),
                &[
                    (".params()", ParamKind::Form),
                    (".queryParams()", ParamKind::Query),
                ],
            );
            var_reads(&code, body.clone(), &vars, m, &mut ps);
            expect_params(&code, body, m, &mut ps);
            out.endpoint(common::endpoint(m, &url, file, file.line_of(at), ps));
        }
    }
}

pub struct Tokamak;

impl Analyzer for Tokamak {
    fn tech(&self) -> Tech {
        zig_tech(
            "zig_tokamak",
            "Tokamak",
            &["tokamak", "zig-tokamak"],
            "tokamak",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("tokamak") && !file.content.contains("tk.") {
            return;
        }
        let code = file.code(ZIG);
        let text = code.text();
        let bytes = text.as_bytes();
        // Groups: (range of the group's routes, prefix).
        let mut groups: Vec<(Range<usize>, String)> = Vec::new();
        for at in code.find_all(".group(") {
            let open = at + 6;
            let Some(lit) = code.string_at(open + 1) else {
                continue;
            };
            let close = code.matching(open).unwrap_or(text.len());
            groups.push((lit.end..close, lit.value));
        }
        for verb in ["get", "post", "put", "patch", "delete", "head", "options"] {
            let needle = format!(".{verb}(");
            for at in code.find_all(&needle) {
                // A tuple element (`.get(`) or `tk.get(`, not `router.get(`.
                match code.ident_before(at) {
                    Some("tk") | Some("Route") | None => {}
                    Some(_) => continue,
                }
                if at > 0 && bytes[at - 1] == b')' {
                    continue;
                }
                let open = at + needle.len() - 1;
                let Some(lit) = code.string_at(open + 1) else {
                    continue;
                };
                if !lit.value.starts_with('/') {
                    continue;
                }
                let mut parts: Vec<&str> = groups
                    .iter()
                    .filter(|(r, _)| r.start < at && at < r.end)
                    .map(|(_, p)| p.as_str())
                    .collect();
                parts.push(&lit.value);
                let url = join_url(&parts);
                let m = method_of(verb).unwrap_or("GET");
                out.endpoint(common::endpoint(
                    m,
                    &url,
                    file,
                    file.line_of(at),
                    Vec::new(),
                ));
            }
        }
    }
}

pub struct ZigHttp;

impl Analyzer for ZigHttp {
    fn tech(&self) -> Tech {
        Tech::new("zig_http", "Zig", "std.http.Server")
            .aliases(["zig-http", "std.http"])
            .files(["*.zig"])
            .detect(Detect::files(["*.zig"]).contains(["std.http.Server", "http.Server.init("]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file)
            || !file.content.contains("http.Server") && !file.content.contains("head.target")
        {
            return;
        }
        let code = file.code(ZIG);
        for e in eql_routes(&code, file, &|_, _| Vec::new()) {
            out.endpoint(e);
        }
    }
}
