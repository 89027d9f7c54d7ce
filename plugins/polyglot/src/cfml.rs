//! CFML: ColdFusion pages (`cfml_pure`), Taffy (`cfml_taffy`), ColdBox
//! (`cfml_coldbox`), FW/1 (`cfml_fw1`) and Wheels (`cfml_wheels`).
//!
//! - Pages: every `.cfm` (outside `views/`, `layouts/` and framework
//!   folders) at its path below the document root, GET, and POST when it
//!   reads `form.`; `remote` functions of a `.cfc` are `GET
//!   /path/Comp.cfc?method=name` with their arguments as query parameters.
//! - Taffy: `component extends="taffy.core.resource" taffy_uri="/artists/{id}"`
//!   (or `taffy:uri`, tag syntax too): its `get`/`post`/`put`/`patch`/
//!   `delete` functions are the methods, their arguments (not in the URI)
//!   query on GET, form otherwise.
//! - ColdBox: `config/Router.cfc`: `route("/x").to("handler.action")`,
//!   `route("/x").withAction({GET: "show", PUT: "update"}).toHandler("h")`,
//!   `.withVerbs("POST")`, `get/post/put/patch/delete("/x").to(…)`,
//!   `resources("photos")`, `group({prefix: "/api"}, function(){ … })`;
//!   parameters from the handler action (`handlers/<h>.cfc`): `rc.x`,
//!   `event.getValue("x")`.
//! - FW/1: `variables.framework.routes` entries `{ "$GET/product/:id" =
//!   "/product/view/id/:id" }` and, for every controller
//!   (`controllers/<c>.cfc`), its public functions at `/<c>/<f>`
//!   (`default` also at `/<c>`); parameters `rc.x`.
//! - Wheels: `config/routes.cfm` `mapper().get(name="x", pattern="/x",
//!   to="c##a")…resources("users")…namespace("admin")…end()`; parameters
//!   `params.x` in the controller action.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{
    self, join_url, link_pages, method_of, next_brace, reads, Kind, Page, Read, ANY,
};

const CFML: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: &[("<!---", "--->"), ("/*", "*/")],
    ..common::DART
};

const fn k(n: &'static str, kind: ParamKind) -> Read {
    (n, Kind::Fixed(kind))
}

const PAGE_READS: &[Read] = &[
    k("url.", ParamKind::Query),
    k("URL.", ParamKind::Query),
    k("Url.", ParamKind::Query),
    k("form.", ParamKind::Form),
    k("FORM.", ParamKind::Form),
    k("Form.", ParamKind::Form),
    k("cookie.", ParamKind::Cookie),
    k("COOKIE.", ParamKind::Cookie),
    k("Cookie.", ParamKind::Cookie),
    k("url[", ParamKind::Query),
    k("form[", ParamKind::Form),
];

const RC_READS: &[Read] = &[
    ("rc.", Kind::QueryOrForm),
    ("rc[", Kind::QueryOrForm),
    ("event.getValue(", Kind::QueryOrForm),
    ("arguments.rc.", Kind::QueryOrForm),
    ("params.", Kind::QueryOrForm),
    ("params[", Kind::QueryOrForm),
];

