//! Perl: Dancer2 (`perl_dancer2`) and Mojolicious (`perl_mojolicious`).
//!
//! Dancer2: `get/post/put/patch/del/options '/path' => sub { … };`,
//! `any ['get', 'post'] => '/path' => sub { … }` and `prefix '/api' => sub
//! { … }` (block form) or `prefix '/api';` (applies to the routes after it
//! in the file, until the next `prefix`). Parameters:
//! `query_parameters->get('x')` query, `body_parameters->get('x')` form,
//! `param('x')`/`params->{x}` query on GET, form otherwise,
//! `request->header('X')` header, `cookie('x')` cookie, `upload('f')` file,
//! `request->data->{x}` json.
//!
//! Mojolicious: `Mojolicious::Lite` verbs (`get '/x' => sub {…}`, `del`,
//! `any [qw(GET POST)] => '/x'`, `under '/admin' => sub {…}` prefixing the
//! routes after it, or within its `group { … }`) and full applications:
//! `$r->get('/x')->to('users#show')`, nested routes through variables
//! (`my $api = $r->under('/api')`, `my $admin = $r->any('/admin')`,
//! `$api->post('/users')`). A `->to('users#show')` target's parameters come
//! from `sub show` in the `…::Controller::Users` package, in any file.
//! Parameters: `$c->param('x')` query on GET, form otherwise,
//! `$c->req->json->{x}` json, `$c->req->headers->header('X')` header,
//! `$c->cookie('x')` cookie, `$c->req->upload('f')` file,
//! `$c->req->query_params->param('x')` query,
//! `$c->req->body_params->param('x')` form.

use std::collections::HashMap;
use std::ops::Range;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, next_brace, reads, verb_calls, Kind, Read, PERL};

const DANCER_READS: &[Read] = &[
    ("query_parameters->get", Kind::Fixed(ParamKind::Query)),
    ("body_parameters->get", Kind::Fixed(ParamKind::Form)),
    ("route_parameters->get", Kind::Fixed(ParamKind::Path)),
    ("request->headers->header", Kind::Fixed(ParamKind::Header)),
    ("request->header", Kind::Fixed(ParamKind::Header)),
    ("request->data->", Kind::Fixed(ParamKind::Json)),
    ("params->", Kind::QueryOrForm),
    ("param", Kind::QueryOrForm),
    ("cookies->", Kind::Fixed(ParamKind::Cookie)),
    ("cookie", Kind::Fixed(ParamKind::Cookie)),
    ("upload", Kind::Fixed(ParamKind::File)),
];

const MOJO_READS: &[Read] = &[
    ("->req->query_params->param", Kind::Fixed(ParamKind::Query)),
    ("->req->body_params->param", Kind::Fixed(ParamKind::Form)),
    ("->req->headers->header", Kind::Fixed(ParamKind::Header)),
    ("->req->json->", Kind::Fixed(ParamKind::Json)),
    ("->req->upload", Kind::Fixed(ParamKind::File)),
    ("->req->param", Kind::QueryOrForm),
    ("->every_param", Kind::QueryOrForm),
    ("->param", Kind::QueryOrForm),
    ("->signed_cookie", Kind::Fixed(ParamKind::Cookie)),
    ("->cookie", Kind::Fixed(ParamKind::Cookie)),
];

const VERBS: &[&str] = &["get", "post", "put", "patch", "del", "delete", "options"];

fn perl_detect(tech: Tech, module: &str, cpan: &str) -> Tech {
    tech.files(["*.pl", "*.pm", "*.psgi", "*.t"])
        .detect(
            Detect::files(["*.pl", "*.pm", "*.psgi"]).regex([format!(r"(?m)^\s*use\s+{module}\b")]),
        )
        .detect(Detect::files(["cpanfile", "Makefile.PL", "dist.ini"]).contains([cpan.to_string()]))
        .supports(Supports::HTTP)
}

fn skip_file(file: &SourceFile) -> bool {
    is_test_path(&file.path) || file.path.ends_with(".t")
}

/// A bare-statement route found with its handler body.
struct Route {
    at: usize,
    methods: Vec<&'static str>,
    path: String,
    body: Range<usize>,
}

