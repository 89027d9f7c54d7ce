//! Drupal (`php_drupal`, 8 to 11).
//!
//! Routes: every route of a module's `*.routing.yml` (`path: '/x/{node}'`,
//! `methods: [GET, POST]`; a route without `methods` matches every method,
//! reported as GET POST PUT PATCH DELETE; `route_callbacks` are dynamic and
//! not reported), at the line of the route's name. Parameters come from the
//! `defaults: _controller: '\Drupal\m\Controller\C::method'` (or `C:method`
//! service notation, or an invokable class) and `_form: '\Drupal\m\Form\F'`
//! (`buildForm` and `submitForm` reads): Symfony request bags
//! (`$request->query->get('x')`, `->request->get('x')`, `->headers->get('X')`);
//! `input`-style reads are form fields. Form state values are not read.
//!
//! REST resource plugins: a class annotated `@RestResource(…, uri_paths =
//! {"canonical" = "/api/x/{id}", "create" = "/api/x"})` (or the PHP 8
//! `#[RestResource(uri_paths: [...])]` attribute) serves its `get`, `put`,
//! `patch` and `delete` methods on the canonical path and `post` on the
//! `create` path (the canonical one when absent).

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::Val;
use crate::php::handler::{http_method, BodyKind, Index, ANY};
use crate::php::outline::{classes, Class};
use crate::php::tokens::tokenize;
use crate::symfony::scan::is_vendor;

pub struct Drupal;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub path: String,
    pub methods: Vec<String>,
    pub handler: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Routes { file: String, routes: Vec<Route> },
    Class { path: String, class: Class },
}

impl Analyzer for Drupal {
    fn tech(&self) -> Tech {
        Tech::new("php_drupal", "PHP", "Drupal")
            .aliases(["drupal", "php-drupal"])
            .files(["*.routing.yml", "*.php"])
            .detect(Detect::files(["composer.json"]).contains(["\"drupal/core"]))
            .detect(Detect::files(["*.info.yml"]).contains(["core_version_requirement", "core:"]))
            .detect(Detect::files(["*.php"]).contains(["@RestResource(", "Drupal\\rest\\"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_test_path(&path) || is_vendor(&path) {
            return;
        }
        if path.ends_with(".routing.yml") {
            let routes = routing(file);
            if !routes.is_empty() {
                out.fact(&Fact::Routes {
                    file: file.path.clone(),
                    routes,
                });
            }
            return;
        }
        if !path.ends_with(".php") || !file.content.contains("class ") {
            return;
        }
        let toks = tokenize(&file.content);
        let line_of = |o: usize| file.line_of(o);
        for class in classes(&file.content, &toks, &line_of) {
            out.fact(&Fact::Class {
                path: file.path.clone(),
                class,
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let mut index = Index::default();
        for f in &facts {
            if let Fact::Class { path, class } = f {
                index.push(path, class);
            }
        }
        let mut out = Vec::new();
        for f in &facts {
            match f {
                Fact::Routes { file, routes } => {
                    for r in routes {
                        routing_endpoints(&index, file, r, &mut out);
                    }
                }
                Fact::Class { path, class } => rest_resource(&index, path, class, &mut out),
            }
        }
        Ok(out)
    }
}

fn routing(file: &SourceFile) -> Vec<Route> {
    let Ok(doc) = serde_yaml::from_str::<serde_yaml::Value>(&file.content) else {
        host::warn(&format!("{}: not valid YAML", file.path));
        return Vec::new();
    };
    let Some(map) = doc.as_mapping() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, route) in map {
        let Some(name) = name.as_str() else { continue };
        let Some(path) = route.get("path").and_then(|p| p.as_str()) else {
            continue;
        };
        let methods = match route.get("methods") {
            Some(serde_yaml::Value::Sequence(s)) => s
                .iter()
                .filter_map(|m| m.as_str())
                .map(str::to_string)
                .collect(),
            Some(serde_yaml::Value::String(s)) => vec![s.clone()],
            _ => Vec::new(),
        };
        let defaults = route.get("defaults");
        let handler = ["_controller", "_form"]
            .iter()
            .find_map(|k| defaults.and_then(|d| d.get(*k)).and_then(|v| v.as_str()))
            .map(|h| {
                if defaults.and_then(|d| d.get("_form")).is_some() {
                    format!("{h}::buildForm")
                } else {
                    h.to_string()
                }
            })
            .unwrap_or_default();
        let line = key_line(file, name);
        out.push(Route {
            path: path.to_string(),
            methods,
            handler,
            line,
        });
    }
    out
}

/// Line of a top-level YAML key.
fn key_line(file: &SourceFile, key: &str) -> u32 {
    let mut offset = 0;
    for l in file.content.split_inclusive('\n') {
        let t = l.trim_end();
        let k = t.strip_suffix(':').unwrap_or(t);
        if !l.starts_with(' ') && (k == key || k.trim_matches(|c| c == '\'' || c == '"') == key) {
            return file.line_of(offset);
        }
        offset += l.len();
    }
    1
}

fn routing_endpoints(index: &Index<'_>, file: &str, r: &Route, out: &mut Vec<Endpoint>) {
    let methods: Vec<&str> = if r.methods.is_empty() {
        ANY.to_vec()
    } else {
        r.methods.iter().filter_map(|m| http_method(m)).collect()
    };
    // `C::m`, `service:method`, invokable `C`.
    let action = match r.handler.split_once("::") {
        Some(_) => r.handler.clone(),
        None => match r.handler.split_once(':') {
            Some((c, m)) => format!("{c}::{m}"),
            None => r.handler.clone(),
        },
    };
    let form = r.handler.ends_with("::buildForm");
    let mut h = if r.handler.is_empty() {
        None
    } else {
        index.handler_of(&action)
    };
    if form {
        let class = action.trim_end_matches("::buildForm");
        if let (Some(h), Some(submit)) = (
            h.as_mut(),
            index.handler_of(&format!("{class}::submitForm")),
        ) {
            h.reads.merge(&submit.reads);
        }
    }
    for m in methods {
        let mut e = Endpoint::new(m, &r.path).at_path(file, r.line);
        if let Some(h) = &h {
            for p in index.params(h, m, &r.path, BodyKind::Form) {
                e.push_param(p);
            }
        }
        out.push(e);
    }
}

fn rest_resource(index: &Index<'_>, path: &str, class: &Class, out: &mut Vec<Endpoint>) {
    let Some(attr) = class.attrs.iter().find(|a| a.name == "RestResource") else {
        return;
    };
    let Some(paths) = attr.named("uri_paths") else {
        return;
    };
    let get = |k: &str| -> Option<String> {
        match paths {
            Val::Array(items) => items.iter().find_map(|(key, v)| {
                (key.as_ref().and_then(Val::str) == Some(k))
                    .then(|| v.str().map(str::to_string))
                    .flatten()
            }),
            _ => None,
        }
    };
    let Some(canonical) = get("canonical") else {
        return;
    };
    let create = get("create").unwrap_or_else(|| canonical.clone());
    for m in &class.methods {
        let (method, url) = match m.name.as_str() {
            "get" => ("GET", &canonical),
            "post" => ("POST", &create),
            "put" => ("PUT", &canonical),
            "patch" => ("PATCH", &canonical),
            "delete" => ("DELETE", &canonical),
            _ => continue,
        };
        let mut e = Endpoint::new(method, url.as_str()).at_path(path, m.line);
        if let Some(h) = index.handler(class, &m.name) {
            for p in index.params(&h, method, url, BodyKind::Json) {
                e.push_param(p);
            }
        }
        out.push(e);
    }
}
