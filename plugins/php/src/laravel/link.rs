//! Link step: interpret route chains from the entry points, following
//! included route files, and attach controller parameters.

use std::collections::{BTreeMap, BTreeSet};

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{guard, ContextEntry};

use super::scan::Fact;
use crate::php::expr::{Chain, Part, Val};
use crate::php::inflect::singularize;
use crate::php::normalize_file;
use crate::php::oa::{BodyLoc, Op, SchemaDef};
use crate::php::outline::{short, Class, PARENT_RULES};
use crate::php::request::{Reads, Where};

#[derive(Clone, Debug, Default)]
struct Group {
    prefix: String,
    controller: Option<String>,
    namespace: String,
    json: bool,
    file: String,
    root: String,
    depth: usize,
    /// Middleware applied to the group/route (aliases, groups or classes).
    middleware: Vec<String>,
    /// The authentication / authorization middleware among them, as
    /// written (`auth:sanctum`, `can:update,post`), located.
    auth: Vec<ContextEntry>,
}

enum Action {
    None,
    Method(String, String),
    Closure(Reads),
}

struct Interp<'a> {
    files: BTreeMap<String, (&'a str, &'a str, &'a [Chain])>,
    classes: Vec<(&'a str, &'a Class)>,
    /// Middleware alias → class, group → members.
    aliases: BTreeMap<&'a str, &'a str>,
    groups: BTreeMap<&'a str, &'a [String]>,
    /// Headers and cookies each middleware (by name) reads.
    guard_cache: BTreeMap<String, Vec<(Where, String)>>,
    /// Controller short name → (file, `$this->middleware(…)` chains).
    controller_middleware: BTreeMap<&'a str, Vec<(&'a str, &'a Chain)>>,
    /// Shared swagger-php parameters: key → (name, in).
    oa_defs: BTreeMap<&'a str, (&'a str, &'a str)>,
    /// Named swagger-php schemas: name → definition.
    oa_schemas: BTreeMap<&'a str, &'a SchemaDef>,
    out: Vec<Endpoint>,
}

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// `lumen`: interpret only the Lumen applications of the tree (and no
/// implicit `api` prefix, JSON bodies); otherwise only the others.
pub fn link(facts: &[Fact], lumen: bool) -> Vec<Endpoint> {
    let lumen_roots: BTreeSet<&str> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Lumen { root } => Some(root.as_str()),
            _ => None,
        })
        .collect();
    let mut it = Interp {
        files: BTreeMap::new(),
        classes: Vec::new(),
        aliases: BTreeMap::new(),
        groups: BTreeMap::new(),
        guard_cache: BTreeMap::new(),
        controller_middleware: BTreeMap::new(),
        oa_defs: BTreeMap::new(),
        oa_schemas: BTreeMap::new(),
        out: Vec::new(),
    };
    let mut entries: Vec<(&str, &str, &[Chain])> = Vec::new();
    for f in facts {
        match f {
            Fact::Routes { root, .. } if lumen_roots.contains(root.as_str()) != lumen => {}
            Fact::Routes {
                path,
                root,
                route_file,
                chains,
            } => {
                if *route_file {
                    it.files.insert(
                        normalize_file(path),
                        (path.as_str(), root.as_str(), chains.as_slice()),
                    );
                } else {
                    entries.push((path, root, chains));
                }
            }
            Fact::Class { root, class } => it.classes.push((root, class)),
            Fact::Lumen { .. } => {}
            Fact::ControllerMiddleware {
                class,
                path,
                chains,
            } => {
                let list = it.controller_middleware.entry(class.as_str()).or_default();
                list.extend(chains.iter().map(|c| (path.as_str(), c)));
            }
            Fact::OaDefs { defs } => {
                // An explicit `parameter=` key wins over a name used as key.
                for d in defs {
                    let e = it
                        .oa_defs
                        .entry(d.key.as_str())
                        .or_insert((d.name.as_str(), d.loc.as_str()));
                    if d.key != d.name {
                        *e = (d.name.as_str(), d.loc.as_str());
                    }
                }
            }
            Fact::OaSchemas { defs } => {
                for d in defs {
                    it.oa_schemas.entry(d.name.as_str()).or_insert(d);
                }
            }
            Fact::Middleware {
                aliases, groups, ..
            } => {
                for (a, c) in aliases {
                    it.aliases.entry(a.as_str()).or_insert(c.as_str());
                }
                for (g, m) in groups {
                    it.groups.entry(g.as_str()).or_insert(m.as_slice());
                }
            }
        }
    }
    // An entry point outside `app/`/`bootstrap/` (a provider in a
    // namespace directory such as `src/Providers/`) takes the root of the
    // route files it sits above: `base_path()` is that root.
    let roots: BTreeSet<&str> = it.files.values().map(|(_, r, _)| *r).collect();
    for e in &mut entries {
        if let Some(r) = roots
            .iter()
            .filter(|r| r.len() > e.1.len() && e.0.starts_with(**r))
            .max_by_key(|r| r.len())
        {
            e.1 = r;
        }
    }
    // Which route files does some chain include?
    let mut referenced = BTreeSet::new();
    for (path, root, chains) in entries.iter().copied().chain(it.files.values().copied()) {
        collect_refs(chains, path, root, &mut referenced);
    }
    for (path, root, chains) in entries {
        let g = Group {
            json: lumen,
            file: path.to_string(),
            root: root.to_string(),
            ..Group::default()
        };
        it.chains(chains, &g);
    }
    let standalone: Vec<_> = it
        .files
        .iter()
        .filter(|(k, _)| !referenced.contains(*k))
        .map(|(_, v)| *v)
        .collect();
    for (path, root, chains) in standalone {
        let api = path.ends_with("routes/api.php") && !lumen;
        let g = Group {
            prefix: if api { "/api".into() } else { String::new() },
            json: api || lumen,
            file: path.to_string(),
            root: root.to_string(),
            ..Group::default()
        };
        it.chains(chains, &g);
    }
    it.out
}