/// `verb '/path' => sub { … }` and `any [...] => '/path' => sub { … }`.
fn bare_routes(code: &Code) -> Vec<Route> {
    let mut out = Vec::new();
    for c in verb_calls(code, VERBS, &[], true) {
        let Some(m) = method_of(&c.verb) else {
            continue;
        };
        let body = handler_body(code, c.after);
        out.push(Route {
            at: c.at,
            methods: vec![m],
            path: c.path,
            body,
        });
    }
    let text = code.text();
    let bytes = text.as_bytes();
    for at in code.find_word("any") {
        let prev = text[..at].trim_end_matches([' ', '\t']);
        if !(prev.is_empty() || prev.ends_with(['\n', ';', '{'])) {
            continue;
        }
        let mut p = code.skip_ws(at + 3);
        let mut methods = Vec::new();
        if bytes.get(p) == Some(&b'[') {
            let Some(close) = code.matching(p) else {
                continue;
            };
            let inner = code.slice(p + 1..close).to_string();
            // ['get', 'post'] or [qw(GET POST)]
            for w in inner.split(|ch: char| !ch.is_ascii_alphabetic()) {
                if let Some(m) = method_of(w) {
                    if !methods.contains(&m) {
                        methods.push(m);
                    }
                }
            }
            p = code.skip_ws(close + 1);
            if text[p..].starts_with("=>") {
                p += 2;
            }
        }
        let Some(lit) = code.string_at(p) else {
            continue;
        };
        if methods.is_empty() {
            methods = vec!["GET", "POST", "PUT", "PATCH", "DELETE"];
        }
        out.push(Route {
            at,
            methods,
            path: lit.value,
            body: handler_body(code, lit.end),
        });
    }
    out.sort_by_key(|r| r.at);
    out
}

/// The `sub { … }` after a route's path (up to the statement's `;`), or
/// the named sub a `\&name` refers to.
fn handler_body(code: &Code, from: usize) -> Range<usize> {
    match next_brace(code, from, b";") {
        Some(open) => common::block(code, open),
        None => {
            let text = code.text();
            let end = text[from..].find(';').map_or(text.len(), |i| from + i);
            let stmt = &text[from..end];
            if let Some(i) = stmt.find("\\&") {
                if let Some(name) = code.ident_at(from + i + 2) {
                    if let Some(r) = named_sub(code, name) {
                        return r;
                    }
                }
            }
            from..end
        }
    }
}

/// The body of `sub name { … }` in this file.
fn named_sub(code: &Code, name: &str) -> Option<Range<usize>> {
    for at in code.find_word("sub") {
        let p = code.skip_ws(at + 3);
        if code.ident_at(p) == Some(name) {
            let open = next_brace(code, p, b";")?;
            return Some(common::block(code, open));
        }
    }
    None
}

/// Prefix scopes: (range, prefix) for `word '/p' => sub { … }` blocks and
/// `word '/p';` statements (to the next statement of the same word, or the
/// end of the enclosing block).
fn scopes(code: &Code, word: &str) -> Vec<(Range<usize>, String)> {
    let text = code.text();
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    let mut statements: Vec<usize> = Vec::new();
    for at in code.find_word(word) {
        let prev = text[..at].trim_end_matches([' ', '\t']);
        if !(prev.is_empty() || prev.ends_with(['\n', ';', '{'])) {
            continue;
        }
        let p = code.skip_ws(at + word.len());
        let value = match code.string_at(p) {
            Some(lit) => lit,
            None => {
                // `prefix undef;` ends the statement form.
                statements.push(at);
                out.push((at..at, String::new()));
                continue;
            }
        };
        let rest = text[value.end..].trim_start();
        let is_block = rest.starts_with("=>") && word == "prefix";
        if is_block {
            if let Some(open) = next_brace(code, value.end, b";") {
                out.push((common::block(code, open), value.value));
                continue;
            }
        }
        statements.push(at);
        out.push((at..at, value.value));
    }
    // Statement forms run to the next statement or the end of the block.
    let bytes = text.as_bytes();
    for (range, _) in out.iter_mut() {
        if range.start != range.end {
            continue;
        }
        let at = range.start;
        let next = statements
            .iter()
            .copied()
            .find(|&s| s > at)
            .unwrap_or(text.len());
        // The end of the enclosing block: the first unmatched `}`.
        let mut depth = 0i32;
        let mut end = next;
        for (i, b) in bytes.iter().enumerate().take(next).skip(at) {
            if !code.is_code(i) {
                continue;
            }
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth < 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        *range = at..end;
    }
    out
}

fn prefix_at(scopes: &[(Range<usize>, String)], at: usize) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for (r, p) in scopes {
        if r.start < at && at < r.end {
            parts.push(p);
        }
    }
    join_url(&parts)
}

