//! Just enough of a `.proto` file for Connect: the package, services with
//! their RPCs and request types, and top-level message fields.

use portolan_plugin_sdk::{Code, SourceFile, Syntax};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ProtoFile {
    pub package: String,
    pub services: Vec<Service>,
    pub messages: Vec<Message>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Service {
    pub name: String,
    pub rpcs: Vec<Rpc>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rpc {
    pub name: String,
    pub input: String,
    /// `option idempotency_level = NO_SIDE_EFFECTS;`
    #[serde(default)]
    pub no_side_effects: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Message {
    pub name: String,
    /// Field names as declared (protojson accepts them besides the
    /// lowerCamel JSON names; the `grpc` analyzer reports the same names).
    pub fields: Vec<String>,
}

fn word_at(code: &Code<'_>, i: usize, w: &str) -> bool {
    let b = code.text().as_bytes();
    b.get(i)
        .is_some_and(|c| portolan_plugin_sdk::lex::is_ident_byte(*c))
        && (i == 0 || !portolan_plugin_sdk::lex::is_ident_byte(b[i - 1]))
        && code.ident_at(i) == Some(w)
}

/// Identifier-ish token (dots allowed) at `i` after whitespace.
fn token(code: &Code<'_>, i: usize) -> (String, usize) {
    let b = code.text().as_bytes();
    let s = code.skip_ws(i);
    let mut e = s;
    while e < b.len() && (portolan_plugin_sdk::lex::is_ident_byte(b[e]) || b[e] == b'.') {
        e += 1;
    }
    (code.slice(s..e).to_string(), e)
}

pub fn parse(file: &SourceFile) -> ProtoFile {
    let code = file.code(Syntax::C_LIKE);
    let text = code.text();
    let b = text.as_bytes();
    let mut out = ProtoFile::default();
    if let Some(i) = code.find_word("package").next() {
        out.package = token(&code, i + "package".len()).0;
    }
    // Top-level blocks only: nested messages are not request types here.
    let mut i = 0;
    while i < b.len() {
        if !code.is_code(i) {
            i += 1;
            continue;
        }
        let is_service = word_at(&code, i, "service");
        let is_message = word_at(&code, i, "message");
        if !(is_service || is_message) {
            if b[i] == b'{' {
                i = code.matching(i).map_or(b.len(), |c| c + 1);
            } else {
                i += 1;
            }
            continue;
        }
        let kw = if is_service { "service" } else { "message" };
        let (name, after) = token(&code, i + kw.len());
        let open = code.skip_ws(after);
        let Some(close) = (b.get(open) == Some(&b'{'))
            .then(|| code.matching(open))
            .flatten()
        else {
            i += kw.len();
            continue;
        };
        if is_service {
            out.services.push(Service {
                name,
                rpcs: rpcs(&code, open + 1, close),
            });
        } else {
            out.messages.push(Message {
                name,
                fields: fields(&code, open + 1, close),
            });
        }
        i = close + 1;
    }
    out
}

fn rpcs(code: &Code<'_>, start: usize, end: usize) -> Vec<Rpc> {
    let mut out = Vec::new();
    for i in code.find_word_in("rpc", start..end) {
        let (name, after) = token(code, i + 3);
        let open = code.skip_ws(after);
        if code.text().as_bytes().get(open) != Some(&b'(') {
            continue;
        }
        let close = code.matching(open).unwrap_or(open);
        let inner = code.slice(open + 1..close).trim();
        let input = inner.strip_prefix("stream ").unwrap_or(inner).trim();
        // The options block `{ option idempotency_level = …; }`, if any.
        let b = code.text().as_bytes();
        let mut k = close + 1;
        while k < end && b[k] != b';' && b[k] != b'{' {
            k += 1;
        }
        let no_side_effects = k < end
            && b[k] == b'{'
            && code
                .matching(k)
                .is_some_and(|c| code.slice(k..c).contains("NO_SIDE_EFFECTS"));
        if !name.is_empty() {
            out.push(Rpc {
                name,
                input: input.rsplit('.').next().unwrap_or(input).to_string(),
                no_side_effects,
            });
        }
    }
    out
}

/// Field declarations `[repeated|optional] type name = N [opts];` at the
/// message's top level and inside its `oneof`s.
fn fields(code: &Code<'_>, start: usize, end: usize) -> Vec<String> {
    let b = code.text().as_bytes();
    let mut out = Vec::new();
    let mut stmt = start;
    let mut i = start;
    while i < end {
        if !code.is_code(i) {
            i += 1;
            continue;
        }
        match b[i] {
            b'{' => {
                let s = code.slice(stmt..i).trim().to_string();
                let close = code.matching(i).unwrap_or(end).min(end);
                if s.starts_with("oneof") {
                    out.extend(fields(code, i + 1, close));
                }
                i = close + 1;
                stmt = i;
                continue;
            }
            b';' => {
                if let Some(f) = field(code.slice(stmt..i)) {
                    out.push(f);
                }
                stmt = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn field(decl: &str) -> Option<String> {
    let (head, opts) = decl.split_once('=')?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let first = *words.first()?;
    if matches!(
        first,
        "option" | "reserved" | "extensions" | "message" | "enum" | "oneof" | "syntax"
    ) {
        return None;
    }
    let name = *words.last()?;
    if words.len() < 2 || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    let _ = opts;
    Some(name.to_string())
}

/// JSON fields of the request message of `/<svc>/<method>`.
pub fn request_fields(protos: &[&ProtoFile], svc: &str, method: &str) -> Vec<String> {
    let (pkg, name) = svc.rsplit_once('.').unwrap_or(("", svc));
    for p in protos.iter().filter(|p| p.package == pkg) {
        let Some(rpc) = p
            .services
            .iter()
            .filter(|s| s.name == name)
            .flat_map(|s| s.rpcs.iter())
            .find(|r| r.name == method)
        else {
            continue;
        };
        // The message in the same package (any file of it).
        for q in protos.iter().filter(|q| q.package == pkg) {
            if let Some(m) = q.messages.iter().find(|m| m.name == rpc.input) {
                return m.fields.clone();
            }
        }
    }
    Vec::new()
}
