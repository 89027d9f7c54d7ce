//! Command-line programs (`js_cli`; see docs/cli-surface.md): commander
//! and yargs parsers as `cli://<binary>/<subcommand>` endpoints.
//!
//! - commander: `new Command('x')` and the `program` commander exports are
//!   commands; `.command('add <name> [dir]')` creates a subcommand (its
//!   `<…>`/`[…]` words are arguments) and the rest of the chain configures
//!   it, also through the variable it is assigned to
//!   (`const remote = program.command('remote')`); `.option('-f, --force')`,
//!   `.requiredOption`, `.addOption(new Option('--port <n>').env('PORT'))`
//!   are flags (and env vars), `.argument('<file>')` arguments;
//!   `.addCommand(x)` / `.addCommand(makeX())` nests a command of any file
//!   by variable or by the function that builds it. The `program` singleton
//!   used in several files is one command.
//! - yargs: a chain from `yargs(…)` is the root; `.command('serve [port]',
//!   desc, builder, handler)` / `.command({command, builder})` add
//!   subcommands whose params come from the builder (an object of options,
//!   or a function calling `.option`/`.positional`); `.option('name')`,
//!   `.options({…})`, `.positional('name')` elsewhere in the chain are the
//!   root's. Command modules (`exports.command = 'get <key>'` with
//!   `exports.builder`, also `module.exports = {…}` / `export const`) hang
//!   under the root that loads them with `.commandDir(…)` or
//!   `.command(require('./get'))`.
//! - Binary name: the `package.json` `bin` entry that runs the root's file
//!   (same path, or same stem for a compiled `dist/` entry), else the
//!   program's `.name('x')` / `new Command('x')`, else the only `bin`, else
//!   the file stem.
//!
//! Test files are skipped.

use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::text::LineIndex;
use std::collections::HashMap;
use std::ops::Range;

use crate::express::JS_FILES;

pub struct JsCli;

/// The commander `program` singleton.
const PROGRAM: &str = "commander:program";
/// The yargs root that loads command modules with `.commandDir`.
const COMMAND_DIR: &str = "yargs:commandDir";

