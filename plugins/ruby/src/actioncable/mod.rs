//! Action Cable (`ruby_actioncable`): the WebSocket endpoint of a Rails app.
//!
//! One endpoint, GET with protocol `ws`, at:
//! * the path of `mount ActionCable.server => '/cable'` (or `mount
//!   ActionCable.server, at: '/cable'`) in `config/routes.rb`, reported at
//!   that line; else
//! * `config.action_cable.mount_path = '/ws'` (any config file; `= nil`
//!   turns the default mount off), reported at that line; else
//! * the default `/cable` when the tree has channels (classes descending
//!   from `ApplicationCable::Channel` or `ActionCable::Channel::Base`),
//!   reported at the `ApplicationCable::Connection` class (or the first
//!   channel when there is none).
//!
//! Parameters are those of the handshake, read by the connection class
//! (`ApplicationCable::Connection`, every method, `connect` and its
//! helpers): `cookies.encrypted[:user_id]` / `cookies[:x]` cookies,
//! `request.params[:token]` query parameters, `request.headers['X']`
//! headers. Channels are not separate endpoints: a client subscribes to
//! them with messages over the one socket, and their `params[:room]` come
//! from the subscription's JSON `identifier`, not from the HTTP request, so
//! they are not reported as parameters.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rb::call::Val;
use crate::rb::classes;
use crate::rb::dsl::{endpoint_with, file_nodes, Body, FileNodes, Node};
use crate::rb::request::{Options, Reads};
use crate::rb::tokens::Kind;

pub struct ActionCable;

#[derive(Serialize, Deserialize)]
struct Fact {
    nodes: FileNodes,
    /// `config.action_cable.mount_path = …`: (path or `None` for nil, line).
    mount_path: Option<(Option<String>, u32)>,
}

impl Analyzer for ActionCable {
    fn tech(&self) -> Tech {
        Tech::new("ruby_actioncable", "Ruby", "Action Cable")
            .aliases(["actioncable", "action-cable", "ruby-actioncable"])
            .files(["*.rb"])
            .detect(Detect::files(["*.rb"]).regex([
                r"ActionCable\.server",
                r"<\s*(ApplicationCable::Channel|ActionCable::Channel::Base|ActionCable::Connection::Base)\b",
            ]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let c = &file.content;
        if !(c.contains("ActionCable")
            || c.contains("ApplicationCable")
            || c.contains("action_cable"))
        {
            return;
        }
        let nodes = file_nodes(file, Options::default(), &|_| false);
        out.fact(&Fact {
            nodes: FileNodes {
                path: file.path.clone(),
                nodes,
            },
            mount_path: mount_path(file),
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let files: Vec<&FileNodes> = facts.iter().map(|f| &f.nodes).collect();
        let all = classes::collect(&files);
        // Handshake reads: every method of the connection class.
        let mut reads = Reads::default();
        let connection = all.iter().find(|c| {
            c.full == "ApplicationCable::Connection"
                || classes::descends_from(&all, c, &["ActionCable::Connection::Base"])
        });
        if let Some(conn) = connection {
            for c in classes::all_named(&all, &conn.full) {
                for d in c.body.iter().filter(|d| d.name() == "def") {
                    if let Some(r) = &d.reads {
                        reads.merge(r);
                    }
                }
            }
        }
        let mut at: Option<(String, &str, u32)> = None;
        for f in &files {
            if at.is_none() && f.path.replace('\\', "/").ends_with("config/routes.rb") {
                at = find_mount(&f.nodes).map(|(p, l)| (p, f.path.as_str(), l));
            }
        }
        if at.is_none() {
            for f in &facts {
                if let Some((p, line)) = &f.mount_path {
                    match p {
                        Some(p) => at = Some((p.clone(), &f.nodes.path, *line)),
                        None => return Ok(Vec::new()),
                    }
                }
            }
        }
        if at.is_none() {
            let channel = all.iter().find(|c| {
                classes::descends_from(
                    &all,
                    c,
                    &["ApplicationCable::Channel", "ActionCable::Channel::Base"],
                ) && c.full != "ApplicationCable::Channel"
            });
            if let Some(ch) = channel {
                let place = connection.unwrap_or(ch);
                at = Some(("/cable".into(), place.file, place.line));
            }
        }
        let Some((path, file, line)) = at else {
            return Ok(Vec::new());
        };
        let mut e = endpoint_with("GET", &path, file, line, &reads, Body::Form);
        e.protocol = "ws".into();
        Ok(vec![e])
    }
}

/// `mount ActionCable.server => '/cable'` / `mount ActionCable.server, at:`.
fn find_mount(nodes: &[Node]) -> Option<(String, u32)> {
    for n in nodes {
        if n.name() == "mount" && n.call.recv.is_empty() {
            let is_cable = |v: &Val| matches!(v, Val::Expr(e) | Val::Const(e) if e.starts_with("ActionCable.server"));
            for a in &n.call.args {
                match a {
                    Val::Hash(pairs) => {
                        for (k, v) in pairs {
                            if is_cable(k) {
                                if let Some(p) = v.text() {
                                    return Some((p.to_string(), n.line));
                                }
                            }
                        }
                    }
                    v if is_cable(v) => {
                        if let Some(p) = n.call.opt("at").and_then(Val::text) {
                            return Some((p.to_string(), n.line));
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some(found) = find_mount(n.children()) {
            return Some(found);
        }
    }
    None
}

/// `config.action_cable.mount_path = '/ws'` (or `nil`).
fn mount_path(file: &SourceFile) -> Option<(Option<String>, u32)> {
    if !file.content.contains("mount_path") {
        return None;
    }
    let toks = crate::rb::tokens_of(&file.content);
    for (i, t) in toks.iter().enumerate() {
        let is_cable_path = t.is_word("mount_path")
            && i >= 2
            && toks[i - 1].is(".")
            && toks[i - 2].is_word("action_cable")
            && toks.get(i + 1).is_some_and(|e| e.is("="));
        if !is_cable_path {
            continue;
        }
        let line = file.line_of(t.start);
        return match toks.get(i + 2) {
            Some(v) if v.kind == Kind::Str && !v.interpolated => Some((Some(v.text.clone()), line)),
            Some(v) if v.is_word("nil") => Some((None, line)),
            _ => None,
        };
    }
    None
}
