//! Command-line programs (`rust_cli`; see docs/cli-surface.md): clap (derive
//! and builder) and structopt as `cli://<binary>/<subcommand>` endpoints.
//!
//! - derive: a `#[derive(Parser)]` (`StructOpt`, clap 3's `Clap`) type no
//!   other type refers to is a root command. Its fields are params: a field
//!   with `long`/`short` in `#[arg(…)]` / `#[clap(…)]` / `#[structopt(…)]`
//!   is a flag (`--field-name` in kebab case, or the given `long = "x"`;
//!   `-s` when only `short`), a field with neither is a positional argument
//!   named after the field, `env` (or `env = "X"`) adds an environment
//!   variable (the field in SCREAMING_SNAKE case by default). `flatten`
//!   pulls in the fields of another `Args` struct; `subcommand` hangs the
//!   variants of a `Subcommand` enum below the command. Variants are named
//!   in kebab case (or `name = "x"`, or the enum's `rename_all`); a unit
//!   variant has no params, a struct variant's fields are its params, a
//!   tuple variant takes the params (and subcommands) of its `Args` struct,
//!   `#[command(subcommand)]` on a variant nests the variants of its enum,
//!   `#[command(flatten)]` inlines them. Types are linked by name across
//!   files.
//! - builder: `Command::new("x")` (`App::new`, `SubCommand::with_name`)
//!   whose call chain configures a parser (`.arg`, `.subcommand`, `.about`,
//!   …; `std::process::Command` chains that `.spawn()`/`.output()` are
//!   not); `.arg(Arg::new("id").long("x").short('x').env("X"))`, `arg!(-v
//!   --verbose)`, `arg!(<file>)`, `.args([…])`; `.subcommand(Command::new(…))`
//!   nests inline, `.subcommand(cmd::build())` nests the command the
//!   function `build` returns (any file).
//! - Binary name: the Cargo `[[bin]]` whose `path` is the root's file, the
//!   package of a `src/main.rs` in the root's crate, `#[command(name)]` /
//!   the root's `Command::new("name")`, `src/bin/<name>.rs`, the only
//!   package, else the file stem.
//!
//! Test code (`#[cfg(test)]` items, `tests/`, `benches/`, `examples/`) is
//! skipped.

use crate::rs::items::test_ranges;
use crate::rs::skipped_path;
use portolan_plugin_sdk::cli::{self, Attach, Command, Fact, Script};
use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::text::LineIndex;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

pub struct RustCli;

