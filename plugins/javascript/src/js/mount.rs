//! Prefixes of routers mounted on routers, possibly across files:
//! `app.use('/api', api)`, `api.use('/users', users)`, a router passed to
//! a function (`require('./routes')(router)`), a Fastify plugin registered
//! with `{ prefix }`. A node mounted at several places gets every prefix;
//! an unmounted node has the empty prefix.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::paths::join;

use super::module::Value;
use super::project::{Project, Target};

/// Most prefixes kept per node (mount graphs of real apps stay far below).
const MAX_PREFIXES: usize = 32;

#[derive(Default)]
pub struct Graph {
    parents: HashMap<Target, Vec<(Target, String)>>,
}

impl Graph {
    pub fn new() -> Self {
        Graph::default()
    }

    /// `parent` serves `child` under `prefix` ("" for none).
    pub fn mount(&mut self, parent: Target, prefix: String, child: Target) {
        if parent == child {
            return;
        }
        let list = self.parents.entry(child).or_default();
        if !list.iter().any(|(p, x)| *p == parent && *x == prefix) {
            list.push((parent, prefix));
        }
    }

    pub fn is_mounted(&self, node: &Target) -> bool {
        self.parents.contains_key(node)
    }

    /// Every full prefix of `node` (joined, `/`-separated), in mount order.
    pub fn prefixes(&self, node: &Target) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut out = self.walk(node, &mut seen);
        out.dedup();
        out
    }

    fn walk(&self, node: &Target, seen: &mut HashSet<Target>) -> Vec<String> {
        let Some(parents) = self.parents.get(node) else {
            return vec![String::new()];
        };
        if !seen.insert(node.clone()) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (parent, prefix) in parents {
            for p in self.walk(parent, seen) {
                let full = if p.is_empty() && prefix.is_empty() {
                    String::new()
                } else {
                    join(&[p.as_str(), prefix.as_str()])
                };
                if !out.contains(&full) && out.len() < MAX_PREFIXES {
                    out.push(full);
                }
            }
        }
        seen.remove(node);
        if out.is_empty() {
            // Only cyclic mounts: treat as a root.
            out.push(String::new());
        }
        out
    }
}

/// A router passed to a function (`require('./routes')(app)`,
/// `userRoutes(router, ctx)`) makes the function's parameter a router: the
/// parameter is mounted on the argument with the empty prefix. Only
/// arguments that are routers count (`is_router`, or already mounted): an
/// HTTP client passed to `bindApi(client)` does not turn `client.get('/x')`
/// into a route. Edges are added until nothing changes.
pub fn pass_routers(project: &Project<'_>, graph: &mut Graph, is_router: impl Fn(&Target) -> bool) {
    pass_routers_with(project, graph, is_router, |_| String::new());
}

/// [`pass_routers`], the parameter getting the router's own prefix
/// (`own(router)`, a Koa `new Router({ prefix })`).
pub fn pass_routers_with(
    project: &Project<'_>,
    graph: &mut Graph,
    is_router: impl Fn(&Target) -> bool,
    own: impl Fn(&Target) -> String,
) {
    let mut pending: Vec<(Target, Target)> = Vec::new();
    for (mi, m) in project.modules.iter().enumerate() {
        for call in &m.calls {
            let Value::Call { callee, args } = call else {
                continue;
            };
            let Some((fm, func)) = project.function_of(mi, callee) else {
                continue;
            };
            for (arg, param) in args.iter().zip(&func.params) {
                let (Some(arg @ Value::Name(_)), false) = (arg, param.is_empty()) else {
                    continue;
                };
                if let Some(a) = project.resolve(mi, arg).and_then(|t| node_of(project, t)) {
                    pending.push((a, Target::Node(fm, param.clone())));
                }
            }
        }
    }
    for _ in 0..8 {
        let before = pending.len();
        pending.retain(|(a, p)| {
            if is_router(a) || graph.is_mounted(a) {
                graph.mount(a.clone(), own(a), p.clone());
                false
            } else {
                true
            }
        });
        if pending.len() == before {
            break;
        }
    }
}

/// Mount targets: a function stands for its first parameter (a router or
/// app passed in), a call for what the function returns.
pub fn node_of(project: &Project<'_>, t: Target) -> Option<Target> {
    match t {
        Target::Func(fm, f) => {
            let func = project
                .modules
                .get(fm)?
                .functions
                .iter()
                .find(|x| x.name == f)?;
            let p = func.params.first().filter(|p| !p.is_empty())?;
            Some(Target::Node(fm, p.clone()))
        }
        t @ Target::Node(..) => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Target {
        Target::Node(0, s.into())
    }

    #[test]
    fn composes_prefixes() {
        let mut g = Graph::new();
        g.mount(n("app"), "/api".into(), n("api"));
        g.mount(n("api"), "/users".into(), n("users"));
        g.mount(n("app"), "/v2/users".into(), n("users"));
        g.mount(n("users"), "".into(), n("fn#r"));
        assert_eq!(g.prefixes(&n("fn#r")), vec!["/api/users", "/v2/users"]);
        assert_eq!(g.prefixes(&n("app")), vec![""]);
        g.mount(n("users"), "/x".into(), n("api"));
        assert!(!g.prefixes(&n("users")).is_empty());
    }
}
