//! Command-line programs (`ruby_cli`; see docs/cli-surface.md): Thor,
//! dry-cli and the standard library's OptionParser as
//! `cli://<binary>/<subcommand>` endpoints.
//!
//! - Thor: a `class X < Thor` is a command; each public method preceded by
//!   `desc` is a subcommand named after the method, its positional
//!   parameters are arguments and the `method_option`/`option`/
//!   `method_options` before it are flags (`:dry_run` → `--dry-run`, a
//!   one-letter name `-f`, as Thor dasherizes). `class_option` and
//!   class-level `argument` belong to the class's own endpoint.
//!   `subcommand "db", Db` / `register(Db, "db", …)` nest another Thor
//!   class, across files. A `Thor::Group` is one command (its methods are
//!   steps). Methods after `private`/`protected` or inside `no_commands`
//!   are not commands. An option whose default reads `ENV["X"]` /
//!   `ENV.fetch("X")` adds the variable.
//! - dry-cli: a module that `extend Dry::CLI::Registry` is the root;
//!   `register "generate model", Generate::Model` (also `register "x" do
//!   |prefix| prefix.register "y", Y end`) nests command classes (`option`,
//!   `argument`); a command class nobody registers is not reported.
//! - OptionParser: `OptionParser.new do |opts| opts.on("-f", "--force") …`
//!   (or `p = OptionParser.new` then `p.on(…)`) is the program's root; a
//!   parser that is a hash value (`"add" => OptionParser.new …`) is a
//!   subcommand named by its key. A literal `banner = "Usage: tool …"`
//!   names the program.
//! - Binary: an executable (`exe/<name>`, `bin/<name>`) that runs the root
//!   (`X::CLI.start(ARGV)`, `Dry::CLI.new(X::Commands).call`), else the
//!   only name a gemspec's `executables` lists, else the root file's name.
//!
//! Files in test paths (`spec/`, `test/`, `*_spec.rb`, `*_test.rb`) are
//! skipped.

use crate::rb::call::{call_of, call_of_tokens, Val};
use crate::rb::tokens::{Kind, Token};
use crate::rb::tree::{self, Stmt};
use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::rubyish::dsl::tokens_in;

pub struct RubyCli;

/// The parent symbol of dry-cli command classes until a `register`
/// attaches them: it never resolves, so unregistered ones are dropped.
const UNREGISTERED: &str = "dry-cli:unregistered";

/// A symbol every dry-cli registry also has: registrations outside one
/// (Hanami's `def self.extended(base)`) hang under the project's only
/// registry.
const REGISTRY: &str = "dry-cli:registry";

/// `Command.entry` prefixes of a dry-cli command class: its qualified
/// name and its superclass as written.
const DRY_CLASS: &str = "dry-class:";
const DRY_EXTENDS: &str = "dry-extends:";

