//! Registration functions kept in a table and called by key:
//!
//! ```js
//! const mounts = { admin: require('./admin'), users: require('./users') };
//! mounts.tags = (app, name) => { app.get(`/${name}/:tag`, show); };
//! for (const key of Object.keys(config)) {
//!   const name = config[key];          // defaults to the key itself
//!   mounts[key](router, name);
//! }
//! ```
//!
//! Each function of the table receives the router (its parameter becomes
//! a router mounted where the argument is) and, where the call passes the
//! key (`key` itself or a lookup `x[key]` by it), the key as the value of
//! that parameter: the mount name is configurable at run time but defaults
//! to the key, and the key is what the code states.

use std::collections::HashMap;

use portolan_plugin_sdk::Code;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

use crate::js::module::{self, Value};
use crate::js::outline::{object_entries, Outline};
use crate::js::project::{Project, Target};
use crate::js::strexpr::{Piece, StrExpr};
use crate::js::syntax::is_js_ident;

/// `table[key](args…)` with the table's entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchCall {
    /// Keys of the table and what each holds.
    pub entries: Vec<(String, Value)>,
    pub args: Vec<Option<Value>>,
    /// Argument positions passing the key.
    pub keyed: Vec<usize>,
}

use crate::js::pattern::re;

/// The entries of table `name`: its object literal and `name.key = …` /
/// `name['key'] = …` assignments.
fn entries(code: &Code<'_>, outline: &Outline, name: &str) -> Vec<(String, Value)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out: Vec<(String, Value)> = Vec::new();
    if let Some(v) = module::declared_value(code, name, false, usize::MAX) {
        let s = code.skip_ws(v);
        if bytes.get(s) == Some(&b'{') {
            for e in object_entries(code, s) {
                let key = e.key.trim_matches(['\'', '"', '`']).to_string();
                if let Some(v) = module::parse_value(code, outline, e.value.clone()) {
                    out.push((key, v));
                }
            }
        }
    }
    // Assignments at module level.
    let mut from = 0;
    while let Some(k) = text.get(from..).and_then(|t| t.find(name)) {
        let at = from + k;
        from = at + name.len();
        if !outline.is_top(at) || !code.is_code(at) {
            continue;
        }
        if at > 0
            && bytes
                .get(at - 1)
                .is_some_and(|b| is_js_ident(*b) || *b == b'.')
        {
            continue;
        }
        let after = at + name.len();
        let (key, end) = match bytes.get(after) {
            Some(b'.') => {
                let Some(id) = code.ident_at(after + 1) else {
                    continue;
                };
                (id.to_string(), after + 1 + id.len())
            }
            Some(b'[') => {
                let Some((lit, close)) = code.string_at(after + 1).and_then(|s| {
                    let c = code.matching(after)?;
                    Some((s, c))
                }) else {
                    continue;
                };
                (lit.value, close + 1)
            }
            _ => continue,
        };
        let eq = code.skip_ws(end);
        if bytes.get(eq) != Some(&b'=') || bytes.get(eq + 1) == Some(&b'=') {
            continue;
        }
        let full = format!("{name}.{key}");
        if outline.scopes.iter().any(|s| s.name == full) {
            out.push((key, Value::Name(full)));
        }
    }
    out
}

const MAX_TABLES: usize = 8;

/// Dispatch calls of the module.
pub fn scan(code: &Code<'_>, outline: &Outline) -> Vec<DispatchCall> {
    static CALL: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r"([A-Za-z_$][\w$]*)\s*\[\s*([A-Za-z_$][\w$]*)\s*\]\s*\(",
    );
    let text = code.text();
    let mut out = Vec::new();
    let mut tables: HashMap<String, Vec<(String, Value)>> = HashMap::new();
    for c in call.captures_iter(text) {
        let (Some(all), Some(table), Some(key)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let (table, key) = (table.as_str(), key.as_str());
        if table.len() + key.len() > 200 {
            continue;
        }
        // Each table costs a pass over the file: a few per file at most.
        if !tables.contains_key(table) && tables.len() >= MAX_TABLES {
            continue;
        }
        let entries = tables
            .entry(table.to_string())
            .or_insert_with(|| entries(code, outline, table))
            .clone();
        if entries.is_empty() {
            continue;
        }
        let ranges = code.args(all.end() - 1);
        // The enclosing function's text, to find `name = x[key]`.
        let scope = outline
            .scope_at(all.start())
            .map_or(0..all.start(), |s| s.body.start..all.start());
        let before = code.slice(scope);
        let mut keyed = Vec::new();
        for (i, a) in ranges.iter().enumerate() {
            let t = code.slice(a.clone()).trim();
            if t == key {
                keyed.push(i);
                continue;
            }
            if t.is_empty() || !t.bytes().all(is_js_ident) {
                continue;
            }
            let lookup = format!("[{key}]");
            let assigned = before.match_indices(t).any(|(p, _)| {
                let rest = before[p + t.len()..].trim_start();
                let Some(rest) = rest.strip_prefix('=') else {
                    return false;
                };
                let rest = rest.trim_start();
                let id_len = rest.bytes().take_while(|b| is_js_ident(*b)).count();
                id_len > 0 && rest[id_len..].trim_start().starts_with(&lookup)
            });
            if assigned {
                keyed.push(i);
            }
        }
        let args = ranges
            .iter()
            .map(|a| module::parse_value(code, outline, a.clone()))
            .collect();
        out.push(DispatchCall {
            entries,
            args,
            keyed,
        });
    }
    out
}

