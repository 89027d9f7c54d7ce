//! Next.js (`js_nextjs`): file-system API routes.
//!
//! Pages router: `pages/api/**` (also under `src/`), `index` dropped; the
//! default-exported handler's methods come from `req.method` comparisons
//! (`=== 'POST'`, `case 'PUT':`), else GET and POST. Its parameters are
//! what it reads from `req` (see [`crate::js::request`]); `req.query.x`
//! naming a dynamic segment is the path parameter, not a query.
//!
//! App router: `app/**/route.{js,ts}` (also under `src/`) exporting
//! `GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS` functions (declarations,
//! `export const GET = …`, `export { handler as GET }`), one endpoint per
//! export at its line. Parameters of each function: `searchParams.get('q')`
//! (query), `await request.json()` destructured or read as `body.x`
//! (JSON), `await request.formData()` read with `.get('f')` (form),
//! `request.headers.get('x')` / `headers().get('x')` (header),
//! `request.cookies.get('c')` / `cookies().get('c')` (cookie).
//!
//! Segments: `[id]` → `{id}`, `[...slug]` and `[[...slug]]` → `{slug}`;
//! route groups `(group)` and parallel slots `@slot` are dropped; private
//! folders `_x` are not routable. Test files are skipped.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param, ParamKind};
use regex::Regex;
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::is_generated;
use crate::js::module::{self, ModuleInfo};
use crate::js::outline::{Outline, ScopeKind};
use crate::js::project::Project;
use crate::js::request::request_params;
use crate::js::schema::{self, Resolver, Schema};
use serde::{Deserialize, Serialize};

pub struct NextJs;

const FILES: [&str; 4] = ["*.js", "*.jsx", "*.ts", "*.tsx"];
const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

use crate::js::pattern::re;

/// Where a file routes: the pages API or an app-router route handler, with
/// the URL and the names of its dynamic segments.
#[derive(Debug, PartialEq, Eq)]
pub enum Kind {
    Pages,
    App,
}

pub fn route_of(path: &str) -> Option<(Kind, String, Vec<String>)> {
    let path = path.replace('\\', "/");
    let segs: Vec<&str> = path.split('/').collect();
    let file = *segs.last()?;
    let (stem, ext) = file.rsplit_once('.')?;
    if !matches!(ext, "js" | "jsx" | "ts" | "tsx" | "mjs") {
        return None;
    }
    let dirs = &segs[..segs.len() - 1];
    let (kind, rest): (Kind, Vec<&str>) = if stem == "route" && matches!(ext, "js" | "ts" | "mjs") {
        let i = dirs.iter().rposition(|s| *s == "app")?;
        (Kind::App, dirs[i + 1..].to_vec())
    } else {
        let i = (0..dirs.len().saturating_sub(1))
            .rev()
            .find(|&i| dirs[i] == "pages" && dirs[i + 1] == "api")?;
        let mut rest = dirs[i + 1..].to_vec();
        if stem != "index" {
            rest.push(stem);
        }
        (Kind::Pages, rest)
    };
    let mut url = String::new();
    let mut dynamic = Vec::new();
    for s in rest {
        if (s.starts_with('(') && s.ends_with(')')) || s.starts_with('@') {
            continue;
        }
        if s.starts_with('_') {
            return None;
        }
        url.push('/');
        if let Some(inner) = s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            let name = inner
                .trim_start_matches('[')
                .trim_end_matches(']')
                .trim_start_matches("...");
            url.push('{');
            url.push_str(name);
            url.push('}');
            dynamic.push(name.to_string());
        } else {
            url.push_str(s);
        }
    }
    if url.is_empty() {
        url.push('/');
    }
    Some((kind, url, dynamic))
}

