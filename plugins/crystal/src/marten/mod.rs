//! Marten (`crystal_marten`).
//!
//! Routes: `Marten.routes.draw do … end` (usually `config/routes.cr`) with
//! `path "/articles/<id:int>", ArticleHandler, name: "article"`; a target
//! naming a route map (`path "/blog", Blog::ROUTES`, where `ROUTES =
//! Marten::Routing::Map.draw do … end` in any file, referenced relative to
//! the enclosing module) nests that map under the prefix, recursively.
//! Routes inside conditionals count. `<name:type>` parameters become
//! `:name`.
//!
//! Methods: the `def get/post/put/patch/delete/options/trace` of the
//! handler class or its ancestors in the tree. A handler defining none gets
//! its generic base's methods: `Marten::Handlers::Schema`,
//! `RecordCreate`, `RecordUpdate`, `RecordDelete` → GET and POST; any
//! other base (`Template`, `RecordDetail`, `RecordList`, `Redirect`,
//! `Marten::Handler`) → GET. HEAD (answered by `get`) is not reported.
//!
//! Parameters: what each method (and the helpers it calls) reads:
//! `request.query_params["x"]` query, `request.data["x"]` form,
//! `request.headers["X"]` header, `request.cookies["c"]` cookie
//! (`params["id"]` is the URL). POST/PUT/PATCH of a handler with
//! `schema ArticleSchema` get the schema's `field :name, …` as form fields.

use portolan_plugin_sdk::prelude::*;

use crate::cr::call::Val;
use crate::cr::classes::{collect, def_name, lineage, method_reads, resolve, ClassInfo};
use crate::cr::dsl::{add_reads, const_of, join_url, push_nodes, Body, FileNodes, Node};

pub struct Marten;

const METHODS: [&str; 7] = ["get", "post", "put", "patch", "delete", "options", "trace"];

impl Analyzer for Marten {
    fn tech(&self) -> Tech {
        Tech::new("crystal_marten", "Crystal", "Marten")
            .aliases(["marten", "crystal-marten"])
            .files(["*.cr"])
            .detect(Detect::files(["shard.yml"]).regex([r"(?m)^\s+marten:"]))
            .detect(
                Detect::files(["*.cr"]).regex([r#"require\s+"marten""#, r"Marten\.routes\.draw"]),
            )
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        push_nodes(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileNodes> = facts.all();
        let classes = collect(&files);
        let mut maps = Vec::new();
        let mut roots = Vec::new();
        for f in &files {
            find_maps(&f.nodes, "", &f.path, &mut maps, &mut roots);
        }
        let mut ctx = Ctx {
            classes: &classes,
            maps: &maps,
            out: Vec::new(),
        };
        for root in &roots {
            ctx.map(root, "", 0);
        }
        Ok(ctx.out)
    }
}

/// A route map: `NAME = Marten::Routing::Map.draw do … end` or the root
/// `Marten.routes.draw do … end`.
struct Map<'a> {
    full: String,
    ns: String,
    nodes: &'a [Node],
    path: &'a str,
}

fn find_maps<'a>(
    nodes: &'a [Node],
    ns: &str,
    path: &'a str,
    maps: &mut Vec<Map<'a>>,
    roots: &mut Vec<Map<'a>>,
) {
    for n in nodes {
        match n.name() {
            "class" | "module" => {
                let name = match n.call.args.first() {
                    Some(Val::Const(c)) if ns.is_empty() => c.clone(),
                    Some(Val::Const(c)) => format!("{ns}::{c}"),
                    _ => ns.to_string(),
                };
                find_maps(n.children(), &name, path, maps, roots);
            }
            "const=" if n.body.is_some() => {
                let (Some(Val::Const(name)), Some(Val::Expr(value))) =
                    (n.call.args.first(), n.call.args.get(1))
                else {
                    continue;
                };
                if value.contains("Map") {
                    maps.push(Map {
                        full: if ns.is_empty() {
                            name.clone()
                        } else {
                            format!("{ns}::{name}")
                        },
                        ns: ns.to_string(),
                        nodes: n.children(),
                        path,
                    });
                }
            }
            "draw" if n.call.recv.ends_with("routes") && n.body.is_some() => {
                roots.push(Map {
                    full: String::new(),
                    ns: ns.to_string(),
                    nodes: n.children(),
                    path,
                });
            }
            _ => find_maps(n.children(), ns, path, maps, roots),
        }
    }
}

struct Ctx<'a, 'c> {
    classes: &'a [ClassInfo<'c>],
    maps: &'a [Map<'c>],
    out: Vec<Endpoint>,
}

