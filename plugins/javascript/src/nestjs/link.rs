//! Reduce step: global prefix and versioning from the bootstrap file of
//! each app, DTO fields across modules, endpoints.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{AiContext, ContextEntry, Endpoint, Param};

use super::scan::{Dto, Guard, NestModule, ParamSpec, Settings, Ver};
use crate::express::link::path_value;
use crate::js::module::{ImportKind, Value};
use crate::js::project::{Project, Target};

/// The directory an app's bootstrap file governs: its directory, without a
/// trailing `src` (`apps/api/src/main.ts` → `apps/api`).
fn root_of(path: &str) -> String {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    dir.strip_suffix("/src")
        .or_else(|| (dir == "src").then_some(""))
        .unwrap_or(dir)
        .to_string()
}

/// The settings governing a controller file: the bootstrap file with the
/// longest root containing it; a single bootstrap file governs everything.
fn settings_for<'a>(all: &[(String, &'a Settings)], path: &str) -> Option<&'a Settings> {
    let best = all
        .iter()
        .filter(|(root, _)| root.is_empty() || path.starts_with(&format!("{root}/")))
        .max_by_key(|(root, _)| root.len())
        .map(|(_, s)| *s);
    best.or_else(|| (all.len() == 1).then(|| all[0].1))
}

