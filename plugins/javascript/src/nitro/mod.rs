//! Nitro (`js_nitro`) and Nuxt server routes (`js_nuxtjs`): file-system
//! event handlers.
//!
//! Files: `server/api/**` → `/api/…` and `server/routes/**` → `/…`; a
//! standalone Nitro app (`js_nitro`) also routes `api/**` and `routes/**`
//! of its source directory. A file routes only when it defines a handler
//! (`defineEventHandler`, `eventHandler`, `defineCachedEventHandler`,
//! `defineWebSocketHandler`, `fromNodeMiddleware`, `lazyEventHandler`).
//! `index` is dropped; `[id]` → `{id}`; `[...slug]` → `{slug}`; `[...]`
//! → `{_}`; `(group)` directories dropped. A method suffix
//! (`users/[id].get.ts`, `.post`, `.put`, `.patch`, `.delete`, `.head`,
//! `.options`) sets the method. Without one the handler serves every
//! method: the methods it compares (`event.method === 'POST'`,
//! `isMethod(event, 'PUT')`, `assertMethod(event, 'POST')`) are reported,
//! else POST when it reads a body (h3 refuses bodies on GET), else GET. `defineWebSocketHandler`
//! files are `ws` endpoints (GET).
//!
//! Parameters: `getQuery(event)` / `getValidatedQuery` (query),
//! `readBody` / `readValidatedBody` (JSON), `readFormData` (form), each
//! read as `.x`, destructured or through a variable; `getRouterParam(event,
//! 'id')` (path), `getHeader(event, 'x')` / `getRequestHeader` (header),
//! `getCookie(event, 'c')` (cookie). Test files are skipped.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param, ParamKind};
use regex::Regex;
use std::sync::OnceLock;

use crate::express::{is_generated, JS_FILES};
use crate::js::fsroute::{compared_methods, url_of};
use crate::js::reads::{ordered, reads, Found};

pub struct Nitro;
pub struct Nuxt;

use crate::js::pattern::re;

const SUFFIXES: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

/// URL and method suffix of a handler file. `standalone` also accepts
/// `api/` and `routes/` outside `server/`.
pub fn route_of(path: &str, standalone: bool) -> Option<(String, Option<String>)> {
    let segs: Vec<&str> = path.split('/').collect();
    let (file, dirs) = segs.split_last()?;
    let server_root = (1..dirs.len())
        .rev()
        .find(|&i| matches!(dirs[i], "api" | "routes") && dirs[i - 1] == "server");
    let root = match server_root {
        Some(i) => i,
        None if standalone => dirs.iter().rposition(|d| matches!(*d, "api" | "routes"))?,
        None => return None,
    };
    let mut parts: Vec<&str> = file.split('.').collect();
    let ext = parts.pop()?;
    if !matches!(ext, "js" | "ts" | "mjs" | "mts") || parts.is_empty() {
        return None;
    }
    let mut method = None;
    if parts.len() > 1 {
        if let Some(last) = parts.last() {
            if SUFFIXES.contains(last) {
                method = Some(last.to_ascii_uppercase());
                parts.pop();
            }
        }
    }
    let stem = parts.join(".");
    let mut segs: Vec<String> = Vec::new();
    if dirs[root] == "api" {
        segs.push("api".into());
    }
    for d in &dirs[root + 1..] {
        if d.starts_with('(') && d.ends_with(')') {
            continue;
        }
        segs.push(segment(d));
    }
    if stem != "index" {
        segs.push(segment(&stem));
    }
    Some((url_of(&segs), method))
}

fn segment(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push('[');
            out.push_str(after);
            return out;
        };
        let inner = &after[..close];
        let name = match inner.trim_start_matches("...") {
            "" => "_",
            n => n,
        };
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

