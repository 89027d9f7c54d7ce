//! Reduce step: routers mounted on routers across modules, router prefixes.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Endpoint, Param};

use super::scan::KoaModule;
use crate::express::link::path_value;
use crate::js::module::Value;
use crate::js::mount::{node_of, pass_routers_with, Graph};
use crate::js::project::{Project, Target};
use crate::js::schema::Resolver;

/// Router-like names accepted as receivers when nothing says otherwise.
fn routerish(name: &str) -> bool {
    let last = name
        .rsplit(['.', '#'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    matches!(last.as_str(), "router" | "api" | "routes" | "r") || last.ends_with("router")
}

pub fn link(modules: &[KoaModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let schemas = Resolver::new(
        &project,
        modules.iter().map(|m| m.schemas.as_slice()).collect(),
    );
    let mut graph = Graph::new();
    // A router object with its own prefix: `new Router({ prefix })`, or
    // `this` of a router subclass (`C#this`, prefix given to `super`).
    let object = |t: &Target| match t {
        Target::Node(m, n) => modules.get(*m).and_then(|x| {
            x.objects
                .iter()
                .find(|(o, _)| o == n)
                .map(|(_, p)| (*m, p.clone()))
                .or_else(|| {
                    let c = n.strip_suffix("#this")?;
                    let (_, p) = x.subclasses.iter().find(|(s, _)| s == c)?;
                    Some((*m, p.clone()))
                })
        }),
        _ => None,
    };
    // An instance of a router subclass is the class's `this`.
    let subclass = |m: usize, c: &str| {
        modules
            .get(m)
            .is_some_and(|x| x.subclasses.iter().any(|(s, _)| s == c))
    };
    let node = |t: Target| match t {
        Target::Instance(m, c) if subclass(m, &c) => Some(Target::Node(m, format!("{c}#this"))),
        Target::Node(m, n) => {
            let class = modules
                .get(m)
                .and_then(|x| x.instances.iter().find(|(v, _)| *v == n))
                .and_then(|(_, c)| project.resolve(m, &Value::Name(c.clone())));
            match class {
                Some(Target::Class(cm, c)) if subclass(cm, &c) => {
                    Some(Target::Node(cm, format!("{c}#this")))
                }
                _ => Some(Target::Node(m, n)),
            }
        }
        t => node_of(&project, t),
    };
    let own_prefix = |t: &Target| {
        object(t)
            .and_then(|(om, p)| p.map(|p| path_value(&project, om, &p)))
            .unwrap_or_default()
    };
    for (mi, m) in modules.iter().enumerate() {
        for mount in &m.mounts {
            let Some(parent) = project
                .resolve(mi, &Value::Name(mount.receiver.clone()))
                .and_then(node)
            else {
                continue;
            };
            let prefixes: Vec<String> = if mount.prefixes.is_empty() {
                vec![String::new()]
            } else {
                mount
                    .prefixes
                    .iter()
                    .map(|p| path_value(&project, mi, p))
                    .collect()
            };
            for child in &mount.children {
                let Some(c) = project.resolve(mi, child).and_then(node) else {
                    continue;
                };
                // A nested router also gets its parent's own prefix.
                let parent_prefix = own_prefix(&parent);
                for p in &prefixes {
                    graph.mount(
                        parent.clone(),
                        join(&[parent_prefix.as_str(), p]),
                        c.clone(),
                    );
                }
            }
        }
    }
    pass_routers_with(
        &project,
        &mut graph,
        |a| object(a).is_some() || matches!(a, Target::Node(_, n) if routerish(n)),
        own_prefix,
    );
    let is_bound = |t: &Target| match t {
        Target::Node(m, n) => modules.get(*m).is_some_and(|x| {
            x.info.bindings.iter().any(|b| &b.name == n)
                || x.info.imports.iter().any(|i| &i.local == n)
        }),
        _ => true,
    };
    let any_koa = modules.iter().any(|m| m.koa);
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for route in &m.routes {
            let Some(node) = project.resolve(mi, &Value::Name(route.receiver.clone())) else {
                continue;
            };
            let Target::Node(_, name) = &node else {
                continue;
            };
            let accepted = object(&node).is_some()
                || graph.is_mounted(&node)
                || (!is_bound(&node) && routerish(name) && any_koa);
            if !accepted {
                continue;
            }
            let own_prefix = own_prefix(&node);
            let mut params: Vec<Param> = route.params.clone();
            for (kind, s) in &route.schemas {
                for k in schemas.keys(mi, s) {
                    let p = Param::new(*kind, k);
                    if !params.contains(&p) {
                        params.push(p);
                    }
                }
            }
            for h in &route.handlers {
                for p in handler_params(&project, modules, mi, h) {
                    if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                        params.push(p);
                    }
                }
            }
            for prefix in graph.prefixes(&node) {
                for path in &route.paths {
                    let path = path_value(&project, mi, path);
                    let url = join(&[prefix.as_str(), own_prefix.as_str(), path.as_str()]);
                    for method in &route.methods {
                        out.push(
                            Endpoint::new(method, url.clone())
                                .params(params.clone())
                                .at_path(m.info.path.clone(), route.line),
                        );
                    }
                }
            }
        }
    }
    out
}

/// Parameters read by a named handler, wherever it is defined.
fn handler_params(
    project: &Project<'_>,
    modules: &[KoaModule],
    m: usize,
    name: &str,
) -> Vec<Param> {
    let key = match project.resolve(m, &Value::Name(name.to_string())) {
        Some(Target::Func(fm, f)) => (fm, f),
        Some(Target::Node(fm, n)) => (fm, n),
        _ => return Vec::new(),
    };
    modules
        .get(key.0)
        .and_then(|x| x.handlers.iter().find(|h| h.name == key.1))
        .map(|h| h.params.clone())
        .unwrap_or_default()
}
