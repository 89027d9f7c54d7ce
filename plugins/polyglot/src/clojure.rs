//! Clojure: Compojure (`clojure_compojure`), Reitit (`clojure_reitit`),
//! Pedestal (`clojure_pedestal`) and plain Ring (`clojure_ring`).
//!
//! Files are read into forms ([`read`]); `#_` discarded forms and
//! `(comment …)` blocks are skipped, so commented-out routes never count.
//! Top-level definitions (`def`, `defn`, `defroutes`) go to `link`, which
//! resolves symbols across namespaces (`(:require [app.users :as users])`,
//! `users/routes`) and starts from the definitions no other definition
//! refers to, so a route table mounted under a prefix is reported once,
//! with the prefix.
//!
//! - Compojure: `(GET "/users/:id" [id] …)` (`POST`, `PUT`, `PATCH`,
//!   `DELETE`, `HEAD`, `OPTIONS`, `ANY`), `(context "/api" [] …)` nested to
//!   any depth, `routes`/`defroutes` composing tables.
//! - Reitit and Pedestal's terse syntax: nested vectors `["/api" {…}
//!   ["/users" {:get h :post {:handler h :parameters {:body [:map [:name
//!   string?]]}}}]]`; a symbol in a route vector that names another route
//!   table is mounted there. Pedestal's table syntax `["/x" :get h
//!   :route-name :x]` too.
//! - Ring: `(case (:uri request) "/x" …)` and `(= (:uri request) "/x")`.
//!
//! Parameters: compojure binding vectors (`[id q]`: names not in the path
//! are query on GET, form otherwise), destructuring of `:params`,
//! `:query-params`, `:form-params`, `:body-params`, `:json-params`,
//! `:headers`, `:cookies`, `:multipart-params` (`{{:keys [q]} :params}`,
//! `{params :params}` then `(params "x")`, `(:x params)`, `(get params
//! :x)`), `(get-in req [:query-params "q"])`, `(-> req :headers
//! "x-token")`, `(:x (:params req))`; reitit `:parameters {:query … :body
//! … :form … :header … :multipart …}` as malli `[:map [:x …]]` or map
//! schemas. A handler named by a symbol is read through its `defn`.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{join_url, ANY};

/// A form, with the line where it starts.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Form {
    List(Vec<Form>, u32),
    Vector(Vec<Form>, u32),
    Map(Vec<Form>, u32),
    Set(Vec<Form>, u32),
    Sym(String, u32),
    Kw(String, u32),
    Str(String, u32),
    Other(u32),
}

impl Form {
    fn line(&self) -> u32 {
        match self {
            Form::List(_, l)
            | Form::Vector(_, l)
            | Form::Map(_, l)
            | Form::Set(_, l)
            | Form::Sym(_, l)
            | Form::Kw(_, l)
            | Form::Str(_, l)
            | Form::Other(l) => *l,
        }
    }
    fn items(&self) -> &[Form] {
        match self {
            Form::List(v, _) | Form::Vector(v, _) | Form::Map(v, _) | Form::Set(v, _) => v,
            _ => &[],
        }
    }
    fn sym(&self) -> Option<&str> {
        match self {
            Form::Sym(s, _) => Some(s),
            _ => None,
        }
    }
    fn kw(&self) -> Option<&str> {
        match self {
            Form::Kw(s, _) => Some(s),
            _ => None,
        }
    }
    fn string(&self) -> Option<&str> {
        match self {
            Form::Str(s, _) => Some(s),
            _ => None,
        }
    }
    /// The head symbol of a list, without its namespace.
    fn head(&self) -> Option<&str> {
        match self {
            Form::List(v, _) => v.first()?.sym().map(local),
            _ => None,
        }
    }
    /// A string, or a keyword / symbol name (parameter names).
    fn name(&self) -> Option<&str> {
        match self {
            Form::Str(s, _) | Form::Kw(s, _) | Form::Sym(s, _) => Some(s),
            _ => None,
        }
    }
}

fn local(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
}

const MAX_DEPTH: usize = 256;

/// Reads every top-level form of a Clojure source.
pub fn read(src: &str) -> Vec<Form> {
    let mut r = Reader {
        b: src.as_bytes(),
        src,
        i: 0,
        line: 1,
    };
    let mut out = Vec::new();
    while let Some(f) = r.form(0) {
        if let Some(f) = f {
            out.push(f);
        }
    }
    out
}

struct Reader<'a> {
    b: &'a [u8],
    src: &'a str,
    i: usize,
    line: u32,
}

fn is_delim(c: u8) -> bool {
    c.is_ascii_whitespace()
        || matches!(
            c,
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'"' | b';' | b','
        )
}

