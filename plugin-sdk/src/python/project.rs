//! Cross-module name resolution for the `link` step.
//!
//! A [`Project`] indexes the [`ModuleInfo`] of every module and answers
//! "what does the name `users.bp` mean in module M": a module, a string
//! constant, something the framework defined (reported by the caller's
//! `is_local` callback), or something imported from outside the tree.
//! Relative imports resolve exactly; absolute ones by the longest module
//! path suffix (the scan root need not be the import root), preferring
//! modules that share the importer's directory prefix.

use std::collections::HashMap;

use super::module::ModuleInfo;
use super::strexpr::MAX_DEPTH;

/// What a name refers to.
///
/// ```
/// use portolan_plugin_sdk::python::{no_locals, Binding, ModuleInfo, Project};
/// use portolan_plugin_sdk::SourceFile;
///
/// let mods = [
///     ModuleInfo::of(&SourceFile::new("app/config.py", "API = '/api'\n")),
///     ModuleInfo::of(&SourceFile::new("app/main.py", "from app import config\nfrom flask import Flask\n")),
/// ];
/// let project = Project::new(mods.iter().collect());
/// assert_eq!(project.resolve(1, "config", &no_locals), Some(Binding::Module(0)));
/// assert_eq!(
///     project.resolve(1, "config.API", &no_locals),
///     Some(Binding::Const { module: 0, name: "API".into() })
/// );
/// assert_eq!(project.resolve(1, "Flask", &no_locals), Some(Binding::External("flask.Flask".into())));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A module of the tree (by index).
    Module(usize),
    /// A name defined in a module of the tree and claimed by `is_local`.
    Local {
        /// The defining module's index.
        module: usize,
        /// The name in that module.
        name: String,
    },
    /// A string constant.
    Const {
        /// The defining module's index.
        module: usize,
        /// The constant's name in that module.
        name: String,
    },
    /// Imported from a module outside the tree (`flask.request`).
    External(String),
}

/// `is_local` for callers that track nothing but modules and constants:
/// no name is claimed.
///
/// ```
/// assert!(!portolan_plugin_sdk::python::no_locals(0, "app"));
/// ```
pub fn no_locals(_module: usize, _name: &str) -> bool {
    false
}

/// Every module of the scanned tree, indexed for name resolution in `link`.
///
/// Build it from the [`ModuleInfo`] facts of every file; modules are then
/// known by their index in that list.
///
/// ```
/// use portolan_plugin_sdk::python::{no_locals, ModuleInfo, Project};
/// use portolan_plugin_sdk::SourceFile;
///
/// let mods = [
///     ModuleInfo::of(&SourceFile::new("svc/settings.py", "API = '/api'\nV1 = API + '/v1'\n")),
///     ModuleInfo::of(&SourceFile::new("svc/routes.py", "from .settings import V1\n")),
/// ];
/// let project = Project::new(mods.iter().collect());
/// assert_eq!(project.const_value(1, "V1", &no_locals).as_deref(), Some("/api/v1"));
/// ```
pub struct Project<'a> {
    modules: Vec<&'a ModuleInfo>,
    by_segments: HashMap<&'a [String], usize>,
    by_last: HashMap<&'a str, Vec<usize>>,
    by_path: HashMap<&'a str, usize>,
}

impl<'a> Project<'a> {
    /// Index these modules (the first of two with the same dotted path or
    /// file path wins).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [ModuleInfo::of(&SourceFile::new("a.py", ""))];
    /// assert_eq!(Project::new(mods.iter().collect()).len(), 1);
    /// ```
    pub fn new(modules: Vec<&'a ModuleInfo>) -> Self {
        let mut by_segments = HashMap::new();
        let mut by_last: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_path = HashMap::new();
        for (i, m) in modules.iter().enumerate() {
            by_segments.entry(m.segments.as_slice()).or_insert(i);
            by_path.entry(m.path.as_str()).or_insert(i);
            if let Some(last) = m.segments.last() {
                by_last.entry(last.as_str()).or_default().push(i);
            }
        }
        Project {
            modules,
            by_segments,
            by_last,
            by_path,
        }
    }

