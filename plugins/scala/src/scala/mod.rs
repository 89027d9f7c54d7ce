//! Scala helpers shared by the framework analyzers: a token stream with
//! interpolated strings ([`tokens`]), declarations ([`outline`]), the route
//! tree model and its cross-file linker ([`route`]), and small expression
//! readers (this module).

pub mod outline;
pub mod route;
pub mod tokens;

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use outline::Outline;
use route::{Def, Fact, Node, Piece};
use tokens::{Kind, Toks};

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count `n` units of work (tokens visited, nodes walked): a deterministic
/// measure the linearity tests compare across input sizes.
pub fn tick(n: u64) {
    WORK.with(|w| w.set(w.get().saturating_add(n)));
}

thread_local! {
    static NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Deepest nesting of route expressions read (blocks, argument groups);
/// deeper code is not read, so a file of nested brackets cannot overflow
/// the stack or rescan its groups once per level.
pub const MAX_NESTING: usize = 48;

/// Run `f` one nesting level deeper; `None` past [`MAX_NESTING`].
pub fn nested<T>(f: impl FnOnce() -> T) -> Option<T> {
    let depth = NESTING.with(std::cell::Cell::get);
    if depth >= MAX_NESTING {
        return None;
    }
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            NESTING.with(|n| n.set(self.0));
        }
    }
    NESTING.with(|n| n.set(depth + 1));
    let _restore = Restore(depth);
    Some(f())
}

/// Work counted on this thread so far (see [`tick`]).
pub fn work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// Is this file application code (not a test, not generated test doubles)?
/// The route builders named after an HTTP method, lower-case, with the
/// method.
pub const VERBS: &[(&str, &str)] = &[
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("delete", "DELETE"),
    ("patch", "PATCH"),
    ("head", "HEAD"),
    ("options", "OPTIONS"),
];

pub fn wanted(file: &SourceFile) -> bool {
    !is_test_path(&file.slash_path())
}

/// Pieces of a string literal token: `s"$Base/users/${Api.V}"` interpolates
/// constants.
pub fn str_pieces(text: &str, prefix: &str) -> Vec<Piece> {
    if prefix != "s" && prefix != "f" {
        return vec![Piece::Lit(text.to_string())];
    }
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '$' {
            lit.push(c);
            continue;
        }
        let mut name = String::new();
        if chars.peek().map(|p| p.1) == Some('{') {
            chars.next();
            for (_, ch) in chars.by_ref() {
                if ch == '}' {
                    break;
                }
                name.push(ch);
            }
        } else {
            while let Some(&(_, ch)) = chars.peek() {
                if ch.is_alphanumeric() || ch == '_' {
                    name.push(ch);
                    chars.next();
                } else {
                    break;
                }
            }
        }
        if name.is_empty() {
            lit.push('$');
            continue;
        }
        if !lit.is_empty() {
            out.push(Piece::Lit(std::mem::take(&mut lit)));
        }
        let parts: Vec<String> = name.trim().split('.').map(str::to_string).collect();
        out.push(Piece::Const(parts));
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    out
}

/// `"a" + B + "c"`: a constant expression, as pieces.
pub fn konst(t: &Toks, r: Range<usize>) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut k = r.start;
    let mut has_str = false;
    while k < r.end {
        let tok = t.get(k)?;
        match tok.kind {
            Kind::Str => {
                has_str = true;
                out.extend(str_pieces(&tok.text, &tok.prefix));
                k += 1;
            }
            Kind::Ident => {
                let (parts, next) = t.dotted(k)?;
                if next > r.end {
                    return None;
                }
                out.push(Piece::Const(parts));
                k = next;
            }
            _ => return None,
        }
        if k < r.end {
            if !t.is(k, "+") {
                return None;
            }
            k += 1;
        }
    }
    // `val Users = Paths.Users`: another object's constant.
    let one_ref = matches!(out.as_slice(), [Piece::Const(q)]
        if q.len() >= 2 && q[0].starts_with(|c: char| c.is_ascii_uppercase()));
    (has_str || one_ref).then_some(out)
}

/// `new T(…)` / `T(…)`: the type a value stands for.
pub fn alias(t: &Toks, r: Range<usize>) -> Option<String> {
    alias_with_args(t, r).map(|(name, _)| name)
}