impl Reader<'_> {
    fn skip(&mut self) {
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\n' => {
                    self.line += 1;
                    self.i += 1;
                }
                b';' => {
                    while self.i < self.b.len() && self.b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                c if c.is_ascii_whitespace() || c == b',' => self.i += 1,
                _ => break,
            }
        }
    }

    /// `None`: end of input or a closing bracket (consumed); `Some(None)`:
    /// something that is not a form (discarded, metadata).
    fn form(&mut self, depth: usize) -> Option<Option<Form>> {
        self.skip();
        let c = *self.b.get(self.i)?;
        let line = self.line;
        match c {
            b')' | b']' | b'}' => {
                self.i += 1;
                None
            }
            b'(' => Some(Some(Form::List(self.seq(depth), line))),
            b'[' => Some(Some(Form::Vector(self.seq(depth), line))),
            b'{' => Some(Some(Form::Map(self.seq(depth), line))),
            b'"' => Some(Some(Form::Str(self.string(), line))),
            b'\\' => {
                self.i += 2;
                while self.i < self.b.len() && !is_delim(self.b[self.i]) {
                    self.i += 1;
                }
                Some(Some(Form::Other(line)))
            }
            b'\'' | b'`' | b'~' | b'@' => {
                self.i += 1;
                if self.b.get(self.i) == Some(&b'@') {
                    self.i += 1;
                }
                self.form(depth)
            }
            b'^' => {
                self.i += 1;
                let _ = self.form(depth);
                Some(None)
            }
            b'#' => {
                self.i += 1;
                match self.b.get(self.i) {
                    Some(b'_') => {
                        self.i += 1;
                        let _ = self.form(depth);
                        Some(None)
                    }
                    Some(b'{') => Some(Some(Form::Set(self.seq(depth), line))),
                    Some(b'"') => {
                        let _ = self.string();
                        Some(Some(Form::Other(line)))
                    }
                    Some(b'(') => Some(Some(Form::List(self.seq(depth), line))),
                    Some(b'?') => {
                        self.i += 1;
                        if self.b.get(self.i) == Some(&b'@') {
                            self.i += 1;
                        }
                        self.form(depth)
                    }
                    _ => self.form(depth),
                }
            }
            _ => {
                let start = self.i;
                while self.i < self.b.len() && !is_delim(self.b[self.i]) {
                    self.i += 1;
                }
                if self.i == start {
                    self.i += 1;
                    return Some(None);
                }
                let tok = self.src.get(start..self.i).unwrap_or("");
                Some(Some(if let Some(k) = tok.strip_prefix(':') {
                    Form::Kw(k.trim_start_matches(':').to_string(), line)
                } else if tok.as_bytes().first().is_none_or(u8::is_ascii_digit) {
                    Form::Other(line)
                } else {
                    Form::Sym(tok.to_string(), line)
                }))
            }
        }
    }

    fn seq(&mut self, depth: usize) -> Vec<Form> {
        // The opener (`(`, `[`, `{`, or `{` after `#`).
        self.i += 1;
        let mut out = Vec::new();
        loop {
            self.skip();
            let Some(&c) = self.b.get(self.i) else { break };
            if matches!(c, b')' | b']' | b'}') {
                self.i += 1;
                break;
            }
            if depth >= MAX_DEPTH {
                self.i += 1;
                continue;
            }
            match self.form(depth + 1) {
                Some(Some(f)) => {
                    // `(comment …)` is commented-out code.
                    if f.head() != Some("comment") {
                        out.push(f);
                    }
                }
                Some(None) => {}
                None => break,
            }
        }
        out
    }

    fn string(&mut self) -> String {
        self.i += 1;
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i] != b'"' {
            if self.b[self.i] == b'\\' {
                self.i += 1;
            } else if self.b[self.i] == b'\n' {
                self.line += 1;
            }
            self.i += 1;
        }
        let end = self.i.min(self.b.len());
        self.i += 1;
        self.src.get(start..end).unwrap_or("").to_string()
    }
}

/// One namespace: its aliases and top-level definitions.
#[derive(Serialize, Deserialize)]
struct NsFile {
    path: String,
    ns: String,
    aliases: Vec<(String, String)>,
    defs: Vec<(String, Form)>,
}