/// A file reference: `base_path('routes/x.php')`, `__DIR__ . '/x.php'`,
/// `'routes/x.php'`.
fn file_ref(v: &Val, current: &str, root: &str) -> Option<String> {
    match v {
        Val::Call(name, args) if name == "base_path" => {
            let rel = args.first()?.str()?;
            Some(normalize_file(&format!("{root}{rel}")))
        }
        Val::Concat(parts) => {
            let mut s = String::new();
            for p in parts {
                match p {
                    Val::Const(c) if c == "__DIR__" => {
                        let dir = current.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
                        s.push_str(dir);
                    }
                    Val::Call(name, args) if name == "base_path" => {
                        s.push_str(root);
                        if let Some(rel) = args.first().and_then(Val::str) {
                            s.push_str(rel);
                        }
                    }
                    Val::Call(name, _) if name == "dirname" => {
                        let dir = current.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
                        s.push_str(dir.rsplit_once('/').map(|(d, _)| d).unwrap_or(""));
                    }
                    Val::Str(x) => s.push_str(x),
                    _ => return None,
                }
            }
            s.ends_with(".php").then(|| normalize_file(&s))
        }
        Val::Str(s) if s.ends_with(".php") => Some(normalize_file(&format!("{root}{s}"))),
        _ => None,
    }
}

fn collect_refs(chains: &[Chain], path: &str, root: &str, out: &mut BTreeSet<String>) {
    for c in chains {
        for p in &c.parts {
            for a in &p.args {
                collect_val(a, path, root, out, p.name == "group" || p.name == "require");
            }
        }
    }
}

fn collect_val(v: &Val, path: &str, root: &str, out: &mut BTreeSet<String>, as_file: bool) {
    match v {
        Val::Closure(c) => collect_refs(&c.chains, path, root, out),
        Val::Array(items) => {
            for (k, x) in items {
                // withRouting(web: …, api: …)
                let named_file = matches!(k.as_ref().and_then(Val::str), Some("web" | "api"));
                collect_val(x, path, root, out, as_file || named_file);
            }
        }
        other if as_file => {
            if let Some(f) = file_ref(other, path, root) {
                out.insert(f);
            }
        }
        _ => {}
    }
}

/// The guard kind of a middleware as written: `auth`, `auth:sanctum`,
/// `auth.basic`, `Authenticate::class` authenticate; `can:…`, `role:…`,
/// `permission:…`, `abilities:…` and admin middleware authorize.
fn middleware_guard(v: &Val) -> Option<(&'static str, String)> {
    let name = match v {
        Val::Str(s) => s.clone(),
        Val::Class(c) => c.rsplit('\\').next().unwrap_or(c).to_string(),
        _ => return None,
    };
    let head = name.split(':').next().unwrap_or(&name);
    let kind = if matches!(head, "can" | "ability" | "abilities") {
        Some("authz_guard")
    } else {
        guard::kind(head).filter(|k| matches!(*k, "auth_guard" | "authz_guard"))
    };
    kind.map(|k| (k, name))
}

/// `withoutMiddleware('auth')`: the guards it lifts.
fn remove_middleware(g: &mut Group, args: &[Val]) {
    for a in args {
        let items: Vec<&Val> = match a {
            Val::Array(items) => items.iter().map(|(_, v)| v).collect(),
            v => vec![v],
        };
        for v in items {
            if let Some((_, name)) = middleware_guard(v) {
                let head = name.split(':').next().unwrap_or(&name).to_string();
                g.auth
                    .retain(|e| e.name != name && e.name.split(':').next() != Some(head.as_str()));
            }
        }
    }
}

/// `middleware('auth', 'x')`, `middleware(['auth:api', X::class])` at
/// `line`; the `api` group makes bodies JSON.
fn add_middleware(g: &mut Group, args: &[Val], line: u32) {
    for a in args {
        let items: Vec<&Val> = match a {
            Val::Array(items) => items.iter().map(|(_, v)| v).collect(),
            v => vec![v],
        };
        for v in items {
            if let Some((kind, name)) = middleware_guard(v) {
                if !g.auth.iter().any(|e| e.name == name) {
                    g.auth
                        .push(guard::entry(kind, &name, "middleware", &g.file, line));
                }
            }
            if let Some(name) = super::scan::middleware_name(v) {
                if name == "api" {
                    g.json = true;
                }
                if !g.middleware.contains(&name) {
                    g.middleware.push(name);
                }
            }
        }
    }
}

