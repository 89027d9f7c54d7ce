//! Command-line programs (`scala_cli`; see docs/cli-surface.md): scopt,
//! decline and mainargs as `cli://<binary>/<subcommand>` endpoints.
//!
//! - scopt: the parser is `OParser.sequence(…)` (scopt 4) or the body of
//!   `new OptionParser[C]("prog") { … }` (scopt 3); `programName("x")`
//!   names the program. `opt[T]('f', "force")` is a flag (long form
//!   preferred), `arg[T]("<file>")` an argument; `cmd("x")` a subcommand
//!   whose `.children(…)` hold its own options and subcommands.
//! - decline: `Opts.flag("x")` / `Opts.option[T]("x")` / `.options` /
//!   `.flags` are `--x` flags (one-letter names `-x`), `Opts.env[T]("X")`
//!   env vars, `Opts.argument[T]("x")` / `.arguments` (or `metavar = "x"`)
//!   arguments. `Opts.subcommand("x", …) { … }` and `Command("x", …) { … }`
//!   are commands holding the options used in their block, directly or
//!   through `val`s of the file; `CommandApp(name = "x", …)` /
//!   `CommandIOApp("x", …)` (objects extending them) are programs. A
//!   command that no other uses is a root.
//! - mainargs: `@main def x(…)` methods of an object that calls
//!   `ParserForMethods(this)` are subcommands (one `@main` method is the
//!   program itself), their parameters `--name` flags (`@arg(short = 'x')`
//!   alone gives `-x`, `@arg(name = "x")` renames, `@arg(positional =
//!   true)` makes an argument); `ParserForClass[C]` reads the `@main case
//!   class C`'s fields.
//! - Test paths are skipped.

use portolan_plugin_sdk::cli::{self, Attach, Command, Fact};
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

use crate::scala::tokens::{Kind, Toks};

pub struct ScalaCli;

