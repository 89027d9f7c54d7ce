//! Command-line programs (`python_cli`; see docs/cli-surface.md): argparse,
//! click and Typer parsers as `cli://<binary>/<subcommand>` endpoints.
//!
//! - argparse: `ArgumentParser(prog=…)` is a root; `add_subparsers()` and
//!   `add_parser('name')` nest (`add_parser` on a subparsers object that is
//!   a function parameter — `def register(subparsers):` in another file —
//!   hangs under the project's one parser that has subparsers);
//!   `add_argument('--x', '-x')` is a flag, `add_argument('path')` an
//!   argument, also through `add_argument_group` / mutually exclusive
//!   groups; a `default=os.environ.get('X')` (or `os.getenv`) is env `X`.
//! - click: `@click.group` / `@click.command` (bare `@group`, `@command`
//!   after `from click import`), `@<group>.command` / `@<group>.group`
//!   nest, also across files, and `<group>.add_command(cmd, name=…)`. Names
//!   come from the decorator (`'name'` / `name=`) or the function
//!   (`_` → `-`, a `_command` / `_cmd` / `_group` / `_grp` suffix dropped,
//!   as click 8.2 does). `@click.option` → flag (+ `envvar=` → env),
//!   `@click.argument` → argument, `password_option` / `version_option` /
//!   `confirmation_option` / `help_option` → their flags.
//! - Typer: `app = typer.Typer()`, `@app.command()` (name or function name
//!   with `_` → `-`), `@app.callback()` params belong to the app's own
//!   command, `app.add_typer(sub, name='x')` nests (without a name the
//!   sub-app's commands join the parent). A function parameter with a
//!   `typer.Argument` or without a default is an argument; one with a
//!   default or `typer.Option(…, '--x')` (also inside `Annotated[…]`) is a
//!   flag (`--name` from the parameter when no name is given); `envvar=` →
//!   env. An app with a single command, no callback and no sub-apps runs
//!   that command at the root, as Typer does.
//! - Binary name: a `[project.scripts]` / `[tool.poetry.scripts]` entry
//!   (pyproject.toml), `console_scripts` (setup.py, setup.cfg) whose target
//!   `pkg.module:func` names the root (its module and the function, group or
//!   app), else `prog=`, else the only script the project declares, else
//!   the file stem (see `portolan_plugin_sdk::cli`).
//!
//! Files in test paths are skipped: tests build parsers too.

use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;
use std::collections::HashMap;
use std::ops::Range;

use crate::py::call::{call_at, string_list, Call};
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::outline::{outline, Def, DefKind};
use crate::py::strexpr::StrExpr;

pub struct PythonCli;