impl Analyzer for RustCli {
    fn tech(&self) -> Tech {
        Tech::new("rust_cli", "Rust", "CLI")
            .aliases(["clap", "structopt", "rust-cli"])
            .files(["*.rs", "Cargo.toml"])
            .requires_any(["clap", "structopt", "StructOpt", "[package]", "[[bin]]"])
            .detect(Detect::files(["Cargo.toml"]).regex([
                r#"(?m)^\s*(clap|structopt)\s*=|^\s*\[(dependencies\.)?(clap|structopt)\]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if path.rsplit('/').next() == Some("Cargo.toml") {
            for s in cargo_bins(&path, &file.content) {
                out.fact(&RustCliFact::Cli(Fact::Script(s)));
            }
            return;
        }
        if !path.ends_with(".rs") || skipped_path(&path) {
            return;
        }
        let content = &file.content;
        if !content.contains("clap")
            && !content.contains("StructOpt")
            && !content.contains("structopt")
        {
            // Derive types in a module that imports clap elsewhere
            // (`use super::*`) still say `#[arg(` / `#[command(`.
            if !content.contains("#[arg(") && !content.contains("#[command(") {
                return;
            }
        }
        for f in scan(file) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut cli_facts = Vec::new();
        let mut types = Vec::new();
        for f in facts.all::<RustCliFact>() {
            match f {
                RustCliFact::Cli(c) => cli_facts.push(c),
                RustCliFact::Type(t) => types.push(t),
            }
        }
        cli_facts.extend(expand_types(&types));
        Ok(cli::link(cli_facts, &entry_matches))
    }
}

/// One fact of this analyzer: a ready command-tree fact (builder API,
/// manifests) or a derive type, linked by name in `link`.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum RustCliFact {
    Cli(Fact),
    Type(ClapType),
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct ClapType {
    path: String,
    line: u32,
    name: String,
    is_enum: bool,
    /// Derives `Parser` / `StructOpt` / `Clap`: may be a root.
    parser: bool,
    /// `#[command(name = "x")]`.
    prog: Option<String>,
    fields: Vec<Field>,
    variants: Vec<Variant>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Field {
    params: Vec<Param>,
    /// `#[command(subcommand)]`: the enum type.
    sub: Option<String>,
    /// `#[command(flatten)]`: the struct type.
    flatten: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Variant {
    name: String,
    line: u32,
    fields: Vec<Field>,
    /// Tuple variant: the payload type.
    payload: Option<String>,
    /// `#[command(subcommand)]` on the variant.
    nested: bool,
    /// `#[command(flatten)]` on the variant.
    inline: bool,
}

/// `[package] name` (entry `<dir>/src/main.rs`) and every `[[bin]]` (entry
/// its `path`, default `src/bin/<name>.rs`) of a Cargo manifest.
fn cargo_bins(path: &str, content: &str) -> Vec<Script> {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let join = |p: &str| {
        let p = p.trim_start_matches("./");
        if dir.is_empty() {
            p.to_string()
        } else {
            format!("{dir}/{p}")
        }
    };
    let mut out = Vec::new();
    let mut section = String::new();
    let mut bin: Option<(Option<String>, Option<String>)> = None;
    let mut package: Option<String> = None;
    let flush = |bin: &mut Option<(Option<String>, Option<String>)>, out: &mut Vec<Script>| {
        if let Some((Some(name), p)) = bin.take() {
            let entry = p.unwrap_or_else(|| format!("src/bin/{name}.rs"));
            out.push(Script {
                name,
                entry: join(&entry),
            });
        }
    };
    for line in content.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            flush(&mut bin, &mut out);
            section = line.to_string();
            if section == "[[bin]]" {
                bin = Some((None, None));
            }
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim().trim_matches('"').to_string());
        if section == "[package]" && k == "name" {
            package = Some(v);
        } else if let Some(b) = bin.as_mut() {
            match k {
                "name" => b.0 = Some(v),
                "path" => b.1 = Some(v),
                _ => {}
            }
        }
    }
    flush(&mut bin, &mut out);
    if let Some(p) = package {
        out.push(Script {
            name: p,
            entry: join("src/main.rs"),
        });
    }
    out
}

/// 3 when a `[[bin]]` path is the root's file; 1 when the entry is a
/// crate's `src/main.rs` and the root is in that crate's `src/` (not a
/// `src/bin/` program).
fn entry_matches(entry: &str, c: &Command) -> u8 {
    let path = c.path.replace('\\', "/");
    if path == entry {
        return 3;
    }
    if let Some(src) = entry.strip_suffix("main.rs") {
        if src.ends_with("src/") && path.starts_with(src) && !path[src.len()..].starts_with("bin/")
        {
            return 1;
        }
    }
    0
}

/// `src/bin/<name>.rs` or `src/bin/<name>/main.rs` → `name`.
fn bin_dir(path: &str) -> Option<String> {
    let (_, rest) = path.rsplit_once("src/bin/")?;
    let first = rest.split('/').next()?;
    Some(first.trim_end_matches(".rs").to_string()).filter(|s| !s.is_empty())
}

fn scan(file: &SourceFile) -> Vec<RustCliFact> {
    let code = file.code(Syntax::RUST);
    let index = LineIndex::new(code.source());
    let tests = test_ranges(&code);
    let in_test = |o: usize| tests.iter().any(|r| r.contains(&o));
    let mut out = Vec::new();
    let attrs = Attrs::new(&code);
    for kw in ["struct", "enum"] {
        for at in code.find_word(kw) {
            if in_test(at) {
                continue;
            }
            if let Some(t) = derive_type(&code, &attrs, &index, &file.path, at, kw == "enum") {
                out.push(RustCliFact::Type(t));
            }
        }
    }
    for f in builder(&code, &index, &file.path, &in_test) {
        out.push(RustCliFact::Cli(f));
    }
    out
}

/// Every `#[…]` attribute of a file, by the offset of its closing `]`.
struct Attrs {
    by_close: HashMap<usize, usize>,
}

impl Attrs {
    fn new(code: &Code<'_>) -> Self {
        let mut by_close = HashMap::new();
        for at in code.find_all("#[") {
            if let Some(close) = code.matching(at + 1) {
                by_close.insert(close, at);
            }
        }
        Attrs { by_close }
    }

    /// The attributes right before `at` (outer ones first), as the text
    /// inside their brackets with the range of that text.
    fn before(&self, code: &Code<'_>, mut at: usize) -> Vec<Range<usize>> {
        let bytes = code.text().as_bytes();
        let mut out = Vec::new();
        loop {
            let mut e = at;
            while e > 0 && bytes[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            if e == 0 || bytes[e - 1] != b']' {
                break;
            }
            let Some(&open) = self.by_close.get(&(e - 1)) else {
                break;
            };
            out.push(open + 2..e - 1);
            at = open;
        }
        out.reverse();
        out
    }
}

/// Skip `pub`, `pub(crate)` back from a `struct`/`enum` keyword.
fn item_start(text: &str, at: usize) -> usize {
    let head = text[..at].trim_end();
    if let Some(h) = head.strip_suffix("pub") {
        return h.len();
    }
    if head.ends_with(')') {
        if let Some(p) = head.rfind("pub(") {
            if head.len() - p < 40 {
                return p;
            }
        }
    }
    at
}

/// A `key`, `key = value` or `key(value)` item of an attribute list.
struct AttrItem {
    key: String,
    value: Option<String>,
}

/// The items of `arg(…)` / `clap(…)` / `structopt(…)` / `command(…)` in
/// attribute text `r`; `None` when it is another attribute.
fn attr_items(code: &Code<'_>, r: Range<usize>) -> Option<(String, Vec<AttrItem>)> {
    let text = code.text();
    let head = code.ident_at(r.start)?;
    if !matches!(head, "arg" | "clap" | "structopt" | "command" | "derive") {
        return None;
    }
    let open = code.skip_ws(r.start + (text[r.start..].find(head)? + head.len()));
    if text.as_bytes().get(open) != Some(&b'(') {
        return Some((head.to_string(), Vec::new()));
    }
    let mut items = Vec::new();
    for a in code.args(open) {
        let s = code.slice(a.clone());
        let key_len = s
            .bytes()
            .take_while(|b| is_ident_byte(*b) || *b == b':')
            .count();
        let key = s[..key_len].rsplit("::").next().unwrap_or("").to_string();
        let rest = s[key_len..].trim_start();
        let value_at = a.start + (s.len() - rest.len());
        let value = if let Some(v) = rest.strip_prefix('=') {
            let v_at = value_at + 1;
            code.string_at(v_at)
                .map(|l| l.value)
                .or_else(|| Some(v.trim().to_string()))
        } else if rest.starts_with('(') {
            code.string_at(value_at + 1)
                .map(|l| l.value)
                .or_else(|| Some(rest[1..rest.len().saturating_sub(1)].trim().to_string()))
        } else {
            None
        };
        items.push(AttrItem { key, value });
    }
    Some((head.to_string(), items))
}

/// The derive names and clap items of the attributes before an item.
struct ItemAttrs {
    derives: Vec<String>,
    clap: Vec<AttrItem>,
}

fn item_attrs(code: &Code<'_>, ranges: &[Range<usize>]) -> ItemAttrs {
    let mut derives = Vec::new();
    let mut clap = Vec::new();
    for r in ranges {
        if let Some((head, items)) = attr_items(code, r.clone()) {
            if head == "derive" {
                derives.extend(items.into_iter().map(|i| i.key));
            } else {
                clap.extend(items);
            }
        }
    }
    ItemAttrs { derives, clap }
}

fn item_value<'a>(items: &'a [AttrItem], key: &str) -> Option<Option<&'a str>> {
    items
        .iter()
        .find(|i| i.key == key)
        .map(|i| i.value.as_deref())
}

fn derive_type(
    code: &Code<'_>,
    attrs: &Attrs,
    index: &LineIndex,
    path: &str,
    at: usize,
    is_enum: bool,
) -> Option<ClapType> {
    let text = code.text();
    let start = item_start(text, at);
    let a = item_attrs(code, &attrs.before(code, start));
    let parser = a
        .derives
        .iter()
        .any(|d| matches!(d.as_str(), "Parser" | "StructOpt" | "Clap"));
    let other = a
        .derives
        .iter()
        .any(|d| matches!(d.as_str(), "Subcommand" | "Args"));
    if !parser && !other {
        return None;
    }
    let name = code.ident_at(at + if is_enum { 4 } else { 6 })?.to_string();
    let name_end = code.skip_ws(at + if is_enum { 4 } else { 6 }) + name.len();
    // The body: the first `{` after the name (generics and `where` skipped).
    let rest = &text[name_end..];
    let open = name_end + rest.find(['{', ';', '('])?;
    if text.as_bytes()[open] != b'{' {
        return None;
    }
    let close = code.matching(open)?;
    let rename = item_value(&a.clap, "rename_all")
        .flatten()
        .map(str::to_string);
    let mut t = ClapType {
        path: path.to_string(),
        line: index.line_of(start),
        name,
        is_enum,
        parser,
        prog: item_value(&a.clap, "name")
            .or_else(|| item_value(&a.clap, "bin_name"))
            .flatten()
            .map(str::to_string),
        ..ClapType::default()
    };
    for piece in code.split_top_level(open + 1, close, b',') {
        // Leading attributes of the field / variant.
        let mut i = piece.start;
        let mut ranges = Vec::new();
        while text.get(i..piece.end).unwrap_or("").starts_with("#[") {
            let Some(c) = code.matching(i + 1) else { break };
            ranges.push(i + 2..c);
            i = code.skip_ws(c + 1);
        }
        let ia = item_attrs(code, &ranges);
        if item_value(&ia.clap, "skip").is_some()
            || item_value(&ia.clap, "external_subcommand").is_some()
        {
            continue;
        }
        let mut j = i;
        if code.ident_at(j) == Some("pub") {
            j = code.skip_ws(code.skip_ws(j) + 3);
            if text.as_bytes().get(j) == Some(&b'(') {
                j = code.matching(j).map_or(j, |c| c + 1);
            }
        }
        let Some(ident) = code.ident_at(j) else {
            continue;
        };
        let ident = ident.to_string();
        let after = code.skip_ws(code.skip_ws(j) + ident.len());
        if is_enum {
            let mut v = Variant {
                name: item_value(&ia.clap, "name")
                    .flatten()
                    .map(str::to_string)
                    .unwrap_or_else(|| rename_case(&ident, rename.as_deref())),
                line: index.line_of(code.skip_ws(j)),
                nested: item_value(&ia.clap, "subcommand").is_some(),
                inline: item_value(&ia.clap, "flatten").is_some(),
                ..Variant::default()
            };
            match text.as_bytes().get(after) {
                Some(b'{') => {
                    if let Some(c) = code.matching(after) {
                        v.fields = fields(code, after + 1, c);
                    }
                }
                Some(b'(') => {
                    if let Some(c) = code.matching(after) {
                        v.payload = Some(type_name(code.slice(after + 1..c)));
                    }
                }
                _ => {}
            }
            t.variants.push(v);
        } else if text.as_bytes().get(after) == Some(&b':') {
            t.fields
                .push(field(&ia.clap, &ident, code.slice(after + 1..piece.end)));
        }
    }
    Some(t)
}

/// The fields of a struct variant body `start..end`.
fn fields(code: &Code<'_>, start: usize, end: usize) -> Vec<Field> {
    let text = code.text();
    let mut out = Vec::new();
    for piece in code.split_top_level(start, end, b',') {
        let mut i = piece.start;
        let mut ranges = Vec::new();
        while text.get(i..piece.end).unwrap_or("").starts_with("#[") {
            let Some(c) = code.matching(i + 1) else { break };
            ranges.push(i + 2..c);
            i = code.skip_ws(c + 1);
        }
        let ia = item_attrs(code, &ranges);
        if item_value(&ia.clap, "skip").is_some() {
            continue;
        }
        let Some(ident) = code.ident_at(i) else {
            continue;
        };
        let after = code.skip_ws(code.skip_ws(i) + ident.len());
        if text.as_bytes().get(after) == Some(&b':') {
            out.push(field(&ia.clap, ident, code.slice(after + 1..piece.end)));
        }
    }
    out
}

fn field(items: &[AttrItem], ident: &str, ty: &str) -> Field {
    let ident = ident.trim_start_matches("r#");
    if item_value(items, "subcommand").is_some() {
        return Field {
            sub: Some(type_name(ty)),
            ..Field::default()
        };
    }
    if item_value(items, "flatten").is_some() {
        return Field {
            flatten: Some(type_name(ty)),
            ..Field::default()
        };
    }
    let mut params = Vec::new();
    let long = item_value(items, "long");
    let short = item_value(items, "short");
    if let Some(l) = long {
        let l = l.map_or_else(|| ident.replace('_', "-"), str::to_string);
        params.push(Param::flag(format!("--{}", l.trim_start_matches('-'))));
    } else if let Some(s) = short {
        let s = s
            .map(|s| s.trim_matches('\'').to_string())
            .unwrap_or_else(|| ident.chars().take(1).collect());
        params.push(Param::flag(format!("-{s}")));
    } else {
        params.push(Param::argument(ident));
    }
    if let Some(e) = item_value(items, "env") {
        params.push(Param::env(
            e.map_or_else(|| ident.to_ascii_uppercase(), str::to_string),
        ));
    }
    Field {
        params,
        ..Field::default()
    }
}

/// `Option<Box<cmd::Commands>>` → `Commands`.
fn type_name(ty: &str) -> String {
    let mut t = ty.trim();
    loop {
        let stripped = ["Option<", "Box<", "Vec<"]
            .iter()
            .find_map(|w| t.strip_prefix(w).and_then(|r| r.strip_suffix('>')));
        match stripped {
            Some(s) => t = s.trim(),
            None => break,
        }
    }
    let t = t.split('<').next().unwrap_or(t);
    t.rsplit("::").next().unwrap_or(t).trim().to_string()
}

/// A variant name in the enum's `rename_all` case (kebab by default).
fn rename_case(ident: &str, rule: Option<&str>) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in ident.chars() {
        if (c.is_uppercase() && !cur.is_empty()) || c == '_' {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            if c == '_' {
                continue;
            }
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    match rule.unwrap_or("kebab-case") {
        "lower" | "lowercase" => words.concat(),
        "UPPER" | "UPPERCASE" => words.concat().to_uppercase(),
        "snake_case" | "snake" => words.join("_"),
        "SCREAMING_SNAKE_CASE" => words.join("_").to_uppercase(),
        "verbatim" | "Verbatim" => ident.to_string(),
        _ => words.join("-"),
    }
}

/// Bounds on the expansion of derive types (diamonds of shared `Args`
/// structs must not blow up).
const MAX_DEPTH: usize = 12;
const MAX_COMMANDS: usize = 4000;

struct Expander<'a> {
    by_name: HashMap<&'a str, Vec<&'a ClapType>>,
    out: Vec<Fact>,
}

impl<'a> Expander<'a> {
    fn find(&self, name: &str, from: &str) -> Option<&'a ClapType> {
        let list = self.by_name.get(name)?;
        list.iter()
            .find(|t| t.path == from)
            .or_else(|| list.first())
            .copied()
    }