impl Analyzer for NextJs {
    fn tech(&self) -> Tech {
        Tech::new("js_nextjs", "JavaScript", "Next.js")
            .aliases(["nextjs", "next", "js-nextjs", "next.js"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([
                r#"\bfrom\s+['"]next(?:/[\w/-]+)?['"]"#,
                r#"require\(\s*['"]next(?:/[\w/-]+)?['"]\s*\)"#,
            ]))
            .detect(Detect::files(["package.json"]).regex([r#""next"\s*:"#]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let route = route_of(&file.path);
        let declares = schema::may_declare(&file.content);
        // A module of request helpers the pages handlers call with `req`.
        let helpers = file.content.contains("NextApiRequest");
        if route.is_none() && !declares && !helpers && !reexports(&file.content) {
            return;
        }
        let code = file.code(Syntax::JAVASCRIPT);
        let outline = module::outline(file, &code);
        let mut fact = NextModule {
            schemas: if declares {
                schema::declarations(&code, &outline)
            } else {
                Vec::new()
            },
            ..NextModule::default()
        };
        match route {
            Some((Kind::Pages, url, dynamic)) => {
                pages(file, &code, &outline, &url, &dynamic, &mut fact, out)
            }
            Some((Kind::App, url, _)) => app(file, &code, &outline, &url, out),
            None => {}
        }
        if helpers {
            fact.readers = readers(&code, &outline);
        }
        // Schemas and re-exports other modules' validators may name.
        let mut info = (*module::scanned(file, &code, &outline)).clone();
        info.consts.clear();
        // Only the functions reading a request are callees `link` looks up.
        info.functions
            .retain(|f| fact.readers.iter().any(|r| r.name == f.name));
        info.classes.clear();
        info.calls.clear();
        fact.info = info;
        if !fact.routes.is_empty()
            || !fact.schemas.is_empty()
            || !fact.readers.is_empty()
            || !fact.info.exports.is_empty()
        {
            out.fact(&fact);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<NextModule> = facts.all();
        let project = Project::new(modules.iter().map(|m| &m.info).collect());
        let resolver = Resolver::new(
            &project,
            modules.iter().map(|m| m.schemas.as_slice()).collect(),
        );
        let mut out = Vec::new();
        for (mi, m) in modules.iter().enumerate() {
            for r in &m.routes {
                let mut params = r.params.clone();
                // Functions of other modules handed the request.
                let mut schemas: Vec<(usize, &(ParamKind, Schema))> =
                    r.schemas.iter().map(|s| (mi, s)).collect();
                for (callee, index) in &r.calls {
                    let Some((fm, func)) = project.function_of(mi, callee) else {
                        continue;
                    };
                    let Some(reader) = modules.get(fm).and_then(|x| {
                        x.readers
                            .iter()
                            .find(|h| h.name == func.name && h.index == *index)
                    }) else {
                        continue;
                    };
                    for p in &reader.params {
                        let mut p = p.clone();
                        if p.kind == ParamKind::Query && r.dynamic.contains(&p.name) {
                            p.kind = ParamKind::Path;
                        }
                        if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                            params.push(p);
                        }
                    }
                    schemas.extend(reader.schemas.iter().map(|s| (fm, s)));
                }
                for (sm, (kind, s)) in schemas {
                    for k in resolver.keys(sm, s) {
                        let kind = if *kind == ParamKind::Query && r.dynamic.contains(&k) {
                            ParamKind::Path
                        } else {
                            *kind
                        };
                        if !params.iter().any(|p| p.name == k && p.kind == kind) {
                            params.push(Param::new(kind, k));
                        }
                    }
                }
                out.push(
                    Endpoint::new(&r.method, r.url.clone())
                        .params(params)
                        .at_path(m.info.path.clone(), r.line),
                );
            }
        }
        Ok(out)
    }
}

/// What one module records for `link`: its imports and exports, the
/// schemas it declares, and routes whose validators name schemas.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct NextModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<(String, Schema)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Pending>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readers: Vec<Reader>,
}

/// A function of a module reading the request handed to it as parameter
/// `index` (`export async function create(req: NextApiRequest, res)`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reader {
    pub name: String,
    pub index: usize,
    pub params: Vec<Param>,
    pub schemas: Vec<(ParamKind, Schema)>,
}

/// The functions of a module reading a parameter named `req`/`request`.
fn readers(code: &Code<'_>, outline: &Outline) -> Vec<Reader> {
    let mut out = Vec::new();
    for s in &outline.scopes {
        if s.kind != ScopeKind::Function || s.name.is_empty() || !outline.is_top(s.start) {
            continue;
        }
        for (index, p) in s.params.iter().enumerate() {
            if !matches!(p.as_str(), "req" | "request") {
                continue;
            }
            let params = request_params(code, s.body.clone(), p);
            let schemas = parsed_reads(code, outline, s.body.clone(), p);
            if !params.is_empty() || !schemas.is_empty() {
                out.push(Reader {
                    name: s.name.clone(),
                    index,
                    params,
                    schemas,
                });
            }
        }
    }
    out
}

/// Calls in `body` handing `req` to a named function: the callee, the
/// argument's index and the call's offset (`return handleCreate(req, res)`).
fn request_calls(
    code: &Code<'_>,
    outline: &Outline,
    body: Range<usize>,
    req: &str,
) -> Vec<(module::Value, usize, usize)> {
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(&CALL, r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(");
    let text = code.slice(body.clone());
    let mut out: Vec<(module::Value, usize, usize)> = Vec::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let at = body.start + all.start();
        if !code.is_code(at) || name.as_str().starts_with(req) || text[..all.start()].ends_with('.')
        {
            continue;
        }
        let open = body.start + all.end() - 1;
        let Some(index) = code
            .args(open)
            .iter()
            .position(|a| code.slice(a.clone()).trim() == req)
        else {
            continue;
        };
        let v = module::Value::Name(outline.scoped(name.as_str(), at));
        out.push((v, index, at));
    }
    out
}

/// A route whose parameters need schemas of other modules.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pending {
    pub method: String,
    pub url: String,
    pub line: u32,
    pub params: Vec<Param>,
    pub schemas: Vec<(ParamKind, Schema)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dynamic: Vec<String>,
    /// Functions handed the request: callee and argument index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<(module::Value, usize)>,
}

/// `export * from`, `export { a } from`: a barrel other modules import through.
fn reexports(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r#"\bexport\s*(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s*)?from\s*['"]"#,
    )
    .is_match(text)
}

/// Where a wrapper option's schema goes by its key: `querySchema`,
/// `bodySchema`, `query`, `body`, `headers`, `params`, `json`, `form`.
fn kind_of_key(key: &str) -> Option<ParamKind> {
    let k = key.to_ascii_lowercase();
    let k = ["schema", "validator", "validation", "dto"]
        .iter()
        .find_map(|s| k.strip_suffix(s))
        .unwrap_or(&k);
    Some(match k {
        "query" | "searchparams" | "querystring" => ParamKind::Query,
        "body" | "json" | "payload" | "requestbody" => ParamKind::Json,
        "headers" | "header" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "form" | "formdata" => ParamKind::Form,
        _ => return None,
    })
}

/// Schemas given to a wrapper call at `r` by option key
/// (`createRoute({ querySchema: Q, bodySchema: B, fn })`), also one
/// wrapper deep (`withAuth(createRoute({…}))`).
fn wrapper_schemas(
    code: &Code<'_>,
    outline: &Outline,
    r: Range<usize>,
    depth: usize,
) -> Vec<(ParamKind, Schema)> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    let s = code.skip_ws(r.start);
    let Some((_, nr)) = crate::js::syntax::dotted_at(code, s) else {
        return out;
    };
    let p = code.skip_ws(nr.end);
    if p >= r.end || bytes.get(p) != Some(&b'(') {
        return out;
    }
    for a in code.args(p) {
        let b = code.skip_ws(a.start);
        if bytes.get(b) == Some(&b'{') {
            for e in crate::js::outline::object_entries(code, b) {
                if e.function.is_some() {
                    continue;
                }
                let Some(kind) = kind_of_key(&e.key) else {
                    continue;
                };
                if let Some(sc) = schema::parse(code, outline, e.value.clone()) {
                    out.push((kind, sc));
                }
            }
        } else if depth < 2 {
            out.extend(wrapper_schemas(code, outline, a, depth + 1));
        }
    }
    out
}

