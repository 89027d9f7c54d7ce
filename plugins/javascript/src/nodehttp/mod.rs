//! Plain Node.js `http`/`https` servers (`js_http`).
//!
//! Servers: `http.createServer([options,] handler)` /
//! `https.createServer(…)` (also `createServer` imported from `http`,
//! `https`, `http2` or their `node:` forms) and `server.on('request',
//! handler)`; the handler is an inline function or a function of the tree
//! (another module too). Functions the handler calls with its request
//! (`return handleApi(req, res)`) are followed, across modules.
//!
//! Routes are the branches of those functions that compare the URL or
//! the method with string literals:
//! - `if (req.url === '/x')`, `if (pathname === '/x' && req.method ===
//!   'POST')` (the compared name ends in `url`, `pathname`, `path` or
//!   `route`; `'/x' === url` too), reported at the line of the path literal;
//! - `switch (url.pathname) { case '/x': … }`, `switch (req.method) {
//!   case 'GET': … }`;
//! - a method comparison enclosing a path branch, or in its condition
//!   (`req.method === 'GET' || req.method === 'HEAD'`), gives the methods;
//!   method branches nested in a path branch give one endpoint each; an
//!   early `if (req.method !== 'POST') return …` guard gives the method of
//!   the branches after it; a path branch without any method check serves
//!   every method and is reported GET only.
//!
//! - route tables: a module-level object literal keyed by paths or
//!   `'METHOD /path'` (`const pages = { '/': home, 'POST /contact':
//!   contact }`) indexed by a handler (`pages[url.pathname]`); each key is
//!   an endpoint (GET without a method) at its line, with the parameters
//!   its handler (inline, or a function of the module) reads.
//!
//! Parameters of a branch body: `searchParams.get('q')` (query, from
//! `new URL(req.url, base)`), `req.headers['x-token']` /
//! `req.headers.authorization` / `headers.get('x')` (header),
//! `JSON.parse(body)` reads and `readJson(req)`-style helpers (JSON),
//! `req.cookies` reads (cookie).
//!
//! Precedence: only function handlers count, so `http.createServer(app)`
//! with an Express/Koa/Fastify app (a value, not a function) reports
//! nothing here and the framework's analyzer reports its routes. Test
//! files, and test doubles (`nock`, `fetchMock`, `http.request` clients),
//! are not servers. Gaps: nested tables (`routes[method][path]`),
//! `req.url.startsWith('/x/')` prefixes and regex matches with captured
//! path parameters.

pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};
use crate::js::module::Value;
use crate::js::project::{Project, Target};

pub struct NodeHttp;

impl Analyzer for NodeHttp {
    fn tech(&self) -> Tech {
        Tech::new("js_http", "JavaScript", "Node.js http/https")
            .aliases(["http", "node-http", "nodejs-http", "js-http"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"(?s)(?:require\(\s*['"](?:node:)?https?['"]\s*\)|\bfrom\s+['"](?:node:)?https?['"]).*createServer\s*\("#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty() || !module.servers.is_empty() || !module.funcs.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::HttpModule> = facts.all();
        Ok(link(&modules))
    }
}

fn link(modules: &[scan::HttpModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    // Functions to visit: (module, function key).
    let mut todo: Vec<(usize, String)> = Vec::new();
    let resolve = |m: usize, v: &Value| -> Option<(usize, String)> {
        match project.resolve(m, v)? {
            Target::Func(fm, f) => Some((fm, f)),
            _ => None,
        }
    };
    for (mi, m) in modules.iter().enumerate() {
        for s in &m.servers {
            match s {
                scan::Server::Inline(key) => todo.push((mi, key.clone())),
                scan::Server::Named(v) => {
                    if let Some(t) = resolve(mi, v) {
                        todo.push(t);
                    }
                }
            }
        }
    }
    let mut seen: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    while let Some((mi, key)) = todo.pop() {
        if seen.contains(&(mi, key.clone())) || seen.len() > 4096 {
            continue;
        }
        seen.push((mi, key.clone()));
        let Some(m) = modules.get(mi) else { continue };
        let Some(f) = m.funcs.iter().find(|f| f.key == key) else {
            continue;
        };
        for r in &f.routes {
            out.push(
                Endpoint::new(&r.method, r.path.clone())
                    .params(r.params.clone())
                    .at_path(m.info.path.clone(), r.line),
            );
        }
        for d in &f.delegates {
            if let Some(t) = resolve(mi, &Value::Name(d.clone())) {
                todo.push(t);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
