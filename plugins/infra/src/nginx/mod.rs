//! nginx server configuration (`nginx.conf`, `conf.d/*.conf`,
//! `sites-available/*`, `*.conf.template`): every `location` of every
//! `server` block is a route.
//!
//! - URL: the location path as written. `location = /x` is exact,
//!   `location /x/` and `location ^~ /x/` are prefixes (reported as written,
//!   trailing slash kept). Regex locations (`~`, `~*`) are read by
//!   [`crate::common::regex_path`]: `~ ^/api/v[0-9]+/orders` becomes
//!   `/api/{param1}/orders`, alternatives expand, and suffix patterns such as
//!   `~* \.(png|css)$` are not routes. Named locations (`@x`) are internal
//!   redirect targets, not routes.
//! - Methods: those of a `limit_except` block (`GET` allows `HEAD` too, as
//!   nginx documents), inherited by nested locations; without one, a
//!   location accepts any method and is reported as GET, POST, PUT, PATCH
//!   and DELETE.
//! - Params: variables the location reads — `$arg_x` (query), `$http_x`
//!   (header `X`, underscores as dashes; proxy plumbing such as `Host`,
//!   `Upgrade` or `X-Forwarded-For` left out), `$cookie_x` (cookie).
//! - Left out: locations marked `internal`, denied to everyone (`deny all`
//!   without an `allow`), with their nested locations, and those that only
//!   `return` a 4xx status.
//! - `include` is followed (relative to the including file's folders, with
//!   `/etc/nginx/` and the like stripped; `*` in the file name allowed) when
//!   the included file is in the scanned tree, so locations kept in
//!   snippets count under the `server` that includes them. Files are parsed
//!   in `analyze` and linked once the whole tree was seen.
//! - Location: the `location` line. A file that does not parse gets a
//!   warning naming it and its line; the scan goes on.

pub mod parse;

use std::collections::{BTreeMap, BTreeSet};

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{header_name, regex_path, ANY_METHODS};
use parse::Directive;

pub struct Nginx;

/// Files the analyzer reads.
pub const FILES: [&str; 5] = [
    "*.conf",
    "*.conf.template",
    "**/sites-available/*",
    "**/sites-enabled/*",
    "**/nginx/**/*.conf*",
];

#[derive(Serialize, Deserialize)]
struct FileFact {
    path: String,
    directives: Vec<Directive>,
}

impl Analyzer for Nginx {
    fn tech(&self) -> Tech {
        Tech::new("nginx", "Specification", "nginx")
            .specification()
            .files(FILES)
            .detect(Detect::files(FILES).regex([r"(?s)\bserver\s*\{.*\blocation\s"]))
            .supports(Supports {
                body: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        if !opens_block(&file.content, &["server", "location", "http"]) {
            return;
        }
        match parse::parse(&file.content) {
            Ok(directives) => {
                if mentions(&directives, &["location", "server", "include"]) {
                    out.fact(&FileFact {
                        path: file.path.clone(),
                        directives,
                    });
                }
            }
            Err(e) => host::warn(&format!("{}: invalid nginx configuration: {e}", file.path)),
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: BTreeMap<String, Vec<Directive>> = facts
            .iter::<FileFact>()
            .map(|f| (f.path.replace('\\', "/"), f.directives))
            .collect();
        // Files reached through an `include` are read in the includer's context.
        let mut included = BTreeSet::new();
        for (path, dirs) in &files {
            collect_includes(path, dirs, &files, &mut included, 0);
        }
        let mut out = Vec::new();
        for (path, dirs) in &files {
            if included.contains(path) || !has_server(dirs, &files, path, 0) {
                continue;
            }
            let mut walk = Walk {
                files: &files,
                out: &mut out,
                stack: vec![path.clone()],
            };
            walk.block(path, dirs, false);
        }
        Ok(out)
    }
}

/// Does the text open one of these blocks (`server {`, `location /x {`)?
/// Other `.conf` files (supervisord, fail2ban, …) are not nginx's.
fn opens_block(text: &str, names: &[&str]) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        names.iter().any(|name| {
            line.strip_prefix(name).is_some_and(|rest| {
                rest.starts_with([' ', '\t', '{'])
                    && rest
                        .split('#')
                        .next()
                        .is_some_and(|code| code.contains('{'))
            })
        })
    })
}

fn mentions(dirs: &[Directive], names: &[&str]) -> bool {
    dirs.iter().any(|d| {
        names.contains(&d.name.as_str()) || d.block.as_deref().is_some_and(|b| mentions(b, names))
    })
}

/// Does the file declare a `server` (itself or through its includes)?
fn has_server(
    dirs: &[Directive],
    files: &BTreeMap<String, Vec<Directive>>,
    path: &str,
    depth: usize,
) -> bool {
    if depth > 8 {
        return false;
    }
    dirs.iter().any(|d| match d.name.as_str() {
        "server" => d.block.is_some(),
        "http" => d
            .block
            .as_deref()
            .is_some_and(|b| has_server(b, files, path, depth)),
        "include" => resolve_include(path, d.args.first().map_or("", |a| a), files)
            .iter()
            .any(|p| {
                files
                    .get(p)
                    .is_some_and(|b| has_server(b, files, p, depth + 1))
            }),
        _ => false,
    })
}