impl Analyzer for RubyCli {
    fn tech(&self) -> Tech {
        Tech::new("ruby_cli", "Ruby", "CLI")
            .aliases(["thor", "dry-cli", "optparse", "ruby-cli"])
            .files(["*.rb", "*.thor", "*.gemspec", "**/exe/*", "**/bin/*"])
            .requires_any([
                "Thor",
                "OptionParser",
                "Dry::CLI",
                "executables",
                ".start",
                "register",
                "Command",
            ])
            .detect(
                Detect::files(["Gemfile", "gems.rb", "*.gemspec"])
                    .regex([r#"(gem|add_(runtime_)?dependency)\s*\(?\s*["'](thor|dry-cli)["']"#]),
            )
            .detect(Detect::files(["*.rb", "*.thor"]).regex([
                r"<\s*(::)?Thor(::Group)?\s*$",
                r"\bOptionParser\.new\b",
                r"\bDry::CLI\b",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        let base = path.rsplit('/').next().unwrap_or(&path);
        if is_test_path(&file.path) || base.ends_with("_spec.rb") || base.ends_with("_test.rb") {
            return;
        }
        let toks = crate::rb::tokens_of(&file.content);
        if base.ends_with(".gemspec") {
            for name in gemspec_executables(&toks) {
                out.fact(&Fact::Script(Script {
                    name,
                    entry: String::new(),
                }));
            }
            return;
        }
        let dir = path.rsplit('/').nth(1).unwrap_or("");
        let exe = matches!(dir, "exe" | "bin") && (!base.contains('.') || base.ends_with(".rb"));
        if exe {
            let name = base.trim_end_matches(".rb").to_string();
            for entry in started(&toks) {
                out.fact(&Fact::Script(Script {
                    name: name.clone(),
                    entry,
                }));
            }
        }
        let stmts = tree::parse(&toks, &crate::rb::RULES);
        let mut facts = Vec::new();
        let mut scan = Scan {
            file,
            toks: &toks,
            facts: &mut facts,
        };
        scan.visit(&stmts, "");
        scan.registrations(&stmts, "", None, "", &mut Vec::new());
        scan.optparse(&stmts);
        for f in &facts {
            out.fact(f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut all: Vec<Fact> = facts.all();
        inherit_dry_options(&mut all);
        Ok(cli::link(all, &|entry, c| {
            let entry = entry.trim_start_matches("::");
            if entry.is_empty() {
                0
            } else {
                c.symbols.iter().any(|s| s == entry) as u8
            }
        }))
    }
}

/// dry-cli command classes inherit the `option`s and `argument`s of the
/// command classes they subclass (`class Deploy < Base`), across files;
/// the superclass as written is matched on a class name's suffix.
fn inherit_dry_options(all: &mut [Fact]) {
    let mut classes: Vec<(String, String, Vec<Param>)> = Vec::new();
    for f in all.iter() {
        if let Fact::Command(c) = f {
            let class = c.entry.iter().find_map(|e| e.strip_prefix(DRY_CLASS));
            let sup = c.entry.iter().find_map(|e| e.strip_prefix(DRY_EXTENDS));
            if let (Some(class), Some(sup)) = (class, sup) {
                classes.push((class.to_string(), sup.to_string(), c.params.clone()));
            }
        }
    }
    if classes.is_empty() {
        return;
    }
    let find = |sup: &str| {
        classes
            .iter()
            .find(|(c, _, _)| c == sup || c.ends_with(&format!("::{sup}")))
    };
    for f in all.iter_mut() {
        let Fact::Command(c) = f else { continue };
        let Some(mut sup) = c
            .entry
            .iter()
            .find_map(|e| e.strip_prefix(DRY_EXTENDS))
            .map(str::to_string)
        else {
            continue;
        };
        for _ in 0..8 {
            let Some((_, next, params)) = find(&sup) else {
                break;
            };
            for p in params {
                if !c.params.contains(p) {
                    c.params.push(p.clone());
                }
            }
            sup = next.clone();
        }
    }
}

/// `spec.executables = ["tool"]` / `%w[tool]`.
fn gemspec_executables(toks: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !t.is_word("executables") || !toks.get(i + 1).is_some_and(|t| t.is("=")) {
            continue;
        }
        let rest = &toks[i + 2..];
        let end = rest
            .iter()
            .position(|t| t.kind == Kind::Newline)
            .unwrap_or(rest.len());
        let rest = &rest[..end];
        match rest.first().map(|t| &t.kind) {
            Some(Kind::Words(w)) => out.extend(w.iter().cloned()),
            Some(Kind::Punct) if rest.first().is_some_and(|t| t.is("[")) => {
                out.extend(
                    rest.iter()
                        .skip(1)
                        .take_while(|t| !t.is("]"))
                        .filter(|t| t.kind == Kind::Str)
                        .map(|t| t.text.clone()),
                );
            }
            Some(Kind::Str) => out.push(rest[0].text.clone()),
            _ => {}
        }
    }
    out
}

/// The constant path ending just before token `end` (exclusive):
/// `Tool::CLI` for `Tool::CLI.start`.
fn const_before(toks: &[Token], end: usize) -> String {
    let mut i = end;
    while i > 0 && (toks[i - 1].kind == Kind::Const || toks[i - 1].is("::")) {
        i -= 1;
    }
    toks[i..end].iter().map(|t| t.text.as_str()).collect()
}

/// What an executable runs: `X.start(…)` and `Dry::CLI.new(X)`.
fn started(toks: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    for i in 1..toks.len() {
        if toks[i].is_word("start") && toks[i - 1].is(".") {
            let c = const_before(toks, i - 1);
            if !c.is_empty() {
                out.push(c);
            }
        }
        if toks[i].is_word("new")
            && toks[i - 1].is(".")
            && const_before(toks, i - 1).ends_with("Dry::CLI")
            && toks.get(i + 1).is_some_and(|t| t.is("("))
        {
            let mut j = i + 2;
            while toks
                .get(j)
                .is_some_and(|t| t.kind == Kind::Const || t.is("::"))
            {
                j += 1;
            }
            let c = const_before(toks, j);
            if !c.is_empty() {
                out.push(c);
            }
        }
    }
    out
}

/// A module body that `extend Dry::CLI::Registry`.
fn is_registry(body: &[Stmt]) -> bool {
    body.iter().any(|b| {
        b.head() == Some("extend")
            && const_before(&b.toks, b.toks.len()).ends_with("Dry::CLI::Registry")
    })
}

/// Every suffix of a qualified name (`A::B::C`, `B::C`, `C`): a reference
/// written relative to a namespace finds it.
fn suffixes(full: &str) -> Vec<String> {
    let parts: Vec<&str> = full.split("::").filter(|p| !p.is_empty()).collect();
    (0..parts.len()).map(|i| parts[i..].join("::")).collect()
}

/// Thor's and dry-cli's option spelling: `:dry_run` → `--dry-run`, `:f`
/// → `-f`.
fn dasherize(name: &str) -> String {
    let name = name.trim_start_matches('-');
    if name.chars().count() == 1 {
        format!("-{name}")
    } else {
        format!("--{}", name.replace('_', "-"))
    }
}

/// Environment variables read in a statement (`ENV["X"]`,
/// `ENV.fetch("X")`).
fn env_reads(toks: &[Token]) -> Vec<Param> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Const || t.text != "ENV" {
            continue;
        }
        let s = match (toks.get(i + 1), toks.get(i + 2), toks.get(i + 3)) {
            (Some(a), Some(s), _) if a.is("[") => Some(s),
            (Some(a), Some(f), Some(p)) if a.is(".") && f.is_word("fetch") && p.is("(") => {
                toks.get(i + 4)
            }
            _ => None,
        };
        if let Some(s) = s.filter(|s| s.kind == Kind::Str && !s.interpolated) {
            let p = Param::env(s.text.clone());
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The option name of `option :name, …` (symbol or string).
fn first_name(args: &[Val]) -> Option<String> {
    args.first()
        .and_then(|v| v.text())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The keys of `method_options force: :boolean, name: :string`.
fn hash_keys(args: &[Val]) -> Vec<String> {
    args.iter()
        .filter_map(|a| match a {
            Val::Hash(pairs) => Some(pairs),
            _ => None,
        })
        .flatten()
        .filter_map(|(k, _)| k.text().map(str::to_string))
        .collect()
}

fn push(params: &mut Vec<Param>, p: Param) {
    if !params.contains(&p) {
        params.push(p);
    }
}

/// The positional parameters of `def name(a, b = nil, *rest)`: keyword,
/// splat-hash and block parameters are not positional arguments.
fn def_params(toks: &[Token]) -> Vec<String> {
    // toks: `def name ( … )` or `def name a, b`
    let mut i = 2;
    if toks.get(i).is_some_and(|t| t.is("(")) {
        i += 1;
    }
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut at_start = true;
    while let Some(t) = toks.get(i) {
        i += 1;
        if t.kind == Kind::Newline {
            break;
        }
        if t.is("(") || t.is("[") || t.is("{") {
            depth += 1;
        } else if t.is(")") || t.is("]") || t.is("}") {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if depth == 0 && t.is(",") {
            at_start = true;
            continue;
        }
        if depth == 0 && at_start {
            at_start = false;
            if t.is("*") {
                at_start = true;
                continue;
            }
            if t.kind == Kind::Ident {
                out.push(t.text.clone());
            }
        }
    }
    out
}

struct Scan<'a> {
    file: &'a SourceFile,
    toks: &'a [Token],
    facts: &'a mut Vec<Fact>,
}

impl Scan<'_> {
    fn line(&self, offset: usize) -> u32 {
        self.file.line_of(offset)
    }

    fn command(&mut self, c: Command) {
        self.facts.push(Fact::Command(c));
    }

    fn visit(&mut self, stmts: &[Stmt], ns: &str) {
        for s in stmts {
            let head = s.head();
            if matches!(head, Some("class" | "module"))
                && s.toks.get(1).is_some_and(|t| t.kind == Kind::Const)
            {
                let mut i = 1;
                while s
                    .toks
                    .get(i)
                    .is_some_and(|t| t.kind == Kind::Const || t.is("::"))
                {
                    i += 1;
                }
                let name = const_before(&s.toks, i);
                let sup = if s.toks.get(i).is_some_and(|t| t.is("<")) {
                    let mut j = i + 1;
                    while s
                        .toks
                        .get(j)
                        .is_some_and(|t| t.kind == Kind::Const || t.is("::"))
                    {
                        j += 1;
                    }
                    const_before(&s.toks, j)
                } else {
                    String::new()
                };
                let sup = sup.trim_start_matches("::");
                let full = if ns.is_empty() {
                    name.clone()
                } else {
                    format!("{ns}::{name}")
                };
                let Some(block) = s.blocks.first() else {
                    continue;
                };
                let line = self.line(s.start());
                let body = &block.body;
                if sup == "Thor" || sup == "Thor::Group" {
                    self.thor(body, &full, line, sup == "Thor::Group");
                } else if sup.ends_with("Command") || self.has_dry_dsl(body) {
                    self.dry_command(body, &full, sup, line);
                }
                if is_registry(body) {
                    self.dry_registry(&full, line);
                }
                self.visit(body, &full);
            } else {
                for b in &s.blocks {
                    if b.kind != "def" {
                        self.visit(&b.body, ns);
                    }
                }
            }
        }
    }

    fn has_dry_dsl(&self, body: &[Stmt]) -> bool {
        body.iter()
            .any(|b| matches!(b.head(), Some("option" | "argument")))
    }

    fn thor(&mut self, body: &[Stmt], full: &str, line: u32, group: bool) {
        let mut own: Vec<Param> = Vec::new();
        let mut pending: Option<String> = None;
        let mut opts: Vec<Param> = Vec::new();
        let mut hidden = false;
        for s in body {
            let head = s.head().unwrap_or("");
            if head == "def" {
                let name = s.toks.get(1).filter(|t| t.kind == Kind::Ident);
                let is_self = s.toks.get(2).is_some_and(|t| t.is("."));
                if let (Some(name), false, false, Some(_)) =
                    (name, is_self, hidden, pending.as_ref())
                {
                    let mut params: Vec<Param> = def_params(&s.toks)
                        .into_iter()
                        .map(Param::argument)
                        .collect();
                    for p in opts.drain(..) {
                        push(&mut params, p);
                    }
                    if !group {
                        let usage = pending.as_deref().unwrap_or("");
                        let cmd = if usage != name.text && usage.replace('-', "_") == name.text {
                            usage.to_string()
                        } else {
                            name.text.clone()
                        };
                        self.command(Command {
                            path: self.file.path.clone(),
                            line: self.line(s.start()),
                            symbols: vec![format!("thor:{}:{}", full, name.text)],
                            parent: Some(full.to_string()),
                            name: cmd,
                            params,
                            ..Command::default()
                        });
                    }
                }
                pending = None;
                opts.clear();
                continue;
            }
            let Some(call) = call_of(s) else { continue };
            if !call.recv.is_empty() {
                continue;
            }
            match call.name.as_str() {
                "private" | "protected" if call.args.is_empty() => hidden = true,
                "public" if call.args.is_empty() => hidden = false,
                "desc" => {
                    // The usage's first word, when it spells the method
                    // name with dashes (`desc "stop-all"` for `stop_all`).
                    let usage = call.args.first().and_then(|a| a.text()).unwrap_or("");
                    pending = Some(usage.split_whitespace().next().unwrap_or("").to_string());
                }
                "method_option" | "option" => {
                    if let Some(n) = first_name(&call.args) {
                        push(&mut opts, Param::flag(dasherize(&n)));
                    }
                    for p in env_reads(&s.toks) {
                        push(&mut opts, p);
                    }
                }
                "method_options" | "options" => {
                    for n in hash_keys(&call.args) {
                        push(&mut opts, Param::flag(dasherize(&n)));
                    }
                }
                "class_option" => {
                    if let Some(n) = first_name(&call.args) {
                        push(&mut own, Param::flag(dasherize(&n)));
                    }
                    for p in env_reads(&s.toks) {
                        push(&mut own, p);
                    }
                }
                "class_options" => {
                    for n in hash_keys(&call.args) {
                        push(&mut own, Param::flag(dasherize(&n)));
                    }
                }
                "argument" => {
                    if let Some(n) = first_name(&call.args) {
                        push(&mut own, Param::argument(n));
                    }
                }
                "subcommand" | "register" => {
                    // `subcommand "db", Db` / `register(Db, "db", usage, desc)`:
                    // the `desc` before it was the subcommand's.
                    pending = None;
                    let (name, class) = if call.name == "subcommand" {
                        (call.args.first(), call.args.get(1))
                    } else {
                        (call.args.get(1), call.args.first())
                    };
                    let (Some(Val::Const(class)), Some(name)) =
                        (class, name.and_then(|n| n.text()))
                    else {
                        continue;
                    };
                    self.facts.push(Fact::Attach(Attach {
                        path: self.file.path.clone(),
                        parent: full.to_string(),
                        child: class.trim_start_matches("::").to_string(),
                        name: Some(name.to_string()),
                        merged: false,
                    }));
                }
                _ => {}
            }
        }
        self.command(Command {
            path: self.file.path.clone(),
            line,
            symbols: suffixes(full),
            entry: vec![full.to_string()],
            params: own,
            ..Command::default()
        });
    }

    fn dry_command(&mut self, body: &[Stmt], full: &str, sup: &str, line: u32) {
        let mut params = Vec::new();
        for s in body {
            let Some(call) = call_of(s) else { continue };
            if !call.recv.is_empty() {
                continue;
            }
            match call.name.as_str() {
                "option" => {
                    if let Some(n) = first_name(&call.args) {
                        push(&mut params, Param::flag(dasherize(&n)));
                    }
                    for p in env_reads(&s.toks) {
                        push(&mut params, p);
                    }
                }
                "argument" => {
                    if let Some(n) = first_name(&call.args) {
                        push(&mut params, Param::argument(n));
                    }
                }
                _ => {}
            }
        }
        self.command(Command {
            path: self.file.path.clone(),
            line,
            symbols: suffixes(full),
            parent: Some(UNREGISTERED.into()),
            entry: vec![format!("{DRY_CLASS}{full}"), format!("{DRY_EXTENDS}{sup}")],
            params,
            ..Command::default()
        });
    }

    fn dry_registry(&mut self, full: &str, line: u32) {
        let mut symbols = suffixes(full);
        symbols.push(REGISTRY.into());
        self.command(Command {
            path: self.file.path.clone(),
            line,
            symbols,
            entry: vec![full.to_string()],
            ..Command::default()
        });
    }

    /// dry-cli registrations anywhere in the file: `register "a b", Klass`
    /// and `register "a" do |prefix| prefix.register "b", Klass end`, also
    /// inside conditionals and methods (`def self.extended(base)`). They
    /// hang under the enclosing registry module, else under the project's
    /// one registry.
    fn registrations(
        &mut self,
        stmts: &[Stmt],
        ns: &str,
        root: Option<&str>,
        prefix: &str,
        made: &mut Vec<String>,
    ) {
        for s in stmts {
            if matches!(s.head(), Some("class" | "module"))
                && s.toks.get(1).is_some_and(|t| t.kind == Kind::Const)
            {
                let mut i = 1;
                while s
                    .toks
                    .get(i)
                    .is_some_and(|t| t.kind == Kind::Const || t.is("::"))
                {
                    i += 1;
                }
                let name = const_before(&s.toks, i);
                let full = if ns.is_empty() {
                    name
                } else {
                    format!("{ns}::{name}")
                };
                if let Some(b) = s.blocks.first() {
                    let own = is_registry(&b.body).then_some(full.as_str());
                    self.registrations(&b.body, &full, own.or(root), prefix, made);
                }
                continue;
            }
            let call = call_of(s).filter(|c| c.name == "register");
            let name = call
                .as_ref()
                .and_then(|c| c.args.first().and_then(|a| a.text()).map(str::to_string));
            let (Some(call), Some(name)) = (call, name) else {
                for b in &s.blocks {
                    self.registrations(&b.body, ns, root, prefix, made);
                }
                continue;
            };
            let class = match call.args.get(1) {
                Some(Val::Const(c)) => Some(c.trim_start_matches("::").to_string()),
                _ => None,
            };
            if class.is_none() && s.block().is_none() {
                continue;
            }
            let root_sym = root.unwrap_or(REGISTRY);
            let words: Vec<&str> = prefix
                .split_whitespace()
                .chain(name.split_whitespace())
                .collect();
            let Some((last, groups)) = words.split_last() else {
                continue;
            };
            // Intermediate groups (`generate` of `generate model`), and
            // the group a block registers into.
            let mut parent = root_sym.to_string();
            let upto = if class.is_some() {
                groups.len()
            } else {
                words.len()
            };
            for k in 0..upto {
                let sym = format!("dry-cli:{root_sym}:{}", words[..=k].join(" "));
                if !made.contains(&sym) {
                    made.push(sym.clone());
                    self.command(Command {
                        path: self.file.path.clone(),
                        line: self.line(s.start()),
                        symbols: vec![sym.clone()],
                        parent: Some(parent.clone()),
                        name: words[k].to_string(),
                        ..Command::default()
                    });
                }
                parent = sym;
            }
            match class {
                Some(class) => self.facts.push(Fact::Attach(Attach {
                    path: self.file.path.clone(),
                    parent,
                    child: class,
                    name: Some((*last).to_string()),
                    merged: false,
                })),
                None => {
                    if let Some(b) = s.block() {
                        self.registrations(&b.body, ns, root, &words.join(" "), made);
                    }
                }
            }
        }
    }

    /// OptionParser parsers anywhere in the file.
    fn optparse(&mut self, stmts: &[Stmt]) {
        let toks = self.toks;
        let root_sym = format!("optparse:{}", self.file.path);
        let mut root: Option<usize> = None;
        let mut subs: Vec<(usize, usize)> = Vec::new(); // (fact index, first token offset)
        let mut found: Vec<Parser> = Vec::new();
        tree::walk(stmts, &mut |s: &Stmt, _| {
            let t = &s.toks;
            for k in 0..t.len() {
                if !(t[k].kind == Kind::Const
                    && t[k].text == "OptionParser"
                    && t.get(k + 1).is_some_and(|x| x.is("."))
                    && t.get(k + 2).is_some_and(|x| x.is_word("new")))
                    || (k > 0 && t[k - 1].is("::") && !const_before(t, k - 1).is_empty())
                {
                    continue;
                }
                let name = if k >= 2 && t[k - 1].is("=>") && t[k - 2].kind == Kind::Str {
                    Some(t[k - 2].text.clone())
                } else if k >= 1 && t[k - 1].kind == Kind::Label {
                    Some(t[k - 1].text.clone())
                } else {
                    None
                };
                let next = t[k + 3..]
                    .iter()
                    .find(|x| x.kind == Kind::Const && x.text == "OptionParser")
                    .map_or(usize::MAX, |x| x.start);
                let block = s
                    .blocks
                    .iter()
                    .find(|b| b.start >= t[k].end && b.start < next && b.kind != "def");
                let (range, recv) = match block {
                    Some(b) => (
                        tokens_in(toks, b.start, b.end),
                        b.params.first().cloned().unwrap_or_default(),
                    ),
                    None => {
                        // `parser = OptionParser.new` then `parser.on(…)`.
                        let var = if k >= 2 && t[k - 1].is("=") && t[k - 2].kind == Kind::Ident {
                            t[k - 2].text.clone()
                        } else {
                            String::new()
                        };
                        let from = toks.partition_point(|x| x.start < t[k].end);
                        (&toks[from..], var)
                    }
                };
                let (params, banner) = parser_calls(range, &recv);
                found.push((name, t[k].start, params, banner));
            }
        });
        for (name, at, params, banner) in found {
            let line = self.line(at);
            match name {
                None => {
                    if let Some(r) = root {
                        if let Some(Fact::Command(c)) = self.facts.get_mut(r) {
                            for p in params {
                                push(&mut c.params, p);
                            }
                        }
                        continue;
                    }
                    root = Some(self.facts.len());
                    self.command(Command {
                        path: self.file.path.clone(),
                        line,
                        symbols: vec![root_sym.clone()],
                        prog: banner,
                        params,
                        ..Command::default()
                    });
                }
                Some(n) => {
                    subs.push((self.facts.len(), at));
                    self.command(Command {
                        path: self.file.path.clone(),
                        line,
                        symbols: vec![format!("{root_sym}:{n}")],
                        parent: Some(root_sym.clone()),
                        name: n,
                        params,
                        ..Command::default()
                    });
                }
            }
        }
        if root.is_none() {
            if let Some((_, at)) = subs.first() {
                let line = self.line(*at);
                self.command(Command {
                    path: self.file.path.clone(),
                    line,
                    symbols: vec![root_sym],
                    ..Command::default()
                });
            }
        }
    }
}

/// A parser found: its subcommand name (`None` for the root), offset,
/// flags and banner program name.
type Parser = (Option<String>, usize, Vec<Param>, Option<String>);

/// The flags `recv.on("-f", "--force", …)` (also `on_head`/`on_tail`)
/// declares in `toks`, and a literal `recv.banner = "Usage: tool …"`'s
/// program name.
fn parser_calls(toks: &[Token], recv: &str) -> (Vec<Param>, Option<String>) {
    let mut params = Vec::new();
    let mut banner = None;
    for i in 0..toks.len() {
        if !(toks[i].is_word(recv) && toks.get(i + 1).is_some_and(|t| t.is("."))) || recv.is_empty()
        {
            continue;
        }
        let Some(m) = toks.get(i + 2) else { continue };
        if m.is_word("banner") && toks.get(i + 3).is_some_and(|t| t.is("=")) {
            if let Some(s) = toks
                .get(i + 4)
                .filter(|t| t.kind == Kind::Str && !t.interpolated)
            {
                let mut w = s.text.split_whitespace();
                if w.next().is_some_and(|u| u.eq_ignore_ascii_case("usage:")) {
                    banner = w
                        .next()
                        .filter(|p| !p.starts_with('[') && !p.starts_with('$'))
                        .map(str::to_string);
                }
            }
            continue;
        }
        if !matches!(m.text.as_str(), "on" | "on_head" | "on_tail") || m.kind != Kind::Ident {
            continue;
        }
        let end = toks[i + 3..]
            .iter()
            .position(|t| t.kind == Kind::Newline)
            .map_or(toks.len(), |p| i + 3 + p);
        let Some(call) = call_of_tokens(&toks[i + 2..end]) else {
            continue;
        };
        let names: Vec<String> = call
            .args
            .iter()
            .filter_map(|a| a.text())
            .filter(|s| s.starts_with('-'))
            .map(|s| {
                let s = s.replace("[no-]", "");
                let cut = s.find([' ', '=', '[']).unwrap_or(s.len());
                s[..cut].to_string()
            })
            .collect();
        if let Some(n) = cli::flag_name(names.iter().map(String::as_str)) {
            push(&mut params, Param::flag(n));
        }
    }
    (params, banner)
}
