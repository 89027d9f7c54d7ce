//! What one Python module exposes to others: its dotted path, its imports
//! and its module-level string constants. Serialisable, so an analyzer can
//! record it as a fact and resolve names across files in `link` (see
//! [`super::Project`]).

use crate::Code;
use serde::{Deserialize, Serialize};

use super::lines::{logical_lines, LogicalLine};
use super::strexpr::StrExpr;

/// A name bound by an import statement.
///
/// ```
/// use portolan_plugin_sdk::python::parse_import;
///
/// let imports = parse_import("from ..config import API_PREFIX as PREFIX");
/// assert_eq!(imports[0].local, "PREFIX");
/// assert_eq!(imports[0].level, 2);
/// assert_eq!(imports[0].module, "config");
/// assert_eq!(imports[0].name.as_deref(), Some("API_PREFIX"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The name bound in the importing module (`users_bp`); for
    /// `import a.b` it is `a`; empty for `from x import *`.
    #[serde(rename = "n")]
    pub local: String,
    /// Leading dots of a relative import (`from ..x import y` → 2).
    #[serde(rename = "l", default, skip_serializing_if = "is_zero")]
    pub level: usize,
    /// The module path after the dots (`x`, `a.b`, or empty for `from . import y`).
    #[serde(rename = "m")]
    pub module: String,
    /// The imported attribute for `from m import name`; `None` when the
    /// statement imports the module itself (`import a.b as c`).
    #[serde(rename = "a", default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Import {
    /// A `from m import *`.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::parse_import;
    /// assert!(parse_import("from .settings import *")[0].is_star());
    /// ```
    pub fn is_star(&self) -> bool {
        self.name.as_deref() == Some("*")
    }

    /// The absolute dotted module of the import when it is not relative.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::parse_import;
    /// assert_eq!(parse_import("import app.config as c")[0].absolute_module(), Some("app.config"));
    /// assert_eq!(parse_import("from . import c")[0].absolute_module(), None);
    /// ```
    pub fn absolute_module(&self) -> Option<&str> {
        (self.level == 0).then_some(self.module.as_str())
    }
}

/// A module-level `NAME = <string expression>` (also `NAME: str = …`). A
/// bare name on the right (`users_bp = bp`) makes an alias.
///
/// ```
/// use portolan_plugin_sdk::python::ModuleInfo;
/// use portolan_plugin_sdk::SourceFile;
///
/// let info = ModuleInfo::of(&SourceFile::new("app/config.py", "API = '/api'\n"));
/// assert_eq!(info.consts[0].name, "API");
/// assert_eq!(info.consts[0].value.literal().as_deref(), Some("/api"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Const {
    /// The assigned name.
    #[serde(rename = "n")]
    pub name: String,
    /// The value, names unresolved.
    #[serde(rename = "v")]
    pub value: StrExpr,
}

/// A module's cross-file interface: what `link` needs to resolve a name
/// used in another module. Record one per file as a fact in `analyze`, and
/// index them all with [`super::Project`] in `link`.
///
/// ```
/// use portolan_plugin_sdk::python::ModuleInfo;
/// use portolan_plugin_sdk::SourceFile;
///
/// let file = SourceFile::new("app/api/__init__.py", "from ..config import API\nV1 = API + '/v1'\n");
/// let info = ModuleInfo::of(&file);
/// assert_eq!(info.segments, ["app", "api"]);
/// assert!(info.is_package);
/// assert_eq!(info.import("API").map(|i| i.module.as_str()), Some("config"));
/// assert!(info.constant("V1").is_some());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleInfo {
    /// Display path of the file.
    pub path: String,
    /// Dotted path segments derived from the file path (`app/api/users.py`
    /// → `["app", "api", "users"]`; a package's `__init__.py` is the
    /// package itself).
    pub segments: Vec<String>,
    /// The file is a package's `__init__.py`.
    pub is_package: bool,
    /// Every import statement's bindings, in file order (also those inside
    /// functions and `if` blocks: Python binds them when they run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<Import>,
    /// Module-level string constants and aliases, in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Const>,
}