fn ns_file(file: &SourceFile) -> NsFile {
    let forms = read(&file.content);
    let mut ns = String::new();
    let mut aliases = Vec::new();
    let mut defs = Vec::new();
    for f in forms {
        match f.head() {
            Some("ns") => {
                ns = f
                    .items()
                    .get(1)
                    .and_then(Form::sym)
                    .unwrap_or("")
                    .to_string();
                collect_aliases(&f, &mut aliases, 0);
            }
            Some(h) if h.starts_with("def") => {
                if let Some(name) = f.items().get(1).and_then(Form::sym) {
                    defs.push((name.to_string(), f.clone()));
                }
            }
            _ => {}
        }
    }
    NsFile {
        path: file.path.clone(),
        ns,
        aliases,
        defs,
    }
}

fn collect_aliases(f: &Form, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > 8 {
        return;
    }
    if let Form::Vector(v, _) = f {
        if let Some(target) = v.first().and_then(Form::sym) {
            for (i, x) in v.iter().enumerate() {
                if x.kw() == Some("as") {
                    if let Some(a) = v.get(i + 1).and_then(Form::sym) {
                        out.push((a.to_string(), target.to_string()));
                    }
                }
            }
        }
    }
    for x in f.items() {
        collect_aliases(x, out, depth + 1);
    }
}

/// Every definition across the tree, resolvable from any namespace.
struct World<'a> {
    files: &'a [NsFile],
    by_ns: HashMap<(&'a str, &'a str), (usize, &'a Form)>,
    by_name: HashMap<&'a str, Vec<(usize, &'a Form)>>,
}

impl<'a> World<'a> {
    fn new(files: &'a [NsFile]) -> Self {
        let mut by_ns = HashMap::new();
        let mut by_name: HashMap<&str, Vec<(usize, &Form)>> = HashMap::new();
        for (i, f) in files.iter().enumerate() {
            for (name, form) in &f.defs {
                by_ns.insert((f.ns.as_str(), name.as_str()), (i, form));
                by_name.entry(name.as_str()).or_default().push((i, form));
            }
        }
        World {
            files,
            by_ns,
            by_name,
        }
    }

