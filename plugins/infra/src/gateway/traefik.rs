//! Traefik routers: the `rule` of every HTTP router, wherever Traefik reads
//! it from —
//!
//! - the file provider's dynamic configuration, YAML (`http.routers.<name>.rule`)
//!   or TOML (`[http.routers.<name>]` with `rule = "…"`);
//! - Docker / Compose labels (`traefik.http.routers.<name>.rule=…`, in the
//!   list or the map form of `labels`);
//! - Kubernetes `IngressRoute` resources (`traefik.io/v1alpha1`,
//!   `traefik.containo.us/v1alpha1`): `spec.routes[].match`.
//!
//! Reading a rule: `Path(…)` (exact) and `PathPrefix(…)` give the URLs, as
//! written (Traefik v2 `{id:[0-9]+}` templates become `{id}`);
//! `PathRegexp(…)` is read by [`crate::common::regex_path`]; several
//! arguments (v2 style) or matchers joined by `||` give one route each.
//! `Method(…)` gives the methods (else GET, POST, PUT, PATCH and DELETE);
//! `Header`/`Headers`/`HeaderRegexp` (header) and `Query`/`QueryRegexp`
//! (query, `Query(`k=v`)` in v2, `Query(`k`, `v`)` in v3) give params with
//! their value. Negated matchers (`!PathPrefix(…)`) are exclusions and are
//! not read. A rule without a path matcher (`Host(…)` alone) routes every
//! path: `/`.
//!
//! Location: the `rule` key, label or `match` key. A YAML document that does
//! not parse gets a warning naming the file.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::k8s;
use crate::common::yaml::{self, str_of, TEMPLATE};
use crate::common::{regex_path, ANY_METHODS};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct Traefik;

const FILES: [&str; 3] = ["*.yml", "*.yaml", "*.toml"];

