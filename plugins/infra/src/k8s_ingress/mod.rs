//! Kubernetes `Ingress` resources (`networking.k8s.io/v1`, `v1beta1` and
//! `extensions/v1beta1`) in YAML manifests: each `spec.rules[].http.paths[]`
//! entry is a route.
//!
//! - URL: the `path` as written (`Prefix` and `Exact` alike; a missing path
//!   is `/`). `ImplementationSpecific` paths with regex syntax (ingress-nginx
//!   `use-regex`/`rewrite-target` style, `/api(/|$)(.*)`) are read by
//!   [`crate::common::regex_path`].
//! - Methods: an Ingress does not filter methods, so each path is reported as
//!   GET, POST, PUT, PATCH and DELETE.
//! - Multi-document files, `kind: List` and Helm templates (action lines
//!   blanked; paths filled in by a template are skipped) are read. A
//!   document that does not parse gets a warning naming the file; the other
//!   documents still count. `spec.defaultBackend` is a catch-all, not a
//!   route. Manifests under test folders (Helm `templates/tests/`) are
//!   skipped.
//! - Location: the `path` key of the entry.

use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::k8s::{self, Object};
use crate::common::{regex_path, ANY_METHODS};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct K8sIngress;

const GROUPS: [&str; 2] = ["networking.k8s.io/", "extensions/"];

impl Analyzer for K8sIngress {
    fn tech(&self) -> Tech {
        Tech::new("k8s_ingress", "Specification", "Kubernetes Ingress")
            .specification()
            .aliases(["ingress", "kubernetes_ingress"])
            .files(["*.yaml", "*.yml"])
            .detect(Detect::files(["*.yaml", "*.yml"]).regex([k8s::kind_regex("Ingress")]))
            .supports(Supports {
                query: false,
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        k8s::objects(file, "Ingress", &GROUPS, |obj| ingress(file, obj, out));
    }
}

fn ingress(file: &SourceFile, obj: &Object<'_>, out: &mut Output) {
    let Some(rules) = obj.value.pointer("/spec/rules").and_then(Value::as_array) else {
        return;
    };
    let regex_annotated = obj
        .value
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| {
            a.get("nginx.ingress.kubernetes.io/use-regex")
                .and_then(k8s_bool)
                == Some(true)
                || a.contains_key("nginx.ingress.kubernetes.io/rewrite-target")
        });
    for (i, rule) in rules.iter().enumerate() {
        let Some(paths) = rule.pointer("/http/paths").and_then(Value::as_array) else {
            continue;
        };
        for (j, entry) in paths.iter().enumerate() {
            let Some(path) = k8s::literal_path(entry.get("path")) else {
                host::debug(&format!(
                    "{}: Ingress path set by a template, skipped",
                    file.path
                ));
                continue;
            };
            let kind = entry
                .get("pathType")
                .and_then(Value::as_str)
                .unwrap_or("ImplementationSpecific");
            let urls = if kind == "ImplementationSpecific" && (regex_annotated || has_regex(&path))
            {
                regex_path::routes(&path).unwrap_or_else(|| vec![path.clone()])
            } else {
                vec![path.clone()]
            };
            let line = obj.line(&[
                Seg::Key("spec"),
                Seg::Key("rules"),
                Seg::Index(i),
                Seg::Key("http"),
                Seg::Key("paths"),
                Seg::Index(j),
                Seg::Key("path"),
            ]);
            for url in &urls {
                for method in ANY_METHODS {
                    out.endpoint(Endpoint::new(method, url.clone()).at(file, line));
                }
            }
        }
    }
}

fn has_regex(path: &str) -> bool {
    path.contains(['(', '[', '*', '$', '|', '\\', '+', '^'])
}

/// Annotation values are strings (`"true"`), sometimes booleans.
fn k8s_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => Some(s.eq_ignore_ascii_case("true")),
        _ => None,
    }
}