impl Analyzer for PythonCli {
    fn tech(&self) -> Tech {
        Tech::new("python_cli", "Python", "CLI")
            .aliases(["argparse", "click", "typer", "python-cli"])
            .files(["*.py", "pyproject.toml", "setup.cfg"])
            .requires_any([
                "argparse",
                "add_parser(",
                "click",
                "typer",
                "console_scripts",
                "scripts",
            ])
            .detect(Detect::files(["*.py"]).regex([
                r"^\s*(import\s+(argparse|click|typer)\b|from\s+(argparse|click|typer)\s+import\b)",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        let name = path.rsplit('/').next().unwrap_or("");
        if name == "pyproject.toml" {
            for s in pyproject_scripts(&file.content) {
                out.fact(&Fact::Script(s));
            }
            return;
        }
        if name == "setup.cfg" {
            for s in setup_cfg_scripts(&file.content) {
                out.fact(&Fact::Script(s));
            }
            return;
        }
        if is_test_path(&file.path) {
            return;
        }
        let code = file.code(Syntax::PYTHON);
        if name == "setup.py" {
            for s in setup_py_scripts(&code) {
                out.fact(&Fact::Script(s));
            }
            return;
        }
        for f in scan(file, &code) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut all: Vec<Fact> = facts.all();
        // argparse subparsers passed to a function in another file: hang
        // them under the project's one parser with subparsers.
        let holders: Vec<String> = all
            .iter()
            .filter_map(|f| match f {
                Fact::Command(c) => c.symbols.iter().find(|s| s.starts_with(SUBS)).cloned(),
                _ => None,
            })
            .collect();
        for f in &mut all {
            if let Fact::Command(c) = f {
                if c.parent.as_deref() == Some(UNKNOWN_SUBS) {
                    c.parent = (holders.len() == 1).then(|| holders[0].clone());
                }
            }
        }
        Ok(cli::link(all, &entry_matches))
    }
}

/// Symbol prefix of an argparse parser that has subparsers.
const SUBS: &str = "argparse-subparsers:";
/// Parent of an `add_parser` whose subparsers object is not in the file.
const UNKNOWN_SUBS: &str = "argparse-subparsers?";

/// `pkg.cli:main` names a root declared in `…/pkg/cli.py` (or
/// `pkg/cli/__init__.py`): 2 when under the symbol `main` (or in the
/// function `main`), 1 for another root of that module.
fn entry_matches(entry: &str, c: &Command) -> u8 {
    let Some((module, func)) = entry.trim().split_once(':') else {
        return 0;
    };
    let func = func.trim().split('.').next().unwrap_or("");
    let module = module.trim().replace('.', "/");
    let path = c.path.trim_end_matches(".py");
    let path = path.strip_suffix("/__init__").unwrap_or(path);
    let module_ok = path == module || path.ends_with(&format!("/{module}"));
    match (module_ok, c.entry.iter().any(|e| e == func)) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

fn pyproject_scripts(text: &str) -> Vec<Script> {
    let mut out = Vec::new();
    let mut in_scripts = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_scripts = matches!(t, "[project.scripts]" | "[tool.poetry.scripts]");
            continue;
        }
        if !in_scripts {
            continue;
        }
        if let Some((k, v)) = t.split_once('=') {
            let name = k.trim().trim_matches('"').trim_matches('\'');
            let entry = v.trim().trim_matches('"').trim_matches('\'');
            if !name.is_empty() && entry.contains(':') {
                out.push(Script {
                    name: name.to_string(),
                    entry: entry.to_string(),
                });
            }
        }
    }
    out
}

fn script_spec(s: &str) -> Option<Script> {
    let (name, entry) = s.split_once('=')?;
    let (name, entry) = (name.trim(), entry.trim());
    (!name.is_empty() && !name.contains(' ') && entry.contains(':')).then(|| Script {
        name: name.to_string(),
        entry: entry.to_string(),
    })
}

fn setup_cfg_scripts(text: &str) -> Vec<Script> {
    let mut out = Vec::new();
    let mut in_entries = false;
    let mut in_console = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_entries = t == "[options.entry_points]";
            in_console = false;
            continue;
        }
        if !in_entries || t.is_empty() || t.starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            in_console = t.starts_with("console_scripts");
            continue;
        }
        if in_console {
            out.extend(script_spec(t));
        }
    }
    out
}

fn setup_py_scripts(code: &Code<'_>) -> Vec<Script> {
    if !code.source().contains("console_scripts") {
        return Vec::new();
    }
    code.strings()
        .into_iter()
        .filter_map(|s| script_spec(&s.value))
        .collect()
}

/// The string literal value of an argument.
fn lit(code: &Code<'_>, r: Range<usize>) -> Option<String> {
    StrExpr::parse(code, r)?.literal()
}

/// Every string literal among a call's positional arguments.
fn positional_strings(code: &Code<'_>, call: &Call) -> Vec<String> {
    call.args
        .iter()
        .filter(|a| a.name.is_none() && !a.star)
        .filter_map(|a| lit(code, a.value.clone()))
        .collect()
}

