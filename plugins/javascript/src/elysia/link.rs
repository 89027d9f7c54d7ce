//! Reduce step: plugins used across modules, instance prefixes, groups.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::Endpoint;

use super::scan::ElysiaModule;
use crate::express::link::{node_of, path_value};
use crate::js::module::Value;
use crate::js::mount::Graph;
use crate::js::project::{Project, Target};

pub fn link(modules: &[ElysiaModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
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
    let resolve = |mi: usize, name: &str| -> Option<Target> {
        // `f#@return`: the instance a function returns stands for the function.
        project
            .resolve(mi, &Value::Name(name.to_string()))
            .and_then(|t| node_of(&project, t))
    };
    let mut graph = Graph::new();
    for (mi, m) in modules.iter().enumerate() {
        for (parent, groups, child) in &m.mounts {
            let Some(p) = resolve(mi, parent) else {
                continue;
            };
            let Some(c) = project.resolve(mi, child).and_then(|t| match t {
                Target::Returned(fm, f) => Some(Target::Node(fm, format!("{f}#@return"))),
                t => node_of(&project, t),
            }) else {
                continue;
            };
            let mut parts = vec![own_prefix(&p)];
            parts.extend(groups.iter().map(|g| path_value(&project, mi, g)));
            graph.mount(p, join(&parts), c);
        }
    }
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for route in &m.routes {
            let Some(node) = resolve(mi, &route.receiver) else {
                continue;
            };
            // A function plugin's parameter: `(app: Elysia) => app.get(…)`.
            let is_param = route.receiver.split_once('#').is_some_and(|(f, p)| {
                m.info.functions.iter().any(|x| {
                    x.name == f
                        && x.params
                            .first()
                            .is_some_and(|q| q == &route.receiver || q == p)
                })
            }) || route.receiver.ends_with("#@return");
            if object(&node).is_none() && !graph.is_mounted(&node) && !is_param {
                continue;
            }
            let own = own_prefix(&node);
            let groups: Vec<String> = route
                .groups
                .iter()
                .map(|g| path_value(&project, mi, g))
                .collect();
            for prefix in graph.prefixes(&node) {
                for path in &route.paths {
                    let mut parts = vec![prefix.clone(), own.clone()];
                    parts.extend(groups.iter().cloned());
                    parts.push(path_value(&project, mi, path));
                    let url = join(&parts);
                    for method in &route.methods {
                        let e = if route.ws {
                            Endpoint::websocket(url.clone())
                        } else {
                            Endpoint::new(method, url.clone())
                        };
                        out.push(
                            e.params(route.params.clone())
                                .at_path(m.info.path.clone(), route.line),
                        );
                    }
                }
            }
        }
    }
    out
}
