//! Roda (`ruby_roda`).
//!
//! The routing tree of `route do |r| … end` in a `class App < Roda` builds
//! the paths: `r.on` (prefix) and `r.is` (terminal) take matchers; string
//! matchers add their text (`"api/v1"` too, constants and `#{CONST}`
//! resolved), `Integer`/`String`/regexp/symbol matchers add a placeholder
//! named after the block parameter that receives the capture
//! (`r.is "users", Integer do |id|` → `/users/:id`); `r.get`/`r.post`/
//! `r.put`/`r.patch`/`r.delete`/`r.options`/`r.head` with matchers are
//! terminal, without them they answer at the current path; `r.root` is GET
//! at the current path; an `r.is` with no verb inside answers GET (Roda
//! matches any method there; GET is what a browser sends).
//!
//! Composition: `hash_branch("users") do |r|` / `hash_branch("/api",
//! "users")` blocks (hash_branches plugin, any file) are dispatched by
//! `r.hash_branches` (namespace = the path matched so far, or its
//! argument); `hash_routes.on "users" do |r|` by `r.hash_routes`;
//! `route("users") do |r|` (multi_route) by `r.multi_route`; `r.run
//! OtherApp` serves another Roda app under the current path. Rack mounts
//! (`config.ru`) prefix an app; an app mounted nowhere is served at `/`.
//!
//! Parameters: the reads of the answering block: `r.params['x']`,
//! `request.params`, `typecast_params.int('x')` (query on
//! GET/HEAD/DELETE/OPTIONS, form otherwise), `r.GET`/`r.POST`,
//! `JSON.parse(r.body.read)['x']` (json), `r.env['HTTP_X']` /
//! `env['HTTP_X']` / `r.get_header('HTTP_X')` (headers), `r.cookies['c']`.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;

use crate::rb::call::Val;
use crate::rb::classes::{self, ClassInfo};
use crate::rb::dsl::{
    collect_consts, const_of, endpoint_with, file_nodes, join_url, str_value, Body, FileNodes, Node,
};
use crate::rb::rack;
use crate::rb::request::{Options, Reads};

pub struct Roda;

use portolan_plugin_sdk::rubyish::dsl::VERBS;

const OPTIONS: Options = Options {
    bare_headers: false,
    bare_env: true,
    index_headers: false,
    receivers: &["r", "req"],
};