/// Parameter values bound by dispatch calls: (module, scoped parameter) →
/// keys; and the router parameters to mount: (argument node, parameter).
pub type Bound = HashMap<(usize, String), Vec<String>>;

pub fn link(
    project: &Project<'_>,
    calls: &[&[DispatchCall]],
    mut mount: impl FnMut(usize, &Value, Target),
) -> Bound {
    let mut bound: Bound = HashMap::new();
    for (mi, list) in calls.iter().enumerate() {
        for d in list.iter() {
            for (key, v) in &d.entries {
                let Some((fm, func)) = project.function_of(mi, v) else {
                    continue;
                };
                for (j, arg) in d.args.iter().enumerate() {
                    let Some(p) = func.params.get(j).filter(|p| !p.is_empty()) else {
                        continue;
                    };
                    if d.keyed.contains(&j) {
                        let list = bound.entry((fm, p.clone())).or_default();
                        if !list.contains(key) {
                            list.push(key.clone());
                        }
                    } else if let Some(a @ Value::Name(_)) = arg {
                        mount(mi, a, Target::Node(fm, p.clone()));
                    }
                }
            }
        }
    }
    // A bound parameter passed on (`apiRoutes(app, name)`) binds the
    // callee's parameter too.
    for _ in 0..4 {
        let mut added = false;
        for (mi, m) in project.modules.iter().enumerate() {
            for call in &m.calls {
                let Value::Call { callee, args } = call else {
                    continue;
                };
                let Some((fm, func)) = project.function_of(mi, callee) else {
                    continue;
                };
                for (arg, p) in args.iter().zip(&func.params) {
                    let Some(Value::Name(n)) = arg else { continue };
                    let Some(keys) = bound.get(&(mi, n.clone())).cloned() else {
                        continue;
                    };
                    let list = bound.entry((fm, p.clone())).or_default();
                    for k in keys {
                        if !list.contains(&k) {
                            list.push(k);
                            added = true;
                        }
                    }
                }
            }
        }
        if !added {
            break;
        }
    }
    bound
}

/// Substitute bound parameters in a path expression of module `m` (every
/// combination when a parameter has several keys; at most 16).
pub fn substitute(bound: &Bound, m: usize, e: &StrExpr) -> Vec<StrExpr> {
    let mut out = vec![StrExpr(Vec::new())];
    for p in &e.0 {
        let values: Vec<Piece> = match p {
            Piece::Ref(n) => match bound.get(&(m, n.clone())) {
                Some(keys) => keys.iter().map(|k| Piece::Lit(k.clone())).collect(),
                None => vec![p.clone()],
            },
            Piece::Lit(_) => vec![p.clone()],
        };
        let mut next = Vec::new();
        for prefix in &out {
            for v in &values {
                if next.len() < 16 {
                    let mut x = prefix.clone();
                    x.0.push(v.clone());
                    next.push(x);
                }
            }
        }
        out = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::{SourceFile, Syntax};

    #[test]
    fn finds_dispatch() {
        let src = "const _m = {\n  admin: require('./admin'),\n  'well-known': require('./wk'),\n};\n_m.tags = (app, name, mw) => {\n  app.get(`/${name}/:tag`, h);\n};\nfunction add(router, mounts) {\n  Object.keys(mounts).map(async (mount) => {\n    const original = mount;\n    mount = mounts[original];\n    _m[original](router, mount, mw);\n  });\n}\n";
        let f = SourceFile::new("a.js", src);
        let code = f.code(Syntax::JAVASCRIPT);
        let outline = Outline::new(&code);
        let d = scan(&code, &outline);
        assert_eq!(d.len(), 1, "{d:?}");
        let keys: Vec<&str> = d[0].entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["admin", "well-known", "tags"]);
        assert_eq!(d[0].keyed, vec![1]);
    }
}
