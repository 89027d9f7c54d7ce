//! clikt (`kotlin_cli`; see docs/cli-surface.md).
//!
//! - A class or object extending `CliktCommand` (`NoOpCliktCommand`,
//!   `SuspendingCliktCommand`, `CoreCliktCommand`, or a class of the
//!   project that does) is a command, named by `name = "x"` (clikt 5's
//!   positional name too, when it is one word) else by its class name in
//!   kebab case without a `Command` suffix, as clikt infers it.
//! - `Parent().subcommands(A(), B().subcommands(C()))`, on a variable
//!   holding `Parent()`, or `subcommands(…)` inside a command's body (an
//!   `init` block) nests, across files (same file first).
//! - Params: `val x by option("-f", "--force")` (long form preferred; no
//!   names → `--x` in kebab case), `envvar = "X"`, `val x by
//!   argument("NAME")` (no name → the property name), `versionOption(…)`
//!   → `--version`; `val g by Group()` (an `OptionGroup` subclass, also
//!   `.cooccurring()`) and superclasses pull in their params.
//! - Test paths are skipped.

use portolan_plugin_sdk::cli::{self, Attach, Fact};
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Code, Syntax};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

use super::{CliType, Item};
use crate::jvm::tokens::{close_of, dotted, split_commas, tokenize, Kind, Token};

pub struct KotlinCli;

const BASES: &[&str] = &[
    "CliktCommand",
    "NoOpCliktCommand",
    "SuspendingCliktCommand",
    "SuspendingNoOpCliktCommand",
    "CoreCliktCommand",
    "CoreNoOpCliktCommand",
];

