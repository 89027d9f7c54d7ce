//! WSDL 1.1 service descriptions (`.wsdl`, or `.xml` in the WSDL namespace).
//!
//! Each operation of a binding reachable from a `service/port` is one
//! endpoint:
//!
//! - SOAP 1.1 and 1.2 bindings: `POST <path of the port's soap:address
//!   location>`. SOAP 1.1 operations get a `SOAPAction` header param valued
//!   with the operation's `soapAction`; SOAP 1.2 carries the action in the
//!   media type, so they get a `Content-Type` header param
//!   `application/soap+xml; action="…"` instead.
//! - HTTP bindings (`http:binding verb="GET"`): `<verb> <address path +
//!   http:operation location>`.
//! - Body params: the parts of the operation's input message (through the
//!   portType). A part declared by `element` (document/literal) contributes
//!   the child elements of that schema element — the wrapper's fields,
//!   following a named `complexType` and its `extension` base — or the
//!   element's own name when it has no children; a part declared by `type`
//!   (rpc style) contributes its part name. They are reported as `json`
//!   params, the report's type for body fields: the actual body is the SOAP
//!   envelope (XML). HTTP bindings send parts as `query` (GET) or `form`
//!   params; a `(part)` in the operation's location (`http:urlReplacement`)
//!   is a `{part}` path segment and param.
//! - Location: the line of the binding's `<operation>` element.
//!
//! `<import location="…">` of another WSDL file of the tree (services in
//! one file, bindings and messages in another, as WCF and CXF split them):
//! the imported definitions are used for this file's services (one level;
//! an operation from an imported binding is located at its port's line).
//! An import that cannot be read is a warning naming the file.
//!
//! Operations sharing a port share the URL, so the report merges them into
//! one endpoint per address listing every operation's line and the first
//! operation's action. Abstract WSDLs (no `service`) and WSDL 2.0
//! `description` documents yield nothing.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use roxmltree::{Document, Node, ParsingOptions};

use portolan_plugin_sdk::doc::files::relative_to;
use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::url::url_path;

pub struct Wsdl;

const WSDL: &str = "http://schemas.xmlsoap.org/wsdl/";
const SOAP11: &str = "http://schemas.xmlsoap.org/wsdl/soap/";
const SOAP12: &str = "http://schemas.xmlsoap.org/wsdl/soap12/";
const HTTP: &str = "http://schemas.xmlsoap.org/wsdl/http/";
const XSD: &str = "http://www.w3.org/2001/XMLSchema";

