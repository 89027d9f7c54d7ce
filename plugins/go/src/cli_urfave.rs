//! urfave/cli (v1, v2, v3) for `go_cli` (see docs/cli-surface.md).
//!
//! - `&cli.App{Name:, Flags:, Commands:}` (v1/v2) is a program's root; a
//!   `&cli.Command{…}` literal is a command: nested in a `Commands:` /
//!   `Subcommands:` list, or on its own (then the root when its variable
//!   is `.Run(…)` in the file, as v3 roots are, else a command that some
//!   list names by variable or by the function returning it — in any file
//!   — and dropped when nothing does).
//! - Flags: each `&cli.StringFlag{Name: "lang", Aliases:, EnvVars:
//!   []string{"X"}}` (any `…Flag` type) in `Flags:` is `--lang` (`-l` for a
//!   one-letter name; v1's `Name: "lang, l"` keeps the first), its
//!   variables (`EnvVars`, v1 `EnvVar: "A,B"`, v3 `Sources:
//!   cli.EnvVars("X")`) env params.
//! - Arguments: the bracketed words of `ArgsUsage: "<src> [dst]"`, and v3
//!   `Arguments: []cli.Argument{&cli.StringArg{Name: "x"}}`.
//! - The package is found by its import (`"github.com/urfave/cli/v2"`,
//!   possibly aliased).

use crate::cli::{cmd_dir, field, functions, string_at};
use portolan_plugin_sdk::cli::{Attach, Command, Fact};
use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::text::LineIndex;
use std::collections::HashSet;
use std::ops::Range;

/// Parent of stand-alone commands until a list names them: never resolves.
const UNATTACHED: &str = "urfave:unattached";

/// The name the file imports urfave/cli under, if it does.
fn package_alias(text: &str) -> Option<String> {
    for line in text.lines() {
        let l = line.trim().trim_start_matches("import").trim();
        let Some(q) = l.find("\"github.com/urfave/cli") else {
            continue;
        };
        let alias = l[..q].trim();
        if alias.is_empty() {
            return Some("cli".into());
        }
        if alias.bytes().all(is_ident_byte) {
            return Some(alias.to_string());
        }
    }
    None
}

/// The `Commands:` elements of an App/Command literal, and everything
/// else it declares.
struct Scan<'a> {
    code: &'a Code<'a>,
    file: &'a SourceFile,
    index: LineIndex,
    pkg: String,
    facts: Vec<Fact>,
    done: HashSet<usize>,
    n: usize,
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    if !file.content.contains("urfave/cli") {
        return Vec::new();
    }
    let code = file.code(Syntax::GO);
    let Some(pkg) = package_alias(code.text()) else {
        return Vec::new();
    };
    let mut s = Scan {
        code: &code,
        file,
        index: LineIndex::new(code.source()),
        pkg: pkg.clone(),
        facts: Vec::new(),
        done: HashSet::new(),
        n: 0,
    };
    let text = code.text();
    let funcs = functions(&code);
    let mut tops: Vec<(usize, usize, bool)> = Vec::new();
    for (lit, app) in [
        (format!("{pkg}.App{{"), true),
        (format!("{pkg}.Command{{"), false),
    ] {
        for at in code.find_all(&lit) {
            if at > 0 && is_ident_byte(text.as_bytes()[at - 1]) {
                continue;
            }
            tops.push((at + lit.len() - 1, at, app));
        }
    }
    tops.sort();
    // v1: `app := cli.NewApp()`.
    let mut new_apps: Vec<(usize, String)> = Vec::new();
    for at in code.find_all(&format!("{pkg}.NewApp()")) {
        if let Some(v) = assigned_var(text, at) {
            new_apps.push((at, v));
        }
    }
    for (open, start, app) in tops {
        if s.done.contains(&open) {
            continue;
        }
        let var = assigned_var(text, start);
        let func = funcs
            .iter()
            .find(|(_, r)| r.start <= open && open <= r.end)
            .map(|(n, _)| n.clone());
        let mut symbols = Vec::new();
        if let Some(v) = &var {
            symbols.push(v.clone());
        }
        if let Some(f) = func.as_ref().filter(|f| *f != "main" && *f != "init") {
            symbols.push(f.clone());
        }
        let runs = var
            .as_ref()
            .is_some_and(|v| code.find_all(&format!("{v}.Run(")).next().is_some());
        let parent = (!app && !runs).then(|| UNATTACHED.to_string());
        s.command(open, symbols, parent);
    }
    for (at, var) in new_apps {
        s.v1_app(at, &var);
    }
    s.facts
}

