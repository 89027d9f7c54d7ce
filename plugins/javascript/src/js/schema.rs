//! Validator schemas (zod, valibot, TypeBox, yup, Joi, arktype): the
//! top-level keys of an object schema, through the ways real code builds
//! them. `z.object({…})` (also `strictObject`, `looseObject`,
//! `Type.Object`, `v.object`, `yup.object().shape({…})`,
//! `Joi.object().keys({…})`, arktype `type({…})`), spreads of other shapes
//! (`{ ...pagination }`), `.extend(x)` / `.merge(x)` / `.and(x)` /
//! `z.intersection(a, b)` / `Type.Intersect([…])` / `Type.Composite([…])`,
//! unions (`z.union([…])`, `z.discriminatedUnion(k, […])`: every option's
//! keys), `.pick({ a: true })` / `.omit(…)` (also `Type.Pick(x, ['a'])`),
//! wrappers (`Type.Partial(x)`, `z.preprocess(f, x)`, `v.pipe(x, …)`) and
//! modifiers (`.strict()`, `.partial()`, `.refine(…)`, `.openapi(…)`, …).
//! `x.shape` stands for `x`. A schema named by a variable is a
//! [`Schema::Ref`], resolved in `link` across modules (imports, re-exports,
//! path aliases, workspace packages) with [`Resolver`].

use portolan_plugin_sdk::Code;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use super::module::{statement_end, ImportKind, Value};
use super::outline::{object_entries, Outline};
use super::project::{Project, Target};
use super::syntax::{dotted_at, ident_at, trim_expr};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Schema {
    /// Keys of an object literal.
    Keys(Vec<String>),
    /// A (scoped, possibly dotted) name.
    Ref(String),
    /// The union of the keys of several schemas.
    All(Vec<Schema>),
    Pick(Box<Schema>, Vec<String>),
    Omit(Box<Schema>, Vec<String>),
}

impl Schema {
    /// No names to resolve: the keys are known now.
    pub fn is_local(&self) -> bool {
        match self {
            Schema::Keys(_) => true,
            Schema::Ref(_) => false,
            Schema::All(v) => v.iter().all(Schema::is_local),
            Schema::Pick(s, _) | Schema::Omit(s, _) => s.is_local(),
        }
    }
}

const MAX_DEPTH: usize = 12;

/// Methods that keep a schema's keys.
const MODIFIERS: &[&str] = &[
    "strict",
    "strip",
    "passthrough",
    "nonstrict",
    "loose",
    "partial",
    "deepPartial",
    "required",
    "optional",
    "nullable",
    "nullish",
    "refine",
    "superRefine",
    "transform",
    "describe",
    "openapi",
    "default",
    "prefault",
    "catch",
    "brand",
    "readonly",
    "meta",
    "check",
    "noUnknown",
    "unknown",
    "label",
    "options",
    "pipe",
    "catchall",
    "strictObject",
    "defined",
    "camelCase",
];

/// Parse the expression at `r` as a schema; `None` when it is not one.
pub fn parse(code: &Code<'_>, outline: &Outline, r: Range<usize>) -> Option<Schema> {
    parse_depth(code, outline, r, 0)
}

