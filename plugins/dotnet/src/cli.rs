//! Command-line programs (`cs_cli`; see docs/cli-surface.md):
//! System.CommandLine, Spectre.Console.Cli and CommandLineParser as
//! `cli://<binary>/<subcommand>` endpoints.
//!
//! - System.CommandLine: `new RootCommand(…)` and `new Command("x", …)`
//!   (in a variable, inline, or a class deriving `Command` whose
//!   constructor calls `base("x")`) are commands; `new Option<T>("--x",
//!   "-x")` / `new Option<T>(new[] {"--x", "-x"}, "help")` flags (the
//!   strings starting with `-`), `new Argument<T>("name")` arguments,
//!   `Environment.GetEnvironmentVariable("X")` in an option's default
//!   (`getDefaultValue:`, `DefaultValueFactory =`) its env var. They attach
//!   by `AddCommand`/`AddOption`/`AddGlobalOption`/`AddArgument`/`Add`,
//!   `Subcommands.Add`/`Options.Add`/`Arguments.Add` and collection
//!   initializers; variables are block-scoped. `root.AddCommand(new
//!   XCommand())` / `root.AddCommand(BuildX())` nest the command a class or
//!   a method (returning its variable) builds, in any file.
//! - Spectre.Console.Cli: `config.AddCommand<T>("x")` and `AddBranch("x",
//!   b => …)` / `AddBranch<TSettings>` nest under the `CommandApp`; a
//!   command's params are those of its settings type (`Command<TSettings>`)
//!   and the settings' base classes: `[CommandOption("-f|--force")]`,
//!   `[CommandArgument(0, "<name>")]`. `SetApplicationName("x")` names the
//!   program.
//! - CommandLineParser: `[Verb("x")]` types are subcommands of the
//!   program, `[Option('f', "force")]` flags, `[Value(0, MetaName = "x")]`
//!   arguments (base classes included); a program without verbs is the
//!   options type `ParseArguments<T>` reads.
//! - Binary: the `.csproj` whose directory holds the root
//!   (`<ToolCommandName>`, else `<AssemblyName>`, else the project file's
//!   name), else `SetApplicationName`, else the file stem.
//! - Test code is skipped.

use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Syntax;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

use crate::cs::outline::{self, Attr, CsFile};
use crate::cs::tokens::{close_of, split_commas, Kind, Token};

pub struct CsCli;

