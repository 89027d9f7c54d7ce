//! Reduce step: resolve receivers, mounts and handlers across modules and
//! build the endpoints.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Endpoint, Param};

use super::scan::{ExpressModule, Handler};
use crate::js::flow::Flows;
use crate::js::module::Value;
pub use crate::js::mount::node_of;
use crate::js::mount::{pass_routers, Graph};
use crate::js::project::{Project, Target};
use crate::js::strexpr::{Piece, StrExpr};
use crate::nestjs::link::guard_context;

/// Resolve a path expression; names that are not constants become
/// `{name}` (last segment), like an unknown template interpolation.
pub fn path_value(project: &Project<'_>, m: usize, e: &StrExpr) -> String {
    let mut out = String::new();
    for p in &e.0 {
        match p {
            Piece::Lit(s) => out.push_str(s),
            Piece::Ref(n) => match project.constant(m, n, 0) {
                Some(v) => out.push_str(&v),
                None => {
                    let last = n.rsplit(['.', '#']).next().unwrap_or(n);
                    out.push('{');
                    out.push_str(last);
                    out.push('}');
                }
            },
        }
    }
    out
}

/// Router-like names accepted as receivers when nothing says otherwise
/// (a function parameter `app`, an undeclared global `router`).
fn routerish(name: &str) -> bool {
    let last = name
        .rsplit(['.', '#'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "app" | "router" | "api" | "server" | "routes" | "route" | "r"
    ) || last.ends_with("router")
        || last.ends_with("app")
        || last.ends_with("routes")
}

pub fn link(modules: &[ExpressModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let flows = Flows::new(
        &project,
        modules.iter().map(|m| m.sinks.as_slice()).collect(),
        modules.iter().map(|m| m.dtos.as_slice()).collect(),
    );
    let mut graph = Graph::new();
    for (mi, m) in modules.iter().enumerate() {
        for mount in &m.mounts {
            let Some(parent) = project
                .resolve(mi, &Value::Name(mount.receiver.clone()))
                .and_then(|t| node_of(&project, t))
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
                let Some(c) = project
                    .resolve(mi, child)
                    .and_then(|t| node_of(&project, t))
                else {
                    continue;
                };
                for p in &prefixes {
                    graph.mount(parent.clone(), p.clone(), c.clone());
                }
            }
        }
    }
    let is_object = |t: &Target| match t {
        Target::Node(m, n) => modules.get(*m).is_some_and(|x| x.objects.contains(n)),
        _ => false,
    };
    pass_routers(&project, &mut graph, |a| {
        is_object(a) || matches!(a, Target::Node(_, n) if routerish(n))
    });
    // `table[key](router, name)`: routers passed and keys bound.
    let lists: Vec<&[super::dispatch::DispatchCall]> =
        modules.iter().map(|m| m.dispatch.as_slice()).collect();
    let mut passed: Vec<(Target, Target)> = Vec::new();
    let bound = super::dispatch::link(&project, &lists, |mi, a, p| {
        if let Some(a) = project.resolve(mi, a).and_then(|t| node_of(&project, t)) {
            passed.push((a, p));
        }
    });
    for (a, p) in passed {
        if is_object(&a) || graph.is_mounted(&a) || matches!(&a, Target::Node(_, n) if routerish(n))
        {
            graph.mount(a, String::new(), p);
        }
    }
    let is_bound = |t: &Target| match t {
        Target::Node(m, n) => modules.get(*m).is_some_and(|x| {
            x.info.bindings.iter().any(|b| &b.name == n)
                || x.info.imports.iter().any(|i| &i.local == n)
        }),
        _ => true,
    };
    let inlined = super::helpers::expand(&project, modules);
    // Helpers called as helpers somewhere: their own routes are inlined at
    // the calls instead.
    let called: std::collections::HashSet<&str> = modules
        .iter()
        .flat_map(|m| m.helper_calls.iter().map(|c| c.callee.as_str()))
        .collect();
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for route in m.routes.iter().chain(&inlined[mi]) {
            if route.helper.as_deref().is_some_and(|h| called.contains(h)) {
                continue;
            }
            let Some(node) = project.resolve(mi, &Value::Name(route.receiver.clone())) else {
                continue;
            };
            let Target::Node(_, name) = &node else {
                continue;
            };
            let accepted = is_object(&node)
                || graph.is_mounted(&node)
                || (!is_bound(&node)
                    && routerish(name)
                    && (m.express || name.contains('#') || modules.iter().any(|x| x.express)));
            if !accepted {
                continue;
            }
            let mut params: Vec<Param> = route.params.clone();
            let mut add = |ps: Vec<Param>| {
                for p in ps {
                    if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                        params.push(p);
                    }
                }
            };
            for f in &route.flows {
                add(flows.params(mi, f.kind, &f.uses));
            }
            for h in &route.handlers {
                let Some((hm, h)) = handler_of(&project, modules, mi, h) else {
                    add(part_object(&project, modules, mi, h));
                    continue;
                };
                add(h.params.clone());
                for f in &h.flows {
                    add(flows.params(hm, f.kind, &f.uses));
                }
            }
            for prefix in graph.prefixes(&node) {
                for path in route
                    .paths
                    .iter()
                    .flat_map(|p| super::dispatch::substitute(&bound, mi, p))
                {
                    let path = path_value(&project, mi, &path);
                    let url = join(&[prefix.as_str(), path.as_str()]);
                    for method in &route.methods {
                        let mut e = Endpoint::new(method, url.clone())
                            .params(params.clone())
                            .at_path(m.info.path.clone(), route.line);
                        e.ai_context = guard_context(&route.guards, &m.info.path);
                        out.push(e);
                    }
                }
            }
        }
    }
    out
}

