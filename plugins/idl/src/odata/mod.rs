//! OData service metadata (CSDL XML, the `$metadata` document: `edmx:Edmx`
//! with `DataServices/Schema`), OData v4 and v2/v3, and its JSON form
//! (CSDL JSON, `$metadata?$format=json`: `"$Version"`, schemas as
//! members; read through [`json`], same rules and the JSON members' lines).
//!
//! The service root is not in the document (it is where the service is
//! mounted), so routes are relative to `/` (`-u` adds the real root). For
//! every entity container:
//!
//! - `EntitySet Name="People"`: `GET /People` (query options `$filter`,
//!   `$select`, `$expand`, `$orderby`, `$top`, `$skip`, and `$count` in v4 /
//!   `$inlinecount` in v2), `POST /People` (the entity type's properties as
//!   `json` params), and for one entity `GET`, `PATCH`, `PUT`, `DELETE
//!   /People({UserName})` — the key properties as `path` params
//!   (`/Orders(OrderID={OrderID},Line={Line})` for composite keys). Each
//!   navigation property of the type is `GET /People({key})/Friends`.
//!   Properties and keys follow `BaseType` inheritance.
//! - `Singleton Name="Me"` (v4): `GET` and `PATCH /Me`.
//! - `FunctionImport` / `ActionImport` (v4): functions are `GET
//!   /Name(p={p},…)` with their parameters as `path` params, actions `POST
//!   /Name` with `json` params. v2/v3 function imports use their
//!   `m:HttpMethod` (default `GET`) and send parameters in the query string.
//! - Bound functions and actions (v4, `IsBound="true"`): on the entity
//!   (`/People({key})/Namespace.Name`) or the collection when the binding
//!   parameter is a `Collection(…)`, for every entity set of the bound type;
//!   the binding parameter itself is not a param.
//! - Location: the line of the `EntitySet`, `Singleton`, import, or bound
//!   operation element.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use roxmltree::{Document, Node, ParsingOptions};

use portolan_plugin_sdk::doc::is_test_document;

mod json;

pub struct OData;

const EDMX_V4: &str = "http://docs.oasis-open.org/odata/ns/edmx";

/// `<edmx:Edmx` (any prefix) in either OData generation's namespace.
pub const DETECT_REGEX: &str = r"<(?:[A-Za-z_][\w.-]*:)?Edmx\b[^>]*(?:docs\.oasis-open\.org/odata/ns/edmx|schemas\.microsoft\.com/ado/20\d\d/\d\d/edmx)";

/// Deepest `BaseType` chain followed.
const MAX_BASES: usize = 16;