fn join(a: &str, b: &str) -> String {
    let b = b.trim_matches('/');
    if b.is_empty() {
        return a.to_string();
    }
    format!("{}/{}", a.trim_end_matches('/'), b)
}

/// `{id?}` → `{id}`; Lumen's FastRoute patterns `{id:[0-9]+}` → `{id}`.
fn clean(path: &str) -> String {
    crate::slim::link::clean(&path.replace("?}", "}"))
}

impl<'a> Interp<'a> {
    fn text(&self, v: &Val) -> Option<String> {
        match v {
            Val::Str(s) => Some(s.clone()),
            Val::Int(s) => Some(s.clone()),
            Val::Concat(parts) => parts.iter().map(|p| self.text(p)).collect(),
            _ => None,
        }
    }

    fn chains(&mut self, chains: &[Chain], g: &Group) {
        for c in chains {
            self.chain(c, g);
        }
    }

    fn include(&mut self, file: &str, g: &Group) {
        if g.depth > 12 {
            return;
        }
        if let Some((path, root, chains)) = self.files.get(file).copied() {
            let mut inner = g.clone();
            inner.file = path.to_string();
            inner.root = root.to_string();
            inner.depth += 1;
            if path.ends_with("routes/api.php") {
                inner.json = true;
            }
            self.chains(chains, &inner);
        }
    }

    fn chain(&mut self, c: &Chain, g: &Group) {
        if c.base == "require" {
            if let Some(f) = c.parts[0]
                .args
                .first()
                .and_then(|a| file_ref(a, &g.file, &g.root))
            {
                self.include(&f, g);
            }
            return;
        }
        let mut attrs = g.clone();
        for (i, p) in c.parts.iter().enumerate() {
            let first = p.args.first();
            match p.name.as_str() {
                "prefix" => {
                    if let Some(s) = first.and_then(|v| self.text(v)) {
                        attrs.prefix = join(&attrs.prefix, &s);
                    }
                }
                "controller" => {
                    if let Some(Val::Class(cl)) = first {
                        attrs.controller = Some(cl.clone());
                    } else if let Some(s) = first.and_then(Val::str) {
                        attrs.controller = Some(s.to_string());
                    }
                }
                "namespace" => {
                    if let Some(s) = first.and_then(Val::str) {
                        attrs.namespace = s.to_string();
                    }
                }
                "middleware" => {
                    add_middleware(&mut attrs, &p.args, p.line);
                }
                "withoutMiddleware" => {
                    remove_middleware(&mut attrs, &p.args);
                }
                "group" => {
                    for a in &p.args {
                        match a {
                            Val::Array(_)
                                if a.get("prefix").is_some()
                                    || a.get("namespace").is_some()
                                    || a.get("middleware").is_some()
                                    || a.get("controller").is_some()
                                    || a.get("as").is_some() =>
                            {
                                if let Some(s) = a.get("prefix").and_then(|v| self.text(v)) {
                                    attrs.prefix = join(&attrs.prefix, &s);
                                }
                                if let Some(s) = a.get("namespace").and_then(Val::str) {
                                    attrs.namespace =
                                        if s.starts_with('\\') || attrs.namespace.is_empty() {
                                            s.trim_start_matches('\\').to_string()
                                        } else {
                                            format!("{}\\{}", attrs.namespace, s)
                                        };
                                }
                                if let Some(Val::Class(cl)) = a.get("controller") {
                                    attrs.controller = Some(cl.clone());
                                }
                                if let Some(m) = a.get("middleware") {
                                    add_middleware(&mut attrs, std::slice::from_ref(m), p.line);
                                }
                            }
                            Val::Closure(cl) => {
                                let mut inner = attrs.clone();
                                inner.depth += 1;
                                self.chains(&cl.chains, &inner);
                            }
                            other => {
                                if let Some(f) = file_ref(other, &attrs.file, &attrs.root) {
                                    self.include(&f, &attrs);
                                }
                            }
                        }
                    }
                    return;
                }
                "withRouting" => {
                    self.with_routing(p, &attrs);
                    return;
                }
                "get" | "post" | "put" | "patch" | "delete" | "options" | "any" | "match"
                | "view" | "redirect" | "permanentRedirect" | "addRoute" => {
                    // `Route::get(...)->middleware('x')`: route middleware.
                    for r in &c.parts[i + 1..] {
                        match r.name.as_str() {
                            "middleware" => add_middleware(&mut attrs, &r.args, r.line),
                            "withoutMiddleware" => remove_middleware(&mut attrs, &r.args),
                            // `->can('update', 'post')`: `can:update,post`.
                            "can" => {
                                let words: Vec<&str> = r.args.iter().filter_map(Val::str).collect();
                                if !words.is_empty() {
                                    let name = format!("can:{}", words.join(","));
                                    attrs.auth.push(guard::entry(
                                        "authz_guard",
                                        &name,
                                        "middleware",
                                        &attrs.file,
                                        r.line,
                                    ));
                                }
                            }
                            _ => {}
                        }
                    }
                    self.route(p, &attrs, c.line);
                    return;
                }
                "resource" | "apiResource" | "singleton" | "apiSingleton" => {
                    self.resource(p, &c.parts[i + 1..], &attrs, c.line, None);
                    return;
                }
                "resources" | "apiResources" => {
                    if let Some(Val::Array(items)) = first {
                        let single = if p.name == "resources" {
                            "resource"
                        } else {
                            "apiResource"
                        };
                        let part = Part {
                            name: single.into(),
                            args: Vec::new(),
                            line: p.line,
                        };
                        for (k, v) in items {
                            if let (Some(name), Val::Class(cl)) = (k.as_ref().and_then(Val::str), v)
                            {
                                self.resource(
                                    &part,
                                    &[],
                                    &attrs,
                                    c.line,
                                    Some((name.to_string(), cl.clone())),
                                );
                            }
                        }
                    }
                    return;
                }
                _ => {}
            }
        }
    }