/// `new T(a, "b")` / `T(…)`: the type a value stands for and the arguments
/// of its first argument list (string literals and plain or dotted names).
pub fn alias_with_args(t: &Toks, r: Range<usize>) -> Option<(String, Vec<Option<Piece>>)> {
    let mut k = r.start;
    if t.is_ident(k, "new") {
        k += 1;
    }
    let name = t.ident(k)?;
    if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    k += 1;
    let mut args = None;
    while t.is(k, "[") || t.is(k, "(") {
        if t.is(k, "(") && args.is_none() {
            let close = t.close(k).unwrap_or(r.end).min(r.end);
            args = Some(arg_pieces(t, k + 1, close));
        }
        k = t.skip_group(k);
    }
    (k >= r.end || t.is(k, "{")).then(|| (name.to_string(), args.unwrap_or_default()))
}

/// Each argument of `start..end` as a plain string literal or a (dotted)
/// name, else `None`.
fn arg_pieces(t: &Toks, start: usize, end: usize) -> Vec<Option<Piece>> {
    t.split(start, end, ",")
        .into_iter()
        .map(|r| {
            let tok = t.get(r.start)?;
            match tok.kind {
                Kind::Str if tok.prefix.is_empty() && r.end == r.start + 1 => {
                    Some(Piece::Lit(tok.text.clone()))
                }
                Kind::Ident => {
                    let (parts, next) = t.dotted(r.start)?;
                    (next == r.end).then_some(Piece::Const(parts))
                }
                _ => None,
            }
        })
        .collect()
}

/// Turns a definition's right-hand side into a route tree.
pub type Builder = dyn Fn(&Toks, &Outline, Range<usize>) -> Option<Node>;

/// Record the facts every Scala analyzer shares (case classes, constants,
/// aliases) plus one [`Def`] per definition whose right-hand side `build`
/// turns into a route tree.
pub fn file_facts(file: &SourceFile, t: &Toks, o: &Outline, out: &mut Output, build: &Builder) {
    for w in &o.owners {
        if !w.parents.is_empty() {
            out.fact(&Fact::Parents {
                name: w.name.clone(),
                parents: w.parents.clone(),
            });
        }
    }
    for (class, params) in &o.ctors {
        out.fact(&Fact::Ctor {
            class: class.clone(),
            params: params.clone(),
        });
    }
    news(t, o, out);
    for c in &o.classes {
        out.fact(&Fact::Class {
            name: c.name.clone(),
            fields: c.fields.clone(),
        });
    }
    for d in &o.defs {
        let built = build(t, o, d.rhs.clone());
        let (node, directive) = match built {
            Some(n) if n.routes() => (Some(n), None),
            Some(n) if is_directive(&n) => (None, Some(n)),
            _ => (None, None),
        };
        let konst = konst(t, d.rhs.clone());
        let (alias, alias_args) = match alias_with_args(t, d.rhs.clone()) {
            Some((a, args)) => (Some(a), args),
            None => (None, Vec::new()),
        };
        if node.is_none() && konst.is_none() && alias.is_none() && directive.is_none() {
            continue;
        }
        out.fact(&Fact::Def(Box::new(Def {
            file: file.path.clone(),
            owner: d.owner.clone(),
            name: d.name.clone(),
            line: t.line(d.at),
            node,
            alias,
            alias_args,
            konst,
            root: false,
            never_root: false,
            directive,
        })));
    }
}

/// A tree that only shapes a path (`pathPrefix(apiPath / apiVersion)`
/// without a block): a custom directive.
fn is_directive(n: &Node) -> bool {
    let mut node = n;
    for _ in 0..16 {
        if !node.pieces.is_empty() || !node.methods.is_empty() {
            return true;
        }
        match node.children.as_slice() {
            [c] => node = c,
            _ => return false,
        }
    }
    false
}

/// `new C(…)` instantiations with their literal or plain-name arguments.
fn news(t: &Toks, o: &Outline, out: &mut Output) {
    let mut k = 0;
    while k < t.len() {
        if !t.is_ident(k, "new") {
            k += 1;
            continue;
        }
        let Some(class) = t.ident(k + 1) else {
            k += 1;
            continue;
        };
        let mut open = k + 2;
        while t.is(open, "[") {
            open = t.skip_group(open);
        }
        if !t.is(open, "(") {
            k += 2;
            continue;
        }
        let close = t.close(open).unwrap_or(t.len());
        let args: Vec<Option<Piece>> = t
            .split(open + 1, close, ",")
            .into_iter()
            .map(|r| {
                if r.end != r.start + 1 {
                    return None;
                }
                let tok = t.get(r.start)?;
                match tok.kind {
                    Kind::Str if tok.prefix.is_empty() => Some(Piece::Lit(tok.text.clone())),
                    Kind::Ident => Some(Piece::Const(vec![tok.text.clone()])),
                    _ => None,
                }
            })
            .collect();
        if args.iter().any(Option::is_some) {
            out.fact(&Fact::New {
                class: class.to_string(),
                owner: o.owner_of(k).map(|w| w.name.clone()),
                args,
            });
        }
        k = open + 1;
    }
}

