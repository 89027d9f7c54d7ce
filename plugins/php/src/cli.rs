//! Command-line programs (`php_cli`; see docs/cli-surface.md): Symfony
//! Console and Laravel Artisan commands as `cli://<binary>/<command>`
//! endpoints.
//!
//! - Symfony: a class named by `#[AsCommand(name: 'app:x')]` (or its first
//!   argument; `a|b` aliases keep the first), `protected static
//!   $defaultName = 'app:x'` or `->setName('app:x')`. Arguments come from
//!   `->addArgument('x')` / `new InputArgument('x')`, flags from
//!   `->addOption('force', 'f')` / `new InputOption('force')` anywhere in
//!   the class; an invokable command's `__invoke(#[Argument] string $name,
//!   #[Option] bool $dryRun)` parameters are arguments and flags (their
//!   `name:` or the parameter name kebab-cased, as Symfony does).
//! - Laravel: `protected $signature = 'mail:send {user} {--Q|queue=}'`
//!   names the command and its arguments and flags; `Artisan::command('x
//!   {y}', fn …)` (routes/console.php) too; an older `protected $name`
//!   command's `getArguments()` / `getOptions()` arrays.
//! - Every command hangs under one program: a composer.json `bin` entry,
//!   else `artisan` (a Laravel application), else `console`
//!   (`bin/console`). The program's own endpoint is at the entry file when
//!   the scan saw it, else at the first command.
//!
//! Files in test paths are skipped.

use crate::php::outline::{classes, Attr};
use crate::php::tokens::{matching, tokenize, Kind, Token};
use portolan_plugin_sdk::cli::{self, Command, Fact, Script};
use portolan_plugin_sdk::prelude::*;

pub struct PhpCli;

/// The symbol of the program every command hangs under.
const ROOT: &str = "php-cli:root";

/// Marks a command base class (no name of its own): never an endpoint,
/// its options join the named commands that extend it.
const BASE: &str = "php-cli:base";