/// `x := ` / `x = ` / `var x = ` before `at` on its line.
fn assigned_var(text: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..at]
        .trim_end()
        .trim_end_matches('&')
        .trim_end();
    let lhs = before
        .strip_suffix(":=")
        .or_else(|| before.strip_suffix('='))?
        .trim();
    let lhs = lhs.trim_start_matches("var ").trim();
    let v = lhs.split_whitespace().next()?;
    let v = v.rsplit('.').next().unwrap_or(v);
    (!v.is_empty() && v.bytes().all(is_ident_byte)).then(|| v.to_string())
}

impl Scan<'_> {
    fn uid(&mut self) -> String {
        self.n += 1;
        format!("urfave:{}:{}", self.file.path, self.n)
    }

    /// The App/Command literal whose `{` is at `open`.
    fn command(&mut self, open: usize, mut symbols: Vec<String>, parent: Option<String>) {
        self.done.insert(open);
        let Some(close) = self.code.matching(open) else {
            return;
        };
        let code = self.code;
        let id = self.uid();
        symbols.insert(0, id.clone());
        let name = field(code, open, close, "Name")
            .and_then(|r| string_at(code, r))
            .unwrap_or_default();
        let mut params = Vec::new();
        if let Some(r) = field(code, open, close, "Flags") {
            params.extend(self.flags(r));
        }
        if let Some(r) = field(code, open, close, "ArgsUsage") {
            if let Some(u) = string_at(code, r) {
                params.extend(usage_args(&u));
            }
        }
        if let Some(r) = field(code, open, close, "Arguments") {
            for at in code.find_all_in("Arg{", r.clone()) {
                let o = at + 3;
                if let Some(c) = code.matching(o) {
                    if let Some(n) = field(code, o, c, "Name").and_then(|r| string_at(code, r)) {
                        params.push(Param::argument(n));
                    }
                }
            }
        }
        let line = self.index.line_of(open);
        let prog = cmd_dir(&self.file.path).or_else(|| (!name.is_empty()).then(|| name.clone()));
        self.facts.push(Fact::Command(Command {
            path: self.file.path.clone(),
            line,
            symbols,
            parent,
            name,
            prog,
            params,
            ..Command::default()
        }));
        for list in ["Commands", "Subcommands"] {
            if let Some(r) = field(code, open, close, list) {
                self.children(r, &id);
            }
        }
    }

    /// The elements of a `[]*cli.Command{…}` list at `r`.
    fn children(&mut self, r: Range<usize>, parent: &str) {
        let code = self.code;
        let text = code.text();
        // `Commands: commands` / `app.Commands = commands`: the list a
        // variable of the file holds.
        let r = match list_var(code, r.clone()) {
            Some(v) => v,
            None => r,
        };
        let Some(brace) = text
            .get(r.clone())
            .and_then(|s| s.find('{'))
            .map(|i| r.start + i)
        else {
            return;
        };
        let Some(close) = code.matching(brace) else {
            return;
        };
        for el in code.split_top_level(brace + 1, close, b',') {
            let s = code.slice(el.clone()).trim();
            let body = s.trim_start_matches('&');
            let lit = format!("{}.Command{{", self.pkg);
            if body.starts_with('{') || body.starts_with(&lit) {
                let open = el.start + s.find('{').unwrap_or(0);
                self.command(open, Vec::new(), Some(parent.to_string()));
                continue;
            }
            // `serveCommand()`, `cmd.Deploy`, `pkg.NewCmd(cfg)`.
            let head = s.split('(').next().unwrap_or("").trim();
            let child = head
                .rsplit('.')
                .next()
                .unwrap_or(head)
                .trim_start_matches('&');
            if !child.is_empty() && child.bytes().all(is_ident_byte) {
                self.facts.push(Fact::Attach(Attach {
                    path: self.file.path.clone(),
                    parent: parent.to_string(),
                    child: child.to_string(),
                    name: None,
                    merged: false,
                }));
            }
        }
    }

    /// The flags of a `[]cli.Flag{…}` value at `r`.
    fn flags(&self, r: Range<usize>) -> Vec<Param> {
        let code = self.code;
        let text = code.text();
        let mut out = Vec::new();
        for at in code.find_all_in("Flag{", r) {
            // `cli.StringFlag{`, `&cli.BoolFlag{`: the type before it.
            let mut b = at;
            while b > 0 && is_ident_byte(text.as_bytes()[b - 1]) {
                b -= 1;
            }
            if b == 0 || text.as_bytes()[b - 1] != b'.' || !text[..b - 1].ends_with(&self.pkg) {
                continue;
            }
            let open = at + 4;
            let Some(close) = code.matching(open) else {
                continue;
            };
            let Some(name) = field(code, open, close, "Name").and_then(|r| string_at(code, r))
            else {
                continue;
            };
            let name = name.split(',').next().unwrap_or("").trim();
            if name.is_empty() {
                continue;
            }
            let p = if name.chars().count() == 1 {
                Param::flag(format!("-{name}"))
            } else {
                Param::flag(format!("--{name}"))
            };
            if !out.contains(&p) {
                out.push(p);
            }
            let mut envs: Vec<String> = Vec::new();
            if let Some(v) = field(code, open, close, "EnvVars") {
                if let Some(b) = text.get(v.clone()).and_then(|t| t.find('{')) {
                    envs.extend(
                        code.args(v.start + b)
                            .into_iter()
                            .filter_map(|a| string_at(code, a)),
                    );
                }
            }
            if let Some(v) = field(code, open, close, "Sources") {
                for e in code.find_all_in("EnvVar", v) {
                    let p = e + if text[e..].starts_with("EnvVars(") {
                        7
                    } else {
                        6
                    };
                    if text.as_bytes().get(p) == Some(&b'(') {
                        envs.extend(code.args(p).into_iter().filter_map(|a| string_at(code, a)));
                    }
                }
            }
            if let Some(v) = field(code, open, close, "EnvVar").and_then(|r| string_at(code, r)) {
                envs.extend(v.split(',').map(|s| s.trim().to_string()));
            }
            for e in envs {
                let p = Param::env(e);
                if !p.name.is_empty() && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// v1: `app := cli.NewApp()`, then `app.Name = "x"`, `app.Flags =
    /// []cli.Flag{…}`, `app.Commands = []cli.Command{…}`.
    fn v1_app(&mut self, at: usize, var: &str) {
        let code = self.code;
        let text = code.text();
        let id = self.uid();
        let mut name = String::new();
        let mut params = Vec::new();
        let mut lists = Vec::new();
        for a in code.find_all(&format!("{var}.")) {
            if a > 0 && is_ident_byte(text.as_bytes()[a - 1]) {
                continue;
            }
            let f = a + var.len() + 1;
            let Some(key) = code.ident_at(f) else {
                continue;
            };
            let eq = code.skip_ws(f + key.len());
            if text.as_bytes().get(eq) != Some(&b'=') || text.as_bytes().get(eq + 1) == Some(&b'=')
            {
                continue;
            }
            let line_end = text[eq..].find('\n').map_or(text.len(), |i| eq + i);
            let v = code.skip_ws(eq + 1);
            match key {
                "Name" => name = string_at(code, v..line_end).unwrap_or_default(),
                "Commands" if list_var(code, v..line_end).is_some() => lists.push(v..line_end),
                "Flags" | "Commands" => {
                    let Some(b) = text[v..].find('{').map(|i| v + i) else {
                        continue;
                    };
                    let end = code.matching(b).map_or(line_end, |c| c + 1);
                    if key == "Flags" {
                        params.extend(self.flags(v..end));
                    } else {
                        lists.push(v..end);
                    }
                }
                _ => {}
            }
        }
        let prog = cmd_dir(&self.file.path).or_else(|| (!name.is_empty()).then(|| name.clone()));
        self.facts.push(Fact::Command(Command {
            path: self.file.path.clone(),
            line: self.index.line_of(at),
            symbols: vec![id.clone(), var.to_string()],
            name,
            prog,
            params,
            ..Command::default()
        }));
        for r in lists {
            self.children(r, &id);
        }
    }
}

/// When `r` is a bare identifier, the value its `var x = []*cli.Command{…}`
/// / `x := …` declaration in the file assigns.
fn list_var(code: &Code<'_>, r: Range<usize>) -> Option<Range<usize>> {
    let v = code.slice(r).trim();
    if v.is_empty() || !v.bytes().all(is_ident_byte) {
        return None;
    }
    let text = code.text();
    code.find_word(v).find_map(|at| {
        let mut i = code.skip_inline_ws(at + v.len());
        if text[i..].starts_with(":=") {
            i += 2;
        } else if text[i..].starts_with('=') && !text[i..].starts_with("==") {
            i += 1;
        } else {
            return None;
        }
        let i = code.skip_ws(i);
        text[i..].starts_with("[]").then(|| {
            let end = text[i..]
                .find('{')
                .and_then(|b| code.matching(i + b))
                .map_or(text.len(), |c| c + 1);
            i..end
        })
    })
}

/// The bracketed words of an `ArgsUsage` (`<src> [dst...]`).
fn usage_args(u: &str) -> Vec<Param> {
    u.split_whitespace()
        .filter_map(|w| {
            let w = w.trim_end_matches("...");
            let inner = w
                .strip_prefix('[')
                .and_then(|w| w.strip_suffix(']'))
                .or_else(|| w.strip_prefix('<').and_then(|w| w.strip_suffix('>')))?;
            let a = inner.trim_end_matches("...");
            (!a.is_empty() && !a.contains('|') && !a.starts_with('-') && a != "options")
                .then(|| Param::argument(a))
        })
        .collect()
}
