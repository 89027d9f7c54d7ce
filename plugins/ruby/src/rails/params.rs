//! Controller actions → parameters.
//!
//! A route `admin/users#create` reads what `Admin::UsersController#create`
//! reads, plus what the methods it calls in the same class hierarchy read
//! (`user_params` with its `params.require(:user).permit(...)`, whose
//! `*FIELDS` splats expand to the words of a `FIELDS = %i[...]` / `[:a, :b]`
//! constant of the class or an ancestor), plus the
//! `before_action` callbacks that apply to it (`only:`/`except:` honoured),
//! through superclasses and included modules. Actions inherited from a base
//! controller are found the same way.
//!
//! `params` reads are query parameters on GET/HEAD routes and form
//! parameters otherwise (Rails accepts both encodings; forms are what a
//! browser sends), except in JSON API controllers (an
//! `ActionController::API`/`Metal` ancestor, or CSRF protection turned off with
//! `skip_before_action :verify_authenticity_token`, `protect_from_forgery
//! with: :null_session` or `skip_forgery_protection`), whose bodies are JSON.
//! Permitted names are reported bare (`name`, not `user[name]`), like Noir:
//! JSON clients send them wrapped or, thanks to `wrap_parameters`, flat; in
//! JSON API controllers the `require`d wrapper (`user`) is reported too.
//! `params` read by a `before_action` an ancestor declares for every action
//! (authentication: `params[:api_key]`) are query parameters on every
//! method: the same callback serves GET and POST alike. Names that are URL placeholders (`:id`) are
//! path parameters and not repeated; `format`, `controller` and `action`
//! are routing keys, not inputs.

use std::collections::{BTreeMap, BTreeSet};

use portolan_plugin_sdk::guard;
use portolan_plugin_sdk::prelude::*;

use super::facts::Fact;
use super::link::Route;
use crate::rb::call::Val;
use crate::rb::inflect::camelize;
use crate::rb::outline::{Class, Method};
use crate::rb::request::Reads;

/// Does a callback declaration (`only:`/`except:`) apply to `action`?
fn applies(call: &crate::rb::outline::ClassCall, action: &str) -> bool {
    let opts = call.args.iter().find(|a| matches!(a, Val::Hash(_)));
    let only = opts.and_then(|o| o.get("only")).map(Val::words);
    let except = opts
        .and_then(|o| o.get("except"))
        .map(Val::words)
        .unwrap_or_default();
    !(only.is_some_and(|o| !o.iter().any(|x| x == action)) || except.iter().any(|x| x == action))
}

/// A JSON API controller: it (or an ancestor) is an `ActionController::API`
/// (or a bare `ActionController::Metal`: no views, no CSRF),
/// or turns CSRF protection off the way token-authenticated JSON APIs do
/// (`skip_before_action :verify_authenticity_token`,
/// `protect_from_forgery with: :null_session`, `skip_forgery_protection`).
fn is_api(chain: &[&Class]) -> bool {
    chain.iter().any(|c| {
        matches!(
            c.superclass.trim_start_matches("::"),
            "ActionController::API" | "ActionController::Metal"
        ) || c.calls.iter().any(|call| match call.name.as_str() {
            "skip_forgery_protection" => true,
            "skip_before_action" => call
                .args
                .iter()
                .any(|a| matches!(a, Val::Sym(s) if s == "verify_authenticity_token")),
            "protect_from_forgery" => call.args.iter().any(|a| {
                a.get("with")
                    .is_some_and(|w| matches!(w, Val::Sym(s) if s == "null_session"))
            }),
            _ => false,
        })
    })
}

pub struct Controllers<'a> {
    /// (root, class name) → class
    by_name: BTreeMap<(&'a str, &'a str), &'a Class>,
    by_any_root: BTreeMap<&'a str, &'a Class>,
    /// Service objects: (root, class name) → class.
    services: BTreeMap<(&'a str, &'a str), &'a Class>,
    /// (root, controller class name) → its file.
    paths: BTreeMap<(&'a str, &'a str), &'a str>,
}

