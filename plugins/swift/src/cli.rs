//! Command-line programs (`swift_cli`; see docs/cli-surface.md):
//! swift-argument-parser commands as `cli://<binary>/<subcommand>`
//! endpoints.
//!
//! - A type conforming to `ParsableCommand` / `AsyncParsableCommand` is a
//!   command, named by `CommandConfiguration(commandName: "x")` or its
//!   type name in kebab case (as the library does); `subcommands: [A.self,
//!   B.self]` nests other commands, in any file. A command is a root when
//!   it is `@main` or some file calls `X.main()`; one that no list names
//!   is otherwise dropped.
//! - `@Option` / `@Flag` properties are flags: `--name-in-kebab-case`
//!   (`name: .customLong("x")` → `--x`; `.short` alone → `-n`,
//!   `.customShort("x")` → `-x`); `@Argument` properties are arguments by
//!   name; `@OptionGroup var g: Common` adds the `ParsableArguments` type
//!   `Common`'s params. The library has no environment-backed options.
//! - Binary: the `Package.swift` `.executable(name:, targets:)` product
//!   or `.executableTarget(name:)` whose `Sources/<target>/` holds the
//!   root, else `commandName`, else the root's file (its directory for
//!   `main.swift`).

use crate::swift::is_test_code;
use crate::swift::tokens::{Kind, Toks};
use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;

pub struct SwiftCli;

/// Parent of commands until a `subcommands:` list names them.
const UNATTACHED: &str = "swift-cli:unattached";
/// `Command.entry` marker of a `ParsableArguments` option group.
const GROUP: &str = "swift-cli:group";
/// `Script.entry` prefix of a `X.main()` call (not a program name).
const MAIN: &str = "swift-cli:main:";

