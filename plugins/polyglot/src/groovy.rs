//! Groovy: Grails (`groovy_grails`).
//!
//! `UrlMappings.groovy`: `"/api/books/$id"(controller: 'book', action:
//! 'show', method: 'GET')`, verb forms `get "/x"(controller: …, action: …)`,
//! `"/books"(resources: 'book')` (the REST actions), `"/x"(controller:
//! 'c') { action = [GET: 'list', POST: 'save'] }` and `group "/api", { … }`
//! prefixes. With the default `"/$controller/$action?/$id?(.$format)?"`
//! mapping (or without mappings), every public action of every controller
//! (`grails-app/controllers/**/BookController.groovy`) is also
//! `/book/<action>` (`/book` for `index`), with the method from `static
//! allowedMethods = [save: "POST"]` (GET otherwise). `$name` URL
//! variables become `{name}`.
//!
//! Parameters (from the action): `params.x`/`params.int('x')`/`params['x']`
//! and simple-typed action arguments query on GET, form otherwise;
//! `request.JSON.x` json; `request.getHeader('X')` header.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, next_brace, reads, Kind, Read, DART};

const READS: &[Read] = &[
    ("request.JSON.", Kind::Fixed(ParamKind::Json)),
    ("request.JSON[", Kind::Fixed(ParamKind::Json)),
    ("request.getHeader(", Kind::Fixed(ParamKind::Header)),
    ("params.int(", Kind::QueryOrForm),
    ("params.long(", Kind::QueryOrForm),
    ("params.boolean(", Kind::QueryOrForm),
    ("params.list(", Kind::QueryOrForm),
    ("params.", Kind::QueryOrForm),
    ("params[", Kind::QueryOrForm),
];

const SIMPLE: &[&str] = &[
    "String",
    "Integer",
    "int",
    "Long",
    "long",
    "Boolean",
    "boolean",
    "Double",
    "double",
    "Float",
    "BigDecimal",
    "Date",
    "def",
];

#[derive(Serialize, Deserialize, Default)]
struct GFile {
    path: String,
    /// (method, url, controller, action, line)
    routes: Vec<(String, String, String, String, u32)>,
    conventions: bool,
    /// controller → [(action, allowed method, line, reads GET, reads POST)]
    actions: Vec<(String, String, String, u32, Vec<Param>, Vec<Param>)>,
    has_mappings: bool,
}

