//! Crystal's standard library server (`crystal_http`, `HTTP::Server`).
//!
//! The stdlib has no router: applications dispatch on the request by hand.
//! Handler code is the block of `HTTP::Server.new do |context| … end` (or
//! `{ |ctx| … }`, also after a handler list) and the `def call(context)`
//! methods of classes that `include HTTP::Handler`. In that code, on the
//! context variable (`context`, `ctx`, `env`: the block or method
//! parameter):
//! - `case {context.request.method, context.request.path}` with
//!   `when {"GET", "/users"}` branches (several tuples per `when` too;
//!   `{path, method}` order works the same);
//! - `case context.request.path` with `when "/users", "/people"` branches;
//!   the branch's methods are the ones it checks
//!   (`if context.request.method == "POST"`, `case context.request.method
//!   when "GET"`), and every method (reported as GET, POST, PUT, PATCH and
//!   DELETE) when it checks none;
//! - `if`/`elsif`/`unless` conditions `context.request.path == "/x"`
//!   (either side), with `&& context.request.method == "GET"` in the same
//!   condition or method checks in the branch, as above.
//!
//! `request.resource` is treated like `request.path`. Paths: string
//! literals, constants (`API = "/api"`, any file), `+` concatenation and
//! `"#{API}/x"` interpolation; regex `when` branches, `starts_with?`
//! prefixes and `HTTP::StaticFileHandler` are not routes.
//!
//! Parameters from the branch body (see `cr::request`):
//! `context.request.query_params["q"]` (query, also `.fetch`/`["q"]?`),
//! `context.request.headers["X"]` (header), `context.request.cookies["c"]`
//! (cookie), `context.request.form_params["f"]` (form).
//!
//! Not scanned: spec files and other test paths.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cr::call::{read_value, Val};
use crate::cr::dsl::{endpoint_with, str_value, Body};
use crate::cr::request::{reads, Reads};
use crate::cr::tokens::{Kind, Token};
use crate::cr::tree::{self, Stmt};

pub struct Http;

