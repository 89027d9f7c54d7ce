//! Request values that leave the handler: the body (or query, params)
//! bound to a variable, passed to a service function in another module,
//! copied onto an entity, or typed by a class or interface.
//!
//! ```ts
//! const create = async (req, res) => {
//!   const body = req.body;                 // an alias: body.x are reads
//!   await service.create(body, req.user);  // forwarded: what create reads
//!   const list = await service.list({ ...req.query });
//! };
//! // services/items.ts
//! const create = async (input: Partial<IItem>) => {   // typed: IItem's fields
//!   const item = new Item();
//!   Object.assign(item, strip(input));    // copied: the entity Item's fields
//!   return repo.save(input.name);         // read: name
//! };
//! ```
//!
//! Scan records per handler the [`Flow`]s of each request part, and per
//! module the [`Sink`]s (what each function does with each parameter)
//! and the class/interface [`Dto`]s. [`Flows`] resolves them in `link`,
//! following forwards a few calls deep. Everything is linear: one search
//! of each parameter's name in its function's body.

use portolan_plugin_sdk::{Code, Param, ParamKind};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::module::Value;
use super::outline::{methods, object_entries, Outline, ScopeKind};
use super::project::{Project, Target};
use super::reads::member_after;
use super::request::destructured;
use super::syntax::{dotted_before, ident_at, is_js_ident, matching_back};
use crate::nestjs::scan::{type_name, Dto};

/// What code does with one value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uses {
    /// Members read (`v.x`, `const { a } = v`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<String>,
    /// Classes and interfaces describing it (`v: T`, `v as T`,
    /// `Object.assign(new T(), v)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// Passed as argument `.1` to the function named `.0` (scoped, dotted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forwards: Vec<(String, usize)>,
}

impl Uses {
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty() && self.types.is_empty() && self.forwards.is_empty()
    }

    fn read(&mut self, name: String) {
        if !self.reads.contains(&name) {
            self.reads.push(name);
        }
    }

    fn typed(&mut self, name: String) {
        if !name.is_empty() && !self.types.contains(&name) {
            self.types.push(name);
        }
    }
}

/// A request part that leaves the handler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flow {
    pub kind: ParamKind,
    pub uses: Uses,
}

/// What function `func` (scoped name, as handlers are named) does with its
/// parameter `arg`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sink {
    pub func: String,
    pub arg: usize,
    pub uses: Uses,
}

/// The identifier at the start of `s` (bytes of multi-byte characters are
/// identifier bytes, so the cut is on a char boundary).
fn ident_prefix(s: &str) -> &str {
    let k = s.bytes().take_while(|b| is_js_ident(*b)).count();
    &s[..k]
}

/// The identifier at the end of `s`.
fn ident_suffix(s: &str) -> &str {
    let k = s.bytes().rev().take_while(|b| is_js_ident(*b)).count();
    &s[s.len() - k..]
}

/// Is the word at `at` a member (`x.at`), not a spread (`...at`)?
fn member_dot(bytes: &[u8], at: usize) -> bool {
    at > 0 && bytes[at - 1] == b'.' && !(at >= 3 && &bytes[at - 3..at] == b"...")
}

/// Calls whose arguments are never request data worth following.
fn ignored_callee(name: &str) -> bool {
    let head = name.split('.').next().unwrap_or(name);
    let last = name.rsplit('.').next().unwrap_or(name);
    matches!(
        head,
        "console"
            | "JSON"
            | "Object"
            | "Array"
            | "Number"
            | "String"
            | "Boolean"
            | "Promise"
            | "res"
            | "next"
            | "logger"
            | "log"
            | "Math"
            | "Date"
            | "Buffer"
    ) || matches!(
        last,
        "json" | "send" | "status" | "push" | "includes" | "has" | "set" | "emit" | "then"
    )
}