impl Analyzer for Wsdl {
    fn tech(&self) -> Tech {
        Tech::new("wsdl", "Specification", "WSDL / SOAP")
            .specification()
            .aliases(["soap", "wsdl11"])
            .files(["*.wsdl", "*.xml"])
            .detect(
                Detect::files(["*.wsdl", "*.xml"]).regex([
                    r"<(?:[A-Za-z_][\w.-]*:)?definitions\b[^>]*schemas\.xmlsoap\.org/wsdl/",
                ]),
            )
            .supports(Supports {
                method: true,
                query: true,
                path: false,
                body: true,
                header: true,
                cookie: false,
                websocket: false,
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if !file.content.contains(WSDL) || is_test_document(&file.path) {
            return;
        }
        let options = ParsingOptions {
            allow_dtd: true,
            ..ParsingOptions::default()
        };
        let doc = match Document::parse_with_options(&file.content, options) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: invalid WSDL (XML): {e}", file.path)),
        };
        let root = doc.root_element();
        if !is(root, WSDL, "definitions") {
            return;
        }
        // `<import location="other.wsdl">`: messages, port types, bindings
        // and schemas of imported documents (one level, files of the tree).
        let mut texts = Vec::new();
        for import in children(root, WSDL, "import") {
            let Some(location) = import.attribute("location") else {
                continue;
            };
            let Some(path) = relative_to(&file.path, location) else {
                continue;
            };
            match host::read_file(&path) {
                Ok(text) => texts.push((path, text)),
                Err(e) => host::warn(&format!("{}: import `{location}`: {e}", file.path)),
            }
        }
        let imported: Vec<Document<'_>> = texts
            .iter()
            .filter_map(
                |(path, text)| match Document::parse_with_options(text, options) {
                    Ok(doc) => Some(doc),
                    Err(e) => {
                        host::warn(&format!("{path}: invalid WSDL (XML): {e}"));
                        None
                    }
                },
            )
            .collect();
        let mut roots = vec![root];
        roots.extend(
            imported
                .iter()
                .map(Document::root_element)
                .filter(|r| is(*r, WSDL, "definitions")),
        );
        for endpoint in endpoints(file, &roots) {
            out.endpoint(endpoint);
        }
    }
}

fn is(node: Node<'_, '_>, namespace: &str, name: &str) -> bool {
    node.is_element()
        && node.tag_name().name() == name
        && node.tag_name().namespace() == Some(namespace)
}

fn children<'a, 'i>(
    node: Node<'a, 'i>,
    namespace: &'a str,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children().filter(move |c| is(*c, namespace, name))
}

/// `tns:Name` → `Name`.
fn local(qname: &str) -> &str {
    qname.rsplit(':').next().unwrap_or(qname)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Soap11,
    Soap12,
    Http,
}

/// The endpoints of the services of `roots[0]`, with the definitions of
/// every root (the document and those it imports).
fn endpoints<'a, 'i>(file: &SourceFile, roots: &[Node<'a, 'i>]) -> Vec<Endpoint> {
    let Some(&root) = roots.first() else {
        return Vec::new();
    };
    let all = |name: &'a str| roots.iter().flat_map(move |r| children(*r, WSDL, name));
    let schemas: Vec<Node<'_, '_>> = all("types")
        .flat_map(|t| children(t, XSD, "schema"))
        .collect();
    let messages: HashMap<&str, Node<'_, '_>> = all("message")
        .filter_map(|m| Some((m.attribute("name")?, m)))
        .collect();
    let port_types: HashMap<&str, Node<'_, '_>> = all("portType")
        .filter_map(|p| Some((p.attribute("name")?, p)))
        .collect();
    let bindings: HashMap<&str, Node<'_, '_>> = all("binding")
        .filter_map(|b| Some((b.attribute("name")?, b)))
        .collect();
    let mut out = Vec::new();
    for port in children(root, WSDL, "service").flat_map(|s| children(s, WSDL, "port")) {
        let Some(binding) = port
            .attribute("binding")
            .and_then(|b| bindings.get(local(b)))
        else {
            continue;
        };
        let address = port.children().find(|c| {
            c.tag_name().name() == "address"
                && matches!(c.tag_name().namespace(), Some(SOAP11 | SOAP12 | HTTP))
        });
        let Some(location) = address.and_then(|a| a.attribute("location")) else {
            continue;
        };
        let base = url_path(location);
        let kind = if children(*binding, SOAP11, "binding").next().is_some() {
            Kind::Soap11
        } else if children(*binding, SOAP12, "binding").next().is_some() {
            Kind::Soap12
        } else {
            Kind::Http
        };
        let verb = children(*binding, HTTP, "binding")
            .next()
            .and_then(|b| b.attribute("verb"))
            .unwrap_or("POST");
        if kind == Kind::Http && children(*binding, HTTP, "binding").next().is_none() {
            continue;
        }
        let port_type = binding
            .attribute("type")
            .and_then(|t| port_types.get(local(t)));
        for operation in children(*binding, WSDL, "operation") {
            let Some(name) = operation.attribute("name") else {
                continue;
            };
            let parts = port_type
                .and_then(|pt| {
                    children(*pt, WSDL, "operation").find(|o| o.attribute("name") == Some(name))
                })
                .and_then(|o| children(o, WSDL, "input").next())
                .and_then(|i| i.attribute("message"))
                .and_then(|m| messages.get(local(m)))
                .map(|m| part_fields(&schemas, *m))
                .unwrap_or_default();
            // A binding from an imported document: the port's line here.
            let here = std::ptr::eq(operation.document(), root.document());
            let line = if here {
                file.line_of(operation.range().start)
            } else {
                file.line_of(port.range().start)
            };
            let endpoint = match kind {
                Kind::Soap11 | Kind::Soap12 => {
                    let ns = if kind == Kind::Soap11 { SOAP11 } else { SOAP12 };
                    let action = children(operation, ns, "operation")
                        .next()
                        .and_then(|o| o.attribute("soapAction"))
                        .unwrap_or("");
                    let header = if kind == Kind::Soap11 {
                        Param::header("SOAPAction").value(action)
                    } else if action.is_empty() {
                        Param::header("Content-Type").value("application/soap+xml")
                    } else {
                        Param::header("Content-Type")
                            .value(format!("application/soap+xml; action=\"{action}\""))
                    };
                    Endpoint::new(
                        "POST",
                        if base.is_empty() {
                            "/".to_string()
                        } else {
                            base.clone()
                        },
                    )
                    .param(header)
                    .params(parts.iter().map(Param::json))
                }
                Kind::Http => {
                    let relative = children(operation, HTTP, "operation")
                        .next()
                        .and_then(|o| o.attribute("location"))
                        .unwrap_or("");
                    let mut url = join(&base, relative);
                    let get = verb.eq_ignore_ascii_case("GET");
                    // `http:urlReplacement`: `(part)` in the location is a
                    // path segment.
                    let mut in_path = Vec::new();
                    for p in &parts {
                        let marker = format!("({p})");
                        if url.contains(&marker) {
                            url = url.replace(&marker, &format!("{{{p}}}"));
                            in_path.push(p.clone());
                        }
                    }
                    Endpoint::new(verb, url).params(parts.iter().map(|p| {
                        if in_path.contains(p) {
                            Param::path(p)
                        } else if get {
                            Param::query(p)
                        } else {
                            Param::form(p)
                        }
                    }))
                }
            };
            out.push(endpoint.at(file, line));
        }
    }
    out
}

fn join(base: &str, relative: &str) -> String {
    let relative = relative.trim();
    if relative.is_empty() {
        return if base.is_empty() {
            "/".into()
        } else {
            base.into()
        };
    }
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        relative.trim_start_matches('/')
    )
}