/// `Schema.parse(req.body)` (also `safeParse`, `parseAsync`, yup's
/// `validate`/`validateSync`/`cast`, Joi's `validateAsync`) in `body`.
fn parsed_reads(
    code: &Code<'_>,
    outline: &Outline,
    body: Range<usize>,
    req: &str,
) -> Vec<(ParamKind, Schema)> {
    static PARSE: OnceLock<Regex> = OnceLock::new();
    let parse = re(
        &PARSE,
        r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\.\s*(?:parse|safeParse|parseAsync|safeParseAsync|validate|validateSync|validateAsync|cast)\(\s*(?:await\s+)?([A-Za-z_$][\w$]*)\.(body|query|headers|cookies)\b",
    );
    let text = code.slice(body.clone());
    let mut out = Vec::new();
    for c in parse.captures_iter(text) {
        let (Some(all), Some(name), Some(obj), Some(what)) =
            (c.get(0), c.get(1), c.get(2), c.get(3))
        else {
            continue;
        };
        if obj.as_str() != req || !code.is_code(body.start + all.start()) {
            continue;
        }
        let kind = match what.as_str() {
            "body" => ParamKind::Json,
            "query" => ParamKind::Query,
            "headers" => ParamKind::Header,
            _ => ParamKind::Cookie,
        };
        let n = body.start + name.start();
        let name = name
            .as_str()
            .strip_suffix(".shape")
            .unwrap_or(name.as_str());
        out.push((kind, Schema::Ref(outline.scoped(name, n))));
    }
    out
}

fn pages(
    file: &SourceFile,
    code: &Code<'_>,
    outline: &Outline,
    url: &str,
    dynamic: &[String],
    fact: &mut NextModule,
    out: &mut Output,
) {
    // An endpoint: reported now when its schemas are all declared here,
    // else recorded for `link`.
    let mut emit = |m: &str,
                    line: u32,
                    mut params: Vec<Param>,
                    schemas: Vec<(ParamKind, Schema)>,
                    calls: Vec<(module::Value, usize)>| {
        let mut pending = Vec::new();
        for (kind, sc) in schemas {
            let sc = schema::inline(sc, &fact.schemas, 0);
            if sc.is_local() {
                for k in schema::local_keys(&sc) {
                    let kind = if kind == ParamKind::Query && dynamic.contains(&k) {
                        ParamKind::Path
                    } else {
                        kind
                    };
                    if !params.iter().any(|p| p.name == k && p.kind == kind) {
                        params.push(Param::new(kind, k));
                    }
                }
            } else {
                pending.push((kind, sc));
            }
        }
        if pending.is_empty() && calls.is_empty() {
            out.endpoint(Endpoint::new(m, url).params(params).at(file, line));
        } else {
            fact.routes.push(Pending {
                method: m.to_string(),
                url: url.to_string(),
                line,
                params,
                schemas: pending,
                dynamic: dynamic.to_vec(),
                calls,
            });
        }
    };
    let text = code.text();
    // The handler: the default export.
    static DEF: OnceLock<Regex> = OnceLock::new();
    let def = re(
        &DEF,
        r"(?m)\bexport\s+default\s+(?:([A-Za-z_$][\w$]*)\s*(?:;|$)|)",
    );
    let Some(c) = def
        .captures_iter(text)
        .find(|c| c.get(0).is_some_and(|m| code.is_code(m.start())))
    else {
        return;
    };
    let Some(at) = c.get(0).map(|m| m.start()) else {
        return;
    };
    let named = c.get(1).map(|m| m.as_str().to_string());
    let scope = outline.scopes.iter().find(|s| {
        s.kind == ScopeKind::Function
            && match &named {
                Some(n) => &s.name == n,
                None => s.start <= at && at < s.body.end,
            }
    });
    let (line, req, body, whole) = match scope {
        Some(s) => (
            file.line_of(s.start),
            s.params.first().cloned().unwrap_or_else(|| "req".into()),
            0..text.len(),
            s.body.clone(),
        ),
        None => (
            file.line_of(at),
            "req".to_string(),
            0..text.len(),
            0..text.len(),
        ),
    };
    let params: Vec<Param> = request_params(code, body.clone(), &req)
        .into_iter()
        .filter(|p| !(p.kind == ParamKind::Query && dynamic.contains(&p.name)))
        .collect();
    // A handler map by method: `export default withMiddlewares({ GET: …,
    // POST: … })` (also through `const handler = wrap({…})`).
    let map = handler_map(code, at + "export".len(), named.as_deref());
    if !map.is_empty() {
        for (m, k, value) in map {
            // The entry's own handler: an inline function or a named one.
            let own = match value.function {
                Some((ps, b)) => Some((crate::js::outline::param_names(code, ps), b)),
                None => {
                    let name = code.slice(value.value.clone()).trim();
                    outline
                        .scopes
                        .iter()
                        .find(|s| s.kind == ScopeKind::Function && s.name == name)
                        .map(|s| (s.params.clone(), s.body.clone()))
                }
            };
            let mut schemas = wrapper_schemas(code, outline, value.value.clone(), 0);
            let mut calls = Vec::new();
            let ps: Vec<Param> = match own {
                Some((names, b)) => {
                    let req = names.first().cloned().unwrap_or_else(|| "req".into());
                    schemas.extend(parsed_reads(code, outline, b.clone(), &req));
                    calls = request_calls(code, outline, b.clone(), &req)
                        .into_iter()
                        .map(|(v, i, _)| (v, i))
                        .collect();
                    request_params(code, b, &req)
                        .into_iter()
                        .filter(|p| !(p.kind == ParamKind::Query && dynamic.contains(&p.name)))
                        .collect()
                }
                None => {
                    // An imported handler: `{ GET: getItems }`.
                    let name = code.slice(value.value.clone()).trim();
                    if !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| crate::js::syntax::is_js_ident(b) || b == b'.')
                    {
                        calls.push((
                            module::Value::Name(outline.scoped(name, value.value.start)),
                            0,
                        ));
                    }
                    params.clone()
                }
            };
            emit(m, file.line_of(k), ps, schemas, calls);
        }
        return;
    }
    let schemas = parsed_reads(code, outline, whole.clone(), &req);
    let mut methods: Vec<&str> = Vec::new();
    static CMP: OnceLock<Regex> = OnceLock::new();
    let cmp = re(
        &CMP,
        r#"(?:\.method\s*[!=]==?\s*|\bcase\s+)['"`](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"`]|['"`](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"`]\s*[!=]==?\s*[\w$.]*\.method\b"#,
    );
    // The code each method runs: the block of `if (req.method === 'X') {`,
    // or a `case 'X':` up to the next comparison.
    let mut blocks: Vec<(&str, Range<usize>)> = Vec::new();
    let found: Vec<_> = cmp
        .captures_iter(text)
        .filter_map(|c| Some((c.get(0)?, c.get(1).or(c.get(2))?)))
        .filter(|(all, _)| code.is_code(all.start()) || code.is_code(all.end() - 1))
        .collect();
    for (i, (all, m)) in found.iter().enumerate() {
        let Some(k) = METHODS.iter().find(|x| **x == m.as_str()) else {
            continue;
        };
        if !methods.contains(k) {
            methods.push(k);
        }
        let matched = all.as_str();
        if matched.contains("!=") {
            continue;
        }
        if matched.starts_with("case") {
            let end = found.get(i + 1).map_or(whole.end, |(n, _)| n.start());
            blocks.push((k, all.end()..end.max(all.end())));
        } else if let Some(open) = crate::js::syntax::next_code_byte(
            code,
            all.end(),
            (all.end() + 200).min(text.len()),
            b'{',
        ) {
            let between = code.slice(all.end()..open).trim_end();
            if between.ends_with(')') && !between.contains(';') {
                if let Some(close) = code.matching(open) {
                    blocks.push((k, open..close));
                }
            }
        }
    }
    if methods.is_empty() {
        methods = vec!["GET", "POST"];
    }
    let calls = request_calls(code, outline, whole, &req);
    for m in methods {
        // A call inside another method's block is not this method's.
        let own: Vec<(module::Value, usize)> = calls
            .iter()
            .filter(|(_, _, at)| {
                let mut inside = blocks.iter().filter(|(_, r)| r.contains(at)).peekable();
                inside.peek().is_none() || inside.any(|(k, _)| *k == m)
            })
            .map(|(v, i, _)| (v.clone(), *i))
            .collect();
        emit(m, line, params.clone(), schemas.clone(), own);
    }
}

