//! Link step: interpret the routing DSL of every `draw` block with the
//! whole tree at hand (partials, engines, concerns, constants), then give
//! each route the parameters its controller action reads.

use std::collections::{BTreeMap, BTreeSet};

use portolan_plugin_sdk::prelude::*;

use super::facts::{Fact, Node};
use super::params::Controllers;
use crate::rb::call::{Call, Val};
use crate::rb::inflect::{camelize, singularize, underscore};

/// A route found by the interpreter, before parameters.
#[derive(Clone, Debug)]
pub struct Route {
    pub method: &'static str,
    pub url: String,
    pub file: String,
    pub line: u32,
    pub root: String,
    /// `admin/users` and `index`, when known.
    pub controller: Option<String>,
    pub action: Option<String>,
    /// Parameters known from the route itself (Devise's own controllers).
    pub params: Vec<Param>,
    /// A guard known from the route itself (Devise's `authenticate_scope!`).
    pub guard: Option<(&'static str, &'static str)>,
}

#[derive(Clone, Debug)]
struct Resource {
    controller: String,
    collection: String,
    member: String,
    nested: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Nested,
    Member,
    Collection,
}

#[derive(Clone, Debug, Default)]
struct Scope {
    path: String,
    /// Prefix for shallow member routes: the scope path outside resources.
    shallow_prefix: String,
    module: String,
    controller: Option<String>,
    shallow: bool,
    resource: Option<(Resource, Place)>,
    file: String,
    root: String,
    depth: usize,
}

const ALL_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const VERBS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// One `draw` (or `add_routes`) block: (file, app root, nodes).
type Draw<'a> = (&'a str, &'a str, &'a [Node]);

struct Interp<'a> {
    consts: BTreeMap<String, Val>,
    partials: BTreeMap<(String, String), (&'a str, &'a [Node])>,
    /// Every draw of an engine's routes (several files may add to one
    /// engine: `Shop::Engine.add_routes do … end` in each extension).
    engines: BTreeMap<String, Vec<Draw<'a>>>,
    isolate: BTreeMap<String, String>,
    concerns: BTreeMap<String, (String, String, Vec<Node>)>,
    used_partials: BTreeSet<(String, String)>,
    mounted: BTreeSet<String>,
    /// Devise model class → its modules.
    devise: BTreeMap<String, Vec<String>>,
    out: Vec<Route>,
}

pub fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let mut it = Interp {
        consts: BTreeMap::new(),
        partials: BTreeMap::new(),
        engines: BTreeMap::new(),
        isolate: BTreeMap::new(),
        concerns: BTreeMap::new(),
        used_partials: BTreeSet::new(),
        mounted: BTreeSet::new(),
        devise: BTreeMap::new(),
        out: Vec::new(),
    };
    let mut apps: Vec<(&str, &str, &[Node])> = Vec::new();
    for f in facts {
        match f {
            Fact::Const { name, value } => {
                it.consts
                    .entry(name.clone())
                    .or_insert_with(|| value.clone());
            }
            Fact::Engine { name, isolate } => {
                if let Some(ns) = isolate {
                    it.isolate.insert(name.clone(), underscore(ns));
                }
            }
            Fact::Routes {
                path,
                root,
                draws,
                partial,
            } => {
                for (router, nodes) in draws {
                    if router == "app" {
                        apps.push((path, root, nodes));
                    } else {
                        it.engines.entry(router.clone()).or_default().push((
                            path.as_str(),
                            root.as_str(),
                            nodes.as_slice(),
                        ));
                    }
                }
                if let Some((name, nodes)) = partial {
                    if draws.is_empty() {
                        it.partials.insert(
                            (root.clone(), name.clone()),
                            (path.as_str(), nodes.as_slice()),
                        );
                    }
                }
            }
            Fact::Devise { model, modules } => {
                // A model may call `devise` several times.
                it.devise
                    .entry(model.clone())
                    .or_default()
                    .extend(modules.iter().cloned());
            }
            Fact::Controller { .. } | Fact::Service { .. } => {}
        }
    }
    for (path, root, nodes) in &apps {
        let scope = Scope {
            file: path.to_string(),
            root: root.to_string(),
            ..Scope::default()
        };
        it.nodes(nodes, &scope);
    }
    // Engines nobody mounts (a host app outside the tree may): at their own
    // paths. Partials nobody draws (a dynamic `draw` we could not read): at
    // the root of their app.
    let engines: Vec<_> = it
        .engines
        .iter()
        .filter(|(name, _)| !it.mounted.contains(*name))
        .flat_map(|(name, v)| v.iter().map(move |d| (name.clone(), *d)))
        .collect();
    for (name, (path, root, nodes)) in engines {
        let scope = Scope {
            file: path.to_string(),
            root: root.to_string(),
            module: it.isolate.get(&name).cloned().unwrap_or_default(),
            ..Scope::default()
        };
        it.nodes(nodes, &scope);
    }
    let partials: Vec<_> = it
        .partials
        .iter()
        .filter(|(k, _)| !it.used_partials.contains(*k))
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    for ((root, _), (path, nodes)) in partials {
        let scope = Scope {
            file: path.to_string(),
            root,
            ..Scope::default()
        };
        it.nodes(nodes, &scope);
    }
    let controllers = Controllers::new(facts);
    it.out
        .into_iter()
        .map(|r| controllers.endpoint(r))
        .collect()
}