/// `'X'`, `['X', 'Y']` or `('X',)` → the names.
fn env_names(code: &Code<'_>, r: Range<usize>) -> Vec<String> {
    lit(code, r.clone())
        .map(|s| vec![s])
        .or_else(|| string_list(code, r))
        .unwrap_or_default()
}

/// `os.environ.get('X')`, `os.getenv('X')`, `os.environ['X']` in `r`.
fn environ_read(code: &Code<'_>, r: Range<usize>) -> Option<String> {
    let text = code.slice(r.clone());
    for pat in ["environ.get(", "getenv(", "environ["] {
        if let Some(i) = text.find(pat) {
            let open = r.start + i + pat.len() - 1;
            let first = code.args(open).into_iter().next()?;
            return lit(code, first);
        }
    }
    None
}

struct Scan<'a, 'c> {
    file: &'a SourceFile,
    code: &'a Code<'c>,
    index: LineIndex,
    facts: Vec<Fact>,
}

use portolan_plugin_sdk::text::LineIndex;

impl Scan<'_, '_> {
    fn line(&self, offset: usize) -> u32 {
        self.index.line_of(offset)
    }

    fn command(&mut self, c: Command) -> usize {
        self.facts.push(Fact::Command(c));
        self.facts.len() - 1
    }

    fn cmd_mut(&mut self, i: usize) -> Option<&mut Command> {
        match self.facts.get_mut(i) {
            Some(Fact::Command(c)) => Some(c),
            _ => None,
        }
    }
}

fn scan(file: &SourceFile, code: &Code<'_>) -> Vec<Fact> {
    let src = code.text();
    let argparse = src.contains("ArgumentParser") || src.contains("add_parser(");
    let click = src.contains("click");
    let typer = src.contains("typer") || src.contains("Typer");
    if !(argparse || click || typer) {
        return Vec::new();
    }
    let lines = logical_lines(code);
    let defs = outline(code, &lines);
    let mut s = Scan {
        file,
        code,
        index: LineIndex::new(code.source()),
        facts: Vec::new(),
    };
    if argparse {
        scan_argparse(&mut s, &lines, &defs);
    }
    let typer_apps = if typer {
        scan_typer_apps(&mut s, &lines)
    } else {
        HashMap::new()
    };
    if click || typer {
        scan_decorated(&mut s, &defs, &typer_apps, typer && !click);
        scan_attach(&mut s, &lines);
    }
    if typer {
        single_command_apps(&mut s, &typer_apps);
    }
    s.facts
}

/// The top-level function enclosing `offset` (for entry-point matching).
fn enclosing_function(defs: &[Def], offset: usize) -> Option<String> {
    defs.iter()
        .filter(|d| d.kind == DefKind::Function && d.parent.is_none())
        .find(|d| d.body.start <= offset && offset <= d.body.end)
        .map(|d| d.name.clone())
}

/// `name = <call>` at the start of a logical line: the name and the call.
fn assigned_call(code: &Code<'_>, line: &LogicalLine) -> (Option<String>, Option<Call>) {
    let text = line.text(code);
    let mut at = line.start;
    let mut target = None;
    if let Some(eq) = text.find('=') {
        let lhs = text[..eq].trim();
        let after = text.as_bytes().get(eq + 1);
        if !lhs.is_empty()
            && after != Some(&b'=')
            && lhs
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            target = Some(lhs.rsplit('.').next().unwrap_or(lhs).to_string());
            at = code.skip_ws(line.start + eq + 1);
        }
    }
    (target, call_at(code, at))
}

