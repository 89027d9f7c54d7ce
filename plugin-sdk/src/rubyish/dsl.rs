//! The language-independent half of a routing-DSL view of a Ruby or
//! Crystal file: the [`Node`] tree (a [`Call`] with its line, its block as
//! nodes, the block's parameters and, when the analyzer asked for them,
//! what the block reads from the request: the plugin's own reads type
//! `R`), constants collected from it, constant names and references, and
//! statically known path strings, and the [`Reader`] that builds the
//! nodes from a parsed file with the plugin's own request reader.

use serde::{Deserialize, Serialize};

use super::call::{call_of, Call, Val};
use super::tokens::{Kind, Token};
use super::tree::Stmt;
use crate::SourceFile;

/// The verbs of the Ruby-like routing DSLs (Sinatra, Grape, Roda, Padrino,
/// Kemal, …) with their HTTP method.
pub const VERBS: [(&str, &str); 7] = [
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("head", "HEAD"),
];

/// The HTTP method of a verb call name (see [`VERBS`]).
pub fn verb(name: &str) -> Option<&'static str> {
    VERBS.iter().find(|(v, _)| *v == name).map(|(_, m)| *m)
}

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

/// Builds the [`Node`]s of a parsed file.
pub struct Reader<'a, R> {
    pub file: &'a SourceFile,
    pub toks: &'a [Token],
    /// What a block or `def` body reads from the request (the plugin's own
    /// reader).
    pub reads: &'a dyn Fn(&[Token]) -> R,
    /// Calls whose block reads are wanted (route verbs).
    pub wants_reads: &'a dyn Fn(&Call) -> bool,
    /// Crystal's statement shapes: `abstract`/`private` before
    /// `class`/`struct`/`module`/`def`, `struct` read as a class, and a
    /// constant's value block (`ROUTES = Map.draw do … end`) kept as the
    /// body of its `const=` node (Ruby lists that block's nodes after it).
    pub crystal: bool,
}

fn const_path(toks: &[Token], from: usize) -> (String, usize) {
    let mut name = String::new();
    let mut i = from;
    while let Some(t) = toks.get(i) {
        if t.kind == Kind::Const || t.is("::") {
            name.push_str(&t.text);
            i += 1;
        } else {
            break;
        }
    }
    (name, i)
}

fn named(name: &str, args: Vec<Val>) -> Call {
    Call {
        recv: String::new(),
        name: name.to_string(),
        args,
    }
}

