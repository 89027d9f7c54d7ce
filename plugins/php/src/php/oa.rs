//! swagger-php docblock annotations (`@OA\Get(…)`, `@OA\RequestBody(…)`,
//! `@OA\Schema(schema="X", @OA\Property(property="a"), allOf={…})`, and
//! the `@SWG\` forms): a small tolerant parser into a tree, and what an
//! action's documentation says about its path template and request body.
//!
//! Linear in the docblock; nesting deeper than [`MAX_DEPTH`] is skipped.

use serde::{Deserialize, Serialize};

/// One annotation: short name (`Get`, `Property`), its string-valued
/// named arguments (`path="/x"`), and the annotations nested in its
/// arguments at any position (also inside `allOf={…}` lists).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ann {
    pub name: String,
    pub strs: Vec<(String, String)>,
    pub kids: Vec<Ann>,
}

impl Ann {
    pub fn str(&self, key: &str) -> Option<&str> {
        self.strs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

const MAX_DEPTH: usize = 24;

/// Every top-level `@OA\…(…)` / `@SWG\…(…)` annotation of `doc`.
pub fn parse(doc: &str) -> Vec<Ann> {
    let b = doc.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'@' {
            if let Some((a, next)) = annotation(doc, i, 0) {
                out.push(a);
                i = next;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The annotation starting at the `@` at `at`: `(ann, offset after it)`.
fn annotation(doc: &str, at: usize, depth: usize) -> Option<(Ann, usize)> {
    let b = doc.as_bytes();
    let rest = &doc[at + 1..];
    let ns = if rest.starts_with("OA\\") {
        3
    } else if rest.starts_with("SWG\\") {
        4
    } else {
        return None;
    };
    let name_start = at + 1 + ns;
    let mut j = name_start;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    if j == name_start || b.get(j) != Some(&b'(') {
        return None;
    }
    let mut ann = Ann {
        name: doc[name_start..j].to_string(),
        ..Ann::default()
    };
    let end = args(doc, j + 1, b')', depth + 1, &mut ann);
    Some((ann, end))
}

/// Arguments up to the `close` byte matching the already-consumed opener;
/// returns the offset after `close` (or the end of the text).
fn args(doc: &str, from: usize, close: u8, depth: usize, ann: &mut Ann) -> usize {
    let b = doc.as_bytes();
    let mut i = from;
    // Start of the identifier just read, and the pending key after `=`.
    let mut ident: Option<(usize, usize)> = None;
    let mut key: Option<(usize, usize)> = None;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                let start = i + 1;
                let mut k = start;
                while k < b.len() && b[k] != b'"' {
                    k += 1;
                }
                if let Some((ks, ke)) = key.take() {
                    ann.strs.push((
                        doc[ks..ke].to_string(),
                        doc[start..k.min(b.len())].to_string(),
                    ));
                }
                ident = None;
                i = k + 1;
                continue;
            }
            b'@' => {
                key = None;
                ident = None;
                if depth < MAX_DEPTH {
                    if let Some((kid, next)) = annotation(doc, i, depth) {
                        ann.kids.push(kid);
                        i = next;
                        continue;
                    }
                }
            }
            b'{' | b'(' | b'[' => {
                key = None;
                ident = None;
                let inner_close = match c {
                    b'{' => b'}',
                    b'(' => b')',
                    _ => b']',
                };
                if depth < MAX_DEPTH {
                    // Nested annotations of a list belong to this one.
                    i = args(doc, i + 1, inner_close, depth + 1, ann);
                    continue;
                }
            }
            b'=' | b':' => {
                key = ident.take();
            }
            b',' => {
                key = None;
                ident = None;
            }
            c if c == close => return i + 1,
            b')' | b'}' | b']' => return i + 1,
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                ident = Some((s, i));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Where a documented body property goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BodyLoc {
    Json,
    Form,
    File,
}

/// A documented body: properties named inline, and schema references
/// (`#/components/schemas/X` → `X`) resolved at link time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    pub props: Vec<(String, BodyLoc)>,
    pub refs: Vec<(String, BodyLoc)>,
}

/// What an action's docblock documents: the path template of its
/// operation (`@OA\Get(path="/x/{id}")`) and its request body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Op {
    pub path: String,
    pub body: Body,
    /// The operation annotations present (`Get`, `Head`, …).
    #[serde(default)]
    pub verbs: Vec<String>,
}

const VERBS: &[&str] = &["Get", "Post", "Put", "Patch", "Delete", "Head", "Options"];

/// The operation documented in a method's docblock, if any.
pub fn operation(doc: &str) -> Option<Op> {
    if !(doc.contains("@OA\\") || doc.contains("@SWG\\")) {
        return None;
    }
    let anns = parse(doc);
    let mut op = Op::default();
    let mut any = false;
    for a in &anns {
        if VERBS.contains(&a.name.as_str()) {
            any = true;
            if !op.verbs.contains(&a.name) {
                op.verbs.push(a.name.clone());
            }
            if op.path.is_empty() {
                op.path = a.str("path").unwrap_or_default().to_string();
            }
            for k in &a.kids {
                if k.name == "RequestBody" {
                    request_body(k, &mut op.body);
                }
            }
        } else if a.name == "RequestBody" {
            any = true;
            request_body(a, &mut op.body);
        }
    }
    any.then_some(op)
}

fn request_body(rb: &Ann, out: &mut Body) {
    for k in &rb.kids {
        match k.name.as_str() {
            "JsonContent" => schema_props(k, BodyLoc::Json, out, 0),
            "XmlContent" => {}
            "MediaType" => {
                let mt = k.str("mediaType").unwrap_or_default();
                let loc = if mt.contains("json") {
                    BodyLoc::Json
                } else if mt.contains("form") {
                    BodyLoc::Form
                } else {
                    continue;
                };
                for s in &k.kids {
                    if matches!(s.name.as_str(), "Schema" | "JsonContent") {
                        schema_props(s, loc, out, 0);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Properties of a schema annotation: its `@OA\Property`s, the members of
/// its `allOf` (inline or by `ref`), and its own `ref`.
fn schema_props(s: &Ann, loc: BodyLoc, out: &mut Body, depth: usize) {
    if depth > 8 {
        return;
    }
    if let Some(r) = s.str("ref").and_then(schema_ref) {
        push(&mut out.refs, r, loc);
    }
    for k in &s.kids {
        match k.name.as_str() {
            "Property" => {
                let Some(name) = k.str("property").filter(|n| !n.is_empty()) else {
                    continue;
                };
                let l = if loc == BodyLoc::Form && k.str("format") == Some("binary") {
                    BodyLoc::File
                } else {
                    loc
                };
                push(&mut out.props, name, l);
            }
            "Schema" | "JsonContent" => schema_props(k, loc, out, depth + 1),
            _ => {}
        }
    }
}

fn push(v: &mut Vec<(String, BodyLoc)>, name: &str, loc: BodyLoc) {
    if !v.iter().any(|(n, l)| n == name && *l == loc) {
        v.push((name.to_string(), loc));
    }
}

/// `#/components/schemas/X` (or `#/definitions/X`) → `X`.
pub fn schema_ref(r: &str) -> Option<&str> {
    r.strip_prefix("#/components/schemas/")
        .or_else(|| r.strip_prefix("#/definitions/"))
        .filter(|x| !x.is_empty())
}

/// A named schema `@OA\Schema(schema="X", …)`: its own property names and
/// the schemas it includes (`allOf`, `ref`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaDef {
    pub name: String,
    pub props: Vec<String>,
    pub refs: Vec<String>,
}

/// Every named schema of a file (at any nesting depth).
pub fn schema_defs(text: &str) -> Vec<SchemaDef> {
    let mut out = Vec::new();
    let mut todo: Vec<Ann> = parse(text);
    while let Some(a) = todo.pop() {
        if matches!(a.name.as_str(), "Schema" | "Definition") {
            if let Some(name) = a.str("schema").or_else(|| a.str("definition")) {
                let mut body = Body::default();
                schema_props(&a, BodyLoc::Json, &mut body, 0);
                out.push(SchemaDef {
                    name: name.to_string(),
                    props: body.props.into_iter().map(|(n, _)| n).collect(),
                    refs: body.refs.into_iter().map(|(n, _)| n).collect(),
                });
            }
        }
        todo.extend(a.kids);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_and_body() {
        let doc = "/**\n * @OA\\Put(\n *   path=\"/things/{thing_id}\",\n *   @OA\\Parameter(name=\"thing_id\", in=\"path\", @OA\\Schema(type=\"integer\")),\n *   @OA\\RequestBody(required=true,\n *     @OA\\JsonContent(ref=\"#/components/schemas/ThingEditable\")\n *   ),\n * )\n */";
        let op = operation(doc).unwrap();
        assert_eq!(op.path, "/things/{thing_id}");
        assert_eq!(
            op.body.refs,
            vec![("ThingEditable".to_string(), BodyLoc::Json)]
        );
        let doc = "@OA\\Post(path=\"/f\", @OA\\RequestBody(@OA\\MediaType(mediaType=\"multipart/form-data\", @OA\\Schema(@OA\\Property(property=\"file\", type=\"string\", format=\"binary\"), @OA\\Property(property=\"é\")))))";
        let op = operation(doc).unwrap();
        assert_eq!(
            op.body.props,
            vec![
                ("file".to_string(), BodyLoc::File),
                ("é".to_string(), BodyLoc::Form)
            ]
        );
    }

    #[test]
    fn named_schemas() {
        let text = "/**\n * @OA\\Schema(schema=\"A\", @OA\\Property(property=\"x\", @OA\\Items(ref=\"#/components/schemas/C\"))),\n * @OA\\Schema(schema=\"B\", allOf={@OA\\Schema(ref=\"#/components/schemas/A\"), @OA\\Schema(@OA\\Property(property=\"y\"))})\n */";
        let mut d = schema_defs(text);
        d.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(d[0].props, vec!["x"]);
        assert!(d[0].refs.is_empty());
        assert_eq!(d[1].props, vec!["y"]);
        assert_eq!(d[1].refs, vec!["A"]);
    }

    #[test]
    fn broken_input_does_not_panic() {
        for s in [
            "@OA\\Get(",
            "@OA\\Get(path=\"é",
            "@OA\\X({{{",
            "@OA\\",
            "@SWG\\Y(a=)",
        ] {
            let _ = parse(s);
            let _ = operation(s);
            let _ = schema_defs(s);
        }
    }
}
