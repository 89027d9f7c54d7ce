//! System.Net.HttpListener (`cs_httplistener`).
//!
//! Hand-written dispatch over `HttpListenerRequest`, in files that use
//! `HttpListener…` types:
//!
//! - Paths are string literals compared with the request path:
//!   `request.Url.AbsolutePath` (also `LocalPath`, `RawUrl`,
//!   `PathAndQuery`, with `.TrimEnd('/')` / `.ToLowerInvariant()` …), or a
//!   variable assigned from it, via `==`, `.Equals("…")`,
//!   `string.Equals(path, "…", …)`, `switch (path) {
//!   case "/x": … }`, `path switch { "/x" => … }`, and tuple switches
//!   `switch ((method, path)) { case ("GET", "/x"): … }`.
//! - Methods: `request.HttpMethod` (or a variable holding it) compared
//!   the same ways with `"GET"` or `HttpMethod.Get.Method`, in the same
//!   condition as the path (`&&`, `||`), nested inside the path's block, or
//!   around it. A path checked without any method is served for any method
//!   and reported as GET, POST, PUT, PATCH and DELETE.
//! - Prefixes: `listener.Prefixes.Add("http://+:8080/api/")` (literal,
//!   constant or interpolated string, any file). `AbsolutePath` includes
//!   the prefix path, so a compared path already under a registered prefix
//!   path is kept as is; one that is not (dispatch on a path relative to
//!   the prefix) is reported under each non-root prefix path.
//! - Parameters read in the block that handles the path:
//!   `request.QueryString["q"]` / `.QueryString.Get("q")` (query),
//!   `.Headers["X"]` (header), `.Cookies["c"]` (cookie),
//!   `JsonSerializer.Deserialize<T>(…)` / `ReadFromJsonAsync<T>` (json:
//!   the fields of T).
//!
//! Not handled: `StartsWith` / regex path matching (parameterised paths),
//! and dispatch through dictionaries of handlers.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cs::expr::{Expr, Piece};
use crate::cs::index::Index;
use crate::cs::is_test_code;
use crate::cs::outline::{self, scan_reads, Read};
use crate::cs::params::reads;
use crate::cs::tokens::{close_of, Kind, Token};
use crate::minimal::ANY_METHODS;
use crate::scan;

pub struct HttpListener;

