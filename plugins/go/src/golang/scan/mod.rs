//! The map step for Go files: package clause, imports, package-level
//! string constants and router variables, struct types, and for every
//! function its route registrations, groups, mounts, calls passing routers,
//! returned routers and request reads. Driven by a [`Framework`].
//!
//! Function bodies are read as a flat sequence of *sites* (assignments,
//! calls, `return`s) in source order with a scoped environment of local
//! bindings (`v1 := r.Group("/v1")`, `base := "/api"`, parameters and
//! function-literal parameters of `r.Route("/x", func(r chi.Router) {…})`).
//!
//! Parts: this module holds the entry points, the environment of local
//! bindings and function bodies (sites in source order); [`decls`] the top
//! level (functions, `const`/`var`/`type` declarations); [`calls`] route,
//! group and mount calls and expression evaluation; [`reads`] what
//! handlers read from the request; [`types`] Go types, struct tags and
//! variable type hints.

use std::collections::HashMap;
use std::ops::Range;

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};

use super::facts::{
    Assign, Bind, Call, Fact, Field, Func, FuncRef, GoFile, Handler, Import, Mount, Origin, RVal,
    Reads, Route, Struct, TypeRef,
};
use super::framework::{Framework, ReadArg, ReadKind, Shape};
use super::strexpr::{GoStr, Piece, StrExpr};
use super::syntax::{
    as_func_literal, bytes, chain_start, compact, func_literals, ident_here, is_ident_start,
    is_keyword, parse_params, prev_non_ws, signature_at, skip_ws, statement_end, trim, Signature,
};
use portolan_plugin_sdk::lex::is_ident_byte;

mod calls;
mod decls;
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
    /// The assigned expression of a statement binding
    /// (`ctrl := user.NewV1()`), for values read by shape
    /// (`group.Bind(ctrl)`).
    rhs: Option<Range<usize>>,
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
        let stmt = self.statement(name, pos);
        let lit = self.literal_param(name, pos);
        match (stmt, lit) {
            (Some(b), Some((from, v, until))) if from > b.from => Some((v, until)),
            (Some(b), _) => Some((&b.val, b.until)),
            (None, Some((_, v, until))) => Some((v, until)),
            (None, None) => None,
        }
    }

    /// The statement binding of `name` in scope at `pos` (latest start).
    fn statement(&self, name: &str, pos: usize) -> Option<&Binding> {
        self.by_name.get(name).and_then(|ids| {
            ids.iter()
                .filter_map(|&i| self.bindings.get(i))
                .filter(|b| b.from <= pos && pos <= b.until)
                .max_by_key(|b| b.from)
        })
    }

    /// The expression the local `name` was assigned at `pos`'s
    /// scope, unless a function literal's parameter shadows it.
    fn assigned_expr(&self, name: &str, pos: usize) -> Option<Range<usize>> {
        let b = self.statement(name, pos)?;
        if self
            .literal_param(name, pos)
            .is_some_and(|(from, _, _)| from > b.from)
        {
            return None;
        }
        b.rhs.clone()
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
        self.bindings.push(Binding {
            val,
            from,
            until,
            rhs: None,
        });
    }

    /// Remember the expression the latest binding was assigned.
    fn set_last_rhs(&mut self, rhs: Range<usize>) {
        if let Some(b) = self.bindings.last_mut() {
            b.rhs = Some(rhs);
        }
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
                Val::Str(super::strexpr::name(name.clone()))
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
            if let (Val::Opaque, Some(v)) = (&val, value.clone()) {
                self.composite_fields(env, v, pos, func);
            }
            env.bind(name, val, pos, until);
            if let Some(v) = value {
                env.set_last_rhs(v);
            }
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
        if let Some(e) = crate::golang::strexpr::parse(self.code, r.clone()) {
            // A lone name may be a router: prefer the environment.
            if let Some(name) = e.as_name() {
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
            Some(Val::Str(s)) if s.as_name() != Some(name) => Some(s.clone()),
            _ => None,
        })
    }

    fn str_arg(&self, env: &Env, r: &Range<usize>, pos: usize) -> Option<StrExpr> {
        let e = crate::golang::strexpr::parse(self.code, r.clone())?;
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
