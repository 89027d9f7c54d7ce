//! Reduce step: resolve routers through `nest`/`merge` across functions,
//! modules and crates, constants in paths, and handler extractors.

use std::collections::HashSet;

use portolan_plugin_sdk::prelude::*;

use super::scan::{FileFacts, FnFacts, Op, Target};
use crate::rs::expr::Part;
use crate::rs::items::StructDecl;

/// A bare name used as a function reference.
fn as_call(name: &str) -> Target {
    Target::Call {
        qual: None,
        name: name.to_string(),
    }
}

pub struct Linker {
    files: Vec<FileFacts>,
}

/// A function: (file index, fn index).
pub(crate) type FnId = (usize, usize);

/// How deep nesting is followed (guards against recursive routers).
const MAX_DEPTH: usize = 16;

impl Linker {
    pub fn new(files: Vec<FileFacts>) -> Self {
        Linker { files }
    }

    pub fn endpoints(&self) -> Vec<Endpoint> {
        // Routers referenced from another router are not roots.
        let mut referenced: HashSet<(FnId, String)> = HashSet::new();
        for (fi, file) in self.files.iter().enumerate() {
            for (ni, f) in file.fns.iter().enumerate() {
                for r in &f.routers {
                    self.collect_refs((fi, ni), &r.ops, &mut referenced);
                }
            }
        }
        let mut out = Vec::new();
        let mut batches: Vec<usize> = Vec::new();
        for (fi, file) in self.files.iter().enumerate() {
            for (ni, f) in file.fns.iter().enumerate() {
                for r in &f.routers {
                    let returned = r.name.is_empty() || f.returns.as_deref() == Some(&r.name);
                    let key = (
                        (fi, ni),
                        if returned {
                            String::new()
                        } else {
                            r.name.clone()
                        },
                    );
                    if referenced.contains(&key) {
                        continue;
                    }
                    self.expand((fi, ni), &r.ops, "", 0, &mut out);
                    let batch = batches.last().map_or(0, |b| b + 1);
                    batches.resize(out.len(), batch);
                }
            }
        }
        drop_unmounted_twins(out, &batches)
    }

    fn collect_refs(&self, at: FnId, ops: &[Op], refs: &mut HashSet<(FnId, String)>) {
        for op in ops {
            let t = match op {
                Op::Nest { target, .. } => target,
                Op::Merge(target) => target,
                Op::Route { .. } | Op::Layer(_) | Op::Handlers(_) | Op::ImplRoutes(_) => continue,
            };
            match t {
                Target::Local(v) if self.local_ops(at, v).is_empty() => {
                    let call = self.let_call(at, v).unwrap_or_else(|| as_call(v));
                    if let Some(id) = self.resolve(at.0, &call) {
                        refs.insert((id, String::new()));
                    }
                }
                Target::Local(v) => {
                    let f = self.func(at);
                    let name = if f.returns.as_deref() == Some(v.as_str()) {
                        String::new()
                    } else {
                        v.clone()
                    };
                    refs.insert((at, name));
                }
                Target::Call { .. } => {
                    if let Some(id) = self.resolve(at.0, t) {
                        refs.insert((id, String::new()));
                    }
                }
                Target::Inline(inner) => self.collect_refs(at, inner, refs),
                Target::Method(name) => {
                    for id in self.methods_named(name) {
                        refs.insert((id, String::new()));
                    }
                }
                Target::Other => {}
            }
        }
    }

    /// Every function named `name` that returns routes (the
    /// implementations of a method called on a value of unknown type).
    fn methods_named(&self, name: &str) -> Vec<FnId> {
        let mut out = Vec::new();
        for (fi, file) in self.files.iter().enumerate() {
            for (ni, f) in file.fns.iter().enumerate() {
                if f.name == name && !self.returned_ops((fi, ni)).is_empty() {
                    out.push((fi, ni));
                }
            }
        }
        out
    }

