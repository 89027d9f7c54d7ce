//! Lua: Lapis (`lua_lapis`) and lor (`lua_lor`).
//!
//! - Lapis: `app:get("/x", function(self) … end)` (`post`, `put`,
//!   `delete`, `patch`), `app:match("/x", …)` (every method, or those of
//!   a `respond_to({ GET = …, POST = … })`), named routes
//!   (`app:match("user", "/user/:id", …)`). Sub-applications: `local users
//!   = lapis.Application()` with `users.path = "/users"` (or
//!   `users:include(…, { path = "/p" })`), included from another file with
//!   `app:include(require("apps.users"))` / `app:include("apps.users", {
//!   path = "/p" })`. Reads: `self.params.x` / `self.params["x"]` query on
//!   GET, form otherwise, `self.req.headers["x"]` header, `self.cookies.x`
//!   cookie.
//! - lor: `app:get("/x", function(req, res, next) … end)`, routers
//!   (`local r = lor:Router()`) mounted with `app:use("/api", r())` or
//!   from another file (`local user_router = require("app.routes.user")`).
//!   Reads: `req.query.x` query, `req.body.x` form (json when the app uses
//!   a JSON body parser), `req.headers["x"]` header, `req.cookie`… cookie.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, reads, verb_calls, Kind, Read, ANY, LUA};

const LAPIS_READS: &[Read] = &[
    ("self.params.", Kind::QueryOrForm),
    ("self.params[", Kind::QueryOrForm),
    ("self.req.headers[", Kind::Fixed(ParamKind::Header)),
    ("self.req.headers.", Kind::Fixed(ParamKind::Header)),
    ("self.cookies.", Kind::Fixed(ParamKind::Cookie)),
    ("self.cookies[", Kind::Fixed(ParamKind::Cookie)),
];

const LOR_READS: &[Read] = &[
    ("req.query.", Kind::Fixed(ParamKind::Query)),
    ("req.query[", Kind::Fixed(ParamKind::Query)),
    ("req.body.", Kind::Fixed(ParamKind::Form)),
    ("req.body[", Kind::Fixed(ParamKind::Form)),
    ("req.headers[", Kind::Fixed(ParamKind::Header)),
    ("req.headers.", Kind::Fixed(ParamKind::Header)),
    ("req.cookie.get(", Kind::Fixed(ParamKind::Cookie)),
    ("req.cookie:get(", Kind::Fixed(ParamKind::Cookie)),
];

/// One Lua file: routes by receiver, sub-app paths, requires, mounts and
/// what the module returns.
#[derive(Serialize, Deserialize, Default)]
struct LuaFile {
    module: String,
    routes: Vec<(String, Endpoint)>,
    paths: Vec<(String, String)>,
    requires: Vec<(String, String)>,
    /// (receiver, prefix, target: a variable or a module name)
    mounts: Vec<(String, String, String)>,
    returns: String,
}

fn module_of(path: &str) -> String {
    let rel = portolan_plugin_sdk::paths::below_base(path).replace('\\', "/");
    rel.trim_end_matches(".lua")
        .trim_end_matches("/init")
        .replace('/', ".")
}