    fn push(&mut self, mut c: Command) -> String {
        let sym = format!("clap#{}", self.out.len());
        c.symbols = vec![sym.clone()];
        self.out.push(Fact::Command(c));
        sym
    }

    /// The params of `fields`, following `flatten`, and the subcommand
    /// enums they name.
    fn collect(
        &self,
        fields: &[Field],
        from: &str,
        depth: usize,
        params: &mut Vec<Param>,
        subs: &mut Vec<&'a ClapType>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for f in fields {
            for p in &f.params {
                if !params.contains(p) {
                    params.push(p.clone());
                }
            }
            if let Some(t) = f.flatten.as_deref().and_then(|n| self.find(n, from)) {
                self.collect(&t.fields, &t.path, depth + 1, params, subs);
            }
            if let Some(t) = f.sub.as_deref().and_then(|n| self.find(n, from)) {
                subs.push(t);
            }
        }
    }

    /// A command for the struct (or struct-variant) `fields`, under
    /// `parent`.
    fn command(&mut self, base: Command, fields: &[Field], from: &str, depth: usize) {
        if self.out.len() >= MAX_COMMANDS || depth > MAX_DEPTH {
            return;
        }
        let mut params = Vec::new();
        let mut subs = Vec::new();
        self.collect(fields, from, depth, &mut params, &mut subs);
        let sym = self.push(Command { params, ..base });
        for e in subs {
            self.variants(e, &sym, depth + 1);
        }
    }

    /// The variants of enum `e` as subcommands of `parent`.
    fn variants(&mut self, e: &'a ClapType, parent: &str, depth: usize) {
        if depth > MAX_DEPTH || !e.is_enum {
            return;
        }
        for v in &e.variants {
            if self.out.len() >= MAX_COMMANDS {
                return;
            }
            let base = Command {
                path: e.path.clone(),
                line: v.line,
                parent: Some(parent.to_string()),
                name: v.name.clone(),
                ..Command::default()
            };
            let payload = v.payload.as_deref().and_then(|n| self.find(n, &e.path));
            match payload {
                Some(t) if v.inline && t.is_enum => self.variants(t, parent, depth + 1),
                Some(t) if t.is_enum => {
                    let sym = self.push(base);
                    self.variants(t, &sym, depth + 1);
                }
                Some(t) => self.command(base, &t.fields, &t.path, depth + 1),
                None if v.inline => {}
                None => self.command(base, &v.fields, &e.path, depth + 1),
            }
        }
    }
}