impl<R> Reader<'_, R> {
    pub fn nodes(&self, stmts: &[Stmt]) -> Vec<Node<R>> {
        let mut out = Vec::new();
        for s in stmts {
            let line = self.file.line_of(s.start());
            let block_body = |s: &Stmt| -> Vec<Node<R>> {
                s.blocks.iter().flat_map(|b| self.nodes(&b.body)).collect()
            };
            // `abstract class X`, `private struct Y`, `abstract def z`.
            let owned;
            let s = if self.crystal
                && s.toks.len() > 1
                && matches!(s.toks[0].text.as_str(), "abstract" | "private")
                && matches!(
                    s.toks[1].text.as_str(),
                    "class" | "struct" | "module" | "def"
                ) {
                owned = Stmt {
                    toks: s.toks[1..].to_vec(),
                    blocks: s.blocks.clone(),
                };
                &owned
            } else {
                s
            };
            match s.head() {
                Some(kw @ ("if" | "unless" | "case" | "begin" | "while" | "until" | "for")) => {
                    out.push(Node {
                        call: named(kw, Vec::new()),
                        line,
                        body: Some(block_body(s)),
                        block_params: Vec::new(),
                        reads: None,
                    });
                }
                Some(kw @ ("class" | "module" | "struct")) if kw != "struct" || self.crystal => {
                    let kw = if kw == "struct" { "class" } else { kw };
                    let (name, i) = const_path(&s.toks, 1);
                    if name.is_empty() {
                        continue; // `class << self`
                    }
                    let sup = if s.toks.get(i).is_some_and(|t| t.is("<")) {
                        let (sup, _) = const_path(&s.toks, i + 1);
                        if sup.is_empty() {
                            Val::Expr(super::call::join_tokens(&s.toks[i + 1..]))
                        } else {
                            Val::Const(sup.trim_start_matches("::").to_string())
                        }
                    } else {
                        Val::Expr(String::new())
                    };
                    out.push(Node {
                        call: named(kw, vec![Val::Const(name), sup]),
                        line,
                        body: Some(block_body(s)),
                        block_params: Vec::new(),
                        reads: None,
                    });
                }
                Some("def") => out.push(self.def_node(s, 0, line)),
                Some("private" | "protected" | "public")
                    if s.toks.get(1).is_some_and(|t| t.is_word("def")) =>
                {
                    out.push(self.def_node(s, 1, line));
                }
                _ if s.toks.len() >= 3 && s.toks[0].kind == Kind::Const && s.toks[1].is("=") => {
                    // `PREFIX = '/api'`
                    let value = super::call::read_value(&s.toks[2..]);
                    out.push(Node {
                        call: named("const=", vec![Val::Const(s.toks[0].text.clone()), value]),
                        line,
                        body: (self.crystal && !s.blocks.is_empty()).then(|| block_body(s)),
                        block_params: Vec::new(),
                        reads: None,
                    });
                    if !self.crystal {
                        out.extend(block_body(s));
                    }
                }
                _ => {
                    let Some(call) = call_of(s) else {
                        // An assignment or expression with a block.
                        out.extend(block_body(s));
                        continue;
                    };
                    let block = s.block();
                    let reads = match block {
                        Some(b) if (self.wants_reads)(&call) => {
                            Some((self.reads)(tokens_in(self.toks, b.start, b.end)))
                        }
                        _ => None,
                    };
                    out.push(Node {
                        body: block.map(|b| self.nodes(&b.body)),
                        block_params: block.map(|b| b.params.clone()).unwrap_or_default(),
                        call,
                        line,
                        reads,
                    });
                }
            }
        }
        out
    }

    fn def_node(&self, s: &Stmt, at: usize, line: u32) -> Node<R> {
        let mut i = at + 1;
        let mut name = String::new();
        if s.toks.get(i).is_some_and(|t| t.is_word("self"))
            && s.toks.get(i + 1).is_some_and(|t| t.is("."))
        {
            name.push_str("self.");
            i += 2;
        }
        name.push_str(s.toks.get(i).map(|t| t.text.as_str()).unwrap_or(""));
        let params: Vec<String> = s.toks[(i + 1).min(s.toks.len())..]
            .iter()
            .take_while(|t| !t.is("="))
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.clone())
            .collect();
        let body: &[Token] = match s.blocks.first() {
            Some(b) => tokens_in(self.toks, b.start, b.end),
            None => &s.toks[(i + 1).min(s.toks.len())..],
        };
        Node {
            call: named("def", vec![Val::Sym(name)]),
            line,
            body: Some(s.blocks.iter().flat_map(|b| self.nodes(&b.body)).collect()),
            block_params: params,
            reads: Some((self.reads)(body)),
        }
    }
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

/// The item a constant reference written inside namespace `ns` names
/// (`full` gives an item's full name): `ns::R`, then `R` in each enclosing
/// namespace, then the first item whose name ends with `::R`.
pub fn resolve_const<'x, T>(
    items: &'x [T],
    full: impl Fn(&T) -> &str,
    reference: &str,
    ns: &str,
) -> Option<&'x T> {
    let r = reference.trim_start_matches("::");
    let mut scope = ns.to_string();
    loop {
        let want = if scope.is_empty() {
            r.to_string()
        } else {
            format!("{scope}::{r}")
        };
        if let Some(x) = items.iter().find(|x| full(x) == want) {
            return Some(x);
        }
        if scope.is_empty() {
            break;
        }
        scope = scope
            .rsplit_once("::")
            .map(|(a, _)| a.to_string())
            .unwrap_or_default();
    }
    let suffix = format!("::{r}");
    items.iter().find(|x| full(x).ends_with(&suffix))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_constants() {
        let consts = |n: &str| (n == "V").then(|| Val::Str("/v1".into(), false));
        assert_eq!(
            str_value(&Val::Str("#{V}/users".into(), true), &consts, 0),
            Some("/v1/users".into())
        );
        assert_eq!(str_value(&Val::Const("W".into()), &consts, 0), None);
        assert_eq!(
            const_of(&Val::Expr("App.freeze.app".into())),
            Some("App".into())
        );
        assert!(const_matches("V1::Users", "Api::V1::Users"));
        assert!(!const_matches("Users", "Api::V1::AdminUsers"));
        assert_eq!(verb("patch"), Some("PATCH"));
        assert_eq!(verb("route"), None);
    }
}
