//! WEBrick (`ruby_webrick`).
//!
//! Routes: `server.mount_proc '/x' do |req, res| … end` (a receiver is
//! required) and `server.mount '/y', ServletClass` (also with
//! parentheses and extra servlet arguments). WEBrick mounts match by
//! prefix; the mount path is reported as written.
//!
//! Methods: a `mount_proc` block serves every method; when it compares
//! `req.request_method` (`== 'POST'`, `case … when 'GET'`) the method
//! names written in the block are reported, else GET, POST, PUT, PATCH and
//! DELETE. A servlet reports its `do_GET`/`do_POST`/`do_PUT`/`do_PATCH`/
//! `do_DELETE`/`do_OPTIONS`/`do_HEAD` methods, inherited ones from classes
//! of the tree and `alias do_POST do_GET` / `alias_method :do_POST,
//! :do_GET` included; a servlet class not in the tree
//! (`WEBrick::HTTPServlet::FileHandler`) is GET.
//!
//! Parameters: `req.query['x']` (WEBrick merges query and form fields:
//! query on GET/HEAD/DELETE/OPTIONS, form otherwise), `req['X-Header']`
//! headers, `req.cookies.find { |c| c.name ==
//! 'sid' }` cookies, and the reads of helper methods the handler calls.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rb::call::Val;
use crate::rb::classes::{self, ClassInfo};
use crate::rb::dsl::{const_of, endpoint_with, file_nodes, Body, FileNodes, Node};
use crate::rb::outline::tokens_in;
use crate::rb::request::{Options, Reads};
use crate::rb::tokens::Kind;
use crate::rb::tree::{walk, Stmt};

pub struct Webrick;

const OPTIONS: Options = Options {
    bare_headers: false,
    bare_env: false,
    index_headers: true,
    receivers: &["req", "request"],
};

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const SERVLET: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

#[derive(Serialize, Deserialize)]
struct Fact {
    nodes: FileNodes,
    /// `(line of a mount_proc, methods its block compares against)`.
    proc_methods: Vec<(u32, Vec<String>)>,
}

