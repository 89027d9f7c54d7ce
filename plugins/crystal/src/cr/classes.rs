//! Classes across files: full names (`Api::Users::Index`), superclasses
//! resolved by name, ancestor chains, and the `def`s of a class.

use super::call::Val;
use super::dsl::{FileNodes, Node};
use super::request::Reads;
use portolan_plugin_sdk::rubyish::dsl::resolve_const;

#[derive(Clone, Debug)]
pub struct ClassInfo<'a> {
    /// Full name including the enclosing modules/classes.
    pub full: String,
    /// The enclosing namespace (`Api::Users`), for relative references.
    pub ns: String,
    /// The superclass as written (`""` if none).
    pub sup: String,
    pub node: &'a Node,
    pub path: &'a str,
}

/// Every class (and struct) of the files.
pub fn collect(files: &[FileNodes]) -> Vec<ClassInfo<'_>> {
    fn go<'a>(nodes: &'a [Node], ns: &str, path: &'a str, out: &mut Vec<ClassInfo<'a>>) {
        for n in nodes {
            match n.name() {
                "class" | "module" => {
                    let Some(Val::Const(name)) = n.call.args.first() else {
                        continue;
                    };
                    let name = name.trim_start_matches("::");
                    let full = if ns.is_empty() {
                        name.to_string()
                    } else {
                        format!("{ns}::{name}")
                    };
                    if n.name() == "class" {
                        let sup = match n.call.args.get(1) {
                            Some(Val::Const(c)) => c.clone(),
                            _ => String::new(),
                        };
                        out.push(ClassInfo {
                            full: full.clone(),
                            ns: ns.to_string(),
                            sup,
                            node: n,
                            path,
                        });
                    }
                    go(n.children(), &full, path, out);
                }
                "def" => {}
                _ => go(n.children(), ns, path, out),
            }
        }
    }
    let mut out = Vec::new();
    for f in files {
        go(&f.nodes, "", &f.path, &mut out);
    }
    out
}

/// The class a reference written inside `ns` names: `ns::R`, then the
/// enclosing namespaces, then any class whose name ends with `::R`.
pub fn resolve<'c, 'a>(
    classes: &'c [ClassInfo<'a>],
    reference: &str,
    ns: &str,
) -> Option<&'c ClassInfo<'a>> {
    if reference.trim_start_matches("::").is_empty() {
        return None;
    }
    resolve_const(classes, |c| c.full.as_str(), reference, ns)
}

/// The class followed by its ancestors found in the tree (cycles cut).
pub fn ancestors<'c, 'a>(
    classes: &'c [ClassInfo<'a>],
    class: &'c ClassInfo<'a>,
) -> Vec<&'c ClassInfo<'a>> {
    let mut out = vec![class];
    let mut cur = class;
    while let Some(sup) = resolve(classes, &cur.sup, &cur.ns) {
        if out.iter().any(|c| c.full == sup.full) || out.len() > 16 {
            break;
        }
        out.push(sup);
        cur = sup;
    }
    out
}

/// The superclass names of the chain as written, the class's own first,
/// ending with the first one outside the tree (`Marten::Handler`).
pub fn lineage(classes: &[ClassInfo<'_>], class: &ClassInfo<'_>) -> Vec<String> {
    let chain = ancestors(classes, class);
    let mut out: Vec<String> = chain.iter().map(|c| c.full.clone()).collect();
    if let Some(last) = chain.last() {
        if !last.sup.is_empty() {
            out.push(last.sup.trim_start_matches("::").to_string());
        }
    }
    out
}

/// The `def name` nodes of every reopening of the class `full`.
pub fn defs<'a>(classes: &[ClassInfo<'a>], full: &str) -> Vec<&'a Node> {
    classes
        .iter()
        .filter(|c| c.full == full)
        .flat_map(|c| c.node.children().iter().filter(|n| n.name() == "def"))
        .collect()
}

/// What the method `name` of `class` (or of the nearest ancestor defining
/// it) reads, with the reads of the class's methods it calls, transitively.
pub fn method_reads(classes: &[ClassInfo<'_>], class: &ClassInfo<'_>, name: &str) -> Option<Reads> {
    let chain = ancestors(classes, class);
    let find = |m: &str| {
        chain.iter().find_map(|c| {
            defs(classes, &c.full)
                .into_iter()
                .find(|d| def_name(d) == m)
        })
    };
    let first = find(name)?;
    let mut out = Reads::default();
    let mut seen = vec![name.to_string()];
    let mut queue = vec![first];
    while let Some(d) = queue.pop() {
        let Some(r) = &d.reads else { continue };
        out.merge(r);
        for c in &r.calls {
            if seen.len() < 32 && !seen.contains(c) {
                seen.push(c.clone());
                if let Some(h) = find(c) {
                    queue.push(h);
                }
            }
        }
    }
    Some(out)
}

/// A `def`'s name.
pub fn def_name(n: &Node) -> &str {
    n.call.args.first().and_then(Val::text).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cr::dsl::file_nodes;
    use portolan_plugin_sdk::SourceFile;

    #[test]
    fn resolution_and_ancestors() {
        let a = SourceFile::new("a.cr", "abstract class ApiAction < Lucky::Action\nend\nmodule Api\n  class Base < ::ApiAction\n  end\n  module Users\n    class Index < Base\n      def call; end\n    end\n  end\nend\n");
        let files = vec![FileNodes {
            path: "a.cr".into(),
            nodes: file_nodes(&a, &|_| false),
        }];
        let classes = collect(&files);
        let names: Vec<&str> = classes.iter().map(|c| c.full.as_str()).collect();
        assert_eq!(names, ["ApiAction", "Api::Base", "Api::Users::Index"]);
        let index = &classes[2];
        assert_eq!(
            lineage(&classes, index),
            [
                "Api::Users::Index",
                "Api::Base",
                "ApiAction",
                "Lucky::Action"
            ]
        );
        assert_eq!(defs(&classes, "Api::Users::Index").len(), 1);
    }
}
