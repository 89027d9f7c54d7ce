//! Link step: Grape APIs, their mounts, and the routes of their bodies.

use std::collections::BTreeMap;

use portolan_plugin_sdk::guard;
use portolan_plugin_sdk::prelude::*;

use super::VERBS;
use crate::rb::call::Val;
use crate::rb::classes::{self, ClassInfo};
use crate::rb::dsl::{
    collect_consts, const_of, endpoint_with, join_url, str_value, Body, FileNodes, Node,
};
use crate::rb::rack;
use crate::rb::request::Reads;

const ROOTS: [&str; 2] = ["Grape::API", "Grape::API::Instance"];
const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// Where an API is served from, as seen by its routes.
#[derive(Clone, Debug)]
struct Ctx<'a> {
    rack: String,
    prefix: Option<String>,
    /// `None`: not set; `Some([])`: set without a path segment.
    versions: Option<Vec<String>>,
    /// Namespaces of the mounting APIs plus the mount path.
    ns: String,
    /// Reads of the mounting APIs' `before` blocks.
    filters: Reads,
    /// Helper methods of the mounting APIs (helpers are inherited).
    defs: Vec<&'a Node>,
}

struct World<'a> {
    consts: BTreeMap<String, Val>,
    classes: Vec<ClassInfo<'a>>,
    apis: Vec<String>,
    /// `params :name do … end` shared parameter sets.
    shared: BTreeMap<String, Vec<String>>,
    out: Vec<Endpoint>,
    depth: usize,
}

/// State while walking one API body.
#[derive(Clone, Default)]
struct Walk {
    ns: String,
    /// Declared parameters inherited from enclosing namespaces.
    declared: Vec<String>,
    pending: Option<Vec<String>>,
    pending_headers: Vec<String>,
}

pub fn link(files: &[FileNodes]) -> Vec<Endpoint> {
    let refs: Vec<&FileNodes> = files.iter().collect();
    let mut consts = BTreeMap::new();
    for f in &refs {
        collect_consts(&f.nodes, "", &mut consts);
    }
    let classes = classes::collect(&refs);
    let mut apis: Vec<String> = Vec::new();
    for c in &classes {
        if !c.is_module && classes::descends_from(&classes, c, &ROOTS) && !apis.contains(&c.full) {
            apis.push(c.full.clone());
        }
    }
    let mounts = rack::mounts(&refs, &consts);
    let mut shared = BTreeMap::new();
    for f in &refs {
        shared_params(&f.nodes, &mut shared);
    }
    let mut w = World {
        consts,
        classes,
        apis: apis.clone(),
        shared,
        out: Vec::new(),
        depth: 0,
    };
    // APIs mounted by other APIs are reached through them.
    let mut grape_mounted: Vec<String> = Vec::new();
    for api in &apis {
        for c in classes::all_named(&w.classes, api) {
            collect_mounts(&w, c.body, &c.full, &mut grape_mounted);
        }
    }
    for api in &apis {
        let rack_prefixes = rack::prefixes_of(&mounts, api);
        let roots: Vec<String> = if !rack_prefixes.is_empty() {
            rack_prefixes
        } else if grape_mounted.contains(api) || is_base(&w, api) {
            continue;
        } else {
            vec!["/".to_string()]
        };
        for r in roots {
            let ctx = Ctx {
                rack: r,
                prefix: None,
                versions: None,
                ns: String::new(),
                filters: Reads::default(),
                defs: Vec::new(),
            };
            w.api(api, &ctx);
        }
    }
    w.out
}

fn is_base(w: &World<'_>, api: &str) -> bool {
    w.classes.iter().any(|c| {
        !c.superclass.is_empty()
            && c.full != api
            && classes::resolve(&w.classes, &c.namespace, &c.superclass)
                .is_some_and(|s| s.full == api)
    })
}

