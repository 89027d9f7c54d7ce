//! Smithy IDL models (`.smithy`, IDL 1.0 and 2.0): operations bound to
//! HTTP with the `@http(method: …, uri: …)` trait.
//!
//! - Each operation with `@http` is one endpoint: its method and `uri`
//!   (greedy labels `{key+}` become `{key}`; a literal query in the URI,
//!   `/objects?list-type=2`, gives `query` params).
//! - Params come from the operation's input structure (`input: Name`, or
//!   an inline `input := { … }`, `input := for Resource { $id }`, mixins
//!   `with [A]` included): `@httpLabel` → `path`, `@httpQuery("name")` →
//!   `query` named by the trait, `@httpHeader("X-Name")` → `header`,
//!   `@httpPayload` on a structure member → that structure's members as
//!   `json` params (a blob or string payload is the raw body: no field),
//!   other members → `json` body fields (the protocol's document body;
//!   `restXml` bodies are reported the same way). `@httpQueryParams` and
//!   `@httpPrefixHeaders` maps name no fixed param.
//! - Location: the `operation` keyword's line.
//! - The JSON AST form (`{"smithy": "2.0", "shapes": {…}}`, what `smithy
//!   build` writes and SDK repositories commit) is read the same way:
//!   operations with a `smithy.api#http` trait, input members by their
//!   `smithy.api#http…` traits; located at the operation's shape id.
//! - Shapes are looked up by name across every `.smithy` and JSON AST file
//!   of the tree (namespaces and `use` are not resolved: models rarely
//!   reuse a shape name across namespaces). Protocols without `@http`
//!   bindings (`awsJson1_0`, RPC v2 CBOR) are not read.

use std::collections::HashMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::doc::locate::{Seg, SourceMap};

use crate::tokens::{lex, Parser, Tok};

pub struct Smithy;

/// A Smithy model: a `namespace` line.
pub const DETECT_REGEX: &str = r"(?m)^\s*namespace\s+[A-Za-z_][\w.]*\s*$";

/// A JSON AST model: `"smithy": "1.0"` / `"2.0"` with `shapes`.
pub const DETECT_JSON_REGEX: &str = r#""smithy"\s*:\s*"[12]\.0""#;

/// Deepest structure nesting followed (`@httpPayload` and mixins).
const MAX_DEPTH: usize = 8;

impl Analyzer for Smithy {
    fn tech(&self) -> Tech {
        Tech::new("smithy", "Specification", "Smithy IDL")
            .specification()
            .files(["*.smithy", "*.json"])
            .detect(Detect::files(["*.smithy"]).regex([DETECT_REGEX]))
            .detect(Detect::files(["*.json"]).regex([DETECT_JSON_REGEX]))
            .supports(Supports {
                method: true,
                query: true,
                path: true,
                body: true,
                header: true,
                cookie: false,
                websocket: false,
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) {
            return;
        }
        if file.path.to_ascii_lowercase().ends_with(".json") {
            if file.content.contains("\"smithy\"") && file.content.contains("\"shapes\"") {
                if let Some(model) = json_ast(file) {
                    out.fact(&model);
                }
            }
            return;
        }
        let tokens = lex(&file.content, b"$#.-");
        let model = parse(&tokens, file);
        out.fact(&model);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let models: Vec<Model> = facts.all();
        let mut structures: HashMap<&str, &Structure> = HashMap::new();
        for model in &models {
            for s in &model.structures {
                structures.entry(s.name.as_str()).or_insert(s);
            }
        }
        Ok(models
            .iter()
            .flat_map(|m| m.operations.iter())
            .map(|op| op.endpoint(&structures))
            .collect())
    }
}

#[derive(Serialize, Deserialize, Default)]
struct Model {
    structures: Vec<Structure>,
    operations: Vec<Operation>,
}

#[derive(Serialize, Deserialize, Clone, Default)]
struct Structure {
    name: String,
    members: Vec<Member>,
    mixins: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone)]
struct Member {
    name: String,
    target: String,
    /// (trait name, first string argument).
    traits: Vec<(String, String)>,
}

#[derive(Serialize, Deserialize)]
struct Operation {
    method: String,
    uri: String,
    path: String,
    line: u32,
    /// The input structure: a named shape or an inline one.
    input: Option<Structure>,
}

