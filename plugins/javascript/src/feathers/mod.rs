//! Feathers (`js_feathers`, v4 and v5, Express or Koa transport).
//!
//! Services are registered with `app.use(path, service[, options])` on a
//! Feathers app (`feathers()`, `express(feathers())`, `koa(feathers())`,
//! or a function parameter named like an app in a tree importing
//! Feathers, as in the generated `export const user = (app) => {…}`).
//! The REST transport maps service methods to routes:
//! `find` → `GET /x`, `get` → `GET /x/:id`, `create` → `POST /x`, `update`
//! → `PUT /x/:id`, `patch` → `PATCH /x/:id`, `remove` → `DELETE /x/:id`.
//!
//! Which methods: the `methods: [...]` option when given (a literal list or
//! a constant, possibly in another module, as Feathers 5 generates it);
//! otherwise the standard methods the service implements: the keys of an
//! object literal, the methods of a class of the tree (`new
//! MessageService()`, the class in another module, inherited methods
//! included), or all six for a database adapter (a class or factory from
//! another package: `new KnexService(…)`, `service({ Model })` of
//! `feathers-sequelize`, a class of the tree extending one, and a `new
//! C()` whose class is not found in the tree). Custom methods
//! listed in `methods` are `POST /x` with the `X-Service-Method: <name>`
//! header (reported as a header parameter with that value).
//!
//! Paths may be constants (`userPath`), also from other modules; a
//! Feathers sub-app mounted with `app.use('/api', api)` prefixes its
//! services. Parameters: what a service method reads from
//! `params.query` (query), `params.headers` (header) and its `data`
//! argument (JSON). Middleware (`app.use(cors())`, `app.use(logger,
//! handler)`) and values that are not services are ignored, as are test
//! files. Gaps: services whose class or factory cannot be resolved, hooks
//! and schemas (TypeBox/JSON schema resolvers) as parameter sources.

pub mod scan;

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::prelude::*;

use crate::express::link::path_value;
use crate::express::{is_generated, JS_FILES};
use crate::js::module::Value;
use crate::js::mount::Graph;
use crate::js::project::{Project, Target};
use scan::{FeathersModule, MethodsOpt, Service};

pub struct Feathers;

const STANDARD: &[&str] = &["find", "get", "create", "update", "patch", "remove"];

