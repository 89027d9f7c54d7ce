//! Terraform (`.tf`) declarations of AWS API Gateway routes.
//!
//! - `aws_api_gateway_method`: `http_method` on the path of its
//!   `resource_id` — an `aws_api_gateway_resource` whose `path_part`s are
//!   followed through `parent_id` references up to the REST API's
//!   `root_resource_id` (`/`). `request_parameters` keys
//!   (`method.request.querystring.x`, `.header.x`, `.path.x`) are params.
//! - `aws_apigatewayv2_route`: `route_key` (`"GET /items/{id}"`);
//!   `$default` and WebSocket route keys are not HTTP routes.
//!   `request_parameter { request_parameter_key = "route.request.…" }`
//!   blocks are params.
//! - References resolve across the files of one module (folder), as
//!   Terraform does: `analyze` reads each file, `link` joins them. `var.x`
//!   and `local.x` in paths and route keys are replaced with the variable's
//!   string `default` / the local's string value of that module; anything
//!   else (`for_each` instances, module outputs) is left unresolved and the
//!   method skipped.
//! - Methods: `ANY` is API Gateway's ANY (DELETE, GET, HEAD, OPTIONS, PATCH,
//!   POST, PUT). Greedy `{proxy+}` is a path param.
//! - Location: the `resource` line. A file that does not parse gets a
//!   warning naming it and the line.

pub mod hcl;

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::aws;
use hcl::{Block, Expr};

pub struct Terraform;

#[derive(Serialize, Deserialize)]
struct ModuleFact {
    dir: String,
    path: String,
    /// `resource` blocks of API Gateway types.
    resources: Vec<Block>,
    variables: BTreeMap<String, String>,
    locals: BTreeMap<String, String>,
}

