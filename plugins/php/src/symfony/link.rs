//! Link step: YAML imports (with prefixes) and controller classes.

use std::collections::{BTreeMap, BTreeSet};

use portolan_plugin_sdk::prelude::*;

use super::apip;
use super::scan::{Fact, YImport, YRoute};
use crate::php::expr::Val;
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::normalize_file;
use crate::php::outline::{Attr, Class};
use crate::php::request::{FormUse, Reads, Where};

/// Which controllers an import covers.
#[derive(Clone, Debug)]
enum Scope {
    /// A directory or file path (normalised display path).
    Path(String),
    /// `@AppBundle/Controller/` → a path fragment.
    Fragment(String),
    /// `App\Controller\` → a namespace prefix.
    Namespace(String),
}

struct Yaml<'a> {
    path: &'a str,
    routes: &'a [YRoute],
    imports: &'a [YImport],
}

enum Target {
    Yaml(String),
    Scope(Scope),
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn resolve(import: &YImport, from: &str, yamls: &BTreeMap<String, Yaml<'_>>) -> Option<Target> {
    let res = import.resource.trim();
    // Globs: keep the part before the first wildcard.
    let res = res.split(['*', '{']).next().unwrap_or(res);
    if res.is_empty() {
        return None;
    }
    let is_yaml = res.ends_with(".yaml") || res.ends_with(".yml");
    if let Some(bundle) = res.strip_prefix('@') {
        let frag = normalize_file(bundle);
        if is_yaml {
            return yamls
                .keys()
                .find(|k| k.ends_with(&format!("/{frag}")) || **k == frag)
                .map(|k| Target::Yaml(k.clone()));
        }
        return Some(Target::Scope(Scope::Fragment(frag)));
    }
    // `resource: routing.controllers` (Symfony 7.1+ recipes): the attribute
    // routes of every controller service.
    if res == "routing.controllers" {
        return Some(Target::Scope(Scope::Path(String::new())));
    }
    if res.contains('\\') && !res.contains('/') {
        return Some(Target::Scope(Scope::Namespace(
            res.trim_matches('\\').to_string(),
        )));
    }
    if res.ends_with(".xml") || res.contains("://") {
        return None;
    }
    let full = normalize_file(&format!("{}/{}", dir_of(from), res));
    if is_yaml {
        return yamls.contains_key(&full).then_some(Target::Yaml(full));
    }
    Some(Target::Scope(Scope::Path(full)))
}

impl Scope {
    /// Specificity of the match of a class (longer is more specific).
    fn covers(&self, path: &str, class: &Class) -> Option<usize> {
        let path = normalize_file(path);
        match self {
            Scope::Path(p) if p.is_empty() => Some(0),
            Scope::Path(p) => (path == *p || path.starts_with(&format!("{p}/"))).then_some(p.len()),
            Scope::Fragment(f) => path.contains(&format!("{f}/")).then_some(f.len()),
            Scope::Namespace(ns) => {
                let full = class.fqcn();
                (full.starts_with(&format!("{ns}\\"))).then_some(ns.len())
            }
        }
    }
}

struct Linker<'a> {
    index: Index<'a>,
    yamls: BTreeMap<String, Yaml<'a>>,
    scopes: Vec<(Scope, String)>,
    /// Container parameters and `.env` values (`env(NAME)` keys).
    params: BTreeMap<&'a str, &'a str>,
    /// Prefixes of the `type: api_platform` route imports.
    api_prefixes: Vec<String>,
    /// API Platform resources: (file, resource).
    api: Vec<(&'a str, apip::Resource)>,
    /// Imports of a third-party bundle's route file known to
    /// [`bundle_routes`]: (resource, prefix, file, line).
    bundles: Vec<(String, String, &'a str, u32)>,
    out: Vec<Endpoint>,
}

/// A route of a bundle's route file: methods, path, and the OAuth 2.0
/// parameters its controller reads (RFC 6749: query on the authorization
/// endpoint, a form-encoded body on the token endpoint).
type BundleRoute = (
    &'static [&'static str],
    &'static str,
    &'static [(&'static str, bool)],
);

