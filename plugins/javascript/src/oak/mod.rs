//! Oak (`js_oak`), the Deno (and Node) middleware framework with a
//! Koa-style router; routers, prefixes and mounts work as for
//! [`crate::koa`] (same scan and link).
//!
//! Routes: `router.get/post/put/patch/delete/options/head/all(path, …)`
//! (`all`: GET, POST, PUT, PATCH and DELETE), named routes, `new Router({
//! prefix })`, `parent.use('/v1', child.routes())`, `app.use(router.routes())`,
//! across modules. Receivers are objects made by `new Router()` /
//! `new Application()` (imported from any `oak` specifier: `jsr:@oak/oak`,
//! `@oak/oak`, `https://deno.land/x/oak@…/mod.ts`) and mounted routers.
//!
//! Parameters read from the context: `ctx.request.url.searchParams.get('x')`
//! and `helpers.getQuery(ctx).x` (query), `ctx.params.id` (path), `await
//! ctx.request.body.json()` fields (JSON), `ctx.request.body.form()` /
//! `formData()` fields (form), `ctx.request.headers.get('x')` (header),
//! `await ctx.cookies.get('c')` (cookie), also through variables and
//! destructuring. Test files are skipped.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param};
use regex::Regex;
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::{is_generated, JS_FILES};
use crate::js::reads::{ordered, reads, Found};
use crate::koa::scan::{scan_with, Flavor, KoaModule};

pub struct Oak;

fn is_oak(spec: &str) -> bool {
    let s = spec.trim_start_matches("jsr:").trim_start_matches("npm:");
    s.starts_with("@oak/oak") || s.starts_with("oak") || s.contains("deno.land/x/oak")
}

pub const OAK: Flavor = Flavor {
    spec: is_oak,
    require: &[],
    read: oak_params,
};

/// What an Oak handler reads from its context (whatever its name).
pub fn oak_params(code: &Code<'_>, body: Range<usize>, _ctx: &str) -> Vec<Param> {
    const CHAIN: &str = r"\b(?:[A-Za-z_$][\w$]*\s*\??\.\s*)*";
    static SOURCES: OnceLock<Vec<(Regex, ParamKind)>> = OnceLock::new();
    let sources = SOURCES.get_or_init(|| {
        [
            (r"searchParams\b", ParamKind::Query),
            (r"getQuery\(", ParamKind::Query),
            (r"params\b", ParamKind::Path),
            (r"body\s*\.\s*json\(", ParamKind::Json),
            (r"body\s*\.\s*form(?:Data)?\(", ParamKind::Form),
            (r"headers\b", ParamKind::Header),
            (r"cookies\b", ParamKind::Cookie),
        ]
        .into_iter()
        .filter_map(|(p, k)| crate::js::pattern::regex(&format!("{CHAIN}{p}")).map(|r| (r, k)))
        .collect()
    });
    let mut found: Found = Vec::new();
    for (r, kind) in sources {
        found.extend(reads(code, body.clone(), r, *kind));
    }
    ordered(found)
}

impl Analyzer for Oak {
    fn tech(&self) -> Tech {
        Tech::new("js_oak", "JavaScript", "Oak")
            .aliases(["oak", "js-oak"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"\bfrom\s+['"](?:jsr:|npm:)?@oak/oak"#,
                r#"\bfrom\s+['"]https://deno\.land/x/oak[@/]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan_with(file, &OAK);
        if !module.info.is_empty() || !module.routes.is_empty() || !module.mounts.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<KoaModule> = facts.all();
        Ok(crate::koa::link::link(&modules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn reads_context() {
        let src = "async (ctx) => {\n  const q = ctx.request.url.searchParams.get('q');\n  const { title, tags } = await ctx.request.body.json();\n  const form = await ctx.request.body.form();\n  form.get('email');\n  ctx.request.headers.get('x-token');\n  await ctx.cookies.get('sid');\n  ctx.cookies.set('seen', '1');\n  ctx.response.headers.set('x-out', '1');\n  ctx.params.id;\n}";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let ps: Vec<_> = oak_params(&code, 0..src.len(), "ctx")
            .into_iter()
            .map(|p| (p.name, p.kind))
            .collect();
        use ParamKind::*;
        assert_eq!(
            ps,
            vec![
                ("q".to_string(), Query),
                ("title".into(), Json),
                ("tags".into(), Json),
                ("email".into(), Form),
                ("x-token".into(), Header),
                ("sid".into(), Cookie),
                ("id".into(), Path),
            ]
        );
    }
}
