//! Restify (`js_restify`).
//!
//! Reuses the Express map and reduce steps ([`crate::express`]): routes
//! `server.get/post/put/patch/del/head/opts(path, …handlers)` where the
//! path may also be an options object (`{ path: '/x', version: '1.0.0' }`),
//! on servers made by `restify.createServer()`, and `restify-router`
//! routers mounted with `router.applyRoutes(server, prefix?)` /
//! `parent.add(prefix, router)`, across modules. Parameters: what handlers
//! read from `req` (`req.query`, `req.params`, `req.body`, `req.header()`,
//! `req.headers`, `req.cookies`). Test files are skipped.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Syntax;
use regex::Regex;
use std::sync::OnceLock;

use crate::express::scan::{self as ex, paths_of, ExpressModule, Mount, Route};
use crate::express::{is_generated, JS_FILES};
use crate::js::module::{self, Value};
use crate::js::outline::object_entries;
use crate::js::syntax::dotted_before;

pub struct Restify;

use crate::js::pattern::re;

const SPECS: [&str; 2] = ["restify", "restify-router"];

/// Express-shaped facts of one Restify module.
pub fn scan(file: &SourceFile) -> ExpressModule {
    let mut m = ex::scan(file);
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let text = code.text();
    let bytes = text.as_bytes();
    m.express = m
        .info
        .imports
        .iter()
        .any(|i| SPECS.contains(&i.spec.as_str()))
        || SPECS.iter().any(|s| {
            text.contains(&format!("require('{s}')")) || text.contains(&format!("require(\"{s}\")"))
        });
    m.objects.clear();
    for b in &m.info.bindings {
        let is_server = match &b.value {
            Value::Call { callee, .. } => match callee.as_ref() {
                Value::Name(n) => n.ends_with("createServer"),
                Value::Require { spec, member } => {
                    spec == "restify" && member.as_deref() == Some("createServer")
                }
                _ => false,
            },
            Value::New { class, .. } => class == "Router" || class.ends_with(".Router"),
            _ => false,
        };
        if is_server {
            m.objects.push(b.name.clone());
        }
    }
    // `server.get({ path: '/x' }, h)` and `server.opts('/x', h)`.
    static OBJ: OnceLock<Regex> = OnceLock::new();
    let obj = re(&OBJ, r"\.\s*(get|post|put|patch|del|delete|head|opts)\s*\(");
    for c in obj.captures_iter(text) {
        let (Some(all), Some(meth)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let Some((receiver, _)) = dotted_before(&code, all.start()) else {
            continue;
        };
        let args = code.args(all.end() - 1);
        if args.len() < 2 {
            continue;
        }
        let s = code.skip_ws(args[0].start);
        let paths = if bytes.get(s) == Some(&b'{') {
            object_entries(&code, s)
                .into_iter()
                .find(|e| e.key == "path" || e.key == "url")
                .map(|e| paths_of(&code, &outline, e.value))
                .unwrap_or_default()
        } else if meth.as_str() == "opts" {
            paths_of(&code, &outline, args[0].clone())
        } else {
            continue;
        };
        if paths.is_empty() {
            continue;
        }
        let (params, handlers, flows) = ex::handler_args(&code, &outline, &args[1..]);
        let method = match meth.as_str() {
            "opts" => "options",
            "del" => "delete",
            x => x,
        };
        m.routes.push(Route {
            line: file.line_of(code.skip_ws(all.start() + 1)),
            receiver: outline.scoped(&receiver, all.start()),
            methods: ex::methods_of(method),
            paths,
            params,
            handlers,
            helper: None,
            flows,
            guards: Vec::new(),
        });
    }
    // restify-router: `router.applyRoutes(server, '/prefix')`, `a.add('/p', b)`.
    static MOUNT: OnceLock<Regex> = OnceLock::new();
    let mount = re(&MOUNT, r"\.\s*(applyRoutes|add)\s*\(");
    for c in mount.captures_iter(text) {
        let (Some(all), Some(how)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let Some((receiver, _)) = dotted_before(&code, all.start()) else {
            continue;
        };
        let receiver = outline.scoped(&receiver, all.start());
        let args = code.args(all.end() - 1);
        let (parent, child, prefix) = match how.as_str() {
            "applyRoutes" => {
                let Some(Value::Name(server)) = args
                    .first()
                    .and_then(|a| module::parse_value(&code, &outline, a.clone()))
                else {
                    continue;
                };
                (server, Value::Name(receiver), args.get(1))
            }
            _ => {
                let (Some(p), Some(ch)) = (args.first(), args.get(1)) else {
                    continue;
                };
                let Some(child) = module::parse_value(&code, &outline, ch.clone()) else {
                    continue;
                };
                (receiver, child, Some(p))
            }
        };
        let prefixes = prefix
            .map(|p| paths_of(&code, &outline, p.clone()))
            .unwrap_or_default();
        m.mounts.push(Mount {
            receiver: parent,
            prefixes,
            children: vec![child],
        });
    }
    m
}

impl Analyzer for Restify {
    fn tech(&self) -> Tech {
        Tech::new("js_restify", "JavaScript", "Restify")
            .aliases(["restify", "js-restify"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"require\(\s*['"]restify['"]\s*\)"#,
                r#"\bfrom\s+['"]restify['"]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan(file);
        if !module.info.is_empty() || !module.routes.is_empty() || !module.mounts.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<ExpressModule> = facts.all();
        Ok(crate::express::link::link(&modules))
    }
}

#[cfg(test)]
mod tests;
