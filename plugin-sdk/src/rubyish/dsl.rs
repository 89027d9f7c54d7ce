//! The language-independent half of a routing-DSL view of a Ruby or
//! Crystal file: the [`Node`] tree (a [`Call`] with its line, its block as
//! nodes, the block's parameters and, when the analyzer asked for them,
//! what the block reads from the request: the plugin's own reads type
//! `R`), constants collected from it, constant names and references, and
//! statically known path strings. Each plugin's reader builds the nodes
//! (its statement shapes and request reads are its own).

use serde::{Deserialize, Serialize};

use super::call::{Call, Val};
use super::tokens::Token;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "R: Deserialize<'de>"))]
pub struct Node<R> {
    pub call: Call,
    pub line: u32,
    /// The block (`do … end` / `{ … }` / keyword body).
    pub body: Option<Vec<Node<R>>>,
    /// `|a, b|` of the block, or a `def`'s parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub block_params: Vec<String>,
    /// Request reads of the block / `def` body, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<R>,
}

impl<R> Node<R> {
    pub fn name(&self) -> &str {
        &self.call.name
    }
    pub fn children(&self) -> &[Node<R>] {
        self.body.as_deref().unwrap_or(&[])
    }
}

/// A file's nodes, as recorded by a map step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "R: Deserialize<'de>"))]
pub struct FileNodes<R> {
    pub path: String,
    pub nodes: Vec<Node<R>>,
}

/// Tokens inside a byte range.
pub fn tokens_in(toks: &[Token], start: usize, end: usize) -> &[Token] {
    let a = toks.partition_point(|t| t.start < start);
    let b = toks.partition_point(|t| t.start < end);
    &toks[a..b.max(a)]
}

/// `NAME = value` assignments of string-like values anywhere in `nodes`,
/// by bare name and by qualified name (`Api::PREFIX`).
pub fn collect_consts<R>(
    nodes: &[Node<R>],
    ns: &str,
    out: &mut std::collections::BTreeMap<String, Val>,
) {
    for n in nodes {
        match n.name() {
            "const=" => {
                if let [Val::Const(name), value] = n.call.args.as_slice() {
                    if matches!(
                        value,
                        Val::Str(..) | Val::Sym(_) | Val::Concat(_) | Val::Const(_)
                    ) {
                        out.entry(name.clone()).or_insert_with(|| value.clone());
                        if !ns.is_empty() {
                            out.insert(format!("{ns}::{name}"), value.clone());
                        }
                    }
                }
            }
            "class" | "module" => {
                let name = match n.call.args.first() {
                    Some(Val::Const(c)) if ns.is_empty() => c.clone(),
                    Some(Val::Const(c)) => format!("{ns}::{c}"),
                    _ => ns.to_string(),
                };
                collect_consts(n.children(), &name, out);
            }
            _ => collect_consts(n.children(), ns, out),
        }
    }
}

/// The constant a value names: `Api`, `Api::V1`, `Api.new`, `App.freeze.app`.
pub fn const_of(v: &Val) -> Option<String> {
    match v {
        Val::Const(c) => Some(c.trim_start_matches("::").to_string()),
        Val::Expr(e) => {
            let e = e.trim_start_matches("::");
            let end = e
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(e.len());
            let head = &e[..end];
            (head.starts_with(|c: char| c.is_ascii_uppercase())).then(|| head.to_string())
        }
        Val::Str(s, false) if s.starts_with(|c: char| c.is_ascii_uppercase()) => Some(s.clone()),
        _ => None,
    }
}

/// Does the constant reference `reference` (as written, maybe relative)
/// name the class `full`?
pub fn const_matches(reference: &str, full: &str) -> bool {
    let r = reference.trim_start_matches("::");
    r == full || full.ends_with(&format!("::{r}"))
}

/// Statically known string value of a path expression: literals,
/// constants (resolved through `consts`), concatenation and `#{CONST}`
/// interpolation; `None` when some part is unknown.
pub fn str_value(v: &Val, consts: &dyn Fn(&str) -> Option<Val>, depth: usize) -> Option<String> {
    if depth > 8 {
        return None;
    }
    match v {
        Val::Str(s, false) | Val::Sym(s) => Some(s.clone()),
        Val::Str(s, true) => {
            let mut out = String::new();
            let mut rest = s.as_str();
            while let Some(p) = rest.find("#{") {
                out.push_str(&rest[..p]);
                let after = &rest[p + 2..];
                let close = after.find('}')?;
                let name = after[..close].trim();
                let val = consts(name)?;
                out.push_str(&str_value(&val, consts, depth + 1)?);
                rest = &after[close + 1..];
            }
            out.push_str(rest);
            Some(out)
        }
        Val::Const(c) => {
            let val = consts(c)?;
            str_value(&val, consts, depth + 1)
        }
        Val::Concat(parts) => {
            let mut out = String::new();
            for p in parts {
                out.push_str(&str_value(p, consts, depth + 1)?);
            }
            Some(out)
        }
        _ => None,
    }
}

/// What a framework's generic `params` reads become on requests with a
/// body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    Form,
    Json,
}