/// `cgi.http_x_token` → header `X-Token`.
fn cgi_headers(src: &str, e: &mut Endpoint) {
    let lower = src.to_ascii_lowercase();
    for (i, _) in lower.match_indices("cgi.http_") {
        let rest = &lower[i + 9..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = rest[..end]
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("-");
        if !name.is_empty() {
            let p = Param::header(name);
            if !e.params.contains(&p) {
                e.push_param(p);
            }
        }
    }
}

fn cf_tech(id: &str, name: &str, aliases: &[&str]) -> Tech {
    Tech::new(id, "CFML", name)
        .aliases(aliases.iter().copied())
        .files(["*.cfc", "*.cfm"])
        .supports(Supports::HTTP)
}

/// Functions of a component: (name, access, arguments, body, offset).
struct CfFn {
    name: String,
    access: String,
    args: Vec<String>,
    body: std::ops::Range<usize>,
    at: usize,
}

fn functions(code: &Code) -> Vec<CfFn> {
    let text = code.text();
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    // Script syntax: [access] [type] function name(args) { … }
    for at in code.find_word("function") {
        let p = code.skip_ws(at + 8);
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
        let Some(bo) = next_brace(code, close, b";") else {
            continue;
        };
        let line_start = portolan_plugin_sdk::text::line_start_of(text, at);
        let head = lower[line_start..at].to_string();
        let access = ["remote", "public", "private", "package"]
            .iter()
            .find(|a| head.contains(*a))
            .map_or("public", |a| a)
            .to_string();
        let args = code
            .args(open)
            .into_iter()
            .filter_map(|a| {
                let s = code.slice(a);
                let s = s.split('=').next().unwrap_or("").trim();
                s.split_whitespace().last().map(str::to_string)
            })
            .filter(|s| {
                !matches!(
                    s.to_ascii_lowercase().as_str(),
                    "event" | "rc" | "prc" | "required"
                )
            })
            .collect();
        out.push(CfFn {
            name: name.to_string(),
            access,
            args,
            body: common::block(code, bo),
            at,
        });
    }
    // Tag syntax: <cffunction name="x" access="remote"> … </cffunction>
    for (at, _) in lower.match_indices("<cffunction") {
        let tag_end = lower[at..].find('>').map_or(lower.len(), |i| at + i);
        let tag = &text[at..tag_end];
        let attr = |n: &str| -> Option<String> {
            let l = tag.to_ascii_lowercase();
            let i = l.find(&format!("{n}="))?;
            let rest = &tag[i + n.len() + 1..];
            let q = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
            let rest = &rest[1..];
            rest.find(q).map(|j| rest[..j].to_string())
        };
        let Some(name) = attr("name") else { continue };
        let end = lower[at..]
            .find("</cffunction")
            .map_or(lower.len(), |i| at + i);
        let mut args = Vec::new();
        for (a, _) in lower[at..end].match_indices("<cfargument") {
            let a = at + a;
            let t_end = lower[a..].find('>').map_or(end, |i| a + i);
            let t = &text[a..t_end];
            if let Some(i) = t.to_ascii_lowercase().find("name=") {
                let rest = &t[i + 5..];
                if let Some(q) = rest.chars().next().filter(|q| *q == '"' || *q == '\'') {
                    if let Some(j) = rest[1..].find(q) {
                        args.push(rest[1..1 + j].to_string());
                    }
                }
            }
        }
        out.push(CfFn {
            name,
            access: attr("access")
                .unwrap_or_else(|| "public".into())
                .to_ascii_lowercase(),
            args,
            body: tag_end..end,
            at,
        });
    }
    out
}

fn by_method(m: &str) -> ParamKind {
    if matches!(m, "GET" | "HEAD" | "DELETE") {
        ParamKind::Query
    } else {
        ParamKind::Form
    }
}

fn framework_file(path: &str) -> bool {
    let l = path.to_ascii_lowercase();
    [
        "/views/",
        "/layouts/",
        "/coldbox/",
        "/testbox/",
        "/wheels/",
        "/framework/",
        "/taffy/",
        "/modules/",
        "/includes/",
        "/config/",
        "/handlers/",
        "/controllers/",
        "/models/",
        "/interceptors/",
    ]
    .iter()
    .any(|d| l.contains(d) || l.starts_with(&d[1..]))
}

pub struct Pure;

impl Analyzer for Pure {
    fn tech(&self) -> Tech {
        cf_tech(
            "cfml_pure",
            "ColdFusion (CFML)",
            &["cfml", "coldfusion", "cfml-pure"],
        )
        .detect(Detect::files(["*.cfm"]))
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || framework_file(&file.path) {
            return;
        }
        let code = file.code(CFML);
        let all = 0..file.content.len();
        let lower = file.path.to_ascii_lowercase();
        let mut page = Page {
            path: file.path.clone(),
            endpoints: Vec::new(),
        };
        if lower.ends_with(".cfc") {
            for f in functions(&code)
                .into_iter()
                .filter(|f| f.access == "remote")
            {
                let mut e = Endpoint::new("GET", format!("?method={}", f.name))
                    .at(file, file.line_of(f.at));
                for a in &f.args {
                    e.push_param(Param::query(a));
                }
                page.endpoints.push(e);
            }
        } else {
            let posts = file.content.to_ascii_lowercase().contains("form.");
            let mut methods = vec!["GET"];
            if posts {
                methods.push("POST");
            }
            for m in methods {
                let ps: Vec<Param> = reads(&code, all.clone(), PAGE_READS, m)
                    .into_iter()
                    .filter(|p| m != "GET" || p.kind != ParamKind::Form)
                    .collect();
                let mut e = common::endpoint(m, "", file, 1, ps);
                cgi_headers(&file.content, &mut e);
                page.endpoints.push(e);
            }
        }
        if !page.endpoints.is_empty() {
            out.fact(&page);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_pages(facts.all()))
    }
}

pub struct Taffy;

impl Analyzer for Taffy {
    fn tech(&self) -> Tech {
        cf_tech("cfml_taffy", "Taffy", &["taffy", "cfml-taffy"]).detect(
            Detect::files(["*.cfc"]).contains([
                "taffy.core.resource",
                "taffy.core.api",
                "taffy_uri",
                "taffy:uri",
            ]),
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.path.to_ascii_lowercase().ends_with(".cfc") {
            return;
        }
        let lower = file.content.to_ascii_lowercase();
        let Some(i) = lower.find("taffy_uri").or_else(|| lower.find("taffy:uri")) else {
            return;
        };
        let code = file.code(CFML);
        let Some(uri) = code.string_at(i + 10) else {
            return;
        };
        for f in functions(&code) {
            let Some(m) = method_of(&f.name) else {
                continue;
            };
            let mut ps: Vec<Param> = f.args.iter().map(|a| Param::new(by_method(m), a)).collect();
            ps.extend(reads(&code, f.body.clone(), PAGE_READS, m));
            out.endpoint(common::endpoint(
                m,
                &uri.value,
                file,
                file.line_of(f.at),
                ps,
            ));
        }
    }
}

/// A controller/handler file's actions: (controller, action, reads on GET, on POST).
#[derive(Serialize, Deserialize, Default)]
struct CfFile {
    path: String,
    routes: Vec<(String, String, String, u32)>,
    actions: Vec<(String, String, u32, Vec<Param>, Vec<Param>)>,
}

/// The controller name of a file in `dir/` (`handlers/api/Users.cfc` → `api.users`).
fn controller_of(path: &str, dir: &str) -> Option<String> {
    let l = path.replace('\\', "/");
    let i = l.find(&format!("{dir}/"))?;
    let rest = l[i + dir.len() + 1..].strip_suffix(".cfc")?;
    Some(rest.replace('/', ".").to_ascii_lowercase())
}

fn actions(file: &SourceFile, dir: &str, reads_table: &[Read], f: &mut CfFile) {
    let Some(ctrl) = controller_of(&file.path, dir) else {
        return;
    };
    let code = file.code(CFML);
    for func in functions(&code) {
        if func.access == "private"
            || func.name.starts_with("pre") && func.name.len() > 3
            || func.name.starts_with("post") && func.name.len() > 4
            || matches!(
                func.name.as_str(),
                "init" | "config" | "before" | "after" | "onMissingMethod" | "onError"
            )
        {
            continue;
        }
        f.actions.push((
            ctrl.clone(),
            func.name.to_ascii_lowercase(),
            file.line_of(func.at),
            reads(&code, func.body.clone(), reads_table, "GET"),
            reads(&code, func.body.clone(), reads_table, "POST"),
        ));
    }
}

fn link_routes(files: Vec<CfFile>, conventions: bool) -> Vec<Endpoint> {
    let mut acts: HashMap<(String, String), (&str, u32, &Vec<Param>, &Vec<Param>)> = HashMap::new();
    for f in &files {
        for (c, a, line, g, p) in &f.actions {
            acts.insert((c.clone(), a.clone()), (&f.path, *line, g, p));
        }
    }
    let mut out = Vec::new();
    let mut routed = std::collections::HashSet::new();
    for f in &files {
        for (m, url, target, line) in &f.routes {
            let (c, a) = target.rsplit_once('.').map_or(
                (target.to_ascii_lowercase(), "index".to_string()),
                |(c, a)| (c.to_ascii_lowercase(), a.to_ascii_lowercase()),
            );
            let mut e = Endpoint::new(m, url).at_path(&f.path, *line);
            if let Some((_, _, g, p)) = acts.get(&(c.clone(), a.clone())) {
                routed.insert((c, a));
                let ps = if matches!(m.as_str(), "GET" | "HEAD" | "DELETE") {
                    g
                } else {
                    p
                };
                let holes = portolan_plugin_sdk::urls::path_placeholders(url);
                for p in ps.iter().filter(|p| !holes.contains(&p.name)) {
                    e.push_param(p.clone());
                }
            }
            out.push(e);
        }
    }
    if conventions {
        for ((c, a), (path, line, g, _)) in &acts {
            if routed.contains(&(c.clone(), a.clone())) {
                continue;
            }
            let ctrl = c.replace('.', "/");
            let url = if a == "default" || a == "index" {
                format!("/{ctrl}")
            } else {
                format!("/{ctrl}/{a}")
            };
            out.push(
                Endpoint::new("GET", url)
                    .at_path(*path, *line)
                    .params((*g).clone()),
            );
        }
    }
    out
}

pub struct ColdBox;

impl Analyzer for ColdBox {
    fn tech(&self) -> Tech {
        cf_tech("cfml_coldbox", "ColdBox", &["coldbox", "cfml-coldbox"])
            .detect(Detect::files(["box.json"]).contains(["coldbox"]))
            .detect(Detect::files(["*.cfc"]).contains(["coldbox.system"]))
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let mut f = CfFile {
            path: file.path.clone(),
            ..CfFile::default()
        };
        let name = file.path.rsplit('/').next().unwrap_or("");
        if name.eq_ignore_ascii_case("Router.cfc") {
            coldbox_router(file, &mut f);
        } else {
            actions(file, "handlers", RC_READS, &mut f);
        }
        if !f.routes.is_empty() || !f.actions.is_empty() {
            out.fact(&f);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_routes(facts.all(), true))
    }
}

fn coldbox_router(file: &SourceFile, f: &mut CfFile) {
    let code = file.code(CFML);
    let text = code.text();
    // group({ prefix: "/api" }, function(options){ … })
    let mut groups: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for at in code.find_word("group") {
        let open = code.skip_ws(at + 5);
        let args = code.args(open);
        let Some(first) = args.first() else { continue };
        let s = code.slice(first.clone());
        let Some(i) = s.find("prefix") else { continue };
        let Some(lit) = code
            .string_at(first.start + i + 7)
            .or_else(|| code.string_at(first.start + i + 8))
        else {
            continue;
        };
        let end = code.matching(open).unwrap_or(text.len());
        groups.push((open..end, lit.value));
    }
    let prefix_at = |at: usize| -> String {
        let parts: Vec<&str> = groups
            .iter()
            .filter(|(r, _)| r.start < at && at < r.end)
            .map(|(_, p)| p.as_str())
            .collect();
        join_url(&parts)
    };
    let verbs = [
        "route",
        "get",
        "post",
        "put",
        "patch",
        "delete",
        "resources",
    ];
    for c in common::verb_calls(&code, &verbs, &[], true) {
        let Some(open) = c.paren else { continue };
        let close = code.matching(open).unwrap_or(c.after);
        let stmt_end = text[close..].find(';').map_or(text.len(), |i| close + i);
        let chain = &text[close..stmt_end];
        let prefix = prefix_at(c.at);
        let line = file.line_of(c.at);
        if c.verb == "resources" {
            let res = c.path.trim_matches('/').to_string();
            let base = join_url(&[&prefix, &res]);
            for (m, suffix, action) in [
                ("GET", "", "index"),
                ("GET", "/new", "new"),
                ("POST", "", "create"),
                ("GET", "/:id", "show"),
                ("GET", "/:id/edit", "edit"),
                ("PUT", "/:id", "update"),
                ("PATCH", "/:id", "update"),
                ("DELETE", "/:id", "delete"),
            ] {
                f.routes.push((
                    m.into(),
                    format!("{base}{suffix}"),
                    format!("{res}.{action}"),
                    line,
                ));
            }
            continue;
        }
        if c.path.contains(":handler") {
            // The convention route: actions are reported at /handler/action.
            continue;
        }
        let url = join_url(&[&prefix, &c.path]);
        let arg_str = |needle: &str| -> Option<String> {
            let i = chain.find(needle)?;
            code.string_at(close + i + needle.len()).map(|l| l.value)
        };
        let target = arg_str(".to(").or_else(|| {
            code.args(open)
                .get(1)
                .and_then(|a| code.string_at(a.start))
                .map(|l| l.value)
        });
        if let Some(i) = chain.find(".withAction(") {
            let ao = close + i + 11;
            let handler = arg_str(".toHandler(").unwrap_or_default();
            if let Some(bo) = next_brace(&code, ao, b")") {
                for a in code.args(bo) {
                    let s = code.slice(a.clone());
                    let Some((k, _)) = s.split_once([':', '=']) else {
                        continue;
                    };
                    let Some(m) = method_of(k.trim().trim_matches(['"', '\''])) else {
                        continue;
                    };
                    let action = s
                        .split_once([':', '='])
                        .and_then(|(_, v)| {
                            let v = v.trim().trim_matches(['"', '\'']);
                            (!v.is_empty()).then(|| v.to_string())
                        })
                        .unwrap_or_default();
                    f.routes
                        .push((m.into(), url.clone(), format!("{handler}.{action}"), line));
                }
            }
            continue;
        }
        let methods: Vec<&str> = if c.verb == "route" {
            match arg_str(".withVerbs(") {
                Some(v) => v.split(',').filter_map(|m| method_of(m.trim())).collect(),
                None => vec!["GET"],
            }
        } else {
            vec![method_of(&c.verb).unwrap_or("GET")]
        };
        for m in methods {
            f.routes.push((
                m.into(),
                url.clone(),
                target.clone().unwrap_or_default(),
                line,
            ));
        }
    }
}

pub struct Fw1;

impl Analyzer for Fw1 {
    fn tech(&self) -> Tech {
        cf_tech(
            "cfml_fw1",
            "FW/1",
            &["fw1", "fw/1", "framework-one", "cfml-fw1"],
        )
        .detect(Detect::files(["Application.cfc", "box.json"]).contains(["framework.one", "fw1"]))
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let mut f = CfFile {
            path: file.path.clone(),
            ..CfFile::default()
        };
        if file.content.contains("routes") && file.content.contains("\"$") {
            let code = file.code(CFML);
            for lit in code.strings() {
                let Some(rest) = lit.value.strip_prefix('$') else {
                    continue;
                };
                let (m, path) = match rest.find('/') {
                    Some(i) => (&rest[..i], &rest[i..]),
                    None => continue,
                };
                let methods: Vec<&str> = if m == "*" || m.is_empty() {
                    vec!["GET"]
                } else {
                    method_of(m).into_iter().collect()
                };
                // The target: the next string after `=`.
                let target = code
                    .string_at(code.skip_ws(lit.end) + 1)
                    .map(|t| t.value)
                    .unwrap_or_default();
                let t: Vec<&str> = target.trim_start_matches('/').split('/').collect();
                let tgt = format!(
                    "{}.{}",
                    t.first().unwrap_or(&""),
                    t.get(1).unwrap_or(&"default")
                );
                for m in methods {
                    f.routes.push((
                        m.into(),
                        path.to_string(),
                        tgt.clone(),
                        file.line_of(lit.start),
                    ));
                }
            }
        }
        actions(file, "controllers", RC_READS, &mut f);
        if !f.routes.is_empty() || !f.actions.is_empty() {
            out.fact(&f);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_routes(facts.all(), true))
    }
}

pub struct Wheels;

impl Analyzer for Wheels {
    fn tech(&self) -> Tech {
        cf_tech(
            "cfml_wheels",
            "Wheels",
            &["wheels", "cfwheels", "cfml-wheels"],
        )
        .detect(Detect::files(["box.json"]).contains(["wheels"]))
        .detect(Detect::files(["routes.cfm"]).contains(["mapper()"]))
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let mut f = CfFile {
            path: file.path.clone(),
            ..CfFile::default()
        };
        if file.path.ends_with("routes.cfm") {
            wheels_routes(file, &mut f);
        } else {
            actions(file, "controllers", RC_READS, &mut f);
        }
        if !f.routes.is_empty() || !f.actions.is_empty() {
            out.fact(&f);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_routes(facts.all(), false))
    }
}

fn wheels_routes(file: &SourceFile, f: &mut CfFile) {
    wheels_chain(file, f);
    for r in &mut f.routes {
        // Wheels writes variables `[key]`.
        r.1 = r.1.replace('[', "{").replace(']', "}");
    }
}

fn wheels_chain(file: &SourceFile, f: &mut CfFile) {
    let code = file.code(CFML);
    let text = code.text();
    // Walk the chain: .verb(…) calls in order, `namespace`/`scope` push a
    // prefix until the matching `.end()`.
    let mut stack: Vec<String> = Vec::new();
    let mut i = 0;
    let b = text.as_bytes();
    while let Some(k) = text[i..].find('.') {
        let at = i + k;
        i = at + 1;
        if !code.is_code(at) {
            continue;
        }
        let Some(name) = code.ident_at(at + 1) else {
            continue;
        };
        let open = at + 1 + name.len();
        if b.get(open) != Some(&b'(') {
            continue;
        }
        let args = code.args(open);
        let kw = |k: &str| -> Option<String> {
            args.iter().find_map(|a| {
                let (n, v) = code.keyword_arg(a.clone())?;
                (n == k)
                    .then(|| code.string_at(v.start).map(|l| l.value))
                    .flatten()
            })
        };
        let first = args
            .first()
            .and_then(|a| code.string_at(a.start).filter(|l| l.start == a.start))
            .map(|l| l.value);
        let prefix = join_url(&stack.iter().map(String::as_str).collect::<Vec<_>>());
        let line = file.line_of(at);
        match name {
            "namespace" | "scope" => {
                let p = kw("path")
                    .or(first.clone())
                    .or_else(|| kw("name"))
                    .unwrap_or_default();
                stack.push(p);
            }
            "end" => {
                stack.pop();
            }
            "resources" | "resource" => {
                let res = first.or_else(|| kw("name")).unwrap_or_default();
                let base = join_url(&[&prefix, &res]);
                let ctrl = res.clone();
                let member = if name == "resources" { "/[key]" } else { "" };
                for (m, suffix, action) in [
                    ("GET", "", "index"),
                    ("GET", "/new", "new"),
                    ("POST", "", "create"),
                    ("GET", member, "show"),
                    ("GET", "/edit", "edit"),
                    ("PATCH", member, "update"),
                    ("PUT", member, "update"),
                    ("DELETE", member, "delete"),
                ] {
                    let suffix = if action == "edit" {
                        format!("{member}/edit")
                    } else {
                        suffix.to_string()
                    };
                    if name == "resource" && action == "index" {
                        continue;
                    }
                    f.routes.push((
                        m.into(),
                        format!("{base}{suffix}"),
                        format!("{ctrl}.{action}"),
                        line,
                    ));
                }
            }
            "root" => {
                let to = kw("to").unwrap_or_default();
                f.routes.push((
                    "GET".into(),
                    join_url(&[&prefix]),
                    to.replace("##", "."),
                    line,
                ));
            }
            v => {
                let Some(m) = method_of(v) else { continue };
                let Some(pattern) = kw("pattern").or(first) else {
                    continue;
                };
                let to = kw("to")
                    .map(|t| t.replace("##", "."))
                    .or_else(|| Some(format!("{}.{}", kw("controller")?, kw("action")?)))
                    .unwrap_or_default();
                f.routes
                    .push((m.into(), join_url(&[&prefix, &pattern]), to, line));
            }
        }
    }
    let _ = ANY;
}
