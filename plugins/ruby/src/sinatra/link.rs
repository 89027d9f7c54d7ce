//! Link step: apps, their mounts, and the routes of their bodies.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;

use super::VERBS;
use crate::rb::call::Val;
use crate::rb::classes::{self, ClassInfo};
use crate::rb::dsl::{
    collect_consts, const_of, endpoint_with, join_url, str_value, Body, FileNodes, Node,
};
use crate::rb::rack::{self, Mount};
use crate::rb::request::Reads;

const ROOTS: [&str; 2] = ["Sinatra::Base", "Sinatra::Application"];
const CLASSIC: &str = "Sinatra::Application";

/// A route of an app, relative to its mount point.
#[derive(Clone, Debug)]
pub struct Route<'a> {
    pub methods: Vec<&'static str>,
    pub path: String,
    pub file: &'a str,
    pub line: u32,
    pub reads: Reads,
}

/// Routes, filters and helper methods found in an app's body.
#[derive(Default)]
pub struct AppBody<'a> {
    pub routes: Vec<Route<'a>>,
    /// `before [pattern]`: (pattern with namespace prefix, reads).
    pub filters: Vec<(Option<String>, Reads)>,
    pub defs: Vec<&'a Node>,
    /// Nesting depth of the interpretation (a guard against cycles).
    depth: usize,
}

pub struct World<'a> {
    pub consts: BTreeMap<String, Val>,
    pub classes: Vec<ClassInfo<'a>>,
}