fn parse_depth(
    code: &Code<'_>,
    outline: &Outline,
    r: Range<usize>,
    depth: usize,
) -> Option<Schema> {
    if depth > MAX_DEPTH {
        return None;
    }
    let r = trim_expr(code, r);
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    if s >= r.end {
        return None;
    }
    let (mut schema, mut i) = match bytes[s] {
        b'{' => {
            let close = code.matching(s)?;
            (object_literal(code, outline, s, depth)?, close + 1)
        }
        b'(' => {
            let close = code.matching(s)?;
            (
                parse_depth(code, outline, s + 1..close, depth + 1)?,
                close + 1,
            )
        }
        _ => {
            let (name, nr) = dotted_ws(code, s)?;
            let p = code.skip_ws(nr.end);
            if p < r.end && bytes.get(p) == Some(&b'(') {
                let close = code.matching(p)?;
                match constructor(code, outline, &name, p, depth) {
                    Some(c) => (c, close + 1),
                    // `Base.omit(…)`: a name, then its methods.
                    None => {
                        let dot = code.slice(nr.clone()).rfind('.')?;
                        let head = &name[..name.rfind('.')?];
                        let head = head.strip_suffix(".shape").unwrap_or(head);
                        if matches!(head, "Object" | "JSON" | "Array" | "Promise" | "Math") {
                            return None;
                        }
                        (Schema::Ref(outline.scoped(head, s)), nr.start + dot)
                    }
                }
            } else {
                if matches!(name.as_str(), "true" | "false" | "null" | "undefined") {
                    return None;
                }
                let n = name.strip_suffix(".shape").unwrap_or(&name);
                (Schema::Ref(outline.scoped(n, s)), nr.end)
            }
        }
    };
    // Postfix methods.
    loop {
        let p = code.skip_ws(i);
        if p >= r.end {
            break;
        }
        if bytes[p] != b'.' {
            return None;
        }
        let m = ident_at(code, code.skip_ws(p + 1))?;
        let name = code.slice(m.clone());
        let q = code.skip_ws(m.end);
        if q < r.end && bytes.get(q) == Some(&b'(') {
            let close = code.matching(q)?;
            let args = code.args(q);
            match name {
                "extend" | "merge" | "and" | "keys" | "append" | "shape" | "concat" | "or" => {
                    if let Some(o) = args
                        .first()
                        .and_then(|a| parse_depth(code, outline, a.clone(), depth + 1))
                    {
                        schema = Schema::All(vec![schema, o]);
                    }
                }
                "pick" => schema = Schema::Pick(Box::new(schema), key_list(code, &args)),
                "omit" => schema = Schema::Omit(Box::new(schema), key_list(code, &args)),
                n if MODIFIERS.contains(&n) => {}
                _ => return None,
            }
            i = close + 1;
        } else {
            if name != "shape" {
                return None;
            }
            i = m.end;
        }
    }
    Some(schema)
}

/// A dotted name at `s` whose dots may be surrounded by whitespace
/// (`z\n  .object(`): the name and its range.
fn dotted_ws(code: &Code<'_>, s: usize) -> Option<(String, Range<usize>)> {
    let bytes = code.text().as_bytes();
    let (mut name, mut r) = dotted_at(code, s)?;
    loop {
        let d = code.skip_ws(r.end);
        if d == r.end || bytes.get(d) != Some(&b'.') || bytes.get(d + 1) == Some(&b'.') {
            return Some((name, r));
        }
        let Some((more, mr)) = dotted_at(code, d + 1) else {
            return Some((name, r));
        };
        name.push('.');
        name.push_str(&more);
        r = r.start..mr.end;
    }
}

/// `{ a: …, b, ...other }`: its keys and the spread schemas.
fn object_literal(code: &Code<'_>, outline: &Outline, open: usize, depth: usize) -> Option<Schema> {
    let close = code.matching(open)?;
    let keys: Vec<String> = object_entries(code, open)
        .into_iter()
        .map(|e| e.key)
        .collect();
    let mut parts = vec![Schema::Keys(keys)];
    for r in code.split_top_level(open + 1, close, b',') {
        if code.slice(r.clone()).starts_with("...") {
            if let Some(s) = parse_depth(code, outline, r.start + 3..r.end, depth + 1) {
                parts.push(s);
            }
        }
    }
    Some(if parts.len() == 1 {
        parts.remove(0)
    } else {
        Schema::All(parts)
    })
}