impl ModuleInfo {
    /// The module of one source file (its Python code view and logical
    /// lines are computed here; use [`ModuleInfo::parse`] when the analyzer
    /// has them already).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::ModuleInfo;
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let info = ModuleInfo::of(&SourceFile::new("svc/routes.py", "import svc.config as cfg\n"));
    /// assert_eq!(info.path, "svc/routes.py");
    /// assert_eq!(info.import("cfg").map(|i| i.module.as_str()), Some("svc.config"));
    /// ```
    pub fn of(file: &crate::SourceFile) -> ModuleInfo {
        let code = file.python();
        let lines = logical_lines(&code);
        ModuleInfo::parse(&file.path, &code, &lines)
    }

    /// Parse a file's imports and module-level constants from its code view
    /// and logical lines.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::{lines::logical_lines, ModuleInfo};
    /// use portolan_plugin_sdk::{Code, Syntax};
    ///
    /// let code = Code::new("PREFIX = '/v1'\n", Syntax::PYTHON);
    /// let info = ModuleInfo::parse("a/b.py", &code, &logical_lines(&code));
    /// assert_eq!(info.segments, ["a", "b"]);
    /// ```
    pub fn parse(path: &str, code: &Code<'_>, lines: &[LogicalLine]) -> ModuleInfo {
        let (segments, is_package) = module_segments(path);
        let mut imports = Vec::new();
        let mut consts = Vec::new();
        for line in lines {
            let text = line.text(code);
            if text.starts_with("import ") || text.starts_with("from ") {
                imports.extend(parse_import(text));
            } else if line.indent == 0 {
                if let Some(c) = parse_const(code, line) {
                    consts.push(c);
                }
            }
        }
        ModuleInfo {
            path: path.to_string(),
            segments,
            is_package,
            imports,
            consts,
        }
    }

    /// The last constant named `name` (module attributes keep their last value).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::ModuleInfo;
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let info = ModuleInfo::of(&SourceFile::new("c.py", "P = '/a'\nP = '/b'\n"));
    /// assert_eq!(info.constant("P").and_then(|c| c.value.literal()).as_deref(), Some("/b"));
    /// ```
    pub fn constant(&self, name: &str) -> Option<&Const> {
        self.consts.iter().rev().find(|c| c.name == name)
    }

    /// The import binding `name`, if any (the last one wins).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::ModuleInfo;
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let info = ModuleInfo::of(&SourceFile::new("m.py", "from x import a\nfrom y import a\n"));
    /// assert_eq!(info.import("a").map(|i| i.module.as_str()), Some("y"));
    /// ```
    pub fn import(&self, name: &str) -> Option<&Import> {
        self.imports
            .iter()
            .rev()
            .find(|i| i.local == name && !i.is_star())
    }

    /// Does the module import from `package` (`flask`, `fastapi`, …) or a
    /// submodule of it?
    ///
    /// ```
    /// use portolan_plugin_sdk::python::ModuleInfo;
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let info = ModuleInfo::of(&SourceFile::new("m.py", "from acme_web.routing import App\n"));
    /// assert!(info.imports_from("acme_web") && !info.imports_from("acme"));
    /// ```
    pub fn imports_from(&self, package: &str) -> bool {
        self.imports.iter().any(|i| {
            i.level == 0
                && (i.module == package
                    || i.module
                        .strip_prefix(package)
                        .is_some_and(|rest| rest.starts_with('.')))
        })
    }

    /// Local names bound to `attr` of the external `package` (`from flask
    /// import request as req` → `req`).
    ///
    /// ```
    /// use portolan_plugin_sdk::python::ModuleInfo;
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let info = ModuleInfo::of(&SourceFile::new("m.py", "from acme_web import Router as R\n"));
    /// assert_eq!(info.names_for("acme_web", "Router"), ["R"]);
    /// ```
    pub fn names_for(&self, package: &str, attr: &str) -> Vec<String> {
        self.imports
            .iter()
            .filter(|i| i.level == 0 && i.module == package && i.name.as_deref() == Some(attr))
            .map(|i| i.local.clone())
            .collect()
    }

    /// The package a relative import of `level` dots starts from.
    ///
    /// ```
    /// use portolan_plugin_sdk::python::ModuleInfo;
    /// use portolan_plugin_sdk::SourceFile;
    ///
    /// let info = ModuleInfo::of(&SourceFile::new("app/api/users.py", ""));
    /// assert_eq!(info.relative_base(1), Some(vec!["app".to_string(), "api".to_string()]));
    /// assert_eq!(info.relative_base(2), Some(vec!["app".to_string()]));
    /// ```
    pub fn relative_base(&self, level: usize) -> Option<Vec<String>> {
        let mut base = self.segments.clone();
        if !self.is_package {
            base.pop()?;
        }
        for _ in 1..level {
            base.pop()?;
        }
        Some(base)
    }
}