fn analyze(tech_standalone: bool, file: &SourceFile, out: &mut Output) {
    if is_test_path(&file.path) || is_generated(file) {
        return;
    }
    let Some((url, method)) = route_of(&file.path, tech_standalone) else {
        return;
    };
    let code = file.code(Syntax::JAVASCRIPT);
    static HANDLER: OnceLock<Regex> = OnceLock::new();
    let handler = re(
        &HANDLER,
        r"\b(defineEventHandler|eventHandler|defineCachedEventHandler|cachedEventHandler|defineWebSocketHandler|fromNodeMiddleware|lazyEventHandler)\s*[(<]",
    );
    let Some(h) = handler
        .captures_iter(code.text())
        .find(|c| c.get(0).is_some_and(|m| code.is_code(m.start())))
    else {
        return;
    };
    let (Some(all), Some(kind)) = (h.get(0), h.get(1)) else {
        return;
    };
    let line = file.line_of(all.start());
    let text = code.text();
    if kind.as_str() == "defineWebSocketHandler" {
        out.endpoint(Endpoint::websocket(&url).at(file, line));
        return;
    }
    let params = params(&code);
    let methods: Vec<String> = match method {
        Some(m) => vec![m],
        None => {
            let mut ms = compared_methods(&code, 0..text.len());
            if ms.is_empty() {
                let body = params
                    .iter()
                    .any(|p| matches!(p.kind, ParamKind::Json | ParamKind::Form))
                    || text.contains("readBody(")
                    || text.contains("readRawBody(")
                    || text.contains("readMultipartFormData(");
                ms.push(if body { "POST" } else { "GET" }.into());
            }
            ms
        }
    };
    for m in methods {
        out.endpoint(
            Endpoint::new(&m, &url)
                .params(params.clone())
                .at(file, line),
        );
    }
}