fn scan_argparse(s: &mut Scan<'_, '_>, lines: &[LogicalLine], defs: &[Def]) {
    let code = s.code;
    // Variable → fact index of the command it configures; subparsers
    // objects → the command they add to.
    let mut parsers: HashMap<String, usize> = HashMap::new();
    let mut subparsers: HashMap<String, usize> = HashMap::new();
    for line in lines {
        let (target, call) = assigned_call(code, line);
        let Some(call) = call else { continue };
        let method = call.method().to_string();
        let recv = call
            .receiver()
            .map(|r| r.rsplit('.').next().unwrap_or(r).to_string());
        if method == "ArgumentParser" {
            let prog = call.keyword("prog").and_then(|r| lit(code, r));
            let mut entry: Vec<String> = enclosing_function(defs, call.start).into_iter().collect();
            let sym = target.clone().unwrap_or_default();
            entry.push(sym.clone());
            let i = s.command(Command {
                path: s.file.path.clone(),
                line: s.line(call.start),
                symbols: vec![format!("argparse:{}:{}", s.file.path, call.start)],
                prog,
                entry,
                ..Command::default()
            });
            if let Some(t) = target {
                parsers.insert(t, i);
            }
            continue;
        }
        let Some(recv) = recv else { continue };
        match method.as_str() {
            "add_subparsers" => {
                if let (Some(t), Some(&p)) = (target, parsers.get(&recv)) {
                    subparsers.insert(t, p);
                    let holder = format!("{SUBS}{}:{p}", s.file.path);
                    if let Some(c) = s.cmd_mut(p) {
                        if !c.symbols.contains(&holder) {
                            c.symbols.push(holder);
                        }
                    }
                }
            }
            "add_parser" => {
                let Some(name) = call.arg(0, "name").and_then(|r| lit(code, r)) else {
                    continue;
                };
                let parent = match subparsers.get(&recv) {
                    Some(&p) => match s.facts.get(p) {
                        Some(Fact::Command(c)) => c.symbols.first().cloned(),
                        _ => None,
                    },
                    None => Some(UNKNOWN_SUBS.to_string()),
                };
                let i = s.command(Command {
                    path: s.file.path.clone(),
                    line: s.line(call.start),
                    symbols: vec![format!("argparse:{}:{}", s.file.path, call.start)],
                    parent,
                    name,
                    ..Command::default()
                });
                if let Some(t) = target {
                    parsers.insert(t, i);
                }
            }
            "add_argument_group" | "add_mutually_exclusive_group" => {
                if let (Some(t), Some(&p)) = (target, parsers.get(&recv)) {
                    parsers.insert(t, p);
                }
            }
            "add_argument" => {
                let Some(&p) = parsers.get(&recv) else {
                    continue;
                };
                let names = positional_strings(code, &call);
                let mut params = Vec::new();
                if let Some(flag) = cli::flag_name(names.iter().map(String::as_str)) {
                    params.push(Param::flag(flag));
                } else if let Some(first) = names.first() {
                    params.push(Param::argument(first.clone()));
                }
                if let Some(env) = call.keyword("default").and_then(|r| environ_read(code, r)) {
                    params.push(Param::env(env));
                }
                if let Some(c) = s.cmd_mut(p) {
                    c.params.extend(params);
                }
            }
            _ => {}
        }
    }
}

/// `app = typer.Typer(name=…)`: variable → (fact index, own name).
fn scan_typer_apps(s: &mut Scan<'_, '_>, lines: &[LogicalLine]) -> HashMap<String, usize> {
    let code = s.code;
    let mut apps = HashMap::new();
    for line in lines {
        let (Some(target), Some(call)) = assigned_call(code, line) else {
            continue;
        };
        if call.method() != "Typer" {
            continue;
        }
        let name = call
            .keyword("name")
            .and_then(|r| lit(code, r))
            .unwrap_or_default();
        let i = s.command(Command {
            path: s.file.path.clone(),
            line: s.line(call.start),
            symbols: vec![target.clone()],
            name,
            entry: vec![target.clone()],
            ..Command::default()
        });
        apps.insert(target, i);
    }
    apps
}

/// click's default command name: `_` → `-`, one of click 8.2's suffixes
/// dropped.
fn click_name(func: &str) -> String {
    let mut n = func;
    for suffix in ["_command", "_cmd", "_group", "_grp"] {
        if let Some(stripped) = n.strip_suffix(suffix).filter(|s| !s.is_empty()) {
            n = stripped;
            break;
        }
    }
    n.replace('_', "-")
}