impl Member {
    fn has(&self, name: &str) -> Option<&str> {
        self.traits
            .iter()
            .find(|(t, _)| t == name)
            .map(|(_, arg)| arg.as_str())
    }
}

fn members_of<'a>(
    s: &'a Structure,
    structures: &HashMap<&str, &'a Structure>,
    depth: usize,
    out: &mut Vec<&'a Member>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for mixin in &s.mixins {
        if let Some(m) = structures.get(mixin.as_str()) {
            members_of(m, structures, depth + 1, out);
        }
    }
    out.extend(s.members.iter());
}

impl Operation {
    fn endpoint(&self, structures: &HashMap<&str, &Structure>) -> Endpoint {
        let (path, query) = self.uri.split_once('?').unwrap_or((&self.uri, ""));
        let path = path.replace("+}", "}");
        let mut endpoint = Endpoint::new(self.method.to_ascii_uppercase(), path);
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            endpoint.push_param(Param::query(name).value(value));
        }
        let mut members = Vec::new();
        if let Some(input) = &self.input {
            let named = (input.members.is_empty() && input.mixins.is_empty())
                .then(|| structures.get(input.name.as_str()))
                .flatten();
            members_of(named.copied().unwrap_or(input), structures, 0, &mut members);
        }
        for m in members {
            if m.has("httpLabel").is_some() {
                endpoint.push_param(Param::path(&m.name));
            } else if let Some(name) = m.has("httpQuery") {
                endpoint.push_param(Param::query(or(name, &m.name)));
            } else if let Some(name) = m.has("httpHeader") {
                endpoint.push_param(Param::header(or(name, &m.name)));
            } else if m.has("httpPayload").is_some() {
                if let Some(s) = structures.get(m.target.as_str()) {
                    let mut fields = Vec::new();
                    members_of(s, structures, 1, &mut fields);
                    for f in fields {
                        endpoint.push_param(Param::json(&f.name));
                    }
                }
            } else if m.has("httpQueryParams").is_none()
                && m.has("httpPrefixHeaders").is_none()
                && m.has("httpResponseCode").is_none()
            {
                endpoint.push_param(Param::json(&m.name));
            }
        }
        endpoint.at_path(&self.path, self.line)
    }
}

fn or<'a>(name: &'a str, fallback: &'a str) -> &'a str {
    if name.is_empty() {
        fallback
    } else {
        name
    }
}

type Trait = (String, Vec<Tok>);

impl Parser<'_> {
    /// `@name` or `@name(…)` traits here.
    fn traits(&mut self) -> Vec<Trait> {
        let mut out = Vec::new();
        while self.punct('@') {
            self.pos += 1;
            let Some(Tok::Ident(name)) = self.next() else {
                break;
            };
            let args = if self.punct('(') {
                self.balanced()
            } else {
                Vec::new()
            };
            let short = name.rsplit('#').next().unwrap_or(&name).to_string();
            out.push((short, args));
        }
        out
    }

    /// A value after `=` or `:` (a token or a balanced collection).
    fn skip_value(&mut self) {
        if self.punct('{') || self.punct('[') {
            self.balanced();
        } else {
            self.pos += 1;
        }
    }

    /// `with [A, B]` mixins.
    fn mixins(&mut self) -> Vec<String> {
        if self.peek() == Some(&Tok::Ident("with".into())) {
            self.pos += 1;
            if self.punct('[') {
                return self
                    .balanced()
                    .into_iter()
                    .filter_map(|t| match t {
                        Tok::Ident(s) => Some(short_name(&s)),
                        _ => None,
                    })
                    .collect();
            }
        }
        Vec::new()
    }

    /// Members of a `{ … }` structure body (the parser is at `{`).
    fn members(&mut self) -> Vec<Member> {
        let mut out = Vec::new();
        if !self.punct('{') {
            return out;
        }
        self.pos += 1;
        while let Some(t) = self.peek().cloned() {
            match t {
                Tok::Punct('}') => {
                    self.pos += 1;
                    break;
                }
                Tok::Punct('@') => {
                    let traits = self.traits();
                    match self.next() {
                        Some(Tok::Ident(name)) => out.push(self.member(name, traits)),
                        _ => continue,
                    }
                }
                Tok::Ident(name) => {
                    self.pos += 1;
                    out.push(self.member(name, Vec::new()));
                }
                Tok::Punct('{' | '[' | '(') => {
                    self.balanced();
                }
                _ => self.pos += 1,
            }
        }
        out
    }

    fn member(&mut self, name: String, traits: Vec<Trait>) -> Member {
        let mut target = String::new();
        let name = match name.strip_prefix('$') {
            Some(elided) => elided.to_string(),
            None => {
                if self.punct(':') {
                    self.pos += 1;
                    if let Some(Tok::Ident(t)) = self.next() {
                        target = short_name(&t);
                    }
                }
                name
            }
        };
        if self.punct('=') {
            self.pos += 1;
            self.skip_value();
        }
        let traits = traits
            .into_iter()
            .map(|(n, args)| {
                let arg = args
                    .into_iter()
                    .find_map(|a| match a {
                        Tok::Str(s) => Some(s),
                        _ => None,
                    })
                    .unwrap_or_default();
                (n, arg)
            })
            .collect();
        Member {
            name,
            target,
            traits,
        }
    }
}

