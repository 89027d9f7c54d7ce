//! Grip (`crystal_grip`).
//!
//! Routes: in the application class (`class Application <
//! Grip::Application`, usually its `initialize`/`routes` method):
//! `get/post/put/patch/delete/options/head "/path", Controller` (with
//! `as: :action` naming the controller method; the verb's own method
//! otherwise), `ws "/path", Controller` (GET, protocol `ws`), nested
//! `scope "/api" do … end` prefixes; `pipe_through :api` only selects
//! middleware. Path constants resolve across files.
//!
//! Parameters: what the controller method (and the helpers it calls)
//! reads: `context.fetch_query_params["x"]` query,
//! `context.fetch_json_params["x"]` json, `context.fetch_body_params["x"]`
//! form, `context.fetch_path_params["id"]` path (from the URL),
//! `context.request.headers["X"]` headers, `context.request.cookies["c"]`
//! cookies.

use portolan_plugin_sdk::prelude::*;

use crate::cr::call::Val;
use crate::cr::classes::{collect, method_reads, resolve, ClassInfo};
use crate::cr::dsl::{
    add_reads, const_of, consts_of, join_url, push_nodes, str_value, Body, FileNodes, Node,
};

pub struct Grip;

impl Analyzer for Grip {
    fn tech(&self) -> Tech {
        Tech::new("crystal_grip", "Crystal", "Grip")
            .aliases(["grip", "crystal-grip"])
            .files(["*.cr"])
            .detect(Detect::files(["shard.yml"]).regex([r"(?m)^\s+grip:"]))
            .detect(
                Detect::files(["*.cr"]).regex([r#"require\s+"grip""#, r"<\s*Grip::Application\b"]),
            )
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path)
            || !file.content.contains("class ") && !file.content.contains(" = ")
        {
            return;
        }
        push_nodes(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileNodes> = facts.all();
        let consts = consts_of(files.iter().map(|f| f.nodes.as_slice()));
        let lookup = |n: &str| consts.get(n.trim_start_matches("::")).cloned();
        let classes = collect(&files);
        let mut out = Vec::new();
        for app in classes.iter().filter(|c| {
            crate::cr::classes::lineage(&classes, c)
                .iter()
                .any(|s| s == "Grip::Application")
        }) {
            for d in app.node.children().iter().filter(|n| n.name() == "def") {
                let mut ctx = Ctx {
                    path: app.path,
                    ns: &app.ns,
                    consts: &lookup,
                    classes: &classes,
                    out: &mut out,
                };
                ctx.scan(d.children(), "", 0);
            }
        }
        Ok(out)
    }
}

struct Ctx<'a, 'c> {
    path: &'a str,
    ns: &'a str,
    consts: &'a dyn Fn(&str) -> Option<Val>,
    classes: &'a [ClassInfo<'c>],
    out: &'a mut Vec<Endpoint>,
}

impl Ctx<'_, '_> {
    fn scan(&mut self, nodes: &[Node], prefix: &str, depth: usize) {
        if depth > 16 {
            return;
        }
        for n in nodes {
            if !n.call.recv.is_empty() {
                continue;
            }
            let path = n.call.first().and_then(|v| str_value(v, self.consts, 0));
            match (n.name(), path) {
                ("scope", Some(p)) if n.body.is_some() => {
                    let inner = join_url(&[prefix, &p]);
                    self.scan(n.children(), &inner, depth + 1);
                }
                (name, Some(p)) => {
                    let ws = name == "ws";
                    let Some(method) = (if ws {
                        Some("GET")
                    } else {
                        crate::cr::verb(name)
                    }) else {
                        continue;
                    };
                    let url = join_url(&[prefix, &p]);
                    let mut e = Endpoint::new(method, url).at_path(self.path, n.line);
                    let controller = n.call.args.get(1).and_then(const_of);
                    let action = n
                        .call
                        .opt("as")
                        .and_then(Val::text)
                        .map(str::to_string)
                        .unwrap_or_else(|| name.to_string());
                    if let Some(class) = controller.and_then(|c| resolve(self.classes, &c, self.ns))
                    {
                        if let Some(reads) = method_reads(self.classes, class, &action) {
                            add_reads(&mut e, &reads, Body::Json);
                        }
                    }
                    if ws {
                        e.protocol = "ws".into();
                    }
                    self.out.push(e);
                }
                _ => self.scan(n.children(), prefix, depth + 1),
            }
        }
    }
}
