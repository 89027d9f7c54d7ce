//! A declaration outline of one C# file: types (classes, records,
//! structs, interfaces) with their attributes, base types, constructors,
//! properties, constants and methods (parameters with attributes, and the
//! request values the body reads), across block and file-scoped
//! namespaces and nested types.
//!
//! The parser is a tolerant recursive descent over [`super::tokens`]: it
//! never fails, and skips what it does not understand to the next member.

use portolan_plugin_sdk::{ParamKind, SourceFile, Syntax};
use serde::{Deserialize, Serialize};

use super::expr::Expr;
use super::tokens::{close_of, split_commas, tokenize, Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttrArg {
    /// `Name = …` / `name: …`; `None` for positional arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<Expr>,
    /// Every string literal of the argument (`new[] { "GET", "POST" }`),
    /// and the members of classic MVC's `HttpVerbs.Post | HttpVerbs.Put`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attr {
    /// Last segment of the name without the `Attribute` suffix.
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<AttrArg>,
    pub line: u32,
}

impl Attr {
    /// The `n`th positional argument.
    pub fn positional(&self, n: usize) -> Option<&AttrArg> {
        self.args.iter().filter(|a| a.name.is_none()).nth(n)
    }

    /// A named argument (`Name = "x"` or `name: "x"`), case-insensitive.
    pub fn named(&self, name: &str) -> Option<&AttrArg> {
        self.args.iter().find(|a| {
            a.name
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
    }
}

/// Find an attribute by name.
pub fn attr<'a>(attrs: &'a [Attr], name: &str) -> Option<&'a Attr> {
    attrs.iter().find(|a| a.name == name)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<Attr>,
    /// `this` (extension method receiver).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub this: bool,
}

/// A request value read in a body: `Request.Query["q"]`, or a body read
/// as a type (`ReadFromJsonAsync<Dto>()`, `name` empty, `ty` set).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Read {
    pub kind: ParamKind,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<Attr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<String>,
    pub params: Vec<Param>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Read>,
    pub line: u32,
    /// Token range of the body (map step only).
    #[serde(skip)]
    pub body: Option<(usize, usize)>,
}

