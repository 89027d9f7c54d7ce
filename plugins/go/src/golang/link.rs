//! The reduce step: resolve imports through `go.mod` module paths, string
//! constants across packages, router origins through calls, returns,
//! package variables, struct fields and mounts, and handlers to the
//! functions whose request reads become the endpoint's parameters.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Endpoint, Param, ParamKind};

use super::facts::{
    Bind, BindKind, Fact, Field, Func, FuncRef, GoFile, Handler, Origin, RVal, Reads, Route,
    Struct, TypeRef,
};
use super::strexpr::{Piece, StrExpr};

/// Bounds on how far references are followed.
const MAX_DEPTH: usize = 10;
const MAX_PREFIXES: usize = 64;

type FuncId = (usize, usize);

/// Where an expression is evaluated: a file, and a function in it (for
/// parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Ctx {
    file: usize,
    func: Option<usize>,
}

/// A concrete router origin.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Root,
    New(String),
    Param(FuncId, usize),
    Global(String, String),
    Field(String, String),
}

pub struct Linker {
    mods: Vec<(String, String)>,
    files: Vec<GoFile>,
    /// Function name → ids.
    by_name: HashMap<String, Vec<FuncId>>,
    /// (struct, field) → the field's type name, for handlers reached
    /// through a field (`a.userController.Login`).
    field_types: HashMap<(String, String), (usize, Option<String>, String)>,
    /// (package dir, variable) → (declaring file, type hint) of
    /// package-level variables.
    var_hints: HashMap<(String, String), (usize, String)>,
    /// Callee → (caller, call index).
    callers: HashMap<FuncId, Vec<(FuncId, usize)>>,
    /// Mounted origin → (context, parent router, mount prefix).
    mounts: HashMap<Key, Vec<(Ctx, RVal, String)>>,
    memo: RefCell<HashMap<Key, Vec<String>>>,
    busy: RefCell<HashSet<Key>>,
    /// Middleware guarding a concrete origin (memo and cycle guard).
    guard_memo: RefCell<HashMap<Key, Vec<Guard>>>,
    guard_busy: RefCell<HashSet<Key>>,
}

/// A middleware reference and where it was written.
type Guard = (Ctx, FuncRef);

/// At most this many middleware per route.
const MAX_GUARDS: usize = 32;

impl Linker {
    pub fn new(facts: Vec<Fact>) -> Self {
        let mut mods = Vec::new();
        let mut files = Vec::new();
        for f in facts {
            match f {
                Fact::Mod { dir, module } => mods.push((dir, module)),
                Fact::File(file) => files.push(*file),
            }
        }
        let mut l = Linker {
            mods,
            files,
            by_name: HashMap::new(),
            field_types: HashMap::new(),
            var_hints: HashMap::new(),
            callers: HashMap::new(),
            mounts: HashMap::new(),
            memo: RefCell::new(HashMap::new()),
            busy: RefCell::new(HashSet::new()),
            guard_memo: RefCell::new(HashMap::new()),
            guard_busy: RefCell::new(HashSet::new()),
        };
        for (fi, file) in l.files.iter().enumerate() {
            for st in &file.structs {
                for f in st.fields.iter().filter(|f| !f.embedded) {
                    let (qual, ty) = super::scan::type_name(&f.ty);
                    if !ty.is_empty() {
                        l.field_types
                            .insert((st.name.clone(), f.name.clone()), (fi, qual, ty));
                    }
                }
            }
        }
        for (fi, file) in l.files.iter().enumerate() {
            for (name, hint) in &file.var_hints {
                l.var_hints
                    .insert((file.dir.clone(), name.clone()), (fi, hint.clone()));
            }
        }
        for (fi, file) in l.files.iter().enumerate() {
            for (fj, func) in file.funcs.iter().enumerate() {
                l.by_name
                    .entry(func.name.clone())
                    .or_default()
                    .push((fi, fj));
            }
        }
        let mut callers: HashMap<FuncId, Vec<(FuncId, usize)>> = HashMap::new();
        let mut precise_callers: HashMap<FuncId, Vec<(FuncId, usize)>> = HashMap::new();
        let mut mounts: HashMap<Key, Vec<(Ctx, RVal, String)>> = HashMap::new();
        for (fi, file) in l.files.iter().enumerate() {
            for (fj, func) in file.funcs.iter().enumerate() {
                let ctx = Ctx {
                    file: fi,
                    func: Some(fj),
                };
                for (ci, call) in func.calls.iter().enumerate() {
                    // Every function of a ranged slice is called (not one
                    // of several candidates).
                    let (callees, precise) = match l.slice_funcs(ctx, &call.callee) {
                        Some(fs) => (fs, true),
                        None => {
                            let fs = l.resolve_func(ctx, &call.callee, false);
                            let one = fs.len() == 1;
                            (fs, one)
                        }
                    };
                    for callee in callees {
                        let entry = ((fi, fj), ci);
                        if precise {
                            precise_callers.entry(callee).or_default().push(entry);
                        } else {
                            callers.entry(callee).or_default().push(entry);
                        }
                    }
                }
                for m in &func.mounts {
                    let prefix = l.resolve_str(ctx.file, &m.prefix);
                    for (key, _) in l.concretize(ctx, &m.child.origin, 0) {
                        mounts.entry(key).or_default().push((
                            ctx,
                            m.parent.clone(),
                            prefix.clone(),
                        ));
                    }
                }
            }
        }
        // A method called on a value of unknown type (an interface) may be
        // any method of that name; one also called on a value of known type
        // keeps only those callers (no route reported below a router it
        // never receives).
        for (callee, precise) in precise_callers {
            callers.insert(callee, precise);
        }
        l.callers = callers;
        l.mounts = mounts;
        l
    }

