//! Link step: resolves unit mounts into URL prefixes (across files),
//! path constants, handler references and decoded types into endpoints.
//!
//! Names are scoped by Swift package (the directory holding `Sources/`), so
//! two apps in one tree that both have a `UserController` stay apart; a
//! name missing from the package is looked up in the others (local package
//! dependencies).

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::flow::{FileFlow, Func, Handler, Seg};
use super::outline::TypeDecl;
use super::reads::{Read, Src};

/// Everything one file contributes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFact {
    /// The package directory (`app/api` for `app/api/Sources/App/x.swift`).
    pub package: String,
    pub flow: FileFlow,
    pub types: Vec<TypeDecl>,
    pub consts: Vec<(String, String)>,
}

/// The package of a source path: everything before its `Sources/`
/// segment, or the empty string.
pub fn package_of(path: &str) -> String {
    let path = path.replace('\\', "/");
    let segs: Vec<&str> = path.split('/').collect();
    match segs.iter().rposition(|s| *s == "Sources") {
        Some(i) => segs[..i].join("/"),
        None => String::new(),
    }
}

const MAX_DEPTH: usize = 16;

/// A name looked up in the package first, then anywhere.
struct Scoped<'a, T> {
    by_pkg: HashMap<(&'a str, &'a str), T>,
    any: HashMap<&'a str, T>,
}

impl<'a, T: Copy> Scoped<'a, T> {
    fn new() -> Self {
        Scoped {
            by_pkg: HashMap::new(),
            any: HashMap::new(),
        }
    }
    fn insert(&mut self, pkg: &'a str, name: &'a str, v: T, replace: impl Fn(&T) -> bool) {
        let e = self.by_pkg.entry((pkg, name)).or_insert(v);
        if replace(e) {
            *e = v;
        }
        let e = self.any.entry(name).or_insert(v);
        if replace(e) {
            *e = v;
        }
    }
    fn get(&self, pkg: &str, name: &str) -> Option<T> {
        self.by_pkg
            .get(&(pkg, name))
            .or_else(|| self.any.get(name))
            .copied()
    }
}

pub struct Linker<'a> {
    files: &'a [FileFact],
    /// Unit name → package of its definition.
    units: Scoped<'a, &'a str>,
    consts: Scoped<'a, &'a str>,
    types: Scoped<'a, &'a TypeDecl>,
}

impl<'a> Linker<'a> {
    pub fn new(files: &'a [FileFact]) -> Self {
        let mut consts = Scoped::new();
        let mut types = Scoped::new();
        let mut units = Scoped::new();
        for f in files {
            let pkg = f.package.as_str();
            for (k, v) in &f.consts {
                consts.insert(pkg, k, v.as_str(), |_| false);
            }
            for t in &f.types {
                // Prefer the declaration with stored properties.
                types.insert(pkg, &t.name, t, |e: &&TypeDecl| e.fields.is_empty());
            }
            for u in &f.flow.units {
                units.insert(pkg, u, pkg, |_| false);
            }
        }
        for f in files {
            for (k, v) in &f.flow.locals {
                consts.insert(&f.package, k, v.as_str(), |_| false);
            }
        }
        Linker {
            files,
            units,
            consts,
            types,
        }
    }

    /// The (package, unit) a mount from `pkg` reaches.
    fn target(&self, pkg: &str, targets: &[String]) -> Option<(&'a str, String)> {
        targets
            .iter()
            .find_map(|t| self.units.get(pkg, t).map(|p| (p, t.clone())))
    }