impl<'a> World<'a> {
    pub fn new(files: &[&'a FileNodes]) -> Self {
        let mut consts = BTreeMap::new();
        for f in files {
            collect_consts(&f.nodes, "", &mut consts);
        }
        World {
            consts,
            classes: classes::collect(files),
        }
    }

    pub fn str_of(&self, v: &Val) -> Option<String> {
        str_value(v, &|n| self.consts.get(n).cloned(), 0)
    }

    /// Interpret DSL statements. `recv` is the receiver routing calls must
    /// have (`app` in an extension's `registered(app)`), empty for bare
    /// calls; `ns` the enclosing class namespace (for `register`/`helpers`).
    pub fn interp(
        &self,
        nodes: &'a [Node],
        prefix: &str,
        recv: &str,
        file: &'a str,
        ns: &str,
        out: &mut AppBody<'a>,
    ) {
        if out.depth > 24 {
            return;
        }
        out.depth += 1;
        self.interp_nodes(nodes, prefix, recv, file, ns, out);
        out.depth -= 1;
    }

    fn interp_nodes(
        &self,
        nodes: &'a [Node],
        prefix: &str,
        recv: &str,
        file: &'a str,
        ns: &str,
        out: &mut AppBody<'a>,
    ) {
        for n in nodes {
            let c = &n.call;
            let own = if recv.is_empty() {
                c.recv.is_empty() || c.recv == "self"
            } else {
                c.recv == recv
            };
            match c.name.as_str() {
                "class" | "module" => {}
                "def" => {
                    if recv.is_empty() {
                        out.defs.push(n);
                    }
                }
                name if own
                    && n.body.is_some()
                    && c.opt("to").is_none()
                    && VERBS.iter().any(|(v, _)| *v == name) =>
                {
                    let Some(path) = c.first().and_then(|v| match v {
                        Val::Str(..) | Val::Const(_) | Val::Concat(_) => self.str_of(v),
                        _ => None,
                    }) else {
                        continue;
                    };
                    let method = VERBS
                        .iter()
                        .find(|(v, _)| *v == name)
                        .map(|(_, m)| *m)
                        .unwrap_or("GET");
                    out.routes.push(Route {
                        methods: vec![method],
                        path: join_url(&[prefix, &sinatra_path(&path)]),
                        file,
                        line: n.line,
                        reads: n.reads.clone().unwrap_or_default(),
                    });
                }
                "route" if own && n.body.is_some() => {
                    let mut methods = Vec::new();
                    let mut path = None;
                    for a in &c.args {
                        match a {
                            Val::Sym(m) => {
                                if let Some((_, up)) =
                                    VERBS.iter().find(|(v, _)| v.eq_ignore_ascii_case(m))
                                {
                                    methods.push(*up);
                                }
                            }
                            Val::Str(s, false)
                                if VERBS.iter().any(|(v, _)| v.eq_ignore_ascii_case(s)) =>
                            {
                                if let Some((_, up)) =
                                    VERBS.iter().find(|(v, _)| v.eq_ignore_ascii_case(s))
                                {
                                    methods.push(*up);
                                }
                            }
                            v => {
                                if let Some(p) = self.str_of(v) {
                                    path = Some(p);
                                }
                            }
                        }
                    }
                    if let (Some(p), false) = (path, methods.is_empty()) {
                        out.routes.push(Route {
                            methods,
                            path: join_url(&[prefix, &sinatra_path(&p)]),
                            file,
                            line: n.line,
                            reads: n.reads.clone().unwrap_or_default(),
                        });
                    }
                }
                "namespace" if own && n.body.is_some() => {
                    let Some(seg) = c.first().and_then(|v| self.str_of(v)) else {
                        continue;
                    };
                    let p = join_url(&[prefix, &sinatra_path(&seg)]);
                    // Inside the namespace block, calls are bare.
                    self.interp(n.children(), &p, "", file, ns, out);
                }
                "before" if own && n.body.is_some() => {
                    let pattern = c
                        .first()
                        .and_then(|v| self.str_of(v))
                        .map(|p| join_url(&[prefix, &p]))
                        .or_else(|| {
                            (prefix != "/" && !prefix.is_empty()).then(|| prefix.to_string())
                        });
                    out.filters
                        .push((pattern, n.reads.clone().unwrap_or_default()));
                }
                "helpers" if own => {
                    if n.body.is_some() {
                        for d in n.children().iter().filter(|d| d.name() == "def") {
                            out.defs.push(d);
                        }
                    }
                    for a in &c.args {
                        if let Some(m) = const_of(a) {
                            if let Some(mc) = classes::resolve(&self.classes, ns, &m) {
                                for other in classes::all_named(&self.classes, &mc.full) {
                                    out.defs
                                        .extend(other.body.iter().filter(|d| d.name() == "def"));
                                }
                            }
                        }
                    }
                }
                "register" if own => {
                    for a in &c.args {
                        let Some(m) = const_of(a) else { continue };
                        let Some(mc) = classes::resolve(&self.classes, ns, &m) else {
                            continue;
                        };
                        let full = mc.full.clone();
                        for module in classes::all_named(&self.classes, &full) {
                            for d in module.body {
                                let is_registered = d.name() == "def"
                                    && d.call.args.first()
                                        == Some(&Val::Sym("self.registered".into()));
                                if !is_registered {
                                    continue;
                                }
                                let param = d.block_params.first().cloned().unwrap_or_default();
                                if param.is_empty() {
                                    continue;
                                }
                                self.interp(
                                    d.children(),
                                    prefix,
                                    &param,
                                    module.file,
                                    &module.namespace,
                                    out,
                                );
                                // Its other methods are helpers once registered.
                                out.defs
                                    .extend(module.body.iter().filter(|x| x.name() == "def"));
                            }
                        }
                    }
                }
                _ => {
                    if n.body.is_some() {
                        self.interp(n.children(), prefix, recv, file, ns, out);
                    }
                }
            }
        }
    }
}

/// Sinatra path syntax → portolan's: `*` segments → `:splat`, optional
/// markers `?` dropped.
pub fn sinatra_path(p: &str) -> String {
    p.split('/')
        .map(|seg| {
            let seg = seg.replace('?', "");
            if seg == "*" {
                ":splat".to_string()
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The reads of a route: its block, the applying filters, and the helper
/// methods it calls (transitively).
pub fn route_reads(route: &Route<'_>, body: &AppBody<'_>) -> Reads {
    let mut reads = route.reads.clone();
    for (pattern, r) in &body.filters {
        let applies = match pattern {
            None => true,
            Some(p) => match p.strip_suffix('*') {
                // `/users/*` matches below `/users/`; `/users` only itself.
                Some(base) => route.path.starts_with(base) || base.trim_end_matches('/').is_empty(),
                None => route.path == *p,
            },
        };
        if applies {
            reads.merge(r);
            reads.calls.extend(r.calls.iter().cloned());
        }
    }
    let mut todo: Vec<String> = reads.calls.clone();
    let mut seen: Vec<String> = Vec::new();
    while let Some(name) = todo.pop() {
        if seen.contains(&name) || seen.len() > 64 {
            continue;
        }
        seen.push(name.clone());
        for d in &body.defs {
            if d.call.args.first() == Some(&Val::Sym(name.clone())) {
                if let Some(r) = &d.reads {
                    reads.merge(r);
                    todo.extend(r.calls.iter().cloned());
                }
            }
        }
    }
    reads
}

/// Prefixes under which `full` is served: direct mounts, and the prefixes
/// of the apps that `use` it.
pub fn prefixes_of(
    world: &World<'_>,
    mounts: &[Mount],
    apps: &[String],
    full: &str,
    depth: usize,
) -> Vec<String> {
    let mut out = rack::prefixes_of(mounts, full);
    if depth < 6 {
        for app in apps.iter().filter(|a| a.as_str() != full) {
            let uses = classes::all_named(&world.classes, app).iter().any(|c| {
                c.body.iter().any(|n| {
                    n.name() == "use"
                        && n.call.recv.is_empty()
                        && n.call
                            .first()
                            .and_then(const_of)
                            .is_some_and(|t| crate::rb::dsl::const_matches(&t, full))
                })
            });
            if uses {
                out.extend(prefixes_of(world, mounts, apps, app, depth + 1));
            }
        }
    }
    let mut seen = Vec::new();
    out.retain(|p| {
        if seen.contains(p) {
            false
        } else {
            seen.push(p.clone());
            true
        }
    });
    out
}

pub fn link(files: &[FileNodes]) -> Vec<Endpoint> {
    let refs: Vec<&FileNodes> = files.iter().collect();
    let world = World::new(&refs);
    let mounts = rack::mounts(&refs, &world.consts);
    let mut apps: Vec<String> = Vec::new();
    for c in &world.classes {
        if !c.is_module
            && classes::descends_from(&world.classes, c, &ROOTS)
            && !apps.contains(&c.full)
        {
            apps.push(c.full.clone());
        }
    }
    let mut out = Vec::new();
    for app in &apps {
        let mut prefixes = prefixes_of(&world, &mounts, &apps, app, 0);
        if prefixes.is_empty() {
            let is_base = world.classes.iter().any(|c| {
                !c.superclass.is_empty()
                    && c.full != *app
                    && classes::resolve(&world.classes, &c.namespace, &c.superclass)
                        .is_some_and(|s| s.full == *app)
            });
            if is_base {
                continue;
            }
            prefixes.push("/".into());
        }
        // The app's bodies, then its app ancestors' (inherited routes).
        let mut body = AppBody::default();
        let mut chain = vec![app.clone()];
        let mut cur = app.clone();
        for _ in 0..8 {
            let next = classes::all_named(&world.classes, &cur)
                .iter()
                .find(|c| !c.superclass.is_empty())
                .and_then(|c| classes::resolve(&world.classes, &c.namespace, &c.superclass))
                .map(|s| s.full.clone());
            match next {
                Some(n) if apps.contains(&n) && !chain.contains(&n) => {
                    chain.push(n.clone());
                    cur = n;
                }
                _ => break,
            }
        }
        for name in &chain {
            for c in classes::all_named(&world.classes, name) {
                world.interp(c.body, "", "", c.file, &c.full, &mut body);
            }
        }
        emit(&body, &prefixes, &mut out);
    }
    // Classic apps: routes at the top level of files.
    let mut classic = AppBody::default();
    for f in &refs {
        let top: Vec<&Node> = f.nodes.iter().collect();
        classic_interp(&world, &top, &f.path, &mut classic);
    }
    if !classic.routes.is_empty() {
        let mut prefixes = rack::prefixes_of(&mounts, CLASSIC);
        if prefixes.is_empty() {
            prefixes.push("/".into());
        }
        emit(&classic, &prefixes, &mut out);
    }
    out
}

/// Top level of a file: routes directly there, or inside `namespace`,
/// `configure` and conditionals (not inside other DSLs' blocks).
fn classic_interp<'a>(world: &World<'a>, nodes: &[&'a Node], file: &'a str, out: &mut AppBody<'a>) {
    for n in nodes {
        match n.name() {
            "if" | "unless" | "case" | "begin" | "configure" => {
                let inner: Vec<&Node> = n.children().iter().collect();
                classic_interp(world, &inner, file, out);
            }
            "class" | "module" => {}
            _ => world.interp(std::slice::from_ref(*n), "", "", file, "", out),
        }
    }
}

fn emit(body: &AppBody<'_>, prefixes: &[String], out: &mut Vec<Endpoint>) {
    for route in &body.routes {
        let reads = route_reads(route, body);
        for prefix in prefixes {
            let url = join_url(&[prefix, &route.path]);
            for m in &route.methods {
                out.push(endpoint_with(
                    m,
                    &url,
                    route.file,
                    route.line,
                    &reads,
                    Body::Form,
                ));
            }
        }
    }
}
