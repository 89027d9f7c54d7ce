//! Command-line programs (`go_cli`; see docs/cli-surface.md): cobra
//! commands and the standard library's `flag` package as
//! `cli://<binary>/<subcommand>` endpoints.
//!
//! - cobra: every `&cobra.Command{Use: "name [args]"}` literal is a
//!   command, named by the first word of `Use`; bracketed words of `Use`
//!   (`[name]`, `<file>`) are arguments. It is known by the variable it is
//!   assigned to and by the function that builds it (`func newAddCmd()
//!   *cobra.Command`); `parent.AddCommand(child, newAddCmd(), pkg.NewCmd())`
//!   nests, across files and packages. Flags defined on `X.Flags()`,
//!   `X.PersistentFlags()` (also through `flags := X.Flags()`) with
//!   `String`, `StringVarP`, `Bool`, `Var`, … are flags named `--name`; a
//!   flag defined on a command of another file joins it there.
//! - `flag`: `flag.String("name", …)`, `flag.IntVar(&v, "name", …)` and
//!   the same on a `flag.NewFlagSet("name", …)` (a subcommand of the
//!   program) in a `main` package are flags `-name`, as Go spells them.
//! - Binary name: `cmd/<name>/…` for a root under such a directory, else
//!   the last segment of the `go.mod` module path (a `/vN` suffix skipped),
//!   else the root's `Use`, else the file stem.
//!
//! Files in test paths (`_test.go`, `testdata/`) are skipped.

use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::text::LineIndex;
use std::collections::HashMap;
use std::ops::Range;

pub struct GoCli;