impl Analyzer for PhpCli {
    fn tech(&self) -> Tech {
        Tech::new("php_cli", "PHP", "CLI")
            .aliases(["symfony-console", "artisan", "php-cli"])
            .files(["*.php", "composer.json", "artisan", "**/bin/console"])
            .requires_any([
                "AsCommand",
                "defaultName",
                "$signature",
                "Artisan::command",
                "addArgument",
                "addOption",
                "setName",
                "\"bin\"",
                "Console",
                "ArgvInput",
            ])
            .detect(Detect::files(["composer.json"]).contains([
                "symfony/console",
                "laravel/framework",
                "symfony/framework-bundle",
            ]))
            .detect(Detect::files(["*.php"]).contains([
                "Symfony\\Component\\Console\\Command\\Command",
                "Symfony\\Component\\Console\\Attribute\\AsCommand",
                "Illuminate\\Console\\Command",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let path = file.slash_path();
        let base = path.rsplit('/').next().unwrap_or(&path);
        if base == "composer.json" {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&file.content) {
                let bins: Vec<String> = match v.get("bin") {
                    Some(serde_json::Value::String(s)) => vec![s.clone()],
                    Some(serde_json::Value::Array(a)) => a
                        .iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect(),
                    _ => Vec::new(),
                };
                for b in bins {
                    let name = b.rsplit('/').next().unwrap_or(&b);
                    let name = name.strip_suffix(".php").unwrap_or(name);
                    if !name.is_empty() {
                        out.fact(&Fact::Script(Script {
                            name: name.to_string(),
                            entry: format!("composer:{}", php_dir(&path)),
                        }));
                    }
                }
            }
            return;
        }
        if base == "artisan" || (base == "console" && path.ends_with("bin/console")) {
            out.fact(&Fact::Script(Script {
                name: base.to_string(),
                entry: file.path.clone(),
            }));
            return;
        }
        for f in scan(file) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut all: Vec<Fact> = facts.all();
        let mut scripts: Vec<Script> = Vec::new();
        let mut first: Option<(String, u32)> = None;
        let mut laravel = false;
        // Class → (parent class, params), for inherited options.
        let mut classes: std::collections::HashMap<String, (Option<String>, Vec<Param>)> =
            std::collections::HashMap::new();
        for f in &all {
            if let Fact::Command(c) = f {
                let class = c.entry.iter().find_map(|e| e.strip_prefix("class:"));
                let ext = c.entry.iter().find_map(|e| e.strip_prefix("extends:"));
                if let Some(class) = class {
                    classes
                        .entry(class.to_string())
                        .or_insert_with(|| (ext.map(str::to_string), c.params.clone()));
                }
            }
        }
        all.retain(|f| match f {
            Fact::Script(s) => {
                scripts.push(s.clone());
                false
            }
            Fact::Command(c) if c.entry.iter().any(|e| e == BASE) => false,
            Fact::Command(c) => {
                if first.is_none() {
                    first = Some((c.path.clone(), c.line));
                }
                laravel |= c.entry.iter().any(|e| e == "laravel");
                true
            }
            Fact::Attach(_) => true,
        });
        for f in all.iter_mut() {
            let Fact::Command(c) = f else { continue };
            let mut ext = c
                .entry
                .iter()
                .find_map(|e| e.strip_prefix("extends:"))
                .map(str::to_string);
            for _ in 0..8 {
                let Some((next, params)) = ext.as_ref().and_then(|e| classes.get(e)) else {
                    break;
                };
                for p in params {
                    if !c.params.contains(p) {
                        c.params.push(p.clone());
                    }
                }
                ext = next.clone();
            }
        }
        let Some((first_path, first_line)) = first else {
            return Ok(Vec::new());
        };
        let pick = |pred: &dyn Fn(&Script) -> bool| scripts.iter().find(|s| pred(s)).cloned();
        let script = pick(&|s| s.entry.starts_with("composer:"))
            .or_else(|| pick(&|s| s.name == "artisan"))
            .or_else(|| pick(&|s| s.name == "console"));
        let (name, path, line) = match script {
            Some(s) if !s.entry.starts_with("composer:") => (s.name, s.entry, 1),
            Some(s) => (s.name, first_path, first_line),
            None => (
                if laravel { "artisan" } else { "console" }.to_string(),
                first_path,
                first_line,
            ),
        };
        all.push(Fact::Command(Command {
            path,
            line,
            symbols: vec![ROOT.into()],
            prog: Some(name),
            ..Command::default()
        }));
        Ok(cli::link(all, &|_, _| 0))
    }
}

/// The directory of a composer.json.
fn php_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `dryRun` → `dry-run`, `dry_run` → `dry-run`.
fn kebab(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c == '_' {
            out.push('-');
        } else {
            out.push(c);
        }
    }
    out
}

fn flag(name: &str) -> Param {
    let name = name.trim_start_matches('-');
    Param::flag(format!("--{name}"))
}

fn push(params: &mut Vec<Param>, p: Param) {
    if !params.contains(&p) {
        params.push(p);
    }
}

/// The first string argument of the call whose `(` is at `open`.
fn first_str(toks: &[Token], open: usize) -> Option<String> {
    let t = toks.get(open + 1)?;
    let close = toks.get(open + 2)?;
    (t.kind == Kind::Str && !t.interpolated && (close.is(",") || close.is(")")))
        .then(|| t.text.clone())
}

/// A Laravel signature: the command name, its arguments and flags.
fn signature(sig: &str) -> (String, Vec<Param>) {
    let name = sig
        .split(|c: char| c.is_whitespace() || c == '{')
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_string();
    let mut params = Vec::new();
    let mut rest = sig;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        let inner = after[..close].split(':').next().unwrap_or("").trim();
        rest = after.get(close + 1..).unwrap_or("");
        if let Some(opt) = inner.strip_prefix("--") {
            // `--Q|queue=default`: the long form is after the `|`.
            let opt = opt.rsplit('|').next().unwrap_or(opt);
            let opt = opt.split(['=', '*', '?', ' ']).next().unwrap_or("").trim();
            if !opt.is_empty() {
                push(&mut params, flag(opt));
            }
        } else {
            let arg = inner
                .split(['=', '*', '?', ' '])
                .next()
                .unwrap_or("")
                .trim();
            if !arg.is_empty() {
                push(&mut params, Param::argument(arg));
            }
        }
    }
    (name, params)
}