impl Analyzer for SwiftCli {
    fn tech(&self) -> Tech {
        Tech::new("swift_cli", "Swift", "CLI")
            .aliases(["swift-argument-parser", "swift-cli"])
            .files(["*.swift"])
            .requires_any([
                "ArgumentParser",
                "ParsableCommand",
                "ParsableArguments",
                ".main(",
            ])
            .detect(Detect::files(["Package.swift"]).regex([r"swift-argument-parser"]))
            .detect(Detect::files(["*.swift"]).regex([r"^\s*import\s+ArgumentParser\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if path.rsplit('/').next() == Some("Package.swift") {
            for s in package_executables(&Toks::new(file), &path) {
                out.fact(&Fact::Script(s));
            }
            return;
        }
        if is_test_code(&file.path, &file.content) {
            return;
        }
        for f in scan(file) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let all: Vec<Fact> = facts.all();
        let mut mains: Vec<String> = Vec::new();
        let mut groups: Vec<(Vec<String>, Vec<Param>)> = Vec::new();
        let mut rest: Vec<Fact> = Vec::new();
        for f in all {
            match f {
                Fact::Script(s) if s.entry.starts_with(MAIN) => {
                    mains.push(s.entry[MAIN.len()..].to_string())
                }
                Fact::Command(c) if c.entry.iter().any(|e| e == GROUP) => {
                    groups.push((c.symbols.clone(), c.params.clone()));
                    // A program that only parses an arguments type
                    // (`Options.parseOrExit()`) runs it as its root.
                    let mut c = c;
                    c.entry.retain(|e| e != GROUP);
                    c.parent = Some(UNATTACHED.into());
                    rest.push(Fact::Command(c));
                }
                f => rest.push(f),
            }
        }
        for f in rest.iter_mut() {
            if let Fact::Command(c) = f {
                if c.parent.as_deref() == Some(UNATTACHED)
                    && c.symbols.iter().any(|s| mains.contains(s))
                {
                    c.parent = None;
                }
                // `@OptionGroup` types, recorded as `group:Type` entries.
                let wanted: Vec<String> = c
                    .entry
                    .iter()
                    .filter_map(|e| e.strip_prefix("group:"))
                    .map(str::to_string)
                    .collect();
                for w in wanted {
                    if let Some((_, ps)) = groups.iter().find(|(s, _)| s.contains(&w)) {
                        for p in ps {
                            if !c.params.contains(p) {
                                c.params.push(p.clone());
                            }
                        }
                    }
                }
            }
        }
        Ok(cli::link(rest, &|entry, c| {
            let p = c.path.replace('\\', "/");
            let under = |d: &str| p.starts_with(&format!("{d}/")) || p.contains(&format!("/{d}/"));
            match entry.split_once(':') {
                Some(("product", d)) if under(&format!("Sources/{d}")) => 2,
                Some(("target", d)) if under(&format!("Sources/{d}")) => 1,
                Some(("path", d)) if under(d) => 2,
                _ => 0,
            }
        }))
    }
}

/// `.executable(name: "tool", targets: ["Tool"])` and
/// `.executableTarget(name: "Tool")` of a Package.swift.
fn package_executables(t: &Toks, _path: &str) -> Vec<Script> {
    let mut out = Vec::new();
    for k in 0..t.len() {
        let exe = t.word(k, "executable");
        let target = t.word(k, "executableTarget");
        if !(exe || target) || !t.punct(k.wrapping_sub(1), ".") || !t.punct(k + 1, "(") {
            continue;
        }
        let mut name = None;
        let mut path: Option<String> = None;
        let mut targets = Vec::new();
        for r in t.args(k + 1) {
            let Some((label, v)) = t.labeled(&r) else {
                continue;
            };
            match label {
                "name" => name = t.string(v.start).map(|s| s.text.clone()),
                "path" => path = t.string(v.start).map(|s| s.text.clone()),
                "targets" => {
                    targets = (v.start..v.end)
                        .filter_map(|i| t.string(i).map(|s| s.text.clone()))
                        .collect()
                }
                _ => {}
            }
        }
        let Some(name) = name else { continue };
        if let Some(p) = path.filter(|_| target) {
            out.push(Script {
                name: name.clone(),
                entry: format!("path:{}", p.trim_end_matches('/')),
            });
            continue;
        }
        if exe {
            for tg in targets {
                out.push(Script {
                    name: name.clone(),
                    entry: format!("product:{tg}"),
                });
            }
        } else {
            out.push(Script {
                name: name.clone(),
                entry: format!("target:{name}"),
            });
        }
    }
    out
}

/// `GenerateDocs` → `generate-docs`, `outputFile` → `output-file`.
fn kebab(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower = i > 0 && !chars[i - 1].is_ascii_uppercase() && chars[i - 1] != '_';
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if i > 0 && (prev_lower || (next_lower && chars[i - 1].is_ascii_uppercase())) {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if *c == '_' {
            out.push('-');
        } else {
            out.push(*c);
        }
    }
    out
}

fn scan(file: &SourceFile) -> Vec<Fact> {
    let t = Toks::new(file);
    let mut facts = Vec::new();
    // `X.main()` calls: roots named from another file.
    for k in 1..t.len() {
        let main = t.word(k, "main") && t.punct(k + 2, ")");
        if (main || t.word(k, "parseOrExit")) && t.punct(k - 1, ".") && t.punct(k + 1, "(") {
            if let Some(x) = k.checked_sub(2).and_then(|i| t.ident(i)) {
                facts.push(Fact::Script(Script {
                    name: String::new(),
                    entry: format!("{MAIN}{x}"),
                }));
            }
        }
    }
    for k in 0..t.len() {
        if !["struct", "class", "enum", "extension"]
            .iter()
            .any(|w| t.word(k, w))
        {
            continue;
        }
        let Some(name) = t.ident(k + 1) else { continue };
        if !t.punct(k + 2, ":") {
            continue;
        }
        // Conformances up to the body.
        let mut j = k + 3;
        let mut command = false;
        let mut group = false;
        while j < t.len() && !t.punct(j, "{") {
            match t.ident(j) {
                Some("ParsableCommand" | "AsyncParsableCommand") => command = true,
                Some("ParsableArguments") => group = true,
                _ => {}
            }
            j += 1;
        }
        if !(command || group) {
            continue;
        }
        let Some(close) = t.close(j) else { continue };
        let is_main = has_main_attribute(&t, k);
        let mut cmd = Command {
            path: file.path.clone(),
            line: t.line(k),
            symbols: vec![name.to_string()],
            name: kebab(name),
            ..Command::default()
        };
        if group && !command {
            cmd.entry.push(GROUP.into());
        } else if !is_main {
            cmd.parent = Some(UNATTACHED.into());
        }
        members(&t, j, close, name, &mut cmd, &mut facts);
        facts.push(Fact::Command(cmd));
    }
    facts
}

/// `@main` among the attributes and modifiers before the declaration
/// keyword at `k` (`@main @available(macOS 12, *) public struct`).
fn has_main_attribute(t: &Toks, k: usize) -> bool {
    let mut j = k;
    for _ in 0..16 {
        if j == 0 {
            return false;
        }
        if t.punct(j - 1, ")") {
            match t.pair.get(j - 1).copied().flatten().filter(|o| *o < j - 1) {
                Some(o) => j = o,
                None => return false,
            }
            continue;
        }
        match t.ident(j - 1) {
            Some(w) if j >= 2 && t.punct(j - 2, "@") => {
                if w == "main" {
                    return true;
                }
                j -= 2;
            }
            Some("public" | "final" | "internal" | "private" | "fileprivate" | "package") => j -= 1,
            _ => return false,
        }
    }
    false
}

/// The members of a command type's body `open..close` (nested types'
/// bodies skipped).
fn members(
    t: &Toks,
    open: usize,
    close: usize,
    me: &str,
    cmd: &mut Command,
    facts: &mut Vec<Fact>,
) {
    let mut k = open + 1;
    while k < close {
        if t.punct(k, "{") {
            k = t.close(k).unwrap_or(close) + 1;
            continue;
        }
        // `static let configuration = CommandConfiguration(…)` / `.init(…)`.
        if t.word(k, "configuration") && t.word(k.wrapping_sub(2), "static") {
            let mut j = k + 1;
            while j < close && !t.punct(j, "(") && j < k + 8 {
                j += 1;
            }
            if t.punct(j, "(") {
                for r in t.args(j) {
                    let Some((label, v)) = t.labeled(&r) else {
                        continue;
                    };
                    match label {
                        "commandName" => {
                            if let Some(s) = t.string(v.start) {
                                cmd.name = s.text.clone();
                                cmd.prog = Some(s.text.clone());
                            }
                        }
                        "subcommands" => {
                            for i in v.clone() {
                                if t.punct(i + 1, ".") && t.word(i + 2, "self") {
                                    if let Some(child) = t.ident(i) {
                                        facts.push(Fact::Attach(Attach {
                                            path: cmd.path.clone(),
                                            parent: me.to_string(),
                                            child: child.to_string(),
                                            name: None,
                                            merged: false,
                                        }));
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
                k = t.close(j).unwrap_or(j) + 1;
                continue;
            }
        }
        // `@Option(…) var name: T`, `@Flag var x = false`, `@Argument`,
        // `@OptionGroup var g: Common`.
        if t.punct(k, "@") {
            let Some(wrapper) = t.ident(k + 1) else {
                k += 1;
                continue;
            };
            let mut j = k + 2;
            let mut args = None;
            if t.punct(j, "(") {
                args = Some(j);
                j = t.close(j).unwrap_or(j) + 1;
            }
            while j < close && !t.word(j, "var") && !t.punct(j, "@") && j < k + 40 {
                j += 1;
            }
            if !t.word(j, "var") {
                k += 1;
                continue;
            }
            let Some(var) = t.ident(j + 1) else {
                k = j + 1;
                continue;
            };
            match wrapper {
                "Option" | "Flag" => {
                    let p = Param::flag(flag_name(t, args, var));
                    if !cmd.params.contains(&p) {
                        cmd.params.push(p);
                    }
                }
                "Argument" => cmd.params.push(Param::argument(kebab(var))),
                "OptionGroup" if t.punct(j + 2, ":") => {
                    if let Some(ty) = t.ident(j + 3) {
                        cmd.entry.push(format!("group:{ty}"));
                    }
                }
                _ => {}
            }
            k = j + 2;
            continue;
        }
        k += 1;
    }
}

/// The flag a property wrapper declares: `name:` spellings, else
/// `--kebab-name`.
fn flag_name(t: &Toks, args: Option<usize>, var: &str) -> String {
    let long = format!("--{}", kebab(var));
    let Some(open) = args else { return long };
    let Some(r) = t.args(open).into_iter().find(|r| t.word(r.start, "name")) else {
        return long;
    };
    let v = r.start + 2..r.end;
    let mut has_long = false;
    let mut short = None;
    let mut custom_long = None;
    for i in v.clone() {
        match t.ident(i) {
            Some("long" | "shortAndLong") if t.punct(i.wrapping_sub(1), ".") => has_long = true,
            Some("short") if t.punct(i.wrapping_sub(1), ".") => {
                short.get_or_insert_with(|| format!("-{}", var.chars().next().unwrap_or('x')));
            }
            Some("customLong") if t.punct(i + 1, "(") => {
                if let Some(s) = t.string(i + 2) {
                    custom_long.get_or_insert_with(|| format!("--{}", s.text));
                }
            }
            Some("customShort") if t.punct(i + 1, "(") => {
                let c = t.get(i + 2).filter(|x| x.kind == Kind::Str);
                if let Some(c) = c {
                    short.get_or_insert_with(|| format!("-{}", c.text));
                }
            }
            _ => {}
        }
    }
    if let Some(c) = custom_long {
        return c;
    }
    if has_long {
        return long;
    }
    short.unwrap_or(long)
}