    fn with_routing(&mut self, p: &Part, g: &Group) {
        let mut named: BTreeMap<String, &Val> = BTreeMap::new();
        for a in &p.args {
            if let Val::Array(items) = a {
                for (k, v) in items {
                    if let Some(k) = k.as_ref().and_then(Val::str) {
                        named.insert(k.to_string(), v);
                    }
                }
            }
        }
        let api_prefix = named
            .get("apiPrefix")
            .and_then(|v| self.text(v))
            .unwrap_or_else(|| "api".into());
        if let Some(f) = named.get("web").and_then(|v| file_ref(v, &g.file, &g.root)) {
            self.include(&f, g);
        }
        if let Some(f) = named.get("api").and_then(|v| file_ref(v, &g.file, &g.root)) {
            let mut inner = g.clone();
            inner.prefix = join(&g.prefix, &api_prefix);
            inner.json = true;
            self.include(&f, &inner);
        }
        if let Some(health) = named.get("health").and_then(|v| self.text(v)) {
            let url = join(&g.prefix, &health);
            self.emit("GET", &url, g, p.line, &Action::None);
        }
        if let Some(Val::Closure(cl)) = named.get("then") {
            self.chains(&cl.chains, g);
        }
    }

    fn action(&self, v: Option<&Val>, g: &Group) -> Action {
        match v {
            Some(Val::Array(items)) if items.len() == 2 && items[0].0.is_none() => {
                let class = match &items[0].1 {
                    Val::Class(c) => c.clone(),
                    Val::Str(s) => s.clone(),
                    _ => return Action::None,
                };
                match items[1].1.str() {
                    Some(m) => Action::Method(class, m.to_string()),
                    None => Action::None,
                }
            }
            Some(Val::Array(items)) => {
                // ['as' => 'x', 'uses' => 'C@m'] / ['uses' => ...]
                let uses = items
                    .iter()
                    .find(|(k, _)| k.as_ref().and_then(Val::str) == Some("uses"))
                    .map(|(_, v)| v);
                self.action(uses, g)
            }
            Some(Val::Class(c)) => Action::Method(c.clone(), "__invoke".into()),
            Some(Val::Str(s)) => match s.split_once('@') {
                Some((c, m)) => {
                    let c = if g.namespace.is_empty() || c.starts_with('\\') {
                        c.to_string()
                    } else {
                        format!("{}\\{}", g.namespace, c)
                    };
                    Action::Method(c, m.to_string())
                }
                None => match &g.controller {
                    Some(c) => Action::Method(c.clone(), s.clone()),
                    None => Action::None,
                },
            },
            Some(Val::Closure(cl)) => Action::Closure(cl.reads.clone()),
            _ => Action::None,
        }
    }

    fn route(&mut self, p: &Part, g: &Group, line: u32) {
        let (methods, path, action): (Vec<&'static str>, Option<&Val>, Option<&Val>) =
            match p.name.as_str() {
                "match" | "addRoute" => {
                    let ms = p
                        .args
                        .first()
                        .map(|v| v.strings())
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|m| {
                            ANY.iter()
                                .chain(["OPTIONS", "HEAD"].iter())
                                .find(|x| x.eq_ignore_ascii_case(m))
                                .copied()
                        })
                        .collect();
                    (ms, p.args.get(1), p.args.get(2))
                }
                "any" => (ANY.to_vec(), p.args.first(), p.args.get(1)),
                "view" | "redirect" | "permanentRedirect" => (vec!["GET"], p.args.first(), None),
                m => {
                    let method = match m {
                        "get" => "GET",
                        "post" => "POST",
                        "put" => "PUT",
                        "patch" => "PATCH",
                        "delete" => "DELETE",
                        _ => "OPTIONS",
                    };
                    (vec![method], p.args.first(), p.args.get(1))
                }
            };
        let Some(path) = path.and_then(|v| self.text(v)) else {
            return;
        };
        let full = join(&g.prefix, &path);
        let mut urls = vec![clean(&full)];
        // `users/{id}/{tab?}` also matches `users/{id}`.
        if let Some(cut) = full.find("?}").and_then(|q| full[..q].rfind("/{")) {
            let short = clean(&full[..cut]);
            if !urls.contains(&short) {
                urls.push(short);
            }
        }
        let action = self.action(action, g);
        // Laravel answers HEAD on every GET route; reported where the
        // action documents it (`@OA\Head`), not on every GET.
        let mut methods = methods;
        if methods.contains(&"GET") && !methods.contains(&"HEAD") {
            if let Action::Method(c, m) = &action {
                if self
                    .action_op(&g.root, c, m)
                    .is_some_and(|op| op.verbs.iter().any(|v| v == "Head"))
                {
                    methods.push("HEAD");
                }
            }
        }
        for url in &urls {
            for m in &methods {
                self.emit(m, url, g, line, &action);
            }
        }
    }