/// Keys named by `.pick`/`.omit` arguments: `{ a: true }`, `['a', 'b']`,
/// `'a', 'b'`.
fn key_list(code: &Code<'_>, args: &[Range<usize>]) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for a in args {
        let s = code.skip_ws(a.start);
        match bytes.get(s) {
            Some(b'{') => out.extend(object_entries(code, s).into_iter().map(|e| e.key)),
            Some(b'[') => {
                for e in code.args(s) {
                    if let Some(l) = code.string_at(e.start) {
                        out.push(l.value);
                    }
                }
            }
            _ => {
                if let Some(l) = code.string_at(s).filter(|l| l.start == s) {
                    out.push(l.value);
                }
            }
        }
    }
    out
}

/// A call `name(…)` with `(` at `open` that builds a schema.
fn constructor(
    code: &Code<'_>,
    outline: &Outline,
    name: &str,
    open: usize,
    depth: usize,
) -> Option<Schema> {
    let bytes = code.text().as_bytes();
    let f = name.rsplit('.').next().unwrap_or(name);
    let head = name.split('.').next().unwrap_or(name);
    if head == "Object" || head == "JSON" || head == "Array" {
        return None;
    }
    let args = code.args(open);
    let each = |rs: &[Range<usize>]| -> Vec<Schema> {
        let mut v = Vec::new();
        for a in rs {
            let s = code.skip_ws(a.start);
            if bytes.get(s) == Some(&b'[') {
                for e in code.args(s) {
                    v.extend(parse_depth(code, outline, e, depth + 1));
                }
            } else if code.string_at(s).filter(|l| l.start == s).is_none() {
                v.extend(parse_depth(code, outline, a.clone(), depth + 1));
            }
        }
        v
    };
    match f {
        "object" | "strictObject" | "looseObject" | "Object" | "type" | "interface" => {
            let Some(a) = args.first() else {
                // `yup.object()` / `Joi.object()` then `.shape({…})`.
                return (f == "object").then(|| Schema::Keys(Vec::new()));
            };
            let s = code.skip_ws(a.start);
            if bytes.get(s) == Some(&b'{') {
                object_literal(code, outline, s, depth)
            } else if f == "object" || f == "Object" {
                parse_depth(code, outline, a.clone(), depth + 1)
            } else {
                None
            }
        }
        "intersection" | "Intersect" | "Composite" | "intersect" | "union" | "Union"
        | "discriminatedUnion" | "variant" | "merge" | "allOf" | "anyOf" | "oneOf"
        | "alternatives" => Some(Schema::All(each(&args))),
        "Pick" | "pick" if args.len() == 2 => Some(Schema::Pick(
            Box::new(parse_depth(code, outline, args[0].clone(), depth + 1)?),
            key_list(code, &args[1..]),
        )),
        "Omit" | "omit" if args.len() == 2 => Some(Schema::Omit(
            Box::new(parse_depth(code, outline, args[0].clone(), depth + 1)?),
            key_list(code, &args[1..]),
        )),
        "Partial" | "Required" | "Readonly" | "Strict" | "partial" | "required" | "strict"
        | "readonly" | "preprocess" | "pipe" | "optional" | "Optional" | "nullable" | "nullish"
        | "exactOptional" | "looseObjectAsync" => each(&args)
            .into_iter()
            .find(|s| !matches!(s, Schema::Keys(k) if k.is_empty())),
        // A project helper wrapping an inline schema
        // (`withScoreRules(z.object({…}))`): that schema.
        _ => args.iter().find_map(|a| {
            let s = code.skip_ws(a.start);
            if !bytes.get(s).is_some_and(|b| b.is_ascii_alphabetic()) {
                return None;
            }
            match parse_depth(code, outline, a.clone(), depth + 1)? {
                Schema::Ref(_) => None,
                Schema::Keys(k) if k.is_empty() => None,
                sc => Some(sc),
            }
        }),
    }
}

use super::pattern::re;

/// Cheap test: may this file declare schemas?
pub fn may_declare(text: &str) -> bool {
    static ANY: OnceLock<Regex> = OnceLock::new();
    re(
        &ANY,
        r"\.(?:object|strictObject|looseObject|Object|extend|merge|intersection|Intersect|Composite|discriminatedUnion|union|pick|omit)\s*\(|\btype\(\s*\{",
    )
    .is_match(text)
}