    /// Every endpoint of every route.
    pub fn endpoints(&self) -> Vec<Endpoint> {
        let mut out = Vec::new();
        for (fi, file) in self.files.iter().enumerate() {
            for (fj, func) in file.funcs.iter().enumerate() {
                let ctx = Ctx {
                    file: fi,
                    func: Some(fj),
                };
                for route in &func.routes {
                    self.route_endpoints(ctx, route, &mut out);
                }
            }
        }
        out
    }

    fn route_endpoints(&self, ctx: Ctx, route: &Route, out: &mut Vec<Endpoint>) {
        let file = &self.files[ctx.file];
        let mut path = self.resolve_str(ctx.file, &route.path);
        let mut methods = route.methods.clone();
        if route.pattern {
            let (m, p) = split_pattern(&path);
            path = p;
            methods = vec![m.unwrap_or_else(|| "GET".into())];
        }
        let recv_prefix = self.resolve_str(ctx.file, &route.recv.prefix);
        let mut guards = Vec::new();
        self.rval_guards(ctx, &route.recv, 0, &mut guards);
        let with_guards = |get: bool| {
            let mut params = self.handler_params(ctx, &route.handler, get);
            for p in &route.matched {
                push(&mut params, p.clone());
            }
            for (gctx, g) in &guards {
                let h = Handler::Refs(vec![g.clone()]);
                for p in self.handler_params(*gctx, &h, get) {
                    push(&mut params, p);
                }
            }
            params
        };
        let params = with_guards(false);
        let get_params = if methods.iter().any(|m| m == "GET" || m == "HEAD") {
            with_guards(true)
        } else {
            Vec::new()
        };
        let mut urls = Vec::new();
        for (key, extra) in self.concretize(ctx, &route.recv.origin, 0) {
            for pre in self.prefixes(&key) {
                // Empty parts are dropped first so a prefix's trailing
                // slash survives an empty path (`PathPrefix("/assets/")`).
                let parts: Vec<&str> = [
                    pre.as_str(),
                    extra.as_str(),
                    recv_prefix.as_str(),
                    path.as_str(),
                ]
                .into_iter()
                .filter(|p| !p.is_empty())
                .collect();
                let url = join(&parts);
                if !urls.contains(&url) {
                    urls.push(url);
                }
            }
        }
        if route.controllers {
            self.controller_endpoints(ctx, route, &urls, out);
            return;
        }
        for url in urls {
            for m in &methods {
                let params = if m == "GET" || m == "HEAD" {
                    &get_params
                } else {
                    &params
                };
                out.push(
                    Endpoint::new(m, url.clone())
                        .at_path(file.path.clone(), route.line)
                        .params(params.iter().cloned()),
                );
            }
        }
    }

    // ------------------------------------------------------------ controllers

