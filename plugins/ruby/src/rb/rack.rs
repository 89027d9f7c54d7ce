//! Where Rack applications are mounted: `config.ru` (`map '/v1' do run Api
//! end`, nested maps, `run`/`use`, `Rack::URLMap.new('/a' => A)`,
//! `Rack::Cascade.new([A, B])`), `Rack::Builder.new do … end` anywhere,
//! Rails routes (`mount Api => '/api'`, `mount Api, at: '/api'`, inside
//! `namespace`/`scope` paths) and Hanami 1 (`mount Web::Application, at:
//! '/'`). Class and method bodies are not looked into (a Grape API's own
//! `mount` is Grape's business).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::call::{call_of, Val};
use super::dsl::{const_of, join_url, str_value, FileNodes, Node};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    /// The URL prefix (`/` for the root).
    pub prefix: String,
    /// The constant mounted, as written (`Api::V1`).
    pub target: String,
}

/// Should this file be recorded for [`mounts`]?
pub fn is_mount_file(path: &str, content: &str) -> bool {
    path.ends_with(".ru")
        || path.ends_with("config/routes.rb")
        || path.ends_with("config/environment.rb")
        || content.contains("Rack::Builder")
        || content.contains("URLMap")
}

/// Every mount in `files`.
pub fn mounts(files: &[&FileNodes], consts: &BTreeMap<String, Val>) -> Vec<Mount> {
    let mut out = Vec::new();
    let lookup = |n: &str| consts.get(n).cloned();
    for f in files {
        walk(&f.nodes, "", &lookup, &mut out);
    }
    out
}

fn path_of(v: &Val, consts: &dyn Fn(&str) -> Option<Val>) -> Option<String> {
    str_value(v, consts, 0)
}

fn walk(nodes: &[Node], prefix: &str, consts: &dyn Fn(&str) -> Option<Val>, out: &mut Vec<Mount>) {
    for n in nodes {
        let c = &n.call;
        match c.name.as_str() {
            "class" | "module" | "def" => {}
            "map" | "namespace" | "scope" if n.body.is_some() => {
                let seg = c
                    .first()
                    .and_then(|v| path_of(v, consts))
                    .or_else(|| c.opt("path").and_then(|v| path_of(v, consts)))
                    .unwrap_or_default();
                // Rails `scope module: 'x'` adds no path.
                let p = join_url(&[prefix, &seg]);
                walk(n.children(), &p, consts, out);
            }
            "run" | "use" => {
                for a in c.args.iter().take(1) {
                    targets(a, prefix, consts, out);
                }
            }
            "mount" => {
                // `mount X => '/p'`, `mount X, at: '/p'`
                if let Some(Val::Hash(pairs)) = c.hash() {
                    for (k, v) in pairs {
                        if let (Some(t), Some(p)) = (const_of(k), path_of(v, consts)) {
                            out.push(Mount {
                                prefix: join_url(&[prefix, &p]),
                                target: t,
                            });
                        }
                    }
                }
                if let (Some(t), Some(p)) = (
                    c.first().and_then(const_of),
                    c.opt("at").and_then(|v| path_of(v, consts)),
                ) {
                    out.push(Mount {
                        prefix: join_url(&[prefix, &p]),
                        target: t,
                    });
                }
            }
            _ => walk(n.children(), prefix, consts, out),
        }
    }
}

/// The apps a `run`/`use` argument names.
fn targets(v: &Val, prefix: &str, consts: &dyn Fn(&str) -> Option<Val>, out: &mut Vec<Mount>) {
    if let Val::Expr(e) = v {
        if e.contains("URLMap.new") || e.contains("Cascade.new") {
            let stmts = super::parse(e);
            if let Some(call) = stmts.first().and_then(call_of) {
                for a in &call.args {
                    match a {
                        Val::Hash(pairs) => {
                            for (k, v) in pairs {
                                if let (Some(p), Some(t)) = (path_of(k, consts), const_of(v)) {
                                    out.push(Mount {
                                        prefix: join_url(&[prefix, &p]),
                                        target: t,
                                    });
                                }
                            }
                        }
                        Val::Array(items) => {
                            for i in items {
                                targets(i, prefix, consts, out);
                            }
                        }
                        _ => {}
                    }
                }
            }
            return;
        }
    }
    if let Some(t) = const_of(v) {
        if !t.starts_with("Rack::") {
            out.push(Mount {
                prefix: join_url(&[prefix]),
                target: t,
            });
        }
    }
}

/// The prefixes under which the class `full` is mounted (through `mounts`
/// naming it or, transitively, an app that `use`s/mounts it is not
/// followed here). Empty when never mounted.
pub fn prefixes_of(mounts: &[Mount], full: &str) -> Vec<String> {
    let mut out: Vec<String> = mounts
        .iter()
        .filter(|m| super::dsl::const_matches(&m.target, full))
        .map(|m| m.prefix.clone())
        .collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rb::dsl::file_nodes;
    use crate::rb::request::Options;
    use portolan_plugin_sdk::SourceFile;

    #[test]
    fn config_ru_and_rails_mounts() {
        let ru = "require './app'\nmap '/v1' do\n  map('/admin') { run Admin::App.new }\n  run Api\nend\nrun Rack::URLMap.new('/' => Web, '/hooks' => Hooks)\nuse Rack::Cors\n";
        let routes = "Rails.application.routes.draw do\n  namespace :api do\n    mount Search::API => '/search'\n  end\n  mount Sidekiq::Web, at: '/jobs'\nend\n";
        let files: Vec<FileNodes> = [("config.ru", ru), ("config/routes.rb", routes)]
            .iter()
            .map(|(p, s)| FileNodes {
                path: p.to_string(),
                nodes: file_nodes(&SourceFile::new(*p, *s), Options::default(), &|_| false),
            })
            .collect();
        let refs: Vec<&FileNodes> = files.iter().collect();
        let got: Vec<(String, String)> = mounts(&refs, &BTreeMap::new())
            .into_iter()
            .map(|m| (m.prefix, m.target))
            .collect();
        let want = [
            ("/v1/admin", "Admin::App"),
            ("/v1", "Api"),
            ("/", "Web"),
            ("/hooks", "Hooks"),
            ("/api/search", "Search::API"),
            ("/jobs", "Sidekiq::Web"),
        ];
        assert_eq!(
            got,
            want.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        );
    }
}