/// The methods (and key offsets) of a handler map passed to a wrapper call:
/// the default export at `from` (after `export`) or, when the default export
/// is a name, that name's initializer. Keys must be upper-case methods.
fn handler_map(
    code: &Code<'_>,
    from: usize,
    named: Option<&str>,
) -> Vec<(&'static str, usize, crate::js::outline::Entry)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let start = match named {
        None => {
            let s = code.skip_ws(from);
            match text.get(s..) {
                Some(t) if t.starts_with("default") => s + "default".len(),
                _ => return Vec::new(),
            }
        }
        Some(n) => {
            static BIND: OnceLock<Regex> = OnceLock::new();
            let bind = re(
                &BIND,
                r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=",
            );
            match bind
                .captures_iter(text)
                .find(|c| {
                    c.get(1)
                        .is_some_and(|m| m.as_str() == n && code.is_code(m.start()))
                })
                .and_then(|c| c.get(0))
            {
                Some(m) => m.end(),
                None => return Vec::new(),
            }
        }
    };
    // `wrap(` or `wrap<T>(`: a dotted name, then the call.
    let s = code.skip_ws(start);
    let mut i = s;
    while i < bytes.len() && (crate::js::syntax::is_js_ident(bytes[i]) || bytes[i] == b'.') {
        i += 1;
    }
    if i == s {
        return Vec::new();
    }
    let Some(open) = crate::js::syntax::next_code_byte(code, i, (i + 200).min(bytes.len()), b'(')
    else {
        return Vec::new();
    };
    let Some(first) = code.args(open).into_iter().next() else {
        return Vec::new();
    };
    let b = code.skip_ws(first.start);
    if bytes.get(b) != Some(&b'{') {
        return Vec::new();
    }
    crate::js::outline::object_entries(code, b)
        .into_iter()
        .filter_map(|e| {
            let m = METHODS.iter().find(|m| **m == e.key)?;
            let k = e
                .value
                .start
                .min(e.function.as_ref().map_or(usize::MAX, |f| f.0.start));
            let at = text[..k].rfind(e.key.as_str()).unwrap_or(k);
            Some((*m, at, e))
        })
        .collect()
}