impl Method {
    pub fn has(&self, modifier: &str) -> bool {
        self.modifiers.iter().any(|m| m == modifier)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prop {
    pub name: String,
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<Attr>,
    /// The value of an expression-bodied or initialized property
    /// (`Template => "{id:int}"`, `{ get; } = "x"`), when a string
    /// expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Expr>,
    /// String literals of that value (`HttpMethods => new[] { "GET" }`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Const {
    pub name: String,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ctor {
    pub params: Vec<String>,
    /// Arguments of `: base(…)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_args: Vec<Option<Expr>>,
    /// Every string literal in `: base(…)` (`new[] { "GET" }`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_strings: Vec<String>,
    /// Default values of optional parameters (`int version = 1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<(String, Expr)>,
    /// Properties assigned a string expression in the body (`Template =
    /// $"api/v{version}/{resource}";`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assigns: Vec<(String, Expr)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TypeKind {
    Class,
    Struct,
    Record,
    Interface,
    Enum,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeDecl {
    pub name: String,
    pub namespace: String,
    pub kind: TypeKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<Attr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<String>,
    /// Type parameters (`class Crud<TItem, TInput>` → `["TItem", "TInput"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generics: Vec<String>,
    /// Base class and interfaces, simple names without type arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    /// The type this one is nested in (`Login.Command` → `Login`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outer: Option<String>,
    /// Type arguments of each base, parallel to `bases` (`Endpoint<Req,
    /// Res>` → `["Req", "Res"]`; `Ep.Req<R>.Res<S>` → `["R"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_args: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub props: Vec<Prop>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Const>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ctors: Vec<Ctor>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<Method>,
    pub line: u32,
}

impl TypeDecl {
    pub fn is_abstract(&self) -> bool {
        self.kind == TypeKind::Interface || self.modifiers.iter().any(|m| m == "abstract")
    }
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        attr(&self.attrs, name)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CsFile {
    pub path: String,
    /// The file names classic ASP.NET (`System.Web.Mvc`, `System.Web.Http`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub classic: bool,
    /// The file names ASP.NET Core (`Microsoft.AspNetCore`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub core: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<TypeDecl>,
}

const MODIFIERS: &[&str] = &[
    "public",
    "protected",
    "private",
    "internal",
    "static",
    "abstract",
    "sealed",
    "virtual",
    "override",
    "partial",
    "readonly",
    "const",
    "async",
    "extern",
    "unsafe",
    "new",
    "volatile",
    "required",
    "file",
];

/// The outline of a file, and its tokens (for scanners that need bodies).
pub fn parse(file: &SourceFile) -> (CsFile, Vec<Token>) {
    let code = file.code(Syntax::CSHARP);
    let toks = tokenize(&code);
    let mut p = Parser {
        file,
        t: &toks,
        types: Vec::new(),
    };
    p.block(0, toks.len(), None, "");
    let out = CsFile {
        path: file.path.clone(),
        classic: names_namespace(&file.content, "System.Web.Mvc")
            || names_namespace(&file.content, "System.Web.Http"),
        core: file.content.contains("Microsoft.AspNetCore"),
        types: p.types,
    };
    (out, toks)
}

/// Does the text name namespace `ns` (`using ns;`, `ns.Type`), not just a
/// longer name starting the same (`System.Web.HttpUtility` does not name
/// `System.Web.Http`)?
fn names_namespace(text: &str, ns: &str) -> bool {
    text.match_indices(ns).any(|(i, _)| {
        !text[i + ns.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Parameters between `(` and `)` at token indices `start..end`
/// (exclusive), e.g. of a lambda: `([FromQuery] string q, Db db)`.
pub fn params_in(file: &SourceFile, toks: &[Token], start: usize, end: usize) -> Vec<Param> {
    let p = Parser {
        file,
        t: toks,
        types: Vec::new(),
    };
    p.params(start, end)
}

struct Parser<'a> {
    file: &'a SourceFile,
    t: &'a [Token],
    types: Vec<TypeDecl>,
}

impl Parser<'_> {
    fn line(&self, i: usize) -> u32 {
        self.t.get(i).map_or(0, |t| self.file.line_of(t.start))
    }

    fn ident(&self, i: usize, word: &str) -> bool {
        self.t.get(i).is_some_and(|t| t.is_ident(word))
    }

    fn punct(&self, i: usize, c: char) -> bool {
        self.t.get(i).is_some_and(|t| t.is(c))
    }

    /// Index after the statement starting at `i`: past the next `;` at
    /// depth 0, or past a `{…}` block that ends it.
    fn skip_statement(&self, mut i: usize, end: usize) -> usize {
        while i < end {
            let t = &self.t[i];
            if t.is(';') {
                return i + 1;
            }
            if t.is('}') {
                return i;
            }
            if t.is('(') || t.is('[') {
                i = close_of(self.t, i).map_or(end, |c| c + 1);
                continue;
            }
            if t.is('{') {
                let c = close_of(self.t, i).map_or(end, |c| c + 1);
                // `{ get; set; } = x;` and object initialisers continue.
                if self.punct(c, '=') || self.punct(c, ')') || self.punct(c, ',') {
                    i = c;
                    continue;
                }
                return c;
            }
            i += 1;
        }
        end
    }

    /// Declarations in `start..end`; `owner` is the enclosing type index.
    fn block(&mut self, start: usize, end: usize, owner: Option<usize>, ns: &str) {
        let mut ns = ns.to_string();
        let mut attrs: Vec<Attr> = Vec::new();
        let mut i = start;
        while i < end {
            let t = &self.t[i];
            if t.is(';') || t.is('}') {
                attrs.clear();
                i += 1;
                continue;
            }
            if t.is('[') {
                let close = close_of(self.t, i).unwrap_or(end).min(end);
                attrs.extend(self.attrs(i + 1, close));
                i = close + 1;
                continue;
            }
            if t.is_ident("using") || t.is_ident("extern") && self.ident(i + 1, "alias") {
                i = self.skip_statement(i, end);
                continue;
            }
            if t.is_ident("namespace") {
                let mut k = i + 1;
                let mut name = String::new();
                while k < end && (self.t[k].kind == Kind::Ident || self.t[k].is('.')) {
                    name.push_str(&self.t[k].text);
                    k += 1;
                }
                if self.punct(k, '{') {
                    let close = close_of(self.t, k).unwrap_or(end).min(end);
                    self.block(k + 1, close, None, &name);
                    i = close + 1;
                } else {
                    ns = name;
                    i = k + 1;
                }
                attrs.clear();
                continue;
            }
            let mut mods = Vec::new();
            let mut k = i;
            while k < end
                && MODIFIERS.iter().any(|m| self.t[k].is_ident(m))
                && !self.punct(k + 1, '(')
                && !self.punct(k + 1, '.')
            {
                mods.push(self.t[k].text.clone());
                k += 1;
            }
            let kind = match self.t.get(k).map(|t| t.text.as_str()) {
                Some("class") => Some(TypeKind::Class),
                Some("struct") => Some(TypeKind::Struct),
                Some("interface") => Some(TypeKind::Interface),
                Some("enum") => Some(TypeKind::Enum),
                Some("record") if self.t.get(k + 1).is_some_and(|t| t.kind == Kind::Ident) => {
                    Some(TypeKind::Record)
                }
                _ => None,
            };
            if let Some(kind) = kind.filter(|_| self.t[k].kind == Kind::Ident) {
                let at = self.types.len();
                i = self.type_decl(k, end, kind, std::mem::take(&mut attrs), mods, &ns);
                if let Some(o) = owner
                    .and_then(|o| self.types.get(o))
                    .map(|o| o.name.clone())
                {
                    if let Some(d) = self.types.get_mut(at) {
                        d.outer = Some(o);
                    }
                }
                continue;
            }
            match owner {
                Some(o) if k > i || self.t[k].kind == Kind::Ident || self.t[k].is('(') => {
                    i = self.member(k, end, o, std::mem::take(&mut attrs), mods);
                }
                _ => {
                    // Top-level statements: skip balanced brackets.
                    attrs.clear();
                    i = if t.is('(') || t.is('{') {
                        close_of(self.t, i).map_or(end, |c| c + 1)
                    } else {
                        i + 1
                    };
                }
            }
        }
    }

    /// Attributes between `[` and `]` (exclusive bounds).
    fn attrs(&self, start: usize, end: usize) -> Vec<Attr> {
        let mut out = Vec::new();
        for r in split_commas(self.t, start, end) {
            let mut k = r.start;
            // Attribute target: `[property: JsonPropertyName("x")]`.
            if self.t.get(k).is_some_and(|t| t.kind == Kind::Ident)
                && self.punct(k + 1, ':')
                && !self.punct(k + 2, ':')
            {
                k += 2;
            }
            let mut name = String::new();
            while k < r.end
                && (self.t[k].kind == Kind::Ident || self.t[k].is('.') || self.t[k].is(':'))
            {
                if self.t[k].kind == Kind::Ident {
                    name = self.t[k].text.clone();
                }
                k += 1;
            }
            if name.is_empty() {
                continue;
            }
            // Generic attributes: `[ProducesResponseType<Todo>(200)]`.
            if self.punct(k, '<') {
                k = close_of(self.t, k).map_or(k, |c| c + 1);
            }
            let line = self.line(r.start);
            let name = name
                .strip_suffix("Attribute")
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .unwrap_or(name);
            let mut args = Vec::new();
            if self.punct(k, '(') {
                let close = close_of(self.t, k).unwrap_or(r.end).min(r.end);
                for a in split_commas(self.t, k + 1, close) {
                    args.push(self.attr_arg(a));
                }
            }
            out.push(Attr { name, args, line });
        }
        out
    }

    fn attr_arg(&self, r: std::ops::Range<usize>) -> AttrArg {
        let mut s = r.start;
        let mut name = None;
        if self.t.get(s).is_some_and(|t| t.kind == Kind::Ident)
            && (self.punct(s + 1, '=') && !self.punct(s + 2, '=')
                || self.punct(s + 1, ':') && !self.punct(s + 2, ':'))
        {
            name = Some(self.t[s].text.clone());
            s += 2;
        }
        let toks = self.t.get(s..r.end).unwrap_or(&[]);
        AttrArg {
            name,
            expr: crate::cs::expr::parse(toks),
            strings: toks
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    if t.kind == Kind::Str {
                        return Some(t.text.clone());
                    }
                    // `HttpVerbs.Post | HttpVerbs.Put` (classic MVC flags).
                    let flag = i >= 2
                        && t.kind == Kind::Ident
                        && toks[i - 1].is('.')
                        && toks[i - 2].is_ident("HttpVerbs");
                    flag.then(|| t.text.clone())
                })
                .collect(),
        }
    }

    /// A type declaration whose keyword is at `k`; returns the index after it.
    fn type_decl(
        &mut self,
        mut k: usize,
        end: usize,
        kind: TypeKind,
        attrs: Vec<Attr>,
        modifiers: Vec<String>,
        ns: &str,
    ) -> usize {
        let line = self.line(k);
        k += 1;
        if kind == TypeKind::Record && (self.ident(k, "class") || self.ident(k, "struct")) {
            k += 1;
        }
        let Some(name) = self.t.get(k).filter(|t| t.kind == Kind::Ident) else {
            return k;
        };
        let name = name.text.clone();
        k += 1;
        let mut generics = Vec::new();
        if self.punct(k, '<') {
            let close = close_of(self.t, k);
            if let Some(c) = close {
                for r in split_commas(self.t, k + 1, c) {
                    if let Some(g) = self
                        .t
                        .get(r.end.wrapping_sub(1))
                        .filter(|t| t.kind == Kind::Ident && r.end > r.start)
                    {
                        generics.push(g.text.clone());
                    }
                }
            }
            k = close.map_or(k + 1, |c| c + 1);
        }
        let mut decl = TypeDecl {
            name,
            generics,
            namespace: ns.to_string(),
            kind,
            attrs,
            modifiers,
            bases: Vec::new(),
            outer: None,
            base_args: Vec::new(),
            props: Vec::new(),
            consts: Vec::new(),
            ctors: Vec::new(),
            methods: Vec::new(),
            line,
        };
        // Primary constructor: a record's parameters are its properties.
        if self.punct(k, '(') {
            let close = close_of(self.t, k).unwrap_or(end).min(end);
            let params = self.params(k + 1, close);
            if kind == TypeKind::Record {
                decl.props = params
                    .iter()
                    .map(|p| Prop {
                        name: p.name.clone(),
                        ty: p.ty.clone(),
                        attrs: p.attrs.clone(),
                        value: None,
                        strings: Vec::new(),
                    })
                    .collect();
            }
            decl.ctors.push(Ctor {
                params: params.into_iter().map(|p| p.name).collect(),
                base_args: Vec::new(),
                base_strings: Vec::new(),
                defaults: Vec::new(),
                assigns: Vec::new(),
            });
            k = close + 1;
        }
        if self.punct(k, ':') {
            k += 1;
            loop {
                let mut name = String::new();
                while k < end
                    && (self.t[k].kind == Kind::Ident || self.t[k].is('.'))
                    && !self.t[k].is_ident("where")
                {
                    if self.t[k].kind == Kind::Ident && !self.t[k].is_ident("global") {
                        name = self.t[k].text.clone();
                    }
                    k += 1;
                }
                let mut args = Vec::new();
                if self.punct(k, '<') {
                    let close = close_of(self.t, k).unwrap_or(end).min(end);
                    for r in split_commas(self.t, k + 1, close) {
                        let text: String = self.t[r].iter().map(|x| x.text.as_str()).collect();
                        args.push(text);
                    }
                    k = close + 1;
                    // `Ep.Req<R>.Res<S>`: the rest of the dotted name.
                    while self.punct(k, '.')
                        && self.t.get(k + 1).is_some_and(|x| x.kind == Kind::Ident)
                    {
                        k += 2;
                        if self.punct(k, '<') {
                            k = close_of(self.t, k).map_or(k + 1, |c| c + 1);
                        }
                    }
                }
                if self.punct(k, '(') {
                    k = close_of(self.t, k).map_or(k + 1, |c| c + 1);
                }
                if !name.is_empty() {
                    decl.bases.push(name);
                    decl.base_args.push(args);
                }
                if self.punct(k, ',') {
                    k += 1;
                    continue;
                }
                break;
            }
        }
        while k < end && !self.punct(k, '{') && !self.punct(k, ';') {
            k += 1; // `where T : class`
        }
        let idx = self.types.len();
        self.types.push(decl);
        if self.punct(k, '{') {
            let close = close_of(self.t, k).unwrap_or(end).min(end);
            self.block(k + 1, close, Some(idx), ns);
            return close + 1;
        }
        k + 1
    }

    /// A type as written starting at `k`: returns its text and the index after.
    fn ty(&self, mut k: usize, end: usize) -> Option<(String, usize)> {
        let start = k;
        if self.punct(k, '(') {
            k = close_of(self.t, k)? + 1; // tuple
        } else {
            if self.t.get(k)?.kind != Kind::Ident {
                return None;
            }
            k += 1;
            loop {
                if self.punct(k, '.') && self.t.get(k + 1).is_some_and(|t| t.kind == Kind::Ident) {
                    k += 2;
                } else if self.punct(k, ':') && self.punct(k + 1, ':') {
                    k += 3; // global::X
                } else if self.punct(k, '<') {
                    k = close_of(self.t, k)? + 1;
                } else {
                    break;
                }
            }
        }
        while k < end {
            if self.punct(k, '?') || self.punct(k, '*') {
                k += 1;
            } else if self.punct(k, '[') && (self.punct(k + 1, ']') || self.punct(k + 1, ',')) {
                k = close_of(self.t, k)? + 1;
            } else {
                break;
            }
        }
        // `k += 2` / `k += 3` above can step past the last token.
        let k = k.min(self.t.len());
        let text: String = self
            .t
            .get(start..k)?
            .iter()
            .map(|t| t.text.as_str())
            .collect();
        Some((text, k))
    }

    /// `Name = expr;` statements (a property set to a string expression)
    /// at the top level of a body between `start` and `end`.
    fn assigns(&self, start: usize, end: usize) -> Vec<(String, Expr)> {
        let mut out = Vec::new();
        let mut k = start;
        let mut stmt = start;
        while k < end {
            if self.punct(k, '{') || self.punct(k, '(') {
                k = close_of(self.t, k).map_or(end, |c| c + 1);
                continue;
            }
            if self.punct(k, ';') {
                // `Name = expr` (not `==`, `=>`).
                if k > stmt + 2
                    && self.t[stmt].kind == Kind::Ident
                    && self.t[stmt]
                        .text
                        .starts_with(|c: char| c.is_ascii_uppercase())
                    && self.punct(stmt + 1, '=')
                    && !self.punct(stmt + 2, '=')
                    && !self.punct(stmt + 2, '>')
                {
                    if let Some(e) = crate::cs::expr::parse(&self.t[stmt + 2..k]) {
                        out.push((self.t[stmt].text.clone(), e));
                    }
                }
                stmt = k + 1;
            }
            k += 1;
        }
        out
    }

    /// Default values of the parameters between `(` and `)`: `name =
    /// expr`.
    fn defaults(&self, start: usize, end: usize) -> Vec<(String, Expr)> {
        let mut out = Vec::new();
        for r in split_commas(self.t, start, end) {
            let Some(eq) = (r.start + 1..r.end).find(|&k| self.punct(k, '=')) else {
                continue;
            };
            let name = self.t.get(eq - 1).filter(|t| t.kind == Kind::Ident);
            if let (Some(name), Some(e)) = (
                name,
                crate::cs::expr::parse(self.t.get(eq + 1..r.end).unwrap_or(&[])),
            ) {
                out.push((name.text.clone(), e));
            }
        }
        out
    }

    /// Parameters between `(` and `)` (exclusive bounds).
    fn params(&self, start: usize, end: usize) -> Vec<Param> {
        let mut out = Vec::new();
        for r in split_commas(self.t, start, end) {
            let mut k = r.start;
            let mut attrs = Vec::new();
            while self.punct(k, '[') {
                let close = close_of(self.t, k).unwrap_or(r.end).min(r.end);
                attrs.extend(self.attrs(k + 1, close));
                k = close + 1;
            }
            let mut this = false;
            while k < r.end
                && ["this", "ref", "out", "in", "params", "scoped", "readonly"]
                    .iter()
                    .any(|m| self.t[k].is_ident(m))
            {
                this |= self.t[k].is_ident("this");
                k += 1;
            }
            let Some((ty, after)) = self.ty(k, r.end) else {
                continue;
            };
            let Some(name) = self
                .t
                .get(after)
                .filter(|t| t.kind == Kind::Ident && after < r.end)
            else {
                // A lambda parameter without a type: `(id, db) => …`.
                if after == r.end && after == k + 1 {
                    out.push(Param {
                        name: ty,
                        ty: String::new(),
                        attrs,
                        this,
                    });
                }
                continue;
            };
            out.push(Param {
                name: name.text.clone(),
                ty,
                attrs,
                this,
            });
        }
        out
    }

    /// A member of type `owner` starting at `k` (after modifiers).
    fn member(
        &mut self,
        k: usize,
        end: usize,
        owner: usize,
        attrs: Vec<Attr>,
        modifiers: Vec<String>,
    ) -> usize {
        let line = self.line(k);
        let tname = self.types[owner].name.clone();
        if self.ident(k, "event")
            || self.punct(k, '~')
            || self.ident(k, "implicit")
            || self.ident(k, "explicit")
        {
            return self.skip_member_body(k, end);
        }
        // Constructor.
        if self.ident(k, &tname) && self.punct(k + 1, '(') {
            let close = close_of(self.t, k + 1).unwrap_or(end).min(end);
            let params = self.params(k + 2, close);
            let mut ctor = Ctor {
                params: params.into_iter().map(|p| p.name).collect(),
                base_args: Vec::new(),
                base_strings: Vec::new(),
                defaults: self.defaults(k + 2, close),
                assigns: Vec::new(),
            };
            let mut j = close + 1;
            if self.punct(j, ':')
                && (self.ident(j + 1, "base") || self.ident(j + 1, "this"))
                && self.punct(j + 2, '(')
            {
                let c = close_of(self.t, j + 2).unwrap_or(end).min(end);
                for a in split_commas(self.t, j + 3, c) {
                    ctor.base_args
                        .push(crate::cs::expr::parse(&self.t[a.clone()]));
                    ctor.base_strings.extend(
                        self.t[a]
                            .iter()
                            .filter(|t| t.kind == Kind::Str)
                            .map(|t| t.text.clone()),
                    );
                }
                j = c + 1;
            }
            if self.punct(j, '{') {
                let c = close_of(self.t, j).unwrap_or(end).min(end);
                ctor.assigns = self.assigns(j + 1, c);
            }
            self.types[owner].ctors.push(ctor);
            return self.skip_member_body(j, end);
        }
        let Some((ty, mut j)) = self.ty(k, end) else {
            return self.skip_statement(k + 1, end);
        };
        if self.ident(j, "operator") || self.ident(j, "this") {
            return self.skip_member_body(j, end);
        }
        // Name, possibly an explicit interface implementation `IFoo.Bar`.
        let mut name = None;
        while let Some(t) = self.t.get(j).filter(|t| t.kind == Kind::Ident) {
            name = Some(t.text.clone());
            j += 1;
            if self.punct(j, '.') {
                j += 1;
            } else {
                break;
            }
        }
        let Some(name) = name else {
            return self.skip_statement(k + 1, end);
        };
        if self.punct(j, '<') {
            j = close_of(self.t, j).map_or(j + 1, |c| c + 1);
        }
        if self.punct(j, '(') {
            let close = close_of(self.t, j).unwrap_or(end).min(end);
            let params = self.params(j + 1, close);
            let (body, after) = self.body(close + 1, end);
            let reads = body
                .map(|(s, e)| scan_reads(self.t, s, e))
                .unwrap_or_default();
            self.types[owner].methods.push(Method {
                name,
                attrs,
                modifiers,
                params,
                reads,
                line,
                body,
            });
            return after;
        }
        if self.punct(j, '{') || self.punct(j, '=') && self.punct(j + 1, '>') {
            let after = self.skip_member_body(j, end);
            if !modifiers.iter().any(|m| m == "static") {
                // `=> value;` or `{ get; } = value;`
                let value_at = if self.punct(j, '=') {
                    Some(j + 2)
                } else {
                    close_of(self.t, j)
                        .filter(|&c| self.punct(c + 1, '=') && !self.punct(c + 2, '>'))
                        .map(|c| c + 2)
                };
                let (value, strings) = match value_at {
                    Some(v) if v < after => {
                        let stop = (v..after).find(|&x| self.punct(x, ';')).unwrap_or(after);
                        let toks = self.t.get(v..stop).unwrap_or(&[]);
                        let strings = toks
                            .iter()
                            .filter(|t| t.kind == Kind::Str)
                            .map(|t| t.text.clone())
                            .collect();
                        (crate::cs::expr::parse(toks), strings)
                    }
                    _ => (None, Vec::new()),
                };
                self.types[owner].props.push(Prop {
                    name,
                    ty,
                    attrs,
                    value,
                    strings,
                });
            }
            return after;
        }
        // Field(s).
        let is_const = modifiers.iter().any(|m| m == "const")
            || modifiers.iter().any(|m| m == "static") && modifiers.iter().any(|m| m == "readonly");
        if self.punct(j, '=') && is_const {
            let stop = self.skip_statement(j, end);
            let last = if self.punct(stop.saturating_sub(1), ';') {
                stop - 1
            } else {
                stop
            };
            if let Some(value) = crate::cs::expr::parse(self.t.get(j + 1..last).unwrap_or(&[])) {
                self.types[owner].consts.push(Const { name, value });
            }
            return stop;
        }
        // A public instance field is a serialised member of a DTO too
        // (`public string Email;`).
        if (self.punct(j, ';') || self.punct(j, '='))
            && modifiers.iter().any(|m| m == "public")
            && !is_const
            && !modifiers.iter().any(|m| m == "static")
        {
            self.types[owner].props.push(Prop {
                name,
                ty,
                attrs,
                value: None,
                strings: Vec::new(),
            });
        }
        self.skip_statement(j, end)
    }

    /// A method body at `k` (`{…}`, `=> …;` or `;`, after optional
    /// `where` clauses): its token range and the index after it.
    fn body(&self, mut k: usize, end: usize) -> (Option<(usize, usize)>, usize) {
        while k < end && !self.punct(k, '{') && !self.punct(k, ';') {
            if self.punct(k, '=') && self.punct(k + 1, '>') {
                let stop = self.skip_statement(k + 2, end);
                return (Some((k + 2, stop)), stop);
            }
            k += 1;
        }
        if self.punct(k, '{') {
            let close = close_of(self.t, k).unwrap_or(end).min(end);
            return (Some((k + 1, close)), close + 1);
        }
        (None, k + 1)
    }

    fn skip_member_body(&self, k: usize, end: usize) -> usize {
        let mut j = k;
        while j < end {
            if self.punct(j, ';') {
                return j + 1;
            }
            if self.punct(j, '{') {
                let close = close_of(self.t, j).unwrap_or(end).min(end);
                // `{ get; set; } = …;`
                if self.punct(close + 1, '=') {
                    return self.skip_statement(close + 1, end);
                }
                return close + 1;
            }
            if self.punct(j, '(') {
                j = close_of(self.t, j).map_or(end, |c| c + 1);
                continue;
            }
            j += 1;
        }
        end
    }
}

/// Request values read in `t[start..end]`: `Request.Query["q"]`,
/// `.Headers["X"]`, `.Cookies["c"]`, `.Form["f"]`, `.Form.Files["f"]`,
/// `.TryGetValue("x", …)`, `.GetFile("f")`, and body reads as a type:
/// `ReadFromJsonAsync<Dto>()`, `ReadAsAsync<Dto>()`.
pub fn scan_reads(t: &[Token], start: usize, end: usize) -> Vec<Read> {
    let mut out: Vec<Read> = Vec::new();
    let end = end.min(t.len());
    let mut push = |r: Read| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    // `var form = await Request.ReadFormAsync();` then `form["name"]`,
    // `form.Files["f"]`.
    let mut form_vars: Vec<&str> = Vec::new();
    for i in start.max(1)..end {
        if t[i].is_ident("ReadFormAsync") && t[i - 1].is('.') {
            let mut k = i;
            while k > start && !t[k].is('=') && !t[k].is(';') && !t[k].is('{') && i - k < 16 {
                k -= 1;
            }
            if k > start && t[k].is('=') && t[k - 1].kind == Kind::Ident {
                form_vars.push(t[k - 1].text.as_str());
            }
        }
    }
    for i in start..end {
        let tok = &t[i];
        if !form_vars.is_empty()
            && tok.kind == Kind::Ident
            && form_vars.contains(&tok.text.as_str())
            && (i == 0 || !t[i - 1].is('.'))
        {
            let (kind, k) = if t.get(i + 1).is_some_and(|x| x.is('.'))
                && t.get(i + 2).is_some_and(|x| x.is_ident("Files"))
            {
                (ParamKind::File, i + 3)
            } else {
                (ParamKind::Form, i + 1)
            };
            let name = if t.get(k).is_some_and(|x| x.is('[')) {
                t.get(k + 1)
                    .filter(|x| x.kind == Kind::Str && t.get(k + 2).is_some_and(|c| c.is(']')))
            } else if t.get(k).is_some_and(|x| x.is('.'))
                && t.get(k + 1).is_some_and(|x| {
                    matches!(x.text.as_str(), "TryGetValue" | "GetFile" | "ContainsKey")
                })
                && t.get(k + 2).is_some_and(|x| x.is('('))
            {
                t.get(k + 3).filter(|x| x.kind == Kind::Str)
            } else {
                None
            };
            if let Some(n) = name {
                let kind = if t.get(k + 1).is_some_and(|x| x.is_ident("GetFile")) {
                    ParamKind::File
                } else {
                    kind
                };
                push(Read {
                    kind,
                    name: n.text.clone(),
                    ty: None,
                });
            }
            continue;
        }
        if tok.kind != Kind::Ident || i == 0 || !t[i - 1].is('.') {
            continue;
        }
        if matches!(
            tok.text.as_str(),
            "ReadFromJsonAsync" | "ReadAsAsync" | "DeserializeAsync"
        ) && t.get(i + 1).is_some_and(|x| x.is('<'))
        {
            if let Some(c) = close_of(t, i + 1) {
                let ty: String = t[i + 2..c].iter().map(|x| x.text.as_str()).collect();
                push(Read {
                    kind: ParamKind::Json,
                    name: String::new(),
                    ty: Some(ty),
                });
            }
            continue;
        }
        let kind = match tok.text.as_str() {
            "Query" | "QueryString" => ParamKind::Query,
            "Headers" => ParamKind::Header,
            "Cookies" => ParamKind::Cookie,
            "Form" => ParamKind::Form,
            "Files" => ParamKind::File,
            _ => continue,
        };
        // Not a response header / cookie being written.
        let owner = i.checked_sub(2).map(|k| t[k].text.as_str()).unwrap_or("");
        if matches!(
            owner,
            "Response" | "response" | "res" | "DefaultRequestHeaders"
        ) || owner.ends_with("Response")
        {
            continue;
        }
        let mut k = i + 1;
        let mut kind = kind;
        if kind == ParamKind::Form
            && t.get(k).is_some_and(|x| x.is('.'))
            && t.get(k + 1).is_some_and(|x| x.is_ident("Files"))
        {
            kind = ParamKind::File;
            k += 2;
        }
        let name = if t.get(k).is_some_and(|x| x.is('[')) {
            t.get(k + 1)
                .filter(|x| x.kind == Kind::Str && t.get(k + 2).is_some_and(|c| c.is(']')))
        } else if t.get(k).is_some_and(|x| x.is('.'))
            && t.get(k + 1).is_some_and(|x| {
                matches!(
                    x.text.as_str(),
                    "TryGetValue" | "GetFile" | "ContainsKey" | "Get" | "GetValue"
                )
            })
            && t.get(k + 2).is_some_and(|x| x.is('('))
        {
            if t[k + 1].text == "GetFile" {
                kind = ParamKind::File;
            }
            t.get(k + 3).filter(|x| x.kind == Kind::Str)
        } else {
            None
        };
        if let Some(name) = name {
            push(Read {
                kind,
                name: name.text.clone(),
                ty: None,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_of_controller_record_and_custom_attribute() {
        let src = r#"
using Microsoft.AspNetCore.Mvc;
namespace Shop.Api.Controllers;

[ApiController]
[Route("api/[controller]")]
public sealed partial class OrdersController : ApiControllerBase, IDisposable
{
    private const string Sub = "items";
    public static readonly string Other = Sub + "/x";
    public OrdersController(IOrderService svc) : base(svc) { }
    public string Name { get; set; } = "";

    [HttpGet("{id:int}", Name = "GetOrder")]
    public async Task<ActionResult<OrderDto>> Get([FromRoute] int id, [FromHeader(Name = "X-Tenant")] string tenant, CancellationToken ct)
    {
        var q = Request.Query["expand"];
        Response.Headers["X-Out"] = "1";
        return Ok();
    }

    [NonAction]
    public void Dispose() => svc.Dispose();

    public record CreateOrder(string Sku, [property: JsonPropertyName("qty")] int Quantity);
}

public class ApiRouteAttribute : RouteAttribute
{
    public ApiRouteAttribute(string template) : base("api/v2/" + template) { }
}
"#;
        let (f, _) = parse(&SourceFile::new("Orders.cs", src));
        let names: Vec<_> = f.types.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["OrdersController", "CreateOrder", "ApiRouteAttribute"]
        );
        let c = &f.types[0];
        assert_eq!(c.namespace, "Shop.Api.Controllers");
        assert_eq!(c.bases, ["ApiControllerBase", "IDisposable"]);
        assert_eq!(c.attrs[1].name, "Route");
        assert_eq!(c.consts.len(), 2);
        assert_eq!(c.props.len(), 1);
        let m = &c.methods[0];
        assert_eq!(m.name, "Get");
        assert_eq!(m.line, 15);
        assert_eq!(
            m.attrs[0]
                .named("Name")
                .and_then(|a| a.expr.clone())
                .and_then(|e| e.literal())
                .as_deref(),
            Some("GetOrder")
        );
        assert_eq!(m.params.len(), 3);
        assert_eq!(m.params[1].attrs[0].name, "FromHeader");
        assert_eq!(m.params[2].ty, "CancellationToken");
        assert_eq!(
            m.reads,
            [Read {
                kind: ParamKind::Query,
                name: "expand".into(),
                ty: None
            }]
        );
        assert_eq!(c.methods[1].name, "Dispose");
        let r = &f.types[1];
        assert_eq!(r.kind, TypeKind::Record);
        assert_eq!(r.props[1].name, "Quantity");
        assert_eq!(r.props[1].attrs[0].name, "JsonPropertyName");
        let a = &f.types[2];
        assert_eq!(a.bases, ["RouteAttribute"]);
        assert_eq!(a.ctors[0].params, ["template"]);
        assert_eq!(a.ctors[0].base_args.len(), 1);
    }
}
