//! Link step: expand routing functions at their call sites.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;

use super::scan::{Fact, Helper, Item, KFun, KParam};
use crate::jvm::expr::StrExpr;
use crate::jvm::facts::split_facts;
use crate::jvm::index::Index;

/// Deepest chain of routing functions calling each other.
const MAX_DEPTH: usize = 8;

struct Linker<'a> {
    idx: Index<'a>,
    by_path: HashMap<&'a str, usize>,
    funs: HashMap<&'a str, Vec<(&'a str, &'a KFun)>>,
    /// `ApplicationCall` helpers by name (overloads together).
    helpers: HashMap<&'a str, Vec<&'a Helper>>,
}

pub fn link(facts: Vec<Fact>) -> Vec<Endpoint> {
    let (files, routes) = split_facts(facts);
    let mut funs: HashMap<&str, Vec<(&str, &KFun)>> = HashMap::new();
    for r in &routes {
        for f in &r.funs {
            funs.entry(f.name.as_str())
                .or_default()
                .push((r.path.as_str(), f));
        }
    }
    let mut helpers: HashMap<&str, Vec<&Helper>> = HashMap::new();
    for r in &routes {
        for h in &r.helpers {
            helpers.entry(h.name.as_str()).or_default().push(h);
        }
    }
    let mounted: HashSet<&str> = routes
        .iter()
        .flat_map(|r| r.funs.iter())
        .flat_map(|f| f.items.iter())
        .filter_map(|i| match i {
            Item::Mount { name, .. } if funs.contains_key(name.as_str()) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let l = Linker {
        idx: Index::new(&files),
        by_path: files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_str(), i))
            .collect(),
        funs,
        helpers,
    };
    let mut out = Vec::new();
    for r in &routes {
        for f in &r.funs {
            if mounted.contains(f.name.as_str()) {
                continue;
            }
            l.expand(&r.path, f, &[], None, 0, &mut out);
        }
    }
    out
}

