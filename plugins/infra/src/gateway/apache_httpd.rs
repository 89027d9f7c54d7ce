//! Apache HTTP Server configuration (`httpd.conf`, `apache2.conf`,
//! `sites-available/*`, `conf.d/*.conf`, `.htaccess`).
//!
//! Routes, in server, `<VirtualHost>` and `<IfModule>`/`<IfDefine>`
//! context:
//!
//! - `<Location /x>` (trailing `*` read as "any rest") and
//!   `<LocationMatch re>` / `<Location ~ re>` (regex read by
//!   [`crate::common::regex_path`]). Locations closed to everyone
//!   (`Require all denied`, or `Deny from all` without `Allow`) are left
//!   out. A `<LimitExcept M…>` that denies all other methods gives the
//!   methods (`GET` allows `HEAD` too).
//! - `ProxyPass /path url` and `ProxyPassMatch re url` (not the `!`
//!   exclusions); `Alias`, `ScriptAlias` and their `…Match` forms.
//! - `RewriteRule pattern target`: the pattern as a path regex (in
//!   `<Directory>` and `.htaccess` context it has no leading slash: one is
//!   added). Rules that forbid (`[F]`, `[G]`), pass through (`-`), are
//!   negated (`!pattern`), or only reach `/` (front controllers such as
//!   `^(.*)$ index.php`, `^$ public/`) are not routes. A preceding
//!   `RewriteCond %{REQUEST_METHOD}` of literal methods gives the methods.
//! - Methods otherwise: GET, POST, PUT, PATCH and DELETE.
//! - Location: the section's or directive's line.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;

use crate::common::words::{split_words, Escape};
use crate::common::{literal_methods, regex_path, ANY_METHODS};

pub struct ApacheHttpd;

const FILES: [&str; 7] = [
    "*.conf",
    ".htaccess",
    "httpd.conf*",
    "apache2.conf",
    "**/sites-available/*",
    "**/sites-enabled/*",
    "**/conf-enabled/*",
];

/// Markers only Apache configuration has.
const MARKERS: [&str; 8] = [
    "<VirtualHost",
    "<Location",
    "<Directory",
    "<IfModule",
    "RewriteEngine",
    "ProxyPass",
    "ScriptAlias",
    "DocumentRoot",
];

