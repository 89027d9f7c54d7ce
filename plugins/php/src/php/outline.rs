//! Classes and methods of a PHP file: namespace, parent class, method
//! parameters (types and attributes), what each method body reads, the
//! keys a `rules()` method returns (Laravel form requests), attributes
//! (`#[Route(...)]`) and docblock annotations (`@Route(...)`) of classes
//! and methods, and declared/promoted properties (DTO fields).

use serde::{Deserialize, Serialize};

use super::expr::{value, Ctx, Val};
use super::request::{array_keys, forms_used, reads, Reads};
use super::tokens::{matching, split, tokenize, Kind, Token};

/// An attribute `#[Name(args)]` or a docblock annotation `@Name(args)`.
/// Named arguments are single-entry arrays `[name => value]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attr {
    /// Short name (`Route` for `Symfony\…\Route` or `Rest\Get` → `Get`).
    pub name: String,
    pub args: Vec<Val>,
    pub line: u32,
    /// Namespace qualifier as written (`OA` for `OA\Post`, `Rest` for
    /// `Rest\Get`, empty for `Route`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ns: String,
}

impl Attr {
    /// Named argument `name: v` / `name="v"`.
    pub fn named(&self, name: &str) -> Option<&Val> {
        self.args.iter().find_map(|a| match a {
            Val::Array(items) if items.len() == 1 => match &items[0] {
                (Some(Val::Str(k)), v) if k == name => Some(v),
                _ => None,
            },
            _ => None,
        })
    }
    /// Positional argument number `n` (named ones skipped).
    pub fn positional(&self, n: usize) -> Option<&Val> {
        self.args.iter().filter(|a| !is_named(a)).nth(n)
    }
}

/// Named arguments are built by `value()` and the annotation parser as a
/// one-entry array keyed by the name; a literal `['k' => v]` argument
/// looks the same, which is harmless for route attributes.
fn is_named(v: &Val) -> bool {
    matches!(v, Val::Array(items) if items.len() == 1 && matches!(items[0].0, Some(Val::Str(_))))
}

/// A method parameter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arg {
    /// Type short name (`string`, `CreateUserDto`).
    pub ty: String,
    pub var: String,
    pub attrs: Vec<Attr>,
    /// Constructor property promotion (`public string $name`).
    pub promoted: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    pub name: String,
    pub line: u32,
    /// `(type short name, variable)` of each parameter.
    pub params: Vec<(String, String)>,
    /// The parameters with their attributes.
    pub args: Vec<Arg>,
    pub reads: Reads,
    /// For `rules()`: the keys of the returned array.
    pub rule_keys: Vec<String>,
    /// Offset of the `function` keyword.
    pub start: usize,
    /// Attributes and docblock annotations of the method.
    pub attrs: Vec<Attr>,
    /// Declared `private` or `protected` (not callable as an action).
    #[serde(default)]
    pub hidden: bool,
    /// swagger-php `@OA\\Parameter(...)`s of the docblock (nested in the
    /// `@OA\\Get(...)` of the method included).
    #[serde(default)]
    pub oa: Vec<OaParam>,
    /// The swagger-php operation of the docblock (path template, body).
    #[serde(default)]
    pub oa_op: Option<super::oa::Op>,
    /// The body dispatches request keys to methods of `$this` by name
    /// (`if (method_exists($this, $name)) { $this->$name($value); }`).
    #[serde(default)]
    pub dispatches: bool,
    /// Declared `static`.
    #[serde(default)]
    pub is_static: bool,
}

/// A swagger-php `@OA\\Parameter`: `name` + `in`, or a `ref` to a shared
/// `@OA\\Parameter(parameter="key", …)` definition; `key` is that
/// definition's own key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OaParam {
    pub name: String,
    pub loc: String,
    pub reference: String,
    pub key: String,
}