/// Schemas bound to names in this module: `const X = z.object({…})`,
/// `export const Y = X.extend({…})`, an object of validators
/// (`const shape = { page: z.number() }`), and schemas that are members of
/// an object (`const schemas = { body: z.object(…) }` → `schemas.body`).
/// Bare aliases (`const A = B`) are the module's bindings, not recorded.
pub fn declarations(code: &Code<'_>, outline: &Outline) -> Vec<(String, Schema)> {
    let text = code.text();
    let bytes = text.as_bytes();
    static DECL: OnceLock<Regex> = OnceLock::new();
    let decl = re(
        &DECL,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*[^=;]+?)?\s*=\s*",
    );
    let mut out = Vec::new();
    for c in decl.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        let v = all.end();
        let end = statement_end(code, v);
        let scoped = outline.scoped(name.as_str(), name.start());
        if bytes.get(v) == Some(&b'{') {
            // Only objects of validators (`{ page: z.number() }`).
            let entries = object_entries(code, v);
            let validators = entries.iter().any(|e| {
                let t = code.slice(e.value.clone());
                let id = t
                    .bytes()
                    .take_while(|b| super::syntax::is_js_ident(*b))
                    .count();
                id > 0 && t[id..].trim_start().starts_with('.') && t.contains('(')
            });
            if !validators {
                continue;
            }
            for e in &entries {
                if let Some(s @ (Schema::All(_) | Schema::Pick(..) | Schema::Omit(..))) =
                    parse(code, outline, e.value.clone())
                {
                    out.push((format!("{scoped}.{}", e.key), s));
                }
                if let Some(s @ Schema::Keys(_)) = parse(code, outline, e.value.clone()) {
                    if code.slice(e.value.clone()).contains(".object(")
                        || code.slice(e.value.clone()).contains(".Object(")
                    {
                        out.push((format!("{scoped}.{}", e.key), s));
                    }
                }
            }
        } else if !code.slice(v..end).bytes().any(|b| b == b'(') {
            continue;
        }
        // A name with modifiers (`Base.partial().refine(…)`) is recorded;
        // a bare alias is a binding of the module.
        if let Some(s) = parse(code, outline, v..end) {
            out.push((scoped, s));
        }
    }
    out
}

/// Resolves schemas across modules: `tables[m]` are module `m`'s
/// declarations, names go through the [`Project`].
pub struct Resolver<'a> {
    pub project: &'a Project<'a>,
    tables: Vec<HashMap<&'a str, &'a Schema>>,
}

impl<'a> Resolver<'a> {
    pub fn new(project: &'a Project<'a>, tables: Vec<&'a [(String, Schema)]>) -> Self {
        let tables = tables
            .into_iter()
            .map(|t| t.iter().map(|(n, s)| (n.as_str(), s)).collect())
            .collect();
        Resolver { project, tables }
    }

    /// The keys of `schema` written in module `m`, in order, deduplicated.
    pub fn keys(&self, m: usize, schema: &Schema) -> Vec<String> {
        let mut out = Vec::new();
        self.collect(m, schema, 0, &mut out);
        let mut seen = std::collections::HashSet::new();
        out.retain(|k| seen.insert(k.clone()));
        out
    }

