//! Reduce step: walk the route lists from the applications.

use std::collections::HashSet;

use portolan_plugin_sdk::{Endpoint, Param};

use super::facts::{Entry, EntryKind, StarletteModule};
use crate::fastapi::link::normalize_placeholders;
use crate::py::project::{Binding, Project};

pub fn link(modules: &[StarletteModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut linker = Linker {
        modules,
        project,
        out: Vec::new(),
        visited: HashSet::new(),
    };
    for (m, module) in modules.iter().enumerate() {
        for app in &module.apps {
            linker.walk_list(m, app, "", &mut Vec::new());
        }
    }
    // Lists nothing reaches: served at the root (an app we could not see).
    let referenced = linker.referenced();
    for (m, module) in modules.iter().enumerate() {
        let mut lists: Vec<&str> = module.entries.iter().map(|e| e.list.as_str()).collect();
        lists.dedup();
        for list in lists {
            if list.is_empty()
                || linker.visited.contains(&(m, list.to_string()))
                || referenced.contains(&(m, list.to_string()))
            {
                continue;
            }
            linker.walk_list(m, list, "", &mut Vec::new());
        }
    }
    linker.out
}

struct Linker<'a> {
    modules: &'a [StarletteModule],
    project: Project<'a>,
    out: Vec<Endpoint>,
    visited: HashSet<(usize, String)>,
}

impl Linker<'_> {
    fn is_local(&self) -> impl Fn(usize, &str) -> bool + '_ {
        |m: usize, name: &str| self.modules.get(m).is_some_and(|md| md.defines(name))
    }

    fn local(&self, m: usize, name: &str) -> Option<(usize, String)> {
        match self.project.resolve(m, name, &self.is_local())? {
            Binding::Local { module, name } => Some((module, name)),
            _ => None,
        }
    }

    /// Lists some mount points at.
    fn referenced(&self) -> HashSet<(usize, String)> {
        let mut out = HashSet::new();
        for (m, module) in self.modules.iter().enumerate() {
            let mut stack: Vec<&Entry> = module.entries.iter().collect();
            while let Some(e) = stack.pop() {
                match &e.kind {
                    EntryKind::MountName(name) => {
                        if let Some(target) = self.local(m, name) {
                            out.insert(target);
                        }
                    }
                    EntryKind::MountInline(inner) => stack.extend(inner.iter()),
                    _ => {}
                }
            }
        }
        out
    }

    fn walk_list(&mut self, m: usize, list: &str, prefix: &str, stack: &mut Vec<(usize, String)>) {
        let key = (m, list.to_string());
        if stack.contains(&key) || stack.len() > 24 {
            return;
        }
        self.visited.insert(key.clone());
        stack.push(key);
        let modules = self.modules;
        if let Some(module) = modules.get(m) {
            for e in module.entries.iter().filter(|e| e.list == list) {
                self.walk_entry(m, e, prefix, stack);
            }
        }
        stack.pop();
    }

    fn walk_entry(&mut self, m: usize, e: &Entry, prefix: &str, stack: &mut Vec<(usize, String)>) {
        let Some(path) = self.project.eval(m, &e.path, &self.is_local()) else {
            return;
        };
        // `{id:int}` → `{id}`, as in the OpenAPI documents Starlette apps publish.
        let url = normalize_placeholders(&format!("{}{}", prefix.trim_end_matches('/'), path));
        let file = self
            .modules
            .get(m)
            .map(|md| md.info.path.clone())
            .unwrap_or_default();
        match &e.kind {
            EntryKind::Route { endpoint, methods } => {
                for (method, params) in self.handlers(m, endpoint, methods.as_deref()) {
                    self.push(Endpoint::new(method, &url), &file, e.line, params);
                }
            }
            EntryKind::Inline { methods, params } => {
                for method in methods {
                    self.push(Endpoint::new(method, &url), &file, e.line, params.clone());
                }
            }
            EntryKind::WebSocket { endpoint } => {
                let params = self
                    .handlers(m, endpoint, None)
                    .into_iter()
                    .next()
                    .map(|(_, p)| p)
                    .unwrap_or_default();
                self.push(Endpoint::websocket(&url), &file, e.line, params);
            }
            EntryKind::MountInline(inner) => {
                for i in inner {
                    self.walk_entry(m, i, &url, stack);
                }
            }
            EntryKind::MountName(name) => {
                if let Some((t, list)) = self.local(m, name) {
                    self.walk_list(t, &list, &url, stack);
                }
            }
        }
    }

    fn push(&mut self, e: Endpoint, file: &str, line: u32, params: Vec<Param>) {
        let url = if e.url.is_empty() {
            "/".to_string()
        } else {
            e.url.clone()
        };
        let mut e = e.at_path(file.to_string(), line).params(params);
        e.url = url;
        self.out.push(e);
    }

    /// (method, params) for an endpoint function or `HTTPEndpoint` class.
    fn handlers(
        &self,
        m: usize,
        endpoint: &str,
        methods: Option<&[String]>,
    ) -> Vec<(String, Vec<Param>)> {
        let given = |params: &[Param]| -> Vec<(String, Vec<Param>)> {
            methods
                .map_or_else(|| vec!["GET".to_string()], <[String]>::to_vec)
                .into_iter()
                .map(|mt| (mt, params.to_vec()))
                .collect()
        };
        let Some((t, name)) = self.local(m, endpoint) else {
            return given(&[]);
        };
        let Some(module) = self.modules.get(t) else {
            return given(&[]);
        };
        if let Some(f) = module.functions.iter().find(|f| f.name == name) {
            return given(&f.params);
        }
        if let Some(c) = module.classes.iter().find(|c| c.name == name) {
            return c
                .methods
                .iter()
                .filter(|h| {
                    methods.is_none_or(|ms| ms.iter().any(|x| x.eq_ignore_ascii_case(&h.name)))
                })
                .map(|h| (h.name.to_ascii_uppercase(), h.params.clone()))
                .collect();
        }
        given(&[])
    }
}