impl Analyzer for Terraform {
    fn tech(&self) -> Tech {
        Tech::new("terraform", "Specification", "Terraform (AWS API Gateway)")
            .specification()
            .aliases(["tf"])
            .files(["*.tf"])
            .detect(Detect::files(["*.tf"]).regex([
                r#"resource\s+"aws_api_gateway_(?:method|resource)"|resource\s+"aws_apigatewayv2_route""#,
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
        let blocks = match hcl::parse(&file.content) {
            Ok(b) => b,
            Err(e) => return host::warn(&format!("{}: invalid HCL: {e}", file.path)),
        };
        let path = file.slash_path();
        let mut fact = ModuleFact {
            dir: path
                .rsplit_once('/')
                .map_or(String::new(), |(d, _)| d.to_string()),
            path,
            resources: Vec::new(),
            variables: BTreeMap::new(),
            locals: BTreeMap::new(),
        };
        for b in blocks {
            match (b.kind.as_str(), b.labels.as_slice()) {
                ("resource", [kind, _])
                    if kind.starts_with("aws_api_gateway") || kind == "aws_apigatewayv2_route" =>
                {
                    fact.resources.push(b)
                }
                ("variable", [name]) => {
                    if let Some(v) = b.attr("default").and_then(Expr::as_str) {
                        fact.variables.insert(name.clone(), v.to_string());
                    }
                }
                ("locals", []) => {
                    for (name, value) in &b.attrs {
                        if let Some(v) = value.as_str() {
                            fact.locals.insert(name.clone(), v.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        if !fact.resources.is_empty() || !fact.variables.is_empty() || !fact.locals.is_empty() {
            out.fact(&fact);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut modules: BTreeMap<String, Vec<ModuleFact>> = BTreeMap::new();
        for f in facts.iter::<ModuleFact>() {
            modules.entry(f.dir.clone()).or_default().push(f);
        }
        let mut out = Vec::new();
        for files in modules.values() {
            Module::new(files).endpoints(&mut out);
        }
        Ok(out)
    }
}

struct Module<'a> {
    /// `type.name` → (file, block).
    resources: BTreeMap<String, (&'a str, &'a Block)>,
    variables: BTreeMap<&'a str, &'a str>,
    locals: BTreeMap<&'a str, &'a str>,
}

impl<'a> Module<'a> {
    fn new(files: &'a [ModuleFact]) -> Self {
        let mut m = Module {
            resources: BTreeMap::new(),
            variables: BTreeMap::new(),
            locals: BTreeMap::new(),
        };
        for f in files {
            for b in &f.resources {
                if let [kind, name] = b.labels.as_slice() {
                    m.resources
                        .insert(format!("{kind}.{name}"), (f.path.as_str(), b));
                }
            }
            m.variables
                .extend(f.variables.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            m.locals
                .extend(f.locals.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        }
        m
    }

    fn endpoints(&self, out: &mut Vec<Endpoint>) {
        for (key, (path, block)) in &self.resources {
            let (route, params) = if key.starts_with("aws_api_gateway_method.") {
                let Some(method) = self.string(block.attr("http_method")) else {
                    continue;
                };
                let Some(url) = block
                    .attr("resource_id")
                    .and_then(|r| self.resource_path(r, 0))
                else {
                    host::debug(&format!("{path}: {key}: resource_id not resolved"));
                    continue;
                };
                let params = match block.attr("request_parameters") {
                    Some(Expr::Object(items)) => items
                        .iter()
                        .filter_map(|(k, _)| aws::request_parameter(k))
                        .collect(),
                    _ => Vec::new(),
                };
                ((method, url), params)
            } else if key.starts_with("aws_apigatewayv2_route.") {
                let Some(route_key) = self.string(block.attr("route_key")) else {
                    continue;
                };
                let Some((method, url)) = route_key.trim().split_once(' ') else {
                    continue;
                };
                if !url.trim().starts_with('/') {
                    continue;
                }
                let params = block
                    .blocks
                    .iter()
                    .filter(|b| b.kind == "request_parameter")
                    .filter_map(|b| self.string(b.attr("request_parameter_key")))
                    .filter_map(|k| aws::request_parameter(&k))
                    .collect();
                ((method.to_string(), url.trim().to_string()), params)
            } else {
                continue;
            };
            let (method, url) = route;
            for m in aws::methods(&method) {
                let mut e = Endpoint::new(m, url.clone()).params(params.clone());
                aws::greedy_path_params(&mut e);
                out.push(e.at_path(*path, block.line));
            }
        }
    }

    /// A string value with `var.x` / `local.x` (bare or interpolated)
    /// resolved; `None` when something stays unresolved.
    fn string(&self, expr: Option<&Expr>) -> Option<String> {
        let s = match expr? {
            Expr::Str(s) => s.clone(),
            Expr::Raw(r) => format!("${{{r}}}"),
            Expr::Object(_) => return None,
        };
        let mut out = String::new();
        let mut rest = s.as_str();
        while let Some(open) = rest.find("${") {
            let close = rest[open..].find('}')? + open;
            let reference = rest[open + 2..close].trim();
            let value = if let Some(v) = reference.strip_prefix("var.") {
                self.variables.get(v)?
            } else if let Some(l) = reference.strip_prefix("local.") {
                self.locals.get(l)?
            } else {
                return None;
            };
            out.push_str(&rest[..open]);
            out.push_str(value);
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// `aws_api_gateway_rest_api.x.root_resource_id` is `/`;
    /// `aws_api_gateway_resource.x.id` is its parent's path plus `path_part`.
    fn resource_path(&self, reference: &Expr, depth: usize) -> Option<String> {
        let Expr::Raw(r) = reference else { return None };
        if depth > 64 {
            return None;
        }
        let parts: Vec<&str> = r.split('.').collect();
        match parts.as_slice() {
            ["aws_api_gateway_rest_api", _, "root_resource_id"] => Some("/".into()),
            ["aws_api_gateway_resource", name, "id"] => {
                let (_, block) = self
                    .resources
                    .get(&format!("aws_api_gateway_resource.{name}"))?;
                let part = self.string(block.attr("path_part"))?;
                let parent = self.resource_path(block.attr("parent_id")?, depth + 1)?;
                Some(format!(
                    "{}/{}",
                    parent.trim_end_matches('/'),
                    part.trim_matches('/')
                ))
            }
            _ => None,
        }
    }
}