/// The command facts of every root derive type and what hangs below it.
fn expand_types(types: &[ClapType]) -> Vec<Fact> {
    let mut by_name: HashMap<&str, Vec<&ClapType>> = HashMap::new();
    for t in types {
        by_name.entry(t.name.as_str()).or_default().push(t);
    }
    // Types some other type refers to are not roots.
    let mut referenced: HashSet<&str> = HashSet::new();
    for t in types {
        for f in t
            .fields
            .iter()
            .chain(t.variants.iter().flat_map(|v| &v.fields))
        {
            referenced.extend(f.sub.as_deref());
            referenced.extend(f.flatten.as_deref());
        }
        referenced.extend(t.variants.iter().filter_map(|v| v.payload.as_deref()));
    }
    let mut x = Expander {
        by_name,
        out: Vec::new(),
    };
    for t in types {
        if !t.parser || referenced.contains(t.name.as_str()) {
            continue;
        }
        let base = Command {
            path: t.path.clone(),
            line: t.line,
            prog: t.prog.clone().or_else(|| bin_dir(&t.path)),
            ..Command::default()
        };
        if t.is_enum {
            let sym = x.push(base);
            x.variants(t, &sym, 1);
        } else {
            x.command(base, &t.fields, &t.path, 0);
        }
    }
    x.out
}