impl Analyzer for Http {
    fn tech(&self) -> Tech {
        Tech::new("crystal_http", "Crystal", "HTTP::Server")
            .aliases(["http", "crystal-http"])
            .files(["*.cr"])
            .detect(Detect::files(["*.cr"]).regex([r"HTTP::Server\.new\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.path.ends_with(".cr") {
            return;
        }
        let facts = scan(file);
        if !facts.routes.is_empty() || !facts.consts.is_empty() {
            out.fact(&facts);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileRoutes> = facts.all();
        let mut consts: BTreeMap<String, Val> = BTreeMap::new();
        for f in &files {
            for (k, v) in &f.consts {
                consts.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let lookup = |n: &str| {
            let n = n.trim_start_matches("::");
            consts
                .get(n)
                .or_else(|| consts.get(n.rsplit("::").next().unwrap_or(n)))
                .cloned()
        };
        let mut out = Vec::new();
        for f in &files {
            for r in &f.routes {
                let Some(url) = str_value(&r.path, &lookup, 0) else {
                    continue;
                };
                if !url.starts_with('/') {
                    continue;
                }
                for m in &r.methods {
                    out.push(endpoint_with(
                        m,
                        &url,
                        &f.path,
                        r.line,
                        &r.reads,
                        Body::Form,
                    ));
                }
            }
        }
        Ok(out)
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FileRoutes {
    pub path: String,
    pub consts: Vec<(String, Val)>,
    pub routes: Vec<Route>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub methods: Vec<String>,
    pub path: Val,
    pub line: u32,
    pub reads: Reads,
}

const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const METHODS: [&str; 9] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "CONNECT",
];

pub fn scan(file: &SourceFile) -> FileRoutes {
    let toks = crate::cr::tokens_of(&file.content);
    let stmts = tree::parse(&toks, &crate::cr::RULES);
    let mut out = FileRoutes {
        path: file.path.clone(),
        ..FileRoutes::default()
    };
    let cx = Cx { file };
    tree::walk(&stmts, &mut |s, stack| {
        // `API = "/api"` constants (at any level).
        if let [c, eq, rest @ ..] = s.toks.as_slice() {
            if c.kind == Kind::Const && eq.is("=") && !rest.is_empty() {
                let v = read_value(rest);
                if matches!(v, Val::Str(..) | Val::Concat(_) | Val::Const(_)) {
                    out.consts.push((c.text.clone(), v));
                }
            }
        }
        let t = &s.toks;
        // `HTTP::Server.new … do |context|`.
        let server = t.windows(5).any(|w| {
            w[0].text == "HTTP"
                && w[1].is("::")
                && w[2].text == "Server"
                && w[3].is(".")
                && w[4].text == "new"
        });
        if server {
            if let Some(b) = s.blocks.iter().find(|b| b.kind == "do" || b.kind == "{") {
                if let Some(var) = b.params.first() {
                    cx.dispatch(&b.body, var, &mut out.routes);
                }
            }
        }
        // `def call(context)` in a class including `HTTP::Handler`.
        if t.first().is_some_and(|d| d.text == "def")
            && t.get(1).is_some_and(|n| n.text == "call")
            && stack.iter().any(|a| includes_handler(a))
        {
            let var = t
                .get(2)
                .filter(|p| p.is("("))
                .and_then(|_| t.get(3))
                .filter(|v| v.kind == Kind::Ident)
                .map(|v| v.text.clone());
            if let (Some(var), Some(b)) = (var, s.blocks.first()) {
                cx.dispatch(&b.body, &var, &mut out.routes);
            }
        }
    });
    out
}

/// A class whose body has `include HTTP::Handler`.
fn includes_handler(s: &Stmt) -> bool {
    s.toks.first().is_some_and(|k| k.text == "class")
        && s.blocks.iter().any(|b| {
            b.body.iter().any(|st| {
                let t = &st.toks;
                t.first().is_some_and(|i| i.text == "include")
                    && t.iter().any(|x| x.text == "Handler")
                    && t.iter().any(|x| x.text == "HTTP")
            })
        })
}

/// Every token of statements, block contents included.
fn all_tokens(stmts: &[Stmt], out: &mut Vec<Token>) {
    for s in stmts {
        out.extend(s.toks.iter().cloned());
        for b in &s.blocks {
            all_tokens(&b.body, out);
        }
    }
}

/// `var.request.<field>` at `i`: the index after it.
fn request_field(t: &[Token], i: usize, var: &str, fields: &[&str]) -> Option<usize> {
    (t.get(i)?.text == var
        && t.get(i + 1)?.is(".")
        && t.get(i + 2)?.text == "request"
        && t.get(i + 3)?.is(".")
        && fields.contains(&t.get(i + 4)?.text.as_str()))
    .then_some(i + 5)
}

const PATH: &[&str] = &["path", "resource"];
const METHOD: &[&str] = &["method"];

/// `var.request.method == "X"` comparisons (either side) in tokens.
fn method_checks(t: &[Token], var: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in t.iter().enumerate() {
        let lit = if let Some(after) = request_field(t, i, var, METHOD) {
            (t.get(after).is_some_and(|e| e.is("==")))
                .then(|| t.get(after + 1))
                .flatten()
        } else if t[i].kind == Kind::Str
            && t.get(i + 1).is_some_and(|e| e.is("=="))
            && request_field(t, i + 2, var, METHOD).is_some()
        {
            Some(&t[i])
        } else {
            None
        };
        if let Some(l) = lit.filter(|l| l.kind == Kind::Str) {
            push_method(&mut out, &l.text);
        }
    }
    out
}

fn push_method(out: &mut Vec<String>, m: &str) {
    let m = m.to_ascii_uppercase();
    if METHODS.contains(&m.as_str()) && !out.contains(&m) {
        out.push(m);
    }
}

/// `var.request.path == <value>` (either side): the value's tokens.
fn path_check<'t>(t: &'t [Token], var: &str) -> Option<&'t [Token]> {
    for i in 0..t.len() {
        if let Some(after) = request_field(t, i, var, PATH) {
            if t.get(after).is_some_and(|e| e.is("==")) {
                let end = (after + 1..t.len())
                    .find(|&k| {
                        t[k].is("&&") || t[k].is("||") || t[k].text == "then" || t[k].is(")")
                    })
                    .unwrap_or(t.len());
                return Some(&t[after + 1..end]);
            }
        }
        if t[i].kind == Kind::Str
            && t.get(i + 1).is_some_and(|e| e.is("=="))
            && request_field(t, i + 2, var, PATH).is_some()
        {
            return Some(&t[i..i + 1]);
        }
    }
    None
}

/// Split a `case`/`if` block body into branches at `when`/`elsif`/`else`
/// statements: (head tokens, body statements).
fn branches<'s>(head: &'s [Token], body: &'s [Stmt]) -> Vec<(&'s [Token], Vec<&'s Stmt>)> {
    let mut out: Vec<(&[Token], Vec<&Stmt>)> = vec![(head, Vec::new())];
    for s in body {
        if matches!(s.head(), Some("when" | "elsif" | "else" | "in")) {
            out.push((&s.toks, Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(s);
        }
    }
    out
}

/// The `n`-th branch head statement (`when …`) of a `case` body, as split
/// by [`branches`].
fn when_stmt(body: &[Stmt], n: usize) -> Option<&Stmt> {
    body.iter()
        .filter(|s| matches!(s.head(), Some("when" | "elsif" | "else" | "in")))
        .nth(n.checked_sub(1)?)
}

struct Cx<'a> {
    file: &'a SourceFile,
}

impl Cx<'_> {
    fn line(&self, t: &Token) -> u32 {
        self.file.line_of(t.start)
    }

    /// The methods a branch serves and what each reads: a nested
    /// `case var.request.method` splits the reads per `when`; otherwise
    /// `var.request.method == "X"` checks (none: every method) share them.
    fn body_info(&self, stmts: &[&Stmt], var: &str, extra: &[Token]) -> Vec<(Vec<String>, Reads)> {
        let mut toks: Vec<Token> = extra.to_vec();
        for s in stmts {
            all_tokens(std::slice::from_ref(*s), &mut toks);
        }
        let mut groups: Vec<(Vec<String>, Reads)> = Vec::new();
        for s in stmts {
            tree::walk(std::slice::from_ref(*s), &mut |st, _| {
                if st.head() != Some("case") || request_field(&st.toks, 1, var, METHOD).is_none() {
                    return;
                }
                for b in st.blocks.iter().filter(|b| b.kind == "case") {
                    for (when, body) in branches(&[], &b.body).into_iter().skip(1) {
                        if when.first().is_none_or(|w| w.text != "when") {
                            continue;
                        }
                        let mut methods = Vec::new();
                        for x in when.iter().filter(|x| x.kind == Kind::Str) {
                            push_method(&mut methods, &x.text);
                        }
                        let mut bt: Vec<Token> = extra.to_vec();
                        for x in &body {
                            all_tokens(std::slice::from_ref(*x), &mut bt);
                        }
                        if !methods.is_empty() {
                            groups.push((methods, reads(&bt)));
                        }
                    }
                }
            });
        }
        if groups.is_empty() {
            groups.push((method_checks(&toks, var), reads(&toks)));
        }
        groups
    }

    /// Routes dispatched by `stmts` on the context `var`.
    fn dispatch(&self, stmts: &[Stmt], var: &str, out: &mut Vec<Route>) {
        for s in stmts {
            let t = &s.toks;
            match s.head() {
                Some("case") => {
                    // `case {a, b}`: the tuple is parsed as a `{` block.
                    let Some(b) = s.blocks.iter().find(|b| b.kind == "case") else {
                        continue;
                    };
                    let mut head: Vec<Token> = t.clone();
                    if let Some(tuple) = s.blocks.iter().find(|b| b.kind == "{") {
                        head.push(Token {
                            kind: Kind::Punct,
                            text: "{".into(),
                            start: tuple.start,
                            end: tuple.start + 1,
                            interpolated: false,
                            space_before: true,
                        });
                        all_tokens(&tuple.body, &mut head);
                    }
                    if head.get(1).is_some_and(|o| o.is("{")) {
                        let method_first = request_field(&head, 2, var, METHOD).is_some();
                        let path_first = request_field(&head, 2, var, PATH).is_some();
                        let has_path =
                            (2..head.len()).any(|i| request_field(&head, i, var, PATH).is_some());
                        let has_method =
                            (2..head.len()).any(|i| request_field(&head, i, var, METHOD).is_some());
                        if (method_first || path_first) && has_path && has_method {
                            for (i, (when, body)) in
                                branches(&[], &b.body).into_iter().enumerate().skip(1)
                            {
                                if when.first().is_none_or(|w| w.text != "when") {
                                    continue;
                                }
                                let reads = self.body_info(&body, var, &[]).into_iter().fold(
                                    Reads::default(),
                                    |mut acc, (_, r)| {
                                        acc.merge(&r);
                                        acc
                                    },
                                );
                                let owner = when_stmt(&b.body, i);
                                self.tuples(when, owner, method_first, &reads, out);
                            }
                            continue;
                        }
                    }
                    if request_field(t, 1, var, PATH).is_some() {
                        for (when, body) in branches(&[], &b.body).into_iter().skip(1) {
                            if when.first().is_none_or(|w| w.text != "when") {
                                continue;
                            }
                            let groups = self.body_info(&body, var, &[]);
                            // `when "/a", PREFIX + "/b", "#{PREFIX}/c"`.
                            let values = when.get(1..).unwrap_or(&[]);
                            for v in values.split(|x| x.is(",")) {
                                let v: Vec<Token> =
                                    v.iter().take_while(|x| x.text != "then").cloned().collect();
                                if let Some(first) = v.first() {
                                    let line = self.line(first);
                                    for (methods, reads) in &groups {
                                        self.push(out, v.clone(), methods, reads, line);
                                    }
                                }
                            }
                        }
                        continue;
                    }
                    self.recurse(s, var, out);
                }
                Some("if" | "unless") => {
                    let Some(b) = s.blocks.first() else { continue };
                    for (head, body) in branches(t, &b.body) {
                        let Some(value) = path_check(head, var) else {
                            // A branch without a path check may dispatch inside.
                            let owned: Vec<Stmt> = body.iter().map(|x| (*x).clone()).collect();
                            self.dispatch(&owned, var, out);
                            continue;
                        };
                        let groups = self.body_info(&body, var, head);
                        let line = value.first().map(|v| self.line(v)).unwrap_or(0);
                        for (methods, reads) in &groups {
                            self.push(out, value.to_vec(), methods, reads, line);
                        }
                    }
                }
                _ => self.recurse(s, var, out),
            }
        }
    }

    fn recurse(&self, s: &Stmt, var: &str, out: &mut Vec<Route>) {
        for b in &s.blocks {
            self.dispatch(&b.body, var, out);
        }
    }

    /// `when {"GET", "/x"}, {"POST", "/y"}` (each tuple parsed inline or as
    /// a `{` block of the `when` statement).
    fn tuples(
        &self,
        head: &[Token],
        owner: Option<&Stmt>,
        method_first: bool,
        reads: &Reads,
        out: &mut Vec<Route>,
    ) {
        let mut groups: Vec<Vec<Token>> = Vec::new();
        for (i, x) in head.iter().enumerate().skip(1) {
            if x.is("{") {
                groups.push(
                    head[i + 1..]
                        .iter()
                        .take_while(|x| !x.is("}"))
                        .cloned()
                        .collect(),
                );
            }
        }
        for b in owner
            .iter()
            .flat_map(|o| o.blocks.iter())
            .filter(|b| b.kind == "{")
        {
            let mut toks = Vec::new();
            all_tokens(&b.body, &mut toks);
            groups.push(toks);
        }
        for g in groups {
            let strs: Vec<&Token> = g.iter().filter(|x| x.kind == Kind::Str).collect();
            if let [a, b] = strs.as_slice() {
                let (m, p) = if method_first { (a, b) } else { (b, a) };
                let mut methods = Vec::new();
                push_method(&mut methods, &m.text);
                if !methods.is_empty() {
                    let line = self.line(p);
                    self.push(out, vec![(*p).clone()], &methods, reads, line);
                }
            }
        }
    }

    fn push(
        &self,
        out: &mut Vec<Route>,
        value: Vec<Token>,
        methods: &[String],
        reads: &Reads,
        line: u32,
    ) {
        let path = read_value(&value);
        if !matches!(path, Val::Str(..) | Val::Concat(_) | Val::Const(_)) {
            return;
        }
        let methods = if methods.is_empty() {
            ANY.iter().map(|m| m.to_string()).collect()
        } else {
            methods.to_vec()
        };
        out.push(Route {
            methods,
            path,
            line,
            reads: reads.clone(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(src: &str) -> Vec<(Vec<String>, String, u32)> {
        scan(&SourceFile::new("src/app.cr", src))
            .routes
            .into_iter()
            .map(|r| (r.methods, format!("{:?}", r.path), r.line))
            .collect()
    }

    #[test]
    fn tuple_and_path_cases() {
        let src = "server = HTTP::Server.new do |context|\n  case {context.request.method, context.request.path}\n  when {\"GET\", \"/a\"}\n    context.request.query_params[\"q\"]?\n  when {\"POST\", \"/b\"}\n    x\n  end\n  case context.request.path\n  when \"/c\"\n    if context.request.method == \"PUT\"\n      y\n    end\n  when \"/d\" then z\n  end\nend\n";
        let r = routes(src);
        let urls: Vec<_> = r
            .iter()
            .map(|(m, p, l)| format!("{} {} {}", m.join("|"), p, l))
            .collect();
        assert_eq!(
            urls,
            [
                "GET Str(\"/a\", false) 3",
                "POST Str(\"/b\", false) 5",
                "PUT Str(\"/c\", false) 9",
                "GET|POST|PUT|PATCH|DELETE Str(\"/d\", false) 13"
            ]
        );
    }

    #[test]
    fn handler_classes_and_ifs() {
        let src = "class Api\n  include HTTP::Handler\n\n  def call(context)\n    if context.request.path == \"/x\" && context.request.method == \"GET\"\n      1\n    elsif \"/y\" == context.request.path\n      2\n    else\n      call_next(context)\n    end\n  end\nend\n";
        let r = routes(src);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].0, ["GET"]);
        assert_eq!(r[1].2, 7);
    }
}