fn app(file: &SourceFile, code: &Code<'_>, outline: &Outline, url: &str, out: &mut Output) {
    let text = code.text();
    // `export { handler as GET, handler as POST }`.
    static LIST: OnceLock<Regex> = OnceLock::new();
    let list = re(&LIST, r"\bexport\s*\{([^}]*)\}");
    let mut aliases: Vec<(String, String, usize)> = Vec::new();
    for c in list.captures_iter(text) {
        let (Some(all), Some(inner)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        for part in inner.as_str().split(',') {
            let mut w = part.split_whitespace();
            let (Some(local), next) = (w.next(), w.next()) else {
                continue;
            };
            let exported = match next {
                Some("as") => w.next().unwrap_or(local),
                _ => local,
            };
            aliases.push((exported.to_string(), local.to_string(), all.start()));
        }
    }
    let decls = if schema::may_declare(text) {
        schema::declarations(code, outline)
    } else {
        Vec::new()
    };
    for m in METHODS {
        let (scope, at) = match outline
            .scopes
            .iter()
            .find(|s| s.kind == ScopeKind::Function && s.name == m)
        {
            Some(s) => (Some(s), s.start),
            None => match aliases.iter().find(|(e, _, _)| e == m) {
                Some((_, local, at)) => (
                    outline
                        .scopes
                        .iter()
                        .find(|s| s.kind == ScopeKind::Function && &s.name == local),
                    *at,
                ),
                None => continue,
            },
        };
        // Only exported functions are handlers.
        if let Some(s) = scope {
            if s.name == m && !text[s.start..].starts_with("export") {
                continue;
            }
        }
        let params = match scope {
            Some(s) => {
                let req = s.params.first().map(String::as_str);
                let mut ps = app_params(code, s.body.clone(), req);
                if let Some(req) = req {
                    let kind = match m {
                        "GET" | "HEAD" | "DELETE" => ParamKind::Query,
                        _ => ParamKind::Json,
                    };
                    for name in helper_schema_keys(code, outline, &decls, s.body.clone(), req) {
                        let p = Param::new(kind, name);
                        if !ps.contains(&p) {
                            ps.push(p);
                        }
                    }
                }
                ps
            }
            None => Vec::new(),
        };
        out.endpoint(
            Endpoint::new(m, url)
                .params(params)
                .at(file, file.line_of(at)),
        );
    }
}

/// Keys of the schemas a project helper validates the request with,
/// `parseRequest(request, schema)` / `validate(req, bodySchema, …)`, where
/// the schema is declared in this module (`const schema = z.object({…})`):
/// the body of a POST/PUT/PATCH, the query string of a GET/DELETE.
fn helper_schema_keys(
    code: &Code<'_>,
    outline: &Outline,
    decls: &[(String, Schema)],
    body: Range<usize>,
    req: &str,
) -> Vec<String> {
    if decls.is_empty() {
        return Vec::new();
    }
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"\b[A-Za-z_$][\w$]*\s*\(\s*([A-Za-z_$][\w$]*)\s*,\s*([A-Za-z_$][\w$]*)\s*[,)]",
    );
    let text = code.slice(body.clone());
    let mut out = Vec::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(r), Some(var)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if r.as_str() != req || !code.is_code(body.start + all.start()) {
            continue;
        }
        let name = outline.scoped(var.as_str(), body.start + var.start());
        let Some((_, sc)) = decls.iter().find(|(d, _)| *d == name) else {
            continue;
        };
        for k in schema::local_keys(&schema::inline(sc.clone(), decls, 0)) {
            if !out.contains(&k) {
                out.push(k);
            }
        }
    }
    out
}