fn scan_decorated(
    s: &mut Scan<'_, '_>,
    defs: &[Def],
    typer_apps: &HashMap<String, usize>,
    typer_only: bool,
) {
    let code = s.code;
    for def in defs.iter().filter(|d| d.kind == DefKind::Function) {
        // The decorator declaring the command, if any.
        let mut decl: Option<(usize, String, Option<String>, bool)> = None;
        for d in &def.decorators {
            let n = d.name.as_str();
            let (recv, method) = match n.rsplit_once('.') {
                Some((r, m)) => (Some(r), m),
                None => (None, n),
            };
            let explicit = d.call.as_ref().and_then(|c| {
                c.arg(0, "name")
                    .and_then(|r| lit(code, r))
                    .filter(|_| c.positional(0).is_some() || c.keyword("name").is_some())
            });
            match (recv, method) {
                (None | Some("click"), "command" | "group") => {
                    decl = Some((d.at, String::new(), explicit, false));
                }
                (Some(r), "command" | "group") if r != "typer" => {
                    decl = Some((d.at, r.to_string(), explicit, false));
                }
                (Some(r), "callback") if typer_apps.contains_key(r) => {
                    decl = Some((d.at, r.to_string(), None, true));
                }
                _ => {}
            }
        }
        let Some((at, parent, explicit, callback)) = decl else {
            continue;
        };
        let is_typer = typer_apps.contains_key(&parent) || (typer_only && !parent.is_empty());
        let params = if is_typer {
            typer_params(code, def)
        } else {
            click_params(code, def)
        };
        if callback {
            if let Some(&i) = typer_apps.get(&parent) {
                if let Some(c) = s.cmd_mut(i) {
                    c.params.extend(params);
                    c.symbols.push(format!("typer-callback:{parent}"));
                }
            }
            continue;
        }
        let name = explicit.unwrap_or_else(|| {
            if is_typer {
                def.name.replace('_', "-")
            } else {
                click_name(&def.name)
            }
        });
        let c = Command {
            path: s.file.path.clone(),
            line: s.line(at),
            symbols: vec![def.name.clone()],
            parent: (!parent.is_empty()).then_some(parent),
            name,
            entry: vec![def.name.clone()],
            params,
            ..Command::default()
        };
        s.command(c);
    }
}

fn click_params(code: &Code<'_>, def: &Def) -> Vec<Param> {
    let mut out = Vec::new();
    for d in &def.decorators {
        let method = d.name.rsplit('.').next().unwrap_or(&d.name);
        let Some(call) = &d.call else {
            continue;
        };
        match method {
            "option" => {
                let names = positional_strings(code, call);
                if let Some(f) = cli::flag_name(names.iter().map(String::as_str)) {
                    out.push(Param::flag(f));
                }
            }
            "argument" => {
                if let Some(n) = positional_strings(code, call).into_iter().next() {
                    out.push(Param::argument(n));
                }
            }
            "password_option" => out.push(Param::flag("--password")),
            "version_option" => out.push(Param::flag("--version")),
            "confirmation_option" => out.push(Param::flag("--yes")),
            "help_option" => out.push(Param::flag("--help")),
            _ => continue,
        }
        if let Some(r) = call.keyword("envvar") {
            out.extend(env_names(code, r).into_iter().map(Param::env));
        }
    }
    out
}

