//! Raw facts for the host's `ai_context` (it computes the buckets; see
//! docs/ai-context.md): the framework guards stacked on a handler
//! (`@login_required`, `@jwt_required()`, `@roles_required('admin')`,
//! `@limiter.limit(…)`, FastAPI `Depends(get_current_user)` /
//! `Security(…)`) and the handler's one-hop callees (calls written in its
//! body, as written, located at the call site). The host drops them unless
//! `--ai-context` is given.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::{AiContext, Code, ContextEntry, SourceFile};
use serde::{Deserialize, Serialize};
use std::ops::Range;

use super::call::call_at;
use super::outline::Def;

/// At most this many callees per handler.
pub const MAX_CALLEES: usize = 10;

/// One guard or callee: kind (`auth_guard`, `authz_guard`,
/// `rate_limit_guard`, `csrf_guard`; `callee`), name as written, line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub kind: String,
    pub name: String,
    pub line: u32,
}

/// What a handler function tells about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<Fact>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callees: Vec<Fact>,
}

impl Handler {
    pub fn is_empty(&self) -> bool {
        self.guards.is_empty() && self.callees.is_empty()
    }

    /// The WIT form, located in `path`.
    pub fn ai_context(&self, path: &str) -> Option<AiContext> {
        if self.is_empty() {
            return None;
        }
        let entry = |f: &Fact, source: &str| ContextEntry {
            kind: f.kind.clone(),
            name: f.name.clone(),
            source: Some(source.to_string()),
            path: Some(path.to_string()),
            line: Some(f.line),
            ..ContextEntry::default()
        };
        Some(AiContext {
            guards: self
                .guards
                .iter()
                .map(|g| {
                    let injected =
                        g.name.starts_with("Depends(") || g.name.starts_with("Security(");
                    entry(g, if injected { "dependency" } else { "decorator" })
                })
                .collect(),
            callees: self.callees.iter().map(|c| entry(c, "callee")).collect(),
            ..AiContext::default()
        })
    }

    /// Add a guard unless one with the same kind and name is known.
    pub fn guard(&mut self, kind: &str, name: &str, line: u32) {
        if !self.guards.iter().any(|g| g.kind == kind && g.name == name) {
            self.guards.push(Fact {
                kind: kind.into(),
                name: name.into(),
                line,
            });
        }
    }
}

/// The guard kind a decorator or dependency name stands for.
pub use portolan_plugin_sdk::guard::kind as guard_kind;

/// Calls that say nothing about what a handler does.
const BORING: &[&str] = &[
    "if",
    "elif",
    "while",
    "for",
    "return",
    "not",
    "and",
    "or",
    "in",
    "is",
    "yield",
    "await",
    "print",
    "len",
    "str",
    "int",
    "float",
    "bool",
    "dict",
    "list",
    "set",
    "tuple",
    "isinstance",
    "range",
    "enumerate",
    "zip",
    "super",
    "getattr",
    "hasattr",
    "setattr",
    "min",
    "max",
    "sorted",
    "any",
    "all",
    "sum",
    "repr",
    "type",
    "lambda",
    "assert",
    "del",
    "with",
    "except",
    "raise",
];

/// Guards among the decorators of `def`, and its one-hop callees.
pub fn handler(file: &SourceFile, code: &Code<'_>, def: &Def) -> Handler {
    let mut h = Handler::default();
    for deco in &def.decorators {
        if let Some(kind) = guard_kind(&deco.name) {
            let end = deco
                .call
                .as_ref()
                .map_or(deco.at + 1 + deco.name.len(), |c| c.close + 1);
            let name = code.slice(deco.at + 1..end.min(code.text().len()));
            h.guard(kind, name, file.line_of(deco.at));
        }
    }
    if let Some(open) = def.open_paren {
        if let Some(close) = code.matching(open) {
            dependencies(file, code, open..close, &mut h);
        }
    }
    h.callees = callees(file, code, def.body.clone());
    h
}

