//! A declaration outline of one Java or Kotlin file: package, imports,
//! types (classes, interfaces, records, enums, objects, annotation types)
//! with their annotations, supertypes, fields and methods, and top-level
//! Kotlin constants. Bodies are skipped; what the frameworks need from
//! them is read by their own scanners.
//!
//! The parser is a tolerant recursive descent over [`super::tokens`]: it
//! never fails, and skips what it does not understand to the next member.

use portolan_plugin_sdk::SourceFile;
use serde::{Deserialize, Serialize};

use super::expr::StrExpr;
use super::tokens::{close_of, dotted, split_commas, Kind, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    Java,
    Kotlin,
}

impl Lang {
    pub fn of_path(path: &str) -> Option<Lang> {
        if path.ends_with(".java") {
            Some(Lang::Java)
        } else if path.ends_with(".kt") || path.ends_with(".kts") {
            Some(Lang::Kotlin)
        } else {
            None
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotation {
    /// Last segment of the name (`RequestMapping` for
    /// `@org.springframework…RequestMapping`).
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<AnnArg>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnnArg {
    /// `None` for the positional (`value`) argument.
    pub name: Option<String>,
    /// String expressions / names of the value (one per array element).
    pub items: Vec<StrExpr>,
    /// The value as written.
    pub raw: String,
}

impl Annotation {
    /// The argument named one of `names`; `"value"` also matches the
    /// positional argument.
    pub fn arg(&self, names: &[&str]) -> Option<&AnnArg> {
        self.args.iter().find(|a| match &a.name {
            Some(n) => names.contains(&n.as_str()),
            None => names.contains(&"value"),
        })
    }

    /// The items of the first argument found among `names`.
    pub fn items(&self, names: &[&str]) -> Vec<StrExpr> {
        self.arg(names).map(|a| a.items.clone()).unwrap_or_default()
    }

    /// The raw text of an argument.
    pub fn raw(&self, names: &[&str]) -> Option<&str> {
        self.arg(names).map(|a| a.raw.as_str())
    }
}

/// Find an annotation by (simple) name.
pub fn find<'a>(anns: &'a [Annotation], name: &str) -> Option<&'a Annotation> {
    anns.iter().find(|a| a.name == name)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
    Object,
    Annotation,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<StrExpr>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
    /// Kotlin `val`/`var` constructor parameter (a property).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub property: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
    pub params: Vec<Param>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ret: String,
    /// Kotlin extension receiver (`Route` in `fun Route.users()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver: Option<String>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeDecl {
    pub name: String,
    /// Dotted name within the file (`Outer.Inner`).
    pub qual: String,
    pub kind: TypeKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<String>,
    /// Supertypes as written, without type arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supers: Vec<String>,
    /// Type arguments of each supertype (parallel to `supers`; empty when
    /// none): `extends Base<User>` → `["User"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub super_args: Vec<Vec<String>>,
    /// Type parameter names: `class Base<T extends Model>` → `["T"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub type_params: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<Method>,
    pub line: u32,
}

impl TypeDecl {
    pub fn is_abstract(&self) -> bool {
        self.kind == TypeKind::Interface || self.modifiers.iter().any(|m| m == "abstract")
    }
    pub fn annotation(&self, name: &str) -> Option<&Annotation> {
        find(&self.annotations, name)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    pub name: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wildcard: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JFile {
    pub path: String,
    pub lang: Lang,
    #[serde(default)]
    pub package: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<Import>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<TypeDecl>,
    /// Kotlin top-level properties (`const val BASE = "/api"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<Field>,
    /// Kotlin top-level functions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funs: Vec<Method>,
}

const MODIFIERS: &[&str] = &[
    "public",
    "protected",
    "private",
    "static",
    "final",
    "abstract",
    "default",
    "synchronized",
    "native",
    "transient",
    "volatile",
    "strictfp",
    "sealed",
    "open",
    "override",
    "suspend",
    "inline",
    "data",
    "internal",
    "lateinit",
    "const",
    "operator",
    "infix",
    "tailrec",
    "external",
    "inner",
    "companion",
    "value",
    "expect",
    "actual",
    "noinline",
    "crossinline",
    "vararg",
];

const USE_SITE_TARGETS: &[&str] = &[
    "field", "get", "set", "param", "property", "setparam", "delegate", "file", "receiver",
];

/// Parse a Java or Kotlin file.
pub fn parse(file: &SourceFile, lang: Lang) -> JFile {
    let toks = super::tokens::of_file(file);
    let mut p = Parser {
        t: &toks.0,
        src: &file.content,
        kotlin: lang == Lang::Kotlin,
        file,
        depth: 0,
        out: JFile {
            path: file.path.clone(),
            lang,
            package: String::new(),
            imports: Vec::new(),
            types: Vec::new(),
            consts: Vec::new(),
            funs: Vec::new(),
        },
    };
    p.members(0, toks.0.len(), None, "");
    p.out
}

pub(crate) struct Parser<'a> {
    pub t: &'a [Token],
    pub src: &'a str,
    pub kotlin: bool,
    pub file: &'a SourceFile,
    pub out: JFile,
    /// Types nested in types being read (bounded by [`MAX_NESTED_TYPES`]).
    pub depth: usize,
}

/// Deepest nesting of type declarations read; the members of deeper ones
/// are skipped, so a file of `class A {` lines cannot overflow the stack
/// (nor build ever longer qualified names).
const MAX_NESTED_TYPES: usize = 32;

impl<'a> Parser<'a> {
    fn line(&self, i: usize) -> u32 {
        self.t.get(i).map_or(0, |t| self.file.line_of(t.start))
    }

    fn is(&self, i: usize, c: char) -> bool {
        self.t.get(i).is_some_and(|t| t.is(c))
    }

    fn ident(&self, i: usize) -> Option<&'a str> {
        self.t
            .get(i)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.as_str())
    }

    /// Index after the group opened at `i`.
    fn after_group(&self, i: usize) -> usize {
        close_of(self.t, i).map_or(self.t.len(), |c| c + 1)
    }

    /// Annotations and modifiers starting at `i`.
    pub fn prefix(&self, mut i: usize, end: usize) -> (Vec<Annotation>, Vec<String>, usize) {
        let mut anns = Vec::new();
        let mut mods = Vec::new();
        while i < end {
            let t = &self.t[i];
            if t.is('@') {
                if self.ident(i + 1) == Some("interface") {
                    break;
                }
                match self.annotation(i) {
                    Some((a, next)) => {
                        anns.push(a);
                        i = next;
                    }
                    None => i += 1,
                }
                continue;
            }
            let Some(word) = self.ident(i) else { break };
            let next = self.ident(i + 1);
            let modifier = MODIFIERS.contains(&word)
                || (self.kotlin
                    && matches!(word, "enum" | "annotation" | "fun")
                    && matches!(next, Some("class" | "interface")));
            if word == "non" && self.is(i + 1, '-') && self.ident(i + 2) == Some("sealed") {
                i += 3;
                continue;
            }
            if !modifier {
                break;
            }
            // A modifier is followed by a keyword, a type or a name (or an
            // annotation / type parameters); `value: String` is a name.
            let follows = self
                .t
                .get(i + 1)
                .is_some_and(|t| t.kind == Kind::Ident || t.is('@') || t.is('<'));
            if !follows {
                break;
            }
            mods.push(word.to_string());
            i += 1;
        }
        (anns, mods, i)
    }

    /// The annotation whose `@` is at `i`.
    fn annotation(&self, i: usize) -> Option<(Annotation, usize)> {
        let (mut name, mut k) = dotted(self.t, i + 1)?;
        if self.kotlin
            && USE_SITE_TARGETS.contains(&name.as_str())
            && self.is(k, ':')
            && self.ident(k + 1).is_some()
        {
            (name, k) = dotted(self.t, k + 1)?;
        }
        let line = self.line(i);
        let simple = name.rsplit('.').next().unwrap_or(&name).to_string();
        let mut args = Vec::new();
        if self.is(k, '(') && self.t[k].start == self.t[k - 1].end {
            let close = close_of(self.t, k)?;
            for r in split_commas(self.t, k + 1, close) {
                args.push(self.ann_arg(r));
            }
            k = close + 1;
        }
        Some((
            Annotation {
                name: simple,
                args,
                line,
            },
            k,
        ))
    }

    fn ann_arg(&self, r: std::ops::Range<usize>) -> AnnArg {
        let named = r.len() >= 2
            && self.ident(r.start).is_some()
            && self.is(r.start + 1, '=')
            && !self.is(r.start + 2, '=');
        let (name, value) = if named {
            (self.ident(r.start).map(str::to_string), r.start + 2..r.end)
        } else {
            (None, r.clone())
        };
        AnnArg {
            name,
            items: self.items(value.clone()),
            raw: self.raw(value),
        }
    }

    /// Source text of a token range.
    pub fn raw(&self, r: std::ops::Range<usize>) -> String {
        if r.start >= r.end || r.end > self.t.len() {
            return String::new();
        }
        self.src
            .get(self.t[r.start].start..self.t[r.end - 1].end)
            .unwrap_or("")
            .to_string()
    }

    /// String expressions of a value: one, or the elements of `{…}`,
    /// `[…]`, `arrayOf(…)`.
    pub fn items(&self, r: std::ops::Range<usize>) -> Vec<StrExpr> {
        if r.is_empty() {
            return Vec::new();
        }
        let mut open = None;
        if self.is(r.start, '{') || self.is(r.start, '[') {
            open = Some(r.start);
        } else if matches!(self.ident(r.start), Some("arrayOf" | "listOf"))
            && self.is(r.start + 1, '(')
        {
            open = Some(r.start + 1);
        }
        if let Some(o) = open {
            if close_of(self.t, o) == Some(r.end - 1) {
                return split_commas(self.t, o + 1, r.end - 1)
                    .into_iter()
                    .filter_map(|e| self.expr(e))
                    .collect();
            }
        }
        self.expr(r).into_iter().collect()
    }

    pub fn expr(&self, r: std::ops::Range<usize>) -> Option<StrExpr> {
        StrExpr::parse(
            self.t.get(r)?,
            self.src,
            portolan_plugin_sdk::strexpr::Grammar::jvm(self.kotlin),
        )
    }

    /// The end of a type starting at `i` (index after it).
    pub fn skip_type(&self, i: usize) -> Option<usize> {
        let mut k = i;
        while self.is(k, '@') {
            k = self.annotation(k)?.1;
        }
        if self.kotlin && self.ident(k) == Some("suspend") {
            k += 1;
        }
        if self.is(k, '(') {
            // Kotlin function type.
            k = self.after_group(k);
            if self.is(k, '-') && self.is(k + 1, '>') {
                return self.skip_type(k + 2);
            }
            return Some(k);
        }
        let (_, mut k) = dotted(self.t, k)?;
        loop {
            if self.is(k, '<') {
                k = close_of(self.t, k)? + 1;
                if self.is(k, '.') && self.ident(k + 1).is_some() {
                    k = dotted(self.t, k + 1)?.1;
                    continue;
                }
            }
            break;
        }
        while self.is(k, '?') {
            k += 1;
        }
        while self.is(k, '[') && self.is(k + 1, ']') {
            k += 2;
        }
        if self.is(k, '.') && self.is(k + 1, '.') && self.is(k + 2, '.') {
            k += 3;
        }
        Some(k)
    }

    fn type_text(&self, r: std::ops::Range<usize>) -> String {
        self.t
            .get(r)
            .unwrap_or(&[])
            .iter()
            .filter(|t| !t.is('@'))
            .map(|t| t.text.as_str())
            .collect()
    }

    /// Skip a Kotlin expression starting at `i`: to the end of the
    /// statement (a line break not continuing the expression, `;`, or a
    /// closing bracket).
    fn skip_expr(&self, i: usize, end: usize) -> usize {
        let mut k = i;
        while k < end {
            let t = &self.t[k];
            if self.kotlin && k > i && t.nl && !continues(self.t, k) {
                break;
            }
            if t.is(';') || t.is(')') || t.is(']') || t.is('}') {
                break;
            }
            if !self.kotlin && t.is(',') {
                break;
            }
            if t.is('(') || t.is('[') || t.is('{') {
                k = self.after_group(k);
                continue;
            }
            k += 1;
        }
        k
    }

    /// Skip a member we do not understand: past the next `;` or `{…}` at
    /// this level.
    fn skip_member(&self, i: usize, end: usize) -> usize {
        let mut k = i;
        while k < end {
            let t = &self.t[k];
            if t.is(';') {
                return k + 1;
            }
            if t.is('{') {
                return self.after_group(k);
            }
            if t.is('(') || t.is('[') {
                k = self.after_group(k);
                continue;
            }
            k += 1;
        }
        end.max(i + 1)
    }

    pub fn params(&self, open: usize) -> (Vec<Param>, usize) {
        let close = close_of(self.t, open).unwrap_or(self.t.len());
        let mut out = Vec::new();
        for r in split_commas(self.t, open + 1, close) {
            let (annotations, _, mut k) = self.prefix(r.start, r.end);
            let mut property = false;
            if self.kotlin && matches!(self.ident(k), Some("val" | "var")) {
                property = true;
                k += 1;
            }
            if !self.kotlin && self.ident(k) == Some("final") {
                k += 1;
            }
            let (name, ty) = if self.kotlin {
                let Some(name) = self.ident(k) else { continue };
                let ty = if self.is(k + 1, ':') {
                    let end = self.skip_type(k + 2).unwrap_or(r.end).min(r.end);
                    self.type_text(k + 2..end)
                } else {
                    String::new()
                };
                (name.to_string(), ty)
            } else {
                let Some(end) = self.skip_type(k) else {
                    continue;
                };
                let Some(name) = self.ident(end) else {
                    continue;
                };
                (name.to_string(), self.type_text(k..end))
            };
            out.push(Param {
                name,
                ty,
                annotations,
                property,
            });
        }
        (out, close + 1)
    }

    /// Parse members in `i..end` into `owner` (a type index) or the file.
    pub fn members(&mut self, mut i: usize, end: usize, owner: Option<usize>, qual: &str) {
        while i < end {
            let start = i;
            let (anns, mods, j) = self.prefix(i, end);
            i = j;
            if i >= end {
                break;
            }
            let t = &self.t[i];
            if t.is('@') && self.ident(i + 1) == Some("interface") {
                i = self.type_decl(i + 2, TypeKind::Annotation, anns, mods, owner, qual, end);
                continue;
            }
            if let Some(word) = self.ident(i) {
                match word {
                    "package" if owner.is_none() => {
                        if let Some((name, k)) = dotted(self.t, i + 1) {
                            self.out.package = name;
                            i = k;
                        } else {
                            i += 1;
                        }
                        continue;
                    }
                    "import" if owner.is_none() => {
                        i = self.import(i + 1);
                        continue;
                    }
                    "class" | "interface" => {
                        let kind = if word == "class" {
                            TypeKind::Class
                        } else {
                            TypeKind::Interface
                        };
                        let kind = match mods
                            .iter()
                            .map(String::as_str)
                            .find(|m| matches!(*m, "enum" | "annotation"))
                        {
                            Some("enum") => TypeKind::Enum,
                            Some(_) => TypeKind::Annotation,
                            None => kind,
                        };
                        i = self.type_decl(i + 1, kind, anns, mods, owner, qual, end);
                        continue;
                    }
                    "enum" if !self.kotlin => {
                        i = self.type_decl(i + 1, TypeKind::Enum, anns, mods, owner, qual, end);
                        continue;
                    }
                    "object" if self.kotlin => {
                        i = self.type_decl(i + 1, TypeKind::Object, anns, mods, owner, qual, end);
                        continue;
                    }
                    "record"
                        if !self.kotlin
                            && self.ident(i + 1).is_some()
                            && (self.is(i + 2, '(') || self.is(i + 2, '<')) =>
                    {
                        i = self.type_decl(i + 1, TypeKind::Record, anns, mods, owner, qual, end);
                        continue;
                    }
                    "fun" if self.kotlin => {
                        i = self.kotlin_fun(i, anns, owner, end);
                        continue;
                    }
                    "val" | "var" if self.kotlin => {
                        i = self.kotlin_prop(i, anns, mods, owner, end);
                        continue;
                    }
                    "init" if self.kotlin && self.is(i + 1, '{') => {
                        i = self.after_group(i + 1);
                        continue;
                    }
                    "constructor" if self.kotlin => {
                        i = self.skip_member(i, end);
                        continue;
                    }
                    _ => {}
                }
            }
            if t.is('{') {
                i = self.after_group(i);
                continue;
            }
            if t.is(';') || t.is(',') {
                i += 1;
                continue;
            }
            if self.kotlin {
                if t.is('(') || t.is('[') {
                    i = self.after_group(i);
                } else {
                    i += 1;
                }
                continue;
            }
            i = self.java_member(i, anns, mods, owner, end);
            if i <= start {
                i = start + 1;
            }
        }
    }

    fn import(&mut self, mut k: usize) -> usize {
        let mut is_static = false;
        if self.ident(k) == Some("static") {
            is_static = true;
            k += 1;
        }
        let Some((name, mut k)) = dotted(self.t, k) else {
            return k;
        };
        let mut wildcard = false;
        if self.is(k, '.') && self.is(k + 1, '*') {
            wildcard = true;
            k += 2;
        }
        let mut alias = None;
        if self.ident(k) == Some("as") {
            alias = self.ident(k + 1).map(str::to_string);
            k += 2;
        }
        if self.is(k, ';') {
            k += 1;
        }
        self.out.imports.push(Import {
            name,
            is_static,
            wildcard,
            alias,
        });
        k
    }

    #[allow(clippy::too_many_arguments)]
    fn type_decl(
        &mut self,
        mut k: usize,
        kind: TypeKind,
        annotations: Vec<Annotation>,
        modifiers: Vec<String>,
        owner: Option<usize>,
        qual: &str,
        end: usize,
    ) -> usize {
        let line = annotations
            .first()
            .map_or_else(|| self.line(k.saturating_sub(1)), |a| a.line);
        let name = match self.ident(k) {
            Some(n) if !(kind == TypeKind::Object && n == "by") => {
                k += 1;
                n.to_string()
            }
            _ if modifiers.iter().any(|m| m == "companion") => "Companion".to_string(),
            _ => String::new(),
        };
        let header_start = k;
        let mut type_params = Vec::new();
        if self.is(k, '<') {
            let close = close_of(self.t, k);
            if let Some(c) = close {
                for r in crate::jvm::tokens::split_commas(self.t, k + 1, c) {
                    if let Some(x) = self.t[r].iter().find(|x| {
                        x.kind == Kind::Ident
                            && !matches!(x.text.as_str(), "in" | "out" | "reified")
                    }) {
                        type_params.push(x.text.clone());
                    }
                }
            }
            k = close.map_or(k + 1, |c| c + 1);
        }
        let mut fields = Vec::new();
        let mut supers = Vec::new();
        let mut super_args = Vec::new();
        let mut body = None;
        while k < end {
            let t = &self.t[k];
            if t.is('{') {
                body = Some(k);
                break;
            }
            if t.is(';') || t.is('}') {
                break;
            }
            if self.kotlin
                && k > header_start
                && t.nl
                && !(t.is(':') || t.is(',') || t.is('('))
                && !matches!(self.ident(k), Some("where" | "constructor"))
                && !self.t[k - 1].is(',')
                && !self.t[k - 1].is(':')
            {
                break;
            }
            if t.is('@') {
                k = self.annotation(k).map_or(k + 1, |a| a.1);
                continue;
            }
            if t.is('(') {
                let (params, next) = self.params(k);
                for p in params {
                    if !self.kotlin || p.property {
                        fields.push(Field {
                            name: p.name,
                            ty: p.ty,
                            annotations: p.annotations,
                            is_static: false,
                            init: None,
                            line: self.line(k),
                        });
                    }
                }
                k = next;
                continue;
            }
            let java_list =
                !self.kotlin && matches!(self.ident(k), Some("extends" | "implements" | "permits"));
            if java_list || (self.kotlin && t.is(':')) {
                let keep = self.ident(k) != Some("permits");
                k += 1;
                loop {
                    while self.is(k, '@') {
                        k = self.annotation(k).map_or(k + 1, |a| a.1);
                    }
                    let Some((s, mut n)) = dotted(self.t, k) else {
                        break;
                    };
                    let mut args = Vec::new();
                    if self.is(n, '<') {
                        let close = close_of(self.t, n);
                        if let Some(c) = close {
                            for r in crate::jvm::tokens::split_commas(self.t, n + 1, c) {
                                let text: String =
                                    self.t[r].iter().map(|x| x.text.as_str()).collect();
                                args.push(text);
                            }
                        }
                        n = close.map_or(n + 1, |c| c + 1);
                    }
                    if self.is(n, '(') {
                        n = self.after_group(n);
                    }
                    if self.ident(n) == Some("by") {
                        n = dotted(self.t, n + 1).map_or(n + 1, |d| d.1);
                    }
                    if keep {
                        supers.push(s);
                        super_args.push(args);
                    }
                    k = n;
                    if self.is(k, ',') {
                        k += 1;
                        continue;
                    }
                    break;
                }
                continue;
            }
            k += 1;
        }
        let qual_name = match (qual.is_empty(), name.is_empty()) {
            (_, true) => qual.to_string(),
            (true, false) => name.clone(),
            (false, false) => format!("{qual}.{name}"),
        };
        let idx = self.out.types.len();
        let is_object = kind == TypeKind::Object;
        self.out.types.push(TypeDecl {
            name: name.clone(),
            qual: qual_name.clone(),
            kind,
            annotations,
            modifiers,
            super_args: if super_args.iter().any(|a: &Vec<String>| !a.is_empty()) {
                super_args
            } else {
                Vec::new()
            },
            supers,
            type_params,
            fields,
            methods: Vec::new(),
            line,
        });
        let Some(open) = body else {
            return k;
        };
        let close = close_of(self.t, open).unwrap_or(self.t.len());
        if self.depth >= MAX_NESTED_TYPES {
            return close + 1;
        }
        self.depth += 1;
        self.members(open + 1, close, Some(idx), &qual_name);
        self.depth -= 1;
        if is_object {
            for f in &mut self.out.types[idx].fields {
                f.is_static = true;
            }
        }
        // A companion object's constants belong to the enclosing class.
        if name == "Companion" {
            if let Some(o) = owner {
                let fields = self.out.types[idx].fields.clone();
                self.out.types[o].fields.extend(fields);
            }
        }
        close + 1
    }

    fn kotlin_fun(
        &mut self,
        i: usize,
        annotations: Vec<Annotation>,
        owner: Option<usize>,
        end: usize,
    ) -> usize {
        let mut k = i + 1;
        if self.is(k, '<') {
            k = close_of(self.t, k).map_or(k + 1, |c| c + 1);
        }
        let Some((mut name, mut n)) = dotted(self.t, k) else {
            return k;
        };
        if self.is(n, '<') {
            // `fun Foo<T>.bar()`
            n = close_of(self.t, n).map_or(n + 1, |c| c + 1);
            if self.is(n, '.') {
                if let Some((rest, m)) = dotted(self.t, n + 1) {
                    name = format!("{name}.{rest}");
                    n = m;
                }
            }
        }
        if self.is(n, '?') && self.is(n + 1, '.') {
            if let Some((rest, m)) = dotted(self.t, n + 2) {
                name = format!("{name}.{rest}");
                n = m;
            }
        }
        let (receiver, simple) = match name.rsplit_once('.') {
            Some((r, s)) => (Some(r.to_string()), s.to_string()),
            None => (None, name.clone()),
        };
        let line = annotations.first().map_or_else(|| self.line(i), |a| a.line);
        k = n;
        let mut params = Vec::new();
        if self.is(k, '(') {
            let (p, next) = self.params(k);
            params = p;
            k = next;
        }
        let mut ret = String::new();
        if self.is(k, ':') {
            let e = self.skip_type(k + 1).unwrap_or(k + 1);
            ret = self.type_text(k + 1..e);
            k = e;
        }
        while k < end && !self.is(k, '{') && !self.is(k, '=') && !self.is(k, '}') {
            if self.t[k].nl && !matches!(self.ident(k), Some("where")) && k > n + 1 {
                break;
            }
            k += 1;
        }
        if self.is(k, '{') {
            k = self.after_group(k);
        } else if self.is(k, '=') {
            k = self.skip_expr(k + 1, end);
        }
        let m = Method {
            name: simple,
            annotations,
            params,
            ret,
            receiver,
            line,
        };
        match owner {
            Some(o) => self.out.types[o].methods.push(m),
            None => self.out.funs.push(m),
        }
        k
    }

    fn kotlin_prop(
        &mut self,
        i: usize,
        annotations: Vec<Annotation>,
        mods: Vec<String>,
        owner: Option<usize>,
        end: usize,
    ) -> usize {
        let mut k = i + 1;
        if self.is(k, '<') {
            k = close_of(self.t, k).map_or(k + 1, |c| c + 1);
        }
        if self.is(k, '(') {
            // Destructuring.
            return self.skip_expr(k, end);
        }
        let Some((name, n)) = dotted(self.t, k) else {
            return k + 1;
        };
        let name = name.rsplit('.').next().unwrap_or(&name).to_string();
        let line = self.line(i);
        k = n;
        let mut ty = String::new();
        if self.is(k, ':') {
            let e = self.skip_type(k + 1).unwrap_or(k + 1);
            ty = self.type_text(k + 1..e);
            k = e;
        }
        let mut init = None;
        if self.is(k, '=') {
            let e = self.skip_expr(k + 1, end);
            init = self.expr(k + 1..e);
            k = e;
        } else if self.ident(k) == Some("by") {
            k = self.skip_expr(k + 1, end);
        }
        let field = Field {
            name,
            ty,
            annotations,
            is_static: mods.iter().any(|m| m == "const"),
            init,
            line,
        };
        match owner {
            Some(o) => self.out.types[o].fields.push(field),
            None => self.out.consts.push(field),
        }
        k.max(i + 1)
    }

    fn java_member(
        &mut self,
        i: usize,
        annotations: Vec<Annotation>,
        mods: Vec<String>,
        owner: Option<usize>,
        end: usize,
    ) -> usize {
        let mut k = i;
        if self.is(k, '<') {
            k = match close_of(self.t, k) {
                Some(c) => c + 1,
                None => return self.skip_member(i, end),
            };
        }
        let ty_start = k;
        let Some(ty_end) = self.skip_type(k) else {
            return self.skip_member(i, end);
        };
        if self.is(ty_end, '(') {
            // A constructor (or an enum constant with arguments).
            let mut k = self.after_group(ty_end);
            while k < end && !self.is(k, '{') && !self.is(k, ';') && !self.is(k, ',') {
                k += 1;
            }
            return if self.is(k, '{') {
                self.after_group(k)
            } else {
                k + 1
            };
        }
        let Some(name) = self.ident(ty_end) else {
            return self.skip_member(i, end);
        };
        let ty = self.type_text(ty_start..ty_end);
        let Some(owner) = owner else {
            return self.skip_member(i, end);
        };
        let line = annotations
            .first()
            .map_or_else(|| self.line(ty_end), |a| a.line);
        if self.is(ty_end + 1, '(') {
            let (params, mut k) = self.params(ty_end + 1);
            while k < end && !self.is(k, '{') && !self.is(k, ';') && !self.is(k, '}') {
                if self.is(k, '(') {
                    k = self.after_group(k);
                    continue;
                }
                k += 1;
            }
            let next = if self.is(k, '{') {
                self.after_group(k)
            } else {
                k + 1
            };
            self.out.types[owner].methods.push(Method {
                name: name.to_string(),
                annotations,
                params,
                ret: ty,
                receiver: None,
                line,
            });
            return next;
        }
        // Fields: `T a = x, b;`. A `transient` field is marked like a
        // `@Transient` one (not serialised).
        let mut annotations = annotations;
        if mods.iter().any(|m| m == "transient") {
            annotations.push(Annotation {
                name: "Transient".to_string(),
                args: Vec::new(),
                line: self.line(i),
            });
        }
        let is_static =
            mods.iter().any(|m| m == "static") || self.out.types[owner].kind == TypeKind::Interface;
        let mut k = ty_end;
        while let Some(name) = self.ident(k) {
            let name = name.to_string();
            let line = self.line(k);
            k += 1;
            while self.is(k, '[') && self.is(k + 1, ']') {
                k += 2;
            }
            let mut init = None;
            if self.is(k, '=') {
                let e = self.skip_expr(k + 1, end);
                init = self.expr(k + 1..e);
                k = e;
            }
            self.out.types[owner].fields.push(Field {
                name,
                ty: ty.clone(),
                annotations: annotations.clone(),
                is_static,
                init,
                line,
            });
            if self.is(k, ',') {
                k += 1;
                continue;
            }
            break;
        }
        if self.is(k, ';') {
            k += 1;
        }
        k.max(i + 1)
    }
}

/// Does the token at `k` (after a line break) continue the expression
/// before it (Kotlin)?
fn continues(t: &[Token], k: usize) -> bool {
    let cur = &t[k];
    let prev = &t[k - 1];
    let op = |x: &Token| {
        x.kind == Kind::Punct
            && matches!(
                x.text.as_str(),
                "." | ","
                    | "="
                    | "+"
                    | "-"
                    | "*"
                    | "/"
                    | "("
                    | "&"
                    | "|"
                    | ":"
                    | "?"
                    | "!"
                    | "<"
                    | ">"
                    | "%"
                    | "["
            )
    };
    op(prev)
        || (cur.kind == Kind::Punct
            && matches!(
                cur.text.as_str(),
                "." | "?" | ":" | "+" | "-" | "*" | "/" | "&" | "|" | "=" | ">" | "<"
            ))
        || cur.is_ident("else")
}

#[cfg(test)]
mod tests;
