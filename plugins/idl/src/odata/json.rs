//! OData JSON CSDL (CSDL JSON 4.01, `"$Version"` with schemas as top-level
//! members): rewritten into the equivalent CSDL XML, with each container
//! child and operation on the line of its JSON member, so the XML reader
//! gives the same endpoints and locations.
//!
//! - A schema is a top-level object member (`$Alias` optional); its
//!   members are types (`$Kind`: `EntityType`, `ComplexType`, …) and
//!   arrays of `Action`/`Function` overloads.
//! - Entity types: `$Key` (names or `{alias: path}`), `$BaseType`, and
//!   properties (non-`$` members; `$Kind: NavigationProperty` for
//!   navigation; `$Type` defaults to `Edm.String`, `$Collection` wraps it).
//! - Operations: `$IsBound`, `$Parameter` (`$Name`, `$Type`,
//!   `$Collection`).
//! - The entity container (`$Kind: EntityContainer`): `$Collection: true`
//!   members are entity sets, other `$Type` members singletons, `$Action`
//!   and `$Function` members imports.

use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use serde_json::{Map, Value};

/// The top-level members a JSON CSDL document has.
pub const DETECT_REGEX: &str = r#""\$Version"\s*:\s*"4\.0|"\$EntityContainer"\s*:"#;