impl Analyzer for ApacheHttpd {
    fn tech(&self) -> Tech {
        Tech::new("apache_httpd", "Specification", "Apache HTTP Server")
            .specification()
            .aliases(["apache", "httpd", "htaccess"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([
                r"(?mi)^\s*(?:<Location|<VirtualHost|ProxyPass|RewriteRule|ScriptAlias)\b",
            ]))
            .supports(Supports {
                query: false,
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        let htaccess = file.path.ends_with(".htaccess");
        if !htaccess && !MARKERS.iter().any(|m| file.content.contains(m)) {
            return;
        }
        let tree = parse(&file.content);
        let mut walk = Walk { file, out };
        walk.block(&tree, htaccess, 0);
    }
}

#[derive(Debug, Default)]
struct Node {
    name: String,
    args: Vec<String>,
    line: u32,
    /// `Some` for a `<Section>`.
    body: Option<Vec<Node>>,
}

struct Walk<'a, 'o> {
    file: &'a SourceFile,
    out: &'o mut Output,
}

impl Walk<'_, '_> {
    fn emit(&mut self, urls: &[String], methods: &[String], line: u32) {
        for url in urls {
            for m in methods {
                self.out
                    .endpoint(Endpoint::new(m, url.clone()).at(self.file, line));
            }
        }
    }

    /// `per_dir`: RewriteRule patterns have no leading slash here.
    fn block(&mut self, nodes: &[Node], per_dir: bool, depth: usize) {
        if depth > 16 {
            return;
        }
        let any: Vec<String> = ANY_METHODS.iter().map(|m| m.to_string()).collect();
        let mut rewrite_methods: Option<Vec<String>> = None;
        for n in nodes {
            let name = n.name.to_ascii_lowercase();
            let arg = |i: usize| n.args.get(i).map(String::as_str).unwrap_or("");
            match (name.as_str(), &n.body) {
                ("virtualhost", Some(b)) => self.block(b, false, depth + 1),
                ("ifmodule" | "ifdefine" | "ifversion" | "if" | "else", Some(b)) => {
                    self.block(b, per_dir, depth + 1)
                }
                ("directory" | "directorymatch", Some(b)) => self.block(b, true, depth + 1),
                ("location" | "locationmatch", Some(b)) => {
                    if closed(b) {
                        continue;
                    }
                    let urls = if name == "locationmatch" || arg(0) == "~" {
                        let re = if arg(0) == "~" { arg(1) } else { arg(0) };
                        regex_path::routes(re).unwrap_or_default()
                    } else {
                        star_path(arg(0)).into_iter().collect()
                    };
                    let methods = limit_except(b).unwrap_or_else(|| any.clone());
                    self.emit(&urls, &methods, n.line);
                }
                ("proxypass" | "alias" | "scriptalias", None) if n.args.len() >= 2 => {
                    if arg(1) == "!" {
                        continue;
                    }
                    let urls: Vec<String> = star_path(arg(0)).into_iter().collect();
                    self.emit(&urls, &any, n.line);
                }
                ("proxypassmatch" | "aliasmatch" | "scriptaliasmatch", None)
                    if n.args.len() >= 2 && arg(1) != "!" =>
                {
                    let urls = regex_path::routes(arg(0)).unwrap_or_default();
                    self.emit(&urls, &any, n.line);
                }
                ("rewritecond", None) if arg(0).eq_ignore_ascii_case("%{REQUEST_METHOD}") => {
                    rewrite_methods = literal_methods(arg(1));
                }
                ("rewriterule", None) => {
                    let methods = rewrite_methods.take().unwrap_or_else(|| any.clone());
                    let (pattern, target) = (arg(0), arg(1));
                    let flags = arg(2).to_ascii_uppercase();
                    let flags: Vec<&str> = flags
                        .trim_matches(['[', ']'])
                        .split(',')
                        .map(str::trim)
                        .collect();
                    if target == "-"
                        || pattern.starts_with('!')
                        || flags
                            .iter()
                            .any(|f| matches!(*f, "F" | "G" | "FORBIDDEN" | "GONE"))
                    {
                        continue;
                    }
                    let body = pattern.strip_prefix('^').unwrap_or(pattern);
                    let anchored = if body.starts_with('/') {
                        format!("^{body}")
                    } else if per_dir || pattern.starts_with('^') {
                        format!("^/{body}")
                    } else {
                        continue;
                    };
                    let urls: Vec<String> = regex_path::routes(&anchored)
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|u| u != "/")
                        .collect();
                    self.emit(&urls, &methods, n.line);
                }
                _ => {}
            }
        }
    }
}

/// `/files/*` → `/files/`; a `*` elsewhere is a wildcard, not a route.
fn star_path(p: &str) -> Option<String> {
    let p = p.strip_suffix('*').unwrap_or(p);
    (p.starts_with('/') && !p.contains('*')).then(|| p.to_string())
}

/// `Require all denied`, or `Deny from all` without any `Allow`.
fn closed(body: &[Node]) -> bool {
    let is = |n: &Node, name: &str, args: &[&str]| {
        n.name.eq_ignore_ascii_case(name)
            && n.args.len() == args.len()
            && n.args
                .iter()
                .zip(args)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    };
    let require_denied = body.iter().any(|n| is(n, "Require", &["all", "denied"]));
    let deny_all = body.iter().any(|n| is(n, "Deny", &["from", "all"]));
    let allows = body.iter().any(|n| n.name.eq_ignore_ascii_case("Allow"));
    require_denied || (deny_all && !allows)
}

/// `<LimitExcept GET POST> Require all denied </LimitExcept>`: only those.
fn limit_except(body: &[Node]) -> Option<Vec<String>> {
    let n = body.iter().find(|n| {
        n.name.eq_ignore_ascii_case("LimitExcept") && n.body.as_deref().is_some_and(closed)
    })?;
    let mut methods: Vec<String> = n.args.iter().map(|a| a.to_ascii_uppercase()).collect();
    if methods.iter().any(|m| m == "GET") && !methods.iter().any(|m| m == "HEAD") {
        methods.push("HEAD".into());
    }
    (!methods.is_empty()).then_some(methods)
}

/// Lines into directives and `<Section …>` blocks; `\` continues a line,
/// `#` starts a comment line.
fn parse(text: &str) -> Vec<Node> {
    let mut stack: Vec<Node> = vec![Node {
        body: Some(Vec::new()),
        ..Node::default()
    }];
    let mut joined = String::new();
    let mut start_line = 0u32;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        if joined.is_empty() {
            start_line = line_no;
        }
        let t = raw.trim();
        if let Some(cont) = t.strip_suffix('\\') {
            joined.push_str(cont);
            joined.push(' ');
            continue;
        }
        joined.push_str(t);
        let line = std::mem::take(&mut joined);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("</") {
            if stack.len() > 1 {
                if let Some(done) = stack.pop() {
                    if let Some(body) = stack.last_mut().and_then(|p| p.body.as_mut()) {
                        body.push(done);
                    }
                }
            }
            continue;
        }
        if let Some(open) = line.strip_prefix('<') {
            let inner = open.trim_end().trim_end_matches('>');
            let mut words = words(inner).into_iter();
            stack.push(Node {
                name: words.next().unwrap_or_default(),
                args: words.collect(),
                line: start_line,
                body: Some(Vec::new()),
            });
            continue;
        }
        let mut words = words(line).into_iter();
        let node = Node {
            name: words.next().unwrap_or_default(),
            args: words.collect(),
            line: start_line,
            body: None,
        };
        if let Some(body) = stack.last_mut().and_then(|p| p.body.as_mut()) {
            body.push(node);
        }
    }
    while stack.len() > 1 {
        if let Some(done) = stack.pop() {
            if let Some(body) = stack.last_mut().and_then(|p| p.body.as_mut()) {
                body.push(done);
            }
        }
    }
    stack.pop().and_then(|n| n.body).unwrap_or_default()
}

/// Whitespace-separated words; `"…"` and `'…'` quoted ones keep spaces.
fn words(line: &str) -> Vec<String> {
    split_words(line, &['"', '\''], |_| Escape::QuoteOnly, None)
}