/// Route files of widely used bundles that live in `vendor/` (never in the
/// scanned tree): their paths and methods, as the bundle declares them.
/// league/oauth2-server-bundle: `oauth2_authorize` (no method
/// restriction) and `oauth2_token` (POST). FOSOAuthServerBundle:
/// `fos_oauth_server_token` and `fos_oauth_server_authorize` (GET, POST).
fn bundle_routes(resource: &str) -> &'static [BundleRoute] {
    const ANY_M: &[&str] = &ANY;
    const POST: &[&str] = &["POST"];
    const GET_POST: &[&str] = &["GET", "POST"];
    // (name, in the query string); the others are form fields.
    const AUTHORIZE: &[(&str, bool)] = &[
        ("response_type", true),
        ("client_id", true),
        ("redirect_uri", true),
        ("scope", true),
        ("state", true),
        ("code_challenge", true),
        ("code_challenge_method", true),
    ];
    const TOKEN: &[(&str, bool)] = &[
        ("grant_type", false),
        ("client_id", false),
        ("client_secret", false),
        ("redirect_uri", false),
        ("code", false),
        ("code_verifier", false),
        ("refresh_token", false),
        ("username", false),
        ("password", false),
        ("scope", false),
    ];
    let r = resource.trim();
    if r.starts_with("@LeagueOAuth2ServerBundle/") && r.contains("routes") {
        return &[(ANY_M, "/authorize", AUTHORIZE), (POST, "/token", TOKEN)];
    }
    match r {
        "@FOSOAuthServerBundle/Resources/config/routing/token.xml" => {
            &[(GET_POST, "/oauth/v2/token", TOKEN)]
        }
        "@FOSOAuthServerBundle/Resources/config/routing/authorize.xml" => {
            &[(GET_POST, "/oauth/v2/auth", AUTHORIZE)]
        }
        _ => &[],
    }
}

pub fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let mut l = Linker {
        index: Index::default(),
        yamls: BTreeMap::new(),
        scopes: Vec::new(),
        params: BTreeMap::new(),
        api_prefixes: Vec::new(),
        api: Vec::new(),
        bundles: Vec::new(),
        out: Vec::new(),
    };
    for f in facts {
        match f {
            Fact::Class { path, class } => {
                l.index.push(path, class);
                for r in apip::from_class(class) {
                    l.api.push((path, r));
                }
            }
            Fact::ApiYaml { path, resources } => {
                for r in resources {
                    l.api.push((path, r.clone()));
                }
            }
            Fact::Params { values } => {
                for (k, v) in values {
                    l.params.entry(k.as_str()).or_insert(v.as_str());
                }
            }
            Fact::Yaml {
                path,
                routes,
                imports,
            } => {
                l.yamls.insert(
                    normalize_file(path),
                    Yaml {
                        path,
                        routes,
                        imports,
                    },
                );
            }
        }
    }
    let mut referenced = BTreeSet::new();
    for (key, y) in &l.yamls {
        for imp in y.imports {
            if let Some(Target::Yaml(t)) = resolve(imp, key, &l.yamls) {
                referenced.insert(t);
            }
        }
    }
    let entries: Vec<String> = l
        .yamls
        .keys()
        .filter(|k| !referenced.contains(*k))
        .cloned()
        .collect();
    for e in entries {
        l.walk(&e, "", 0);
    }
    l.bundle_imports();
    let classes = l.index.classes.clone();
    for (path, class) in classes {
        l.class_routes(path, class);
    }
    l.api_routes();
    l.out
}

