//! Command-line programs (`crystal_cli`; see docs/cli-surface.md): the
//! standard library's `OptionParser` as `cli://<binary>/<subcommand>`
//! endpoints.
//!
//! - `OptionParser.parse do |parser| … end` (also `OptionParser.parse(ARGV)`
//!   and `OptionParser.new do |parser|`) is the file's root program. Its
//!   `parser.on("-f", "--force", "…")` calls are flags (long form
//!   preferred, `--to=NAME` / `-t NAME` keep the name); a
//!   `parser.on("deploy", "…") do … end` whose first string is not a flag
//!   is a subcommand, and the `parser.on` calls inside its block are its
//!   own (nesting further the same way).
//! - Binary: the `shard.yml` target whose `main:` is the root's file, else
//!   a literal `parser.banner = "Usage: tool …"`, else the only target,
//!   else the file name.
//!
//! Files in test paths (`spec/`) are skipped.

use crate::cr::call::call_of_tokens;
use crate::cr::tokens::Kind;
use crate::cr::tree::{self, Stmt};
use portolan_plugin_sdk::cli::{self, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;

pub struct CrystalCli;

impl Analyzer for CrystalCli {
    fn tech(&self) -> Tech {
        Tech::new("crystal_cli", "Crystal", "CLI")
            .aliases(["crystal-optionparser", "crystal-cli"])
            .files(["*.cr", "shard.yml"])
            .requires_any(["OptionParser", "targets:"])
            .detect(Detect::files(["*.cr"]).regex([r"\bOptionParser\.(parse|new)\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if path.rsplit('/').next() == Some("shard.yml") {
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            for s in shard_targets(&file.content, dir) {
                out.fact(&Fact::Script(s));
            }
            return;
        }
        if is_test_path(&file.path) {
            return;
        }
        let toks = crate::cr::tokens_of(&file.content);
        let stmts = tree::parse(&toks, &crate::cr::RULES);
        let root = format!("crystal-cli:{}", file.path);
        let mut facts: Vec<Command> = Vec::new();
        tree::walk(&stmts, &mut |s: &Stmt, _| {
            let t = &s.toks;
            let Some(k) = (0..t.len()).find(|&k| {
                t[k].kind == Kind::Const
                    && t[k].text == "OptionParser"
                    && t.get(k + 1).is_some_and(|x| x.is("."))
                    && t.get(k + 2)
                        .is_some_and(|x| x.is_word("parse") || x.is_word("new"))
            }) else {
                return;
            };
            let Some(b) = s
                .blocks
                .iter()
                .find(|b| b.start >= t[k].start && b.kind != "def")
            else {
                return;
            };
            let Some(p) = b.params.first() else { return };
            if facts.is_empty() {
                facts.push(Command {
                    path: file.path.clone(),
                    line: file.line_of(t[k].start),
                    symbols: vec![root.clone()],
                    entry: vec![file.path.clone()],
                    ..Command::default()
                });
            }
            parser_block(file, &b.body, p, 0, &root, &mut facts);
        });
        for c in facts {
            out.fact(&Fact::Command(c));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(cli::link(facts.all(), &|entry, c| {
            (!entry.is_empty() && c.path.replace('\\', "/") == entry) as u8 * 2
        }))
    }
}

/// `targets:` of a shard.yml: `name:` keys with their `main:` file.
fn shard_targets(yml: &str, dir: &str) -> Vec<Script> {
    let mut out = Vec::new();
    let mut in_targets = false;
    let mut current: Option<String> = None;
    for line in yml.lines() {
        let indent = line.len() - line.trim_start().len();
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if indent == 0 {
            in_targets = l == "targets:";
            current = None;
            continue;
        }
        if !in_targets {
            continue;
        }
        if let Some(main) = l.strip_prefix("main:") {
            if let Some(name) = current.take() {
                let main = main.trim().trim_matches(|c| c == '"' || c == '\'');
                let entry = if dir.is_empty() {
                    main.to_string()
                } else {
                    format!("{dir}/{main}")
                };
                out.push(Script { name, entry });
            }
        } else if let Some(name) = l.strip_suffix(':') {
            current = Some(name.trim().to_string());
        }
    }
    out
}

/// The `p.on(…)` / `p.banner = …` statements of a parser block, into the
/// command `facts[at]`.
fn parser_block(
    file: &SourceFile,
    body: &[Stmt],
    p: &str,
    at: usize,
    sym: &str,
    facts: &mut Vec<Command>,
) {
    for s in body {
        let t = &s.toks;
        if !(t.first().is_some_and(|x| x.is_word(p)) && t.get(1).is_some_and(|x| x.is("."))) {
            continue;
        }
        if t.get(2).is_some_and(|x| x.is_word("banner")) && t.get(3).is_some_and(|x| x.is("=")) {
            if let Some(b) = t.get(4).filter(|x| x.kind == Kind::Str && !x.interpolated) {
                let mut w = b.text.split_whitespace();
                if w.next().is_some_and(|u| u.eq_ignore_ascii_case("usage:")) {
                    if let Some(prog) = w.next().filter(|p| !p.starts_with(['[', '<', '$', '#'])) {
                        if let Some(c) = facts.get_mut(at) {
                            c.prog.get_or_insert_with(|| prog.to_string());
                        }
                    }
                }
            }
            continue;
        }
        let Some(call) = call_of_tokens(&t[2..]).filter(|c| c.name == "on") else {
            continue;
        };
        let strings: Vec<&str> = call.args.iter().filter_map(|a| a.text()).collect();
        let Some(first) = strings.first() else {
            continue;
        };
        if first.starts_with('-') {
            let names: Vec<String> = strings
                .iter()
                .filter(|s| s.starts_with('-'))
                .map(|s| {
                    let cut = s.find([' ', '=', '[']).unwrap_or(s.len());
                    s[..cut].to_string()
                })
                .collect();
            if let Some(n) = cli::flag_name(names.iter().map(String::as_str)) {
                let param = Param::flag(n);
                if let Some(c) = facts.get_mut(at) {
                    if !c.params.contains(&param) {
                        c.params.push(param);
                    }
                }
            }
        } else if let Some(b) = s.block() {
            let child = format!("{sym}/{first}");
            facts.push(Command {
                path: file.path.clone(),
                line: file.line_of(s.start()),
                symbols: vec![child.clone()],
                parent: Some(sym.to_string()),
                name: first.to_string(),
                ..Command::default()
            });
            let i = facts.len() - 1;
            parser_block(file, &b.body, p, i, &child, facts);
        }
    }
}