/// The parameters of a Typer command function.
fn typer_params(code: &Code<'_>, def: &Def) -> Vec<Param> {
    let Some(open) = def.open_paren else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in code.args(open) {
        let text = code.slice(r.clone());
        let name: String = text
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .map(char::from)
            .collect();
        if name.is_empty() || name == "self" || name == "ctx" || text.contains("Context") {
            continue;
        }
        let has_default = code.split_top_level(r.start, r.end, b'=').len() > 1;
        let kind_at = ["Option(", "Argument("]
            .iter()
            .filter_map(|k| text.find(k).map(|i| (i, *k)))
            .min();
        let dashed = name.replace('_', "-");
        match kind_at {
            Some((i, k)) => {
                let open = r.start + i + k.len() - 1;
                let call = crate::py::call::Call {
                    callee: String::new(),
                    start: r.start + i,
                    open,
                    close: code.matching(open).unwrap_or(open),
                    args: crate::py::call::split_args(code, open),
                };
                let names = positional_strings(code, &call);
                if k == "Option(" {
                    let f = cli::flag_name(names.iter().map(String::as_str))
                        .unwrap_or_else(|| format!("--{dashed}"));
                    out.push(Param::flag(f));
                } else {
                    out.push(Param::argument(name.clone()));
                }
                if let Some(r) = call.keyword("envvar") {
                    out.extend(env_names(code, r).into_iter().map(Param::env));
                }
            }
            None if has_default => out.push(Param::flag(format!("--{dashed}"))),
            None => out.push(Param::argument(name.clone())),
        }
    }
    out
}

/// `parent.add_command(child, name=…)` (click) and
/// `app.add_typer(sub, name=…)` (Typer).
fn scan_attach(s: &mut Scan<'_, '_>, lines: &[LogicalLine]) {
    let code = s.code;
    for line in lines {
        let (_, Some(call)) = assigned_call(code, line) else {
            continue;
        };
        let method = call.method();
        if method != "add_command" && method != "add_typer" {
            continue;
        }
        let Some(parent) = call
            .receiver()
            .map(|r| r.rsplit('.').next().unwrap_or(r).to_string())
        else {
            continue;
        };
        let Some(child) = call
            .positional(0)
            .map(|r| code.slice(r).trim().to_string())
            .filter(|c| {
                c.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
            })
        else {
            continue;
        };
        let name = call.arg(1, "name").and_then(|r| lit(code, r));
        let own = child.rsplit('.').next().unwrap_or(&child);
        let merged = method == "add_typer" && name.is_none() && !typer_named(s, own);
        s.facts.push(Fact::Attach(Attach {
            path: s.file.path.clone(),
            parent,
            child,
            name,
            merged,
        }));
    }
}

/// Was the Typer app `sym` (in this file) given `name=`?
fn typer_named(s: &Scan<'_, '_>, sym: &str) -> bool {
    s.facts.iter().any(|f| match f {
        Fact::Command(c) => c.symbols.iter().any(|x| x == sym) && !c.name.is_empty(),
        _ => false,
    })
}

/// A Typer app with exactly one command, no callback and no sub-apps runs
/// that command at its root: the command takes the app's place.
fn single_command_apps(s: &mut Scan<'_, '_>, typer_apps: &HashMap<String, usize>) {
    let mut gone: Vec<usize> = Vec::new();
    for (sym, &app) in typer_apps {
        let Some(Fact::Command(app_cmd)) = s.facts.get(app).cloned() else {
            continue;
        };
        if !app_cmd.params.is_empty() || app_cmd.symbols.len() > 1 {
            continue;
        }
        let children: Vec<usize> = s
            .facts
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match f {
                Fact::Command(c) if c.parent.as_deref() == Some(sym.as_str()) => Some(i),
                _ => None,
            })
            .collect();
        let attached = s.facts.iter().any(|f| match f {
            Fact::Attach(a) => a.parent == *sym || a.child.rsplit('.').next() == Some(sym),
            _ => false,
        });
        if children.len() != 1 || attached {
            continue;
        }
        if let Some(Fact::Command(c)) = s.facts.get_mut(children[0]) {
            c.parent = None;
            c.name = String::new();
            c.entry.extend(app_cmd.entry.iter().cloned());
            c.symbols.push(sym.clone());
        }
        gone.push(app);
    }
    gone.sort_unstable();
    for i in gone.into_iter().rev() {
        s.facts.remove(i);
    }
}
