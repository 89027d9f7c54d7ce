//! Cross-module resolution for `link`: import specifiers to modules
//! (relative paths with extensions and `index` files, and path aliases such
//! as `@/routes/x` by suffix), names to what they denote (following imports,
//! re-exports, `module.exports`, bindings and `new C()`), and constants.

use std::collections::{HashMap, HashSet};

use super::module::{Export, Func, ImportKind, ModuleInfo, Value};

/// What a name or value denotes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A named thing of a module: an object, a parameter (`f#app`), a field
    /// (`C#this.router`), or an unknown global.
    Node(usize, String),
    /// A function of a module.
    Func(usize, String),
    /// A class of a module.
    Class(usize, String),
    /// A module's namespace.
    Module(usize),
    /// `f(args)` of a function.
    Returned(usize, String),
    /// `new C()` of a class of the tree.
    Instance(usize, String),
    /// From a package outside the tree.
    External(String),
}

pub const EXTENSIONS: &[&str] = &[".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"];

pub struct Project<'a> {
    pub modules: Vec<&'a ModuleInfo>,
    by_stem: HashMap<String, usize>,
    /// `/stem` by the stem's last segment: alias lookups by suffix without
    /// a pass over every module (linear overall, not modules × imports).
    by_last: HashMap<String, Vec<(String, usize)>>,
    /// Per module, its names by kind: every lookup is a hash probe, not a
    /// pass over the module (a bundle has thousands of each).
    index: Vec<Index<'a>>,
}

/// The first declaration of each name in one module, by kind.
#[derive(Default)]
struct Index<'a> {
    bindings: HashMap<&'a str, usize>,
    functions: HashMap<&'a str, usize>,
    classes: HashSet<&'a str>,
    imports: HashMap<&'a str, usize>,
    exports: HashMap<&'a str, usize>,
    consts: HashMap<&'a str, usize>,
}

/// Name → index of its first occurrence.
fn first_of<'a>(names: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
    let mut out = HashMap::new();
    for (i, n) in names.enumerate() {
        out.entry(n).or_insert(i);
    }
    out
}

impl<'a> Index<'a> {
    fn new(m: &'a ModuleInfo) -> Self {
        Index {
            bindings: first_of(m.bindings.iter().map(|b| b.name.as_str())),
            functions: first_of(m.functions.iter().map(|f| f.name.as_str())),
            classes: m.classes.iter().map(String::as_str).collect(),
            imports: first_of(m.imports.iter().map(|i| i.local.as_str())),
            exports: first_of(m.exports.iter().map(|e| e.name.as_str())),
            consts: first_of(m.consts.iter().map(|c| c.name.as_str())),
        }
    }
}

/// `app/routes/index.ts` → `app/routes/index` and `app/routes`.
fn stems(path: &str) -> Vec<String> {
    let p = path.replace('\\', "/");
    let base = EXTENSIONS
        .iter()
        .find_map(|e| p.strip_suffix(e))
        .unwrap_or(&p)
        .to_string();
    let mut out = vec![base.clone()];
    if let Some(dir) = base.strip_suffix("/index") {
        out.push(dir.to_string());
    }
    out
}