    /// The module at `index`.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [ModuleInfo::of(&SourceFile::new("a.py", ""))];
    /// let project = Project::new(mods.iter().collect());
    /// assert_eq!(project.module(0).map(|m| m.path.as_str()), Some("a.py"));
    /// assert!(project.module(1).is_none());
    /// ```
    pub fn module(&self, index: usize) -> Option<&'a ModuleInfo> {
        self.modules.get(index).copied()
    }

    /// The number of modules.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::Project;
    /// assert_eq!(Project::new(Vec::new()).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.modules.len()
    }

    /// No modules at all.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::Project;
    /// assert!(Project::new(Vec::new()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }

    /// The index of the module of the file at this display path (the path
    /// a [`crate::SourceFile`] had in `analyze`).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [ModuleInfo::of(&SourceFile::new("app/a.py", "")), ModuleInfo::of(&SourceFile::new("app/b.py", ""))];
    /// assert_eq!(Project::new(mods.iter().collect()).module_of_path("app/b.py"), Some(1));
    /// ```
    pub fn module_of_path(&self, path: &str) -> Option<usize> {
        self.by_path.get(path).copied()
    }

    /// The module at exactly these segments.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [ModuleInfo::of(&SourceFile::new("app/__init__.py", ""))];
    /// let project = Project::new(mods.iter().collect());
    /// assert_eq!(project.module_at(&["app".to_string()]), Some(0));
    /// ```
    pub fn module_at(&self, segments: &[String]) -> Option<usize> {
        self.by_segments.get(segments).copied()
    }

    /// Resolve an absolute dotted module path as imported from `from`: by
    /// the longest module path suffix (the scan root need not be the import
    /// root), preferring modules that share the importer's directories.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [
    ///     ModuleInfo::of(&SourceFile::new("src/shop/config.py", "")),
    ///     ModuleInfo::of(&SourceFile::new("src/shop/main.py", "import shop.config\n")),
    /// ];
    /// assert_eq!(Project::new(mods.iter().collect()).find_module(1, "shop.config"), Some(0));
    /// ```
    pub fn find_module(&self, from: usize, dotted: &str) -> Option<usize> {
        let wanted: Vec<&str> = dotted.split('.').collect();
        let last = wanted.last()?;
        let importer = self
            .modules
            .get(from)
            .map(|m| m.segments.as_slice())
            .unwrap_or(&[]);
        let candidates = self.by_last.get(last)?;
        candidates
            .iter()
            .copied()
            .filter(|&c| {
                let segs = &self.modules[c].segments;
                segs.len() >= wanted.len()
                    && segs[segs.len() - wanted.len()..]
                        .iter()
                        .zip(&wanted)
                        .all(|(a, b)| a == b)
            })
            .max_by_key(|&c| {
                let segs = &self.modules[c].segments;
                let root = &segs[..segs.len() - wanted.len()];
                let shared = root
                    .iter()
                    .zip(importer)
                    .take_while(|(a, b)| a == b)
                    .count();
                // Prefer the root shared with the importer, then the shortest
                // path, then the first module.
                (
                    shared == root.len(),
                    shared,
                    usize::MAX - segs.len(),
                    usize::MAX - c,
                )
            })
    }

    /// The module an import statement refers to.
    fn import_module(&self, from: usize, level: usize, module: &str) -> Option<usize> {
        if level == 0 {
            return self.find_module(from, module);
        }
        let mut base = self.modules.get(from)?.relative_base(level)?;
        if !module.is_empty() {
            base.extend(module.split('.').map(str::to_string));
        }
        self.module_at(&base)
    }

    /// Resolve the dotted `name` as seen from module `from`. `is_local(m, n)`
    /// tells whether module `m` defines `n` as something the caller tracks
    /// (an app object, a class, …); it is asked before constants and imports.
    /// Pass [`no_locals`] to track only modules and constants.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{Binding, ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [
    ///     ModuleInfo::of(&SourceFile::new("app/routes.py", "")),
    ///     ModuleInfo::of(&SourceFile::new("app/main.py", "from .routes import table as t\n")),
    /// ];
    /// let project = Project::new(mods.iter().collect());
    /// let is_table = |m: usize, n: &str| m == 0 && n == "table";
    /// assert_eq!(
    ///     project.resolve(1, "t", &is_table),
    ///     Some(Binding::Local { module: 0, name: "table".into() })
    /// );
    /// ```
    pub fn resolve(
        &self,
        from: usize,
        name: &str,
        is_local: &dyn Fn(usize, &str) -> bool,
    ) -> Option<Binding> {
        self.resolve_depth(from, name, is_local, 0)
    }

    fn resolve_depth(
        &self,
        from: usize,
        name: &str,
        is_local: &dyn Fn(usize, &str) -> bool,
        depth: usize,
    ) -> Option<Binding> {
        if depth > MAX_DEPTH {
            return None;
        }
        let all: Vec<&str> = name.split('.').collect();
        let first = *all.first()?;
        let mut rest = &all[1..];
        // `import a.b.c` then `a.b.c.X`: the longest imported module path
        // that prefixes the name (works for namespace packages too).
        let dotted_import = self.modules.get(from).and_then(|info| {
            info.imports
                .iter()
                .filter(|i| {
                    i.name.is_none() && i.level == 0 && i.local == first && i.module != i.local
                })
                .filter_map(|i| {
                    let segs: Vec<&str> = i.module.split('.').collect();
                    (segs.len() <= all.len() && segs[..] == all[..segs.len()])
                        .then_some((segs.len(), i.module.as_str()))
                })
                .max()
        });
        let mut binding = match dotted_import {
            Some((len, module)) => {
                // The longest module path the name starts with: the
                // imported one, or a submodule of it (also through
                // namespace packages without `__init__.py`).
                let found = (len..=all.len())
                    .rev()
                    .find_map(|k| self.find_module(from, &all[..k].join(".")).map(|t| (k, t)));
                match found {
                    Some((k, t)) => {
                        rest = &all[k..];
                        Binding::Module(t)
                    }
                    None => {
                        rest = &all[len..];
                        Binding::External(module.to_string())
                    }
                }
            }
            None => self.lookup(from, first, is_local, depth)?,
        };
        for seg in rest {
            binding = match binding {
                Binding::Module(m) => self.lookup(m, seg, is_local, depth + 1)?,
                Binding::External(path) => Binding::External(format!("{path}.{seg}")),
                // Attributes of objects and classes are the caller's business.
                Binding::Local { .. } | Binding::Const { .. } => return None,
            };
        }
        Some(binding)
    }

    /// A name in a module's namespace.
    fn lookup(
        &self,
        m: usize,
        name: &str,
        is_local: &dyn Fn(usize, &str) -> bool,
        depth: usize,
    ) -> Option<Binding> {
        if depth > MAX_DEPTH {
            return None;
        }
        let info = self.modules.get(m)?;
        if is_local(m, name) {
            return Some(Binding::Local {
                module: m,
                name: name.to_string(),
            });
        }
        if let Some(c) = info.constant(name) {
            if let Some(alias) = c.value.as_name() {
                if alias != name {
                    if let Some(b) = self.resolve_depth(m, alias, is_local, depth + 1) {
                        return Some(b);
                    }
                }
            } else {
                return Some(Binding::Const {
                    module: m,
                    name: name.to_string(),
                });
            }
        }
        if let Some(imp) = info.import(name) {
            // `import a.b` binds `a`.
            let top_level = imp.name.is_none()
                && imp.level == 0
                && imp.module.contains('.')
                && imp.module.split('.').next() == Some(imp.local.as_str());
            let target = if top_level {
                self.find_module(m, &imp.local)
            } else {
                self.import_module(m, imp.level, &imp.module)
            };
            let found = match (&imp.name, target) {
                (None, Some(t)) => Some(Binding::Module(t)),
                (None, None) if top_level => Some(Binding::External(imp.local.clone())),
                (None, None) => Some(Binding::External(imp.module.clone())),
                // `from app.api import orders` inside `app/api/__init__.py`
                // names the submodule, found below.
                (Some(attr), Some(t)) if t == m && attr == name => None,
                (Some(attr), Some(t)) => self.lookup(t, attr, is_local, depth + 1),
                (Some(attr), None) => {
                    // `from . import users` where `.` is a namespace package
                    // without `__init__.py`: the submodule itself.
                    let sub = (imp.level > 0)
                        .then(|| {
                            let mut base = info.relative_base(imp.level)?;
                            base.extend(
                                imp.module
                                    .split('.')
                                    .filter(|s| !s.is_empty())
                                    .map(str::to_string),
                            );
                            base.push(attr.clone());
                            self.module_at(&base)
                        })
                        .flatten();
                    // `from pkg import users` where `pkg` is a namespace
                    // package: the submodule `pkg.users`.
                    let sub = sub.or_else(|| {
                        (imp.level == 0)
                            .then(|| self.find_module(m, &format!("{}.{attr}", imp.module)))
                            .flatten()
                    });
                    match sub {
                        Some(s) => Some(Binding::Module(s)),
                        None if imp.level == 0 => {
                            Some(Binding::External(format!("{}.{attr}", imp.module)))
                        }
                        None => None,
                    }
                }
            };
            if found.is_some() {
                return found;
            }
        }
        for star in info.imports.iter().filter(|i| i.is_star()) {
            if let Some(t) = self.import_module(m, star.level, &star.module) {
                if t != m {
                    if let Some(b) = self.lookup(t, name, is_local, depth + 1) {
                        return Some(b);
                    }
                }
            }
        }
        // A package's submodule is reachable as its attribute (`pkg.users`
        // after `import pkg.users`, `from pkg import users`).
        if info.is_package {
            let mut sub = info.segments.clone();
            sub.push(name.to_string());
            if let Some(s) = self.module_at(&sub) {
                return Some(Binding::Module(s));
            }
        }
        None
    }

    /// The value of the string constant `name` as seen from module `from`,
    /// following imports, aliases and the constants its value names.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{no_locals, ModuleInfo, Project};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [
    ///     ModuleInfo::of(&SourceFile::new("app/config.py", "API = '/api'\n")),
    ///     ModuleInfo::of(&SourceFile::new("app/main.py", "import app.config\nV2 = app.config.API + '/v2'\n")),
    /// ];
    /// let project = Project::new(mods.iter().collect());
    /// assert_eq!(project.const_value(1, "V2", &no_locals).as_deref(), Some("/api/v2"));
    /// assert_eq!(project.const_value(1, "missing", &no_locals), None);
    /// ```
    pub fn const_value(
        &self,
        from: usize,
        name: &str,
        is_local: &dyn Fn(usize, &str) -> bool,
    ) -> Option<String> {
        self.const_value_depth(from, name, is_local, 0)
    }

    fn const_value_depth(
        &self,
        from: usize,
        name: &str,
        is_local: &dyn Fn(usize, &str) -> bool,
        depth: usize,
    ) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.resolve_depth(from, name, is_local, depth)? {
            Binding::Const { module, name } => {
                let c = self.modules.get(module)?.constant(&name)?;
                c.value
                    .resolve(&mut |n| self.const_value_depth(module, n, is_local, depth + 1))
            }
            _ => None,
        }
    }

    /// Resolve a string expression's names against the project's constants,
    /// as seen from module `from`; `None` when a name is not a known string
    /// constant.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{no_locals, ModuleInfo, Project, StrExpr, Piece};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [
    ///     ModuleInfo::of(&SourceFile::new("app/config.py", "API = '/api'\n")),
    ///     ModuleInfo::of(&SourceFile::new("app/views.py", "from .config import API\n")),
    /// ];
    /// let project = Project::new(mods.iter().collect());
    /// let expr = StrExpr(vec![Piece::Ref("API".into()), Piece::Lit("/items".into())]);
    /// assert_eq!(project.eval(1, &expr, &no_locals).as_deref(), Some("/api/items"));
    /// ```
    pub fn eval(
        &self,
        from: usize,
        expr: &super::strexpr::StrExpr,
        is_local: &dyn Fn(usize, &str) -> bool,
    ) -> Option<String> {
        expr.resolve(&mut |n| self.const_value(from, n, is_local))
    }
}