pub fn link(modules: &[NestModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut all_settings: Vec<(String, &Settings)> = Vec::new();
    let mut settings_module: Vec<usize> = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        for s in &m.settings {
            all_settings.push((root_of(&m.info.path), s));
            settings_module.push(mi);
        }
    }
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        if m.controllers.is_empty() {
            continue;
        }
        let settings = settings_for(&all_settings, &m.info.path);
        let sm = settings
            .and_then(|s| {
                all_settings
                    .iter()
                    .position(|(_, x)| std::ptr::eq(*x, s))
                    .and_then(|i| settings_module.get(i).copied())
            })
            .unwrap_or(mi);
        let global = settings
            .and_then(|s| s.prefix.as_ref())
            .map(|p| path_value(&project, sm, p))
            .unwrap_or_default();
        let versioning = settings
            .and_then(|s| s.versioning.as_ref())
            .filter(|v| v.uri);
        for ctrl in &m.controllers {
            let module_paths = module_paths(&project, modules, mi, &ctrl.name);
            for route in &ctrl.routes {
                let mut params: Vec<Param> = Vec::new();
                for spec in &route.params {
                    let found = match spec {
                        ParamSpec::Direct(p) => vec![p.clone()],
                        ParamSpec::Dto { kind, ty } => dto_fields(&project, modules, mi, ty, 0)
                            .into_iter()
                            .map(|f| Param::new(*kind, f))
                            .collect(),
                    };
                    for p in found {
                        if !params.iter().any(|o| o.name == p.name && o.kind == p.kind) {
                            params.push(p);
                        }
                    }
                }
                // Version segments: the method's, else the controller's,
                // else the default; `None` for no segment.
                let versions: Vec<Option<String>> = match versioning {
                    None => vec![None],
                    Some(v) => {
                        let (vs, vm) = match (&route.versions, &ctrl.versions, &v.default) {
                            (Some(x), _, _) | (None, Some(x), _) => (Some(x), mi),
                            (None, None, Some(x)) => (Some(x), sm),
                            _ => (None, mi),
                        };
                        match vs {
                            None => vec![None],
                            Some(vs) => vs
                                .iter()
                                .map(|x| match x {
                                    Ver::Neutral => None,
                                    Ver::Expr(e) => {
                                        Some(format!("{}{}", v.prefix, path_value(&project, vm, e)))
                                    }
                                })
                                .collect(),
                        }
                    }
                };
                for (mp, prefix) in module_paths
                    .iter()
                    .flat_map(|mp| ctrl.prefixes.iter().map(move |p| (mp, p)))
                {
                    let prefix = join(&[mp.as_str(), path_value(&project, mi, prefix).as_str()]);
                    for path in &route.paths {
                        let path = path_value(&project, mi, path);
                        let local = join(&[prefix.as_str(), path.as_str()]);
                        for method in &route.methods {
                            let excluded = settings.is_some_and(|s| {
                                s.exclude.iter().any(|x| {
                                    x.path.trim_matches('/') == local.trim_matches('/')
                                        && (x.methods.is_empty() || x.methods.contains(method))
                                })
                            });
                            let g = if excluded { "" } else { global.as_str() };
                            for v in &versions {
                                let url = join(&[g, v.as_deref().unwrap_or(""), local.as_str()]);
                                let mut e = Endpoint::new(method, url)
                                    .params(params.clone())
                                    .at_path(m.info.path.clone(), route.line);
                                e.ai_context = guard_context(&route.guards, &m.info.path);
                                out.push(e);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The guards of a route as the endpoint's `ai_context` (read by the
/// host's `auth` tagger).
pub fn guard_context(guards: &[Guard], path: &str) -> Option<AiContext> {
    if guards.is_empty() {
        return None;
    }
    Some(AiContext {
        guards: guards
            .iter()
            .map(|g| ContextEntry {
                kind: g.kind.clone(),
                name: g.name.clone(),
                source: Some("decorator".into()),
                path: Some(path.to_string()),
                line: Some(g.line),
                ..ContextEntry::default()
            })
            .collect(),
        ..AiContext::default()
    })
}

/// Find the DTO a type name denotes in module `m`.
fn find_dto<'a>(
    project: &Project<'_>,
    modules: &'a [NestModule],
    m: usize,
    name: &str,
) -> Option<(usize, &'a Dto)> {
    let in_module = |mi: usize, n: &str| {
        modules
            .get(mi)
            .and_then(|x| x.dtos.iter().find(|d| d.name == n))
            .map(|d| (mi, d))
    };
    if let Some(x) = in_module(m, name) {
        return Some(x);
    }
    match project.resolve(m, &Value::Name(name.to_string())) {
        Some(Target::Class(fm, n)) | Some(Target::Node(fm, n)) => {
            if let Some(x) = in_module(fm, &n) {
                return Some(x);
            }
        }
        _ => {}
    }
    // Interfaces and types are not exports the project knows: follow the
    // import by name.
    let info = modules.get(m)?;
    if let Some(i) = info.info.imports.iter().find(|i| i.local == name) {
        if let (Some(fm), ImportKind::Named(n)) = (project.resolve_spec(m, &i.spec), &i.kind) {
            if let Some(x) = in_module(fm, n) {
                return Some(x);
            }
        }
    }
    // A unique DTO of that name anywhere (unresolvable alias).
    let mut all = modules
        .iter()
        .enumerate()
        .filter_map(|(mi, x)| x.dtos.iter().find(|d| d.name == name).map(|d| (mi, d)));
    let first = all.next()?;
    all.next().is_none().then_some(first)
}

/// Fields of a DTO, its bases' first (mapped types filtered).
fn dto_fields(
    project: &Project<'_>,
    modules: &[NestModule],
    m: usize,
    name: &str,
    depth: usize,
) -> Vec<String> {
    if depth > 12 {
        return Vec::new();
    }
    let Some((dm, dto)) = find_dto(project, modules, m, name) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for b in &dto.bases {
        for f in dto_fields(project, modules, dm, &b.name, depth + 1) {
            let keep = b.pick.as_ref().is_none_or(|p| p.contains(&f)) && !b.omit.contains(&f);
            if keep && !out.contains(&f) {
                out.push(f);
            }
        }
    }
    for f in &dto.fields {
        if !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

/// `RouterModule` paths of the module declaring controller `ctrl` of
/// module `m` (the empty path when none).
fn module_paths(
    project: &Project<'_>,
    modules: &[NestModule],
    m: usize,
    ctrl: &str,
) -> Vec<String> {
    let me = Target::Class(m, ctrl.to_string());
    let mut out: Vec<String> = Vec::new();
    for (dm, d) in modules.iter().enumerate() {
        for (module_name, ctrls) in &d.modules {
            if !ctrls
                .iter()
                .any(|c| project.resolve(dm, &Value::Name(c.clone())) == Some(me.clone()))
            {
                continue;
            }
            let module = Target::Class(dm, module_name.clone());
            for (rm, r) in modules.iter().enumerate() {
                for (name, path) in &r.router {
                    if project.resolve(rm, &Value::Name(name.clone())) != Some(module.clone()) {
                        continue;
                    }
                    let parts: Vec<String> =
                        path.iter().map(|p| path_value(project, rm, p)).collect();
                    let j = join(&parts);
                    if !out.contains(&j) {
                        out.push(j);
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}