fn lua_tech(id: &str, name: &str, aliases: &[&str], needle: &str) -> Tech {
    Tech::new(id, "Lua", name)
        .aliases(aliases.iter().copied())
        .files(["*.lua"])
        .detect(Detect::files(["*.lua"]).regex([format!(r#"require\s*\(?\s*["']{needle}["']"#)]))
        .detect(Detect::files(["*.rockspec"]).contains([needle.to_string()]))
        .supports(Supports::HTTP)
}

fn scan(file: &SourceFile, table: &[Read], lapis: bool) -> LuaFile {
    let code = file.code(LUA);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut f = LuaFile {
        module: module_of(&file.path),
        ..LuaFile::default()
    };
    let verbs = [
        "get", "post", "put", "delete", "patch", "match", "all", "use", "include",
    ];
    for at in code.find_word("require") {
        let mut p = code.skip_ws(at + 7);
        if bytes.get(p) == Some(&b'(') {
            p += 1;
        }
        let Some(lit) = code.string_at(p) else {
            continue;
        };
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let stmt = &text[line_start..at];
        if let Some((lhs, _)) = stmt.split_once('=') {
            let var = lhs.trim().trim_start_matches("local").trim();
            f.requires.push((var.to_string(), lit.value));
        }
    }
    for at in code.find_all(".path") {
        let Some(recv) = code.ident_before(at) else {
            continue;
        };
        let p = code.skip_ws(at + 5);
        if bytes.get(p) == Some(&b'=') && bytes.get(p + 1) != Some(&b'=') {
            if let Some(lit) = code.string_at(p + 1) {
                f.paths.push((recv.to_string(), lit.value));
            }
        }
    }
    if let Some(at) = code.find_word("return").last() {
        if let Some(id) = code.ident_at(at + 6) {
            f.returns = id.to_string();
        }
    }
    // include/use calls whose first argument is not a string.
    for verb in ["include", "use"] {
        for at in code.find_word(verb) {
            if at == 0 || bytes[at - 1] != b':' {
                continue;
            }
            let Some(recv) = code.ident_before(at - 1) else {
                continue;
            };
            let open = code.skip_ws(at + verb.len());
            if bytes.get(open) != Some(&b'(') {
                continue;
            }
            let args = code.args(open);
            let Some(first) = args.first() else { continue };
            let (prefix, target) = match code
                .string_at(first.start)
                .filter(|s| s.start == first.start)
            {
                Some(s) if verb == "use" => match args.get(1) {
                    Some(t) => (s.value, target_of(&code, t.clone())),
                    None => continue,
                },
                Some(s) => (option_path(&code, args.get(1)), format!("@{}", s.value)),
                None => (
                    option_path(&code, args.get(1)),
                    target_of(&code, first.clone()),
                ),
            };
            if !target.is_empty() {
                f.mounts.push((recv.to_string(), prefix, target));
            }
        }
    }
    for c in verb_calls(&code, &verbs, &[":"], false) {
        if matches!(c.verb.as_str(), "use" | "include") {
            continue;
        }
        let Some(open) = c.paren else { continue };
        let args = code.args(open);
        // Named route: ("name", "/path", handler)
        let (path, handler_arg) = match args
            .get(1)
            .and_then(|a| code.string_at(a.start).filter(|s| s.start == a.start))
        {
            Some(p) => (p.value, args.get(2)),
            None => (c.path.clone(), args.get(1)),
        };
        if !path.starts_with('/') {
            continue;
        }
        // The handler is the last argument; an inline `function … end`
        // may hold top-level commas (`local a, b = f()`) that split it.
        let last_end = args.last().map_or(c.after, |a| a.end);
        let body = handler_arg
            .map(|a| a.start..last_end.max(a.end))
            .unwrap_or(c.after..c.after);
        let mut methods: Vec<(&str, std::ops::Range<usize>)> = Vec::new();
        if c.verb == "match" || c.verb == "all" {
            let h = code.slice(body.clone());
            if let Some(i) = h.find("respond_to") {
                if let Some(o) = h[i..].find('{') {
                    let open = body.start + i + o;
                    for a in code.args(open) {
                        if let Some((k, v)) = code.keyword_arg(a) {
                            if let Some(m) = method_of(k) {
                                methods.push((m, v));
                            }
                        }
                    }
                }
            }
            if methods.is_empty() {
                for m in ANY {
                    methods.push((m, body.clone()));
                }
            }
        } else if let Some(m) = method_of(&c.verb) {
            methods.push((m, body.clone()));
        }
        for (m, b) in methods {
            let mut e = common::endpoint(
                m,
                &path,
                file,
                file.line_of(c.at),
                reads(&code, b, table, m),
            );
            if lapis
                && (c.verb == "match" || c.verb == "all")
                && !code.slice(body.clone()).contains("respond_to")
            {
                e = e.tag(Tag::any_method());
            }
            f.routes.push((c.recv.clone(), e));
        }
    }
    f
}

fn option_path(code: &Code, arg: Option<&std::ops::Range<usize>>) -> String {
    let Some(a) = arg else { return String::new() };
    let s = code.slice(a.clone());
    let Some(i) = s.find("path") else {
        return String::new();
    };
    let rest = &s[i + 4..];
    let Some(eq) = rest.find('=') else {
        return String::new();
    };
    code.string_at(a.start + i + 4 + eq + 1)
        .map(|l| l.value)
        .unwrap_or_default()
}

/// `require("apps.users")` → the module; `user_router()` / `users` → the variable.
fn target_of(code: &Code, r: std::ops::Range<usize>) -> String {
    let s = code.slice(r.clone());
    if let Some(i) = s.find("require") {
        let p = r.start + i + 7;
        let p = code.skip_ws(p);
        let p = if code.text().as_bytes().get(p) == Some(&b'(') {
            p + 1
        } else {
            p
        };
        if let Some(l) = code.string_at(p) {
            return format!("@{}", l.value);
        }
    }
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_string()
}

/// (file, receiver) → the mounts of it: (file, receiver, prefix) of each parent.
type Parents = HashMap<(usize, String), Vec<(usize, String, String)>>;

fn link(files: Vec<LuaFile>) -> Vec<Endpoint> {
    // A mount target, as (module, variable in that module).
    let by_module: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.as_str(), i))
        .collect();
    let find_module = |name: &str| -> Option<usize> {
        by_module.get(name).copied().or_else(|| {
            files
                .iter()
                .position(|f| f.module.ends_with(&format!(".{name}")))
        })
    };
    // (file, var) → [(file, var, prefix)] of its mounts (parents).
    let mut parents: Parents = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for (recv, prefix, target) in &f.mounts {
            let resolved = if let Some(m) = target.strip_prefix('@') {
                find_module(m).map(|j| (j, files[j].returns.clone()))
            } else if let Some((_, m)) = f.requires.iter().find(|(v, _)| v == target) {
                find_module(m).map(|j| (j, files[j].returns.clone()))
            } else {
                Some((i, target.clone()))
            };
            if let Some(key) = resolved {
                parents
                    .entry(key)
                    .or_default()
                    .push((i, recv.clone(), prefix.clone()));
            }
        }
    }
    let mut out = Vec::new();
    for (i, f) in files.iter().enumerate() {
        for (recv, e) in &f.routes {
            for p in chain(&parents, &files, (i, recv.clone()), &mut HashSet::new()) {
                let mut e = e.clone();
                if !p.is_empty() {
                    e.url = join_url(&[&p, &e.url]);
                }
                out.push(e);
            }
        }
    }
    out
}

/// The prefixes of a receiver: its own `.path`, or the prefix it is
/// mounted under (the mount's `path` option wins), after the prefixes of
/// whatever mounts it.
fn chain(
    parents: &Parents,
    files: &[LuaFile],
    key: (usize, String),
    seen: &mut HashSet<(usize, String)>,
) -> Vec<String> {
    let own = files[key.0]
        .paths
        .iter()
        .find(|(v, _)| *v == key.1)
        .map(|(_, p)| p.clone())
        .unwrap_or_default();
    let mut out = Vec::new();
    match parents.get(&key) {
        Some(ps) if seen.insert(key.clone()) => {
            for (file, recv, prefix) in ps {
                let here = if prefix.is_empty() { &own } else { prefix };
                for pp in chain(parents, files, (*file, recv.clone()), seen) {
                    out.push(join_url(&[&pp, here]));
                }
            }
            seen.remove(&key);
        }
        _ => out.push(own),
    }
    out
}

pub struct Lapis;

impl Analyzer for Lapis {
    fn tech(&self) -> Tech {
        lua_tech("lua_lapis", "Lapis", &["lapis", "lua-lapis"], "lapis")
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        out.fact(&scan(file, LAPIS_READS, true));
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts.all()))
    }
}

pub struct Lor;

impl Analyzer for Lor {
    fn tech(&self) -> Tech {
        lua_tech("lua_lor", "lor", &["lor", "lua-lor"], "lor.index")
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        out.fact(&scan(file, LOR_READS, false));
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts.all()))
    }
}