impl Analyzer for Webrick {
    fn tech(&self) -> Tech {
        Tech::new("ruby_webrick", "Ruby", "WEBrick")
            .aliases(["webrick", "ruby-webrick"])
            .files(["*.rb"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"]).regex([r#"^\s*gem\s*\(?\s*["']webrick["']"#]),
            )
            .detect(
                Detect::files(["*.rb"])
                    .regex([r#"require\s*\(?\s*["']webrick["']"#, r"WEBrick::HTTPServ"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let c = &file.content;
        if !(c.contains("mount") || c.contains("do_") || c.contains("def ")) {
            return;
        }
        let nodes = file_nodes(file, OPTIONS, &|call| call.name == "mount_proc");
        out.fact(&Fact {
            nodes: FileNodes {
                path: file.path.clone(),
                nodes,
            },
            proc_methods: proc_methods(file),
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let files: Vec<&FileNodes> = facts.iter().map(|f| &f.nodes).collect();
        let all = classes::collect(&files);
        let mut defs: Vec<&Node> = Vec::new();
        for f in &files {
            collect_defs(&f.nodes, &mut defs);
        }
        let mut out = Vec::new();
        for f in &facts {
            let mut ctx = Ctx {
                file: &f.nodes.path,
                proc_methods: &f.proc_methods,
                classes: &all,
                defs: &defs,
                out: &mut out,
            };
            ctx.scan(&f.nodes.nodes);
        }
        Ok(out)
    }
}

/// Methods named in `mount_proc` blocks that look at `request_method`.
fn proc_methods(file: &SourceFile) -> Vec<(u32, Vec<String>)> {
    let toks = crate::rb::tokens_of(&file.content);
    let stmts = crate::rb::tree::parse(&toks, &crate::rb::RULES);
    let mut out = Vec::new();
    walk(&stmts, &mut |s: &Stmt, _| {
        if !s.toks.iter().any(|t| t.is_word("mount_proc")) {
            return;
        }
        let Some(b) = s.block() else { return };
        let body = tokens_in(&toks, b.start, b.end);
        if !body.iter().any(|t| t.is_word("request_method")) {
            return;
        }
        let mut methods: Vec<String> = Vec::new();
        for t in body.iter().filter(|t| t.kind == Kind::Str) {
            if SERVLET.contains(&t.text.as_str()) && !methods.contains(&t.text) {
                methods.push(t.text.clone());
            }
        }
        out.push((file.line_of(s.start()), methods));
    });
    out
}

fn collect_defs<'a>(nodes: &'a [Node], out: &mut Vec<&'a Node>) {
    for n in nodes {
        if n.name() == "def" {
            out.push(n);
        }
        collect_defs(n.children(), out);
    }
}

struct Ctx<'a, 'c> {
    file: &'a str,
    proc_methods: &'a [(u32, Vec<String>)],
    classes: &'a [ClassInfo<'c>],
    defs: &'a [&'c Node],
    out: &'a mut Vec<Endpoint>,
}

impl Ctx<'_, '_> {
    fn scan(&mut self, nodes: &[Node]) {
        for n in nodes {
            let c = &n.call;
            match c.name.as_str() {
                "class" | "module" => {}
                "mount_proc" if !c.recv.is_empty() && n.body.is_some() => {
                    let Some(Val::Str(path, false)) = c.first() else {
                        continue;
                    };
                    let compared = self
                        .proc_methods
                        .iter()
                        .find(|(l, _)| *l == n.line)
                        .map(|(_, m)| m.clone())
                        .filter(|m| !m.is_empty());
                    let methods: Vec<String> =
                        compared.unwrap_or_else(|| ANY.iter().map(|m| m.to_string()).collect());
                    let reads = self.with_helpers(n.reads.clone().unwrap_or_default());
                    for m in methods {
                        self.out.push(endpoint_with(
                            &m,
                            path,
                            self.file,
                            n.line,
                            &reads,
                            Body::Form,
                        ));
                    }
                }
                "mount" if !c.recv.is_empty() => {
                    let (Some(Val::Str(path, false)), Some(target)) =
                        (c.first(), c.args.get(1).and_then(const_of))
                    else {
                        continue;
                    };
                    self.servlet(path, &target, n.line);
                }
                _ => self.scan(n.children()),
            }
        }
    }

    fn servlet(&mut self, path: &str, target: &str, line: u32) {
        let Some(class) = classes::resolve(self.classes, "", target) else {
            self.out
                .push(Endpoint::new("GET", path).at_path(self.file, line));
            return;
        };
        // (method, def node) from the class and its ancestors in the tree.
        let mut handlers: Vec<(&str, &Node)> = Vec::new();
        let mut aliases: Vec<(String, String)> = Vec::new();
        let mut cur = Some(class);
        for _ in 0..8 {
            let Some(c) = cur else { break };
            for other in classes::all_named(self.classes, &c.full) {
                for d in other.body {
                    match d.name() {
                        "def" => {
                            if let Some(Val::Sym(name)) = d.call.args.first() {
                                if let Some(m) = name.strip_prefix("do_") {
                                    if let Some(m) = SERVLET.iter().find(|s| **s == m) {
                                        if !handlers.iter().any(|(h, _)| h == m) {
                                            handlers.push((m, d));
                                        }
                                    }
                                }
                            }
                        }
                        "alias" | "alias_method" => {
                            let words: Vec<String> = d
                                .call
                                .args
                                .iter()
                                .flat_map(|a| match a {
                                    Val::Expr(e) => e
                                        .split([' ', ','])
                                        .map(|w| w.trim_start_matches(':').to_string())
                                        .collect(),
                                    v => v.words(),
                                })
                                .filter(|w| w.starts_with("do_"))
                                .collect();
                            if let [new, old] = words.as_slice() {
                                aliases.push((new.clone(), old.clone()));
                            }
                        }
                        _ => {}
                    }
                }
            }
            cur = if c.superclass.is_empty() {
                None
            } else {
                classes::resolve(self.classes, &c.namespace, &c.superclass)
                    .filter(|s| s.full != c.full)
            };
        }
        for (new, old) in aliases {
            let (Some(m), Some(o)) = (
                new.strip_prefix("do_")
                    .and_then(|m| SERVLET.iter().find(|s| **s == m)),
                old.strip_prefix("do_"),
            ) else {
                continue;
            };
            if let Some(d) = handlers.iter().find(|(h, _)| *h == o).map(|(_, d)| *d) {
                if !handlers.iter().any(|(h, _)| h == m) {
                    handlers.push((m, d));
                }
            }
        }
        if handlers.is_empty() {
            self.out
                .push(Endpoint::new("GET", path).at_path(self.file, line));
            return;
        }
        for m in SERVLET {
            let Some((_, d)) = handlers.iter().find(|(h, _)| *h == m) else {
                continue;
            };
            let reads = self.with_helpers(d.reads.clone().unwrap_or_default());
            self.out
                .push(endpoint_with(m, path, self.file, line, &reads, Body::Form));
        }
    }

    /// Merge the reads of the helper methods called (by name, anywhere).
    fn with_helpers(&self, reads: Reads) -> Reads {
        let mut out = reads.clone();
        let mut todo = reads.calls.clone();
        let mut seen: Vec<String> = Vec::new();
        while let Some(name) = todo.pop() {
            if seen.contains(&name) || seen.len() > 64 {
                continue;
            }
            seen.push(name.clone());
            for d in self.defs {
                if d.call.args.first() == Some(&Val::Sym(name.clone())) {
                    if let Some(r) = &d.reads {
                        out.merge(r);
                        todo.extend(r.calls.iter().cloned());
                    }
                }
            }
        }
        out
    }
}