impl Analyzer for Feathers {
    fn tech(&self) -> Tech {
        Tech::new("js_feathers", "JavaScript", "Feathers")
            .aliases(["feathers", "feathersjs", "js-feathers"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"require\(\s*['"](?:@feathersjs/(?:feathers|express|koa)|feathers)['"]\s*\)"#,
                r#"\bfrom\s+['"](?:@feathersjs/(?:feathers|express|koa)|feathers)['"]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.info.is_empty() || !module.uses.is_empty() || !module.classes.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<FeathersModule> = facts.all();
        Ok(link(&modules))
    }
}

/// A service's methods with the parameters they read; `None` when the
/// value is not (known to be) a service.
type Methods = Vec<(String, Vec<Param>)>;

fn all_standard() -> Methods {
    STANDARD
        .iter()
        .map(|m| (m.to_string(), Vec::new()))
        .collect()
}

fn class_methods(
    project: &Project<'_>,
    modules: &[FeathersModule],
    t: Target,
    depth: usize,
) -> Option<Methods> {
    if depth > 8 {
        return None;
    }
    match t {
        Target::Class(m, c) | Target::Instance(m, c) => {
            let class = modules.get(m)?.classes.iter().find(|x| x.name == c)?;
            let mut out = class.methods.clone();
            if let Some(parent) = &class.extends {
                let inherited = match project.resolve_name(m, parent, 0) {
                    Some(Target::External(_)) => Some(all_standard()),
                    Some(pt) => class_methods(project, modules, pt, depth + 1),
                    None => None,
                };
                for (name, ps) in inherited.unwrap_or_default() {
                    if !out.iter().any(|(n, _)| *n == name) {
                        out.push((name, ps));
                    }
                }
            }
            let is_service = out
                .iter()
                .any(|(n, _)| STANDARD.contains(&n.as_str()) || n == "setup");
            is_service.then_some(out)
        }
        // A class or factory of another package: a database adapter.
        Target::External(spec) => is_adapter(&spec).then(all_standard),
        _ => None,
    }
}

/// Packages whose classes/factories are Feathers services.
fn is_adapter(spec: &str) -> bool {
    let pkg = spec.split('.').next().unwrap_or(spec);
    pkg.starts_with("@feathersjs/") || pkg.starts_with("feathers-")
}

fn service_methods(
    project: &Project<'_>,
    modules: &[FeathersModule],
    m: usize,
    service: &Service,
) -> Option<Methods> {
    match service {
        Service::Inline(ms) => ms
            .iter()
            .any(|(n, _)| STANDARD.contains(&n.as_str()))
            .then(|| ms.clone()),
        Service::Value(v) => {
            let t = match v {
                Value::New {
                    class,
                    member: None,
                } => match project.resolve_name(m, class, 0) {
                    Some(t @ (Target::Class(..) | Target::External(_))) => t,
                    // A class the tree does not define (generated, compiled
                    // away, a global): assume the standard service.
                    _ => return Some(all_standard()),
                },
                Value::Call { callee, .. } => match project.resolve(m, v) {
                    Some(t @ (Target::Instance(..) | Target::Class(..))) => t,
                    _ => match callee.as_ref() {
                        Value::Name(n) => project.resolve_name(m, n, 0)?,
                        _ => return None,
                    },
                },
                v => project.resolve(m, v)?,
            };
            class_methods(project, modules, t, 0)
        }
    }
}

fn is_app(modules: &[FeathersModule], t: &Target) -> bool {
    match t {
        Target::Node(m, n) => modules.get(*m).is_some_and(|x| x.apps.contains(n)),
        _ => false,
    }
}

fn appish(name: &str) -> bool {
    let last = name
        .rsplit(['.', '#'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    matches!(last.as_str(), "app" | "api" | "application") || last.ends_with("app")
}

fn link(modules: &[FeathersModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let any_feathers = modules.iter().any(|m| m.feathers);
    // Sub-apps mounted on apps.
    let mut graph = Graph::new();
    for (mi, m) in modules.iter().enumerate() {
        for u in &m.uses {
            let Service::Value(v) = &u.service else {
                continue;
            };
            let Some(child) = project.resolve(mi, v) else {
                continue;
            };
            if !is_app(modules, &child) {
                continue;
            }
            let Some(parent) = project.resolve(mi, &Value::Name(u.receiver.clone())) else {
                continue;
            };
            for p in &u.paths {
                graph.mount(parent.clone(), path_value(&project, mi, p), child.clone());
            }
        }
    }
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for u in &m.uses {
            let Some(recv) = project.resolve(mi, &Value::Name(u.receiver.clone())) else {
                continue;
            };
            let recv_ok = is_app(modules, &recv)
                || (any_feathers && matches!(&recv, Target::Node(_, n) if appish(n)));
            if !recv_ok {
                continue;
            }
            let Some(implemented) = service_methods(&project, modules, mi, &u.service) else {
                continue;
            };
            let listed: Option<Vec<String>> = match &u.methods {
                Some(MethodsOpt::List(l)) => Some(l.clone()),
                Some(MethodsOpt::Ref(n)) => array_value(&project, modules, mi, n),
                None => None,
            };
            let methods: Methods = match listed {
                Some(l) => l
                    .iter()
                    .map(|n| {
                        let ps = implemented
                            .iter()
                            .find(|(x, _)| x == n)
                            .map(|(_, p)| p.clone())
                            .unwrap_or_default();
                        (n.clone(), ps)
                    })
                    .collect(),
                None => implemented
                    .into_iter()
                    .filter(|(n, _)| STANDARD.contains(&n.as_str()))
                    .collect(),
            };
            for prefix in graph.prefixes(&recv) {
                for p in &u.paths {
                    let path = path_value(&project, mi, p);
                    if path.contains('{') {
                        continue;
                    }
                    let base = join(&[prefix.as_str(), path.as_str()]);
                    let item = join(&[base.as_str(), ":id"]);
                    for (name, params) in &methods {
                        let (verb, url, custom) = match name.as_str() {
                            "find" => ("GET", &base, false),
                            "get" => ("GET", &item, false),
                            "create" => ("POST", &base, false),
                            "update" => ("PUT", &item, false),
                            "patch" => ("PATCH", &item, false),
                            "remove" => ("DELETE", &item, false),
                            _ => ("POST", &base, true),
                        };
                        let mut e =
                            Endpoint::new(verb, url.clone()).at_path(m.info.path.clone(), u.line);
                        if custom {
                            e.push_param(Param::header("X-Service-Method").value(name.clone()));
                        }
                        for p in params {
                            e.push_param(p.clone());
                        }
                        out.push(e);
                    }
                }
            }
        }
    }
    out
}

/// A string-array constant, possibly imported.
fn array_value(
    project: &Project<'_>,
    modules: &[FeathersModule],
    m: usize,
    name: &str,
) -> Option<Vec<String>> {
    let lookup = |mm: usize, n: &str| {
        modules
            .get(mm)
            .and_then(|x| x.arrays.iter().find(|(a, _)| a == n))
            .map(|(_, l)| l.clone())
    };
    if let Some(l) = lookup(m, name) {
        return Some(l);
    }
    match project.resolve_name(m, name, 0)? {
        Target::Node(tm, n) => lookup(tm, &n),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
