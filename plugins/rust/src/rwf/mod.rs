//! Rwf (`rust_rwf`, the Rust Web Framework by levkk).
//!
//! Routes are `Handler` lists built anywhere in a function, usually
//! `Server::new(vec![...])` or `Engine::new(vec![...])`:
//! - `route!("/path" => Controller)` / `Controller::default().route("/path")`;
//!   the methods follow the controller's trait: a plain `Controller`
//!   (`handle`) accepts every method (reported as GET, POST, PUT, PATCH and
//!   DELETE), a `PageController` the `get`/`post` it implements (GET when
//!   neither is visible), a `RestController` the REST table below;
//! - `rest!("/users" => Users)` / `.rest("/users")`: rwf's REST table,
//!   `GET /users` (list), `POST /users` (create), `GET /users/:id` (get),
//!   `PUT /users/:id` (update), `PATCH /users/:id` (patch),
//!   `DELETE /users/:id` (delete), limited to the actions the
//!   `impl RestController for Users` block implements (all six when the
//!   implementation is not visible: the trait's defaults answer 405);
//! - `crud!("/users" => Users)` / `.crud("/users")`: the same six routes
//!   served by a `ModelController`, whose `type Model = User;` fields are
//!   the JSON body of create/update/patch (`id` excluded);
//! - `engine!("/admin" => admin::engine())`: the handlers of the function
//!   it calls (another module or crate), under the prefix.
//!
//! A function whose handlers no `engine!` references is a root. Paths:
//! literals, constants, `format!`/`concat!`; `:id` kept.
//!
//! Parameters from the controller methods' `request: &Request`:
//! `request.query().get::<T>("q")` / `get_required` (query),
//! `request.parameter::<T>("id")` (path), `request.header("x")` and
//! `request.headers().get("x")` (header), `request.cookies().get("c")`
//! (cookie), `request.json::<T>()` / `let b: T = request.json()?` (json
//! fields of `T`), `request.form::<T>()` (form fields of `T`) and
//! `let form = request.form_data()?; form.get::<T>("x")` (form).
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use std::collections::HashSet;
use std::ops::Range;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rs::expr::{crate_and_module, parse_str, Part};
use crate::rs::items::{self, FnDecl};
use crate::rs::router::link::{FnId, Linker};
use crate::rs::router::scan::{binding, target, typed_reads, FileFacts, FnFacts, Target};
use crate::rs::{is_source, FILES};

pub struct Rwf;