    /// The definition a symbol names, seen from file `from`.
    fn resolve(&self, from: usize, sym: &str) -> Option<(usize, &'a Form)> {
        let file = self.files.get(from)?;
        if let Some((alias, name)) = sym.split_once('/') {
            let ns = file
                .aliases
                .iter()
                .find(|(a, _)| a == alias)
                .map_or(alias, |(_, n)| n.as_str());
            return self.by_ns.get(&(ns, name)).copied();
        }
        if let Some(d) = self.by_ns.get(&(file.ns.as_str(), sym)) {
            return Some(*d);
        }
        match self.by_name.get(sym).map(Vec::as_slice) {
            Some([one]) => Some(*one),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    Compojure,
    Vectors,
    Ring,
}

struct Walk<'a, 'w> {
    world: &'w World<'a>,
    flavor: Flavor,
    out: Vec<Endpoint>,
    stack: Vec<*const Form>,
}

const VERBS: &[&str] = &[
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "ANY",
];
const METHOD_KWS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// Request keys and what they yield.
fn key_kind(k: &str) -> Option<Option<ParamKind>> {
    Some(match k {
        "params" => None,
        "query-params" | "query" => Some(ParamKind::Query),
        "form-params" | "form" => Some(ParamKind::Form),
        "body-params" | "json-params" | "body" | "transit-params" | "edn-params" => {
            Some(ParamKind::Json)
        }
        "headers" | "header" => Some(ParamKind::Header),
        "cookies" => Some(ParamKind::Cookie),
        "multipart-params" | "multipart" => Some(ParamKind::File),
        "path-params" | "route-params" | "path" => Some(ParamKind::Path),
        _ => return None,
    })
}

fn by_method(kind: Option<ParamKind>, method: &str) -> ParamKind {
    kind.unwrap_or(if matches!(method, "GET" | "HEAD" | "DELETE") {
        ParamKind::Query
    } else {
        ParamKind::Form
    })
}

fn add(e: &mut Endpoint, kind: ParamKind, name: &str) {
    let name = name.trim_start_matches(':');
    if kind == ParamKind::Path || name.is_empty() || name == "&" {
        return;
    }
    if !e.params.iter().any(|p| p.name == name && p.kind == kind) {
        e.push_param(Param::new(kind, name));
    }
}

impl Walk<'_, '_> {
    fn walk(&mut self, from: usize, f: &Form, prefix: &str, depth: usize) {
        if depth > 64 {
            return;
        }
        match (self.flavor, f) {
            (_, Form::Sym(s, _)) => self.follow(from, s, prefix, depth),
            (Flavor::Compojure, Form::List(v, line)) => {
                let head = f.head().unwrap_or("");
                if VERBS.contains(&head) {
                    let path = match v.get(1) {
                        Some(Form::Str(s, _)) => s.clone(),
                        Some(Form::Vector(p, _)) => {
                            p.first().and_then(Form::string).unwrap_or("").to_string()
                        }
                        _ => return,
                    };
                    // Inline regexes: "/user/:id{[0-9]+}" → "/user/:id".
                    let path = strip_regexes(&path);
                    let url = join_url(&[prefix, &path]);
                    let methods: Vec<&str> = if head == "ANY" {
                        ANY.to_vec()
                    } else {
                        vec![head]
                    };
                    for m in methods {
                        let mut e =
                            Endpoint::new(m, &url).at_path(&self.world.files[from].path, *line);
                        let mut bound = HashMap::new();
                        if let Some(b) = v.get(2) {
                            bindings(b, &url, m, &mut e, &mut bound, true);
                        }
                        for x in v.iter().skip(3) {
                            body_reads(self.world, from, x, m, &bound, &mut e, 0);
                            // A handler named in the body: `(wrap #'ctl/save)`.
                            self.named_handlers(from, x, m, &mut e, 0);
                        }
                        if head == "ANY" {
                            e = e.tag(Tag::any_method());
                        }
                        self.out.push(e);
                    }
                } else if head == "context" {
                    let p = v.get(1).and_then(Form::string).unwrap_or("");
                    let inner = join_url(&[prefix, p]);
                    for x in v.iter().skip(3) {
                        self.walk(from, x, &inner, depth + 1);
                    }
                } else if !matches!(head, "fn" | "defn" | "let" | "ns" | "comment") || depth == 0 {
                    let skip = if matches!(head, "defroutes" | "def" | "defn") {
                        2
                    } else {
                        0
                    };
                    for x in v.iter().skip(skip) {
                        self.walk(from, x, prefix, depth + 1);
                    }
                } else {
                    for x in v.iter().skip(1) {
                        if matches!(x, Form::List(..)) {
                            self.walk(from, x, prefix, depth + 1);
                        }
                    }
                }
            }
            (Flavor::Vectors, Form::Vector(v, line)) => {
                if let Some(path) = v.first().and_then(Form::string) {
                    if path.is_empty() || path.starts_with('/') {
                        self.route_vector(from, v, *line, path, prefix, depth);
                        return;
                    }
                }
                for x in v {
                    self.walk(from, x, prefix, depth + 1);
                }
            }
            (Flavor::Ring, Form::List(v, _)) => {
                let head = f.head().unwrap_or("");
                if head == "case" && v.get(1).is_some_and(is_uri) {
                    for pair in v[2..].chunks(2) {
                        if let [Form::Str(s, l), _] = pair {
                            self.ring(from, s, *l, prefix);
                        }
                    }
                } else if head == "=" && v.len() == 3 {
                    match (&v[1], &v[2]) {
                        (Form::Str(s, l), u) | (u, Form::Str(s, l)) if is_uri(u) => {
                            self.ring(from, s, *l, prefix)
                        }
                        _ => {}
                    }
                } else {
                    for x in v {
                        self.walk(from, x, prefix, depth + 1);
                    }
                }
            }
            (_, other) => {
                for x in other.items() {
                    self.walk(from, x, prefix, depth + 1);
                }
            }
        }
    }

    fn ring(&mut self, from: usize, path: &str, line: u32, prefix: &str) {
        if path.starts_with('/') {
            let url = join_url(&[prefix, path]);
            self.out
                .push(Endpoint::new("GET", url).at_path(&self.world.files[from].path, line));
        }
    }

    fn follow(&mut self, from: usize, s: &str, prefix: &str, depth: usize) {
        let Some((file, form)) = self.world.resolve(from, s) else {
            return;
        };
        let ptr = form as *const Form;
        if self.stack.contains(&ptr) || self.stack.len() > 32 {
            return;
        }
        self.stack.push(ptr);
        let skip = 2;
        for x in form.items().iter().skip(skip) {
            self.walk(file, x, prefix, depth + 1);
        }
        self.stack.pop();
    }

    /// `["/path" data… children…]` (reitit, pedestal terse) or a pedestal
    /// table row `["/path" :get handler …]`.
    fn route_vector(
        &mut self,
        from: usize,
        v: &[Form],
        line: u32,
        path: &str,
        prefix: &str,
        depth: usize,
    ) {
        let url = join_url(&[prefix, path]);
        let file = self.world.files[from].path.clone();
        if let Some(verb) = v.get(1).and_then(Form::kw) {
            if METHOD_KWS.contains(&verb) || verb == "any" {
                let m = verb.to_ascii_uppercase();
                let m = if m == "ANY" { "GET".to_string() } else { m };
                let mut e = Endpoint::new(&m, &url).at_path(&file, line);
                if let Some(h) = v.get(2) {
                    self.handler_reads(from, h, &m, &mut e);
                }
                self.out.push(e);
                return;
            }
        }
        let mut shared: Vec<&Form> = Vec::new();
        let mut methods: Vec<(String, &Form, u32)> = Vec::new();
        let mut handler: Option<&Form> = None;
        let mut children = false;
        for x in &v[1..] {
            match x {
                Form::Map(kv, _) => {
                    for pair in kv.chunks(2) {
                        let [k, val] = pair else { continue };
                        match k.kw() {
                            Some(m) if METHOD_KWS.contains(&m) => {
                                methods.push((m.to_ascii_uppercase(), val, k.line()))
                            }
                            Some("parameters") => shared.push(val),
                            Some("handler") => handler = Some(val),
                            _ => {}
                        }
                    }
                }
                Form::Vector(c, _) => {
                    children = true;
                    let nested = c.first().is_some_and(|f| matches!(f, Form::Vector(..)));
                    if nested {
                        for y in c {
                            self.walk(from, y, &url, depth + 1);
                        }
                    } else {
                        self.walk(from, x, &url, depth + 1);
                    }
                }
                Form::Sym(s, _) => {
                    // A route table mounted here, or a handler.
                    match self.world.resolve(from, s) {
                        Some((_, def)) if has_route_vectors(def, 0) => {
                            children = true;
                            self.follow(from, s, &url, depth);
                        }
                        _ => handler = Some(x),
                    }
                }
                _ => {}
            }
        }
        if methods.is_empty() {
            if let Some(h) = handler {
                methods.push(("GET".into(), h, line));
            } else if !children && !shared.is_empty() {
                return;
            }
        }
        for (m, data, mline) in methods {
            let _ = mline;
            let mut e = Endpoint::new(&m, &url).at_path(&file, line);
            for p in &shared {
                parameters(p, &m, &mut e);
            }
            match data {
                Form::Map(kv, _) => {
                    for pair in kv.chunks(2) {
                        if let [k, val] = pair {
                            match k.kw() {
                                Some("parameters") => parameters(val, &m, &mut e),
                                Some("handler") => self.handler_reads(from, val, &m, &mut e),
                                _ => {}
                            }
                        }
                    }
                }
                h => self.handler_reads(from, h, &m, &mut e),
            }
            self.out.push(e);
        }
    }

    /// The `defn`s named (not called) in a compojure route body, read as
    /// handlers of the request: `user-ctl/save` in `(wrap #'user-ctl/save)`.
    fn named_handlers(&self, from: usize, f: &Form, m: &str, e: &mut Endpoint, depth: usize) {
        if depth > 3 {
            return;
        }
        match f {
            Form::Sym(s, _) => {
                if let Some((_, d)) = self.world.resolve(from, s) {
                    if d.head() == Some("defn") {
                        self.handler_reads(from, f, m, e);
                    }
                }
            }
            Form::List(v, _) => {
                for x in v.iter().skip(1) {
                    self.named_handlers(from, x, m, e, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// Reads of a handler: an inline `(fn [req] …)` or a `defn` by name.
    fn handler_reads(&self, from: usize, h: &Form, m: &str, e: &mut Endpoint) {
        let (file, f) = match h {
            Form::Sym(s, _) => match self.world.resolve(from, s) {
                Some(d) => d,
                None => return,
            },
            Form::Vector(v, _) => match v.last() {
                Some(last) => return self.handler_reads(from, last, m, e),
                None => return,
            },
            other => (from, other),
        };
        let items = f.items();
        // (defn name [req] …) / (fn [req] …)
        let Some(args_at) = items.iter().position(|x| matches!(x, Form::Vector(..))) else {
            return;
        };
        let mut bound = HashMap::new();
        if let Some(first) = items[args_at].items().first() {
            bindings(
                &Form::Vector(vec![first.clone()], 0),
                "",
                m,
                e,
                &mut bound,
                false,
            );
        }
        for x in &items[args_at + 1..] {
            body_reads(self.world, file, x, m, &bound, e, 0);
        }
    }
}

fn strip_regexes(path: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut after_param = false;
    for c in path.chars() {
        match c {
            ':' if depth == 0 => {
                after_param = true;
                out.push(c);
            }
            '/' if depth == 0 => {
                after_param = false;
                out.push(c);
            }
            '{' if after_param => depth += 1,
            '}' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

fn is_uri(f: &Form) -> bool {
    match f {
        Form::List(v, _) => v.first().and_then(Form::kw) == Some("uri"),
        _ => false,
    }
}

fn has_route_vectors(f: &Form, depth: usize) -> bool {
    if depth > 6 {
        return false;
    }
    match f {
        Form::Vector(v, _)
            if v.first()
                .and_then(Form::string)
                .is_some_and(|s| s.starts_with('/')) =>
        {
            true
        }
        _ => f.items().iter().any(|x| has_route_vectors(x, depth + 1)),
    }
}

/// A binding form: compojure's `[id q :as req]`, or map destructuring of a
/// request (`{{:keys [q]} :params, headers :headers}`). `bound` receives
/// symbols bound to a request part (`params` → `:params`) or to the
/// request itself (`req` → `None`).
fn bindings(
    b: &Form,
    url: &str,
    m: &str,
    e: &mut Endpoint,
    bound: &mut HashMap<String, Option<Option<ParamKind>>>,
    compojure: bool,
) {
    match b {
        Form::Sym(s, _) => {
            bound.insert(s.to_string(), None);
        }
        Form::Vector(v, _) => {
            let mut i = 0;
            while i < v.len() {
                match &v[i] {
                    Form::Sym(s, _) if s == "&" => {}
                    // `[id :<< as-int]`: a coercion, not a parameter.
                    Form::Kw(k, _) if k == "<<" => i += 1,
                    Form::Kw(k, _) if k == "as" => {
                        if let Some(s) = v.get(i + 1).and_then(Form::sym) {
                            bound.insert(s.to_string(), None);
                        }
                        i += 1;
                    }
                    Form::Sym(s, _)
                        if compojure
                            && !url.contains(&format!(":{s}"))
                            && !url.contains(&format!("{{{s}")) =>
                    {
                        add(e, by_method(None, m), s);
                    }
                    Form::Sym(..) if compojure => {}
                    Form::Sym(s, _) => {
                        bound.insert(s.to_string(), None);
                    }
                    x @ Form::Map(..) => bindings(x, url, m, e, bound, compojure),
                    _ => {}
                }
                i += 1;
            }
        }
        Form::Map(kv, _) => {
            for pair in kv.chunks(2) {
                let [target, key] = pair else { continue };
                if target.kw() == Some("as") {
                    if let Some(s) = key.sym() {
                        bound.insert(s.to_string(), None);
                    }
                    continue;
                }
                if let Some(kind) = key.kw().and_then(key_kind) {
                    match target {
                        Form::Sym(s, _) => {
                            bound.insert(s.to_string(), Some(kind));
                        }
                        Form::Map(inner, _) => {
                            for p in inner.chunks(2) {
                                if let [k, names] = p {
                                    if matches!(k.kw(), Some("keys" | "strs")) {
                                        for n in names.items().iter().filter_map(Form::name) {
                                            add(e, by_method(kind, m), n);
                                        }
                                    } else if let Some(n) = names.name() {
                                        if let Form::Sym(..) = k {
                                            add(e, by_method(kind, m), n);
                                        }
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                } else if key.kw() == Some("parameters") {
                    if let Form::Map(inner, _) = target {
                        for p in inner.chunks(2) {
                            if let [t, k] = p {
                                let mut sub = HashMap::new();
                                bindings(
                                    &Form::Map(vec![t.clone(), k.clone()], 0),
                                    url,
                                    m,
                                    e,
                                    &mut sub,
                                    compojure,
                                );
                            }
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// Parameter reads in a handler body.
fn body_reads(
    world: &World,
    from: usize,
    f: &Form,
    m: &str,
    bound: &HashMap<String, Option<Option<ParamKind>>>,
    e: &mut Endpoint,
    depth: usize,
) {
    if depth > 48 {
        return;
    }
    if let Form::List(v, _) = f {
        follow_call(world, from, v, m, bound, e, depth);
        let head = v.first();
        let head_sym = head.and_then(Form::sym).unwrap_or("");
        let part_of = |x: &Form| -> Option<Option<ParamKind>> {
            match x {
                Form::Sym(s, _) => bound.get(s.as_str()).copied().flatten(),
                // (:params req)
                Form::List(w, _) if w.len() == 2 => {
                    let k = w[0].kw()?;
                    if w[1].sym().is_some_and(|s| bound.get(s) == Some(&None)) {
                        key_kind(k)
                    } else {
                        None
                    }
                }
                _ => None,
            }
        };
        match head_sym {
            "get-in" | "->" | "some->" | "->>" => {
                let path: Vec<&Form> = if head_sym == "get-in" {
                    v.get(2)
                        .map(|p| p.items().iter().collect())
                        .unwrap_or_default()
                } else {
                    v.iter().skip(2).collect()
                };
                let from_req = v
                    .get(1)
                    .and_then(Form::sym)
                    .is_some_and(|s| bound.get(s) == Some(&None));
                let from_part = v.get(1).and_then(part_of);
                // (-> req :params (select-keys [:a :b]))
                if from_req {
                    if let (Some(k), Some(Form::List(sel, _))) = (
                        path.first().and_then(|k| k.kw()).and_then(key_kind),
                        path.get(1),
                    ) {
                        if sel.first().and_then(Form::sym) == Some("select-keys") {
                            for n in sel.get(1).map(|x| x.items()).unwrap_or(&[]) {
                                if let Some(n) = n.name() {
                                    add(e, by_method(k, m), n);
                                }
                            }
                        }
                    }
                }
                if from_req {
                    if let (Some(k), Some(n)) = (
                        path.first().and_then(|k| k.kw()).and_then(key_kind),
                        path.get(1).and_then(|n| n.name()),
                    ) {
                        add(e, by_method(k, m), n);
                    }
                } else if let (Some(k), Some(n)) = (from_part, path.first().and_then(|n| n.name()))
                {
                    add(e, by_method(k, m), n);
                }
            }
            "get" | "get-param" => {
                if let (Some(k), Some(n)) =
                    (v.get(1).and_then(part_of), v.get(2).and_then(Form::name))
                {
                    add(e, by_method(k, m), n);
                }
            }
            s if bound.get(s).is_some_and(Option::is_some) => {
                if let (Some(Some(k)), Some(n)) = (bound.get(s), v.get(1).and_then(Form::name)) {
                    add(e, by_method(*k, m), n);
                }
            }
            _ => {
                if let (Some(Form::Kw(n, _)), Some(x)) = (head, v.get(1)) {
                    if v.len() == 2 {
                        if let Some(k) = part_of(x) {
                            add(e, by_method(k, m), n);
                        }
                    }
                }
            }
        }
        if head_sym == "let" || head_sym == "when-let" || head_sym == "if-let" {
            // (let [{:keys [q]} (:params req)] …)
            if let Some(Form::Vector(bs, _)) = v.get(1) {
                for pair in bs.chunks(2) {
                    if let [Form::Map(kv, _), src] = pair {
                        if let Some(k) = part_of(src) {
                            for p in kv.chunks(2) {
                                if let [kk, names] = p {
                                    if matches!(kk.kw(), Some("keys" | "strs")) {
                                        for n in names.items().iter().filter_map(Form::name) {
                                            add(e, by_method(k, m), n);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for x in f.items() {
        body_reads(world, from, x, m, bound, e, depth + 1);
    }
}

/// `(helper request)`: the reads of a `defn` a handler passes its request
/// (or a part of it) to, one level deep.
fn follow_call(
    world: &World,
    from: usize,
    v: &[Form],
    m: &str,
    bound: &HashMap<String, Option<Option<ParamKind>>>,
    e: &mut Endpoint,
    depth: usize,
) {
    if depth > 24 {
        return;
    }
    let Some(name) = v.first().and_then(Form::sym) else {
        return;
    };
    let Some(arg) = v[1..]
        .iter()
        .position(|a| a.sym().is_some_and(|s| bound.contains_key(s)))
    else {
        return;
    };
    let Some((file, def)) = world.resolve(from, name) else {
        return;
    };
    if def.head() != Some("defn") {
        return;
    }
    let items = def.items();
    let Some(args_at) = items.iter().position(|x| matches!(x, Form::Vector(..))) else {
        return;
    };
    let Some(param) = items[args_at].items().get(arg) else {
        return;
    };
    let what = v[1 + arg]
        .sym()
        .and_then(|s| bound.get(s))
        .copied()
        .flatten();
    let mut inner = HashMap::new();
    match (param, what) {
        (Form::Sym(s, _), kind) => {
            inner.insert(s.clone(), kind);
        }
        (p @ Form::Map(..), None) => bindings(p, "", m, e, &mut inner, false),
        _ => return,
    }
    for x in &items[args_at + 1..] {
        body_reads(world, file, x, m, &inner, e, depth + 12);
    }
}

/// Reitit `:parameters {:query [:map [:q string?]] :body {:name string?}}`.
fn parameters(p: &Form, m: &str, e: &mut Endpoint) {
    let Form::Map(kv, _) = p else { return };
    for pair in kv.chunks(2) {
        let [k, schema] = pair else { continue };
        let Some(kind) = k.kw().and_then(key_kind) else {
            continue;
        };
        let kind = by_method(kind, m);
        match schema {
            Form::Map(s, _) => {
                for kk in s.iter().step_by(2) {
                    if let Some(n) = kk.name() {
                        add(e, kind, n);
                    }
                }
            }
            Form::Vector(s, _) if s.first().and_then(Form::kw) == Some("map") => {
                for entry in &s[1..] {
                    if let Some(n) = entry.items().first().and_then(Form::name) {
                        add(e, kind, n);
                    }
                }
            }
            _ => {}
        }
    }
}

fn analyze_clj(file: &SourceFile, out: &mut Output, needle: &[&str]) {
    if is_test_path(&file.path) || !needle.iter().any(|n| file.content.contains(n)) {
        return;
    }
    out.fact(&ns_file(file));
}

fn link_clj(facts: &Facts, flavor: Flavor) -> Vec<Endpoint> {
    let files: Vec<NsFile> = facts.all();
    let world = World::new(&files);
    // Definitions referred to by another definition are walked from there.
    let mut referenced: HashSet<*const Form> = HashSet::new();
    for (i, f) in files.iter().enumerate() {
        for (_, d) in &f.defs {
            mark_refs(&world, i, d, &mut referenced, 0);
        }
    }
    let mut w = Walk {
        world: &world,
        flavor,
        out: Vec::new(),
        stack: Vec::new(),
    };
    for (i, f) in files.iter().enumerate() {
        for (_, d) in &f.defs {
            if referenced.contains(&(d as *const Form)) {
                continue;
            }
            w.stack.push(d as *const Form);
            for x in d.items().iter().skip(2) {
                w.walk(i, x, "", 1);
            }
            w.stack.pop();
        }
    }
    w.out
}

fn mark_refs(world: &World, from: usize, f: &Form, seen: &mut HashSet<*const Form>, depth: usize) {
    if depth > 64 {
        return;
    }
    match f {
        Form::Sym(s, _) => {
            if let Some((_, d)) = world.resolve(from, s) {
                if !std::ptr::eq(d, f) {
                    seen.insert(d as *const Form);
                }
            }
        }
        other => {
            for (i, x) in other.items().iter().enumerate() {
                // The defined name itself is not a reference.
                if i == 1 && other.head().is_some_and(|h| h.starts_with("def")) {
                    continue;
                }
                mark_refs(world, from, x, seen, depth + 1);
            }
        }
    }
}

fn clj_tech(id: &str, name: &str, aliases: &[&str], dep: &str, ns: &str) -> Tech {
    Tech::new(id, "Clojure", name)
        .aliases(aliases.iter().copied())
        .files(["*.clj", "*.cljc"])
        .detect(
            Detect::files(["project.clj", "deps.edn", "build.boot"]).contains([dep.to_string()]),
        )
        .detect(Detect::files(["*.clj", "*.cljc"]).contains([ns.to_string()]))
        .supports(Supports::HTTP)
}

pub struct Compojure;

impl Analyzer for Compojure {
    fn tech(&self) -> Tech {
        clj_tech(
            "clojure_compojure",
            "Compojure",
            &["compojure", "clojure-compojure"],
            "compojure",
            "compojure.core",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_clj(
            file,
            out,
            &[
                "(GET",
                "(POST",
                "(PUT",
                "(DELETE",
                "(PATCH",
                "(ANY",
                "(context",
                "defroutes",
                "routes",
            ],
        );
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_clj(facts, Flavor::Compojure))
    }
}

pub struct Reitit;

impl Analyzer for Reitit {
    fn tech(&self) -> Tech {
        clj_tech(
            "clojure_reitit",
            "Reitit",
            &["reitit", "clojure-reitit"],
            "reitit",
            "reitit.",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_clj(file, out, &["[\"/", "defn"]);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_clj(facts, Flavor::Vectors))
    }
}

pub struct Pedestal;

impl Analyzer for Pedestal {
    fn tech(&self) -> Tech {
        clj_tech(
            "clojure_pedestal",
            "Pedestal",
            &["pedestal", "clojure-pedestal"],
            "io.pedestal",
            "io.pedestal.http",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_clj(file, out, &["[\"/", "defn"]);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_clj(facts, Flavor::Vectors))
    }
}

pub struct Ring;

impl Analyzer for Ring {
    fn tech(&self) -> Tech {
        Tech::new("clojure_ring", "Clojure", "Ring")
            .aliases(["ring", "clojure-ring"])
            .files(["*.clj", "*.cljc"])
            .detect(Detect::files(["*.clj", "*.cljc"]).regex([r"\(:uri\s+\w+\)"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_clj(file, out, &["(:uri"]);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_clj(facts, Flavor::Ring))
    }
}