/// Offset of the `(` of the call whose argument list directly contains
/// `at`, and the argument's index. Looks back at most 4 KiB, not past
/// `floor`, and not across a statement; a `{ ...v }` object argument counts
/// as the argument.
fn enclosing_call(code: &Code<'_>, at: usize, floor: usize) -> Option<(usize, usize)> {
    let bytes = code.text().as_bytes();
    let limit = at.saturating_sub(4096).max(floor);
    let mut depth = 0usize;
    let mut commas = 0usize;
    let mut i = at;
    let mut spread = code.text()[..at].trim_end().ends_with("...");
    while i > limit {
        i -= 1;
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => return Some((i, commas)),
            b'{' if spread => {
                // `f({ ...v })`: continue from the object literal.
                spread = false;
                commas = 0;
                let t = code.text()[..i].trim_end();
                if !(t.ends_with('(') || t.ends_with(',')) {
                    return None;
                }
            }
            b'[' | b'{' => return None,
            b',' if depth == 0 => commas += 1,
            b';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// `T` in `Partial<T>`, `Readonly<T>`, `T[]`, `T | undefined`.
fn annotated(ty: &str) -> String {
    let mut t = ty.trim();
    if let Some((a, _)) = t.split_once('|') {
        t = a.trim();
    }
    for w in ["Partial<", "Required<", "Readonly<", "DeepPartial<"] {
        if let Some(x) = t.strip_prefix(w).and_then(|x| x.strip_suffix('>')) {
            t = x.trim();
        }
    }
    type_name(t)
}

/// The class `name` is bound to with `new C(` in `body` (`const e = new
/// Entity()`, `e = new Entity()`).
fn constructed(code: &Code<'_>, body: Range<usize>, name: &str) -> Option<String> {
    let text = code.text();
    for at in code.find_word_in(name, body.clone()) {
        let rest = text[at + name.len()..].trim_start();
        let rest = match rest.strip_prefix(':') {
            // `const e: Entity = new Entity()`
            Some(r) => r.split_once('=').map_or("", |(_, b)| b),
            None => match rest.strip_prefix('=') {
                Some(r) if !r.starts_with('=') => r,
                _ => continue,
            },
        };
        if let Some(c) = rest.trim_start().strip_prefix("new ") {
            let c: String = ident_prefix(c.trim_start()).to_string();
            if !c.is_empty() {
                return Some(c);
            }
        }
    }
    None
}

/// The class of a TypeORM repository call's receiver ending before `dot`:
/// `getRepository(C)`, `ds.getRepository(C)`, `manager.create(C, v)`.
fn repository_class(code: &Code<'_>, dot: usize) -> Option<String> {
    let text = code.text();
    let before = text[..dot].trim_end();
    let close = before.len().checked_sub(1)?;
    if !before.ends_with(')') {
        return None;
    }
    let open = matching_back(code, close)?;
    let (callee, _) = dotted_before(code, open)?;
    if !callee.ends_with("getRepository") && !callee.ends_with("getCustomRepository") {
        return None;
    }
    let first = code.args(open).into_iter().next()?;
    let c = code.slice(first).trim();
    (!c.is_empty() && c.bytes().all(is_js_ident)).then(|| c.to_string())
}

/// TypeORM repository methods taking an entity-like object.
const REPOSITORY: &[&str] = &["create", "save", "insert", "merge", "update", "preload"];

/// Record what the expression at `v` (a value, not a member read) is used
/// for in `body`. `depth` bounds aliases of aliases.
pub fn value_uses(
    code: &Code<'_>,
    outline: &Outline,
    body: Range<usize>,
    v: Range<usize>,
    depth: usize,
    out: &mut Uses,
) {
    let text = code.text();
    let bytes = text.as_bytes();
    if let Some(name) = member_after(code, v.end) {
        out.read(name);
        return;
    }
    // A method call or computed member of the value (`v.toString()`,
    // `body.json()`, `v[k]`): not the value itself.
    let mut k = v.end;
    while matches!(bytes.get(k), Some(b'!') | Some(b'?')) {
        k += 1;
    }
    if matches!(bytes.get(k), Some(b'.') | Some(b'[') | Some(b'(')) {
        return;
    }
    // `v as T`
    let after = code.skip_ws(v.end);
    if text[after..].starts_with("as ") {
        let t = text[after + 3..].trim_start();
        let k = t
            .bytes()
            .take_while(|b| is_js_ident(*b) || matches!(b, b'<' | b'>' | b'.'))
            .count();
        let ty = &t[..k];
        out.typed(annotated(ty));
    }
    // Bound: `{ a, b } = v`, `const x = v`, `const x: T = v`.
    let before = text[..v.start].trim_end();
    let before = before.strip_suffix("await").map_or(before, str::trim_end);
    if let Some(b) = before.strip_suffix('=') {
        if b.ends_with(['=', '!', '<', '>', '+', '-', '*', '/', '|', '&', '?']) {
            return;
        }
        let b = b.trim_end();
        let (lhs, ty) = match b.rfind(':') {
            Some(c)
                if !b.ends_with('}')
                    && b[c + 1..]
                        .bytes()
                        .all(|x| is_js_ident(x) || b" <>.[]|".contains(&x)) =>
            {
                (b[..c].trim_end(), Some(&b[c + 1..]))
            }
            _ => (b, None),
        };
        if let Some(t) = ty {
            out.typed(annotated(t));
        }
        if lhs.ends_with('}') {
            let close = lhs.len() - 1;
            if code.is_code(close) {
                for n in destructured(code, close) {
                    out.read(n);
                }
            }
            return;
        }
        let var: String = ident_suffix(lhs).to_string();
        let declared = lhs[..lhs.len() - var.len()].trim_end();
        if var.is_empty()
            || depth > 0
            || !(declared.ends_with("const")
                || declared.ends_with("let")
                || declared.ends_with("var"))
        {
            return;
        }
        for at in code.find_word_in(&var, v.end..body.end) {
            if member_dot(bytes, at) {
                continue;
            }
            value_uses(
                code,
                outline,
                body.clone(),
                at..at + var.len(),
                depth + 1,
                out,
            );
        }
        return;
    }
    // An argument.
    let Some((open, arg)) = enclosing_call(code, v.start, body.start) else {
        return;
    };
    let Some((callee, _)) = dotted_before(code, open) else {
        // `ds.getRepository(C).create(v)`
        let t = text[..open].trim_end();
        let last: String = ident_suffix(t).to_string();
        let dot = t.len() - last.len();
        if REPOSITORY.contains(&last.as_str()) && t[..dot].ends_with('.') {
            if let Some(c) = repository_class(code, dot - 1) {
                out.typed(c);
            }
        }
        return;
    };
    if callee == "Object.assign" {
        if arg > 0 {
            assigned(code, body, open, out);
        }
        return;
    }
    let last = callee.rsplit('.').next().unwrap_or(&callee);
    if REPOSITORY.contains(&last) {
        let dot = open - last.len();
        let dot = text[..dot].trim_end().len().saturating_sub(1);
        if let Some(c) = repository_class(code, dot) {
            out.typed(c);
            return;
        }
    }
    if callee == "new" || ignored_callee(&callee) {
        return;
    }
    // `Object.assign(entity, strip(v))`: the wrapper's call inside.
    let start = {
        let t = text[..open].trim_end();
        t.len() - callee.len()
    };
    if let Some((o2, a2)) = enclosing_call(code, start, body.start) {
        if a2 > 0 && dotted_before(code, o2).is_some_and(|(c, _)| c == "Object.assign") {
            assigned(code, body, o2, out);
            return;
        }
    }
    let callee = outline.scoped(&callee, open);
    if !out.forwards.iter().any(|(c, a)| *c == callee && *a == arg) {
        out.forwards.push((callee, arg));
    }
}

/// `Object.assign(target, …)` with `(` at `open`: the target's class.
fn assigned(code: &Code<'_>, body: Range<usize>, open: usize, out: &mut Uses) {
    let Some(first) = code.args(open).into_iter().next() else {
        return;
    };
    let t = code.slice(first.clone()).trim();
    if let Some(c) = t.strip_prefix("new ") {
        let c: String = ident_prefix(c.trim_start()).to_string();
        out.typed(c);
    } else if !t.is_empty() && t.bytes().all(is_js_ident) {
        if let Some(c) = constructed(code, body, t) {
            out.typed(c);
        }
    }
}

/// Offsets of request part values in `body`: `req.body` (JSON),
/// `req.query`, `req.params`, Koa's `ctx.request.body`; with the member
/// after them when they are read directly (those are plain reads).
fn parts(code: &Code<'_>, body: Range<usize>, req: &str) -> Vec<(ParamKind, Range<usize>)> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for at in code.find_word_in(req, body) {
        if member_dot(bytes, at) {
            continue;
        }
        let mut j = at + req.len();
        let next = |j: usize| -> Option<Range<usize>> {
            let k = match bytes.get(j) {
                Some(b'.') => j + 1,
                Some(b'?') if bytes.get(j + 1) == Some(&b'.') => j + 2,
                _ => return None,
            };
            ident_at(code, k)
        };
        let Some(mut m) = next(j) else { continue };
        if code.slice(m.clone()) == "request" {
            j = m.end;
            match next(j) {
                Some(m2) => m = m2,
                None => continue,
            }
        }
        let kind = match code.slice(m.clone()) {
            "body" => ParamKind::Json,
            "query" => ParamKind::Query,
            "params" => ParamKind::Path,
            _ => continue,
        };
        out.push((kind, at..m.end));
    }
    out
}

/// Parameters read through aliases of the request parts, and the flows of
/// the parts that leave the handler, for a handler whose request
/// parameter is `req`.
pub fn request_flows(
    code: &Code<'_>,
    outline: &Outline,
    body: Range<usize>,
    req: &str,
) -> (Vec<Param>, Vec<Flow>) {
    let mut params: Vec<Param> = Vec::new();
    let mut flows: Vec<Flow> = Vec::new();
    if req.is_empty() {
        return (params, flows);
    }
    for (kind, v) in parts(code, body.clone(), req) {
        if member_after(code, v.end).is_some() {
            continue;
        }
        let mut u = Uses::default();
        value_uses(code, outline, body.clone(), v, 0, &mut u);
        for r in std::mem::take(&mut u.reads) {
            let p = Param::new(kind, r);
            if !params.contains(&p) {
                params.push(p);
            }
        }
        if u.is_empty() {
            continue;
        }
        match flows.iter_mut().find(|f| f.kind == kind) {
            Some(f) => {
                for t in u.types {
                    f.uses.typed(t);
                }
                for fw in u.forwards {
                    if !f.uses.forwards.contains(&fw) {
                        f.uses.forwards.push(fw);
                    }
                }
            }
            None => flows.push(Flow { kind, uses: u }),
        }
    }
    (params, flows)
}

/// `(a, { b, c }: T, d: Partial<U> = {})`: per parameter, its name (empty
/// when destructured), the names it destructures and its type.
fn typed_params(code: &Code<'_>, list: Range<usize>) -> Vec<(String, Vec<String>, String)> {
    let text = code.text();
    let mut out = Vec::new();
    for r in code.split_top_level(list.start, list.end, b',') {
        let s = code.skip_ws(r.start);
        let t = code.slice(s..r.end);
        if t.starts_with("...") {
            break;
        }
        let (head_end, names) = if t.starts_with('{') {
            match code.matching(s) {
                Some(c) if c < r.end => (c + 1, destructured(code, c)),
                _ => (r.end, Vec::new()),
            }
        } else {
            let n: String = ident_prefix(t).to_string();
            (s + n.len(), vec![n])
        };
        let rest = text[head_end..r.end].trim_start();
        let rest = rest.strip_prefix('?').unwrap_or(rest).trim_start();
        let ty = rest
            .strip_prefix(':')
            .map(|x| x.split('=').next().unwrap_or("").trim())
            .map(annotated)
            .unwrap_or_default();
        if t.starts_with('{') {
            out.push((String::new(), names, ty));
        } else {
            out.push((names.into_iter().next().unwrap_or_default(), Vec::new(), ty));
        }
    }
    out
}

/// What one function does with each of its parameters.
fn function_sinks(
    code: &Code<'_>,
    outline: &Outline,
    names: &[String],
    list: Range<usize>,
    body: Range<usize>,
    out: &mut Vec<Sink>,
) {
    for (arg, (name, fields, ty)) in typed_params(code, list).into_iter().enumerate() {
        let mut u = Uses::default();
        for f in fields {
            u.read(f);
        }
        u.typed(ty);
        if !name.is_empty() {
            let bytes = code.text().as_bytes();
            for at in code.find_word_in(&name, body.clone()) {
                if member_dot(bytes, at) {
                    continue;
                }
                value_uses(code, outline, body.clone(), at..at + name.len(), 0, &mut u);
            }
        }
        if u.is_empty() {
            continue;
        }
        for n in names {
            out.push(Sink {
                func: n.clone(),
                arg,
                uses: u.clone(),
            });
        }
    }
}

/// The parameter list of a function declared from `start` whose body
/// starts at `body_start`: its first `(…)` before the body.
fn param_list(code: &Code<'_>, start: usize, body_start: usize) -> Option<Range<usize>> {
    let text = code.text();
    let k = text.get(start..body_start)?.find('(')? + start;
    let close = code.matching(k)?;
    (close < body_start).then_some(k + 1..close)
}

/// The sinks of every top-level function, class method and object-literal
/// method of a module, named as handlers are (`f`, `C.m`, `C#this.m`,
/// `obj.m`).
pub fn sinks(code: &Code<'_>, outline: &Outline) -> Vec<Sink> {
    let mut out = Vec::new();
    for s in &outline.scopes {
        match s.kind {
            ScopeKind::Function => {
                if let Some(list) = param_list(code, s.start, s.body.start) {
                    function_sinks(
                        code,
                        outline,
                        std::slice::from_ref(&s.name),
                        list,
                        s.body.clone(),
                        &mut out,
                    );
                }
            }
            ScopeKind::Class => {
                for m in methods(code, outline, s.body.clone()) {
                    let names = [
                        format!("{}.{}", s.name, m.name),
                        format!("{}#this.{}", s.name, m.name),
                    ];
                    function_sinks(code, outline, &names, m.params, m.body, &mut out);
                }
            }
        }
    }
    // `export default { async create(input) {…} }`, `const svc = {…}`.
    static OBJ: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let obj = OBJ.get_or_init(|| {
        crate::js::pattern::regex(
            r"(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*|\bmodule\.(exports)\s*=\s*|\bexport\s+(default)\s+)\{",
        ).unwrap_or_else(crate::js::pattern::never)
    });
    for c in obj.captures_iter(code.text()) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1).or(c.get(2)).or(c.get(3))) else {
            continue;
        };
        if !code.is_code(all.start()) || !outline.is_top(all.start()) {
            continue;
        }
        let name = outline.scoped(name.as_str(), all.start());
        for e in object_entries(code, all.end() - 1) {
            if let Some((params, body)) = e.function {
                let names = [format!("{name}.{}", e.key)];
                function_sinks(code, outline, &names, params, body, &mut out);
            }
        }
    }
    out
}