    /// The call a local variable of `at` is bound to (`let v = f(…);`).
    fn let_call(&self, at: FnId, var: &str) -> Option<Target> {
        self.func(at)
            .lets
            .iter()
            .rev()
            .find(|(n, _)| n == var)
            .map(|(_, t)| t.clone())
    }

    pub(crate) fn func(&self, id: FnId) -> &FnFacts {
        &self.files[id.0].fns[id.1]
    }

    /// The function a call refers to: same file, then same crate (module
    /// path ending with the qualifier), then anywhere.
    pub(crate) fn resolve(&self, from: usize, t: &Target) -> Option<FnId> {
        self.resolve_named(from, t).or_else(|| {
            // `api::core_routes()` with `pub use core::routes as
            // core_routes;` somewhere in the crate.
            let Target::Call { name, .. } = t else {
                return None;
            };
            let krate = &self.files[from].krate;
            let original = self
                .files
                .iter()
                .filter(|f| &f.krate == krate)
                .find_map(|f| f.aliases.iter().find(|(a, _)| a == name))?;
            self.resolve_named(from, &original.1)
        })
    }

    fn resolve_named(&self, from: usize, t: &Target) -> Option<FnId> {
        let Target::Call { qual, name } = t else {
            return None;
        };
        let here = &self.files[from];
        let mut best: Option<(u8, FnId)> = None;
        for (fi, file) in self.files.iter().enumerate() {
            for (ni, f) in file.fns.iter().enumerate() {
                if &f.name != name {
                    continue;
                }
                let same_crate = file.krate == here.krate;
                // The module a function lives in: its file's, or the inline
                // `mod x { … }` around it.
                let module = if f.inline.is_empty() {
                    file.module.as_str()
                } else {
                    f.inline.as_str()
                };
                // The qualifier's last segment names the module; all of it
                // (`routes::profiles`) tells apart modules of the same name.
                let last = qual.as_deref().map(|q| q.rsplit("::").next().unwrap_or(q));
                let qual_ok = match last {
                    Some(q) => module.rsplit("::").next() == Some(q),
                    None => fi == from,
                };
                let full_ok = qual.as_deref().is_some_and(|q| {
                    q.contains("::")
                        && (module == q
                            || module
                                .strip_suffix(q)
                                .is_some_and(|head| head.ends_with("::")))
                });
                // `other_crate::f()`: the root module of that crate.
                let crate_root = last.is_some_and(|q| {
                    file.module.is_empty()
                        && file
                            .krate
                            .rsplit('/')
                            .next()
                            .map(|k| k.replace('-', "_"))
                            .as_deref()
                            == Some(q)
                });
                let score = match (same_crate, qual_ok) {
                    _ if crate_root => 8,
                    (true, true) if full_ok => 7,
                    (true, true) => 6,
                    (true, false) => 4,
                    (false, true) if full_ok => 3,
                    (false, true) => 2,
                    (false, false) => 0,
                };
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, (fi, ni)));
                }
            }
        }
        best.map(|(_, id)| id)
    }

    /// The routers a function returns (`""` and its tail variable).
    fn returned_ops(&self, id: FnId) -> Vec<&Op> {
        let f = self.func(id);
        f.routers
            .iter()
            .filter(|r| r.name.is_empty() || f.returns.as_deref() == Some(&r.name))
            .flat_map(|r| r.ops.iter())
            .collect()
    }

    fn local_ops(&self, id: FnId, var: &str) -> Vec<&Op> {
        let f = self.func(id);
        if f.returns.as_deref() == Some(var) {
            return self.returned_ops(id);
        }
        f.routers
            .iter()
            .filter(|r| r.name == var)
            .flat_map(|r| r.ops.iter())
            .collect()
    }

    fn expand(&self, at: FnId, ops: &[Op], prefix: &str, depth: usize, out: &mut Vec<Endpoint>) {
        let refs: Vec<&Op> = ops.iter().collect();
        self.expand_refs(at, &refs, prefix, depth, out);
    }

    fn expand_refs(
        &self,
        at: FnId,
        ops: &[&Op],
        prefix: &str,
        depth: usize,
        out: &mut Vec<Endpoint>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let file = &self.files[at.0];
        let start = out.len();
        for op in ops {
            match op {
                Op::Layer(fns) => {
                    // Middleware wrapping everything added so far.
                    for t in fns {
                        let t = match t {
                            Target::Local(name) => as_call(name),
                            other => other.clone(),
                        };
                        let Some(id) = self.resolve(at.0, &t) else {
                            continue;
                        };
                        let params = self.handler_params(id);
                        for e in out[start..].iter_mut() {
                            for p in &params {
                                e.push_param(p.clone());
                            }
                        }
                    }
                }
                Op::Route {
                    path,
                    line,
                    query,
                    extract,
                    methods,
                } => {
                    let Some(p) = self.string(at.0, path) else {
                        continue;
                    };
                    let url = join_path(&[prefix, &p]);
                    for (method, handler) in methods {
                        let mut e = Endpoint::new(method, url.clone()).at_path(&file.path, *line);
                        for q in query {
                            e.push_param(Param::query(q));
                        }
                        for (kind, ty) in extract {
                            for name in self.fields(at.0, ty, 0) {
                                e.push_param(if kind == "path" {
                                    Param::path(name)
                                } else {
                                    Param::query(name)
                                });
                            }
                        }
                        let handler = handler.as_ref().map(|h| match h {
                            Target::Local(name) => Target::Call {
                                qual: None,
                                name: name.clone(),
                            },
                            other => other.clone(),
                        });
                        if let Some(h) = handler.as_ref().and_then(|h| self.resolve(at.0, h)) {
                            for p in self.handler_params(h) {
                                e.push_param(p);
                            }
                        }
                        out.push(e);
                    }
                }
                Op::Nest {
                    path,
                    line,
                    target,
                    service,
                } => {
                    let Some(p) = self.string(at.0, path) else {
                        continue;
                    };
                    let inner = join_path(&[prefix, &p]);
                    let expanded = self.expand_target(at, target, &inner, depth, out);
                    if !expanded && *service {
                        out.push(Endpoint::new("GET", inner).at_path(&file.path, *line));
                    }
                }
                Op::Merge(target) => {
                    self.expand_target(at, target, prefix, depth, out);
                }
                Op::Handlers(targets) => {
                    for t in targets {
                        let t = match t {
                            Target::Local(name) => as_call(name),
                            other => other.clone(),
                        };
                        if let Some(id) = self.resolve(at.0, &t) {
                            self.attribute_route(id, prefix, out);
                        }
                    }
                }
                Op::ImplRoutes(types) => {
                    for (fi, file) in self.files.iter().enumerate() {
                        for (ni, f) in file.fns.iter().enumerate() {
                            if !f.impl_of.is_empty() && types.contains(&f.impl_of) {
                                self.attribute_route((fi, ni), prefix, out);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The endpoints a handler's own route attribute declares
    /// (`#[utoipa::path]`, poem-openapi `#[oai]`), below `prefix`.
    fn attribute_route(&self, id: FnId, prefix: &str, out: &mut Vec<Endpoint>) {
        let Some((methods, path, line)) = &self.func(id).utoipa else {
            return;
        };
        let url = join_path(&[prefix, path]);
        let params = self.handler_params(id);
        for m in methods {
            let mut e = Endpoint::new(m, url.clone()).at_path(&self.files[id.0].path, *line);
            for p in &params {
                e.push_param(p.clone());
            }
            out.push(e);
        }
    }

    fn expand_target(
        &self,
        at: FnId,
        target: &Target,
        prefix: &str,
        depth: usize,
        out: &mut Vec<Endpoint>,
    ) -> bool {
        match target {
            Target::Inline(ops) => {
                self.expand(at, ops, prefix, depth + 1, out);
                true
            }
            Target::Local(v) => {
                let ops = self.local_ops(at, v);
                if ops.is_empty() {
                    // Not a local router: what a call bound to it returns
                    // (`let v1 = v1::router(cfg);`), or a function
                    // (`.service(handler)`, `.configure(config)`).
                    let call = self.let_call(at, v).unwrap_or_else(|| as_call(v));
                    return self.expand_target(at, &call, prefix, depth, out);
                }
                self.expand_refs(at, &ops, prefix, depth + 1, out);
                true
            }
            Target::Call { .. } => {
                let Some(id) = self.resolve(at.0, target) else {
                    return false;
                };
                let ops = self.returned_ops(id);
                if ops.is_empty() {
                    return false;
                }
                self.expand_refs(id, &ops, prefix, depth + 1, out);
                true
            }
            Target::Method(name) => {
                let mut any = false;
                for id in self.methods_named(name).into_iter().filter(|id| *id != at) {
                    let ops = self.returned_ops(id);
                    self.expand_refs(id, &ops, prefix, depth + 1, out);
                    any = true;
                }
                any
            }
            Target::Other => false,
        }
    }

    /// A path expression's value; constants looked up in the same file,
    /// then the same crate, then anywhere.
    pub(crate) fn string(&self, from: usize, parts: &[Part]) -> Option<String> {
        self.string_depth(from, parts, 0)
    }

    fn string_depth(&self, from: usize, parts: &[Part], depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let mut s = String::new();
        for p in parts {
            match p {
                Part::Lit(l) => s.push_str(l),
                Part::Const(name) if name.contains('.') => {
                    // `Variant.accessor`: the variant's path, minus the
                    // prefix the accessor slices off.
                    let (variant, method) = name.split_once('.')?;
                    let full =
                        self.string_depth(from, &[Part::Const(variant.into())], depth + 1)?;
                    let cut = self
                        .string_depth(from, &[Part::Const(format!("{method}()"))], depth + 1)
                        .unwrap_or_default();
                    s.push_str(full.strip_prefix(cut.as_str()).unwrap_or(&full));
                }
                Part::Const(name) => {
                    let here = &self.files[from];
                    let order = std::iter::once(from)
                        .chain((0..self.files.len()).filter(|&i| self.files[i].krate == here.krate))
                        .chain(0..self.files.len());
                    let mut found = None;
                    for fi in order {
                        if let Some((_, v)) = self.files[fi].consts.iter().find(|(n, _)| n == name)
                        {
                            found = Some((fi, v));
                            break;
                        }
                    }
                    let (fi, v) = found?;
                    s.push_str(&self.string_depth(fi, v, depth + 1)?);
                }
            }
        }
        Some(s)
    }

    fn handler_params(&self, id: FnId) -> Vec<Param> {
        let f = self.func(id);
        let mut out = Vec::new();
        for (kind, ty) in &f.bodies {
            if kind == "extractible" {
                self.extractible_params(id.0, ty, &mut out);
                continue;
            }
            let kind = match kind.as_str() {
                "query" => ParamKind::Query,
                "json" => ParamKind::Json,
                "form" => ParamKind::Form,
                // utoipa `params(T)`: where `T`'s `into_params` says.
                "params" => match self
                    .find_struct(id.0, ty)
                    .and_then(|s| s.param_in.as_deref())
                {
                    Some("path") => ParamKind::Path,
                    Some("header") => ParamKind::Header,
                    Some("cookie") => ParamKind::Cookie,
                    _ => ParamKind::Query,
                },
                _ => ParamKind::Path,
            };
            for name in self.fields(id.0, ty, 0) {
                out.push(Param::new(kind, name));
            }
        }
        for (kind, name) in &f.direct {
            // A header named by a constant (`headers.get(X_TENANT)`): its
            // value, else the name read as a header (`X-Tenant`).
            let resolved;
            let name = match name.strip_prefix(super::scan::CONST_NAME) {
                Some(c) => {
                    resolved = self
                        .string(id.0, &[Part::Const(c.to_string())])
                        .filter(|v| !v.is_empty())
                        .unwrap_or_else(|| c.to_ascii_lowercase().replace('_', "-"));
                    &resolved
                }
                None => name,
            };
            out.push(match kind.as_str() {
                "header" => Param::header(name),
                "cookie" => Param::cookie(name),
                "query" => Param::query(name),
                "json" => Param::json(name),
                "form" => Param::form(name),
                "path" => Param::path(name),
                _ => Param::file(name),
            });
        }
        out
    }

    /// Wire field names of a struct (flattened structs inlined).
    pub(crate) fn fields(&self, from: usize, ty: &str, depth: usize) -> Vec<String> {
        if depth > 4 {
            return Vec::new();
        }
        let Some(s) = self.find_struct(from, ty) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for f in &s.fields {
            match &f.flatten {
                Some(inner) => out.extend(self.fields(from, inner, depth + 1)),
                None => out.push(f.name.clone()),
            }
        }
        out
    }

    /// Salvo `#[derive(Extractible)]` struct fields, each from its
    /// `source(from = …)` or the struct's `default_source` (`param` is a
    /// path parameter, `body` a JSON field).
    fn extractible_params(&self, from: usize, ty: &str, out: &mut Vec<Param>) {
        let Some(s) = self.find_struct(from, ty) else {
            return;
        };
        for f in &s.fields {
            let Some(src) = f.source.as_deref().or(s.param_in.as_deref()) else {
                continue;
            };
            let kind = match src {
                "param" => ParamKind::Path,
                "query" => ParamKind::Query,
                "header" => ParamKind::Header,
                "cookie" => ParamKind::Cookie,
                "body" => ParamKind::Json,
                _ => continue,
            };
            out.push(Param::new(kind, f.name.clone()));
        }
    }

    fn find_struct(&self, from: usize, name: &str) -> Option<&StructDecl> {
        let here = &self.files[from];
        let in_file = |fi: usize| self.files[fi].structs.iter().find(|s| s.name == name);
        in_file(from)
            .or_else(|| {
                (0..self.files.len())
                    .filter(|&i| self.files[i].krate == here.krate)
                    .find_map(in_file)
            })
            .or_else(|| (0..self.files.len()).find_map(in_file))
    }
}

/// A router function nobody in the tree nests or merges (a public helper
/// such as `pub fn config_router() -> Router { config::router() }`) is
/// expanded as a root, without the prefix its routes get where they are
/// really mounted. A route reported by one root at `/config` and by another
/// at `/catalog/v1/config` (same method, file and line) keeps only the
/// prefixed one. Routes served twice from the same root (`.merge(api())`
/// and `.nest("/v1", api())`) are kept.
fn drop_unmounted_twins(out: Vec<Endpoint>, batches: &[usize]) -> Vec<Endpoint> {
    use std::collections::HashMap;
    let key = |e: &Endpoint| {
        e.code_paths
            .first()
            .map(|l| (e.method.clone(), l.path.clone(), l.line))
    };
    let mut groups: HashMap<(String, String, Option<u32>), Vec<usize>> = HashMap::new();
    for (i, e) in out.iter().enumerate() {
        if let Some(k) = key(e) {
            groups.entry(k).or_default().push(i);
        }
    }
    let mut drop = vec![false; out.len()];
    for ids in groups.values().filter(|v| v.len() > 1) {
        for &i in ids {
            let short = &out[i].url;
            drop[i] = ids.iter().any(|&j| {
                let long = &out[j].url;
                batches.get(j) != batches.get(i)
                    && long.len() > short.len()
                    && long.ends_with(short.as_str())
                    && (short.starts_with('/')
                        || long.as_bytes().get(long.len() - short.len() - 1) == Some(&b'/'))
            });
        }
    }
    out.into_iter()
        .zip(drop)
        .filter(|(_, d)| !d)
        .map(|(e, _)| e)
        .collect()
}
