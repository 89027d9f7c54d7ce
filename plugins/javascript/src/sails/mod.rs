//! Sails.js (`js_sails`).
//!
//! Routes: the custom routes of `config/routes.js` (`module.exports.routes
//! = { … }`): `'GET /x': 'UserController.find'`, `'POST /y': { action:
//! 'user/create' }`, `{ controller: 'UserController', action: 'find' }`,
//! `'GET /about': { view: 'pages/about' }`, inline functions. A key
//! without a verb (`'/z': 'X.y'`) matches every verb: reported as GET,
//! POST, PUT, PATCH and DELETE. Blueprint routes (shortcut, RESTful and
//! action routes generated from models and controllers) are not reported:
//! they depend on `config/blueprints.js` and are off in most production
//! apps.
//!
//! Parameters: an action's `inputs: { email: { type: 'string' } }`
//! (actions2, `api/controllers/user/create.js` is action `user/create`)
//! and `req.param('x')` travel in the query string for GET, HEAD, DELETE
//! and OPTIONS routes and in the JSON body otherwise (Sails reads both);
//! classic controller actions (`api/controllers/UserController.js`,
//! method `find` is action `user/find`) also read `req.query.x`,
//! `req.body.x`, `req.headers[…]`, `req.cookies.x` like Express. Action
//! identities are compared lower-cased, as Sails does. Test files are
//! skipped.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Param, ParamKind};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::{is_generated, JS_FILES};
use crate::js::outline::{object_entries, param_names};
use crate::js::request::request_params;

pub struct Sails;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SailsModule {
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    /// (action identity, reads).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<(String, Vec<Read>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub methods: Vec<String>,
    pub url: String,
    #[serde(default)]
    pub action: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Read {
    /// Query or JSON by method.
    Input(String),
    Direct(Param),
}

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const VERBS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

fn literal(code: &Code<'_>, r: &Range<usize>) -> Option<String> {
    let lit = code.string_at(code.skip_ws(r.start))?;
    (!lit.interpolated).then_some(lit.value)
}

/// `UserController.find` / `user/find` / `UserController` + `find` → `user/find`.
fn identity(target: &str) -> String {
    let (ctrl, action) = match target.rsplit_once('.') {
        Some((c, a)) => (c, Some(a)),
        None => (target, None),
    };
    let ctrl = ctrl.strip_suffix("Controller").unwrap_or(ctrl);
    let id = match action {
        Some(a) => format!("{ctrl}/{a}"),
        None => ctrl.to_string(),
    };
    id.to_ascii_lowercase()
}

fn reads_of(code: &Code<'_>, params: Range<usize>, body: Range<usize>) -> Vec<Read> {
    let req = param_names(code, params)
        .first()
        .cloned()
        .unwrap_or_default();
    let mut out: Vec<(usize, Read)> = Vec::new();
    if !req.is_empty() {
        static PARAM: OnceLock<Regex> = OnceLock::new();
        let re = PARAM.get_or_init(|| {
            crate::js::pattern::regex(r#"\b([A-Za-z_$][\w$]*)\s*\.\s*param\(\s*['"]([^'"]+)['"]"#)
                .unwrap_or_else(crate::js::pattern::never)
        });
        let slice = code.text().get(body.clone()).unwrap_or("");
        for c in re.captures_iter(slice) {
            let (Some(all), Some(r), Some(n)) = (c.get(0), c.get(1), c.get(2)) else {
                continue;
            };
            if r.as_str() == req && code.is_code(body.start + all.start()) {
                out.push((
                    body.start + all.start(),
                    Read::Input(n.as_str().to_string()),
                ));
            }
        }
        // Offsets of the Express-style reads are not returned: after.
        for p in request_params(code, body, &req) {
            if p.kind != ParamKind::Path {
                out.push((usize::MAX, Read::Direct(p)));
            }
        }
    }
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, r)| r).collect()
}

