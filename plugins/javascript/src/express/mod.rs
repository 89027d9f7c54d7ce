//! Express (`js_express`).
//!
//! Routes: `x.get/post/put/patch/delete/del/options/head/all(path, …h)` on
//! Express apps and routers, `x.route(path).get(h).post(h2)…` chains, and
//! path arrays. `all` serves every method; it is reported as GET, POST,
//! PUT, PATCH and DELETE. Routers are mounted with `x.use(prefix?, …r)`,
//! possibly in other modules (imported with `require` or `import`,
//! exported with `module.exports`, `exports.x`, `export default` or named
//! exports), possibly passed to functions (`require('./routes')(app)`) or
//! returned by factories, possibly held in class fields
//! (`this.router`, with `${this.path}` prefixes). Paths may use constants,
//! concatenation and templates, also from other modules.
//!
//! Helpers that register routes from their parameters
//! (`page(router, '/x', h)` adding `/x` and `/api/x`, `apiRoute(router,
//! 'post', '/x', h)` calling `router[verb](path)`) are inlined one level at
//! their call sites (see [`helpers`]).
//!
//! Receivers: objects made by `express()` / `Router()`, objects mounted
//! somewhere, or unbound router-like names (`app`, `router`, function
//! parameters such as `module.exports = (app) => …`). Test doubles never
//! qualify: `fetchMock.get`, `nock(…).get`, `request(app).get`,
//! `axios.get`, and files under test paths are skipped. `app.get('env')`
//! (a settings read, one argument) is not a route.
//!
//! Parameters: what inline and named handlers (also in other modules,
//! also wrapped as `asyncHandler(h)`) read from `req` (see
//! [`crate::js::request`]).

pub mod dispatch;
pub mod helpers;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

pub const JS_FILES: [&str; 6] = ["*.js", "*.mjs", "*.cjs", "*.jsx", "*.ts", "*.tsx"];

pub struct Express;

impl Analyzer for Express {
    fn tech(&self) -> Tech {
        Tech::new("js_express", "JavaScript", "Express")
            .aliases(["express", "js-express", "expressjs"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"require\(\s*['"]express['"]\s*\)"#,
                r#"\bfrom\s+['"]express['"]"#,
                r"app\.use\(\s*express\.json\(\)",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty()
            || !module.routes.is_empty()
            || !module.mounts.is_empty()
            || !module.helper_calls.is_empty()
            || !module.dtos.is_empty()
            || !module.sinks.is_empty()
            || !module.parts.is_empty()
        {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::ExpressModule> = facts.all();
        Ok(link::link(&modules))
    }
}

/// Type declarations, minified bundles and other generated code: no
/// routes of the application, and costly to scan. Recognised cheaply by
/// name (`.d.ts`, `.min.js`, `.bundle.js`, `.standalone.js`, `.umd.js`,
/// `.chunk.js`), by bundler markers near the start (webpack's runtime,
/// UMD/rollup wrappers), by a source-map trailer on a large file, and by
/// very long lines (low newline density). Logged at debug level.
pub fn is_generated(file: &SourceFile) -> bool {
    let why = generated_reason(&file.path, &file.content);
    if let Some(why) = why {
        portolan_plugin_sdk::host::debug(&format!("{}: skipped ({why})", file.path));
    }
    why.is_some()
}

fn generated_reason(path: &str, content: &str) -> Option<&'static str> {
    const NAMES: [&str; 10] = [
        ".d.ts",
        ".d.mts",
        ".d.cts",
        ".min.js",
        ".min.mjs",
        ".bundle.js",
        ".standalone.js",
        ".umd.js",
        ".chunk.js",
        ".min.cjs",
    ];
    if NAMES.iter().any(|n| path.ends_with(n)) {
        return Some("generated file name");
    }
    let len = content.len();
    if len < 4_096 {
        return None;
    }
    let head = &content[..content.floor_char_boundary(2_048)];
    const MARKERS: [&str; 5] = [
        "__webpack_require__",
        "webpackBootstrap",
        "/******/",
        "typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory(",
        "typeof exports==\"object\"&&typeof module!=\"undefined\"?module.exports=",
    ];
    if MARKERS.iter().any(|m| head.contains(m)) {
        return Some("bundler marker");
    }
    if len > 100_000 {
        let tail = &content[content.floor_char_boundary(len - 512)..];
        if tail.contains("//# sourceMappingURL=") {
            return Some("compiled output with a source map");
        }
    }
    // Long lines: a file of code has a newline every few dozen bytes.
    let sample = &content.as_bytes()[..len.min(65_536)];
    let newlines = sample.iter().filter(|b| **b == b'\n').count();
    if sample.len() >= 4_096 && newlines < sample.len() / 1_000 {
        return Some("minified (long lines)");
    }
    if len > 20_000 && content.bytes().filter(|b| *b == b'\n').count() < len / 1_000 {
        return Some("minified (long lines)");
    }
    None
}

#[cfg(test)]
mod tests;
