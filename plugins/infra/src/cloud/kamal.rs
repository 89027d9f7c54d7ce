//! Kamal deployments (`config/deploy.yml`, `config/deploy.<destination>.yml`).
//!
//! What Kamal declares about the HTTP surface is where kamal-proxy sends
//! traffic, not the application's own routes (those are the web framework
//! analyzers'). For every role kamal-proxy fronts — the top-level `proxy`
//! (the primary `web` role, on by default in Kamal 2) and roles with their
//! own `proxy:` —:
//!
//! - the application itself, any path, any method: `/` (or the
//!   `path_prefix` when one is set), reported as GET, POST, PUT, PATCH and
//!   DELETE;
//! - the health check kamal-proxy polls: `GET` `healthcheck.path` (Kamal's
//!   default `/up`).
//!
//! A role with `proxy: false` is not served. Destination files that only
//! override the base file (no `service`) add nothing. Location: the `proxy` key
//! (else `service`), and the health check's `path` key when written.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::Seg;
use portolan_plugin_sdk::prelude::*;
use serde_json::Value;

use crate::common::yaml::{self, str_of, Doc};
use crate::common::ANY_METHODS;

pub struct Kamal;

const FILES: [&str; 2] = ["**/config/deploy.yml", "**/config/deploy.*.yml"];

impl Analyzer for Kamal {
    fn tech(&self) -> Tech {
        Tech::new("kamal", "Specification", "Kamal")
            .specification()
            .files(["deploy.yml", "deploy.*.yml"])
            .detect(Detect::files(FILES).regex([r"(?m)^service:"]))
            .supports(Supports {
                query: false,
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) || !path.contains("config/deploy") {
            return;
        }
        let Some(doc) = yaml::documents(file).into_iter().next() else {
            return;
        };
        let v = &doc.value;
        if v.get("service").is_none() || v.get("image").is_none() && v.get("servers").is_none() {
            return;
        }
        // The primary role's proxy (top-level), unless switched off.
        let top = v.get("proxy");
        if top != Some(&Value::Bool(false)) {
            let at: Vec<Seg<'_>> = if top.is_some() {
                vec![Seg::Key("proxy")]
            } else {
                vec![Seg::Key("service")]
            };
            proxied(file, &doc, top, &at, out);
        }
        if let Some(roles) = v.get("servers").and_then(Value::as_object) {
            for (role, cfg) in roles {
                let Some(proxy) = cfg.get("proxy").filter(|p| p.is_object()) else {
                    continue;
                };
                let at = [Seg::Key("servers"), Seg::Key(role), Seg::Key("proxy")];
                proxied(file, &doc, Some(proxy), &at, out);
            }
        }
    }
}

fn proxied(file: &SourceFile, doc: &Doc, proxy: Option<&Value>, at: &[Seg<'_>], out: &mut Output) {
    let line = doc.line(at);
    let prefix = proxy
        .and_then(|p| p.get("path_prefix"))
        .and_then(str_of)
        .map(|p| format!("/{}", p.trim_matches('/')))
        .unwrap_or_else(|| "/".into());
    for m in ANY_METHODS {
        out.endpoint(Endpoint::new(m, prefix.clone()).at(file, line));
    }
    let written = proxy
        .and_then(|p| p.pointer("/healthcheck/path"))
        .and_then(str_of);
    let health_line = if written.is_some() {
        let mut p = at.to_vec();
        p.extend([Seg::Key("healthcheck"), Seg::Key("path")]);
        doc.line(&p)
    } else {
        line
    };
    let health = written.unwrap_or_else(|| "/up".into());
    out.endpoint(Endpoint::new("GET", health).at(file, health_line));
}