    fn emit(&mut self, method: &'static str, url: &str, g: &Group, line: u32, action: &Action) {
        let url = if url.is_empty() {
            "/".to_string()
        } else {
            url.to_string()
        };
        let op = match action {
            Action::Method(c, m) => self.action_op(&g.root, c, m),
            _ => None,
        };
        let url = match op {
            Some(op) => documented_placeholders(&url, &op.path),
            None => url,
        };
        let mut e = Endpoint::new(method, url.clone()).at_path(&g.file, line);
        let mut guards = g.auth.clone();
        if let Action::Method(c, m) = action {
            self.controller_guards(c, m, &mut guards);
        }
        e.ai_context = guard::context(guards);
        let reads = match action {
            Action::None => None,
            Action::Closure(r) => Some(r.clone()),
            Action::Method(c, m) => self.method_reads(&g.root, c, m),
        };
        if let Some(op) = op {
            for (name, loc) in self.op_body(op) {
                e.push_param(match loc {
                    BodyLoc::Json => Param::json(name),
                    BodyLoc::Form => Param::form(name),
                    BodyLoc::File => Param::file(name),
                });
            }
        }
        for (w, name) in self.guards(g) {
            e.push_param(match w {
                Where::Cookie => Param::cookie(name),
                _ => Param::header(name),
            });
        }
        if let Some(reads) = reads {
            let placeholders: Vec<String> = url
                .split('/')
                .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                .map(str::to_string)
                .collect();
            let query_like = matches!(method, "GET" | "HEAD");
            for (w, name) in &reads.items {
                if placeholders.contains(name) || name.contains('*') {
                    continue;
                }
                let param = match w {
                    Where::Input if query_like => Param::query(name),
                    Where::Input if g.json => Param::json(name),
                    Where::Input => Param::form(name),
                    Where::Query => Param::query(name),
                    Where::Form => Param::form(name),
                    Where::Header => Param::header(name),
                    Where::Cookie => Param::cookie(name),
                    Where::File => Param::file(name),
                    Where::Json => Param::json(name),
                    Where::Body if g.json => Param::json(name),
                    Where::Body => Param::form(name),
                };
                e.push_param(param);
            }
        }
        self.out.push(e);
    }

    /// Guards a controller declares in its constructor for `method`:
    /// `$this->middleware('auth')`, `->only([...])` / `->except([...])`.
    fn controller_guards(&self, class: &str, method: &str, out: &mut Vec<ContextEntry>) {
        let Some(list) = self.controller_middleware.get(short(class)) else {
            return;
        };
        for (path, c) in list {
            let mut applies = true;
            for p in c.parts.iter().skip(1) {
                let words: Vec<String> = p.args.iter().flat_map(Val::strings).collect();
                match p.name.as_str() {
                    "only" => applies &= words.iter().any(|w| w == method),
                    "except" => applies &= !words.iter().any(|w| w == method),
                    _ => {}
                }
            }
            let Some(first) = c.parts.first().filter(|_| applies) else {
                continue;
            };
            let mut g = Group {
                file: path.to_string(),
                ..Group::default()
            };
            add_middleware(&mut g, &first.args, first.line);
            for e in g.auth {
                if !out.iter().any(|x| x.name == e.name) {
                    out.push(e);
                }
            }
        }
    }

    /// Headers and cookies read by the `handle` of the middleware guarding
    /// the group (aliases and groups expanded).
    fn guards(&mut self, g: &Group) -> Vec<(Where, String)> {
        let mut out: Vec<(Where, String)> = Vec::new();
        let mut todo: Vec<(String, usize)> = g.middleware.iter().map(|m| (m.clone(), 0)).collect();
        let mut seen = BTreeSet::new();
        while let Some((name, depth)) = todo.pop() {
            if depth > 4 || !seen.insert(name.clone()) {
                continue;
            }
            if let Some(members) = self.groups.get(name.as_str()) {
                todo.extend(members.iter().map(|m| (m.clone(), depth + 1)));
                continue;
            }
            let class = self
                .aliases
                .get(name.as_str())
                .copied()
                .unwrap_or(&name)
                .to_string();
            if !self.guard_cache.contains_key(&class) {
                let reads: Vec<(Where, String)> = self
                    .method_reads(&g.root, &class, "handle")
                    .map(|r| {
                        r.items
                            .into_iter()
                            .filter(|(w, _)| matches!(w, Where::Header | Where::Cookie))
                            .collect()
                    })
                    .unwrap_or_default();
                self.guard_cache.insert(class.clone(), reads);
            }
            for x in self.guard_cache.get(&class).into_iter().flatten() {
                if !out.contains(x) {
                    out.push(x.clone());
                }
            }
        }
        out
    }