impl Analyzer for Traefik {
    fn tech(&self) -> Tech {
        Tech::new("traefik", "Specification", "Traefik")
            .specification()
            .files(FILES)
            .detect(Detect::files(FILES).regex([
                r"(?s)(?:routers|IngressRoute).*(?:Path|PathPrefix|PathRegexp|Host|HostRegexp)\s*\(",
            ]))
            .supports(Supports {
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path)
            || !file.content.contains("rule") && !file.content.contains("match")
        {
            return;
        }
        if file.path.ends_with(".toml") {
            return toml_rules(file, out);
        }
        if !file.content.contains("routers") && !k8s::declares_kind(&file.content, "IngressRoute") {
            return;
        }
        if k8s::declares_kind(&file.content, "IngressRoute") {
            k8s::objects(
                file,
                "IngressRoute",
                &["traefik.io/", "traefik.containo.us/"],
                |obj| {
                    let routes = obj.value.pointer("/spec/routes").and_then(Value::as_array);
                    for (i, route) in routes.into_iter().flatten().enumerate() {
                        let Some(rule) = route.get("match").and_then(str_of) else {
                            continue;
                        };
                        let line = obj.line(&[
                            Seg::Key("spec"),
                            Seg::Key("routes"),
                            Seg::Index(i),
                            Seg::Key("match"),
                        ]);
                        emit(file, &rule, line, out);
                    }
                },
            );
            return;
        }
        for doc in yaml::documents(file) {
            if let Some(routers) = doc
                .value
                .pointer("/http/routers")
                .and_then(Value::as_object)
            {
                for (name, router) in routers {
                    let Some(rule) = router.get("rule").and_then(str_of) else {
                        continue;
                    };
                    let line = doc.line(&[
                        Seg::Key("http"),
                        Seg::Key("routers"),
                        Seg::Key(name),
                        Seg::Key("rule"),
                    ]);
                    emit(file, &rule, line, out);
                }
            }
            let Some(services) = doc.value.get("services").and_then(Value::as_object) else {
                continue;
            };
            for (svc, service) in services {
                match service.get("labels") {
                    Some(Value::Array(items)) => {
                        for (i, item) in items.iter().enumerate() {
                            let Some((key, rule)) = item.as_str().and_then(|s| s.split_once('='))
                            else {
                                continue;
                            };
                            if is_router_rule(key) {
                                let line = doc.line(&[
                                    Seg::Key("services"),
                                    Seg::Key(svc),
                                    Seg::Key("labels"),
                                    Seg::Index(i),
                                ]);
                                emit(file, rule, line, out);
                            }
                        }
                    }
                    Some(Value::Object(map)) => {
                        for (key, rule) in map {
                            let Some(rule) = str_of(rule).filter(|_| is_router_rule(key)) else {
                                continue;
                            };
                            let line = doc.line(&[
                                Seg::Key("services"),
                                Seg::Key(svc),
                                Seg::Key("labels"),
                                Seg::Key(key),
                            ]);
                            emit(file, &rule, line, out);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// `traefik.http.routers.<name>.rule`.
fn is_router_rule(key: &str) -> bool {
    let key = key.trim();
    key.starts_with("traefik.http.routers.") && key.ends_with(".rule")
}

/// TOML dynamic configuration: `rule = "…"` lines inside a
/// `[http.routers.<name>]` table.
fn toml_rules(file: &SourceFile, out: &mut Output) {
    let mut in_router = false;
    for (n, line) in file.content.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_router = t
                .trim_matches(['[', ']'])
                .trim()
                .starts_with("http.routers.");
            continue;
        }
        if !in_router {
            continue;
        }
        let Some(value) = t
            .strip_prefix("rule")
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('='))
        else {
            continue;
        };
        let value = value.trim();
        let rule = if let Some(v) = value.strip_prefix('"') {
            v.rfind('"').map(|end| v[..end].replace("\\\"", "\""))
        } else if let Some(v) = value.strip_prefix('\'') {
            v.rfind('\'').map(|end| v[..end].to_string())
        } else {
            None
        };
        if let Some(rule) = rule {
            emit(file, &rule, n as u32 + 1, out);
        }
    }
}

fn emit(file: &SourceFile, rule: &str, line: u32, out: &mut Output) {
    if rule.contains(TEMPLATE) && !rule.contains("Path") {
        return;
    }
    let parsed = parse_rule(rule);
    let methods = if parsed.methods.is_empty() {
        ANY_METHODS.iter().map(|m| m.to_string()).collect()
    } else {
        parsed.methods
    };
    let urls = if parsed.paths.is_empty() {
        vec!["/".to_string()]
    } else {
        parsed.paths
    };
    for url in urls.iter().filter(|u| !u.contains(TEMPLATE)) {
        for method in &methods {
            out.endpoint(
                Endpoint::new(method, url.clone())
                    .params(parsed.params.clone())
                    .at(file, line),
            );
        }
    }
}

#[derive(Default, Debug, PartialEq)]
pub struct Rule {
    pub paths: Vec<String>,
    pub methods: Vec<String>,
    pub params: Vec<Param>,
}

/// Read the matchers of a router rule.
pub fn parse_rule(rule: &str) -> Rule {
    let mut out = Rule::default();
    let bytes = rule.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let name = &rule[start..i];
        let negated = rule[..start].trim_end().ends_with('!');
        let mut j = i;
        while j < bytes.len() && bytes[j] == b' ' {
            j += 1;
        }
        if bytes.get(j) != Some(&b'(') {
            continue;
        }
        let (args, end) = matcher_args(rule, j + 1);
        i = end;
        if negated {
            continue;
        }
        match name {
            "Path" | "PathPrefix" => out.paths.extend(args.iter().map(|a| template_path(a))),
            "PathRegexp" => {
                for a in &args {
                    out.paths.extend(regex_path::routes(a).unwrap_or_default());
                }
            }
            "Method" | "Methods" => out
                .methods
                .extend(args.iter().map(|a| a.trim().to_ascii_uppercase())),
            "Header" | "Headers" | "HeaderRegexp" | "HeadersRegexp" => {
                if let Some(h) = args.first() {
                    let value = match (name, args.get(1)) {
                        ("Header" | "Headers", Some(v)) => v.clone(),
                        _ => String::new(),
                    };
                    out.params.push(Param::header(h.clone()).value(value));
                }
            }
            "Query" | "QueryRegexp" => {
                if args.len() >= 2 {
                    let value = if name == "Query" {
                        args.get(1).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    };
                    out.params.push(Param::query(args[0].clone()).value(value));
                } else {
                    for a in &args {
                        let (k, v) = a.split_once('=').unwrap_or((a, ""));
                        let v = if name == "Query" { v } else { "" };
                        out.params.push(Param::query(k).value(v));
                    }
                }
            }
            _ => {}
        }
    }
    out.methods.dedup();
    out
}

/// The quoted arguments of a matcher from just after its `(`; and where the
/// call ends.
fn matcher_args(rule: &str, mut i: usize) -> (Vec<String>, usize) {
    let bytes = rule.as_bytes();
    let mut args = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b')' => return (args, i + 1),
            q @ (b'`' | b'"' | b'\'') => {
                let body = i + 1;
                let Some(len) = rule[body..].find(q as char) else {
                    return (args, bytes.len());
                };
                args.push(rule[body..body + len].to_string());
                i = body + len + 1;
            }
            _ => i += 1,
        }
    }
    (args, i)
}

/// Traefik v2 path templates: `/users/{id:[0-9]+}` → `/users/{id}`.
fn template_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..];
        // The template ends at the brace that closes it (regexes may nest
        // `{2,3}` quantifiers).
        let mut depth = 1;
        let mut end = None;
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = inner[..end].split(':').next().unwrap_or("").trim();
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &inner[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let r = parse_rule("Host(`api.example.com`) && PathPrefix(`/v1`, `/v2`) && !Path(`/v1/internal`) && Method(`GET`, `POST`)");
        assert_eq!(r.paths, ["/v1", "/v2"]);
        assert_eq!(r.methods, ["GET", "POST"]);
        let r =
            parse_rule("Path(`/users/{id:[0-9]{1,4}}`) && Query(`page=1`) && Header(`X-Key`, `k`)");
        assert_eq!(r.paths, ["/users/{id}"]);
        assert_eq!(r.params.len(), 2);
        let r = parse_rule("Host(`x`)");
        assert!(r.paths.is_empty());
        let r = parse_rule("PathRegexp(`^/img/[a-z]+\\.png$`) || Path(\"/é\")");
        assert_eq!(r.paths, ["/img/{param1}", "/é"]);
    }
}