/// `smithy.api#String` / `ns.sub#Shape` → `Shape`.
fn short_name(name: &str) -> String {
    name.rsplit('#').next().unwrap_or(name).to_string()
}

/// `method: "GET", uri: "/x"` arguments of `@http`.
fn http_args(args: &[Tok]) -> Option<(String, String)> {
    let mut method = None;
    let mut uri = None;
    for w in args.windows(3) {
        if let [Tok::Ident(key), Tok::Punct(':'), Tok::Str(value)] = w {
            match key.as_str() {
                "method" => method = Some(value.clone()),
                "uri" => uri = Some(value.clone()),
                _ => {}
            }
        }
    }
    Some((method?, uri?))
}

fn parse(tokens: &[(Tok, usize)], file: &SourceFile) -> Model {
    let mut p = Parser { tokens, pos: 0 };
    let mut model = Model::default();
    while p.pos < tokens.len() {
        let traits = p.traits();
        let Some((tok, offset)) = tokens.get(p.pos).cloned() else {
            break;
        };
        p.pos += 1;
        let Tok::Ident(keyword) = tok else {
            if matches!(tok, Tok::Punct('{' | '[' | '(')) {
                p.pos -= 1;
                p.balanced();
            }
            continue;
        };
        match keyword.as_str() {
            "structure" | "union" => {
                let Some(Tok::Ident(name)) = p.next() else {
                    continue;
                };
                // `structure X for Resource with [M] { … }`
                if p.peek() == Some(&Tok::Ident("for".into())) {
                    p.pos += 2;
                }
                let mixins = p.mixins();
                let members = p.members();
                model.structures.push(Structure {
                    name,
                    members,
                    mixins,
                });
            }
            "operation" => {
                let Some(Tok::Ident(name)) = p.next() else {
                    continue;
                };
                let _ = p.mixins();
                let input = operation_input(&mut p, &name);
                let http = traits
                    .iter()
                    .find(|(t, _)| t == "http")
                    .and_then(|(_, args)| http_args(args));
                if let Some((method, uri)) = http {
                    model.operations.push(Operation {
                        method,
                        uri,
                        path: file.path.clone(),
                        line: file.line_of(offset),
                        input,
                    });
                }
            }
            "metadata" | "apply" => {
                // `metadata x = …`, `apply Shape @trait`: skip the value.
                p.pos += 1;
                if p.punct('=') {
                    p.pos += 1;
                    p.skip_value();
                }
            }
            _ => {
                if p.punct('{') {
                    p.balanced();
                }
            }
        }
    }
    model
}

