//! Command-line programs (`elixir_cli`; see docs/cli-surface.md): Mix
//! tasks and escripts as `cli://<binary>/<command>` endpoints.
//!
//! - A `defmodule Mix.Tasks.Db.Seed` (`use Mix.Task`) is the task `mix
//!   db.seed` → `cli://mix/db.seed` (module segments underscored and joined
//!   by `.`, as Mix names them); `@shortdoc`-less tasks count too. The
//!   `mix` program itself is not reported.
//! - An escript's main module (mix.exs `escript: [main_module: X]`, or a
//!   module defining `def main(args)` that calls `OptionParser`) is a
//!   program's root, named by the escript `name:`, else the project's
//!   `app:`, else the module's file.
//! - Flags: the keys of `OptionParser.parse(args, strict: [...])` /
//!   `switches: [...]` (also through a module attribute `@switches [...]`)
//!   in the module, as `--out-dir` for `out_dir:` (OptionParser's
//!   spelling). OptionParser has no environment-backed options.
//!
//! Files in test paths are skipped.

use crate::ex::tokens::{tokenize, Kind, Token};
use crate::ex::{modules, tree};
use portolan_plugin_sdk::cli::{self, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::text::camel_to_snake;

pub struct ElixirCli;

const MIX: &str = "elixir-cli:mix";

impl Analyzer for ElixirCli {
    fn tech(&self) -> Tech {
        Tech::new("elixir_cli", "Elixir", "CLI")
            .aliases(["mix-task", "escript", "elixir-cli"])
            .files(["*.ex", "*.exs"])
            .requires_any(["Mix.Tasks.", "OptionParser", "escript"])
            .detect(Detect::files(["mix.exs"]).contains(["escript:"]))
            .detect(
                Detect::files(["*.ex", "*.exs"])
                    .regex([r"defmodule\s+Mix\.Tasks\.", r"\bOptionParser\.parse!?\("]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let t = tokenize(&file.content);
        if file.slash_path().rsplit('/').next() == Some("mix.exs") {
            for s in mix_escript(&t) {
                out.fact(&Fact::Script(s));
            }
            return;
        }
        let nodes = tree::parse(&t);
        let mut mods = Vec::new();
        modules(&t, &nodes, "", &mut mods);
        let mut any_task = false;
        for (name, node) in mods {
            let Some(body) = node.body.clone() else {
                continue;
            };
            let toks = &t[body.clone()];
            let params = flags(toks);
            let line = file.line_of(t[node.head].start);
            if let Some(task) = name.strip_prefix("Mix.Tasks.") {
                any_task = true;
                let task: Vec<String> = task.split('.').map(camel_to_snake).collect();
                out.fact(&Fact::Command(Command {
                    path: file.path.clone(),
                    line,
                    symbols: vec![name.clone()],
                    parent: Some(MIX.into()),
                    name: task.join("."),
                    params,
                    ..Command::default()
                }));
                continue;
            }
            let defines_main = toks
                .windows(3)
                .any(|w| w[0].is_ident("def") && w[1].is_ident("main") && w[2].is("("));
            let parses = toks
                .iter()
                .any(|x| x.kind == Kind::Alias && x.text == "OptionParser");
            if defines_main && parses {
                out.fact(&Fact::Command(Command {
                    path: file.path.clone(),
                    line,
                    symbols: vec![name.clone()],
                    entry: vec![name.clone()],
                    params,
                    ..Command::default()
                }));
            }
        }
        if any_task {
            out.fact(&Fact::Command(Command {
                path: file.path.clone(),
                line: 1,
                symbols: vec![MIX.into()],
                prog: Some("mix".into()),
                ..Command::default()
            }));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        // One `mix` root however many files declare tasks.
        let mut seen_mix = false;
        let all: Vec<Fact> = facts
            .all()
            .into_iter()
            .filter(|f| match f {
                Fact::Command(c) if c.symbols.iter().any(|s| s == MIX) => {
                    !std::mem::replace(&mut seen_mix, true)
                }
                _ => true,
            })
            .collect();
        let mut out = cli::link(all, &|entry, c| {
            (!entry.is_empty() && c.symbols.iter().any(|s| s == entry)) as u8 * 2
        });
        out.retain(|e| e.url != "cli://mix");
        Ok(out)
    }
}

/// mix.exs: the escript's name (`escript: [name: "x"]`, else `app:`)
/// and main module.
fn mix_escript(t: &[Token]) -> Vec<Script> {
    let mut main = None;
    let mut name = None;
    let mut app = None;
    for (i, x) in t.iter().enumerate() {
        if x.kind != Kind::Key {
            continue;
        }
        let v = t.get(i + 1);
        match x.text.as_str() {
            "main_module" => main = v.filter(|v| v.kind == Kind::Alias).map(|v| v.text.clone()),
            "name"
                if main.is_some()
                    || t[i.saturating_sub(12)..i]
                        .iter()
                        .any(|p| p.text == "escript") =>
            {
                if let Some(v) = v.filter(|v| matches!(v.kind, Kind::Str | Kind::Atom)) {
                    name = Some(v.text.clone());
                }
            }
            "app" if app.is_none() => {
                app = v.filter(|v| v.kind == Kind::Atom).map(|v| v.text.clone());
            }
            _ => {}
        }
    }
    match (main, name.or(app)) {
        (Some(m), Some(n)) => vec![Script { name: n, entry: m }],
        _ => Vec::new(),
    }
}

/// The keys of `strict: [...]` / `switches: [...]` lists (or of the
/// module attribute they name) as flags.
fn flags(t: &[Token]) -> Vec<Param> {
    let mut out: Vec<Param> = Vec::new();
    let push_list = |open: usize, out: &mut Vec<Param>| {
        let mut depth = 0i32;
        for x in &t[open..] {
            if x.is("[") || x.is("(") || x.is("{") {
                depth += 1;
            } else if x.is("]") || x.is(")") || x.is("}") {
                depth -= 1;
                if depth <= 0 {
                    break;
                }
            } else if depth == 1 && x.kind == Kind::Key {
                let p = Param::flag(format!("--{}", x.text.replace('_', "-")));
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    };
    for (i, x) in t.iter().enumerate() {
        if x.kind != Kind::Key || !matches!(x.text.as_str(), "strict" | "switches") {
            continue;
        }
        if t.get(i + 1).is_some_and(|n| n.is("[")) {
            push_list(i + 1, &mut out);
        } else if t.get(i + 1).is_some_and(|n| n.is("@")) {
            // `strict: @switches` → `@switches [force: :boolean]`.
            let Some(attr) = t.get(i + 2).filter(|a| a.kind == Kind::Ident) else {
                continue;
            };
            if let Some(j) = (0..t.len()).find(|&j| {
                t[j].is("@")
                    && t[j].nl
                    && t.get(j + 1).is_some_and(|a| a.text == attr.text)
                    && t.get(j + 2).is_some_and(|b| b.is("["))
            }) {
                push_list(j + 2, &mut out);
            }
        }
    }
    out
}