    /// GoFrame `group.Bind(ctrl…)`: each controller method taking a
    /// request struct with a `g.Meta` field is a route at that field's
    /// `path` and `method` tags (no method: every method), reported at
    /// the struct's declaration.
    fn controller_endpoints(
        &self,
        ctx: Ctx,
        route: &Route,
        prefixes: &[String],
        out: &mut Vec<Endpoint>,
    ) {
        let Handler::Refs(refs) = &route.handler else {
            return;
        };
        let mut seen: HashSet<(usize, String)> = HashSet::new();
        for r in refs {
            let dirs = match &r.qual {
                Some(q) => self.qualifier_dirs(ctx.file, q).unwrap_or_default(),
                None => vec![self.files[ctx.file].dir.clone()],
            };
            for (fi, f) in self.files.iter().enumerate() {
                if !dirs.contains(&f.dir) {
                    continue;
                }
                for func in &f.funcs {
                    let Some(recv) = &func.recv else { continue };
                    if !r.name.is_empty() && *recv != r.name {
                        continue;
                    }
                    for b in &func.reads.binds {
                        if b.kind != BindKind::Meta {
                            continue;
                        }
                        let TypeRef::Named { qual, name } = &b.ty else {
                            continue;
                        };
                        let Some((sf, st)) = self.find_struct(fi, qual.as_deref(), name) else {
                            continue;
                        };
                        if !seen.insert((sf, st.name.clone())) {
                            continue;
                        }
                        let Some(meta) = st
                            .fields
                            .iter()
                            .find(|x| x.name == "Meta" && x.tag("path").is_some())
                        else {
                            continue;
                        };
                        let path = meta.tag("path").unwrap_or("").to_string();
                        let mut methods: Vec<String> = meta
                            .tag_full("method")
                            .split(',')
                            .map(|m| m.trim().to_ascii_uppercase())
                            .filter(|m| !m.is_empty())
                            .collect();
                        if methods.is_empty() {
                            methods = super::framework::ANY
                                .iter()
                                .map(|m| m.to_string())
                                .collect();
                        }
                        for pre in prefixes {
                            let url = join(&[pre.as_str(), path.as_str()]);
                            for m in &methods {
                                let get_like = matches!(m.as_str(), "GET" | "DELETE" | "HEAD");
                                let params = self.meta_params(sf, &st.fields, get_like, 0);
                                out.push(
                                    Endpoint::new(m, url.clone())
                                        .at_path(self.files[sf].path.clone(), st.line)
                                        .params(params),
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Request fields of a GoFrame request struct.
    fn meta_params(
        &self,
        file: usize,
        fields: &[Field],
        get_like: bool,
        depth: usize,
    ) -> Vec<Param> {
        let mut out = Vec::new();
        for f in fields {
            if f.name == "Meta" {
                continue;
            }
            if f.embedded {
                if depth < 4 {
                    let (qual, name) = super::scan::type_name(&f.ty);
                    if let Some((gi, s)) = self.find_struct(file, qual.as_deref(), &name) {
                        for p in self.meta_params(gi, &s.fields, get_like, depth + 1) {
                            push(&mut out, p);
                        }
                    }
                }
                continue;
            }
            if !f.name.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            let name = [f.tag("json"), f.tag("p")]
                .into_iter()
                .flatten()
                .find(|n| !n.is_empty())
                .unwrap_or(&f.name)
                .to_string();
            if name == "-" {
                continue;
            }
            let p = match f.tag("in").unwrap_or("") {
                "path" => Param::path(name),
                "query" => Param::query(name),
                "header" => Param::header(name),
                "cookie" => Param::cookie(name),
                _ if get_like => Param::query(name),
                _ => Param::json(name),
            };
            push(&mut out, p);
        }
        out
    }

    // ------------------------------------------------------------ for modules

    /// Index of the scanned file with this path.
    pub fn file_index(&self, path: &str) -> Option<usize> {
        self.files.iter().position(|f| f.path == path)
    }

    /// The directory of a scanned file.
    pub fn file_dir(&self, file: usize) -> &str {
        &self.files[file].dir
    }

    /// A string expression of `file` with its constants resolved.
    pub fn string_in(&self, file: usize, e: &StrExpr) -> String {
        self.resolve_str(file, e)
    }

    /// Package directories a type or function qualifier names in `file`
    /// (the file's own directory when unqualified).
    pub fn package_dirs(&self, file: usize, qual: Option<&str>) -> Vec<String> {
        match qual {
            Some(q) => self.qualifier_dirs(file, q).unwrap_or_default(),
            None => vec![self.files[file].dir.clone()],
        }
    }

    /// Parameters of a route handler written in `file`.
    pub fn handler_params_in(&self, file: usize, h: &Handler) -> Vec<Param> {
        self.handler_params(Ctx { file, func: None }, h, false)
    }

    /// Methods of type `ty` declared in `dirs`, with what each reads:
    /// (file, method name, parameters).
    pub fn methods_of(&self, dirs: &[String], ty: &str) -> Vec<(usize, String, Vec<Param>)> {
        let mut out = Vec::new();
        for (fi, f) in self.files.iter().enumerate() {
            if !dirs.contains(&f.dir) {
                continue;
            }
            for (fj, func) in f.funcs.iter().enumerate() {
                if func.recv.as_deref() != Some(ty) {
                    continue;
                }
                let mut params = Vec::new();
                let ctx = Ctx {
                    file: fi,
                    func: Some(fj),
                };
                self.expand(ctx, &func.reads, 0, false, &mut params);
                out.push((fi, func.name.clone(), params));
            }
        }
        out
    }

    /// Parameters of a struct bound from the request, the type written in
    /// `file`.
    pub fn bind_params_in(&self, file: usize, b: &Bind) -> Vec<Param> {
        self.bind_params(file, b, 0)
    }

    // ------------------------------------------------------------ packages

    /// The `go.mod` governing a directory: (dir, module) of the nearest one.
    fn module_of(&self, dir: &str) -> Option<&(String, String)> {
        self.mods
            .iter()
            .filter(|(d, _)| is_within(dir, d))
            .max_by_key(|(d, _)| d.len())
    }

    /// Directories an import path maps to (through the `go.mod` of the
    /// importing file first, then any other module in the tree).
    fn import_dirs(&self, from_dir: &str, path: &str) -> Vec<String> {
        let mut out = Vec::new();
        let own = self.module_of(from_dir);
        let mut mods: Vec<&(String, String)> = own.into_iter().collect();
        mods.extend(self.mods.iter().filter(|m| Some(*m) != own));
        for (dir, module) in mods {
            let rest = if path == module {
                Some("")
            } else {
                path.strip_prefix(module.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let d = if rest.is_empty() {
                    dir.clone()
                } else if dir.is_empty() {
                    rest.to_string()
                } else {
                    format!("{dir}/{rest}")
                };
                if !out.contains(&d) {
                    out.push(d);
                }
                break;
            }
        }
        out
    }

    /// The package directory a qualifier (`routes` in `routes.Register`)
    /// names in a file; `Some(empty)` for an import outside the tree.
    fn qualifier_dirs(&self, file: usize, qual: &str) -> Option<Vec<String>> {
        let f = &self.files[file];
        for imp in &f.imports {
            let dirs = self.import_dirs(&f.dir, &imp.path);
            let matches = match &imp.alias {
                Some(a) => a == qual,
                None => {
                    imp.default_name() == qual
                        || dirs
                            .iter()
                            .any(|d| self.files.iter().any(|g| &g.dir == d && g.package == qual))
                }
            };
            if matches {
                return Some(dirs);
            }
        }
        None
    }

    fn files_in<'s>(&'s self, dir: &str) -> impl Iterator<Item = (usize, &'s GoFile)> + 's {
        let dir = dir.to_string();
        self.files
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.dir == dir)
    }

    // ------------------------------------------------------------ strings

    fn resolve_str(&self, file: usize, e: &StrExpr) -> String {
        self.resolve_str_depth(file, e, 0).unwrap_or_default()
    }

    fn resolve_str_depth(&self, file: usize, e: &StrExpr, depth: usize) -> Option<String> {
        let mut out = String::new();
        for p in &e.parts {
            match p {
                Piece::Lit(s) | Piece::Interp(s) => out.push_str(s),
                Piece::Ref(name) => {
                    // Unknown names resolve to nothing rather than dropping
                    // the route.
                    out.push_str(&self.constant(file, name, depth).unwrap_or_default());
                }
            }
        }
        Some(out)
    }

    fn constant(&self, file: usize, name: &str, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (dirs, local) = match name.split_once('.') {
            Some((q, n)) => (self.qualifier_dirs(file, q)?, n),
            None => (vec![self.files[file].dir.clone()], name),
        };
        for dir in &dirs {
            for (gi, g) in self.files_in(dir) {
                if let Some((_, e)) = g.consts.iter().find(|(n, _)| n == local) {
                    return self.resolve_str_depth(gi, e, depth + 1);
                }
            }
        }
        None
    }

    // ------------------------------------------------------------ funcs

    fn func(&self, id: FuncId) -> &Func {
        &self.files[id.0].funcs[id.1]
    }

    /// Functions a reference may call. `strict` (for handlers) refuses
    /// ambiguous method names.
    fn resolve_func(&self, ctx: Ctx, r: &FuncRef, strict: bool) -> Vec<FuncId> {
        let Some(cands) = self.by_name.get(&r.name) else {
            return Vec::new();
        };
        let here = &self.files[ctx.file];
        match &r.qual {
            None => cands
                .iter()
                .copied()
                .filter(|id| self.func(*id).recv.is_none() && self.files[id.0].dir == here.dir)
                .collect(),
            Some(q) => {
                if !q.contains('.') {
                    if let Some(dirs) = self.qualifier_dirs(ctx.file, q) {
                        return cands
                            .iter()
                            .copied()
                            .filter(|id| {
                                self.func(*id).recv.is_none()
                                    && dirs.contains(&self.files[id.0].dir)
                            })
                            .collect();
                    }
                }
                // A method on a value.
                let root = self.module_of(&here.dir).map(|(d, _)| d.clone());
                let methods: Vec<FuncId> = cands
                    .iter()
                    .copied()
                    .filter(|id| {
                        self.func(*id).recv.is_some()
                            && root
                                .as_deref()
                                .is_none_or(|d| is_within(&self.files[id.0].dir, d))
                    })
                    .collect();
                // `T.field`: the receiver's type and the field called on.
                let mut dirs: Option<Vec<String>> = None;
                // `pkg:Type` (a constructor or declared type named with its
                // package): the methods of that package's type.
                // A package-level variable of this package with a known type.
                // (The file whose imports name the hint's package.)
                let (hint_file, hint) = match &r.hint {
                    Some(h) => (ctx.file, Some(h)),
                    None => match self.var_hints.get(&(here.dir.clone(), q.clone())) {
                        Some((fi, h)) => (*fi, Some(h)),
                        None => (ctx.file, None),
                    },
                };
                let (hint_qual, hint_ty) = match hint.map(|h| h.split_once(':')) {
                    Some(Some((q, t))) => (Some(q), Some(t.to_string())),
                    _ => (None, hint.cloned()),
                };
                let mut narrowed = false;
                // The package a selector chain starts from
                // (`api.Groups.Info`): its methods when no type matches.
                let mut package: Option<Vec<String>> = None;
                if let Some(q) = hint_qual {
                    dirs = self.qualifier_dirs(hint_file, q);
                    narrowed = dirs.is_some();
                    package = dirs.clone();
                } else if hint_ty.as_deref().is_some_and(|h| !h.contains('.')) {
                    // A type named without a package (a receiver, a local
                    // constructor): this package's, when it has one.
                    dirs = Some(vec![here.dir.clone()]);
                    narrowed = true;
                }
                let hint = hint_ty.as_ref().map(|h| match h.split_once('.') {
                    Some((t, f)) => match self.field_types.get(&(t.to_string(), f.to_string())) {
                        Some((fi, qual, ty)) => {
                            dirs = match qual.as_deref() {
                                Some(q) => self.qualifier_dirs(*fi, q),
                                None => {
                                    narrowed = true;
                                    Some(vec![self.files[*fi].dir.clone()])
                                }
                            };
                            ty.clone()
                        }
                        None => String::new(),
                    },
                    None => h.clone(),
                });
                if let Some(h) = &hint {
                    let typed = |dirs: Option<&Vec<String>>| -> Vec<FuncId> {
                        methods
                            .iter()
                            .copied()
                            .filter(|id| {
                                self.func(*id).recv.as_deref() == Some(h.as_str())
                                    && dirs.is_none_or(|d| d.contains(&self.files[id.0].dir))
                            })
                            .collect()
                    };
                    let mut hinted = typed(dirs.as_ref());
                    if hinted.is_empty() && narrowed {
                        // A constructor returning a type of another package.
                        hinted = typed(None);
                    }
                    if !hinted.is_empty() {
                        return hinted;
                    }
                }
                if let Some(pkg) = package.filter(|d| !d.is_empty()) {
                    let in_pkg: Vec<FuncId> = methods
                        .iter()
                        .copied()
                        .filter(|id| pkg.contains(&self.files[id.0].dir))
                        .collect();
                    if in_pkg.len() == 1 || (!strict && !in_pkg.is_empty()) {
                        return in_pkg;
                    }
                }
                if methods.len() <= 1 || !strict {
                    return methods;
                }
                let same_dir: Vec<FuncId> = methods
                    .iter()
                    .copied()
                    .filter(|id| self.files[id.0].dir == here.dir)
                    .collect();
                if same_dir.len() == 1 {
                    return same_dir;
                }
                Vec::new()
            }
        }
    }

    /// The functions a package put in the slice a loop variable ranges
    /// over (`for _, f := range routers { f(v1) }`), resolved where they
    /// were appended; `None` for any other call.
    fn slice_funcs(&self, ctx: Ctx, r: &FuncRef) -> Option<Vec<FuncId>> {
        let slice = r.hint.as_deref()?.strip_prefix("[]")?;
        if r.qual.is_some() {
            return None;
        }
        let dir = &self.files[ctx.file].dir;
        let mut out = Vec::new();
        for (fi, file) in self.files_in(dir) {
            for (_, refs) in file.func_slices.iter().filter(|(n, _)| n == slice) {
                for fr in refs {
                    let at = Ctx {
                        file: fi,
                        func: None,
                    };
                    for id in self.resolve_func(at, fr, false) {
                        if !out.contains(&id) {
                            out.push(id);
                        }
                    }
                }
            }
        }
        Some(out)
    }

    // ------------------------------------------------------------ origins

    /// Concrete origins of a symbolic one, with the prefix added on the way
    /// (a function returning `r.Group("/x")`).
    fn concretize(&self, ctx: Ctx, o: &Origin, depth: usize) -> Vec<(Key, String)> {
        if depth > MAX_DEPTH {
            return vec![(Key::Root, String::new())];
        }
        let dir = self.files[ctx.file].dir.clone();
        match o {
            Origin::Root => vec![(Key::Root, String::new())],
            Origin::New(s) => vec![(Key::New(s.clone()), String::new())],
            Origin::Param(i) => match ctx.func {
                Some(f) => vec![(Key::Param((ctx.file, f), *i), String::new())],
                None => vec![(Key::Root, String::new())],
            },
            Origin::Global(None, name) => vec![(Key::Global(dir, name.clone()), String::new())],
            Origin::Global(Some(q), name) => match self.qualifier_dirs(ctx.file, q) {
                Some(dirs) if !dirs.is_empty() => dirs
                    .into_iter()
                    .map(|d| (Key::Global(d, name.clone()), String::new()))
                    .collect(),
                _ => vec![(Key::Root, String::new())],
            },
            Origin::Field(name) => {
                let root = self
                    .module_of(&dir)
                    .map(|(d, _)| d.clone())
                    .unwrap_or_default();
                vec![(Key::Field(root, name.clone()), String::new())]
            }
            Origin::Ret(r) => {
                let mut out = Vec::new();
                for id in self.resolve_func(ctx, r, false) {
                    let callee = Ctx {
                        file: id.0,
                        func: Some(id.1),
                    };
                    for rv in &self.func(id).returns {
                        let p = self.resolve_str(id.0, &rv.prefix);
                        for (k, extra) in self.concretize(callee, &rv.origin, depth + 1) {
                            let e = join_prefix(&extra, &p);
                            if !out.contains(&(k.clone(), e.clone())) {
                                out.push((k, e));
                            }
                        }
                    }
                }
                if out.is_empty() {
                    out.push((Key::Root, String::new()));
                }
                out
            }
        }
    }

    /// Every full prefix a concrete origin is served under.
    fn prefixes(&self, key: &Key) -> Vec<String> {
        if let Some(v) = self.memo.borrow().get(key) {
            return v.clone();
        }
        if !self.busy.borrow_mut().insert(key.clone()) {
            // A cycle: contribute nothing.
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        let add = |out: &mut Vec<String>, s: String| {
            if out.len() < MAX_PREFIXES && !out.contains(&s) {
                out.push(s);
            }
        };
        match key {
            Key::Root | Key::New(_) => {}
            Key::Param(id, i) => {
                for (caller, ci) in self.callers.get(id).into_iter().flatten() {
                    let call = &self.func(*caller).calls[*ci];
                    let Some(Some(rv)) = call.args.get(*i) else {
                        continue;
                    };
                    let cctx = Ctx {
                        file: caller.0,
                        func: Some(caller.1),
                    };
                    for p in self.rval_prefixes(cctx, rv) {
                        add(&mut out, p);
                    }
                }
            }
            Key::Global(dir, name) => {
                for (fi, f) in self.files_in(dir) {
                    for a in &f.globals {
                        if a.target == Origin::Global(None, name.clone()) {
                            let c = Ctx {
                                file: fi,
                                func: None,
                            };
                            for p in self.rval_prefixes(c, &a.val) {
                                add(&mut out, p);
                            }
                        }
                    }
                    for (fj, func) in f.funcs.iter().enumerate() {
                        for a in &func.assigns {
                            if a.target == Origin::Global(None, name.clone()) {
                                let c = Ctx {
                                    file: fi,
                                    func: Some(fj),
                                };
                                for p in self.rval_prefixes(c, &a.val) {
                                    add(&mut out, p);
                                }
                            }
                        }
                    }
                }
            }
            Key::Field(root, name) => {
                for (fi, f) in self.files.iter().enumerate() {
                    if !is_within(&f.dir, root) {
                        continue;
                    }
                    for (fj, func) in f.funcs.iter().enumerate() {
                        for a in &func.assigns {
                            if a.target == Origin::Field(name.clone()) {
                                let c = Ctx {
                                    file: fi,
                                    func: Some(fj),
                                };
                                for p in self.rval_prefixes(c, &a.val) {
                                    add(&mut out, p);
                                }
                            }
                        }
                    }
                }
            }
        }
        for (ctx, parent, mprefix) in self.mounts.get(key).into_iter().flatten() {
            for p in self.rval_prefixes(*ctx, parent) {
                add(&mut out, join_prefix(&p, mprefix));
            }
        }
        if out.is_empty() {
            out.push(String::new());
        }
        self.busy.borrow_mut().remove(key);
        self.memo.borrow_mut().insert(key.clone(), out.clone());
        out
    }

    /// Full prefixes of a router value evaluated in `ctx`.
    fn rval_prefixes(&self, ctx: Ctx, rv: &RVal) -> Vec<String> {
        let own = self.resolve_str(ctx.file, &rv.prefix);
        let mut out = Vec::new();
        for (k, extra) in self.concretize(ctx, &rv.origin, 0) {
            for p in self.prefixes(&k) {
                let s = join_prefix(&join_prefix(&p, &extra), &own);
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    // ------------------------------------------------------------ guards

    /// Middleware guarding a router value evaluated in `ctx`: its own and
    /// those of every router it is derived from or mounted under.
    fn rval_guards(&self, ctx: Ctx, rv: &RVal, depth: usize, out: &mut Vec<Guard>) {
        for g in &rv.guards {
            add_guard(out, (ctx, g.clone()));
        }
        if depth > MAX_DEPTH {
            return;
        }
        match &rv.origin {
            Origin::Ret(r) => {
                for id in self.resolve_func(ctx, r, false) {
                    let callee = Ctx {
                        file: id.0,
                        func: Some(id.1),
                    };
                    for ret in &self.func(id).returns {
                        self.rval_guards(callee, ret, depth + 1, out);
                    }
                }
            }
            o => {
                for (k, _) in self.concretize(ctx, o, depth) {
                    for g in self.key_guards(&k) {
                        add_guard(out, g);
                    }
                }
            }
        }
    }

    /// Middleware guarding every router value of a concrete origin: those
    /// of the values passed for a parameter, assigned to a variable or
    /// field, and of the routers it is mounted on.
    fn key_guards(&self, key: &Key) -> Vec<Guard> {
        if let Some(v) = self.guard_memo.borrow().get(key) {
            return v.clone();
        }
        if !self.guard_busy.borrow_mut().insert(key.clone()) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut from_assigns = |target: &Origin, dirs: &dyn Fn(&str) -> bool| {
            for (fi, f) in self.files.iter().enumerate() {
                if !dirs(&f.dir) {
                    continue;
                }
                if matches!(target, Origin::Global(..)) {
                    for a in f.globals.iter().filter(|a| &a.target == target) {
                        let c = Ctx {
                            file: fi,
                            func: None,
                        };
                        self.rval_guards(c, &a.val, 0, &mut out);
                    }
                }
                for (fj, func) in f.funcs.iter().enumerate() {
                    for a in func.assigns.iter().filter(|a| &a.target == target) {
                        let c = Ctx {
                            file: fi,
                            func: Some(fj),
                        };
                        self.rval_guards(c, &a.val, 0, &mut out);
                    }
                }
            }
        };
        match key {
            Key::Root | Key::New(_) => {}
            Key::Param(id, i) => {
                for (caller, ci) in self.callers.get(id).into_iter().flatten() {
                    let call = &self.func(*caller).calls[*ci];
                    let Some(Some(rv)) = call.args.get(*i) else {
                        continue;
                    };
                    let cctx = Ctx {
                        file: caller.0,
                        func: Some(caller.1),
                    };
                    self.rval_guards(cctx, rv, 0, &mut out);
                }
            }
            Key::Global(dir, name) => {
                from_assigns(&Origin::Global(None, name.clone()), &|d| d == dir);
            }
            Key::Field(root, name) => {
                from_assigns(&Origin::Field(name.clone()), &|d| is_within(d, root));
            }
        }
        for (ctx, parent, _) in self.mounts.get(key).into_iter().flatten() {
            self.rval_guards(*ctx, parent, 0, &mut out);
        }
        self.guard_busy.borrow_mut().remove(key);
        self.guard_memo
            .borrow_mut()
            .insert(key.clone(), out.clone());
        out
    }

    // ------------------------------------------------------------ params

    /// What a handler reads; `get`: for a GET or HEAD request (Gin's
    /// `ShouldBind` then reads the query string).
    fn handler_params(&self, ctx: Ctx, h: &Handler, get: bool) -> Vec<Param> {
        let mut out = Vec::new();
        match h {
            Handler::Inline(reads) => self.expand(ctx, reads, 0, get, &mut out),
            Handler::Refs(refs) => {
                let mut seen = HashSet::new();
                for r in refs {
                    for id in self.resolve_func(ctx, r, true) {
                        if seen.insert(id) {
                            let c = Ctx {
                                file: id.0,
                                func: Some(id.1),
                            };
                            self.expand(c, &self.func(id).reads, 0, get, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    fn expand(&self, ctx: Ctx, reads: &Reads, depth: usize, get: bool, out: &mut Vec<Param>) {
        for p in &reads.params {
            push(out, p.clone());
        }
        for (kind, e) in &reads.named {
            // Only names every part of which is a known constant.
            let name = e.resolve(&mut |n| self.constant(ctx.file, n, 0));
            if let Some(name) = name.filter(|n| !n.is_empty()) {
                push(out, Param::new(*kind, name));
            }
        }
        for name in &reads.form_values {
            push(
                out,
                if get {
                    Param::query(name)
                } else {
                    Param::form(name)
                },
            );
        }
        for b in &reads.binds {
            for p in self.bind_params(ctx.file, &for_method(b, get), 0) {
                push(out, p);
            }
        }
        if depth < 2 {
            for h in &reads.helpers {
                for id in self.resolve_func(ctx, h, true) {
                    let c = Ctx {
                        file: id.0,
                        func: Some(id.1),
                    };
                    self.expand(c, &self.func(id).reads, depth + 1, get, out);
                }
            }
            // A helper binding the request into the value it is given.
            for (h, n, ty) in &reads.helper_args {
                for id in self.resolve_func(ctx, h, true) {
                    for b in &self.func(id).reads.binds {
                        if b.ty != TypeRef::Param(*n) {
                            continue;
                        }
                        let bind = Bind {
                            kind: b.kind,
                            ty: ty.clone(),
                        };
                        for p in self.bind_params(ctx.file, &for_method(&bind, get), 0) {
                            push(out, p);
                        }
                    }
                }
            }
        }
    }

    fn find_struct(&self, file: usize, qual: Option<&str>, name: &str) -> Option<(usize, &Struct)> {
        let dirs = match qual {
            Some(q) => self.qualifier_dirs(file, q)?,
            None => vec![self.files[file].dir.clone()],
        };
        for d in &dirs {
            for (gi, g) in self.files_in(d) {
                if let Some(s) = g.structs.iter().find(|s| s.name == name) {
                    return Some((gi, s));
                }
            }
        }
        None
    }

    fn bind_params(&self, file: usize, b: &Bind, depth: usize) -> Vec<Param> {
        let (fields, ffile): (&[Field], usize) = match &b.ty {
            TypeRef::Inline(f) => (f, file),
            TypeRef::Param(_) => return Vec::new(),
            TypeRef::Named { qual, name } => match self.find_struct(file, qual.as_deref(), name) {
                Some((fi, s)) => (&s.fields, fi),
                None => return Vec::new(),
            },
        };
        let mut out = Vec::new();
        for f in fields {
            if f.embedded && f.tag("json").is_none_or(|t| t.is_empty()) {
                if depth < 4 {
                    let (qual, name) = super::scan::type_name(&f.ty);
                    let inner = Bind {
                        kind: b.kind,
                        ty: TypeRef::Named { qual, name },
                    };
                    for p in self.bind_params(ffile, &inner, depth + 1) {
                        push(&mut out, p);
                    }
                }
                continue;
            }
            if b.kind == BindKind::Input && !f.embedded && f.name == "Body" {
                if depth < 4 {
                    if let Some(ty) = super::scan::param_type_ref(&f.ty) {
                        let inner = Bind {
                            kind: BindKind::Json,
                            ty,
                        };
                        for p in self.bind_params(ffile, &inner, depth + 1) {
                            push(&mut out, p);
                        }
                    }
                }
                continue;
            }
            if let Some(p) = field_param(f, b.kind) {
                // A body bound by content type (`c.Bind()`, `BodyParser`,
                // echo's `Bind`) also reads a form post: a field that names
                // its form key is a form field too.
                let form = (b.kind == BindKind::Auto && p.kind == ParamKind::Json)
                    .then(|| f.tag("form"))
                    .flatten()
                    .map(|t| t.split(',').next().unwrap_or(t))
                    .filter(|t| !t.is_empty() && *t != "-")
                    .map(Param::form);
                push(&mut out, p);
                if let Some(fp) = form {
                    push(&mut out, fp);
                }
            }
        }
        out
    }
}

/// A bind as performed on a GET (`get`) or another request.
fn for_method(b: &Bind, get: bool) -> Bind {
    let kind = match (b.kind, get) {
        (BindKind::ByMethod, true) => BindKind::FormQuery,
        (BindKind::ByMethod, false) => BindKind::Auto,
        (k, _) => k,
    };
    Bind {
        kind,
        ty: b.ty.clone(),
    }
}

/// The parameter a struct field becomes when bound as `kind`.
fn field_param(f: &Field, kind: BindKind) -> Option<Param> {
    let exported = f.name.starts_with(|c: char| c.is_ascii_uppercase());
    let named = |tags: &[&str]| -> Option<Option<String>> {
        for t in tags {
            if let Some(v) = f.tag(t) {
                if v == "-" {
                    return Some(None);
                }
                if !v.is_empty() {
                    return Some(Some(v.to_string()));
                }
            }
        }
        None
    };
    let other_source = [
        "form",
        "query",
        "url",
        "uri",
        "param",
        "params",
        "path",
        "header",
        "reqHeader",
        "cookie",
    ]
    .iter()
    .any(|t| f.tag(t).is_some_and(|v| !v.is_empty() && v != "-"));
    let go_name = exported.then(|| f.name.clone());
    match kind {
        BindKind::Json => match named(&["json"]) {
            Some(n) => n.map(Param::json),
            None if other_source => None,
            None => go_name.map(Param::json),
        },
        BindKind::Query => match named(&["query", "url", "form"]) {
            Some(n) => n.map(Param::query),
            None => go_name.map(Param::query),
        },
        BindKind::Form => match named(&["form"]) {
            Some(n) => n.map(Param::form),
            None => go_name.map(Param::form),
        },
        BindKind::Header => match named(&["header", "reqHeader"]) {
            Some(n) => n.map(Param::header),
            None => go_name.map(Param::header),
        },
        BindKind::Path => match named(&["uri", "param", "params", "path"]) {
            Some(n) => n.map(Param::path),
            None => go_name.map(Param::path),
        },
        BindKind::FormQuery => match named(&["form"]) {
            Some(n) => n.map(Param::query),
            None if f.tag("json") == Some("-") || other_source => None,
            None => go_name.map(Param::query),
        },
        BindKind::Auto | BindKind::ByMethod => {
            if let Some(n) = named(&["json"]) {
                return n.map(Param::json);
            }
            if let Some(n) = named(&["query"]) {
                return n.map(Param::query);
            }
            if let Some(n) = named(&["uri", "param", "params", "path"]) {
                return n.map(Param::path);
            }
            if let Some(n) = named(&["header", "reqHeader"]) {
                return n.map(Param::header);
            }
            if let Some(n) = named(&["form"]) {
                return n.map(Param::form);
            }
            go_name.map(Param::json)
        }
        BindKind::Meta => match f.tag("in") {
            Some("path") => named(&["json", "p"]).flatten().map(Param::path),
            Some("query") => named(&["json", "p"]).flatten().map(Param::query),
            Some("header") => named(&["json", "p"]).flatten().map(Param::header),
            Some("cookie") => named(&["json", "p"]).flatten().map(Param::cookie),
            _ => named(&["json", "p"]).unwrap_or(go_name).map(Param::json),
        },
        BindKind::Input => {
            if let Some(n) = named(&["path"]) {
                return n.map(Param::path);
            }
            if let Some(n) = named(&["query"]) {
                return n.map(Param::query);
            }
            if let Some(n) = named(&["header"]) {
                return n.map(Param::header);
            }
            if let Some(n) = named(&["cookie"]) {
                return n.map(Param::cookie);
            }
            named(&["form"]).flatten().map(Param::form)
        }
        BindKind::ProtoJson => proto_name(f).map(Param::json),
        BindKind::ProtoQuery => proto_name(f).map(Param::query),
        BindKind::ProtoForm => proto_name(f).map(Param::form),
        BindKind::Tagged => {
            if let Some(n) = named(&["path", "uri", "param", "params"]) {
                return n.map(Param::path);
            }
            if let Some(n) = named(&["query", "url"]) {
                return n.map(Param::query);
            }
            if let Some(n) = named(&["header", "reqHeader"]) {
                return n.map(Param::header);
            }
            if let Some(n) = named(&["cookie"]) {
                return n.map(Param::cookie);
            }
            if let Some(n) = named(&["json"]) {
                return n.map(Param::json);
            }
            if let Some(n) = named(&["form"]) {
                return n.map(Param::form);
            }
            go_name.map(Param::json)
        }
    }
}

/// The JSON name of a protobuf message field: `json=pageSize` (else
/// `name=page_size`) in its `protobuf` tag; for plain structs the `json`
/// tag, else the exported Go name. Oneof wrappers (`protobuf_oneof`) and
/// unexported fields (`state`, `sizeCache`) are not request fields.
fn proto_name(f: &Field) -> Option<String> {
    if f.tag("protobuf_oneof").is_some() {
        return None;
    }
    if f.tag("protobuf").is_some() {
        let parts: Vec<&str> = f.tag_full("protobuf").split(',').collect();
        let get = |key: &str| {
            parts
                .iter()
                .find_map(|p| p.trim().strip_prefix(key))
                .filter(|v| !v.is_empty())
        };
        return get("json=").or_else(|| get("name=")).map(str::to_string);
    }
    match f.tag("json") {
        Some("-") => None,
        Some(n) if !n.is_empty() => Some(n.to_string()),
        _ => f
            .name
            .starts_with(|c: char| c.is_ascii_uppercase())
            .then(|| f.name.clone()),
    }
}

fn add_guard(out: &mut Vec<Guard>, g: Guard) {
    if out.len() < MAX_GUARDS && !out.contains(&g) {
        out.push(g);
    }
}

fn push(out: &mut Vec<Param>, p: Param) {
    if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
        out.push(p);
    }
}

/// Concatenate route prefixes without doubling or dropping slashes; empty
/// parts vanish. Unlike [`join`], an empty result stays empty.
fn join_prefix(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => join(&[a, b]),
    }
}

/// `dir` is `root` or below it.
fn is_within(dir: &str, root: &str) -> bool {
    root.is_empty()
        || dir == root
        || dir
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A net/http pattern: `[METHOD ][HOST]/PATH` → (method, path).
fn split_pattern(p: &str) -> (Option<String>, String) {
    let p = p.trim();
    let (method, rest) = match p.split_once([' ', '\t']) {
        Some((m, rest)) if !m.is_empty() && m.bytes().all(|b| b.is_ascii_alphabetic()) => {
            (Some(m.to_ascii_uppercase()), rest.trim())
        }
        _ => (None, p),
    };
    let path = match rest.find('/') {
        Some(0) | None => rest.to_string(),
        Some(i) => rest[i..].to_string(),
    };
    // `{path...}` wildcards and the `{$}` end anchor.
    let path = path.replace("{$}", "").replace("...}", "}");
    (method, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_split() {
        assert_eq!(
            split_pattern("GET /items/{id}"),
            (Some("GET".into()), "/items/{id}".into())
        );
        assert_eq!(split_pattern("/static/"), (None, "/static/".into()));
        assert_eq!(
            split_pattern("POST api.example.com/x/{rest...}"),
            (Some("POST".into()), "/x/{rest}".into())
        );
        assert_eq!(split_pattern("GET /{$}"), (Some("GET".into()), "/".into()));
    }

    #[test]
    fn within() {
        assert!(is_within("a/b", "a"));
        assert!(is_within("a", ""));
        assert!(!is_within("ab", "a"));
    }

    #[test]
    fn field_params_by_kind() {
        let f = Field {
            name: "Name".into(),
            ty: "string".into(),
            tags: vec![
                ("json".into(), "name,omitempty".into()),
                ("form".into(), "n".into()),
            ],
            embedded: false,
        };
        assert_eq!(field_param(&f, BindKind::Json), Some(Param::json("name")));
        assert_eq!(field_param(&f, BindKind::Query), Some(Param::query("n")));
        let id = Field {
            name: "ID".into(),
            ty: "string".into(),
            tags: vec![("uri".into(), "id".into())],
            embedded: false,
        };
        assert_eq!(field_param(&id, BindKind::Json), None);
        assert_eq!(field_param(&id, BindKind::Path), Some(Param::path("id")));
        let hidden = Field {
            name: "secret".into(),
            ty: "string".into(),
            tags: vec![],
            embedded: false,
        };
        assert_eq!(field_param(&hidden, BindKind::Json), None);
    }

    #[test]
    fn protobuf_field_names() {
        let field = |name: &str, tags: &[(&str, &str)]| Field {
            name: name.into(),
            ty: "string".into(),
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            embedded: false,
        };
        let camel = field(
            "PageSize",
            &[
                (
                    "protobuf",
                    "varint,2,opt,name=page_size,json=pageSize,proto3",
                ),
                ("json", "page_size,omitempty"),
            ],
        );
        assert_eq!(
            field_param(&camel, BindKind::ProtoQuery),
            Some(Param::query("pageSize"))
        );
        let plain = field(
            "Id",
            &[("protobuf", "varint,1,opt,name=id,proto3"), ("json", "id")],
        );
        assert_eq!(
            field_param(&plain, BindKind::ProtoJson),
            Some(Param::json("id"))
        );
        let oneof = field("Kind", &[("protobuf_oneof", "kind")]);
        assert_eq!(field_param(&oneof, BindKind::ProtoJson), None);
        let state = field("state", &[]);
        assert_eq!(field_param(&state, BindKind::ProtoJson), None);
        let hand = field("Title", &[("json", "title")]);
        assert_eq!(
            field_param(&hand, BindKind::ProtoForm),
            Some(Param::form("title"))
        );
    }
}
