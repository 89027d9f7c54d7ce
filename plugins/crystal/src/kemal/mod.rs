//! Kemal (`crystal_kemal`).
//!
//! Routes: `get/post/put/patch/delete/options "/path" do |env| … end`
//! (a block is required; `head` too, Kemal's generated HEAD routes for GET
//! are not reported) and `ws "/path" do |socket, env|` (a WebSocket
//! endpoint: GET, protocol `ws`), at the top level of any file or inside
//! modules, methods and conditionals — never in a class body (Lucky
//! actions use the same verbs). Kemal has no prefixes; apps split over
//! several files `require`d from the main one are read file by file, and
//! path constants (`API = "/api/v1"`, `"#{API}/users"`, `API + "/x"`)
//! resolve across all files. `before_*`/`after_*` filters, `error` handlers
//! and `add_context_storage_type` are not routes.
//!
//! Parameters (see `cr::request`): `env.params.query["x"]` query,
//! `env.params.json["x"]` json, `env.params.body["x"]` form,
//! `env.params.url["id"]` path (from the URL),
//! `env.request.headers["X"]` header, `env.request.cookies["c"]` cookie.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;

use crate::cr::call::Val;
use crate::cr::dsl::{collect_consts, endpoint_with, file_nodes, str_value, Body, FileNodes, Node};

pub struct Kemal;

impl Analyzer for Kemal {
    fn tech(&self) -> Tech {
        Tech::new("crystal_kemal", "Crystal", "Kemal")
            .aliases(["kemal", "crystal-kemal"])
            .files(["*.cr"])
            .detect(Detect::files(["shard.yml"]).regex([r"(?m)^\s+kemal:"]))
            .detect(Detect::files(["*.cr"]).regex([r#"require\s+"kemal""#]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let nodes = file_nodes(file, &|c| {
            c.recv.is_empty() && (crate::cr::verb(&c.name).is_some() || c.name == "ws")
        });
        out.fact(&FileNodes {
            path: file.path.clone(),
            nodes,
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileNodes> = facts.all();
        let mut consts = BTreeMap::new();
        for f in &files {
            collect_consts(&f.nodes, "", &mut consts);
        }
        let lookup = |n: &str| consts.get(n.trim_start_matches("::")).cloned();
        let mut out = Vec::new();
        for f in &files {
            routes(&f.nodes, &f.path, &lookup, &mut out);
        }
        Ok(out)
    }
}

fn routes(
    nodes: &[Node],
    path: &str,
    consts: &dyn Fn(&str) -> Option<Val>,
    out: &mut Vec<Endpoint>,
) {
    for n in nodes {
        match n.name() {
            "class" | "struct" => continue,
            name if n.call.recv.is_empty() && n.body.is_some() => {
                let ws = name == "ws";
                let method = if ws {
                    Some("GET")
                } else {
                    crate::cr::verb(name)
                };
                if let (Some(method), Some(url)) =
                    (method, n.call.first().and_then(|v| str_value(v, consts, 0)))
                {
                    if url.starts_with('/') {
                        let reads = n.reads.clone().unwrap_or_default();
                        let mut e = endpoint_with(method, &url, path, n.line, &reads, Body::Json);
                        if ws {
                            e.protocol = "ws".into();
                        }
                        out.push(e);
                        continue;
                    }
                }
                routes(n.children(), path, consts, out);
            }
            _ => routes(n.children(), path, consts, out),
        }
    }
}