    /// Every prefix a unit is reachable under (`[[]]` when never mounted).
    /// `stack` holds the units being resolved: mount cycles are cut, and a
    /// unit mounted only from inside a cycle is unreachable.
    fn prefixes(&self, pkg: &str, unit: &str, stack: &mut Vec<(String, String)>) -> Vec<Vec<Seg>> {
        let mut out = Vec::new();
        let mut mounted = false;
        let key = (pkg.to_string(), unit.to_string());
        if stack.contains(&key) {
            // A cycle adds no new way in.
            return out;
        }
        if stack.len() < MAX_DEPTH {
            stack.push(key);
            for f in self.files {
                for m in &f.flow.mounts {
                    if m.unit == unit && f.package == pkg {
                        continue;
                    }
                    match self.target(&f.package, &m.targets) {
                        Some((p, u)) if p == pkg && u == unit => mounted = true,
                        _ => continue,
                    }
                    for mut p in self.prefixes(&f.package, &m.unit, stack) {
                        p.extend(m.segs.iter().cloned());
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
            }
            stack.pop();
        }
        if !mounted {
            out.push(Vec::new());
        }
        out
    }

    /// The text of a segment; `None` for an unknown constant (a
    /// middleware value rather than a path).
    fn seg(&self, pkg: &str, s: &Seg) -> Option<String> {
        match s {
            Seg::Lit(v) => Some(v.clone()),
            Seg::Const(c) => self.consts.get(pkg, c).map(str::to_string),
            Seg::Join(parts) => parts.iter().map(|p| self.seg(pkg, p)).collect(),
        }
    }

    pub fn url(&self, pkg: &str, segs: &[Seg]) -> String {
        let mut parts = Vec::new();
        for s in segs {
            let Some(text) = self.seg(pkg, s) else {
                continue;
            };
            let text = text.trim_matches('/');
            if !text.is_empty() {
                parts.push(text.to_string());
            }
        }
        format!("/{}", parts.join("/"))
    }

    /// The handler's reads, and for Codable routing the types of its
    /// parameters.
    fn reads(&self, pkg: &str, h: &Handler) -> (Vec<Read>, Vec<String>) {
        match h {
            Handler::None => (Vec::new(), Vec::new()),
            Handler::Inline(r) => (r.clone(), Vec::new()),
            Handler::Ref { owner, name } => {
                let funcs = || {
                    self.files
                        .iter()
                        .flat_map(|f| f.flow.funcs.iter().map(move |x| (f.package.as_str(), x)))
                };
                let pick = |same_pkg: bool, same_owner: bool| {
                    funcs()
                        .find(|(p, f): &(&str, &Func)| {
                            f.name == *name
                                && (!same_pkg || *p == pkg)
                                && (!same_owner || f.owner == *owner)
                        })
                        .map(|(_, f)| (f.reads.clone(), f.param_types.clone()))
                };
                pick(true, true)
                    .or_else(|| pick(false, true))
                    .or_else(|| pick(true, false))
                    .or_else(|| pick(false, false))
                    .unwrap_or_default()
            }
        }
    }

    fn params(&self, pkg: &str, reads: &[Read]) -> Vec<Param> {
        let kind = |s: Src| match s {
            Src::Query => ParamKind::Query,
            Src::Json => ParamKind::Json,
            Src::Header => ParamKind::Header,
            Src::Cookie => ParamKind::Cookie,
            Src::File => ParamKind::File,
            Src::Form => ParamKind::Form,
        };
        let mut out = Vec::new();
        for r in reads {
            match r {
                Read::Param(s, n) => out.push(Param::new(kind(*s), n.clone())),
                Read::Decode(s, ty) => {
                    if let Some(d) = self.types.get(pkg, ty) {
                        out.extend(d.fields.iter().map(|f| Param::new(kind(*s), f.clone())));
                    }
                }
            }
        }
        out
    }

    pub fn endpoints(&self) -> Vec<Endpoint> {
        let mut out = Vec::new();
        for f in self.files {
            let pkg = f.package.as_str();
            for r in &f.flow.routes {
                let (reads, types) = self.reads(pkg, &r.handler);
                let mut reads = reads;
                if r.codable {
                    let query = r
                        .methods
                        .iter()
                        .all(|m| matches!(m.as_str(), "GET" | "DELETE" | "HEAD"));
                    let src = if query { Src::Query } else { Src::Json };
                    reads.extend(types.into_iter().map(|t| Read::Decode(src, t)));
                }
                let params = self.params(pkg, &reads);
                for mut prefix in self.prefixes(pkg, &r.unit, &mut Vec::new()) {
                    prefix.extend(r.segs.iter().cloned());
                    let url = self.url(pkg, &prefix);
                    if r.websocket {
                        out.push(Endpoint::websocket(url).at_path(r.path.clone(), r.line));
                        continue;
                    }
                    for m in &r.methods {
                        let mut e = Endpoint::new(m, url.clone()).at_path(r.path.clone(), r.line);
                        for p in &params {
                            e.push_param(p.clone());
                        }
                        out.push(e);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages() {
        assert_eq!(package_of("app/api/Sources/App/routes.swift"), "app/api");
        assert_eq!(package_of("app/Sources/App/routes.swift"), "app");
        assert_eq!(package_of("app/main.swift"), "");
    }
}

#[cfg(test)]
mod cycle_tests {
    use super::*;
    use crate::swift::flow::{Mount, Route};

    #[test]
    fn mount_cycles_terminate() {
        let mount = |from: &str, to: &str, seg: &str| Mount {
            unit: from.into(),
            segs: vec![Seg::Lit(seg.into())],
            targets: vec![to.into()],
        };
        let flow = FileFlow {
            routes: vec![Route {
                path: "app/Sources/App/a.swift".into(),
                line: 3,
                unit: "A.boot".into(),
                segs: vec![Seg::Lit("x".into())],
                methods: vec!["GET".into()],
                websocket: false,
                handler: Handler::None,
                codable: false,
            }],
            mounts: vec![
                mount("fn:routes", "A.boot", "a"),
                mount("A.boot", "B.boot", "b"),
                mount("B.boot", "A.boot", "c"),
            ],
            units: vec!["fn:routes".into(), "A.boot".into(), "B.boot".into()],
            ..FileFlow::default()
        };
        let files = [FileFact {
            package: "app".into(),
            flow,
            ..FileFact::default()
        }];
        let urls: Vec<String> = Linker::new(&files)
            .endpoints()
            .into_iter()
            .map(|e| e.url)
            .collect();
        assert_eq!(urls, ["/a/x"]);
    }
}