/// Starters of a builder command.
const STARTERS: [&str; 3] = ["Command::new(", "App::new(", "SubCommand::with_name("];
/// Methods only a parser has.
const PARSER_METHODS: [&str; 12] = [
    "subcommand",
    "subcommands",
    "about",
    "long_about",
    "version",
    "author",
    "subcommand_required",
    "arg_required_else_help",
    "propagate_version",
    "setting",
    "visible_alias",
    "after_help",
];
/// Methods only a process has.
const PROCESS_METHODS: [&str; 6] = [
    "spawn",
    "output",
    "status",
    "current_dir",
    "stdout",
    "stdin",
];

/// A builder chain: the starter, its name, the calls after it.
struct Chain {
    start: usize,
    end: usize,
    name: Option<String>,
    calls: Vec<(String, Range<usize>)>,
}

/// `X::new(…).a(…).b(…)` from `at` (the starter) and its `(`.
fn chain(code: &Code<'_>, at: usize, open: usize) -> Option<Chain> {
    let text = code.text();
    let close = code.matching(open)?;
    let name = code
        .args(open)
        .into_iter()
        .next()
        .and_then(|r| code.string_at(r.start))
        .map(|l| l.value);
    let mut calls = Vec::new();
    let mut i = close + 1;
    loop {
        let d = code.skip_ws(i);
        if text.as_bytes().get(d) != Some(&b'.') {
            break;
        }
        let Some(m) = code.ident_at(d + 1) else { break };
        let m = m.to_string();
        let p = code.skip_ws(d + 1) + m.len();
        if text.as_bytes().get(p) != Some(&b'(') {
            break;
        }
        let Some(c) = code.matching(p) else { break };
        calls.push((m, p + 1..c));
        i = c + 1;
    }
    Some(Chain {
        start: at,
        end: i,
        name,
        calls,
    })
}

