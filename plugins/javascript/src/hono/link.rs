//! Reduce step: sub-apps mounted with `route()` across modules, base paths.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Endpoint, Param};

use super::scan::HonoModule;
use crate::express::link::{node_of, path_value};
use crate::js::module::Value;
use crate::js::mount::Graph;
use crate::js::project::{Project, Target};
use crate::js::schema::Resolver;

pub fn link(modules: &[HonoModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let schemas = Resolver::new(
        &project,
        modules.iter().map(|m| m.schemas.as_slice()).collect(),
    );
    let object = |t: &Target| match t {
        Target::Node(m, n) => modules
            .get(*m)
            .and_then(|x| x.objects.iter().find(|(o, _)| o == n))
            .map(|(_, p)| (*m, p.clone())),
        _ => None,
    };
    let own_prefix = |t: &Target| {
        object(t)
            .and_then(|(om, p)| p.map(|p| path_value(&project, om, &p)))
            .unwrap_or_default()
    };
    let mut graph = Graph::new();
    for (mi, m) in modules.iter().enumerate() {
        for (parent, prefix, child) in &m.mounts {
            let Some(p) = project
                .resolve(mi, &Value::Name(parent.clone()))
                .and_then(|t| node_of(&project, t))
            else {
                continue;
            };
            let Some(c) = project
                .resolve(mi, child)
                .and_then(|t| node_of(&project, t))
            else {
                continue;
            };
            let prefix = join(&[own_prefix(&p).as_str(), &path_value(&project, mi, prefix)]);
            graph.mount(p, prefix, c);
        }
    }
    let any_hono = modules.iter().any(|m| m.hono);
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for route in &m.routes {
            let Some(node) = project.resolve(mi, &Value::Name(route.receiver.clone())) else {
                continue;
            };
            let Target::Node(_, name) = &node else {
                continue;
            };
            let last = name.rsplit(['.', '#']).next().unwrap_or(name);
            let accepted = object(&node).is_some()
                || graph.is_mounted(&node)
                || (any_hono && matches!(last, "app" | "api" | "router" | "route" | "routes"));
            if !accepted {
                continue;
            }
            // A node mounted through `basePath` has no own prefix.
            let own = own_prefix(&node);
            let mut params = route.params.clone();
            for (kind, s) in &route.schemas {
                for k in schemas.keys(mi, s) {
                    if !params.iter().any(|p| p.name == k && p.kind == *kind) {
                        params.push(Param::new(*kind, k));
                    }
                }
            }
            for prefix in graph.prefixes(&node) {
                for path in &route.paths {
                    let path = path_value(&project, mi, path);
                    let url = join(&[prefix.as_str(), own.as_str(), path.as_str()]);
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