pub struct Dancer2;

impl Analyzer for Dancer2 {
    fn tech(&self) -> Tech {
        perl_detect(
            Tech::new("perl_dancer2", "Perl", "Dancer2").aliases([
                "dancer2",
                "dancer",
                "perl-dancer2",
            ]),
            "Dancer2",
            "Dancer2",
        )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip_file(file) || !file.content.contains("Dancer2") {
            return;
        }
        let code = file.code(PERL);
        let prefixes = scopes(&code, "prefix");
        for r in bare_routes(&code) {
            let url = join_url(&[&prefix_at(&prefixes, r.at), &r.path]);
            for m in &r.methods {
                let params = reads(&code, r.body.clone(), DANCER_READS, m);
                out.endpoint(common::endpoint(m, &url, file, file.line_of(r.at), params));
            }
        }
    }
}

/// What a Mojolicious file contributes: its routes, and the actions of the
/// controller package it declares.
#[derive(Serialize, Deserialize)]
struct MojoFile {
    path: String,
    routes: Vec<MojoRoute>,
    package: String,
    actions: Vec<(String, Vec<Param>, Vec<Param>)>,
}

#[derive(Serialize, Deserialize)]
struct MojoRoute {
    methods: Vec<String>,
    url: String,
    line: u32,
    target: String,
    params: Vec<Param>,
    ws: bool,
}

pub struct Mojolicious;