/// The function whose body holds each offset: (name, body range).
fn functions(code: &Code<'_>) -> Vec<(String, Range<usize>)> {
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_word("fn") {
        let Some(name) = code.ident_at(at + 2) else {
            continue;
        };
        let from = code.skip_ws(at + 2) + name.len();
        let Some(open) = text[from..].find(['{', ';']).map(|k| from + k) else {
            continue;
        };
        if text.as_bytes()[open] != b'{' {
            continue;
        }
        if let Some(close) = code.matching(open) {
            out.push((name.to_string(), open..close));
        }
    }
    out
}

fn builder(
    code: &Code<'_>,
    index: &LineIndex,
    path: &str,
    in_test: &dyn Fn(usize) -> bool,
) -> Vec<Fact> {
    let text = code.text();
    let mut chains: Vec<Chain> = Vec::new();
    for s in STARTERS {
        for at in code.find_all(s) {
            if at > 0 && is_ident_byte(text.as_bytes()[at - 1]) || in_test(at) {
                continue;
            }
            if let Some(c) = chain(code, at, at + s.len() - 1) {
                chains.push(c);
            }
        }
    }
    if chains.is_empty() {
        return Vec::new();
    }
    chains.sort_by_key(|c| c.start);
    // Chains inside a `.subcommand(…)` argument of another chain (starts
    // sorted: each range visits the chains it holds).
    let starts: Vec<usize> = chains.iter().map(|c| c.start).collect();
    let mut nested = vec![false; chains.len()];
    for c in &chains {
        for (m, r) in &c.calls {
            if m != "subcommand" && m != "subcommands" {
                continue;
            }
            let mut k = starts.partition_point(|&s| s < r.start);
            while k < starts.len() && starts[k] < r.end {
                nested[k] = true;
                k += 1;
            }
        }
    }
    let is_parser = |(i, c): (usize, &Chain)| {
        !c.calls
            .iter()
            .any(|(m, _)| PROCESS_METHODS.contains(&m.as_str()))
            && (nested[i]
                || c.calls.iter().any(|(m, r)| {
                    PARSER_METHODS.contains(&m.as_str())
                        || (matches!(m.as_str(), "arg" | "args") && {
                            let a = code.slice(r.clone());
                            a.contains("Arg::") || a.contains("arg!")
                        })
                }))
    };
    let keep: Vec<bool> = chains.iter().enumerate().map(is_parser).collect();
    let chains: Vec<Chain> = chains
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect();
    let funcs = functions(code);
    let mut facts = Vec::new();
    let sym = |i: usize| format!("clapb:{path}:{i}");
    // Innermost enclosing chain of each chain (ranges nest; a stack over
    // the chains sorted by start).
    let mut stack: Vec<usize> = Vec::new();
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(chains.len());
    for (i, c) in chains.iter().enumerate() {
        while let Some(&top) = stack.last() {
            if chains[top].end <= c.start {
                stack.pop();
            } else {
                break;
            }
        }
        parents.push(stack.last().copied());
        stack.push(i);
    }
    for (i, c) in chains.iter().enumerate() {
        let mut symbols = vec![sym(i)];
        if parents[i].is_none() {
            if let Some((f, _)) = funcs
                .iter()
                .filter(|(_, r)| r.start < c.start && c.end <= r.end)
                .min_by_key(|(_, r)| r.end - r.start)
            {
                if f != "main" {
                    symbols.push(f.clone());
                }
            }
            if let Some(v) = let_binding(text, c.start) {
                symbols.push(v);
            }
        }
        let mut params = Vec::new();
        for (m, r) in &c.calls {
            match m.as_str() {
                "arg" | "args" => {
                    for p in args_in(code, r.clone()) {
                        if !params.contains(&p) {
                            params.push(p);
                        }
                    }
                }
                "subcommand" | "subcommands" => {
                    for child in called_functions(code, r.clone()) {
                        facts.push(Fact::Attach(Attach {
                            path: path.to_string(),
                            parent: sym(i),
                            child,
                            name: None,
                            merged: false,
                        }));
                    }
                }
                _ => {}
            }
        }
        let root = parents[i].is_none();
        facts.push(Fact::Command(Command {
            path: path.to_string(),
            line: index.line_of(c.start),
            symbols,
            parent: parents[i].map(sym),
            // A top-level chain may still be attached by its function.
            name: c.name.clone().unwrap_or_default(),
            prog: if root {
                c.name.clone().or_else(|| bin_dir(path))
            } else {
                None
            },
            params,
            ..Command::default()
        }));
    }
    facts
}