/// Every API named by a `mount` in an API body.
fn collect_mounts(w: &World<'_>, nodes: &[Node], ns: &str, out: &mut Vec<String>) {
    for n in nodes {
        match n.name() {
            "class" | "module" | "def" => {}
            "mount" if n.call.recv.is_empty() => {
                for t in mount_targets(n) {
                    if let Some(c) = classes::resolve(&w.classes, ns, &t.0) {
                        if !out.contains(&c.full) {
                            out.push(c.full.clone());
                        }
                    }
                }
            }
            _ => collect_mounts(w, n.children(), ns, out),
        }
    }
}

/// `mount X`, `mount X => '/p'`, `mount X, with: {…}`: (constant, path).
fn mount_targets(n: &Node) -> Vec<(String, Option<Val>)> {
    let mut out = Vec::new();
    for a in &n.call.args {
        match a {
            Val::Hash(pairs) => {
                for (k, v) in pairs {
                    if let Some(t) = const_of(k) {
                        out.push((t, Some(v.clone())));
                    }
                }
            }
            v => {
                if let Some(t) = const_of(v) {
                    out.push((t, None));
                }
            }
        }
    }
    out
}

/// `params :name do … end` anywhere (helpers, helper modules).
fn shared_params(nodes: &[Node], out: &mut BTreeMap<String, Vec<String>>) {
    for n in nodes {
        if n.name() == "params" && n.body.is_some() {
            if let Some(Val::Sym(name)) = n.call.first() {
                out.entry(name.clone())
                    .or_insert_with(|| declared_names(n.children(), &BTreeMap::new()));
                continue;
            }
        }
        shared_params(n.children(), out);
    }
}

