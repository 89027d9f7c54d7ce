//! Caddy web server: the `Caddyfile` (also `*.caddyfile`, `Caddyfile.*`).
//!
//! In every site block, the directives that serve a request under a path
//! matcher are routes: `handle`, `handle_path`, `route`, `reverse_proxy`,
//! `php_fastcgi`, `file_server`, `respond` (not `respond …` with a 4xx
//! status, nor `abort` / `error`, which refuse). The matcher is the first
//! argument: an inline path (`/api/*`), or a named matcher `@name` defined
//! in the site (`@name path /a /b*`, or a block with `path`, `path_regexp`,
//! `method`, `header`, `query`).
//!
//! - URL: the matcher's path; a trailing `*` is "any rest" (`/api/*` →
//!   `/api/`, `/admin*` → `/admin`). `path_regexp` is read by
//!   [`crate::common::regex_path`]. Paths under a `handle_path` (which strips
//!   its prefix) get that prefix; `handle` and `route` do not strip, so
//!   matchers nested in them are absolute. Matchers with a `*` inside
//!   (`*.php`) match suffixes, not routes.
//! - A site whose `reverse_proxy` / `php_fastcgi` / `file_server` has no
//!   matcher serves every path: `/`.
//! - Methods: the named matcher's `method`; else GET, POST, PUT, PATCH and
//!   DELETE.
//! - Params: `header Name value` (header) and `query key=value` (query)
//!   conditions of the named matcher.
//! - Snippets (`(name) { … }`) are read where a site `import`s them. The
//!   global options block is not a site.
//! - Location: the directive's line.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;

use crate::common::words::{split_words, Escape};
use crate::common::{regex_path, ANY_METHODS};

pub struct Caddy;

const FILES: [&str; 5] = [
    "Caddyfile",
    "Caddyfile.*",
    "*.Caddyfile",
    "*.caddyfile",
    "*.caddy",
];

