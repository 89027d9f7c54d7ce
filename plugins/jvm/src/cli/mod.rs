//! Command-line programs of the JVM languages as `cli://` endpoints (see
//! docs/cli-surface.md): picocli (`java_cli`, Java and Kotlin sources) and
//! clikt (`kotlin_cli`).

pub mod clikt;
pub mod commons;
pub mod picocli;

pub use clikt::KotlinCli;
pub use picocli::JavaCli;

use portolan_plugin_sdk::cli::{Attach, Command, Fact};
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// A param of a type, or a reference to a type whose params it includes
/// (`@Mixin`, `@ArgGroup`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Item {
    P(Param),
    Include(String),
}

/// A type declaring options or a command (picocli, clikt).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct CliType {
    pub(crate) path: String,
    pub(crate) line: u32,
    pub(crate) name: String,
    /// `Outer$Inner` for a nested type (also a command symbol).
    pub(crate) binary: String,
    pub(crate) command: bool,
    pub(crate) is_abstract: bool,
    /// Its name as a subcommand (`@Command(name)`, clikt's `name =`).
    pub(crate) cmd_name: Option<String>,
    /// Its program name as a root.
    pub(crate) prog: Option<String>,
    pub(crate) items: Vec<Item>,
    pub(crate) supers: Vec<String>,
    /// `subcommands = {…}`: child references (see `picocli::child_ref`).
    pub(crate) subs: Vec<String>,
}

/// The simple type a field holds: `List<Dependent>` → `Dependent`.
pub(crate) fn held_type(ty: &str) -> String {
    ty.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
        .rfind(|s| {
            !s.is_empty()
                && !matches!(
                    *s,
                    "List" | "Set" | "Collection" | "Optional" | "ArrayList" | "MutableList"
                )
        })
        .map(|s| s.rsplit('.').next().unwrap_or(s).to_string())
        .unwrap_or_default()
}

/// Command facts from the types: params with mixins and superclasses
/// expanded, `subcommands` as attachments.
pub(crate) fn expand(types: &[CliType]) -> Vec<Fact> {
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, t) in types.iter().enumerate() {
        by_name.entry(t.name.as_str()).or_default().push(i);
    }
    let find = |name: &str, from: &str| -> Option<usize> {
        let list = by_name.get(name)?;
        list.iter()
            .copied()
            .find(|&i| types[i].path == from)
            .or_else(|| list.first().copied())
    };
    let mixins: HashSet<&str> = types
        .iter()
        .flat_map(|t| t.items.iter())
        .filter_map(|it| match it {
            Item::Include(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for t in types {
        if !t.command || t.is_abstract || mixins.contains(t.name.as_str()) {
            continue;
        }
        let mut params: Vec<Param> = Vec::new();
        let mut seen: HashSet<usize> = HashSet::new();
        collect(types, t, &find, &mut params, &mut seen, 0);
        let mut uniq: Vec<Param> = Vec::new();
        for p in params {
            if !uniq.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                uniq.push(p);
            }
        }
        let name = t.cmd_name.clone().unwrap_or_else(|| t.name.to_lowercase());
        let mut symbols = vec![t.binary.clone()];
        if t.binary != t.name {
            symbols.push(t.name.clone());
        }
        out.push(Fact::Command(Command {
            path: t.path.clone(),
            line: t.line,
            symbols,
            parent: None,
            name: name.clone(),
            prog: t.prog.clone(),
            entry: Vec::new(),
            params: uniq,
            merged: false,
        }));
        for s in &t.subs {
            out.push(Fact::Attach(Attach {
                path: t.path.clone(),
                parent: t.binary.clone(),
                child: s.clone(),
                name: None,
                merged: false,
            }));
        }
    }
    out
}

fn collect(
    types: &[CliType],
    t: &CliType,
    find: &dyn Fn(&str, &str) -> Option<usize>,
    out: &mut Vec<Param>,
    seen: &mut HashSet<usize>,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    for s in &t.supers {
        if let Some(i) = find(s, &t.path) {
            if seen.insert(i) {
                collect(types, &types[i], find, out, seen, depth + 1);
            }
        }
    }
    for it in &t.items {
        match it {
            Item::P(p) => out.push(p.clone()),
            Item::Include(n) => {
                if let Some(i) = find(n.as_str(), &t.path) {
                    if seen.insert(i) {
                        collect(types, &types[i], find, out, seen, depth + 1);
                    }
                }
            }
        }
    }
}