/// Names declared by `requires`/`optional` (top level of a params block),
/// with `use :shared` expanded.
fn declared_names(nodes: &[Node], shared: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let push = |n: &str, out: &mut Vec<String>| {
        if !n.is_empty() && !out.iter().any(|x| x == n) {
            out.push(n.to_string());
        }
    };
    for n in nodes {
        match n.name() {
            "requires" | "optional" => {
                for a in &n.call.args {
                    match a {
                        Val::Sym(s) | Val::Str(s, false) if s != "all" && s != "none" => {
                            push(s, &mut out)
                        }
                        _ => {}
                    }
                }
            }
            "use" | "use_scope" | "includes" => {
                for a in &n.call.args {
                    if let Val::Sym(s) = a {
                        for x in shared.get(s).into_iter().flatten() {
                            push(x, &mut out);
                        }
                    }
                }
            }
            "if" | "unless" | "with" | "given" => {
                for x in declared_names(n.children(), shared) {
                    push(&x, &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

impl<'a> World<'a> {
    fn str_of(&self, v: &Val) -> Option<String> {
        str_value(v, &|n| self.consts.get(n).cloned(), 0)
    }

    fn api(&mut self, full: &str, ctx: &Ctx<'a>) {
        if self.depth > 12 {
            return;
        }
        self.depth += 1;
        let bodies: Vec<(&'a [Node], &'a str, String)> = classes::all_named(&self.classes, full)
            .iter()
            .map(|c| (c.body, c.file, c.full.clone()))
            .collect();
        // Class-wide settings.
        let mut prefix = ctx.prefix.clone();
        let mut versions = ctx.versions.clone();
        let mut filters = ctx.filters.clone();
        let mut defs: Vec<&'a Node> = ctx.defs.clone();
        for (body, _, ns) in &bodies {
            self.settings(
                body,
                ns,
                &mut prefix,
                &mut versions,
                &mut filters,
                &mut defs,
            );
        }
        let ctx = Ctx {
            rack: ctx.rack.clone(),
            prefix,
            versions,
            ns: ctx.ns.clone(),
            filters,
            defs,
        };
        for (body, file, ns) in bodies {
            let mut walk = Walk {
                ns: ctx.ns.clone(),
                ..Walk::default()
            };
            self.walk(body, file, &ns, &ctx, &mut walk);
        }
        self.depth -= 1;
    }

    fn settings(
        &self,
        nodes: &'a [Node],
        ns: &str,
        prefix: &mut Option<String>,
        versions: &mut Option<Vec<String>>,
        filters: &mut Reads,
        defs: &mut Vec<&'a Node>,
    ) {
        for n in nodes {
            let c = &n.call;
            if !c.recv.is_empty() {
                continue;
            }
            match c.name.as_str() {
                "prefix" => {
                    if let Some(p) = c.first().and_then(|v| self.str_of(v)) {
                        *prefix = Some(p);
                    }
                }
                "version" => {
                    let using = c.opt("using").and_then(Val::text).unwrap_or("path");
                    let mut vs = Vec::new();
                    for a in c.args.iter().filter(|a| !matches!(a, Val::Hash(_))) {
                        match a {
                            Val::Array(items) => {
                                vs.extend(items.iter().filter_map(|i| self.str_of(i)))
                            }
                            v => vs.extend(self.str_of(v)),
                        }
                    }
                    *versions = Some(if using == "path" { vs } else { Vec::new() });
                }
                "before" | "before_validation" => {
                    if let Some(r) = &n.reads {
                        filters.merge(r);
                        filters.calls.extend(r.calls.iter().cloned());
                    }
                }
                "helpers" => {
                    defs.extend(n.children().iter().filter(|d| d.name() == "def"));
                    for a in &c.args {
                        if let Some(m) = const_of(a) {
                            if let Some(mc) = classes::resolve(&self.classes, ns, &m) {
                                for other in classes::all_named(&self.classes, &mc.full) {
                                    defs.extend(other.body.iter().filter(|d| d.name() == "def"));
                                }
                            }
                        }
                    }
                }
                "def" => defs.push(n),
                _ => {}
            }
        }
    }

    fn base_url(&self, ctx: &Ctx<'_>, ns: &str, version: Option<&str>) -> String {
        join_url(&[
            &ctx.rack,
            ctx.prefix.as_deref().unwrap_or(""),
            version.unwrap_or(""),
            ns,
        ])
    }

    fn walk(
        &mut self,
        nodes: &'a [Node],
        file: &'a str,
        class_ns: &str,
        ctx: &Ctx<'a>,
        st: &mut Walk,
    ) {
        for n in nodes {
            let c = &n.call;
            if !c.recv.is_empty() {
                continue;
            }
            let name = c.name.as_str();
            match name {
                "class" | "module" | "def" | "helpers" | "before" => {}
                "params" if n.body.is_some() && c.first().is_none() => {
                    st.pending = Some(declared_names(n.children(), &self.shared));
                }
                "desc" => {
                    let mut hs = Vec::new();
                    if let Some(Val::Hash(pairs)) = c.opt("headers") {
                        hs.extend(pairs.iter().filter_map(|(k, _)| self.str_of(k)));
                    }
                    for d in n.children().iter().filter(|d| d.name() == "headers") {
                        if let Some(Val::Hash(pairs)) = d.call.hash() {
                            hs.extend(pairs.iter().filter_map(|(k, _)| self.str_of(k)));
                        }
                    }
                    st.pending_headers = hs;
                }
                "namespace" | "resource" | "resources" | "group" | "segment" | "route_param"
                    if n.body.is_some() =>
                {
                    let seg = match c.first().and_then(|v| self.str_of(v)) {
                        Some(s) if name == "route_param" => format!(":{s}"),
                        Some(s) => s,
                        None if name == "group" || name == "segment" => String::new(),
                        None => continue,
                    };
                    let mut inner = Walk {
                        ns: join_url(&[&st.ns, &seg]),
                        declared: st.declared.clone(),
                        pending: None,
                        pending_headers: Vec::new(),
                    };
                    if let Some(p) = st.pending.take() {
                        inner.declared.extend(p);
                    }
                    self.walk(n.children(), file, class_ns, ctx, &mut inner);
                }
                "mount" => {
                    for (target, path) in mount_targets(n) {
                        let Some(child) = classes::resolve(&self.classes, class_ns, &target)
                            .map(|c| c.full.clone())
                            .filter(|f| self.apis.contains(f))
                        else {
                            continue;
                        };
                        let at = path.and_then(|p| self.str_of(&p)).unwrap_or_default();
                        let child_ctx = Ctx {
                            rack: ctx.rack.clone(),
                            prefix: ctx.prefix.clone(),
                            versions: ctx.versions.clone(),
                            ns: join_url(&[&st.ns, &at]),
                            filters: ctx.filters.clone(),
                            defs: ctx.defs.clone(),
                        };
                        self.api(&child, &child_ctx);
                    }
                }
                _ if n.body.is_some()
                    && (VERBS.iter().any(|(v, _)| *v == name) || name == "route") =>
                {
                    let (methods, path) = if name == "route" {
                        let mut methods: Vec<&'static str> = Vec::new();
                        for w in c.first().map(Val::words).unwrap_or_default() {
                            if w.eq_ignore_ascii_case("any") {
                                methods.extend(ANY);
                            } else if let Some((_, m)) =
                                VERBS.iter().find(|(v, _)| v.eq_ignore_ascii_case(&w))
                            {
                                methods.push(*m);
                            }
                        }
                        let path = c.args.get(1).and_then(|v| self.str_of(v));
                        (methods, path.unwrap_or_default())
                    } else {
                        let m = VERBS
                            .iter()
                            .find(|(v, _)| *v == name)
                            .map(|(_, m)| *m)
                            .unwrap_or("GET");
                        (
                            vec![m],
                            c.first().and_then(|v| self.str_of(v)).unwrap_or_default(),
                        )
                    };
                    let mut declared = st.declared.clone();
                    declared.extend(st.pending.take().unwrap_or_default());
                    let headers = std::mem::take(&mut st.pending_headers);
                    let mut reads = Reads {
                        params: declared,
                        headers,
                        ..Reads::default()
                    };
                    if let Some(r) = &n.reads {
                        reads.merge(r);
                        reads.calls.extend(r.calls.iter().cloned());
                    }
                    reads.merge(&ctx.filters);
                    reads.calls.extend(ctx.filters.calls.iter().cloned());
                    resolve_calls(&mut reads, &ctx.defs);
                    let rel = join_url(&[&st.ns, &path]);
                    let versions: Vec<Option<&str>> = match &ctx.versions {
                        Some(v) if !v.is_empty() => v.iter().map(|s| Some(s.as_str())).collect(),
                        _ => vec![None],
                    };
                    // `before { authenticate! }` of the API (or of an API
                    // mounting it), or `authenticate!` / `authorize!` called
                    // in the route block: a guard.
                    let own = n.reads.as_ref().map(|r| r.calls.as_slice()).unwrap_or(&[]);
                    let mut guards: Vec<portolan_plugin_sdk::ContextEntry> = Vec::new();
                    for name in ctx.filters.calls.iter().chain(own) {
                        let explicit = name.ends_with('!')
                            || ["authenticate", "authorize", "require_"]
                                .iter()
                                .any(|p| name.starts_with(p));
                        let kind = guard::kind(name)
                            .filter(|k| matches!(*k, "auth_guard" | "authz_guard"))
                            .filter(|_| explicit);
                        if let Some(kind) = kind {
                            if !guards.iter().any(|g| &g.name == name) {
                                guards.push(guard::entry(kind, name, "callback", file, n.line));
                            }
                        }
                    }
                    for v in versions {
                        let url = self.base_url(ctx, &rel, v);
                        for m in &methods {
                            let mut e = endpoint_with(m, &url, file, n.line, &reads, Body::Json);
                            e.ai_context = guard::context(guards.clone());
                            self.out.push(e);
                        }
                    }
                }
                _ => {
                    if n.body.is_some() {
                        self.walk(n.children(), file, class_ns, ctx, st);
                    }
                }
            }
        }
    }
}

/// Merge the reads of the helper methods a route calls, transitively.
fn resolve_calls(reads: &mut Reads, defs: &[&Node]) {
    let mut todo = reads.calls.clone();
    let mut seen: Vec<String> = Vec::new();
    while let Some(name) = todo.pop() {
        if seen.contains(&name) || seen.len() > 64 {
            continue;
        }
        seen.push(name.clone());
        for d in defs {
            if d.call.args.first() == Some(&Val::Sym(name.clone())) {
                if let Some(r) = &d.reads {
                    reads.merge(r);
                    todo.extend(r.calls.iter().cloned());
                }
            }
        }
    }
}