pub fn scan(file: &SourceFile) -> SailsModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = SailsModule {
        path: file.path.clone(),
        ..SailsModule::default()
    };
    let path = file.path.replace('\\', "/");
    // Routes of config/routes.js.
    if path.ends_with("config/routes.js") || path.ends_with("config/routes.ts") {
        static ROUTES: OnceLock<Regex> = OnceLock::new();
        let re = ROUTES.get_or_init(|| {
            crate::js::pattern::regex(
                r"\bmodule\.exports(?:\.routes\s*=|\s*=\s*\{\s*routes\s*:)\s*\{",
            )
            .unwrap_or_else(crate::js::pattern::never)
        });
        if let Some(m) = re.find_iter(text).find(|m| code.is_code(m.start())) {
            for e in object_entries(&code, m.end() - 1) {
                let key = e.key.trim();
                let (methods, url): (Vec<String>, &str) = match key.split_once(char::is_whitespace)
                {
                    Some((v, u)) if VERBS.contains(&v.to_ascii_uppercase().as_str()) => {
                        (vec![v.to_ascii_uppercase()], u.trim())
                    }
                    Some((v, u)) if v.eq_ignore_ascii_case("all") => {
                        (ANY.iter().map(|s| s.to_string()).collect(), u.trim())
                    }
                    _ => (ANY.iter().map(|s| s.to_string()).collect(), key),
                };
                if !url.starts_with('/') {
                    continue;
                }
                let mut route = Route {
                    line: file.line_of(e.value.start),
                    methods,
                    url: url.to_string(),
                    action: String::new(),
                    reads: Vec::new(),
                };
                if let Some(t) = literal(&code, &e.value) {
                    route.action = identity(&t);
                } else if let Some((p, b)) = e.function.clone() {
                    route.reads = reads_of(&code, p, b);
                } else {
                    let s = code.skip_ws(e.value.start);
                    if bytes.get(s) == Some(&b'{') {
                        let es = object_entries(&code, s);
                        let get = |k: &str| {
                            es.iter()
                                .find(|x| x.key == k)
                                .and_then(|x| literal(&code, &x.value))
                        };
                        route.action = match (get("controller"), get("action")) {
                            (Some(c), Some(a)) => identity(&format!("{c}.{a}")),
                            (None, Some(a)) => identity(&a),
                            _ => String::new(),
                        };
                    }
                }
                out.routes.push(route);
            }
        }
    }
    // Actions under api/controllers/.
    if let Some(i) = path.find("api/controllers/") {
        let rel = &path[i + "api/controllers/".len()..];
        let stem = rel.rsplit_once('.').map_or(rel, |(s, _)| s);
        static EXPORTS: OnceLock<Regex> = OnceLock::new();
        let re = EXPORTS.get_or_init(|| {
            crate::js::pattern::regex(r"\bmodule\.exports\s*=\s*\{")
                .unwrap_or_else(crate::js::pattern::never)
        });
        if let Some(m) = re.find_iter(text).find(|m| code.is_code(m.start())) {
            let entries = object_entries(&code, m.end() - 1);
            let inputs = entries.iter().find(|e| e.key == "inputs");
            let fnx = entries.iter().find(|e| e.key == "fn");
            if inputs.is_some() || fnx.is_some() {
                // Actions2: one action per file.
                let mut reads: Vec<Read> = Vec::new();
                if let Some(e) = inputs {
                    let s = code.skip_ws(e.value.start);
                    if bytes.get(s) == Some(&b'{') {
                        for x in object_entries(&code, s) {
                            reads.push(Read::Input(x.key));
                        }
                    }
                }
                out.actions.push((identity(stem), reads));
            } else {
                let ctrl = stem.strip_suffix("Controller").unwrap_or(stem);
                for e in entries {
                    if let Some((p, b)) = e.function.clone() {
                        out.actions.push((
                            identity(&format!("{ctrl}.{}", e.key)),
                            reads_of(&code, p, b),
                        ));
                    }
                }
            }
        }
    }
    out
}

impl Analyzer for Sails {
    fn tech(&self) -> Tech {
        Tech::new("js_sails", "JavaScript", "Sails.js")
            .aliases(["sails", "sailsjs", "js-sails"])
            .files(JS_FILES)
            .detect(Detect::files(["*.js", "*.json"]).regex([
                r#"require\(\s*['"]sails['"]\s*\)"#,
                r#""sails"\s*:"#,
                r"\bmodule\.exports\.routes\s*=",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan(file);
        if !module.routes.is_empty() || !module.actions.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<SailsModule> = facts.all();
        let mut out = Vec::new();
        for m in &modules {
            // Actions of the same app (the tree above `config/` and
            // `api/controllers/`).
            let root = m.path.rsplit_once("config/").map_or("", |(r, _)| r);
            for r in &m.routes {
                let mut reads: Vec<&Read> = r.reads.iter().collect();
                if !r.action.is_empty() {
                    if let Some((_, rs)) = modules
                        .iter()
                        .filter(|x| {
                            x.path
                                .rsplit_once("api/controllers/")
                                .is_some_and(|(r, _)| r == root)
                        })
                        .flat_map(|x| x.actions.iter())
                        .find(|(id, _)| *id == r.action)
                    {
                        reads.extend(rs.iter());
                    }
                }
                for method in &r.methods {
                    let kind = match method.as_str() {
                        "GET" | "HEAD" | "DELETE" | "OPTIONS" => ParamKind::Query,
                        _ => ParamKind::Json,
                    };
                    let params = reads.iter().map(|x| match x {
                        Read::Input(n) => Param::new(kind, n.clone()),
                        Read::Direct(p) => p.clone(),
                    });
                    out.push(
                        Endpoint::new(method, r.url.clone())
                            .params(params)
                            .at_path(m.path.clone(), r.line),
                    );
                }
            }
        }
        Ok(out)
    }
}