/// What an h3 handler reads.
pub fn params(code: &Code<'_>) -> Vec<Param> {
    let all = 0..code.text().len();
    let mut found: Found = Vec::new();
    static Q: OnceLock<Regex> = OnceLock::new();
    static B: OnceLock<Regex> = OnceLock::new();
    static F: OnceLock<Regex> = OnceLock::new();
    found.extend(reads(
        code,
        all.clone(),
        re(
            &Q,
            r"\b(?:getQuery|getValidatedQuery|useQuery)\s*(?:<[^>()]*>)?\(",
        ),
        ParamKind::Query,
    ));
    found.extend(reads(
        code,
        all.clone(),
        re(
            &B,
            r"\b(?:readBody|readValidatedBody|useBody)\s*(?:<[^>()]*>)?\(",
        ),
        ParamKind::Json,
    ));
    found.extend(reads(
        code,
        all.clone(),
        re(&F, r"\breadFormData\s*\("),
        ParamKind::Form,
    ));
    static ONE: OnceLock<Regex> = OnceLock::new();
    let one = re(
        &ONE,
        r#"\b(getRouterParam|getHeader|getRequestHeader|getCookie)\s*\(\s*[\w$.]+\s*,\s*['"`]([^'"`]+)['"`]"#,
    );
    for c in one.captures_iter(code.text()) {
        let (Some(m), Some(f), Some(n)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(m.start()) {
            continue;
        }
        let kind = match f.as_str() {
            "getRouterParam" => ParamKind::Path,
            "getCookie" => ParamKind::Cookie,
            _ => ParamKind::Header,
        };
        found.push((m.start(), Param::new(kind, n.as_str())));
    }
    // Schemas given to validated reads: `readValidatedBody(event,
    // schema.parse)`, `getValidatedQuery(event, (q) => schema.parse(q))`,
    // `readValidatedBody(event, z.object({…}).parse)`, with the schema
    // inline or declared in this module (zod, valibot, …).
    static V: OnceLock<Regex> = OnceLock::new();
    let validated = re(
        &V,
        r"\b(readValidatedBody|getValidatedQuery|getValidatedRouterParams)\s*(?:<[^>()]*>)?\(",
    );
    let mut table: Option<Vec<(String, crate::js::schema::Schema)>> = None;
    let mut outline: Option<crate::js::outline::Outline> = None;
    for c in validated.captures_iter(code.text()) {
        let (Some(m), Some(f)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(m.start()) {
            continue;
        }
        let Some(arg) = code.args(m.end() - 1).get(1).cloned() else {
            continue;
        };
        let kind = match f.as_str() {
            "readValidatedBody" => ParamKind::Json,
            "getValidatedQuery" => ParamKind::Query,
            _ => ParamKind::Path,
        };
        let Some(schema) = validator_schema(code, arg) else {
            continue;
        };
        let outline = &*outline.get_or_insert_with(|| crate::js::outline::Outline::new(code));
        let t = code.slice(schema.clone()).trim();
        // A bare name (`userSchema` of `userSchema.parse`): `parse` would
        // read on into `.parse`.
        let schema = if !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        {
            crate::js::schema::Schema::Ref(outline.scoped(t, schema.start))
        } else {
            let Some(s) = crate::js::schema::parse(code, outline, schema) else {
                continue;
            };
            s
        };
        let table = table.get_or_insert_with(|| crate::js::schema::declarations(code, outline));
        let schema = crate::js::schema::inline(schema, table, 0);
        for k in crate::js::schema::local_keys(&schema) {
            found.push((m.start(), Param::new(kind, k)));
        }
    }
    ordered(found)
}

/// The schema a validator argument uses: `S.parse`, `S.safeParse`,
/// `(b) => S.parse(b)`, `v.parser(S)`, `S.parseAsync`; `S` may itself be a
/// call (`z.object({…}).parse`).
fn validator_schema(
    code: &Code<'_>,
    arg: std::ops::Range<usize>,
) -> Option<std::ops::Range<usize>> {
    let t = code.slice(arg.clone());
    let s = arg.start + (t.len() - t.trim_start().len());
    let end = arg.start + t.trim_end().len();
    for m in [".parseAsync", ".safeParseAsync", ".safeParse", ".parse"] {
        if code.slice(s..end).ends_with(m) {
            return Some(s..end - m.len());
        }
    }
    // `(body) => S.parse(body)`.
    let body = code.slice(s..end);
    let arrow = body.find("=>")?;
    let e = s + arrow + 2;
    let inner = code.slice(e..end);
    for m in [".parseAsync(", ".safeParseAsync(", ".safeParse(", ".parse("] {
        if let Some(k) = inner.rfind(m) {
            return Some(e..e + k);
        }
    }
    None
}

impl Analyzer for Nitro {
    fn tech(&self) -> Tech {
        Tech::new("js_nitro", "JavaScript", "Nitro")
            .aliases(["nitro", "nitropack", "js-nitro", "h3"])
            .files(JS_FILES)
            .detect(Detect::files(["package.json"]).regex([r#""(?:nitropack|nitro)"\s*:"#]))
            .detect(Detect::files([
                "nitro.config.ts",
                "nitro.config.js",
                "nitro.config.mjs",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze(true, file, out);
    }
}

impl Analyzer for Nuxt {
    fn tech(&self) -> Tech {
        Tech::new("js_nuxtjs", "JavaScript", "NuxtJS")
            .aliases(["nuxt", "nuxtjs", "js-nuxtjs", "nuxt.js"])
            .files(JS_FILES)
            .detect(Detect::files(["package.json"]).regex([r#""nuxt"\s*:"#]))
            .detect(Detect::files([
                "nuxt.config.ts",
                "nuxt.config.js",
                "nuxt.config.mjs",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze(false, file, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        let r = |p: &str, s: bool| route_of(p, s);
        assert_eq!(
            r("server/api/users/[id].get.ts", false),
            Some(("/api/users/{id}".into(), Some("GET".into())))
        );
        assert_eq!(
            r("apps/web/server/api/index.post.ts", false),
            Some(("/api".into(), Some("POST".into())))
        );
        assert_eq!(
            r("server/routes/feed.xml.ts", false),
            Some(("/feed.xml".into(), None))
        );
        assert_eq!(
            r("server/api/files/[...path].ts", false),
            Some(("/api/files/{path}".into(), None))
        );
        assert_eq!(r("server/middleware/auth.ts", false), None);
        assert_eq!(r("routes/hello.ts", false), None);
        assert_eq!(r("routes/[...].ts", true), Some(("/{_}".into(), None)));
    }
}

#[cfg(test)]
mod validated_tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn validated_body_schema() {
        let src = "import { z } from 'zod'\nconst userSchema = z.object({ name: z.string(), age: z.number() })\nexport default defineEventHandler(async (event) => {\n  const body = await readValidatedBody(event, userSchema.parse)\n  const q = await getValidatedQuery(event, (q) => z.object({ page: z.string() }).parse(q))\n  const p = await readValidatedBody(event, (b) => userSchema.safeParse(b))\n  return body\n})\n";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let names: Vec<(String, ParamKind)> = params(&code)
            .into_iter()
            .map(|p| (p.name, p.kind))
            .collect();
        assert_eq!(
            names,
            vec![
                ("name".to_string(), ParamKind::Json),
                ("age".into(), ParamKind::Json),
                ("page".into(), ParamKind::Query),
            ]
        );
    }
}