/// The `@OA\\Parameter(...)` / `@SWG\\Parameter(...)` annotations in a
/// docblock (at any nesting depth) with their top-level `name`, `in`, `ref`
/// and `parameter` strings. Linear in the text.
pub fn oa_parameters(doc: &str) -> Vec<OaParam> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find("Parameter(") {
        let before = &rest[..at];
        let after = &rest[at + "Parameter(".len()..];
        if !(before.ends_with("@OA\\") || before.ends_with("@SWG\\")) {
            rest = after;
            continue;
        }
        let mut p = OaParam::default();
        let mut depth = 0i32;
        let mut in_str = false;
        let mut key_start: Option<usize> = None;
        let mut pending_key: Option<&str> = None;
        let mut str_start = 0;
        let mut end = after.len();
        for (k, c) in after.char_indices() {
            if in_str {
                if c == '"' {
                    in_str = false;
                    if let Some(key) = pending_key.take() {
                        let v = after[str_start..k].to_string();
                        match key {
                            "name" => p.name = v,
                            "in" => p.loc = v,
                            "ref" => p.reference = v,
                            "parameter" => p.key = v,
                            _ => {}
                        }
                    }
                }
                continue;
            }
            match c {
                '"' => {
                    in_str = true;
                    str_start = k + 1;
                }
                '(' | '{' | '[' => {
                    depth += 1;
                    pending_key = None;
                }
                ')' | '}' | ']' => {
                    if depth == 0 {
                        end = k;
                        break;
                    }
                    depth -= 1;
                }
                '=' if depth == 0 => {
                    pending_key = key_start.map(|s| after[s..k].trim());
                    key_start = None;
                }
                ',' => key_start = None,
                c if depth == 0 && (c.is_ascii_alphanumeric() || c == '_') => {
                    if key_start.is_none() {
                        key_start = Some(k);
                    }
                }
                c if c.is_whitespace() || c == '*' => {}
                _ => key_start = None,
            }
        }
        out.push(p);
        rest = &after[end.min(after.len())..];
    }
    out
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    pub namespace: String,
    /// Short name.
    pub name: String,
    /// Parent short name.
    pub parent: String,
    pub line: u32,
    pub start: usize,
    pub methods: Vec<Method>,
    /// Attributes and docblock annotations of the class.
    pub attrs: Vec<Attr>,
    /// Declared and constructor-promoted property names.
    pub props: Vec<String>,
    /// Eloquent mass-assignable attributes (`protected $fillable = [...]`).
    #[serde(default)]
    pub fillable: Vec<String>,
    /// A Symfony form type (a `buildForm` or `getParent` method, or
    /// methods taking a `FormBuilderInterface`): the literal names of its
    /// `->add('name', …)` calls (in any method).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub form_fields: Vec<String>,
    /// Its `getParent()` type (`return TaskType::class;`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub form_parent: String,
    /// Its `getBlockPrefix()` literal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_prefix: Option<String>,
}

impl Class {
    pub fn fqcn(&self) -> String {
        if self.namespace.is_empty() {
            self.name.clone()
        } else {
            format!("{}\\{}", self.namespace, self.name)
        }
    }
}

/// The namespace qualifier of `name` (`OA` for `OA\Post`, empty for `Route`).
pub fn qualifier(name: &str) -> &str {
    name.trim_start_matches('\\')
        .rsplit_once('\\')
        .map_or("", |(q, _)| q)
}

pub fn short(name: &str) -> &str {
    name.trim_start_matches('\\')
        .rsplit('\\')
        .next()
        .unwrap_or(name)
}

const MODIFIERS: &[&str] = &[
    "public",
    "protected",
    "private",
    "static",
    "final",
    "abstract",
    "readonly",
    "var",
];

fn no_chain(_: &[Token], _: usize) -> bool {
    false
}

/// `#[A(x), B]` at `open` (the `#`): the attributes and the index after `]`.
fn attr_group(toks: &[Token], open: usize, line_of: &dyn Fn(usize) -> u32) -> (Vec<Attr>, usize) {
    let Some(close) = matching(toks, open + 1) else {
        return (Vec::new(), toks.len());
    };
    let cx = Ctx {
        toks,
        line_of,
        is_chain_start: &no_chain,
    };
    let mut out = Vec::new();
    for r in split(&toks[open + 2..close], ",") {
        let (a, b) = (open + 2 + r.start, open + 2 + r.end);
        let Some(name) = toks.get(a).filter(|t| t.kind == Kind::Ident) else {
            continue;
        };
        let mut args = Vec::new();
        if toks.get(a + 1).is_some_and(|p| p.is("(")) {
            if let Some(pc) = matching(toks, a + 1).filter(|&pc| pc < b) {
                for ar in split(&toks[a + 2..pc], ",") {
                    args.push(value(&cx, a + 2 + ar.start, a + 2 + ar.end));
                }
            }
        }
        out.push(Attr {
            name: short(&name.text).to_string(),
            args,
            line: line_of(name.start),
            ns: qualifier(&name.text).to_string(),
        });
    }
    (out, close + 1)
}