impl Analyzer for Rwf {
    fn tech(&self) -> Tech {
        Tech::new("rust_rwf", "Rust", "RWF")
            .aliases(["rwf"])
            .files(FILES.iter().copied())
            .detect(
                Detect::files(["Cargo.toml"])
                    .regex([r"(?m)^\s*rwf\s*=", r"(?m)^\[dependencies\.rwf\]"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !is_source(file) {
            return;
        }
        let facts = scan_file(file);
        if !facts.controllers.is_empty()
            || !facts.lists.is_empty()
            || !facts.base.consts.is_empty()
            || !facts.base.structs.is_empty()
        {
            out.fact(&facts);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts.all()))
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RwfFacts {
    /// Constants, structs and function names (for the shared linker).
    pub base: FileFacts,
    pub controllers: Vec<Ctrl>,
    /// Handler entries by function index in `base.fns`.
    pub lists: Vec<(usize, Vec<Entry>)>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Ctrl {
    pub name: String,
    /// `Controller`, `PageController`, `RestController`, `ModelController`.
    pub traits: Vec<String>,
    /// `type Model = User;`
    pub model: Option<String>,
    pub methods: Vec<MethodReads>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct MethodReads {
    pub name: String,
    /// (`query`/`json`/`form`, struct name).
    pub bodies: Vec<(String, String)>,
    /// (`query`/`path`/`header`/`cookie`/`form`, name).
    pub direct: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// `route`, `rest` or `crud`.
    Handler {
        kind: String,
        path: Vec<Part>,
        controller: String,
        line: u32,
    },
    Engine {
        path: Vec<Part>,
        target: Target,
    },
}

pub fn scan_file(file: &SourceFile) -> RwfFacts {
    let path = file.slash_path();
    let code = file.code(Syntax::RUST);
    let skip = items::test_ranges(&code);
    let (krate, module) = crate_and_module(&path);
    let decls = items::functions(&code, &skip);
    let controllers = controllers(&code, &skip, &decls);
    let mut lists: Vec<(usize, Vec<Entry>)> = Vec::new();
    for (at, entry) in entries(file, &code, &skip) {
        // The innermost function around the entry.
        let Some(ni) = decls
            .iter()
            .enumerate()
            .filter(|(_, f)| f.body.contains(&at))
            .min_by_key(|(_, f)| f.body.len())
            .map(|(i, _)| i)
        else {
            continue;
        };
        match lists.iter_mut().find(|(i, _)| *i == ni) {
            Some((_, l)) => l.push(entry),
            None => lists.push((ni, vec![entry])),
        }
    }
    let fns = decls
        .iter()
        .map(|f| FnFacts {
            name: f.name.clone(),
            ..FnFacts::default()
        })
        .collect();
    RwfFacts {
        base: FileFacts {
            path,
            krate,
            module,
            consts: items::str_consts(&code, &skip),
            structs: items::structs(&code, &skip),
            fns,
            aliases: Vec::new(),
        },
        controllers,
        lists,
    }
}

/// `impl Trait for Type { … }` blocks of the rwf controller traits.
fn controllers(code: &Code, skip: &[Range<usize>], decls: &[FnDecl]) -> Vec<Ctrl> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out: Vec<Ctrl> = Vec::new();
    for at in code.find_word("impl") {
        if items::inside(skip, at) {
            continue;
        }
        let Some(open) = text[at..].find('{').map(|i| at + i) else {
            continue;
        };
        let head = code
            .slice(at + 4..open)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let Some((tr, ty)) = head.split_once(" for ") else {
            continue;
        };
        let tr = tr.rsplit("::").next().unwrap_or("").trim().to_string();
        if !matches!(
            tr.as_str(),
            "Controller" | "PageController" | "RestController" | "ModelController"
        ) {
            continue;
        }
        let ty = items::type_name(ty.trim());
        let Some(close) = code.matching(open) else {
            continue;
        };
        if bytes.get(open) != Some(&b'{') {
            continue;
        }
        let body = open..close;
        let model = code
            .find_all("type Model")
            .find(|o| body.contains(o))
            .and_then(|o| {
                let rest = &text[o..close];
                let eq = rest.find('=')?;
                let semi = rest.find(';')?;
                (eq < semi).then(|| items::type_name(rest[eq + 1..semi].trim()))
            });
        let methods: Vec<MethodReads> = decls
            .iter()
            .filter(|f| body.contains(&f.kw))
            .map(|f| method_reads(code, f))
            .collect();
        match out.iter_mut().find(|c| c.name == ty) {
            Some(c) => {
                c.traits.push(tr);
                c.model = c.model.take().or(model);
                c.methods.extend(methods);
            }
            None => out.push(Ctrl {
                name: ty,
                traits: vec![tr],
                model,
                methods,
            }),
        }
    }
    out
}

/// `prefix.get("x")` / `prefix.get::<T>("x")` first string arguments.
fn keyed(code: &Code, body: Range<usize>, prefix: &str, methods: &[&str]) -> Vec<String> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_all_in(prefix, body.clone()) {
        if at > 0 && portolan_plugin_sdk::lex::is_ident_byte(bytes[at - 1]) {
            continue;
        }
        let mut i = at + prefix.len();
        if !methods.is_empty() {
            i = code.skip_ws(i);
            if bytes.get(i) != Some(&b'.') {
                continue;
            }
            let Some(m) = code.ident_at(i + 1) else {
                continue;
            };
            if !methods.contains(&m) {
                continue;
            }
            i += 1 + m.len();
        }
        if text[i..].starts_with("::<") {
            match items::angle_end(bytes, i + 2) {
                Some(c) => i = c + 1,
                None => continue,
            }
        }
        let open = code.skip_ws(i);
        if bytes.get(open) != Some(&b'(') {
            continue;
        }
        if let Some(arg) = code.args(open).into_iter().next() {
            if let Some(lit) = code.string_at(arg.start) {
                out.push(lit.value);
            }
        }
    }
    out
}

fn method_reads(code: &Code, f: &FnDecl) -> MethodReads {
    let mut out = MethodReads {
        name: f.name.clone(),
        ..MethodReads::default()
    };
    let Some(var) = f
        .params
        .iter()
        .find(|p| items::type_name(&p.ty) == "Request")
        .map(|p| p.pattern.trim_start_matches("mut ").trim().to_string())
    else {
        return out;
    };
    let body = f.body.clone();
    let mut push = |kind: &str, names: Vec<String>| {
        for n in names {
            let item = (kind.to_string(), n);
            if !out.direct.contains(&item) {
                out.direct.push(item);
            }
        }
    };
    let q = format!("{var}.query()");
    push(
        "query",
        keyed(code, body.clone(), &q, &["get", "get_required"]),
    );
    let p = format!("{var}.parameter");
    push("path", keyed(code, body.clone(), &p, &[]));
    let h = format!("{var}.header");
    push("header", keyed(code, body.clone(), &h, &[]));
    let hs = format!("{var}.headers()");
    push("header", keyed(code, body.clone(), &hs, &["get"]));
    let c = format!("{var}.cookies()");
    push(
        "cookie",
        keyed(code, body.clone(), &c, &["get", "get_private"]),
    );
    // `let form = request.form_data()?;` → `form.get::<T>("x")`.
    let fd = format!("{var}.form_data");
    for at in code.find_all_in(&fd, body.clone()) {
        if let Some(v) = binding(code, at) {
            push(
                "form",
                keyed(code, body.clone(), &v, &["get", "get_required"]),
            );
        }
    }
    for (method, kind) in [("json", "json"), ("form", "form")] {
        for ty in typed_reads(code, body.clone(), &var, method) {
            out.bodies.push((kind.to_string(), ty));
        }
    }
    out
}

/// `route!(…)`, `rest!(…)`, `crud!(…)`, `engine!(…)` and
/// `X::default().route(…)`/`.rest(…)`/`.crud(…)`, with their offsets.
fn entries(file: &SourceFile, code: &Code, skip: &[Range<usize>]) -> Vec<(usize, Entry)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for mac in ["route!", "rest!", "crud!", "engine!"] {
        for at in code.find_all(mac) {
            if items::inside(skip, at)
                || (at > 0 && portolan_plugin_sdk::lex::is_ident_byte(bytes[at - 1]))
            {
                continue;
            }
            let open = code.skip_ws(at + mac.len());
            if !matches!(bytes.get(open), Some(b'(' | b'[' | b'{')) {
                continue;
            }
            let Some(close) = code.matching(open) else {
                continue;
            };
            let inner = code.slice(open + 1..close);
            let Some(arrow) = inner.find("=>") else {
                continue;
            };
            let arrow = open + 1 + arrow;
            let Some(path) = parse_str(code, open + 1..arrow) else {
                continue;
            };
            let rhs = code.skip_ws(arrow + 2)..close;
            let kind = mac.trim_end_matches('!');
            if kind == "engine" {
                out.push((
                    at,
                    Entry::Engine {
                        path,
                        target: target(file, code, rhs.start, &crate::axum::FRAMEWORK),
                    },
                ));
                continue;
            }
            let controller = items::type_name(code.slice(rhs).trim());
            out.push((
                at,
                Entry::Handler {
                    kind: kind.to_string(),
                    path,
                    controller,
                    line: file.line_of(at),
                },
            ));
        }
    }
    for at in code.find_all("::default()") {
        if items::inside(skip, at) {
            continue;
        }
        let dot = code.skip_ws(at + "::default()".len());
        if bytes.get(dot) != Some(&b'.') {
            continue;
        }
        let Some(m) = code.ident_at(dot + 1) else {
            continue;
        };
        if !matches!(m, "route" | "rest" | "crud") {
            continue;
        }
        let open = code.skip_ws(dot + 1 + m.len());
        if bytes.get(open) != Some(&b'(') {
            continue;
        }
        let Some(arg) = code.args(open).into_iter().next() else {
            continue;
        };
        let Some(path) = parse_str(code, arg) else {
            continue;
        };
        let mut s = at;
        while s > 0
            && (portolan_plugin_sdk::lex::is_ident_byte(bytes[s - 1]) || bytes[s - 1] == b':')
        {
            s -= 1;
        }
        let controller = items::type_name(&text[s..at]);
        out.push((
            s,
            Entry::Handler {
                kind: m.to_string(),
                path,
                controller,
                line: file.line_of(s),
            },
        ));
    }
    out.sort_by_key(|(at, _)| *at);
    out
}

/// rwf's REST table: (action, method, suffix).
const REST: [(&str, &str, &str); 6] = [
    ("list", "GET", ""),
    ("create", "POST", ""),
    ("get", "GET", "/:id"),
    ("update", "PUT", "/:id"),
    ("patch", "PATCH", "/:id"),
    ("delete", "DELETE", "/:id"),
];
const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const MAX_DEPTH: usize = 16;

struct Ctx<'a> {
    facts: &'a [RwfFacts],
    linker: Linker,
    out: Vec<Endpoint>,
}

pub fn link(facts: Vec<RwfFacts>) -> Vec<Endpoint> {
    let linker = Linker::new(facts.iter().map(|f| f.base.clone()).collect());
    let mut cx = Ctx {
        facts: &facts,
        linker,
        out: Vec::new(),
    };
    let mut referenced: HashSet<FnId> = HashSet::new();
    for (fi, f) in facts.iter().enumerate() {
        for (_, entries) in &f.lists {
            for e in entries {
                if let Entry::Engine { target, .. } = e {
                    if let Some(id) = cx.linker.resolve(fi, target) {
                        referenced.insert(id);
                    }
                }
            }
        }
    }
    for (fi, f) in facts.iter().enumerate() {
        for (ni, entries) in &f.lists {
            if !referenced.contains(&(fi, *ni)) {
                cx.expand(fi, entries, "", 0);
            }
        }
    }
    cx.out
}

impl Ctx<'_> {
    fn expand(&mut self, fi: usize, entries: &[Entry], prefix: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        for e in entries {
            match e {
                Entry::Engine { path, target } => {
                    let Some(p) = self.linker.string(fi, path) else {
                        continue;
                    };
                    let inner = join_path(&[prefix, &p]);
                    let Some((tfi, tni)) = self.linker.resolve(fi, target) else {
                        continue;
                    };
                    let facts = self.facts;
                    if let Some((_, list)) = facts[tfi].lists.iter().find(|(n, _)| *n == tni) {
                        self.expand(tfi, list, &inner, depth + 1);
                    }
                }
                Entry::Handler {
                    kind,
                    path,
                    controller,
                    line,
                } => {
                    let Some(p) = self.linker.string(fi, path) else {
                        continue;
                    };
                    let url = join_path(&[prefix, &p]);
                    self.handler(fi, kind, &url, controller, *line);
                }
            }
        }
    }

    fn controller(&self, fi: usize, name: &str) -> Option<(usize, &Ctrl)> {
        let krate = &self.facts[fi].base.krate;
        let mut best: Option<(bool, usize, &Ctrl)> = None;
        for (i, f) in self.facts.iter().enumerate() {
            for c in f.controllers.iter().filter(|c| c.name == name) {
                let same = &f.base.krate == krate;
                if best.is_none_or(|(s, _, _)| same && !s) {
                    best = Some((same, i, c));
                }
            }
        }
        best.map(|(_, i, c)| (i, c))
    }

    fn handler(&mut self, fi: usize, kind: &str, url: &str, controller: &str, line: u32) {
        let file = self.facts[fi].base.path.clone();
        let ctrl = self.controller(fi, controller);
        let has = |t: &str| ctrl.is_some_and(|(_, c)| c.traits.iter().any(|x| x == t));
        let implements = |m: &str| ctrl.is_some_and(|(_, c)| c.methods.iter().any(|x| x.name == m));
        // (method, url, controller method for params, model body)
        let mut routes: Vec<(&str, String, &str, bool)> = Vec::new();
        let rest = kind == "rest" || kind == "crud" || has("RestController");
        if rest {
            let crud = kind == "crud" || has("ModelController");
            let any_impl = REST.iter().any(|(a, _, _)| implements(a));
            for (action, method, suffix) in REST {
                if !crud && any_impl && !implements(action) {
                    continue;
                }
                let body = crud && matches!(action, "create" | "update" | "patch");
                routes.push((method, join_path(&[url, suffix]), action, body));
            }
        } else if has("PageController") {
            for (m, method) in [("get", "GET"), ("post", "POST")] {
                if implements(m) {
                    routes.push((method, url.to_string(), m, false));
                }
            }
            if routes.is_empty() {
                routes.push(("GET", url.to_string(), "get", false));
            }
        } else {
            for m in ANY {
                routes.push((m, url.to_string(), "handle", false));
            }
        }
        let mut eps = Vec::new();
        for (method, url, action, model_body) in routes {
            let mut e = Endpoint::new(method, url).at_path(&file, line);
            if let Some((cfi, c)) = ctrl {
                if model_body {
                    if let Some(model) = &c.model {
                        for name in self.linker.fields(cfi, model, 0) {
                            if name != "id" {
                                e.push_param(Param::json(name));
                            }
                        }
                    }
                }
                for m in c.methods.iter().filter(|m| m.name == action) {
                    for (kind, ty) in &m.bodies {
                        for name in self.linker.fields(cfi, ty, 0) {
                            e.push_param(if kind == "form" {
                                Param::form(name)
                            } else {
                                Param::json(name)
                            });
                        }
                    }
                    for (kind, name) in &m.direct {
                        e.push_param(match kind.as_str() {
                            "query" => Param::query(name),
                            "path" => Param::path(name),
                            "header" => Param::header(name),
                            "cookie" => Param::cookie(name),
                            _ => Param::form(name),
                        });
                    }
                }
            }
            eps.push(e);
        }
        self.out.extend(eps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_and_controllers() {
        let src = "struct Users;\n#[async_trait]\nimpl RestController for Users {\n type Resource = i64;\n async fn list(&self, request: &Request) -> Result<Response, Error> {\n  let page = request.query().get::<i64>(\"page\");\n  Ok(Response::new())\n }\n}\nfn main() {\n Server::new(vec![\n  route!(\"/\" => Index),\n  // route!(\"/old\" => Old),\n  rest!(\"/users\" => Users),\n  engine!(\"/admin\" => admin::engine()),\n  Health::default().route(\"/health\"),\n ]);\n}";
        let f = scan_file(&SourceFile::new("src/main.rs", src));
        assert_eq!(f.controllers.len(), 1);
        let c = &f.controllers[0];
        assert_eq!(
            (c.name.as_str(), c.traits[0].as_str()),
            ("Users", "RestController")
        );
        assert_eq!(
            c.methods[0].direct,
            [("query".to_string(), "page".to_string())]
        );
        let (_, list) = &f.lists[0];
        assert_eq!(list.len(), 4);
        assert!(matches!(&list[0], Entry::Handler { line: 12, .. }));
        assert!(
            matches!(&list[3], Entry::Handler { kind, controller, .. } if kind == "route" && controller == "Health")
        );
    }

    #[test]
    fn broken_code_does_not_panic() {
        for src in [
            "fn m() { route!(",
            "fn m() { rest!(\"/x\" => ) }",
            "impl Controller for {",
            "fn m() { X::default().route( }",
        ] {
            scan_file(&SourceFile::new("src/main.rs", src));
        }
    }
}