    fn find_class(&self, root: &str, name: &str) -> Option<&'a Class> {
        let name = name.trim_start_matches('\\');
        let s = short(name);
        let mut best: Option<&'a Class> = None;
        for (r, c) in &self.classes {
            if c.name != s {
                continue;
            }
            let full = c.fqcn();
            let exact = full == name || full.ends_with(&format!("\\{name}"));
            let same_root = *r == root;
            if exact && same_root {
                return Some(c);
            }
            if best.is_none() || same_root || exact {
                best = Some(c);
            }
        }
        best
    }

    /// The swagger-php operation documented on a controller action (the
    /// class's own method, else an ancestor's).
    fn action_op(&self, root: &str, class: &str, method: &str) -> Option<&'a Op> {
        let mut cur = self.find_class(root, class);
        let mut depth = 0;
        while let Some(c) = cur {
            if let Some(m) = c.methods.iter().find(|m| m.name == method) {
                return m.oa_op.as_ref();
            }
            depth += 1;
            if depth > 8 || c.parent.is_empty() || c.parent == c.name {
                return None;
            }
            cur = self.find_class(root, &c.parent);
        }
        None
    }

    /// The body properties an operation documents, named schemas resolved
    /// (through `allOf`/`ref`, cycles cut).
    fn op_body(&self, op: &Op) -> Vec<(String, BodyLoc)> {
        let mut out: Vec<(String, BodyLoc)> = op.body.props.clone();
        let mut seen: BTreeSet<(&str, BodyLoc)> = BTreeSet::new();
        let mut todo: Vec<(&str, BodyLoc)> =
            op.body.refs.iter().map(|(r, l)| (r.as_str(), *l)).collect();
        while let Some((name, loc)) = todo.pop() {
            if seen.len() > 64 || !seen.insert((name, loc)) {
                continue;
            }
            let Some(def) = self.oa_schemas.get(name) else {
                continue;
            };
            for p in &def.props {
                if !out.iter().any(|(n, l)| n == p && *l == loc) {
                    out.push((p.clone(), loc));
                }
            }
            todo.extend(def.refs.iter().map(|r| (r.as_str(), loc)));
        }
        out
    }

    /// The `$fillable` of the model a service method mass-assigns from its
    /// first parameter (`save(array $data, Product $product)` with
    /// `$product->fill($data)`); the service is the type of the same-named
    /// constructor parameter of the caller's class chain.
    fn delegated_fill(
        &self,
        root: &str,
        chain: &[&'a Class],
        prop: &str,
        meth: &str,
    ) -> Vec<String> {
        let Some(ty) = chain.iter().find_map(|c| {
            let ctor = c.methods.iter().find(|m| m.name == "__construct")?;
            ctor.params
                .iter()
                .find(|(ty, v)| v == prop && !ty.is_empty())
                .map(|(ty, _)| ty.as_str())
        }) else {
            return Vec::new();
        };
        let mut cur = self.find_class(root, ty);
        let mut depth = 0;
        while let Some(c) = cur {
            if let Some(m) = c.methods.iter().find(|m| m.name == meth) {
                let Some((_, first)) = m.params.first() else {
                    return Vec::new();
                };
                let suffix = format!("::$fillable<-{first}");
                let mut out = Vec::new();
                for call in &m.reads.calls {
                    let Some(model) = call.strip_suffix(&suffix) else {
                        continue;
                    };
                    let model = match model.strip_prefix('$') {
                        Some(var) => match m.params.iter().find(|(t, v)| v == var && !t.is_empty())
                        {
                            Some((t, _)) => short(t),
                            None => continue,
                        },
                        None => model,
                    };
                    if let Some(mc) = self.find_class(root, model) {
                        out.extend(mc.fillable.iter().cloned());
                    }
                }
                return out;
            }
            depth += 1;
            if depth > 8 || c.parent.is_empty() || c.parent == c.name {
                break;
            }
            cur = self.find_class(root, &c.parent);
        }
        Vec::new()
    }

    /// A query filter class (`index(PostFilters $filters)`): when the
    /// class or an ancestor dispatches request keys to same-named methods
    /// (`method_exists($this, $name)` then `$this->$name($value)`), every
    /// public instance method of the chain is a request key, except the
    /// dispatcher, magic methods and the helpers the chain calls by name.
    fn dispatched_filters(&self, root: &str, class: &str) -> Vec<String> {
        let mut chain: Vec<&Class> = Vec::new();
        let mut cur = self.find_class(root, class);
        while let Some(c) = cur {
            if chain.len() > 8 || chain.iter().any(|x| x.name == c.name) {
                break;
            }
            chain.push(c);
            cur = if c.parent.is_empty() {
                None
            } else {
                self.find_class(root, &c.parent)
            };
        }
        if !chain.iter().any(|c| c.methods.iter().any(|m| m.dispatches)) {
            return Vec::new();
        }
        let called: BTreeSet<&str> = chain
            .iter()
            .flat_map(|c| c.methods.iter())
            .flat_map(|m| m.reads.calls.iter())
            .map(String::as_str)
            .collect();
        let mut out: Vec<String> = Vec::new();
        for c in &chain {
            for m in &c.methods {
                if m.hidden
                    || m.is_static
                    || m.dispatches
                    || m.name.starts_with("__")
                    || called.contains(m.name.as_str())
                    || out.contains(&m.name)
                {
                    continue;
                }
                out.push(m.name.clone());
            }
        }
        out
    }

    /// The `rules()` keys of a form request: its own `rules()` (else the
    /// nearest ancestor's), plus the parent's when it merges
    /// `parent::rules()`.
    fn form_rules(&self, root: &str, class: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut cur = self.find_class(root, class);
        let mut depth = 0;
        while let Some(c) = cur {
            depth += 1;
            if depth > 8 {
                break;
            }
            let parent = || {
                if c.parent.is_empty() || c.parent == c.name {
                    None
                } else {
                    self.find_class(root, &c.parent)
                }
            };
            match c.methods.iter().find(|x| x.name == "rules") {
                Some(rules) => {
                    for k in &rules.rule_keys {
                        if k != PARENT_RULES && !out.contains(k) {
                            out.push(k.clone());
                        }
                    }
                    if !rules.rule_keys.iter().any(|k| k == PARENT_RULES) {
                        break;
                    }
                    cur = parent();
                }
                None => cur = parent(),
            }
        }
        out
    }

    fn method_reads(&self, root: &str, class: &str, method: &str) -> Option<Reads> {
        let mut chain = Vec::new();
        let mut cur = self.find_class(root, class);
        while let Some(c) = cur {
            if chain.iter().any(|x: &&Class| x.name == c.name) || chain.len() > 8 {
                break;
            }
            chain.push(c);
            cur = if c.parent.is_empty() {
                None
            } else {
                self.find_class(root, &c.parent)
            };
        }
        if chain.is_empty() {
            return None;
        }
        let find = |name: &str| {
            chain
                .iter()
                .find_map(|c| c.methods.iter().find(|m| m.name == name))
        };
        let mut reads = Reads::default();
        let mut seen = BTreeSet::new();
        let mut todo = vec![method.to_string()];
        while let Some(name) = todo.pop() {
            if !seen.insert(name.clone()) || seen.len() > 32 {
                continue;
            }
            // `$request->validate(Post::rules())`: the keys `Post::rules` returns.
            if let Some((cl, meth)) = name.split_once("::") {
                if let Some(target) = self.find_class(root, cl) {
                    if meth == "$fillable" {
                        for k in &target.fillable {
                            reads.push(Where::Input, k);
                        }
                    } else if let Some(m) = target.methods.iter().find(|x| x.name == meth) {
                        for k in m.rule_keys.iter().filter(|k| *k != PARENT_RULES) {
                            reads.push(Where::Input, k);
                        }
                    }
                }
                continue;
            }
            // `$this->repo->save($request->all(), …)`: what `save` mass-assigns
            // from its first parameter, `repo` typed by the constructor.
            if let Some((prop, meth)) = name.strip_prefix("->").and_then(|x| x.split_once('.')) {
                for k in self.delegated_fill(root, &chain, prop, meth) {
                    reads.push(Where::Input, &k);
                }
                continue;
            }
            let Some(m) = find(&name) else { continue };
            // swagger-php `@OA\\Parameter`s documenting the action itself.
            if name == method {
                for p in &m.oa {
                    let (pname, loc) = if p.reference.is_empty() {
                        (p.name.as_str(), p.loc.as_str())
                    } else {
                        let key = p.reference.rsplit('/').next().unwrap_or("");
                        match self.oa_defs.get(key) {
                            Some(d) => *d,
                            None => continue,
                        }
                    };
                    let w = match loc {
                        "header" => Where::Header,
                        "query" => Where::Query,
                        "cookie" => Where::Cookie,
                        _ => continue,
                    };
                    reads.push(w, pname);
                }
            }
            // Form requests: `StorePostRequest $request`.
            for (ty, _) in &m.params {
                if ty.is_empty() || ty == "Request" {
                    continue;
                }
                for k in self.form_rules(root, ty) {
                    reads.push(Where::Input, &k);
                }
                for k in self.dispatched_filters(root, ty) {
                    reads.push(Where::Input, &k);
                }
            }
            reads.merge(&m.reads);
            for callee in m.reads.calls.iter().rev() {
                // `$post->fill($request->all())` with `Post $post` bound
                // from the route: the parameter's declared model.
                let typed = callee
                    .strip_prefix('$')
                    .and_then(|c| c.split_once("::"))
                    .and_then(|(var, rest)| {
                        let (ty, _) = m.params.iter().find(|(ty, v)| v == var && !ty.is_empty())?;
                        Some(format!("{}::{rest}", short(ty)))
                    });
                todo.push(typed.unwrap_or_else(|| callee.clone()));
            }
        }
        Some(reads)
    }

    fn resource(
        &mut self,
        p: &Part,
        rest: &[Part],
        g: &Group,
        line: u32,
        given: Option<(String, String)>,
    ) {
        // `Route::resource(…)->middleware('auth')`.
        let mut own = g.clone();
        for r in rest {
            match r.name.as_str() {
                "middleware" => add_middleware(&mut own, &r.args, r.line),
                "withoutMiddleware" => remove_middleware(&mut own, &r.args),
                _ => {}
            }
        }
        let g = &own;
        let (name, controller) = match given {
            Some(x) => x,
            None => {
                let Some(name) = p.args.first().and_then(|v| self.text(v)) else {
                    return;
                };
                let ctrl = match p.args.get(1) {
                    Some(Val::Class(c)) => c.clone(),
                    Some(Val::Str(s)) => s.clone(),
                    _ => String::new(),
                };
                (name, ctrl)
            }
        };
        let controller = if !g.namespace.is_empty()
            && !controller.starts_with('\\')
            && !controller.contains('\\')
            && p.args.get(1).is_some_and(|v| matches!(v, Val::Str(_)))
        {
            format!("{}\\{}", g.namespace, controller)
        } else {
            controller
        };
        let singleton = p.name.contains("ingleton");
        let api = p.name.starts_with("api");
        let mut only: Option<Vec<String>> = None;
        let mut except: Vec<String> = Vec::new();
        let mut rename: BTreeMap<String, String> = BTreeMap::new();
        let mut shallow = false;
        if let Some(opts) = p.args.get(2) {
            if let Some(o) = opts.get("only") {
                only = Some(o.strings());
            }
            if let Some(e) = opts.get("except") {
                except = e.strings();
            }
            if let Some(Val::Array(items)) = opts.get("parameters") {
                for (k, v) in items {
                    if let (Some(k), Some(v)) = (k.as_ref().and_then(Val::str), v.str()) {
                        rename.insert(k.to_string(), v.to_string());
                    }
                }
            }
        }
        for r in rest {
            match r.name.as_str() {
                "only" => only = Some(r.args.iter().flat_map(Val::strings).collect()),
                "except" => except.extend(r.args.iter().flat_map(Val::strings)),
                "shallow" => shallow = true,
                "parameters" => {
                    if let Some(Val::Array(items)) = r.args.first() {
                        for (k, v) in items {
                            if let (Some(k), Some(v)) = (k.as_ref().and_then(Val::str), v.str()) {
                                rename.insert(k.to_string(), v.to_string());
                            }
                        }
                    }
                }
                "parameter" => {
                    if let (Some(k), Some(v)) = (
                        r.args.first().and_then(Val::str),
                        r.args.get(1).and_then(Val::str),
                    ) {
                        rename.insert(k.to_string(), v.to_string());
                    }
                }
                _ => {}
            }
        }
        let param_of = |seg: &str| -> String {
            rename
                .get(seg)
                .cloned()
                .unwrap_or_else(|| singularize(seg).replace('-', "_"))
        };
        // 'photos.comments' → /photos/{photo}/comments
        let segs: Vec<&str> = name.split('.').filter(|s| !s.is_empty()).collect();
        let Some((last, parents)) = segs.split_last() else {
            return;
        };
        let mut base = g.prefix.clone();
        for parent in parents {
            base = join(&base, parent);
            base = join(&base, &format!("{{{}}}", param_of(parent)));
        }
        let collection = join(&base, last);
        let member_base = if shallow {
            join(&g.prefix, last)
        } else {
            collection.clone()
        };
        let member = if singleton {
            collection.clone()
        } else {
            join(&member_base, &format!("{{{}}}", param_of(last)))
        };
        let actions: &[&str] = match (singleton, api) {
            (false, false) => &[
                "index", "create", "store", "show", "edit", "update", "destroy",
            ],
            (false, true) => &["index", "store", "show", "update", "destroy"],
            (true, false) => &["show", "edit", "update"],
            (true, true) => &["show", "update"],
        };
        for a in actions {
            if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == a))
                || except.iter().any(|x| x == a)
            {
                continue;
            }
            let routes: Vec<(&'static str, String)> = match *a {
                "index" => vec![("GET", collection.clone())],
                "create" => vec![("GET", join(&collection, "create"))],
                "store" => vec![("POST", collection.clone())],
                "show" => vec![("GET", member.clone())],
                "edit" => vec![("GET", join(&member, "edit"))],
                "update" => vec![("PUT", member.clone()), ("PATCH", member.clone())],
                _ => vec![("DELETE", member.clone())],
            };
            let action = if controller.is_empty() {
                Action::None
            } else {
                Action::Method(controller.clone(), a.to_string())
            };
            for (m, url) in routes {
                self.emit(m, &url, g, line, &action);
            }
        }
    }
}