/// The XML CSDL of a JSON CSDL document, `None` when it is not one.
pub fn to_xml(text: &str) -> Option<String> {
    let doc: Value = serde_json::from_str(text).ok()?;
    let root = doc.as_object()?;
    root.get("$Version")?;
    let source = SourceMap::new(text);
    let mut xml = Xml {
        out: String::with_capacity(text.len()),
        line: 1,
    };
    xml.out.push_str(
        "<edmx:Edmx xmlns:edmx=\"http://docs.oasis-open.org/odata/ns/edmx\" Version=\"4.0\"><edmx:DataServices>",
    );
    for (namespace, schema) in root.iter().filter(|(k, _)| !k.starts_with('$')) {
        let Some(schema) = schema.as_object() else {
            continue;
        };
        xml.open("Schema", &[("Namespace", namespace)]);
        if let Some(alias) = schema.get("$Alias").and_then(Value::as_str) {
            xml.attr("Alias", alias);
        }
        xml.out.push('>');
        for (name, member) in schema.iter().filter(|(k, _)| !k.starts_with('$')) {
            let at = |extra: Option<Seg<'_>>| {
                let mut path = vec![Seg::Key(namespace), Seg::Key(name)];
                path.extend(extra);
                source.line(&path)
            };
            match member {
                Value::Array(overloads) => {
                    for (i, op) in overloads.iter().enumerate() {
                        xml.goto(at(Some(Seg::Index(i))));
                        operation(&mut xml, name, op);
                    }
                }
                Value::Object(member) => match member.get("$Kind").and_then(Value::as_str) {
                    Some(kind @ ("EntityType" | "ComplexType")) => {
                        structured(&mut xml, kind, name, member);
                    }
                    Some("EntityContainer") => {
                        xml.open("EntityContainer", &[("Name", name)]);
                        xml.out.push('>');
                        for (child, value) in member.iter().filter(|(k, _)| !k.starts_with('$')) {
                            let path = [Seg::Key(namespace), Seg::Key(name), Seg::Key(child)];
                            xml.goto(source.line(&path));
                            container_child(&mut xml, child, value);
                        }
                        xml.out.push_str("</EntityContainer>");
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        xml.out.push_str("</Schema>");
    }
    xml.out.push_str("</edmx:DataServices></edmx:Edmx>");
    Some(xml.out)
}

struct Xml {
    out: String,
    /// The line the output is on (1-based).
    line: u32,
}

impl Xml {
    /// Moves the output down to `line` (never up).
    fn goto(&mut self, line: Option<u32>) {
        let Some(line) = line else {
            return;
        };
        while self.line < line {
            self.out.push('\n');
            self.line += 1;
        }
    }

    /// `<name a="v" …` (the tag left open for more attributes).
    fn open(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.attr(k, v);
        }
    }

    fn attr(&mut self, name: &str, value: &str) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        for c in value.chars() {
            match c {
                '&' => self.out.push_str("&amp;"),
                '<' => self.out.push_str("&lt;"),
                '>' => self.out.push_str("&gt;"),
                '"' => self.out.push_str("&quot;"),
                '\n' | '\r' | '\t' => self.out.push(' '),
                _ => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

/// `$Type` (default `Edm.String`), wrapped in `Collection(…)` when
/// `$Collection` is true.
fn type_of(member: &Map<String, Value>) -> String {
    let ty = member
        .get("$Type")
        .and_then(Value::as_str)
        .unwrap_or("Edm.String");
    if member.get("$Collection").and_then(Value::as_bool) == Some(true) {
        format!("Collection({ty})")
    } else {
        ty.to_string()
    }
}

fn structured(xml: &mut Xml, kind: &str, name: &str, member: &Map<String, Value>) {
    xml.open(kind, &[("Name", name)]);
    if let Some(base) = member.get("$BaseType").and_then(Value::as_str) {
        xml.attr("BaseType", base);
    }
    xml.out.push('>');
    if let Some(keys) = member.get("$Key").and_then(Value::as_array) {
        xml.out.push_str("<Key>");
        for key in keys {
            let name = match key {
                Value::String(name) => Some(name.as_str()),
                // `{alias: path}`: the alias names the key in URLs.
                Value::Object(map) => map.keys().next().map(String::as_str),
                _ => None,
            };
            if let Some(name) = name {
                xml.open("PropertyRef", &[("Name", name)]);
                xml.out.push_str("/>");
            }
        }
        xml.out.push_str("</Key>");
    }
    for (prop, value) in member.iter().filter(|(k, _)| !k.starts_with('$')) {
        let Some(value) = value.as_object() else {
            continue;
        };
        let element = match value.get("$Kind").and_then(Value::as_str) {
            None | Some("Property") => "Property",
            Some("NavigationProperty") => "NavigationProperty",
            Some(_) => continue,
        };
        xml.open(element, &[("Name", prop), ("Type", &type_of(value))]);
        xml.out.push_str("/>");
    }
    xml.out.push_str(&format!("</{kind}>"));
}

fn operation(xml: &mut Xml, name: &str, op: &Value) {
    let Some(op) = op.as_object() else {
        return;
    };
    let kind = match op.get("$Kind").and_then(Value::as_str) {
        Some(kind @ ("Action" | "Function")) => kind,
        _ => return,
    };
    xml.open(kind, &[("Name", name)]);
    if op.get("$IsBound").and_then(Value::as_bool) == Some(true) {
        xml.attr("IsBound", "true");
    }
    xml.out.push('>');
    for param in op
        .get("$Parameter")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        let Some(pname) = param.get("$Name").and_then(Value::as_str) else {
            continue;
        };
        xml.open("Parameter", &[("Name", pname), ("Type", &type_of(param))]);
        xml.out.push_str("/>");
    }
    xml.out.push_str(&format!("</{kind}>"));
}

fn container_child(xml: &mut Xml, name: &str, value: &Value) {
    let Some(child) = value.as_object() else {
        return;
    };
    let text = |k: &str| child.get(k).and_then(Value::as_str);
    if let Some(action) = text("$Action") {
        xml.open("ActionImport", &[("Name", name), ("Action", action)]);
    } else if let Some(function) = text("$Function") {
        xml.open("FunctionImport", &[("Name", name), ("Function", function)]);
    } else if let Some(ty) = text("$Type") {
        if child.get("$Collection").and_then(Value::as_bool) == Some(true) {
            xml.open("EntitySet", &[("Name", name), ("EntityType", ty)]);
        } else {
            xml.open("Singleton", &[("Name", name), ("Type", ty)]);
        }
    } else {
        return;
    }
    xml.out.push_str("/>");
}
