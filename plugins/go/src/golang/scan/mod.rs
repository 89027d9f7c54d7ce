//! The map step for Go files: package clause, imports, package-level
//! string constants and router variables, struct types, and for every
//! function its route registrations, groups, mounts, calls passing routers,
//! returned routers and request reads. Driven by a [`Framework`].
//!
//! Function bodies are read as a flat sequence of *sites* (assignments,
//! calls, `return`s) in source order with a scoped environment of local
//! bindings (`v1 := r.Group("/v1")`, `base := "/api"`, parameters and
//! function-literal parameters of `r.Route("/x", func(r chi.Router) {…})`).

use std::collections::HashMap;
use std::ops::Range;

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};

use super::facts::{
    Assign, Bind, Call, Fact, Field, Func, FuncRef, GoFile, Handler, Import, Mount, Origin, RVal,
    Reads, Route, Struct, TypeRef,
};
use super::framework::{Framework, ReadArg, ReadKind, Shape};
use super::strexpr::{Piece, StrExpr};
use super::syntax::{
    as_func_literal, bytes, chain_start, compact, func_literals, ident_here, is_ident_start,
    is_keyword, parse_params, prev_non_ws, signature_at, skip_ws, statement_end, trim, Signature,
};
use portolan_plugin_sdk::lex::is_ident_byte;

mod reads;
mod types;

use types::*;
pub use types::{param_type_ref, parse_tag, struct_fields, type_name};

/// Scan a `go.mod`: its module path.
pub fn scan_gomod(file: &SourceFile) -> Option<Fact> {
    let code = file.code(Syntax::GO);
    for line in code.text().lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("module") {
            let module = rest.trim().trim_matches('"').trim();
            if !module.is_empty() && rest.starts_with(char::is_whitespace) {
                return Some(Fact::Mod {
                    dir: dir_of(&file.slash_path()),
                    module: module.to_string(),
                });
            }
        }
    }
    None
}

/// The directory part of a `/`-separated path (`""` for a bare name).
pub fn dir_of(path: &str) -> String {
    path.rsplit_once('/')
        .map(|(d, _)| d.to_string())
        .unwrap_or_default()
}

/// Scan one Go source file.
pub fn scan_file(file: &SourceFile, fw: &Framework) -> GoFile {
    let code = file.code(Syntax::GO);
    let path = file.slash_path();
    let mut out = GoFile {
        path: file.path.clone(),
        dir: dir_of(&path),
        ..GoFile::default()
    };
    let mut s = Scanner {
        code: &code,
        file,
        fw,
        imports: Vec::new(),
        hints: Vec::new(),
        foreign_params: Vec::new(),
        receiver: None,
        range_loops: Vec::new(),
    };
    s.top_level(&mut out);
    out.imports = s.imports;
    out.func_slices = func_slices(&code);
    out
}

/// A function named as a value: `register`, `routes.Register`.
fn func_value(text: &str) -> Option<FuncRef> {
    let text = text.trim().trim_end_matches("...").trim();
    if text.is_empty()
        || !text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        || !text.bytes().all(|c| is_ident_byte(c) || c == b'.')
        || text.matches('.').count() > 1
    {
        return None;
    }
    let (qual, name) = match text.rsplit_once('.') {
        Some((q, n)) => (Some(q.to_string()), n.to_string()),
        None => (None, text.to_string()),
    };
    if is_keyword(&name) || name == "nil" {
        return None;
    }
    Some(FuncRef {
        qual,
        name,
        hint: None,
    })
}

/// Slices of functions a package fills for a later `for _, f := range s
/// { f(router) }`: `s = append(s, registerA, registerB)` (usually in
/// `init`) and `var s = []func(…){registerA, registerB}`.
fn func_slices(code: &Code<'_>) -> Vec<(String, Vec<FuncRef>)> {
    let b = bytes(code);
    let mut out: Vec<(String, Vec<FuncRef>)> = Vec::new();
    let mut add = |name: &str, refs: Vec<FuncRef>| {
        if refs.is_empty() {
            return;
        }
        match out.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => v.extend(refs),
            None => out.push((name.to_string(), refs)),
        }
    };
    for at in code.find_word("append") {
        let open = code.skip_ws(at + "append".len());
        if b.get(open) != Some(&b'(') {
            continue;
        }
        // `s = append(s, …)`.
        let Some(eq) = prev_non_ws(code, at) else {
            continue;
        };
        if b.get(eq) != Some(&b'=') || eq == 0 || matches!(b[eq - 1], b'=' | b'!' | b'<' | b'>') {
            continue;
        }
        let lhs_end = if b[eq - 1] == b':' { eq - 1 } else { eq };
        let Some(target) = code.ident_before(lhs_end) else {
            continue;
        };
        let args = code.args(open);
        if args.first().map(|a| code.slice(a.clone()).trim()) != Some(target) {
            continue;
        }
        let refs: Vec<FuncRef> = args[1..]
            .iter()
            .filter_map(|a| func_value(code.slice(a.clone())))
            .collect();
        add(target, refs);
    }
    for at in code.find_all("[]func(") {
        let Some(eq) = prev_non_ws(code, at) else {
            continue;
        };
        if b.get(eq) != Some(&b'=') || eq == 0 {
            continue;
        }
        let lhs_end = if b[eq - 1] == b':' { eq - 1 } else { eq };
        let Some(target) = code.ident_before(lhs_end) else {
            continue;
        };
        let Some(close) = code.matching(at + "[]func".len()) else {
            continue;
        };
        // The element list: the first `{` after the signature, on the
        // same statement.
        let mut i = close + 1;
        while i < b.len() && !matches!(b[i], b'{' | b'\n' | b';') {
            i += 1;
        }
        if b.get(i) != Some(&b'{') {
            continue;
        }
        let refs: Vec<FuncRef> = code
            .args(i)
            .iter()
            .filter_map(|a| func_value(code.slice(a.clone())))
            .collect();
        add(target, refs);
    }
    out
}

/// `for _, f := range s {`: the loop variable, the ranged expression and
/// the loop body, for every such loop in `body`.
fn range_loops(code: &Code<'_>, body: Range<usize>) -> Vec<(String, String, Range<usize>)> {
    let b = bytes(code);
    let mut out = Vec::new();
    for at in code.find_word_in("range", body.clone()) {
        let Some(assign) = prev_non_ws(code, at) else {
            continue;
        };
        if b.get(assign) != Some(&b'=') || assign == 0 {
            continue;
        }
        let lhs_end = if b[assign - 1] == b':' {
            assign - 1
        } else {
            assign
        };
        let Some(var) = code.ident_before(lhs_end) else {
            continue;
        };
        let start = code.skip_ws(at + "range".len());
        let mut end = start;
        while end < body.end && (is_ident_byte(b[end]) || b[end] == b'.') {
            end += 1;
        }
        let open = code.skip_ws(end);
        if end == start || b.get(open) != Some(&b'{') {
            continue;
        }
        let Some(close) = code.matching(open) else {
            continue;
        };
        out.push((
            var.to_string(),
            code.slice(start..end).to_string(),
            open..close,
        ));
    }
    out
}

/// What the handler expression at `r` reads: a function literal's reads,
/// or the named functions it refers to (for framework modules that find
/// their own registrations, such as Beego namespaces).
pub fn handler_in(
    code: &Code<'_>,
    file: &SourceFile,
    fw: &Framework,
    r: Range<usize>,
) -> Option<Handler> {
    let s = Scanner {
        code,
        file,
        fw,
        imports: Vec::new(),
        hints: Vec::new(),
        foreign_params: Vec::new(),
        receiver: None,
        range_loops: Vec::new(),
    };
    s.handler_of(r, 0)
}

struct Scanner<'a, 'c> {
    code: &'a Code<'c>,
    file: &'a SourceFile,
    fw: &'a Framework,
    imports: Vec<Import>,
    /// Variable → type name hints of the function being scanned.
    hints: Vec<(String, String)>,
    /// Parameters of the function being scanned whose declared type is
    /// not the framework's (`questions *router.QuestionRouter`): a method
    /// called on them is the application's, and may receive routers.
    foreign_params: Vec<String>,
    /// Receiver (name, type) of the method being scanned.
    receiver: Option<(String, String)>,
    /// `for _, f := range s { … }` loops of the function being scanned.
    range_loops: Vec<(String, String, Range<usize>)>,
}

/// Modules of Go web frameworks whose routers the analyzers of the others
/// must not read as their own.
const ROUTER_MODULES: &[&str] = &[
    "github.com/gorilla/mux",
    "github.com/go-chi/chi",
    "github.com/gin-gonic/gin",
    "github.com/labstack/echo",
    "github.com/gofiber/fiber",
    "github.com/julienschmidt/httprouter",
    "github.com/cloudwego/hertz",
    "github.com/kataras/iris",
    "github.com/beego/beego",
    "github.com/astaxie/beego",
    "github.com/danielgtaylor/huma",
    "github.com/emicklei/go-restful",
    "github.com/zeromicro/go-zero",
    "github.com/gogf/gf",
    "github.com/go-kratos/kratos",
];

/// Calls of one local closure followed (each runs its routes again).
const MAX_CLOSURE_CALLS: usize = 4;

