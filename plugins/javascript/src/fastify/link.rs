//! Reduce step: plugin prefixes across modules, schemas, handlers.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Endpoint, Param};

use super::scan::{is_wrapper, Child, FastifyModule, Props, Schema};
use crate::express::link::{node_of, path_value};
use crate::js::module::{ImportKind, Value};
use crate::js::mount::Graph;
use crate::js::project::{Project, Target};

/// Router-like names accepted as receivers when nothing says otherwise.
fn instance_like(name: &str) -> bool {
    let last = name
        .rsplit(['.', '#'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "fastify" | "app" | "server" | "instance" | "api" | "router" | "routes" | "f"
    ) || last.ends_with("app")
        || last.ends_with("server")
}

/// The module a value imports (`require('./x')`, an imported name).
fn module_of(project: &Project<'_>, m: usize, v: &Value) -> Option<usize> {
    match v {
        Value::Require { spec, member: None } => project.resolve_spec(m, spec),
        Value::Name(n) => {
            let i = project
                .modules
                .get(m)?
                .imports
                .iter()
                .find(|i| &i.local == n)?;
            matches!(i.kind, ImportKind::Default | ImportKind::Whole)
                .then(|| project.resolve_spec(m, &i.spec))
                .flatten()
        }
        _ => None,
    }
}

/// The instance node a registered plugin value stands for.
fn plugin_node(
    project: &Project<'_>,
    modules: &[FastifyModule],
    m: usize,
    v: &Value,
    depth: usize,
) -> Option<Target> {
    if depth > 8 {
        return None;
    }
    if let Value::Call { callee, args } = v {
        if is_wrapper(callee) {
            return match args.first() {
                Some(Some(inner)) => plugin_node(project, modules, m, inner, depth + 1),
                _ => None,
            };
        }
    }
    if let Some(t) = project.resolve(m, v).and_then(|t| node_of(project, t)) {
        return Some(t);
    }
    // A module exporting `fp(plugin)` or `fp(async (fastify) => …)`.
    let fm = module_of(project, m, v)?;
    let info = modules.get(fm)?;
    if let Some(p) = &info.exported_param {
        return Some(Target::Node(fm, p.clone()));
    }
    let e = info
        .info
        .exports
        .iter()
        .find(|e| e.name == "=" || e.name == "default")?;
    match &e.value {
        Value::Call { callee, args } if is_wrapper(callee) => match args.first() {
            Some(Some(inner)) => plugin_node(project, modules, fm, inner, depth + 1),
            _ => None,
        },
        _ => None,
    }
}

pub fn link(modules: &[FastifyModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut graph = Graph::new();
    for (mi, m) in modules.iter().enumerate() {
        for r in &m.registers {
            let Some(parent) = project
                .resolve(mi, &Value::Name(r.receiver.clone()))
                .and_then(|t| node_of(&project, t))
            else {
                continue;
            };
            let child = match &r.child {
                Child::Inline(p) => Some(Target::Node(mi, p.clone())),
                Child::Value(v) => plugin_node(&project, modules, mi, v, 0),
            };
            let Some(child) = child else { continue };
            let prefix = r
                .prefix
                .as_ref()
                .map(|p| path_value(&project, mi, p))
                .unwrap_or_default();
            graph.mount(parent, prefix, child);
        }
    }
    let any_fastify = modules.iter().any(|m| m.fastify);
    let is_object = |t: &Target| match t {
        Target::Node(m, n) => modules.get(*m).is_some_and(|x| x.objects.contains(n)),
        _ => false,
    };
    let is_bound = |t: &Target| match t {
        Target::Node(m, n) => modules.get(*m).is_some_and(|x| {
            x.info.bindings.iter().any(|b| &b.name == n)
                || x.info.imports.iter().any(|i| &i.local == n)
        }),
        _ => true,
    };
    // `@fastify/autoload`: a module below a loaded directory is a plugin
    // whose prefix is its directory below the loaded one.
    let mut loaded: Vec<(&str, String)> = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for (dir, p) in &m.autoload {
            let p = p
                .as_ref()
                .map(|p| path_value(&project, mi, p))
                .unwrap_or_default();
            loaded.push((dir.as_str(), p));
        }
    }
    let auto_prefix = |path: &str| -> String {
        for (dir, p) in &loaded {
            let Some(rest) = path.strip_prefix(dir).and_then(|r| r.strip_prefix('/')) else {
                continue;
            };
            let mut segs: Vec<&str> = vec![p.as_str()];
            if let Some((dirs, _file)) = rest.rsplit_once('/') {
                segs.extend(dirs.split('/'));
            }
            return join(&segs);
        }
        String::new()
    };
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        let auto = auto_prefix(&m.info.path);
        for route in &m.routes {
            let Some(node) = project.resolve(mi, &Value::Name(route.receiver.clone())) else {
                continue;
            };
            let Target::Node(_, name) = &node else {
                continue;
            };
            let accepted = is_object(&node)
                || graph.is_mounted(&node)
                || (!is_bound(&node) && instance_like(name) && any_fastify);
            if !accepted {
                continue;
            }
            let mut params: Vec<Param> = Vec::new();
            let mut add = |p: Param| {
                if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                    params.push(p);
                }
            };
            if let Some(s) = &route.schema {
                for p in schema_params(&project, modules, mi, s) {
                    add(p);
                }
            }
            for p in &route.params {
                add(p.clone());
            }
            for h in &route.handlers {
                for p in handler_params(&project, modules, mi, h) {
                    add(p);
                }
            }
            for prefix in graph.prefixes(&node) {
                for path in &route.paths {
                    let path = path_value(&project, mi, path);
                    let url = join(&[auto.as_str(), prefix.as_str(), path.as_str()]);
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

/// A named schema object, wherever it is defined.
fn named<'a>(
    project: &Project<'_>,
    modules: &'a [FastifyModule],
    m: usize,
    name: &str,
) -> Option<(usize, &'a super::scan::NamedSchema)> {
    let (fm, n) = match project.resolve(m, &Value::Name(name.to_string()))? {
        Target::Node(fm, n) => (fm, n),
        _ => return None,
    };
    modules
        .get(fm)?
        .schemas
        .iter()
        .find(|s| s.name == n)
        .map(|s| (fm, s))
}

fn props(project: &Project<'_>, modules: &[FastifyModule], m: usize, p: &Props) -> Vec<String> {
    match p {
        Props::Names(n) => n.clone(),
        Props::Ref(r) => named(project, modules, m, r)
            .map(|(_, s)| s.props.clone())
            .unwrap_or_default(),
    }
}

fn schema_params(
    project: &Project<'_>,
    modules: &[FastifyModule],
    m: usize,
    s: &Schema,
) -> Vec<Param> {
    let (sm, parts) = match s {
        Schema::Parts(p) => (m, p.clone()),
        Schema::Ref(r) => match named(project, modules, m, r) {
            Some((fm, n)) => (fm, n.parts.clone()),
            None => return Vec::new(),
        },
    };
    let mut out = Vec::new();
    for (kind, p) in &parts {
        for name in props(project, modules, sm, p) {
            out.push(Param::new(*kind, name));
        }
    }
    out
}

/// Parameters read by a named handler, wherever it is defined.
fn handler_params(
    project: &Project<'_>,
    modules: &[FastifyModule],
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