/// Drop optional groups `(…)` (`(.:format)`, `(:locale)`), turn globs
/// `*path` into `:path`.
pub fn clean_path(p: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in p.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = (depth - 1).max(0),
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out.split('/')
        .map(|seg| match seg.strip_prefix('*') {
            Some(name) if !name.is_empty() => format!(":{name}"),
            _ => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The path with its optional groups filled in (`photos(/:filter)` →
/// `photos/:filter`), format groups (`(.:format)`) still dropped; `None`
/// when that is the path without the groups.
fn fill_optional(p: &str) -> Option<String> {
    if !p.contains('(') {
        return None;
    }
    let mut out = String::new();
    let mut rest = p;
    while let Some(at) = rest.find('(') {
        out.push_str(&rest[..at]);
        let group = &rest[at + 1..];
        let mut depth = 1usize;
        let end = group.char_indices().find_map(|(k, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(k)
        })?;
        let inner = &group[..end];
        if !inner.starts_with('.') {
            out.extend(inner.chars().filter(|c| *c != '(' && *c != ')'));
        }
        rest = &group[end + 1..];
    }
    out.push_str(rest);
    let filled = clean_path(&out);
    (filled != clean_path(p)).then_some(filled)
}

fn join(a: &str, b: &str) -> String {
    let b = clean_path(b);
    if b.is_empty() || b == "/" {
        return a.to_string();
    }
    let mut s = a.trim_end_matches('/').to_string();
    s.push('/');
    s.push_str(b.trim_start_matches('/'));
    s
}

fn pluralize(word: &str) -> String {
    if word.ends_with('s') || word.ends_with('x') || word.ends_with("ch") || word.ends_with("sh") {
        format!("{word}es")
    } else if let Some(stem) = word
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'i', 'o', 'u']))
    {
        format!("{stem}ies")
    } else {
        format!("{word}s")
    }
}

impl<'a> Interp<'a> {
    /// A string/symbol value, constants and `#{CONST}` resolved.
    fn text(&self, v: &Val) -> Option<String> {
        self.text_depth(v, 0)
    }

    fn text_depth(&self, v: &Val, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        match v {
            Val::Str(s, false) | Val::Sym(s) => Some(s.clone()),
            Val::Str(s, true) => {
                let mut out = String::new();
                let mut rest = s.as_str();
                while let Some(i) = rest.find("#{") {
                    out.push_str(&rest[..i]);
                    let after = &rest[i + 2..];
                    let end = after.find('}')?;
                    let name = after[..end].trim();
                    let name = name.rsplit("::").next().unwrap_or(name);
                    let val = self.consts.get(name)?;
                    out.push_str(&self.text_depth(val, depth + 1)?);
                    rest = &after[end + 1..];
                }
                out.push_str(rest);
                Some(out)
            }
            Val::Const(c) => {
                let name = c.rsplit("::").next().unwrap_or(c);
                let val = self.consts.get(name)?;
                self.text_depth(val, depth + 1)
            }
            Val::Concat(parts) => parts
                .iter()
                .map(|p| self.text_depth(p, depth + 1))
                .collect(),
            _ => None,
        }
    }

    fn opt_text(&self, call: &Call, key: &str) -> Option<String> {
        call.opt(key).and_then(|v| self.text(v))
    }

    fn emit(
        &mut self,
        method: &'static str,
        url: String,
        s: &Scope,
        line: u32,
        ca: (Option<String>, Option<String>),
    ) {
        self.out.push(Route {
            method,
            url: if url.is_empty() { "/".into() } else { url },
            file: s.file.clone(),
            line,
            root: s.root.clone(),
            controller: ca.0,
            action: ca.1,
            params: Vec::new(),
            guard: None,
        });
    }

    /// `devise_for :users` (Devise): the routes of the modules the model
    /// declares (`devise :database_authenticatable, :registerable, …`;
    /// the generator's default set when the model is not in the tree),
    /// under `path:` (default: the resource name) with `path_names:`,
    /// `skip:`/`only:`, `controllers:` (custom controllers read their own
    /// params) and `sign_out_via:`. The default controllers' params are the
    /// fields Devise reads (`user[email]` reported bare, as `permit` is).
    /// OmniAuth callbacks are not drawn (their providers are configuration).
    fn devise_for(&mut self, n: &Node, s: &Scope) {
        let c = &n.call;
        let names: Vec<String> = c
            .args
            .iter()
            .filter_map(|a| match a {
                Val::Sym(x) | Val::Str(x, false) => Some(x.clone()),
                _ => None,
            })
            .collect();
        let skip: Vec<String> = c.opt("skip").map(Val::words).unwrap_or_default();
        let only: Option<Vec<String>> = c.opt("only").map(Val::words);
        let via = c
            .opt("sign_out_via")
            .map(Val::words)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|v| {
                ALL_METHODS
                    .iter()
                    .find(|m| m.eq_ignore_ascii_case(&v))
                    .copied()
            })
            .collect::<Vec<_>>();
        let sign_out: Vec<&'static str> = if via.is_empty() { vec!["DELETE"] } else { via };
        let path_name = |key: &str, default: &str| -> String {
            c.opt("path_names")
                .and_then(|h| h.get(key))
                .and_then(|v| self.text(v))
                .unwrap_or_else(|| default.to_string())
        };
        let names_of = |k: &str, d: &str| path_name(k, d);
        let (sign_in, sign_out_seg, sign_up) = (
            names_of("sign_in", "sign_in"),
            names_of("sign_out", "sign_out"),
            names_of("sign_up", "sign_up"),
        );
        let (password, confirmation, unlock, registration) = (
            names_of("password", "password"),
            names_of("confirmation", "confirmation"),
            names_of("unlock", "unlock"),
            names_of("registration", ""),
        );
        let (new, edit, cancel) = (
            names_of("new", "new"),
            names_of("edit", "edit"),
            names_of("cancel", "cancel"),
        );
        let mut routes: Vec<Route> = Vec::new();
        for name in names {
            let model = match self.opt_text(c, "class_name") {
                Some(cn) => cn.rsplit("::").next().unwrap_or(&cn).to_string(),
                None => camelize(&singularize(&name)),
            };
            let modules: Vec<String> = self.devise.get(&model).cloned().unwrap_or_else(|| {
                [
                    "database_authenticatable",
                    "registerable",
                    "recoverable",
                    "rememberable",
                    "validatable",
                ]
                .iter()
                .map(|m| m.to_string())
                .collect()
            });
            // devise-two-factor's module signs in as
            // `database_authenticatable` does.
            let has = |m: &str| {
                modules.iter().any(|x| {
                    x == m || (m == "database_authenticatable" && x == "two_factor_authenticatable")
                })
            };
            let wanted = |ctrl: &str| {
                !skip.iter().any(|x| x == ctrl || x == "all")
                    && only.as_ref().is_none_or(|o| o.iter().any(|x| x == ctrl))
            };
            let base = join(&s.path, &self.opt_text(c, "path").unwrap_or(name.clone()));
            let controller = |ctrl: &str| -> Option<String> {
                c.opt("controllers")
                    .and_then(|h| h.get(ctrl))
                    .and_then(|v| self.text(v))
            };
            let form =
                |names: &[&str]| -> Vec<Param> { names.iter().map(|n| Param::form(*n)).collect() };
            let query =
                |names: &[&str]| -> Vec<Param> { names.iter().map(|n| Param::query(*n)).collect() };
            // (module, controller, [(methods, path, action, params)])
            type Row = (Vec<&'static str>, String, &'static str, Vec<Param>);
            let mut groups: Vec<(&str, &str, Vec<Row>)> = Vec::new();
            let mut login = vec!["email", "password"];
            if has("rememberable") {
                login.push("remember_me");
            }
            groups.push((
                "database_authenticatable",
                "sessions",
                vec![
                    (vec!["GET"], join(&base, &sign_in), "new", Vec::new()),
                    (vec!["POST"], join(&base, &sign_in), "create", form(&login)),
                    (
                        sign_out.clone(),
                        join(&base, &sign_out_seg),
                        "destroy",
                        Vec::new(),
                    ),
                ],
            ));
            let pw = join(&base, &password);
            groups.push((
                "recoverable",
                "passwords",
                vec![
                    (vec!["GET"], join(&pw, &new), "new", Vec::new()),
                    (
                        vec!["GET"],
                        join(&pw, &edit),
                        "edit",
                        query(&["reset_password_token"]),
                    ),
                    (
                        vec!["PATCH", "PUT"],
                        pw.clone(),
                        "update",
                        form(&["reset_password_token", "password", "password_confirmation"]),
                    ),
                    (vec!["POST"], pw.clone(), "create", form(&["email"])),
                ],
            ));
            let reg = join(&base, &registration);
            groups.push((
                "registerable",
                "registrations",
                vec![
                    (vec!["GET"], join(&reg, &cancel), "cancel", Vec::new()),
                    (vec!["GET"], join(&reg, &sign_up), "new", Vec::new()),
                    (vec!["GET"], join(&reg, &edit), "edit", Vec::new()),
                    (
                        vec!["PATCH", "PUT"],
                        reg.clone(),
                        "update",
                        form(&[
                            "email",
                            "password",
                            "password_confirmation",
                            "current_password",
                        ]),
                    ),
                    (vec!["DELETE"], reg.clone(), "destroy", Vec::new()),
                    (
                        vec!["POST"],
                        reg.clone(),
                        "create",
                        form(&["email", "password", "password_confirmation"]),
                    ),
                ],
            ));
            let conf = join(&base, &confirmation);
            groups.push((
                "confirmable",
                "confirmations",
                vec![
                    (vec!["GET"], join(&conf, &new), "new", Vec::new()),
                    (
                        vec!["GET"],
                        conf.clone(),
                        "show",
                        query(&["confirmation_token"]),
                    ),
                    (vec!["POST"], conf.clone(), "create", form(&["email"])),
                ],
            ));
            let un = join(&base, &unlock);
            groups.push((
                "lockable",
                "unlocks",
                vec![
                    (vec!["GET"], join(&un, &new), "new", Vec::new()),
                    (vec!["GET"], un.clone(), "show", query(&["unlock_token"])),
                    (vec!["POST"], un.clone(), "create", form(&["email"])),
                ],
            ));
            for (module, ctrl, rows) in groups {
                if !has(module) || !wanted(ctrl) {
                    continue;
                }
                let custom = controller(ctrl);
                for (methods, url, action, params) in rows {
                    for m in methods {
                        routes.push(Route {
                            method: m,
                            url: if url.is_empty() {
                                "/".into()
                            } else {
                                url.clone()
                            },
                            file: s.file.clone(),
                            line: n.line,
                            root: s.root.clone(),
                            controller: custom.clone(),
                            action: custom.as_ref().map(|_| action.to_string()),
                            params: params.clone(),
                            // Devise::RegistrationsController signs in
                            // first for edit/update/destroy.
                            guard: (ctrl == "registrations"
                                && matches!(action, "edit" | "update" | "destroy"))
                            .then_some(("auth_guard", "authenticate_scope!")),
                        });
                    }
                }
            }
        }
        self.out.extend(routes);
    }

    fn qualify(&self, s: &Scope, controller: &str) -> String {
        if let Some(abs) = controller.strip_prefix('/') {
            abs.to_string()
        } else if s.module.is_empty() {
            controller.to_string()
        } else {
            format!("{}/{}", s.module, controller)
        }
    }

    fn nodes(&mut self, nodes: &[Node], s: &Scope) {
        for n in nodes {
            self.node(n, s);
        }
    }

    fn body(&mut self, n: &Node, s: &Scope) {
        if let Some(body) = &n.body {
            self.nodes(body, s);
        }
    }

    fn node(&mut self, n: &Node, s: &Scope) {
        if s.depth > 32 {
            return;
        }
        let c = &n.call;
        if !c.recv.is_empty() && c.recv != "self" {
            return;
        }
        match c.name.as_str() {
            v if VERBS.contains(&v) => self.verb(n, s, &[]),
            "match" => {
                let via: Vec<String> = c.opt("via").map(Val::words).unwrap_or_default();
                let methods: Vec<&'static str> = if via.iter().any(|v| v == "all") {
                    ALL_METHODS.to_vec()
                } else if via.is_empty() {
                    vec!["GET"]
                } else {
                    via.iter()
                        .filter_map(|v| {
                            ALL_METHODS
                                .iter()
                                .chain(["OPTIONS", "HEAD"].iter())
                                .find(|m| m.eq_ignore_ascii_case(v))
                                .copied()
                        })
                        .collect()
                };
                self.verb(n, s, &methods);
            }
            "root" => {
                let to = c
                    .first()
                    .and_then(|v| self.text(v))
                    .or_else(|| self.opt_text(c, "to"));
                let ca = match to.as_deref().and_then(|t| t.split_once('#')) {
                    Some((ctrl, act)) => (Some(self.qualify(s, ctrl)), Some(act.to_string())),
                    None => (
                        self.opt_text(c, "controller").map(|x| self.qualify(s, &x)),
                        self.opt_text(c, "action").or(Some("index".into())),
                    ),
                };
                let url = match &s.resource {
                    Some((r, _)) => r.collection.clone(),
                    None => s.path.clone(),
                };
                self.emit("GET", url, s, n.line, ca);
            }
            "resources" | "resource" => self.resources(n, s, c.name == "resource"),
            "devise_for" => self.devise_for(n, s),
            "namespace" => {
                let Some(name) = c.first().and_then(|v| self.text(v)) else {
                    return self.body(n, s);
                };
                let seg = self.opt_text(c, "path").unwrap_or_else(|| name.clone());
                let module = self.opt_text(c, "module").unwrap_or(name);
                let mut inner = self.enter(s, &seg);
                inner.module = self.qualify(s, &module);
                if let Some(sp) = self.opt_text(c, "shallow_path") {
                    inner.shallow_prefix = join(&inner.shallow_prefix, &sp);
                }
                if c.opt("shallow").is_some_and(Val::is_true) {
                    inner.shallow = true;
                }
                self.body(n, &inner);
            }
            "scope" => {
                let seg = c
                    .first()
                    .and_then(|v| self.text(v))
                    .or_else(|| self.opt_text(c, "path"))
                    .unwrap_or_default();
                let mut inner = self.enter(s, &seg);
                if let Some(m) = self.opt_text(c, "module") {
                    inner.module = self.qualify(s, &m);
                }
                if let Some(ctrl) = self.opt_text(c, "controller") {
                    inner.controller = Some(ctrl);
                }
                if let Some(sp) = self.opt_text(c, "shallow_path") {
                    inner.shallow_prefix = join(&inner.shallow_prefix, &sp);
                }
                if c.opt("shallow").is_some_and(Val::is_true) {
                    inner.shallow = true;
                }
                self.body(n, &inner);
            }
            "controller" => {
                let mut inner = s.clone();
                if let Some(ctrl) = c.first().and_then(|v| self.text(v)) {
                    inner.controller = Some(ctrl);
                }
                if let Some(p) = self.opt_text(c, "path") {
                    inner = self.enter(&inner, &p);
                }
                self.body(n, &inner);
            }
            "member" | "collection" | "new" => {
                let Some((r, _)) = &s.resource else {
                    return self.body(n, s);
                };
                let mut inner = s.clone();
                let (path, place) = match c.name.as_str() {
                    "member" => (r.member.clone(), Place::Member),
                    "collection" => (r.collection.clone(), Place::Collection),
                    _ => (join(&r.collection, "new"), Place::Collection),
                };
                inner.path = path;
                inner.resource = Some((r.clone(), place));
                self.body(n, &inner);
            }
            "shallow" => {
                let mut inner = s.clone();
                inner.shallow = true;
                self.body(n, &inner);
            }
            "concern" => {
                if let (Some(name), Some(body)) = (c.first().and_then(|v| self.text(v)), &n.body) {
                    self.concerns
                        .insert(name, (s.file.clone(), s.root.clone(), body.clone()));
                }
            }
            "concerns" => {
                let names: Vec<String> = c
                    .args
                    .iter()
                    .filter(|a| !matches!(a, Val::Hash(_)))
                    .flat_map(|a| a.words())
                    .collect();
                self.apply_concerns(&names, s);
            }
            "draw" => {
                let Some(name) = c.first().and_then(|v| self.text(v)) else {
                    return;
                };
                let key = (s.root.clone(), name);
                if let Some((path, nodes)) = self.partials.get(&key).copied() {
                    self.used_partials.insert(key);
                    let mut inner = s.clone();
                    inner.file = path.to_string();
                    inner.depth += 1;
                    self.nodes(nodes, &inner);
                }
            }
            "mount" => self.mount(c, s),
            "direct" | "resolve" => {}
            _ => {
                // constraints, defaults, with_options, conditionals,
                // authenticate blocks, devise_scope…: transparent.
                let mut inner = s.clone();
                inner.depth += 1;
                self.body(n, &inner);
            }
        }
    }

    fn enter(&self, s: &Scope, seg: &str) -> Scope {
        let mut inner = s.clone();
        inner.path = join(&s.path, seg);
        inner.shallow_prefix = join(&s.shallow_prefix, seg);
        inner.depth += 1;
        inner
    }

    fn apply_concerns(&mut self, names: &[String], s: &Scope) {
        for name in names {
            if let Some((file, root, body)) = self.concerns.get(name).cloned() {
                let mut inner = s.clone();
                inner.file = file;
                inner.root = root;
                inner.depth += 1;
                self.nodes(&body, &inner);
            }
        }
    }

    fn mount(&mut self, c: &Call, s: &Scope) {
        // `mount Engine => '/x'`, `mount Engine, at: '/x'`
        let (target, at) = match (c.first(), c.hash()) {
            (Some(Val::Const(k)), h) => (
                Some(k.clone()),
                h.and_then(|h| h.get("at")).and_then(|v| self.text(v)),
            ),
            (_, Some(Val::Hash(pairs))) => match pairs.first() {
                Some((Val::Const(k), v)) => (Some(k.clone()), self.text(v)),
                _ => (None, None),
            },
            _ => (None, None),
        };
        let Some(target) = target else { return };
        let target = target.trim_start_matches("::").to_string();
        let Some(draws) = self.engines.get(&target).cloned() else {
            return;
        };
        if s.depth > 16 {
            return;
        }
        self.mounted.insert(target.clone());
        let at = at.unwrap_or_else(|| {
            // Rails derives the default mount point from the engine name.
            format!("/{}", underscore(target.split("::").next().unwrap_or("")))
        });
        for (path, root, nodes) in draws {
            let mut inner = self.enter(s, &at);
            inner.file = path.to_string();
            inner.root = root.to_string();
            inner.module = self.isolate.get(&target).cloned().unwrap_or_default();
            inner.controller = None;
            inner.resource = None;
            inner.shallow_prefix = inner.path.clone();
            self.nodes(nodes, &inner);
        }
    }

    /// `get`/`post`/… and `match`.
    fn verb(&mut self, n: &Node, s: &Scope, methods: &[&'static str]) {
        let c = &n.call;
        let methods: Vec<&'static str> = if methods.is_empty() {
            match c.name.as_str() {
                "get" => vec!["GET"],
                "post" => vec!["POST"],
                "put" => vec!["PUT"],
                "patch" => vec!["PATCH"],
                _ => vec!["DELETE"],
            }
        } else {
            methods.to_vec()
        };
        // Path and target: `get 'p', to: 'c#a'`, `get 'p' => 'c#a'`,
        // `get :action`, `get 'p', action: :x, controller: :y`.
        let mut to = self.opt_text(c, "to");
        let mut path: Option<String> = None;
        let mut sym_action: Option<String> = None;
        match c.first() {
            Some(Val::Sym(a)) => {
                path = Some(a.clone());
                sym_action = Some(a.clone());
            }
            Some(v) => path = self.text(v),
            None => {
                if let Some(Val::Hash(pairs)) = c.hash() {
                    if let Some((k, v)) = pairs.first() {
                        if let Some(p) = self.text(k) {
                            if matches!(k, Val::Str(..) | Val::Concat(_) | Val::Const(_)) {
                                path = Some(p);
                                to = to.or_else(|| self.text(v));
                            }
                        }
                    }
                }
            }
        }
        if let Some(p) = self.opt_text(c, "path") {
            path = Some(p);
        }
        let Some(path) = path else { return };
        // Prefix by resource context.
        let on = self.opt_text(c, "on");
        let base = match (&s.resource, on.as_deref()) {
            (Some((r, _)), Some("member")) => r.member.clone(),
            (Some((r, _)), Some("collection")) => r.collection.clone(),
            (Some((r, _)), Some("new")) => join(&r.collection, "new"),
            (Some((r, Place::Nested)), _) => r.nested.clone(),
            _ => s.path.clone(),
        };
        let url = join(&base, &path);
        // `get 'photos(/:filter)'` serves `/photos` and `/photos/:filter`.
        let filled = fill_optional(&path).map(|p| join(&base, &p));
        // Controller and action, for parameters.
        let res_ctrl = s.resource.as_ref().map(|(r, _)| r.controller.clone());
        let (ctrl, action) = match to.as_deref().and_then(|t| t.split_once('#')) {
            Some((ctrl, act)) => (Some(self.qualify(s, ctrl)), Some(act.to_string())),
            None => {
                let ctrl = self
                    .opt_text(c, "controller")
                    .map(|x| self.qualify(s, &x))
                    .or(res_ctrl)
                    .or_else(|| s.controller.as_ref().map(|x| self.qualify(s, x)));
                let action = self
                    .opt_text(c, "action")
                    .or(to.filter(|t| !t.contains('/')))
                    .or(sym_action)
                    .or_else(|| {
                        let last = path.trim_matches('/').rsplit('/').next()?;
                        (!last.is_empty() && !last.starts_with(':')).then(|| last.replace('-', "_"))
                    });
                // `get 'photos/search'` at top level: photos#search.
                let ctrl = ctrl.or_else(|| {
                    let trimmed = path.trim_matches('/');
                    let (dir, _) = trimmed.rsplit_once('/')?;
                    (!dir.contains(':')).then(|| self.qualify(s, dir))
                });
                (ctrl, action)
            }
        };
        for url in std::iter::once(url).chain(filled) {
            for m in methods.iter().copied() {
                self.emit(m, url.clone(), s, n.line, (ctrl.clone(), action.clone()));
            }
        }
    }

    fn resources(&mut self, n: &Node, s: &Scope, singular: bool) {
        let c = &n.call;
        let names: Vec<String> = c
            .args
            .iter()
            .filter(|a| !matches!(a, Val::Hash(_)))
            .filter_map(|a| self.text(a))
            .collect();
        for name in names {
            self.one_resource(n, s, singular, &name);
        }
    }

    fn one_resource(&mut self, n: &Node, s: &Scope, singular: bool, name: &str) {
        let c = &n.call;
        let seg = self.opt_text(c, "path").unwrap_or_else(|| name.to_string());
        let ctrl_name = self.opt_text(c, "controller").unwrap_or_else(|| {
            if singular {
                pluralize(name)
            } else {
                name.to_string()
            }
        });
        let module = match self.opt_text(c, "module") {
            Some(m) => self.qualify(s, &m),
            None => s.module.clone(),
        };
        let controller = if let Some(abs) = ctrl_name.strip_prefix('/') {
            abs.to_string()
        } else if module.is_empty() {
            ctrl_name
        } else {
            format!("{module}/{ctrl_name}")
        };
        let param = self.opt_text(c, "param").unwrap_or_else(|| "id".into());
        let shallow = s.shallow || c.opt("shallow").is_some_and(Val::is_true);
        let nested_in_resource = matches!(s.resource, Some((_, Place::Nested)));
        let base = match &s.resource {
            Some((r, Place::Nested)) => r.nested.clone(),
            _ => s.path.clone(),
        };
        let collection = join(&base, &seg);
        let member_base = if shallow && nested_in_resource {
            join(&s.shallow_prefix, &seg)
        } else {
            collection.clone()
        };
        let singular_name = singularize(name);
        let (member, nested) = if singular {
            (collection.clone(), collection.clone())
        } else {
            let nested_param = if param == "id" {
                format!("{singular_name}_id")
            } else {
                format!("{singular_name}_{param}")
            };
            (
                join(&member_base, &format!(":{param}")),
                join(&member_base, &format!(":{nested_param}")),
            )
        };
        // Actions.
        let all: &[&str] = if singular {
            &["create", "new", "edit", "show", "update", "destroy"]
        } else {
            &[
                "index", "create", "new", "edit", "show", "update", "destroy",
            ]
        };
        let only: Option<Vec<String>> = c.opt("only").map(Val::words);
        let except: Vec<String> = c.opt("except").map(Val::words).unwrap_or_default();
        let path_names = c.opt("path_names");
        let new_seg = path_names
            .and_then(|p| p.get("new"))
            .and_then(|v| self.text(v))
            .unwrap_or_else(|| "new".into());
        let edit_seg = path_names
            .and_then(|p| p.get("edit"))
            .and_then(|v| self.text(v))
            .unwrap_or_else(|| "edit".into());
        for action in all {
            if only
                .as_ref()
                .is_some_and(|o| !o.iter().any(|x| x == action))
                || except.iter().any(|x| x == action)
            {
                continue;
            }
            let routes: Vec<(&'static str, String)> = match *action {
                "index" => vec![("GET", collection.clone())],
                "create" => vec![("POST", collection.clone())],
                "new" => vec![("GET", join(&collection, &new_seg))],
                "edit" => vec![("GET", join(&member, &edit_seg))],
                "show" => vec![("GET", member.clone())],
                "update" => vec![("PATCH", member.clone()), ("PUT", member.clone())],
                _ => vec![("DELETE", member.clone())],
            };
            for (m, url) in routes {
                self.emit(
                    m,
                    url,
                    s,
                    n.line,
                    (Some(controller.clone()), Some(action.to_string())),
                );
            }
        }
        let resource = Resource {
            controller,
            collection,
            member,
            nested: nested.clone(),
        };
        let mut inner = s.clone();
        inner.path = nested;
        inner.module = module;
        inner.shallow = shallow;
        inner.resource = Some((resource, Place::Nested));
        inner.depth += 1;
        if let Some(v) = c.opt("concerns") {
            self.apply_concerns(&v.words(), &inner);
        }
        self.body(n, &inner);
    }
}