impl Analyzer for HttpListener {
    fn tech(&self) -> Tech {
        Tech::new("cs_httplistener", "C#", "System.Net.HttpListener")
            .aliases(["httplistener", "http-listener"])
            .files(["*.cs"])
            .detect(Detect::files(["*.cs"]).contains(["new HttpListener(", "HttpListenerContext"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_code(&file.path, &file.content) || !file.content.contains("HttpListener") {
            return;
        }
        let (outline, toks) = outline::parse(file);
        for f in scan_file(file, &toks) {
            out.fact(&f);
        }
        if !outline.types.is_empty() {
            out.fact(&scan::Fact::File(outline));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hl {
    Prefix(Expr),
    Route {
        file: String,
        line: u32,
        path: String,
        methods: Vec<String>,
        #[serde(default)]
        reads: Vec<Read>,
    },
}

const PATH_SOURCES: &[&str] = &["AbsolutePath", "LocalPath", "RawUrl", "PathAndQuery"];
const VERBS: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Subject {
    Path,
    Method,
}

/// A condition: the paths and methods it tests, where, and the tokens it
/// governs.
#[derive(Debug, Default)]
struct Cond {
    paths: Vec<(String, usize)>,
    methods: Vec<String>,
    at: usize,
    region: (usize, usize),
}

struct Scan<'a> {
    t: &'a [Token],
    path_vars: Vec<String>,
    method_vars: Vec<String>,
}

fn is(t: &[Token], i: usize, c: char) -> bool {
    t.get(i).is_some_and(|x| x.is(c))
}

/// Matching `(` of the `)` at `close`, scanning backwards.
fn open_of(t: &[Token], close: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = close;
    loop {
        let x = t.get(i)?;
        if x.is(')') || x.is(']') {
            depth += 1;
        } else if x.is('(') || x.is('[') {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
        i = i.checked_sub(1)?;
    }
}

/// Identifiers of the member chain ending at `end` (`a.B.C(…)` → a, B, C).
fn chain_back(t: &[Token], end: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = end;
    loop {
        if is(t, i, ')') {
            match open_of(t, i).and_then(|o| o.checked_sub(1)) {
                Some(o) => i = o,
                None => break,
            }
        }
        let Some(x) = t.get(i).filter(|x| x.kind == Kind::Ident) else {
            break;
        };
        out.push(x.text.clone());
        if i >= 2 && is(t, i - 1, '.') {
            i -= 2;
            // `Url!.AbsolutePath`, `Url?.LocalPath`
            if (is(t, i, '!') || is(t, i, '?')) && i >= 1 {
                i -= 1;
            }
        } else {
            break;
        }
    }
    out.reverse();
    out
}

/// Identifiers of the member chain starting at `start`, and its end.
fn chain_fwd(t: &[Token], start: usize) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut i = start;
    while let Some(x) = t.get(i).filter(|x| x.kind == Kind::Ident) {
        out.push(x.text.clone());
        i += 1;
        if is(t, i, '(') {
            i = close_of(t, i).map_or(t.len(), |c| c + 1);
        }
        if (is(t, i, '!') || is(t, i, '?')) && is(t, i + 1, '.') {
            i += 1;
        }
        if is(t, i, '.') {
            i += 1;
        } else {
            break;
        }
    }
    (out, i)
}

/// `"GET"` or `HttpMethod.Get.Method` at `i`.
fn value_at(t: &[Token], i: usize) -> Option<String> {
    let x = t.get(i)?;
    if x.kind == Kind::Str && !x.interp {
        return Some(x.text.clone());
    }
    let (c, _) = chain_fwd(t, i);
    (c.len() == 3 && c[0] == "HttpMethod" && c[2] == "Method").then(|| c[1].to_ascii_uppercase())
}

impl Scan<'_> {
    fn subject(&self, chain: &[String]) -> Option<Subject> {
        if chain.iter().any(|c| PATH_SOURCES.contains(&c.as_str())) {
            return Some(Subject::Path);
        }
        if chain.iter().any(|c| c == "HttpMethod")
            && chain.first().is_some_and(|c| c != "HttpMethod")
        {
            return Some(Subject::Method);
        }
        let first = chain.first()?;
        if self.path_vars.contains(first) {
            Some(Subject::Path)
        } else if self.method_vars.contains(first) {
            Some(Subject::Method)
        } else {
            None
        }
    }

    fn add(&self, cond: &mut Cond, s: Subject, value: String, at: usize) {
        match s {
            Subject::Path if value.starts_with('/') => cond.paths.push((value, at)),
            Subject::Method => {
                let v = value.to_ascii_uppercase();
                if VERBS.contains(&v.as_str()) && !cond.methods.contains(&v) {
                    cond.methods.push(v);
                }
            }
            _ => {}
        }
    }

    /// Comparisons (`==`, `.Equals(…)`) in `start..end`.
    fn comparisons(&self, start: usize, end: usize, cond: &mut Cond) {
        let t = self.t;
        for i in start..end.min(t.len()) {
            if is(t, i, '=') && is(t, i + 1, '=') && i > 0 {
                let prev = &t[i - 1];
                if prev.is('=') || prev.is('!') || prev.is('<') || prev.is('>') {
                    continue;
                }
                // `x == "v"` or `"v" == x`.
                if let Some(v) = value_at(t, i + 2) {
                    if let Some(s) = self.subject(&chain_back(t, i - 1)) {
                        self.add(cond, s, v, i + 2);
                    }
                } else if let Some(v) = (i >= 1).then(|| value_at(t, i - 1)).flatten() {
                    if let Some(s) = self.subject(&chain_fwd(t, i + 2).0) {
                        self.add(cond, s, v, i - 1);
                    }
                }
            }
            if t[i].is_ident("Equals") && i >= 2 && is(t, i - 1, '.') && is(t, i + 1, '(') {
                let receiver = &t[i - 2];
                if receiver.is_ident("string") || receiver.is_ident("String") {
                    // `string.Equals(method, "GET", StringComparison.…)`
                    let close = close_of(t, i + 1).unwrap_or(end);
                    let args = crate::cs::tokens::split_commas(t, i + 2, close);
                    if let (Some(a), Some(b)) = (args.first(), args.get(1)) {
                        let pairs = [(a.start, b.start, b.end), (b.start, a.start, a.end)];
                        for (v_at, subj_start, subj_end) in pairs {
                            let Some(v) = value_at(t, v_at) else { continue };
                            let subject = self.subject(&chain_back(t, subj_end - 1));
                            if let Some(s) = subject.filter(|_| subj_end > subj_start) {
                                self.add(cond, s, v, v_at);
                            }
                        }
                    }
                } else if let Some(v) = value_at(t, i + 2) {
                    if let Some(s) = self.subject(&chain_back(t, i - 2)) {
                        self.add(cond, s, v, i + 2);
                    }
                }
            }
        }
    }
}

/// End of the statement or block starting at `k`.
fn body_end(t: &[Token], k: usize) -> usize {
    if is(t, k, '{') {
        return close_of(t, k).unwrap_or(t.len());
    }
    let mut i = k;
    while i < t.len() {
        if is(t, i, ';') {
            return i;
        }
        if is(t, i, '(') || is(t, i, '{') || is(t, i, '[') {
            i = close_of(t, i).map_or(t.len(), |c| c + 1);
            continue;
        }
        i += 1;
    }
    t.len()
}

fn scan_file(file: &SourceFile, t: &[Token]) -> Vec<Hl> {
    let mut out = Vec::new();
    let mut s = Scan {
        t,
        path_vars: Vec::new(),
        method_vars: Vec::new(),
    };
    // Variables holding the path or the method; prefixes.
    for k in 1..t.len() {
        if t[k].kind == Kind::Ident && is(t, k + 1, '=') && !is(t, k + 2, '=') && !is(t, k - 1, '.')
        {
            let (chain, _) = chain_fwd(t, k + 2);
            match s.subject(&chain) {
                Some(Subject::Path) => s.path_vars.push(t[k].text.clone()),
                Some(Subject::Method) => s.method_vars.push(t[k].text.clone()),
                None => {}
            }
        }
        if t[k].is_ident("Add") && is(t, k - 1, '.') && k >= 2 && t[k - 2].is_ident("Prefixes") {
            if let Some(close) = is(t, k + 1, '(').then(|| close_of(t, k + 1)).flatten() {
                if let Some(e) = t.get(k + 2..close).and_then(crate::cs::expr::parse) {
                    out.push(Hl::Prefix(e));
                }
            }
        }
    }
    let mut conds: Vec<Cond> = Vec::new();
    for k in 0..t.len() {
        // if (…) body
        if t[k].is_ident("if") && is(t, k + 1, '(') {
            let Some(close) = close_of(t, k + 1) else {
                continue;
            };
            let mut c = Cond {
                at: k,
                region: (close + 1, body_end(t, close + 1)),
                ..Cond::default()
            };
            s.comparisons(k + 2, close, &mut c);
            if !c.paths.is_empty() || !c.methods.is_empty() {
                conds.push(c);
            }
        }
        // switch (subject) { case …: } and subject switch { … => … }
        let statement = t[k].is_ident("switch") && is(t, k + 1, '(');
        let expression = t[k].is_ident("switch") && is(t, k + 1, '{') && k > 0;
        if statement || expression {
            let (subjects, open) = if statement {
                let Some(close) = close_of(t, k + 1) else {
                    continue;
                };
                (switch_subjects(&s, k + 2, close), close + 1)
            } else {
                let end = k - 1;
                let subjects = if is(t, end, ')') {
                    open_of(t, end).map_or(Vec::new(), |o| switch_subjects(&s, o + 1, end))
                } else {
                    vec![s.subject(&chain_back(t, end))]
                };
                (subjects, k + 1)
            };
            if subjects.iter().all(Option::is_none) || !is(t, open, '{') {
                continue;
            }
            let close = close_of(t, open).unwrap_or(t.len());
            arms(&s, &subjects, open + 1, close, statement, &mut conds);
        }
    }
    // Pair paths with methods.
    for c in conds.iter().filter(|c| !c.paths.is_empty()) {
        let mut groups: Vec<(Vec<String>, (usize, usize))> = Vec::new();
        if !c.methods.is_empty() {
            groups.push((c.methods.clone(), c.region));
        } else {
            for m in conds
                .iter()
                .filter(|m| m.paths.is_empty() && !m.methods.is_empty())
            {
                if c.region.0 <= m.at && m.at < c.region.1 {
                    groups.push((m.methods.clone(), m.region));
                }
            }
            if groups.is_empty() {
                let outer = conds
                    .iter()
                    .filter(|m| m.paths.is_empty() && !m.methods.is_empty())
                    .filter(|m| m.region.0 <= c.at && c.at < m.region.1)
                    .min_by_key(|m| m.region.1 - m.region.0);
                let methods = outer.map_or_else(
                    || ANY_METHODS.iter().map(|x| x.to_string()).collect(),
                    |m| m.methods.clone(),
                );
                groups.push((methods, c.region));
            }
        }
        for (path, at) in &c.paths {
            for (methods, region) in &groups {
                let mut r = scan_reads(t, region.0, region.1);
                r.extend(deserialized(t, region.0, region.1));
                out.push(Hl::Route {
                    file: file.path.clone(),
                    line: t.get(*at).map_or(1, |x| file.line_of(x.start)),
                    path: path.clone(),
                    methods: methods.clone(),
                    reads: r,
                });
            }
        }
    }
    out
}

/// Subjects of `switch (a)` / `switch ((a, b))` in `start..end`.
fn switch_subjects(s: &Scan, start: usize, end: usize) -> Vec<Option<Subject>> {
    let t = s.t;
    let (start, end) = if is(t, start, '(') && close_of(t, start) == Some(end - 1) {
        (start + 1, end - 1)
    } else {
        (start, end)
    };
    crate::cs::tokens::split_commas(t, start, end)
        .into_iter()
        .map(|r| s.subject(&chain_fwd(t, r.start).0))
        .collect()
}

/// The arms of a switch body `start..end`: `case v:` sections (statement)
/// or `v => …,` arms (expression).
fn arms(
    s: &Scan,
    subjects: &[Option<Subject>],
    start: usize,
    end: usize,
    statement: bool,
    conds: &mut Vec<Cond>,
) {
    let t = s.t;
    // Labels: (start, end = `:` or `=>`, a `default:` label?).
    let mut labels: Vec<(usize, usize, bool)> = Vec::new();
    let mut i = start;
    let mut arm_start = start;
    while i < end {
        if is(t, i, '(') || is(t, i, '{') || is(t, i, '[') {
            i = close_of(t, i).map_or(end, |c| c + 1);
            continue;
        }
        if statement && (t[i].is_ident("case") || t[i].is_ident("default") && is(t, i + 1, ':')) {
            let colon = (i + 1..end).find(|&j| is(t, j, ':')).unwrap_or(end);
            labels.push((i + 1, colon, t[i].is_ident("default")));
            i = colon + 1;
            continue;
        }
        if !statement {
            if is(t, i, '=') && is(t, i + 1, '>') {
                labels.push((arm_start, i, false));
                i += 2;
                continue;
            }
            if is(t, i, ',') {
                arm_start = i + 1;
            }
        }
        i += 1;
    }
    // Regions, last first: stacked statement labels (`case "/a": case
    // "/b": body`) share the body of the last one.
    let mut regions = vec![(0, 0); labels.len()];
    for n in (0..labels.len()).rev() {
        let (_, le, _) = labels[n];
        let next = labels.get(n + 1).map_or(end, |x| x.0);
        let region = if statement {
            (le + 1, next.saturating_sub(1).max(le + 1))
        } else {
            (le + 2, next.max(le + 2))
        };
        regions[n] = if statement && region.0 >= region.1 && n + 1 < labels.len() {
            regions[n + 1]
        } else {
            region
        };
    }
    for (n, &(ls, le, default)) in labels.iter().enumerate() {
        if default {
            continue;
        }
        let mut c = Cond {
            at: ls,
            region: regions[n],
            ..Cond::default()
        };
        let values: Vec<(usize, Option<String>)> = if is(t, ls, '(') {
            let close = close_of(t, ls).unwrap_or(le);
            crate::cs::tokens::split_commas(t, ls + 1, close)
                .into_iter()
                .map(|r| (r.start, value_at(t, r.start)))
                .collect()
        } else {
            vec![(ls, value_at(t, ls))]
        };
        for (k, (at, v)) in values.into_iter().enumerate() {
            if let (Some(Some(subj)), Some(v)) = (subjects.get(k), v) {
                s.add(&mut c, *subj, v, at);
            }
        }
        // `case "/x" when method == "GET":`
        s.comparisons(ls, le, &mut c);
        if !c.paths.is_empty() || !c.methods.is_empty() {
            conds.push(c);
        }
    }
}

/// `JsonSerializer.Deserialize<T>(…)`.
fn deserialized(t: &[Token], start: usize, end: usize) -> Vec<Read> {
    let mut out = Vec::new();
    for i in start..end.min(t.len()) {
        if t[i].is_ident("Deserialize") && i > 0 && is(t, i - 1, '.') && is(t, i + 1, '<') {
            if let Some(c) = close_of(t, i + 1) {
                let ty: String = t
                    .get(i + 2..c)
                    .unwrap_or_default()
                    .iter()
                    .map(|x| x.text.as_str())
                    .collect();
                out.push(Read {
                    kind: ParamKind::Json,
                    name: String::new(),
                    ty: Some(ty),
                });
            }
        }
    }
    out
}

/// The path of a listener prefix URL (`http://+:8080/api/` → `/api/`).
fn prefix_path(idx: &Index, e: &Expr) -> Option<String> {
    let url = idx.eval(None, e).or_else(|| match e.parts.as_slice() {
        [Piece::Interp(raw)] => Some(raw.clone()),
        _ => None,
    })?;
    let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    Some(path.to_string())
}

fn link(facts: &Facts) -> Vec<Endpoint> {
    let files = scan::split(facts).files;
    let idx = Index::new(&files);
    let hl: Vec<Hl> = facts.iter::<Hl>().collect();
    let mut prefixes: Vec<String> = Vec::new();
    for f in &hl {
        if let Hl::Prefix(e) = f {
            if let Some(p) = prefix_path(&idx, e) {
                let p = join_path(&[p.trim_end_matches('/')]);
                if p != "/" && !prefixes.contains(&p) {
                    prefixes.push(p);
                }
            }
        }
    }
    let mut out = Vec::new();
    for f in &hl {
        let Hl::Route {
            file,
            line,
            path,
            methods,
            reads: r,
        } = f
        else {
            continue;
        };
        let path = path.split('?').next().unwrap_or(path);
        let under = |p: &String| path == p || path.starts_with(&format!("{p}/"));
        let urls: Vec<String> = if prefixes.is_empty() || prefixes.iter().any(under) {
            vec![join_path(&[path])]
        } else {
            prefixes
                .iter()
                .map(|p| join_path(&[p.as_str(), path]))
                .collect()
        };
        let params = reads(&idx, r, None);
        for url in &urls {
            for m in methods {
                let mut e = Endpoint::new(m, url.clone()).at_path(file.clone(), *line);
                for p in &params {
                    e.push_param(p.clone());
                }
                out.push(e);
            }
        }
    }
    out
}