impl Linker<'_> {
    fn eval(&self, path: &str, e: &StrExpr) -> Option<String> {
        match self.by_path.get(path) {
            Some(&fi) => self.idx.eval(fi, None, e),
            None => e.literal(),
        }
    }

    fn expand(
        &self,
        path: &str,
        f: &KFun,
        prefix: &[String],
        inherited: Option<&(String, u32, String)>,
        depth: usize,
        out: &mut Vec<Endpoint>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for item in &f.items {
            match item {
                Item::Endpoint {
                    method,
                    prefix: local,
                    path: p,
                    line,
                    params,
                    resource,
                    guard,
                } => {
                    let mut parts = prefix.to_vec();
                    for e in local.iter() {
                        match self.eval(path, e) {
                            Some(v) => parts.push(v),
                            None => return,
                        }
                    }
                    let mut queries = Vec::new();
                    match resource {
                        Some(ty) => match self.resource(path, ty, &mut queries) {
                            Some(v) => parts.push(v),
                            None => continue,
                        },
                        None => match self.eval(path, p) {
                            Some(v) => parts.push(v),
                            None => return,
                        },
                    }
                    let url = placeholders(&join_path(&parts));
                    let mut e = Endpoint::new(method, url.clone()).at_path(path, *line);
                    if resource.is_some() {
                        for seg in url.split('/') {
                            if let Some(n) = seg.strip_prefix('{').and_then(|x| x.strip_suffix('}'))
                            {
                                e.push_param(Param::path(n));
                            }
                        }
                        for q in queries {
                            if !url.contains(&format!("{{{q}}}")) {
                                e.push_param(Param::query(q));
                            }
                        }
                    }
                    for p in params {
                        for param in self.param(path, &url, p) {
                            e.push_param(param);
                        }
                    }
                    let own = guard
                        .as_ref()
                        .map(|(n, l)| (n.clone(), *l, path.to_string()));
                    if let Some((n, l, gp)) = own.as_ref().or(inherited) {
                        e.push_guard("auth_guard", n, "call", gp, *l);
                    }
                    out.push(e);
                }
                Item::Mount {
                    name,
                    prefix: local,
                    guard,
                } => {
                    let own = guard
                        .as_ref()
                        .map(|(n, l)| (n.clone(), *l, path.to_string()));
                    let inner = own.as_ref().or(inherited);
                    let Some(targets) = self.funs.get(name.as_str()) else {
                        continue;
                    };
                    let mut parts = prefix.to_vec();
                    let mut ok = true;
                    for e in local {
                        match self.eval(path, e) {
                            Some(v) => parts.push(v),
                            None => ok = false,
                        }
                    }
                    if !ok {
                        continue;
                    }
                    for (tpath, target) in targets {
                        if std::ptr::eq(*target, f) {
                            continue;
                        }
                        self.expand(tpath, target, &parts, inner, depth + 1, out);
                    }
                }
            }
        }
    }

    fn param(&self, path: &str, url: &str, p: &KParam) -> Vec<Param> {
        match p {
            KParam::Parameter(n) => {
                if url.contains(&format!("{{{n}}}")) {
                    vec![Param::path(n.clone())]
                } else {
                    vec![Param::query(n.clone())]
                }
            }
            KParam::Query(n) => vec![Param::query(n.clone())],
            KParam::Form(n) => vec![Param::form(n.clone())],
            KParam::Header(n) => vec![Param::header(n.clone())],
            KParam::Cookie(n) => vec![Param::cookie(n.clone())],
            KParam::File(n) => vec![Param::new(ParamKind::File, n.clone())],
            KParam::Call { name, lit, ty } => {
                let mut found = Vec::new();
                self.helper(name, lit.as_deref(), ty.as_deref(), 0, &mut found);
                let mut out = Vec::new();
                for k in found {
                    for p in self.param(path, url, &k) {
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
                out
            }
            KParam::Body(ty) => {
                let fi = self.by_path.get(path).copied().unwrap_or(0);
                if self.idx.files.is_empty() {
                    return Vec::new();
                }
                self.idx
                    .dto_fields(fi, ty)
                    .unwrap_or_default()
                    .into_iter()
                    .map(Param::json)
                    .collect()
            }
        }
    }
}

impl Linker<'_> {
    /// The path of a `@Resource("…")` class (Ktor Resources plugin),
    /// prefixed with the path of the enclosing resource class when it has a
    /// property of that type (`class Id(val parent: Articles, val id: Long)`).
    /// Its other properties are pushed to `queries` (those not in the path
    /// are query parameters).
    fn resource(&self, path: &str, ty: &str, queries: &mut Vec<String>) -> Option<String> {
        let fi = self.by_path.get(path).copied()?;
        let mut id = self.idx.resolve_type(fi, ty)?;
        let mut parts: Vec<String> = Vec::new();
        for _ in 0..MAX_DEPTH {
            let t = self.idx.ty(id);
            let a = crate::jvm::outline::find(&t.annotations, "Resource")?;
            let e = a.items(&["value", "path"]).into_iter().next()?;
            parts.push(self.idx.eval(id.0, Some(id), &e)?);
            // The enclosing class, when a property has its type.
            let outer = t.qual.rsplit_once('.').map(|(o, _)| o);
            let parent = outer.and_then(|o| {
                let simple = o.rsplit('.').next().unwrap_or(o);
                t.fields.iter().find(|f| {
                    let b = crate::jvm::index::bare_type(&f.ty);
                    b == simple || b == o
                })
            });
            for f in &t.fields {
                if !parent.is_some_and(|p| std::ptr::eq(p, f))
                    && !f.is_static
                    && !queries.contains(&f.name)
                {
                    queries.push(f.name.clone());
                }
            }
            match (parent, outer) {
                (Some(_), Some(o)) => id = self.idx.resolve_type(id.0, o)?,
                _ => break,
            }
        }
        parts.reverse();
        Some(join_path(&parts))
    }

    /// What helper `name` reads when called with a first argument that is
    /// the literal `lit` or names the type `ty` (through helpers it calls,
    /// a few levels deep).
    fn helper(
        &self,
        name: &str,
        lit: Option<&str>,
        ty: Option<&str>,
        depth: usize,
        out: &mut Vec<KParam>,
    ) {
        if depth > 3 || out.len() > 64 {
            return;
        }
        for h in self.helpers.get(name).into_iter().flatten() {
            for (p, kind) in &h.reads {
                if let (0, Some(n)) = (p, lit) {
                    let k = match kind {
                        KParam::Query(_) => KParam::Query(n.to_string()),
                        _ => KParam::Parameter(n.to_string()),
                    };
                    if !out.contains(&k) {
                        out.push(k);
                    }
                }
            }
            for k in &h.direct {
                if !out.contains(k) {
                    out.push(k.clone());
                }
            }
            if let (Some(0), Some(t)) = (h.body_from, ty) {
                let k = KParam::Body(t.to_string());
                if !out.contains(&k) {
                    out.push(k);
                }
            }
            for (callee, p) in &h.passes {
                if *p == 0 && callee != name {
                    self.helper(callee, lit, ty, depth + 1, out);
                }
            }
            for (callee, l) in &h.fixed {
                self.helper(callee, Some(l), None, depth + 1, out);
            }
        }
    }
}

/// `{id?}` → `{id}`, `{path...}` → `{path}`.
fn placeholders(url: &str) -> String {
    url.replace("?}", "}").replace("...}", "}")
}