/// A reference to another definition at `k` when it stands alone as an
/// operand (`a ~ b`, `concat(a, b)`, `"/x" -> a`, a block's value).
pub fn ref_at(t: &Toks, k: usize, start: usize, end: usize) -> Option<(Vec<String>, usize)> {
    let tok = t.get(k)?;
    if tok.kind != Kind::Ident || KEYWORDS.contains(&tok.text.as_str()) {
        return None;
    }
    let before_ok = k == start
        || tok.nl
        || t.get(k - 1).is_some_and(|p| {
            p.kind == Kind::Punct
                && matches!(p.text.as_str(), "~" | "," | "(" | "{" | ">" | "=" | "+")
        });
    if !before_ok {
        return None;
    }
    let (mut parts, next) = t.dotted(k)?;
    while parts.last().is_some_and(|p| {
        matches!(
            p.as_str(),
            "orNotFound"
                | "seal"
                | "toHttpApp"
                | "toRoutes"
                | "routes_"
                | "sandbox"
                | "toHttp"
                | "implement"
                | "orElse"
                | "combineK"
                | "nest"
        )
    }) && parts.len() > 1
    {
        parts.pop();
    }
    let after_ok = next >= end
        || t.get(next).is_some_and(|n| {
            n.nl || n.kind == Kind::Punct
                && matches!(
                    n.text.as_str(),
                    "~" | "," | ")" | "}" | "<" | "+" | "@" | ";"
                )
        });
    after_ok.then_some((parts, next))
}

const KEYWORDS: &[&str] = &[
    "val", "var", "def", "new", "if", "else", "match", "case", "import", "return", "this", "true",
    "false", "null", "None", "Some", "yield", "for", "implicit", "complete", "reject", "redirect",
    "throw", "try", "catch", "finally", "object", "class", "trait", "extends", "with", "Nil",
];

/// The type named in `[T]` at `open` (the last identifier: `Seq[User]` → User).
pub fn type_arg(t: &Toks, open: usize) -> Option<String> {
    if !t.is(open, "[") {
        return None;
    }
    let close = t.close(open)?;
    (open + 1..close)
        .rev()
        .find_map(|k| t.ident(k))
        .map(str::to_string)
}

/// The `=` `>` of a `=>` arrow at `k`?
pub fn is_arrow(t: &Toks, k: usize) -> bool {
    match (t.get(k), t.get(k + 1)) {
        (Some(a), Some(b)) => a.is('=') && b.is('>') && b.start == a.start + 1,
        _ => false,
    }
}

/// The `-` `>` of a `->` at `k`?
pub fn is_pair_arrow(t: &Toks, k: usize) -> bool {
    match (t.get(k), t.get(k + 1)) {
        (Some(a), Some(b)) => a.is('-') && b.is('>') && b.start == a.start + 1,
        _ => false,
    }
}

/// First top-level `=>` in `start..end`.
pub fn find_arrow(t: &Toks, start: usize, end: usize) -> Option<usize> {
    let mut k = start;
    while k < end {
        if is_arrow(t, k) {
            return Some(k);
        }
        k = if t.is_open(k) { t.skip_group(k) } else { k + 1 };
    }
    None
}

/// Names bound by a lambda head `id =>`, `(id, name) =>`, `case (a, b) =>`
/// at the start of a block `{`…; returns them and the index after `=>`.
pub fn lambda(t: &Toks, open: usize, close: usize) -> (Vec<String>, usize) {
    let start = open + 1;
    let Some(arrow) = find_arrow(t, start, close) else {
        return (Vec::new(), start);
    };
    // Only a short head made of names, parentheses, commas and types.
    let mut names = Vec::new();
    let mut k = start;
    let mut after_colon = false;
    while k < arrow {
        let Some(tok) = t.get(k) else { break };
        match tok.kind {
            Kind::Ident if tok.text == "case" || tok.text == "implicit" => {}
            Kind::Ident if !after_colon => names.push(tok.text.clone()),
            Kind::Ident => {}
            Kind::Punct if tok.text == ":" => after_colon = true,
            Kind::Punct if tok.text == "," || tok.text == "(" || tok.text == ")" => {
                after_colon = false
            }
            Kind::Punct if tok.text == "[" => {
                k = t.skip_group(k);
                continue;
            }
            _ => return (Vec::new(), start),
        }
        k += 1;
    }
    (names, arrow + 2)
}
