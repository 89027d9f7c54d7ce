//! Dart: Shelf (`dart_shelf`), Dart Frog (`dart_frog`), Alfred
//! (`dart_alfred`), Angel3 (`dart_angel3`), GetServer (`dart_get_server`),
//! `dart:io` HttpServer (`dart_http`) and Serverpod (`dart_serverpod`).
//!
//! - Shelf (shelf_router): `router.get('/users/<id>', handler)` (`post`,
//!   `put`, `patch`, `delete`, `head`, `options`, `all`), annotations
//!   `@Route.get('/x')` on class methods, and `router.mount('/api/',
//!   Api().router)` / `@Route.mount('/api/')` prefixing the routes of the
//!   class (or the `Router`-returning function) it names, in any file.
//!   Interpolations in their paths (`'$apiPrefix/users'`, `'${base}/x'`)
//!   take the value of a string `const`/`final` of the same file; a
//!   run-time value becomes a `{name}` placeholder segment.
//! - Alfred and Angel3: `app.get('/x', (req, res) …)`; Angel3's
//!   `app.group('/api', (router) { … })` prefixes.
//! - GetServer: `GetPage(name: '/x', page: …, method: Method.post)`.
//! - Dart Frog: files under `routes/` (`index.dart` is the directory,
//!   `[id].dart` a path parameter, `_middleware.dart` nothing); the methods
//!   are the `HttpMethod.x` cases the handler checks (GET when it checks
//!   none).
//! - dart:io: `request.uri.path == '/x'` / `case '/x':` under a `switch`
//!   on `request.uri.path`, with `request.method == 'POST'` in the same
//!   condition.
//! - Serverpod: every public method of a class extending `Endpoint` taking
//!   a `Session` is `POST /<endpoint>/<method>`, its other arguments json.
//!
//! Reads: `queryParameters['q']` query, `headers['x']`/`headers.value('x')`
//! header, `x['name']` on a variable holding a decoded body
//! (`jsonDecode(await request.readAsString())`, `await
//! context.request.json()`, `await req.bodyAsJsonMap`, `req.bodyAsMap`)
//! json, `formData.fields['x']` form.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, next_brace, reads, Fns, Kind, Read, ANY};

const SYNTAX: Syntax = common::DART;

const READS: &[Read] = &[
    ("queryParameters[", Kind::Fixed(ParamKind::Query)),
    ("queryParametersAll[", Kind::Fixed(ParamKind::Query)),
    ("headers.value(", Kind::Fixed(ParamKind::Header)),
    ("headers[", Kind::Fixed(ParamKind::Header)),
    ("fields[", Kind::Fixed(ParamKind::Form)),
    ("bodyAsMap[", Kind::Fixed(ParamKind::Json)),
    ("cookies[", Kind::Fixed(ParamKind::Cookie)),
];

const BODY_LOADERS: &[&str] = &[
    "jsonDecode(",
    "json.decode(",
    ".json()",
    "bodyAsJsonMap",
    "bodyAsMap",
    ".parseBody(",
];

fn dart_tech(id: &str, name: &str, aliases: &[&str], package: &str) -> Tech {
    Tech::new(id, "Dart", name)
        .aliases(aliases.iter().copied())
        .files(["*.dart"])
        .detect(Detect::files(["pubspec.yaml"]).regex([format!(r"(?m)^\s+{package}:")]))
        .supports(Supports::HTTP)
}

fn skip(file: &SourceFile) -> bool {
    is_test_path(&file.path)
        || file.path.ends_with(".g.dart")
        || file.path.ends_with(".freezed.dart")
}