    fn collect(&self, m: usize, schema: &Schema, depth: usize, out: &mut Vec<String>) {
        if depth > 24 {
            return;
        }
        match schema {
            Schema::Keys(k) => out.extend(k.iter().cloned()),
            Schema::All(v) => {
                for s in v {
                    self.collect(m, s, depth + 1, out);
                }
            }
            Schema::Pick(s, keep) => {
                let mut inner = Vec::new();
                self.collect(m, s, depth + 1, &mut inner);
                if inner.is_empty() {
                    // A schema generated or from outside the tree: the
                    // picked keys are its keys.
                    out.extend(keep.iter().cloned());
                } else {
                    out.extend(inner.into_iter().filter(|k| keep.contains(k)));
                }
            }
            Schema::Omit(s, drop) => {
                let mut inner = Vec::new();
                self.collect(m, s, depth + 1, &mut inner);
                out.extend(inner.into_iter().filter(|k| !drop.contains(k)));
            }
            Schema::Ref(name) => {
                if let Some((tm, s)) = self.lookup(m, name, depth + 1) {
                    self.collect(tm, s, depth + 1, out);
                }
            }
        }
    }

    /// The schema a name of module `m` denotes: declared there, an alias
    /// (`const A = B`), or imported (named, default, namespace member)
    /// through re-exports (`export { a as b } from`, `export * from`).
    fn lookup(&self, m: usize, name: &str, depth: usize) -> Option<(usize, &'a Schema)> {
        if depth > 24 {
            return None;
        }
        if let Some(s) = self.tables.get(m).and_then(|t| t.get(name)) {
            return Some((m, s));
        }
        let info = self.project.modules.get(m)?;
        if let Some(b) = info.bindings.iter().find(|b| b.name == name) {
            if let Value::Name(n) = &b.value {
                if n != name {
                    return self.lookup(m, n, depth + 1);
                }
            }
        }
        let (head, rest) = match name.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (name, None),
        };
        if let Some(i) = info.imports.iter().find(|i| i.local == head) {
            let t = self.project.resolve_spec(m, &i.spec)?;
            let wanted = match (&i.kind, rest) {
                (ImportKind::Named(n), None) => n.clone(),
                (ImportKind::Named(n), Some(r)) => format!("{n}.{r}"),
                (ImportKind::Namespace, Some(r)) => r.to_string(),
                (ImportKind::Default | ImportKind::Whole, None) => "default".to_string(),
                _ => return None,
            };
            return self.export(t, &wanted, depth + 1);
        }
        match self.project.resolve_name(m, name, 0)? {
            Target::Node(tm, tn) if tm != m || tn != name => {
                let tn = tn.strip_suffix(".shape").unwrap_or(&tn);
                self.tables.get(tm)?.get(tn).map(|s| (tm, *s))
            }
            _ => None,
        }
    }

    /// The schema module `t` exports as `name` (possibly `a.b`).
    fn export(&self, t: usize, name: &str, depth: usize) -> Option<(usize, &'a Schema)> {
        if depth > 24 {
            return None;
        }
        let info = self.project.modules.get(t)?;
        let (head, rest) = match name.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (name, None),
        };
        for e in info.exports.iter().filter(|e| e.name == head) {
            let found = match &e.value {
                Value::Name(n) => {
                    let n = match rest {
                        Some(r) => format!("{n}.{r}"),
                        None => n.clone(),
                    };
                    self.lookup(t, &n, depth + 1)
                }
                Value::Require { spec, member } => {
                    let t2 = self.project.resolve_spec(t, spec)?;
                    let m = member.clone().unwrap_or_else(|| "default".into());
                    let m = match rest {
                        Some(r) => format!("{m}.{r}"),
                        None => m,
                    };
                    self.export(t2, &m, depth + 1)
                }
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        if let Some(s) = self.tables.get(t).and_then(|x| x.get(name)) {
            return Some((t, s));
        }
        for e in info.exports.iter().filter(|e| e.name == "*") {
            if let Value::Require { spec, .. } = &e.value {
                if let Some(t2) = self.project.resolve_spec(t, spec) {
                    if let Some(found) = self.export(t2, name, depth + 1) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }
}

/// `schema` with the names declared in `table` (this module's
/// [`declarations`]) replaced by their schemas.
pub fn inline(schema: Schema, table: &[(String, Schema)], depth: usize) -> Schema {
    if depth > MAX_DEPTH {
        return schema;
    }
    match schema {
        Schema::Ref(n) => match table.iter().find(|(d, _)| *d == n) {
            Some((_, s)) => inline(s.clone(), table, depth + 1),
            None => Schema::Ref(n),
        },
        Schema::All(v) => Schema::All(v.into_iter().map(|s| inline(s, table, depth + 1)).collect()),
        Schema::Pick(s, k) => Schema::Pick(Box::new(inline(*s, table, depth + 1)), k),
        Schema::Omit(s, k) => Schema::Omit(Box::new(inline(*s, table, depth + 1)), k),
        k @ Schema::Keys(_) => k,
    }
}

/// Keys of a schema with no names to resolve.
pub fn local_keys(schema: &Schema) -> Vec<String> {
    let project = Project::new(Vec::new());
    let r = Resolver::new(&project, Vec::new());
    r.keys(0, schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::module::{scan, ModuleInfo};
    use portolan_plugin_sdk::Syntax;

    fn decls(src: &str) -> Vec<(String, Schema)> {
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let o = Outline::new(&code);
        declarations(&code, &o)
    }

    #[test]
    fn builds_and_resolves() {
        let a = "import { z } from 'zod';\nimport { paging } from '@acme/shared';\n\
            export const Base = z.object({ id: z.string(), name: z.string() }).strict();\n\
            export const Create = Base.omit({ id: true }).extend({ tags: z.array(z.string()) });\n\
            export const List = z.object({ ...paging, q: z.string().optional() });\n\
            export const Either = z.intersection(z.object({ a: z.number() }), z.discriminatedUnion('t', [z.object({ t: z.literal(1), x: z.string() }), z.object({ t: z.literal(2), y: z.string() })]));\n\
            const n = Object.keys(x);\nexport const Refined = Base.partial().superRefine(\n  (v, ctx) => { if (!v) ctx.addIssue({ code: 'custom' }); },\n);\nexport const Wrapped = withRules(z.object({ w: z.string() }), { strict: true });\n// const Gone = z.object({ no: z.string() });\n";
        let b = "import { z } from 'zod';\nexport const Spaced = z\n  .object({ s: z.string() })\n  .extend(Other.shape);\nexport const paging = { page: z.coerce.number(), limit: z.coerce.number() };\n";
        let c = "export * from './zod';\n";
        let da = decls(a);
        let db = decls(b);
        let names: Vec<_> = da.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["Base", "Create", "List", "Either", "Refined", "Wrapped"]
        );
        let info = |p: &str, s: &str| -> ModuleInfo {
            let code = Code::new(s, Syntax::JAVASCRIPT);
            let o = Outline::new(&code);
            scan(p, &code, &o)
        };
        let ia = info("app/web/types.ts", a);
        let ib = info("app/packages/shared/src/zod.ts", b);
        let ic = info("app/packages/shared/src/index.ts", c);
        let project = Project::new(vec![&ia, &ib, &ic]);
        let r = Resolver::new(&project, vec![&da, &db, &[]]);
        let k = |n: &str| r.keys(0, &Schema::Ref(n.into()));
        assert_eq!(k("Create"), ["name", "tags"]);
        assert_eq!(k("List"), ["q", "page", "limit"]);
        assert_eq!(k("Either"), ["a", "t", "x", "y"]);
        assert_eq!(r.keys(1, &Schema::Ref("Spaced".into())), ["s"]);
        assert_eq!(k("Refined"), ["id", "name"]);
        assert_eq!(k("Wrapped"), ["w"]);
    }

    #[test]
    fn multibyte_never_panics() {
        let src = "const s = z.object({ 名: z.string(), 'é': z.number() }).extend({ ü: x });";
        for i in 0..src.len() {
            if src.is_char_boundary(i) {
                let _ = decls(&src[..i]);
            }
        }
        assert_eq!(local_keys(&decls(src)[0].1), ["名", "é", "ü"]);
    }
}
