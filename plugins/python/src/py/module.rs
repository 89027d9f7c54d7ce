//! What one Python module exposes to others: its dotted path, its imports
//! and its module-level string constants. Serialisable, so an analyzer can
//! record it as a fact and resolve names across files in `link` (see
//! [`super::project::Project`]).

use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};

use super::lines::LogicalLine;
use super::strexpr::StrExpr;

/// A name bound by an import statement.
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
    pub fn is_star(&self) -> bool {
        self.name.as_deref() == Some("*")
    }

    /// The absolute dotted module of the import when it is not relative.
    pub fn absolute_module(&self) -> Option<&str> {
        (self.level == 0).then_some(self.module.as_str())
    }
}

/// A module-level `NAME = <string expression>` (also `NAME: str = …`). A
/// bare name on the right (`users_bp = bp`) makes an alias.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Const {
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "v")]
    pub value: StrExpr,
}

/// A module's cross-file interface.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleInfo {
    /// Display path of the file.
    pub path: String,
    /// Dotted path segments derived from the file path (`app/api/users.py`
    /// → `["app", "api", "users"]`; a package's `__init__.py` is the
    /// package itself).
    pub segments: Vec<String>,
    pub is_package: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<Import>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Const>,
}

impl ModuleInfo {
    /// Parse a file's imports and module-level constants.
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
    pub fn constant(&self, name: &str) -> Option<&Const> {
        self.consts.iter().rev().find(|c| c.name == name)
    }

    /// The import binding `name`, if any (the last one wins).
    pub fn import(&self, name: &str) -> Option<&Import> {
        self.imports
            .iter()
            .rev()
            .find(|i| i.local == name && !i.is_star())
    }

    /// Does the module import from `package` (`flask`, `fastapi`, …) or a
    /// submodule of it?
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
    pub fn names_for(&self, package: &str, attr: &str) -> Vec<String> {
        self.imports
            .iter()
            .filter(|i| i.level == 0 && i.module == package && i.name.as_deref() == Some(attr))
            .map(|i| i.local.clone())
            .collect()
    }

    /// The package a relative import of `level` dots starts from.
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
/// `.`/`..`/empty segments and `__init__` dropped.
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

/// Parse an `import …` / `from … import …` statement.
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
pub fn assignment_target(code: &Code<'_>, line: &LogicalLine) -> Option<(String, usize)> {
    let text = line.text(code);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() && portolan_plugin_sdk::lex::is_ident_byte(bytes[i]) {
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
    use crate::py::lines::logical_lines;
    use crate::py::strexpr::Piece;
    use portolan_plugin_sdk::Syntax;

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