impl Analyzer for CsCli {
    fn tech(&self) -> Tech {
        Tech::new("cs_cli", "C#", "CLI")
            .aliases([
                "system-commandline",
                "spectre-cli",
                "commandlineparser",
                "cs-cli",
            ])
            .files(["*.cs", "*.csproj"])
            .requires_any([
                "System.CommandLine",
                "Spectre.Console.Cli",
                "CommandLine",
                "<Project",
            ])
            .detect(Detect::files(["*.csproj"]).regex([
                r#"Include="(System\.CommandLine|Spectre\.Console\.Cli|CommandLineParser)""#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if path.ends_with(".csproj") {
            if let Some(s) = csproj(&path, &file.content) {
                out.fact(&CsFact::Cli(Fact::Script(s)));
            }
            return;
        }
        if !path.ends_with(".cs") || crate::cs::is_test_code(&path, &file.content) {
            return;
        }
        let c = &file.content;
        if !c.contains("CommandLine") && !c.contains("Spectre") && !c.contains("CommandSettings") {
            return;
        }
        let (outline, toks) = outline::parse(file);
        let mut facts = Vec::new();
        types(&outline, &path, &mut facts);
        flow(file, &path, &outline, &toks, &mut facts);
        for f in facts {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut cli_facts = Vec::new();
        let mut types: Vec<ParamType> = Vec::new();
        let mut commands: Vec<(Command, Vec<String>)> = Vec::new();
        for f in facts.all::<CsFact>() {
            match f {
                CsFact::Cli(c) => cli_facts.push(c),
                CsFact::Type(t) => types.push(t),
                CsFact::Cmd(c, inc) => commands.push((c, inc)),
            }
        }
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in types.iter().enumerate() {
            by_name.entry(t.name.as_str()).or_default().push(i);
        }
        for (mut c, includes) in commands {
            let mut seen = HashSet::new();
            let mut params = Vec::new();
            for inc in &includes {
                collect(&types, &by_name, inc, &c.path, &mut params, &mut seen, 0);
            }
            params.append(&mut c.params);
            for p in params {
                if !c
                    .params
                    .iter()
                    .any(|q| q.name == p.name && q.kind == p.kind)
                {
                    c.params.push(p);
                }
            }
            cli_facts.push(Fact::Command(c));
        }
        Ok(cli::link(cli_facts, &entry_matches))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum CsFact {
    Cli(Fact),
    /// A type whose annotated properties are params (settings, options).
    Type(ParamType),
    /// A command whose params include those of the named types.
    Cmd(Command, Vec<String>),
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct ParamType {
    name: String,
    path: String,
    bases: Vec<String>,
    params: Vec<Param>,
}

fn collect(
    types: &[ParamType],
    by_name: &HashMap<&str, Vec<usize>>,
    name: &str,
    from: &str,
    out: &mut Vec<Param>,
    seen: &mut HashSet<usize>,
    depth: usize,
) {
    let Some(list) = by_name.get(name) else {
        return;
    };
    let Some(i) = list
        .iter()
        .copied()
        .find(|&i| types[i].path == from)
        .or_else(|| list.first().copied())
    else {
        return;
    };
    if depth > 8 || !seen.insert(i) {
        return;
    }
    for b in &types[i].bases {
        collect(types, by_name, b, &types[i].path, out, seen, depth + 1);
    }
    out.extend(types[i].params.iter().cloned());
}

/// A `.csproj`: the program it builds (`ToolCommandName`, `AssemblyName`,
/// else the file's name), its entry the project directory.
fn csproj(path: &str, content: &str) -> Option<Script> {
    let tag = |t: &str| -> Option<String> {
        let open = format!("<{t}>");
        let s = content.find(&open)? + open.len();
        let e = content.get(s..)?.find('<')? + s;
        let v = content.get(s..e)?.trim();
        (!v.is_empty() && !v.contains("$(")).then(|| v.to_string())
    };
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let name = tag("ToolCommandName")
        .or_else(|| tag("AssemblyName"))
        .unwrap_or_else(|| file.trim_end_matches(".csproj").to_string());
    Some(Script {
        name,
        entry: dir.to_string(),
    })
}

/// A project names a root whose file is under its directory; the deepest
/// project wins.
fn entry_matches(entry: &str, c: &Command) -> u8 {
    let inside = entry.is_empty() || c.path.starts_with(&format!("{entry}/"));
    if !inside {
        return 0;
    }
    (1 + entry.matches('/').count() + usize::from(!entry.is_empty())).min(255) as u8
}

fn strip_label(s: &str) -> String {
    s.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c| matches!(c, '<' | '>' | '[' | ']'))
        .to_string()
}

/// Params of one property's attributes.
fn attr_params(attrs: &[Attr], prop: &str, out: &mut Vec<Param>) {
    for a in attrs {
        match a.name.as_str() {
            // Spectre: `[CommandOption("-f|--force <VALUE>")]`.
            "CommandOption" => {
                let spec = a
                    .positional(0)
                    .and_then(|x| x.strings.first())
                    .cloned()
                    .unwrap_or_default();
                let names: Vec<&str> = spec
                    .split(['|', ' '])
                    .filter(|s| s.starts_with('-'))
                    .collect();
                if let Some(f) = cli::flag_name(names) {
                    out.push(Param::flag(f));
                }
            }
            "CommandArgument" => {
                if let Some(n) = a.positional(1).and_then(|x| x.strings.first()) {
                    let n = strip_label(n);
                    if !n.is_empty() {
                        out.push(Param::argument(n));
                    }
                }
            }
            // CommandLineParser: `[Option('f', "force")]`, `[Option("force")]`.
            "Option" => {
                let strings: Vec<&String> = a
                    .args
                    .iter()
                    .filter(|x| x.name.is_none())
                    .flat_map(|x| x.strings.iter())
                    .collect();
                let long = strings.iter().find(|s| s.chars().count() > 1);
                if let Some(l) = long {
                    out.push(Param::flag(format!("--{l}")));
                } else if let Some(s) = strings.iter().find(|s| s.chars().count() == 1) {
                    out.push(Param::flag(format!("-{s}")));
                } else {
                    out.push(Param::flag(format!("--{}", kebab_lower(prop))));
                }
            }
            "Value" => {
                let n = a
                    .named("MetaName")
                    .and_then(|x| x.strings.first())
                    .cloned()
                    .unwrap_or_else(|| prop.to_string());
                out.push(Param::argument(n));
            }
            _ => {}
        }
    }
}

/// CommandLineParser's default long name: the property name lower-cased
/// (`DryRun` → `dryrun`).
fn kebab_lower(p: &str) -> String {
    p.to_lowercase()
}

/// Settings / options types, Spectre command classes and
/// CommandLineParser verbs.
fn types(f: &CsFile, path: &str, out: &mut Vec<CsFact>) {
    for t in &f.types {
        let mut params = Vec::new();
        for p in &t.props {
            attr_params(&p.attrs, &p.name, &mut params);
        }
        if !params.is_empty() || t.bases.iter().any(|b| b.ends_with("Settings")) {
            out.push(CsFact::Type(ParamType {
                name: t.name.clone(),
                path: path.to_string(),
                bases: t.bases.clone(),
                params,
            }));
        }
        // A Spectre command: its settings are the base's type argument.
        if let Some(i) = t.bases.iter().position(|b| {
            matches!(
                b.as_str(),
                "Command" | "AsyncCommand" | "CancellableAsyncCommand"
            )
        }) {
            if let Some(settings) = t.base_args.get(i).and_then(|a| a.first()) {
                out.push(CsFact::Type(ParamType {
                    name: format!("{}!cmd", t.name),
                    path: path.to_string(),
                    bases: vec![settings.rsplit('.').next().unwrap_or(settings).to_string()],
                    params: Vec::new(),
                }));
            }
        }
        if let Some(v) = t.attr("Verb") {
            let name = v.positional(0).and_then(|x| x.strings.first()).cloned();
            if let Some(name) = name {
                out.push(CsFact::Cmd(
                    Command {
                        path: path.to_string(),
                        line: v.line,
                        symbols: vec![format!("{}!verb", t.name)],
                        parent: Some("!clp-root".into()),
                        name,
                        ..Command::default()
                    },
                    vec![t.name.clone()],
                ));
            }
        }
    }
}

/// What a variable holds.
#[derive(Clone)]
enum Val {
    /// A command: its index in `cmds`.
    Cmd(usize),
    Params(Vec<Param>),
    /// `new XCommand()` of a class (in any file): a command symbol.
    Ref(String),
}

struct Flow<'a> {
    t: &'a [Token],
    file: &'a SourceFile,
    path: &'a str,
    cmds: Vec<(Command, Vec<String>)>,
    attaches: Vec<Attach>,
}

impl Flow<'_> {
    fn ident(&self, i: usize) -> Option<&str> {
        self.t
            .get(i)
            .filter(|x| x.kind == Kind::Ident)
            .map(|x| x.text.as_str())
    }
    fn is(&self, i: usize, c: char) -> bool {
        self.t.get(i).is_some_and(|x| x.is(c))
    }
    fn sym(&self, i: usize) -> String {
        format!("{}#{i}", self.path)
    }
    fn new_cmd(&mut self, at: usize, name: String) -> usize {
        let line = self.file.line_of(self.t[at].start);
        let sym = self.sym(at);
        self.cmds.push((
            Command {
                path: self.path.to_string(),
                line,
                symbols: vec![sym],
                name,
                ..Command::default()
            },
            Vec::new(),
        ));
        self.cmds.len() - 1
    }

    /// Index after a `new X<T>(…) { … }` at `i` (`new`), and what it is.
    fn creation(&mut self, i: usize, scopes: &[HashMap<String, Val>]) -> (usize, Option<Val>) {
        let (simple, mut k) = if self.ident(i + 1).is_some() {
            let mut k = i + 2;
            while self.is(k, '.') && self.ident(k + 1).is_some() {
                k += 2;
            }
            (self.t[k - 1].text.clone(), k)
        } else if self.is(i + 1, '(') {
            // Target-typed `Option<int> x = new(…)`: the declared type.
            match self.declared_type(i) {
                Some(ty) => (ty, i + 1),
                None => return (i + 1, None),
            }
        } else {
            return (i + 1, None);
        };
        if self.is(k, '<') {
            k = close_of(self.t, k).map_or(k + 1, |c| c + 1);
        }
        let (args, after_args) = if self.is(k, '(') {
            let c = close_of(self.t, k).unwrap_or(self.t.len());
            (Some((k + 1, c)), c + 1)
        } else {
            (None, k)
        };
        let init = if self.is(after_args, '{') {
            close_of(self.t, after_args).map(|c| (after_args + 1, c))
        } else {
            None
        };
        let end = init.map_or(after_args, |(_, c)| c + 1);
        let strings = |fl: &Self, r: (usize, usize)| -> Vec<(Option<String>, Vec<String>)> {
            split_commas(fl.t, r.0, r.1)
                .into_iter()
                .map(|p| {
                    let named = fl.ident(p.start).is_some() && fl.is(p.start + 1, ':');
                    let name = named.then(|| fl.t[p.start].text.clone());
                    let s = fl.t[p.clone()]
                        .iter()
                        .filter(|x| x.kind == Kind::Str)
                        .map(|x| x.text.clone())
                        .collect();
                    (name, s)
                })
                .collect()
        };
        let val = match simple.as_str() {
            "RootCommand" => {
                let c = self.new_cmd(i, String::new());
                Some(Val::Cmd(c))
            }
            "Command" => {
                let name = args.map(|r| strings(self, r)).and_then(|a| {
                    a.into_iter()
                        .find(|(n, _)| n.is_none() || n.as_deref() == Some("name"))
                        .and_then(|(_, s)| s.into_iter().next())
                });
                name.map(|n| Val::Cmd(self.new_cmd(i, n)))
            }
            "Option" | "Argument" => {
                let a = args.map(|r| strings(self, r)).unwrap_or_default();
                let mut names: Vec<String> = Vec::new();
                for (n, s) in &a {
                    if matches!(n.as_deref(), None | Some("name" | "aliases" | "alias")) {
                        names.extend(s.iter().cloned());
                    }
                }
                let mut params = Vec::new();
                if simple == "Argument" {
                    if let Some(n) = names.first() {
                        params.push(Param::argument(n.clone()));
                    }
                } else {
                    let dashed: Vec<&str> = names
                        .iter()
                        .map(String::as_str)
                        .filter(|s| s.starts_with('-') || s.starts_with('/'))
                        .collect();
                    let f = cli::flag_name(dashed.iter().copied())
                        .or_else(|| dashed.first().map(|s| s.to_string()))
                        .or_else(|| names.first().cloned());
                    if let Some(f) = f {
                        params.push(Param::flag(f));
                    }
                    // `GetEnvironmentVariable("X")` in the arguments or the
                    // initializer.
                    for k in i..end.min(self.t.len()) {
                        if self.t[k].is_ident("GetEnvironmentVariable") && self.is(k + 1, '(') {
                            if let Some(s) = self.t.get(k + 2).filter(|x| x.kind == Kind::Str) {
                                params.push(Param::env(s.text.clone()));
                            }
                        }
                    }
                }
                Some(Val::Params(params))
            }
            _ => Some(Val::Ref(simple.clone())),
        };
        // Collection initializer: `{ opt, arg, sub, new Option<int>("--n") }`.
        if let (Some(Val::Cmd(c)), Some((s, e))) = (&val, init) {
            let c = *c;
            for r in split_commas(self.t, s, e) {
                self.add_item(c, r.start, r.end, scopes);
            }
        }
        (end, val)
    }

    /// The type declared before `name = new(` at `i` (`new`): `T` of
    /// `T name` or `T<…> name`.
    fn declared_type(&self, i: usize) -> Option<String> {
        if !(i >= 3 && self.is(i - 1, '=') && self.ident(i - 2).is_some()) {
            return None;
        }
        let mut k = i - 3;
        if self.is(k, '?') && k > 0 {
            k -= 1;
        }
        if self.is(k, '>') {
            let lo = k.saturating_sub(32);
            k = (lo..k)
                .rev()
                .find(|&o| self.is(o, '<') && close_of(self.t, o) == Some(k))?;
            k = k.checked_sub(1)?;
        }
        self.ident(k)
            .filter(|w| w.starts_with(char::is_uppercase))
            .map(str::to_string)
    }

    /// `x` / `new …` / `Build()` added to command `c`.
    fn add_item(&mut self, c: usize, s: usize, e: usize, scopes: &[HashMap<String, Val>]) {
        if self.ident(s) == Some("new") {
            if let (_, Some(v)) = self.creation(s, scopes) {
                self.add_val(c, v);
            }
            return;
        }
        let Some(name) = self.ident(s).map(str::to_string) else {
            return;
        };
        if e == s + 1 {
            if let Some(v) = lookup(scopes, &name) {
                self.add_val(c, v);
            }
        } else {
            // `BuildRemote()` / `RemoteCommands.Build()`: a method
            // returning a command.
            let mut k = s + 1;
            let mut dotted = name;
            while self.is(k, '.') && self.ident(k + 1).is_some() {
                dotted.push('.');
                dotted.push_str(&self.t[k + 1].text);
                k += 2;
            }
            if self.is(k, '(') {
                self.attach(c, dotted);
            }
        }
    }

    fn add_val(&mut self, c: usize, v: Val) {
        match v {
            Val::Cmd(child) => {
                let sym = self.cmds[c].0.symbols[0].clone();
                self.cmds[child].0.parent = Some(sym);
            }
            Val::Params(p) => self.cmds[c].0.params.extend(p),
            Val::Ref(child) => self.attach(c, child),
        }
    }

    fn attach(&mut self, c: usize, child: String) {
        let parent = self.cmds[c].0.symbols[0].clone();
        self.attaches.push(Attach {
            path: self.path.to_string(),
            parent,
            child,
            name: None,
            merged: false,
        });
    }
}

fn ident_at(t: &[Token], i: usize) -> Option<&str> {
    t.get(i)
        .filter(|x| x.kind == Kind::Ident)
        .map(|x| x.text.as_str())
}

fn lookup(scopes: &[HashMap<String, Val>], name: &str) -> Option<Val> {
    scopes.iter().rev().find_map(|s| s.get(name).cloned())
}

/// System.CommandLine and Spectre registration code, by one block-scoped
/// walk over the tokens.
fn flow(file: &SourceFile, path: &str, f: &CsFile, t: &[Token], out: &mut Vec<CsFact>) {
    let _ = Syntax::CSHARP;
    let mut fl = Flow {
        t,
        file,
        path,
        cmds: Vec::new(),
        attaches: Vec::new(),
    };
    // Classes deriving System.CommandLine's `Command` with `: base("x")`.
    let mut class_cmd: HashMap<String, usize> = HashMap::new();
    for ty in &f.types {
        let sys_cmd = ty.bases.iter().enumerate().any(|(i, b)| {
            matches!(b.as_str(), "Command" | "RootCommand")
                && ty.base_args.get(i).is_none_or(|a| a.is_empty())
        });
        if !sys_cmd {
            continue;
        }
        let root = ty.bases.iter().any(|b| b == "RootCommand");
        let name = ty
            .ctors
            .iter()
            .find_map(|c| c.base_strings.first().cloned())
            .filter(|_| !root);
        if name.is_none() && !root {
            continue;
        }
        let line = ty.line;
        fl.cmds.push((
            Command {
                path: path.to_string(),
                line,
                symbols: vec![format!("{path}#class:{}", ty.name), ty.name.clone()],
                name: name.unwrap_or_default(),
                ..Command::default()
            },
            Vec::new(),
        ));
        class_cmd.insert(ty.name.clone(), fl.cmds.len() - 1);
    }
    let mut scopes: Vec<HashMap<String, Val>> = vec![HashMap::new()];
    // Per open brace: the class it is the body of, the method it is.
    let mut frames: Vec<(Option<usize>, Option<String>)> = vec![(None, None)];
    // Spectre: lambda parameters standing for a branch (`b => …`), the app.
    let mut spectre_root: Option<usize> = None;
    let mut method_name: Option<String> = None;
    let mut i = 0;
    while i < t.len() {
        let tok = &t[i];
        if tok.is('{') {
            // The header before the brace: `class X …` / `Name(…)`.
            let lo = i.saturating_sub(64);
            let mut class = None;
            let mut k = i;
            while k > lo {
                k -= 1;
                if t[k].is(';') || t[k].is('{') || t[k].is('}') {
                    break;
                }
                if t[k].is_ident("class") || t[k].is_ident("record") {
                    class = t.get(k + 1).and_then(|n| class_cmd.get(&n.text).copied());
                    break;
                }
            }
            let inherited = frames.last().and_then(|f| f.0);
            let method = if i > 0 && t[i - 1].is(')') {
                method_name.take()
            } else {
                None
            };
            frames.push((
                class.or(inherited),
                method.or_else(|| frames.last().and_then(|f| f.1.clone())),
            ));
            scopes.push(HashMap::new());
            i += 1;
            continue;
        }
        if tok.is('}') {
            if frames.len() > 1 {
                frames.pop();
                scopes.pop();
            }
            i += 1;
            continue;
        }
        // A method header `Name(` followed by `)` `{`: remember its name.
        if tok.kind == Kind::Ident && fl.is(i + 1, '(') && !(i > 0 && t[i - 1].is('.')) {
            if let Some(c) = close_of(t, i + 1) {
                if fl.is(c + 1, '{')
                    && !matches!(
                        tok.text.as_str(),
                        "if" | "while"
                            | "for"
                            | "foreach"
                            | "switch"
                            | "using"
                            | "lock"
                            | "catch"
                            | "fixed"
                            | "base"
                            | "this"
                    )
                {
                    method_name = Some(tok.text.clone());
                }
            }
        }
        let owner_class = frames.last().and_then(|f| f.0);
        match tok.text.as_str() {
            "new" if tok.kind == Kind::Ident => {
                if t.get(i + 1).is_some_and(|x| x.is_ident("CommandApp")) {
                    let c = fl.new_cmd(i, String::new());
                    spectre_root = Some(c);
                    // `new CommandApp<DefaultCommand>()`: its settings.
                    if fl.is(i + 2, '<') {
                        if let Some(d) = ident_at(t, i + 3) {
                            fl.cmds[c].1.push(format!("{d}!cmd"));
                        }
                    }
                    i += 1;
                    continue;
                }
                let (end, v) = fl.creation(i, &scopes);
                // `var x = new …` / `Command x = new …` / `x = new …`.
                if let Some(v) = v {
                    if i >= 2 && t[i - 1].is('=') && t[i - 2].kind == Kind::Ident {
                        let name = t[i - 2].text.clone();
                        if let (Val::Cmd(c), Some(m)) =
                            (&v, frames.last().and_then(|f| f.1.clone()))
                        {
                            fl.cmds[*c].0.symbols.push(format!("{name}@{m}"));
                        }
                        if let Some(s) = scopes.last_mut() {
                            s.insert(name, v);
                        }
                    } else if fl.ident(i.wrapping_sub(1)) == Some("return") {
                        if let (Val::Cmd(c), Some(m)) =
                            (&v, frames.last().and_then(|f| f.1.clone()))
                        {
                            fl.cmds[*c].0.symbols.push(m);
                        }
                    }
                }
                i = end.max(i + 1);
                continue;
            }
            "return" if tok.kind == Kind::Ident => {
                // `return cmd;` in a method: the method builds that command.
                if let (Some(v), true) = (fl.ident(i + 1), fl.is(i + 2, ';')) {
                    if let (Some(Val::Cmd(c)), Some(m)) =
                        (lookup(&scopes, v), frames.last().and_then(|f| f.1.clone()))
                    {
                        fl.cmds[c].0.symbols.push(m);
                    }
                }
            }
            "AddCommand" | "AddOption" | "AddGlobalOption" | "AddArgument" | "Add"
                if fl.is(i + 1, '(') =>
            {
                let close = close_of(t, i + 1).unwrap_or(t.len());
                // Receiver: `x.Add(`, `x.Options.Add(`, `this.Add(`, `Add(`.
                let mut target = None;
                if i >= 2 && t[i - 1].is('.') {
                    let mut r = i - 2;
                    let member = matches!(
                        fl.ident(r),
                        Some("Options" | "Arguments" | "Subcommands" | "Children")
                    );
                    let bare_member = member && !(r >= 1 && t[r - 1].is('.'));
                    if member && r >= 2 && t[r - 1].is('.') {
                        r -= 2;
                    }
                    if t[r].is_ident("this") || bare_member {
                        target = owner_class;
                    } else {
                        match fl.ident(r).and_then(|n| lookup(&scopes, n)) {
                            Some(Val::Cmd(c)) => target = Some(c),
                            // `sub.Subcommands.Add(x)` on a command class
                            // instance: attach by the class's name.
                            Some(Val::Ref(ty)) => {
                                for piece in split_commas(t, i + 2, close) {
                                    let v = fl.ident(piece.start).and_then(|n| lookup(&scopes, n));
                                    match v {
                                        Some(Val::Ref(child)) if piece.len() == 1 => {
                                            fl.attaches.push(Attach {
                                                path: path.to_string(),
                                                parent: ty.clone(),
                                                child,
                                                name: None,
                                                merged: false,
                                            });
                                        }
                                        Some(Val::Cmd(child)) if piece.len() == 1 => {
                                            fl.cmds[child].0.parent = Some(ty.clone());
                                        }
                                        _ => {}
                                    }
                                }
                                i = close;
                                continue;
                            }
                            _ => {}
                        }
                    }
                } else {
                    target = owner_class;
                }
                if let Some(c) = target {
                    let r = close;
                    for piece in split_commas(t, i + 2, r) {
                        fl.add_item(c, piece.start, piece.end, &scopes);
                    }
                    i = close;
                    continue;
                }
            }
            "SetApplicationName" if fl.is(i + 1, '(') => {
                if let (Some(r), Some(s)) =
                    (spectre_root, t.get(i + 2).filter(|x| x.kind == Kind::Str))
                {
                    fl.cmds[r].0.prog = Some(s.text.clone());
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Spectre registrations: a second, small pass (branches are lambdas).
    if let Some(root) = spectre_root {
        spectre(&mut fl, root);
    }
    // CommandLineParser: `ParseArguments<A, B>(args)`.
    clp(&mut fl);
    for (c, inc) in fl.cmds {
        out.push(CsFact::Cmd(c, inc));
    }
    for a in fl.attaches {
        out.push(CsFact::Cli(Fact::Attach(a)));
    }
}

/// `config.AddCommand<T>("x")`, `config.AddBranch("x", b => { … })`,
/// `AddBranch<TSettings>(…)`: receivers that are a branch lambda's
/// parameter hang under that branch, others under the app.
fn spectre(fl: &mut Flow, root: usize) {
    let t = fl.t;
    let mut branch_of: HashMap<String, usize> = HashMap::new();
    for i in 0..t.len() {
        let word = match ident_at(t, i) {
            Some(w @ ("AddCommand" | "AddBranch")) => w,
            _ => continue,
        };
        if !(i >= 2 && t[i - 1].is('.')) {
            continue;
        }
        let recv = fl.ident(i - 2).map(str::to_string);
        let parent = recv
            .as_ref()
            .and_then(|r| branch_of.get(r).copied())
            .unwrap_or(root);
        let mut k = i + 1;
        let mut ty = None;
        if fl.is(k, '<') {
            ty = fl.ident(k + 1).map(str::to_string);
            k = close_of(t, k).map_or(k + 1, |c| c + 1);
        }
        if !fl.is(k, '(') {
            continue;
        }
        let close = close_of(t, k).unwrap_or(t.len());
        let Some(name) = t.get(k + 1).filter(|x| x.kind == Kind::Str) else {
            continue;
        };
        let c = fl.new_cmd(i, name.text.clone());
        let psym = fl.cmds[parent].0.symbols[0].clone();
        fl.cmds[c].0.parent = Some(psym);
        if word == "AddCommand" {
            if let Some(ty) = ty {
                fl.cmds[c].1.push(format!("{ty}!cmd"));
            }
        } else {
            if let Some(ty) = ty {
                fl.cmds[c].1.push(ty);
            }
            // `b => {` : the lambda parameter.
            if let Some(p) = (k + 2..close)
                .find(|&j| t[j].kind == Kind::Ident && fl.is(j + 1, '=') && fl.is(j + 2, '>'))
            {
                branch_of.insert(t[p].text.clone(), c);
            }
        }
    }
}

/// `Parser.Default.ParseArguments<A, B>(args)`: a program whose verbs are
/// `A`, `B` (or whose options are `A` when it is no verb).
fn clp(fl: &mut Flow) {
    let t = fl.t;
    for i in 0..t.len() {
        if !t[i].is_ident("ParseArguments") || !fl.is(i + 1, '<') {
            continue;
        }
        let Some(close) = close_of(t, i + 1) else {
            continue;
        };
        let args: Vec<String> = split_commas(t, i + 2, close)
            .into_iter()
            .filter_map(|r| t.get(r.end - 1).filter(|x| x.kind == Kind::Ident))
            .map(|x| x.text.clone())
            .collect();
        let c = fl.new_cmd(i, String::new());
        fl.cmds[c].0.symbols.push("!clp-root".into());
        if args.len() == 1 {
            fl.cmds[c].1.push(args[0].clone());
        }
        break;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(strip_label("<name>"), "name");
        assert_eq!(strip_label("[PATH]"), "PATH");
        let s = csproj(
            "tools/Ship/Ship.csproj",
            "<ToolCommandName>ship</ToolCommandName>",
        );
        assert_eq!(s.map(|s| s.name).as_deref(), Some("ship"));
    }
}