impl<'a> Controllers<'a> {
    pub fn new(facts: &'a [Fact]) -> Self {
        let mut by_name = BTreeMap::new();
        let mut by_any_root = BTreeMap::new();
        let mut services = BTreeMap::new();
        let mut paths = BTreeMap::new();
        for f in facts {
            if let Fact::Controller { root, class, path } = f {
                paths
                    .entry((root.as_str(), class.name.as_str()))
                    .or_insert(path.as_str());
                by_name
                    .entry((root.as_str(), class.name.as_str()))
                    .or_insert(class);
                by_any_root.entry(class.name.as_str()).or_insert(class);
            }
            if let Fact::Service { root, class } = f {
                services
                    .entry((root.as_str(), class.name.as_str()))
                    .or_insert(class);
            }
        }
        Controllers {
            by_name,
            by_any_root,
            services,
            paths,
        }
    }

    fn find(&self, root: &str, name: &str) -> Option<&'a Class> {
        let name = name.trim_start_matches("::");
        self.by_name
            .get(&(root, name))
            .or_else(|| self.by_any_root.get(name))
            .copied()
    }

    /// A superclass or included module named `name` as seen from `class`.
    fn resolve(&self, root: &str, from: &Class, name: &str) -> Option<&'a Class> {
        let mut ns = from.namespace.clone();
        loop {
            let full = if ns.is_empty() {
                name.to_string()
            } else {
                format!("{ns}::{name}")
            };
            if let Some(c) = self.find(root, &full) {
                if c.name != from.name {
                    return Some(c);
                }
            }
            if ns.is_empty() {
                return None;
            }
            ns = ns
                .rsplit_once("::")
                .map(|(a, _)| a.to_string())
                .unwrap_or_default();
        }
    }

    /// The service class `name` as referenced from namespace `ns`.
    fn service(&self, root: &str, ns: &str, name: &str) -> Option<&'a Class> {
        let name = name.trim_start_matches("::");
        let mut ns = ns.to_string();
        loop {
            let full = if ns.is_empty() {
                name.to_string()
            } else {
                format!("{ns}::{name}")
            };
            if let Some(c) = self.services.get(&(root, full.as_str())) {
                return Some(c);
            }
            if ns.is_empty() {
                return None;
            }
            ns = ns
                .rsplit_once("::")
                .map(|(a, _)| a.to_string())
                .unwrap_or_default();
        }
    }

    /// The class, its included modules, then its ancestors (nearest first).
    fn chain(&self, root: &str, class: &'a Class) -> Vec<&'a Class> {
        let mut out: Vec<&'a Class> = Vec::new();
        let mut cur = Some(class);
        while let Some(c) = cur {
            if out.iter().any(|x| x.name == c.name) || out.len() > 16 {
                break;
            }
            out.push(c);
            for call in &c.calls {
                if call.name == "include" {
                    for a in &call.args {
                        if let Val::Const(m) = a {
                            if let Some(mc) = self.resolve(root, c, m) {
                                if !out.iter().any(|x| x.name == mc.name) {
                                    out.push(mc);
                                }
                            }
                        }
                    }
                }
            }
            cur = if c.superclass.is_empty() {
                None
            } else {
                self.resolve(root, c, &c.superclass)
            };
        }
        out
    }

    /// Authentication and authorization callbacks that run before
    /// `action`: `before_action :authenticate_user!` (Devise),
    /// `:require_login`, `:authorize_admin!` and the like in the controller,
    /// its modules and ancestors (base classes first, `only:`/`except:`
    /// honoured), minus those a `skip_before_action` lifts for the action;
    /// `http_basic_authenticate_with` and CanCanCan's
    /// `load_and_authorize_resource` too.
    fn guards(&self, root: &str, controller: &str, action: &str) -> Vec<ContextEntry> {
        let Some(class) = self.find(root, &format!("{}Controller", camelize(controller))) else {
            return Vec::new();
        };
        let chain = self.chain(root, class);
        let mut out: Vec<ContextEntry> = Vec::new();
        for c in chain.iter().rev() {
            let path = self
                .paths
                .get(&(root, c.name.as_str()))
                .or_else(|| {
                    self.paths
                        .iter()
                        .find(|((_, n), _)| *n == c.name.as_str())
                        .map(|(_, p)| p)
                })
                .copied()
                .unwrap_or("");
            for call in &c.calls {
                if !applies(call, action) {
                    continue;
                }
                let names = || {
                    call.args.iter().filter_map(|a| match a {
                        Val::Sym(s) | Val::Str(s, false) => Some(s.as_str()),
                        _ => None,
                    })
                };
                match call.name.as_str() {
                    "before_action"
                    | "prepend_before_action"
                    | "append_before_action"
                    | "before_filter" => {
                        for name in names() {
                            let loader = ["set_", "load_", "find_", "assign_"]
                                .iter()
                                .any(|p| name.starts_with(p));
                            let Some(kind) = guard::kind(name)
                                .filter(|k| matches!(*k, "auth_guard" | "authz_guard"))
                                .filter(|_| !loader)
                            else {
                                continue;
                            };
                            if !out.iter().any(|g| g.name == name) {
                                out.push(guard::entry(kind, name, "callback", path, call.line));
                            }
                        }
                    }
                    "http_basic_authenticate_with" => {
                        out.push(guard::entry(
                            "auth_guard",
                            &call.name,
                            "callback",
                            path,
                            call.line,
                        ));
                    }
                    "load_and_authorize_resource" | "authorize_resource" => {
                        out.push(guard::entry(
                            "authz_guard",
                            &call.name,
                            "callback",
                            path,
                            call.line,
                        ));
                    }
                    "skip_before_action" | "skip_before_filter" | "skip_action_callback" => {
                        let skipped: Vec<&str> = names().collect();
                        out.retain(|g| !skipped.contains(&g.name.as_str()));
                    }
                    "skip_authorize_resource" | "skip_load_and_authorize_resource" => {
                        out.retain(|g| {
                            !matches!(
                                g.name.as_str(),
                                "load_and_authorize_resource" | "authorize_resource"
                            )
                        });
                    }
                    _ => {}
                }
            }
        }
        out
    }

    fn reads(&self, root: &str, controller: &str, action: &str) -> Option<(Reads, bool)> {
        let class = self.find(root, &format!("{}Controller", camelize(controller)))?;
        let chain = self.chain(root, class);
        let api = is_api(&chain);
        let method = |name: &str| -> Option<&'a Method> {
            chain
                .iter()
                .find_map(|c| c.methods.iter().find(|m| m.name == name))
        };
        let mut todo: Vec<String> = vec![action.to_string()];
        // Callbacks every action of an ancestor runs (authentication,
        // locale…): what they read from `params` is sent the same way to
        // GET and POST actions alike, i.e. in the query string.
        let mut shared_todo: Vec<String> = Vec::new();
        // before_action callbacks applying to this action, base classes first.
        for (depth, c) in chain.iter().enumerate().rev() {
            for call in &c.calls {
                if !matches!(
                    call.name.as_str(),
                    "before_action" | "prepend_before_action" | "before_filter"
                ) {
                    continue;
                }
                if !applies(call, action) {
                    continue;
                }
                let only = call
                    .args
                    .iter()
                    .find(|a| matches!(a, Val::Hash(_)))
                    .and_then(|o| o.get("only"));
                let inherited = depth > 0 && only.is_none();
                for a in &call.args {
                    if let Val::Sym(name) = a {
                        if inherited {
                            shared_todo.push(name.clone());
                        } else {
                            todo.push(name.clone());
                        }
                    }
                }
            }
        }
        let collect = |mut todo: Vec<String>| {
            let mut reads = Reads::default();
            let mut seen = BTreeSet::new();
            // Methods and services expanded (names that resolve to
            // nothing, such as locals used as receivers, do not count).
            let mut expanded = 0usize;
            while let Some(name) = todo.pop() {
                if !seen.insert(name.clone()) || expanded > 64 {
                    continue;
                }
                // `params.permit(*FIELDS)`: the class constant's words.
                if let Some(c) = name.strip_prefix('*') {
                    if let Some((_, words)) = chain
                        .iter()
                        .find_map(|cl| cl.consts.iter().find(|(n, _)| n == c))
                    {
                        for w in words {
                            if !reads.params.contains(w) {
                                reads.params.push(w.clone());
                            }
                        }
                    }
                    continue;
                }
                // `Finder.new(user, params)`: every `params` read of the
                // service class (and the services it hands them to).
                if let Some(svc) = name.strip_prefix("new:") {
                    if let Some(sc) = self.service(root, &class.namespace, svc) {
                        expanded += 1;
                        for m in &sc.methods {
                            reads.merge(&m.reads);
                            // Nested services resolve from this one's namespace.
                            for callee in
                                m.reads.calls.iter().filter_map(|c| c.strip_prefix("new:"))
                            {
                                if let Some(next) = self.service(root, &sc.namespace, callee) {
                                    todo.push(format!("new:{}", next.name));
                                }
                            }
                        }
                    }
                    continue;
                }
                if let Some(m) = method(&name) {
                    expanded += 1;
                    reads.merge(&m.reads);
                    for callee in &m.reads.calls {
                        todo.push(callee.clone());
                    }
                }
            }
            reads
        };
        let mut reads = collect(todo);
        let mut shared = collect(shared_todo);
        for p in std::mem::take(&mut shared.params) {
            if !reads.params.contains(&p) && !shared.query.contains(&p) {
                shared.query.push(p);
            }
        }
        reads.merge(&shared);
        Some((reads, api))
    }

    pub fn endpoint(&self, r: Route) -> Endpoint {
        let mut e = Endpoint::new(r.method, r.url.clone()).at_path(&r.file, r.line);
        for p in &r.params {
            e.push_param(p.clone());
        }
        let own: Vec<ContextEntry> = r
            .guard
            .iter()
            .map(|(kind, name)| guard::entry(kind, name, "callback", &r.file, r.line))
            .collect();
        e.ai_context = guard::context(own.clone());
        let (Some(ctrl), Some(action)) = (&r.controller, &r.action) else {
            return e;
        };
        let mut guards = own;
        for g in self.guards(&r.root, ctrl, action) {
            if !guards.iter().any(|x| x.name == g.name) {
                guards.push(g);
            }
        }
        e.ai_context = guard::context(guards);
        let Some((reads, api)) = self.reads(&r.root, ctrl, action) else {
            return e;
        };
        let body = |name: &str| {
            if api {
                Param::json(name)
            } else {
                Param::form(name)
            }
        };
        let placeholders: Vec<&str> = r
            .url
            .split('/')
            .filter_map(|s| s.strip_prefix(':'))
            .collect();
        let skip =
            |n: &str| placeholders.contains(&n) || matches!(n, "format" | "controller" | "action");
        let query_like = matches!(r.method, "GET" | "HEAD");
        for name in reads.params.iter().filter(|n| !skip(n)) {
            e.push_param(if query_like {
                Param::query(name)
            } else {
                body(name)
            });
        }
        for name in reads.query.iter().filter(|n| !skip(n)) {
            e.push_param(Param::query(name));
        }
        for name in reads.body.iter().filter(|n| !skip(n)) {
            e.push_param(body(name));
        }
        if api && !query_like {
            for name in reads.wrappers.iter().filter(|n| !skip(n)) {
                e.push_param(Param::json(name));
            }
        }
        for name in &reads.headers {
            e.push_param(Param::header(name));
        }
        for name in &reads.cookies {
            e.push_param(Param::cookie(name));
        }
        e
    }
}