/// The body fields of a message's parts.
fn part_fields(schemas: &[Node<'_, '_>], message: Node<'_, '_>) -> Vec<String> {
    let mut fields = Vec::new();
    for part in children(message, WSDL, "part") {
        if let Some(element) = part.attribute("element") {
            let name = local(element);
            let found = find_named(schemas, "element", name)
                .map(|e| element_fields(schemas, e, 0))
                .unwrap_or_default();
            if found.is_empty() {
                fields.push(name.to_string());
            } else {
                fields.extend(found);
            }
        } else if let Some(name) = part.attribute("name") {
            fields.push(name.to_string());
        }
    }
    let mut seen = Vec::new();
    fields.retain(|f| {
        let new = !seen.contains(f);
        seen.push(f.clone());
        new
    });
    fields
}

/// A top-level schema component (`element`, `complexType`) by name.
fn find_named<'a, 'i>(schemas: &[Node<'a, 'i>], kind: &str, name: &str) -> Option<Node<'a, 'i>> {
    schemas.iter().find_map(|s| {
        s.children()
            .find(|c| is(*c, XSD, kind) && c.attribute("name") == Some(name))
    })
}

/// The child element names of an element declaration: its inline
/// `complexType`, or the named one of its `type`.
fn element_fields(schemas: &[Node<'_, '_>], element: Node<'_, '_>, depth: usize) -> Vec<String> {
    if let Some(inline) = children(element, XSD, "complexType").next() {
        return type_fields(schemas, inline, depth);
    }
    match element
        .attribute("type")
        .and_then(|t| find_named(schemas, "complexType", local(t)))
    {
        Some(named) => type_fields(schemas, named, depth),
        None => Vec::new(),
    }
}

/// Element names in a complex type's `sequence`/`all`/`choice` groups, its
/// `complexContent` extension base first.
fn type_fields(schemas: &[Node<'_, '_>], node: Node<'_, '_>, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    if depth > 16 {
        return out;
    }
    for child in node
        .children()
        .filter(|c| c.tag_name().namespace() == Some(XSD))
    {
        match child.tag_name().name() {
            "element" => {
                if let Some(name) = child
                    .attribute("name")
                    .or_else(|| child.attribute("ref").map(local))
                {
                    out.push(name.to_string());
                }
            }
            "sequence" | "all" | "choice" | "complexContent" => {
                out.extend(type_fields(schemas, child, depth + 1))
            }
            "extension" => {
                if let Some(base) = child
                    .attribute("base")
                    .and_then(|b| find_named(schemas, "complexType", local(b)))
                {
                    out.extend(type_fields(schemas, base, depth + 1));
                }
                out.extend(type_fields(schemas, child, depth + 1));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(content: &str) -> (Vec<String>, Vec<String>) {
        let _ = host::take_logs();
        let mut out = Output::new();
        Wsdl.analyze(&SourceFile::new("a/svc.wsdl", content), &mut out);
        let endpoints = out
            .endpoints()
            .iter()
            .map(|e| {
                let params: Vec<String> = e
                    .params
                    .iter()
                    .map(|p| format!("{}={}", p.name, p.value))
                    .collect();
                let line = e.code_paths[0].line.unwrap_or(0);
                format!("{} {} @{} [{}]", e.method, e.url, line, params.join(", "))
            })
            .collect();
        (endpoints, host::take_logs())
    }

    #[test]
    fn http_binding_and_rpc_parts() {
        let (endpoints, logs) = run(r#"<w:definitions xmlns:w="http://schemas.xmlsoap.org/wsdl/"
    xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:tns="urn:t">
  <w:message name="In"><w:part name="q" type="xsd:string"/><w:part name="n" type="xsd:int"/></w:message>
  <w:portType name="PT"><w:operation name="Find"><w:input message="tns:In"/></w:operation></w:portType>
  <w:binding name="B" type="tns:PT"><http:binding verb="GET"/>
    <w:operation name="Find"><http:operation location="/find"/></w:operation>
  </w:binding>
  <w:service name="S"><w:port name="P" binding="tns:B"><http:address location="http://h/api/"/></w:port></w:service>
</w:definitions>"#);
        assert!(logs.is_empty(), "{logs:?}");
        assert_eq!(endpoints, ["GET /api/find @6 [q=, n=]"]);
    }

    #[test]
    fn other_xml_and_broken_xml() {
        assert_eq!(
            run("<beans xmlns=\"http://schemas.xmlsoap.org/wsdl/\"/>")
                .0
                .len(),
            0
        );
        let (endpoints, logs) =
            run("<definitions xmlns=\"http://schemas.xmlsoap.org/wsdl/\"><service>");
        assert!(endpoints.is_empty());
        assert_eq!(logs.len(), 1);
        assert!(
            logs[0].starts_with("warn: a/svc.wsdl: invalid WSDL (XML): "),
            "{logs:?}"
        );
    }
}