/// `let [mut] name[: T] = ` right before `at`.
fn let_binding(text: &str, at: usize) -> Option<String> {
    let line = text[..at].rsplit('\n').next()?.trim_end();
    let lhs = line.strip_suffix('=')?.trim();
    let lhs = lhs.split(':').next()?.trim();
    let name = lhs.strip_prefix("let ")?.trim();
    let name = name.strip_prefix("mut ").unwrap_or(name).trim();
    (!name.is_empty() && name.bytes().all(is_ident_byte)).then(|| name.to_string())
}

/// Function calls that are whole elements of a `.subcommand(…)` /
/// `.subcommands([…])` argument: `build()`, `cmd::remote::cli()`.
fn called_functions(code: &Code<'_>, r: Range<usize>) -> Vec<String> {
    let mut elems = code.split_top_level(r.start, r.end, b',');
    // `[a(), b()]`, `vec![…]`, `&[…]`.
    if elems.len() == 1 {
        let s = code.slice(elems[0].clone());
        let s2 = s.trim_start_matches('&').trim_start_matches("vec!");
        if s2.starts_with('[') {
            let open = elems[0].start + (s.len() - s2.len());
            elems = code.args(open);
        }
    }
    let mut out = Vec::new();
    for e in elems {
        let s = code.slice(e.clone());
        if STARTERS.iter().any(|st| s.contains(st)) {
            continue;
        }
        let s = s.trim_start_matches('&');
        let head = match s.find('(') {
            Some(p) => s[..p].trim(),
            None => s.trim(),
        };
        if head.is_empty() || !head.bytes().all(|b| is_ident_byte(b) || b == b':') {
            continue;
        }
        // `cmd::remote::cli` → `remote.cli` (the module qualifies).
        let mut parts = head.rsplit("::");
        let f = parts.next().unwrap_or(head);
        match parts
            .next()
            .filter(|m| !matches!(*m, "self" | "super" | "crate"))
        {
            Some(m) => out.push(format!("{m}.{f}")),
            None => out.push(f.to_string()),
        }
    }
    out
}

