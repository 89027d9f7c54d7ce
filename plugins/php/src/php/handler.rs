//! Handler classes across files: find a controller by name, gather what a
//! method reads (through `$this->helper()` calls and parent classes), and
//! turn reads plus argument attributes into endpoint parameters.

use std::collections::BTreeSet;

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::urls::path_placeholders;

use super::outline::{short, Arg, Class};
use super::request::{Reads, Where};

/// Where a body read without a stated encoding goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    Form,
}

/// What a handler reads, and its parameters (with attributes).
#[derive(Clone, Debug, Default)]
pub struct Handler {
    pub reads: Reads,
    pub args: Vec<Arg>,
}

impl Handler {
    pub fn from_reads(reads: &Reads) -> Self {
        Handler {
            reads: reads.clone(),
            args: Vec::new(),
        }
    }
}

#[derive(Default)]
pub struct Index<'a> {
    /// `(file path, class)`.
    pub classes: Vec<(&'a str, &'a Class)>,
}

impl<'a> Index<'a> {
    pub fn push(&mut self, path: &'a str, class: &'a Class) {
        self.classes.push((path, class));
    }

    /// A class by fully qualified or short name (exact FQCN first).
    pub fn find(&self, name: &str) -> Option<(&'a str, &'a Class)> {
        let name = name.trim_start_matches('\\');
        let s = short(name);
        let mut best = None;
        for (p, c) in &self.classes {
            if c.name != s {
                continue;
            }
            if c.fqcn() == name {
                return Some((p, c));
            }
            best.get_or_insert((*p, *c));
        }
        best
    }

    /// The class and its ancestors found in the index.
    fn lineage(&self, class: &'a Class) -> Vec<&'a Class> {
        let mut chain = vec![class];
        let mut cur = class;
        while !cur.parent.is_empty() && chain.len() < 8 {
            match self.find(&cur.parent) {
                Some((_, p)) if !chain.iter().any(|c| std::ptr::eq(*c, p)) => {
                    chain.push(p);
                    cur = p;
                }
                _ => break,
            }
        }
        chain
    }

    /// What `method` of `class` reads, with `$this->x()` callees.
    pub fn handler(&self, class: &'a Class, method: &str) -> Option<Handler> {
        let chain = self.lineage(class);
        let find = |name: &str| {
            chain
                .iter()
                .find_map(|c| c.methods.iter().find(|m| m.name == name))
        };
        let entry = find(method)?;
        let mut h = Handler {
            reads: Reads::default(),
            args: entry.args.clone(),
        };
        let mut seen = BTreeSet::new();
        let mut todo = vec![method.to_string()];
        while let Some(name) = todo.pop() {
            if !seen.insert(name.clone()) || seen.len() > 32 {
                continue;
            }
            let Some(m) = find(&name) else { continue };
            h.reads.merge(&m.reads);
            for callee in m.reads.calls.iter().rev() {
                todo.push(callee.clone());
            }
            // `$body = $this->parsedBody($request); $body['k']` where
            // `parsedBody` returns the request's parsed body.
            for (helper, key) in &m.reads.helper_keys {
                if let Some(w) = find(helper).and_then(|hm| hm.reads.returns_bag) {
                    h.reads.push(w, key);
                }
            }
        }
        Some(h)
    }

    /// Handler of `Class::method` / `Class@method` / an invokable `Class`.
    pub fn handler_of(&self, action: &str) -> Option<Handler> {
        let (class, method) = action
            .split_once("::")
            .or_else(|| action.split_once('@'))
            .unwrap_or((action, "__invoke"));
        let (_, c) = self.find(class)?;
        self.handler(c, method)
    }

    /// Properties of a DTO class (and its ancestors).
    pub fn props(&self, name: &str) -> Vec<String> {
        let Some((_, c)) = self.find(name) else {
            return Vec::new();
        };
        let mut out: Vec<String> = Vec::new();
        for c in self.lineage(c) {
            for p in &c.props {
                if !out.contains(p) {
                    out.push(p.clone());
                }
            }
        }
        out
    }

    /// Parameters of an endpoint: argument attributes (Symfony's
    /// `MapQueryParameter`, `MapQueryString`, `MapRequestPayload`,
    /// `MapUploadedFile`) then body reads, skipping URL placeholders.
    pub fn params(&self, h: &Handler, method: &str, url: &str, body: BodyKind) -> Vec<Param> {
        let placeholders = path_placeholders(url);
        let query_like = matches!(method, "GET" | "HEAD");
        let mut out: Vec<Param> = Vec::new();
        let mut push = |p: Param| {
            if p.name.is_empty()
                || p.name.contains('*')
                || placeholders.contains(&p.name)
                || out.iter().any(|q| q.name == p.name && q.kind == p.kind)
            {
                return;
            }
            out.push(p);
        };
        for a in &h.args {
            for at in &a.attrs {
                let named = at
                    .named("name")
                    .or_else(|| at.positional(0))
                    .and_then(|v| v.str())
                    .map(str::to_string);
                match at.name.as_str() {
                    "MapQueryParameter" => push(Param::query(named.unwrap_or(a.var.clone()))),
                    "MapUploadedFile" => push(Param::file(named.unwrap_or(a.var.clone()))),
                    "MapQueryString" => {
                        for p in self.props(&a.ty) {
                            push(Param::query(p));
                        }
                    }
                    "MapRequestPayload" => {
                        for p in self.props(&a.ty) {
                            push(Param::json(p));
                        }
                    }
                    _ => {}
                }
            }
        }
        let body_param = |name: &str| match body {
            BodyKind::Json => Param::json(name),
            BodyKind::Form => Param::form(name),
        };
        for (w, name) in &h.reads.items {
            push(match w {
                Where::Input if query_like => Param::query(name),
                Where::Input | Where::Body => body_param(name),
                Where::Query => Param::query(name),
                Where::Form => Param::form(name),
                Where::Json => Param::json(name),
                Where::Header => Param::header(name),
                Where::Cookie => Param::cookie(name),
                Where::File => Param::file(name),
            });
        }
        out
    }
}

/// The methods reported for a route that accepts any method.
pub const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The standard method among `m` (case-insensitive), if any.
pub fn http_method(m: &str) -> Option<&'static str> {
    const METHODS: [&str; 9] = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "CONNECT",
    ];
    METHODS
        .iter()
        .find(|x| x.eq_ignore_ascii_case(m.trim()))
        .copied()
}