/// Parameters read in `body`: the table, and subscripts of variables
/// holding a decoded body.
fn handler_params(code: &Code, body: Range<usize>, method: &str) -> Vec<Param> {
    let mut out = reads(code, body.clone(), READS, method);
    let text = code.text();
    let mut vars = Vec::new();
    for l in BODY_LOADERS {
        for at in code.find_all_in(l, body.clone()) {
            let line_start = text[..at].rfind([';', '{', '\n']).map_or(0, |i| i + 1);
            let stmt = &text[line_start..at];
            if let Some(eq) = stmt.find('=') {
                let var: String = stmt[..eq]
                    .trim_end()
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                if !var.is_empty() && !vars.contains(&var) {
                    vars.push(var);
                }
            }
        }
    }
    let bytes = text.as_bytes();
    for v in &vars {
        let needle = format!("{v}[");
        for at in code.find_all_in(&needle, body.clone()) {
            if at > 0 && portolan_plugin_sdk::lex::is_ident_byte(bytes[at - 1]) {
                continue;
            }
            if let Some(lit) = code.string_at(at + needle.len()) {
                let p = Param::json(lit.value);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The handler of a route whose arguments are `args`: an inline closure
/// (the argument range), or a function/method named by the argument.
fn handler_body(code: &Code, fns: &Fns, arg: Range<usize>) -> Range<usize> {
    let text = code.slice(arg.clone()).trim();
    if text.contains('{') || text.contains("=>") {
        return arg;
    }
    let name = text.rsplit(['.', ' ']).next().unwrap_or(text);
    fns.get(name).unwrap_or(arg)
}

/// Named ranges: classes and functions returning a router.
fn owners(code: &Code) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    for at in code.find_word("class") {
        let Some(name) = code.ident_at(at + 5) else {
            continue;
        };
        if let Some(open) = next_brace(code, at, b";") {
            out.push((common::block(code, open), name.to_string()));
        }
    }
    for ty in ["Router", "Handler", "Angel"] {
        for at in code.find_word(ty) {
            let p = code.skip_ws(at + ty.len());
            let Some(name) = code.ident_at(p) else {
                continue;
            };
            if name == "get" {
                continue;
            }
            if let Some(body) = c_fn_body_at(code, p + name.len()) {
                out.push((body, name.to_string()));
            }
        }
    }
    out
}

fn c_fn_body_at(code: &Code, p: usize) -> Option<Range<usize>> {
    let p = code.skip_ws(p);
    if code.text().as_bytes().get(p) != Some(&b'(') {
        return None;
    }
    let close = code.matching(p)?;
    let open = next_brace(code, close + 1, b";,)=(")?;
    Some(common::block(code, open))
}

fn owner_at(owners: &[(Range<usize>, String)], at: usize) -> Option<&str> {
    owners
        .iter()
        .filter(|(r, _)| r.start < at && at < r.end)
        .min_by_key(|(r, _)| r.end - r.start)
        .map(|(_, n)| n.as_str())
}

/// A route or a mount, with the name of what owns it.
#[derive(Serialize, Deserialize, Default)]
struct DartFile {
    routes: Vec<(String, Endpoint)>,
    /// (owner, prefix, target)
    mounts: Vec<(String, String, String)>,
}

const VERBS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "all",
];

pub struct Shelf;

impl Analyzer for Shelf {
    fn tech(&self) -> Tech {
        dart_tech(
            "dart_shelf",
            "Shelf",
            &["shelf", "dart-shelf"],
            "shelf(_router)?",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("shelf") && !file.content.contains("Router") {
            return;
        }
        let code = file.code(SYNTAX);
        let owners = owners(&code);
        let consts = string_consts(&code);
        let mut fact = DartFile::default();
        router_calls(&code, file, &owners, &consts, &mut fact);
        // @Route.get('/x') annotations.
        let text = code.text();
        for at in code.find_all("@Route.") {
            let p = at + 7;
            let Some(verb) = code.ident_at(p) else {
                continue;
            };
            let open = code.skip_ws(p + verb.len());
            let Some(mut lit) = code.string_at(open + 1) else {
                continue;
            };
            lit.value = interpolate(&lit.value, &consts);
            let owner = owner_at(&owners, at).unwrap_or("").to_string();
            if verb == "mount" {
                // @Route.mount('/api/') Router get _api => Api().router;
                let end = text[lit.end..]
                    .find(';')
                    .map_or(text.len(), |i| lit.end + i);
                let target = target_name(text[lit.end..end].rsplit("=>").next().unwrap_or(""));
                fact.mounts.push((owner, lit.value, target));
                continue;
            }
            let methods: Vec<&str> = match verb {
                "all" => ANY.to_vec(),
                v => vec![method_of(v).unwrap_or("GET")],
            };
            let close = code.matching(open).unwrap_or(lit.end);
            let body = next_brace(&code, close, b";")
                .map(|o| common::block(&code, o))
                .unwrap_or(close..close);
            for m in methods {
                let e = common::endpoint(
                    m,
                    &lit.value,
                    file,
                    file.line_of(at),
                    handler_params(&code, body.clone(), m),
                );
                fact.routes.push((owner.clone(), e));
            }
        }
        if !fact.routes.is_empty() || !fact.mounts.is_empty() {
            out.fact(&fact);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_mounts(facts.all()))
    }
}

/// `Api().router` → `Api`, `apiRouter()` → `apiRouter`, `_api.handler` → `_api`.
fn target_name(expr: &str) -> String {
    let expr = expr.trim().trim_end_matches(';').trim();
    expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|s| !s.is_empty() && s != &"new" && s != &"const")
        .unwrap_or("")
        .to_string()
}

/// File-level string constants (`const apiPrefix = '/api/v1';`, `static
/// const String base = '/x';`, `final root = '/r';`), for `$apiPrefix` and
/// `${apiPrefix}` in route strings. Constants of other files are not
/// followed.
fn string_consts(code: &Code) -> HashMap<String, String> {
    let text = code.text();
    let mut out = HashMap::new();
    for kw in ["const", "final"] {
        for at in code.find_word(kw) {
            let mut p = code.skip_ws(at + kw.len());
            let Some(mut name) = code.ident_at(p) else {
                continue;
            };
            // An optional type: `const String base = …`.
            let q = code.skip_ws(p + name.len());
            if let Some(next) = code.ident_at(q) {
                p = q;
                name = next;
            }
            let eq = code.skip_ws(p + name.len());
            if text.as_bytes().get(eq) != Some(&b'=') || text.as_bytes().get(eq + 1) == Some(&b'=')
            {
                continue;
            }
            if let Some(lit) = code.string_at(eq + 1) {
                out.entry(name.to_string()).or_insert(lit.value);
            }
        }
    }
    out
}

/// Dart string interpolation in a route: `$name`/`${name}` of a known
/// constant is replaced by its value (one level of constants inside
/// constants); an unknown one (a run-time value) becomes the placeholder
/// `{name}` (the last identifier of a `${…}` expression).
fn interpolate(s: &str, consts: &HashMap<String, String>) -> String {
    interpolate_depth(s, consts, 2)
}

fn interpolate_depth(s: &str, consts: &HashMap<String, String>, depth: usize) -> String {
    if !s.contains('$') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (expr, used) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(c) => (&inner[..c], c + 2),
                None => {
                    out.push_str(&rest[i..]);
                    return out;
                }
            }
        } else {
            let n = after
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            (&after[..n], n)
        };
        let name = expr
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .rfind(|w| !w.is_empty())
            .unwrap_or("");
        if name.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        match consts.get(expr.trim()) {
            Some(v) if depth > 0 => out.push_str(&interpolate_depth(v, consts, depth - 1)),
            _ => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

/// `recv.verb('/x', handler)` and `recv.mount('/p', target)`.
fn router_calls(
    code: &Code,
    file: &SourceFile,
    owners: &[(Range<usize>, String)],
    consts: &HashMap<String, String>,
    fact: &mut DartFile,
) {
    let fns = Fns::new(code);
    let mut verbs = VERBS.to_vec();
    verbs.push("mount");
    for mut c in common::verb_calls(code, &verbs, &["."], false) {
        c.path = interpolate(&c.path, consts);
        if c.path.starts_with('{') {
            // `'$basePath/x'` with a run-time `basePath`: `/{basePath}/x`.
            c.path.insert(0, '/');
        }
        let Some(open) = c.paren else { continue };
        let args = code.args(open);
        if args.len() < 2 || code.keyword_arg(args[1].clone()).is_some() {
            continue;
        }
        if !c.path.starts_with('/') && !c.path.is_empty() {
            continue;
        }
        let owner = owner_at(owners, c.at)
            .map(str::to_string)
            .unwrap_or_else(|| c.recv.clone());
        match c.verb.as_str() {
            "mount" => {
                let target = target_name(code.slice(args[1].clone()));
                fact.mounts.push((owner, c.path, target));
            }
            v => {
                let methods: Vec<&str> = if v == "all" {
                    ANY.to_vec()
                } else {
                    vec![method_of(v).unwrap_or("GET")]
                };
                let body = handler_body(code, &fns, args[args.len() - 1].clone());
                for m in methods {
                    let e = common::endpoint(
                        m,
                        &c.path,
                        file,
                        file.line_of(c.at),
                        handler_params(code, body.clone(), m),
                    );
                    fact.routes.push((owner.clone(), e));
                }
            }
        }
    }
}

fn link_mounts(files: Vec<DartFile>) -> Vec<Endpoint> {
    let mut mounts: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for f in &files {
        for (owner, prefix, target) in &f.mounts {
            mounts
                .entry(
                    target
                        .to_ascii_lowercase()
                        .trim_start_matches('_')
                        .to_string(),
                )
                .or_default()
                .push((owner.clone(), prefix.clone()));
        }
    }
    let mut out = Vec::new();
    for f in &files {
        for (owner, e) in &f.routes {
            let mut prefixes = Vec::new();
            prefixes_of(&mounts, owner, "", &mut prefixes, &mut HashSet::new());
            for p in prefixes {
                let mut e = e.clone();
                if !p.is_empty() {
                    e.url = join_url(&[&p, &e.url]);
                }
                out.push(e);
            }
        }
    }
    out
}

fn prefixes_of(
    mounts: &HashMap<String, Vec<(String, String)>>,
    owner: &str,
    suffix: &str,
    out: &mut Vec<String>,
    seen: &mut HashSet<String>,
) {
    let key = owner
        .to_ascii_lowercase()
        .trim_start_matches('_')
        .to_string();
    match mounts.get(&key) {
        Some(ms) if seen.insert(key.clone()) => {
            for (parent, prefix) in ms {
                let joined = if suffix.is_empty() {
                    prefix.clone()
                } else {
                    join_url(&[prefix, suffix])
                };
                prefixes_of(mounts, parent, &joined, out, seen);
            }
            seen.remove(&key);
        }
        _ => out.push(suffix.to_string()),
    }
}

/// Alfred and Angel3: `app.get('/x', (req, res) …)`.
fn simple(file: &SourceFile, out: &mut Output) {
    let code = file.code(SYNTAX);
    let fns = Fns::new(&code);
    let text = code.text();
    // Angel3 groups: (range of the closure, prefix).
    let mut groups: Vec<(Range<usize>, String)> = Vec::new();
    for c in common::verb_calls(&code, &["group"], &["."], false) {
        if let Some(open) = c.paren {
            let end = code.matching(open).unwrap_or(text.len());
            groups.push((c.after..end, c.path));
        }
    }
    for c in common::verb_calls(&code, VERBS, &["."], false) {
        let Some(open) = c.paren else { continue };
        let args = code.args(open);
        if args.len() < 2 || code.keyword_arg(args[1].clone()).is_some() || !c.path.starts_with('/')
        {
            continue;
        }
        let prefix: Vec<&str> = groups
            .iter()
            .filter(|(r, _)| r.start < c.at && c.at < r.end)
            .map(|(_, p)| p.as_str())
            .collect();
        let mut parts = prefix.clone();
        parts.push(&c.path);
        let url = join_url(&parts);
        let methods: Vec<&str> = if c.verb == "all" {
            ANY.to_vec()
        } else {
            vec![method_of(&c.verb).unwrap_or("GET")]
        };
        let body = handler_body(&code, &fns, args[args.len() - 1].clone());
        for m in methods {
            out.endpoint(common::endpoint(
                m,
                &url,
                file,
                file.line_of(c.at),
                handler_params(&code, body.clone(), m),
            ));
        }
    }
}

pub struct Alfred;

impl Analyzer for Alfred {
    fn tech(&self) -> Tech {
        dart_tech(
            "dart_alfred",
            "Alfred",
            &["alfred", "dart-alfred"],
            "alfred",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !skip(file) && file.content.contains("alfred") {
            simple(file, out);
        }
    }
}

pub struct Angel3;

impl Analyzer for Angel3 {
    fn tech(&self) -> Tech {
        dart_tech(
            "dart_angel3",
            "Angel3",
            &["angel3", "angel", "dart-angel3"],
            "angel3_framework",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !skip(file) && file.content.contains("angel3") {
            simple(file, out);
        }
    }
}

pub struct GetServer;

impl Analyzer for GetServer {
    fn tech(&self) -> Tech {
        dart_tech(
            "dart_get_server",
            "GetServer",
            &["get_server", "getserver", "dart-get-server"],
            "get_server",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("GetPage") {
            return;
        }
        let code = file.code(SYNTAX);
        let bytes = code.text().as_bytes();
        for at in code.find_word("GetPage") {
            let open = code.skip_ws(at + 7);
            if bytes.get(open) != Some(&b'(') {
                continue;
            }
            let mut name = None;
            let mut method = "GET";
            let mut ws = false;
            for a in code.args(open) {
                let Some((k, v)) = code.keyword_arg(a) else {
                    continue;
                };
                match k {
                    "name" => name = code.string_at(v.start).map(|s| s.value),
                    "method" => {
                        let t = code.slice(v);
                        method = method_of(t.rsplit('.').next().unwrap_or("")).unwrap_or(
                            if t.ends_with("ws") {
                                ws = true;
                                "GET"
                            } else {
                                "GET"
                            },
                        );
                    }
                    _ => {}
                }
            }
            if let Some(n) = name.filter(|n| n.starts_with('/')) {
                let mut e = Endpoint::new(method, n).at(file, file.line_of(at));
                if ws {
                    e.protocol = "ws".into();
                }
                out.endpoint(e);
            }
        }
    }
}

pub struct DartFrog;

impl Analyzer for DartFrog {
    fn tech(&self) -> Tech {
        Tech::new("dart_frog", "Dart", "Dart Frog")
            .aliases(["dart-frog", "dartfrog"])
            .files(["*.dart"])
            .detect(Detect::files(["pubspec.yaml"]).regex([r"(?m)^\s+dart_frog:"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) {
            return;
        }
        let rel = portolan_plugin_sdk::paths::below_base(&file.path).replace('\\', "/");
        let Some(i) = rel
            .find("routes/")
            .filter(|&i| i == 0 || rel[..i].ends_with('/'))
        else {
            return;
        };
        let route = &rel[i + 7..];
        let Some(route) = route.strip_suffix(".dart") else {
            return;
        };
        if route.split('/').any(|s| s.starts_with('_')) {
            return;
        }
        let code = file.code(SYNTAX);
        let fns = Fns::new(&code);
        let Some(handler) = code.find_word("onRequest").next() else {
            return;
        };
        let mut segs: Vec<String> = route
            .split('/')
            .map(
                |s| match s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                    Some(p) => format!("{{{}}}", p.trim_start_matches("...")),
                    None => s.to_string(),
                },
            )
            .collect();
        if segs.last().is_some_and(|s| s == "index") {
            segs.pop();
        }
        let url = join_url(&segs.iter().map(String::as_str).collect::<Vec<_>>());
        let text = code.text();
        let mut methods: Vec<(&str, Range<usize>)> = Vec::new();
        for at in code.find_all("HttpMethod.") {
            let Some(v) = code.ident_at(at + 11) else {
                continue;
            };
            let Some(m) = method_of(v) else { continue };
            if methods.iter().any(|(x, _)| *x == m) {
                continue;
            }
            // The handler called in this case: `=> _get(context)` / `return _get(context);`
            let end = text[at..].find(';').map_or(text.len(), |i| at + i);
            let stmt = &text[at..end];
            let body = stmt
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| w.starts_with('_') && w.len() > 1)
                .find_map(|w| fns.get(w))
                .unwrap_or(0..text.len());
            methods.push((m, body));
        }
        if methods.is_empty() {
            methods.push(("GET", 0..text.len()));
        }
        for (m, body) in methods {
            out.endpoint(common::endpoint(
                m,
                &url,
                file,
                file.line_of(handler),
                handler_params(&code, body, m),
            ));
        }
    }
}

pub struct DartHttp;

impl Analyzer for DartHttp {
    fn tech(&self) -> Tech {
        Tech::new("dart_http", "Dart", "dart:io HttpServer")
            .aliases(["dart-http", "dart-io"])
            .files(["*.dart"])
            .detect(Detect::files(["*.dart"]).contains(["HttpServer.bind("]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("HttpServer") {
            return;
        }
        let code = file.code(SYNTAX);
        let text = code.text();
        let strings = code.strings();
        // if (request.uri.path == '/x' && request.method == 'POST')
        for at in code.find_all("uri.path") {
            let p = code.skip_ws(at + 8);
            if text[p..].starts_with("==") {
                let Some(lit) = code.string_at(p + 2) else {
                    continue;
                };
                let cond_end = text[lit.end..]
                    .find([')', '{', '\n'])
                    .map_or(text.len(), |i| lit.end + i);
                let cond_start = text[..at].rfind(['(', '\n']).unwrap_or(0);
                let cond = &text[cond_start..cond_end];
                let mut m = "GET";
                for s in common::strings_in(&strings, cond_start..cond_end) {
                    if let Some(x) = method_of(&s.value) {
                        if cond.contains("method") {
                            m = x;
                        }
                    }
                }
                let body = next_brace(&code, lit.end, b";")
                    .map(|o| common::block(&code, o))
                    .unwrap_or(lit.end..lit.end);
                out.endpoint(common::endpoint(
                    m,
                    &lit.value,
                    file,
                    file.line_of(at),
                    handler_params(&code, body, m),
                ));
            } else if switch_on(text, at) {
                let Some(open) = text[at..].find('{').map(|i| at + i) else {
                    continue;
                };
                let Some(close) = code.matching(open) else {
                    continue;
                };
                for c in code.find_word_in("case", open..close) {
                    let Some(lit) = code.string_at(c + 4) else {
                        continue;
                    };
                    if !lit.value.starts_with('/') {
                        continue;
                    }
                    let next = code
                        .find_word_in("case", lit.end..close)
                        .next()
                        .unwrap_or(close);
                    let body = lit.end..next;
                    let body_text = &text[body.clone()];
                    let mut methods: Vec<&str> = Vec::new();
                    for s in common::strings_in(&strings, lit.end..next) {
                        if let Some(m) = method_of(&s.value) {
                            if body_text.contains("method")
                                && s.value.chars().all(|c| c.is_ascii_uppercase())
                                && !methods.contains(&m)
                            {
                                methods.push(m);
                            }
                        }
                    }
                    if methods.is_empty() {
                        methods.push("GET");
                    }
                    for m in methods {
                        out.endpoint(common::endpoint(
                            m,
                            &lit.value,
                            file,
                            file.line_of(c),
                            handler_params(&code, body.clone(), m),
                        ));
                    }
                }
            }
        }
    }
}

/// Is `at` the subject of a `switch (request.uri.path)`?
fn switch_on(text: &str, at: usize) -> bool {
    let before = text[..at]
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        .trim_end();
    before.ends_with('(') && before.trim_end_matches('(').trim_end().ends_with("switch")
}

pub struct Serverpod;

impl Analyzer for Serverpod {
    fn tech(&self) -> Tech {
        dart_tech(
            "dart_serverpod",
            "Serverpod",
            &["serverpod", "dart-serverpod"],
            "serverpod",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip(file) || !file.content.contains("Endpoint") {
            return;
        }
        let code = file.code(SYNTAX);
        let text = code.text();
        for at in code.find_word("class") {
            let Some(name) = code.ident_at(at + 5) else {
                continue;
            };
            let Some(open) = next_brace(&code, at, b";") else {
                continue;
            };
            let head = &text[at..open];
            if !head.contains("extends Endpoint") {
                continue;
            }
            let close = code.matching(open).unwrap_or(text.len());
            let base = name.strip_suffix("Endpoint").unwrap_or(name);
            let mut ep = base.to_string();
            if let Some(f) = ep.get(..1) {
                ep = f.to_ascii_lowercase() + &ep[1..];
            }
            // Methods: `Future<T> name(Session session, …) async {`
            for s in code.find_word_in("Session", open..close) {
                let before = text[..s].trim_end();
                if !before.ends_with('(') {
                    continue;
                }
                let paren = before.len() - 1;
                let Some(mname) = code.ident_before(paren) else {
                    continue;
                };
                if mname.starts_with('_') {
                    continue;
                }
                let mut e =
                    Endpoint::new("POST", format!("/{ep}/{mname}")).at(file, file.line_of(s));
                for (i, a) in code.args(paren).into_iter().enumerate() {
                    if i == 0 {
                        continue;
                    }
                    let a = code.slice(a);
                    let a = a.trim_matches(['{', '}', '[', ']', ' ']);
                    let a = a.split('=').next().unwrap_or(a).trim();
                    if let Some(n) = a.rsplit([' ', '?']).next().filter(|n| !n.is_empty()) {
                        e.push_param(Param::json(n));
                    }
                }
                out.endpoint(e);
            }
        }
    }
}
