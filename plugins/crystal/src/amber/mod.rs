//! Amber (`crystal_amber`).
//!
//! Routes (usually `config/routes.cr`): inside `routes :scope do` /
//! `routes :scope, "/prefix" do` blocks (the prefix applies), `get/post/
//! put/patch/delete/options/head/trace/connect "/path", Controller,
//! :action`, `resources "/posts", PostController` with `only:`/`except:`
//! (index GET, new GET `/new`, create POST, show GET `/:id`, edit GET
//! `/:id/edit`, update PATCH and PUT `/:id`, destroy DELETE `/:id`), and
//! `websocket "/chat", ChatSocket` (GET, protocol `ws`). Routes to
//! `Amber::Controller::Static` (the static-file pipeline) are not
//! endpoints. Path constants resolve across files.
//!
//! Parameters: what the controller's action method reads (and the helper
//! methods it calls, inherited ones included): `params[:x]` /
//! `params["x"]` and `params.validation { required(:x); optional(:y) }`
//! are query parameters on GET/HEAD/DELETE/OPTIONS and form fields
//! otherwise, `request.headers["X"]` headers, `cookies["c"]` cookies.

use portolan_plugin_sdk::prelude::*;

use crate::cr::call::Val;
use crate::cr::classes::{collect, method_reads, resolve, ClassInfo};
use crate::cr::dsl::{
    add_reads, const_of, consts_of, join_url, push_nodes, str_value, Body, FileNodes, Node,
};

pub struct Amber;

const VERBS: [(&str, &str); 9] = [
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("head", "HEAD"),
    ("trace", "TRACE"),
    ("connect", "CONNECT"),
];

/// `resources` actions: (action, methods, suffix).
const RESOURCE_ACTIONS: [(&str, &[&str], &str); 7] = [
    ("index", &["GET"], ""),
    ("new", &["GET"], "/new"),
    ("create", &["POST"], ""),
    ("show", &["GET"], "/:id"),
    ("edit", &["GET"], "/:id/edit"),
    ("update", &["PATCH", "PUT"], "/:id"),
    ("destroy", &["DELETE"], "/:id"),
];

impl Analyzer for Amber {
    fn tech(&self) -> Tech {
        Tech::new("crystal_amber", "Crystal", "Amber")
            .aliases(["amber", "crystal-amber"])
            .files(["*.cr"])
            .detect(Detect::files(["shard.yml"]).regex([r"(?m)^\s+amber:"]))
            .detect(
                Detect::files(["*.cr"])
                    .regex([r#"require\s+"amber""#, r"Amber::Server\.configure"]),
            )
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let c = &file.content;
        if !(c.contains("routes") || c.contains("class ") || c.contains(" = ")) {
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
        for f in &files {
            let mut ctx = Ctx {
                path: &f.path,
                consts: &lookup,
                classes: &classes,
                out: &mut out,
            };
            ctx.scan(&f.nodes, None);
        }
        Ok(out)
    }
}

struct Ctx<'a, 'c> {
    path: &'a str,
    consts: &'a dyn Fn(&str) -> Option<Val>,
    classes: &'a [ClassInfo<'c>],
    out: &'a mut Vec<Endpoint>,
}

impl Ctx<'_, '_> {
    fn text(&self, v: Option<&Val>) -> Option<String> {
        str_value(v?, self.consts, 0)
    }

    /// `prefix` is `Some` inside a `routes` block.
    fn scan(&mut self, nodes: &[Node], prefix: Option<&str>) {
        for n in nodes {
            match (n.name(), prefix) {
                ("class" | "def", _) => {}
                ("routes", None) if n.call.recv.is_empty() && n.body.is_some() => {
                    let p = self.text(n.call.args.get(1)).unwrap_or_default();
                    self.scan(n.children(), Some(&p));
                }
                (_, Some(p)) if n.call.recv.is_empty() => self.route(n, p),
                _ => self.scan(n.children(), prefix),
            }
        }
    }

    fn route(&mut self, n: &Node, prefix: &str) {
        let Some(path) = self.text(n.call.first()) else {
            return;
        };
        let controller = n.call.args.get(1).and_then(const_of).unwrap_or_default();
        if controller.starts_with("Amber::Controller::Static") {
            return;
        }
        let url = join_url(&[prefix, &path]);
        let name = n.name();
        if name == "websocket" {
            self.out
                .push(Endpoint::websocket(url).at_path(self.path, n.line));
            return;
        }
        if let Some((_, m)) = VERBS.iter().find(|(v, _)| *v == name) {
            let action = n.call.args.get(2).and_then(Val::text).unwrap_or("");
            self.push(m, url, &controller, action, n.line);
            return;
        }
        if name == "resources" {
            let only = n.call.opt("only").map(Val::words);
            let except = n.call.opt("except").map(Val::words).unwrap_or_default();
            for (action, methods, suffix) in RESOURCE_ACTIONS {
                let wanted = only.as_ref().is_none_or(|o| o.iter().any(|a| a == action))
                    && !except.iter().any(|a| a == action);
                if !wanted {
                    continue;
                }
                for m in methods {
                    self.push(m, format!("{url}{suffix}"), &controller, action, n.line);
                }
            }
        }
    }

    fn push(&mut self, method: &str, url: String, controller: &str, action: &str, line: u32) {
        let mut e = Endpoint::new(method, url).at_path(self.path, line);
        if let Some(class) = resolve(self.classes, controller, "") {
            if let Some(reads) = method_reads(self.classes, class, action) {
                add_reads(&mut e, &reads, Body::Form);
            }
        }
        self.out.push(e);
    }
}
