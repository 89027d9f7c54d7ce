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
        if !module.info.is_empty() || !module.routes.is_empty() || !module.mounts.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::ExpressModule> = facts.all();
        Ok(link::link(&modules))
    }
}

/// Type declarations, minified bundles and other generated code: no
/// routes of the application, and costly to scan.
pub fn is_generated(file: &SourceFile) -> bool {
    let p = file.path.as_str();
    p.ends_with(".d.ts")
        || p.ends_with(".min.js")
        || p.ends_with(".bundle.js")
        || (file.content.len() > 20_000
            && file.content.lines().count() < file.content.len() / 1_000)
}

#[cfg(test)]
mod tests;