/// The route's placeholders renamed to those of the documented path
/// template (`@OA\Get(path="/things/{thing_id}")` on the action) when the
/// template has the route's shape: the same literal segments, aligned from
/// the end (the route may carry a mount prefix the template omits), and
/// the same number of placeholders. Otherwise the route as written.
fn documented_placeholders(url: &str, template: &str) -> String {
    let is_ph = |s: &str| s.starts_with('{') && s.ends_with('}') && s.len() > 2;
    let useg: Vec<&str> = url.split('/').filter(|s| !s.is_empty()).collect();
    let tseg: Vec<&str> = template
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    if tseg.is_empty() || tseg.len() > useg.len() {
        return url.to_string();
    }
    let off = useg.len() - tseg.len();
    if useg[..off].iter().any(|s| is_ph(s)) {
        return url.to_string();
    }
    let mut changed = false;
    let mut out: Vec<String> = useg[..off].iter().map(|s| s.to_string()).collect();
    for (u, t) in useg[off..].iter().zip(&tseg) {
        match (is_ph(u), is_ph(t)) {
            (true, true) => {
                changed |= u != t;
                out.push(t.to_string());
            }
            (false, false) if u == t => out.push(u.to_string()),
            _ => return url.to_string(),
        }
    }
    if !changed {
        return url.to_string();
    }
    let lead = if url.starts_with('/') { "/" } else { "" };
    format!("{lead}{}", out.join("/"))
}