/// Resolves flows in `link`: sinks by (module, function, argument), DTOs by
/// module and name.
pub struct Flows<'a> {
    project: &'a Project<'a>,
    /// Function name → (module, argument, uses).
    sinks: HashMap<&'a str, Vec<(usize, usize, &'a Uses)>>,
    /// Type name → (module, declaration).
    dtos: HashMap<&'a str, Vec<(usize, &'a Dto)>>,
}

const MAX_DEPTH: usize = 4;

impl<'a> Flows<'a> {
    /// `sinks[m]` and `dtos[m]` of every module `m` of the project.
    pub fn new(project: &'a Project<'a>, sinks: Vec<&'a [Sink]>, dtos: Vec<&'a [Dto]>) -> Self {
        let mut s: HashMap<&str, Vec<(usize, usize, &Uses)>> = HashMap::new();
        for (m, list) in sinks.into_iter().enumerate() {
            for x in list {
                let v = s.entry(x.func.as_str()).or_default();
                if !v.iter().any(|(vm, va, _)| *vm == m && *va == x.arg) {
                    v.push((m, x.arg, &x.uses));
                }
            }
        }
        let mut d: HashMap<&str, Vec<(usize, &Dto)>> = HashMap::new();
        for (m, list) in dtos.into_iter().enumerate() {
            for x in list {
                let v = d.entry(x.name.as_str()).or_default();
                if !v.iter().any(|(vm, _)| *vm == m) {
                    v.push((m, x));
                }
            }
        }
        Flows {
            project,
            sinks: s,
            dtos: d,
        }
    }