impl Project<'_> {
    /// Prefix composition: evaluate each part in module `from` (see
    /// [`Project::eval`]) and join them as a route path
    /// ([`crate::paths::join`]: one `/` between parts, empty parts
    /// skipped); `None` when a part names an unknown constant.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{no_locals, ModuleInfo, Project, StrExpr, Piece};
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let mods = [ModuleInfo::of(&SourceFile::new("m.py", "API = '/api/'\n"))];
    /// let project = Project::new(mods.iter().collect());
    /// let api = StrExpr(vec![Piece::Ref("API".into())]);
    /// let url = project.compose(0, &[&api, &StrExpr::lit("users")], &no_locals);
    /// assert_eq!(url.as_deref(), Some("/api/users"));
    /// ```
    pub fn compose(
        &self,
        from: usize,
        parts: &[&super::strexpr::StrExpr],
        is_local: &dyn Fn(usize, &str) -> bool,
    ) -> Option<String> {
        let values = parts
            .iter()
            .map(|p| self.eval(from, p, is_local))
            .collect::<Option<Vec<String>>>()?;
        Some(crate::paths::join(&values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::lines::logical_lines;
    use crate::{Code, Syntax};

    fn info(path: &str, src: &str) -> ModuleInfo {
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        ModuleInfo::parse(path, &code, &lines)
    }

    fn none(_: usize, _: &str) -> bool {
        false
    }

    #[test]
    fn resolves_constants_across_modules() {
        let mods = [
            info("app/config.py", "API = '/api'\nV1 = API + '/v1'\n"),
            info("app/__init__.py", "from .config import V1 as PREFIX\nfrom app import config\nimport app.config\n"),
            info("app/api/users.py", "from .. import PREFIX\nfrom ..config import *\nU = f'{PREFIX}/users'\nX = config.API\n"),
            info("app/other.py", "import config as c\nfrom app.api.users import U\nY = c.V1\nZ = missing.X\nW = W\n"),
        ];
        let project = Project::new(mods.iter().collect());
        assert_eq!(
            project.const_value(2, "U", &none).as_deref(),
            Some("/api/v1/users")
        );
        assert_eq!(
            project.const_value(2, "API", &none).as_deref(),
            Some("/api")
        );
        assert_eq!(
            project.const_value(3, "Y", &none).as_deref(),
            Some("/api/v1")
        );
        assert_eq!(
            project.const_value(3, "U", &none).as_deref(),
            Some("/api/v1/users")
        );
        assert_eq!(
            project.const_value(1, "config.V1", &none).as_deref(),
            Some("/api/v1")
        );
        assert_eq!(
            project.const_value(1, "app.config.API", &none).as_deref(),
            Some("/api")
        );
        assert_eq!(project.const_value(3, "Z", &none), None);
        assert_eq!(project.const_value(3, "W", &none), None);
        // `X = config.API` in users.py: `config` is not bound there.
        assert_eq!(project.const_value(2, "X", &none), None);
    }

    #[test]
    fn resolves_modules_locals_and_externals() {
        let mods = [
            info("src/shop/api/__init__.py", "from flask import request\nfrom . import orders\n"),
            info("src/shop/api/orders.py", "bp = make()\n"),
            info("src/shop/api/items.py", ""),
            info("other/api/items.py", ""),
            info("src/shop/main.py", "from shop.api import orders, items\nimport shop.api.items\nfrom shop.api import request\n"),
        ];
        let project = Project::new(mods.iter().collect());
        let local = |m: usize, n: &str| m == 1 && n == "bp";
        assert_eq!(
            project.resolve(4, "orders.bp", &local),
            Some(Binding::Local {
                module: 1,
                name: "bp".into()
            })
        );
        assert_eq!(
            project.resolve(4, "items", &local),
            Some(Binding::Module(2))
        );
        assert_eq!(
            project.resolve(4, "shop.api.items", &local),
            Some(Binding::Module(2))
        );
        assert_eq!(
            project.resolve(4, "request", &local),
            Some(Binding::External("flask.request".into()))
        );
        assert_eq!(
            project.resolve(0, "request.args", &local),
            Some(Binding::External("flask.request.args".into()))
        );
        assert_eq!(project.resolve(4, "nothing", &local), None);
        assert_eq!(project.find_module(3, "api.items"), Some(3));
        assert_eq!(project.find_module(4, "api.items"), Some(2));
    }

    #[test]
    fn namespace_package_submodules() {
        // Absolute import of a submodule of a namespace package (no `__init__.py`).
        let mods = [
            info("app/api/routes/users.py", "router = make()\n"),
            info("app/main.py", "from app.api.routes import users\n"),
        ];
        let project = Project::new(mods.iter().collect());
        let local = |m: usize, n: &str| m == 0 && n == "router";
        assert_eq!(
            project.resolve(1, "users.router", &local),
            Some(Binding::Local {
                module: 0,
                name: "router".into()
            })
        );
    }

    #[test]
    fn import_cycles_terminate() {
        let mods = [
            info("a.py", "from b import X\n"),
            info("b.py", "from a import X\n"),
        ];
        let project = Project::new(mods.iter().collect());
        assert_eq!(project.resolve(0, "X", &none), None);
        assert_eq!(project.const_value(0, "X", &none), None);
    }
}