impl Analyzer for ScalaCli {
    fn tech(&self) -> Tech {
        Tech::new("scala_cli", "Scala", "CLI")
            .aliases(["scopt", "decline", "mainargs", "scala-cli"])
            .files(["*.scala", "*.sc"])
            .requires_any(["scopt", "decline", "mainargs", "OParser", "Opts."])
            .detect(Detect::files(["*.scala", "*.sc"]).contains([
                "import scopt",
                "com.monovore.decline",
                "import mainargs",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if !crate::scala::wanted(file) {
            return;
        }
        let c = &file.content;
        if !(c.contains("scopt") || c.contains("decline") || c.contains("mainargs")) {
            return;
        }
        let t = Toks::new(file);
        let mut s = Scan {
            t: &t,
            path: &path,
            out: Vec::new(),
            extra: Vec::new(),
            bare_opts: c.contains("decline.Opts."),
        };
        if c.contains("scopt") {
            s.scopt();
        }
        if c.contains("decline") {
            s.decline();
        }
        if c.contains("mainargs") {
            s.mainargs();
        }
        for f in s.out {
            out.fact(&ScFact::Cli(f));
        }
        for f in s.extra {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut cli_facts = Vec::new();
        let mut vals: HashMap<String, Vec<Param>> = HashMap::new();
        let mut uses: Vec<(String, Vec<String>)> = Vec::new();
        for f in facts.all::<ScFact>() {
            match f {
                ScFact::Cli(c) => cli_facts.push(c),
                ScFact::Val { name, params } => {
                    vals.entry(name).or_default().extend(params);
                }
                ScFact::Uses { sym, names } => uses.push((sym, names)),
            }
        }
        // decline options a command reads from `Obj.x` vals of other files.
        for (sym, names) in uses {
            let params: Vec<Param> = names
                .iter()
                .filter_map(|n| vals.get(n))
                .flatten()
                .cloned()
                .collect();
            for f in cli_facts.iter_mut() {
                if let Fact::Command(c) = f {
                    if c.symbols.first() == Some(&sym) {
                        for p in &params {
                            if !c
                                .params
                                .iter()
                                .any(|q| q.name == p.name && q.kind == p.kind)
                            {
                                c.params.push(p.clone());
                            }
                        }
                    }
                }
            }
        }
        Ok(cli::link(cli_facts, &|_, _| 0))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum ScFact {
    Cli(Fact),
    /// A decline `val` holding options (no command), by name.
    Val {
        name: String,
        params: Vec<Param>,
    },
    /// `Obj.x` names a command's block uses that are not vals of its file.
    Uses {
        sym: String,
        names: Vec<String>,
    },
}

struct Scan<'a> {
    t: &'a Toks,
    path: &'a str,
    out: Vec<Fact>,
    extra: Vec<ScFact>,
    /// The file imports decline's `Opts` members (`flag`, `option`, …).
    bare_opts: bool,
}

fn flag(name: &str) -> String {
    if name.starts_with('-') {
        name.to_string()
    } else if name.chars().count() == 1 {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

impl Scan<'_> {
    fn str_at(&self, i: usize) -> Option<String> {
        self.t.str_at(i).map(str::to_string)
    }

    fn command(&mut self, at: usize, name: &str, parent: Option<String>) -> usize {
        let sym = format!("{}#{at}", self.path);
        self.out.push(Fact::Command(Command {
            path: self.path.to_string(),
            line: self.t.line(at),
            symbols: vec![sym],
            parent,
            name: name.to_string(),
            ..Command::default()
        }));
        self.out.len() - 1
    }

    fn sym(&self, c: usize) -> String {
        match &self.out[c] {
            Fact::Command(c) => c.symbols[0].clone(),
            _ => String::new(),
        }
    }

    fn push(&mut self, c: usize, p: Param) {
        if let Some(Fact::Command(cmd)) = self.out.get_mut(c) {
            if !cmd
                .params
                .iter()
                .any(|q| q.name == p.name && q.kind == p.kind)
            {
                cmd.params.push(p);
            }
        }
    }

    /// The index after `[T]` at `i` (or `i`).
    fn skip_targs(&self, i: usize) -> usize {
        if self.t.is(i, "[") {
            self.t.close(i).map_or(i + 1, |c| c + 1)
        } else {
            i
        }
    }

    // ---- scopt ----

    fn scopt(&mut self) {
        let t = self.t;
        let mut i = 0;
        while i < t.len() {
            // `OParser.sequence(`.
            if t.is_ident(i, "sequence")
                && i >= 2
                && t.is_ident(i - 2, "OParser")
                && t.is(i + 1, "(")
            {
                let close = t.close(i + 1).unwrap_or(t.len());
                let root = self.command(i - 2, "", None);
                self.scopt_range(i + 2, close, root);
                i = close + 1;
                continue;
            }
            // `new OptionParser[C]("prog") {`.
            if t.is_ident(i, "OptionParser")
                && i >= 1
                && (t.is_ident(i - 1, "new") || t.is(i - 1, "."))
            {
                let k = self.skip_targs(i + 1);
                let prog = if t.is(k, "(") {
                    self.str_at(k + 1)
                } else {
                    None
                };
                let body = if t.is(k, "(") {
                    t.close(k).map(|c| c + 1)
                } else {
                    Some(k)
                };
                if let Some(b) = body.filter(|&b| t.is(b, "{")) {
                    let close = t.close(b).unwrap_or(t.len());
                    let root = self.command(i, "", None);
                    if let Some(Fact::Command(c)) = self.out.get_mut(root) {
                        c.prog = prog;
                    }
                    self.scopt_range(b + 1, close, root);
                    i = close + 1;
                    continue;
                }
            }
            i += 1;
        }
    }

    fn scopt_range(&mut self, start: usize, end: usize, cmd: usize) {
        let t = self.t;
        let mut k = start;
        while k < end {
            let word = t.ident(k);
            let call_after = |k: usize| -> Option<usize> {
                let a = self.skip_targs(k + 1);
                t.is(a, "(").then_some(a)
            };
            let preceded_by_dot = k > 0 && t.is(k - 1, ".");
            match word {
                Some("programName") if !preceded_by_dot && t.is(k + 1, "(") => {
                    if let (Some(p), Some(Fact::Command(c))) =
                        (self.str_at(k + 2), self.out.get_mut(cmd))
                    {
                        c.prog = Some(p);
                    }
                }
                Some("opt") if !preceded_by_dot => {
                    if let Some(open) = call_after(k) {
                        let close = t.close(open).unwrap_or(end);
                        let names: Vec<String> = (open + 1..close)
                            .filter_map(|j| self.str_at(j))
                            .map(|n| flag(&n))
                            .collect();
                        if let Some(f) = cli::flag_name(names.iter().map(String::as_str)) {
                            self.push(cmd, Param::flag(f));
                        }
                        k = close;
                    }
                }
                Some("arg") if !preceded_by_dot => {
                    if let Some(open) = call_after(k) {
                        if let Some(n) = self.str_at(open + 1) {
                            let n = n
                                .trim_end_matches("...")
                                .trim_matches(|c| matches!(c, '<' | '>' | '[' | ']'))
                                .to_string();
                            if !n.is_empty() {
                                self.push(cmd, Param::argument(n));
                            }
                        }
                        k = t.close(open).unwrap_or(end);
                    }
                }
                Some("cmd") if !preceded_by_dot && t.is(k + 1, "(") => {
                    let close = t.close(k + 1).unwrap_or(end);
                    if let Some(n) = self.str_at(k + 2) {
                        let parent = self.sym(cmd);
                        let sub = self.command(k, &n, Some(parent));
                        // The chain: `.text(…).action(…).children(…)`.
                        let mut j = close + 1;
                        while j + 2 < end && t.is(j, ".") && t.ident(j + 1).is_some() {
                            let name = t.ident(j + 1).unwrap_or("");
                            let open = j + 2;
                            if !t.is(open, "(") {
                                break;
                            }
                            let c = t.close(open).unwrap_or(end);
                            if name == "children" {
                                self.scopt_range(open + 1, c.min(end), sub);
                            }
                            j = c + 1;
                        }
                        k = j;
                        continue;
                    }
                }
                _ => {}
            }
            k += 1;
        }
    }

    // ---- decline ----

    /// The params an `Opts.x[T](…)` call at `i` (`Opts`) declares.
    fn decline_param(&self, i: usize) -> Option<(Param, usize)> {
        let t = self.t;
        let (kind, after) = if t.is_ident(i, "Opts") && t.is(i + 1, ".") {
            (t.ident(i + 2)?, i + 3)
        } else if self.bare_opts && !(i > 0 && t.is(i - 1, ".")) {
            // `import com.monovore.decline.Opts.{flag, option}`.
            (t.ident(i)?, i + 1)
        } else {
            return None;
        };
        let open = self.skip_targs(after);
        if !t.is(open, "(") {
            return None;
        }
        let close = t.close(open)?;
        let args = t.split(open + 1, close, ",");
        let first = args
            .first()
            .filter(|r| t.get(r.start).is_some_and(|x| x.kind == Kind::Str))
            .and_then(|r| self.str_at(r.start));
        let named = |key: &str| -> Option<String> {
            args.iter()
                .find(|r| t.is_ident(r.start, key) && t.is(r.start + 1, "="))
                .and_then(|r| self.str_at(r.start + 2))
        };
        let p = match kind {
            "flag" | "flags" | "option" | "options" => {
                let n = first.or_else(|| named("long"))?;
                Param::flag(flag(&n))
            }
            "env" => Param::env(first.or_else(|| named("name"))?),
            "argument" | "arguments" => {
                // No name: decline's default metavar of the type
                // (`Opts.argument[Path]()` → `path`, `Int` → `integer`).
                let by_type = || {
                    let ty = (after + 1..open)
                        .rev()
                        .find_map(|j| t.ident(j))?
                        .to_string();
                    Some(match ty.as_str() {
                        "Int" | "Long" | "BigInt" | "Short" => "integer".to_string(),
                        "Double" | "Float" | "BigDecimal" => "decimal".to_string(),
                        _ => ty.to_lowercase(),
                    })
                };
                Param::argument(first.or_else(|| named("metavar")).or_else(by_type)?)
            }
            _ => return None,
        };
        Some((p, close))
    }

    fn decline(&mut self) {
        let t = self.t;
        // `val x = …` ranges of the file.
        let mut vals: HashMap<String, (usize, usize)> = HashMap::new();
        for i in 0..t.len() {
            if (t.is_ident(i, "val") || t.is_ident(i, "def")) && t.ident(i + 1).is_some() {
                let name = t.ident(i + 1).unwrap_or("").to_string();
                let mut k = i + 2;
                // `: Opts[X]` / `(…)` before `=`; bounded.
                while k < t.len() && k < i + 40 && !t.is(k, "=") {
                    if t.is_open(k) {
                        k = t.skip_group(k);
                        continue;
                    }
                    k += 1;
                }
                if !t.is(k, "=") || t.is(k + 1, ">") {
                    continue;
                }
                let end = crate::scala::outline::stmt_end(t, k + 1, t.len());
                vals.insert(name, (k + 1, end));
            }
        }
        // Commands: `Opts.subcommand("x", …) { … }`, `Command("x", …) { … }`,
        // `CommandApp(name = "x", …, main = …)`, `CommandIOApp("x", …)`.
        struct Decl {
            at: usize,
            name: String,
            prog: Option<String>,
            body: (usize, usize),
            root: bool,
        }
        let mut decls: Vec<Decl> = Vec::new();
        for i in 0..t.len() {
            let (is_sub, is_cmd, is_app) = (
                t.is_ident(i, "subcommand") && i >= 2 && t.is_ident(i - 2, "Opts"),
                t.is_ident(i, "Command") && !(i > 0 && t.is(i - 1, ".")),
                matches!(t.ident(i), Some("CommandApp" | "CommandIOApp"))
                    && !(i > 0 && t.is(i - 1, ".")),
            );
            if !(is_sub || is_cmd || is_app) || !t.is(i + 1, "(") {
                continue;
            }
            let close = t.close(i + 1).unwrap_or(t.len());
            let args = t.split(i + 2, close, ",");
            let name = args
                .iter()
                .find(|r| t.is_ident(r.start, "name") && t.is(r.start + 1, "="))
                .and_then(|r| self.str_at(r.start + 2))
                .or_else(|| args.first().and_then(|r| self.str_at(r.start)));
            let Some(name) = name else { continue };
            // Body: the trailing block, or the `main = …` argument, or
            // everything in the call (a `Command` given its opts).
            let body = if t.is(close + 1, "{") || t.is(close + 1, "(") {
                (close + 2, t.close(close + 1).unwrap_or(t.len()))
            } else {
                (i + 2, close)
            };
            decls.push(Decl {
                at: if is_sub { i - 2 } else { i },
                name: name.clone(),
                prog: (!is_sub).then_some(name),
                body,
                root: is_app,
            });
        }
        if decls.is_empty() {
            return;
        }
        // The innermost decl of each token range, and the params / nested
        // decls each body reaches (through vals, bounded).
        let mut idx = Vec::new();
        for d in &decls {
            let c = self.command(d.at, &d.name, None);
            // `val add = Opts.subcommand(…)`: other files name it `add`.
            let holder = vals
                .iter()
                .filter(|(_, &(vs, _))| vs == d.at)
                .map(|(n, _)| n.clone())
                .next();
            if let Some(Fact::Command(cmd)) = self.out.get_mut(c) {
                cmd.prog = d.prog.clone();
                cmd.symbols.extend(holder);
            }
            idx.push(c);
        }
        // Vals of plain options, for commands of other files.
        let mut names: Vec<&String> = vals.keys().collect();
        names.sort();
        for n in names {
            let (vs, ve) = vals[n];
            if decls.iter().any(|d| vs <= d.at && d.at < ve) {
                continue;
            }
            let mut params = Vec::new();
            let mut k = vs;
            while k < ve {
                if let Some((p, close)) = self.decline_param(k) {
                    params.push(p);
                    k = close + 1;
                    continue;
                }
                k += 1;
            }
            if !params.is_empty() {
                self.extra.push(ScFact::Val {
                    name: n.clone(),
                    params,
                });
            }
        }
        for (di, d) in decls.iter().enumerate() {
            let mut stack = vec![(d.body.0, d.body.1, 0usize)];
            let mut seen: Vec<String> = Vec::new();
            let mut foreign: Vec<String> = Vec::new();
            while let Some((s, e, depth)) = stack.pop() {
                let mut k = s;
                while k < e {
                    // A nested decl: a child; skip its body.
                    if let Some(cj) = decls.iter().position(|x| x.at == k && x.body.0 > s) {
                        if cj != di && !decls[cj].root {
                            let psym = self.sym(idx[di]);
                            if let Some(Fact::Command(c)) = self.out.get_mut(idx[cj]) {
                                if c.parent.is_none() {
                                    c.parent = Some(psym);
                                }
                            }
                            k = decls[cj].body.1.max(k + 1);
                            continue;
                        }
                    }
                    if let Some((p, close)) = self.decline_param(k) {
                        self.push(idx[di], p);
                        k = close + 1;
                        continue;
                    }
                    if let Some(n) = t.ident(k) {
                        // `x`, or `Obj.x` (not a method of a value: `.orNone`).
                        let qualified_ok = !(k > 0 && t.is(k - 1, "."))
                            || (k >= 2
                                && t.ident(k - 2)
                                    .is_some_and(|o| o.starts_with(char::is_uppercase)));
                        if qualified_ok && depth < 8 && !seen.iter().any(|x| x == n) {
                            if let Some(&(vs, ve)) = vals.get(n) {
                                if !(vs <= k && k < ve) {
                                    seen.push(n.to_string());
                                    stack.push((vs, ve, depth + 1));
                                }
                            } else if k > 0 && t.is(k - 1, ".") && !foreign.iter().any(|x| x == n) {
                                foreign.push(n.to_string());
                            }
                        }
                    }
                    k += 1;
                }
            }
            if !foreign.is_empty() {
                let sym = self.sym(idx[di]);
                for n in &foreign {
                    self.out.push(Fact::Attach(Attach {
                        path: self.path.to_string(),
                        parent: sym.clone(),
                        child: n.clone(),
                        name: None,
                        merged: false,
                    }));
                }
                self.extra.push(ScFact::Uses {
                    sym,
                    names: foreign,
                });
            }
        }
    }

    // ---- mainargs ----

    fn mainargs(&mut self) {
        let t = self.t;
        // `@main` methods / case classes.
        let mut mains: Vec<(usize, String, Vec<Param>, bool)> = Vec::new();
        for i in 0..t.len() {
            if !(t.is(i, "@") && t.is_ident(i + 1, "main")) {
                continue;
            }
            let mut k = i + 2;
            if t.is(k, "(") {
                k = t.close(k).map_or(k + 1, |c| c + 1);
            }
            // Other annotations and modifiers.
            while k < t.len() && k < i + 20 && !matches!(t.ident(k), Some("def" | "class")) {
                k += 1;
            }
            let is_class = t.is_ident(k, "class");
            let Some(name) = t.ident(k + 1) else { continue };
            let open = self.skip_targs(k + 2);
            if !t.is(open, "(") {
                mains.push((i, name.to_string(), Vec::new(), is_class));
                continue;
            }
            let close = t.close(open).unwrap_or(t.len());
            let mut params = Vec::new();
            for r in t.split(open + 1, close, ",") {
                let mut j = r.start;
                let (mut rename, mut positional) = (None, false);
                while t.is(j, "@") {
                    let is_arg = t.is_ident(j + 1, "arg");
                    let mut a = j + 2;
                    if t.is(a, "(") {
                        let c = t.close(a).unwrap_or(r.end);
                        if is_arg {
                            for ar in t.split(a + 1, c, ",") {
                                match t.ident(ar.start) {
                                    Some("name") => rename = self.str_at(ar.start + 2),
                                    Some("positional") => {
                                        positional = t.is_ident(ar.start + 2, "true")
                                    }
                                    _ => {}
                                }
                            }
                        }
                        a = c + 1;
                    }
                    j = a;
                }
                while matches!(t.ident(j), Some("val" | "var" | "implicit")) {
                    j += 1;
                }
                let Some(pname) = t.ident(j) else { continue };
                let pname = rename.unwrap_or_else(|| pname.to_string());
                params.push(if positional {
                    Param::argument(pname)
                } else {
                    Param::flag(format!("--{pname}"))
                });
            }
            mains.push((i, name.to_string(), params, is_class));
        }
        if mains.is_empty() {
            return;
        }
        let for_methods_at =
            (0..t.len()).find(|&i| t.is_ident(i, "ParserForMethods") && t.is(i + 1, "("));
        let for_methods = for_methods_at.is_some();
        let for_class: Vec<String> = (0..t.len())
            .filter(|&i| t.is_ident(i, "ParserForClass") && t.is(i + 1, "["))
            .filter_map(|i| t.ident(i + 2).map(str::to_string))
            .collect();
        let methods: Vec<_> = mains.iter().filter(|m| !m.3).collect();
        if for_methods && methods.len() == 1 {
            let (at, _, params, _) = methods[0];
            let c = self.command(*at, "", None);
            for p in params.clone() {
                self.push(c, p);
            }
        } else if for_methods && methods.len() > 1 {
            let root = self.command(for_methods_at.unwrap_or(methods[0].0), "", None);
            let sym = self.sym(root);
            for (at, name, params, _) in methods {
                let c = self.command(*at, name, Some(sym.clone()));
                for p in params.clone() {
                    self.push(c, p);
                }
            }
        }
        for (at, name, params, is_class) in &mains {
            if *is_class && for_class.contains(name) {
                let c = self.command(*at, "", None);
                for p in params.clone() {
                    self.push(c, p);
                }
            }
        }
    }
}
