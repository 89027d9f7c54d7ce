//! AWS CloudFormation and SAM templates (YAML or JSON, short-form tags such
//! as `!Ref`, `!GetAtt`, `!Sub` included): the routes of API Gateway.
//!
//! - `AWS::Serverless::Function` events of `Type: Api` / `HttpApi` (`Path`,
//!   `Method`, `RequestParameters`). An `HttpApi` event without a path is
//!   the API's catch-all default route, not a route of its own: skipped.
//! - `AWS::ApiGateway::Method`: `HttpMethod` on the path built from the
//!   `AWS::ApiGateway::Resource` chain of its `ResourceId` (`PathPart`s
//!   followed through `ParentId` up to the API's `RootResourceId`);
//!   `RequestParameters` keys `method.request.querystring.x` / `header.x` /
//!   `path.x` are params.
//! - `AWS::ApiGatewayV2::Route`: `RouteKey` `"GET /items/{id}"` (plain or
//!   `!Sub`); `$default` and WebSocket route keys are not HTTP routes.
//! - Methods: `ANY` is API Gateway's ANY (DELETE, GET, HEAD, OPTIONS,
//!   PATCH, POST, PUT). Greedy `{proxy+}` is a path param.
//! - Not read: OpenAPI bodies inlined in `DefinitionBody` / `Body`,
//!   cross-stack imports, `Globals`.
//! - Location: the event key (SAM) or the resource's logical id. A template
//!   that does not parse gets a warning naming the file.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;
use serde_json::{Map, Value};

use crate::common::aws;
use crate::common::yaml::{self, str_of, Doc, Tags};
use portolan_plugin_sdk::doc::locate::Seg;

pub struct AwsCloudFormation;

const FILES: [&str; 5] = ["*.yaml", "*.yml", "*.json", "*.template", "*.cfn"];

/// Markers of a template with API Gateway routes.
const MARKERS: [&str; 4] = [
    "AWSTemplateFormatVersion",
    "AWS::Serverless",
    "AWS::ApiGateway::Method",
    "AWS::ApiGatewayV2::Route",
];

impl Analyzer for AwsCloudFormation {
    fn tech(&self) -> Tech {
        Tech::new("aws_cloudformation", "Specification", "AWS CloudFormation / SAM")
            .specification()
            .aliases(["cloudformation", "sam", "aws_sam"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([
                r"AWSTemplateFormatVersion|AWS::Serverless-2016-10-31|AWS::ApiGateway(?:V2)?::(?:Method|Route)",
            ]))
            .supports(Supports {
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) || !MARKERS.iter().any(|m| file.content.contains(m)) {
            return;
        }
        let Some(doc) = yaml::parse_stream(&file.content, Tags::CloudFormation)
            .into_iter()
            .next()
        else {
            return;
        };
        let doc = match doc {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: {}", file.path, e.message)),
        };
        let Some(resources) = doc.value.get("Resources").and_then(Value::as_object) else {
            return;
        };
        let template = Template {
            doc: &doc,
            resources,
        };
        for (id, resource) in resources {
            let props = resource.get("Properties").unwrap_or(&Value::Null);
            let routes = match resource.get("Type").and_then(Value::as_str) {
                Some("AWS::Serverless::Function") => template.sam_events(id, props),
                Some("AWS::ApiGateway::Method") => template.method(id, props),
                Some("AWS::ApiGatewayV2::Route") => template.v2_route(id, props),
                _ => continue,
            };
            for (line, methods, path, params) in routes {
                for method in methods {
                    let mut e = Endpoint::new(method, path.clone()).params(params.clone());
                    aws::greedy_path_params(&mut e);
                    out.endpoint(e.at(file, line));
                }
            }
        }
    }
}

type Route = (u32, Vec<String>, String, Vec<Param>);

struct Template<'a> {
    doc: &'a Doc,
    resources: &'a Map<String, Value>,
}

impl Template<'_> {
    fn sam_events(&self, id: &str, props: &Value) -> Vec<Route> {
        let Some(events) = props.get("Events").and_then(Value::as_object) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (name, event) in events {
            let kind = event.get("Type").and_then(Value::as_str);
            if !matches!(kind, Some("Api" | "HttpApi")) {
                continue;
            }
            let p = event.get("Properties").unwrap_or(&Value::Null);
            let Some(path) = p.get("Path").and_then(text) else {
                continue;
            };
            let method = p
                .get("Method")
                .and_then(text)
                .unwrap_or_else(|| "ANY".into());
            let params = match p.get("RequestParameters") {
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(|item| match item {
                        Value::String(k) => aws::request_parameter(k),
                        Value::Object(o) => o.keys().find_map(|k| aws::request_parameter(k)),
                        _ => None,
                    })
                    .collect(),
                Some(Value::Object(o)) => {
                    o.keys().filter_map(|k| aws::request_parameter(k)).collect()
                }
                _ => Vec::new(),
            };
            let line = self.doc.line(&[
                Seg::Key("Resources"),
                Seg::Key(id),
                Seg::Key("Properties"),
                Seg::Key("Events"),
                Seg::Key(name),
            ]);
            out.push((line, aws::methods(&method), path, params));
        }
        out
    }