impl Analyzer for Caddy {
    fn tech(&self) -> Tech {
        Tech::new("caddy", "Specification", "Caddy")
            .specification()
            .aliases(["caddyfile"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([
                r"(?m)^\s*(?:reverse_proxy|handle|handle_path|route|php_fastcgi|file_server|respond)\b",
            ]))
            .supports(Supports {
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let top = parse(&file.content);
        let mut snippets = BTreeMap::new();
        let mut sites = Vec::new();
        for d in &top {
            if let Some(name) = d.name.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
                snippets.insert(name.to_string(), d.block.as_slice());
            } else if !d.name.is_empty() && !d.block.is_empty() {
                sites.push(d.block.as_slice());
            }
        }
        // A single site without braces: its address, then its directives.
        if let Some(first) = top.first() {
            if first.block.is_empty() && !is_directive(&first.name) && sites.is_empty() {
                sites.push(top.get(1..).unwrap_or(&[]));
            }
        }
        for site in sites {
            let mut walk = Walk {
                file,
                out,
                snippets: &snippets,
                matchers: BTreeMap::new(),
            };
            walk.collect_matchers(site, 0);
            walk.block(site, "", true, 0);
        }
    }
}

#[derive(Debug, Default)]
struct Directive {
    name: String,
    args: Vec<String>,
    line: u32,
    block: Vec<Directive>,
}

const SERVING: [&str; 7] = [
    "handle",
    "handle_path",
    "route",
    "reverse_proxy",
    "php_fastcgi",
    "file_server",
    "respond",
];

fn is_directive(name: &str) -> bool {
    SERVING.contains(&name) || name.starts_with('@') || name == "import"
}

#[derive(Clone, Default)]
struct Matcher {
    paths: Vec<String>,
    methods: Vec<String>,
    params: Vec<Param>,
}

struct Walk<'a, 'o> {
    file: &'a SourceFile,
    out: &'o mut Output,
    snippets: &'a BTreeMap<String, &'a [Directive]>,
    matchers: BTreeMap<String, Matcher>,
}

impl Walk<'_, '_> {
    fn collect_matchers(&mut self, dirs: &[Directive], depth: usize) {
        if depth > 8 {
            return;
        }
        for d in dirs {
            if let Some(name) = d.name.strip_prefix('@') {
                let mut m = Matcher::default();
                if d.block.is_empty() {
                    read_condition(&d.args, &mut m);
                } else {
                    for c in &d.block {
                        let mut words = vec![c.name.clone()];
                        words.extend(c.args.iter().cloned());
                        read_condition(&words, &mut m);
                    }
                }
                self.matchers.insert(name.to_string(), m);
            } else if d.name == "import" {
                if let Some(body) = d.args.first().and_then(|a| self.snippets.get(a)) {
                    self.collect_matchers(body, depth + 1);
                }
            } else {
                self.collect_matchers(&d.block, depth + 1);
            }
        }
    }

    fn block(&mut self, dirs: &[Directive], prefix: &str, site: bool, depth: usize) {
        if depth > 8 {
            return;
        }
        for d in dirs {
            let name = d.name.as_str();
            if name == "import" {
                if let Some(body) = d.args.first().and_then(|a| self.snippets.get(a)) {
                    self.block(body, prefix, site, depth + 1);
                }
                continue;
            }
            if !SERVING.contains(&name) {
                continue;
            }
            let matcher = match d.args.first().map(String::as_str) {
                Some(a) if a.starts_with('/') => Some(Matcher {
                    paths: vec![a.to_string()],
                    ..Matcher::default()
                }),
                Some(a) if a.starts_with('@') => {
                    Some(self.matchers.get(&a[1..]).cloned().unwrap_or_default())
                }
                _ => None,
            };
            let refuses = name == "respond" && refuses(d);
            match &matcher {
                Some(m) if !refuses && !refuses_all(&d.block) => {
                    self.emit(m, prefix, d.line);
                }
                None if site && matches!(name, "reverse_proxy" | "php_fastcgi" | "file_server") => {
                    self.emit(
                        &Matcher {
                            paths: vec!["/".into()],
                            ..Matcher::default()
                        },
                        prefix,
                        d.line,
                    );
                }
                _ => {}
            }
            if d.block.is_empty() || !matches!(name, "handle" | "handle_path" | "route") {
                continue;
            }
            let inner_prefix = match (name, &matcher) {
                ("handle_path", Some(m)) => {
                    let p = m.paths.first().map(|p| rest_path(p)).unwrap_or_default();
                    format!("{prefix}{}", p.trim_end_matches('/'))
                }
                _ => prefix.to_string(),
            };
            self.block(&d.block, &inner_prefix, false, depth + 1);
        }
    }

    fn emit(&mut self, m: &Matcher, prefix: &str, line: u32) {
        let methods: Vec<String> = if m.methods.is_empty() {
            ANY_METHODS.iter().map(|s| s.to_string()).collect()
        } else {
            m.methods.clone()
        };
        let paths = if m.paths.is_empty() {
            vec!["/".to_string()]
        } else {
            m.paths.clone()
        };
        for path in paths {
            let rest = rest_path(&path);
            if rest.contains('*') {
                continue;
            }
            let url = if prefix.is_empty() {
                rest
            } else if rest == "/" {
                format!("{prefix}/")
            } else {
                format!("{prefix}{rest}")
            };
            for method in &methods {
                self.out.endpoint(
                    Endpoint::new(method, url.clone())
                        .params(m.params.clone())
                        .at(self.file, line),
                );
            }
        }
    }
}

/// `/api/*` → `/api/`, `/admin*` → `/admin`, `*` → `/`.
fn rest_path(p: &str) -> String {
    let p = p.strip_suffix('*').unwrap_or(p);
    if p.is_empty() {
        "/".into()
    } else {
        p.to_string()
    }
}

/// One matcher condition (`path /a /b`, `method GET`, `header X-K v`, `query a=b`).
fn read_condition(words: &[String], m: &mut Matcher) {
    let Some((kind, args)) = words.split_first() else {
        return;
    };
    match kind.as_str() {
        "path" => m.paths.extend(args.iter().cloned()),
        "path_regexp" => {
            // `path_regexp [name] regexp`
            if let Some(re) = args.last() {
                m.paths.extend(regex_path::routes(re).unwrap_or_default());
            }
        }
        "method" => m
            .methods
            .extend(args.iter().map(|a| a.to_ascii_uppercase())),
        "header" => {
            if let Some(name) = args.first() {
                // `*` is "present, any value".
                let value = args.get(1).filter(|v| *v != "*").cloned();
                let value = value.unwrap_or_default();
                m.params.push(Param::header(name.clone()).value(value));
            }
        }
        "query" => {
            for a in args {
                let (k, v) = a.split_once('=').unwrap_or((a, ""));
                m.params.push(Param::query(k).value(v));
            }
        }
        _ => {}
    }
}

/// `respond [matcher] 403`, `respond "Forbidden" 403`.
fn refuses(d: &Directive) -> bool {
    d.args
        .iter()
        .any(|a| a.parse::<u16>().is_ok_and(|c| (400..500).contains(&c)))
}

/// A block that only refuses (`abort`, `error … 403`, `respond 404`).
fn refuses_all(block: &[Directive]) -> bool {
    !block.is_empty()
        && block.iter().all(|d| match d.name.as_str() {
            "abort" | "error" => true,
            "respond" => refuses(d),
            _ => false,
        })
}

/// Tokenize and nest a Caddyfile: one directive per line, `{` at the end of
/// a line opens its block, `}` alone closes it.
fn parse(text: &str) -> Vec<Directive> {
    let mut stack: Vec<Directive> = vec![Directive::default()];
    let mut pending: Vec<(Vec<String>, u32)> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n as u32 + 1;
        let mut words = tokens(raw);
        if words.is_empty() {
            continue;
        }
        // `}` closes; `} else`-style leftovers are ignored.
        while words.first().is_some_and(|w| w == "}") {
            words.remove(0);
            if stack.len() > 1 {
                if let Some(done) = stack.pop() {
                    if let Some(parent) = stack.last_mut() {
                        parent.block.push(done);
                    }
                }
            }
        }
        if words.is_empty() {
            continue;
        }
        let opens = words.last().is_some_and(|w| w == "{");
        if opens {
            words.pop();
        }
        // Site addresses may be split across lines with trailing commas.
        if words.last().is_some_and(|w| w.ends_with(',')) && !opens {
            pending.push((words, line));
            continue;
        }
        let (mut all, first_line) = match pending.first() {
            Some((_, l)) => (Vec::new(), *l),
            None => (Vec::new(), line),
        };
        for (w, _) in pending.drain(..) {
            all.extend(w);
        }
        all.extend(words);
        let mut it = all.into_iter();
        let d = Directive {
            name: it.next().unwrap_or_default(),
            args: it.collect(),
            line: first_line,
            block: Vec::new(),
        };
        if opens {
            stack.push(d);
        } else if let Some(parent) = stack.last_mut() {
            parent.block.push(d);
        }
    }
    while stack.len() > 1 {
        if let Some(done) = stack.pop() {
            if let Some(parent) = stack.last_mut() {
                parent.block.push(done);
            }
        }
    }
    stack.pop().map(|d| d.block).unwrap_or_default()
}

/// Words of one line: quoted (`"…"`, `` `…` ``) or bare; `#` at a word start
/// begins a comment.
fn tokens(line: &str) -> Vec<String> {
    let escape = |quote| {
        if quote == '"' {
            Escape::Drop
        } else {
            Escape::None
        }
    };
    split_words(line, &['"', '`'], escape, Some('#'))
}
