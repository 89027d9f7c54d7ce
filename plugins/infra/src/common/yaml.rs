//! YAML streams as [`serde_json::Value`] trees with the source line of any
//! key.
//!
//! - A stream is split at its `---` lines and each document is parsed on its
//!   own, so one broken document of a multi-document manifest costs only
//!   that document.
//! - Tags never make parsing fail. With [`Tags::CloudFormation`] the short
//!   forms of intrinsic functions become their long forms (`!Ref X` →
//!   `{"Ref": "X"}`, `!GetAtt A.B` → `{"Fn::GetAtt": ["A", "B"]}`, `!Sub s`
//!   → `{"Fn::Sub": s}`); otherwise tags are dropped.
//! - Helm chart templates: lines that are only a template action
//!   (`{{- if … }}`, `{{- end }}`, `{{- toYaml … | nindent 4 }}`) are blanked
//!   and inline actions become [`TEMPLATE`], so the YAML around them parses
//!   and keeps its lines.

use portolan_plugin_sdk::doc::load;
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};
use portolan_plugin_sdk::text::LineIndex;
use serde_json::{Map, Value};

/// What an inline Helm/Go template action (`{{ .Values.x }}`) reads as.
pub const TEMPLATE: &str = "__template__";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tags {
    Drop,
    CloudFormation,
}

/// One parsed document of a stream, with its key locator.
pub struct Doc {
    pub value: Value,
    map: SourceMap,
    /// Lines of the stream before the document's text.
    line_base: u32,
}

impl Doc {
    /// 1-based line (in the whole file) of the key or item at `path`, else
    /// of its deepest ancestor found.
    pub fn line(&self, path: &[Seg<'_>]) -> u32 {
        self.map.nearest_line(path) + self.line_base
    }
}

/// A document that did not parse: where it starts and why.
pub struct DocError {
    pub line: u32,
    pub message: String,
}

/// Does the text use Go/Helm template actions?
pub fn is_template(text: &str) -> bool {
    text.contains("{{")
}

/// Parse every document of a YAML stream (JSON is YAML too). Empty documents
/// are left out.
pub fn parse_stream(text: &str, tags: Tags) -> Vec<Result<Doc, DocError>> {
    let text = text.trim_start_matches('\u{feff}');
    let owned;
    let text = if is_template(text) {
        owned = strip_templates(text);
        owned.as_str()
    } else {
        text
    };
    let lines = LineIndex::new(text);
    let mut out = Vec::new();
    for (start, slice) in split_documents(text) {
        let line_base = lines.line_of(start) - 1;
        match parse_one(slice, tags) {
            Ok(Value::Null) => {}
            Ok(value) => out.push(Ok(Doc {
                value,
                map: SourceMap::new(slice),
                line_base,
            })),
            Err(message) => out.push(Err(DocError {
                line: line_base + 1,
                message,
            })),
        }
    }
    out
}

/// `(offset, text)` of each document: a new one starts at every line that
/// begins with `---` followed by nothing or a blank.
fn split_documents(text: &str) -> Vec<(usize, &str)> {
    let mut starts = vec![0];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if offset > 0 {
            if let Some(rest) = line.strip_prefix("---") {
                if rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n']) {
                    starts.push(offset);
                }
            }
        }
        offset += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .filter_map(|w| Some((w[0], text.get(w[0]..w[1])?)))
        .collect()
}

fn parse_one(text: &str, tags: Tags) -> Result<Value, String> {
    match tags {
        Tags::Drop => load::parse_yaml(text),
        Tags::CloudFormation => load::parse_yaml_tagged(text, &cloudformation_tag),
    }
}

/// The long form of a CloudFormation short-form intrinsic function
/// (`!Ref X` → `{"Ref": "X"}`); core YAML tags (`!!str`) are dropped.
fn cloudformation_tag(tag: &str, inner: Value) -> Value {
    let name = tag.trim_start_matches('!');
    if tag.starts_with("!!") || name.is_empty() {
        return inner;
    }
    let (key, inner) = match name {
        "Ref" | "Condition" => (name.to_string(), inner),
        "GetAtt" => {
            let inner = match inner {
                Value::String(s) => match s.split_once('.') {
                    Some((a, b)) => Value::Array(vec![a.into(), b.into()]),
                    None => Value::String(s),
                },
                other => other,
            };
            ("Fn::GetAtt".to_string(), inner)
        }
        _ => (format!("Fn::{name}"), inner),
    };
    let mut map = Map::new();
    map.insert(key, inner);
    Value::Object(map)
}