impl Analyzer for OData {
    fn tech(&self) -> Tech {
        Tech::new("odata", "Specification", "OData CSDL ($metadata)")
            .specification()
            .aliases(["csdl", "edmx"])
            .files([
                "*.xml",
                "*.edmx",
                "*.csdl",
                "$metadata",
                "metadata",
                "*.json",
            ])
            .detect(
                Detect::files(["*.xml", "*.edmx", "*.csdl", "$metadata", "metadata"])
                    .regex([DETECT_REGEX]),
            )
            .detect(Detect::files(["*.json"]).regex([json::DETECT_REGEX]))
            .supports(Supports {
                method: true,
                query: true,
                path: true,
                body: true,
                header: false,
                cookie: false,
                websocket: false,
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let json =
            file.content.contains("\"$EntityContainer\"") || file.content.contains("\"$Version\"");
        if json && file.content.trim_start().starts_with('{') {
            if is_test_document(&file.path) {
                return;
            }
            if let Some(xml) = json::to_xml(&file.content) {
                self.analyze(&SourceFile::new(&file.path, xml), out);
            }
            return;
        }
        if !file.content.contains("Edmx") || is_test_document(&file.path) {
            return;
        }
        let options = ParsingOptions {
            allow_dtd: true,
            ..ParsingOptions::default()
        };
        let doc = match Document::parse_with_options(&file.content, options) {
            Ok(doc) => doc,
            Err(e) => {
                return host::warn(&format!("{}: invalid OData metadata (XML): {e}", file.path))
            }
        };
        let root = doc.root_element();
        if root.tag_name().name() != "Edmx" {
            return;
        }
        let v4 = root.tag_name().namespace() == Some(EDMX_V4);
        let schemas: Vec<Node<'_, '_>> = root
            .descendants()
            .filter(|n| n.is_element() && n.tag_name().name() == "Schema")
            .collect();
        let mut types = HashMap::new();
        let mut operations: HashMap<(&str, &str), Vec<Node<'_, '_>>> = HashMap::new();
        for schema in &schemas {
            for t in named(*schema, "EntityType").chain(named(*schema, "ComplexType")) {
                if let Some(name) = t.attribute("Name") {
                    types.entry(name).or_insert(t);
                }
            }
            for kind in ["Function", "Action"] {
                for op in named(*schema, kind) {
                    if let Some(name) = op.attribute("Name") {
                        operations.entry((kind, name)).or_default().push(op);
                    }
                }
            }
        }
        let model = Model {
            schemas,
            types,
            operations,
            v4,
        };
        for endpoint in model.endpoints(file) {
            out.endpoint(endpoint);
        }
    }
}

fn named<'a, 'i>(node: Node<'a, 'i>, name: &'a str) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

/// `Namespace.Name` or `Alias.Name` → `Name`; `Collection(X)` → `X`'s name.
fn local(qname: &str) -> &str {
    let inner = qname
        .strip_prefix("Collection(")
        .and_then(|q| q.strip_suffix(')'))
        .unwrap_or(qname);
    inner.rsplit('.').next().unwrap_or(inner)
}

struct Model<'a, 'i> {
    schemas: Vec<Node<'a, 'i>>,
    /// Entity and complex types by name (first declaration wins).
    types: HashMap<&'a str, Node<'a, 'i>>,
    /// Functions and actions by (kind, name): overloads share a name.
    operations: HashMap<(&'static str, &'a str), Vec<Node<'a, 'i>>>,
    v4: bool,
}

impl<'a, 'i> Model<'a, 'i> {
    fn all(&self, kind: &'a str) -> impl Iterator<Item = Node<'a, 'i>> + '_ {
        self.schemas.iter().flat_map(move |s| named(*s, kind))
    }

    fn entity_type(&self, qname: &str) -> Option<Node<'a, 'i>> {
        self.types.get(local(qname)).copied()
    }

    /// The type and its `BaseType` chain.
    fn lineage(&self, qname: &str) -> Vec<Node<'a, 'i>> {
        let mut out = Vec::new();
        let mut current = self.entity_type(qname);
        while let Some(t) = current {
            if out.len() >= MAX_BASES || out.contains(&t) {
                break;
            }
            out.push(t);
            current = t.attribute("BaseType").and_then(|b| self.entity_type(b));
        }
        out
    }

    fn keys(&self, qname: &str) -> Vec<String> {
        self.lineage(qname)
            .iter()
            .flat_map(|t| named(*t, "Key"))
            .flat_map(|k| named(k, "PropertyRef"))
            .filter_map(|p| p.attribute("Name").map(str::to_string))
            .collect()
    }

    fn properties(&self, qname: &str, kind: &'a str) -> Vec<String> {
        let mut lineage = self.lineage(qname);
        lineage.reverse();
        lineage
            .iter()
            .flat_map(|t| named(*t, kind))
            .filter_map(|p| p.attribute("Name").map(str::to_string))
            .collect()
    }

    fn endpoints(&self, file: &SourceFile) -> Vec<Endpoint> {
        let mut out = Vec::new();
        let line = |n: Node<'_, '_>| file.line_of(n.range().start);
        let containers: Vec<Node<'a, 'i>> = self.all("EntityContainer").collect();
        // Entity sets by type, for bound operations.
        let mut sets: Vec<(String, String, Vec<String>)> = Vec::new();
        for set in containers.iter().flat_map(|c| named(*c, "EntitySet")) {
            let (Some(name), Some(ty)) = (set.attribute("Name"), set.attribute("EntityType"))
            else {
                continue;
            };
            let keys = self.keys(ty);
            let at = line(set);
            let collection = format!("/{name}");
            let mut list = Endpoint::new("GET", collection.clone());
            let count = if self.v4 { "$count" } else { "$inlinecount" };
            for option in [
                "$filter", "$select", "$expand", "$orderby", "$top", "$skip", count,
            ] {
                list.push_param(Param::query(option));
            }
            out.push(list.at(file, at));
            let fields = self.properties(ty, "Property");
            out.push(
                Endpoint::new("POST", collection.clone())
                    .params(fields.iter().map(Param::json))
                    .at(file, at),
            );
            let entity = format!("{collection}{}", key_segment(&keys));
            let key_params = || keys.iter().map(Param::path);
            out.push(
                Endpoint::new("GET", entity.clone())
                    .params(key_params())
                    .param(Param::query("$select"))
                    .param(Param::query("$expand"))
                    .at(file, at),
            );
            for method in ["PATCH", "PUT"] {
                out.push(
                    Endpoint::new(method, entity.clone())
                        .params(key_params())
                        .params(fields.iter().filter(|f| !keys.contains(f)).map(Param::json))
                        .at(file, at),
                );
            }
            out.push(
                Endpoint::new("DELETE", entity.clone())
                    .params(key_params())
                    .at(file, at),
            );
            for nav in self.properties(ty, "NavigationProperty") {
                out.push(
                    Endpoint::new("GET", format!("{entity}/{nav}"))
                        .params(key_params())
                        .at(file, at),
                );
            }
            sets.push((local(ty).to_string(), name.to_string(), keys));
        }
        for singleton in containers.iter().flat_map(|c| named(*c, "Singleton")) {
            let Some(name) = singleton.attribute("Name") else {
                continue;
            };
            let fields = singleton
                .attribute("Type")
                .map(|t| self.properties(t, "Property"))
                .unwrap_or_default();
            let at = line(singleton);
            out.push(Endpoint::new("GET", format!("/{name}")).at(file, at));
            out.push(
                Endpoint::new("PATCH", format!("/{name}"))
                    .params(fields.iter().map(Param::json))
                    .at(file, at),
            );
        }
        for import in containers.iter().flat_map(|c| named(*c, "FunctionImport")) {
            let Some(name) = import.attribute("Name") else {
                continue;
            };
            let at = line(import);
            if self.v4 {
                let target = import.attribute("Function").unwrap_or(name);
                let params = self.operation_params("Function", target, false);
                out.push(function_endpoint(&format!("/{name}"), &params).at(file, at));
            } else {
                let method = import
                    .attributes()
                    .find(|a| a.name() == "HttpMethod")
                    .map_or("GET", |a| a.value());
                let params: Vec<String> = named(import, "Parameter")
                    .filter_map(|p| p.attribute("Name").map(str::to_string))
                    .collect();
                let endpoint = Endpoint::new(method.to_ascii_uppercase(), format!("/{name}"));
                out.push(
                    endpoint
                        .params(params.iter().map(Param::query))
                        .at(file, at),
                );
            }
        }
        for import in containers.iter().flat_map(|c| named(*c, "ActionImport")) {
            let Some(name) = import.attribute("Name") else {
                continue;
            };
            let target = import.attribute("Action").unwrap_or(name);
            let params = self.operation_params("Action", target, false);
            out.push(
                Endpoint::new("POST", format!("/{name}"))
                    .params(params.iter().map(Param::json))
                    .at(file, line(import)),
            );
        }
        // Bound operations.
        for kind in ["Function", "Action"] {
            for op in self.all(kind) {
                if op.attribute("IsBound") != Some("true") {
                    continue;
                }
                let (Some(name), Some(binding)) = (
                    op.attribute("Name"),
                    named(op, "Parameter")
                        .next()
                        .and_then(|p| p.attribute("Type")),
                ) else {
                    continue;
                };
                let namespace = op
                    .parent()
                    .and_then(|s| s.attribute("Namespace"))
                    .unwrap_or("");
                let qualified = if namespace.is_empty() {
                    name.to_string()
                } else {
                    format!("{namespace}.{name}")
                };
                let on_collection = binding.starts_with("Collection(");
                let params: Vec<String> = named(op, "Parameter")
                    .skip(1)
                    .filter_map(|p| p.attribute("Name").map(str::to_string))
                    .collect();
                for (_, set, keys) in sets.iter().filter(|(t, _, _)| t == local(binding)) {
                    let base = if on_collection {
                        format!("/{set}")
                    } else {
                        format!("/{set}{}", key_segment(keys))
                    };
                    let path = format!("{base}/{qualified}");
                    let key_params = keys.iter().filter(|_| !on_collection).map(Param::path);
                    let endpoint = if kind == "Function" {
                        function_endpoint(&path, &params)
                    } else {
                        Endpoint::new("POST", path).params(params.iter().map(Param::json))
                    };
                    out.push(endpoint.params(key_params).at(file, line(op)));
                }
            }
        }
        out
    }

    /// The parameters of an unbound function or action (by qualified name).
    fn operation_params(&self, kind: &'static str, qname: &str, bound: bool) -> Vec<String> {
        self.operations
            .get(&(kind, local(qname)))
            .into_iter()
            .flatten()
            .find(|op| (op.attribute("IsBound") == Some("true")) == bound)
            .map(|op| {
                named(*op, "Parameter")
                    .filter_map(|p| p.attribute("Name").map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// `({Id})`, or `(A={A},B={B})` for composite keys; `` without keys.
fn key_segment(keys: &[String]) -> String {
    match keys {
        [] => String::new(),
        [one] => format!("({{{one}}})"),
        many => {
            let parts: Vec<String> = many.iter().map(|k| format!("{k}={{{k}}}")).collect();
            format!("({})", parts.join(","))
        }
    }
}

/// `GET path(p={p},…)` with the parameters as `path` params (`path()`
/// without parameters).
fn function_endpoint(path: &str, params: &[String]) -> Endpoint {
    let inner: Vec<String> = params.iter().map(|p| format!("{p}={{{p}}}")).collect();
    Endpoint::new("GET", format!("{path}({})", inner.join(",")))
        .params(params.iter().map(Param::path))
}