impl Analyzer for Mojolicious {
    fn tech(&self) -> Tech {
        perl_detect(
            Tech::new("perl_mojolicious", "Perl", "Mojolicious").aliases([
                "mojolicious",
                "mojo",
                "perl-mojolicious",
            ]),
            r"Mojo(licious)?(::Lite|::Base)?",
            "Mojolicious",
        )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip_file(file) {
            return;
        }
        let code = file.code(PERL);
        let mut routes = Vec::new();
        if file.content.contains("Mojolicious::Lite") {
            let unders = scopes(&code, "under");
            for r in bare_routes(&code) {
                let url = join_url(&[&prefix_at(&unders, r.at), &r.path]);
                for m in &r.methods {
                    let params = reads(&code, r.body.clone(), MOJO_READS, m);
                    routes.push(MojoRoute {
                        methods: vec![m.to_string()],
                        url: url.clone(),
                        line: file.line_of(r.at),
                        target: String::new(),
                        params,
                        ws: false,
                    });
                }
            }
        }
        full_routes(&code, file, &mut routes);
        let package = package_of(&code);
        let mut actions = Vec::new();
        if package.contains("::Controller::")
            || package.ends_with("Controller")
            || file.content.contains("Mojolicious::Controller")
        {
            for at in code.find_word("sub") {
                let p = code.skip_ws(at + 3);
                let Some(name) = code.ident_at(p) else {
                    continue;
                };
                let Some(open) = next_brace(&code, p, b";") else {
                    continue;
                };
                let body = common::block(&code, open);
                actions.push((
                    name.to_string(),
                    reads(&code, body.clone(), MOJO_READS, "GET"),
                    reads(&code, body, MOJO_READS, "POST"),
                ));
            }
        }
        if routes.is_empty() && actions.is_empty() {
            return;
        }
        out.fact(&MojoFile {
            path: file.path.clone(),
            routes,
            package,
            actions,
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<MojoFile> = facts.all();
        let mut actions: HashMap<String, (&Vec<Param>, &Vec<Param>)> = HashMap::new();
        for f in &files {
            // `App::Controller::Users` (or, in older apps, `App::Users`) → `users`.
            let mut segs: Vec<&str> = f.package.split("::").skip(1).collect();
            if segs.first() == Some(&"Controller") {
                segs.remove(0);
            }
            if !segs.is_empty() {
                let ctrl = segs.join("::");
                for (name, get, post) in &f.actions {
                    actions.insert(format!("{}#{}", snake(&ctrl), name), (get, post));
                }
            }
        }
        let mut out = Vec::new();
        for f in &files {
            for r in &f.routes {
                for m in &r.methods {
                    let mut e = Endpoint::new(m, &r.url)
                        .at_path(&f.path, r.line)
                        .params(r.params.clone());
                    if let Some((get, post)) = actions.get(&r.target) {
                        let ps = if matches!(m.as_str(), "GET" | "HEAD" | "DELETE") {
                            get
                        } else {
                            post
                        };
                        // `$c->param('id')` of a placeholder reads the path.
                        let holes = portolan_plugin_sdk::urls::path_placeholders(&r.url);
                        for p in ps.iter().filter(|p| !holes.contains(&p.name)) {
                            e.push_param(p.clone());
                        }
                    }
                    if r.ws {
                        e.protocol = "ws".into();
                    }
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}

/// `Users` → `users`, `UserAdmin` → `user_admin`, `Admin::Users` → `admin-users`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, part) in name.split("::").enumerate() {
        if i > 0 {
            out.push('-');
        }
        for (j, ch) in part.chars().enumerate() {
            if ch.is_ascii_uppercase() {
                if j > 0 {
                    out.push('_');
                }
                out.push(ch.to_ascii_lowercase());
            } else {
                out.push(ch);
            }
        }
    }
    out
}

fn package_of(code: &Code) -> String {
    code.find_word("package")
        .next()
        .map(|at| {
            let text = code.text();
            let p = code.skip_ws(at + 7);
            let end = text[p..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(text.len(), |i| p + i);
            text[p..end].to_string()
        })
        .unwrap_or_default()
}

/// `$r->verb('/x')…`, nested through `my $v = $r->under('/p')` / `->any('/p')`.
fn full_routes(code: &Code, file: &SourceFile, out: &mut Vec<MojoRoute>) {
    let text = code.text();
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut verbs: Vec<&str> = VERBS.to_vec();
    verbs.extend(["any", "under", "route", "websocket"]);
    for c in verb_calls(code, &verbs, &["->"], false) {
        if c.paren.is_none() {
            continue;
        }
        let recv_prefix = vars.get(&c.recv).cloned().unwrap_or_default();
        let url = join_url(&[&recv_prefix, &c.path]);
        // Assigned to a variable: a parent route.
        let line_start = text[..c.at].rfind(['\n', ';', '{']).map_or(0, |i| i + 1);
        let stmt = &text[line_start..c.at];
        if let Some(eq) = stmt.find('=') {
            let lhs = stmt[..eq].trim().trim_start_matches("my").trim();
            if let Some(var) = lhs.strip_prefix('$') {
                if matches!(c.verb.as_str(), "under" | "any" | "route") {
                    vars.insert(var.to_string(), url);
                    continue;
                }
            }
        }
        if c.verb == "under" {
            continue;
        }
        let close = c.paren.and_then(|p| code.matching(p)).unwrap_or(c.after);
        // `->to('c#a')` or `->to(controller => 'c', action => 'a')`.
        let mut target = String::new();
        let rest_end = text[close..].find(';').map_or(text.len(), |i| close + i);
        if let Some(i) = text[close..rest_end].find("->to(") {
            let open = close + i + 4;
            let args = code.args(open);
            if let Some(lit) = args.first().and_then(|a| code.string_at(a.start)) {
                if lit.value.contains('#') {
                    target = lit.value;
                }
            }
            if target.is_empty() {
                let mut ctrl = String::new();
                let mut action = String::new();
                for a in &args {
                    let pair = code.slice(a.clone());
                    let Some((k, _)) = pair.split_once("=>") else {
                        continue;
                    };
                    let key = k.trim().trim_matches(['\'', '"']);
                    let value = pair
                        .find("=>")
                        .and_then(|i| code.string_at(a.start + i + 2))
                        .map(|s| s.value)
                        .unwrap_or_default();
                    match key {
                        "controller" => ctrl = value,
                        "action" => action = value,
                        _ => {}
                    }
                }
                if !ctrl.is_empty() && !action.is_empty() {
                    target = format!("{ctrl}#{action}");
                }
            }
        }
        let methods: Vec<String> = match c.verb.as_str() {
            "any" | "route" => {
                // `->any([qw(GET POST)] => '/x')` lists its methods first.
                vec!["GET".into()]
            }
            "websocket" => vec!["GET".into()],
            v => vec![method_of(v).unwrap_or("GET").to_string()],
        };
        let body = match c.paren.and_then(|p| next_brace(code, p, b")")) {
            Some(open) if open < close => common::block(code, open),
            _ => c.after..c.after,
        };
        let params = reads(code, body, MOJO_READS, &methods[0]);
        out.push(MojoRoute {
            methods,
            url,
            line: file.line_of(c.at),
            target,
            params,
            ws: c.verb == "websocket",
        });
    }
}

/// Catalyst (`perl_catalyst`): controller actions declared with
/// attributes, `sub name :Path('x') :Args(1) { … }`, `:Local`, `:Global`,
/// `:Path` (the controller's namespace), chained actions (`:Chained('/')
/// :PathPart('users') :CaptureArgs(1)` … `:Chained('base') :PathPart('')
/// :Args(0)`), and `:GET`/`:POST`/… (or `:Method('POST')`) method
/// filters (GET without). A controller's namespace comes from its package
/// (`MyApp::Controller::Admin::Users` → `/admin/users`) or
/// `__PACKAGE__->config(namespace => 'x')`; `Root` is `/`. `:Args(n)` adds
/// `n` placeholders. Reads: `$c->req->params->{x}` / `$c->req->param('x')`
/// query on GET, form otherwise, `$c->req->query_params->{x}` query,
/// `$c->req->body_params->{x}` form, `$c->req->header('X')` header,
/// `$c->req->cookie('c')` cookie, `$c->req->upload('f')` file,
/// `$c->req->body_data->{x}` json.
pub struct Catalyst;

const CATALYST_READS: &[Read] = &[
    ("->req->query_params->", Kind::Fixed(ParamKind::Query)),
    ("->req->query_parameters->", Kind::Fixed(ParamKind::Query)),
    ("->req->body_params->", Kind::Fixed(ParamKind::Form)),
    ("->req->body_parameters->", Kind::Fixed(ParamKind::Form)),
    ("->req->body_data->", Kind::Fixed(ParamKind::Json)),
    ("->req->header", Kind::Fixed(ParamKind::Header)),
    ("->req->cookie", Kind::Fixed(ParamKind::Cookie)),
    ("->req->upload", Kind::Fixed(ParamKind::File)),
    ("->req->params->", Kind::QueryOrForm),
    ("->req->parameters->", Kind::QueryOrForm),
    ("->req->param", Kind::QueryOrForm),
    ("->request->param", Kind::QueryOrForm),
];

/// One action: its attributes as (name, argument).
struct Action {
    name: String,
    attrs: Vec<(String, Option<String>)>,
    at: usize,
    body: Range<usize>,
}

fn catalyst_actions(code: &Code) -> Vec<Action> {
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_word("sub") {
        let p = code.skip_ws(at + 3);
        let Some(name) = code.ident_at(p) else {
            continue;
        };
        let Some(open) = next_brace(code, p, b";") else {
            continue;
        };
        let head = &text[p + name.len()..open];
        if !head.contains(':') {
            continue;
        }
        let mut attrs = Vec::new();
        for part in head.split(':').skip(1) {
            let part = part.trim();
            let (n, arg) = match part.split_once('(') {
                Some((n, a)) => (
                    n.trim(),
                    Some(
                        a.trim_end()
                            .trim_end_matches(')')
                            .trim()
                            .trim_matches(['\'', '"'])
                            .to_string(),
                    ),
                ),
                None => (part, None),
            };
            if !n.is_empty() {
                attrs.push((n.to_string(), arg));
            }
        }
        out.push(Action {
            name: name.to_string(),
            attrs,
            at,
            body: common::block(code, open),
        });
    }
    out
}

fn attr<'a>(a: &'a Action, n: &str) -> Option<Option<&'a str>> {
    a.attrs
        .iter()
        .find(|(k, _)| k == n)
        .map(|(_, v)| v.as_deref())
}

fn namespace_of(package: &str, code: &Code) -> String {
    let text = code.text();
    if let Some(i) = text.find("namespace") {
        if let Some((v, _)) = text[i..].split_once("=>").map(|(_, rest)| (rest, ())) {
            if let Some(lit) = code.string_at(text.len() - v.len()) {
                return lit.value.trim_matches('/').to_string();
            }
        }
    }
    let Some(i) = package
        .find("::Controller::")
        .or_else(|| package.find("::C::"))
    else {
        return String::new();
    };
    let rest = &package[package[i + 2..].find("::").map_or(i, |j| i + 2 + j + 2)..];
    if rest == "Root" {
        return String::new();
    }
    rest.split("::")
        .map(snake)
        .collect::<Vec<_>>()
        .join("/")
        .replace('-', "/")
}

fn args_suffix(n: Option<Option<&str>>) -> String {
    let count = n
        .flatten()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(0);
    (1..=count.min(8)).map(|i| format!("/{{arg{i}}}")).collect()
}

impl Analyzer for Catalyst {
    fn tech(&self) -> Tech {
        perl_detect(
            Tech::new("perl_catalyst", "Perl", "Catalyst").aliases(["catalyst", "perl-catalyst"]),
            "Catalyst",
            "Catalyst::Runtime",
        )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if skip_file(file) || !file.content.contains("Controller") {
            return;
        }
        let code = file.code(PERL);
        let package = package_of(&code);
        if !package.contains("::Controller") && !package.contains("::C::") {
            return;
        }
        let ns = namespace_of(&package, &code);
        let actions = catalyst_actions(&code);
        // Chained: (action name → (path so far incl. captures, chained-to)).
        let by_name: HashMap<&str, &Action> =
            actions.iter().map(|a| (a.name.as_str(), a)).collect();
        for a in &actions {
            let verbs: Vec<&str> = a
                .attrs
                .iter()
                .filter_map(|(k, v)| {
                    if k == "Method" || k == "Via" {
                        v.as_deref().and_then(method_of)
                    } else if k.chars().all(|c| c.is_ascii_uppercase()) {
                        method_of(k)
                    } else {
                        None
                    }
                })
                .collect();
            // Chain parents run before the end point: their reads count.
            let mut bodies = vec![a.body.clone()];
            let url = if let Some(chained) = attr(a, "Chained") {
                // Only end points (Args) are routes.
                if attr(a, "CaptureArgs").is_some() || attr(a, "Args").is_none() {
                    continue;
                }
                let mut segs = vec![chain_part(a, &ns) + &args_suffix(attr(a, "Args"))];
                let mut parent = chained.unwrap_or("");
                let mut depth = 0;
                while !parent.is_empty() && parent != "/" && depth < 16 {
                    let Some(p) = by_name.get(parent.trim_start_matches('/')) else {
                        break;
                    };
                    segs.push(chain_part(p, &ns) + &args_suffix(attr(p, "CaptureArgs")));
                    bodies.push(p.body.clone());
                    parent = attr(p, "Chained").flatten().unwrap_or("");
                    depth += 1;
                }
                segs.reverse();
                join_url(&segs.iter().map(String::as_str).collect::<Vec<_>>())
            } else if let Some(p) = attr(a, "Path") {
                let p = p.unwrap_or("");
                let base = if p.starts_with('/') {
                    String::new()
                } else {
                    ns.clone()
                };
                join_url(&[&base, p]) + &args_suffix(attr(a, "Args"))
            } else if attr(a, "Local").is_some() {
                join_url(&[&ns, &a.name]) + &args_suffix(attr(a, "Args"))
            } else if attr(a, "Global").is_some() {
                join_url(&[&a.name]) + &args_suffix(attr(a, "Args"))
            } else if let Some(r) = attr(a, "Regex").or_else(|| attr(a, "LocalRegex")) {
                join_url(&[&ns, r.unwrap_or("")])
            } else {
                continue;
            };
            let methods = if verbs.is_empty() { vec!["GET"] } else { verbs };
            for m in methods {
                let mut ps = Vec::new();
                for b in &bodies {
                    for p in reads(&code, b.clone(), CATALYST_READS, m) {
                        if !ps.contains(&p) {
                            ps.push(p);
                        }
                    }
                }
                out.endpoint(common::endpoint(m, &url, file, file.line_of(a.at), ps));
            }
        }
    }
}

/// A chained action's own path part: `:PathPart('x')`, its name without one,
/// `''` for none.
fn chain_part(a: &Action, _ns: &str) -> String {
    match attr(a, "PathPart") {
        Some(Some(p)) => p.to_string(),
        Some(None) => a.name.clone(),
        None => a.name.clone(),
    }
}