fn url_of(s: &str) -> String {
    let s = s.split("(.$format)").next().unwrap_or(s);
    s.split('/')
        .map(|seg| match seg.strip_prefix('$') {
            Some(n) => format!("{{{}}}", n.trim_end_matches('?').trim_matches(['{', '}'])),
            None => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn mappings(file: &SourceFile, f: &mut GFile) {
    let code = file.code(DART);
    let text = code.text();
    f.has_mappings = true;
    let mut groups: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for at in code.find_word("group") {
        let Some(lit) = code.string_at(at + 5) else {
            continue;
        };
        let Some(open) = next_brace(&code, lit.end, b";") else {
            continue;
        };
        groups.push((common::block(&code, open), lit.value));
    }
    for lit in code.strings() {
        if !lit.value.starts_with('/') {
            continue;
        }
        let after = code.skip_ws(lit.end);
        let bytes = text.as_bytes();
        if lit.value.contains("$controller") {
            f.conventions = true;
            continue;
        }
        // A verb before the string: get "/x"(…)
        let before = text[..lit.start].trim_end();
        let verb = code
            .ident_before(before.len())
            .and_then(method_of)
            .filter(|_| !before.ends_with(','));
        if text[..lit.start].trim_end().ends_with("group") {
            continue;
        }
        let prefix: Vec<&str> = groups
            .iter()
            .filter(|(r, _)| r.start < lit.start && lit.start < r.end)
            .map(|(_, p)| p.as_str())
            .collect();
        let mut parts = prefix.clone();
        let own = url_of(&lit.value);
        parts.push(&own);
        let url = join_url(&parts);
        let line = file.line_of(lit.start);
        let mut kw: HashMap<&str, String> = HashMap::new();
        let mut end = after;
        if bytes.get(after) == Some(&b'(') {
            for a in code.args(after) {
                if let Some((k, v)) = code.keyword_arg(a) {
                    if let Some(s) = code.string_at(v.start) {
                        kw.insert(k, s.value);
                    }
                }
            }
            end = code.matching(after).unwrap_or(after) + 1;
        }
        if let Some(res) = kw.get("resources").or_else(|| kw.get("resource")) {
            for (m, suffix, action) in [
                ("GET", "", "index"),
                ("GET", "/create", "create"),
                ("POST", "", "save"),
                ("GET", "/{id}", "show"),
                ("GET", "/{id}/edit", "edit"),
                ("PUT", "/{id}", "update"),
                ("PATCH", "/{id}", "patch"),
                ("DELETE", "/{id}", "delete"),
            ] {
                f.routes.push((
                    m.into(),
                    format!("{url}{suffix}"),
                    res.clone(),
                    action.into(),
                    line,
                ));
            }
            continue;
        }
        let Some(ctrl) = kw.get("controller").cloned() else {
            if kw.contains_key("view") || kw.contains_key("uri") || kw.contains_key("redirect") {
                f.routes
                    .push(("GET".into(), url, String::new(), String::new(), line));
            }
            continue;
        };
        // { action = [GET: 'list', POST: 'save'] }
        let close_brace = next_brace(&code, end, b"\n\"").filter(|&b| code.skip_ws(end) == b);
        if let Some(ob) = close_brace {
            let block = common::block(&code, ob);
            let body = &text[block.clone()];
            if let Some(i) = body.find("action") {
                if let Some(o) = body[i..].find('[') {
                    for a in code.args(block.start + i + o) {
                        if let Some((k, v)) = code.keyword_arg(a) {
                            if let (Some(m), Some(s)) = (method_of(k), code.string_at(v.start)) {
                                f.routes
                                    .push((m.into(), url.clone(), ctrl.clone(), s.value, line));
                            }
                        }
                    }
                    continue;
                }
            }
        }
        let m = kw
            .get("method")
            .and_then(|m| method_of(m))
            .or(verb)
            .unwrap_or("GET");
        let action = kw.get("action").cloned().unwrap_or_else(|| "index".into());
        f.routes.push((m.into(), url, ctrl, action, line));
    }
}

fn controller(file: &SourceFile, f: &mut GFile) {
    let name = file.path.rsplit('/').next().unwrap_or("");
    let Some(stem) = name.strip_suffix("Controller.groovy") else {
        return;
    };
    let mut ctrl = stem.to_string();
    if let Some(c) = ctrl.get(..1) {
        ctrl = c.to_ascii_lowercase() + &ctrl[1..];
    }
    let code = file.code(DART);
    let text = code.text();
    let mut allowed: HashMap<String, String> = HashMap::new();
    if let Some(i) = text.find("allowedMethods") {
        if let Some(o) = text[i..].find('[') {
            for a in code.args(i + o) {
                if let Some((k, v)) = code.keyword_arg(a) {
                    if let Some(s) = code.string_at(v.start) {
                        allowed.insert(k.to_string(), s.value);
                    }
                }
            }
        }
    }
    // def name(args) { … } / public def name() / Object name()
    for at in code.find_word("def").chain(code.find_word("public")) {
        let mut p = code.skip_ws(at + 3);
        if text[at..].starts_with("public") {
            p = code.skip_ws(at + 6);
            if text[p..].starts_with("def") {
                p = code.skip_ws(p + 3);
            } else if let Some(ty) = code.ident_at(p) {
                p = code.skip_ws(p + ty.len());
            }
        }
        let Some(name) = code.ident_at(p) else {
            continue;
        };
        let open = code.skip_ws(p + name.len());
        if text.as_bytes().get(open) != Some(&b'(') {
            continue;
        }
        let Some(close) = code.matching(open) else {
            continue;
        };
        let Some(bo) = next_brace(&code, close, b";=") else {
            continue;
        };
        if text.as_bytes().get(code.skip_ws(close + 1)) != Some(&b'{') {
            continue;
        }
        let body = common::block(&code, bo);
        let method = allowed
            .get(name)
            .and_then(|m| method_of(m.split(',').next().unwrap_or(m).trim()))
            .unwrap_or("GET")
            .to_string();
        let mut get = Vec::new();
        let mut post = Vec::new();
        for a in code.args(open) {
            let s = code.slice(a);
            let mut w = s.split_whitespace();
            let (Some(ty), Some(n)) = (w.next(), w.next()) else {
                continue;
            };
            if SIMPLE.contains(&ty) {
                get.push(Param::query(n));
                post.push(Param::form(n));
            }
        }
        get.extend(reads(&code, body.clone(), READS, "GET"));
        post.extend(reads(&code, body, READS, "POST"));
        f.actions.push((
            ctrl.clone(),
            name.to_string(),
            method,
            file.line_of(at),
            get,
            post,
        ));
    }
}

pub struct Grails;

impl Analyzer for Grails {
    fn tech(&self) -> Tech {
        Tech::new("groovy_grails", "Groovy", "Grails")
            .aliases(["grails", "groovy-grails"])
            .files(["*.groovy"])
            .detect(Detect::files(["build.gradle", "gradle.properties"]).contains(["grails"]))
            .detect(Detect::files(["UrlMappings.groovy"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path)
            || file.path.contains("/src/test/")
            || file.path.contains("/src/integration-test/")
        {
            return;
        }
        let mut f = GFile {
            path: file.path.clone(),
            ..GFile::default()
        };
        if file.path.ends_with("UrlMappings.groovy") {
            mappings(file, &mut f);
        } else if file.path.ends_with("Controller.groovy") {
            controller(file, &mut f);
        } else {
            return;
        }
        out.fact(&f);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<GFile> = facts.all();
        let mut actions: HashMap<(&str, &str), (&str, &str, u32, &Vec<Param>, &Vec<Param>)> =
            HashMap::new();
        for f in &files {
            for (c, a, m, line, g, p) in &f.actions {
                actions.insert(
                    (c.as_str(), a.as_str()),
                    (f.path.as_str(), m.as_str(), *line, g, p),
                );
            }
        }
        let conventions =
            files.iter().any(|f| f.conventions) || !files.iter().any(|f| f.has_mappings);
        let mut out = Vec::new();
        for f in &files {
            for (m, url, c, a, line) in &f.routes {
                let mut e = Endpoint::new(m, url).at_path(&f.path, *line);
                if let Some((_, _, _, g, p)) = actions.get(&(c.as_str(), a.as_str())) {
                    let ps = if matches!(m.as_str(), "GET" | "HEAD" | "DELETE") {
                        g
                    } else {
                        p
                    };
                    let holes = portolan_plugin_sdk::urls::path_placeholders(url);
                    for p in ps.iter().filter(|p| !holes.contains(&p.name)) {
                        if !e.params.contains(p) {
                            e.push_param(p.clone());
                        }
                    }
                }
                out.push(e);
            }
        }
        if conventions {
            for f in &files {
                for (c, a, m, line, g, p) in &f.actions {
                    let url = if a == "index" {
                        format!("/{c}")
                    } else {
                        format!("/{c}/{a}")
                    };
                    let ps = if m == "GET" { g } else { p };
                    let ps: Vec<Param> = ps.iter().filter(|p| p.name != "id").cloned().collect();
                    let url = if g.iter().any(|p| p.name == "id") {
                        format!("{url}/{{id}}")
                    } else {
                        url
                    };
                    out.push(common::endpoint(
                        m,
                        &url,
                        &SourceFile::new(f.path.clone(), ""),
                        *line,
                        ps,
                    ));
                }
            }
        }
        Ok(out)
    }
}