/// `{id<\d+>}`, `{page<\d+>?1}`, `{page?1}`, `{!slug}` → `{id}`, `{page}`, `{slug}`;
/// mapped parameters `{id:post}`, `{slug:post.slug}` → `{id}`, `{slug}`.
fn clean(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        // The closing brace of the placeholder, skipping `{…}` quantifiers in requirements.
        let mut depth = 0;
        let mut close = None;
        for (k, c) in after.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                '}' if depth <= 0 => {
                    close = Some(k);
                    break;
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &after[..close];
        let name = inner
            .trim_start_matches('!')
            .split(['<', '?', ':'])
            .next()
            .unwrap_or("");
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

fn text(v: &Val) -> Vec<String> {
    match v {
        Val::Str(s) => vec![s.clone()],
        Val::Array(_) => v.strings(),
        Val::Concat(parts) => {
            let mut s = String::new();
            for p in parts {
                match p {
                    Val::Str(x) => s.push_str(x),
                    _ => return Vec::new(),
                }
            }
            vec![s]
        }
        _ => Vec::new(),
    }
}

const VERBS: [(&str, &str); 7] = [
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Patch", "PATCH"),
    ("Delete", "DELETE"),
    ("Head", "HEAD"),
    ("Options", "OPTIONS"),
];

/// swagger-php's `OA\Get`/`OA\Post`… (also `OpenApi\Attributes\Post`,
/// the older `SWG\…`) document an operation for NelmioApiDocBundle: they
/// are not routes, unlike FOSRest's `Rest\Post`.
fn is_openapi_doc(a: &Attr) -> bool {
    let root = a.ns.split('\\').next().unwrap_or("");
    matches!(root, "OA" | "OpenApi" | "SWG" | "Swagger")
}

/// A route attribute: its paths and stated methods.
fn route_of(a: &Attr) -> Option<(Vec<String>, Vec<&'static str>)> {
    let verb = VERBS.iter().find(|(n, _)| *n == a.name).map(|(_, m)| *m);
    if (a.name != "Route" && verb.is_none()) || is_openapi_doc(a) {
        return None;
    }
    let paths = a
        .named("path")
        .or_else(|| a.named("value"))
        .or_else(|| a.positional(0))
        .map(text)
        .unwrap_or_else(|| vec![String::new()]);
    let mut methods: Vec<&'static str> = verb.into_iter().collect();
    if let Some(m) = a.named("methods").or_else(|| a.positional(2)) {
        methods.extend(method_list(m));
    }
    Some((paths, methods))
}

fn method_list(v: &Val) -> Vec<&'static str> {
    v.strings()
        .iter()
        .flat_map(|s| s.split('|').map(str::to_string).collect::<Vec<_>>())
        .filter_map(|m| http_method(&m))
        .collect()
}

impl<'a> Linker<'a> {
    fn walk(&mut self, key: &str, prefix: &str, depth: usize) {
        if depth > 10 {
            return;
        }
        let Some(y) = self.yamls.get(key) else { return };
        let (path, routes, imports) = (y.path, y.routes, y.imports);
        for r in routes {
            let h = r.controller.as_deref().and_then(|c| self.handler_of(c));
            let methods: Vec<&'static str> = if r.methods.is_empty() {
                ANY.to_vec()
            } else {
                r.methods.iter().filter_map(|m| http_method(m)).collect()
            };
            for p in &r.paths {
                let url = clean(&format!("{prefix}{}", with_slash(p)));
                for m in &methods {
                    self.emit(m, &url, path, r.line, h.as_ref());
                }
            }
        }
        for imp in imports {
            let inner = format!("{prefix}{}", trim_prefix(&self.expand(&imp.prefix)));
            if imp.kind == "api_platform" {
                self.api_prefixes.push(inner);
                continue;
            }
            if !bundle_routes(&imp.resource).is_empty() {
                self.bundles
                    .push((imp.resource.trim().to_string(), inner, path, imp.line));
                continue;
            }
            match resolve(imp, key, &self.yamls) {
                Some(Target::Yaml(t)) => self.walk(&t, &inner, depth + 1),
                Some(Target::Scope(s)) => self.scopes.push((s, inner)),
                None => {}
            }
        }
    }

    /// The routes of known bundles' route files. A bundle imported twice
    /// declares the same route names twice, and the import loaded last
    /// wins: the kernel loads `config/routes.yaml` after `config/routes/*`.
    fn bundle_imports(&mut self) {
        let rank = |file: &str| -> u8 {
            let f = file.to_ascii_lowercase();
            u8::from(f.ends_with("config/routes.yaml") || f.ends_with("config/routes.yml"))
        };
        let mut chosen: BTreeMap<&str, (&str, &'a str, u32)> = BTreeMap::new();
        for (res, prefix, file, line) in &self.bundles {
            match chosen.get(res.as_str()) {
                Some((_, f, _)) if rank(f) >= rank(file) => {}
                _ => {
                    chosen.insert(res, (prefix, file, *line));
                }
            }
        }
        let mut out = Vec::new();
        for (res, (prefix, file, line)) in chosen {
            for (methods, p, params) in bundle_routes(res) {
                let url = clean(&format!("{prefix}{p}"));
                for m in *methods {
                    let mut e = Endpoint::new(m, url.clone()).at_path(file, line);
                    for (name, query) in *params {
                        // GET requests carry every parameter in the query.
                        e.push_param(if *query || *m == "GET" {
                            Param::query(*name)
                        } else {
                            Param::form(*name)
                        });
                    }
                    out.push(e);
                }
            }
        }
        self.out.extend(out);
    }

    /// `%name%` container parameters and `%env(NAME)%` variables resolved
    /// from `parameters:` and `.env`; unknown ones become a `{name}`
    /// placeholder segment (the value is only known at run time).
    fn expand(&self, raw: &str) -> String {
        let mut cur = raw.to_string();
        for _ in 0..4 {
            let Some(open) = cur.find('%') else { break };
            let Some(len) = cur[open + 1..].find('%') else {
                break;
            };
            let name = cur[open + 1..open + 1 + len].to_string();
            let value = match self.params.get(name.as_str()) {
                Some(v) => v.to_string(),
                None => {
                    let bare = name
                        .strip_prefix("env(")
                        .and_then(|x| x.strip_suffix(')'))
                        .map(|x| x.rsplit(':').next().unwrap_or(x))
                        .unwrap_or(&name);
                    match self.params.get(format!("env({bare})").as_str()) {
                        Some(v) => v.to_string(),
                        None => format!("{{{bare}}}"),
                    }
                }
            };
            cur = format!("{}{}{}", &cur[..open], value, &cur[open + 2 + len..]);
        }
        cur
    }

    /// The HTTP operations of API Platform resources, under the prefixes of
    /// the `type: api_platform` imports.
    fn api_routes(&mut self) {
        let prefixes = if self.api_prefixes.is_empty() {
            vec![String::new()]
        } else {
            self.api_prefixes.clone()
        };
        let api = std::mem::take(&mut self.api);
        for (path, r) in &api {
            for route in apip::routes(r) {
                let h = route.controller.as_deref().and_then(|c| self.handler_of(c));
                let body = if matches!(route.method.as_str(), "POST" | "PUT" | "PATCH") {
                    let dto = route.input.as_deref().unwrap_or(&r.class);
                    self.index.props(dto)
                } else {
                    Vec::new()
                };
                for prefix in &prefixes {
                    let url = clean(&format!("{prefix}{}", route.path));
                    let url = if url.is_empty() { "/".to_string() } else { url };
                    let mut e = Endpoint::new(route.method.as_str(), url.as_str())
                        .at_path(*path, route.line);
                    for q in &route.query {
                        e.push_param(Param::query(q.to_string()));
                    }
                    // The identifier is the path's, not the body's.
                    let placeholders = portolan_plugin_sdk::urls::path_placeholders(&url);
                    for p in &body {
                        if p != "id" && !placeholders.contains(p) {
                            e.push_param(Param::json(p));
                        }
                    }
                    if let Some(h) = &h {
                        for p in self.index.params(h, &route.method, &url, BodyKind::Json) {
                            e.push_param(p);
                        }
                    }
                    self.out.push(e);
                }
            }
        }
    }

    /// `App\C::m`, `App\C` (invokable), `AppBundle:Blog:show`.
    fn handler_of(&self, controller: &str) -> Option<Handler> {
        let parts: Vec<&str> = controller.split(':').collect();
        if parts.len() == 3 && !parts[1].is_empty() {
            let (_, c) = self.index.find(&format!("{}Controller", parts[1]))?;
            return self.index.handler(c, &format!("{}Action", parts[2]));
        }
        self.index.handler_of(controller)
    }

    fn emit(&mut self, method: &str, url: &str, path: &str, line: u32, h: Option<&Handler>) {
        let mut e = Endpoint::new(method, url).at_path(path, line);
        // A form is submitted by POST (or PUT/PATCH); a GET of the same
        // action only renders it.
        let submits = !matches!(method, "GET" | "HEAD");
        let with_forms = h.filter(|h| submits && !h.reads.forms.is_empty()).map(|h| {
            let mut h = h.clone();
            for f in &h.reads.forms.clone() {
                self.form_reads(f, &mut h.reads);
            }
            h
        });
        if let Some(h) = with_forms.as_ref().or(h) {
            for p in self.index.params(h, method, url, BodyKind::Form) {
                e.push_param(p);
            }
        }
        self.out.push(e);
    }

    /// The fields of a Symfony form type (its `->add('x')` calls, those of
    /// its `getParent()` type and of its PHP ancestors), as the request
    /// sends them: `block_prefix[field]` for `handleRequest`, the bare
    /// name for `submit($data)` or an empty block prefix.
    fn form_reads(&self, f: &FormUse, reads: &mut Reads) {
        let mut todo = vec![f.class.clone()];
        let mut seen: Vec<String> = Vec::new();
        let mut fields: Vec<&str> = Vec::new();
        let mut prefix: Option<String> = None;
        while let Some(name) = todo.pop() {
            if seen.len() >= 8 || seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            let Some((_, c)) = self.index.find(&name) else {
                continue;
            };
            fields.extend(c.form_fields.iter().map(String::as_str));
            if !c.parent.is_empty() {
                todo.push(c.parent.clone());
            }
            if !c.form_parent.is_empty() {
                todo.push(c.form_parent.clone());
            }
        }
        // The block prefix is the used type's own `getBlockPrefix()`, or one
        // inherited through PHP's `extends` (not through `getParent()`).
        let mut cur = self.index.find(&f.class).map(|(_, c)| c);
        for _ in 0..8 {
            let Some(c) = cur else { break };
            if let Some(p) = &c.block_prefix {
                prefix = Some(p.clone());
                break;
            }
            cur = self.index.find(&c.parent).map(|(_, c)| c);
        }
        let prefix = prefix.unwrap_or_else(|| block_prefix(&f.class));
        let w = if f.json { Where::Json } else { Where::Form };
        for field in fields {
            if f.bare || prefix.is_empty() {
                reads.push(w, field);
            } else {
                reads.push(w, &format!("{prefix}[{field}]"));
            }
        }
    }

    fn prefixes_of(&self, path: &str, class: &Class) -> Vec<String> {
        let mut best = 0;
        let mut out: Vec<String> = Vec::new();
        for (s, prefix) in &self.scopes {
            let Some(n) = s.covers(path, class) else {
                continue;
            };
            if n > best {
                best = n;
                out.clear();
            }
            if n == best && !out.contains(prefix) {
                out.push(prefix.clone());
            }
        }
        if out.is_empty() {
            out.push(String::new());
        }
        out
    }

    fn class_routes(&mut self, path: &'a str, class: &'a Class) {
        let has_routes = class
            .methods
            .iter()
            .any(|m| m.attrs.iter().any(|a| route_of(a).is_some()))
            || (class.attrs.iter().any(|a| a.name == "Route")
                && class.methods.iter().any(|m| m.name == "__invoke"));
        if !has_routes || class.name.is_empty() {
            return;
        }
        let mut globals: Vec<(Vec<String>, Vec<&'static str>, u32)> = class
            .attrs
            .iter()
            .filter(|a| a.name == "Route")
            .filter_map(|a| route_of(a).map(|(p, m)| (p, m, a.line)))
            .collect();
        let class_route = !globals.is_empty();
        if globals.is_empty() {
            globals.push((vec![String::new()], Vec::new(), class.line));
        }
        let prefixes = self.prefixes_of(path, class);
        for m in &class.methods {
            let legacy: Vec<&'static str> = m
                .attrs
                .iter()
                .filter(|a| a.name == "Method")
                .flat_map(|a| a.args.iter().flat_map(method_list))
                .collect();
            let mut routes: Vec<(Vec<String>, Vec<&'static str>, u32, bool)> = m
                .attrs
                .iter()
                .filter_map(|a| route_of(a).map(|(p, ms)| (p, ms, a.line, false)))
                .collect();
            if routes.is_empty() && m.name == "__invoke" && class_route {
                // The class route is the invokable's route.
                routes = globals
                    .iter()
                    .map(|(_, ms, line)| (vec![String::new()], ms.clone(), *line, true))
                    .collect();
            }
            if routes.is_empty() {
                continue;
            }
            let h = with_param_attrs(self.index.handler(class, &m.name), &m.attrs);
            for (paths, ms, line, _) in &routes {
                for (gpaths, gms, _) in &globals {
                    let methods: Vec<&'static str> = if !ms.is_empty() {
                        ms.clone()
                    } else if !legacy.is_empty() {
                        legacy.clone()
                    } else if !gms.is_empty() {
                        gms.clone()
                    } else {
                        ANY.to_vec()
                    };
                    for prefix in &prefixes {
                        for gp in gpaths {
                            for p in paths {
                                let url = clean(&format!(
                                    "{prefix}{}{}",
                                    with_slash(gp),
                                    if p.is_empty() {
                                        String::new()
                                    } else {
                                        with_slash(p)
                                    }
                                ));
                                let url = if url.is_empty() { "/".to_string() } else { url };
                                for method in &methods {
                                    self.emit(method, &url, path, *line, h.as_ref());
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Where a NelmioApiDocBundle parameter attribute documents its parameter:
/// `#[OA\Parameter(name: 'page', in: 'query')]`, `#[OA\QueryParameter]`,
/// `HeaderParameter`, `CookieParameter` (path parameters come from the
/// route itself).
fn documented_in(a: &Attr) -> Option<Where> {
    let place = match a.name.as_str() {
        "Parameter" => a.named("in").and_then(|v| v.str())?,
        "QueryParameter" => "query",
        "HeaderParameter" => "header",
        "CookieParameter" => "cookie",
        _ => return None,
    };
    match place {
        "query" => Some(Where::Query),
        "header" => Some(Where::Header),
        "cookie" => Some(Where::Cookie),
        _ => None,
    }
}

/// FOSRestBundle's parameter attributes on the action
/// (`#[Rest\QueryParam(name: 'page')]`, `@Rest\RequestParam(name="title")`,
/// `FileParam`), read through the `ParamFetcher`: the query string, the
/// decoded body (`$request->request`) and uploaded files; and the query,
/// header and cookie parameters swagger-php attributes document.
fn with_param_attrs(h: Option<Handler>, attrs: &[Attr]) -> Option<Handler> {
    let mut reads = Reads::default();
    for a in attrs {
        let w = match a.name.as_str() {
            _ if is_openapi_doc(a) => match documented_in(a) {
                Some(w) => w,
                None => continue,
            },
            "QueryParam" => Where::Query,
            "RequestParam" => Where::Form,
            "FileParam" => Where::File,
            _ => continue,
        };
        let Some(name) = a
            .named("name")
            .or_else(|| a.positional(0))
            .and_then(|v| v.str())
        else {
            continue;
        };
        reads.push(w, name);
    }
    if reads.items.is_empty() {
        return h;
    }
    let mut out = h.unwrap_or_default();
    reads.merge(&out.reads);
    out.reads.items = reads.items;
    Some(out)
}

/// Symfony's default block prefix of a form type
/// (`StringUtil::fqcnToBlockPrefix`): the short class name without a
/// trailing `Type`, snake-cased with acronyms kept together (`TaskType` →
/// `task`, `APIKeyType` → `api_key`, `UserEditForm` → `user_edit_form`).
fn block_prefix(class: &str) -> String {
    let stem = match class.len().checked_sub(4) {
        Some(n)
            if n > 0 && class.is_char_boundary(n) && class[n..].eq_ignore_ascii_case("type") =>
        {
            &class[..n]
        }
        _ => class,
    };
    let chars: Vec<char> = stem.chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Symfony prepends `/` to a route path that lacks one.
fn with_slash(p: &str) -> String {
    if p.is_empty() || p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
    }
}

/// An import prefix: `/api/` → `/api` (routes bring their own `/`).
fn trim_prefix(p: &str) -> String {
    let t = p.trim().trim_matches('/');
    if t.is_empty() {
        String::new()
    } else {
        format!("/{t}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_cleaned() {
        assert_eq!(
            super::clean("/a/{id<\\d+>}/{page<\\d{1,3}>?1}/{x?}/{!slug}"),
            "/a/{id}/{page}/{x}/{slug}"
        );
        assert_eq!(
            super::clean("/p/{id:post}/{slug:post.slug}"),
            "/p/{id}/{slug}"
        );
    }

    #[test]
    fn form_block_prefixes() {
        assert_eq!(super::block_prefix("TaskType"), "task");
        assert_eq!(super::block_prefix("APIKeyType"), "api_key");
        assert_eq!(super::block_prefix("UserEditForm"), "user_edit_form");
        assert_eq!(super::block_prefix("Type"), "type");
        assert_eq!(super::block_prefix("Oauth2ClientTYPE"), "oauth2_client");
        assert_eq!(
            super::block_prefix("ÉtéType"),
            "Été",
            "ASCII only, as PHP 8.2+"
        );
    }
}