fn collect_includes(
    path: &str,
    dirs: &[Directive],
    files: &BTreeMap<String, Vec<Directive>>,
    included: &mut BTreeSet<String>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    for d in dirs {
        if d.name == "include" {
            for p in resolve_include(path, d.args.first().map_or("", |a| a), files) {
                if p != path {
                    included.insert(p);
                }
            }
        }
        if let Some(b) = &d.block {
            collect_includes(path, b, files, included, depth + 1);
        }
    }
}

/// Prefixes of absolute include paths that stand for the config folder.
const CONF_ROOTS: [&str; 5] = [
    "/etc/nginx/",
    "/usr/local/nginx/conf/",
    "/usr/local/etc/nginx/",
    "/opt/homebrew/etc/nginx/",
    "/etc/openresty/",
];

/// The scanned files an `include` argument names, looked up from the
/// including file's folder upwards (nearest first).
fn resolve_include(from: &str, arg: &str, files: &BTreeMap<String, Vec<Directive>>) -> Vec<String> {
    let arg = arg.trim();
    if arg.is_empty() || arg.contains('$') {
        return Vec::new();
    }
    let rel = CONF_ROOTS
        .iter()
        .find_map(|root| arg.strip_prefix(root))
        .unwrap_or(arg)
        .trim_start_matches('/');
    let (rel_dir, pattern) = match rel.rsplit_once('/') {
        Some((d, f)) => (d, f),
        None => ("", rel),
    };
    let mut dir = from.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    loop {
        let base = [dir.as_str(), rel_dir]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/");
        let hits: Vec<String> = files
            .keys()
            .filter(|p| {
                let (pd, pf) = p.rsplit_once('/').unwrap_or(("", p));
                pd == base && wildcard(pattern, pf)
            })
            .cloned()
            .collect();
        if !hits.is_empty() {
            return hits;
        }
        match dir.rsplit_once('/') {
            Some((up, _)) => dir = up.to_string(),
            None if !dir.is_empty() => dir.clear(),
            None => return Vec::new(),
        }
    }
}

/// `*` and `?` in a file name.
fn wildcard(pattern: &str, name: &str) -> bool {
    fn go(p: &[u8], s: &[u8]) -> bool {
        match p.split_first() {
            None => s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|i| go(rest, &s[i..])),
            Some((b'?', rest)) => !s.is_empty() && go(rest, &s[1..]),
            Some((c, rest)) => s.first() == Some(c) && go(rest, &s[1..]),
        }
    }
    go(pattern.as_bytes(), name.as_bytes())
}

struct Walk<'a> {
    files: &'a BTreeMap<String, Vec<Directive>>,
    out: &'a mut Vec<Endpoint>,
    /// Files being read (include cycles stop here).
    stack: Vec<String>,
}

impl Walk<'_> {
    fn block(&mut self, path: &str, dirs: &[Directive], in_server: bool) {
        for d in dirs {
            match (d.name.as_str(), &d.block) {
                ("http", Some(body)) => self.block(path, body, false),
                ("server", Some(body)) => self.block(path, body, true),
                ("location", Some(_)) if in_server => {
                    let methods: Vec<String> = ANY_METHODS.iter().map(|m| m.to_string()).collect();
                    self.location(path, d, &methods);
                }
                ("include", None) => {
                    let arg = d.args.first().map_or("", |a| a);
                    for inc in resolve_include(path, arg, self.files) {
                        if self.stack.contains(&inc) || self.stack.len() > 16 {
                            continue;
                        }
                        let Some(body) = self.files.get(&inc) else {
                            continue;
                        };
                        self.stack.push(inc.clone());
                        self.block(&inc, body, in_server);
                        self.stack.pop();
                    }
                }
                _ => {}
            }
        }
    }

    fn location(&mut self, path: &str, d: &Directive, inherited: &[String]) {
        let Some(body) = &d.block else { return };
        let (modifier, target) = match d.args.as_slice() {
            [one] => match one.strip_prefix('=') {
                Some(rest) if !rest.is_empty() => ("=", rest),
                _ => ("", one.as_str()),
            },
            [m, t, ..] => (m.as_str(), t.as_str()),
            [] => return,
        };
        if target.starts_with('@') || is_closed(body) {
            return;
        }
        let methods = limit_except(body).unwrap_or_else(|| inherited.to_vec());
        if !returns_client_error(body) && !is_test_document(path) {
            let urls = match modifier {
                "~" | "~*" => regex_path::routes(target).unwrap_or_default(),
                _ => vec![target.to_string()],
            };
            let params = variables(body);
            for url in &urls {
                for method in &methods {
                    self.out.push(
                        Endpoint::new(method, url.clone())
                            .params(params.clone())
                            .at_path(path, d.line),
                    );
                }
            }
        }
        for nested in body {
            if nested.name == "location" {
                self.location(path, nested, &methods);
            }
        }
    }
}