/// The map a reference written inside `ns` names (see `classes::resolve`).
fn resolve_map<'m, 'c>(maps: &'m [Map<'c>], reference: &str, ns: &str) -> Option<&'m Map<'c>> {
    portolan_plugin_sdk::rubyish::dsl::resolve_const(maps, |m| m.full.as_str(), reference, ns)
}

impl Ctx<'_, '_> {
    fn map(&mut self, map: &Map<'_>, prefix: &str, depth: usize) {
        if depth > 8 {
            return;
        }
        self.paths(map.nodes, map, prefix, depth);
    }

    fn paths(&mut self, nodes: &[Node], map: &Map<'_>, prefix: &str, depth: usize) {
        for n in nodes {
            if n.name() != "path" || !n.call.recv.is_empty() {
                if !matches!(n.name(), "class" | "def") {
                    self.paths(n.children(), map, prefix, depth);
                }
                continue;
            }
            let (Some(Val::Str(p, false)), Some(target)) =
                (n.call.first(), n.call.args.get(1).and_then(const_of))
            else {
                continue;
            };
            let url = join_url(&[prefix, &marten_path(p)]);
            let maps = self.maps;
            if let Some(sub) = resolve_map(maps, &target, &map.ns) {
                self.map(sub, &url, depth + 1);
                continue;
            }
            self.handler(&target, &map.ns, &url, map.path, n.line);
        }
    }

    fn handler(&mut self, target: &str, ns: &str, url: &str, path: &str, line: u32) {
        let Some(class) = resolve(self.classes, target, ns) else {
            self.out.push(Endpoint::new("GET", url).at_path(path, line));
            return;
        };
        let chain = lineage(self.classes, class);
        let mut defined: Vec<&str> = Vec::new();
        for c in crate::cr::classes::ancestors(self.classes, class) {
            for d in crate::cr::classes::defs(self.classes, &c.full) {
                let name = def_name(d);
                if METHODS.contains(&name) && !defined.contains(&name) {
                    defined.push(name);
                }
            }
        }
        let base = chain.last().map(String::as_str).unwrap_or("");
        if defined.is_empty() {
            let generic = base.rsplit("::").next().unwrap_or("");
            defined = if matches!(
                generic,
                "Schema" | "RecordCreate" | "RecordUpdate" | "RecordDelete"
            ) {
                vec!["get", "post"]
            } else {
                vec!["get"]
            };
        }
        let fields = self.schema_fields(class);
        for m in METHODS.iter().filter(|m| defined.contains(m)) {
            let mut e = Endpoint::new(m, url).at_path(path, line);
            if let Some(reads) = method_reads(self.classes, class, m) {
                add_reads(&mut e, &reads, Body::Form);
            }
            if matches!(*m, "post" | "put" | "patch") {
                for f in &fields {
                    e.push_param(Param::form(f));
                }
            }
            self.out.push(e);
        }
    }

    /// `field :name, …` of the schema class named by `schema X` in the
    /// handler or an ancestor.
    fn schema_fields(&self, class: &ClassInfo<'_>) -> Vec<String> {
        let chain = crate::cr::classes::ancestors(self.classes, class);
        let Some((schema, ns)) = chain.iter().find_map(|c| {
            c.node
                .children()
                .iter()
                .find(|n| n.name() == "schema" && n.call.recv.is_empty())
                .and_then(|n| n.call.first().and_then(const_of))
                .map(|s| (s, c.ns.clone()))
        }) else {
            return Vec::new();
        };
        let Some(schema) = resolve(self.classes, &schema, &ns) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for c in crate::cr::classes::ancestors(self.classes, schema) {
            for n in c.node.children().iter().filter(|n| n.name() == "field") {
                if let Some(name) = n.call.first().and_then(Val::text) {
                    if !out.iter().any(|o| o == name) {
                        out.push(name.to_string());
                    }
                }
            }
        }
        out
    }
}

/// `<id:int>` → `:id`.
fn marten_path(p: &str) -> String {
    let mut out = String::new();
    let mut rest = p;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + close];
        let name = inner.split(':').next().unwrap_or(inner);
        out.push(':');
        out.push_str(name);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_parameters() {
        assert_eq!(marten_path("/a/<id:int>/b/<slug:slug>"), "/a/:id/b/:slug");
        assert_eq!(marten_path("/x<"), "/x<");
    }
}