/// The parameters of an object of schemas per request part a route
/// argument names (`validate(userValidation.createUser)`), wherever it is
/// declared.
fn part_object(
    project: &Project<'_>,
    modules: &[ExpressModule],
    m: usize,
    name: &str,
) -> Vec<Param> {
    let find = |fm: usize, n: &str| {
        modules
            .get(fm)
            .and_then(|x| x.parts.iter().find(|(pn, _)| pn == n))
            .map(|(_, ps)| ps.clone())
    };
    if let Some(Target::Node(fm, n)) = project.resolve(m, &Value::Name(name.to_string())) {
        if let Some(ps) = find(fm, &n) {
            return ps;
        }
    }
    let Some((head, member)) = name.rsplit_once('.') else {
        // `const { login } = require('./validations')`.
        let imported = project.modules.get(m).and_then(|info| {
            let i = info.imports.iter().find(|i| i.local == name)?;
            let fm = project.resolve_spec(m, &i.spec)?;
            match &i.kind {
                crate::js::module::ImportKind::Named(n) => {
                    find(fm, n).or_else(|| find(fm, &format!("exports.{n}")))
                }
                _ => None,
            }
        });
        return imported.or_else(|| find(m, name)).unwrap_or_default();
    };
    match project.resolve(m, &Value::Name(head.to_string())) {
        Some(Target::Module(fm)) | Some(Target::Node(fm, _)) => find(fm, member)
            .or_else(|| find(fm, &format!("exports.{member}")))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A named handler, wherever it is defined, with its module.
fn handler_of<'a>(
    project: &Project<'_>,
    modules: &'a [ExpressModule],
    m: usize,
    name: &str,
) -> Option<(usize, &'a Handler)> {
    let found = match project.resolve(m, &Value::Name(name.to_string())) {
        Some(Target::Func(fm, f)) => Some((fm, f)),
        Some(Target::Node(fm, n)) => Some((fm, n)),
        _ => None,
    }
    .and_then(|(fm, n)| {
        modules
            .get(fm)
            .and_then(|x| x.handlers.iter().find(|h| h.name == n))
            .map(|h| (fm, h))
    });
    if found.is_some() {
        return found;
    }
    // `controller.list` where the imported module exports an object of
    // its functions (`export default { list, create }`).
    let (head, member) = name.split_once('.')?;
    if member.contains('.') {
        return None;
    }
    let fm = project.modules.get(m).and_then(|info| {
        info.imports
            .iter()
            .find(|i| i.local == head)
            .and_then(|i| project.resolve_spec(m, &i.spec))
    })?;
    modules
        .get(fm)
        .and_then(|x| x.handlers.iter().find(|h| h.name == member))
        .map(|h| (fm, h))
}
