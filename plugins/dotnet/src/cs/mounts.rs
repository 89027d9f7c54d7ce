//! Link-time resolution of builder flow: the full URLs of a `Map…` route
//! whose builder came, through calls in any file, from group prefixes.

use portolan_plugin_sdk::paths::join;

use super::flow::{BRef, Call, FnRef, Handler, Root, Route};
use super::index::{Index, TypeId};
use super::outline::Method;

pub struct Mounts<'a> {
    pub idx: &'a Index<'a>,
    calls: &'a [Call],
    groups: &'a [crate::scan::EndpointGroup],
}

impl<'a> Mounts<'a> {
    pub fn new(idx: &'a Index<'a>, calls: &'a [Call]) -> Self {
        Mounts {
            idx,
            calls,
            groups: &[],
        }
    }

    /// With the reflection-discovered endpoint groups of the scan.
    pub fn with_groups(mut self, groups: &'a [crate::scan::EndpointGroup]) -> Self {
        self.groups = groups;
        self
    }

    /// The method a [`FnRef`] names.
    pub fn def(&self, f: &FnRef) -> Option<(TypeId, &'a Method)> {
        self.idx.all().find_map(|id| {
            let t = self.idx.ty(id);
            if t.name != f.ty {
                return None;
            }
            t.methods
                .iter()
                .find(|m| m.name == f.name && m.params.len() == f.arity)
                .map(|m| (id, m))
        })
    }

    fn ctx(&self, f: &Option<FnRef>) -> Option<TypeId> {
        f.as_ref().and_then(|f| self.idx.find(&f.ty, None))
    }

    /// Prefixes of the builder a method receives as its `param`-th
    /// parameter, from every call site; `[""]` when it is never called
    /// from code we see (discovered by a framework, or the app itself).
    pub fn prefixes(&self, f: &Option<FnRef>, root: &Root, depth: usize) -> Vec<String> {
        let (Some(func), Root::Param(i)) = (f, root) else {
            return vec![String::new()];
        };
        if depth > 6 {
            return vec![String::new()];
        }
        let ext = self
            .def(func)
            .is_some_and(|(_, m)| m.params.first().is_some_and(|p| p.this));
        let mut out: Vec<String> = Vec::new();
        for c in self.calls.iter().filter(|c| c.callee == func.name) {
            let arg = if ext && c.receiver.is_some() {
                if *i == 0 {
                    c.receiver.as_ref()
                } else {
                    c.args.get(i - 1).and_then(Option::as_ref)
                }
            } else {
                if c.args.len() > func.arity {
                    continue;
                }
                c.args.get(*i).and_then(Option::as_ref)
            };
            let Some(b) = arg else { continue };
            for u in self.urls(&c.func, b, depth + 1) {
                if !out.contains(&u) {
                    out.push(u);
                }
            }
        }
        if out.is_empty() && !self.groups.is_empty() {
            // Never called from code: a group discovered by reflection
            // (`Products : IEndpointGroup` → `/api/Products`).
            if let Some((id, _)) = self.def(func) {
                let name = &self.idx.ty(id).name;
                for g in self.groups {
                    if self.idx.derives(id, &|b| super::index::simple(b) == g.base) {
                        let u = format!("{}{name}{}", g.before, g.after);
                        if !out.contains(&u) {
                            out.push(u);
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

    /// The `.RequireAuthorization(…)` of a builder (as written, line,
    /// file): its own chain's, else that of the builder a call site passes
    /// for it (`app.MapGroup("/todos").RequireAuthorization().MapTodos()`;
    /// the first call site that has one).
    pub fn guard(
        &self,
        f: &Option<FnRef>,
        b: &BRef,
        path: &str,
        depth: usize,
    ) -> Option<(String, u32, String)> {
        if let Some((n, l)) = &b.guard {
            return Some((n.clone(), *l, path.to_string()));
        }
        let (Some(func), Root::Param(i)) = (f, &b.root) else {
            return None;
        };
        if depth > 6 {
            return None;
        }
        let ext = self
            .def(func)
            .is_some_and(|(_, m)| m.params.first().is_some_and(|p| p.this));
        self.calls
            .iter()
            .filter(|c| c.callee == func.name)
            .find_map(|c| {
                let arg = if ext && c.receiver.is_some() {
                    if *i == 0 {
                        c.receiver.as_ref()
                    } else {
                        c.args.get(i - 1).and_then(Option::as_ref)
                    }
                } else if c.args.len() > func.arity {
                    None
                } else {
                    c.args.get(*i).and_then(Option::as_ref)
                };
                self.guard(&c.func, arg?, &c.path, depth + 1)
            })
    }

    /// The prefixes a builder stands for.
    pub fn urls(&self, f: &Option<FnRef>, b: &BRef, depth: usize) -> Vec<String> {
        let ctx = self.ctx(f);
        let mut groups = Vec::new();
        for g in &b.groups {
            match self.idx.eval(ctx, g) {
                Some(v) => groups.push(v),
                None => return Vec::new(),
            }
        }
        self.prefixes(f, &b.root, depth)
            .into_iter()
            .map(|p| {
                let mut parts = vec![p];
                parts.extend(groups.iter().cloned());
                join(&parts)
            })
            .collect()
    }

    /// Full URLs of a route.
    pub fn route_urls(&self, r: &Route) -> Vec<String> {
        let Some(pattern) = self.idx.eval(self.ctx(&r.func), &r.pattern) else {
            return Vec::new();
        };
        self.urls(&r.func, &r.at, 0)
            .into_iter()
            .map(|p| {
                if pattern.is_empty() || pattern == "/" {
                    p
                } else {
                    join(&[p.as_str(), pattern.as_str()])
                }
            })
            .collect()
    }

    /// The method a method-group handler names.
    pub fn handler_method(&self, r: &Route, h: &Handler) -> Option<(TypeId, &'a Method)> {
        let name = h.method.as_deref()?;
        let (ty, m) = match name.rsplit_once('.') {
            Some((t, m)) => (Some(t.rsplit('.').next().unwrap_or(t)), m),
            None => (r.func.as_ref().map(|f| f.ty.as_str()), name),
        };
        let find = |ty: Option<&str>| {
            self.idx.all().find_map(|id| {
                let t = self.idx.ty(id);
                if ty.is_some_and(|n| n != t.name) {
                    return None;
                }
                t.methods.iter().find(|x| x.name == m).map(|x| (id, x))
            })
        };
        find(ty).or_else(|| find(None))
    }
}
