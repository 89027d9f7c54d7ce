//! Classes and modules of a set of [`FileNodes`], with name resolution.

use super::call::Val;
use super::dsl::{FileNodes, Node};

#[derive(Clone, Debug)]
pub struct ClassInfo<'a> {
    /// Fully qualified name (`Api::V1::Users`).
    pub full: String,
    /// Superclass as written (`Sinatra::Base`, `Base`), empty if none.
    pub superclass: String,
    /// Enclosing namespace (`Api::V1`).
    pub namespace: String,
    pub is_module: bool,
    pub body: &'a [Node],
    pub file: &'a str,
    pub line: u32,
}

/// Every class and module, outermost first.
pub fn collect<'a>(files: &[&'a FileNodes]) -> Vec<ClassInfo<'a>> {
    let mut out = Vec::new();
    for f in files {
        visit(&f.nodes, "", &f.path, &mut out);
    }
    out
}

fn visit<'a>(nodes: &'a [Node], ns: &str, file: &'a str, out: &mut Vec<ClassInfo<'a>>) {
    for n in nodes {
        match n.name() {
            kw @ ("class" | "module") => {
                let Some(Val::Const(name)) = n.call.args.first() else {
                    continue;
                };
                let full = if ns.is_empty() {
                    name.clone()
                } else {
                    format!("{ns}::{name}")
                };
                let superclass = match n.call.args.get(1) {
                    Some(Val::Const(s)) => s.clone(),
                    _ => String::new(),
                };
                out.push(ClassInfo {
                    full: full.clone(),
                    superclass,
                    namespace: ns.to_string(),
                    is_module: kw == "module",
                    body: n.children(),
                    file,
                    line: n.line,
                });
                visit(n.children(), &full, file, out);
            }
            "def" => {}
            _ => visit(n.children(), ns, file, out),
        }
    }
}

/// Resolve a constant written inside `namespace` to a known class: the
/// innermost `namespace::name` that exists, else any class whose name ends
/// with `::name`.
pub fn resolve<'c, 'a>(
    classes: &'c [ClassInfo<'a>],
    namespace: &str,
    name: &str,
) -> Option<&'c ClassInfo<'a>> {
    portolan_plugin_sdk::rubyish::dsl::resolve_const(classes, |c| c.full.as_str(), name, namespace)
}

/// Does `class` descend (through known classes) from one of `roots`
/// (written like `Sinatra::Base`)?
pub fn descends_from(classes: &[ClassInfo<'_>], class: &ClassInfo<'_>, roots: &[&str]) -> bool {
    let mut cur = class;
    for _ in 0..16 {
        let sup = cur.superclass.trim_start_matches("::");
        if sup.is_empty() {
            return false;
        }
        if roots.contains(&sup) {
            return true;
        }
        match resolve(classes, &cur.namespace, sup) {
            Some(next) if next.full != cur.full => cur = next,
            _ => return false,
        }
    }
    false
}

/// All the classes (the same name may be reopened in several files).
pub fn all_named<'c, 'a>(classes: &'c [ClassInfo<'a>], full: &str) -> Vec<&'c ClassInfo<'a>> {
    classes.iter().filter(|c| c.full == full).collect()
}