    fn method(&self, id: &str, props: &Value) -> Vec<Route> {
        let Some(method) = props.get("HttpMethod").and_then(text) else {
            return Vec::new();
        };
        let Some(path) = props
            .get("ResourceId")
            .and_then(|r| self.resource_path(r, 0))
        else {
            host::debug(&format!(
                "{id}: ResourceId not resolved to an API Gateway resource"
            ));
            return Vec::new();
        };
        let params = request_parameters(props);
        let line = self.doc.line(&[Seg::Key("Resources"), Seg::Key(id)]);
        vec![(line, aws::methods(&method), path, params)]
    }

    /// The path of a resource reference: `Ref` of an
    /// `AWS::ApiGateway::Resource` (its parents' path plus its `PathPart`), or
    /// a REST API's `RootResourceId` (`/`).
    fn resource_path(&self, reference: &Value, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        if let Some(att) = reference.get("Fn::GetAtt") {
            let attribute = match att {
                Value::Array(parts) => parts.get(1).and_then(Value::as_str),
                Value::String(s) => s.split_once('.').map(|(_, a)| a),
                _ => None,
            };
            return (attribute == Some("RootResourceId")).then(|| "/".to_string());
        }
        let target = reference.get("Ref").and_then(Value::as_str)?;
        let resource = self.resources.get(target)?;
        if resource.get("Type").and_then(Value::as_str) != Some("AWS::ApiGateway::Resource") {
            return None;
        }
        let props = resource.get("Properties")?;
        let part = props.get("PathPart").and_then(text)?;
        let parent = self.resource_path(props.get("ParentId")?, depth + 1)?;
        Some(format!(
            "{}/{}",
            parent.trim_end_matches('/'),
            part.trim_matches('/')
        ))
    }

    fn v2_route(&self, id: &str, props: &Value) -> Vec<Route> {
        let Some(key) = props.get("RouteKey").and_then(text) else {
            return Vec::new();
        };
        let Some((method, path)) = key.trim().split_once(' ') else {
            return Vec::new();
        };
        let path = path.trim();
        if !path.starts_with('/') {
            return Vec::new();
        }
        let line = self.doc.line(&[Seg::Key("Resources"), Seg::Key(id)]);
        vec![(
            line,
            aws::methods(method),
            path.to_string(),
            request_parameters(props),
        )]
    }
}

fn request_parameters(props: &Value) -> Vec<Param> {
    props
        .get("RequestParameters")
        .and_then(Value::as_object)
        .map(|o| o.keys().filter_map(|k| aws::request_parameter(k)).collect())
        .unwrap_or_default()
}

/// A string, or the template string of `!Sub`.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::Object(o) => match o.get("Fn::Sub")? {
            Value::Array(parts) => parts.first().and_then(str_of),
            other => str_of(other),
        },
        other => str_of(other),
    }
}
