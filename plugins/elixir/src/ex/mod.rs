//! Reusable Elixir helpers: tokens, the statement/block tree, modules
//! and functions, and the request values a body reads.

pub mod openapi;
pub mod reads;
pub mod tokens;
pub mod tree;

use tokens::{Kind, Token};
use tree::Node;

/// `Phoenix.Naming.resource_name(MyAppWeb.UserProfileController,
/// "Controller")`: `user_profile`.
pub fn resource_name(alias: &str) -> String {
    let last = alias.rsplit('.').next().unwrap_or(alias);
    let last = last.strip_suffix("Controller").unwrap_or(last);
    portolan_plugin_sdk::text::camel_to_snake(last)
}

/// Modules of a file: (full name, node), nested ones joined (`A.B`).
pub fn modules<'a>(
    t: &[Token],
    nodes: &'a [Node],
    parent: &str,
    out: &mut Vec<(String, &'a Node)>,
) {
    for n in nodes {
        if n.name == "defmodule" {
            let Some(alias) = t.get(n.args.start).filter(|x| x.kind == Kind::Alias) else {
                continue;
            };
            let name = if parent.is_empty() {
                alias.text.clone()
            } else {
                format!("{parent}.{}", alias.text)
            };
            out.push((name.clone(), n));
            modules(t, &n.children, &name, out);
        }
    }
}

/// `use X` / `use X, :router` statements of a module: the used aliases
/// and atoms.
pub fn uses(t: &[Token], module: &Node) -> Vec<String> {
    let mut out = Vec::new();
    for n in &module.children {
        if n.name == "use" {
            for tok in &t[n.args.clone()] {
                if matches!(tok.kind, Kind::Alias | Kind::Atom) {
                    out.push(tok.text.clone());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_names() {
        assert_eq!(
            resource_name("MyAppWeb.UserProfileController"),
            "user_profile"
        );
        assert_eq!(resource_name("PostController"), "post");
    }
}