/// Docblock annotations `@Name(…)` of the docblock in `src[from..to]`:
/// the last `/** … */` (what PHP's `getDocComment()` returns); `//` and
/// `/* … */` comments (routes commented out) are not read.
pub fn annotations(src: &str, from: usize, to: usize, line_of: &dyn Fn(usize) -> u32) -> Vec<Attr> {
    let Some(gap) = src.get(from..to) else {
        return Vec::new();
    };
    let Some(open) = gap.rfind("/**") else {
        return Vec::new();
    };
    let Some(len) = gap[open..].find("*/") else {
        return Vec::new();
    };
    let from = from + open;
    let doc = &gap[open..open + len];
    let bytes = doc.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'@' {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < bytes.len()
            && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b'\\')
        {
            j += 1;
        }
        if j == i + 1 || bytes.get(j) != Some(&b'(') {
            i = j.max(i + 1);
            continue;
        }
        let name = short(&doc[i + 1..j]).to_string();
        let ns = qualifier(&doc[i + 1..j]).to_string();
        // Balanced parentheses, `"…"` strings skipped.
        let mut depth = 0i32;
        let mut k = j;
        let mut in_str = false;
        let mut end = None;
        while k < bytes.len() {
            let c = bytes[k];
            if in_str {
                if c == b'"' {
                    in_str = false;
                }
            } else if c == b'"' {
                in_str = true;
            } else if c == b'(' || c == b'{' {
                depth += 1;
            } else if c == b')' || c == b'}' {
                depth -= 1;
                if depth == 0 {
                    end = Some(k);
                    break;
                }
            }
            k += 1;
        }
        let Some(end) = end else { break };
        // Docblock line starts (`* `) inside the arguments become blanks.
        let inner: String = doc[j + 1..end]
            .split('\n')
            .map(|l| {
                let t = l.trim_start();
                if let Some(rest) = t.strip_prefix('*') {
                    format!("{}{}", " ".repeat(l.len() - rest.len()), rest)
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let toks = tokenize(&format!("<?php {inner} ?>"));
        let args = split(&toks, ",")
            .into_iter()
            .map(|r| annotation_value(&toks[r], true))
            .collect();
        out.push(Attr {
            name,
            args,
            line: line_of(from + i),
            ns,
        });
        i = end + 1;
    }
    out
}

fn annotation_value(t: &[Token], top: bool) -> Val {
    if t.is_empty() {
        return Val::Expr(String::new());
    }
    // name=value (top level) / "key"=value, "key":value (in `{}`).
    if t.len() >= 3 && (t[1].is("=") || t[1].is(":")) && (top || t[0].kind == Kind::Str) {
        let key = Val::Str(t[0].text.clone());
        return Val::Array(vec![(Some(key), annotation_value(&t[2..], false))]);
    }
    if t.len() == 1 {
        return match t[0].kind {
            Kind::Str => Val::Str(t[0].text.clone()),
            Kind::Int => Val::Int(t[0].text.clone()),
            _ => Val::Const(t[0].text.clone()),
        };
    }
    if t[0].is("{") && matching(t, 0) == Some(t.len() - 1) {
        let inner = &t[1..t.len() - 1];
        let mut items = Vec::new();
        for r in split(inner, ",") {
            let piece = &inner[r];
            if piece.len() >= 3 && (piece[1].is("=") || piece[1].is(":")) {
                items.push((
                    Some(Val::Str(piece[0].text.clone())),
                    annotation_value(&piece[2..], false),
                ));
            } else {
                items.push((None, annotation_value(piece, false)));
            }
        }
        return Val::Array(items);
    }
    Val::Expr(
        t.iter()
            .map(|x| x.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Every class in the file (`src` is the file content the tokens come
/// from, for docblocks).
pub fn classes(src: &str, toks: &[Token], line_of: &dyn Fn(usize) -> u32) -> Vec<Class> {
    let mut out = Vec::new();
    let mut namespace = String::new();
    let mut pending: Vec<Attr> = Vec::new();
    let mut decl_start: Option<usize> = None;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.is("#") && toks.get(i + 1).is_some_and(|b| b.is("[")) {
            decl_start.get_or_insert(i);
            let (attrs, next) = attr_group(toks, i, line_of);
            pending.extend(attrs);
            i = next;
            continue;
        }
        if MODIFIERS.iter().any(|m| t.is_ident(m)) {
            decl_start.get_or_insert(i);
            i += 1;
            continue;
        }
        if t.is_ident("namespace") && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident) {
            namespace = toks[i + 1].text.trim_start_matches('\\').to_string();
            i += 2;
            pending.clear();
            decl_start = None;
            continue;
        }
        let is_class = (t.is_ident("class") || t.is_ident("trait") || t.is_ident("interface"))
            && !(i > 0 && (toks[i - 1].is("::") || toks[i - 1].is("->")))
            && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident);
        if !is_class {
            if !t.is("#") {
                pending.clear();
                decl_start = None;
            }
            i += 1;
            continue;
        }
        let first = decl_start.take().unwrap_or(i);
        let mut attrs = std::mem::take(&mut pending);
        let doc_from = if first > 0 { toks[first - 1].end } else { 0 };
        let mut doc = annotations(src, doc_from, toks[first].start, line_of);
        doc.append(&mut attrs);
        let name = toks[i + 1].text.clone();
        let mut k = i + 2;
        let mut parent = String::new();
        while k < toks.len() && !toks[k].is("{") {
            if toks[k].is_ident("extends") {
                if let Some(p) = toks.get(k + 1) {
                    parent = short(&p.text).to_string();
                }
            }
            k += 1;
        }
        let Some(close) = matching(toks, k) else {
            break;
        };
        let mut class = Class {
            namespace: namespace.clone(),
            name,
            parent,
            line: line_of(t.start),
            start: t.start,
            methods: Vec::new(),
            attrs: doc,
            props: Vec::new(),
            fillable: Vec::new(),
            form_fields: Vec::new(),
            form_parent: String::new(),
            block_prefix: None,
        };
        body(src, toks, k, close, line_of, &mut class);
        // A form type, or a base class whose helpers take the builder
        // (`protected function addFields(FormBuilderInterface $builder)`).
        let builds_form = class.methods.iter().any(|m| {
            m.name == "buildForm" || m.params.iter().any(|(ty, _)| ty.starts_with("FormBuilder"))
        });
        if class.form_parent.is_empty() && !builds_form {
            class.form_fields.clear();
        }
        out.push(class);
        i = close + 1;
    }
    out
}

fn body(
    src: &str,
    toks: &[Token],
    open: usize,
    close: usize,
    line_of: &dyn Fn(usize) -> u32,
    class: &mut Class,
) {
    let mut pending: Vec<Attr> = Vec::new();
    let mut decl_start: Option<usize> = None;
    let mut j = open + 1;
    while j < close {
        let t = &toks[j];
        if t.is("#") && toks.get(j + 1).is_some_and(|b| b.is("[")) {
            decl_start.get_or_insert(j);
            let (attrs, next) = attr_group(toks, j, line_of);
            pending.extend(attrs);
            j = next;
            continue;
        }
        if MODIFIERS.iter().any(|m| t.is_ident(m)) {
            decl_start.get_or_insert(j);
            j += 1;
            continue;
        }
        if t.kind == Kind::Var && decl_start.is_some() {
            // A property: `public ?string $name = null;`
            class.props.push(t.text.clone());
            let end = (j..close).find(|&k| toks[k].is(";")).unwrap_or(close);
            if t.text == "fillable"
                && toks.get(j + 1).is_some_and(|e| e.is("="))
                && toks.get(j + 2).is_some_and(|b| b.is("["))
            {
                class.fillable = array_keys(toks, j + 2);
            }
            pending.clear();
            decl_start = None;
            j = end + 1;
            continue;
        }
        if !(t.is_ident("function")
            && toks.get(j + 1).is_some_and(|n| n.kind == Kind::Ident)
            && toks.get(j + 2).is_some_and(|p| p.is("(")))
        {
            if !(t.kind == Kind::Ident || t.is("?")) || decl_start.is_none() {
                pending.clear();
                decl_start = None;
            }
            j += 1;
            continue;
        }
        let first = decl_start.take().unwrap_or(j);
        let hidden = toks[first..j]
            .iter()
            .any(|m| m.is_ident("private") || m.is_ident("protected"));
        let doc_from = if first > 0 { toks[first - 1].end } else { 0 };
        let mut attrs = annotations(src, doc_from, toks[first].start, line_of);
        let oa = src
            .get(doc_from..toks[first].start)
            .filter(|d| d.contains("Parameter("))
            .map(oa_parameters)
            .unwrap_or_default();
        let oa_op = src
            .get(doc_from..toks[first].start)
            .and_then(super::oa::operation);
        attrs.append(&mut pending);
        let mname = toks[j + 1].text.clone();
        let pclose = matching(toks, j + 2).unwrap_or(j + 2);
        let args = method_args(toks, j + 3, pclose, line_of);
        if mname == "__construct" {
            for a in args.iter().filter(|a| a.promoted) {
                class.props.push(a.var.clone());
            }
        }
        let params = args.iter().map(|a| (a.ty.clone(), a.var.clone())).collect();
        // Body (abstract/interface methods have none).
        let mut b = pclose + 1;
        while b < close && !toks[b].is("{") && !toks[b].is(";") {
            b += 1;
        }
        let is_static = toks[first..j].iter().any(|m| m.is_ident("static"));
        let mut dispatches = false;
        let (body_reads, rule_keys, next) = if b < close && toks[b].is("{") {
            let bclose = matching(toks, b).unwrap_or(close);
            let body = &toks[b + 1..bclose];
            dispatches = dispatches_by_name(body);
            let keys = if mname == "rules" {
                rules_keys(toks, b + 1, bclose)
            } else {
                Vec::new()
            };
            form_type(&mname, body, class);
            let mut r = reads(body);
            r.forms = forms_used(body);
            (r, keys, bclose + 1)
        } else {
            (Reads::default(), Vec::new(), b + 1)
        };
        class.methods.push(Method {
            name: mname,
            line: line_of(toks[j].start),
            params,
            args,
            reads: body_reads,
            rule_keys,
            start: toks[j].start,
            attrs,
            hidden,
            oa,
            oa_op,
            dispatches,
            is_static,
        });
        j = next;
    }
}

/// What a Symfony form type's method declares: `->add('name', …)` fields,
/// the `getParent()` type, the `getBlockPrefix()` literal.
fn form_type(method: &str, body: &[Token], class: &mut Class) {
    for (i, t) in body.iter().enumerate() {
        if t.is_ident("add")
            && i > 0
            && body[i - 1].is("->")
            && body.get(i + 1).is_some_and(|p| p.is("("))
        {
            if let Some(name) = super::request::lit(body.get(i + 2)) {
                if !name.is_empty() && !class.form_fields.iter().any(|f| f == name) {
                    class.form_fields.push(name.to_string());
                }
            }
        }
        if !t.is_ident("return") {
            continue;
        }
        if method.eq_ignore_ascii_case("getParent") {
            if let [c, sep, kw, ..] = &body[(i + 1).min(body.len())..] {
                if c.kind == Kind::Ident && sep.is("::") && kw.is_ident("class") {
                    class.form_parent = short(&c.text).to_string();
                }
            }
        } else if method.eq_ignore_ascii_case("getBlockPrefix") {
            if let Some(p) = super::request::lit(body.get(i + 1)) {
                class.block_prefix = Some(p.to_string());
            }
        }
    }
}

/// The keys a `rules()` body returns: `return [...]`, `return $rules`
/// with `$rules = [...]`, `$rules['k'] = …` (also under conditions),
/// `$rules += [...]`, `array_merge(…, [...])`, and [`PARENT_RULES`] when
/// the parent's `rules()` is merged in (`parent::rules()`). Linear.
fn rules_keys(toks: &[Token], from: usize, to: usize) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let add = |keys: &mut Vec<String>, k: Vec<String>| {
        for k in k {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    };
    // Variables returned (directly or through `array_merge`).
    let mut returned: Vec<&str> = Vec::new();
    for i in from..to {
        if toks[i].is_ident("return") {
            let mut k = i + 1;
            while k < to && !toks[k].is(";") {
                if toks[k].kind == Kind::Var && toks[k].text != "this" {
                    returned.push(&toks[k].text);
                }
                k += 1;
            }
        }
    }
    let array_open = |k: usize| -> Option<usize> {
        let t = toks.get(k)?;
        if t.is("[") {
            Some(k)
        } else if t.is_ident("array") && toks.get(k + 1).is_some_and(|p| p.is("(")) {
            Some(k + 1)
        } else {
            None
        }
    };
    // Open brackets; `true` for the paren of an `array_merge(` call that
    // builds the rules (not one inside an array, which merges the rule
    // list of one field: `'rate' => array_merge(['nullable'], $more)`).
    let mut stack: Vec<bool> = Vec::new();
    let mut squares = 0usize;
    let mut i = from;
    while i < to {
        let t = &toks[i];
        let merge_open =
            t.is("(") && i > from && toks[i - 1].is_ident("array_merge") && squares == 0;
        let in_merge = merge_open || (t.is(",") && stack.last() == Some(&true));
        if t.is("(") || t.is("[") || t.is("{") {
            stack.push(merge_open);
            if t.is("[") {
                squares += 1;
            }
        } else if t.is(")") || t.is("]") || t.is("}") {
            stack.pop();
            if t.is("]") {
                squares = squares.saturating_sub(1);
            }
        }
        if t.is_ident("parent")
            && toks.get(i + 1).is_some_and(|c| c.is("::"))
            && toks.get(i + 2).is_some_and(|m| m.is_ident("rules"))
            && !keys.iter().any(|k| k == PARENT_RULES)
        {
            keys.push(PARENT_RULES.to_string());
        }
        // `return [...]`, `array_merge(…, [...])`, `$rules = [...]`,
        // `$rules += [...]`.
        let opens_rules = (t.is_ident("return") || in_merge)
            || ((t.is("=") || t.is("+=")) && i > from && is_returned(&toks[i - 1], &returned));
        if opens_rules {
            if let Some(open) = array_open(i + 1) {
                add(&mut keys, array_keys(toks, open));
            }
        }
        // `$rules['k'] = …`
        if t.kind == Kind::Var
            && returned.contains(&t.text.as_str())
            && toks.get(i + 1).is_some_and(|b| b.is("["))
            && toks.get(i + 3).is_some_and(|b| b.is("]"))
            && toks.get(i + 4).is_some_and(|e| e.is("="))
        {
            if let Some(k) = super::request::lit(toks.get(i + 2)) {
                add(&mut keys, vec![k.to_string()]);
            }
        }
        i += 1;
    }
    keys
}

/// `method_exists($this, $name)` and a dynamic call `$this->$name(` in
/// one body: request keys dispatched to same-named methods (the query
/// filter class idiom). Linear.
fn dispatches_by_name(body: &[Token]) -> bool {
    let mut exists = false;
    let mut dynamic = false;
    for (i, t) in body.iter().enumerate() {
        if t.is_ident("method_exists")
            && body.get(i + 1).is_some_and(|p| p.is("("))
            && body
                .get(i + 2)
                .is_some_and(|v| v.kind == Kind::Var && v.text == "this")
        {
            exists = true;
        }
        if t.kind == Kind::Var
            && t.text == "this"
            && body.get(i + 1).is_some_and(|a| a.is("->"))
            && body.get(i + 2).is_some_and(|v| v.kind == Kind::Var)
            && body.get(i + 3).is_some_and(|p| p.is("("))
        {
            dynamic = true;
        }
    }
    exists && dynamic
}

/// Marker among a `rules()` method's keys: it merges `parent::rules()`.
pub const PARENT_RULES: &str = "parent::rules";

fn is_returned(t: &Token, returned: &[&str]) -> bool {
    t.kind == Kind::Var && returned.contains(&t.text.as_str())
}

fn method_args(toks: &[Token], from: usize, to: usize, line_of: &dyn Fn(usize) -> u32) -> Vec<Arg> {
    let mut out = Vec::new();
    if from >= to {
        return out;
    }
    for r in split(&toks[from..to], ",") {
        let (a, b) = (from + r.start, from + r.end);
        let mut arg = Arg::default();
        let mut k = a;
        while k < b {
            let p = &toks[k];
            if p.is("#") && toks.get(k + 1).is_some_and(|x| x.is("[")) {
                let (attrs, next) = attr_group(toks, k, line_of);
                arg.attrs.extend(attrs);
                k = next;
                continue;
            }
            if p.is("=") {
                break;
            }
            match p.kind {
                Kind::Ident
                    if ["public", "protected", "private"]
                        .iter()
                        .any(|m| p.is_ident(m)) =>
                {
                    arg.promoted = true;
                }
                Kind::Ident if p.is_ident("readonly") => {}
                Kind::Ident => arg.ty = short(&p.text).to_string(),
                Kind::Var => {
                    arg.var = p.text.clone();
                    break;
                }
                _ => {}
            }
            k += 1;
        }
        if !arg.var.is_empty() {
            out.push(arg);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swagger_parameters() {
        let doc = "/**\n * @OA\\Get(\n *   path=\"/x\",\n *   @OA\\Parameter(ref=\"#/components/parameters/X-Token\"),\n *   @OA\\Parameter(\n *     name=\"page\", in=\"query\",\n *     @OA\\Schema(type=\"integer\", description=\"é\"),\n *   ),\n * )\n */";
        let p = oa_parameters(doc);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].reference, "#/components/parameters/X-Token");
        assert_eq!((p[1].name.as_str(), p[1].loc.as_str()), ("page", "query"));
    }

    #[test]
    fn attributes_annotations_and_props() {
        let src = "<?php\nnamespace App\\Controller;\n\n#[Route('/api/users', name: 'users_')]\nfinal class UserController extends AbstractController\n{\n    /**\n     * Don't break on apostrophes.\n     * @Route(\"/legacy/{id}\",\n     *     methods={\"GET\", \"HEAD\"}, requirements={\"id\"=\"\\d+\"})\n     */\n    #[Route('/{id<\\d+>}', methods: ['GET'])]\n    public function show(int $id, #[MapQueryParameter] ?string $q = null, #[MapRequestPayload] CreateUser $dto): Response\n    {\n        return $this->json([]);\n    }\n}\n\nfinal class CreateUser\n{\n    public string $email;\n    public function __construct(public readonly string $name, private ?int $age = null, $plain = 1) {}\n}\n";
        let toks = tokenize(src);
        let lines = portolan_plugin_sdk::text::LineIndex::new(src);
        let cs = classes(src, &toks, &|o| lines.line_of(o));
        assert_eq!(cs.len(), 2);
        let c = &cs[0];
        assert_eq!(c.attrs.len(), 1);
        assert_eq!(
            c.attrs[0].positional(0),
            Some(&Val::Str("/api/users".into()))
        );
        assert_eq!(c.attrs[0].named("name"), Some(&Val::Str("users_".into())));
        let m = &c.methods[0];
        assert_eq!(m.attrs.len(), 2);
        assert_eq!(m.attrs[0].name, "Route");
        assert_eq!(m.attrs[0].line, 9);
        assert_eq!(
            m.attrs[0].positional(0),
            Some(&Val::Str("/legacy/{id}".into()))
        );
        assert_eq!(
            m.attrs[0].named("methods").map(Val::strings),
            Some(vec!["GET".to_string(), "HEAD".to_string()])
        );
        assert_eq!(m.attrs[1].line, 12);
        assert_eq!(
            m.attrs[1].named("methods").map(Val::strings),
            Some(vec!["GET".to_string()])
        );
        assert_eq!(m.args.len(), 3);
        assert_eq!(m.args[1].attrs[0].name, "MapQueryParameter");
        assert_eq!(m.args[1].var, "q");
        assert_eq!(m.args[2].ty, "CreateUser");
        assert_eq!(cs[1].props, ["email", "name", "age"]);
    }
}
