//! Apache commons-cli (part of `java_cli`): a file that builds `new
//! Options()` is a program (commons-cli has no subcommands). Its flags:
//! `options.addOption("f", "file", true, "…")` / `addRequiredOption`,
//! `new Option("f", "file", …)`, `Option.builder("f").longOpt("file")`
//! (long form preferred; `-f` when there is none). The program name is the
//! one given to `HelpFormatter.printHelp("tool", …)`, else the file stem.

use portolan_plugin_sdk::cli::{self, Command, Fact};
use portolan_plugin_sdk::prelude::*;

use crate::jvm::tokens::{close_of, split_commas, Kind, Token};

/// The program a commons-cli file declares, if any.
pub fn scan(file: &SourceFile, path: &str, t: &[Token]) -> Option<Fact> {
    let is_new = |i: usize, ty: &str| {
        t.get(i).is_some_and(|x| x.is_ident(ty))
            && i > 0
            && t[i - 1].is_ident("new")
            && t.get(i + 1).is_some_and(|x| x.is('('))
    };
    let root_at = (0..t.len()).find(|&i| is_new(i, "Options"))?;
    let s = |i: usize| {
        t.get(i)
            .filter(|x| x.kind == Kind::Str)
            .map(|x| x.text.clone())
    };
    let mut params: Vec<Param> = Vec::new();
    let mut prog = None;
    let mut push = |short: Option<String>, long: Option<String>| {
        let names = [
            long.filter(|l| !l.is_empty()).map(|l| format!("--{l}")),
            short.filter(|s| !s.is_empty()).map(|s| format!("-{s}")),
        ];
        if let Some(f) = cli::flag_name(names.iter().flatten().map(String::as_str)) {
            if !params.iter().any(|p| p.name == f) {
                params.push(Param::flag(f));
            }
        }
    };
    for i in 0..t.len() {
        let word = match t[i].kind {
            Kind::Ident => t[i].text.as_str(),
            _ => continue,
        };
        if !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let Some(close) = close_of(t, i + 1) else {
            continue;
        };
        let args = split_commas(t, i + 2, close);
        let str_arg = |n: usize| {
            args.get(n)
                .filter(|r| r.len() == 1)
                .and_then(|r| s(r.start))
        };
        match word {
            // `addOption("f", "file", true, "desc")` / `addOption("f", true, "desc")`.
            "addOption" | "addRequiredOption" if args.len() >= 3 => {
                push(str_arg(0), str_arg(1));
            }
            "Option" if is_new(i, "Option") && args.len() >= 3 => {
                push(str_arg(0), str_arg(1));
            }
            "builder" if i >= 2 && t[i - 2].is_ident("Option") => {
                // `.longOpt("file")` later in the chain (bounded).
                let mut long = None;
                let mut k = close + 1;
                while k + 3 < t.len() && k < close + 64 && t[k].is('.') {
                    let name = &t[k + 1].text;
                    let Some(c) = close_of(t, k + 2) else { break };
                    if name == "longOpt" {
                        long = s(k + 3);
                    }
                    if name == "build" {
                        break;
                    }
                    k = c + 1;
                }
                push(str_arg(0), long);
            }
            "printHelp" if prog.is_none() => prog = str_arg(0),
            _ => {}
        }
    }
    Some(Fact::Command(Command {
        path: path.to_string(),
        line: file.line_of(t[root_at].start),
        symbols: vec![format!("{path}#commons-cli")],
        prog,
        params,
        ..Command::default()
    }))
}