/// A local binding in a function body.
#[derive(Clone, Debug)]
enum Val {
    Router(RVal),
    Str(StrExpr),
    /// A request context (`c *gin.Context`, `r *http.Request`).
    Ctx,
    /// Anything else: shadows outer bindings of the same name.
    Opaque,
    /// A router of another web framework (`r := mux.NewRouter()` seen by
    /// the net/http analyzer): routes on it are not this analyzer's.
    Foreign,
}

#[derive(Clone, Debug)]
struct Binding {
    val: Val,
    from: usize,
    until: usize,
}

/// The local bindings of one function body. Lookups are indexed: the
/// names bound by statements (few per name) in a per-name list, and the
/// parameters of the body's function literals (every handler closure binds
/// its `c` or `w, r`: thousands in a big route table) in a tree of the
/// literals' bodies, so a lookup costs the nesting depth, not the number
/// of closures.
#[derive(Default)]
struct Env {
    bindings: Vec<Binding>,
    by_name: HashMap<String, Vec<usize>>,
    /// Function literals by body start; see [`Env::bind_literals`].
    lits: Vec<LitScope>,
}

/// A function literal's body (opening and closing brace) and parameters.
type LitParams = (usize, usize, Vec<(String, Val)>);

struct LitScope {
    open: usize,
    close: usize,
    /// The nearest literal before this one whose body contains its start.
    parent: Option<usize>,
    params: Vec<(String, Val)>,
}

impl Env {
    /// The binding of `name` at `pos` with the latest start; on a tie a
    /// statement's binding wins over a literal's parameter (it was bound
    /// later), as does a later statement over an earlier one.
    fn lookup(&self, name: &str, pos: usize) -> Option<&Val> {
        self.find(name, pos).map(|(v, _)| v)
    }

    fn find(&self, name: &str, pos: usize) -> Option<(&Val, usize)> {
        let stmt = self.by_name.get(name).and_then(|ids| {
            ids.iter()
                .filter_map(|&i| self.bindings.get(i))
                .filter(|b| b.from <= pos && pos <= b.until)
                .max_by_key(|b| b.from)
        });
        let lit = self.literal_param(name, pos);
        match (stmt, lit) {
            (Some(b), Some((from, v, until))) if from > b.from => Some((v, until)),
            (Some(b), _) => Some((&b.val, b.until)),
            (None, Some((_, v, until))) => Some((v, until)),
            (None, None) => None,
        }
    }

    /// The innermost function literal around `pos` that has a parameter
    /// `name`: (its body start, the value, its body end).
    fn literal_param(&self, name: &str, pos: usize) -> Option<(usize, &Val, usize)> {
        let mut at = self.lits.partition_point(|l| l.open <= pos).checked_sub(1);
        // Literals before `pos` that end before it are siblings: the
        // parent links skip them (every literal between a scope and its
        // parent ends before the scope starts).
        while let Some(i) = at {
            let l = self.lits.get(i)?;
            if pos <= l.close {
                if let Some((_, v)) = l.params.iter().rev().find(|(n, _)| n == name) {
                    return Some((l.open, v, l.close));
                }
            }
            at = l.parent;
        }
        None
    }

    /// Bind the parameters of the body's function literals (each from its
    /// body's opening to its closing brace).
    fn bind_literals(&mut self, mut lits: Vec<LitParams>) {
        lits.sort_by_key(|l| l.0);
        // Parent: the latest earlier literal still open at this one's start
        // (a stack of open literals, popped as they close).
        let mut open: Vec<usize> = Vec::new();
        for (i, (o, c, params)) in lits.into_iter().enumerate() {
            while open
                .last()
                .and_then(|&j| self.lits.get(j))
                .is_some_and(|l| l.close < o)
            {
                open.pop();
            }
            let parent = open.last().copied();
            let params = params
                .into_iter()
                .filter(|(n, _)| n != "_" && !n.is_empty())
                .collect();
            self.lits.push(LitScope {
                open: o,
                close: c,
                parent,
                params,
            });
            open.push(i);
        }
    }

    /// The router bound to `name` at `pos` carries `guards` from `pos` on.
    fn add_guards(&mut self, name: &str, pos: usize, guards: Vec<FuncRef>) {
        let Some((Val::Router(rv), until)) = self.find(name, pos) else {
            return;
        };
        let val = Val::Router(RVal {
            guards,
            ..rv.clone()
        });
        self.bind(name, val, pos, until);
    }

    fn bind(&mut self, name: &str, val: Val, from: usize, until: usize) {
        if name == "_" || name.is_empty() {
            return;
        }
        self.by_name
            .entry(name.to_string())
            .or_default()
            .push(self.bindings.len());
        self.bindings.push(Binding { val, from, until });
    }
}

#[derive(Clone)]
enum SiteKind {
    Assign {
        lhs: Vec<String>,
        define: bool,
        rhs: Range<usize>,
    },
    Call {
        open: usize,
    },
    Return {
        expr: Range<usize>,
    },
}

