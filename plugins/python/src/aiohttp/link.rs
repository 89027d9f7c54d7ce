//! Reduce step: follow `add_routes` / `add_subapp` from the root apps.

use std::collections::HashSet;

use portolan_plugin_sdk::{Endpoint, Param};

use super::facts::{AiohttpModule, Handler, Route};
use crate::py::project::{Binding, Project};

/// Methods reported for a `*` route.
const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

pub fn link(modules: &[AiohttpModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        project,
        out: Vec::new(),
        visited: HashSet::new(),
    };
    let included = linker.included();
    for (m, module) in modules.iter().enumerate() {
        for app in &module.apps {
            if !included.contains(&(m, app.clone())) {
                linker.walk(m, app, "", &mut Vec::new());
            }
        }
    }
    // Owners nothing reached (an app built elsewhere, a table never added).
    for (m, module) in modules.iter().enumerate() {
        let mut owners: Vec<String> = Vec::new();
        for r in &module.routes {
            if !owners.contains(&r.owner) {
                owners.push(r.owner.clone());
            }
        }
        for owner in owners {
            if !linker.visited.contains(&(m, owner.clone()))
                && !included.contains(&(m, owner.clone()))
            {
                linker.walk(m, &owner, "", &mut Vec::new());
            }
        }
    }
    linker.out
}

struct Linker<'a> {
    modules: &'a [AiohttpModule],
    project: Project<'a>,
    out: Vec<Endpoint>,
    visited: HashSet<(usize, String)>,
}

impl Linker<'_> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m: usize, name: &str| self.modules.get(m).is_some_and(|md| md.defines(name))
    }

    fn local(&self, m: usize, name: &str) -> Option<(usize, String)> {
        if let Some(Binding::Local { module, name }) =
            self.project.resolve(m, name, &self.is_local())
        {
            return Some((module, name));
        }
        // `api = create_api()` with `def create_api(): api = web.Application(); …; return api`.
        let callee = self
            .modules
            .get(m)?
            .built
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.clone())?;
        let Binding::Local { module, name: f } =
            self.project.resolve(m, &callee, &self.is_local())?
        else {
            return None;
        };
        let app = self
            .modules
            .get(module)?
            .factories
            .iter()
            .find(|(fname, _)| *fname == f)?
            .1
            .clone();
        Some((module, app))
    }

    fn included(&self) -> HashSet<(usize, String)> {
        let mut out = HashSet::new();
        for (m, module) in self.modules.iter().enumerate() {
            for inc in &module.includes {
                if let Some(t) = self.local(m, &inc.target) {
                    out.insert(t);
                }
            }
        }
        out
    }

    fn walk(&mut self, m: usize, owner: &str, prefix: &str, stack: &mut Vec<(usize, String)>) {
        let key = (m, owner.to_string());
        if stack.contains(&key) || stack.len() > 24 {
            return;
        }
        self.visited.insert(key.clone());
        stack.push(key);
        let modules = self.modules;
        if let Some(module) = modules.get(m) {
            for r in module.routes.iter().filter(|r| r.owner == owner) {
                self.route(m, r, prefix);
            }
            for inc in module.includes.iter().filter(|i| i.owner == owner) {
                let Some(p) = self.project.eval(m, &inc.prefix, &self.is_local()) else {
                    continue;
                };
                if let Some((t, name)) = self.local(m, &inc.target) {
                    let next = format!("{}{}", prefix.trim_end_matches('/'), p);
                    self.walk(t, &name, &next, stack);
                }
            }
        }
        stack.pop();
    }

    fn route(&mut self, m: usize, r: &Route, prefix: &str) {
        let Some(path) = self.project.eval(m, &r.path, &self.is_local()) else {
            return;
        };
        let url = format!("{}{}", prefix.trim_end_matches('/'), path);
        let file = self
            .modules
            .get(m)
            .map(|md| md.info.path.clone())
            .unwrap_or_default();
        for (method, params) in self.handlers(m, r) {
            self.out.push(
                Endpoint::new(method, url.clone())
                    .at_path(file.clone(), r.line)
                    .params(params),
            );
        }
    }

    fn handlers(&self, m: usize, r: &Route) -> Vec<(String, Vec<Param>)> {
        let methods: Vec<String> = if r.method == "*" {
            ANY.iter().map(|s| s.to_string()).collect()
        } else {
            vec![r.method.clone()]
        };
        let with = |params: Vec<Param>| -> Vec<(String, Vec<Param>)> {
            methods
                .iter()
                .map(|mt| (mt.clone(), params.clone()))
                .collect()
        };
        let name = match &r.handler {
            Handler::Inline(params) => return with(params.clone()),
            Handler::Ref(name) => name,
        };
        let target = self
            .local(m, name)
            .and_then(|(t, n)| self.modules.get(t).map(|md| (md, n)));
        if let Some((module, n)) = target {
            if let Some(c) = module.classes.iter().find(|c| c.name == n) {
                return c
                    .methods
                    .iter()
                    .filter(|h| {
                        r.method == "VIEW"
                            || r.method == "*"
                            || h.name.eq_ignore_ascii_case(&r.method)
                    })
                    .map(|h| (h.name.to_ascii_uppercase(), h.params.clone()))
                    .collect();
            }
            if let Some(f) = module.functions.iter().find(|f| f.name == n) {
                return with(f.params.clone());
            }
        }
        if r.method == "VIEW" {
            return vec![("GET".to_string(), Vec::new())];
        }
        with(Vec::new())
    }
}