/// Parameters an app-router handler reads.
pub fn app_params(code: &Code<'_>, body: Range<usize>, req: Option<&str>) -> Vec<Param> {
    let text = code.slice(body.clone());
    let mut found: Vec<(usize, Param)> = Vec::new();
    let at_code = |m: &regex::Match<'_>| code.is_code(body.start + m.start());
    static GETS: OnceLock<Regex> = OnceLock::new();
    let gets = re(
        &GETS,
        r#"\b(searchParams|[Hh]eaders|cookies)\b[()\s]*\.(?:get|getAll|has)\(\s*['"`]([^'"`]+)['"`]"#,
    );
    for c in gets.captures_iter(text) {
        let (Some(all), Some(what), Some(name)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !at_code(&all) {
            continue;
        }
        let kind = match what.as_str() {
            "searchParams" => ParamKind::Query,
            "cookies" => ParamKind::Cookie,
            _ => ParamKind::Header,
        };
        found.push((all.start(), Param::new(kind, name.as_str())));
    }
    // Bodies: `const { a, b } = await request.json()`, `const body = await req.json()`.
    static JSON: OnceLock<Regex> = OnceLock::new();
    let json = re(
        &JSON,
        r"\b(?:const|let|var)\s+(?:\{([^}]*)\}|([A-Za-z_$][\w$]*))\s*(?::[^=]+)?=\s*await\s+([A-Za-z_$][\w$]*)\.(json|formData)\(\)",
    );
    for c in json.captures_iter(text) {
        let (Some(all), Some(call)) = (c.get(0), c.get(4)) else {
            continue;
        };
        if !at_code(&all) {
            continue;
        }
        if let (Some(r), Some(obj)) = (req, c.get(3)) {
            if obj.as_str() != r {
                continue;
            }
        }
        let kind = if call.as_str() == "json" {
            ParamKind::Json
        } else {
            ParamKind::Form
        };
        if let Some(d) = c.get(1) {
            for part in d.as_str().split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                if !name.is_empty() {
                    found.push((all.start(), Param::new(kind, name)));
                }
            }
        } else if let Some(var) = c.get(2) {
            let v = var.as_str();
            let pat = if kind == ParamKind::Json {
                format!(r"\b{}(?:\?)?\.([A-Za-z_$][\w$]*)", regex::escape(v))
            } else {
                format!(r#"\b{}\.get\(\s*['"`]([^'"`]+)['"`]"#, regex::escape(v))
            };
            if let Some(r) = crate::js::pattern::regex(&pat) {
                for m in r.captures_iter(text) {
                    let (Some(a), Some(n)) = (m.get(0), m.get(1)) else {
                        continue;
                    };
                    if a.start() > all.end() && at_code(&a) {
                        found.push((a.start(), Param::new(kind, n.as_str())));
                    }
                }
            }
            // `const { a, b } = body`.
            if let Some(r) = crate::js::pattern::regex(&format!(
                r"\b(?:const|let|var)\s+\{{([^}}]*)\}}\s*=\s*{}\b",
                regex::escape(v)
            )) {
                for m in r.captures_iter(text) {
                    let (Some(a), Some(d)) = (m.get(0), m.get(1)) else {
                        continue;
                    };
                    if !at_code(&a) {
                        continue;
                    }
                    for part in d.as_str().split(',') {
                        let name: String = part
                            .trim()
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                            .collect();
                        if !name.is_empty() {
                            found.push((a.start(), Param::new(kind, name)));
                        }
                    }
                }
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Param> = Vec::new();
    for (_, p) in found {
        if !out.iter().any(|o| o.name == p.name && o.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests;