impl Analyzer for GoCli {
    fn tech(&self) -> Tech {
        Tech::new("go_cli", "Go", "CLI")
            .aliases(["cobra", "go-cli"])
            .files(["*.go", "go.mod"])
            .requires_any(["cobra", "flag.", "module ", "urfave/cli"])
            .detect(Detect::files(["*.go"]).regex([
                r#""github\.com/spf13/cobra""#,
                r#"^\s*(import\s+)?"flag"\s*$"#,
                r#""github\.com/urfave/cli(/v\d+)?""#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if path.rsplit('/').next() == Some("go.mod") {
            if let Some(name) = module_name(&file.content) {
                out.fact(&Fact::Script(Script {
                    name,
                    entry: "go.mod".into(),
                }));
            }
            return;
        }
        if is_test_path(&file.path) || path.ends_with("_test.go") {
            return;
        }
        for f in scan(file).into_iter().chain(crate::cli_urfave::scan(file)) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(cli::link(facts.all(), &|entry, c| {
            (entry == "go.mod" && cmd_dir(&c.path).is_none()) as u8
        }))
    }
}

/// The last segment of `module example.com/acme/tool/v2` that is not a
/// major-version suffix.
fn module_name(gomod: &str) -> Option<String> {
    let line = gomod
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("module "))?;
    let module = line.trim().trim_matches('"');
    module
        .rsplit('/')
        .find(|s| {
            !(s.len() > 1 && s.starts_with('v') && s[1..].bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_string)
}

/// `cmd/<name>/…` → `name`.
pub(crate) fn cmd_dir(path: &str) -> Option<String> {
    let path = path.replace('\\', "/");
    let parts: Vec<&str> = path.split('/').collect();
    let i = parts.iter().position(|p| *p == "cmd")?;
    (i + 2 < parts.len()).then(|| parts[i + 1].to_string())
}

/// A Go string literal's value at `r` (interpreted or raw).
pub(crate) fn string_at(code: &Code<'_>, r: Range<usize>) -> Option<String> {
    let s = code.string_at(code.skip_ws(r.start))?;
    (s.end >= r.end.min(code.text().len()) || code.slice(s.end..r.end).trim().is_empty())
        .then_some(s.value)
}

/// The identifier ending at `end` (exclusive), going back over `.`:
/// `rootCmd`, `pkg.NewCmd`.
fn dotted_before(text: &str, end: usize) -> &str {
    let b = text.as_bytes();
    let mut i = end;
    while i > 0 && (is_ident_byte(b[i - 1]) || b[i - 1] == b'.') {
        i -= 1;
    }
    text.get(i..end).unwrap_or("")
}

/// The function whose body contains `offset`: name and body range.
pub(crate) fn functions(code: &Code<'_>) -> Vec<(String, Range<usize>)> {
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_all("func ") {
        if at > 0 && is_ident_byte(text.as_bytes()[at - 1]) {
            continue;
        }
        let mut i = code.skip_ws(at + 5);
        // Method receiver.
        if text.as_bytes().get(i) == Some(&b'(') {
            let Some(c) = code.matching(i) else { continue };
            i = code.skip_ws(c + 1);
        }
        let Some(name) = code.ident_at(i) else {
            continue;
        };
        let name = name.to_string();
        let Some(open) = text[i..].find('{').map(|k| i + k) else {
            continue;
        };
        if let Some(close) = code.matching(open) {
            out.push((name, open..close));
        }
    }
    out
}

fn scan(file: &SourceFile) -> Vec<Fact> {
    let code = file.code(Syntax::GO);
    let text = code.text();
    let cobra = text.contains("cobra.Command");
    let stdflag = text.contains("flag.") && text.contains("package main");
    if !cobra && !text.contains("Flags()") && !stdflag {
        return Vec::new();
    }
    let index = LineIndex::new(code.source());
    let funcs = functions(&code);
    let enclosing = |o: usize| funcs.iter().find(|(_, r)| r.start <= o && o <= r.end);
    let mut facts: Vec<Fact> = Vec::new();
    // Variable → fact indices of the commands assigned to it, by offset.
    let mut vars: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    let mut uid = |i: usize| format!("go:{}:{i}", file.path);
    for at in code.find_all("cobra.Command{") {
        let open = at + "cobra.Command".len();
        let Some(close) = code.matching(open) else {
            continue;
        };
        let mut name = String::new();
        let mut params = Vec::new();
        if let Some(use_at) = field(&code, open, close, "Use") {
            if let Some(u) = string_at(&code, use_at) {
                let mut words = u.split_whitespace();
                name = words.next().unwrap_or("").to_string();
                for w in words {
                    let w = w.trim_end_matches("...");
                    let inner = w
                        .strip_prefix('[')
                        .and_then(|w| w.strip_suffix(']'))
                        .or_else(|| w.strip_prefix('<').and_then(|w| w.strip_suffix('>')));
                    if let Some(a) = inner.map(|a| a.trim_end_matches("...")) {
                        if !a.is_empty() && a != "flags" && !a.contains('|') {
                            params.push(Param::argument(a));
                        }
                    }
                }
            }
        }
        // What it is assigned to / returned from.
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = text[line_start..at]
            .trim_end()
            .trim_end_matches('&')
            .trim_end();
        let mut symbols = vec![uid(at)];
        let mut var = None;
        for op in [":=", "="] {
            if let Some(lhs) = before.strip_suffix(op) {
                let v = dotted_before(lhs.trim_end(), lhs.trim_end().len());
                if !v.is_empty() {
                    var = Some(v.rsplit('.').next().unwrap_or(v).to_string());
                }
                break;
            }
        }
        if let Some(v) = &var {
            symbols.push(v.clone());
        }
        let func = enclosing(at).map(|(n, _)| n.clone());
        if let Some(f) = &func {
            if f != "init" && f != "main" {
                symbols.push(f.clone());
            }
        }
        let i = facts.len();
        facts.push(Fact::Command(Command {
            path: file.path.clone(),
            line: index.line_of(at),
            symbols,
            name: name.clone(),
            prog: cmd_dir(&file.path).or_else(|| (!name.is_empty()).then(|| name.clone())),
            entry: func.into_iter().collect(),
            params,
            ..Command::default()
        }));
        if let Some(v) = var {
            vars.entry(v).or_default().push((at, i));
        }
    }
    // The command a variable names at `offset`: the latest assignment
    // before it in the same function, else a package-level one.
    let resolve = |facts: &Vec<Fact>, v: &str, offset: usize| -> Option<usize> {
        let list = vars.get(v)?;
        let func = enclosing(offset).map(|(_, r)| r.clone());
        list.iter()
            .rev()
            .find(|(at, _)| *at < offset && func.as_ref().is_some_and(|r| r.contains(at)))
            .or_else(|| list.iter().find(|(at, _)| enclosing(*at).is_none()))
            .or_else(|| list.first())
            .map(|(_, i)| *i)
            .filter(|i| *i < facts.len())
    };
    let first_symbol = |facts: &Vec<Fact>, i: usize| match &facts[i] {
        Fact::Command(c) => c.symbols.first().cloned(),
        _ => None,
    };
    // Flag sets: `flags := cmd.Flags()` aliases.
    let mut aliases: HashMap<String, String> = HashMap::new();
    for pat in ["Flags()", "PersistentFlags()", "LocalFlags()"] {
        for at in code.find_all(pat) {
            if at == 0 || text.as_bytes()[at - 1] != b'.' {
                continue;
            }
            let recv = dotted_before(text, at - 1).to_string();
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let lhs = text[line_start..at].trim();
            if let Some(v) = lhs.strip_suffix(&format!("{recv}.")).and_then(|l| {
                l.trim_end()
                    .strip_suffix(":=")
                    .or(l.trim_end().strip_suffix('='))
            }) {
                let v = v.trim();
                if !v.is_empty() && v.bytes().all(is_ident_byte) {
                    aliases.insert(v.to_string(), recv.clone());
                }
            }
            let after = at + pat.len();
            if text.as_bytes().get(after) == Some(&b'.') {
                if let Some(p) = flag_call(&code, after + 1) {
                    add_param(
                        &mut facts, &file.path, &index, &recv, at, p, &resolve, &mut uid,
                    );
                }
            }
        }
    }
    for (alias, recv) in &aliases {
        for at in code.find_word(alias) {
            let after = at + alias.len();
            if text.as_bytes().get(after) != Some(&b'.') {
                continue;
            }
            if let Some(p) = flag_call(&code, after + 1) {
                add_param(
                    &mut facts, &file.path, &index, recv, at, p, &resolve, &mut uid,
                );
            }
        }
    }
    // AddCommand.
    for at in code.find_all(".AddCommand(") {
        let parent_var = dotted_before(text, at).to_string();
        let parent = match resolve(&facts, parent_var.rsplit('.').next().unwrap_or(""), at) {
            Some(i) => first_symbol(&facts, i),
            None => Some(parent_var.rsplit('.').next().unwrap_or("").to_string()),
        };
        let Some(parent) = parent.filter(|p| !p.is_empty()) else {
            continue;
        };
        let open = at + ".AddCommand".len();
        for r in code.args(open) {
            let arg = code.slice(r.clone()).trim();
            let arg = arg.strip_suffix("...").unwrap_or(arg);
            let child = match arg.find('(') {
                Some(p) => arg[..p].trim().to_string(),
                None => {
                    let a = arg.trim_start_matches('&');
                    match resolve(&facts, a, at) {
                        Some(i) => first_symbol(&facts, i).unwrap_or_default(),
                        None => a.to_string(),
                    }
                }
            };
            if child.is_empty()
                || !child
                    .bytes()
                    .all(|b| is_ident_byte(b) || b == b'.' || b == b':' || b == b'/')
            {
                continue;
            }
            facts.push(Fact::Attach(Attach {
                path: file.path.clone(),
                parent: parent.clone(),
                child,
                name: None,
                merged: false,
            }));
        }
    }
    if stdflag {
        scan_stdflag(&code, file, &index, &mut facts);
    }
    facts
}

/// The value range of field `name:` at the top level of the composite
/// literal `open..close`.
pub(crate) fn field(
    code: &Code<'_>,
    open: usize,
    close: usize,
    name: &str,
) -> Option<Range<usize>> {
    code.split_top_level(open + 1, close, b',')
        .into_iter()
        .find_map(|r| {
            let (k, v) = code.keyword_arg(r)?;
            (k == name).then_some(v)
        })
}

/// `StringVarP(&v, "name", "n", …)` at `at` (the method name): the flag.
fn flag_call(code: &Code<'_>, at: usize) -> Option<Param> {
    let method = code.ident_at(at)?;
    let open = at + method.len();
    if code.text().as_bytes().get(open) != Some(&b'(') {
        return None;
    }
    const NOT_DEFINING: [&str; 15] = [
        "New", "Mark", "Set", "Lookup", "Get", "Add", "Parse", "Changed", "Visit", "Has", "Sort",
        "Print", "Arg", "NArg", "Init",
    ];
    if !method.starts_with(|c: char| c.is_ascii_uppercase())
        || NOT_DEFINING.iter().any(|p| method.starts_with(p))
    {
        return None;
    }
    let name = code
        .args(open)
        .into_iter()
        .find_map(|r| string_at(code, r))?;
    (!name.is_empty()).then(|| Param::flag(format!("--{name}")))
}

/// Finds the command a variable names at an offset.
type Resolver<'a> = &'a dyn Fn(&Vec<Fact>, &str, usize) -> Option<usize>;

#[allow(clippy::too_many_arguments)]
fn add_param(
    facts: &mut Vec<Fact>,
    path: &str,
    index: &LineIndex,
    recv: &str,
    at: usize,
    p: Param,
    resolve: Resolver<'_>,
    uid: &mut dyn FnMut(usize) -> String,
) {
    let var = recv.rsplit('.').next().unwrap_or(recv);
    match resolve(facts, var, at) {
        Some(i) => {
            if let Some(Fact::Command(c)) = facts.get_mut(i) {
                if !c.params.contains(&p) {
                    c.params.push(p);
                }
            }
        }
        None => facts.push(Fact::Command(Command {
            path: path.to_string(),
            line: index.line_of(at),
            symbols: vec![uid(at)],
            parent: Some(var.to_string()),
            merged: true,
            params: vec![p],
            ..Command::default()
        })),
    }
}

/// The standard `flag` package in a `main` package: the program's root
/// command, and `flag.NewFlagSet("name", …)` subcommands.
fn scan_stdflag(code: &Code<'_>, file: &SourceFile, index: &LineIndex, facts: &mut Vec<Fact>) {
    let text = code.text();
    let mut root: Option<usize> = None;
    let mut sets: HashMap<String, usize> = HashMap::new();
    for at in code.find_all("flag.NewFlagSet(") {
        let open = at + "flag.NewFlagSet".len();
        let Some(name) = code
            .args(open)
            .into_iter()
            .next()
            .and_then(|r| string_at(code, r))
        else {
            continue;
        };
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let lhs = text[line_start..at].trim();
        let var = lhs
            .strip_suffix(":=")
            .or(lhs.strip_suffix('='))
            .map(|v| v.trim().trim_start_matches("var ").trim().to_string())
            .filter(|v| !v.is_empty() && v.bytes().all(is_ident_byte));
        let root_sym = format!("goflag:{}", file.path);
        facts.push(Fact::Command(Command {
            path: file.path.clone(),
            line: index.line_of(at),
            symbols: vec![format!("goflag:{}:{at}", file.path)],
            parent: Some(root_sym),
            name,
            ..Command::default()
        }));
        if let Some(v) = var {
            sets.insert(v, facts.len() - 1);
        }
    }
    let ensure_root = |facts: &mut Vec<Fact>, at: usize, root: &mut Option<usize>| -> usize {
        if let Some(r) = *root {
            return r;
        }
        facts.push(Fact::Command(Command {
            path: file.path.clone(),
            line: index.line_of(at),
            symbols: vec![format!("goflag:{}", file.path)],
            prog: cmd_dir(&file.path),
            ..Command::default()
        }));
        *root = Some(facts.len() - 1);
        facts.len() - 1
    };
    for at in code.find_all("flag.") {
        if at > 0 && is_ident_byte(text.as_bytes()[at - 1]) {
            continue;
        }
        if let Some(p) = flag_call(code, at + 5) {
            let name = p.name.trim_start_matches('-').to_string();
            let r = ensure_root(facts, at, &mut root);
            if let Some(Fact::Command(c)) = facts.get_mut(r) {
                c.params.push(Param::flag(format!("-{name}")));
            }
        }
    }
    for (v, i) in &sets {
        for at in code.find_word(v) {
            let after = at + v.len();
            if text.as_bytes().get(after) != Some(&b'.') {
                continue;
            }
            if let Some(p) = flag_call(code, after + 1) {
                let name = p.name.trim_start_matches('-').to_string();
                if let Some(Fact::Command(c)) = facts.get_mut(*i) {
                    c.params.push(Param::flag(format!("-{name}")));
                }
            }
        }
    }
    // Flag sets without a root flag: still the program's subcommands.
    if !sets.is_empty() && root.is_none() {
        let first = sets.values().copied().min().unwrap_or(0);
        let at = match facts.get(first) {
            Some(Fact::Command(c)) => index.line_start(c.line).unwrap_or(0),
            _ => 0,
        };
        ensure_root(facts, at, &mut root);
    }
}