impl Analyzer for KotlinCli {
    fn tech(&self) -> Tech {
        Tech::new("kotlin_cli", "Kotlin", "CLI")
            .aliases(["clikt", "kotlin-cli"])
            .files(["*.kt"])
            .requires_any(["clikt", "CliktCommand", "OptionGroup"])
            .detect(Detect::files(["*.kt"]).contains(["com.github.ajalt.clikt"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if !path.ends_with(".kt") || is_test_path(&path) {
            return;
        }
        for f in scan(file, &path) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut cli_facts = Vec::new();
        let mut types = Vec::new();
        for f in facts.all::<KtFact>() {
            match f {
                KtFact::Cli(c) => cli_facts.push(c),
                KtFact::Type(t) => types.push(t),
            }
        }
        // Classes extending a command class of the project are commands.
        let mut commands: HashSet<String> = types
            .iter()
            .filter(|t| t.command)
            .map(|t| t.name.clone())
            .collect();
        for _ in 0..8 {
            let mut grew = false;
            for t in types.iter_mut() {
                if !t.command && t.supers.iter().any(|s| commands.contains(s)) {
                    t.command = true;
                    grew |= commands.insert(t.name.clone());
                }
            }
            if !grew {
                break;
            }
        }
        cli_facts.extend(super::expand(&types));
        Ok(cli::link(cli_facts, &|_, _| 0))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum KtFact {
    Cli(Fact),
    Type(CliType),
}

/// `RemoteAddCommand` → `remote-add`.
fn infer_name(class: &str) -> String {
    let base = class
        .strip_suffix("Command")
        .filter(|b| !b.is_empty())
        .unwrap_or(class);
    let mut out = String::new();
    let mut prev_lower = false;
    for c in base.chars() {
        if c.is_uppercase() && prev_lower {
            out.push('-');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.extend(c.to_lowercase());
    }
    out
}

fn kebab(prop: &str) -> String {
    infer_name(prop)
}

struct Class {
    name: String,
    line: u32,
    supers: Vec<String>,
    /// The arguments of the superclass constructor call.
    super_args: Option<(usize, usize)>,
    body: Option<(usize, usize)>,
    is_abstract: bool,
}

fn scan(file: &SourceFile, path: &str) -> Vec<KtFact> {
    let code = Code::new(&file.content, Syntax::C_LIKE);
    let t = tokenize(&code);
    let ident = |i: usize| {
        t.get(i)
            .filter(|x| x.kind == Kind::Ident)
            .map(|x| x.text.as_str())
    };
    let is = |i: usize, c: char| t.get(i).is_some_and(|x| x.is(c));
    let mut classes: Vec<Class> = Vec::new();
    for i in 0..t.len() {
        if !matches!(ident(i), Some("class" | "object")) {
            continue;
        }
        // `X::class`, `x.class`, `companion object`.
        if i > 0 && (is(i - 1, ':') || is(i - 1, '.')) {
            continue;
        }
        let Some(name) = ident(i + 1) else { continue };
        let is_abstract = i > 0 && matches!(ident(i - 1), Some("abstract" | "sealed"));
        let mut k = i + 2;
        if is(k, '<') {
            k = close_of(&t, k).map_or(k, |c| c + 1);
        }
        while matches!(
            ident(k),
            Some("private" | "internal" | "protected" | "public" | "constructor")
        ) || is(k, '@')
        {
            k += if is(k, '@') { 2 } else { 1 };
        }
        if is(k, '(') {
            k = close_of(&t, k).map_or(t.len(), |c| c + 1);
        }
        let mut supers = Vec::new();
        let mut super_args = None;
        if is(k, ':') {
            k += 1;
            while let Some((s, next)) = dotted(&t, k) {
                supers.push(s.rsplit('.').next().unwrap_or(&s).to_string());
                k = next;
                if is(k, '<') {
                    k = close_of(&t, k).map_or(k, |c| c + 1);
                }
                if is(k, '(') {
                    let c = close_of(&t, k).unwrap_or(t.len());
                    if super_args.is_none() {
                        super_args = Some((k + 1, c));
                    }
                    k = c + 1;
                }
                if is(k, ',') {
                    k += 1;
                } else {
                    break;
                }
            }
        }
        let body = if is(k, '{') {
            close_of(&t, k).map(|c| (k, c))
        } else {
            None
        };
        classes.push(Class {
            name: name.to_string(),
            line: file.line_of(t[i].start),
            supers,
            super_args,
            body,
            is_abstract,
        });
    }
    // Innermost class owning each body-open index, by a stack walk.
    let mut owner: Vec<Option<usize>> = vec![None; t.len()];
    {
        let mut opens: HashMap<usize, usize> = HashMap::new();
        for (ci, c) in classes.iter().enumerate() {
            if let Some((o, _)) = c.body {
                opens.insert(o, ci);
            }
        }
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for (i, slot) in owner.iter_mut().enumerate() {
            while stack.last().is_some_and(|&(_, close)| i > close) {
                stack.pop();
            }
            if let Some(&ci) = opens.get(&i) {
                if let Some((_, close)) = classes[ci].body {
                    stack.push((ci, close));
                }
            }
            *slot = stack.last().map(|&(ci, _)| ci);
        }
    }
    let mut items: Vec<Vec<Item>> = classes.iter().map(|_| Vec::new()).collect();
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let word = ident(i);
        let call = is(i + 1, '(') && !(i > 0 && is(i - 1, '.'));
        match word {
            Some("option" | "argument" | "versionOption" | "eagerOption") if call => {
                if let Some(ci) = owner[i] {
                    let close = close_of(&t, i + 1).unwrap_or(t.len());
                    let prop = property_before(&t, i);
                    if let Some(p) = declared(&t, word.unwrap_or(""), i + 2, close, prop) {
                        items[ci].extend(p.into_iter().map(Item::P));
                    }
                }
            }
            Some("by") => {
                // `val opts by Group()` / `by Group().cooccurring()`.
                if let (Some(ci), Some((g, next))) = (owner[i], dotted(&t, i + 1)) {
                    if is(next, '(')
                        && g.chars().next().is_some_and(char::is_uppercase)
                        && !matches!(g.as_str(), "lazy")
                    {
                        items[ci].push(Item::Include(g.rsplit('.').next().unwrap_or(&g).into()));
                    }
                }
            }
            Some("subcommands") if is(i + 1, '(') => {
                let parent = if i >= 2 && is(i - 1, '.') {
                    if t[i - 2].is_ident("this") {
                        owner[i].map(|c| classes[c].name.clone())
                    } else {
                        receiver(&t, i - 2, &vars)
                    }
                } else {
                    owner[i].map(|c| classes[c].name.clone())
                };
                let close = close_of(&t, i + 1).unwrap_or(t.len());
                if let Some(parent) = parent {
                    for child in children(&t, i + 2, close) {
                        out.push(KtFact::Cli(Fact::Attach(Attach {
                            path: path.to_string(),
                            parent: parent.clone(),
                            child,
                            name: None,
                            merged: false,
                        })));
                    }
                }
            }
            Some("val" | "var") => {
                // `val cli = Tool()`.
                if let (Some(v), true) = (ident(i + 1), is(i + 2, '=')) {
                    if let Some((c, next)) = dotted(&t, i + 3) {
                        if is(next, '(') && c.chars().next().is_some_and(char::is_uppercase) {
                            vars.insert(v.to_string(), c.rsplit('.').next().unwrap_or(&c).into());
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    for (ci, c) in classes.iter().enumerate() {
        let direct = c.supers.iter().any(|s| BASES.contains(&s.as_str()));
        let group = c.supers.iter().any(|s| s == "OptionGroup");
        if !direct && !group && items[ci].is_empty() && c.supers.is_empty() {
            continue;
        }
        let explicit = c.super_args.and_then(|(s, e)| name_arg(&t, s, e, direct));
        out.push(KtFact::Type(CliType {
            path: path.to_string(),
            line: c.line,
            name: c.name.clone(),
            binary: c.name.clone(),
            command: direct,
            is_abstract: c.is_abstract,
            cmd_name: Some(explicit.clone().unwrap_or_else(|| infer_name(&c.name))),
            prog: Some(explicit.unwrap_or_else(|| infer_name(&c.name))),
            items: std::mem::take(&mut items[ci]),
            supers: c.supers.clone(),
            subs: Vec::new(),
        }));
    }
    out
}

/// `name = "x"` among the superclass constructor arguments, or (for
/// clikt's own classes, `positional`) a leading one-word string (clikt 5's
/// `CliktCommand(name)`; older versions take the help text first).
fn name_arg(t: &[Token], start: usize, end: usize, positional: bool) -> Option<String> {
    for (n, r) in split_commas(t, start, end).into_iter().enumerate() {
        let first = &t[r.start];
        if first.is_ident("name") && t.get(r.start + 1).is_some_and(|x| x.is('=')) {
            return t
                .get(r.start + 2)
                .filter(|x| x.kind == Kind::Str && r.len() == 3)
                .map(|x| x.text.clone());
        }
        if positional && n == 0 && first.kind == Kind::Str && r.len() == 1 {
            let s = &first.text;
            if !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
            {
                return Some(s.clone());
            }
        }
    }
    None
}

/// `val name [: T] by option(` — the property name before the call at `i`.
fn property_before(t: &[Token], i: usize) -> Option<String> {
    if i == 0 || !t[i - 1].is_ident("by") {
        return None;
    }
    let lo = i.saturating_sub(16);
    (lo..i - 1)
        .rev()
        .find(|&k| t[k].is_ident("val") || t[k].is_ident("var"))
        .and_then(|k| t.get(k + 1))
        .filter(|x| x.kind == Kind::Ident)
        .map(|x| x.text.clone())
}

/// The params one `option(…)` / `argument(…)` call declares.
fn declared(
    t: &[Token],
    fun: &str,
    start: usize,
    end: usize,
    prop: Option<String>,
) -> Option<Vec<Param>> {
    let mut names: Vec<String> = Vec::new();
    let mut env = None;
    let mut arg_name = None;
    for r in split_commas(t, start, end) {
        let first = &t[r.start];
        if first.kind == Kind::Str && r.len() == 1 {
            names.push(first.text.clone());
            continue;
        }
        if first.kind == Kind::Ident && t.get(r.start + 1).is_some_and(|x| x.is('=')) {
            let val = t
                .get(r.start + 2)
                .filter(|x| x.kind == Kind::Str && r.len() == 3)
                .map(|x| x.text.clone());
            match first.text.as_str() {
                "envvar" => env = val,
                "name" if fun == "argument" => arg_name = val,
                "names" => names.extend(val),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    match fun {
        "argument" => {
            let n = arg_name.or_else(|| names.first().cloned()).or(prop)?;
            out.push(Param::argument(n));
        }
        "versionOption" => out.push(Param::flag("--version")),
        _ => {
            let flag = cli::flag_name(names.iter().map(String::as_str))
                .or_else(|| prop.map(|p| format!("--{}", kebab(&p))))?;
            out.push(Param::flag(flag));
        }
    }
    if let Some(e) = env {
        out.push(Param::env(e));
    }
    Some(out)
}

/// The class a receiver ending at `end` is: `Tool()`, `Tool().x(…)`
/// chains back to the construction, or a variable holding one.
fn receiver(t: &[Token], end: usize, vars: &HashMap<String, String>) -> Option<String> {
    let mut e = end;
    for _ in 0..64 {
        let tok = t.get(e)?;
        if tok.kind == Kind::Ident {
            return vars.get(&tok.text).cloned();
        }
        if !tok.is(')') {
            return None;
        }
        let open = (e.saturating_sub(4096)..e)
            .rev()
            .find(|&o| t[o].is('(') && close_of(t, o) == Some(e))?;
        let callee = open.checked_sub(1)?;
        let name = &t.get(callee).filter(|x| x.kind == Kind::Ident)?.text;
        if callee >= 2 && t[callee - 1].is('.') && !name.starts_with(char::is_uppercase) {
            // `.context { … }` has no parens; `.versionOption(…)`,
            // `.subcommands(…)`: go on to the receiver.
            e = callee - 2;
            continue;
        }
        return name.starts_with(char::is_uppercase).then(|| name.clone());
    }
    None
}

/// Class names constructed in `subcommands(A(), B().subcommands(…),
/// listOf(C()))`.
fn children(t: &[Token], start: usize, end: usize) -> Vec<String> {
    let mut out = Vec::new();
    for r in split_commas(t, start, end) {
        let Some((name, next)) = dotted(t, r.start) else {
            continue;
        };
        let simple = name.rsplit('.').next().unwrap_or(&name).to_string();
        if matches!(simple.as_str(), "listOf" | "arrayOf" | "mutableListOf") {
            if let Some(c) = close_of(t, next) {
                out.extend(children(t, next + 1, c.min(r.end)));
            }
            continue;
        }
        if t.get(next).is_some_and(|x| x.is('(')) && simple.starts_with(char::is_uppercase) {
            out.push(simple);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(infer_name("RemoteAddCommand"), "remote-add");
        assert_eq!(infer_name("Init"), "init");
        assert_eq!(infer_name("Command"), "command");
        assert_eq!(kebab("dryRun"), "dry-run");
    }
}