/// `Depends(x)` / `Security(x)` in a range (a signature or a
/// `dependencies=[…]` list) that name a guard.
pub fn dependencies(file: &SourceFile, code: &Code<'_>, range: Range<usize>, h: &mut Handler) {
    // Only the range is searched: a handler with many decorators, each
    // calling this, must not scan the whole file each time.
    let text = code.text().get(range.clone()).unwrap_or("");
    for marker in ["Depends(", "Security("] {
        let found = text.match_indices(marker).map(|(k, _)| range.start + k);
        for at in found.filter(|at| code.is_code(*at)) {
            if at > 0 && is_ident_byte(code.text().as_bytes()[at - 1]) {
                continue;
            }
            let Some(call) = call_at(code, at) else {
                continue;
            };
            let Some(arg) = call.positional(0).or_else(|| call.keyword("dependency")) else {
                continue;
            };
            let dep = code.slice(arg).trim();
            let kind = guard_kind(dep).or((marker == "Security(").then_some("auth_guard"));
            if let Some(kind) = kind {
                let text = code.slice(call.start..call.close + 1);
                h.guard(kind, text, file.line_of(call.start));
            }
        }
    }
}

/// Calls written in a body, in order, deduplicated by name, at most
/// [`MAX_CALLEES`]; reads of `request` and builtins are left out.
pub fn callees(file: &SourceFile, code: &Code<'_>, body: Range<usize>) -> Vec<Fact> {
    let bytes = code.text().as_bytes();
    let mut out: Vec<Fact> = Vec::new();
    let mut i = body.start;
    while i < body.end.min(bytes.len()) && out.len() < MAX_CALLEES {
        let starts = is_ident_byte(bytes[i])
            && !bytes[i].is_ascii_digit()
            && (i == 0 || !(is_ident_byte(bytes[i - 1]) || bytes[i - 1] == b'.'))
            && code.is_code(i);
        if !starts {
            i += 1;
            continue;
        }
        match call_at(code, i).filter(|c| c.close <= body.end) {
            Some(call) => {
                let first = call.callee.split('.').next().unwrap_or("");
                let boring = BORING.contains(&call.callee.as_str()) || first == "request";
                if !boring && !out.iter().any(|f| f.name == call.callee) {
                    out.push(Fact {
                        kind: "callee".into(),
                        name: call.callee.clone(),
                        line: file.line_of(call.start),
                    });
                }
                // Calls in the arguments are one hop too.
                i = call.open + 1;
            }
            None => {
                while i < bytes.len() && (is_ident_byte(bytes[i]) || bytes[i] == b'.') {
                    i += 1;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::lines::logical_lines;
    use crate::py::outline::outline;

    #[test]
    fn guards_and_callees_of_a_handler() {
        let src = "@bp.route('/x', methods=['POST'])\n@login_required\n@roles_required('admin')\n@limiter.limit('5/minute')\ndef x(user=Depends(get_current_user)):\n    # audit(x)\n    q = request.args.get('q')\n    rows = db.session.execute(text('select 1'), {'q': q})\n    log('x')\n    return jsonify(serialize(rows))\n";
        let file = SourceFile::new("app/x.py", src);
        let code = file.python();
        let lines = logical_lines(&code);
        let defs = outline(&code, &lines);
        let h = handler(&file, &code, &defs[0]);
        let guards: Vec<(&str, &str, u32)> = h
            .guards
            .iter()
            .map(|g| (g.kind.as_str(), g.name.as_str(), g.line))
            .collect();
        assert_eq!(
            guards,
            vec![
                ("auth_guard", "login_required", 2),
                ("authz_guard", "roles_required('admin')", 3),
                ("rate_limit_guard", "limiter.limit('5/minute')", 4),
                ("auth_guard", "Depends(get_current_user)", 5),
            ]
        );
        let callees: Vec<(&str, u32)> = h
            .callees
            .iter()
            .map(|c| (c.name.as_str(), c.line))
            .collect();
        assert_eq!(
            callees,
            vec![
                ("db.session.execute", 8),
                ("text", 8),
                ("log", 9),
                ("jsonify", 10),
                ("serialize", 10)
            ]
        );
    }

    #[test]
    fn guard_names() {
        assert_eq!(guard_kind("flask_login.login_required"), Some("auth_guard"));
        assert_eq!(guard_kind("jwt_required"), Some("auth_guard"));
        assert_eq!(guard_kind("permission_required"), Some("authz_guard"));
        assert_eq!(guard_kind("csrf.exempt"), None);
        assert_eq!(guard_kind("cache.cached"), None);
        assert_eq!(guard_kind("get_db"), None);
    }
}
