//! Prefixes of routers mounted on routers, possibly across files:
//! `app.use('/api', api)`, `api.use('/users', users)`, a router passed to
//! a function (`require('./routes')(router)`), a Fastify plugin registered
//! with `{ prefix }`. A node mounted at several places gets every prefix;
//! an unmounted node has the empty prefix.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::paths::join;

use super::project::Target;

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