impl Analyzer for Roda {
    fn tech(&self) -> Tech {
        Tech::new("ruby_roda", "Ruby", "Roda")
            .aliases(["roda", "ruby-roda"])
            .files(["*.rb", "*.ru"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"]).regex([r#"^\s*gem\s*\(?\s*["']roda["']"#]),
            )
            .detect(Detect::files(["*.rb", "*.ru"]).regex([r"<\s*Roda\b", r"Roda\.route\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let path = file.slash_path();
        let c = &file.content;
        if !(rack::is_mount_file(&path, c)
            || c.contains("Roda")
            || c.contains("hash_branch")
            || c.contains("hash_routes")
            || c.contains("route"))
        {
            return;
        }
        let nodes = file_nodes(file, OPTIONS, &|call| {
            !call.recv.is_empty()
                && (VERBS.iter().any(|(v, _)| *v == call.name)
                    || matches!(call.name.as_str(), "is" | "root"))
        });
        out.fact(&FileNodes {
            path: file.path.clone(),
            nodes,
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileNodes> = facts.all();
        Ok(link(&files))
    }
}

/// A named branch: `hash_branch`, `hash_routes.on`, multi_route `route`.
struct Branch<'a> {
    kind: &'static str,
    namespace: String,
    segment: String,
    node: &'a Node,
    file: &'a str,
}

struct World<'a> {
    consts: BTreeMap<String, Val>,
    classes: Vec<ClassInfo<'a>>,
    apps: Vec<String>,
    branches: Vec<Branch<'a>>,
    out: Vec<Endpoint>,
    depth: usize,
}

fn link(files: &[FileNodes]) -> Vec<Endpoint> {
    let refs: Vec<&FileNodes> = files.iter().collect();
    let mut consts = BTreeMap::new();
    for f in &refs {
        collect_consts(&f.nodes, "", &mut consts);
    }
    let classes = classes::collect(&refs);
    let mut apps: Vec<String> = Vec::new();
    for c in &classes {
        if !c.is_module && classes::descends_from(&classes, c, &["Roda"]) && !apps.contains(&c.full)
        {
            apps.push(c.full.clone());
        }
    }
    let mounts = rack::mounts(&refs, &consts);
    let mut w = World {
        consts,
        classes,
        apps: apps.clone(),
        branches: Vec::new(),
        out: Vec::new(),
        depth: 0,
    };
    for f in &refs {
        w.collect_branches(&f.nodes, &f.path);
    }
    // Apps served by another app's `r.run`.
    let mut run_by_app: Vec<String> = Vec::new();
    for f in &refs {
        find_runs(&f.nodes, &mut run_by_app);
    }
    for app in &apps {
        let mut prefixes = rack::prefixes_of(&mounts, app);
        if prefixes.is_empty() {
            if run_by_app
                .iter()
                .any(|t| crate::rb::dsl::const_matches(t, app))
            {
                continue;
            }
            prefixes.push("/".into());
        }
        for p in prefixes {
            w.app(app, &p);
        }
    }
    w.out
}

fn find_runs(nodes: &[Node], out: &mut Vec<String>) {
    for n in nodes {
        if n.name() == "run" && !n.call.recv.is_empty() {
            if let Some(t) = n.call.first().and_then(const_of) {
                out.push(t);
            }
        }
        find_runs(n.children(), out);
    }
}

impl<'a> World<'a> {
    fn str_of(&self, v: &Val) -> Option<String> {
        str_value(v, &|n| self.consts.get(n).cloned(), 0)
    }

    fn collect_branches(&mut self, nodes: &'a [Node], file: &'a str) {
        for n in nodes {
            let c = &n.call;
            let kind = match (c.recv.as_str(), c.name.as_str()) {
                ("", "hash_branch") => Some("hash_branches"),
                ("hash_routes", "on") | ("hash_routes", "is") => Some("hash_routes"),
                ("", "route") if c.first().is_some() => Some("multi_route"),
                _ => None,
            };
            if let (Some(kind), true) = (kind, n.body.is_some()) {
                let args: Vec<String> = c
                    .args
                    .iter()
                    .filter(|a| !matches!(a, Val::Hash(_)))
                    .filter_map(|a| self.str_of(a))
                    .collect();
                let (namespace, segment) = match (kind, args.as_slice()) {
                    ("multi_route", [seg, ns, ..]) => (ns.clone(), seg.clone()),
                    (_, [ns, seg, ..]) => (ns.clone(), seg.clone()),
                    (_, [seg]) => (String::new(), seg.clone()),
                    _ => continue,
                };
                self.branches.push(Branch {
                    kind,
                    namespace: namespace.trim_end_matches('/').to_string(),
                    segment,
                    node: n,
                    file,
                });
                continue;
            }
            self.collect_branches(n.children(), file);
        }
    }

    fn app(&mut self, full: &str, prefix: &str) {
        if self.depth > 8 {
            return;
        }
        self.depth += 1;
        let bodies: Vec<(&'a [Node], &'a str)> = classes::all_named(&self.classes, full)
            .iter()
            .map(|c| (c.body, c.file))
            .collect();
        for (body, file) in bodies {
            for n in body {
                if n.name() == "route" && n.call.recv.is_empty() && n.call.first().is_none() {
                    let r = n
                        .block_params
                        .first()
                        .cloned()
                        .unwrap_or_else(|| "r".into());
                    self.tree(n.children(), &r, prefix, "", file);
                }
            }
        }
        self.depth -= 1;
    }

    /// Matchers → (path segments, number of captures).
    fn matchers(&self, args: &[Val], params: &[String], used: &mut usize) -> Option<String> {
        let mut segs: Vec<String> = Vec::new();
        for a in args {
            match a {
                Val::Hash(_) => {}
                Val::Str(..) | Val::Concat(_) => segs.push(self.str_of(a)?),
                Val::Const(c) if c == "Integer" || c == "String" || c == "Float" => {
                    segs.push(self.capture(params, used));
                }
                Val::Const(c) => match self.consts.get(c) {
                    Some(_) => segs.push(self.str_of(a)?),
                    None => segs.push(self.capture(params, used)),
                },
                Val::Sym(s) => {
                    // Old-style symbol matcher: a segment capture.
                    let name = params.get(*used).cloned().unwrap_or_else(|| s.clone());
                    *used += 1;
                    segs.push(format!(":{name}"));
                }
                Val::Expr(e) if e == "true" => {}
                _ => segs.push(self.capture(params, used)),
            }
        }
        Some(segs.join("/"))
    }

    fn capture(&self, params: &[String], used: &mut usize) -> String {
        let name = params
            .get(*used)
            .cloned()
            .unwrap_or_else(|| format!("param{}", *used + 1));
        *used += 1;
        format!(":{name}")
    }

    /// Walk a routing tree whose request variable is `r`; `prefix` is the
    /// mount prefix, `path` the path matched so far.
    fn tree(&mut self, nodes: &'a [Node], r: &str, prefix: &str, path: &str, file: &'a str) {
        if self.depth > 24 {
            return;
        }
        for n in nodes {
            let c = &n.call;
            if c.recv != r {
                if matches!(c.name.as_str(), "class" | "module" | "def") {
                    continue;
                }
                // Conditionals and other blocks: transparent.
                if n.body.is_some() {
                    self.tree(n.children(), r, prefix, path, file);
                }
                continue;
            }
            let verb = VERBS.iter().find(|(v, _)| *v == c.name).map(|(_, m)| *m);
            let mut used = 0;
            match c.name.as_str() {
                "on" | "is" if n.body.is_some() => {
                    let Some(segs) = self.matchers(&c.args, &n.block_params, &mut used) else {
                        continue;
                    };
                    let p = join_url(&[path, &segs]);
                    let has_verbs = n
                        .children()
                        .iter()
                        .any(|x| x.call.recv == r && (VERBS.iter().any(|(v, _)| *v == x.name())));
                    if c.name == "is" && !has_verbs {
                        self.emit("GET", prefix, &p, n, file);
                    }
                    self.depth += 1;
                    self.tree(n.children(), r, prefix, &p, file);
                    self.depth -= 1;
                }
                "root" if n.body.is_some() => self.emit("GET", prefix, path, n, file),
                _ if verb.is_some() && n.body.is_some() => {
                    let Some(segs) = self.matchers(&c.args, &n.block_params, &mut used) else {
                        continue;
                    };
                    let p = join_url(&[path, &segs]);
                    self.emit(verb.unwrap_or("GET"), prefix, &p, n, file);
                }
                "hash_branches" | "hash_routes" | "multi_route" => {
                    let kind: &str = match c.name.as_str() {
                        "hash_branches" => "hash_branches",
                        "hash_routes" => "hash_routes",
                        _ => "multi_route",
                    };
                    let ns = match c.first().and_then(|v| self.str_of(v)) {
                        Some(ns) => ns.trim_end_matches('/').to_string(),
                        None if kind == "hash_branches" => {
                            let p = path.trim_end_matches('/');
                            if p.is_empty() || p == "/" {
                                String::new()
                            } else {
                                p.to_string()
                            }
                        }
                        None => String::new(),
                    };
                    let picked: Vec<(String, &'a Node, &'a str)> = self
                        .branches
                        .iter()
                        .filter(|b| b.kind == kind && b.namespace == ns)
                        .map(|b| (b.segment.clone(), b.node, b.file))
                        .collect();
                    for (seg, node, bfile) in picked {
                        let inner_r = node
                            .block_params
                            .first()
                            .cloned()
                            .unwrap_or_else(|| r.to_string());
                        let p = join_url(&[path, &seg]);
                        if node.call.name == "is" {
                            self.emit("GET", prefix, &p, node, bfile);
                        }
                        self.depth += 1;
                        self.tree(node.children(), &inner_r, prefix, &p, bfile);
                        self.depth -= 1;
                    }
                }
                "run" => {
                    if let Some(t) = c.first().and_then(const_of) {
                        if let Some(app) =
                            classes::resolve(&self.classes, "", &t).map(|c| c.full.clone())
                        {
                            if self.apps.contains(&app) {
                                let p = join_url(&[prefix, path]);
                                self.app(&app, &p);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn emit(&mut self, method: &str, prefix: &str, path: &str, n: &Node, file: &str) {
        let url = join_url(&[prefix, path]);
        let reads: Reads = n.reads.clone().unwrap_or_default();
        self.out.push(endpoint_with(
            method,
            &url,
            file,
            n.line,
            &reads,
            Body::Form,
        ));
    }
}