/// Blank lines that hold only template actions; replace inline actions with
/// [`TEMPLATE`]. Line structure is kept.
pub fn strip_templates(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        let trimmed = body.trim();
        if trimmed.starts_with("{{") && trimmed.ends_with("}}") && only_actions(trimmed) {
            out.push_str(ending);
            continue;
        }
        let mut rest = body;
        while let Some(open) = rest.find("{{") {
            let Some(close) = rest[open..].find("}}") else {
                break;
            };
            out.push_str(&rest[..open]);
            out.push_str(TEMPLATE);
            rest = &rest[open + close + 2..];
        }
        out.push_str(rest);
        out.push_str(ending);
    }
    out
}

/// `{{ a }}{{ b }}`: nothing but actions.
fn only_actions(mut s: &str) -> bool {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return true;
        }
        let Some(rest) = s.strip_prefix("{{") else {
            return false;
        };
        let Some(close) = rest.find("}}") else {
            return false;
        };
        s = &rest[close + 2..];
    }
}

/// Every document of a YAML (or JSON) file; one that does not parse gets a
/// warning naming the file and the document's line, and the others still
/// count.
pub fn documents(file: &portolan_plugin_sdk::SourceFile) -> Vec<Doc> {
    parse_stream(&file.content, Tags::Drop)
        .into_iter()
        .filter_map(|d| match d {
            Ok(doc) => Some(doc),
            Err(e) => {
                portolan_plugin_sdk::host::warn(&format!(
                    "{}: document at line {}: {}",
                    file.path, e.line, e.message
                ));
                None
            }
        })
        .collect()
}

/// Owned steps of a key path, for walks that build lookup paths as they go.
#[derive(Clone, Debug)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The lookup path of owned [`Step`]s.
pub fn segs(steps: &[Step]) -> Vec<Seg<'_>> {
    steps
        .iter()
        .map(|s| match s {
            Step::Key(k) => Seg::Key(k),
            Step::Index(i) => Seg::Index(*i),
        })
        .collect()
}

/// A string value, or the text of a scalar.
pub fn str_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values(text: &str, tags: Tags) -> Vec<Value> {
        parse_stream(text, tags)
            .into_iter()
            .map(|d| d.map(|d| d.value).map_err(|e| e.message).unwrap())
            .collect()
    }

    #[test]
    fn streams_split_and_lines_are_global() {
        let text = "a: 1\n---\n# c\nb:\n  c: 2\n--- \nd: 3\n---\n";
        let docs = parse_stream(text, Tags::Drop);
        assert_eq!(docs.len(), 3);
        let b = docs[1].as_ref().ok().unwrap();
        assert_eq!(b.value, json!({"b": {"c": 2}}));
        assert_eq!(b.line(&[Seg::Key("b"), Seg::Key("c")]), 5);
        let d = docs[2].as_ref().ok().unwrap();
        assert_eq!(d.line(&[Seg::Key("d")]), 7);
    }

    #[test]
    fn broken_document_alone_fails() {
        let docs = parse_stream("a: 1\n---\nb: [1\n---\nc: 3\n", Tags::Drop);
        assert_eq!(docs.len(), 3);
        assert!(docs[0].is_ok() && docs[2].is_ok());
        let e = docs[1].as_ref().err().unwrap();
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("invalid YAML"), "{}", e.message);
    }

    #[test]
    fn cloudformation_short_forms() {
        let v = values(
            "a: !Ref Api\nb: !GetAtt Api.RootResourceId\nc: !Sub 'GET /${X}'\nd: !!str 5\ne: !Join ['', [a, b]]\n",
            Tags::CloudFormation,
        );
        assert_eq!(
            v[0],
            json!({"a": {"Ref": "Api"}, "b": {"Fn::GetAtt": ["Api", "RootResourceId"]},
                   "c": {"Fn::Sub": "GET /${X}"}, "d": "5", "e": {"Fn::Join": ["", ["a", "b"]]}})
        );
        let v = values("a: !Ref Api\n", Tags::Drop);
        assert_eq!(v[0], json!({"a": "Api"}));
    }

    #[test]
    fn helm_templates_are_tolerated() {
        let text = "{{- if .Values.on -}}\nkind: Ingress\nmetadata:\n  name: {{ include \"x\" . }}\n  labels:\n    {{- include \"l\" . | nindent 4 }}\nspec:\n  path: /a\n{{- end }}\n";
        let docs = parse_stream(text, Tags::Drop);
        let d = docs[0].as_ref().ok().unwrap();
        assert_eq!(d.value["metadata"]["name"], json!(TEMPLATE));
        assert_eq!(d.line(&[Seg::Key("spec"), Seg::Key("path")]), 8);
    }
}