/// Module segments of a file path: directories and the file stem, with
/// `.`/`..`/empty segments and `__init__` dropped; true for a package's
/// `__init__.py`.
///
/// ```
/// use portolan_plugin_sdk::python::module_segments;
/// assert_eq!(module_segments("./app/api/__init__.py"), (vec!["app".to_string(), "api".to_string()], true));
/// assert_eq!(module_segments("app\\users.py"), (vec!["app".to_string(), "users".to_string()], false));
/// ```
pub fn module_segments(path: &str) -> (Vec<String>, bool) {
    let path = path.replace('\\', "/");
    let mut segments: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != "." && *s != "..")
        .map(str::to_string)
        .collect();
    let mut is_package = false;
    if let Some(last) = segments.pop() {
        let stem = last
            .strip_suffix(".pyi")
            .or_else(|| last.strip_suffix(".py"))
            .unwrap_or(&last);
        if stem == "__init__" {
            is_package = true;
        } else {
            segments.push(stem.to_string());
        }
    }
    (segments, is_package)
}

/// Parse an `import …` / `from … import …` statement (one logical line,
/// parentheses and continuations allowed).
///
/// ```
/// use portolan_plugin_sdk::python::parse_import;
///
/// let names: Vec<_> = parse_import("from . import (\n  users,\n  orders as o,\n)")
///     .into_iter()
///     .map(|i| i.local)
///     .collect();
/// assert_eq!(names, ["users", "o"]);
/// assert_eq!(parse_import("import a.b")[0].local, "a");
/// ```
pub fn parse_import(text: &str) -> Vec<Import> {
    // Flatten continuations, parentheses and trailing `;`-separated code.
    let flat: String = text
        .split(';')
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| {
            if matches!(c, '\\' | '\n' | '\r' | '(' | ')' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let flat = flat.trim();
    let mut out = Vec::new();
    if let Some(rest) = flat.strip_prefix("import ") {
        for item in rest.split(',') {
            let mut words = item.split_whitespace();
            let Some(module) = words.next().filter(|m| valid_dotted(m)) else {
                continue;
            };
            match (words.next(), words.next()) {
                (Some("as"), Some(alias)) if valid_dotted(alias) => out.push(Import {
                    local: alias.to_string(),
                    level: 0,
                    module: module.to_string(),
                    name: None,
                }),
                // `import a.b` binds `a` (the top-level package) and makes
                // `a.b` reachable through it.
                (None, _) => out.push(Import {
                    local: module.split('.').next().unwrap_or(module).to_string(),
                    level: 0,
                    module: module.to_string(),
                    name: None,
                }),
                _ => {}
            }
        }
    } else if let Some(rest) = flat.strip_prefix("from ") {
        let Some((source, names)) = rest.split_once(" import ") else {
            return out;
        };
        let source = source.trim();
        let level = source.chars().take_while(|c| *c == '.').count();
        let module = source[level..].trim().to_string();
        if !module.is_empty() && !valid_dotted(&module) {
            return out;
        }
        for item in names.split(',') {
            let mut words = item.split_whitespace();
            let Some(name) = words.next() else { continue };
            if name == "*" {
                out.push(Import {
                    local: String::new(),
                    level,
                    module: module.clone(),
                    name: Some("*".into()),
                });
                continue;
            }
            if !valid_dotted(name) || name.contains('.') {
                continue;
            }
            let local = match (words.next(), words.next()) {
                (Some("as"), Some(alias)) => alias,
                _ => name,
            };
            out.push(Import {
                local: local.to_string(),
                level,
                module: module.clone(),
                name: Some(name.to_string()),
            });
        }
    }
    out
}

fn valid_dotted(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|seg| {
            seg.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && seg.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// `NAME = <string expr>` or `NAME: T = <string expr>` on one logical line.
fn parse_const(code: &Code<'_>, line: &LogicalLine) -> Option<Const> {
    let (name, value_start) = assignment_target(code, line)?;
    let value = StrExpr::parse(code, value_start..line.end)?;
    Some(Const { name, value })
}

/// For a simple assignment statement `NAME = value` / `NAME: T = value`,
/// the target name and the offset where the value starts.
///
/// ```
/// use portolan_plugin_sdk::python::{assignment_target, lines::logical_lines};
/// use portolan_plugin_sdk::{Code, Syntax};
///
/// let code = Code::new("API: str = '/api'\n", Syntax::PYTHON);
/// let line = logical_lines(&code)[0];
/// assert_eq!(assignment_target(&code, &line), Some(("API".to_string(), 10)));
/// ```
pub fn assignment_target(code: &Code<'_>, line: &LogicalLine) -> Option<(String, usize)> {
    let text = line.text(code);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() && crate::lex::is_ident_byte(bytes[i]) {
        i += 1;
    }
    if i == 0 || bytes[0].is_ascii_digit() {
        return None;
    }
    let name = &text[..i];
    if matches!(
        name,
        "if" | "elif"
            | "else"
            | "for"
            | "while"
            | "with"
            | "return"
            | "yield"
            | "assert"
            | "del"
            | "raise"
            | "print"
            | "lambda"
            | "not"
    ) {
        return None;
    }
    let mut j = i;
    while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
        j += 1;
    }
    if bytes.get(j) == Some(&b':') {
        // Annotation: up to the top-level `=`.
        let eq = text[j..].find('=').map(|p| p + j)?;
        j = eq;
    }
    if bytes.get(j) != Some(&b'=') || bytes.get(j + 1) == Some(&b'=') {
        return None;
    }
    Some((name.to_string(), line.start + j + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::strexpr::Piece;
    use crate::Syntax;

    fn imp(local: &str, level: usize, module: &str, name: Option<&str>) -> Import {
        Import {
            local: local.into(),
            level,
            module: module.into(),
            name: name.map(Into::into),
        }
    }

    #[test]
    fn import_forms() {
        assert_eq!(
            parse_import("import os, flask.json as fj"),
            vec![imp("os", 0, "os", None), imp("fj", 0, "flask.json", None)]
        );
        assert_eq!(
            parse_import("import app.api"),
            vec![imp("app", 0, "app.api", None)]
        );
        assert_eq!(
            parse_import("from .users import bp as users_bp, helper"),
            vec![
                imp("users_bp", 1, "users", Some("bp")),
                imp("helper", 1, "users", Some("helper"))
            ]
        );
        assert_eq!(
            parse_import("from . import (\n  users,\n  orders as o,\n)"),
            vec![
                imp("users", 1, "", Some("users")),
                imp("o", 1, "", Some("orders"))
            ]
        );
        assert_eq!(
            parse_import("from ..config import *"),
            vec![imp("", 2, "config", Some("*"))]
        );
        assert_eq!(
            parse_import("from app.api import users"),
            vec![imp("users", 0, "app.api", Some("users"))]
        );
        assert!(parse_import("from import x").is_empty());
        assert!(parse_import("import").is_empty());
    }

    #[test]
    fn segments() {
        assert_eq!(
            module_segments("app/api/__init__.py"),
            (vec!["app".to_string(), "api".to_string()], true)
        );
        assert_eq!(
            module_segments("./app\\users.py"),
            (vec!["app".to_string(), "users".to_string()], false)
        );
    }

    #[test]
    fn module_info() {
        let src = "\"\"\"Doc.\"\"\"\nfrom flask import request as req\nimport flask\nAPI = '/api'\nV2: str = API + '/v2'\nalias = bp\nif x == 1:\n    pass\nN = 3\nitems = ['a']\n\ndef f():\n    LOCAL = '/no'\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let info = ModuleInfo::parse("app/pkg/mod.py", &code, &lines);
        assert_eq!(info.segments, vec!["app", "pkg", "mod"]);
        let names: Vec<_> = info.consts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["API", "V2", "alias"]);
        assert_eq!(
            info.constant("V2").unwrap().value.0[0],
            Piece::Ref("API".into())
        );
        assert!(info.imports_from("flask"));
        assert!(!info.imports_from("fla"));
        assert_eq!(info.names_for("flask", "request"), vec!["req"]);
        assert_eq!(
            info.relative_base(1),
            Some(vec!["app".to_string(), "pkg".to_string()])
        );
        assert_eq!(info.relative_base(2), Some(vec!["app".to_string()]));
        assert_eq!(info.relative_base(4), None);
    }
}