impl<'a, 'c> Scanner<'a, 'c> {
    fn text(&self) -> &'a str {
        self.code.text()
    }

    /// `name` is an imported web framework package other than this
    /// analyzer's own (by its constructors and context types).
    fn foreign_framework(&self, name: &str) -> bool {
        let own_name = |n: &str| {
            self.fw
                .constructors
                .iter()
                .chain(self.fw.context_types)
                .any(|c| c.trim_start_matches('*').split('.').next() == Some(n))
        };
        let module_of = |path: &str| {
            ROUTER_MODULES
                .iter()
                .find(|m| path == **m || path.starts_with(&format!("{m}/")))
                .copied()
        };
        let Some(import) = self
            .imports
            .iter()
            .find(|i| i.alias.as_deref().unwrap_or(&i.default_name()) == name)
        else {
            return false;
        };
        let Some(module) = module_of(&import.path) else {
            return false;
        };
        // The module of one of this framework's own packages is not foreign.
        !self.imports.iter().any(|i| {
            own_name(i.alias.as_deref().unwrap_or(&i.default_name()))
                && module_of(&i.path) == Some(module)
        })
    }

    fn is_package(&self, name: &str) -> bool {
        self.imports
            .iter()
            .any(|i| i.alias.as_deref().unwrap_or(&i.default_name()) == name)
    }

    // ------------------------------------------------------------ top level

    fn top_level(&mut self, out: &mut GoFile) {
        let b = bytes(self.code);
        let mut i = 0;
        let mut line_start = true;
        while i < b.len() {
            let c = b[i];
            if c == b'\n' {
                line_start = true;
                i += 1;
                continue;
            }
            if c == b' ' || c == b'\t' || c == b'\r' || !self.code.is_code(i) {
                if !self.code.is_code(i) && !self.code.is_comment(i) {
                    line_start = false;
                }
                i += 1;
                continue;
            }
            if !line_start {
                // Skip bracketed groups we are not interested in.
                if matches!(c, b'(' | b'[' | b'{') {
                    i = self.code.matching(i).map_or(i + 1, |e| e + 1);
                } else {
                    i += 1;
                }
                continue;
            }
            line_start = false;
            let Some((word, end)) = ident_here(self.code, i) else {
                i += 1;
                continue;
            };
            i = match word {
                "package" => {
                    if let Some((name, e)) = ident_here(self.code, skip_ws(self.code, end)) {
                        out.package = name.to_string();
                        e
                    } else {
                        end
                    }
                }
                "import" => self.imports_at(end),
                "func" => self.func_decl(i, end, out),
                "const" | "var" => self.value_decls(end, word == "var", out),
                "type" => self.type_decls(end, out),
                _ => end,
            };
        }
    }

    fn imports_at(&mut self, after: usize) -> usize {
        let b = bytes(self.code);
        let start = skip_ws(self.code, after);
        let (range, next) = if b.get(start) == Some(&b'(') {
            let close = self.code.matching(start).unwrap_or(b.len());
            (start + 1..close, close + 1)
        } else {
            let end = statement_end(self.code, start, b.len());
            (start..end, end)
        };
        for line in self.code.split_top_level(range.start, range.end, b'\n') {
            for spec in self.code.split_top_level(line.start, line.end, b';') {
                let lit_at = self.code.text()[spec.clone()]
                    .find(['"', '`'])
                    .map(|p| spec.start + p);
                let Some(lit_at) = lit_at else { continue };
                let Some(lit) = self.code.string_at(lit_at) else {
                    continue;
                };
                let alias = self.code.slice(spec.start..lit_at).trim().to_string();
                self.imports.push(Import {
                    alias: (!alias.is_empty()).then_some(alias),
                    path: lit.value,
                });
            }
        }
        next.min(b.len())
    }

    /// `func (recv) Name[T any](params) results { body }` at `at`.
    fn func_decl(&mut self, at: usize, after_kw: usize, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let mut i = skip_ws(self.code, after_kw);
        let mut recv = None;
        let mut recv_name = None;
        if b.get(i) == Some(&b'(') {
            let Some(close) = self.code.matching(i) else {
                return after_kw;
            };
            let params = parse_params(self.code, i + 1, close);
            if let Some((name, ty)) = params.first() {
                recv = Some(type_name(ty).1);
                recv_name = Some(name.clone());
            }
            i = skip_ws(self.code, close + 1);
        }
        let Some((name, end)) = ident_here(self.code, i) else {
            return after_kw;
        };
        let name = name.to_string();
        let mut open = skip_ws(self.code, end);
        if b.get(open) == Some(&b'[') {
            match self.code.matching(open) {
                Some(close) => open = skip_ws(self.code, close + 1),
                None => return end,
            }
        }
        let Some(sig) = signature_at(self.code, open) else {
            return end;
        };
        let _ = at;
        let mut func = Func {
            name,
            recv: recv.clone(),
            ..Func::default()
        };
        let mut receiver_binding = None;
        if let (Some(n), Some(t)) = (recv_name, recv) {
            if !n.is_empty() {
                receiver_binding = Some((n, t));
            }
        }
        self.body(&sig, receiver_binding, &mut func);
        out.funcs.push(func);
        sig.body_close + 1
    }

    /// Function literals in a package-level initializer (GoFrame's
    /// `var Main = gcmd.Command{Func: func(ctx …) error { s := g.Server() … }}`)
    /// are scanned as functions of their own.
    fn var_literals(&mut self, var: &str, value: Range<usize>, out: &mut GoFile) {
        let lits = func_literals(self.code, value);
        for (i, (at, sig)) in lits.iter().enumerate() {
            let nested = lits
                .iter()
                .any(|(o, l)| o != at && l.body_open < *at && *at < l.body_close);
            if nested {
                continue;
            }
            let mut func = Func {
                name: format!("{var}$func{i}"),
                ..Func::default()
            };
            self.body(sig, None, &mut func);
            out.funcs.push(func);
        }
    }

    /// `const X = …`, `var ( … )`: string constants and router variables.
    fn value_decls(&mut self, after_kw: usize, is_var: bool, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let start = skip_ws(self.code, after_kw);
        let (specs, next) = if b.get(start) == Some(&b'(') {
            let close = self.code.matching(start).unwrap_or(b.len());
            (
                self.code.split_top_level(start + 1, close, b'\n'),
                close + 1,
            )
        } else {
            let end = statement_end(self.code, start, b.len());
            (std::iter::once(start..end).collect::<Vec<_>>(), end)
        };
        let env = Env::default();
        for spec in specs {
            for spec in self.code.split_top_level(spec.start, spec.end, b';') {
                let Some(eq) = find_assign_op(self.code, spec.clone()) else {
                    continue;
                };
                let names: Vec<String> = self
                    .code
                    .split_top_level(spec.start, eq, b',')
                    .into_iter()
                    .filter_map(|r| ident_here(self.code, r.start).map(|(n, _)| n.to_string()))
                    .collect();
                let values = self.code.split_top_level(eq + 1, spec.end, b',');
                if names.len() != values.len() {
                    continue;
                }
                for (name, value) in names.iter().zip(values) {
                    if is_var {
                        if let Some(h) = self.var_hint(value.clone()) {
                            out.var_hints.push((name.clone(), h));
                        }
                    }
                    if let Some(e) = StrExpr::parse(self.code, value.clone()) {
                        out.consts.push((name.clone(), e));
                    } else if is_var {
                        if let Some(val) = self.eval(&env, value.clone(), value.start, 0) {
                            out.globals.push(Assign {
                                target: Origin::Global(None, name.clone()),
                                val,
                            });
                        } else {
                            self.var_literals(name, value.clone(), out);
                        }
                    }
                }
            }
        }
        next.min(b.len())
    }

    /// The type of a package-level variable's value, as a method hint:
    /// `new(pkg.T)` / `&T{}` (`pkg:T` / `T`), or a selector chain ending in
    /// an exported field (`api.Groups.System.UserApi` → `UserApi`, the
    /// type's name when the field is embedded, the usual way Go apps
    /// group their handler structs).
    fn var_hint(&self, value: Range<usize>) -> Option<String> {
        if let Some(TypeRef::Named { qual, name }) = composite_type(self.code, value.clone()) {
            return Some(match qual {
                Some(q) => format!("{q}:{name}"),
                None => name,
            });
        }
        let text = self.code.slice(trim(self.code, value));
        let (head, last) = text.rsplit_once('.')?;
        let chain_ok = text.bytes().all(|b| is_ident_byte(b) || b == b'.');
        if !chain_ok || !head.contains('.') || !last.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        Some(last.to_string())
    }

    /// `type X struct { … }` (also inside `type ( … )`).
    fn type_decls(&mut self, after_kw: usize, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let start = skip_ws(self.code, after_kw);
        if b.get(start) == Some(&b'(') {
            let close = self.code.matching(start).unwrap_or(b.len());
            let mut i = start + 1;
            while i < close {
                i = skip_ws(self.code, i);
                if i >= close {
                    break;
                }
                i = self.type_spec(i, out).max(i + 1);
            }
            return (close + 1).min(b.len());
        }
        self.type_spec(start, out)
    }

    fn type_spec(&mut self, at: usize, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let Some((name, end)) = ident_here(self.code, at) else {
            return statement_end(self.code, at, b.len());
        };
        let mut i = skip_ws(self.code, end);
        if b.get(i) == Some(&b'[') {
            if let Some(c) = self.code.matching(i) {
                i = skip_ws(self.code, c + 1);
            }
        }
        if let Some((kw, kw_end)) = ident_here(self.code, i) {
            if kw == "struct" {
                let open = skip_ws(self.code, kw_end);
                if b.get(open) == Some(&b'{') {
                    if let Some(close) = self.code.matching(open) {
                        out.structs.push(Struct {
                            name: name.to_string(),
                            line: self.file.line_of(at),
                            fields: struct_fields(self.code, open, close),
                        });
                        return close + 1;
                    }
                }
            }
        }
        statement_end(self.code, i, b.len())
    }

    // ------------------------------------------------------------ bodies

    fn body(&mut self, sig: &Signature, receiver: Option<(String, String)>, func: &mut Func) {
        let body = sig.body_open..sig.body_close + 1;
        let mut env = Env::default();
        let mut hints: Vec<(String, String)> = Vec::new();
        if let Some((n, t)) = &receiver {
            env.bind(n, Val::Opaque, body.start, body.end);
            hints.push((n.clone(), t.clone()));
        }
        self.receiver = receiver.clone();
        self.foreign_params.clear();
        for (idx, (name, ty)) in sig.params.iter().enumerate() {
            if !self.is_framework_type(ty) {
                self.foreign_params.push(name.clone());
            }
            let val = if self.fw.is_context_type(ty) {
                Val::Ctx
            } else if is_string_type(ty) {
                Val::Str(StrExpr(vec![Piece::Ref(name.clone())]))
            } else {
                Val::Router(RVal {
                    origin: Origin::Param(idx),
                    prefix: StrExpr::default(),
                    guards: Vec::new(),
                })
            };
            env.bind(name, val, body.start, body.end);
            hints.push((name.clone(), type_name(ty).1));
        }
        let literals = func_literals(self.code, body.clone());
        // Parameters of function literals: contexts shadow outer names.
        env.bind_literals(
            literals
                .iter()
                .map(|(_, lit)| {
                    let params = lit
                        .params
                        .iter()
                        .map(|(name, ty)| {
                            let val = if self.fw.is_context_type(ty) {
                                Val::Ctx
                            } else {
                                Val::Opaque
                            };
                            (name.clone(), val)
                        })
                        .collect();
                    (lit.body_open, lit.body_close, params)
                })
                .collect(),
        );
        hints.extend(var_hints(self.code, body.clone()));
        self.hints = hints.clone();
        self.range_loops = range_loops(self.code, body.clone());
        let blocks = blocks(self.code, body.clone());
        let mut sites = self.sites(body.clone(), &literals);
        sites.sort_by_key(|(pos, _)| *pos);
        // Local closures called later with routers (`register := func(r
        // fiber.Router) {…}` … `register(g)`): their sites run at each call,
        // with the parameters bound to the arguments.
        let closures = self.local_closures(body.clone(), &literals);
        let mut deferred: Vec<Vec<(usize, SiteKind)>> = vec![Vec::new(); closures.len()];
        let mut main = Vec::with_capacity(sites.len());
        for (pos, site) in sites {
            match closures
                .iter()
                .position(|(sig, _)| sig.body_open < pos && pos < sig.body_close)
            {
                Some(ci) => deferred[ci].push((pos, site)),
                None => main.push((pos, site)),
            }
        }
        for (pos, site) in main {
            let call_open = match &site {
                SiteKind::Call { open } => Some(*open),
                _ => None,
            };
            self.run_site(&mut env, &hints, &blocks, pos, site.clone(), func);
            let Some(open) = call_open else { continue };
            for (ci, (sig, calls)) in closures.iter().enumerate() {
                if !calls.contains(&open) {
                    continue;
                }
                let args = self.code.args(open);
                for ((pname, _), a) in sig.params.iter().zip(&args) {
                    if let Some(v) = self.eval(&env, a.clone(), open, 0) {
                        env.bind(pname, Val::Router(v), sig.body_open, sig.body_close);
                    }
                }
                for (p, s) in &deferred[ci] {
                    self.run_site(&mut env, &hints, &blocks, *p, s.clone(), func);
                }
            }
        }
        // A closure never called is scanned where it stands.
        for (ci, (_, calls)) in closures.iter().enumerate() {
            if calls.is_empty() {
                for (p, s) in std::mem::take(&mut deferred[ci]) {
                    self.run_site(&mut env, &hints, &blocks, p, s, func);
                }
            }
        }
        func.reads = self.reads(body, &hints);
    }

    fn run_site(
        &mut self,
        env: &mut Env,
        hints: &[(String, String)],
        blocks: &[(usize, usize)],
        pos: usize,
        site: SiteKind,
        func: &mut Func,
    ) {
        match site {
            SiteKind::Assign { lhs, define, rhs } => {
                self.assign(env, blocks, &lhs, define, rhs, pos, func);
            }
            SiteKind::Call { open } => {
                self.call(env, hints, open, func);
            }
            SiteKind::Return { expr } => {
                if let Some(v) = self.eval(env, expr.clone(), pos, 0) {
                    func.returns.push(v);
                } else {
                    self.composite_fields(env, expr, pos, func);
                }
            }
        }
    }

    /// Function literals bound to a local name (`name := func(…) {…}`)
    /// with the `(` of every later call `name(…)` in `body` (at most
    /// [`MAX_CLOSURE_CALLS`]); only literals taking a parameter of a
    /// non-context type qualify.
    fn local_closures(
        &self,
        body: Range<usize>,
        literals: &[(usize, Signature)],
    ) -> Vec<(Signature, Vec<usize>)> {
        let b = bytes(self.code);
        let mut out: Vec<(Signature, Vec<usize>)> = Vec::new();
        for (at, sig) in literals {
            if out
                .iter()
                .any(|(o, _)| o.body_open < *at && *at < o.body_close)
            {
                continue;
            }
            if sig.params.is_empty() || sig.params.iter().any(|(_, t)| self.fw.is_context_type(t)) {
                continue;
            }
            let Some(eq) = prev_non_ws(self.code, *at) else {
                continue;
            };
            if b[eq] != b'=' || eq == 0 || !matches!(b[eq - 1], b':' | b' ' | b'\t') {
                continue;
            }
            let before = if b[eq - 1] == b':' { eq - 1 } else { eq };
            let Some(end) = prev_non_ws(self.code, before) else {
                continue;
            };
            if !is_ident_byte(b[end]) {
                continue;
            }
            let mut start = end;
            while start > 0 && is_ident_byte(b[start - 1]) {
                start -= 1;
            }
            let name = &self.text()[start..=end];
            if is_keyword(name) {
                continue;
            }
            let calls: Vec<usize> = self
                .code
                .find_word_in(name, sig.body_close..body.end)
                .filter(|&i| i == 0 || b[i - 1] != b'.')
                .filter_map(|i| {
                    let open = skip_ws(self.code, i + name.len());
                    (b.get(open) == Some(&b'(')).then_some(open)
                })
                .take(MAX_CLOSURE_CALLS)
                .collect();
            out.push((sig.clone(), calls));
        }
        out
    }

    fn sites(&self, body: Range<usize>, literals: &[(usize, Signature)]) -> Vec<(usize, SiteKind)> {
        let b = bytes(self.code);
        let mut out = Vec::new();
        let inner = body.start + 1..body.end.saturating_sub(1);
        let mut i = inner.start;
        while i < inner.end {
            if !self.code.is_code(i) {
                i += 1;
                continue;
            }
            let c = b[i];
            if c == b'(' {
                if let Some(p) = prev_non_ws(self.code, i) {
                    if is_ident_byte(b[p]) && p >= inner.start {
                        let mut s = p;
                        while s > 0 && is_ident_byte(b[s - 1]) {
                            s -= 1;
                        }
                        if !is_keyword(&self.text()[s..=p]) {
                            out.push((i, SiteKind::Call { open: i }));
                        }
                    }
                }
            } else if c == b'=' || (c == b':' && b.get(i + 1) == Some(&b'=')) {
                if let Some((site_pos, site)) = self.assignment_at(i, inner.clone()) {
                    out.push((site_pos, site));
                }
                if c == b':' {
                    i += 2;
                    continue;
                }
            } else if is_ident_start(c) && (i == 0 || !is_ident_byte(b[i - 1])) {
                if let Some((w, end)) = ident_here(self.code, i) {
                    if w == "return" {
                        // Only returns of the function itself, not of a
                        // function literal inside it.
                        let nested = literals
                            .iter()
                            .any(|(_, l)| l.body_open < i && i < l.body_close);
                        if !nested {
                            let e = statement_end(self.code, end, inner.end);
                            let first = self.code.split_top_level(end, e, b',').into_iter().next();
                            if let Some(expr) = first {
                                out.push((i, SiteKind::Return { expr }));
                            }
                        }
                    }
                    i = end;
                    continue;
                }
            }
            i += 1;
        }
        out
    }

    /// An assignment whose operator (`=` or `:=`) is at `op`.
    fn assignment_at(&self, op: usize, inner: Range<usize>) -> Option<(usize, SiteKind)> {
        let b = bytes(self.code);
        let define = b[op] == b':';
        if !define {
            // Not `==`, `!=`, `<=`, `>=`, `+=`…
            let prev = op.checked_sub(1).map(|p| b[p]).unwrap_or(b' ');
            if b.get(op + 1) == Some(&b'=')
                || matches!(
                    prev,
                    b'=' | b'!'
                        | b'<'
                        | b'>'
                        | b'+'
                        | b'-'
                        | b'*'
                        | b'/'
                        | b'%'
                        | b'&'
                        | b'|'
                        | b'^'
                        | b':'
                )
            {
                return None;
            }
        }
        let op_len = if define { 2 } else { 1 };
        // The left-hand side: back to the line start, `;` or `{`.
        let mut s = op;
        while s > inner.start {
            let c = b[s - 1];
            if (c == b'\n' || c == b';' || c == b'{' || c == b'(') && self.code.is_code(s - 1) {
                break;
            }
            s -= 1;
        }
        let mut lhs_text = self.code.slice(s..op).trim();
        for kw in ["var ", "if ", "for ", "switch ", "else if "] {
            if let Some(rest) = lhs_text.strip_prefix(kw) {
                lhs_text = rest.trim();
            }
        }
        let mut lhs = Vec::new();
        for part in lhs_text.split(',') {
            let part = part.trim();
            // `var x T = …`: the name is the first word.
            let name = part.split_whitespace().next().unwrap_or("");
            if name.is_empty()
                || !name.bytes().all(|c| is_ident_byte(c) || c == b'.')
                || !name.bytes().next().is_some_and(is_ident_start)
            {
                return None;
            }
            lhs.push(name.to_string());
        }
        let rhs_start = op + op_len;
        let rhs_end = statement_end(self.code, rhs_start, inner.end);
        let rhs = trim(self.code, rhs_start..rhs_end);
        if self.code.slice(rhs.clone()).starts_with("range ") {
            return None;
        }
        Some((rhs.end, SiteKind::Assign { lhs, define, rhs }))
    }

    #[allow(clippy::too_many_arguments)]
    fn assign(
        &mut self,
        env: &mut Env,
        blocks: &[(usize, usize)],
        lhs: &[String],
        define: bool,
        rhs: Range<usize>,
        pos: usize,
        func: &mut Func,
    ) {
        let values = self.code.split_top_level(rhs.start, rhs.end, b',');
        let until = enclosing_block(blocks, pos).unwrap_or(usize::MAX);
        for (k, name) in lhs.iter().enumerate() {
            let value = if values.len() == lhs.len() {
                values.get(k).cloned()
            } else if k == 0 && values.len() == 1 {
                values.first().cloned()
            } else {
                None
            };
            let val = match value.clone() {
                Some(v) => self.value_of(env, v, pos),
                None => Val::Opaque,
            };
            if let Some((_, field)) = name.rsplit_once('.') {
                if let Val::Router(rv) = &val {
                    func.assigns.push(Assign {
                        target: Origin::Field(field.to_string()),
                        val: rv.clone(),
                    });
                }
                continue;
            }
            if !define && env.lookup(name, pos).is_none() {
                if let Val::Router(rv) = &val {
                    func.assigns.push(Assign {
                        target: Origin::Global(None, name.clone()),
                        val: rv.clone(),
                    });
                }
            }
            if let (Val::Opaque, Some(v)) = (&val, value) {
                self.composite_fields(env, v, pos, func);
            }
            env.bind(name, val, pos, until);
        }
    }

    /// `&Server{router: r}` / `App{Router: api}`: router values stored in
    /// struct fields.
    fn composite_fields(&self, env: &Env, r: Range<usize>, pos: usize, func: &mut Func) {
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        let Some(brace) = text.find('{') else { return };
        let head = text[..brace].trim().trim_start_matches('&');
        if head.is_empty() || !head.bytes().all(|c| is_ident_byte(c) || c == b'.') {
            return;
        }
        let open = r.start + brace;
        for arg in self.code.args(open) {
            if let Some((key, value)) = self.code.keyword_arg(arg) {
                if let Some(val) = self.eval(env, value, pos, 0) {
                    if matches!(val.origin, Origin::Global(None, ref n) if n == key) {
                        // `{router: router}` with an unknown name: nothing.
                        continue;
                    }
                    func.assigns.push(Assign {
                        target: Origin::Field(key.to_string()),
                        val,
                    });
                }
            }
        }
    }

    fn value_of(&self, env: &Env, r: Range<usize>, pos: usize) -> Val {
        if let Some(e) = StrExpr::parse(self.code, r.clone()) {
            // A lone name may be a router: prefer the environment.
            if let Some(name) = e.as_ref_name() {
                if let Some(v) = env.lookup(name, pos) {
                    return v.clone();
                }
                if !name.contains('.') {
                    if let Some(v) = self.eval(env, r.clone(), pos, 0) {
                        return Val::Router(v);
                    }
                }
            } else {
                return Val::Str(self.local_str(env, &e, pos));
            }
        }
        match self.eval(env, r.clone(), pos, 0) {
            Some(v) => Val::Router(v),
            None if self.foreign_root(env, r, pos) => Val::Foreign,
            None => Val::Opaque,
        }
    }

    /// The expression starts from another web framework's package
    /// (`mux.NewRouter()`) or a value made by one.
    fn foreign_root(&self, env: &Env, r: Range<usize>, pos: usize) -> bool {
        let mut r = trim(self.code, r);
        let b = bytes(self.code);
        while matches!(b.get(r.start), Some(b'&' | b'*')) {
            r = trim(self.code, r.start + 1..r.end);
        }
        let Some((first, _)) = ident_here(self.code, r.start) else {
            return false;
        };
        match env.lookup(first, pos) {
            Some(v) => matches!(v, Val::Foreign),
            None => self.foreign_framework(first),
        }
    }

    /// Substitute local string variables.
    fn local_str(&self, env: &Env, e: &StrExpr, pos: usize) -> StrExpr {
        e.substitute(&mut |name| match env.lookup(name, pos) {
            Some(Val::Str(s)) if s.as_ref_name() != Some(name) => Some(s.clone()),
            _ => None,
        })
    }

    fn str_arg(&self, env: &Env, r: &Range<usize>, pos: usize) -> Option<StrExpr> {
        let e = StrExpr::parse(self.code, r.clone())?;
        Some(self.local_str(env, &e, pos))
    }

    /// Evaluate a router-valued expression.
    fn eval(&self, env: &Env, r: Range<usize>, pos: usize, depth: usize) -> Option<RVal> {
        if depth > 8 {
            return None;
        }
        let b = bytes(self.code);
        let mut r = trim(self.code, r);
        while b.get(r.start) == Some(&b'&') || b.get(r.start) == Some(&b'*') {
            r = trim(self.code, r.start + 1..r.end);
        }
        if b.get(r.start) == Some(&b'(') {
            let close = self.code.matching(r.start)?;
            if close + 1 == r.end {
                return self.eval(env, r.start + 1..close, pos, depth + 1);
            }
        }
        let (first, mut i) = ident_here(self.code, r.start)?;
        if is_keyword(first) || matches!(first, "nil" | "true" | "false") {
            return None;
        }
        #[derive(Debug)]
        enum S {
            Val(RVal),
            Pkg(String),
            Name(String),
            /// A local variable that is not a router (a receiver `s`).
            Var(String),
            /// A field selected (`s.users`): its name and the whole chain.
            Sel(String, String),
        }
        let mut state = match env.lookup(first, pos) {
            Some(Val::Router(v)) => S::Val(v.clone()),
            Some(Val::Opaque) => S::Var(first.to_string()),
            Some(Val::Foreign) => return None,
            Some(_) => return None,
            None if self.is_package(first) => S::Pkg(first.to_string()),
            None => S::Name(first.to_string()),
        };
        loop {
            let j = skip_ws(self.code, i);
            if j >= r.end {
                break;
            }
            match b[j] {
                b'.' => {
                    let (name, e) = ident_here(self.code, skip_ws(self.code, j + 1))?;
                    let open = skip_ws(self.code, e);
                    let called = open < r.end && b.get(open) == Some(&b'(');
                    if !called {
                        state = match state {
                            S::Pkg(p) => S::Val(RVal {
                                origin: Origin::Global(Some(p), name.to_string()),
                                prefix: StrExpr::default(),
                                guards: Vec::new(),
                            }),
                            S::Name(x) | S::Var(x) | S::Sel(_, x) => {
                                S::Sel(name.to_string(), format!("{x}.{name}"))
                            }
                            S::Val(_) => return None,
                        };
                        i = e;
                        continue;
                    }
                    let close = self.code.matching(open)?;
                    let args = self.code.args(open);
                    state = match state {
                        S::Pkg(p)
                            if self.fw.router_arg_pkgs.contains(&p.as_str())
                                && self.fw.groups.contains(&name)
                                && !args.is_empty() =>
                        {
                            let inner = self.eval(env, args[0].clone(), pos, depth + 1)?;
                            S::Val(self.apply_method(env, inner, name, &args[1..], pos)?)
                        }
                        // A router of another web framework (`mux.NewRouter()`
                        // seen by the net/http analyzer): not ours.
                        S::Pkg(p) if self.foreign_framework(&p) => return None,
                        S::Pkg(p) => {
                            let full = format!("{p}.{name}");
                            if self.fw.constructors.contains(&full.as_str()) {
                                S::Val(RVal {
                                    origin: Origin::New(format!("{}:{}", self.file.path, j)),
                                    prefix: StrExpr::default(),
                                    guards: Vec::new(),
                                })
                            } else {
                                S::Val(RVal {
                                    origin: Origin::Ret(FuncRef {
                                        qual: Some(p),
                                        name: name.to_string(),
                                        hint: None,
                                    }),
                                    prefix: StrExpr::default(),
                                    guards: Vec::new(),
                                })
                            }
                        }
                        // `app.Party("/x")` on a package-level router.
                        S::Name(x)
                            if self.fw.groups.contains(&name)
                                || self.fw.passthrough.contains(&name) =>
                        {
                            let v = RVal {
                                origin: Origin::Global(None, x),
                                prefix: StrExpr::default(),
                                guards: Vec::new(),
                            };
                            S::Val(self.apply_method(env, v, name, &args, pos)?)
                        }
                        S::Name(x) | S::Var(x) => S::Val(RVal {
                            origin: Origin::Ret(FuncRef {
                                hint: hint_for(&self.hints, &x),
                                qual: Some(x),
                                name: name.to_string(),
                            }),
                            prefix: StrExpr::default(),
                            guards: Vec::new(),
                        }),
                        S::Sel(field, chain) => {
                            let v = RVal {
                                origin: Origin::Field(field),
                                prefix: StrExpr::default(),
                                guards: Vec::new(),
                            };
                            match self.apply_method(env, v, name, &args, pos) {
                                Some(v) => S::Val(v),
                                // `a.Accounts.router()`: a method of the
                                // field's type returning a router.
                                None => S::Val(RVal {
                                    origin: Origin::Ret(FuncRef {
                                        hint: hint_for(&self.hints, &chain),
                                        qual: Some(chain),
                                        name: name.to_string(),
                                    }),
                                    prefix: StrExpr::default(),
                                    guards: Vec::new(),
                                }),
                            }
                        }
                        S::Val(v) => S::Val(self.apply_method(env, v, name, &args, pos)?),
                    };
                    i = close + 1;
                }
                b'(' => {
                    let close = self.code.matching(j)?;
                    state = match state {
                        S::Name(x) => S::Val(RVal {
                            origin: Origin::Ret(FuncRef {
                                qual: None,
                                name: x,
                                hint: None,
                            }),
                            prefix: StrExpr::default(),
                            guards: Vec::new(),
                        }),
                        _ => return None,
                    };
                    i = close + 1;
                }
                _ => return None,
            }
        }
        match state {
            S::Val(v) => Some(v),
            S::Name(x) => Some(RVal {
                origin: Origin::Global(None, x),
                prefix: StrExpr::default(),
                guards: Vec::new(),
            }),
            S::Sel(f, _) => Some(RVal {
                origin: Origin::Field(f),
                prefix: StrExpr::default(),
                guards: Vec::new(),
            }),
            S::Pkg(_) | S::Var(_) => None,
        }
    }

    /// The router a method call on a router returns, if any.
    fn apply_method(
        &self,
        env: &Env,
        v: RVal,
        name: &str,
        args: &[Range<usize>],
        pos: usize,
    ) -> Option<RVal> {
        if self.fw.groups.contains(&name) {
            let prefix = args
                .first()
                .and_then(|a| self.str_arg(env, a, pos))
                .map(|p| self.rooted(p))
                .unwrap_or_default();
            return Some(RVal {
                guards: self.with_guards(&v.guards, args.get(1..).unwrap_or(&[])),
                origin: v.origin,
                prefix: v.prefix.concat(&prefix),
            });
        }
        if self.fw.passthrough.contains(&name) {
            // chi `r.With(mw…)`: a router with more middleware.
            return Some(RVal {
                guards: self.with_guards(&v.guards, args),
                ..v
            });
        }
        // A method on what a constructor returned:
        // `billing.NewHandler(db).Routes()`.
        if let Origin::Ret(f) = &v.origin {
            // `admin.NewAPI(db).Router()`: the type in that package first
            // (several packages may declare an `API` with a `Router`).
            let hint = f
                .name
                .strip_prefix("New")
                .filter(|t| t.starts_with(|c: char| c.is_ascii_uppercase()))
                .map(|t| match f.qual.as_deref() {
                    Some(q) if self.is_package(q) => format!("{q}:{t}"),
                    _ => t.to_string(),
                });
            return Some(RVal {
                origin: Origin::Ret(FuncRef {
                    qual: Some(format!("{}()", f.name)),
                    name: name.to_string(),
                    hint,
                }),
                prefix: StrExpr::default(),
                guards: Vec::new(),
            });
        }
        None
    }

    // ------------------------------------------------------------ calls

    /// Is `ty` one of the framework's own types (`*gin.RouterGroup`,
    /// `chi.Router`), judged by the package of its constructors?
    fn is_framework_type(&self, ty: &str) -> bool {
        let (qual, _) = type_name(ty);
        qual.is_some_and(|q| {
            self.fw
                .constructors
                .iter()
                .chain(self.fw.context_types)
                .any(|c| c.trim_start_matches('*').split('.').next() == Some(q.as_str()))
        })
    }

    fn call(&mut self, env: &mut Env, hints: &[(String, String)], open: usize, func: &mut Func) {
        let b = bytes(self.code);
        let Some(name_end) = prev_non_ws(self.code, open).map(|p| p + 1) else {
            return;
        };
        let mut name_start = name_end;
        while name_start > 0 && is_ident_byte(b[name_start - 1]) {
            name_start -= 1;
        }
        let name = &self.text()[name_start..name_end];
        if name == "func" {
            return;
        }
        // Receiver: the chain before `.name`.
        let mut k = name_start;
        while k > 0 && b[k - 1].is_ascii_whitespace() {
            k -= 1;
        }
        let dot = (k > 0 && b[k - 1] == b'.').then(|| k - 1);
        let recv_range = dot.map(|d| chain_start(self.code, d)..d);
        let Some(close) = self.code.matching(open) else {
            return;
        };
        let mut args = self.code.args(open);
        let pos = open;
        // `huma.Get(api, "/x", h)`: the router is the first argument.
        let mut router_arg = None;
        if let Some(rr) = &recv_range {
            let t = self.code.slice(rr.clone()).trim();
            if self.fw.router_arg_pkgs.contains(&t)
                && env.lookup(t, pos).is_none()
                && (self.fw.route_shape(name).is_some() || self.fw.groups.contains(&name))
                && !args.is_empty()
            {
                if let Some(v) = self.eval(env, args[0].clone(), pos, 0) {
                    router_arg = Some(v);
                    args.remove(0);
                }
            }
        }

        if let Some(recv_range) = recv_range.clone() {
            let recv_text = self.code.slice(recv_range.clone()).trim().to_string();
            let recv_val = match router_arg.clone() {
                Some(v) => Some(v),
                None => self.eval(env, recv_range.clone(), pos, 0),
            };
            let recv_val = match recv_val {
                Some(v) => Some(v),
                None if self.fw.package_routers.contains(&recv_text.as_str())
                    && env.lookup(&recv_text, pos).is_none() =>
                {
                    Some(RVal {
                        origin: Origin::Root,
                        prefix: StrExpr::default(),
                        guards: Vec::new(),
                    })
                }
                None => None,
            };
            let is_pkg = self.is_package(&recv_text) && env.lookup(&recv_text, pos).is_none();
            let recv_val = if is_pkg
                && router_arg.is_none()
                && !self.fw.package_routers.contains(&recv_text.as_str())
            {
                None
            } else {
                recv_val
            };
            if let Some(rv) = recv_val {
                if let Some(shape) = self.fw.route_shape(name) {
                    if let Some(route) = self.route(
                        env,
                        &rv,
                        recv_range.clone(),
                        shape,
                        name_start,
                        &args,
                        close,
                        pos,
                    ) {
                        // A route whose handler strips a prefix off a
                        // router mounts it (`http.StripPrefix("/api", api)`).
                        let handler_arg = args.last().cloned();
                        if let Some(h) = handler_arg {
                            if let Some(m) = self.strip_prefix_mount(env, &route, h, pos) {
                                // The mounted router's routes are reported,
                                // not the subtree pattern itself.
                                func.mounts.push(m);
                                return;
                            }
                        }
                        func.routes.push(route);
                    }
                    return;
                }
                if self.fw.groups.contains(&name) {
                    // Function-literal arguments receive the sub-router.
                    let prefix = args
                        .first()
                        .and_then(|a| self.str_arg(env, a, pos))
                        .unwrap_or_default();
                    let sub = RVal {
                        origin: rv.origin.clone(),
                        prefix: rv.prefix.concat(&prefix),
                        guards: self.with_guards(&rv.guards, args.get(1..).unwrap_or(&[])),
                    };
                    for a in &args {
                        if let Some(sig) = as_func_literal(self.code, a.clone()) {
                            if let Some((pname, _)) = sig.params.first() {
                                env.bind(
                                    pname,
                                    Val::Router(sub.clone()),
                                    sig.body_open,
                                    sig.body_close,
                                );
                            }
                        } else if let Some(callee) = self.func_ref_arg(env, a.clone(), pos) {
                            // A named callback (`api.PartyFunc("/x",
                            // routes.Comments)`) receives the sub-router.
                            func.calls.push(Call {
                                callee,
                                args: vec![Some(sub.clone())],
                            });
                        }
                    }
                    return;
                }
                if self.fw.mounts.contains(&name) && args.len() >= 2 {
                    let prefix = self.str_arg(env, &args[0], pos).unwrap_or_default();
                    if let Some(child) = self.eval(env, args[1].clone(), pos, 0) {
                        func.mounts.push(Mount {
                            parent: rv,
                            prefix,
                            child,
                        });
                    }
                    return;
                }
                // `r.Use(mw)` on a local router guards the routes
                // registered on it from here on.
                if name == "Use" && env.lookup(&recv_text, pos).is_some() {
                    let guards = self.with_guards(&rv.guards, &args);
                    if guards.len() > rv.guards.len() {
                        env.add_guards(&recv_text, pos, guards);
                    }
                    return;
                }
                let app_value = matches!(rv.origin, Origin::Param(_))
                    && self.foreign_params.contains(&recv_text)
                    && env.lookup(&recv_text, pos).is_some();
                if !app_value
                    && !matches!(
                        rv.origin,
                        Origin::Ret(_) | Origin::Global(..) | Origin::Field(_)
                    )
                {
                    // Another method on a router (`r.Use(mw)`).
                    return;
                }
            }
        }
        // A call passing routers to a function defined elsewhere.
        if args.is_empty() {
            return;
        }
        let mut any = false;
        let mut vals = Vec::new();
        for a in &args {
            let v = self.arg_router(env, a.clone(), pos);
            any |= v.is_some();
            vals.push(v);
        }
        if !any {
            return;
        }
        let callee = match &recv_range {
            Some(rr) => {
                let q = self.code.slice(rr.clone()).trim().to_string();
                if !q.bytes().all(|c| is_ident_byte(c) || c == b'.') {
                    return;
                }
                let hint = hint_for(hints, &q);
                FuncRef {
                    qual: Some(q),
                    name: name.to_string(),
                    hint,
                }
            }
            // `for _, f := range routers { f(v1) }`: every function put
            // in that slice (hint `[]routers`).
            None => FuncRef {
                qual: None,
                name: name.to_string(),
                hint: self
                    .range_loops
                    .iter()
                    .rev()
                    .find(|(v, _, r)| v == name && r.start < open && open < r.end)
                    .map(|(_, s, _)| format!("[]{s}")),
            },
        };
        if is_builtin(&callee) {
            return;
        }
        func.calls.push(Call { callee, args: vals });
    }

    /// A function named as a value (`routes.Comments`, `h.Routes`,
    /// `register`): not a string, call, literal or local non-function.
    fn func_ref_arg(&self, env: &Env, r: Range<usize>, pos: usize) -> Option<FuncRef> {
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        if text.is_empty()
            || !text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || !text.bytes().all(|c| is_ident_byte(c) || c == b'.')
            || !self.code.is_code(r.start)
        {
            return None;
        }
        let (qual, name) = match text.rsplit_once('.') {
            Some((q, n)) => (Some(q.to_string()), n.to_string()),
            None => {
                if env.lookup(text, pos).is_some() || is_keyword(text) {
                    return None;
                }
                (None, text.to_string())
            }
        };
        let hint = qual.as_deref().and_then(|q| hint_for(&self.hints, q));
        Some(FuncRef { qual, name, hint })
    }

    /// A route or group path of a framework joining relative paths with a
    /// slash (`Group("user")` under `/api` is `/api/user`), made absolute.
    fn rooted(&self, p: StrExpr) -> StrExpr {
        if !self.fw.relative_paths {
            return p;
        }
        match p.0.first() {
            Some(Piece::Lit(s)) if !s.is_empty() && !s.starts_with('/') => {
                StrExpr::lit("/").concat(&p)
            }
            _ => p,
        }
    }

    /// An argument that is a router: a local router variable or a call
    /// whose result may be one, or a package-level/field router.
    fn arg_router(&self, env: &Env, r: Range<usize>, pos: usize) -> Option<RVal> {
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        if text.is_empty() || text.starts_with('"') || text.starts_with('`') {
            return None;
        }
        if as_func_literal(self.code, r.clone()).is_some() {
            return None;
        }
        let v = self.eval(env, r, pos, 0)?;
        Some(v)
    }

    #[allow(clippy::too_many_arguments)]
    fn route(
        &self,
        env: &Env,
        rv: &RVal,
        recv_range: Range<usize>,
        shape: Shape,
        name_start: usize,
        args: &[Range<usize>],
        close: usize,
        pos: usize,
    ) -> Option<Route> {
        if shape == Shape::Operation {
            let (methods, path) = self.operation(env, args.first()?.clone(), pos)?;
            // The handler follows the operation (`huma.Register(api, op,
            // h)`) or is its `Handler` field (`e.Router.AddRoute(
            // echo.Route{Method: …, Path: …, Handler: h})`).
            let handler_expr = match args.get(1) {
                Some(h) => h.clone(),
                None => self.keyword_value(args.first()?.clone(), "Handler")?,
            };
            let handler = self.handler_of(handler_expr, 0)?;
            return Some(Route {
                line: self.file.line_of(name_start),
                recv: rv.clone(),
                methods,
                path,
                pattern: false,
                controllers: false,
                handler,
                matched: Vec::new(),
            });
        }
        if shape == Shape::Controllers {
            let refs: Vec<FuncRef> = args.iter().filter_map(|a| self.controller(a)).collect();
            if refs.is_empty() {
                return None;
            }
            return Some(Route {
                line: self.file.line_of(name_start),
                recv: rv.clone(),
                methods: Vec::new(),
                path: StrExpr::default(),
                pattern: false,
                controllers: true,
                handler: Handler::Refs(refs),
                matched: Vec::new(),
            });
        }
        let (methods, path_idx): (Vec<String>, Option<usize>) = match shape {
            Shape::Operation | Shape::Controllers => return None,
            Shape::Fixed(m) => (m.iter().map(|s| s.to_string()).collect(), Some(0)),
            Shape::MethodArg => (vec![self.method_value(args.first()?)?], Some(1)),
            Shape::MethodList => (self.method_list(args.first()?.clone()), Some(1)),
            Shape::Pattern => (Vec::new(), Some(0)),
            Shape::Chained => {
                let m = self.chained_methods(close + 1);
                (if m.is_empty() { vec!["GET".into()] } else { m }, Some(0))
            }
            Shape::Builder => {
                // `.Methods(…)` before the handler or after it
                // (`r.Path("/x").HandlerFunc(h).Methods("GET")`).
                let mut m = self.chained_methods_in(recv_range.clone());
                if m.is_empty() {
                    m = self.chained_methods(close + 1);
                }
                (if m.is_empty() { vec!["GET".into()] } else { m }, None)
            }
        };
        let path = match path_idx {
            Some(idx) => {
                // A route needs a path and a handler after it.
                if args.len() < idx + 2 {
                    return None;
                }
                let p = self.str_arg(env, &args[idx], pos)?;
                // `path, h := userv1connect.NewUserServiceHandler(svc);
                // mux.Handle(path, h)`: a Connect service (`go_connect_rpc`
                // reports its procedures), not a route at `/`.
                if p.as_ref_name()
                    .is_some_and(|n| connect_path_var(self.code.text(), n))
                {
                    return None;
                }
                if let Some(lit) = p.literal() {
                    // `c.Get("X-Key", "default")` is not a route.
                    let path_like = lit.is_empty()
                        || lit.starts_with(['/', '*', ':'])
                        || (shape == Shape::Pattern && lit.contains(' '))
                        || (self.fw.relative_paths && relative_path(&lit));
                    if !path_like {
                        return None;
                    }
                }
                let handler = self.handler_arg(args, Some(idx))?;
                if self.code.string_at(handler.start).is_some() && !self.code.is_code(handler.start)
                {
                    return None;
                }
                self.rooted(p)
            }
            None => {
                if args.is_empty() {
                    return None;
                }
                StrExpr::default()
            }
        };
        let handler = self.handler_of(self.handler_arg(args, path_idx)?.clone(), 0)?;
        let matched = match shape {
            Shape::Chained => self.chained_matchers(close + 1),
            _ => Vec::new(),
        };
        Some(Route {
            line: self.file.line_of(name_start),
            recv: rv.clone(),
            methods,
            path,
            pattern: shape == Shape::Pattern,
            controllers: false,
            handler,
            matched,
        })
    }

    /// A controller value: `&Hello{}` / `new(pkg.Hello)` (that type),
    /// `user.NewV1()` / `controller.Hello` (any type of that package).
    fn controller(&self, r: &Range<usize>) -> Option<FuncRef> {
        let text = self.code.slice(trim(self.code, r.clone()));
        let t = text.trim_start_matches('&').trim();
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
        let (head, is_type) = if let Some(inner) = t.strip_prefix("new(") {
            (inner.strip_suffix(')')?.trim(), true)
        } else if let Some(b) = t.find('{') {
            (t[..b].trim(), true)
        } else if let Some(p) = t.find('(') {
            (t[..p].trim(), false)
        } else {
            (t, false)
        };
        if head.is_empty() || !head.chars().all(word) {
            return None;
        }
        let (qual, name) = match head.rsplit_once('.') {
            Some((q, n)) => (Some(q.to_string()), n.to_string()),
            None => (None, head.to_string()),
        };
        Some(FuncRef {
            qual,
            name: if is_type { name } else { String::new() },
            hint: None,
        })
    }

    /// `huma.Operation{Method: http.MethodGet, Path: "/x/{id}", …}`.
    fn operation(&self, env: &Env, r: Range<usize>, pos: usize) -> Option<(Vec<String>, StrExpr)> {
        let r = trim(self.code, r);
        let brace = self.code.slice(r.clone()).find('{')?;
        let mut method = None;
        let mut path = None;
        for arg in self.code.args(r.start + brace) {
            if let Some((key, value)) = self.code.keyword_arg(arg) {
                match key {
                    "Method" => method = self.method_value(&trim(self.code, value)),
                    "Path" => path = self.str_arg(env, &value, pos),
                    _ => {}
                }
            }
        }
        Some((vec![method.unwrap_or_else(|| "GET".into())], path?))
    }

    /// The value of field `key` in the composite literal at `r`.
    fn keyword_value(&self, r: Range<usize>, key: &str) -> Option<Range<usize>> {
        let r = trim(self.code, r);
        let brace = self.code.slice(r.clone()).find('{')?;
        self.code
            .args(r.start + brace)
            .into_iter()
            .filter_map(|a| self.code.keyword_arg(a))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    fn handler_arg<'r>(
        &self,
        args: &'r [Range<usize>],
        path_idx: Option<usize>,
    ) -> Option<&'r Range<usize>> {
        match path_idx {
            Some(i) if self.fw.handler_after_path => args.get(i + 1),
            _ => args.last(),
        }
    }

    /// `"GET"`, `http.MethodGet`, `fiber.MethodPost`.
    fn method_value(&self, r: &Range<usize>) -> Option<String> {
        let text = self.code.slice(r.clone()).trim();
        if let Some(lit) = self.code.string_at(r.start) {
            if !self.code.is_code(r.start) {
                return Some(lit.value.to_ascii_uppercase());
            }
        }
        let last = text.rsplit('.').next().unwrap_or(text);
        let m = last.strip_prefix("Method")?;
        (!m.is_empty()).then(|| m.to_ascii_uppercase())
    }

    fn method_list(&self, r: Range<usize>) -> Vec<String> {
        let text = self.code.slice(r.clone());
        let Some(brace) = text.find('{') else {
            return self.method_value(&r).into_iter().collect();
        };
        self.code
            .args(r.start + brace)
            .iter()
            .filter_map(|a| self.method_value(a))
            .collect()
    }

    /// `.Methods("GET", "POST")` (possibly after `.Name("x")`) following a
    /// gorilla/mux registration ending at `after`.
    fn chained_methods(&self, after: usize) -> Vec<String> {
        let b = bytes(self.code);
        let mut i = after;
        let mut out = Vec::new();
        loop {
            let j = skip_ws(self.code, i);
            if b.get(j) != Some(&b'.') {
                break;
            }
            let Some((name, e)) = ident_here(self.code, skip_ws(self.code, j + 1)) else {
                break;
            };
            let open = skip_ws(self.code, e);
            if b.get(open) != Some(&b'(') {
                break;
            }
            let Some(close) = self.code.matching(open) else {
                break;
            };
            if name == "Methods" {
                out.extend(
                    self.code
                        .args(open)
                        .iter()
                        .filter_map(|a| self.method_value(a)),
                );
            }
            i = close + 1;
        }
        out
    }

    /// Parameters required by gorilla/mux matchers following a
    /// registration ending at `after`: `.Queries("q", "{q}", "page", "")`
    /// (query) and `.Headers("X-Requested-With", "XMLHttpRequest")`
    /// (header); the names are the pairs' first halves.
    fn chained_matchers(&self, after: usize) -> Vec<Param> {
        let b = bytes(self.code);
        let mut i = after;
        let mut out: Vec<Param> = Vec::new();
        loop {
            let j = skip_ws(self.code, i);
            if b.get(j) != Some(&b'.') {
                break;
            }
            let Some((name, e)) = ident_here(self.code, skip_ws(self.code, j + 1)) else {
                break;
            };
            let open = skip_ws(self.code, e);
            if b.get(open) != Some(&b'(') {
                break;
            }
            let Some(close) = self.code.matching(open) else {
                break;
            };
            let kind = match name {
                "Queries" => Some(ParamKind::Query),
                "Headers" => Some(ParamKind::Header),
                _ => None,
            };
            if let Some(kind) = kind {
                for a in self.code.args(open).iter().step_by(2) {
                    if let Some(n) = self.literal_arg(a).filter(|n| !n.is_empty()) {
                        if !out.iter().any(|p| p.name == n) {
                            out.push(Param::new(kind, n));
                        }
                    }
                }
            }
            i = close + 1;
        }
        out
    }

    /// `.Methods(…)` calls inside a builder chain.
    fn chained_methods_in(&self, r: Range<usize>) -> Vec<String> {
        let mut out = Vec::new();
        // Only the receiver chain's own text: linear in the route, not the file.
        let text = self.code.slice(r.clone());
        for (i, _) in text.match_indices(".Methods(") {
            let at = r.start + i;
            if self.code.is_code(at) {
                let open = at + ".Methods".len();
                out.extend(
                    self.code
                        .args(open)
                        .iter()
                        .filter_map(|a| self.method_value(a)),
                );
            }
        }
        out
    }

    fn strip_prefix_mount(
        &self,
        env: &Env,
        route: &Route,
        h: Range<usize>,
        pos: usize,
    ) -> Option<Mount> {
        let h = trim(self.code, h);
        let text = self.code.slice(h.clone());
        let paren = text.find('(')?;
        let callee: String = text[..paren]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if !self.fw.strip_prefix.contains(&callee.as_str()) {
            return None;
        }
        let args = self.code.args(h.start + paren);
        let prefix = self.str_arg(env, args.first()?, pos)?;
        let child = self.eval(env, args.get(1)?.clone(), pos, 0)?;
        if !matches!(
            child.origin,
            Origin::New(_) | Origin::Param(_) | Origin::Ret(_)
        ) {
            return None;
        }
        // `http.StripPrefix("/static/", http.FileServer(dir))`: a file
        // server, not a router; the pattern itself is the route.
        if matches!(&child.origin, Origin::Ret(f) if f.qual.as_deref() == Some("http")) {
            return None;
        }
        Some(Mount {
            parent: route.recv.clone(),
            prefix,
            child,
        })
    }

    /// What handles a route given its handler argument.
    fn handler_of(&self, r: Range<usize>, depth: usize) -> Option<Handler> {
        if depth > 4 {
            return None;
        }
        let r = trim(self.code, r);
        if let Some(sig) = as_func_literal(self.code, r.clone()) {
            let body = sig.body_open..sig.body_close + 1;
            let mut hints: Vec<(String, String)> = sig
                .params
                .iter()
                .map(|(n, t)| (n.clone(), type_name(t).1))
                .collect();
            hints.extend(var_hints(self.code, body.clone()));
            return Some(Handler::Inline(self.reads(body, &hints)));
        }
        let mut refs = Vec::new();
        self.handler_refs(r.clone(), depth, &mut refs);
        // `Guard(func(c *fiber.Ctx) error { … })`: a function literal
        // wrapped by middleware reads what its body reads, plus what the
        // wrappers read.
        if let Some(sig) = self.wrapped_literal(r, 0) {
            let body = sig.body_open..sig.body_close + 1;
            let mut hints: Vec<(String, String)> = sig
                .params
                .iter()
                .map(|(n, t)| (n.clone(), type_name(t).1))
                .collect();
            hints.extend(var_hints(self.code, body.clone()));
            let mut reads = self.reads(body, &hints);
            for f in refs {
                if !reads.helpers.contains(&f) {
                    reads.helpers.push(f);
                }
            }
            return Some(Handler::Inline(reads));
        }
        Some(Handler::Refs(refs))
    }

    /// The function literal passed (possibly through nested calls) to the
    /// call at `r`: `auth(log(func(w, r) { … }))`.
    fn wrapped_literal(&self, r: Range<usize>, depth: usize) -> Option<Signature> {
        if depth > 4 {
            return None;
        }
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        let paren = text.find('(')?;
        if !text[..paren]
            .bytes()
            .all(|c| is_ident_byte(c) || c == b'.' || c.is_ascii_whitespace())
        {
            return None;
        }
        for a in self.code.args(r.start + paren) {
            if let Some(sig) = as_func_literal(self.code, a.clone()) {
                return Some(sig);
            }
            if let Some(sig) = self.wrapped_literal(a, depth + 1) {
                return Some(sig);
            }
        }
        None
    }

    /// `guards` plus the middleware named among `args` (function values
    /// and factory calls; literals and strings are not middleware we can
    /// follow).
    fn with_guards(&self, guards: &[FuncRef], args: &[Range<usize>]) -> Vec<FuncRef> {
        let mut out = guards.to_vec();
        for a in args {
            if as_func_literal(self.code, a.clone()).is_some() {
                continue;
            }
            let mut refs = Vec::new();
            self.handler_refs(a.clone(), 0, &mut refs);
            for r in refs {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        out
    }

    fn handler_refs(&self, r: Range<usize>, depth: usize, out: &mut Vec<FuncRef>) {
        if depth > 4 {
            return;
        }
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        let b = bytes(self.code);
        if text.is_empty() || !b.get(r.start).copied().is_some_and(is_ident_start) {
            return;
        }
        // The callee or name: a selector chain up to the first `(`.
        let mut i = r.start;
        let mut dotted = String::new();
        while let Some((n, e)) = ident_here(self.code, i) {
            if !dotted.is_empty() {
                dotted.push('.');
            }
            dotted.push_str(n);
            let j = skip_ws(self.code, e);
            if b.get(j) == Some(&b'.') {
                i = skip_ws(self.code, j + 1);
            } else {
                i = j;
                break;
            }
        }
        if dotted.is_empty() {
            return;
        }
        let fr = match dotted.rsplit_once('.') {
            Some((q, n)) => FuncRef {
                qual: Some(q.to_string()),
                name: n.to_string(),
                hint: hint_for(&self.hints, q),
            },
            None => FuncRef {
                qual: None,
                name: dotted.clone(),
                hint: None,
            },
        };
        out.push(fr);
        if b.get(i) == Some(&b'(') && i < r.end {
            for a in self.code.args(i) {
                if let Some(sig) = as_func_literal(self.code, a.clone()) {
                    let _ = sig;
                    continue;
                }
                self.handler_refs(a, depth + 1, out);
            }
        }
    }
}

/// The type name of variable `var`; for a field of a variable
/// (`a.users`), `Type.field` (resolved against struct fields when linking).
fn hint_for(hints: &[(String, String)], var: &str) -> Option<String> {
    let lookup = |v: &str| {
        hints
            .iter()
            .rev()
            .find(|(n, _)| n == v)
            .map(|(_, t)| t.clone())
            .filter(|t| !t.is_empty())
    };
    match var.split_once('.') {
        Some((v, field)) if !field.contains('.') => lookup(v).map(|t| format!("{t}.{field}")),
        Some(_) => None,
        None => lookup(var),
    }
}

fn is_builtin(f: &FuncRef) -> bool {
    f.qual.is_none()
        && matches!(
            f.name.as_str(),
            "append"
                | "len"
                | "cap"
                | "make"
                | "new"
                | "panic"
                | "print"
                | "println"
                | "delete"
                | "copy"
                | "close"
                | "string"
                | "int"
                | "min"
                | "max"
        )
}

/// The operator of `names [Type] = values` in a value spec.
fn find_assign_op(code: &Code<'_>, r: Range<usize>) -> Option<usize> {
    let b = bytes(code);
    let mut depth = 0i32;
    for i in r {
        if !code.is_code(i) {
            continue;
        }
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' if depth == 0 => {
                let prev = i.checked_sub(1).map(|p| b[p]).unwrap_or(b' ');
                if b.get(i + 1) != Some(&b'=') && !matches!(prev, b'!' | b'<' | b'>' | b'=' | b':')
                {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `{`…`}` pairs inside `r`, for the scope of local variables.
fn blocks(code: &Code<'_>, r: Range<usize>) -> Vec<(usize, usize)> {
    let b = bytes(code);
    let mut out = Vec::new();
    for i in r {
        if b[i] == b'{' && code.is_code(i) {
            if let Some(c) = code.matching(i) {
                out.push((i, c));
            }
        }
    }
    out
}

fn enclosing_block(blocks: &[(usize, usize)], pos: usize) -> Option<usize> {
    blocks
        .iter()
        .filter(|(o, c)| *o < pos && pos < *c)
        .max_by_key(|(o, _)| *o)
        .map(|(_, c)| *c)
}

/// Is `name` bound by `name, h := pkgconnect.NewXHandler(…)` in `text`?
/// A relative route path (`list`, `user/:id`, `v1/*any`): path characters
/// only, starting with a letter or digit.
fn relative_path(lit: &str) -> bool {
    lit.starts_with(|c: char| c.is_ascii_alphanumeric())
        && lit
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_-.:*{}~".contains(&b))
}

fn connect_path_var(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        let Some((lhs, rhs)) = l.split_once(":=") else {
            return false;
        };
        lhs.split(',').next().map(str::trim) == Some(name)
            && rhs.split('(').next().is_some_and(|callee| {
                callee.trim().split_once('.').is_some_and(|(pkg, f)| {
                    pkg.to_ascii_lowercase().ends_with("connect")
                        && f.starts_with("New")
                        && f.ends_with("Handler")
                })
            })
    })
}

/// Start of the window of about `len` bytes ending at `end`, moved forward
/// to a char boundary so slicing never splits a multi-byte character.
fn window_start(text: &str, end: usize, len: usize) -> usize {
    let mut at = end.saturating_sub(len);
    while at < end && !text.is_char_boundary(at) {
        at += 1;
    }
    at
}