fn normalize(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|s| *s != "..") {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

impl<'a> Project<'a> {
    pub fn new(modules: Vec<&'a ModuleInfo>) -> Self {
        let mut by_stem = HashMap::new();
        for (i, m) in modules.iter().enumerate() {
            for s in stems(&m.path) {
                by_stem.entry(normalize(&s)).or_insert(i);
            }
        }
        let mut by_last: HashMap<String, Vec<(String, usize)>> = HashMap::new();
        for (stem, &i) in &by_stem {
            let last = stem.rsplit('/').next().unwrap_or(stem).to_string();
            by_last
                .entry(last)
                .or_default()
                .push((format!("/{stem}"), i));
        }
        let index = modules.iter().map(|m| Index::new(m)).collect();
        Project {
            modules,
            by_stem,
            by_last,
            index,
        }
    }

    /// The module an import specifier of module `from` refers to.
    pub fn resolve_spec(&self, from: usize, spec: &str) -> Option<usize> {
        let importer = self.modules.get(from)?.path.replace('\\', "/");
        let spec = EXTENSIONS
            .iter()
            .find_map(|e| spec.strip_suffix(e))
            .unwrap_or(spec);
        if spec.starts_with('.') {
            let dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
            let joined = normalize(&format!("{dir}/{spec}"));
            return self.by_stem.get(&joined).copied();
        }
        // Path aliases (`@/x`, `~/x`, `src/x`, `@app/x`, `#src/x`): longest suffix
        // match, only for specifiers with a `/`.
        let rest = spec
            .strip_prefix("@/")
            .or_else(|| spec.strip_prefix("~/"))
            .or_else(|| {
                // `@scope/x`, and Node subpath imports (`#src/x`).
                spec.strip_prefix('@')
                    .or_else(|| spec.strip_prefix('#'))
                    .and_then(|s| s.split_once('/').map(|(_, r)| r))
            })
            .unwrap_or(spec);
        if !rest.contains('/') && rest == spec {
            return None;
        }
        // A bare workspace package (`@scope/name`): its sources' entry
        // (`name/src/index`) before a module or directory named `name`.
        let bare = spec.starts_with('@') && !spec.starts_with("@/") && !rest.contains('/');
        if bare {
            if let Some(i) = self.by_suffix(&format!("/{}/src", normalize(rest))) {
                return Some(i);
            }
        }
        self.by_suffix(&format!("/{}", normalize(rest)))
    }

    /// The module whose `/stem` ends with `want` (the shortest such stem;
    /// the first module on a tie).
    fn by_suffix(&self, want: &str) -> Option<usize> {
        let last = want.rsplit('/').next().unwrap_or(want);
        let mut best: Option<(usize, usize)> = None;
        for (s, i) in self.by_last.get(last)? {
            if s.ends_with(want) && best.is_none_or(|(bl, bi)| (s.len(), *i) < (bl, bi)) {
                best = Some((s.len(), *i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Resolve a value in module `m`.
    pub fn resolve(&self, m: usize, value: &Value) -> Option<Target> {
        self.resolve_depth(m, value, 0)
    }

    /// Function `name` of module `m`.
    fn function(&self, m: usize, name: &str) -> Option<&'a Func> {
        let i = *self.index.get(m)?.functions.get(name)?;
        self.modules.get(m)?.functions.get(i)
    }

    /// Export `name` of module `m` (its first declaration).
    fn export_decl(&self, m: usize, name: &str) -> Option<&'a Export> {
        let i = *self.index.get(m)?.exports.get(name)?;
        self.modules.get(m)?.exports.get(i)
    }

    /// The function declaration a callee of module `m` resolves to, with
    /// the index of the module declaring it.
    pub fn function_of(&self, m: usize, callee: &Value) -> Option<(usize, &Func)> {
        let Some(Target::Func(fm, f)) = self.resolve(m, callee) else {
            return None;
        };
        Some((fm, self.function(fm, &f)?))
    }

    fn resolve_depth(&self, m: usize, value: &Value, depth: usize) -> Option<Target> {
        if depth > 24 {
            return None;
        }
        match value {
            Value::Name(n) => self.resolve_name(m, n, depth + 1),
            Value::Require { spec, member } => {
                let Some(target) = self.resolve_spec(m, spec) else {
                    return Some(Target::External(spec.clone()));
                };
                match member {
                    None => self.module_value(target, depth + 1),
                    Some(mem) => self.member(Target::Module(target), mem, depth + 1),
                }
            }
            Value::New { class, member } => {
                let t = self.resolve_name(m, class, depth + 1)?;
                match (t, member) {
                    (Target::Class(cm, c), Some(mem)) => {
                        Some(Target::Node(cm, format!("{c}#this.{mem}")))
                    }
                    (Target::Class(cm, c), None) => Some(Target::Instance(cm, c)),
                    _ => None,
                }
            }
            Value::Call { callee, .. } => match self.resolve_depth(m, callee, depth + 1)? {
                Target::Func(fm, f) => {
                    let func = self.function(fm, &f)?;
                    match &func.returns {
                        Some(r) => self.resolve_depth(fm, r, depth + 1),
                        None => Some(Target::Returned(fm, f)),
                    }
                }
                // `router.routes()`: the node.
                t @ Target::Node(..) => Some(t),
                _ => None,
            },
        }
    }

    /// The value of `module.exports` (or the default export, or the namespace).
    pub fn module_value(&self, m: usize, depth: usize) -> Option<Target> {
        for name in ["=", "default"] {
            if let Some(e) = self.export_decl(m, name) {
                return self.resolve_depth(m, &e.value, depth + 1);
            }
        }
        Some(Target::Module(m))
    }

    /// `target.member`.
    pub fn member(&self, target: Target, member: &str, depth: usize) -> Option<Target> {
        if depth > 24 {
            return None;
        }
        let (first, rest) = match member.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (member, None),
        };
        let t = match target {
            Target::Module(m) => self.export(m, first, depth + 1)?,
            Target::Class(m, c) => Target::Node(m, format!("{c}.{first}")),
            Target::Instance(m, c) => Target::Node(m, format!("{c}#this.{first}")),
            Target::Node(m, n) => {
                // An instance (`const u = new C()`) or a plain object.
                Target::Node(m, format!("{n}.{first}"))
            }
            Target::External(e) => Target::External(format!("{e}.{first}")),
            _ => return None,
        };
        match rest {
            Some(r) => self.member(t, r, depth + 1),
            None => Some(t),
        }
    }

    /// An export of module `m` by name.
    pub fn export(&self, m: usize, name: &str, depth: usize) -> Option<Target> {
        if depth > 24 {
            return None;
        }
        let info = self.modules.get(m)?;
        if let Some(e) = self.export_decl(m, name) {
            return self.resolve_depth(m, &e.value, depth + 1);
        }
        // `module.exports = obj` then `require(m).name`.
        if let Some(e) = self.export_decl(m, "=") {
            if let Some(t) = self.resolve_depth(m, &e.value, depth + 1) {
                if !matches!(t, Target::Module(x) if x == m) {
                    return self.member(t, name, depth + 1);
                }
            }
        }
        for e in info.exports.iter().filter(|e| e.name == "*") {
            if let Value::Require { spec, .. } = &e.value {
                if let Some(t) = self.resolve_spec(m, spec) {
                    if let Some(found) = self.export(t, name, depth + 1) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }

    /// Resolve a (scoped, dotted) name in module `m`.
    pub fn resolve_name(&self, m: usize, name: &str, depth: usize) -> Option<Target> {
        if depth > 24 {
            return None;
        }
        let info = self.modules.get(m)?;
        let index = self.index.get(m)?;
        if let Some(b) = index.bindings.get(name).and_then(|&i| info.bindings.get(i)) {
            match self.resolve_depth(m, &b.value, depth + 1) {
                Some(Target::External(_)) | None => {}
                Some(t) => return Some(t),
            }
            return Some(Target::Node(m, name.to_string()));
        }
        if index.functions.contains_key(name) {
            return Some(Target::Func(m, name.to_string()));
        }
        if index.classes.contains(name) {
            return Some(Target::Class(m, name.to_string()));
        }
        if let Some(i) = index.imports.get(name).and_then(|&i| info.imports.get(i)) {
            let Some(target) = self.resolve_spec(m, &i.spec) else {
                return Some(Target::External(match &i.kind {
                    ImportKind::Named(n) => format!("{}.{n}", i.spec),
                    _ => i.spec.clone(),
                }));
            };
            return match &i.kind {
                ImportKind::Whole => self.module_value(target, depth + 1),
                ImportKind::Default => self
                    .export(target, "default", depth + 1)
                    .or_else(|| self.module_value(target, depth + 1)),
                ImportKind::Named(n) => self.export(target, n, depth + 1),
                ImportKind::Namespace => Some(Target::Module(target)),
            };
        }
        // Dotted: resolve the head, then the members.
        if let Some((head, rest)) = split_head(name) {
            let t = self.resolve_name(m, head, depth + 1)?;
            return match t {
                Target::Node(nm, n) if nm == m && n == head => {
                    Some(Target::Node(m, name.to_string()))
                }
                t => self.member(t, rest, depth + 1),
            };
        }
        Some(Target::Node(m, name.to_string()))
    }

    /// The value of a string constant (scoped, dotted) in module `m`.
    pub fn constant(&self, m: usize, name: &str, depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        let info = self.modules.get(m)?;
        let index = self.index.get(m)?;
        if let Some(c) = index.consts.get(name).and_then(|&i| info.consts.get(i)) {
            return c.value.resolve(&mut |n| self.constant(m, n, depth + 1));
        }
        match self.resolve_name(m, name, depth + 1)? {
            Target::Node(tm, n) if tm != m || n != name => self.constant(tm, &n, depth + 1),
            _ => None,
        }
    }
}

/// `a.b.c` → (`a`, `b.c`); `C#this.x.y` → (`C#this.x`, `y`).
fn split_head(name: &str) -> Option<(&str, &str)> {
    if let Some(hash) = name.find('#') {
        let after = &name[hash + 1..];
        let skip = if after.starts_with("this.") { 5 } else { 0 };
        let dot = after[skip..].find('.')? + skip + hash + 1;
        return Some((&name[..dot], &name[dot + 1..]));
    }
    name.split_once('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::module::scan;
    use crate::js::outline::Outline;
    use portolan_plugin_sdk::{Code, Syntax};

    fn info(path: &str, src: &str) -> ModuleInfo {
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let o = Outline::new(&code);
        scan(path, &code, &o)
    }

    #[test]
    fn resolves_across_modules() {
        let a = info(
            "app/src/app.ts",
            "import api from './routes';\nimport { PREFIX } from '@/config';\nconst u = require('./routes/users.js');\n",
        );
        let b = info(
            "app/src/routes/index.ts",
            "import { Router } from 'express';\nconst router = Router();\nexport default router;\n",
        );
        let c = info(
            "app/src/routes/users.js",
            "const router = require('express').Router();\nmodule.exports = { usersRouter: router };\n",
        );
        let d = info(
            "app/src/config/index.ts",
            "export const BASE = '/api';\nexport const PREFIX = `${BASE}/v1`;\n",
        );
        let p = Project::new(vec![&a, &b, &c, &d]);
        assert_eq!(
            p.resolve_name(0, "api", 0),
            Some(Target::Node(1, "router".into()))
        );
        assert_eq!(
            p.resolve_name(0, "u.usersRouter", 0),
            Some(Target::Node(2, "router".into()))
        );
        assert_eq!(p.constant(0, "PREFIX", 0).as_deref(), Some("/api/v1"));
    }
}