impl Analyzer for JsCli {
    fn tech(&self) -> Tech {
        Tech::new("js_cli", "JavaScript", "CLI")
            .aliases(["commander", "yargs", "js-cli"])
            .files(JS_FILES.iter().copied().chain(["package.json"]))
            .requires_any([
                "commander",
                "yargs",
                "exports.command",
                "export const command",
                "builder:",
                "handler:",
                "\"bin\"",
            ])
            .detect(
                Detect::files(JS_FILES)
                    .regex([r#"(require\(\s*|\bfrom\s+)['"](commander|yargs)(/[\w/]+)?['"]"#]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if path.rsplit('/').next() == Some("package.json") {
            if !path.contains("/node_modules/") {
                for s in package_bins(&path, &file.content) {
                    out.fact(&Fact::Script(s));
                }
            }
            return;
        }
        if is_test_path(&file.path) || path.contains("/node_modules/") {
            return;
        }
        for f in scan(file) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut all: Vec<Fact> = facts.all();
        // One `program` across files: the first keeps the symbol, the others
        // merge into it.
        let mut first: Option<String> = None;
        for f in &mut all {
            if let Fact::Command(c) = f {
                if c.symbols.iter().any(|s| s == PROGRAM) {
                    match &first {
                        None => first = c.symbols.first().cloned(),
                        Some(uid) => {
                            c.symbols.retain(|s| s != PROGRAM);
                            c.parent = Some(uid.clone());
                            c.merged = true;
                        }
                    }
                }
            }
        }
        Ok(cli::link(all, &entry_matches))
    }
}

/// `"bin": {"tool": "./bin/tool.js"}` or `"bin": "./cli.js"` (named after
/// the package).
fn package_bins(path: &str, content: &str) -> Vec<Script> {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let join = |p: &str| {
        let p = p.trim_start_matches("./");
        if dir.is_empty() {
            p.to_string()
        } else {
            format!("{dir}/{p}")
        }
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(content) else {
        return Vec::new();
    };
    let name = v.get("name").and_then(|n| n.as_str()).unwrap_or("");
    let name = name.rsplit('/').next().unwrap_or(name);
    let mut out = bins(&v, name, &join);
    // The package's directory: a root below it that no bin names directly
    // (`src/index.ts` built to `bin/tool.js`) is still its program.
    if out.len() == 1 {
        let name = out[0].name.clone();
        out.push(Script {
            name,
            entry: format!("{PKG_DIR}{dir}/"),
        });
    }
    out
}

/// Entry prefix of a package directory script.
const PKG_DIR: &str = "pkgdir:";

fn bins(v: &serde_json::Value, name: &str, join: &dyn Fn(&str) -> String) -> Vec<Script> {
    match v.get("bin") {
        Some(serde_json::Value::String(s)) if !name.is_empty() => vec![Script {
            name: name.to_string(),
            entry: join(s),
        }],
        Some(serde_json::Value::Object(m)) => m
            .iter()
            .filter_map(|(k, e)| {
                Some(Script {
                    name: k.clone(),
                    entry: join(e.as_str()?),
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A module's name: its file stem, or its directory for an `index`.
fn module_name(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or("");
    let st = file.split('.').next().unwrap_or(file);
    match parts.next() {
        Some(dir) if st == "index" && !dir.is_empty() && dir != "." => dir.to_string(),
        _ => st.to_string(),
    }
}

fn stem(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.split('.').next().unwrap_or(file)
}

/// 2 for the `bin` file itself; 1 for a source of the same stem (`src/cli.ts`
/// for `dist/cli.js`).
fn entry_matches(entry: &str, c: &Command) -> u8 {
    let path = c.path.replace('\\', "/");
    if let Some(dir) = entry.strip_prefix(PKG_DIR) {
        return (dir == "/" || path.starts_with(dir)) as u8;
    }
    if path == entry {
        3
    } else if stem(&path) == stem(entry) && !matches!(stem(entry), "index" | "main") {
        2
    } else {
        0
    }
}

/// A name and its arguments from a command spec `add <name> [dir...]`.
fn spec(s: &str) -> (String, Vec<Param>) {
    let mut words = s.split_whitespace();
    let name = words.next().unwrap_or("").to_string();
    let mut params = Vec::new();
    for w in words {
        if let Some(a) = arg_word(w) {
            params.push(Param::argument(a));
        }
    }
    (name, params)
}

/// `<file>`, `[dir...]` → `file`, `dir`.
fn arg_word(w: &str) -> Option<String> {
    let inner = w
        .strip_prefix('<')
        .and_then(|w| w.strip_suffix('>'))
        .or_else(|| w.strip_prefix('[').and_then(|w| w.strip_suffix(']')))?;
    let a = inner.trim_end_matches("...").trim();
    (!a.is_empty()).then(|| a.to_string())
}

/// `-e, --env <env>` → `--env`.
fn option_flag(s: &str) -> Option<String> {
    cli::flag_name(s.split([' ', ',', '|']).filter(|t| t.starts_with('-')))
}

/// A yargs option key: `--name`, or `-n` for one letter.
fn yargs_flag(k: &str) -> String {
    if k.chars().count() == 1 {
        format!("-{k}")
    } else {
        format!("--{k}")
    }
}

struct Scanner<'a> {
    code: Code<'a>,
    index: LineIndex,
    path: String,
    /// Closer → opener of every bracket.
    openers: HashMap<usize, usize>,
    facts: Vec<Fact>,
    /// Variable → fact index.
    vars: HashMap<String, usize>,
    /// Chain heads already walked.
    seen: std::collections::HashSet<usize>,
    program_imported: bool,
    funcs: Vec<(String, Range<usize>)>,
}

fn scan(file: &SourceFile) -> Vec<Fact> {
    let text = &file.content;
    let commander = text.contains("commander");
    let yargs = text.contains("yargs");
    let module_cmd = text.contains("exports.command")
        || text.contains("export const command")
        || (text.contains("command:") && (text.contains("builder:") || text.contains("handler:")));
    if !commander && !yargs && !module_cmd {
        return Vec::new();
    }
    let code = file.code(Syntax::JAVASCRIPT);
    let mut openers = HashMap::new();
    for (i, b) in code.text().bytes().enumerate() {
        if matches!(b, b'(' | b'[' | b'{') {
            if let Some(c) = code.matching(i) {
                openers.insert(c, i);
            }
        }
    }
    let funcs = functions(&code);
    let mut s = Scanner {
        index: LineIndex::new(code.source()),
        code,
        path: file.path.clone(),
        openers,
        facts: Vec::new(),
        vars: HashMap::new(),
        seen: Default::default(),
        // `program` not declared in the file is commander's singleton.
        program_imported: commander,
        funcs,
    };
    // A yargs command module (its builder's `yargs.option(…)` chain is no
    // program of its own).
    let module = module_cmd;
    if commander {
        s.commander();
    } else {
        if yargs {
            s.yargs();
        }
        if module && s.facts.is_empty() {
            s.yargs_module();
        }
    }
    s.facts
}

/// Named functions and `const f = (…) => {…}`: name and body.
fn functions(code: &Code<'_>) -> Vec<(String, Range<usize>)> {
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_word("function") {
        let Some(name) = code.ident_at(at + 8) else {
            continue;
        };
        let from = code.skip_ws(at + 8) + name.len();
        if let Some(open) = text[from..].find('{').map(|k| from + k) {
            if let Some(close) = code.matching(open) {
                out.push((name.to_string(), open..close));
            }
        }
    }
    for at in code.find_all("=>") {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let head = text[line_start..at].trim();
        let Some(rest) = head
            .strip_prefix("export ")
            .unwrap_or(head)
            .strip_prefix("const ")
            .or_else(|| head.strip_prefix("let "))
        else {
            continue;
        };
        let name: String = rest
            .bytes()
            .take_while(|b| is_ident_byte(*b))
            .map(char::from)
            .collect();
        let open = code.skip_ws(at + 2);
        if name.is_empty() || text.as_bytes().get(open) != Some(&b'{') {
            continue;
        }
        if let Some(close) = code.matching(open) {
            out.push((name, open..close));
        }
    }
    out
}

impl Scanner<'_> {
    fn text(&self) -> &str {
        self.code.text()
    }

    fn lit(&self, r: &Range<usize>) -> Option<String> {
        let l = self.code.string_at(r.start)?;
        (l.end >= r.end).then_some(l.value)
    }

    /// The start of the chain a `.method(` at `dot` belongs to.
    fn chain_head(&self, mut dot: usize) -> usize {
        let bytes = self.text().as_bytes();
        loop {
            let mut p = dot;
            while p > 0 && bytes[p - 1].is_ascii_whitespace() {
                p -= 1;
            }
            if p == 0 {
                return dot;
            }
            let mut start = p;
            if bytes[p - 1] == b')' {
                let Some(&open) = self.openers.get(&(p - 1)) else {
                    return p;
                };
                start = open;
            }
            let mut id = start;
            while id > 0 && is_ident_byte(bytes[id - 1]) {
                id -= 1;
            }
            if id == start && start == p {
                return p;
            }
            let mut q = id;
            while q > 0 && bytes[q - 1].is_ascii_whitespace() {
                q -= 1;
            }
            if q > 0 && bytes[q - 1] == b'.' {
                dot = q - 1;
                continue;
            }
            // `new Command(…)`
            if self.text()[..q].ends_with("new") {
                return q - 3;
            }
            return id;
        }
    }

    /// The calls `.m(args)` of the chain from `head`: method, args range,
    /// offset of the method.
    fn calls(&self, head: usize) -> (usize, Vec<(String, Range<usize>, usize)>) {
        let text = self.text();
        let bytes = text.as_bytes();
        let mut i = head;
        if text[i..].starts_with("new") {
            i = self.code.skip_ws(i + 3);
        }
        // The head: an identifier, maybe called.
        let Some(id) = self.code.ident_at(i) else {
            return (i, Vec::new());
        };
        i = self.code.skip_ws(i) + id.len();
        if bytes.get(i) == Some(&b'(') {
            if let Some(c) = self.code.matching(i) {
                i = c + 1;
            }
        }
        let head_end = i;
        let mut out = Vec::new();
        loop {
            let d = self.code.skip_ws(i);
            if bytes.get(d) != Some(&b'.') {
                break;
            }
            let Some(m) = self.code.ident_at(d + 1) else {
                break;
            };
            let m = m.to_string();
            let p = self.code.skip_ws(d + 1) + m.len();
            if bytes.get(p) != Some(&b'(') {
                // `.argv`, `.opts` — property access ends the calls.
                if m == "argv" {
                    break;
                }
                i = p;
                continue;
            }
            let Some(c) = self.code.matching(p) else {
                break;
            };
            out.push((m, p + 1..c, d + 1));
            i = c + 1;
        }
        (head_end, out)
    }

    /// `const x = ` before `at`.
    fn assigned(&self, at: usize) -> Option<String> {
        let text = self.text();
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let lhs = text[line_start..at]
            .trim_end()
            .strip_suffix('=')?
            .trim_end();
        let name: String = lhs
            .bytes()
            .rev()
            .take_while(|b| is_ident_byte(*b))
            .map(char::from)
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        (!name.is_empty()).then_some(name)
    }

    fn enclosing_fn(&self, at: usize) -> Option<String> {
        self.funcs
            .iter()
            .filter(|(_, r)| r.start < at && at < r.end)
            .min_by_key(|(_, r)| r.end - r.start)
            .map(|(n, _)| n.clone())
    }

    fn new_command(&mut self, at: usize, parent: Option<String>, name: String) -> usize {
        let uid = format!("js:{}:{at}", self.path);
        self.facts.push(Fact::Command(Command {
            path: self.path.clone(),
            line: self.index.line_of(at),
            symbols: vec![uid],
            parent,
            name,
            ..Command::default()
        }));
        self.facts.len() - 1
    }

    fn cmd(&mut self, i: usize) -> Option<&mut Command> {
        match self.facts.get_mut(i) {
            Some(Fact::Command(c)) => Some(c),
            _ => None,
        }
    }

    fn uid(&self, i: usize) -> String {
        match self.facts.get(i) {
            Some(Fact::Command(c)) => c.symbols.first().cloned().unwrap_or_default(),
            _ => String::new(),
        }
    }

    fn add_param(&mut self, i: usize, p: Param) {
        if let Some(c) = self.cmd(i) {
            if !c.params.contains(&p) {
                c.params.push(p);
            }
        }
    }

    /// Every commander chain of the file, in order.
    fn commander(&mut self) {
        let text = self.text().to_string();
        let mut heads: Vec<usize> = Vec::new();
        for at in self.code.find_all("new Command(") {
            heads.push(at);
        }
        for m in [
            ".command(",
            ".option(",
            ".requiredOption(",
            ".addOption(",
            ".argument(",
            ".arguments(",
            ".addCommand(",
            ".name(",
        ] {
            for at in self.code.find_all(m) {
                heads.push(self.chain_head(at));
            }
        }
        heads.sort_unstable();
        heads.dedup();
        for head in heads {
            if !self.seen.insert(head) {
                continue;
            }
            let (head_end, calls) = self.calls(head);
            let head_text = text[head..head_end].trim().to_string();
            let mut cur = if let Some(rest) = head_text.strip_prefix("new") {
                let rest = rest.trim_start();
                if !rest.starts_with("Command(") {
                    continue;
                }
                let open = head + text[head..].find('(').unwrap_or(0);
                let name = self
                    .code
                    .args(open)
                    .first()
                    .and_then(|r| self.lit(r))
                    .unwrap_or_default();
                let i = self.new_command(head, None, name.clone());
                let mut syms = Vec::new();
                syms.extend(self.assigned(head));
                syms.extend(self.enclosing_fn(head));
                if let Some(c) = self.cmd(i) {
                    c.prog = (!name.is_empty()).then_some(name);
                    c.symbols.extend(syms.iter().cloned());
                }
                for s in syms {
                    self.vars.entry(s).or_insert(i);
                }
                i
            } else if let Some(&i) = self.vars.get(&head_text) {
                i
            } else if head_text == "program" && self.program_imported {
                let i = self.new_command(head, None, String::new());
                if let Some(c) = self.cmd(i) {
                    c.symbols.push(PROGRAM.into());
                }
                self.vars.insert("program".into(), i);
                i
            } else {
                continue;
            };
            for (m, r, at) in calls {
                let args = self.code.split_top_level(r.start, r.end, b',');
                let first = args.first().and_then(|a| self.lit(a));
                match m.as_str() {
                    "command" => {
                        let Some(s) = first else { continue };
                        let (name, params) = spec(&s);
                        let parent = Some(self.uid(cur));
                        let i = self.new_command(at, parent, name);
                        for p in params {
                            self.add_param(i, p);
                        }
                        // `.command('x', 'description')`: an executable
                        // subcommand; the chain stays on the parent.
                        let exec = args.get(1).is_some_and(|a| self.lit(a).is_some());
                        if !exec {
                            cur = i;
                        }
                    }
                    "option" | "requiredOption" => {
                        if let Some(f) = first.as_deref().and_then(option_flag) {
                            self.add_param(cur, Param::flag(f));
                        }
                    }
                    "addOption" => {
                        let a = self.code.slice(r.clone()).to_string();
                        if let Some(o) = a.find("Option(") {
                            let open = r.start + o + 6;
                            let f = self
                                .code
                                .args(open)
                                .first()
                                .and_then(|x| self.lit(x))
                                .and_then(|s| option_flag(&s));
                            if let Some(f) = f {
                                self.add_param(cur, Param::flag(f));
                            }
                        }
                        for e in self
                            .code
                            .find_all_in(".env(", r.clone())
                            .collect::<Vec<_>>()
                        {
                            let v = self.code.args(e + 4).first().and_then(|x| self.lit(x));
                            if let Some(v) = v {
                                self.add_param(cur, Param::env(v));
                            }
                        }
                    }
                    "argument" => {
                        if let Some(a) = first.as_deref().and_then(|s| arg_word(s.trim())) {
                            self.add_param(cur, Param::argument(a));
                        }
                    }
                    "arguments" => {
                        for w in first.unwrap_or_default().split_whitespace() {
                            if let Some(a) = arg_word(w) {
                                self.add_param(cur, Param::argument(a));
                            }
                        }
                    }
                    "name" => {
                        if let (Some(n), Some(c)) = (first, self.cmd(cur)) {
                            // `.name('./tool')` / `bin/tool`: the program.
                            let n = n.rsplit('/').next().unwrap_or(&n).to_string();
                            if c.parent.is_none() && !n.is_empty() {
                                c.prog = Some(n);
                            }
                        }
                    }
                    "addCommand" => {
                        let a = self.code.slice(args.first().cloned().unwrap_or(0..0));
                        let child: String = a
                            .split('(')
                            .next()
                            .unwrap_or("")
                            .trim()
                            .rsplit('.')
                            .next()
                            .unwrap_or("")
                            .to_string();
                        if !child.is_empty() && child.bytes().all(is_ident_byte) {
                            let parent = self.uid(cur);
                            self.facts.push(Fact::Attach(Attach {
                                path: self.path.clone(),
                                parent,
                                child,
                                name: None,
                                merged: false,
                            }));
                        }
                    }
                    _ => {}
                }
            }
            if let Some(v) = self.assigned(head) {
                self.vars.insert(v, cur);
            }
        }
    }

    /// yargs chains from `yargs(…)` (or a `yargs` / `yargs()` variable).
    fn yargs(&mut self) {
        let mut heads: Vec<usize> = Vec::new();
        for m in [
            ".command(",
            ".option(",
            ".options(",
            ".positional(",
            ".commandDir(",
        ] {
            for at in self.code.find_all(m) {
                heads.push(self.chain_head(at));
            }
        }
        heads.sort_unstable();
        heads.dedup();
        // Builder bodies: their calls belong to the subcommand.
        let mut builder_ranges: Vec<Range<usize>> = Vec::new();
        let mut root: Option<usize> = None;
        for head in heads {
            if builder_ranges.iter().any(|r| r.contains(&head)) || !self.seen.insert(head) {
                continue;
            }
            let head_id = self.code.ident_at(head).unwrap_or("").to_string();
            let required = head_id == "require"
                && self.text()[head..]
                    .split(')')
                    .next()
                    .unwrap_or("")
                    .contains("yargs");
            // `yargs(…)`, not a builder's `yargs` parameter.
            let called = self
                .text()
                .as_bytes()
                .get(self.code.skip_ws(head + head_id.len()))
                == Some(&b'(');
            if !(required || (head_id.starts_with("yargs") && called)) {
                continue;
            }
            let (_, calls) = self.calls(head);
            let cur = match root {
                Some(r) => r,
                None => {
                    let i = self.new_command(head, None, String::new());
                    root = Some(i);
                    i
                }
            };
            for (m, r, at) in calls {
                let args = self.code.split_top_level(r.start, r.end, b',');
                let first = args.first().and_then(|a| self.lit(a));
                match m.as_str() {
                    "command" => {
                        self.yargs_command(cur, at, &args, &mut builder_ranges);
                    }
                    "option" | "positional" | "boolean" | "string" | "number" | "count"
                    | "array" => {
                        if let Some(k) = first {
                            let p = if m == "positional" {
                                Param::argument(k)
                            } else {
                                Param::flag(yargs_flag(&k))
                            };
                            self.add_param(cur, p);
                        }
                    }
                    "options" => {
                        if let Some(a) = args.first() {
                            for k in self.object_keys(a.clone()) {
                                self.add_param(cur, Param::flag(yargs_flag(&k)));
                            }
                        }
                    }
                    "commandDir" => {
                        if let Some(c) = self.cmd(cur) {
                            c.symbols.push(COMMAND_DIR.into());
                        }
                    }
                    "scriptName" => {
                        if let (Some(n), Some(c)) = (first, self.cmd(cur)) {
                            c.prog = Some(n);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Keys of the object literal at `r` (`{ port: {…}, 'dry-run': {…} }`).
    fn object_keys(&self, r: Range<usize>) -> Vec<String> {
        let text = self.text();
        let open = self.code.skip_ws(r.start);
        if text.as_bytes().get(open) != Some(&b'{') {
            return Vec::new();
        }
        let mut out = Vec::new();
        for e in self.code.args(open) {
            if let Some(l) = self.code.string_at(e.start) {
                out.push(l.value);
            } else if let Some((k, _)) = self.code.keyword_arg(e.clone()) {
                out.push(k.to_string());
            }
        }
        out
    }

    /// `.command(spec, desc, builder, handler)` / `.command({command,
    /// builder})` / `.command(require('./x'))` under `parent`.
    fn yargs_command(
        &mut self,
        parent: usize,
        at: usize,
        args: &[Range<usize>],
        builder_ranges: &mut Vec<Range<usize>>,
    ) {
        let text = self.text().to_string();
        let Some(a0) = args.first().cloned() else {
            return;
        };
        let first = self.code.skip_ws(a0.start);
        let (spec_s, builder) = match text.as_bytes().get(first) {
            Some(b'{') => {
                let mut spec_s = None;
                let mut builder = None;
                for e in self.code.args(first) {
                    if let Some((k, v)) = self.code.keyword_arg(e.clone()) {
                        match k {
                            "command" => spec_s = self.lit(&v),
                            "builder" => builder = Some(v),
                            _ => {}
                        }
                    }
                }
                (spec_s, builder)
            }
            Some(b'[') => (
                self.code.args(first).first().and_then(|r| self.lit(r)),
                args.get(2).cloned(),
            ),
            _ => (self.lit(&a0), args.get(2).cloned()),
        };
        let Some(spec_s) = spec_s else {
            // `.command(require('./cmds/get'))` / `.command(getCmd)`.
            self.attach_module(parent, a0);
            return;
        };
        let (name, params) = spec(&spec_s);
        // `$0` is the default command: its params are the root's.
        let i = if name == "$0" {
            parent
        } else {
            let p = Some(self.uid(parent));
            self.new_command(at, p, name)
        };
        for p in params {
            self.add_param(i, p);
        }
        if let Some(b) = builder {
            builder_ranges.push(b.clone());
            for p in self.builder_params(b) {
                self.add_param(i, p);
            }
        }
    }

    /// `.command(require('./get'))` / `.command(get)` (imported): the
    /// command module under `parent`, qualified by the file it comes from.
    fn attach_module(&mut self, parent: usize, a0: Range<usize>) {
        let a = self.code.slice(a0.clone()).trim().to_string();
        let (ident, from) = match a.find("require(") {
            Some(p) => {
                let path = self.code.string_at(a0.start + p + 8).map(|l| l.value);
                let q = path.as_deref().map(module_name);
                (q.clone().unwrap_or_default(), path)
            }
            None => {
                let id = a.rsplit('.').next().unwrap_or("").to_string();
                let from = self.import_path(&id);
                (id, from)
            }
        };
        if ident.is_empty() || !ident.bytes().all(is_ident_byte) {
            return;
        }
        let child = match from.as_deref().map(module_name) {
            Some(q) if !q.is_empty() => format!("{q}.yargsmod:{ident}"),
            _ => format!("yargsmod:{ident}"),
        };
        let parent = self.uid(parent);
        self.facts.push(Fact::Attach(Attach {
            path: self.path.clone(),
            parent,
            child,
            name: None,
            merged: false,
        }));
    }

    /// The module `ident` is imported from (`import x from './x.js'`,
    /// `import * as x from …`, `const x = require(…)`).
    fn import_path(&self, ident: &str) -> Option<String> {
        let text = self.text();
        for at in self.code.find_word(ident) {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[at..].find('\n').map_or(text.len(), |k| at + k);
            let line = &text[line_start..line_end];
            let t = line.trim_start();
            if !(t.starts_with("import ") || t.contains("require(")) {
                continue;
            }
            let from = line
                .find(" from ")
                .map(|k| k + 6)
                .or_else(|| line.find("require(").map(|k| k + 8));
            if let Some(k) = from {
                if let Some(l) = self.code.string_at(line_start + k) {
                    return Some(l.value);
                }
            }
        }
        None
    }

    /// The options a builder declares: an object's keys, or the
    /// `.option('x')` / `.positional('x')` calls in a function.
    fn builder_params(&self, b: Range<usize>) -> Vec<Param> {
        let text = self.text();
        let start = self.code.skip_ws(b.start);
        if text.as_bytes().get(start) == Some(&b'{') {
            return self
                .object_keys(start..b.end)
                .iter()
                .map(|k| Param::flag(yargs_flag(k)))
                .collect();
        }
        let mut out = Vec::new();
        let mut found: Vec<(usize, Param)> = Vec::new();
        for (m, arg) in [(".option(", false), (".positional(", true)] {
            for at in self.code.find_all_in(m, b.clone()) {
                let open = at + m.len() - 1;
                if let Some(k) = self.code.args(open).first().and_then(|r| self.lit(r)) {
                    found.push((
                        at,
                        if arg {
                            Param::argument(k)
                        } else {
                            Param::flag(yargs_flag(&k))
                        },
                    ));
                }
            }
        }
        found.sort_by_key(|(at, _)| *at);
        for (_, p) in found {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// A yargs command module: `exports.command = 'get <key>'` (or
    /// `export const command`, `module.exports = { command: … }`) with its
    /// `builder`.
    fn yargs_module(&mut self) {
        let text = self.text().to_string();
        let mut spec_s = None;
        let mut builder = None;
        let mut at_cmd = 0;
        for pat in ["exports.command", "export const command"] {
            for at in self.code.find_all(pat) {
                let eq = at + pat.len();
                let eq = self.code.skip_ws(eq);
                if text.as_bytes().get(eq) == Some(&b'=') {
                    let v = self.code.skip_ws(eq + 1);
                    let v = if text.as_bytes().get(v) == Some(&b'[') {
                        v + 1
                    } else {
                        v
                    };
                    if let Some(l) = self.code.string_at(v) {
                        spec_s = Some(l.value);
                        at_cmd = at;
                    }
                }
            }
        }
        for pat in [
            "exports.builder",
            "export const builder",
            "export function builder",
        ] {
            if let Some(at) = self.code.find_all(pat).next() {
                let from = at + pat.len();
                let end = text[from..]
                    .find("\nexport")
                    .map_or(text.len(), |k| from + k);
                let mut b = self.code.skip_ws(from);
                if text.as_bytes().get(b) == Some(&b'=') {
                    b = self.code.skip_ws(b + 1);
                }
                builder = Some(b..end);
            }
        }
        if spec_s.is_none() {
            if let Some(at) = self.code.find_all("module.exports").next() {
                let v = self.code.skip_ws(at + "module.exports".len());
                let o = self.code.skip_ws(v + 1);
                if text.as_bytes().get(v) == Some(&b'=') && text.as_bytes().get(o) == Some(&b'{') {
                    for e in self.code.args(o) {
                        if let Some((k, r)) = self.code.keyword_arg(e.clone()) {
                            match k {
                                "command" => {
                                    spec_s = self.lit(&r);
                                    at_cmd = e.start;
                                }
                                "builder" => builder = Some(r),
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        let Some(spec_s) = spec_s else {
            self.module_objects();
            return;
        };
        let (name, params) = spec(&spec_s);
        let i = self.new_command(at_cmd, Some(COMMAND_DIR.into()), name);
        let sym = format!("yargsmod:{}", module_name(&self.path));
        if let Some(c) = self.cmd(i) {
            c.symbols.push(sym);
        }
        for p in params {
            self.add_param(i, p);
        }
        if let Some(b) = builder {
            self.module_builder(i, b);
        }
    }

    /// A module's builder: its params, and the modules its `.command(x)`
    /// calls nest.
    fn module_builder(&mut self, i: usize, b: Range<usize>) {
        for p in self.builder_params(b.clone()) {
            self.add_param(i, p);
        }
        for at in self.code.find_all_in(".command(", b).collect::<Vec<_>>() {
            let open = at + ".command".len();
            if let Some(a0) = self.code.args(open).first().cloned() {
                if self.code.string_at(a0.start).is_none() {
                    self.attach_module(i, a0);
                }
            }
        }
    }

    /// `const connector: CommandModule = { command: 'connector', builder,
    /// handler }` objects.
    fn module_objects(&mut self) {
        let text = self.text().to_string();
        let bytes = text.as_bytes();
        let mut done = std::collections::HashSet::new();
        for at in self.code.find_word("command").collect::<Vec<_>>() {
            if bytes.get(self.code.skip_ws(at + 7)) != Some(&b':') {
                continue;
            }
            // The innermost `{` open before `at`.
            let mut depth = 0i32;
            let mut k = at;
            let mut open = None;
            while k > 0 && at - k < 4000 {
                k -= 1;
                if !self.code.is_code(k) {
                    continue;
                }
                match bytes[k] {
                    b'}' | b')' | b']' => depth += 1,
                    b'(' | b'[' if depth == 0 => break,
                    b'{' if depth == 0 => {
                        open = Some(k);
                        break;
                    }
                    b'{' | b'(' | b'[' => depth -= 1,
                    _ => {}
                }
            }
            let Some(open) = open else { continue };
            if !done.insert(open) {
                continue;
            }
            let mut spec_s = None;
            let mut builder = None;
            let mut module = false;
            for e in self.code.args(open) {
                if let Some((key, r)) = self.code.keyword_arg(e.clone()) {
                    match key {
                        "command" => {
                            let v = self.code.skip_ws(r.start);
                            let v = if bytes.get(v) == Some(&b'[') {
                                v + 1
                            } else {
                                v
                            };
                            spec_s = self.code.string_at(v).map(|l| l.value);
                        }
                        "builder" => builder = Some(r),
                        "handler" | "describe" | "desc" | "description" => module = true,
                        _ => {}
                    }
                }
            }
            let Some(spec_s) = spec_s.filter(|_| module || builder.is_some()) else {
                continue;
            };
            let (name, params) = spec(&spec_s);
            let i = self.new_command(at, Some(COMMAND_DIR.into()), name);
            let mut syms = vec![format!("yargsmod:{}", module_name(&self.path))];
            if let Some(v) = self.assigned_object(open) {
                syms.push(format!("yargsmod:{v}"));
            }
            if let Some(c) = self.cmd(i) {
                c.symbols.extend(syms);
            }
            for p in params {
                self.add_param(i, p);
            }
            if let Some(b) = builder {
                self.module_builder(i, b);
            }
        }
    }

    /// `const name[: Type] = {` → `name`.
    fn assigned_object(&self, open: usize) -> Option<String> {
        let text = self.text();
        let line_start = text[..open].rfind('\n').map_or(0, |i| i + 1);
        let lhs = text[line_start..open].trim_end().strip_suffix('=')?;
        let lhs = lhs.split(':').next()?.trim();
        let name = lhs.rsplit(' ').next()?;
        (!name.is_empty() && name.bytes().all(is_ident_byte)).then(|| name.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let (n, p) = spec("clone <source> [destination...]");
        assert_eq!(n, "clone");
        let names: Vec<_> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["source", "destination"]);
        assert_eq!(option_flag("-e, --env <env>").as_deref(), Some("--env"));
        assert_eq!(option_flag("-v").as_deref(), Some("-v"));
        assert_eq!(yargs_flag("v"), "-v");
    }
}