    fn sink_at(&self, m: usize, name: &str, arg: usize) -> Option<&'a Uses> {
        self.sinks
            .get(name)?
            .iter()
            .find(|(vm, va, _)| *vm == m && *va == arg)
            .map(|(_, _, u)| *u)
    }

    fn dto_at(&self, m: usize, name: &str) -> Option<&'a Dto> {
        self.dtos
            .get(name)?
            .iter()
            .find(|(vm, _)| *vm == m)
            .map(|(_, d)| *d)
    }

    /// Parameters of kind `kind` a value with these uses in module `m`
    /// carries.
    pub fn params(&self, m: usize, kind: ParamKind, uses: &Uses) -> Vec<Param> {
        let mut names = Vec::new();
        let mut seen = HashSet::new();
        self.collect(m, uses, 0, &mut names, &mut seen);
        names.into_iter().map(|n| Param::new(kind, n)).collect()
    }

    fn collect(
        &self,
        m: usize,
        uses: &Uses,
        depth: usize,
        out: &mut Vec<String>,
        seen: &mut HashSet<(usize, String, usize)>,
    ) {
        let push = |n: &String, out: &mut Vec<String>| {
            if !out.contains(n) {
                out.push(n.clone());
            }
        };
        for r in &uses.reads {
            push(r, out);
        }
        for t in &uses.types {
            for f in self.fields(m, t, 0) {
                push(&f, out);
            }
        }
        if depth >= MAX_DEPTH {
            return;
        }
        for (callee, arg) in &uses.forwards {
            if let Some((fm, f, u)) = self.sink(m, callee, *arg) {
                if seen.insert((fm, f, *arg)) {
                    self.collect(fm, u, depth + 1, out, seen);
                }
            }
        }
    }

    /// The module and name of the sink a callee of module `m` denotes.
    fn sink(&self, m: usize, callee: &str, arg: usize) -> Option<(usize, String, &'a Uses)> {
        let found = |fm: usize, n: &str| self.sink_at(fm, n, arg).map(|u| (fm, n.to_string(), u));
        match self.project.resolve(m, &Value::Name(callee.to_string())) {
            Some(Target::Func(fm, f)) | Some(Target::Node(fm, f)) => {
                if let Some(x) = found(fm, &f) {
                    return Some(x);
                }
            }
            _ => {}
        }
        // `service.create` where `service` is a module whose default
        // export is an object of its functions.
        let (head, member) = callee.rsplit_once('.')?;
        let head = head.rsplit('#').next().unwrap_or(head);
        let fm = match self.project.resolve(m, &Value::Name(head.to_string())) {
            Some(Target::Module(fm)) => fm,
            Some(Target::Node(fm, _)) if fm != m => fm,
            _ => {
                let info = self.project.modules.get(m)?;
                let i = info.imports.iter().find(|i| i.local == head)?;
                self.project.resolve_spec(m, &i.spec)?
            }
        };
        found(fm, member)
    }

    /// Fields of the class or interface `name` seen from module `m`, its
    /// bases' first.
    pub fn fields(&self, m: usize, name: &str, depth: usize) -> Vec<String> {
        if depth > 8 {
            return Vec::new();
        }
        let Some((dm, dto)) = self.dto(m, name) else {
            return Vec::new();
        };
        let mut out: Vec<String> = Vec::new();
        for b in &dto.bases {
            for f in self.fields(dm, &b.name, depth + 1) {
                let keep = b.pick.as_ref().is_none_or(|p| p.contains(&f)) && !b.omit.contains(&f);
                if keep && !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        for f in &dto.fields {
            if !out.contains(f) {
                out.push(f.clone());
            }
        }
        out
    }

    fn dto(&self, m: usize, name: &str) -> Option<(usize, &'a Dto)> {
        if let Some(d) = self.dto_at(m, name) {
            return Some((m, d));
        }
        match self.project.resolve(m, &Value::Name(name.to_string())) {
            Some(Target::Class(fm, n)) | Some(Target::Node(fm, n)) => {
                if let Some(d) = self.dto_at(fm, &n) {
                    return Some((fm, d));
                }
            }
            _ => {}
        }
        let info = self.project.modules.get(m)?;
        if let Some(i) = info.imports.iter().find(|i| i.local == name) {
            if let (Some(fm), super::module::ImportKind::Named(n)) =
                (self.project.resolve_spec(m, &i.spec), &i.kind)
            {
                if let Some(d) = self.dto_at(fm, n) {
                    return Some((fm, d));
                }
            }
        }
        // A unique declaration of that name anywhere.
        match self.dtos.get(name).map(Vec::as_slice) {
            Some([(fm, d)]) => Some((*fm, *d)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn all_sinks(src: &str) -> Vec<Sink> {
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let o = Outline::new(&code);
        sinks(&code, &o)
    }

    #[test]
    fn sinks_of_services() {
        let s = all_sinks("const listItems = async (filter: Record<string, string>) => {\n  const page = Number(filter.page ?? 1);\n};\nconst updateItem = async (id: string, changes: Partial<IItemUpdate>) => {\n  return repo.update({ id }, changes);\n};\n");
        let got: Vec<_> = s
            .iter()
            .map(|x| (x.func.as_str(), x.arg, x.uses.clone()))
            .collect();
        assert_eq!(
            format!("{got:?}"),
            "[(\"listItems\", 0, Uses { reads: [\"page\"], types: [], forwards: [] }), (\"updateItem\", 1, Uses { reads: [], types: [\"IItemUpdate\"], forwards: [(\"repo.update\", 1)] })]"
        );
    }

    #[test]
    fn request_values() {
        let src = "async (req, res) => {\n  res.json(await svc.list({ ...req.query }));\n  const body = req.body;\n  body.a;\n  await svc.create(body, 1);\n  const e = new Entity();\n  Object.assign(e, strip(req.body));\n  ds.getRepository(Shelf).create(req.body);\n}";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        let o = Outline::new(&code);
        let (ps, fl) = request_flows(&code, &o, 0..src.len(), "req");
        assert_eq!(
            format!("{ps:?} {fl:?}"),
            "[Param { name: \"a\", value: \"\", kind: Json }] [Flow { kind: Query, uses: Uses { reads: [], types: [], forwards: [(\"svc.list\", 0)] } }, Flow { kind: Json, uses: Uses { reads: [], types: [\"Entity\", \"Shelf\"], forwards: [(\"svc.create\", 0)] } }]"
        );
    }
}