/// A JSON AST model (what `smithy build` writes and SDKs commit): shapes
/// by absolute id, traits by absolute id (`smithy.api#http`).
fn json_ast(file: &SourceFile) -> Option<Model> {
    let doc: serde_json::Value = match serde_json::from_str(&file.content) {
        Ok(doc) => doc,
        Err(e) => {
            host::warn(&format!("{}: invalid JSON: {e}", file.path));
            return None;
        }
    };
    let version = doc.get("smithy").and_then(serde_json::Value::as_str)?;
    if !version.starts_with('1') && !version.starts_with('2') {
        return None;
    }
    let shapes = doc.get("shapes")?.as_object()?;
    let source = SourceMap::new(&file.content);
    let trait_arg = |traits: Option<&serde_json::Value>, name: &str| -> Option<String> {
        let value = traits?.get(format!("smithy.api#{name}"))?;
        Some(value.as_str().unwrap_or("").to_string())
    };
    let members = |shape: &serde_json::Value| -> Vec<Member> {
        let Some(members) = shape.get("members").and_then(serde_json::Value::as_object) else {
            return Vec::new();
        };
        members
            .iter()
            .map(|(name, m)| {
                let traits = m.get("traits");
                let mut bound = Vec::new();
                for t in [
                    "httpLabel",
                    "httpQuery",
                    "httpHeader",
                    "httpPayload",
                    "httpQueryParams",
                    "httpPrefixHeaders",
                    "httpResponseCode",
                ] {
                    if let Some(arg) = trait_arg(traits, t) {
                        bound.push((t.to_string(), arg));
                    }
                }
                Member {
                    name: name.clone(),
                    target: m
                        .get("target")
                        .and_then(serde_json::Value::as_str)
                        .map(short_name)
                        .unwrap_or_default(),
                    traits: bound,
                }
            })
            .collect()
    };
    let mut model = Model::default();
    for (id, shape) in shapes {
        let kind = shape
            .get("type")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("");
        match kind {
            "structure" | "union" => {
                let mixins = shape
                    .get("mixins")
                    .and_then(serde_json::Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|m| m.get("target").and_then(serde_json::Value::as_str))
                    .map(short_name)
                    .collect();
                model.structures.push(Structure {
                    name: short_name(id),
                    members: members(shape),
                    mixins,
                });
            }
            "operation" => {
                let Some(http) = shape.get("traits").and_then(|t| t.get("smithy.api#http")) else {
                    continue;
                };
                let (Some(method), Some(uri)) = (
                    http.get("method").and_then(serde_json::Value::as_str),
                    http.get("uri").and_then(serde_json::Value::as_str),
                ) else {
                    continue;
                };
                let input = shape
                    .get("input")
                    .and_then(|i| i.get("target"))
                    .and_then(serde_json::Value::as_str)
                    .map(|t| Structure {
                        name: short_name(t),
                        ..Structure::default()
                    });
                let key = [Seg::Key("shapes"), Seg::Key(id)];
                let line = source
                    .line(&key)
                    .unwrap_or_else(|| source.nearest_line(&key));
                model.operations.push(Operation {
                    method: method.to_string(),
                    uri: uri.to_string(),
                    path: file.path.clone(),
                    line,
                    input,
                });
            }
            _ => {}
        }
    }
    Some(model)
}

/// The `input` of an operation body (the parser is at `{`).
fn operation_input(p: &mut Parser<'_>, operation: &str) -> Option<Structure> {
    if !p.punct('{') {
        return None;
    }
    p.pos += 1;
    let mut input = None;
    while let Some(t) = p.peek().cloned() {
        match t {
            Tok::Punct('}') => {
                p.pos += 1;
                break;
            }
            Tok::Ident(key) if key == "input" => {
                p.pos += 1;
                match p.next() {
                    Some(Tok::Punct(':')) => {
                        if let Some(Tok::Ident(target)) = p.next() {
                            input = Some(Structure {
                                name: short_name(&target),
                                ..Structure::default()
                            });
                        }
                    }
                    Some(Tok::Walrus) => {
                        let _ = p.traits();
                        if p.peek() == Some(&Tok::Ident("for".into())) {
                            p.pos += 2;
                        }
                        let mixins = p.mixins();
                        let members = p.members();
                        input = Some(Structure {
                            name: format!("{operation}Input"),
                            members,
                            mixins,
                        });
                    }
                    _ => {}
                }
            }
            Tok::Punct('{' | '[' | '(') => {
                p.balanced();
            }
            _ => p.pos += 1,
        }
    }
    input
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexer_survives_odd_text() {
        for text in [
            "\"unterminated",
            "\"\"\"block",
            "@http(",
            "é∂ operation",
            "a:=",
            "",
        ] {
            let tokens = lex(text, b"$#.-");
            let _ = parse(&tokens, &SourceFile::new("m.smithy", text));
        }
    }
}