/// The params of `Arg::new(…)…` chains and `arg!(…)` macros in an `.arg(…)`
/// argument of chain `me`, skipping those of nested chains.
fn args_in(code: &Code<'_>, r: Range<usize>) -> Vec<Param> {
    let text = code.text();
    let mut found: Vec<(usize, Vec<Param>)> = Vec::new();
    for s in ["Arg::new(", "Arg::with_name("] {
        for at in code.find_all_in(s, r.clone()) {
            if at > 0 && is_ident_byte(text.as_bytes()[at - 1]) {
                continue;
            }
            let Some(ch) = chain(code, at, at + s.len() - 1) else {
                continue;
            };
            let Some(id) = ch.name.clone() else { continue };
            let lit = |r: &Range<usize>| code.string_at(r.start).map(|l| l.value);
            let mut long = None;
            let mut short = None;
            let mut env = None;
            for (m, r) in &ch.calls {
                match m.as_str() {
                    "long" => long = lit(r),
                    "short" => short = lit(r),
                    "env" => env = lit(r),
                    _ => {}
                }
            }
            let mut ps = Vec::new();
            if let Some(l) = long {
                ps.push(Param::flag(format!("--{}", l.trim_start_matches('-'))));
            } else if let Some(s) = short {
                ps.push(Param::flag(format!("-{}", s.trim_start_matches('-'))));
            } else {
                ps.push(Param::argument(id));
            }
            if let Some(e) = env {
                ps.push(Param::env(e));
            }
            found.push((at, ps));
        }
    }
    for at in code.find_all_in("arg!(", r.clone()) {
        if at > 0 && is_ident_byte(text.as_bytes()[at - 1]) {
            continue;
        }
        let open = at + 4;
        let Some(close) = code.matching(open) else {
            continue;
        };
        if let Some(p) = arg_macro(code, open + 1, close) {
            found.push((at, vec![p]));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().flat_map(|(_, p)| p).collect()
}

/// `arg!(-v --verbose "help")`, `arg!(<file> "help")`, `arg!(id: -c
/// --config <FILE>)`: the flag, else the first value name.
fn arg_macro(code: &Code<'_>, start: usize, end: usize) -> Option<Param> {
    let mut s = String::new();
    let mut i = start;
    // Drop string literals (the help text).
    while i < end {
        if code.is_code(i) {
            if let Some(c) = code.text()[i..].chars().next() {
                s.push(c);
                i += c.len_utf8();
                continue;
            }
        } else {
            s.push(' ');
        }
        i += 1;
    }
    let s = match s.split_once(':') {
        Some((id, rest)) if id.trim().bytes().all(is_ident_byte) && !rest.starts_with(':') => {
            rest.to_string()
        }
        _ => s,
    };
    let mut short = None;
    let mut value = None;
    for tok in s.split_whitespace() {
        if let Some(l) = tok.strip_prefix("--") {
            let l = l.trim_end_matches([',', '.', '…']);
            if !l.is_empty() {
                return Some(Param::flag(format!("--{l}")));
            }
        } else if let Some(sh) = tok.strip_prefix('-') {
            if short.is_none() && !sh.is_empty() {
                short = Some(format!("-{}", sh.trim_end_matches(',')));
            }
        } else if value.is_none() {
            let v = tok
                .trim_end_matches("...")
                .trim_start_matches(['<', '['])
                .trim_end_matches(['>', ']']);
            if !v.is_empty() && v.bytes().all(|b| is_ident_byte(b) || b == b'-') {
                value = Some(v.to_string());
            }
        }
    }
    short
        .map(Param::flag)
        .or_else(|| value.map(Param::argument))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(rename_case("AddUser", None), "add-user");
        assert_eq!(rename_case("AddUser", Some("lower")), "adduser");
        assert_eq!(type_name("Option<Box<cmd::Commands>>"), "Commands");
        assert_eq!(bin_dir("tool/src/bin/gen/main.rs").as_deref(), Some("gen"));
        assert_eq!(bin_dir("tool/src/bin/gen.rs").as_deref(), Some("gen"));
    }

    #[test]
    fn macros() {
        let src = r#"arg!(-v --verbose "Verbose output")"#;
        let code = Code::new(src, Syntax::RUST);
        let p = arg_macro(&code, 5, src.len() - 1).map(|p| p.name);
        assert_eq!(p.as_deref(), Some("--verbose"));
        let src = r#"arg!(<FILE> "Input é")"#;
        let code = Code::new(src, Syntax::RUST);
        let p = arg_macro(&code, 5, src.len() - 1).map(|p| p.name);
        assert_eq!(p.as_deref(), Some("FILE"));
    }
}