/// `internal;`, or `deny all;` without any `allow`.
fn is_closed(body: &[Directive]) -> bool {
    let internal = body.iter().any(|d| d.name == "internal");
    let deny_all = body
        .iter()
        .any(|d| d.name == "deny" && d.args.first().is_some_and(|a| a == "all"));
    let allows = body.iter().any(|d| d.name == "allow");
    internal || (deny_all && !allows)
}

/// `return 403;` / `return 404 "…";`: nothing is served.
fn returns_client_error(body: &[Directive]) -> bool {
    body.iter().any(|d| {
        d.name == "return"
            && d.args
                .first()
                .and_then(|c| c.parse::<u16>().ok())
                .is_some_and(|c| (400..500).contains(&c))
    })
}

/// The methods of a `limit_except` block; `GET` implies `HEAD`.
fn limit_except(body: &[Directive]) -> Option<Vec<String>> {
    let d = body
        .iter()
        .find(|d| d.name == "limit_except" && d.block.is_some())?;
    let mut methods: Vec<String> = Vec::new();
    for m in &d.args {
        let m = m.to_ascii_uppercase();
        if !methods.contains(&m) {
            methods.push(m.clone());
        }
        if m == "GET" && !d.args.iter().any(|a| a.eq_ignore_ascii_case("HEAD")) {
            methods.push("HEAD".into());
        }
    }
    (!methods.is_empty()).then_some(methods)
}

/// Request headers that only carry proxy plumbing.
const PLUMBING: [&str; 10] = [
    "host",
    "upgrade",
    "connection",
    "x_forwarded_for",
    "x_forwarded_proto",
    "x_forwarded_host",
    "x_forwarded_port",
    "x_real_ip",
    "user_agent",
    "accept_encoding",
];

/// `$arg_x`, `$http_x`, `$cookie_x` read in the location's own directives
/// (and its `if` / `limit_except` blocks), in order of appearance.
fn variables(body: &[Directive]) -> Vec<Param> {
    let mut out = Vec::new();
    collect_variables(body, &mut out);
    out
}

fn collect_variables(body: &[Directive], out: &mut Vec<Param>) {
    for d in body {
        if d.name == "location" {
            continue;
        }
        for arg in &d.args {
            for (prefix, make) in [
                ("arg_", Param::query as fn(String) -> Param),
                ("http_", |n: String| Param::header(header_name(&n))),
                ("cookie_", Param::cookie as fn(String) -> Param),
            ] {
                for name in var_names(arg, prefix) {
                    if prefix == "http_" && PLUMBING.contains(&name.to_ascii_lowercase().as_str()) {
                        continue;
                    }
                    let p = make(name);
                    if !out
                        .iter()
                        .any(|q: &Param| q.name == p.name && q.kind == p.kind)
                    {
                        out.push(p);
                    }
                }
            }
        }
        if let Some(b) = &d.block {
            collect_variables(b, out);
        }
    }
}

/// Names after `$<prefix>` / `${<prefix>` in an argument.
fn var_names(arg: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in arg.match_indices('$') {
        let rest = arg[at + 1..].strip_prefix('{').unwrap_or(&arg[at + 1..]);
        let Some(rest) = rest.strip_prefix(prefix) else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_of_a_location() {
        let dirs = parse::parse(
            "if ($arg_token = '') { return 401; }\nproxy_set_header X-User $http_x_user_id;\nproxy_set_header Upgrade $http_upgrade;\nset $s \"${cookie_session}\";\nlocation /n { set $x $arg_inner; }\n",
        )
        .unwrap();
        let names: Vec<String> = variables(&dirs)
            .iter()
            .map(|p| format!("{:?} {}", p.kind, p.name))
            .collect();
        assert_eq!(names, ["Query token", "Header X-User-Id", "Cookie session"]);
    }

    #[test]
    fn limit_except_methods() {
        let dirs = parse::parse("limit_except GET POST { deny all; }").unwrap();
        assert_eq!(limit_except(&dirs).unwrap(), ["GET", "HEAD", "POST"]);
    }

    #[test]
    fn include_resolution() {
        let mut files = BTreeMap::new();
        for p in [
            "app/nginx/snippets/api.conf",
            "app/nginx/conf.d/a.conf",
            "app/nginx/conf.d/b.conf",
        ] {
            files.insert(p.to_string(), Vec::new());
        }
        let from = "app/nginx/sites-available/site";
        assert_eq!(
            resolve_include(from, "snippets/api.conf", &files),
            ["app/nginx/snippets/api.conf"]
        );
        assert_eq!(
            resolve_include(from, "/etc/nginx/snippets/api.conf", &files),
            ["app/nginx/snippets/api.conf"]
        );
        assert_eq!(
            resolve_include(from, "/etc/nginx/conf.d/*.conf", &files).len(),
            2
        );
        assert!(resolve_include(from, "mime.types", &files).is_empty());
    }
}