/// The value of a string attribute argument (named, else positional).
fn attr_str(a: &Attr, name: &str, pos: usize) -> Option<String> {
    use crate::php::expr::Val;
    match a.named(name).or_else(|| a.positional(pos)) {
        Some(Val::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

fn scan(file: &SourceFile) -> Vec<Fact> {
    let toks = tokenize(&file.content);
    let line_of = |o: usize| file.line_of(o);
    let mut facts = Vec::new();
    let command = |name: String, line: u32, params: Vec<Param>, laravel: bool| {
        let name = name.split('|').next().unwrap_or("").trim().to_string();
        (!name.is_empty()).then(|| {
            Fact::Command(Command {
                path: file.path.clone(),
                line,
                symbols: vec![format!("php-cli:{}:{name}", file.path)],
                parent: Some(ROOT.into()),
                name,
                entry: if laravel {
                    vec!["laravel".into()]
                } else {
                    Vec::new()
                },
                params,
                ..Command::default()
            })
        })
    };
    // `Artisan::command('x {y}', …)`.
    for i in 0..toks.len() {
        if toks[i].is_ident("Artisan")
            && toks.get(i + 1).is_some_and(|t| t.is("::"))
            && toks.get(i + 2).is_some_and(|t| t.is_ident("command"))
            && toks.get(i + 3).is_some_and(|t| t.is("("))
        {
            if let Some(sig) = first_str(&toks, i + 3) {
                let (name, params) = signature(&sig);
                facts.extend(command(name, line_of(toks[i].start), params, true));
            }
        }
    }
    for class in classes(&file.content, &toks, &line_of) {
        // The class body's tokens.
        let Some(k) = toks.iter().position(|t| t.start == class.start) else {
            continue;
        };
        let Some(open) = toks[k..].iter().position(|t| t.is("{")).map(|p| k + p) else {
            continue;
        };
        let close = matching(&toks, open).unwrap_or(toks.len() - 1);
        let body = &toks[open..=close];
        let as_command = class.attrs.iter().any(|a| a.name == "AsCommand");
        if !as_command && !class.parent.ends_with("Command") {
            continue;
        }
        let mut name: Option<String> = None;
        let mut laravel = false;
        let mut params: Vec<Param> = Vec::new();
        if let Some(a) = class.attrs.iter().find(|a| a.name == "AsCommand") {
            name = attr_str(a, "name", 0);
        }
        for (j, t) in body.iter().enumerate() {
            let next = |n: usize| body.get(j + n);
            // `protected static $defaultName = 'x'` / `protected $signature = '…'`.
            if t.kind == Kind::Var
                && matches!(t.text.as_str(), "defaultName" | "signature" | "name")
                && next(1).is_some_and(|x| x.is("="))
                && j > 0
                && body[..j]
                    .iter()
                    .rev()
                    .take(3)
                    .any(|x| x.is_ident("protected") || x.is_ident("public"))
            {
                let Some(v) = next(2).filter(|x| x.kind == Kind::Str && !x.interpolated) else {
                    continue;
                };
                match t.text.as_str() {
                    "signature" => {
                        let (n, p) = signature(&v.text);
                        laravel = true;
                        name = Some(n);
                        for p in p {
                            push(&mut params, p);
                        }
                    }
                    _ => {
                        name.get_or_insert_with(|| v.text.clone());
                    }
                }
                continue;
            }
            if t.kind != Kind::Ident || !next(1).is_some_and(|x| x.is("(")) {
                continue;
            }
            let after_arrow = j > 0 && (body[j - 1].is("->") || body[j - 1].is("?->"));
            let after_new = j > 0 && body[j - 1].is_ident("new");
            let arg = first_str(body, j + 1);
            match t.text.as_str() {
                "setName" if after_arrow => {
                    if let Some(a) = arg {
                        name.get_or_insert(a);
                    }
                }
                "addArgument" if after_arrow => {
                    if let Some(a) = arg {
                        push(&mut params, Param::argument(a));
                    }
                }
                "InputArgument" if after_new => {
                    if let Some(a) = arg {
                        push(&mut params, Param::argument(a));
                    }
                }
                "addOption" if after_arrow => {
                    if let Some(a) = arg {
                        push(&mut params, flag(&a));
                    }
                }
                "InputOption" if after_new => {
                    if let Some(a) = arg {
                        push(&mut params, flag(&a));
                    }
                }
                _ => {}
            }
        }
        // Laravel's older `getArguments()` / `getOptions()` arrays.
        for m in &class.methods {
            let kind_arg = match m.name.as_str() {
                "getArguments" => true,
                "getOptions" => false,
                _ => continue,
            };
            let Some(f) = toks.iter().position(|t| t.start == m.start) else {
                continue;
            };
            let Some(o) = toks[f..].iter().position(|t| t.is("{")).map(|p| f + p) else {
                continue;
            };
            let c = matching(&toks, o).unwrap_or(toks.len() - 1);
            for r in toks[o..c].windows(2) {
                if r[0].is("[") && r[1].kind == Kind::Str {
                    let n = r[1].text.clone();
                    push(
                        &mut params,
                        if kind_arg {
                            Param::argument(n)
                        } else {
                            flag(&n)
                        },
                    );
                }
            }
        }
        // Invokable commands: `__invoke(#[Argument] …, #[Option] …)`.
        if let Some(m) = class.methods.iter().find(|m| m.name == "__invoke") {
            for a in &m.args {
                let var = a.var.trim_start_matches('$');
                if let Some(at) = a.attrs.iter().find(|x| x.name == "Argument") {
                    let n = attr_str(at, "name", 99).unwrap_or_else(|| kebab(var));
                    push(&mut params, Param::argument(n));
                } else if let Some(at) = a.attrs.iter().find(|x| x.name == "Option") {
                    let n = attr_str(at, "name", 99).unwrap_or_else(|| kebab(var));
                    push(&mut params, flag(&n));
                }
            }
        }
        // Options a base class's `configure()` adds reach this command when
        // it does not override `configure()` or calls `parent::configure()`.
        let inherits = match class.methods.iter().find(|m| m.name == "configure") {
            None => true,
            Some(m) => {
                let from = toks.partition_point(|t| t.start < m.start);
                toks[from..]
                    .iter()
                    .position(|t| t.is("{"))
                    .map(|o| from + o)
                    .and_then(|o| matching(&toks, o).map(|c| (o, c)))
                    .is_some_and(|(o, c)| {
                        toks[o..c].windows(3).any(|w| {
                            w[0].is_ident("parent") && w[1].is("::") && w[2].is_ident("configure")
                        })
                    })
            }
        };
        let mut lineage = vec![format!("class:{}", class.name)];
        if inherits && !class.parent.is_empty() {
            lineage.push(format!("extends:{}", class.parent));
        }
        match name {
            Some(n) => {
                if let Some(Fact::Command(mut c)) = command(n, class.line, params, laravel) {
                    c.entry.extend(lineage);
                    facts.push(Fact::Command(c));
                }
            }
            None => {
                lineage.push(BASE.into());
                facts.push(Fact::Command(Command {
                    path: file.path.clone(),
                    line: class.line,
                    symbols: vec![format!("php-cli-base:{}", class.name)],
                    parent: Some(BASE.into()),
                    entry: lineage,
                    params,
                    ..Command::default()
                }));
            }
        }
    }
    facts
}
